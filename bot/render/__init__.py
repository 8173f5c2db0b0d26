"""AnswerResult → Slack Block Kit messages (validated with slack_sdk.models), split to respect Slack's limits."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping

from pydantic import BaseModel, Field, field_validator
from slack_sdk.models.blocks import (
    ActionsBlock,
    Block,
    ButtonElement,
    ContextBlock,
    DividerBlock,
    MarkdownTextObject,
    PlainTextObject,
    SectionBlock,
)

from synthesis.citations import has as has_citation, unescape
from synthesis.models import AnswerResult, AskOptions, Source

from ..commands import USAGE
from .mrkdwn import (
    SECTION_LIMIT,
    cite,
    escape_mrkdwn,
    link_label,
    markdown_to_mrkdwn,
    slack_link,
    slack_url,
    split_text,
    strip_unsafe,
    strip_unsafe_deep,
)

__all__ = ["SECTION_LIMIT", "SlackMessage", "escape_mrkdwn", "link_label", "markdown_to_mrkdwn", "render_anchor",
           "render_answer", "render_error", "render_progress", "render_queued", "slack_url", "split_text", "strip_unsafe"]

BLOCKS_PER_MESSAGE = 50  # Slack: blocks per message
# Slack also rejects ~12-13k cumulative block characters (`msg_blocks_too_long`, bolt-js#2509); stay well under.
MESSAGE_CHAR_BUDGET = 10_000
BUTTON_VALUE_LIMIT = 2000
CONTEXT_TEXT_LIMIT = 2000
FALLBACK_LIMIT = 300  # notification text: short is kinder than Slack's 40k cap


class SlackMessage(BaseModel):
    """One message: `text` is the notification/accessibility fallback, `blocks` validated Block Kit dicts.

    Every string in it is stripped of control and bidi-override characters (documents and questions carry NUL,
    ESC or U+202E that Slack would show as garbage or use to make text read backwards).
    """

    text: str
    blocks: list[dict] = Field(default_factory=list)

    @field_validator("text", "blocks")
    @classmethod
    def _printable(cls, value):
        return strip_unsafe_deep(value)

    def as_kwargs(self) -> dict:
        """Keyword arguments for chat.postMessage / chat.update / respond."""
        return {"text": self.text, "blocks": self.blocks}


# --- blocks -------------------------------------------------------------------------------------------
def _mrkdwn(text: str) -> MarkdownTextObject:
    # verbatim: Slack must not auto-parse names or mentions in text that came from documents.
    return MarkdownTextObject(text=text, verbatim=True)



def _sections(text: str) -> list[Block]:
    return [SectionBlock(text=_mrkdwn(piece)) for piece in split_text(text)]


def _context(*texts: str) -> list[Block]:
    items = [t if len(t) <= CONTEXT_TEXT_LIMIT else t[: CONTEXT_TEXT_LIMIT - 1] + "…" for t in texts if t.strip()]
    return [ContextBlock(elements=[_mrkdwn(t) for t in items[i:i + 10]]) for i in range(0, len(items), 10)]


def _feedback_buttons(answer_id: str) -> Block:
    value = answer_id[:BUTTON_VALUE_LIMIT]
    return ActionsBlock(block_id="feedback", elements=[
        ButtonElement(text=PlainTextObject(text="👍 Helpful", emoji=True), action_id="feedback_up", value=value),
        ButtonElement(text=PlainTextObject(text="👎 Not helpful", emoji=True), action_id="feedback_down", value=value),
    ])


def _as_dicts(blocks: list[Block]) -> list[dict]:
    return [b.to_dict() for b in blocks]  # to_dict() validates (raises SlackObjectFormationError on a violation)


def _weight(block: dict) -> int:
    return len(json.dumps(block, ensure_ascii=False))


def _paginate(blocks: list[dict], tail: dict | None) -> list[list[dict]]:
    """Pack blocks into messages under the block-count and character budgets; `tail` goes last on the last one."""
    reserve_n, reserve_c = (1, _weight(tail)) if tail else (0, 0)
    pages: list[list[dict]] = [[]]
    used = 0
    for block in blocks:
        w = _weight(block)
        if pages[-1] and (len(pages[-1]) + 1 + reserve_n > BLOCKS_PER_MESSAGE or used + w + reserve_c > MESSAGE_CHAR_BUDGET):
            pages.append([])
            used = 0
        pages[-1].append(block)
        used += w
    if tail:
        pages[-1].append(tail)
    return pages


def _message_text(text: str) -> str:
    text = " ".join(escape_mrkdwn(re.sub(r"\*\*|__|```|`", "", unescape(text))).split())  # plain: shown in notifications
    return text if len(text) <= FALLBACK_LIMIT else text[: FALLBACK_LIMIT - 1] + "…"


# --- answers ------------------------------------------------------------------------------------------
def _sources(result: AnswerResult) -> list[Source]:
    """The numbered sources; when the synthesis has none (e.g. --sources-only), the retrieved passages."""
    if result.synthesis.sources:
        return sorted(result.synthesis.sources, key=lambda s: s.number)
    return [Source(number=i, passage_id=p.id, doc_id=p.doc_id, title=p.title, section=p.section, url=p.source_url)
            for i, p in enumerate(result.passages, start=1)]


def _source_url(source: Source, result: AnswerResult) -> str:
    if source.url:
        return source.url
    return next((p.source_url for p in result.passages if p.id == source.passage_id), "")


def _source_line(number: int | None, title: str, section: str, url: str) -> str:
    label = (f"[{number}] " if number is not None else "") + (title or url or "untitled")
    if section and section != title:
        label += f" — {section}"
    if slack_url(url):
        return slack_link(url, label)
    where = f" `{escape_mrkdwn(url)}`" if url and url != title and "`" not in url else ""
    return link_label(label, 300) + where  # not http (a file path): plain text, never a broken link


def _sources_text(result: AnswerResult, heading: str = "*Sources*") -> str:
    lines = [_source_line(s.number, s.title or s.doc_id, s.section, _source_url(s, result)) for s in _sources(result)]
    return "\n".join([heading, *lines]) if lines else ""


def _cites(content: str, citations: list[int], urls: Mapping[int, str]) -> str:
    """The `[n]` markers for a finding whose text does not already carry them."""
    if not citations or has_citation(content):
        return ""
    return " " + cite(dict.fromkeys(citations), urls)


def _answer_text(result: AnswerResult, urls: Mapping[int, str]) -> list[str]:
    syn, md = result.synthesis, (lambda t: markdown_to_mrkdwn(t, citation_urls=urls))
    parts = [md(syn.summary)] if syn.summary.strip() else []
    if syn.findings:
        parts.append("\n".join(["*Findings*", *(
            f"• *{link_label(f.topic, 200)}*: {md(f.content)}{_cites(f.content, f.citations, urls)}" if f.topic
            else f"• {md(f.content)}{_cites(f.content, f.citations, urls)}" for f in syn.findings)]))
    if syn.contradictions:
        lines = ["*⚠️ Contradictions*"]
        for c in syn.contradictions:
            lines.append(f"⚠️ {md(c.description)}{_cites(c.description, c.citations, urls)}")
            if c.suggestion.strip():
                lines.append(f"      ↳ {md(c.suggestion)}")
        parts.append("\n".join(lines))
    if syn.gaps:
        parts.append("\n".join(["*Gaps: not covered by the knowledge base*", *(f"• {md(g)}" for g in syn.gaps)]))
    return parts


_NO_ANSWER_HEAD = re.compile(r"^\s*I couldn't find this in the knowledge base\.?", re.I)  # the header says it


def _no_answer_text(result: AnswerResult) -> list[str]:
    parts = [f"🔍 I couldn't find an answer to “{link_label(result.question, 500)}” in the knowledge base."]
    # The agent names the closest topics in `closest_topics` (its no-answer result carries no passages).
    closest = [f"• {link_label(t, 300)}" for t in dict.fromkeys(result.closest_topics)][:5]
    seen: set[str] = set()
    for p in [] if closest else result.passages:
        if p.doc_id not in seen and len(seen) < 5:
            seen.add(p.doc_id)
            closest.append("• " + _source_line(None, p.title or p.doc_id, p.section, p.source_url))
    parts.append("This might be a gap worth filling.")
    if closest:
        parts.append("\n".join(["*Closest topics:*", *closest]))
    elif extra := _NO_ANSWER_HEAD.sub("", result.synthesis.summary).strip():
        parts.append(markdown_to_mrkdwn(extra))  # whatever else the summary says (an older or hand-made result)
    if result.synthesis.gaps:
        parts.append("\n".join(["*Not covered:*", *(f"• {escape_mrkdwn(g)}" for g in result.synthesis.gaps)]))
    parts.append("Try other words, fewer filters, or ask whoever runs the bot to add documents (`synthbot ingest`).")
    return parts


def _footer(result: AnswerResult) -> str:
    ok = sum(1 for s in result.subagents if s.success)
    passages = result.metrics.total_input_results or len(result.passages)
    searched = f"{ok}/{len(result.subagents)} searches, {passages} passages" if result.subagents else f"{passages} passages"
    model = f" ({escape_mrkdwn(result.llm_usage.model)})" if result.llm_usage else ""
    return (f"Confidence: *{result.confidence}* · Searched: {searched} · {escape_mrkdwn(result.synthesizer)}{model}"
            f" · {result.duration:.1f}s · id `{escape_mrkdwn(result.id)}`")


def _debug_text(result: AnswerResult) -> str:
    lines = [f"type: {result.question_type.value}", f"standalone: {result.standalone_question}",
             *(f"sub-query: {q}" for q in result.sub_queries),
             *(f"step {s.name}: {s.duration:.2f}s" for s in result.steps),
             f"context: {result.context_tokens} tokens ({result.tokenizer or 'n/a'})"]
    return "*Debug*\n```" + escape_mrkdwn("\n".join(lines)) + "```"


def render_answer(result: AnswerResult, *, options: AskOptions | None = None) -> list[SlackMessage]:
    """The answer as one or more messages (split to respect Slack's limits); feedback buttons on the last.

    Example:
        >>> messages = render_answer(result)
        >>> await client.chat_postMessage(channel=c, thread_ts=ts, **messages[0].as_kwargs())
    """
    options = options or AskOptions()
    urls = {s.number: _source_url(s, result) for s in _sources(result)}
    blocks: list[Block] = []
    if result.low_confidence and not result.no_answer:
        blocks += _context("⚠️ *Low confidence*: the sources only partly answer this; check them before relying on it.")
    if result.no_answer:
        parts = _no_answer_text(result)
    elif options.sources_only:
        parts = [_sources_text(result, f"*Sources for* “{link_label(result.question, 500)}”")
                 or "🔍 No sources matched."]
    else:
        parts = _answer_text(result, urls)
    for i, part in enumerate(parts):
        blocks += ([DividerBlock()] if i and part.startswith("*") else []) + _sections(part)
    if not result.no_answer and not options.sources_only and (sources := _sources_text(result)):
        blocks += [DividerBlock(), *_sections(sources)]
    if result.explore and not result.no_answer and not options.sources_only:
        blocks += _context("🧭 You might also explore: " + ", ".join(
            _source_line(None, p.title or p.doc_id, p.section, p.url) for p in result.explore))
    blocks += _context(*(f"ℹ️ {escape_mrkdwn(n)}" for n in result.notices))
    if options.debug:
        blocks += _sections(_debug_text(result))
    blocks += _context(_footer(result))
    pages = _paginate(_as_dicts(blocks), _feedback_buttons(result.id).to_dict())
    summary = result.synthesis.summary if not result.no_answer else f"No answer found for: {result.question}"
    first = _message_text(summary) or _message_text(f"Answer to: {result.question}") or "Answer"
    return [SlackMessage(text=first if i == 0 else f"(continued {i + 1}/{len(pages)})", blocks=page)
            for i, page in enumerate(pages)]


# --- status and errors --------------------------------------------------------------------------------
_STAGES = {"plan": "Planning the search", "planning": "Planning the search", "search": "Searching the knowledge base",
           "retrieve": "Searching the knowledge base", "aggregate": "Ranking what I found",
           "synthesize": "Writing the answer", "verify": "Checking the citations",
           "refine": "Looking for what's missing", "queued": "Waiting for a free slot"}
_ERRORS = {
    "no_kb": "📭 There's no knowledge base yet. Whoever runs the bot can build one with `synthbot ingest PATH`.",
    "store_unavailable": "🛑 I couldn't search the knowledge base: it is unavailable right now. This is a fault on "
                         "our side, not a missing answer — please ask again later, and share the error id below "
                         "with whoever runs the bot.",
    "nothing_found": "🔍 I found nothing relevant. Try other words or fewer filters (`--tag`, `--source`).",
    "timeout": "⏱️ That took too long, so I stopped. Try a narrower question, or ask again in a minute.",
    "restarting": "🔁 I was restarted before I could finish this answer. Please ask again.",
    "internal": "💥 Something went wrong on my side. Please try again; if it keeps happening, "
                "share the error id below with whoever runs the bot.",
    "usage": "🤔 I couldn't read that command.",
    "invalid": "🤔 I can't search for that as asked. Rephrase the question or change its options.",
    "busy": "🚦 I'm answering as many questions as I can right now. Please try again in a minute.",
    "out_of_scope": "🔒 This channel may not see any part of the knowledge base.",
}


def _user(user_id: str) -> str:
    return f"<@{user_id}>" if re.fullmatch(r"[UW][A-Z0-9]{2,}", user_id or "") else escape_mrkdwn(user_id or "someone")


ANCHOR_QUESTION_CHARS = 2000  # the anchor shows this much of a long question; the agent still gets all of it


def _quote(question: str) -> str:
    question = question.strip() or "…"
    if len(question) > ANCHOR_QUESTION_CHARS:
        question = f"{question[:ANCHOR_QUESTION_CHARS].rstrip()} … ({len(question):,} characters in all)"
    return "\n".join("> " + line for line in escape_mrkdwn(question).splitlines())


def _single(text: str, blocks: list[Block]) -> SlackMessage:
    return SlackMessage(text=_message_text(text) or "…", blocks=_as_dicts(blocks)[:BLOCKS_PER_MESSAGE])


def render_error(kind: str, detail: str = "", *, error_id: str | None = None) -> SlackMessage:
    """A failure the user can act on: no_kb, nothing_found, timeout, internal, usage, busy, invalid, restarting."""
    head = _ERRORS.get(kind, _ERRORS["internal"])
    body = head + (f"\n{escape_mrkdwn(detail)}" if detail.strip() and kind != "usage" else "")
    if kind == "usage":
        body = f"{head}\n{escape_mrkdwn(detail)}\n\n{USAGE}" if detail.strip() else f"{head}\n\n{USAGE}"
    blocks = _sections(body) + (_context(f"Error id: `{escape_mrkdwn(error_id)}`") if error_id else [])
    return _single(head + (f" (error id {error_id})" if error_id else ""), blocks)


def render_progress(stage: str, question: str = "", *, user_id: str | None = None) -> SlackMessage:
    """A status line while the agent works; with `question` (and `user_id`) it can replace the anchor."""
    label = _STAGES.get(stage.lower().strip(), escape_mrkdwn(stage.strip() or "Working"))
    who = f"{_user(user_id)} asked:\n" if user_id else ""
    head = _sections(f"{who}{_quote(question)}") if question.strip() else []
    return _single(f"{label}…", head + _context(f"⏳ {label}…"))


def render_anchor(user_id: str, question: str) -> SlackMessage:
    """The channel message that shows who asked what; the answer goes in its thread."""
    return _single(f"Question: {question}", _sections(f"{_user(user_id)} asked:\n{_quote(question)}")
                   + _context("⏳ Working on it — the answer will appear in this thread."))


def render_queued(position: int) -> SlackMessage:
    """Tell a queued user their place in line."""
    where = "next in line" if position <= 1 else f"number {position} in line"
    text = f"🕐 I'm busy with other questions: you're {where}. I'll start on yours as soon as a slot frees up."
    return _single(text, _sections(text))

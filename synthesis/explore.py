"""Around the agent: meta questions answered with coverage, "You might also explore", the gap line, the log.

`InstrumentedAgent` wraps anything with `Agent.answer`'s signature, so every entry point (Slack, CLI, Python)
gets the same behaviour without the agent loop knowing about coverage or the retrieval log.
"""

from __future__ import annotations

import asyncio
import re
import threading
from collections import Counter
from collections.abc import Sequence

import structlog

from .agent import NO_ANSWER
from .coverage import Inventory, Scope, analyze
from .models import (AnswerResult, AskOptions, Finding, Passage, Plan, QuestionType, Quality, RelatedPage, Source,
                     Synthesis, Turn, headings)
from .planner import plan as make_plan
from .stems import STOPWORDS, words
from .usage import UsageLog, answer_event, record_safely

log = structlog.get_logger(__name__)

GAP_LINE = "This might be a gap worth filling."
EXPLORE_FLOOR = 0.30  # an uncited passage must score this well to be suggested as "near" the answer
_LINK = re.compile(r"\]\(([^)\s]+)\)|(https?://[^\s)>\]]+)")
# Words that say "tell me about the knowledge base", not what the question is about.
_META_WORDS = frozenset("""complete completeness coverage covered cover covers documentation documented docs doc
documents document knowledge base kb have has know information info pages page written well thorough good much
many topics topic sources source wiki handbook anything stuff material materials content exist exists there""".split())


def meta_topic(question: str) -> str:
    """'How complete is our on-call documentation?' → 'on-call'; '' when it is about the whole knowledge base."""
    kept = [w for w in words(question) if w.lower() not in STOPWORDS and w.lower() not in _META_WORDS]
    return " ".join(kept)


class InstrumentedAgent:
    """The agent plus coverage-aware extras and the retrieval log.

    Args:
        agent: anything with `answer(question, *, history, options, progress)` (synthesis.agent.Agent).
        store: the knowledge base (for the inventory behind "explore next" and meta answers).
        usage: the retrieval log; None records nothing.
        surface: who is asking (slack, cli, python), recorded with every event.

    Example:
        >>> agent = InstrumentedAgent(build_agent(settings, store), store, usage=open_usage_log(settings))
        >>> result = await agent.answer("How complete is our on-call documentation?")
    """

    def __init__(self, agent, store, *, usage: UsageLog | None = None, surface: str = "python",
                 retriever=None) -> None:
        self.agent, self.store, self.usage, self.surface = agent, store, usage, surface
        self.retriever = retriever if retriever is not None else getattr(agent, "retriever", None)
        self._inventory: tuple[str, Inventory] | None = None
        self._lock = threading.Lock()

    def __getattr__(self, name: str):  # settings, synthesizer, counter… of the wrapped agent
        if name == "agent":
            raise AttributeError(name)
        return getattr(self.agent, name)

    def close(self) -> None:
        closer = getattr(self.agent, "close", None)
        if callable(closer):
            closer()

    async def answer(self, question: str, *, history: Sequence[Turn] = (), options: AskOptions | None = None,
                     progress=None, scope: Scope = Scope(), channel=None) -> AnswerResult:
        """`scope` narrows a meta question's coverage (the channel's questions only, under channel rules).
        `channel` is accepted and unused: without channel rules every channel sees this store (synthesis.scoped
        picks the store per channel when there are rules)."""
        options = options or AskOptions()
        planned = make_plan(question.strip(), history) if question and question.strip() else None
        if planned is not None and planned.question_type is QuestionType.META and not options.sources_only \
                and self.retriever is not None:
            if progress is not None:
                await progress("Measuring coverage…")
            result = await asyncio.to_thread(self.meta_answer, question, planned, scope)
            kind = "meta"
        else:
            result = await self.agent.answer(question, history=history, options=options, progress=progress)
            kind = "ask"
            await asyncio.to_thread(self._extras, result)
        event = answer_event(result, surface=self.surface, collection=getattr(self.store, "name", ""),
                             followup=bool(history), kind=kind)
        if kind == "meta":  # its "gaps" are the report's, not this question's; its topic is what was asked about
            event.gaps, event.standalone = [], " ".join(result.sub_queries) or event.standalone
        await asyncio.to_thread(record_safely, self.usage, event)
        return result

    # --- extras ----------------------------------------------------------------------------------------
    def inventory(self) -> Inventory:
        """The store's inventory, reloaded only when the collection changed."""
        revision = self.store.revision()
        with self._lock:
            if self._inventory is None or self._inventory[0] != revision:
                self._inventory = (revision, Inventory.load(self.store))
            return self._inventory[1]

    def _extras(self, result: AnswerResult) -> None:
        if result.no_answer:
            if GAP_LINE not in result.synthesis.summary:
                summary = result.synthesis.summary
                head = NO_ANSWER if summary.startswith(NO_ANSWER) else ""
                result.synthesis.summary = f"{head} {GAP_LINE}{summary[len(head):]}".strip() if head \
                    else f"{summary} {GAP_LINE}".strip()
            return
        try:
            result.explore = related_pages(result, self.inventory())
        except Exception as exc:  # a suggestion is a courtesy: never fail the answer for it
            log.warning("explore.failed", error=f"{type(exc).__name__}: {exc}"[:300])

    def meta_answer(self, question: str, planned: Plan, scope: Scope = Scope()) -> AnswerResult:
        """A question about the knowledge base itself: its topic's coverage, as a cited answer."""
        topic = meta_topic(planned.standalone)
        events = self.usage.events() if self.usage is not None else []
        report = analyze(self.store, events, topic or None, retriever=self.retriever, inventory=self.inventory(),
                         scope=scope)
        return coverage_answer(question, planned, report)


def open_instrumented(settings, *, usage: UsageLog | None = None, surface: str = "python"):
    """(agent, store) for an entry point: the knowledge base opened and the agent wrapped (KnowledgeBaseMissing
    when nothing was ingested yet); under channel rules, the ScopedAgent and the view /healthz reads."""
    from .agent import build_agent
    from .store import open_store

    if settings.channel_rules:  # each question sees what its channel may see (synthesis/scoped.py)
        from .scoped import open_channel_agent

        return open_channel_agent(settings, usage=usage, surface=surface)
    store = open_store(settings)
    return InstrumentedAgent(build_agent(settings, store), store, usage=usage, surface=surface), store


def coverage_answer(question: str, planned: Plan, report) -> AnswerResult:
    """The coverage report as an AnswerResult: headline, one finding per facet, its gaps, cited passages."""
    passages: list[Passage] = []
    sources: list[Source] = []
    number: dict[str, int] = {}

    def cite(p) -> int:
        if p.id not in number:
            number[p.id] = len(number) + 1
            passages.append(Passage(id=p.id, doc_id=p.doc_id, content=p.content, score=p.score, title=p.title,
                                    section=p.section, source_url=p.url))
            sources.append(Source(number=number[p.id], passage_id=p.id, doc_id=p.doc_id, title=p.title,
                                  section=p.section, url=p.url))
        return number[p.id]

    findings = []
    if report.topic:
        for facet in [f for f in report.facets if f.supporting][:6]:
            hits = [p for p in report.passages if f"{facet.kind}:{facet.name}" in p.facets][:2]
            cites = sorted(cite(p) for p in hits)
            marks = "".join(f"[{n}]" for n in cites)
            findings.append(Finding(topic=f"{facet.kind}: {facet.name}", citations=cites,
                                    confidence="high" if facet.status == "covered" else "low",
                                    content=f"{facet.supporting} passage{'s' if facet.supporting != 1 else ''} "
                                            f"about “{report.topic}” score ≥ {report.threshold:.2f} {marks}".strip()))
    else:
        r = report.retrieval
        for name, row in list(report.inventory.get("by_source", {}).items())[:6]:
            findings.append(Finding(topic=f"source: {name}", confidence="medium",
                                    content=f"{row['documents']} documents, {row['chunks']} chunks"))
        findings.append(Finding(topic="retrieval", confidence="medium",
                                content=f"{r.retrieved_documents} of {r.documents} documents and "
                                        f"{r.retrieved_chunks} of {r.chunks} chunks retrieved by "
                                        f"{r.events} logged questions and searches"))
    summary = f"{report.headline_text} — {report.definition}."
    synthesis = Synthesis(summary=summary, findings=findings, gaps=list(report.gaps[:10]), sources=sources,
                          quality=Quality(citation_rate=1.0, coherence=1.0, completeness=1.0, overall=1.0))
    return AnswerResult(question=question, standalone_question=planned.standalone, question_type=QuestionType.META,
                        sub_queries=[report.topic] if report.topic else [], passages=passages, synthesis=synthesis,
                        synthesizer="coverage", duration=report.seconds)


def related_pages(result: AnswerResult, inventory: Inventory, *, limit: int = 3) -> list[RelatedPage]:
    """Up to `limit` pages the answer did not cite: linked from the cited passages, near them in embedding space
    (retrieved, scoring ≥ EXPLORE_FLOOR), or neighbours sharing a tag or top section with them."""
    cited = {s.doc_id for s in result.synthesis.sources}
    if not cited:
        return []
    picked: dict[str, str] = {}

    def add(doc_id: str, reason: str) -> None:
        if doc_id and doc_id not in cited and doc_id not in picked and doc_id in inventory.docs:
            picked[doc_id] = reason

    by_url = {c.url: c.doc_id for c in inventory.chunks if c.url}
    cited_ids = {s.passage_id for s in result.synthesis.sources}
    for p in result.passages:
        if p.id in cited_ids:
            for m in _LINK.finditer(p.content):
                target = (m.group(1) or m.group(2)).split("#")[0]
                doc = by_url.get(target) or next((d for d in inventory.docs if target and d.endswith(target)), "")
                add(doc, "linked")
    near: dict[str, float] = {}
    for p in [*result.passages, *(q for s in result.subagents for q in s.passages)]:
        if p.score >= EXPLORE_FLOOR and p.doc_id not in cited:
            near[p.doc_id] = max(near.get(p.doc_id, 0.0), p.score)
    for doc_id, _ in sorted(near.items(), key=lambda kv: -kv[1]):
        add(doc_id, "related")
    tags = Counter(t for d in cited for c in inventory.docs.get(d, []) for t in c.tags)
    sections = {headings(c.section)[0] for d in cited for c in inventory.docs.get(d, []) if c.section}
    scored: Counter[str] = Counter()
    for doc_id, chunks in inventory.docs.items():
        shared = {t for c in chunks for t in c.tags} & set(tags)
        if shared:
            scored[doc_id] += 2 * len(shared)
        if any(headings(c.section)[0] in sections for c in chunks if c.section):
            scored[doc_id] += 1
    for doc_id, _ in sorted(scored.items(), key=lambda kv: (-kv[1], kv[0])):
        add(doc_id, "same tag or section")
    out = []
    for doc_id, reason in list(picked.items())[:limit]:
        page = inventory.page(doc_id)
        out.append(RelatedPage(doc_id=doc_id, title=page["title"], url=page["url"], reason=reason))
    return out

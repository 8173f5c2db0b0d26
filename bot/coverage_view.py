"""`/ask --coverage [topic]` in Slack: the report (off the event loop), a compact Block Kit view, and the chart."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from typing import Any

import structlog
from slack_sdk.models.blocks import ContextBlock, DividerBlock, MarkdownTextObject, SectionBlock

from bot.render import SlackMessage, escape_mrkdwn, link_label, slack_link, slack_url
from synthesis.config import Settings
from synthesis.coverage import CoverageReport, Scope, analyze
from synthesis.scoping import Channel

log = structlog.get_logger(__name__)

SHOWN_FACETS = 8
SHOWN_GAPS = 8
SHOWN_PAGES = 5
_ICON = {"covered": "✅", "thin": "🟡", "gap": "🔴"}


class CoverageService:
    """`deps.coverage`: the CoverageReport for a topic (or the whole knowledge base).

    The store and retriever are opened on first use (so a missing knowledge base is reported per request, with the
    fix) and reused; `scope` narrows every figure. Under channel rules (SYNTHBOT_CHANNEL_RULES) the report is the
    asking channel's: what its rule lets it see, and only the questions asked in it (synthesis.scoped).
    """

    def __init__(self, settings: Settings, *, usage=None, store=None, retriever=None, scope: Scope = Scope(),
                 scoped: Callable[[], Awaitable[Any]] | None = None) -> None:
        self.settings, self.usage, self.scope = settings, usage, scope
        self._store, self._retriever = store, retriever
        self._scoped = scoped  # under channel rules: the ScopedAgent whose scopes the report uses
        self._own_scoped = None  # …or one opened here when none was given
        self._lock = threading.Lock()

    async def __call__(self, topic: str | None, *, channel: Channel | None = None) -> CoverageReport:
        if self.settings.channel_rules:  # what the asking channel may see, and only its own questions
            agent = await self._scoped_agent()
            events = await asyncio.to_thread(self.usage.events) if self.usage is not None else []
            return await asyncio.to_thread(agent.coverage, topic, channel, events)
        return await asyncio.to_thread(self.report, topic)

    async def _scoped_agent(self):
        if self._scoped is not None:
            return await self._scoped()
        with self._lock:  # no shared agent was given: open one (the model is cached per process)
            if self._own_scoped is None:
                from synthesis.scoped import open_channel_agent

                self._own_scoped = open_channel_agent(self.settings, usage=self.usage)[0]
            return self._own_scoped

    def close(self) -> None:
        """Close the ScopedAgent opened here (its collections' search pool); a shared one is its owner's to close."""
        with self._lock:
            own, self._own_scoped = self._own_scoped, None
        if own is not None:
            own.close()

    def report(self, topic: str | None) -> CoverageReport:
        store, retriever = self._open()
        events = self.usage.events() if self.usage is not None else []
        return analyze(store, events, topic, retriever=retriever, scope=self.scope)

    def _open(self):
        with self._lock:
            if self._store is None:
                from synthesis.store import open_store

                self._store = open_store(self.settings)
            if self._retriever is None:
                from synthesis.retrieval import make_retriever

                self._retriever = make_retriever(self.settings, self._store)
            return self._store, self._retriever


def _section(text: str) -> dict:
    return SectionBlock(text=MarkdownTextObject(text=text[:2900], verbatim=True)).to_dict()


def _page(p: dict) -> str:
    label = link_label(p.get("title") or p.get("doc_id") or "untitled", 120)
    url = p.get("url") or ""
    return slack_link(url, label) if slack_url(url) else label


def render_coverage(report: CoverageReport) -> list[SlackMessage]:
    """The compact report: headline and definition, the facets, "Gaps identified", never-retrieved pages, signals."""
    about = f" of “{link_label(report.topic, 200)}”" if report.topic else ""
    head = f"*📊 Overall: {round(report.headline * 100)} % coverage{about}*"
    blocks = [_section(head), ContextBlock(elements=[MarkdownTextObject(
        text=escape_mrkdwn(f"Definition: {report.definition}."), verbatim=True)]).to_dict()]
    inv = report.inventory
    if report.facets:
        unit = "passages" if report.topic else "docs retrieved"
        lines = [f"{_ICON[f.status]} {escape_mrkdwn(f.kind)} *{link_label(f.name, 80)}*: {f.supporting} {unit}"
                 + ("" if report.topic else f" of {f.documents}") for f in report.facets[:SHOWN_FACETS]]
        more = len(report.facets) - SHOWN_FACETS
        blocks.append(_section("*Facets*\n" + "\n".join(lines) + (f"\n… and {more} more" if more > 0 else "")))
    if report.gaps:
        gaps = [f"• {escape_mrkdwn(g)}" for g in report.gaps[:SHOWN_GAPS]]
        more = len(report.gaps) - SHOWN_GAPS
        blocks += [DividerBlock().to_dict(),
                   _section("*Gaps identified*\n" + "\n".join(gaps) + (f"\n… and {more} more" if more > 0 else ""))]
    r = report.retrieval
    if not report.topic and r.events and r.never_retrieved_documents:
        pages = ", ".join(_page(p) for p in r.never_retrieved_documents[:SHOWN_PAGES])
        more = len(r.never_retrieved_documents) - SHOWN_PAGES
        blocks.append(_section(f"*Never retrieved* ({len(r.never_retrieved_documents)} of {r.documents} pages): "
                               + pages + (f" … and {more} more" if more > 0 else "")))
    if report.topic and report.passages:
        best = {p.doc_id: p for p in reversed(report.passages)}  # each document once, at its best passage
        top = sorted(best.values(), key=lambda p: -p.score)[:SHOWN_PAGES]
        blocks.append(_section("*Best covered in:* " + ", ".join(
            _page({"title": p.title, "doc_id": p.doc_id, "url": p.url}) for p in top)))
    if r.events:
        phrases = ", ".join(escape_mrkdwn(p) for p, _ in report.signals.gap_phrases[:5])
        note = f"{inv.get('documents', 0)} documents · {inv.get('chunks', 0)} chunks · retrieval: " \
               f"{r.retrieved_chunks}/{r.chunks} chunks ({r.chunk_rate:.0%}) by {r.events} logged questions"
        blocks.append(ContextBlock(elements=[MarkdownTextObject(
            text=note + (f" · frequent gaps: {phrases}" if phrases else ""), verbatim=True)]).to_dict())
    else:
        blocks.append(ContextBlock(elements=[MarkdownTextObject(
            text=f"{inv.get('documents', 0)} documents · {inv.get('chunks', 0)} chunks · {report.seconds:.1f}s",
            verbatim=True)]).to_dict())
    text = f"Overall: {round(report.headline * 100)} % coverage" + (f" of {report.topic}" if report.topic else "")
    return [SlackMessage(text=text, blocks=blocks[:50])]


async def post_chart(client, *, channel: str, thread_ts: str | None, report: CoverageReport) -> bool:
    """Draw the chart off the event loop and upload it into the thread with files_upload_v2; False on failure."""
    from bot.chart import coverage_chart_png

    try:
        png = await asyncio.to_thread(coverage_chart_png, report)
        name = "coverage" + (f"-{report.topic}" if report.topic else "")
        await client.files_upload_v2(channel=channel, thread_ts=thread_ts, file=png,
                                     filename="".join(c if c.isalnum() or c in "-_" else "-" for c in name) + ".png",
                                     title=report.headline_text, alt_txt=f"{report.headline_text}: coverage per facet",
                                     initial_comment="📊 Coverage per facet")
        return True
    except Exception as exc:  # the text report already landed; a missing chart must not turn it into an error
        log.warning("coverage.chart_failed", channel=channel, error=f"{type(exc).__name__}: {exc}"[:300])
        return False

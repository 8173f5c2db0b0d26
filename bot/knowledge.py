"""The agent over the knowledge base, for `serve` and `console`: opened lazily, so an empty volume is fine."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import structlog

from bot.deps import AnswersQuestions
from synthesis.config import Settings
from synthesis.models import AnswerResult

log = structlog.get_logger(__name__)


class KnowledgeBaseAgent:
    """The agent over the knowledge base, opened lazily: `serve` starts on an empty volume and starts answering
    from the knowledge base as soon as `synthbot ingest` has made one (no restart), retrying at most every
    `retry_every` seconds while there is none."""

    def __init__(self, settings: Settings, *, retry_every: float = 5.0,
                 opener: Callable[[Settings], tuple[AnswersQuestions, Any]] | None = None) -> None:
        self.settings, self.retry_every = settings, retry_every
        self._opener = opener or _open_agent
        self._agent: AnswersQuestions | None = None
        self._store: Any = None
        self._missing: Exception | None = None
        self._tried = float("-inf")
        self._opening = asyncio.Lock()

    async def open(self) -> None:
        """Open now; KnowledgeBaseMissing is remembered (and re-raised per question), anything else raises."""
        from synthesis.errors import KnowledgeBaseMissing

        async with self._opening:
            if self._agent is not None or time.monotonic() - self._tried < self.retry_every:
                return
            self._tried = time.monotonic()
            try:
                self._agent, self._store = await asyncio.to_thread(self._opener, self.settings)
                self._missing = None
            except KnowledgeBaseMissing as exc:
                if self._missing is None:
                    log.warning("kb.missing", error=str(exc))
                self._missing = exc

    async def answer(self, question: str, **kw: Any) -> AnswerResult:
        if self._agent is None:
            await self.open()
        if self._agent is None:
            raise self._missing
        return await self._agent.answer(question, **kw)

    async def opened(self) -> AnswersQuestions:
        """The opened agent (KnowledgeBaseMissing while there is no knowledge base): coverage shares its scopes."""
        if self._agent is None:
            await self.open()
        if self._agent is None:
            raise self._missing
        return self._agent

    async def check(self) -> None:
        """For /healthz: reach the store (a missing knowledge base raises KnowledgeBaseMissing)."""
        if self._store is None:
            await self.open()
            if self._store is None:
                raise self._missing
        await asyncio.to_thread(self._store.revision)

    def close(self) -> None:
        if callable(closer := getattr(self._agent, "close", None)):
            closer()


def _open_agent(settings: Settings) -> tuple[AnswersQuestions, Any]:
    """Load the model and open the store once (KnowledgeBaseMissing when nothing was ingested yet)."""
    from synthesis.agent import build_agent
    from synthesis.store import open_store

    if settings.channel_rules:  # per-channel knowledge (synthesis/scoped.py); the retrieval log feeds coverage
        from synthesis.scoped import open_channel_agent
        from synthesis.usage import open_usage_log

        usage = open_usage_log(settings)
        try:  # the agent closes this log with itself: nothing else holds it
            return open_channel_agent(settings, usage=usage, surface="slack", owns_usage=True)
        except BaseException:
            usage.close()
            raise
    store = open_store(settings)
    return build_agent(settings, store), store

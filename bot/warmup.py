"""A warm bot stays warm: `synthbot serve` loads the model, Chroma's index and the BM25 index before it is healthy.

`WarmingAgent` is the knowledge-base agent `serve` builds, opened after the HTTP server is up: `/healthz` answers
"starting" from the first second until the model and both indexes are loaded, and a question that arrives meanwhile
waits for the warm agent instead of paying the load itself.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import structlog

from bot.knowledge import KnowledgeBaseAgent, _open_agent
from synthesis.config import Settings
from synthesis.errors import KnowledgeBaseMissing
from synthesis.models import AnswerResult
from synthesis.qa.question import zipf

log = structlog.get_logger(__name__)

WARM_UP_QUERY = "warm up"


def open_warm_agent(settings: Settings) -> tuple[Any, Any]:
    """Open the agent and store (loads the model), then run one hybrid search: Chroma's index and BM25 load now."""
    started = time.perf_counter()
    agent, store = _open_agent(settings)
    loaded = time.perf_counter()
    try:
        agent.retriever.search(WARM_UP_QUERY, k=1, mode="hybrid")
    except KnowledgeBaseMissing as exc:
        if not settings.channel_rules:
            raise
        # Under channel rules this error names every rule's collections. Kept, KnowledgeBaseAgent would repeat it
        # to every channel; each channel's own search says which of its own collections is missing instead.
        log.warning("kb.missing", error=str(exc))
    indexed = time.perf_counter()
    zipf("warm")  # the reader's word-frequency tables (about 30 MB) load on first use: now, not in the first answer
    log.info("serve.warm", model_seconds=round(loaded - started, 3), index_seconds=round(indexed - loaded, 3),
             word_frequency_seconds=round(time.perf_counter() - indexed, 3))
    return agent, store


class WarmingAgent(KnowledgeBaseAgent):
    """KnowledgeBaseAgent that `serve` warms after binding; `ready` drives /healthz's "starting"."""

    def __init__(self, settings: Settings, *, opener: Callable[[Settings], tuple[Any, Any]] = open_warm_agent,
                 **kwargs: Any) -> None:
        super().__init__(settings, opener=opener, **kwargs)
        self.ready = False
        self._warm = asyncio.Event()

    async def warm(self) -> None:
        """Open and warm up (in a thread, so /healthz keeps answering). An empty volume is fine; other errors raise."""
        started = time.perf_counter()
        await self.open()
        self.ready = True
        self._warm.set()
        log.info("serve.ready", seconds=round(time.perf_counter() - started, 3))

    async def answer(self, question: str, **kwargs: Any) -> AnswerResult:
        await self._warm.wait()
        return await super().answer(question, **kwargs)

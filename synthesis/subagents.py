"""Parallel retrieval subagents: one per sub-query, each in a bounded executor, with a timeout, failures isolated."""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Sequence
from concurrent.futures import Executor
from typing import Protocol

import structlog

from .errors import KnowledgeBaseMissing, ModelMismatch, StoreUnavailable
from .models import Passage, SearchFilters, SearchMode, SearchResponse, SubagentResult

log = structlog.get_logger(__name__)

# These mean no subagent can succeed: surface them instead of reporting N failed subagents.
FATAL = (KnowledgeBaseMissing, ModelMismatch, StoreUnavailable)


class SearchBackend(Protocol):
    """What a subagent needs from retrieval (synthesis.retrieval.Retriever implements it); synchronous. A backend
    may also offer `following(passages)` and `preceding(passages)`, each passage's next and previous chunk
    (Retriever.following, Retriever.preceding); the agent uses them when present."""

    def search(self, query: str, *, k: int = 5, mode: SearchMode = "hybrid", threshold: float = 0.0,
               diversity: float = 0.0, filters: SearchFilters | None = None, length_weight: float = 0.0,
               with_embeddings: bool = False, debug: bool = False) -> SearchResponse: ...


def as_passage(result: Passage) -> Passage:
    """Search results carry a rank; downstream only needs the Passage fields (keep the embedding, it is excluded)."""
    data = {name: getattr(result, name) for name in Passage.model_fields}
    return Passage(**data)


async def run_subagent(backend: SearchBackend, name: str, query: str, *, k: int, filters: SearchFilters | None,
                       executor: Executor | None, timeout: float, mode: SearchMode = "hybrid") -> SubagentResult:
    """Run one search in the executor under a timeout; errors become a failed SubagentResult."""
    loop = asyncio.get_running_loop()
    started = time.perf_counter()
    call = functools.partial(backend.search, query, k=k, mode=mode, filters=filters, with_embeddings=True)
    try:
        response = await asyncio.wait_for(loop.run_in_executor(executor, call), timeout=timeout)
    except FATAL:
        raise
    except asyncio.TimeoutError:
        duration = time.perf_counter() - started
        log.warning("subagent.timeout", subagent=name, query=query, timeout=timeout)
        return SubagentResult(subagent=name, query=query, success=False, duration=duration,
                              error=f"timed out after {timeout:g}s")
    except Exception as exc:  # one subagent's failure must not sink the others
        duration = time.perf_counter() - started
        log.warning("subagent.failed", subagent=name, query=query, error=f"{type(exc).__name__}: {exc}")
        return SubagentResult(subagent=name, query=query, success=False, duration=duration,
                              error=f"{type(exc).__name__}: {exc}")
    duration = time.perf_counter() - started
    passages = [as_passage(r) for r in response.results]
    log.info("subagent.done", subagent=name, query=query, results=len(passages), seconds=round(duration, 4))
    return SubagentResult(subagent=name, query=query, success=True, passages=passages, duration=duration)


async def run_subagents(backend: SearchBackend, queries: Sequence[str], *, k: int, filters: SearchFilters | None = None,
                        executor: Executor | None = None, timeout: float = 20.0,
                        prefix: str = "subagent", mode: SearchMode = "hybrid") -> list[SubagentResult]:
    """Every query as its own subagent, concurrently; results in query order.

    Example:
        >>> results = await run_subagents(retriever, ["deploy windows", "friday deploys"], k=8, executor=pool)
    """
    tasks = [run_subagent(backend, f"{prefix}-{i + 1}", q, k=k, filters=filters, executor=executor, timeout=timeout,
                          mode=mode) for i, q in enumerate(queries)]
    return list(await asyncio.gather(*tasks))

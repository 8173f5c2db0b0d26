"""Parallel subagents: concurrency, timeouts and failures isolated, fatal store errors surfaced."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from synthesis.errors import KnowledgeBaseMissing
from synthesis.models import SearchFilters
from synthesis.subagents import run_subagents

from .fakes import MISSING, ScriptedBackend, result


@pytest.fixture
def pool():
    with ThreadPoolExecutor(max_workers=4) as ex:
        yield ex


async def test_subagents_run_concurrently_and_keep_query_order(pool):
    backend = ScriptedBackend({"a": [result(1, "alpha", 0.9)], "b": [result(2, "beta", 0.8)]},
                              barrier=threading.Barrier(2))
    out = await run_subagents(backend, ["a", "b"], k=3, executor=pool, timeout=10)
    assert [r.query for r in out] == ["a", "b"] and all(r.success for r in out)
    assert [r.subagent for r in out] == ["subagent-1", "subagent-2"]
    assert out[0].passages[0].content == "alpha"
    assert all(call["with_embeddings"] and call["k"] == 3 for call in backend.calls)


async def test_timeout_and_failure_are_recorded_while_others_succeed(pool):
    hang = threading.Event()
    backend = ScriptedBackend({"slow": hang, "boom": RuntimeError("index corrupt"), "ok": [result(1, "fine", 0.7)]})
    try:
        out = await run_subagents(backend, ["slow", "boom", "ok"], k=5, executor=pool, timeout=1.0)
    finally:
        hang.set()
    slow, boom, ok = out
    assert not slow.success and "timed out" in slow.error
    assert not boom.success and "RuntimeError: index corrupt" in boom.error
    assert ok.success and ok.passages[0].content == "fine"


async def test_filters_are_passed_through(pool):
    backend = ScriptedBackend({})
    filters = SearchFilters(tags=["policy"])
    await run_subagents(backend, ["q"], k=2, filters=filters, executor=pool, timeout=5)
    assert backend.calls[0]["filters"] == filters


async def test_missing_knowledge_base_is_raised_not_hidden(pool):
    backend = ScriptedBackend({"q": MISSING})
    with pytest.raises(KnowledgeBaseMissing):
        await run_subagents(backend, ["q"], k=2, executor=pool, timeout=5)

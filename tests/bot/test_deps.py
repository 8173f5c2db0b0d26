"""The app's plumbing: run limiter, dedupe (memory and a real Redis on loopback), progress updates, background tasks."""

from __future__ import annotations

import asyncio
import inspect
import socket
import time
import uuid

import pytest
import structlog

from bot.deps import Background, MemoryDeduper, ProgressUpdater, RedisDeduper, RunLimiter
from bot.feedback import FeedbackLog
from bot.threads import RedisConversationStore, SQLiteConversationStore
from tests.conftest import free_port


async def test_run_limiter_bounds_runs_and_reports_the_queue():
    limiter, running, peak, gate = RunLimiter(2), 0, 0, asyncio.Event()
    positions = []

    async def run():
        nonlocal running, peak
        positions.append(limiter.queued_ahead())
        async with limiter.slot():
            running += 1
            peak = max(peak, running)
            await gate.wait()
            running -= 1

    tasks = [asyncio.create_task(run()) for _ in range(5)]
    await asyncio.sleep(0.01)
    assert positions == [None, None, 0, 1, 2] and limiter.waiting == 3 and limiter.running == 2
    gate.set()
    await asyncio.gather(*tasks)
    assert peak == 2 and limiter.waiting == 0 and limiter.running == 0


async def test_memory_deduper_forgets_after_the_ttl():
    dedupe = MemoryDeduper(ttl=0.05)
    assert await dedupe.first_seen("a") and not await dedupe.first_seen("a")
    await asyncio.sleep(0.06)
    assert await dedupe.first_seen("a")


async def test_redis_deduper_is_shared_between_workers(redis_url):
    one, two = RedisDeduper(redis_url), RedisDeduper(redis_url)
    key = f"event:Ev{uuid.uuid4().hex[:10]}"  # the server is shared by the whole run
    try:
        assert await one.first_seen(key)
        assert not await two.first_seen(key)  # another worker sees the first one's key
    finally:
        await one.aclose()
        await two.aclose()


async def test_redis_deduper_falls_back_to_memory_when_redis_is_down():
    dedupe = RedisDeduper(f"redis://127.0.0.1:{free_port()}/0")  # nothing listens there
    with structlog.testing.capture_logs() as logs:
        assert await dedupe.first_seen("k") and not await dedupe.first_seen("k")
        assert await dedupe.first_seen("k2")
    # Only the first request tried Redis; the others went straight to memory (the circuit is open).
    assert [e["event"] for e in logs].count("dedupe.redis_failed") == 1
    await dedupe.aclose()


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def black_hole():
    """A loopback port that accepts connections but never answers: a hung or firewalled Redis."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        listener.setblocking(False)
        yield listener


def new_connections(listener: socket.socket) -> int:
    n = 0
    while True:
        try:
            conn, _ = listener.accept()
        except BlockingIOError:
            return n
        conn.close()
        n += 1


async def test_a_hung_redis_costs_one_short_timeout_then_is_skipped_for_the_cooldown(black_hole):
    clock = Clock()
    dedupe = RedisDeduper(f"redis://127.0.0.1:{black_hole.getsockname()[1]}/0", cooldown=30, clock=clock)
    started = time.perf_counter()
    assert await dedupe.first_seen("event:Ev1")
    # Bounded by the 0.2 s socket timeout (it used to be 1 s per request, before every ack).
    assert time.perf_counter() - started < 0.9
    assert new_connections(black_hole) == 1
    clock.now += 29
    assert not await dedupe.first_seen("event:Ev1") and await dedupe.first_seen("event:Ev2")
    assert new_connections(black_hole) == 0  # the breaker is open: Redis was not asked
    clock.now += 2
    assert not await dedupe.first_seen("event:Ev2")  # Redis still hangs, so memory answers: a duplicate
    assert new_connections(black_hole) == 1  # after the cooldown Redis is tried again
    await dedupe.aclose()


async def test_progress_shows_the_latest_stage_in_order_and_never_after_close():
    shown, release = [], asyncio.Event()

    async def show(stage):
        shown.append(stage)
        if stage == "a":
            await release.wait()

    updater = ProgressUpdater(show)
    await updater("a")  # never blocks the agent, even while Slack is slow
    await asyncio.sleep(0)
    await updater("b")
    await updater("c")  # "b" is superseded before it was shown
    release.set()
    await asyncio.sleep(0.01)
    await updater.close()
    await updater("d")
    assert shown == ["a", "c"]


async def test_background_logs_a_crashed_task_and_drains():
    background = Background()
    with structlog.testing.capture_logs() as logs:
        background.spawn(asyncio.sleep(0.01), name="ok")
        background.spawn(_boom(), name="boom")
        await background.drain(timeout=5)
    assert len(background) == 0
    assert any(e["event"] == "background.crashed" and e["task"] == "boom" for e in logs)


async def _boom():
    raise RuntimeError("boom")


@pytest.mark.parametrize("method", [SQLiteConversationStore.save, SQLiteConversationStore.load,
                                    RedisConversationStore.save, RedisConversationStore.load, FeedbackLog.record])
def test_the_stores_the_app_awaits_are_async(method):
    # bot.answering awaits store methods directly (no sync fallback): a blocking store would stall the event loop.
    assert inspect.iscoroutinefunction(method)

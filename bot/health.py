"""What /healthz reports: measured event-loop lag, and whether the knowledge base answers."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable

# A store check returns None when the knowledge base answers, raises when it cannot.
StoreCheck = Callable[[], Awaitable[None]]
STORE_CHECK_TIMEOUT = 3.0


def percentiles(values: Iterable[float], qs: Iterable[int] = (50, 99)) -> dict[str, float]:
    ordered = sorted(values)
    if not ordered:
        return {}
    out = {f"p{q}": round(ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))], 2) for q in qs}
    out["max"] = round(ordered[-1], 2)
    return out


class LoopLagMonitor:
    """Sleeps `interval` seconds in a loop and records how late it wakes: the wait any request would have had.

    Timing the handler alone (what /healthz used to report) misses the time a request spends queued behind CPU
    work on the loop; a late wake-up is exactly that queueing.
    """

    def __init__(self, interval: float = 0.05, keep: int = 1200) -> None:
        self.interval = interval
        self.samples: deque[float] = deque(maxlen=keep)  # ms late per wake-up (the last minute at 50 ms)
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="loop-lag")

    async def _run(self) -> None:
        while True:
            t0 = time.perf_counter()
            await asyncio.sleep(self.interval)
            self.samples.append(max(0.0, (time.perf_counter() - t0 - self.interval) * 1000))

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def report(self) -> dict[str, float | int]:
        return {"samples": len(self.samples), **percentiles(self.samples)}


async def check_store(check: StoreCheck | None) -> tuple[bool, str]:
    """(healthy, what to report): a missing knowledge base is healthy (the bot says how to ingest); a failure not."""
    from synthesis.errors import KnowledgeBaseMissing

    if check is None:
        return True, "not checked"
    try:
        await asyncio.wait_for(check(), STORE_CHECK_TIMEOUT)
    except KnowledgeBaseMissing:
        return True, "empty: run `synthbot ingest PATH`"
    except asyncio.TimeoutError:
        return False, f"unavailable: no answer within {STORE_CHECK_TIMEOUT:g} s"
    except Exception as exc:  # any store failure is reported, never raised out of /healthz
        return False, f"unavailable: {type(exc).__name__}: {str(exc)[:200]}"
    return True, "ok"

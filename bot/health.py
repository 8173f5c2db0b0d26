"""What /healthz reports: measured event-loop lag, whether the knowledge base answers, and whether Slack does."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable

import structlog

log = structlog.get_logger(__name__)

# A store check returns None when the knowledge base answers, raises when it cannot.
StoreCheck = Callable[[], Awaitable[None]]
STORE_CHECK_TIMEOUT = 3.0
SLACK_CHECK_TIMEOUT = 3.0


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


def check_rules(rules) -> tuple[bool, str] | None:
    """The channel rules file as every answer reads it (None without one): an invalid edit fails every answer, so
    it fails health too. The reason goes to the log, not to whoever can reach /healthz."""
    from synthesis.errors import ChannelRulesInvalid

    if rules is None:
        return None
    try:
        rules.current()
    except ChannelRulesInvalid as exc:
        log.warning("health.rules_invalid", error=str(exc)[:500])
        return False, "invalid"
    return True, "ok"


class SlackCheck:
    """Slack connectivity for /healthz: auth.test with the bot token, and in Socket Mode the socket's state.

    auth.test is asked again at most every `every` seconds after a success (a health probe every few seconds must
    not become Web API traffic); a failure is re-checked on the next probe. `socket` (Socket Mode) is the client's
    `is_connected`, read on every probe: it costs nothing and goes false when pings stop being answered.
    """

    def __init__(self, client, *, every: float = 30.0, socket: Callable[[], Awaitable[bool]] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.client, self.every, self.socket, self._clock = client, every, socket, clock
        self._ok_until = float("-inf")

    async def check(self) -> tuple[bool, str]:
        """(healthy, what to report); never raises."""
        mode = "socket mode" if self.socket is not None else "web api"
        if self.socket is not None:
            try:
                connected = await asyncio.wait_for(self.socket(), SLACK_CHECK_TIMEOUT)
            except Exception:  # a closed client can raise instead of answering False: down either way
                connected = False
            if not connected:
                return False, "unavailable: the Socket Mode connection is down (reconnecting)"
        if self._clock() < self._ok_until:
            return True, f"ok ({mode})"
        try:
            await asyncio.wait_for(self.client.auth_test(), SLACK_CHECK_TIMEOUT)
        except asyncio.TimeoutError:
            return False, f"unavailable: auth.test gave no answer within {SLACK_CHECK_TIMEOUT:g} s"
        except Exception as exc:  # a SlackApiError (invalid_auth, token_revoked…) or a connection error
            response = getattr(exc, "response", None)
            error = response.get("error") if response is not None else f"{type(exc).__name__}: {str(exc)[:200]}"
            return False, f"unavailable: auth.test failed ({error})"
        self._ok_until = self._clock() + self.every
        return True, f"ok ({mode})"

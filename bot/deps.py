"""Everything the Slack app needs, built once at the entry point and passed to `build_app(deps)`."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import structlog
from slack_sdk.http_retry.builtin_async_handlers import AsyncRateLimitErrorRetryHandler, async_default_handlers
from slack_sdk.web.async_client import AsyncWebClient

from synthesis.config import Settings
from synthesis.errors import ConfigError
from synthesis.models import AnswerResult, AskOptions, Turn

log = structlog.get_logger(__name__)

WHERE = {
    "SLACK_BOT_TOKEN": "api.slack.com/apps → your app → OAuth & Permissions → Bot User OAuth Token (xoxb-…)",
    "SLACK_SIGNING_SECRET": "api.slack.com/apps → your app → Basic Information → App Credentials → Signing Secret",
    "SLACK_APP_TOKEN": "api.slack.com/apps → your app → Basic Information → App-Level Tokens "
                       "(create one with the connections:write scope; it starts with xapp-)",
}

# `coverage(topic)` returns a synthesis.coverage.CoverageReport (bot.coverage_view.CoverageService builds it).
CoverageReporter = Callable[[str | None], Awaitable[Any]]


class AnswersQuestions(Protocol):
    """The one method of synthesis.agent.Agent the Slack edge uses (fakes in tests implement just this)."""

    async def answer(self, question: str, *, history: Sequence[Turn] = (), options: AskOptions | None = None,
                     progress: Callable[[str], Awaitable[None]] | None = None,
                     channel: Any = None) -> AnswerResult: ...  # channel: synthesis.scoping.Channel


@dataclass(frozen=True)
class BotIdentity:
    """Who the bot is in its workspace, from auth.test at startup (so requests never wait on it)."""

    team_id: str
    bot_user_id: str
    bot_id: str
    team: str = ""
    url: str = ""


class RunLimiter:
    """At most `limit` agent runs at once; callers can see how many are queued ahead of them."""

    def __init__(self, limit: int) -> None:
        self.limit = max(1, limit)
        self._sem = asyncio.Semaphore(self.limit)
        self.waiting = 0
        self.running = 0

    def queued_ahead(self) -> int | None:
        """None when a slot is free now; otherwise how many are already waiting (FIFO) before a new caller."""
        return self.waiting if (self.running >= self.limit or self.waiting) else None

    @contextlib.asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        self.waiting += 1
        try:
            await self._sem.acquire()
        finally:
            self.waiting -= 1
        self.running += 1
        try:
            yield
        finally:
            self.running -= 1
            self._sem.release()


class Deduper(Protocol):
    """Remembers request keys for a while: `first_seen(key)` is True exactly once per key within the TTL."""

    async def first_seen(self, key: str) -> bool: ...


class MemoryDeduper:
    """In-process TTL set: enough for one process (Socket Mode, or one HTTP worker)."""

    def __init__(self, ttl: float = 600.0, max_keys: int = 50_000) -> None:
        self.ttl, self.max_keys = ttl, max_keys
        self._seen: OrderedDict[str, float] = OrderedDict()

    async def first_seen(self, key: str) -> bool:
        now = time.monotonic()
        while self._seen and (next(iter(self._seen.values())) < now or len(self._seen) > self.max_keys):
            self._seen.popitem(last=False)
        if key in self._seen:
            return False
        self._seen[key] = now + self.ttl
        return True


class RedisDeduper:
    """Shared across HTTP workers: SET NX with expiry. Falls back to memory if Redis is unreachable.

    This runs before every ack, so a Redis outage must cost little: short timeouts, and after a failure the
    memory fallback alone for `cooldown` seconds (a circuit breaker) instead of every request waiting on Redis.
    """

    def __init__(self, url: str, ttl: float = 600.0, *, timeout: float = 0.2, cooldown: float = 30.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        import redis.asyncio as redis

        self._redis = redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
        self._fallback = MemoryDeduper(ttl)
        self.ttl, self.cooldown, self._clock = int(ttl), cooldown, clock
        self._skip_until = float("-inf")  # while the clock is before this, Redis is not asked

    async def first_seen(self, key: str) -> bool:
        if self._clock() < self._skip_until:
            return await self._fallback.first_seen(key)
        try:
            return bool(await self._redis.set(f"synthbot:dedupe:{key}", b"1", nx=True, ex=self.ttl))
        except Exception as exc:  # a Redis outage must not turn into dropped or doubled answers
            self._skip_until = self._clock() + self.cooldown
            log.warning("dedupe.redis_failed", error=str(exc), retry_in=self.cooldown)
            return await self._fallback.first_seen(key)

    async def aclose(self) -> None:
        await self._redis.aclose()


class Background:
    """Tracks the tasks started after ack: keeps them referenced, logs their crashes, drains them on shutdown."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task] = set()

    def spawn(self, coro: Coroutine[Any, Any, Any], *, name: str) -> asyncio.Task:
        task = asyncio.get_running_loop().create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            exc = task.exception()
            log.error("background.crashed", task=task.get_name(), error=repr(exc), exc_info=exc)

    def __len__(self) -> int:
        return len(self._tasks)

    async def drain(self, timeout: float | None = None) -> None:
        """Wait for every running task (and any they start) to finish."""
        async def all_done() -> None:
            while self._tasks:
                await asyncio.gather(*list(self._tasks), return_exceptions=True)

        await asyncio.wait_for(all_done(), timeout)


class ProgressUpdater:
    """The agent's progress callback: never waits on Slack; shows the latest stage, in order, one update at a time."""

    def __init__(self, show: Callable[[str], Awaitable[None]]) -> None:
        self._show = show
        self._latest: str | None = None
        self._shown: str | None = None
        self._task: asyncio.Task | None = None
        self._closed = False

    async def __call__(self, stage: str) -> None:
        if self._closed:
            return
        self._latest = stage
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while not self._closed and self._latest != self._shown:
            self._shown = self._latest
            try:
                await self._show(self._shown)
            except Exception as exc:  # progress is a courtesy: a failed update must not fail the answer
                log.warning("progress.update_failed", stage=self._shown, error=str(exc))

    async def close(self) -> None:
        """Stop updating and wait for an update in flight, so the final message is never overwritten."""
        self._closed = True
        if self._task is not None:
            with contextlib.suppress(Exception):
                await self._task


@dataclass
class Deps:
    """The app's collaborators. Build with `build_deps(settings)` in production, or by hand in tests."""

    settings: Settings
    agent: AnswersQuestions
    conversations: Any  # bot.threads.ConversationStore
    feedback: Any  # bot.feedback.FeedbackLog
    client: AsyncWebClient
    identity: BotIdentity
    limiter: RunLimiter | None = None
    dedupe: Deduper = field(default_factory=MemoryDeduper)
    coverage: CoverageReporter | None = None
    background: Background = field(default_factory=Background)
    slack_check: Any = None  # bot.health.SlackCheck: auth.test / the Socket Mode link (None: not checked)
    drain_timeout: float | None = None  # seconds in-flight answers get at shutdown (settings.drain_seconds)
    answer_timeout: float | None = None
    store_check: Any = None  # bot.health.StoreCheck: what /healthz asks (None: not checked)
    rules: Any = None  # synthesis.scoping.RulesSource when SYNTHBOT_CHANNEL_RULES is set (channel names looked up)

    def __post_init__(self) -> None:
        if self.limiter is None:
            self.limiter = RunLimiter(self.settings.max_concurrent_runs)
        if self.answer_timeout is None:
            self.answer_timeout = self.settings.answer_timeout
        if self.drain_timeout is None:
            self.drain_timeout = self.settings.drain_seconds

    async def aclose(self) -> None:
        """Finish in-flight answers (for at most `drain_timeout` seconds), then close what we opened.

        The drain is short by default: past the container's stop timeout the process is killed anyway. An answer
        cut off here says so in its thread (bot.answering); a question still queued keeps "Queued".
        """
        unfinished = len(self.background)
        started = time.perf_counter()
        try:
            await self.background.drain(timeout=self.drain_timeout)
        except asyncio.TimeoutError:
            log.warning("shutdown.drain_timeout", unfinished=len(self.background), seconds=self.drain_timeout)
        if unfinished:
            log.info("shutdown.drained", in_flight=unfinished, seconds=round(time.perf_counter() - started, 3))
        for resource in (self.dedupe, self.conversations, self.feedback, self.coverage):
            closer = getattr(resource, "aclose", None) or getattr(resource, "close", None)
            if closer is not None:
                with contextlib.suppress(Exception):
                    result = closer()
                    if asyncio.iscoroutine(result):
                        await result
        if callable(closer := getattr(self.agent, "close", None)):
            closer()  # the agent's subagent thread pool
        if self.client.session is not None:
            await self.client.session.close()


# --- construction at the entry point ------------------------------------------------------------------
def _secret(settings: Settings, attr: str, var: str, prefix: str | None) -> str:
    value = getattr(settings, attr)
    raw = value.get_secret_value().strip() if value is not None else ""
    if not raw:
        raise ConfigError(f"{var} is not set — copy it from {WHERE[var]} and export {var}=…")
    if prefix and not raw.startswith(prefix):
        raise ConfigError(f"{var} should start with '{prefix}' — copy the right value from {WHERE[var]}")
    return raw


def check_tokens(settings: Settings, *, socket_mode: bool) -> dict[str, str]:
    """The Slack credentials this mode needs, or a ConfigError naming the variable and where to get it."""
    tokens = {"bot": _secret(settings, "slack_bot_token", "SLACK_BOT_TOKEN", "xoxb-")}
    if socket_mode:
        tokens["app"] = _secret(settings, "slack_app_token", "SLACK_APP_TOKEN", "xapp-")
    else:
        tokens["signing"] = _secret(settings, "slack_signing_secret", "SLACK_SIGNING_SECRET", None)
    return tokens


def make_web_client(settings: Settings, token: str | None, *, session=None) -> AsyncWebClient:
    """The Web API client: settings.slack_api_url as base URL; connection errors retried once (slack_sdk's
    default, kept: passing retry_handlers replaces the defaults) and rate-limited calls per Retry-After.

    The trade-off: a connection dropped after Slack accepted a chat.postMessage is retried and posts twice.
    A rare duplicate reply beats a silently lost answer (docs/RELIABILITY.md).
    """
    base_url = settings.slack_api_url if settings.slack_api_url.endswith("/") else settings.slack_api_url + "/"
    return AsyncWebClient(token=token, base_url=base_url, session=session, timeout=30,
                          retry_handlers=[*async_default_handlers(),
                                          AsyncRateLimitErrorRetryHandler(max_retry_count=3)])


async def verify_bot_token(client: AsyncWebClient) -> BotIdentity:
    """auth.test at startup: a rejected token is a ConfigError that says where to get a good one."""
    from slack_sdk.errors import SlackApiError

    started = time.perf_counter()
    try:
        resp = await client.auth_test()
    except SlackApiError as exc:
        error = exc.response.get("error", "unknown_error") if exc.response is not None else str(exc)
        raise ConfigError(
            f"SLACK_BOT_TOKEN was rejected by Slack ({error}) — copy it again from {WHERE['SLACK_BOT_TOKEN']} "
            "(reinstall the app to the workspace if it was revoked)"
        ) from exc
    except Exception as exc:
        raise ConfigError(
            f"cannot reach the Slack Web API at {client.base_url} ({exc.__class__.__name__}: {exc}) — check the "
            "network or SLACK_API_URL"
        ) from exc
    log.info("slack.auth_test", team=resp.get("team_id"), bot_user=resp.get("user_id"),
             seconds=round(time.perf_counter() - started, 3))
    return BotIdentity(team_id=resp.get("team_id") or "", bot_user_id=resp.get("user_id") or "",
                       bot_id=resp.get("bot_id") or "", team=resp.get("team") or "", url=resp.get("url") or "")


async def build_deps(settings: Settings, *, bot_token: str, agent: AnswersQuestions | None = None,
                     coverage: CoverageReporter | None = None, conversations: Any = None,
                     feedback: Any = None) -> Deps:
    """Verify the token, open the knowledge base, thread store and feedback log, and build the agent.

    `conversations` and `feedback` replace the stores in the data directory (the console keeps its own; its
    questions then stay out of the retrieval log, which lives with the conversations).
    """
    import aiohttp

    from bot.feedback import open_feedback_log
    from bot.threads import open_conversation_store

    session = aiohttp.ClientSession()  # one pool for every Web API call instead of one per call
    client = make_web_client(settings, bot_token, session=session)
    try:
        identity = await verify_bot_token(client)
        settings.home.mkdir(parents=True, exist_ok=True)
        usage = None
        if conversations is None:  # the retrieval log lives with the conversations
            from synthesis.usage import open_usage_log

            usage = open_usage_log(settings)
        store_check = None
        if agent is None:
            from bot.knowledge import KnowledgeBaseAgent
            from synthesis.explore import open_instrumented

            agent = KnowledgeBaseAgent(settings, opener=functools.partial(open_instrumented, usage=usage,
                                                                          surface="slack"))
            await agent.open()  # an empty volume is fine: each question is told how to ingest until there is a KB
            store_check = agent.check
        if coverage is None:
            from bot.coverage_view import CoverageService

            # Opens the store on first use, like the agent; under channel rules it shares the agent's scopes.
            coverage = CoverageService(settings, usage=usage, scoped=getattr(agent, "opened", None))
        dedupe: Deduper = RedisDeduper(settings.redis_url) if settings.redis_url else MemoryDeduper()
        from synthesis.scoping import open_rules

        return Deps(settings=settings, agent=agent, client=client, identity=identity, dedupe=dedupe, coverage=coverage,
                    store_check=store_check, rules=open_rules(settings),
                    conversations=conversations if conversations is not None else open_conversation_store(settings),
                    feedback=feedback if feedback is not None else open_feedback_log(settings))
    except BaseException:
        await session.close()
        raise

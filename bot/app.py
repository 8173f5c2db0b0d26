"""`build_app(deps)`: the Bolt AsyncApp with every listener registered. No globals, no work at import time."""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections import deque

import structlog
from aiohttp import web
from slack_bolt.async_app import AsyncApp
from slack_bolt.authorization import AuthorizeResult
from slack_bolt.response import BoltResponse

from bot.deps import Deps, make_web_client
from bot.handlers import Handlers

log = structlog.get_logger(__name__)

EVENTS_PATH = "/slack/events"
MAX_BODY = 1024 ** 2  # aiohttp's default, said out loud: Slack payloads are far smaller


def build_app(deps: Deps, *, signing_secret: str | None = None) -> AsyncApp:
    """The Slack app over `deps`. Give `signing_secret` for HTTP mode (and the console); Socket Mode needs none.

    Example:
        >>> app = build_app(deps, signing_secret="...")
        >>> response = await app.async_dispatch(AsyncBoltRequest(body=raw_body, headers=signed_headers))
    """
    identity = deps.identity

    async def authorize(**_) -> AuthorizeResult:
        # The identity comes from auth.test at startup, so no request waits on a Web API call before its ack.
        return AuthorizeResult(enterprise_id=None, team_id=identity.team_id, bot_user_id=identity.bot_user_id,
                               bot_id=identity.bot_id, bot_token=deps.client.token, team=identity.team or None)

    # The app's own client carries no token (authorize supplies it); it shares the base URL, session and retries.
    app_client = make_web_client(deps.settings, None, session=deps.client.session)
    app = AsyncApp(
        client=app_client,
        authorize=authorize,
        signing_secret=signing_secret,
        request_verification_enabled=signing_secret is not None,
        # Listeners only ack and spawn a task, so running them before the response costs nothing and guarantees
        # the ack reaches Slack before any Web API call (and skips Bolt's 10 ms ack polling loop).
        process_before_response=True,
        logger=logging.getLogger("slack_bolt.synthbot"),
    )
    handlers = Handlers(deps)
    app.use(handlers.dedupe)
    app.command("/ask")(handlers.ask_command)
    app.event("app_mention")(handlers.app_mention)
    app.event("message")(handlers.message)
    app.action("feedback_up")(handlers.feedback)
    app.action("feedback_down")(handlers.feedback)

    @app.error
    async def on_error(error: Exception, body: dict, response: BoltResponse | None) -> BoltResponse | None:
        # A listener that raised before acking: log it with an id the user sees, keep the app alive, and
        # answer 200 so Slack does not retry into the same failure.
        error_id = uuid.uuid4().hex[:10]
        log.error("slack.listener_failed", error_id=error_id, kind=body.get("type") or body.get("command"),
                  exc_info=error)
        text = f"Sorry, something went wrong on my side (error id `{error_id}`). Please try again."
        if response is None:  # a middleware failure: Bolt answers 500 itself
            return None
        return BoltResponse(status=200, body=text if body.get("command") else "")

    return app


def build_web_app(app: AsyncApp | None, deps: Deps, *, signing_secret: str | None) -> web.Application:
    """HTTP mode: POST /slack/events (commands, events and interactivity) and GET /healthz.

    Socket Mode (`app` None): GET /healthz alone, so a container's health check asks the same questions in both
    modes. Every event request passes `bot.gate` first: unsigned, forged, stale or malformed bodies get a cheap
    401/400 with a one-line reason, and never reach Bolt's parsers.
    """
    from slack_bolt.adapter.aiohttp import to_aiohttp_response, to_bolt_request

    from bot import gate
    from bot.health import LoopLagMonitor, check_rules, check_store, percentiles

    started = time.time()
    recent: deque[float] = deque(maxlen=1000)  # ms from request read to response (handler time only)
    lag = LoopLagMonitor()
    rejected: dict[str, int] = {}

    async def events(request: web.Request) -> web.Response:
        t0 = time.perf_counter()
        raw = await request.read()  # bounded by client_max_size: an oversized body is a 413 before this
        refused = gate.check(raw, request.headers, signing_secret)
        if refused is not None:
            rejected[refused.reason] = rejected.get(refused.reason, 0) + 1
            log.info("slack.request_rejected", status=refused.status, reason=refused.reason)
            return web.Response(status=refused.status, text=refused.reason)
        response = await to_aiohttp_response(await app.async_dispatch(await to_bolt_request(request)))
        recent.append((time.perf_counter() - t0) * 1000)
        return response

    async def healthz(_request: web.Request) -> web.Response:
        if not getattr(deps.agent, "ready", True):  # serve is still loading the model and indexes
            return web.json_response({"ok": False, "status": "starting", "team_id": deps.identity.team_id,
                                      "uptime": round(time.time() - started)}, status=503)
        (store_ok, store), (slack_ok, slack) = await asyncio.gather(
            check_store(deps.store_check),
            deps.slack_check.check() if deps.slack_check is not None else _not_checked())
        rules = check_rules(deps.rules)  # {"rules": …} only when SYNTHBOT_CHANNEL_RULES is set
        healthy = store_ok and slack_ok and (rules is None or rules[0])
        return web.json_response({"ok": healthy, "status": "ok" if healthy else "unavailable", "store": store,
                                  "slack": slack, **({"rules": rules[1]} if rules else {}),
                                  "team_id": deps.identity.team_id,
                                  "uptime": round(time.time() - started), "in_flight": len(deps.background),
                                  "queued": deps.limiter.waiting, "running": deps.limiter.running,
                                  "loop_lag_ms": lag.report(), "rejected": dict(rejected),
                                  "handler_ms": {"requests": len(recent), **percentiles(recent)}},
                                 status=200 if healthy else 503)

    async def lifecycle(_web_app: web.Application):
        lag.start()
        yield
        await lag.stop()

    web_app = web.Application(client_max_size=MAX_BODY)
    web_app.cleanup_ctx.append(lifecycle)
    if app is not None:
        web_app.router.add_post(EVENTS_PATH, events)
    web_app.router.add_get("/healthz", healthz)
    return web_app


async def _not_checked() -> tuple[bool, str]:
    return True, "not checked"

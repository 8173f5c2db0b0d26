"""`synthbot serve` (Socket Mode or HTTP) and `synthbot console` (the same app, no workspace needed)."""

from __future__ import annotations

import asyncio
import contextlib
import signal

import structlog
from rich.console import Console

from synthesis.config import Settings
from synthesis.errors import ConfigError

log = structlog.get_logger(__name__)

REQUEST_GRACE = 2.0  # seconds requests in flight get at shutdown, before answers drain (settings.drain_seconds)


def register(sub) -> None:
    p = sub.add_parser("serve", help="Run the Slack bot: Socket Mode when SLACK_APP_TOKEN is set, else HTTP.",
                       description="Socket Mode when SLACK_APP_TOKEN is set; otherwise HTTP on --port with "
                                   "POST /slack/events. GET /healthz is served on --port in both modes.")
    p.add_argument("--port", type=int, default=3000, help="HTTP port: events and /healthz; in Socket Mode "
                                                          "/healthz only (default 3000)")
    p.add_argument("--host", default=None, help="bind address (default SYNTHBOT_HOST, else 0.0.0.0 in HTTP mode and "
                                                "127.0.0.1 in Socket Mode, where only /healthz listens)")
    p.set_defaults(func=lambda args, settings: asyncio.run(serve(settings, host=args.host, port=args.port)))

    c = sub.add_parser("console", help="Try the bot in your terminal, without a Slack workspace.",
                       description="Drives the same Slack app through signed requests and a loopback fake Slack "
                                   "Web API. Type `/ask QUESTION`, `> reply` in the last thread, 1/2 for 👍/👎, "
                                   "`help`, `quit`.")
    c.add_argument("--user", default="U0CONSOLE", help="the Slack user id you act as")
    c.add_argument("--channel", metavar="NAME", help="act in the channel NAME: the channel rules apply to it "
                                                      "(SYNTHBOT_CHANNEL_RULES)")
    c.add_argument("--channel-id", metavar="ID", help="act in the channel with this Slack id (with --channel, both)")
    c.add_argument("--dm", action="store_true", help="act in a direct message (the rules' `dm` rule applies)")
    c.set_defaults(func=_console)


def _console(args, settings: Settings) -> int:
    from bot.console import ConsoleChannel, run_console

    channel = ConsoleChannel.of(name=args.channel, channel_id=args.channel_id, dm=args.dm)
    return asyncio.run(run_console(settings, user=args.user, channel=channel))


def bind_host(host: str | None, settings: Settings, *, socket_mode: bool) -> str:
    """--host, else SYNTHBOT_HOST, else every interface for HTTP mode (Slack posts to it) and loopback for Socket
    Mode: there /healthz is all that listens, and it tells anyone who can reach it the workspace and the load."""
    return host or settings.host or ("127.0.0.1" if socket_mode else "0.0.0.0")


async def serve(settings: Settings, *, host: str | None = None, port: int = 3000, agent=None,
                started: asyncio.Event | None = None, stop: asyncio.Event | None = None) -> int:
    """Verify the tokens, build the app and serve until interrupted (or until `stop` is set).

    `agent` replaces the one built from the knowledge base (tests and benchmarks pass a fake).
    """
    from bot.app import build_app
    from bot.deps import build_deps, check_tokens
    from bot.health import SlackCheck

    socket_mode = settings.slack_app_token is not None and bool(settings.slack_app_token.get_secret_value())
    tokens = check_tokens(settings, socket_mode=socket_mode)
    host = bind_host(host, settings, socket_mode=socket_mode)
    if agent is None:  # loaded after the HTTP server is up, so /healthz can say "starting" meanwhile
        from bot.warmup import WarmingAgent

        agent = WarmingAgent(settings)
    deps = await build_deps(settings, bot_token=tokens["bot"], agent=agent)
    if deps.store_check is None and callable(getattr(agent, "check", None)):
        deps.store_check = agent.check  # /healthz asks the knowledge base once the agent is warm
    deps.slack_check = SlackCheck(deps.client, every=settings.slack_check_seconds)  # auth.test (+ socket) in /healthz
    app = build_app(deps, signing_secret=tokens.get("signing"))
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    # The banner is for a terminal; in JSON mode stderr is a log stream where a plain-text line does not belong
    # (the serve.started event carries the same facts).
    err = Console(stderr=True, quiet=settings.log_format == "json")
    try:
        if socket_mode:
            await _socket_mode(app, tokens["app"], stop, started, err, deps, host, port)
        else:
            await _http_mode(app, deps, host, port, stop, started, err, tokens["signing"])
    finally:
        await deps.aclose()
    return 0


async def _socket_mode(app, app_token: str, stop: asyncio.Event, started, err: Console, deps, host: str,
                       port: int) -> None:
    from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler
    from slack_sdk.errors import SlackApiError

    from bot.app import build_web_app
    from bot.deps import WHERE

    # Check the app token once ourselves: the Socket Mode client retries a rejected token forever.
    try:
        await app.client.apps_connections_open(app_token=app_token)
    except SlackApiError as exc:
        error = exc.response.get("error", "") if exc.response is not None else str(exc)
        raise ConfigError(f"SLACK_APP_TOKEN was rejected by Slack ({error}) — copy it again from "
                          f"{WHERE['SLACK_APP_TOKEN']}") from exc
    # No events arrive over HTTP in Socket Mode, but /healthz is still served (store, auth.test, the socket's state).
    runner, bound = await _listen(build_web_app(None, deps, signing_secret=None), host, port)
    try:
        await _warm(deps, err)  # connect only when questions can be answered at full speed
        handler = AsyncSocketModeHandler(app, app_token)
        if deps.slack_check is not None:
            deps.slack_check.socket = handler.client.is_connected
        await handler.connect_async()
        err.print(f"synthbot is connected to Slack workspace {deps.identity.team or deps.identity.team_id} "
                  f"(Socket Mode; health: http://{host}:{bound}/healthz). Ctrl-C to stop.", highlight=False)
        log.info("serve.started", mode="socket", team=deps.identity.team_id, health_port=bound)
        if started is not None:
            started.set()
        try:
            await stop.wait()
        finally:
            await handler.close_async()
    finally:
        await runner.cleanup()


async def _warm(deps, err: Console) -> None:
    warm = getattr(deps.agent, "warm", None)
    if callable(warm):
        err.print("synthbot is loading the model and the search indexes…", highlight=False)
        await warm()


async def _listen(web_app, host: str, port: int):
    """Start serving `web_app` on host:port: (runner, the port actually bound), or a ConfigError saying why not."""
    from aiohttp import web

    # Requests only ack (the work runs in background tasks), so 2 s is plenty for those in flight at shutdown;
    # aiohttp's default of 60 s would eat the container's whole stop timeout.
    runner = web.AppRunner(web_app, access_log=None, shutdown_timeout=REQUEST_GRACE)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    try:
        await site.start()
    except OSError as exc:
        await runner.cleanup()
        raise ConfigError(f"cannot listen on {host}:{port} ({exc.strerror}) — pick another port with --port") from exc
    bound = site._server.sockets[0].getsockname()[1] if site._server and site._server.sockets else port
    return runner, bound


async def _http_mode(app, deps, host: str, port: int, stop: asyncio.Event, started, err: Console,
                     signing_secret: str) -> None:
    from bot.app import EVENTS_PATH, build_web_app

    runner, bound = await _listen(build_web_app(app, deps, signing_secret=signing_secret), host, port)
    try:
        await _warm(deps, err)  # /healthz answers "starting" (503) until the model and indexes are loaded
    except BaseException:
        await runner.cleanup()
        raise
    err.print(f"synthbot is listening on http://{host}:{bound}{EVENTS_PATH} (health: /healthz) for workspace "
              f"{deps.identity.team or deps.identity.team_id}. Ctrl-C to stop.", highlight=False)
    log.info("serve.started", mode="http", host=host, port=bound, team=deps.identity.team_id)
    if started is not None:
        started.set()
    try:
        await stop.wait()
    finally:
        await runner.cleanup()

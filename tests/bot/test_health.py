"""/healthz means something in both modes (the store, auth.test, the Socket Mode link), and shutdown drains briefly."""

from __future__ import annotations

import asyncio
import sys
import time
from dataclasses import dataclass

import aiohttp
import pytest
from pydantic import SecretStr

from bot.cli.serve import serve
from bot.fake_slack import SlackRequests
from bot.health import SlackCheck
from synthesis.errors import StoreUnavailable
from tests.bot.fakes import SECRET, FakeAgent
from tests.conftest import ROOT, free_port


@dataclass
class CheckedAgent(FakeAgent):
    """FakeAgent with the `check()` serve wires into /healthz; `broken` makes the store check fail."""

    broken: bool = False

    async def check(self) -> None:
        if self.broken:
            raise StoreUnavailable("Chroma at http://127.0.0.1:1 refused the connection")


@pytest.fixture
def serve_settings(slack_settings, fake_slack):
    return slack_settings.model_copy(update={"slack_bot_token": SecretStr(fake_slack.bot_token),
                                             "slack_signing_secret": SecretStr(SECRET), "slack_check_seconds": 0})


async def _health(port: int) -> tuple[int, dict]:
    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}/healthz") as resp:
        return resp.status, await resp.json()


async def _probe(port: int) -> tuple[int, str]:
    """Run the Dockerfile's and compose's HEALTHCHECK command (`python -m bot.healthcheck URL`) against `port`."""
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot.healthcheck",
                                                f"http://127.0.0.1:{port}/healthz", stdout=asyncio.subprocess.PIPE,
                                                cwd=ROOT)
    out, _ = await asyncio.wait_for(proc.communicate(), 30)
    return proc.returncode, out.decode().strip()


async def _until(port: int, predicate, timeout: float = 15.0) -> tuple[int, dict]:
    deadline = time.monotonic() + timeout
    while True:
        status, body = await _health(port)
        if predicate(status, body) or time.monotonic() > deadline:
            return status, body
        await asyncio.sleep(0.1)


async def test_http_health_checks_slack_with_auth_test(serve_settings, fake_slack):
    port, started, stop, agent = free_port(), asyncio.Event(), asyncio.Event(), CheckedAgent()
    server = asyncio.create_task(serve(serve_settings, host="127.0.0.1", port=port, agent=agent, started=started,
                                       stop=stop))
    try:
        await asyncio.wait_for(started.wait(), 10)
        status, health = await _health(port)
        assert status == 200 and health["slack"] == "ok (web api)" and health["store"] == "ok"
        assert await _probe(port) == (0, "status=ok store=ok slack=ok (web api)")  # the container's health check
        checks = len(fake_slack.calls_to("auth.test"))
        fake_slack.fail_next("auth.test", error="token_revoked")
        status, health = await _health(port)
        assert status == 503 and not health["ok"] and "token_revoked" in health["slack"]
        assert len(fake_slack.calls_to("auth.test")) == checks + 1  # it really asked Slack
        fake_slack.fail_next("auth.test", error="token_revoked")
        code, why = await _probe(port)
        assert code == 1 and why.startswith("503 status=unavailable") and "token_revoked" in why
        agent.broken = True
        status, health = await _health(port)
        assert status == 503 and health["store"].startswith("unavailable") and health["slack"] == "ok (web api)"
    finally:
        stop.set()
        await asyncio.wait_for(server, 10)


async def test_socket_mode_serves_health_from_the_store_and_the_socket(serve_settings, fake_slack):
    settings = serve_settings.model_copy(update={"slack_app_token": SecretStr(fake_slack.app_token),
                                                 "slack_signing_secret": None})
    port, started, stop, agent = free_port(), asyncio.Event(), asyncio.Event(), CheckedAgent()
    server = asyncio.create_task(serve(settings, host="127.0.0.1", port=port, agent=agent, started=started, stop=stop))
    try:
        await asyncio.wait_for(started.wait(), 10)
        status, health = await _health(port)
        assert status == 200 and health["slack"] == "ok (socket mode)" and health["store"] == "ok", health
        agent.broken = True
        status, health = await _health(port)
        assert status == 503 and health["store"].startswith("unavailable")
        agent.broken = False
        # Slack drops the socket and refuses new ones: health says so (it passed blindly here before).
        fake_slack.fail_next("apps.connections.open", error="invalid_auth", times=1000)
        for ws in list(fake_slack.sockets):
            await ws.close()
        status, health = await _until(port, lambda s, _: s == 503)
        assert status == 503 and "Socket Mode connection is down" in health["slack"], health
    finally:
        stop.set()
        await asyncio.wait_for(server, 15)


async def test_slack_check_asks_again_only_after_its_interval(fake_slack, slack_settings):
    from bot.deps import make_web_client

    now = [0.0]
    client = make_web_client(slack_settings, fake_slack.bot_token)
    check = SlackCheck(client, every=30, clock=lambda: now[0])
    assert await check.check() == (True, "ok (web api)")
    assert await check.check() == (True, "ok (web api)")
    assert len(fake_slack.calls_to("auth.test")) == 1  # a probe every few seconds is not Web API traffic
    now[0] = 31
    fake_slack.fail_next("auth.test", error="invalid_auth")
    ok, why = await check.check()
    assert not ok and "invalid_auth" in why
    assert (await check.check())[0] and len(fake_slack.calls_to("auth.test")) == 3  # a failure is re-checked at once


async def test_shutdown_drains_answers_in_flight_then_stops_within_the_drain_time(serve_settings, fake_slack):
    gate = asyncio.Event()
    settings = serve_settings.model_copy(update={"drain_seconds": 1.5})
    port, started, stop = free_port(), asyncio.Event(), asyncio.Event()
    quick, stuck = FakeAgent(stage_seconds=0.3), FakeAgent(gate=gate)
    requests = SlackRequests(SECRET, team_id=fake_slack.team_id, response_url=fake_slack.response_url)

    async def run(agent) -> float:
        server = asyncio.create_task(serve(settings, host="127.0.0.1", port=port, agent=agent, started=started,
                                           stop=stop))
        await asyncio.wait_for(started.wait(), 10)
        ask = requests.slash_command("how do we deploy?")
        async with aiohttp.ClientSession() as http:
            async with http.post(f"http://127.0.0.1:{port}/slack/events", data=ask.body, headers=ask.headers) as r:
                assert r.status == 200
        await fake_slack.wait_for(lambda: agent.calls)
        t0 = time.perf_counter()
        stop.set()
        await asyncio.wait_for(server, 15)
        started.clear(), stop.clear()
        return time.perf_counter() - t0

    assert await run(quick) < 1.5
    answers = [c for c in fake_slack.calls_to("chat.postMessage") if c.args.get("thread_ts")]
    assert len(answers) == 1  # the answer in flight was delivered before the process exited
    took = await run(stuck)  # never finishes: shutdown gives up after drain_seconds, not answer_timeout
    assert 1.4 < took < 1.5 + 3, took
    (cut,) = [c for c in fake_slack.calls_to("chat.postMessage") if c.args.get("thread_ts")][1:]
    assert "restarted before I could finish" in cut.args["text"]  # said so, instead of "Working…" forever
    anchor = fake_slack.message(cut.args["channel"], cut.args["thread_ts"])
    assert "restarted before I could answer" in str(anchor["blocks"])


async def _answers_on(address: str, port: int) -> bool:
    try:
        async with aiohttp.ClientSession() as http, http.get(f"http://{address}:{port}/healthz") as resp:
            return resp.status in (200, 503)
    except aiohttp.ClientConnectionError:
        return False


@pytest.mark.parametrize("socket_mode, host, everywhere", [
    (True, None, False),  # Socket Mode: /healthz alone, on loopback unless asked
    (True, "0.0.0.0", True),  # SYNTHBOT_HOST=0.0.0.0 (or --host) opens it
    (False, None, True),  # HTTP mode: Slack must reach the events endpoint
])
async def test_socket_mode_health_listens_on_loopback_unless_a_host_is_given(serve_settings, fake_slack, socket_mode,
                                                                            host, everywhere):
    update = {"host": host}
    if socket_mode:
        update |= {"slack_app_token": SecretStr(fake_slack.app_token), "slack_signing_secret": None}
    settings = serve_settings.model_copy(update=update)
    port, started, stop = free_port(), asyncio.Event(), asyncio.Event()
    server = asyncio.create_task(serve(settings, port=port, agent=CheckedAgent(), started=started, stop=stop))
    try:
        await asyncio.wait_for(started.wait(), 10)
        assert await _answers_on("127.0.0.1", port)  # the container's own probe always reaches it
        # 127.0.0.2 is loopback too, but only a socket bound to every interface accepts there.
        assert await _answers_on("127.0.0.2", port) == everywhere
    finally:
        stop.set()
        await asyncio.wait_for(server, 15)


async def test_an_invalid_rules_file_fails_health_and_a_fixed_one_passes(serve_settings, fake_slack, tmp_path):
    """Every answer fails while the channel rules file is invalid, so /healthz must not say 200."""
    rules = tmp_path / "rules.yaml"
    rules.write_text("default:\n  collections: [handbook]\n")
    settings = serve_settings.model_copy(update={"channel_rules": rules})
    port, started, stop = free_port(), asyncio.Event(), asyncio.Event()
    server = asyncio.create_task(serve(settings, host="127.0.0.1", port=port, agent=CheckedAgent(), started=started,
                                       stop=stop))
    try:
        await asyncio.wait_for(started.wait(), 10)
        status, health = await _health(port)
        assert status == 200 and health["rules"] == "ok", health
        rules.write_text("default:\n  colections: [handbook]\n")  # a typo: every answer now fails closed
        status, health = await _until(port, lambda s, _: s == 503)
        assert status == 503 and health["rules"] == "invalid" and "colections" not in str(health), health
        code, why = await _probe(port)
        assert code == 1 and "rules=invalid" in why
        rules.write_text("default:\n  collections: [handbook, eng]\n")
        status, health = await _until(port, lambda s, _: s == 200)
        assert status == 200 and health["rules"] == "ok", health
    finally:
        stop.set()
        await asyncio.wait_for(server, 10)

"""`synthbot serve`: HTTP mode on loopback against the fake Web API, and startup errors that say what to do."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest
from pydantic import SecretStr

from bot.cli import main
from bot.cli.serve import serve
from bot.deps import check_tokens
from synthesis.errors import ConfigError
from tests.bot.fakes import SECRET, FakeAgent
from tests.conftest import free_port

from bot.fake_slack import SlackRequests


@pytest.fixture
def serve_settings(slack_settings, fake_slack):
    return slack_settings.model_copy(update={"slack_bot_token": SecretStr(fake_slack.bot_token),
                                             "slack_signing_secret": SecretStr(SECRET)})


async def test_http_mode_serves_events_and_health(serve_settings, fake_slack):
    port, started, stop, agent = free_port(), asyncio.Event(), asyncio.Event(), FakeAgent()
    server = asyncio.create_task(serve(serve_settings, host="127.0.0.1", port=port, agent=agent,
                                       started=started, stop=stop))
    try:
        await asyncio.wait_for(started.wait(), 10)
        assert [c.method for c in fake_slack.calls] == ["auth.test"]  # the token was verified at startup
        requests = SlackRequests(SECRET, team_id=fake_slack.team_id, response_url=fake_slack.response_url)
        base = f"http://127.0.0.1:{port}"
        async with aiohttp.ClientSession() as http:
            ask = requests.slash_command("how do we deploy?")
            async with http.post(f"{base}/slack/events", data=ask.body, headers=ask.headers) as resp:
                assert resp.status == 200
            forged = SlackRequests("wrong").slash_command("how do we deploy?")
            async with http.post(f"{base}/slack/events", data=forged.body, headers=forged.headers) as resp:
                assert resp.status == 401
            async with http.get(f"{base}/healthz") as resp:
                health = await resp.json()
                assert resp.status == 200 and health["ok"] and health["team_id"] == fake_slack.team_id
        answer = await fake_slack.wait_for(
            lambda: [c for c in fake_slack.calls_to("chat.postMessage") if c.args.get("thread_ts")])
        assert answer[0].args["channel"] == "C0CHAN" and len(agent.calls) == 1
    finally:
        stop.set()
        await asyncio.wait_for(server, 10)


async def test_a_rejected_bot_token_names_the_variable(serve_settings):
    bad = serve_settings.model_copy(update={"slack_bot_token": SecretStr("xoxb-revoked")})
    with pytest.raises(ConfigError, match=r"SLACK_BOT_TOKEN was rejected by Slack \(invalid_auth\).*OAuth"):
        await serve(bad, host="127.0.0.1", port=free_port(), agent=FakeAgent())


async def test_socket_mode_uses_the_app_token_and_reports_a_bad_one(serve_settings, fake_slack):
    with_app = serve_settings.model_copy(update={"slack_app_token": SecretStr("xapp-1-revoked")})
    with pytest.raises(ConfigError, match=r"SLACK_APP_TOKEN was rejected.*App-Level Tokens"):
        await serve(with_app, host="127.0.0.1", port=free_port(), agent=FakeAgent())
    (opened,) = fake_slack.calls_to("apps.connections.open")  # Socket Mode went to SLACK_API_URL too
    assert opened.token == "xapp-1-revoked"


@pytest.mark.parametrize("update, socket_mode, variable, where", [
    ({"slack_bot_token": None}, False, "SLACK_BOT_TOKEN", "OAuth & Permissions"),
    ({"slack_bot_token": SecretStr("xapp-wrong-kind")}, False, "SLACK_BOT_TOKEN", "xoxb-"),
    ({"slack_signing_secret": None}, False, "SLACK_SIGNING_SECRET", "Basic Information"),
    ({"slack_app_token": SecretStr("xoxb-wrong-kind")}, True, "SLACK_APP_TOKEN", "App-Level Tokens"),
])
def test_missing_or_malformed_tokens_name_the_variable_and_where_to_get_it(serve_settings, update, socket_mode,
                                                                           variable, where):
    with pytest.raises(ConfigError) as info:
        check_tokens(serve_settings.model_copy(update=update), socket_mode=socket_mode)
    assert variable in str(info.value) and where in str(info.value) and "api.slack.com/apps" in str(info.value)


def test_serve_cli_without_tokens_exits_with_the_reason(monkeypatch, tmp_path, capsys):
    monkeypatch.chdir(tmp_path)  # no .env here
    assert main(["serve"]) == 1
    err = capsys.readouterr().err
    assert "SLACK_BOT_TOKEN is not set" in err and "OAuth & Permissions" in err


async def test_socket_mode_answers_a_slash_command_end_to_end(serve_settings, fake_slack):
    from urllib.parse import parse_qsl

    settings = serve_settings.model_copy(update={"slack_app_token": SecretStr(fake_slack.app_token),
                                                 "slack_signing_secret": None})
    started, stop, agent = asyncio.Event(), asyncio.Event(), FakeAgent()
    server = asyncio.create_task(serve(settings, host="127.0.0.1", port=free_port(), agent=agent, started=started,
                                       stop=stop))
    try:
        await asyncio.wait_for(started.wait(), 10)
        requests = SlackRequests("unused", team_id=fake_slack.team_id, response_url=fake_slack.response_url)
        command = dict(parse_qsl(requests.slash_command("how do we deploy?").body))
        envelope = await fake_slack.socket_send("slash_commands", command)
        ack = await fake_slack.wait_for(lambda: [c for c in fake_slack.calls_to("socket.ack")
                                                 if c.args.get("envelope_id") == envelope])
        answer = await fake_slack.wait_for(
            lambda: [c for c in fake_slack.calls_to("chat.postMessage") if c.args.get("thread_ts")])
        assert ack[0].at < answer[0].at and len(agent.calls) == 1
    finally:
        stop.set()
        await asyncio.wait_for(server, 10)

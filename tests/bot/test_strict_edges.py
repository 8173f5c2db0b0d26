"""The HTTP front door: every unsigned or malformed request gets a cheap 401/400, never a 2xx, 5xx or traceback."""

from __future__ import annotations

import json
import logging
import time
from urllib.parse import urlencode

import aiohttp
import pytest
import structlog
from aiohttp import web

from bot.app import build_web_app
from tests.bot.fakes import SECRET

pytestmark = pytest.mark.usefixtures("harness")


@pytest.fixture
async def post(harness):
    runner = web.AppRunner(build_web_app(harness.app, harness.deps, signing_secret=SECRET), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    url = f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"
    async with aiohttp.ClientSession() as http:
        async def send(body: bytes | str, headers: dict[str, str], path: str = "/slack/events"):
            async with http.post(url + path, data=body, headers=headers) as resp:
                return resp.status, await resp.text()

        send.url, send.http = url, http
        yield send
    await runner.cleanup()


def signed(harness, body: bytes | str, *, content_type: str = "application/json", stamp: str | None = None):
    """Sign raw bytes (the fake's signer takes text; invalid UTF-8 must be signed as bytes)."""
    import hashlib
    import hmac

    raw = body.encode() if isinstance(body, str) else body
    stamp = stamp or str(int(time.time()))
    digest = hmac.new(SECRET.encode(), b"v0:" + stamp.encode() + b":" + raw, hashlib.sha256).hexdigest()
    return raw, {"content-type": content_type, "x-slack-request-timestamp": stamp, "x-slack-signature": f"v0={digest}"}


def event_body(harness, event: dict) -> str:
    return harness.requests.event(event).body


def action_body(actions) -> str:
    payload = {"type": "block_actions", "team": {"id": "T0FAKE"}, "user": {"id": "U0USER"}, "actions": actions,
               "trigger_id": "trig.1", "container": {"channel_id": "C0CHAN"}}
    return urlencode({"payload": json.dumps(payload)})


FORM = "application/x-www-form-urlencoded"


def cases(h):
    """(name, raw body, headers, expected status)."""
    now = str(int(time.time()))
    ask = h.requests.slash_command("how do we deploy?")
    yield "no signature", ask.body, {"content-type": FORM}, 401
    yield "non-numeric timestamp", ask.body, {**ask.headers, "x-slack-request-timestamp": "soon"}, 401
    yield "huge timestamp", ask.body, {**ask.headers, "x-slack-request-timestamp": "9" * 40}, 401
    yield "stale", *signed(h, ask.body, content_type=FORM, stamp=str(int(time.time()) - 3600)), 401
    yield "forged", ask.body, {**ask.headers, "x-slack-signature": "v0=" + "0" * 64}, 401
    yield "invalid UTF-8", *signed(h, b'{"type": "event_callback", "x": "\xff\xfe"}'), 400
    yield "bad JSON", *signed(h, '{"type": "event_callback",'), 400
    yield "JSON array", *signed(h, "[1, 2, 3]"), 400
    yield "payload= not JSON", *signed(h, urlencode({"payload": "{not json"}), content_type=FORM), 400
    yield "payload= an array", *signed(h, urlencode({"payload": "[]"}), content_type=FORM), 400
    yield "empty actions", *signed(h, action_body([]), content_type=FORM), 400
    yield "event without ts", *signed(h, event_body(h, {"type": "app_mention", "channel": "C0CHAN", "text": "hi"})), 400
    yield "event without channel", *signed(h, event_body(h, {"type": "message", "ts": "1.2", "text": "hi",
                                                              "user": "U0USER"})), 400
    yield "a form of nothing", *signed(h, "a=1", content_type=FORM, stamp=now), 400


async def test_every_malformed_or_unsigned_request_is_refused_cheaply(harness, post, caplog):
    caplog.set_level(logging.DEBUG)
    with structlog.testing.capture_logs() as logs:
        for name, body, headers, expected in cases(harness):
            started = time.perf_counter()
            status, text = await post(body, headers)
            assert (status, name) == (expected, name), text
            assert len(text) < 100 and "Traceback" not in text
            assert time.perf_counter() - started < 1.0, name  # generous: a loaded 2-core box; ~1 ms typical
    await harness.settle()
    assert harness.agent.calls == [] and harness.fake.calls == []  # nothing reached a listener
    assert not [e for e in logs if e.get("exc_info") or e["log_level"] in ("error", "critical")]
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert all(e["event"] == "slack.request_rejected" for e in logs)


async def test_an_oversized_body_is_refused_before_it_is_read(harness, post):
    big = "text=" + "x" * (2 * 1024 * 1024)
    status, _ = await post(*signed(harness, big, content_type=FORM))
    assert status == 413
    assert harness.agent.calls == []


async def test_signed_well_formed_requests_still_pass(harness, post):
    ask = harness.requests.slash_command("how do we deploy?")
    assert (await post(ask.body, ask.headers))[0] == 200
    mention = harness.requests.event(harness.requests.app_mention("and rollbacks?"))
    assert (await post(mention.body, mention.headers))[0] == 200
    check = signed(harness, "ssl_check=1&token=x", content_type=FORM)
    assert (await post(*check))[0] == 200
    await harness.settle()
    assert len(harness.agent.calls) == 2


async def test_health_reports_measured_loop_lag_and_rejections(harness, post):
    await post(b"junk", {"content-type": "application/json"})
    async with post.http.get(post.url + "/healthz") as resp:
        health = await resp.json()
    assert resp.status == 200 and health["rejected"] == {"unsigned": 1}
    assert "samples" in health["loop_lag_ms"]


async def test_malformed_events_that_skip_the_front_door_are_dropped_quietly(harness):
    """Socket Mode has no signature or gate: the listeners themselves ignore events missing ts or channel."""
    with structlog.testing.capture_logs() as logs:
        await harness.event({"type": "app_mention", "channel": "C0CHAN", "text": "<@U0BOT> hi", "user": "U0USER"})
        await harness.event({"type": "message", "ts": "1.000001", "text": "hi", "user": "U0USER",
                             "channel_type": "im"})
        await harness.event({"type": "message", "ts": "1.000002", "channel": "D0DM", "text": None,
                             "user": "U0USER", "channel_type": "im"})
        await harness.settle()
    assert harness.agent.calls == [] and harness.fake.calls == []
    assert not [e for e in logs if e.get("exc_info") or e["log_level"] == "error"]
    assert [e["event"] for e in logs].count("slack.event_malformed") == 3


async def test_health_is_503_when_the_store_fails(harness, post):
    from synthesis.errors import StoreUnavailable

    async def broken() -> None:
        raise StoreUnavailable("Chroma at http://127.0.0.1:1 refused the connection")

    harness.deps.store_check = broken
    async with post.http.get(post.url + "/healthz") as resp:
        health = await resp.json()
    assert resp.status == 503 and not health["ok"] and "unavailable" in health["store"]

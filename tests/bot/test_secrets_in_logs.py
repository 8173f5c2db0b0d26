"""No secret ever reaches the logs: a Slack refusal at DEBUG and WARNING, console and JSON, every byte scanned."""

from __future__ import annotations

import json
import logging

import pytest
import structlog

from bot.fake_slack import FakeSlack
from synthesis.logging import configure_logging, redact, secrets_of
from tests.bot.fakes import SECRET, FakeAgent, Harness

BOT_TOKEN = "xoxb-1111-2222-SeCrEtBoTtOkEn42"
ANTHROPIC_KEY = "sk-ant-api03-NotARealKeyButSecret"
REDIS_PASSWORD = "r3disPa55word"


@pytest.mark.parametrize("fmt", ["console", "json"])
@pytest.mark.parametrize("level", ["DEBUG", "WARNING"])
async def test_a_slack_refusal_logs_no_secret(settings, capsys, level, fmt):  # conftest restores logging
    async with FakeSlack(bot_token=BOT_TOKEN) as fake:
        cfg = settings.model_copy(update={
            "slack_api_url": fake.base_url, "slack_bot_token": BOT_TOKEN, "slack_signing_secret": SECRET,
            "anthropic_api_key": ANTHROPIC_KEY, "redis_url": f"redis://bot:{REDIS_PASSWORD}@127.0.0.1:1/0"})
        from pydantic import SecretStr

        cfg = cfg.model_copy(update={k: SecretStr(v) for k, v in (("slack_bot_token", BOT_TOKEN),
                                                                   ("slack_signing_secret", SECRET),
                                                                   ("anthropic_api_key", ANTHROPIC_KEY))})
        secrets = secrets_of(cfg)
        assert {BOT_TOKEN, SECRET, ANTHROPIC_KEY, REDIS_PASSWORD} <= set(secrets)
        configure_logging(level=level, fmt=fmt, secrets=secrets)
        h = await Harness(fake, cfg, FakeAgent()).start()
        try:
            await h.ask("how do we deploy?")
            await fake.wait_for(lambda: fake.calls_to("chat.postMessage"))
            fake.fail_next("chat.postMessage", error="invalid_blocks")  # the answer post: a SlackApiError
            await h.settle()
            # An exception whose message carries the secrets, and a stdlib logger that prints them.
            try:
                raise RuntimeError(f"Authorization: Bearer {BOT_TOKEN} key={ANTHROPIC_KEY}")
            except RuntimeError as exc:
                structlog.get_logger("t").error("boom", exc_info=exc, header=f"Bearer {BOT_TOKEN}")
            logging.getLogger("some.library").warning("url %s", cfg.redis_url)
        finally:
            await h.close()
    err = capsys.readouterr().err
    assert "slack.deliver_failed" in err and "invalid_blocks" in err  # the failure was logged, with its cause
    for secret in (BOT_TOKEN, SECRET, ANTHROPIC_KEY, REDIS_PASSWORD, "SeCrEtBoTtOkEn42"):
        assert secret not in err, f"{secret!r} leaked into the {fmt} log at {level}"
    assert "Bearer xoxb" not in err
    if fmt == "json":
        entries = [json.loads(line) for line in err.splitlines() if line.strip()]  # no plain-text line
        failure = next(e for e in entries if e["event"] == "slack.deliver_failed")
        frames = failure["exception"][0]["frames"]
        assert frames and all("locals" not in f for f in frames)  # the stack, never the locals
        assert any(e.get("logger") == "some.library" for e in entries)
    else:
        assert "Traceback" in err


def test_redact_masks_token_shapes_it_was_not_told_about():
    text = ("xoxb-9-9-abc xapp-1-A-zz xoxp-7-7 sk-ant-api03-xyz 'Authorization': 'Bearer abc.def' "
            "redis://u:pw@h:6379 signing_secret=shh")
    out = redact(text, ())
    for leaked in ("xoxb-9", "xapp-1", "xoxp-7", "sk-ant-api03", "abc.def", ":pw@", "shh"):
        assert leaked not in out, leaked
    assert redact("tokens=12 context_tokens=8000", ()) == "tokens=12 context_tokens=8000"


async def test_serve_in_json_mode_writes_only_json_lines(settings, fake_slack, capsys):
    import asyncio

    from pydantic import SecretStr

    from bot.cli.serve import serve
    from tests.conftest import free_port

    cfg = settings.model_copy(update={"slack_api_url": fake_slack.base_url, "log_format": "json",
                                      "slack_bot_token": SecretStr(fake_slack.bot_token),
                                      "slack_signing_secret": SecretStr(SECRET)})
    configure_logging(level="INFO", fmt="json", secrets=secrets_of(cfg))
    started, stop = asyncio.Event(), asyncio.Event()
    server = asyncio.create_task(serve(cfg, host="127.0.0.1", port=free_port(), agent=FakeAgent(), started=started,
                                       stop=stop))
    await asyncio.wait_for(started.wait(), 10)
    stop.set()
    await asyncio.wait_for(server, 10)
    lines = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    events = [json.loads(line)["event"] for line in lines]  # every line is JSON
    assert "serve.started" in events

"""`serve` and `console` start on an empty volume (Docker's first run) and answer each question with how to ingest.

Both go through the real `build_deps` and the real knowledge-base opener: no agent is passed in.
"""

from __future__ import annotations

import asyncio
import io

import aiohttp
from pydantic import SecretStr
from rich.console import Console

from bot.cli.serve import serve
from bot.console import run_console
from bot.fake_slack import SlackRequests
from tests.bot.fakes import SECRET, block_text
from tests.conftest import free_port


async def test_serve_starts_on_an_empty_volume_and_says_how_to_ingest(slack_settings, fake_slack):
    settings = slack_settings.model_copy(update={"slack_bot_token": SecretStr(fake_slack.bot_token),
                                                 "slack_signing_secret": SecretStr(SECRET)})
    assert not settings.home.exists()
    port, started, stop = free_port(), asyncio.Event(), asyncio.Event()
    server = asyncio.create_task(serve(settings, host="127.0.0.1", port=port, started=started, stop=stop))
    try:
        await asyncio.wait_for(asyncio.shield(started.wait()), 30)
        requests = SlackRequests(SECRET, team_id=fake_slack.team_id, response_url=fake_slack.response_url)
        async with aiohttp.ClientSession() as http:
            for question in ("how do we deploy?", "who approves hotfixes?"):
                ask = requests.slash_command(question)
                async with http.post(f"http://127.0.0.1:{port}/slack/events", data=ask.body,
                                     headers=ask.headers) as resp:
                    assert resp.status == 200
            async with http.get(f"http://127.0.0.1:{port}/healthz") as resp:
                health = await resp.json()
        assert resp.status == 200 and health["ok"] and "synthbot ingest" in health["store"]
        replies = await fake_slack.wait_for(lambda: (r := [c for c in fake_slack.calls_to("chat.postMessage")
                                                           if c.args.get("thread_ts")]) and len(r) == 2 and r)
        for reply in replies:
            assert "no knowledge base" in block_text(reply.args) and "synthbot ingest" in block_text(reply.args)
    finally:
        stop.set()
        assert await asyncio.wait_for(server, 30) == 0


async def test_console_starts_on_an_empty_volume_and_says_how_to_ingest(settings, tmp_path):
    buffer = io.StringIO()
    out = Console(file=buffer, width=400, color_system=None)

    async def lines():
        yield "/ask how do we deploy?"
        yield "what about hotfixes?"

    code = await run_console(settings, out=out, lines=lines(), scratch_parent=tmp_path)
    text = buffer.getvalue()
    assert code == 0
    assert text.count("Whoever runs the bot can build one with synthbot ingest PATH") == 2

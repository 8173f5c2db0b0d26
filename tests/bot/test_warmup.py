"""`synthbot serve` is healthy only once the model and the indexes are loaded; /healthz says "starting" before."""

from __future__ import annotations

import asyncio
import threading

import aiohttp
from pydantic import SecretStr

from bot.cli.serve import serve
from bot.fake_slack import SlackRequests
from bot.warmup import WarmingAgent, open_warm_agent
from tests.bot.fakes import SECRET, FakeAgent
from tests.conftest import free_port


async def test_healthz_says_starting_until_the_agent_is_warm(slack_settings, fake_slack):
    settings = slack_settings.model_copy(update={"slack_bot_token": SecretStr(fake_slack.bot_token),
                                                 "slack_signing_secret": SecretStr(SECRET)})
    release, fake = threading.Event(), FakeAgent()

    class Store:  # what /healthz asks once warm
        def revision(self) -> str:
            return "r1"

    def slow_open(_settings):  # stands in for loading the model and indexes
        release.wait(20)
        return fake, Store()

    agent = WarmingAgent(settings, opener=slow_open)
    port, started, stop = free_port(), asyncio.Event(), asyncio.Event()
    server = asyncio.create_task(serve(settings, host="127.0.0.1", port=port, agent=agent, started=started,
                                       stop=stop))
    base = f"http://127.0.0.1:{port}"
    try:
        async with aiohttp.ClientSession() as http:
            health = None
            for _ in range(200):  # the server binds before it loads anything
                try:
                    async with http.get(f"{base}/healthz") as resp:
                        health = (resp.status, await resp.json())
                        break
                except aiohttp.ClientConnectionError:
                    await asyncio.sleep(0.05)
            assert health == (503, {"ok": False, "status": "starting", "team_id": fake_slack.team_id,
                                    "uptime": health[1]["uptime"]})
            # A question that arrives while starting is acked, and answered once the agent is warm.
            requests = SlackRequests(SECRET, team_id=fake_slack.team_id, response_url=fake_slack.response_url)
            ask = requests.slash_command("how do we deploy?")
            async with http.post(f"{base}/slack/events", data=ask.body, headers=ask.headers) as resp:
                assert resp.status == 200
            await asyncio.sleep(0.2)
            assert fake.calls == [] and not started.is_set()
            release.set()
            await asyncio.wait_for(started.wait(), 10)
            async with http.get(f"{base}/healthz") as resp:
                body = await resp.json()
                assert resp.status == 200 and body["ok"] and body["status"] == "ok"
        await fake_slack.wait_for(lambda: [c for c in fake_slack.calls_to("chat.postMessage") if c.args.get("thread_ts")])
        assert [c.question for c in fake.calls] == ["how do we deploy?"]
    finally:
        release.set()
        stop.set()
        await asyncio.wait_for(server, 20)


def test_warm_up_loads_the_model_and_both_indexes(settings, minilm):
    from synthesis.models import Chunk
    from synthesis.store import KnowledgeStore

    texts = ["Roll back a failed deploy within 15 minutes.", "The on-call lead approves a production hotfix."]
    chunks = [Chunk(id=f"c{i}", doc_id=f"d{i}", text=t, title=f"doc {i}", doc_hash=f"h{i}") for i, t in enumerate(texts)]
    KnowledgeStore.open(settings, minilm).upsert(chunks, minilm.embed(texts))
    agent, store = open_warm_agent(settings)
    try:
        assert store is agent.retriever.store
        assert agent.retriever.store.embedder is minilm  # the process-wide model, loaded once
        lexical = agent.retriever.lexical
        assert lexical.builds == 1 and any((settings.home / "lexical").iterdir())  # BM25 built before any question
        result = agent.retriever.search("who approves a hotfix", k=1)
        assert result.results[0].doc_id == "d1" and lexical.builds == 1  # the first question builds nothing
    finally:
        agent.close()

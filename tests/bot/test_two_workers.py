"""Two workers, one brain: one `chroma run`, one `redis-server` and two `synthbot serve` processes in HTTP mode.

The compose stack's topology without Docker (tests/workers.py). Each worker is a real process with the real agent
(bundled model, offline synthesizer) and its own data directory; they share only the Chroma server, Redis and the
fake Slack workspace (bot/fake_slack.py). Requests are signed as Slack signs them. Every answer is counted in Slack.
"""

from __future__ import annotations

import asyncio
import os
import subprocess

import aiohttp
import pytest
import pytest_asyncio

from bot.fake_slack import FakeSlack, SlackRequests
from bot.threads import RedisConversationStore
from tests.bot.fakes import SECRET
from tests.conftest import ROOT, start_redis, stop_process
from tests.kb.test_retrieval_server import start_chroma
from tests.workers import (SYNTHBOT, anchor_for, delivered, send, settled, start_worker, stop_worker, wait_healthy,
                           worker_env)

pytestmark = [pytest.mark.slow, pytest.mark.asyncio(loop_scope="module")]

NEW_DOC = """---
title: Blue-green cutovers
url: https://handbook.example.com/deploys/blue-green
tags: [deploys, payments]
---
# Blue-green cutovers

The blue-green cutover window for the payments service is 17 minutes. The release captain approves every cutover,
and the old colour stays warm for a day so a cutover can be reversed without a redeploy.
"""
NEW_QUESTION = "How long is the blue-green cutover window for the payments service?"


class Stack:
    def __init__(self, fake, http, workers, redis_url, chroma_url, root) -> None:
        self.fake, self.http, self.workers, self.redis_url, self.chroma_url, self.root = (
            fake, http, workers, redis_url, chroma_url, root)
        self.requests = SlackRequests(SECRET, team_id=fake.team_id, bot_user_id=fake.bot_user_id,
                                      response_url=fake.response_url)
        self.threads = RedisConversationStore(redis_url, ttl_seconds=3600)
        self.soaked: list = []  # what the short soak expects, for the final count

    async def send(self, worker: int, request) -> None:
        assert await send(self.http, self.workers[worker], request) == 200

    async def answers(self, channel: str, thread: str | None, count: int, timeout: float = 60.0) -> list[str]:
        await self.fake.wait_for(lambda: len(delivered(self.fake, channel, thread).answers) >= count, timeout)
        return delivered(self.fake, channel, thread).answers

    async def turns(self, channel: str, thread: str, count: int) -> list:
        """The thread's history in Redis once `count` turns are saved (a person reads the answer before replying)."""
        for _ in range(600):
            turns = await self.threads.load(team=self.fake.team_id, channel=channel, thread=thread)
            if len(turns) >= count:
                return turns
            await asyncio.sleep(0.05)
        raise TimeoutError(f"{channel}/{thread}: {count} turns never saved")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def stack(tmp_path_factory, minilm):
    from synthesis.config import Settings
    from synthesis.ingest import ingest
    from synthesis.store import KnowledgeStore

    root = tmp_path_factory.mktemp("two-workers")
    # Redis first: without redis-server it skips before anything runs; a server started before the skip would
    # outlive the test run (each run without Redis left a `chroma run` behind)
    redis, redis_url = start_redis(root / "redis")
    chroma = None
    workers = []
    try:
        chroma, chroma_url = start_chroma(root / "chroma")
        store = KnowledgeStore.open(Settings(_env_file=None, home=root / "ingest", chroma_url=chroma_url), minilm)
        ingest(store, [ROOT / "examples" / "handbook"])
        async with FakeSlack() as fake, aiohttp.ClientSession() as http:
            for name in ("worker-a", "worker-b"):
                env = worker_env(fake=fake, chroma_url=chroma_url, redis_url=redis_url, home=root / name / "home")
                workers.append(start_worker(name, env=env, directory=root / name))
            await asyncio.gather(*(wait_healthy(http, w) for w in workers))
            yield Stack(fake, http, workers, redis_url, chroma_url, root)
            for w in workers:
                assert stop_worker(w) < 10, f"{w.name} did not stop within the drain time"
    finally:
        for w in workers:
            stop_worker(w)
        if chroma is not None:
            stop_process(chroma)
        stop_process(redis)


async def test_questions_and_follow_ups_alternate_and_keep_the_threads_context(stack):
    req, channel = stack.requests, "C0ALTERNATE"
    await stack.send(0, req.slash_command("How do I deploy to production?", channel=channel))  # worker A
    thread = await stack.fake.wait_for(lambda: anchor_for(stack.fake, channel), 30)
    await stack.answers(channel, thread, 1)
    await stack.turns(channel, thread, 1)

    await stack.send(1, req.event(req.message("what about staging?", channel=channel, thread_ts=thread)))  # B
    answers = await stack.answers(channel, thread, 2)
    turns = await stack.turns(channel, thread, 2)
    # Worker B never saw the first question: it read the thread from Redis and asked about deploying to staging.
    assert turns[1].question == "what about staging?" and turns[1].standalone == "How do I deploy to staging?"
    assert "staging" in answers[1].lower()

    await stack.send(0, req.event(req.app_mention("and what about production? --debug", channel=channel,
                                                  thread_ts=thread)))  # back to A, which B's turn must reach
    answers = await stack.answers(channel, thread, 3)
    assert "standalone: How do I deploy to production?" in answers[2]
    turns = await stack.turns(channel, thread, 3)
    assert [t.question for t in turns] == ["How do I deploy to production?", "what about staging?",
                                           "and what about production?"]
    assert len(delivered(stack.fake, channel, thread).answers) == 3 and not delivered(stack.fake, channel).errors


async def test_a_slack_retry_sent_to_the_other_worker_is_answered_once(stack):
    req = stack.requests
    mention = req.app_mention("Who approves a production hotfix?", channel="C0RETRY")
    await stack.send(0, req.event(mention, event_id="EvRETRYMENTION"))
    await stack.send(1, req.event(mention, event_id="EvRETRYMENTION", retry_num=1))  # while A is still answering
    dm = req.message("When is the postmortem due after an outage?", channel="D0RETRY", channel_type="im")
    await stack.send(1, req.event(dm, event_id="EvRETRYDM"))
    await stack.answers("C0RETRY", mention["ts"], 1)
    await stack.answers("D0RETRY", None, 1)
    await stack.send(0, req.event(dm, event_id="EvRETRYDM", retry_num=2))  # after B answered
    await stack.send(1, req.event(mention, event_id="EvRETRYMENTION", retry_num=2))
    await settled(stack.http, stack.workers, quiet=1.0)  # a duplicate would be running or posted by now
    assert len(delivered(stack.fake, "C0RETRY", mention["ts"]).answers) == 1
    assert len(delivered(stack.fake, "D0RETRY").answers) == 1


async def test_an_ingest_during_the_run_is_seen_by_both_workers(stack, tmp_path):
    req = stack.requests
    await stack.send(0, req.slash_command(NEW_QUESTION, channel="C0BEFORE"))
    before = await stack.answers("C0BEFORE", await stack.fake.wait_for(lambda: anchor_for(stack.fake, "C0BEFORE")), 1)
    assert "17 minutes" not in before[0]

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "blue-green.md").write_text(NEW_DOC)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SYNTHBOT_")}
    env.update(SYNTHBOT_CHROMA_URL=stack.chroma_url, SYNTHBOT_HOME=str(tmp_path / "home"), HF_HUB_OFFLINE="1",
               ANONYMIZED_TELEMETRY="False")
    ingest = await asyncio.to_thread(subprocess.run, [str(SYNTHBOT), "ingest", str(docs)], env=env, cwd=tmp_path,
                                     capture_output=True, text=True, timeout=180)
    assert ingest.returncode == 0, ingest.stderr[-2000:]

    for worker, channel in ((0, "C0AFTERA"), (1, "C0AFTERB")):
        await stack.send(worker, req.slash_command(NEW_QUESTION, channel=channel))
        anchor = await stack.fake.wait_for(lambda: anchor_for(stack.fake, channel), 30)
        (answer,) = await stack.answers(channel, anchor, 1)
        assert "17 minutes" in answer and "blue-green" in answer.lower(), answer[:600]


async def test_a_short_soak_answers_every_question_once(stack):
    """benchmarks/soak.py for five conversations (one of each kind): retries and follow-ups to the other worker."""
    from benchmarks.soak import KINDS, Soak

    soak = Soak(stack.http, stack.fake, stack.workers, stack.redis_url)
    result = await soak.run(seconds=120, concurrency=2, warmup=0.5, conversations=len(KINDS))
    stack.soaked = soak.expected
    assert result["by_kind"] == {kind: 1 for kind in KINDS}
    assert result["problems"] == [] and result["lost"] == 0 and result["duplicated"] == 0
    assert result["http_non_200"] == 0 and result["slack_retries_sent"] > 0


async def test_no_answer_was_lost_or_duplicated_and_no_worker_logged_an_error(stack):
    """Runs last in the module: every place the bot answered holds exactly the answers its questions asked for."""
    await settled(stack.http, stack.workers, quiet=1.0)
    expected = {("C0ALTERNATE", 3), ("C0RETRY", 1), ("D0RETRY", 1), ("C0BEFORE", 1), ("C0AFTERA", 1), ("C0AFTERB", 1)}
    expected |= {(e.channel, e.answers) for e in stack.soaked}
    got = {(channel, len(delivered(stack.fake, channel).answers)) for channel in stack.fake.messages}
    assert got == expected
    assert not [text for channel in stack.fake.messages for text in delivered(stack.fake, channel).errors]
    for worker in stack.workers:
        assert worker.requests > 0 and worker.errors() == [], (worker.name, worker.errors()[:3])
        async with stack.http.get(worker.url + "/healthz") as resp:
            health = await resp.json()
        assert resp.status == 200 and health["handler_ms"]["requests"] == worker.requests  # none went astray

"""Soak: two `synthbot serve` workers over one Chroma server and one Redis, a few minutes of mixed Slack traffic.

    .venv/bin/python -m benchmarks.soak [--minutes 4] [--concurrency 2] [--warmup 0.2] [--out soak]

Everything runs on loopback: a `chroma run` and a `redis-server` (started as the tests start them), the demo
handbook ingested into the Chroma server, two `synthbot serve` processes in HTTP mode with the real agent (offline
extractive synthesizer, the bundled model), and bot.fake_slack as the Slack Web API. The traffic is signed as Slack
signs it and alternates between the workers: `/ask` with a thread follow-up sent to the other worker, app mentions
and DMs whose Slack retry (X-Slack-Retry-Num) goes to the other worker, `/ask --coverage`, and `/ask` continued by a
mention in its thread on the other worker.

Targets (issue 10): every question answered exactly once (0 lost, 0 duplicated), 0 errors (HTTP statuses, error
messages in Slack, error-level log lines), and each worker's RSS at the end within 10 % of its RSS after warm-up.
Writes benchmarks/results/soak.json (or --out); docs/RELIABILITY.md and docs/BENCHMARKS.md quote it.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp

from bot.fake_slack import FakeSlack, SlackRequests
from bot.threads import RedisConversationStore
from tests.bot.fakes import SECRET
from tests.workers import Worker, anchor_for, delivered, send, settled

QUESTIONS = [
    "How do I deploy to production?",
    "Who approves a production hotfix?",
    "What happens if I don't acknowledge a page?",
    "When is the postmortem due after an outage?",
    "How often are access reviews done?",
    "What percentage of traffic does the canary get?",
    "How do database migrations get reviewed?",
    "When are change freezes?",
]
FOLLOW_UPS = ["what about staging?", "and who signs that off?", "how long does that take?", "what about on weekends?"]
KINDS = ("ask+followup", "mention+retry", "dm+retry", "coverage", "ask+mention-followup")


@dataclass
class Expected:
    """Where a conversation's answers land and how many there must be."""

    kind: str
    channel: str
    thread: str | None  # None: a DM's top level
    answers: int


class Soak:
    """Drives conversations against the workers and checks every answer landed exactly once."""

    def __init__(self, http: aiohttp.ClientSession, fake: FakeSlack, workers: list[Worker], redis_url: str, *,
                 answer_timeout: float = 60.0) -> None:
        self.http, self.fake, self.workers, self.timeout = http, fake, workers, answer_timeout
        self.requests = SlackRequests(SECRET, team_id=fake.team_id, bot_user_id=fake.bot_user_id,
                                      response_url=fake.response_url)
        self.threads = RedisConversationStore(redis_url, ttl_seconds=3600)
        self.expected: list[Expected] = []
        self.statuses: list[int] = []
        self.latencies: list[float] = []  # seconds from the signed request to its answer in Slack
        self.retries = 0

    async def _send(self, worker: int, request) -> None:
        self.statuses.append(await send(self.http, self.workers[worker % len(self.workers)], request))

    async def _answers(self, channel: str, thread: str | None, count: int, since: float) -> None:
        await self.fake.wait_for(lambda: len(delivered(self.fake, channel, thread).answers) >= count, self.timeout)
        self.latencies.append(time.perf_counter() - since)

    async def _anchor(self, channel: str) -> str:
        return await self.fake.wait_for(lambda: anchor_for(self.fake, channel), self.timeout)

    async def _turns(self, channel: str, thread: str, count: int) -> None:
        """A person replies after reading the answer; by then the turn is saved (it is saved right after posting)."""
        deadline = time.monotonic() + self.timeout
        while len(await self.threads.load(team=self.fake.team_id, channel=channel, thread=thread)) < count:
            if time.monotonic() > deadline:
                raise TimeoutError(f"turn {count} of {channel}/{thread} never saved")
            await asyncio.sleep(0.05)

    async def conversation(self, n: int) -> Expected:
        kind, question = KINDS[n % len(KINDS)], QUESTIONS[n % len(QUESTIONS)]
        first, other = n, n + 1  # alternate: whatever comes next in this conversation goes to the other worker
        channel = f"{'D' if kind.startswith('dm') else 'C'}0SOAK{n}"
        req = self.requests
        t0 = time.perf_counter()
        if kind in ("ask+followup", "ask+mention-followup", "coverage"):
            text = "--coverage" if kind == "coverage" else question
            await self._send(first, req.slash_command(text, channel=channel))
            thread = await self._anchor(channel)
            await self._answers(channel, thread, 1, t0)
            if kind == "coverage":
                return Expected(kind, channel, thread, 1)
            await self._turns(channel, thread, 1)
            follow_up = FOLLOW_UPS[n % len(FOLLOW_UPS)]
            event = (req.message(follow_up, channel=channel, thread_ts=thread) if kind == "ask+followup"
                     else req.app_mention(follow_up, channel=channel, thread_ts=thread))
            event_id = f"Ev{n:08d}F"
            t1 = time.perf_counter()
            await self._send(other, req.event(event, event_id=event_id))
            if n % 2:  # every other follow-up is also retried by "Slack", to the first worker
                self.retries += 1
                await self._send(first, req.event(event, event_id=event_id, retry_num=1))
            await self._answers(channel, thread, 2, t1)
            return Expected(kind, channel, thread, 2)
        if kind == "mention+retry":
            event = req.app_mention(question, channel=channel)
            await self._send(first, req.event(event, event_id=f"Ev{n:08d}M"))
            self.retries += 1
            await self._send(other, req.event(event, event_id=f"Ev{n:08d}M", retry_num=1))  # while in flight
            await self._answers(channel, event["ts"], 1, t0)
            return Expected(kind, channel, event["ts"], 1)
        event = req.message(question, channel=channel, channel_type="im")
        await self._send(first, req.event(event, event_id=f"Ev{n:08d}D"))
        await self._answers(channel, None, 1, t0)
        self.retries += 1
        await self._send(other, req.event(event, event_id=f"Ev{n:08d}D", retry_num=2))  # after it was answered
        return Expected(kind, channel, None, 1)

    async def run(self, *, seconds: float, concurrency: int, warmup: float, conversations: int | None = None,
                  rss_every: float = 5.0) -> dict[str, Any]:
        """Conversations, `concurrency` at a time, for `seconds` (or until `conversations` were started); RSS after
        `warmup` of the time and at the end."""
        started = time.monotonic()
        counter = itertools.count()
        rss: dict[str, list[tuple[float, int]]] = {w.name: [] for w in self.workers}
        warm: dict[str, int] = {}

        async def lane() -> None:
            while time.monotonic() - started < seconds:
                n = next(counter)
                if conversations is not None and n >= conversations:
                    return
                self.expected.append(await self.conversation(n))

        async def sample() -> None:
            while True:
                now = time.monotonic() - started
                for w in self.workers:
                    rss[w.name].append((round(now, 1), w.rss_kib()))
                    if now >= warmup * seconds and w.name not in warm:
                        warm[w.name] = w.rss_kib()
                await asyncio.sleep(rss_every)

        sampler = asyncio.create_task(sample())
        try:
            await asyncio.gather(*(lane() for _ in range(concurrency)))
            await settled(self.http, self.workers, quiet=2.0)  # a late duplicate would land by now
        finally:
            sampler.cancel()
        end = {w.name: w.rss_kib() for w in self.workers}
        return self.report(time.monotonic() - started, warm, end, rss)

    def report(self, elapsed: float, warm: dict[str, int], end: dict[str, int],
               rss: dict[str, list[tuple[float, int]]]) -> dict[str, Any]:
        problems: list[str] = []
        for e in self.expected:
            got = delivered(self.fake, e.channel, e.thread)
            if len(got.answers) != e.answers:
                problems.append(f"{e.kind} in {e.channel}: {len(got.answers)} answers, expected {e.answers}")
            problems += [f"{e.kind} in {e.channel}: error message {text[:120]!r}" for text in got.errors]
        # Every answer in a soak channel, wherever it landed there (the workspace may hold other tests' channels).
        in_slack = sum(len(delivered(self.fake, c).answers) for c in self.fake.messages if c[1:].startswith("0SOAK"))
        expected = sum(e.answers for e in self.expected)
        lost = sum(max(0, e.answers - len(delivered(self.fake, e.channel, e.thread).answers)) for e in self.expected)
        log_errors = {w.name: w.errors() for w in self.workers}
        growth = {name: round((end[name] - warm[name]) / warm[name] * 100, 2) for name in end if name in warm}
        ordered = sorted(self.latencies)
        return {
            "seconds": round(elapsed, 1), "conversations": len(self.expected),
            "by_kind": {k: sum(1 for e in self.expected if e.kind == k) for k in KINDS},
            "questions": expected, "answers_in_slack": in_slack, "lost": lost,
            "duplicated": max(0, in_slack - expected + lost),
            "slack_retries_sent": self.retries, "requests": {w.name: w.requests for w in self.workers},
            "http_non_200": sum(1 for s in self.statuses if s != 200),
            "error_log_lines": {k: len(v) for k, v in log_errors.items()},
            "error_samples": [json.dumps(e)[:300] for v in log_errors.values() for e in v[:3]],
            "problems": problems[:20],
            "latency_s": {"p50": round(statistics.median(ordered), 2),
                          "p95": round(ordered[int(0.95 * (len(ordered) - 1))], 2),
                          "max": round(ordered[-1], 2)} if ordered else {},
            "rss_kib": {"after_warmup": warm, "end": end, "growth_percent": growth, "samples": rss},
        }


async def _main(args: argparse.Namespace) -> dict[str, Any]:
    from benchmarks._common import REPO
    from synthesis.config import Settings
    from synthesis.embedding import load_embedder
    from synthesis.ingest import ingest
    from synthesis.store import KnowledgeStore
    from tests.conftest import start_redis, stop_process
    from tests.kb.test_retrieval_server import start_chroma
    from tests.workers import start_worker, stop_worker, wait_healthy, worker_env

    with tempfile.TemporaryDirectory(prefix="synthbot-soak-") as tmp:
        root = Path(tmp)
        # Redis first: without redis-server `start_redis` raises before anything runs; a Chroma server started
        # before it would outlive the run
        redis, redis_url = start_redis(root / "redis")
        chroma = None
        workers: list[Worker] = []
        try:
            chroma, chroma_url = start_chroma(root / "chroma")
            store = KnowledgeStore.open(Settings(_env_file=None, home=root / "ingest", chroma_url=chroma_url),
                                        load_embedder())
            ingest(store, [REPO / "examples" / "handbook"])
            async with FakeSlack() as fake, aiohttp.ClientSession() as http:
                for name in ("worker-1", "worker-2"):
                    env = worker_env(fake=fake, chroma_url=chroma_url, redis_url=redis_url, home=root / name / "home")
                    workers.append(start_worker(name, env=env, directory=root / name))
                t0 = time.perf_counter()
                await asyncio.gather(*(wait_healthy(http, w) for w in workers))
                print(f"two workers healthy in {time.perf_counter() - t0:.1f} s; soaking for {args.minutes:g} min…",
                      file=sys.stderr)
                soak = Soak(http, fake, workers, redis_url)
                result = await soak.run(seconds=args.minutes * 60, concurrency=args.concurrency, warmup=args.warmup)
                result["stop_seconds"] = {w.name: round(stop_worker(w), 2) for w in workers}
            result["config"] = {"minutes": args.minutes, "concurrency": args.concurrency, "warmup": args.warmup}
            return result
        finally:
            for w in workers:
                stop_worker(w)
            if chroma is not None:
                stop_process(chroma)
            stop_process(redis)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=4.0)
    parser.add_argument("--concurrency", type=int, default=2, help="conversations in flight at once")
    parser.add_argument("--warmup", type=float, default=0.2, help="fraction of the run before the RSS baseline")
    parser.add_argument("--out", default="soak", help="result name: benchmarks/results/OUT.json (default soak)")
    args = parser.parse_args(argv)
    from benchmarks._common import write_result

    result = asyncio.run(_main(args))
    growth = result["rss_kib"]["growth_percent"]
    ok = (not result["problems"] and result["lost"] == 0 and result["duplicated"] == 0 and result["http_non_200"] == 0
          and not any(result["error_log_lines"].values()) and all(g < 10 for g in growth.values()))
    result["targets_met"] = ok
    path = write_result(args.out, result)
    summary = {k: v for k, v in result.items() if k not in ("rss_kib", "error_samples")}
    print(json.dumps({**summary, "rss_growth_percent": growth, "rss_kib_end": result["rss_kib"]["end"]}, indent=2))
    print(f"targets {'met' if ok else 'MISSED'}; written to {path}", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

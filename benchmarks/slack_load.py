"""50 concurrent /ask over HTTP mode on loopback against the fake Slack Web API: ack latency, answered once, none lost.

    .venv/bin/python -m benchmarks.slack_load [--n 50] [--real] [--agent-seconds 0.2]

The real `synthbot serve` HTTP server (bot.cli.serve.serve) runs in this process with the Web API pointed at
bot.fake_slack; every /ask is a signed POST to /slack/events. By default the agent is a fast fake (it sleeps
--agent-seconds), which measures the Slack edge alone; --real also runs the real Agent over the demo handbook
(ingested into benchmarks/.cache/slack_load-home on first use). Goal: ack p99 <= 100 ms; all answered exactly once.
Writes benchmarks/results/slack_load.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

from benchmarks._common import CACHE, REPO, write_result
from bot.cli.serve import serve
from bot.fake_slack import FakeSlack, SlackRequests
from synthesis.config import Settings
from synthesis.logging import configure_logging
from synthesis.models import (AnswerResult, Finding, Passage, QuestionType, Quality, Source, Synthesis)

SECRET = "bench-signing-secret"
QUESTIONS = [
    "How long can a deploy be rolled back?",
    "Who approves a production hotfix?",
    "What happens if I don't acknowledge a page?",
    "When is the postmortem due after an outage?",
    "How often are access reviews done?",
    "What percentage of traffic does the canary get?",
    "How do database migrations get reviewed?",
    "When are change freezes?",
]


class FastAgent:
    """Answers after `seconds`, reporting progress like the real one: the Slack edge's cost, measured alone."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    async def answer(self, question, *, history=(), options=None, progress=None) -> AnswerResult:
        if progress:
            await progress("Planning the question…")
        await asyncio.sleep(self.seconds / 2)
        if progress:
            await progress("Writing the answer…")
        await asyncio.sleep(self.seconds / 2)
        passage = Passage(id="p1", doc_id="d1", content="Deploys roll back within 14 days.", score=0.9,
                          title="Rollback", source_url="https://handbook.example.com/deploys/rollback")
        return AnswerResult(
            question=question, standalone_question=question, question_type=QuestionType.FACTUAL, passages=[passage],
            synthesis=Synthesis(summary=f"Answer to {question}",
                                findings=[Finding(topic="Rollback", content="Within 14 days [1].", citations=[1])],
                                sources=[Source(number=1, passage_id="p1", doc_id="d1", title="Rollback",
                                                url=passage.source_url)],
                                quality=Quality(overall=0.9)),
            duration=self.seconds)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def _serve_child(settings_kwargs: dict[str, Any], port: int, agent_seconds: float | None) -> None:
    """The server process: `synthbot serve` in HTTP mode (fast fake agent, or the real one when None)."""
    configure_logging(level="WARNING")
    settings = Settings(_env_file=None, **settings_kwargs)
    agent = FastAgent(agent_seconds) if agent_seconds is not None else None
    asyncio.run(serve(settings, host="127.0.0.1", port=port, agent=agent))


async def _wait_healthy(port: int, proc, timeout: float) -> None:
    deadline = time.perf_counter() + timeout
    async with aiohttp.ClientSession() as http:
        while time.perf_counter() < deadline:
            if not proc.is_alive():
                raise RuntimeError(f"the server process exited ({proc.exitcode}); see its output above")
            try:
                async with http.get(f"http://127.0.0.1:{port}/healthz") as r:
                    if r.status == 200:
                        return
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.2)
    raise RuntimeError("the server did not come up")


async def run(settings: Settings, *, n: int, agent_seconds: float | None, label: str, timeout: float) -> dict[str, Any]:
    """One load run: n concurrent signed /ask POSTs; returns latencies and the exactly-once check.

    The server runs in its own process (as it would in production), so the load generator and the fake Web API
    in this process do not share its event loop and inflate its ack latency.
    """
    async with FakeSlack() as fake:
        port = _free_port()
        child = multiprocessing.get_context("spawn").Process(target=_serve_child, daemon=True, args=(
            {"home": str(settings.home), "collection": settings.collection, "slack_api_url": fake.base_url,
             "slack_bot_token": fake.bot_token, "slack_signing_secret": SECRET,
             "max_concurrent_runs": settings.max_concurrent_runs}, port, agent_seconds))
        child.start()
        await _wait_healthy(port, child, 300)
        fake.calls.clear()  # keep auth.test out of the counts
        requests = SlackRequests(SECRET, team_id=fake.team_id, response_url=fake.response_url)
        questions = [f"{QUESTIONS[i % len(QUESTIONS)]} (#{i})" for i in range(n)]
        sent: dict[str, float] = {}

        async def ask(http: aiohttp.ClientSession, i: int) -> tuple[int, float]:
            req = requests.slash_command(questions[i], user=f"U{i:05d}", trigger_id=f"trig.{i}")
            sent[questions[i]] = t0 = time.perf_counter()
            async with http.post(f"http://127.0.0.1:{port}/slack/events", data=req.body, headers=req.headers) as r:
                await r.read()
                return r.status, (time.perf_counter() - t0) * 1000

        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
            # Warm up both ends (a long-running server is warm): signed url_verification requests take the whole
            # path — HTTP, signature check, Bolt — without posting anything.
            for i in range(5):
                warm = requests.sign(json.dumps({"type": "url_verification", "challenge": f"warm{i}"}))
                async with http.post(f"http://127.0.0.1:{port}/slack/events", data=warm.body, headers=warm.headers) as r:
                    assert r.status == 200, await r.text()
            began = time.perf_counter()
            acks = await asyncio.gather(*(ask(http, i) for i in range(n)))

        def answers() -> list:
            return [c for c in fake.calls_to("chat.postMessage") if c.args.get("thread_ts")
                    and any(b.get("type") == "actions" for b in c.args.get("blocks") or [])]

        def errors() -> list:
            return [c for c in fake.calls_to("chat.postMessage") if c.args.get("thread_ts")
                    and not any(b.get("type") == "actions" for b in c.args.get("blocks") or [])
                    and ("went wrong" in c.args.get("text", "") or "too long" in c.args.get("text", ""))]

        try:
            await fake.wait_for(lambda: len(answers()) + len(errors()) >= n, timeout=timeout)
        except asyncio.TimeoutError:
            pass
        total = time.perf_counter() - began
        await asyncio.sleep(0.5)  # anything answered twice would show up now
        async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}/healthz") as r:
            server_ack = (await r.json()).get("handler_ms", {})
        child.terminate()  # SIGTERM: serve drains in-flight answers and exits
        await asyncio.to_thread(child.join, 60)

        anchors = {c.response["ts"]: c for c in fake.calls_to("chat.postMessage")
                   if not c.args.get("thread_ts") and c.response.get("ok")}
        per_anchor: dict[str, int] = {ts: 0 for ts in anchors}
        answer_ms = []
        for call in answers():
            per_anchor[call.args["thread_ts"]] = per_anchor.get(call.args["thread_ts"], 0) + 1
            question = next((q for q in questions if q in anchors[call.args["thread_ts"]].args.get("text", "")), None)
            if question:
                answer_ms.append((call.at - sent[question]) * 1000)
        asked = {q for q in questions if any(q in a.args.get("text", "") for a in anchors.values())}
        ack_ms = [ms for _, ms in acks]
        result = {
            "agent": label, "n": n, "http_status": sorted({s for s, _ in acks}),
            "ack_ms": {"p50": round(_pct(ack_ms, 50), 1), "p99": round(_pct(ack_ms, 99), 1),
                       "max": round(max(ack_ms), 1), "mean": round(statistics.fmean(ack_ms), 1)},
            "server_ack_ms": server_ack,  # inside the server: request read → response (no network, no queueing)
            "answer_ms": ({"p50": round(_pct(answer_ms, 50)), "p99": round(_pct(answer_ms, 99)),
                           "max": round(max(answer_ms))} if answer_ms else {}),
            "anchors": len(anchors), "questions_with_anchor": len(asked),
            "answered_once": sum(1 for v in per_anchor.values() if v == 1),
            "answered_twice_or_more": sum(1 for v in per_anchor.values() if v > 1),
            "unanswered": sum(1 for v in per_anchor.values() if v == 0) + (n - len(anchors)),
            "error_messages": len(errors()), "web_api_calls": len(fake.calls),
            "web_api_failures": sum(1 for c in fake.calls if not c.response.get("ok")),
            "max_concurrent_runs": settings.max_concurrent_runs, "seconds_to_answer_all": round(total, 2),
        }
        result["met"] = {"ack_p99_le_100ms": result["ack_ms"]["p99"] <= 100,
                         "all_answered_exactly_once": result["answered_once"] == n and result["anchors"] == n}
        return result


def _demo_settings() -> Settings:
    home = CACHE / "slack_load-home"
    settings = Settings(_env_file=None, home=home)
    from synthesis.store import make_client

    if settings.collection not in {c if isinstance(c, str) else c.name for c in make_client(settings).list_collections()}:
        from synthesis.ingest import ingest
        from synthesis.store import open_store

        print(f"ingesting the demo handbook into {home} (first run only)…", flush=True)
        ingest(open_store(settings, create=True), [REPO / "examples" / "handbook"])
    return settings


def _print(result: dict[str, Any]) -> None:
    a, w = result["ack_ms"], result.get("answer_ms") or {}
    sa = result.get("server_ack_ms") or {}
    print(f"[{result['agent']}] {result['n']} concurrent /ask: ack p50 {a['p50']} ms, p99 {a['p99']} ms "
          f"(max {a['max']}; inside the server p50 {sa.get('p50')} ms, p99 {sa.get('p99')} ms); answered exactly once {result['answered_once']}/{result['n']}, twice+ "
          f"{result['answered_twice_or_more']}, lost {result['unanswered']}, error messages "
          f"{result['error_messages']}; answer p50 {w.get('p50')} ms p99 {w.get('p99')} ms; all answered in "
          f"{result['seconds_to_answer_all']} s (max {result['max_concurrent_runs']} runs at once)", flush=True)


async def main_async(args) -> int:
    configure_logging(level="WARNING")  # as `synthbot serve` does by default; debug lines to a tty cost time
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        fast = Settings(_env_file=None, home=Path(tmp))
        runs.append(await run(fast, n=args.n, agent_seconds=args.agent_seconds, label="fast-fake",
                              timeout=args.timeout))
        _print(runs[-1])
    if args.real:
        runs.append(await run(_demo_settings(), n=args.n, agent_seconds=None, label="real-demo", timeout=args.timeout))
        _print(runs[-1])
    path = write_result("slack_load", {"runs": runs, "command": " ".join(["python -m benchmarks.slack_load",
                                                                         *sys.argv[1:]])})
    print(f"wrote {path}")
    return 0 if all(all(r["met"].values()) for r in runs) else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.slack_load", description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=50, help="concurrent /ask requests (default 50)")
    parser.add_argument("--agent-seconds", type=float, default=0.2, help="the fast fake agent's time per answer")
    parser.add_argument("--real", action="store_true", help="also run the real Agent over the demo handbook")
    parser.add_argument("--timeout", type=float, default=900, help="seconds to wait for all answers")
    args = parser.parse_args(argv)
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())

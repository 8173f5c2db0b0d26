"""`/ask help` ack latency, measured by the client, while the same server process computes 50 real answers.

    .venv/bin/python -m benchmarks.help_ack [--n 50] [--interval 0.05]

The real `synthbot serve` (HTTP mode, the real Agent over the demo handbook, bundled model) runs in its own
process with the Web API pointed at bot.fake_slack. The client sends n signed /ask questions at once, then a
signed `/ask help` every --interval seconds until every answer has been posted; each probe is timed from its send
to its HTTP response. The answers embed, search, build contexts, verify and render in that process meanwhile, so
any CPU work left on the event loop shows up as a slow probe. With --junk-senders N, N more clients post unsigned
junk (a non-numeric timestamp) back to back for the whole run, as the issue's attacker did. Goal: probe ack
p99 <= 100 ms.
Writes benchmarks/results/help_ack.json.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import sys
import time
from typing import Any

import aiohttp

from benchmarks._common import write_result
from benchmarks.slack_load import QUESTIONS, SECRET, _demo_settings, _free_port, _pct, _serve_child, _wait_healthy
from bot.fake_slack import FakeSlack, SlackRequests


async def run(*, n: int, interval: float, timeout: float, junk_senders: int = 0) -> dict[str, Any]:
    settings = _demo_settings()
    async with FakeSlack() as fake:
        port = _free_port()
        child = multiprocessing.get_context("spawn").Process(target=_serve_child, daemon=True, args=(
            {"home": str(settings.home), "collection": settings.collection, "slack_api_url": fake.base_url,
             "slack_bot_token": fake.bot_token, "slack_signing_secret": SECRET,
             "max_concurrent_runs": settings.max_concurrent_runs}, port, None))
        child.start()
        await _wait_healthy(port, child, 600)
        fake.calls.clear()
        url = f"http://127.0.0.1:{port}/slack/events"
        requests = SlackRequests(SECRET, team_id=fake.team_id, response_url=fake.response_url)

        async def post(http: aiohttp.ClientSession, text: str, user: str) -> tuple[int, float]:
            req = requests.slash_command(text, user=user)
            t0 = time.perf_counter()
            async with http.post(url, data=req.body, headers=req.headers) as r:
                await r.read()
                return r.status, (time.perf_counter() - t0) * 1000

        def answered() -> int:
            return sum(1 for c in fake.calls_to("chat.postMessage") if c.args.get("thread_ts"))

        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
            for _ in range(5):  # warm the path
                await post(http, "help", "UWARM")
            began = time.perf_counter()
            asks = await asyncio.gather(*(post(http, f"{QUESTIONS[i % len(QUESTIONS)]} (#{i})", f"U{i:05d}")
                                          for i in range(n)))
            junk_status: dict[int, int] = {}
            stop_junk = asyncio.Event()

            async def junk() -> None:
                forged = requests.slash_command("junk")
                headers = {**forged.headers, "x-slack-request-timestamp": "not-a-number"}
                while not stop_junk.is_set():
                    async with http.post(url, data=forged.body, headers=headers) as r:
                        await r.read()
                        junk_status[r.status] = junk_status.get(r.status, 0) + 1

            senders = [asyncio.create_task(junk()) for _ in range(junk_senders)]
            probes: list[asyncio.Task] = []
            deadline = began + timeout
            while answered() < n and time.perf_counter() < deadline:
                probes.append(asyncio.create_task(post(http, "help", "UPROBE")))
                await asyncio.sleep(interval)
            all_answered = time.perf_counter() - began
            stop_junk.set()
            await asyncio.gather(*senders)
            results = await asyncio.gather(*probes)
            async with http.get(f"http://127.0.0.1:{port}/healthz") as r:
                health = await r.json()
        child.terminate()
        await asyncio.to_thread(child.join, 60)

    probe_ms = [ms for _, ms in results]
    result = {
        "n_answers": n, "answered": answered(), "seconds_to_answer_all": round(all_answered, 1),
        "probes": len(probe_ms), "probe_status": sorted({s for s, _ in results}),
        "help_ack_ms": {"p50": round(_pct(probe_ms, 50), 1), "p99": round(_pct(probe_ms, 99), 1),
                        "max": round(max(probe_ms), 1)} if probe_ms else {},
        "question_ack_ms": {"p50": round(_pct([m for _, m in asks], 50), 1),
                            "p99": round(_pct([m for _, m in asks], 99), 1)},
        "server_loop_lag_ms": health.get("loop_lag_ms"), "load_average": [round(x, 2) for x in os.getloadavg()],
        "interval_s": interval, "junk_senders": junk_senders, "junk_responses": junk_status,
    }
    result["met"] = {"help_ack_p99_le_100ms": bool(probe_ms) and result["help_ack_ms"]["p99"] <= 100,
                     "all_answered": result["answered"] >= n}
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.help_ack", description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=50, help="real answers computed meanwhile (default 50)")
    parser.add_argument("--interval", type=float, default=0.05, help="seconds between /ask help probes")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds to wait for all answers")
    parser.add_argument("--junk-senders", type=int, default=0, help="clients posting unsigned junk meanwhile")
    args = parser.parse_args(argv)
    from synthesis.logging import configure_logging

    configure_logging(level="WARNING")
    result = asyncio.run(run(n=args.n, interval=args.interval, timeout=args.timeout, junk_senders=args.junk_senders))
    result["command"] = " ".join(["python -m benchmarks.help_ack", *sys.argv[1:]])
    a = result["help_ack_ms"]
    print(f"/ask help while {result['n_answers']} answers were computed in-process: {result['probes']} probes, "
          f"ack p50 {a.get('p50')} ms, p99 {a.get('p99')} ms, max {a.get('max')} ms (client-measured); "
          f"answered {result['answered']}/{result['n_answers']} in {result['seconds_to_answer_all']} s; "
          f"server loop lag {result['server_loop_lag_ms']}; junk responses {result['junk_responses']}; "
          f"load {result['load_average']}", flush=True)
    print(f"wrote {write_result('help_ack' + ('_junk' if args.junk_senders else ''), result)}")
    return 0 if all(result["met"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())

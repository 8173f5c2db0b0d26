"""The scale-out topology on loopback: `synthbot serve` worker processes in HTTP mode over one Chroma server and one
Redis, driven with signed requests, answering into bot.fake_slack. Used by tests/bot/test_two_workers.py and
benchmarks/soak.py.

Each worker is a real process with its own data directory (as each container has its own volume): all they share
is the Chroma server (the knowledge), Redis (thread history and retry dedupe) and the Slack workspace.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

from bot.fake_slack import FakeSlack, SignedRequest
from tests.bot.fakes import SECRET, block_text
from tests.conftest import free_port

SYNTHBOT = Path(sys.executable).with_name("synthbot")
# Host settings that must not reach a worker (the test process drops them too: tests/conftest.py).
_HOST_ONLY = ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "SLACK_APP_TOKEN", "SYNTHBOT_EMBEDDING_MODEL")


def worker_env(*, fake: FakeSlack, chroma_url: str, redis_url: str, home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _HOST_ONLY and not k.startswith("SYNTHBOT_")}
    env.update({"SLACK_BOT_TOKEN": fake.bot_token, "SLACK_SIGNING_SECRET": SECRET, "SLACK_API_URL": fake.base_url,
                "SYNTHBOT_CHROMA_URL": chroma_url, "REDIS_URL": redis_url, "SYNTHBOT_HOME": str(home),
                "SYNTHBOT_LOG_FORMAT": "json", "SYNTHBOT_LOG_LEVEL": "INFO", "HF_HUB_OFFLINE": "1",
                "ANONYMIZED_TELEMETRY": "False"})
    return env


@dataclass
class Worker:
    """One `synthbot serve` process: its URL, its JSON log and its resident memory."""

    name: str
    port: int
    home: Path
    log_path: Path
    proc: subprocess.Popen
    requests: int = 0  # signed requests this side sent it

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def rss_kib(self) -> int:
        """VmRSS of the process (the console script execs Python: this is the worker itself)."""
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise RuntimeError(f"no VmRSS for {self.name}")

    def log_entries(self) -> list[dict]:
        entries = []
        for line in self.log_path.read_text(errors="replace").splitlines():
            try:
                entries.append(json.loads(line))
            except ValueError:
                entries.append({"level": "error", "event": "not json", "line": line[:300]})
        return entries

    def errors(self) -> list[dict]:
        """Log entries at error level or above, and anything that carried a traceback."""
        return [e for e in self.log_entries() if e.get("level") in ("error", "critical") or e.get("exception")]


def start_worker(name: str, *, env: dict[str, str], directory: Path) -> Worker:
    """Start `synthbot serve` on a free loopback port, its cwd a fresh directory (so no `.env` is read)."""
    directory.mkdir(parents=True, exist_ok=True)
    port = free_port()
    log_path = directory / "serve.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen([str(SYNTHBOT), "serve", "--host", "127.0.0.1", "--port", str(port)], env=env,
                                cwd=directory, stdout=subprocess.DEVNULL, stderr=log)
    return Worker(name, port, Path(env["SYNTHBOT_HOME"]), log_path, proc)


async def wait_healthy(http: aiohttp.ClientSession, worker: Worker, timeout: float = 120.0) -> dict:
    """Wait until /healthz says ok (the model and indexes are loaded, Chroma and Slack answer)."""
    deadline = time.monotonic() + timeout
    last: object = None
    while time.monotonic() < deadline:
        if worker.proc.poll() is not None:
            tail = worker.log_path.read_text()[-2000:]
            raise RuntimeError(f"{worker.name} exited ({worker.proc.returncode}): {tail}")
        try:
            async with http.get(worker.url + "/healthz", timeout=aiohttp.ClientTimeout(total=5)) as resp:
                last = await resp.json()
                if resp.status == 200:
                    return last
        except (aiohttp.ClientError, asyncio.TimeoutError) as exc:
            last = exc
        await asyncio.sleep(0.2)
    raise TimeoutError(f"{worker.name} not healthy within {timeout:g} s: {last}")


def stop_worker(worker: Worker, timeout: float = 20.0) -> float:
    """SIGTERM, as Docker stops a container; returns the seconds the worker took to exit."""
    t0 = time.perf_counter()
    if worker.proc.poll() is None:
        worker.proc.send_signal(signal.SIGTERM)
        try:
            worker.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            worker.proc.kill()
            worker.proc.wait()
    return time.perf_counter() - t0


async def send(http: aiohttp.ClientSession, worker: Worker, request: SignedRequest) -> int:
    """POST a signed request to a worker's /slack/events; the HTTP status (Slack needs 200 within 3 s)."""
    worker.requests += 1
    async with http.post(worker.url + "/slack/events", data=request.body.encode(), headers=request.headers,
                         timeout=aiohttp.ClientTimeout(total=10)) as resp:
        await resp.read()
        return resp.status


async def settled(http: aiohttp.ClientSession, workers: list[Worker], quiet: float = 1.0, timeout: float = 120.0):
    """Wait until no worker has an answer running or queued, twice `quiet` seconds apart."""
    deadline, calm_since = time.monotonic() + timeout, None
    while time.monotonic() < deadline:
        busy = 0
        for worker in workers:
            async with http.get(worker.url + "/healthz") as resp:
                health = await resp.json()
                busy += health.get("in_flight", 0) + health.get("queued", 0)
        if busy:
            calm_since = None
        elif calm_since is None:
            calm_since = time.monotonic()
        elif time.monotonic() - calm_since >= quiet:
            return
        await asyncio.sleep(0.2)
    raise TimeoutError("workers still busy")


# --- reading the fake workspace ------------------------------------------------------------------------------
ANSWER_MARKS = ("Confidence:", "% coverage")  # an answer's footer; a coverage report's headline
ERROR_MARKS = ("error id", "Sorry,", "unavailable")


@dataclass
class Delivered:
    """What the bot left in one place (a thread, or a DM channel's top level)."""

    answers: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def delivered(fake: FakeSlack, channel: str, thread_ts: str | None = None) -> Delivered:
    """Bot messages in `channel` (in thread `thread_ts`, root included, when given), as they look now."""
    out = Delivered()
    for message in fake.messages.get(channel, []):
        if thread_ts is not None and thread_ts not in (message["ts"], message.get("thread_ts")):
            continue
        text = block_text(message)
        if any(mark in text for mark in ANSWER_MARKS):
            out.answers.append(text)
        elif any(mark in text for mark in ERROR_MARKS):
            out.errors.append(text)
    return out


def anchor_for(fake: FakeSlack, channel: str) -> str | None:
    """The ts of the first top-level bot message in `channel`: the /ask anchor, when each question has its channel."""
    return next((m["ts"] for m in fake.messages.get(channel, []) if not m.get("thread_ts")), None)

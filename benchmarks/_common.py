"""Shared plumbing for the benchmark scripts: paths, machine description, result files, a build lock."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import platform
import subprocess
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
REPO = ROOT.parent
CACHE = ROOT / ".cache"
RESULTS = ROOT / "results"
# The shared evaluation data sits next to the checkout (../shared/eval/scifact); override for other layouts.
SCIFACT_DIR = Path(os.environ.get("SYNTHBOT_SCIFACT_DIR", REPO.parent / "shared" / "eval" / "scifact"))


def _cpu_model() -> str:
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def _ram_gb() -> float:
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                return round(int(line.split()[1]) / 1024 / 1024, 1)
    return 0.0


def machine() -> dict[str, Any]:
    """What the figures were taken on; the load average says how busy the box was."""
    import chromadb
    import torch

    commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return {
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "nproc": os.cpu_count(), "ram_gb": _ram_gb(), "cpu": _cpu_model(),
        "loadavg": [round(x, 2) for x in os.getloadavg()], "python": platform.python_version(),
        "torch": torch.__version__, "torch_threads": torch.get_num_threads(), "chromadb": chromadb.__version__,
        "commit": commit.stdout.strip(),
    }


def write_result(name: str, data: dict[str, Any]) -> Path:
    """benchmarks/results/NAME.json, with the machine description attached."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps({"benchmark": name, "machine": machine(), **data}, indent=2) + "\n")
    return path


@contextlib.contextmanager
def build_lock(name: str) -> Iterator[None]:
    """Serialise cache builds across processes (two helpers may ask for the same cache at once)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    with (CACHE / f"{name}.lock").open("w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def bench_settings(home: Path, collection: str):
    """Settings for a benchmark store: its own data dir, never the user's `.env`."""
    from synthesis.config import Settings

    return Settings(_env_file=None, home=home, collection=collection)


def rich_progress(description: str) -> tuple[Any, Callable[..., None]]:
    """A rich progress bar and a callback matching ingest's `progress(stage, done, total)`."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   transient=True, console=Console(stderr=True))
    task = bar.add_task(description, total=None)

    def update(*args) -> None:
        *stage, done, total = args
        bar.update(task, completed=done, total=total or None,
                   description=f"{description} {stage[0]}" if stage else description)

    return bar, update


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    started = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - started


def setup_logging() -> None:
    """Benchmarks print tables, not event logs: WARNING unless SYNTHBOT_LOG_LEVEL says otherwise."""
    from synthesis.logging import configure_logging

    configure_logging(level=os.environ.get("SYNTHBOT_LOG_LEVEL", "WARNING"))

"""Cold-process wall time of `synthbot --help`, `search` and `ask` (offline), per embedding backend, plus import profile.

    .venv/bin/python -m benchmarks.cold_start [--runs 5] [--backends onnx,sentence-transformers]

The knowledge base is the handbook-qa corpus (../shared/eval/handbook-qa/corpus, ~3k chunks), ingested once into
benchmarks/.cache/handbook-qa with `synthbot ingest corpus`. Each run is a fresh `synthbot` process (as a user types
it); backends alternate run by run so machine load hits both alike. Targets (issue 11, quiet machine): search
<= 1.5 s, ask <= 2.5 s. The `python -X importtime` profile of one search is summarised (top imports by cumulative
time) in the result file.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchmarks._common import CACHE, REPO, setup_logging, write_result

CORPUS_ROOT = Path(os.environ.get("SYNTHBOT_HANDBOOK_QA_DIR", REPO.parent / "shared" / "eval" / "handbook-qa"))
HOME = CACHE / "handbook-qa"
SYNTHBOT = Path(sys.executable).parent / "synthbot"
QUESTION = "How many days of annual leave do employees get, and who approves it?"
TARGETS = {"search": 1.5, "ask": 2.5}


def env_for(backend: str) -> dict[str, str]:
    return {**os.environ, "SYNTHBOT_HOME": str(HOME), "SYNTHBOT_EMBEDDING_BACKEND": backend,
            "SYNTHBOT_LOG_LEVEL": "ERROR", "ANTHROPIC_API_KEY": ""}


def ensure_kb() -> None:
    if (HOME / "chroma").is_dir():
        return
    print(f"ingesting {CORPUS_ROOT / 'corpus'} into {HOME} (once) …", file=sys.stderr, flush=True)
    subprocess.run([str(SYNTHBOT), "ingest", "corpus"], cwd=CORPUS_ROOT, env=env_for("onnx"), check=True,
                   stdout=subprocess.DEVNULL)


COMMANDS = {
    "help": ["--help"],
    "search": ["search", QUESTION, "--k", "5"],
    "ask": ["ask", QUESTION, "--json"],
}


def wall(args: list[str], backend: str) -> float:
    started = time.perf_counter()
    proc = subprocess.run([str(SYNTHBOT), *args], cwd=CORPUS_ROOT, env=env_for(backend), capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"synthbot {' '.join(args)} failed ({proc.returncode}):\n{proc.stderr[-1500:]}")
    return seconds


def import_profile(backend: str, top: int = 15) -> list[dict]:
    """`python -X importtime` of one search: the top-level packages with the largest cumulative import time."""
    code = "import sys; from bot.cli import main; sys.exit(main(sys.argv[1:]))"
    proc = subprocess.run([sys.executable, "-X", "importtime", "-c", code, *COMMANDS["search"]], cwd=CORPUS_ROOT,
                          env=env_for(backend), capture_output=True, text=True)
    rows = []
    for line in proc.stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        _, cumulative, name = line.split("|")
        depth = (len(name) - len(name.lstrip())) // 2
        if cumulative.strip().isdigit() and depth <= 1:  # top-level imports and what they import directly
            rows.append({"module": name.strip(), "depth": depth, "cumulative_ms": round(int(cumulative) / 1000, 1)})
    return sorted(rows, key=lambda r: -r["cumulative_ms"])[:top]


def count_chunks() -> int:
    from synthesis.config import Settings
    from synthesis.store import make_client

    client = make_client(Settings(_env_file=None, home=HOME))
    return client.get_collection("synthbot").count()


def run(runs: int, backends: list[str]) -> dict:
    ensure_kb()
    times: dict[str, dict[str, list[float]]] = {b: {c: [] for c in COMMANDS} for b in backends}
    loads = []
    for b in backends:  # one untimed run each: the page cache holds the files, as for a user's second query
        wall(COMMANDS["search"], b)
    for _ in range(runs):
        for command, args in COMMANDS.items():
            for backend in backends:
                if command == "help" and backend != backends[0]:
                    continue  # --help loads no model
                loads.append(os.getloadavg()[0])
                times[backend][command].append(round(wall(args, backend), 3))
    summary = {b: {c: {"median_s": round(statistics.median(v), 2), "min_s": round(min(v), 2), "runs": v}
                   for c, v in cmds.items() if v} for b, cmds in times.items()}
    data = {
        "command": f"python -m benchmarks.cold_start --runs {runs} --backends {','.join(backends)}",
        "knowledge_base": str(CORPUS_ROOT / "corpus"), "chunks": count_chunks(), "question": QUESTION,
        "results": summary, "loadavg_during": [round(min(loads), 2), round(max(loads), 2)],
        "import_profile_search": {b: import_profile(b) for b in backends[:1]},
        "targets_s": TARGETS,
        "met": {c: summary[backends[0]][c]["median_s"] <= t for c, t in TARGETS.items()},
    }
    path = write_result("cold_start", data)
    for b in backends:
        print(b + ": " + ", ".join(f"{c} median {r['median_s']:.2f} s (min {r['min_s']:.2f})"
                                   for c, r in summary[b].items()))
    print(f"load average during runs: {data['loadavg_during']}; targets (quiet machine): search <= 1.5 s, "
          f"ask <= 2.5 s\nwrote {path}")
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.cold_start", description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--backends", default="onnx,sentence-transformers")
    args = parser.parse_args(argv)
    setup_logging()
    run(args.runs, [b.strip() for b in args.backends.split(",") if b.strip()])
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Run every benchmark (each in its own process) and print the issue-2 targets as met / MISSED.

    .venv/bin/python -m benchmarks.run_all [--quick] [--only scifact,search_latency] [--strict]

`make bench` runs this. Each script writes benchmarks/results/NAME.json; this one adds results/run_all.json.
Exit code: non-zero when a script crashed, or (with --strict) when a target was missed.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
import time

from benchmarks._common import REPO, RESULTS, write_result

OURS = ("scifact", "search_latency", "ingest_speed", "search_rss")  # take --quick
SCALE = ("soak",)  # issue 10: two workers over a Chroma server and Redis, a few minutes (prints its own verdict)
# Other areas' benchmarks (issues 3, 4, 7, 11 and Slack), run as they are when present; they print their own verdicts.
OTHERS = ("contradictions", "slack_load", "help_ack", "ask_latency", "five_questions", "clean_text", "document_markers",
          "embed_speed", "cold_start")
OTHERS += ("scoped_search",)  # issue 10: several collections searched on one scale (channel scoping)


def _targets(quick: bool) -> list[dict]:
    """One row per target, read back from the result files."""
    suffix = "-quick" if quick else ""

    def load(name: str) -> dict | None:
        path = RESULTS / f"{name}{suffix}.json"
        return json.loads(path.read_text()) if path.is_file() else None

    rows = []
    if sf := load("scifact"):
        by = {r["mode"]: r for r in sf["results"]}
        for mode in ("dense", "lexical", "hybrid"):
            if mode in by:
                rows.append({"target": f"SciFact nDCG@10 {mode}", "value": by[mode]["ndcg"],
                             "goal": ">= 0.70" if mode == "hybrid" else f"anchor {sf['targets']['anchors'][mode]}",
                             "met": by[mode]["ndcg"] >= 0.70 if mode == "hybrid" else None})
    if sl := load("search_latency"):
        rows.append({"target": f"search p95 hybrid @ {sl['chunks']} chunks (ms)",
                     "value": sl["latency_ms"]["hybrid"]["p95"], "goal": "<= 50", "met": sl["met"]["p95"]})
        rows.append({"target": "search p95 hybrid / raw Chroma query", "value": sl["p95_ratio_vs_raw_text"]["hybrid"],
                     "goal": "<= 3.0", "met": sl["met"]["ratio"]})
    if ing := load("ingest_speed"):
        rows.append({"target": f"ingest / model.encode ({ing['chunks']} chunks)", "value": ing["ratio"],
                     "goal": "<= 1.15", "met": ing["met"]})
        rows.append({"target": "ingest chunks/s", "value": ing["chunks_per_second"], "goal": "report", "met": None})
    if rss := load("search_rss"):
        rows.append({"target": f"peak RSS search @ {rss['chunks']} chunks (MB)", "value": rss["peak_rss_mb"],
                     "goal": "<= 1536", "met": rss["met"]})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run_all", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="reduced sizes (development only)")
    parser.add_argument("--only", help="comma-separated benchmark names")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args(argv)
    names = [n for n in (*OURS, *OTHERS, *SCALE) if importlib.util.find_spec(f"benchmarks.{n}") is not None]
    if args.only:
        wanted = {n.strip() for n in args.only.split(",")}
        names = [n for n in names if n in wanted]
    runs = []
    for name in names:
        cmd = [sys.executable, "-m", f"benchmarks.{name}"] + (["--quick"] if args.quick and name in OURS else [])
        print(f"\n=== {' '.join(cmd[1:])}", flush=True)
        started = time.perf_counter()
        rc = subprocess.run(cmd, cwd=REPO).returncode
        runs.append({"benchmark": name, "returncode": rc, "seconds": round(time.perf_counter() - started, 1)})
    rows = _targets(args.quick)
    write_result("run_all" + ("-quick" if args.quick else ""), {"runs": runs, "targets": rows, "quick": args.quick})

    from rich.console import Console
    from rich.table import Table

    table = Table(title="issue 2 targets" + (" (QUICK: reduced sizes, not the real figures)" if args.quick else ""))
    for col in ("target", "value", "goal", ""):
        table.add_column(col)
    for r in rows:
        verdict = "" if r["met"] is None else ("[green]met[/]" if r["met"] else "[red]MISSED[/]")
        table.add_row(r["target"], str(r["value"]), r["goal"], verdict)
    console = Console()
    console.print(table)
    for r in runs:
        if r["returncode"]:
            console.print(f"[red]{r['benchmark']} exited {r['returncode']}[/]")
    crashed = any(r["returncode"] for r in runs)
    missed = any(r["met"] is False for r in rows)
    return 1 if crashed or (args.strict and missed) else 0


if __name__ == "__main__":
    sys.exit(main())

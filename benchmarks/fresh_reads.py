"""Fresh reads with embedded Chroma: searches in a long-lived process while `synthbot ingest` runs in another.

    .venv/bin/python -m benchmarks.fresh_reads [--docs 200] [--threads 2]

The reader is this process (the real bundled model, `make_retriever` as `serve` builds it); the writer is a real
`synthbot ingest` subprocess over generated Markdown. Targets (issue 9): 0 failed searches during the ingest, and
the last ingested document found within 5 s of the ingest finishing.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from benchmarks._common import REPO, bench_settings, setup_logging, write_result

CLI = "import sys; from bot.cli import main; sys.exit(main(sys.argv[1:]))"
FRESH_TARGET_S = 5.0


def write_docs(root: Path, prefix: str, n: int, topic: str) -> None:
    root.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        body = "\n\n".join(f"The {topic} procedure, step {j} for {prefix} team {i}: check the dashboard, page the "
                           f"owner, and record the outcome in ticket {prefix.upper()}-{i}-{j}." for j in range(4))
        (root / f"{prefix}{i:04}.md").write_text(f"# {prefix} team {i} {topic}\n\n{body}\n")


def ingest_cli(home: Path, path: Path) -> subprocess.Popen:
    env = {**os.environ, "SYNTHBOT_HOME": str(home), "SYNTHBOT_LOG_LEVEL": "WARNING", "PYTHONPATH": str(REPO)}
    return subprocess.Popen([sys.executable, "-c", CLI, "ingest", str(path)], cwd=path.parent, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=200, help="documents the concurrent ingest writes")
    parser.add_argument("--threads", type=int, default=2, help="searching threads in the reader")
    args = parser.parse_args()
    setup_logging()
    from synthesis.retrieval import make_retriever
    from synthesis.store import open_store

    with tempfile.TemporaryDirectory(prefix="fresh-reads-") as tmp:
        tmp_path = Path(tmp)
        home = tmp_path / "home"
        write_docs(tmp_path / "seed", "seed", 20, "rollback")
        seeded = ingest_cli(home, tmp_path / "seed")
        assert seeded.wait() == 0, seeded.stderr.read()
        settings = bench_settings(home, "synthbot")
        store = open_store(settings)
        retriever = make_retriever(settings, store)
        retriever.search("rollback procedure", k=5)  # model and index warm, as in a running bot

        write_docs(tmp_path / "wave", "wave", args.docs, "failover")
        errors: list[str] = []
        latencies: list[float] = []
        stop = threading.Event()

        def reader(query: str) -> None:
            while not stop.is_set():
                started = time.perf_counter()
                try:
                    retriever.search(query, k=5)
                    latencies.append(time.perf_counter() - started)
                except Exception as exc:
                    errors.append(f"{type(exc).__name__}: {str(exc)[:200]}")

        threads = [threading.Thread(target=reader, args=(q,)) for q in
                   ("failover procedure dashboard", "rollback owner ticket", "page the owner")[:args.threads]]
        started = time.perf_counter()
        writer = ingest_cli(home, tmp_path / "wave")
        for t in threads:
            t.start()
        out, err = writer.communicate()
        ingest_s = time.perf_counter() - started
        stop.set()
        for t in threads:
            t.join()
        if writer.returncode != 0:
            raise SystemExit(f"ingest failed: {err[-2000:]}")

        last = f"wave team {args.docs - 1} failover"
        finished = time.perf_counter()
        found_after = None
        while time.perf_counter() - finished < 30:
            hits = retriever.search(f"{last} procedure", k=10).results
            if any(h.title == last for h in hits):
                found_after = time.perf_counter() - finished
                break
            time.sleep(0.1)

    latencies.sort()
    data = {
        "docs": args.docs, "threads": args.threads, "ingest_seconds": round(ingest_s, 1),
        "searches": len(latencies) + len(errors), "failed_searches": len(errors), "errors": errors[:10],
        "search_p50_ms": round(1000 * latencies[len(latencies) // 2], 1) if latencies else None,
        "search_p95_ms": round(1000 * latencies[int(len(latencies) * 0.95)], 1) if latencies else None,
        "store_reopens": store.reopened,
        "new_document_found_after_s": None if found_after is None else round(found_after, 2),
        "target": {"failed_searches": 0, "fresh_within_s": FRESH_TARGET_S},
    }
    data["met"] = not errors and found_after is not None and found_after <= FRESH_TARGET_S
    path = write_result("fresh_reads", data)
    print(f"{data['searches']} searches during a {data['ingest_seconds']} s ingest of {args.docs} documents: "
          f"{data['failed_searches']} failed (target 0); p50 {data['search_p50_ms']} ms, p95 {data['search_p95_ms']} "
          f"ms; {store.reopened} reopens; last document found {data['new_document_found_after_s']} s after the "
          f"ingest finished (target ≤ {FRESH_TARGET_S:g} s) → {path.relative_to(REPO)}")


if __name__ == "__main__":
    main()

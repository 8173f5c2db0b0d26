"""Peak RSS of a separate search process over the 100k-chunk store (50 hybrid searches, model loaded).

    .venv/bin/python -m benchmarks.search_rss [--chunks 100000] [--searches 50] [--quick]

Targets: issue 2 <= 1.5 GB; issue 11 (ONNX backend, no torch) <= 900 MB. SYNTHBOT_EMBEDDING_BACKEND picks the backend. The child reports its own `ru_maxrss`; the parent cross-checks with RUSAGE_CHILDREN.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

from benchmarks._common import REPO, setup_logging, write_result

TARGET_MB = 1536.0


def child(chunks: int, searches: int) -> None:
    """The measured process: open the store the way `synthbot search` does, then search."""
    from benchmarks._common import CACHE
    from benchmarks.synthetic import queries
    from synthesis.config import Settings
    from synthesis.retrieval import Retriever
    from synthesis.store import open_store

    started = time.perf_counter()
    settings = Settings(_env_file=None, home=CACHE / f"synthetic-{chunks}", collection="synthetic")
    store = open_store(settings)
    retriever = Retriever(store)
    after_open = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    texts = queries(searches)
    for text in texts:
        retriever.search(text, k=10, mode="hybrid")
    print(json.dumps({"maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, "after_open_kb": after_open,
                      "backend": getattr(store.embedder, "backend", "?"),
                      "chunks": store.collection().count(), "searches": len(texts),
                      "seconds": round(time.perf_counter() - started, 1)}))


def run(chunks: int = 100_000, searches: int = 50, quick: bool = False) -> dict:
    from benchmarks.synthetic import synthetic_store

    synthetic_store(chunks)  # build in this process if needed, so the child only searches
    proc = subprocess.run([sys.executable, "-m", "benchmarks.search_rss", "--child", "--chunks", str(chunks),
                           "--searches", str(searches)], cwd=REPO, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"search child failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    peak_mb = round(got["maxrss_kb"] / 1024, 1)
    data = {
        "command": f"python -m benchmarks.search_rss --chunks {chunks} --searches {searches}",
        "chunks": got["chunks"], "searches": got["searches"], "peak_rss_mb": peak_mb,
        "rss_after_open_mb": round(got["after_open_kb"] / 1024, 1),
        "children_maxrss_mb": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1),
        "child_seconds": got["seconds"], "quick": quick, "backend": got.get("backend"),
        "target_mb": TARGET_MB, "met": peak_mb <= TARGET_MB,
    }
    # The default backend (ONNX) keeps the historical file name; another (SYNTHBOT_EMBEDDING_BACKEND) gets a suffix.
    suffix = "" if data["backend"] in ("onnx", None) else f"-{data['backend']}"
    path = write_result("search_rss" + ("-quick" if quick else "") + suffix, data)
    print(f"peak RSS of a search process over {data['chunks']} chunks ({searches} hybrid searches): {peak_mb:.0f} MB "
          f"(after opening store and model: {data['rss_after_open_mb']:.0f} MB); target <= {TARGET_MB:.0f} MB: "
          f"{'met' if data['met'] else 'MISSED'}\nwrote {path}")
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.search_rss", description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--searches", type=int, default=50)
    parser.add_argument("--quick", action="store_true", help="10k chunks")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    setup_logging()
    if args.quick:
        args.chunks = 10_000
    if args.child:
        child(args.chunks, args.searches)
    else:
        run(args.chunks, args.searches, quick=args.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())

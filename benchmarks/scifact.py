"""SciFact (BEIR) retrieval quality with the bundled MiniLM: nDCG@10, Recall@100, MRR@10 per search mode.

    .venv/bin/python -m benchmarks.scifact [--split test] [--modes dense,lexical,hybrid] [--quick] [--rebuild]

Targets (issue 2): hybrid nDCG@10 >= 0.70 (stretch 0.72). Anchors: MiniLM dense 0.645, BM25 0.687, bge-small 0.713.
Other scripts (e.g. benchmarks/tune_fusion.py) reuse `scifact_store()` and `load_split()`.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time

from benchmarks._common import (
    CACHE, SCIFACT_DIR, bench_settings, build_lock, rich_progress, setup_logging, write_result,
)

CACHE_DIR = CACHE / "scifact-minilm"
COLLECTION = "beir-scifact"
TARGET, STRETCH = 0.70, 0.72
ANCHORS = {"dense": 0.645, "lexical": 0.687, "bge-small (dense)": 0.713}


def load_split(split: str = "test"):
    """The SciFact queries and judgements of one split (`test` to report, `train` to tune on)."""
    from synthesis.evaluate import load_beir

    return load_beir(SCIFACT_DIR, split)


def scifact_store(*, rebuild: bool = False, show_progress: bool = True):
    """The SciFact corpus ingested with the bundled MiniLM, built once under benchmarks/.cache/scifact-minilm.

    Rebuilt when missing or incomplete (an interrupted build is finished, not duplicated: ingest is incremental).
    Safe to call from several processes at once: builds are serialised with a file lock.
    """
    from synthesis.embedding import load_embedder
    from synthesis.evaluate import ensure_corpus
    from synthesis.store import KnowledgeStore

    with build_lock("scifact-minilm"):
        if rebuild and CACHE_DIR.exists():
            shutil.rmtree(CACHE_DIR)
        store = KnowledgeStore.open(bench_settings(CACHE_DIR, COLLECTION), load_embedder(), collection=COLLECTION)
        started = time.perf_counter()
        if show_progress:
            bar, update = rich_progress("ingest SciFact")
            with bar:
                report = ensure_corpus(store, load_split("test"), progress=update)
        else:
            report = ensure_corpus(store, load_split("test"))
        if report is not None:
            print(f"built {CACHE_DIR}: {report.documents} documents, {report.chunks} chunks "
                  f"in {time.perf_counter() - started:.0f}s", file=sys.stderr)
    return store


def run(split: str = "test", modes: tuple[str, ...] = ("dense", "lexical", "hybrid"), *, quick: bool = False,
        rebuild: bool = False) -> dict:
    from rich.console import Console

    from synthesis.evaluate import evaluate_beir
    from synthesis.retrieval import Retriever

    console = Console(stderr=True)
    store = scifact_store(rebuild=rebuild)
    dataset = load_split(split)
    retriever = Retriever(store)
    limit = 50 if quick else None
    results = []
    for mode in modes:
        bar, update = rich_progress(f"SciFact {split} {mode}")
        with bar:
            results.append(evaluate_beir(retriever, dataset, mode=mode, limit=limit, progress=update))
    info = store.info()
    hybrid = next((r for r in results if r.mode == "hybrid"), None)
    data = {
        "command": f"python -m benchmarks.scifact --split {split}" + (" --quick" if quick else ""),
        "dataset": "scifact", "split": split, "quick": quick, "collection": info["collection"],
        "chunks": info["count"], "model": info["model"],
        "results": [r.model_dump() for r in results],
        "targets": {"hybrid_ndcg@10": TARGET, "stretch": STRETCH, "anchors": ANCHORS},
        "met": None if hybrid is None else {"target": hybrid.ndcg >= TARGET, "stretch": hybrid.ndcg >= STRETCH},
    }
    path = write_result("scifact" + ("" if split == "test" else f"-{split}") + ("-quick" if quick else ""), data)
    _print(console, data, path)
    return data


def _print(console, data: dict, path) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"SciFact {data['split']} ({data['results'][0]['queries'] if data['results'] else 0} queries, "
                        f"{data['chunks']} chunks, {data['model']})")
    for col in ("mode", "nDCG@10", "Recall@100", "MRR@10", "p50 ms", "p95 ms", "anchor nDCG@10"):
        table.add_column(col, justify="left" if col == "mode" else "right")
    for r in data["results"]:
        total = r["latency_ms"].get("total", {})
        table.add_row(r["mode"], f"{r['ndcg']:.4f}", f"{r['recall']:.4f}", f"{r['mrr']:.4f}",
                      f"{total.get('p50', 0):.1f}", f"{total.get('p95', 0):.1f}", str(ANCHORS.get(r["mode"], "")))
    Console().print(table)
    if data["met"] is not None:
        verdict = "met" if data["met"]["target"] else "MISSED"
        Console().print(f"hybrid target nDCG@10 >= {TARGET}: {verdict}; stretch >= {STRETCH}: "
                        f"{'met' if data['met']['stretch'] else 'not met'}")
    console.print(f"wrote {path}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.scifact", description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="test")
    parser.add_argument("--modes", default="dense,lexical,hybrid")
    parser.add_argument("--quick", action="store_true", help="score the first 50 queries only")
    parser.add_argument("--rebuild", action="store_true", help="delete and rebuild the cached store")
    args = parser.parse_args(argv)
    setup_logging()
    run(args.split, tuple(m.strip() for m in args.modes.split(",") if m.strip()), quick=args.quick,
        rebuild=args.rebuild)
    return 0


if __name__ == "__main__":
    sys.exit(main())

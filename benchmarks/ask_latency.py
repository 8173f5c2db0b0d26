"""Offline `ask` with the model warm: whole-pipeline p50/p90, time per step, and context tokens compared with putting
every retrieved document in full.

    .venv/bin/python -m benchmarks.ask_latency [--corpus scifact|demo] [--n 50] [--quick]

`scifact` is the ~10k-chunk SciFact corpus (test claims as questions); `demo` is examples/handbook with the known
queries as questions (documents there are several chunks long, as in a real handbook; SciFact abstracts are mostly
one or two chunks, so whole documents are barely larger than the passages taken from them).
Issue-3 targets: p90 <= 1.5 s at 10k chunks; context at least 80 % smaller than the retrieved documents in full.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time

import numpy as np

from benchmarks._common import CACHE, REPO, bench_settings, write_result
from benchmarks.scifact import CACHE_DIR, COLLECTION, load_split, scifact_store


def _pct(values: list[float], q: float) -> float:
    return round(float(np.percentile(values, q)), 4) if values else 0.0


def _document_tokens(store, counter, doc_ids: set[str], cache: dict[str, int]) -> int:
    """Tokens of each whole document, rebuilt from all of its stored chunks (cached per document)."""
    for doc_id in doc_ids - cache.keys():
        got = store.collection().get(where={"doc_id": doc_id}, include=["documents", "metadatas"])
        parts = sorted(zip(got["metadatas"], got["documents"]), key=lambda mp: mp[0].get("chunk_index", 0))
        cache[doc_id] = counter.count("\n\n".join(text for _, text in parts))
    return sum(cache[d] for d in doc_ids)


def _demo() -> tuple:
    import yaml

    from synthesis.embedding import load_embedder
    from synthesis.ingest import ingest
    from synthesis.store import KnowledgeStore

    home = CACHE / "demo-minilm"
    settings = bench_settings(home, "demo")
    store = KnowledgeStore.open(settings, load_embedder(), collection="demo")
    cwd = os.getcwd()
    os.chdir(REPO)  # doc ids are relative to the current directory, as in `make demo`
    try:
        ingest(store, [REPO / "examples" / "handbook"])
    finally:
        os.chdir(cwd)
    queries = [q["query"] for q in yaml.safe_load((REPO / "examples" / "known_queries.yaml").read_text())["queries"]]
    return settings, store, queries


async def _run(n: int, corpus: str) -> dict:
    from synthesis.agent import build_agent
    from synthesis.synthesize.context import default_counter

    if corpus == "demo":
        settings, store, queries = _demo()
    else:
        store = scifact_store(show_progress=False)
        settings = bench_settings(CACHE_DIR, COLLECTION)
        queries = list(load_split("test").queries.values())
    queries = queries[:n]
    agent = build_agent(settings, store)
    counter = default_counter(store.embedder)
    doc_tokens: dict[str, int] = {}
    await agent.answer(queries[0])  # warm: model, lexical snapshot, thread pool

    totals, steps, ratios, ctx_sum, full_sum, no_answer = [], {}, [], 0, 0, 0
    for q in queries:
        started = time.perf_counter()
        result = await agent.answer(q)
        totals.append(time.perf_counter() - started)
        for s in result.steps:
            steps.setdefault(s.name, []).append(s.duration)
        retrieved = {p.doc_id for sub in result.subagents for p in sub.passages}
        full = _document_tokens(store, counter, retrieved, doc_tokens)
        no_answer += result.no_answer
        if full:
            ctx_sum += result.context_tokens
            full_sum += full
            ratios.append(1 - result.context_tokens / full)
    agent.close()
    return {
        "corpus": corpus, "chunks": store.collection().count(), "questions": len(queries), "no_answer": no_answer,
        "total_s": {"p50": _pct(totals, 50), "p90": _pct(totals, 90), "mean": round(statistics.fmean(totals), 4)},
        "steps_s": {name: {"p50": _pct(v, 50), "p90": _pct(v, 90)} for name, v in steps.items()},
        "context": {"tokenizer": counter.name, "context_tokens": ctx_sum, "full_document_tokens": full_sum,
                    "reduction_overall": round(1 - ctx_sum / full_sum, 4) if full_sum else None,
                    "reduction_median": round(statistics.median(ratios), 4) if ratios else None},
        "targets": {"p90_s": 1.5, "reduction": 0.8},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", choices=("scifact", "demo"), default="scifact")
    parser.add_argument("--n", type=int, default=50, help="questions to ask (default 50)")
    parser.add_argument("--quick", action="store_true", help="10 questions")
    args = parser.parse_args(argv)
    n = 10 if args.quick else args.n
    data = asyncio.run(_run(n, args.corpus))
    data["command"] = (f"python -m benchmarks.ask_latency --corpus {args.corpus}"
                       + (" --quick" if args.quick else f" --n {n}"))
    data["met"] = {"p90": data["total_s"]["p90"] <= 1.5,
                   "reduction": (data["context"]["reduction_overall"] or 0) >= 0.8}
    name = "ask_latency" + ("" if args.corpus == "scifact" else f"-{args.corpus}") + ("-quick" if args.quick else "")
    path = write_result(name, data)
    print(json.dumps({k: data[k] for k in ("corpus", "chunks", "questions", "total_s", "steps_s", "context", "met")}, indent=2))
    print(f"wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

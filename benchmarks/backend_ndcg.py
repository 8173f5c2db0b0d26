"""Dense SciFact nDCG@10 per embedding backend (sentence-transformers, ONNX fp32, ONNX int8) on one shared sub-corpus.

    .venv/bin/python -m benchmarks.backend_ndcg [--distractors 700] [--backends sentence-transformers,onnx,onnx-int8]

A cheaper check than `benchmarks.scifact` (which ingests all 5,183 abstracts into Chroma, ~40 min on a busy 2-core
box): every test query's judged abstracts plus a seeded random sample of the others, embedded whole (title + text,
cut at 256 word-pieces, no chunking), scored by exact cosine. The absolute figure is not comparable with the full
benchmark; the difference between backends on the same sub-corpus is what it measures (issue 11: int8 may be offered
only if it loses at most 0.005 nDCG@10).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

import numpy as np

from benchmarks._common import SCIFACT_DIR, setup_logging, write_result


def ndcg_at_10(scores: np.ndarray, doc_ids: list[str], qrels: dict[str, dict[str, int]], qids: list[str]) -> float:
    total = 0.0
    for row, qid in enumerate(qids):
        rel = qrels[qid]
        top = np.argsort(-scores[row], kind="stable")[:10]
        dcg = sum(rel.get(doc_ids[i], 0) / np.log2(rank + 2) for rank, i in enumerate(top))
        ideal = sum(g / np.log2(rank + 2) for rank, g in enumerate(sorted(rel.values(), reverse=True)[:10]))
        total += dcg / ideal if ideal else 0.0
    return total / len(qids)


def load(distractors: int, seed: int = 11):
    from synthesis.evaluate import load_beir

    data = load_beir(SCIFACT_DIR, "test")
    corpus = {}
    with (SCIFACT_DIR / "corpus.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                row = json.loads(line)
                corpus[str(row["_id"])] = f"{row.get('title', '')}\n{row.get('text', '')}".strip()
    qrels = {q: {d: g for d, g in rel.items() if g > 0} for q, rel in data.qrels.items()}
    qids = [q for q in qrels if qrels[q] and q in data.queries]
    judged = sorted({d for q in qids for d in qrels[q]} & set(corpus))
    others = sorted(set(corpus) - set(judged))
    doc_ids = judged + random.Random(seed).sample(others, min(distractors, len(others)))
    texts = [corpus[d] for d in doc_ids]
    return doc_ids, texts, qids, [data.queries[q] for q in qids], qrels


def embedder_for(name: str):
    from synthesis.embedding import load_embedder

    if name == "onnx-int8":
        from benchmarks.embed_speed import int8_embedder

        return int8_embedder(load_embedder(backend="onnx"))
    return load_embedder(backend=name)


def run(distractors: int, backends: list[str]) -> dict:
    doc_ids, texts, qids, queries, qrels = load(distractors)
    rows = {}
    for name in backends:
        embedder = embedder_for(name)
        started = time.perf_counter()
        docs = embedder.embed(texts)
        qs = embedder.embed(queries, query=True)
        seconds = time.perf_counter() - started
        rows[name] = {"ndcg@10": round(float(ndcg_at_10(qs @ docs.T, doc_ids, qrels, qids)), 4),
                      "embed_seconds": round(seconds, 1)}
        print(f"{name:22s} nDCG@10 {rows[name]['ndcg@10']:.4f}  ({len(texts)} abstracts, {len(qids)} queries, "
              f"{seconds:.0f} s)", flush=True)
    base = rows.get("sentence-transformers", rows.get("onnx"))
    for r in rows.values():
        r["delta_vs_reference"] = round(r["ndcg@10"] - base["ndcg@10"], 4)
    data = {"command": f"python -m benchmarks.backend_ndcg --distractors {distractors} --backends {','.join(backends)}",
            "abstracts": len(texts), "queries": len(qids), "backends": rows,
            "int8_allowed": bool("onnx-int8" in rows and "onnx" in rows
                                 and rows["onnx"]["ndcg@10"] - rows["onnx-int8"]["ndcg@10"] <= 0.005)}
    print(json.dumps(rows), f"\nwrote {write_result('backend_ndcg', data)}")
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.backend_ndcg", description=__doc__.splitlines()[0])
    parser.add_argument("--distractors", type=int, default=700)
    parser.add_argument("--backends", default="sentence-transformers,onnx,onnx-int8")
    args = parser.parse_args(argv)
    setup_logging()
    run(args.distractors, [b.strip() for b in args.backends.split(",") if b.strip()])
    return 0


if __name__ == "__main__":
    sys.exit(main())

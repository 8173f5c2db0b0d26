"""Choose the hybrid fusion on SciFact *train* (never test): BM25 k1/b, dense weight, lexical scale, fusion rule.

    .venv/bin/python -m benchmarks.tune_fusion [--pool 100] [--verify] [--report-test]

The candidates of every train query are computed once (exact cosine for all chunks from the stored embeddings,
exact BM25 from the lexical index), then each fusion rule is replayed in numpy over the same candidate pools the
Retriever uses (top `pool` from each side, unioned; document score = best chunk). `--verify` re-runs the winner
through the real `Retriever.search` on train; `--report-test` then scores it once on test, for the record only.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time

import numpy as np

from benchmarks._common import write_result

W_GRID = [round(x, 2) for x in np.arange(0.0, 1.01, 0.05)]
SCALES = [1.0, 1.5, 2.0, 2.5, 3.0]
BM25_GRID = [(0.9, 0.4), (1.2, 0.75), (1.5, 0.75), (0.9, 0.75), (1.2, 0.5), (1.5, 0.9)]


def _chunks(store):
    """Every chunk id, doc id and embedding, in one pass over Chroma."""
    ids, docs, vecs = [], [], []
    coll = store.collection()
    offset = 0
    while True:
        got = coll.get(include=["metadatas", "embeddings"], limit=2000, offset=offset)
        if not got["ids"]:
            break
        ids += got["ids"]
        docs += [m["doc_id"] for m in got["metadatas"]]
        vecs.append(np.asarray(got["embeddings"], dtype=np.float32))
        offset += len(got["ids"])
    return ids, np.asarray(docs, dtype=object), np.vstack(vecs)


def _top(scores: np.ndarray, n: int, *, positive: bool = False) -> np.ndarray:
    """The `n` best rows; BM25 (`positive`) only offers chunks sharing a term, as in the Retriever."""
    hits = np.flatnonzero(scores > 0) if positive else np.arange(len(scores))
    if len(hits) > n:
        hits = hits[np.argpartition(-scores[hits], n - 1)[:n]]
    return hits


class Pools:
    """Per-query candidate rows with their cosine, BM25 and BM25 ceiling, for one BM25 parameter setting."""

    def __init__(self, dense: np.ndarray, snap, order: np.ndarray, queries: list[str], pool: int) -> None:
        self.rows, self.cos, self.bm25, self.ceiling = [], [], [], []
        for qi, text in enumerate(queries):
            terms = snap.query_terms(text)
            raw = snap.scores(terms)[order]  # reorder BM25 rows to the embedding rows
            cand = np.union1d(_top(dense[qi], pool), _top(raw, pool, positive=True))
            self.rows.append(cand)
            self.cos.append(dense[qi, cand])
            self.bm25.append(raw[cand])
            self.ceiling.append(snap.idf_sum(terms))


def _ndcg(pools: Pools, doc_of: np.ndarray, qids: list[str], qrels: dict, fuse) -> float:
    from synthesis.evaluate import ndcg_at_k

    total = 0.0
    for i, qid in enumerate(qids):
        score = fuse(pools.cos[i], pools.bm25[i], pools.ceiling[i])
        order = np.argsort(-score, kind="stable")
        ranking, seen = [], set()
        for j in order:
            d = doc_of[pools.rows[i][j]]
            if d not in seen and d != qid:
                seen.add(d)
                ranking.append(d)
                if len(ranking) == 10:
                    break
        total += ndcg_at_k(ranking, qrels[qid], 10)
    return total / len(qids)


def convex(w: float, scale: float):
    """The shipped rule (synthesis.retrieval): w * clamp(cos) + (1 - w) * min(1, scale * bm25 / ceiling)."""
    from synthesis.retrieval import lexical_score

    return lambda cos, bm25, ceil: w * np.clip(cos, 0, 1) + (1 - w) * lexical_score(bm25, ceil, scale)


def minmax(w: float):
    """Reference: per-query min-max normalisation of each side (scores are then relative, not absolute)."""
    def fuse(cos, bm25, ceil):
        d = (cos - cos.min()) / (np.ptp(cos) or 1.0)
        s = (bm25 - bm25.min()) / (np.ptp(bm25) or 1.0)
        return w * d + (1 - w) * s
    return fuse


def rrf(k: int = 60):
    """Reference: reciprocal rank fusion."""
    def fuse(cos, bm25, ceil):
        rd = np.argsort(np.argsort(-cos)) + 1
        rl = np.argsort(np.argsort(-bm25)) + 1
        return 1.0 / (k + rd) + 1.0 / (k + rl)
    return fuse


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.tune_fusion", description=__doc__.splitlines()[0])
    parser.add_argument("--pool", type=int, default=100, help="candidates per side (the Retriever's Fusion.pool)")
    parser.add_argument("--verify", action="store_true", help="re-run the winner through Retriever.search on train")
    parser.add_argument("--report-test", action="store_true", help="score the winner once on test (not used to choose)")
    args = parser.parse_args(argv)

    from benchmarks.scifact import load_split, scifact_store
    from synthesis.lexical import build_snapshot

    started = time.perf_counter()
    store = scifact_store(show_progress=False)
    train = load_split("train")
    qids, texts = list(train.queries), list(train.queries.values())
    ids, doc_of, vecs = _chunks(store)
    qvecs = store.embedder.embed(texts, query=True)
    dense = qvecs @ vecs.T
    print(f"{len(qids)} train queries, {len(ids)} chunks; embeddings in {time.perf_counter() - started:.0f}s",
          file=sys.stderr)

    table: list[dict] = []
    pools_by_bm25: dict[tuple[float, float], Pools] = {}
    for k1, b in BM25_GRID:
        snap = build_snapshot("tune", store.scan(include_documents=True), k1=k1, b=b)
        order = np.asarray([snap.row_of[i] for i in ids])
        pools = pools_by_bm25[(k1, b)] = Pools(dense, snap, order, texts, args.pool)
        lexical_only = _ndcg(pools, doc_of, qids, train.qrels, convex(0.0, 1.0))
        dense_only = _ndcg(pools, doc_of, qids, train.qrels, convex(1.0, 1.0))
        for w, scale in itertools.product(W_GRID, SCALES):
            table.append({"rule": "convex", "k1": k1, "b": b, "w": float(w), "scale": scale,
                          "ndcg": _ndcg(pools, doc_of, qids, train.qrels, convex(w, scale))})
        best = max((r for r in table if r["k1"] == k1 and r["b"] == b), key=lambda r: r["ndcg"])
        print(f"k1={k1} b={b}: lexical {lexical_only:.4f}  dense {dense_only:.4f}  best convex {best['ndcg']:.4f} "
              f"(w={best['w']}, scale={best['scale']})", file=sys.stderr)

    winner = max(table, key=lambda r: r["ndcg"])
    pools = pools_by_bm25[(winner["k1"], winner["b"])]
    references = {f"minmax w={w}": _ndcg(pools, doc_of, qids, train.qrels, minmax(w)) for w in (0.3, 0.4, 0.5, 0.6)}
    references["rrf k=60"] = _ndcg(pools, doc_of, qids, train.qrels, rrf(60))
    print(f"winner: {winner}", file=sys.stderr)
    print("references on the same pools: " + ", ".join(f"{k} {v:.4f}" for k, v in references.items()),
          file=sys.stderr)

    data = {"command": "python -m benchmarks.tune_fusion" + (" --verify" if args.verify else "")
            + (" --report-test" if args.report_test else ""), "split": "train", "queries": len(qids),
            "chunks": len(ids), "pool": args.pool, "winner": winner, "references": references,
            "grid_top": sorted(table, key=lambda r: -r["ndcg"])[:15]}
    if args.verify or args.report_test:
        from synthesis.evaluate import evaluate_beir
        from synthesis.lexical import LexicalIndex
        from synthesis.retrieval import Fusion, Retriever

        fusion = Fusion(dense_weight=winner["w"], lexical_scale=winner["scale"], pool=args.pool)
        retriever = Retriever(store, lexical=LexicalIndex(store, k1=winner["k1"], b=winner["b"]), fusion=fusion)
        splits = (["train"] if args.verify else []) + (["test"] if args.report_test else [])
        for split in splits:
            dataset = train if split == "train" else load_split("test")
            data[f"retriever_{split}"] = {mode: evaluate_beir(retriever, dataset, mode=mode).model_dump()
                                          for mode in ("dense", "lexical", "hybrid")}
            print(f"Retriever.search on {split}: " + ", ".join(
                f"{m} nDCG@10 {r['ndcg']:.4f}" for m, r in data[f"retriever_{split}"].items()), file=sys.stderr)
    path = write_result("tune_fusion", data)
    print(json.dumps({"winner": winner, "references": references}, indent=2))
    print(f"wrote {path} in {time.perf_counter() - started:.0f}s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

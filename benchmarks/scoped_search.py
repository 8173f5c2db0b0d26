"""Are merged scores honest? SciFact split into two collections and searched together, against one collection.

    .venv/bin/python -m benchmarks.scoped_search [--split test] [--quick]

The SciFact corpus (benchmarks/scifact.py's cache) is copied, vectors and all, into two collections by a hash of the
document id; `ScopedSearch` searches both on one scale (BM25 statistics over both, synthesis/library.py). Compared
with the one-collection search over the same chunks: hybrid nDCG@10, how often the top 10 are the same documents in
the same order, the largest score difference, and latency. A naive merge (each collection scored alone, results
sorted by score) shows what the shared statistics buy.

Target (issue 10, channel scoping: "hybrid scores must be comparable across collections"): merged nDCG@10 within
0.005 of one collection; the naive merge is reported beside it.
"""

from __future__ import annotations

import argparse
import hashlib
import time

import numpy as np

from benchmarks._common import bench_settings, setup_logging, write_result
from benchmarks.scifact import CACHE_DIR, load_split, scifact_store

PARTS = ("scifact-part-a", "scifact-part-b")
TARGET = 0.005
PAGE = 1000


def part_of(doc_id: str) -> str:
    return PARTS[hashlib.sha1(doc_id.encode()).digest()[0] % 2]


def split_stores(union):
    """The two halves, copied from the union collection with their vectors (built once, then reused)."""
    from synthesis.store import KnowledgeStore

    stores = {name: KnowledgeStore(union.client, name, union.embedder) for name in PARTS}
    if all(s.exists() for s in stores.values()) and sum(s.info()["count"] for s in stores.values()) == \
            union.info()["count"]:
        return stores
    for s in stores.values():
        if s.exists():
            union.client.delete_collection(s.name)
        s._collection = None
    offset = 0
    while True:
        got = union.read("get", lambda c: c.get(include=["documents", "metadatas", "embeddings"], limit=PAGE,
                                                 offset=offset))
        if not got["ids"]:
            break
        for name, store in stores.items():
            rows = [i for i, m in enumerate(got["metadatas"]) if part_of(m["doc_id"]) == name]
            if rows:
                coll = store.collection(create=True)
                coll.upsert(ids=[got["ids"][i] for i in rows], documents=[got["documents"][i] for i in rows],
                            metadatas=[got["metadatas"][i] for i in rows],
                            embeddings=np.asarray([got["embeddings"][i] for i in rows], dtype=np.float32))
        offset += len(got["ids"])
    for store in stores.values():
        store.bump_revision()
    return stores


class NaiveMerge:
    """Each collection scored on its own statistics, results sorted by score: what the shared statistics fix."""

    def __init__(self, retrievers) -> None:
        self.retrievers = retrievers

    def search(self, query, *, k, mode="hybrid", debug=False, **_):
        from synthesis.models import SearchResponse

        merged = [r for ret in self.retrievers for r in ret.search(query, k=k, mode=mode).results]
        merged.sort(key=lambda r: (-r.score, r.id))
        return SearchResponse(query=query, mode=mode, k=k, results=merged[:k])


def top10(retriever, queries) -> tuple[dict[str, list[tuple[str, float]]], list[float]]:
    out, ms = {}, []
    for qid, text in queries:
        t0 = time.perf_counter()
        results = retriever.search(text, k=10, mode="hybrid").results
        ms.append((time.perf_counter() - t0) * 1000)
        out[qid] = [(r.id, r.score) for r in results]
    return out, ms


def run(split: str = "test", *, quick: bool = False) -> dict:
    from synthesis.evaluate import evaluate_beir
    from synthesis.library import Library
    from synthesis.retrieval import make_retriever
    from synthesis.scoping import Grant, Visibility

    union = scifact_store(show_progress=False)
    settings = bench_settings(CACHE_DIR, union.name)
    parts = split_stores(union)
    library = Library(settings, union.embedder, client=union.client)
    merged = library.search(Visibility(tuple(Grant(collection=n) for n in PARTS), "benchmark"))
    single = make_retriever(settings, union)
    naive = NaiveMerge([make_retriever(settings, parts[n]) for n in PARTS])
    dataset = load_split(split)
    limit = 50 if quick else None
    scores = {name: evaluate_beir(r, dataset, mode="hybrid", limit=limit)
              for name, r in (("one collection", single), ("two, merged", merged), ("two, naive merge", naive))}
    queries = list(dataset.queries.items())[:limit]
    ref, ref_ms = top10(single, queries)
    agreement = {}
    for name, r in (("two, merged", merged), ("two, naive merge", naive)):
        got, ms = top10(r, queries)
        same = sum(1 for q in ref if [i for i, _ in got[q]] == [i for i, _ in ref[q]])
        gaps = [abs(s - dict(got[q]).get(i, s)) for q in ref for i, s in ref[q] if i in dict(got[q])]
        agreement[name] = {"same_top10_share": round(same / len(ref), 4), "max_score_gap": round(max(gaps), 4),
                           "mean_score_gap": round(float(np.mean(gaps)), 5),
                           "p50_ms": round(float(np.percentile(ms, 50)), 2),
                           "p95_ms": round(float(np.percentile(ms, 95)), 2)}
    agreement["one collection"] = {"p50_ms": round(float(np.percentile(ref_ms, 50)), 2),
                                   "p95_ms": round(float(np.percentile(ref_ms, 95)), 2)}
    delta = round(scores["two, merged"].ndcg - scores["one collection"].ndcg, 4)
    data = {
        "command": f"python -m benchmarks.scoped_search --split {split}" + (" --quick" if quick else ""),
        "split": split, "queries": scores["one collection"].queries,
        "collections": {n: parts[n].info()["count"] for n in PARTS}, "union_chunks": union.info()["count"],
        "ndcg@10": {name: r.ndcg for name, r in scores.items()}, "merged_minus_one": delta,
        "target": f"|merged - one| <= {TARGET}", "met": abs(delta) <= TARGET, "agreement": agreement,
    }
    write_result("scoped_search" + ("-quick" if quick else ""), data)
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--split", default="test")
    parser.add_argument("--quick", action="store_true", help="50 queries")
    args = parser.parse_args()
    setup_logging()
    data = run(args.split, quick=args.quick)
    print(f"SciFact {data['split']} ({data['queries']} queries), chunks {data['union_chunks']} = "
          + " + ".join(str(v) for v in data["collections"].values()))
    for name, ndcg in data["ndcg@10"].items():
        a = data["agreement"].get(name, {})
        extra = (f"  same top 10: {a['same_top10_share']:.0%}  max |Δscore| {a['max_score_gap']}"
                 if "same_top10_share" in a else "")
        print(f"  {name:18} nDCG@10 {ndcg:.4f}  p50 {a.get('p50_ms')} ms  p95 {a.get('p95_ms')} ms{extra}")
    print(f"merged - one collection: {data['merged_minus_one']:+.4f} (target {data['target']}: "
          f"{'met' if data['met'] else 'MISSED'})")


if __name__ == "__main__":
    main()

"""Metrics against hand-computed values, and document-level aggregation (each document counts once)."""

from __future__ import annotations

import math

import pytest

from synthesis.evaluate import (
    BeirDataset,
    dcg,
    doc_ranking,
    evaluate_beir,
    latency_summary,
    mrr_at_k,
    ndcg_at_k,
    recall_at_k,
    stage_timings,
)
from synthesis.models import SearchResponse, SearchResult


def test_dcg_uses_log2_of_rank_plus_one():
    assert dcg([1, 0, 1]) == pytest.approx(1.0 + 1.0 / math.log2(4))
    assert dcg([]) == 0.0


def test_ndcg_binary_with_known_ideal():
    # DCG = 1/log2(2) + 1/log2(4) = 1.5 ; ideal DCG = 1 + 1/log2(3) = 1.63093
    assert ndcg_at_k(["a", "b", "c", "d"], {"a": 1, "c": 1}, 10) == pytest.approx(1.5 / (1 + 1 / math.log2(3)))
    assert ndcg_at_k(["a", "c", "b"], {"a": 1, "c": 1}, 10) == pytest.approx(1.0)


def test_ndcg_graded_uses_linear_gain_and_cuts_at_k():
    # DCG = 1/1 + 0 + 2/log2(4) = 2 ; ideal = 2/1 + 1/log2(3)
    assert ndcg_at_k(["b", "x", "a"], {"a": 2, "b": 1}, 10) == pytest.approx(2 / (2 + 1 / math.log2(3)))
    assert ndcg_at_k(["x", "a"], {"a": 1}, 1) == 0.0
    assert ndcg_at_k(["a"], {"a": 0}, 10) == 0.0  # no relevant documents: 0, not a division by zero


def test_recall_and_mrr():
    assert recall_at_k(["a", "b", "c", "d"], {"a": 1, "c": 1}, 2) == pytest.approx(0.5)
    assert recall_at_k(["a", "b", "c"], {"a": 1, "c": 1, "z": 0}, 100) == pytest.approx(1.0)  # grade 0 is not relevant
    assert mrr_at_k(["x", "y", "a"], {"a": 1}, 10) == pytest.approx(1 / 3)
    assert mrr_at_k([f"x{i}" for i in range(10)] + ["a"], {"a": 1}, 10) == 0.0


def _p(doc_id: str, score: float, rank: int = 1) -> SearchResult:
    return SearchResult(id=f"{doc_id}#{rank}", doc_id=doc_id, content="", score=score, rank=rank)


def test_doc_ranking_keeps_best_chunk_once_per_document():
    ranked = doc_ranking([_p("d1", 0.5), _p("d2", 0.9), _p("d1", 0.95), _p("d3", 0.2), _p("d2", 0.1)])
    assert ranked == [("d1", 0.95), ("d2", 0.9), ("d3", 0.2)]
    assert doc_ranking([_p("q1", 0.9), _p("d2", 0.5)], exclude={"q1"}) == [("d2", 0.5)]


class ChunkyRetriever:
    """A Retriever fake: the relevant document comes back as two chunks ahead of an irrelevant one."""

    def __init__(self):
        self.calls = []

    def search(self, query, *, k=5, mode="hybrid", debug=False, **_):
        self.calls.append((query, k, mode, debug))
        results = [_p("rel", 0.9, 1), _p("rel", 0.8, 2), _p("other", 0.7, 3)]
        return SearchResponse(query=query, mode=mode, k=k, results=results,
                              debug={"timings_ms": {"embed": 4.0, "dense": 2.0, "lexical": 1.0, "fuse": 0.5}})


def test_evaluate_beir_counts_each_document_once(tmp_path):
    dataset = BeirDataset(root=tmp_path, split="test", queries={"q": "question"}, qrels={"q": {"rel": 1, "gone": 1}})
    retriever = ChunkyRetriever()
    result = evaluate_beir(retriever, dataset, mode="dense", depth=50)
    # Counting the second chunk of "rel" again would push DCG to 1 + 1/log2(3) and recall past 0.5.
    assert result.ndcg == pytest.approx(round(1 / (1 + 1 / math.log2(3)), 4))
    assert result.recall == pytest.approx(0.5)
    assert result.mrr == 1.0
    assert set(result.metrics) == {"ndcg@10", "recall@100", "mrr@10"}
    assert result.underfilled == 1
    assert retriever.calls == [("question", 50, "dense", True)]
    assert result.latency_ms["embed"]["p50"] == 4.0 and "total" in result.latency_ms
    assert list(result.latency_ms) == ["embed", "dense", "lexical", "fuse", "total"]


def test_latency_summary_and_stage_timings():
    s = latency_summary([float(i) for i in range(1, 101)])
    assert s["p50"] == pytest.approx(50.5) and s["p95"] == pytest.approx(95.05) and s["n"] == 100
    assert latency_summary([])["n"] == 0
    assert stage_timings({"timings": {"embed": 0.004}}) == {"embed": pytest.approx(4.0)}
    assert stage_timings({}) == {}

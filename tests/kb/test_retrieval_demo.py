"""Semantic checks with the real bundled model over the demo handbook: hybrid carries paraphrases and jargon alike."""

from __future__ import annotations

import pytest

from synthesis.models import SearchFilters
from synthesis.retrieval import Retriever

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def retriever(demo_store):
    return Retriever(demo_store)


@pytest.mark.parametrize("query,url", [
    ("Do I get compensated for being woken up at night?", "https://handbook.example.com/oncall/rotation"),
    ("Who is in charge during an outage and what do they do?", "https://handbook.example.com/incidents/response"),
    ("tsh request create prod-write", "https://handbook.example.com/security/access-and-secrets"),
    ("SEV2 status page update deadline", "https://handbook.example.com/incidents/response"),
])
def test_hybrid_finds_paraphrases_and_jargon(retriever, query, url):
    resp = retriever.search(query, k=5)
    assert url in [r.source_url for r in resp.results]
    assert all(0 < r.score <= 1 for r in resp.results)


def test_dense_scores_separate_related_from_unrelated(retriever):
    related = retriever.search("how do we roll back a bad deploy", k=1, mode="dense").results[0].score
    unrelated = retriever.search("recipe for banana bread with walnuts", k=1, mode="dense").results[0].score
    assert related > 0.4 and unrelated < related - 0.2


def test_source_filter_restricts_every_mode(retriever):
    url = "https://handbook.example.com/deploys/rollback"
    for mode in ("hybrid", "dense", "lexical"):
        resp = retriever.search("rollback window days", k=10, mode=mode, filters=SearchFilters(source_url=url))
        assert resp.results and {r.source_url for r in resp.results} == {url}

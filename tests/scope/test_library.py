"""Several collections searched together: one scale for every score, tags narrowing, fresh reads per collection."""

from __future__ import annotations

import time

import pytest

from synthesis.errors import KnowledgeBaseMissing
from synthesis.library import Library
from synthesis.lexical import CorpusStats
from synthesis.retrieval import make_retriever
from synthesis.scoping import Grant, Visibility
from tests.scope.conftest import ingest_into, write_docs

pytestmark = pytest.mark.slow

ALPHA = {
    "alpha/deploys.md": "---\ntitle: Deploys\ntags: [ops]\n---\n# Deploys\n\nProduction deploys go through the ferry "
                        "pipeline. A failed deploy must be rolled back within 15 minutes by the on-call engineer.\n",
    "alpha/oncall.md": "---\ntitle: On-call\ntags: [ops]\n---\n# On-call\n\nThe on-call engineer answers a page within "
                       "five minutes and hands over every Monday morning.\n",
    "alpha/laptops.md": "---\ntitle: Laptops\ntags: [it, public]\n---\n# Laptops\n\nLaptops are encrypted with FileVault "
                        "and replaced every three years.\n",
}
BETA = {
    "beta/payroll.md": "---\ntitle: Payroll\ntags: [payroll]\n---\n# Payroll\n\nPayroll runs on the 25th of each month; "
                       "a late expense claim is paid with the next payroll run.\n",
    "beta/expenses.md": "---\ntitle: Expenses\ntags: [public]\n---\n# Expenses\n\nExpenses are reimbursed within ten days "
                        "of an approved claim. Keep every receipt.\n",
    "beta/rollback-costs.md": "---\ntitle: Cost of a rollback\ntags: [payroll]\n---\n# Rollback costs\n\nA rolled back "
                              "deploy that misses payroll day is escalated to the finance on-call.\n",
}
QUERIES = ["how fast must a failed deploy be rolled back?", "when does payroll run?", "on-call engineer page",
           "expense claim receipts", "laptop encryption"]


@pytest.fixture(scope="module")
def split_kb(tmp_path_factory, minilm):
    """The same six documents as one collection ('union') and split in two ('alpha', 'beta')."""
    from synthesis.config import Settings

    root = tmp_path_factory.mktemp("split")
    settings = Settings(_env_file=None, home=root / "home")
    alpha, beta = write_docs(root, ALPHA), write_docs(root, BETA)
    ingest_into(settings, minilm, "alpha", alpha)
    ingest_into(settings, minilm, "beta", beta)
    ingest_into(settings, minilm, "union", alpha + beta)
    return settings, Library(settings, minilm)


def scope(*grants: Grant) -> Visibility:
    return Visibility(tuple(grants), "test")


def test_one_collection_searches_exactly_as_before(split_kb):
    settings, library = split_kb
    plain = make_retriever(settings, library.store("alpha"))
    scoped = library.search(scope(Grant(collection="alpha")))
    for q in QUERIES:
        a, b = plain.search(q, k=3), scoped.search(q, k=3)
        assert [(r.id, r.score) for r in a.results] == [(r.id, r.score) for r in b.results]
        # ...and shared statistics over one collection change nothing.
        snap = plain.lexical.snapshot()
        c = plain.search(q, k=3, corpus=CorpusStats.over([snap], q))
        assert [(r.id, r.score) for r in a.results] == [(r.id, r.score) for r in c.results]


def test_two_collections_score_as_one_collection_holding_both(split_kb):
    """Merged scores compare: the ranking over alpha+beta is the ranking of the union collection, score for score
    (within the per-collection length normalisation), while scoring each collection alone would not be."""
    settings, library = split_kb
    union = make_retriever(settings, library.store("union"))
    both = library.search(scope(Grant(collection="alpha"), Grant(collection="beta")))
    naive_gap, honest_gap = 0.0, 0.0
    for q in QUERIES:
        want = union.search(q, k=6).results
        got = both.search(q, k=6).results
        assert [r.id for r in got] == [r.id for r in want], q
        assert {r.metadata["collection"] for r in got} == {"alpha", "beta"}
        for w, g in zip(want, got):
            assert abs(w.score - g.score) < 0.02, (q, w.id, w.score, g.score)
            honest_gap = max(honest_gap, abs(w.score - g.score))
        alone = {r.id: r.score for name in ("alpha", "beta")
                 for r in make_retriever(settings, library.store(name)).search(q, k=6).results}
        naive_gap = max(naive_gap, *(abs(alone[w.id] - w.score) for w in want if w.id in alone))
    assert honest_gap < naive_gap  # the shared statistics are what make the scores comparable


def test_a_rule_tag_narrows_dense_and_lexical_alike(split_kb):
    _settings, library = split_kb
    public_only = library.search(scope(Grant(collection="alpha"), Grant(collection="beta", tags=("public",))))
    for mode in ("hybrid", "dense", "lexical"):
        for q in ("when does payroll run?", "payroll day rollback", "expense claim"):
            for r in public_only.search(q, k=10, mode=mode).results:
                assert r.metadata["collection"] == "alpha" or r.metadata.get("tag:public") is True, (mode, q, r.doc_id)
    hits = public_only.search("expense claim receipts", k=3).results
    assert hits and hits[0].doc_id.endswith("beta/expenses.md")


def test_the_same_chunk_in_two_collections_counts_once_and_missing_ones_are_skipped(split_kb):
    _settings, library = split_kb
    overlap = library.search(scope(Grant(collection="alpha"), Grant(collection="union")))
    ids = [r.id for r in overlap.search("laptop encryption", k=10).results]
    assert len(ids) == len(set(ids))
    partly = library.search(scope(Grant(collection="alpha"), Grant(collection="not-ingested")))
    assert partly.search("laptop encryption", k=1).results[0].doc_id.endswith("alpha/laptops.md")
    with pytest.raises(KnowledgeBaseMissing, match="not-ingested"):
        library.search(scope(Grant(collection="not-ingested"))).search("x", k=1)


def test_diversity_is_judged_over_the_merged_list(split_kb):
    _settings, library = split_kb
    both = library.search(scope(Grant(collection="alpha"), Grant(collection="beta")))
    results = both.search("rolled back deploy", k=4, diversity=0.5).results
    assert len(results) == 4 and [r.rank for r in results] == [1, 2, 3, 4]
    assert len({r.id for r in results}) == 4


def test_each_collection_keeps_its_fresh_reads(split_kb, minilm, tmp_path):
    """A document ingested into one collection by another writer is found through the merged search."""
    settings, library = split_kb
    both = library.search(scope(Grant(collection="alpha"), Grant(collection="beta")))
    assert both.search("quarterly offsite in Lisbon", k=1).results[0].doc_id .endswith("beta/offsite.md") is False
    ingest_into(settings, minilm, "beta", write_docs(tmp_path, {
        "beta/offsite.md": "---\ntitle: Offsite\n---\n# Offsite\n\nThe quarterly offsite is in Lisbon this year.\n"}))
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if both.search("quarterly offsite in Lisbon", k=1).results[0].doc_id.endswith("offsite.md"):
            break
        time.sleep(0.2)
    else:
        pytest.fail("the new document was not found through the merged search")


def test_a_closed_library_starts_no_new_search_pool(settings, minilm):
    """close() at shutdown shuts the pool; a late search must not quietly build another that nothing closes."""
    library = Library(settings, minilm)
    pool = library.pool
    library.close()
    assert pool._shutdown
    with pytest.raises(RuntimeError, match="closed"):
        library.pool

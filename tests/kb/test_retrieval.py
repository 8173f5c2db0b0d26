"""Retriever over real in-process Chroma: modes, fusion, filters, threshold, MMR, length weighting, debug, errors."""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor

import pytest

from synthesis.embedding import HashEmbedder
from synthesis.errors import InvalidQuery, KnowledgeBaseMissing
from synthesis.lexical import LexicalIndex
from synthesis.models import Chunk, SearchFilters
from synthesis.retrieval import Fusion, Retriever, length_factor, make_retriever
from synthesis.store import KnowledgeStore

DOCS = [
    # id, doc_id, text, tags, type, source_url
    ("oncall-1", "oncall", "The on-call rotation changes every Monday at 10:00. The primary carries the pager for a week.",
     ["ops"], "handbook", "https://wiki/oncall"),
    ("oncall-2", "oncall", "Escalate to the secondary on-call engineer when the primary does not acknowledge a page "
     "within fifteen minutes.", ["ops"], "handbook", "https://wiki/oncall"),
    ("deploy-1", "deploy", "Deploys go through the pipeline: build, canary at five percent, then full rollout. "
     "Rollback with the deploy tool.", ["ops", "release"], "runbook", "https://wiki/deploy"),
    ("security-1", "security", "Rotate API keys every ninety days and store secrets in the vault, never in git.",
     ["security"], "policy", "https://wiki/security"),
    ("incident-1", "incident", "Declare an incident in the incidents channel and name an incident commander.",
     ["ops"], "handbook", "https://wiki/incident"),
    ("stub-1", "stub", "Pager.", ["ops"], "handbook", "https://wiki/stub"),
]


def make_chunks(rows=DOCS) -> list[Chunk]:
    counts: dict[str, int] = {}
    for _, doc_id, *_ in rows:
        counts[doc_id] = counts.get(doc_id, 0) + 1
    seen: dict[str, int] = {}
    out = []
    for cid, doc_id, text, tags, typ, url in rows:
        idx = seen.get(doc_id, 0)
        seen[doc_id] = idx + 1
        out.append(Chunk(id=cid, doc_id=doc_id, text=text, title=doc_id.title(), source_url=url, section="Main",
                         chunk_index=idx, chunk_count=counts[doc_id], tags=tags, type=typ))
    return out


def fill(store: KnowledgeStore, chunks: list[Chunk]) -> None:
    store.upsert(chunks, store.embedder.embed([c.text for c in chunks]))
    store.bump_revision()


@pytest.fixture
def store(settings):
    s = KnowledgeStore.open(settings, HashEmbedder())
    fill(s, make_chunks())
    return s


@pytest.fixture
def retriever(store):
    return Retriever(store, lexical=LexicalIndex(store, check_interval=0))


@pytest.mark.parametrize("mode", ["hybrid", "dense", "lexical"])
def test_each_mode_ranks_the_matching_chunk_first_with_scores_on_0_1(retriever, mode):
    resp = retriever.search("on-call rotation Monday", k=4, mode=mode)
    assert resp.mode == mode and resp.k == 4
    assert resp.results[0].id == "oncall-1"
    assert [r.rank for r in resp.results] == list(range(1, len(resp.results) + 1))
    scores = [r.score for r in resp.results]
    assert all(0.0 <= s <= 1.0 for s in scores) and scores == sorted(scores, reverse=True)
    top = resp.results[0]
    assert (top.doc_id, top.title, top.source_url, top.section, top.chunk_index, top.chunk_count) == (
        "oncall", "Oncall", "https://wiki/oncall", "Main", 0, 2)
    assert top.metadata["type"] == "handbook"


def test_hybrid_score_is_the_documented_convex_combination(store):
    fusion = Fusion(dense_weight=0.4, lexical_scale=1.5)
    resp = Retriever(store, fusion=fusion).search("rotate the API keys in the vault", k=6, debug=True)
    for r in resp.results:
        d = r.debug
        dense = min(1.0, max(0.0, d["dense_score"]))
        assert math.isclose(r.score, 0.4 * dense + 0.6 * d["lexical_score"], abs_tol=2e-4)
    assert resp.results[0].id == "security-1"


def test_hybrid_keeps_lexical_only_hits_with_their_exact_cosine(store):
    # Stopword-only chunks fill the dense pool (the hash embedder sees stopwords, BM25 drops them), so the chunks
    # whose stems match "rotated" ("rotation", "rotate") are found by the lexical side only.
    fill(store, make_chunks([(f"filler-{i}", f"filler{i}", "of the and" + " of" * i, [], "doc", f"u{i}")
                             for i in range(2)]))
    resp = Retriever(store, fusion=Fusion(pool=2, dense_weight=0.1)).search("rotated of the and", k=2, debug=True)
    assert {r.id for r in resp.results} == {"oncall-1", "security-1"}
    qvec = store.embedder.embed(["rotated of the and"], query=True)[0]
    for r in resp.results:
        assert r.debug["dense_rank"] is None and r.debug["lexical_rank"] in (1, 2)
        cosine = float(store.embedder.embed([r.content])[0] @ qvec)
        assert r.debug["dense_score"] == pytest.approx(cosine, abs=1e-4)


def test_dense_only_hits_get_their_exact_bm25_in_hybrid(store):
    resp = Retriever(store, fusion=Fusion(pool=1)).search("canary rollout pipeline vault", k=3, debug=True)
    lexical = {r.id: r.score for r in Retriever(store).search("canary rollout pipeline vault", k=6,
                                                            mode="lexical").results}
    for r in resp.results:
        assert r.debug["lexical_score"] == pytest.approx(lexical.get(r.id, 0.0), abs=1e-4)


@pytest.mark.parametrize("mode", ["hybrid", "dense", "lexical"])
@pytest.mark.parametrize("filters,allowed", [
    (SearchFilters(tags=["release"]), {"deploy-1"}),
    (SearchFilters(source_url="https://wiki/oncall"), {"oncall-1", "oncall-2"}),
    (SearchFilters(where={"type": "handbook"}), {"oncall-1", "oncall-2", "incident-1", "stub-1"}),
    (SearchFilters(tags=["ops"], where={"chunk_index": 1}), {"oncall-2"}),
])
def test_filters_apply_to_dense_and_lexical_alike(retriever, mode, filters, allowed):
    # "pager deploy incident on-call" touches every document lexically, so only the filter limits the result.
    resp = retriever.search("pager deploy incident on-call vault keys", k=10, mode=mode, filters=filters)
    got = {r.id for r in resp.results}
    assert got and got <= allowed


@pytest.mark.parametrize("mode", ["hybrid", "dense", "lexical"])
def test_filters_that_exclude_everything_say_so(retriever, mode):
    resp = retriever.search("deploy", mode=mode, filters=SearchFilters(where={"type": "nope"}), debug=True)
    assert resp.results == []
    assert "filters excluded" in resp.warnings[0] and resp.debug["empty_reason"] == resp.warnings[0]


def test_bool_filter_does_not_match_integer_one(retriever):
    # chunk_index 1 is stored as an int: a boolean `true` must not match it (Chroma's semantics).
    resp = retriever.search("escalate", mode="lexical", filters=SearchFilters(where={"chunk_index": True}))
    assert resp.results == []


def test_threshold_empties_results_and_reports_the_best_score(retriever):
    best = retriever.search("deploy rollback canary", k=1).results[0].score
    resp = retriever.search("deploy rollback canary", threshold=min(1.0, best + 0.01), debug=True)
    assert resp.results == []
    assert f"{best:.2f}" in resp.warnings[0] and resp.debug["best_score"] == pytest.approx(best, abs=1e-4)
    assert all(r.score >= best - 1e-9 for r in retriever.search("deploy rollback canary", threshold=best).results)


def test_unknown_words_in_lexical_mode_explain_why(retriever):
    resp = retriever.search("zyxxy qwopp", mode="lexical", debug=True)
    assert resp.results == [] and "no query word" in resp.warnings[0]


@pytest.mark.parametrize("query", ["", "   ", "\n\t"])
def test_empty_query_is_invalid(retriever, query):
    with pytest.raises(InvalidQuery, match="empty"):
        retriever.search(query)


@pytest.mark.parametrize("kwargs", [{"k": 0}, {"threshold": 1.5}, {"diversity": -0.1}, {"mode": "fuzzy"},
                                    {"length_weight": 2}])
def test_bad_options_are_invalid(retriever, kwargs):
    with pytest.raises(InvalidQuery):
        retriever.search("deploy", **kwargs)


def test_missing_collection_raises_knowledge_base_missing(settings):
    store = KnowledgeStore.open(settings, HashEmbedder(), collection="absent")
    with pytest.raises(KnowledgeBaseMissing, match="synthbot ingest"):
        Retriever(store).search("deploy")


def test_empty_collection_says_so(settings):
    store = KnowledgeStore.open(settings, HashEmbedder(), collection="empty")
    store.collection(create=True)
    resp = Retriever(store).search("deploy", debug=True)
    assert resp.results == [] and "empty" in resp.warnings[0]


def test_mmr_diversity_changes_the_order(settings):
    rows = [(f"dup-{i}", f"dup{i}", "Canary deploys roll out to five percent of hosts first.", [], "doc", f"u{i}")
            for i in range(3)]
    rows.append(("other", "other", "Canary deploys need a rollback plan written down.", [], "doc", "u-other"))
    store = KnowledgeStore.open(settings, HashEmbedder())
    fill(store, make_chunks(rows))
    retriever = Retriever(store)
    plain = [r.id for r in retriever.search("canary deploys five percent hosts", k=2, mode="dense").results]
    diverse = [r.id for r in retriever.search("canary deploys five percent hosts", k=2, mode="dense",
                                              diversity=0.7).results]
    assert all(i.startswith("dup") for i in plain)
    assert diverse[0] == plain[0] and diverse[1] == "other"


def test_length_weight_penalises_very_short_chunks(retriever):
    assert length_factor(1, 1.0) < 0.6 and length_factor(40, 1.0) == 1.0
    plain = {r.id: r.score for r in retriever.search("pager", k=10, mode="lexical").results}
    weighted = {r.id: r.score for r in retriever.search("pager", k=10, mode="lexical", length_weight=1.0).results}
    assert weighted["stub-1"] < plain["stub-1"]
    assert weighted["oncall-1"] / plain["oncall-1"] > weighted["stub-1"] / plain["stub-1"]


def test_with_embeddings_fills_unit_vectors(retriever):
    resp = retriever.search("deploy", k=3, with_embeddings=True)
    assert all(r.embedding is not None and len(r.embedding) == 256 for r in resp.results)
    assert math.isclose(sum(x * x for x in resp.results[0].embedding), 1.0, rel_tol=1e-4)
    assert "embedding" not in resp.model_dump_json()  # never serialised into --json
    assert retriever.search("deploy", k=3).results[0].embedding is None


def test_debug_reports_model_filters_timings_and_ranks(retriever):
    f = SearchFilters(tags=["ops"])
    resp = retriever.search("escalate page", k=2, debug=True, filters=f)
    d = resp.debug
    assert d["model"] == "hash-256" and d["dimension"] == 256
    assert d["where"] == {"tag:ops": True} and d["filters"]["tags"] == ["ops"]
    assert {"embed", "dense", "lexical", "fuse", "total"} <= set(d["timings_ms"])
    assert d["dense_candidates"] >= 1 and d["lexical_candidates"] >= 1
    top = resp.results[0].debug
    assert set(top) >= {"dense_rank", "dense_score", "lexical_rank", "lexical_score", "bm25"}
    assert retriever.search("escalate page").debug == {} and retriever.search("escalate").results[0].debug is None


def test_lexical_index_is_rebuilt_when_another_store_instance_writes(settings, store, retriever):
    assert retriever.search("kubernetes", mode="lexical").results == []
    other = KnowledgeStore.open(settings, HashEmbedder())  # a second process over the same data dir
    fill(other, make_chunks([("k8s-1", "k8s", "Kubernetes clusters are upgraded quarterly.", [], "doc", "u-k8s")]))
    resp = retriever.search("kubernetes", mode="lexical")
    assert [r.id for r in resp.results] == ["k8s-1"] and retriever.lexical.builds == 2
    retriever.search("kubernetes", mode="lexical")
    assert retriever.lexical.builds == 2  # unchanged revision: no rebuild


def test_revision_checks_are_throttled(store):
    lexical = LexicalIndex(store, check_interval=3600)
    first = lexical.snapshot()
    fill(store, make_chunks([("new-1", "new", "Brand new words appear.", [], "doc", "u-new")]))
    assert lexical.snapshot() is first  # within the interval we trust the snapshot


def test_lexical_cache_on_disk_is_reused_by_a_new_process(settings, store):
    cache = settings.home / "lexical"
    first = make_retriever(settings, store)
    expected = [(r.id, r.score) for r in first.search("deploy rollback", mode="lexical").results]
    assert first.lexical.builds == 1 and list(cache.glob(f"{store.name}@*"))
    fresh = make_retriever(settings, KnowledgeStore.open(settings, HashEmbedder()))
    assert [(r.id, r.score) for r in fresh.search("deploy rollback", mode="lexical").results] == expected
    assert fresh.lexical.builds == 0  # loaded, not rebuilt
    fill(store, make_chunks([("new-1", "new", "Rollback drills happen monthly.", [], "doc", "u-new")]))
    fresh.lexical.check_interval = 0
    assert "new-1" in {r.id for r in fresh.search("rollback drills", mode="lexical").results}
    assert len(list(cache.glob(f"{store.name}@*"))) == 1  # the stale revision's cache was pruned


def test_unwritable_cache_falls_back_to_memory(settings, store, tmp_path):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the cache directory should be")
    retriever = Retriever(store, lexical=LexicalIndex(store, cache_dir=blocker / "lexical"))
    assert retriever.search("vault", mode="lexical").results[0].id == "security-1"


def test_concurrent_searches_agree(retriever):
    expected = [r.id for r in retriever.search("incident commander channel", k=3).results]
    with ThreadPoolExecutor(8) as pool:
        got = list(pool.map(lambda _: [r.id for r in retriever.search("incident commander channel", k=3).results],
                            range(16)))
    assert all(g == expected for g in got)


def test_skipping_hopeless_lexical_only_chunks_never_changes_the_top(store):
    # With k=1 most lexical-only chunks are bounded below the best exact score and never fetched; with k=3 more are.
    fill(store, make_chunks([(f"filler-{i}", f"filler{i}", "of the and" + " of" * i, [], "doc", f"u{i}")
                             for i in range(3)]))
    retriever = Retriever(store, fusion=Fusion(pool=3, dense_weight=0.5))
    for q in ("rotated of the and", "pager of the", "deploy rollback vault", "incident the secondary"):
        one = retriever.search(q, k=1, debug=True)
        three = retriever.search(q, k=3, debug=True)
        assert [(r.id, r.score) for r in one.results] == [(r.id, r.score) for r in three.results[:1]]
        assert one.debug["exact_dense"] <= three.debug["exact_dense"]


@pytest.mark.parametrize(("mode", "diversity"), [("lexical", 0.0), ("hybrid", 0.0), ("lexical", 0.5)])
def test_chunks_deleted_after_the_snapshot_never_come_back_empty(settings, store, mode, diversity):
    retriever = Retriever(store, lexical=LexicalIndex(store, check_interval=3600))  # the snapshot stays stale
    before = [r.id for r in retriever.search("on-call pager primary incident deploy", k=3, mode=mode, diversity=diversity).results]
    assert len(before) == 3 and "oncall-1" in before
    other = KnowledgeStore.open(settings, HashEmbedder())  # e.g. an ingest in another process
    other.delete(["oncall-1"])
    other.bump_revision()

    resp = retriever.search("on-call pager primary incident deploy", k=3, mode=mode, diversity=diversity, debug=True)
    ids = [r.id for r in resp.results]
    assert "oncall-1" not in ids and len(ids) == 3  # the next candidate takes its place
    assert all(r.doc_id and r.content and r.title for r in resp.results)
    assert [r.rank for r in resp.results] == [1, 2, 3]
    if mode == "lexical" and not diversity:  # hybrid and MMR read stored vectors first: a deleted chunk has none
        assert resp.debug["stale_dropped"] == 1

"""The Chroma-backed store: creation, model checks, revisions across instances, filters, our embedding function."""

from __future__ import annotations

import pytest

from synthesis.embedding import HashEmbedder
from synthesis.errors import KnowledgeBaseMissing, ModelMismatch
from synthesis.models import Chunk, SearchFilters
from synthesis.store import KnowledgeStore, where_clause


def _chunks(n: int) -> list[Chunk]:
    return [Chunk(id=f"c{i}", doc_id=f"d{i % 2}", text=f"deploy rollback note {i}", tags=["ops"] if i % 2 else [],
                  type="runbook") for i in range(n)]


def _store(settings, embedder=None) -> KnowledgeStore:
    return KnowledgeStore.open(settings, embedder or HashEmbedder())


def test_missing_collection_says_how_to_fix(settings):
    with pytest.raises(KnowledgeBaseMissing, match="synthbot ingest PATH"):
        _store(settings).collection()


def test_upsert_query_and_model_recorded(settings):
    store = _store(settings)
    chunks = _chunks(4)
    store.upsert(chunks, store.embedder.embed([c.text for c in chunks]))
    info = store.info()
    assert info["count"] == 4 and info["model"] == "hash-256" and info["dimension"] == 256
    hits = store.query(store.embedder.embed(["deploy rollback note 3"], query=True)[0], 2)
    assert hits[0][0] == "c3" and 0.99 <= hits[0][3] <= 1.0001


def test_query_with_a_different_model_is_refused_naming_both(settings):
    store = _store(settings)
    store.upsert(_chunks(1), store.embedder.embed(["x"]))
    other = _store(settings, HashEmbedder(128, name="hash-128"))
    with pytest.raises(ModelMismatch) as err:
        other.collection()
    assert "hash-256" in str(err.value) and "hash-128" in str(err.value) and "ingest" in str(err.value)


def test_revision_changes_on_write_and_is_seen_by_another_instance(settings):
    writer = _store(settings)
    writer.upsert(_chunks(2), writer.embedder.embed(["a", "b"]))
    reader = _store(settings)
    before = reader.revision()
    writer.bump_revision()
    assert reader.revision() != before


def test_filters_apply_in_chroma(settings):
    store = _store(settings)
    chunks = _chunks(6)
    store.upsert(chunks, store.embedder.embed([c.text for c in chunks]))
    where = where_clause(SearchFilters(tags=["ops"], where={"type": "runbook"}))
    hits = store.query(store.embedder.embed(["deploy"], query=True)[0], 10, where)
    assert {h[0] for h in hits} == {"c1", "c3", "c5"}
    assert where_clause(SearchFilters()) is None


def test_doc_states_and_delete(settings):
    store = _store(settings)
    chunks = _chunks(4)
    store.upsert(chunks, store.embedder.embed([c.text for c in chunks]))
    states = store.doc_states()
    assert states["d0"].ids == {"c0", "c2"} and states["d1"].ids == {"c1", "c3"}
    store.delete(["c0", "c2"])
    assert set(store.doc_states()) == {"d1"}


def test_chroma_rebuilds_our_embedding_function_from_config(settings):
    store = _store(settings)
    chunks = _chunks(2)
    store.upsert(chunks, store.embedder.embed([c.text for c in chunks]))
    # A client that passes no embedding function gets ours back from the stored config, never Chroma's default.
    coll = store.client.get_collection(store.name)
    assert coll.configuration["embedding_function"].name() == "synthbot"
    got = coll.query(query_texts=["deploy rollback note 1"], n_results=1)
    assert got["ids"][0] == ["c1"]


def test_open_store_reports_a_missing_collection_before_loading_a_model(settings):
    from synthesis.store import open_store

    # A model name that cannot load: reaching load_embedder would raise ModelLoadError instead.
    broken = settings.model_copy(update={"embedding_model": "no-such-org/no-such-model"})
    with pytest.raises(KnowledgeBaseMissing, match="synthbot ingest PATH"):
        open_store(broken)

"""Lexical shares clamp at 1.0; the ranking underneath must still follow raw BM25."""

from __future__ import annotations

from synthesis.embedding import HashEmbedder
from synthesis.models import Chunk
from synthesis.retrieval import Retriever
from synthesis.store import KnowledgeStore


def test_saturated_lexical_scores_keep_bm25_order(settings):
    store = KnowledgeStore.open(settings, HashEmbedder())
    # Same term, different frequency and length: every share clamps to 1.0, but BM25 still orders them.
    texts = {
        "weak": "rollback " + " ".join(f"filler{i}" for i in range(60)),
        "mid": "rollback rollback " + " ".join(f"filler{i}" for i in range(20)),
        "strong": "rollback rollback rollback rollback",
    }
    chunks = [Chunk(id=cid, doc_id=cid, text=text) for cid, text in texts.items()]
    store.upsert(chunks, store.embedder.embed(list(texts.values())))
    store.bump_revision()
    resp = Retriever(store).search("rollback", k=3, mode="lexical", debug=True)
    raw = [r.debug["bm25"] for r in resp.results]
    assert raw == sorted(raw, reverse=True) and len(set(raw)) == 3
    assert resp.results[0].id == "strong" and resp.results[-1].id == "weak"

"""Hybrid results at k are the head of the results at 2k, on a real Chroma collection whose HNSW index is made
deliberately approximate (few neighbours, small ef), so the dense pool misses chunks an exact search would find."""

from __future__ import annotations

import random

import pytest

from synthesis.config import Settings
from synthesis.embedding import HashEmbedder
from synthesis.models import Chunk
from synthesis.retrieval import Fusion, Retriever
from synthesis.store import KnowledgeStore

TOPICS = ("deploy rollback incident page owner staging budget policy review approve database backup restore alert "
          "metric latency cache queue worker token secret rotate access vpn laptop onboarding").split()


@pytest.fixture(scope="module")
def approximate_store(tmp_path_factory):
    rng = random.Random(1)
    embedder = HashEmbedder()
    store = KnowledgeStore.open(Settings(_env_file=None, home=tmp_path_factory.mktemp("kprefix")), embedder)
    store.client.create_collection(
        store.name, embedding_function=store._ef,
        configuration={"hnsw": {"space": "cosine", "max_neighbors": 4, "ef_construction": 8, "ef_search": 8}},
        metadata={"embedding_model": embedder.name, "embedding_dimension": embedder.dimension, "revision": "r0"})
    chunks = [Chunk(id=f"c{i}", doc_id=f"d{i}", title="", source_url="u", section="",
                    text=" ".join(rng.choice(TOPICS) for _ in range(12)) + " " + " ".join(
                        f"w{rng.randrange(400)}" for _ in range(6))) for i in range(3000)]
    for start in range(0, len(chunks), 500):
        part = chunks[start:start + 500]
        store.upsert(part, embedder.embed([c.text for c in part]))
    return store


def _queries(n: int) -> list[str]:
    rng = random.Random(7)
    return [" ".join(rng.choice(TOPICS[:20]) for _ in range(3)) for _ in range(n)]


@pytest.mark.parametrize(("k", "pool"), [(4, 12), (10, 100)])
def test_results_at_k_are_a_prefix_of_results_at_2k(approximate_store, k, pool):
    retriever = Retriever(approximate_store, fusion=Fusion(pool=pool))
    broken = []
    for query in _queries(60):
        small = [r.id for r in retriever.search(query, k=k).results]
        large = [r.id for r in retriever.search(query, k=2 * k).results]
        assert len(small) == k
        if large[:k] != small:
            broken.append(query)
    assert broken == [], f"{len(broken)} of 60 queries: top {k} is not the head of top {2 * k}"

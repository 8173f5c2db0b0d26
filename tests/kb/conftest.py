"""Fixtures for the knowledge-base tests: a counting embedder (the Embedder seam) and stores in tmp dirs."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from synthesis.embedding import HashEmbedder

INGEST_DATA = Path(__file__).parent / "data" / "ingest"


class CountingEmbedder:
    """HashEmbedder that records every text it embeds (to prove unchanged documents are not re-embedded)."""

    def __init__(self, dimension: int = 256, *, name: str = "hash-256", max_tokens: int = 256) -> None:
        self._inner = HashEmbedder(dimension, name=name, max_tokens=max_tokens)
        self.name, self.dimension, self.max_tokens = name, dimension, max_tokens
        self.embedded: list[str] = []
        self.calls = 0

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        self.calls += 1
        if not query:
            self.embedded += list(texts)
        return self._inner.embed(texts, query=query)

    def count_tokens(self, text: str) -> int:
        return self._inner.count_tokens(text)

    def reset(self) -> None:
        self.embedded, self.calls = [], 0


@pytest.fixture
def counting_embedder() -> CountingEmbedder:
    return CountingEmbedder()


@pytest.fixture
def make_store(settings):
    """`make_store(embedder, home=None, collection=None)`: a KnowledgeStore on real embedded Chroma in a tmp dir."""
    from synthesis.store import KnowledgeStore

    def make(embedder, *, home: Path | None = None, collection: str | None = None) -> KnowledgeStore:
        s = settings if home is None else settings.model_copy(update={"home": home})
        return KnowledgeStore.open(s, embedder, collection=collection)

    return make


@pytest.fixture
def ingest_data() -> Path:
    return INGEST_DATA

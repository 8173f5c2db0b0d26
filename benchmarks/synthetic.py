"""A large synthetic knowledge store for scale tests: random unit vectors plus realistic SciFact text for BM25.

The vectors are random (dimension 384, the bundled model's), so dense results are meaningless, but the collection
is labelled with the bundled model so real query embedding runs exactly as in production. Built once per size
under benchmarks/.cache/synthetic-<n> (resumable: chunk ids are deterministic and written in order).
"""

from __future__ import annotations

import json
import re
import sys
import time

import numpy as np

from benchmarks._common import CACHE, SCIFACT_DIR, bench_settings, build_lock, rich_progress

COLLECTION = "synthetic"
BATCH = 5000
CHUNKS_PER_DOC = 4


def scifact_sentences() -> list[str]:
    """Every sentence of the SciFact abstracts (about 45k), the text the synthetic chunks are made of."""
    out: list[str] = []
    with (SCIFACT_DIR / "corpus.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            text = json.loads(line).get("text", "")
            out += [s.strip() for s in re.split(r"(?<=[.!?])\s+(?=[A-Z0-9])", text) if len(s.strip()) > 20]
    return out


def queries(n: int = 200) -> list[str]:
    """Realistic query texts: SciFact claims."""
    with (SCIFACT_DIR / "queries.jsonl").open(encoding="utf-8") as fh:
        return [json.loads(line)["text"] for line in fh if line.strip()][:n]


def _batch(start: int, size: int, sentences: list[str], dim: int):
    from synthesis.models import Chunk

    rng = np.random.default_rng(start)  # seeded per batch, so a resumed build writes the same rows
    vecs = rng.standard_normal((size, dim)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    picks = rng.integers(0, len(sentences), size=(size, 4))
    lengths = rng.integers(2, 5, size=size)  # 2-4 sentences: 40-150 words, like real chunks
    chunks = []
    for row in range(size):
        i = start + row
        doc = i // CHUNKS_PER_DOC
        text = " ".join(sentences[j] for j in picks[row, :lengths[row]])
        chunks.append(Chunk(id=f"syn-{i:07d}", doc_id=f"syn-doc-{doc}", text=text, title=f"Synthetic document {doc}",
                            source_url=f"https://synthetic.example/{doc}", section="Abstract",
                            chunk_index=i % CHUNKS_PER_DOC, chunk_count=CHUNKS_PER_DOC, char_end=len(text),
                            tags=["synthetic"], type="doc", source_file="synthetic", doc_hash=f"h{doc}"))
    return chunks, vecs


def synthetic_store(n: int = 100_000, *, show_progress: bool = True):
    """The n-chunk synthetic store (built on first use; a few minutes for 100k)."""
    from synthesis.embedding import load_embedder
    from synthesis.store import KnowledgeStore

    home = CACHE / f"synthetic-{n}"
    with build_lock(f"synthetic-{n}"):
        embedder = load_embedder()
        store = KnowledgeStore.open(bench_settings(home, COLLECTION), embedder, collection=COLLECTION)
        have = store.collection().count() if store.exists() else 0
        if have >= n:
            return store
        sentences = scifact_sentences()
        started = time.perf_counter()
        bar, update = rich_progress(f"build synthetic-{n}") if show_progress else (None, None)
        first = (have // BATCH) * BATCH  # re-upserting a half-written batch is idempotent
        if bar:
            bar.start()
        try:
            for start in range(first, n, BATCH):
                chunks, vecs = _batch(start, min(BATCH, n - start), sentences, embedder.dimension)
                store.upsert(chunks, vecs)
                if update:
                    update(start + len(chunks), n)
        finally:
            if bar:
                bar.stop()
        store.bump_revision()
        print(f"built {home}: {n} chunks in {time.perf_counter() - started:.0f}s", file=sys.stderr)
        return store


if __name__ == "__main__":
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    print(synthetic_store(size).info())

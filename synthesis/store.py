"""The knowledge base over Chroma: embedded PersistentClient by default, HttpClient when a server is configured.

Chroma is the single source of truth. Every write bumps a revision stamp in the collection metadata, so derived
indexes (the lexical index) in any process can tell when they are stale.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

import numpy as np
import structlog

from .config import Settings
from .embedding import Embedder, HashEmbedder, canonical_model_name, load_embedder, loaded_embedder
from .errors import KnowledgeBaseMissing, ModelMismatch, StoreUnavailable
from .models import Chunk, SearchFilters

log = structlog.get_logger(__name__)

PAGE = 2000  # rows per Chroma get(); keeps memory flat on large collections
WRITE_BATCH = 1000


def _chromadb():
    import chromadb
    from chromadb.api.types import Documents, EmbeddingFunction, Embeddings
    from chromadb.utils.embedding_functions import register_embedding_function

    return chromadb, Documents, EmbeddingFunction, Embeddings, register_embedding_function


def _make_embedding_function_class():
    chromadb, Documents, EmbeddingFunction, Embeddings, register = _chromadb()

    class SynthbotEmbeddingFunction(EmbeddingFunction[Documents]):
        """Our embedder behind Chroma's interface, so Chroma never falls back to its downloading default."""

        def __init__(self, embedder: Embedder) -> None:
            self._embedder = embedder

        def __call__(self, input: Documents) -> Embeddings:
            return list(self._embedder.embed(list(input)))

        def embed_query(self, input: Documents) -> Embeddings:
            return list(self._embedder.embed(list(input), query=True))

        @staticmethod
        def name() -> str:
            return "synthbot"

        def default_space(self) -> str:
            return "cosine"

        def supported_spaces(self) -> list[str]:
            return ["cosine"]

        def get_config(self) -> dict[str, Any]:
            return {"model": self._embedder.name, "dimension": self._embedder.dimension}

        @staticmethod
        def build_from_config(config: dict[str, Any]) -> "SynthbotEmbeddingFunction":
            # Chroma rebuilds functions from stored config: reuse the model this process loaded (either backend).
            name = config.get("model", "")
            if name.startswith("hash-"):
                return SynthbotEmbeddingFunction(HashEmbedder(int(config.get("dimension", 256)), name=name))
            return SynthbotEmbeddingFunction(loaded_embedder(name) or load_embedder(name))

    try:
        register(SynthbotEmbeddingFunction)
    except ValueError:  # already registered in this process
        pass
    return SynthbotEmbeddingFunction


_EF_CLASS = None


def embedding_function(embedder: Embedder):
    global _EF_CLASS
    if _EF_CLASS is None:
        _EF_CLASS = _make_embedding_function_class()
    return _EF_CLASS(embedder)


def make_client(settings: Settings):
    """Build the Chroma client the settings ask for (telemetry off)."""
    chromadb = _chromadb()[0]
    from chromadb.config import Settings as ChromaSettings

    chroma_settings = ChromaSettings(anonymized_telemetry=False, allow_reset=False)
    try:
        if settings.chroma_url:
            url = urlparse(settings.chroma_url)
            return chromadb.HttpClient(
                host=url.hostname or "127.0.0.1", port=url.port or (443 if url.scheme == "https" else 8000),
                ssl=url.scheme == "https", settings=chroma_settings,
            )
        settings.chroma_path.mkdir(parents=True, exist_ok=True)
        return chromadb.PersistentClient(path=str(settings.chroma_path), settings=chroma_settings)
    except Exception as exc:
        where = settings.chroma_url or settings.chroma_path
        raise StoreUnavailable(
            f"cannot open the Chroma store at {where} ({exc}) — check SYNTHBOT_CHROMA_URL / SYNTHBOT_HOME"
        ) from exc


@dataclass
class DocState:
    """What the store holds for one document: used to skip unchanged documents and clean up changed ones."""

    doc_id: str
    source_file: str = ""
    hashes: set[str] = field(default_factory=set)
    ids: set[str] = field(default_factory=set)
    expected_count: int = 0


def where_clause(filters: SearchFilters | None) -> dict[str, Any] | None:
    """Translate filters into a Chroma `where` (metadata keys are flat; tags are stored as `tag:<name>` flags)."""
    if filters is None or filters.is_empty():
        return None
    terms: list[dict[str, Any]] = []
    if filters.source_url:
        terms.append({"source_url": filters.source_url})
    terms += [{f"tag:{t}": True} for t in filters.tags]
    terms += [{k: v} for k, v in filters.where.items()]
    return terms[0] if len(terms) == 1 else {"$and": terms}


def chunk_metadata(chunk: Chunk) -> dict[str, Any]:
    meta: dict[str, Any] = {
        "doc_id": chunk.doc_id, "title": chunk.title, "source_url": chunk.source_url, "section": chunk.section,
        "chunk_index": chunk.chunk_index, "chunk_count": chunk.chunk_count, "char_start": chunk.char_start,
        "char_end": chunk.char_end, "tags": ",".join(chunk.tags), "type": chunk.type,
        "source_file": chunk.source_file, "doc_hash": chunk.doc_hash,
    }
    meta.update({f"tag:{t}": True for t in chunk.tags})
    if chunk.links:  # Chroma metadata is scalar: one target per line
        meta["links"] = "\n".join(chunk.links)
    return meta


class KnowledgeStore:
    """One Chroma collection plus the model it was built with."""

    def __init__(self, client, name: str, embedder: Embedder) -> None:
        self.client = client
        self.name = name
        self.embedder = embedder
        self._ef = embedding_function(embedder)
        self._collection = None

    @classmethod
    def open(cls, settings: Settings, embedder: Embedder, *, collection: str | None = None) -> "KnowledgeStore":
        return cls(make_client(settings), collection or settings.collection, embedder)

    # --- collection lifecycle --------------------------------------------------------------------------
    def exists(self) -> bool:
        return self.name in {c if isinstance(c, str) else c.name for c in self.client.list_collections()}

    def collection(self, *, create: bool = False):
        """The collection, checked against our model. `create=True` makes it if missing (ingest only)."""
        if self._collection is not None:
            return self._collection
        if not self.exists():
            if not create:
                raise KnowledgeBaseMissing(f"no knowledge base '{self.name}' — run `synthbot ingest PATH` first")
            coll = self.client.create_collection(
                self.name, embedding_function=self._ef, configuration={"hnsw": {"space": "cosine"}},
                metadata={"embedding_model": canonical_model_name(self.embedder.name),
                          "embedding_dimension": self.embedder.dimension, "revision": uuid.uuid4().hex,
                          "created_by": "synthbot"},
            )
            log.info("store.created", collection=self.name, model=self.embedder.name)
        else:
            coll = self.client.get_collection(self.name, embedding_function=self._ef)
            self._check_model(coll.metadata or {})
        self._collection = coll
        return coll

    def _check_model(self, meta: dict[str, Any]) -> None:
        stored = meta.get("embedding_model")
        mine = canonical_model_name(self.embedder.name)
        if stored and (stored != mine or int(meta.get("embedding_dimension", 0)) != self.embedder.dimension):
            raise ModelMismatch(
                f"knowledge base '{self.name}' was built with '{stored}' ({meta.get('embedding_dimension')} dims) "
                f"but this process uses '{mine}' ({self.embedder.dimension} dims). Queries must use the ingest model: "
                f"set SYNTHBOT_EMBEDDING_MODEL={stored}, or re-ingest with the new model into a fresh collection "
                f"(`synthbot ingest PATH --collection NEW`)"
            )

    def info(self) -> dict[str, Any]:
        coll = self.collection()
        meta = self.client.get_collection(self.name, embedding_function=self._ef).metadata or {}
        return {"collection": self.name, "count": coll.count(), "model": meta.get("embedding_model"),
                "dimension": meta.get("embedding_dimension"), "revision": meta.get("revision")}

    def revision(self) -> str:
        """A stamp that changes on every write, read fresh so other processes' writes are seen."""
        meta = self.client.get_collection(self.name, embedding_function=self._ef).metadata or {}
        return f"{meta.get('revision', '')}:{self.collection().count()}"

    def bump_revision(self) -> None:
        coll = self.collection()
        meta = dict(self.client.get_collection(self.name, embedding_function=self._ef).metadata or {})
        meta["revision"] = uuid.uuid4().hex
        coll.modify(metadata=meta)

    # --- writes ----------------------------------------------------------------------------------------
    def upsert(self, chunks: Sequence[Chunk], embeddings: np.ndarray) -> None:
        coll = self.collection(create=True)
        for start in range(0, len(chunks), WRITE_BATCH):
            part = chunks[start:start + WRITE_BATCH]
            coll.upsert(
                ids=[c.id for c in part], documents=[c.text for c in part],
                embeddings=np.asarray(embeddings[start:start + WRITE_BATCH], dtype=np.float32),
                metadatas=[chunk_metadata(c) for c in part],
            )

    def delete(self, ids: Sequence[str]) -> None:
        coll = self.collection()
        for start in range(0, len(ids), WRITE_BATCH):
            coll.delete(ids=list(ids[start:start + WRITE_BATCH]))

    def doc_states(self) -> dict[str, DocState]:
        """Every stored document's hashes, chunk ids and expected count (one pass over metadata only)."""
        states: dict[str, DocState] = {}
        if not self.exists():
            return states
        for ids, _docs, metas in self.scan(include_documents=False):
            for cid, meta in zip(ids, metas):
                st = states.setdefault(meta["doc_id"], DocState(meta["doc_id"], meta.get("source_file", "")))
                st.hashes.add(meta.get("doc_hash", ""))
                st.ids.add(cid)
                st.expected_count = int(meta.get("chunk_count", 0))
        return states

    # --- reads -----------------------------------------------------------------------------------------
    def scan(self, *, include_documents: bool = True, where: dict | None = None) -> Iterator[tuple[list, list, list]]:
        """Page through the whole collection: yields (ids, documents, metadatas)."""
        coll = self.collection()
        include = ["metadatas", "documents"] if include_documents else ["metadatas"]
        offset = 0
        while True:
            got = coll.get(include=include, limit=PAGE, offset=offset, where=where)
            ids = got["ids"]
            if not ids:
                return
            yield ids, (got.get("documents") or [None] * len(ids)), got["metadatas"]
            offset += len(ids)

    def get(self, ids: Sequence[str], *, embeddings: bool = False) -> dict[str, Any]:
        include = ["metadatas", "documents"] + (["embeddings"] if embeddings else [])
        return self.collection().get(ids=list(ids), include=include)

    def query(self, vector: np.ndarray, n: int, where: dict | None = None) -> list[tuple[str, str, dict, float]]:
        """Dense search: (id, document, metadata, cosine similarity) best first."""
        coll = self.collection()
        started = time.perf_counter()
        n = max(1, min(n, coll.count() or 1))
        got = coll.query(query_embeddings=np.asarray([vector], dtype=np.float32), n_results=n, where=where,
                         include=["documents", "metadatas", "distances"])
        log.debug("chroma.query", n=n, seconds=round(time.perf_counter() - started, 4))
        return [(i, d, m, 1.0 - float(dist)) for i, d, m, dist in
                zip(got["ids"][0], got["documents"][0], got["metadatas"][0], got["distances"][0])]


def open_store(settings: Settings, *, collection: str | None = None, create: bool = False) -> KnowledgeStore:
    """The entry point's way in: open Chroma, then load the configured embedder (cached per process).

    Without `create`, a missing collection is reported before the model is loaded, so the fix is shown at once.
    """
    client = make_client(settings)
    name = collection or settings.collection
    if not create and name not in {c if isinstance(c, str) else c.name for c in client.list_collections()}:
        raise KnowledgeBaseMissing(f"no knowledge base '{name}' — run `synthbot ingest PATH` first")
    embedder = load_embedder(settings.embedding_model, batch_size=settings.embedding_batch_size,
                             backend=settings.embedding_backend, cache_dir=settings.model_cache)
    return KnowledgeStore(client, name, embedder)

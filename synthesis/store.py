"""The knowledge base over Chroma: embedded PersistentClient by default, HttpClient when a server is configured.

Chroma is the single source of truth. Every write bumps a revision stamp in the collection metadata, so derived
indexes (the lexical index) in any process can tell when they are stale.

Fresh reads with embedded Chroma: each process holds its own in-memory HNSW index, loaded once, and Chroma's
embedded mode does not notice another process's writes to it (the SQLite side is read fresh). A long-lived reader
therefore checks the revision stamp (at most every FRESH_INTERVAL seconds) and, when another process has written,
reopens its client, which loads the index from disk again. A read that still hits a torn state (the writer is mid
batch: "Error finding id") reopens and retries; what keeps failing is StoreUnavailable, never "not found". See
docs/ARCHITECTURE.md, "Several processes, one embedded store".
"""

from __future__ import annotations

import shutil
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

import numpy as np
import structlog

from .config import Settings
from .embedding import Embedder, HashEmbedder, canonical_model_name, load_embedder, loaded_embedder
from .errors import KnowledgeBaseMissing, ModelMismatch, StoreFull, StoreUnavailable
from .models import TABLE_HEADER, Chunk, SearchFilters

log = structlog.get_logger(__name__)

PAGE = 2000  # rows per Chroma get(); keeps memory flat on large collections
WRITE_BATCH = 1000
FRESH_INTERVAL = 1.0  # seconds between revision checks of an embedded store (bounds how stale a reader can be)
READ_ATTEMPTS = 4  # a read that fails on a torn index is retried this often, on a freshly opened client
RETRY_PAUSE = 0.25  # seconds, doubled per attempt: lets a concurrent writer finish its batch
LOW_DISK_BYTES = 8 * 2**20  # a write that failed with less free than this is reported as a full disk
_DISK_FULL = ("disk is full", "no space left", "enospc", "os error 28", "database or disk is full")


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
        return open_embedded(settings.chroma_path)
    except Exception as exc:
        where = settings.chroma_url or settings.chroma_path
        raise store_error(exc, f"cannot open the Chroma store at {where}", "check SYNTHBOT_CHROMA_URL / SYNTHBOT_HOME",
                          path=None if settings.chroma_url else settings.home if settings.home.exists() else None) from exc


def open_embedded(path) -> Any:
    """A PersistentClient on a System of its own, so every call loads the HNSW index from disk afresh.

    `chromadb.PersistentClient` shares one System per path for the life of the process; reopening through it would
    hand back the stale index. The newest System replaces the shared one, so any later PersistentClient on this path
    in this process is fresh too; older ones are released when their last collection object is.
    """
    from chromadb.api import ServerAPI
    from chromadb.api.client import Client
    from chromadb.config import Settings as ChromaSettings
    from chromadb.config import System
    from chromadb.telemetry.product import ProductTelemetryClient

    system = System(ChromaSettings(anonymized_telemetry=False, allow_reset=False, is_persistent=True,
                                   persist_directory=str(path)))
    system.instance(ProductTelemetryClient)
    system.instance(ServerAPI)
    system.start()
    return Client.from_system(system)


def is_disk_full(exc: BaseException, path=None) -> bool:
    """ENOSPC, or a message that says so, or (Chroma's Rust core often words it otherwise) a failed write on a
    disk with next to nothing free."""
    if isinstance(exc, OSError) and exc.errno == 28 or any(m in str(exc).lower() for m in _DISK_FULL):
        return True
    if path is None:
        return False
    try:
        usage = shutil.disk_usage(path)
    except OSError:
        return False
    return usage.free < max(LOW_DISK_BYTES, usage.total // 1000)


def store_error(exc: BaseException, what: str, fix: str, *, path=None) -> StoreUnavailable:
    """One line for a store failure: a full disk says so; anything else names the error and the fix."""
    if is_disk_full(exc, path):
        return StoreFull(f"{what}: the disk is full — free space on the disk holding SYNTHBOT_HOME, then run the "
                         "command again (ingest resumes where it stopped)")
    first = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else type(exc).__name__
    return StoreUnavailable(f"{what} ({type(exc).__name__}: {first}) — {fix}")


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
    if filters.any_tags:
        alts = [{f"tag:{t}": True} for t in filters.any_tags]
        terms.append(alts[0] if len(alts) == 1 else {"$or": alts})
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
    if chunk.author:
        meta["author"] = chunk.author
    if chunk.table_header:
        meta[TABLE_HEADER] = chunk.table_header
    return meta


class KnowledgeStore:
    """One Chroma collection plus the model it was built with."""

    def __init__(self, client, name: str, embedder: Embedder, *, reopen: Callable[[], Any] | None = None,
                 path=None) -> None:
        self.client = client
        self.path = path  # the embedded store's directory (None for a server): a failed write checks its disk
        self.name = name
        self.embedder = embedder
        self._ef = embedding_function(embedder)
        self._collection = None
        # Embedded Chroma only: how to open a fresh client when another process has written (None: a server,
        # which every process shares, needs no reopening).
        self._reopen = reopen
        self._lock = threading.Lock()
        self._seen: str | None = None  # the revision stamp this client's index reflects
        self._checked_at = 0.0
        self.reopened = 0  # how many times this store reopened its client (tests and debug read it)

    @classmethod
    def open(cls, settings: Settings, embedder: Embedder, *, collection: str | None = None) -> "KnowledgeStore":
        return cls(make_client(settings), collection or settings.collection, embedder, reopen=_reopener(settings),
                   path=None if settings.chroma_url else settings.chroma_path)

    # --- collection lifecycle --------------------------------------------------------------------------
    def exists(self) -> bool:
        return self.name in _names(self.client)

    def collection(self, *, create: bool = False):
        """The collection, checked against our model. `create=True` makes it if missing (ingest only).

        An embedded store checks (at most every FRESH_INTERVAL) whether another process has written since the
        index was loaded, and reopens if so.
        """
        if self._collection is not None:
            if self._reopen is not None and time.monotonic() - self._checked_at >= FRESH_INTERVAL:
                self._refresh()
            return self._collection
        with self._lock:
            if self._collection is None:
                self._collection = self._open_collection(create)
                self._seen = self._stamp()
                self._checked_at = time.monotonic()
            return self._collection

    def _open_collection(self, create: bool):
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
        return coll

    def _stamp(self) -> str:
        """The revision stamp as stored now (a metadata read: fresh even when this process's index is stale)."""
        meta = self.client.get_collection(self.name, embedding_function=self._ef).metadata or {}
        return str(meta.get("revision", ""))

    def _refresh(self, *, force: bool = False) -> None:
        """Reopen the client when the stored revision moved on since our index was loaded (or when forced)."""
        with self._lock:
            if not force and time.monotonic() - self._checked_at < FRESH_INTERVAL:
                return  # another thread checked while we waited
            try:
                stamp = self._stamp()
            except Exception as exc:
                if not self.exists():  # another process deleted it (or recreated it under a new id)
                    raise KnowledgeBaseMissing(f"no knowledge base '{self.name}' — run `synthbot ingest PATH` "
                                               "first") from exc
                if not force:
                    raise store_error(exc, f"cannot read knowledge base '{self.name}'", _FIX) from exc
                stamp = None
            self._checked_at = time.monotonic()
            if not force and stamp == self._seen:
                return
            started = time.perf_counter()
            try:
                self.client = self._reopen()
                coll = self._open_collection(create=False)
            except (KnowledgeBaseMissing, ModelMismatch):
                raise
            except Exception as exc:
                raise store_error(exc, f"cannot reopen knowledge base '{self.name}'", _FIX) from exc
            # In-flight reads on the old collection finish on the old client, which is released after them.
            self._collection = coll
            self._seen = self._stamp() if stamp is None else stamp
            self.reopened += 1
            log.info("store.reopened", collection=self.name, forced=force,
                     seconds=round(time.perf_counter() - started, 3))

    def read(self, what: str, fn: Callable[[Any], Any]) -> Any:
        """Run `fn(collection)`; a failure on a torn or stale index reopens the client and retries.

        Raises StoreUnavailable (StoreFull for a full disk) when Chroma keeps failing: a caller must never mistake
        a broken store for an empty answer.
        """
        pause = RETRY_PAUSE
        for attempt in range(1, READ_ATTEMPTS + 1):
            coll = self.collection()
            try:
                return fn(coll)
            except (KnowledgeBaseMissing, ModelMismatch):
                raise
            except Exception as exc:
                if not _is_chroma_error(exc):
                    raise
                if self._reopen is None or attempt == READ_ATTEMPTS or is_disk_full(exc):
                    raise store_error(exc, f"Chroma {what} failed on knowledge base '{self.name}'"
                                      + (f" {attempt} times" if attempt > 1 else ""), _FIX, path=self.path) from exc
                log.warning("store.read_retry", what=what, attempt=attempt, error=str(exc)[:200])
                time.sleep(pause)
                pause *= 2
                self._refresh(force=True)
        raise AssertionError("unreachable")

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
        count = self.read("count", lambda c: c.count())
        meta = self.client.get_collection(self.name, embedding_function=self._ef).metadata or {}
        return {"collection": self.name, "count": count, "model": meta.get("embedding_model"),
                "dimension": meta.get("embedding_dimension"), "revision": meta.get("revision")}

    def revision(self) -> str:
        """A stamp that changes on every write, read fresh so other processes' writes are seen."""
        self.collection()  # an embedded store reopens here when the stamp moved
        return f"{self._stamp()}:{self.read('count', lambda c: c.count())}"

    def bump_revision(self) -> None:
        coll = self.collection()
        meta = dict(self.client.get_collection(self.name, embedding_function=self._ef).metadata or {})
        meta["revision"] = uuid.uuid4().hex
        self._write("record the new revision", lambda: coll.modify(metadata=meta))
        self._seen = meta["revision"]  # our own write: this process's index already has it

    # --- writes ----------------------------------------------------------------------------------------
    def upsert(self, chunks: Sequence[Chunk], embeddings: np.ndarray) -> None:
        coll = self._write("create the collection", lambda: self.collection(create=True))
        for start in range(0, len(chunks), WRITE_BATCH):
            part = chunks[start:start + WRITE_BATCH]
            self._write("write", lambda: coll.upsert(
                ids=[c.id for c in part], documents=[c.text for c in part],
                embeddings=np.asarray(embeddings[start:start + WRITE_BATCH], dtype=np.float32),
                metadatas=[chunk_metadata(c) for c in part],
            ))

    def delete(self, ids: Sequence[str]) -> None:
        coll = self.collection()
        for start in range(0, len(ids), WRITE_BATCH):
            self._write("delete", lambda: coll.delete(ids=list(ids[start:start + WRITE_BATCH])))

    def _write(self, what: str, fn: Callable[[], Any]) -> Any:
        """A write; Chroma's failure (a full disk above all) becomes one line that says what to do."""
        try:
            return fn()
        except (KnowledgeBaseMissing, ModelMismatch, StoreUnavailable):
            raise
        except Exception as exc:
            if not _is_chroma_error(exc):
                raise
            raise store_error(exc, f"Chroma could not {what} in knowledge base '{self.name}'", _FIX,
                              path=self.path) from exc

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
        include = ["metadatas", "documents"] if include_documents else ["metadatas"]
        offset = 0
        while True:
            got = self.read("get", lambda c: c.get(include=include, limit=PAGE, offset=offset, where=where))
            ids = got["ids"]
            if not ids:
                return
            yield ids, (got.get("documents") or [None] * len(ids)), got["metadatas"]
            offset += len(ids)

    def get(self, ids: Sequence[str], *, embeddings: bool = False) -> dict[str, Any]:
        include = ["metadatas", "documents"] + (["embeddings"] if embeddings else [])
        return self.read("get", lambda c: c.get(ids=list(ids), include=include))

    def query(self, vector: np.ndarray, n: int, where: dict | None = None) -> list[tuple[str, str, dict, float]]:
        """Dense search: (id, document, metadata, cosine similarity) best first."""
        started = time.perf_counter()
        got = self.read("query", lambda c: c.query(query_embeddings=np.asarray([vector], dtype=np.float32),
                                                    n_results=max(1, n), where=where,
                                                    include=["documents", "metadatas", "distances"]))
        log.debug("chroma.query", n=n, seconds=round(time.perf_counter() - started, 4))
        return [(i, d, m, 1.0 - float(dist)) for i, d, m, dist in
                zip(got["ids"][0], got["documents"][0], got["metadatas"][0], got["distances"][0])]


def open_store(settings: Settings, *, collection: str | None = None, create: bool = False) -> KnowledgeStore:
    """The entry point's way in: open Chroma, then load the configured embedder (cached per process).

    Without `create`, a missing collection is reported before the model is loaded, so the fix is shown at once.
    """
    client = make_client(settings)
    name = collection or settings.collection
    if not create and name not in _names(client):
        raise KnowledgeBaseMissing(f"no knowledge base '{name}' — run `synthbot ingest PATH` first")
    embedder = load_embedder(settings.embedding_model, batch_size=settings.embedding_batch_size,
                             backend=settings.embedding_backend, cache_dir=settings.model_cache)
    return KnowledgeStore(client, name, embedder, reopen=_reopener(settings),
                          path=None if settings.chroma_url else settings.chroma_path)


_FIX = "check SYNTHBOT_HOME (or SYNTHBOT_CHROMA_URL) and free disk space; if it persists, restart the process"


def _reopener(settings: Settings) -> Callable[[], Any] | None:
    """How an embedded store opens a fresh client; None for a Chroma server (shared by every process)."""
    if settings.chroma_url:
        return None
    path = settings.chroma_path
    return lambda: open_embedded(path)


def _names(client) -> set[str]:
    try:
        return {c if isinstance(c, str) else c.name for c in client.list_collections()}
    except Exception as exc:
        raise store_error(exc, "cannot list Chroma collections", _FIX) from exc


def _is_chroma_error(exc: BaseException) -> bool:
    """Failures of Chroma itself (its Rust core, SQLite, the disk, the server), not bugs in our code."""
    import httpx
    from chromadb.errors import InternalError, NotFoundError

    # InternalError: the Rust core (torn or stale HNSW, SQLite, disk). NotFoundError: the collection was recreated
    # by another process under a new id. httpx: a Chroma server that is down or hangs. Argument errors are our bugs
    # and are never retried.
    return isinstance(exc, InternalError | NotFoundError | OSError | httpx.TransportError)

"""Several collections, searched together within what a channel may see.

`Library` opens each collection (a KnowledgeStore with its own revision stamp and BM25 index, so fresh reads work
per collection) once per process. `ScopedSearch` is the search backend for one `Visibility`: every visible
collection searched with the rule's tags as a filter, the results merged on one scale. `ScopedView` is the store
seen through the same visibility, for the inventory behind "You might also explore" and coverage.

Scores merge honestly: dense scores are cosines from the one embedding model every collection must share, and the
lexical side uses BM25 statistics over all the visible collections together (lexical.CorpusStats), so a chunk's
score does not depend on which collection holds it, only (slightly) on its collection's average chunk length.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import structlog

from .config import Settings
from .errors import KnowledgeBaseMissing
from .lexical import CorpusStats
from .models import Passage, SearchFilters, SearchMode, SearchResponse, SearchResult
from .retrieval import Retriever, make_retriever, mmr_order
from .scoping import Grant, Visibility
from .store import FRESH_INTERVAL, KnowledgeStore, _names, _reopener, make_client, where_clause

log = structlog.get_logger(__name__)


class Library:
    """Every collection this process searches, opened on first use and shared by all scopes."""

    def __init__(self, settings: Settings, embedder, *, client=None) -> None:
        self.settings, self.embedder = settings, embedder
        self._client = client
        self._stores: dict[str, KnowledgeStore] = {}
        self._retrievers: dict[str, Retriever] = {}
        self._listed: tuple[float, set[str]] | None = None  # (when, collection names)
        self._warned: set[str] = set()
        self._pool: ThreadPoolExecutor | None = None
        self._closed = False
        self._lock = threading.Lock()

    @property
    def pool(self) -> ThreadPoolExecutor:
        """Searches the collections of one query at once (Chroma and numpy release the GIL for most of it)."""
        with self._lock:
            if self._closed:  # a new pool here would outlive the process's shutdown (nothing closes it again)
                raise RuntimeError("the collection library is closed")
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=max(2, self.settings.max_workers),
                                                thread_name_prefix="collection")
            return self._pool

    @property
    def client(self):
        if self._client is None:
            self._client = make_client(self.settings)
        return self._client

    def store(self, name: str) -> KnowledgeStore:
        with self._lock:
            if name not in self._stores:
                s = self.settings
                self._stores[name] = KnowledgeStore(self.client, name, self.embedder, reopen=_reopener(s),
                                                    path=None if s.chroma_url else s.chroma_path)
            return self._stores[name]

    def retriever(self, name: str) -> Retriever:
        store = self.store(name)
        with self._lock:
            if name not in self._retrievers:
                self._retrievers[name] = make_retriever(self.settings, store)
            return self._retrievers[name]

    def existing(self, names: Sequence[str]) -> list[str]:
        """Which of `names` exist (the listing is reused for FRESH_INTERVAL: every subagent's search asks)."""
        now = time.monotonic()
        with self._lock:
            cached = self._listed
        if cached is None or now - cached[0] >= FRESH_INTERVAL or not set(names) <= cached[1]:
            cached = (now, _names(self.client))
            with self._lock:
                self._listed = cached
        return [n for n in names if n in cached[1]]

    def note_missing(self, names) -> None:
        """A rule names a collection that does not exist (yet): said once per name, searched as empty."""
        for name in names:
            if name not in self._warned:
                self._warned.add(name)
                log.warning("scope.collection_missing", collection=name,
                            fix=f"synthbot ingest PATH --collection {name}, or remove it from the channel rules")

    def close(self) -> None:
        with self._lock:
            pool, self._pool, self._closed = self._pool, None, True
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def search(self, visibility: Visibility) -> "ScopedSearch":
        return ScopedSearch(self, visibility.grants)

    def view(self, visibility: Visibility) -> "ScopedView":
        return ScopedView(self, visibility.grants)


def missing_error(names: Sequence[str]) -> KnowledgeBaseMissing:
    listed = ", ".join(f"'{n}'" for n in names)
    return KnowledgeBaseMissing(f"no knowledge base {listed} yet — run `synthbot ingest PATH --collection "
                                f"{names[0]}` first" if len(names) == 1 else
                                f"none of the collections {listed} exists yet — run `synthbot ingest PATH "
                                "--collection NAME` for them first")


class ScopedSearch:
    """The search backend (Retriever.search's signature) over the visible collections, merged on one scale.

    One collection is searched exactly as a plain Retriever would (plus the rule's tags); several get the shared
    BM25 statistics, each returns its best, and the best overall are kept (the same chunk in two collections
    counts once). A collection that does not exist yet is skipped; if none exists, KnowledgeBaseMissing.
    """

    def __init__(self, library: Library, grants: Sequence[Grant]) -> None:
        self.library = library
        self.grants = tuple(grants)
        self.name = "+".join(g.collection for g in self.grants)

    def parts(self) -> list[tuple[Retriever, Grant]]:
        names = [g.collection for g in self.grants]
        have = set(self.library.existing(names))
        if not have:
            raise missing_error(names)
        self.library.note_missing(n for n in names if n not in have)
        return [(self.library.retriever(g.collection), g) for g in self.grants if g.collection in have]

    def search(self, query: str, *, k: int = 5, mode: SearchMode = "hybrid", threshold: float = 0.0,
               diversity: float = 0.0, filters: SearchFilters | None = None, length_weight: float = 0.0,
               with_embeddings: bool = False, debug: bool = False) -> SearchResponse:
        parts = self.parts()
        own = filters or SearchFilters()
        if len(parts) == 1:
            retriever, grant = parts[0]
            return retriever.search(query, k=k, mode=mode, threshold=threshold, diversity=diversity,
                                    filters=own.narrowed(grant.tags), length_weight=length_weight,
                                    with_embeddings=with_embeddings, debug=debug)
        corpus = None
        if mode != "dense" or length_weight > 0:
            corpus = CorpusStats.over([r.lexical.snapshot() for r, _ in parts], query)
        # With MMR, diversity is judged over the merged list: each collection gives its best by relevance.
        each = max(4 * k, 20) if diversity > 0 else k
        # debug=True: each result's raw BM25 and cosine break ties exactly as one Retriever would (cheap).
        def one(part):
            r, g = part
            return r.search(query, k=each, mode=mode, threshold=threshold, filters=own.narrowed(g.tags),
                            length_weight=length_weight, with_embeddings=with_embeddings or diversity > 0,
                            debug=True, corpus=corpus)

        responses = list(self.library.pool.map(one, parts))
        merged: dict[str, SearchResult] = {}
        for resp in responses:
            for r in resp.results:
                if r.id not in merged or r.score > merged[r.id].score:
                    merged[r.id] = r
        ranked = sorted(merged.values(), key=_rank_key)
        if diversity > 0 and len(ranked) > 1:
            head = [r for r in ranked[:max(4 * k, 20)] if r.embedding is not None]
            order = mmr_order(np.array([r.score for r in head]), np.array([r.embedding for r in head], np.float32),
                              k, diversity)
            ranked = [head[i] for i in order]
        results = [r.model_copy(update={"rank": n, "embedding": r.embedding if with_embeddings else None,
                                        "debug": r.debug if debug else None})
                   for n, r in enumerate(ranked[:k], start=1)]
        out = SearchResponse(query=query, mode=mode, k=k, results=results)
        if not results:
            out.warnings = list(dict.fromkeys(w for resp in responses for w in resp.warnings))
        if debug:
            out.debug = {"collections": [g.key for _, g in parts], "corpus_chunks": corpus.size if corpus else None,
                         "per_collection": {g.collection: resp.debug for (_, g), resp in zip(parts, responses)}}
        log.info("search.scoped", collections=len(parts), results=len(results))
        return out

    def following(self, passages: Sequence[Passage]) -> list[SearchResult]:
        """Retriever.following over the visible collections: each passage's next chunk from the collection it came
        from (a passage names its collection in metadata; each retriever takes only its own)."""
        return [r for retriever, _ in self.parts() for r in retriever.following(passages)]

    def preceding(self, passages: Sequence[Passage]) -> list[SearchResult]:
        """Retriever.preceding over the visible collections, as `following`."""
        return [r for retriever, _ in self.parts() for r in retriever.preceding(passages)]

    def warm(self) -> None:
        """Load every visible collection's Chroma and BM25 index now (serve's warm-up)."""
        for retriever, _ in self.parts():
            retriever.search("warm up", k=1, mode="hybrid")


def _rank_key(r: SearchResult) -> tuple:
    """Retriever's order: score, then raw BM25, then cosine (ties at a clamped 0 or 1), then id."""
    d = r.debug or {}
    return (-r.score, -(d.get("bm25") or 0.0), -(d.get("dense_score") or 0.0), r.id)


class ScopedView:
    """The visible chunks, read like one store (name, revision, scan): what explore and coverage read."""

    def __init__(self, library: Library, grants: Sequence[Grant]) -> None:
        self.library = library
        self.grants = tuple(grants)
        self.name = "+".join(g.collection for g in self.grants)
        self.embedder = library.embedder

    def _present(self) -> list[Grant]:
        have = set(self.library.existing([g.collection for g in self.grants]))
        if not have:
            raise missing_error([g.collection for g in self.grants])
        return [g for g in self.grants if g.collection in have]

    def exists(self) -> bool:
        return bool(self.library.existing([g.collection for g in self.grants]))

    def revision(self) -> str:
        """Changes when any visible collection changes (each keeps its own stamp)."""
        return "|".join(f"{g.collection}={self.library.store(g.collection).revision()}" for g in self._present())

    def scan(self, *, include_documents: bool = True, where: dict | None = None) -> Iterator[tuple[list, list, list]]:
        """Pages of (ids, documents, metadatas) from every visible collection, tags applied, `collection` added."""
        for g in self._present():
            scoped = where_clause(SearchFilters(any_tags=list(g.tags))) if g.tags else None
            clause = scoped if where is None else where if scoped is None else {"$and": [where, scoped]}
            for ids, docs, metas in self.library.store(g.collection).scan(include_documents=include_documents,
                                                                          where=clause):
                yield ids, docs, [{**(m or {}), "collection": g.collection} for m in metas]

    def info(self) -> dict[str, Any]:
        return {"collection": self.name, "collections": [g.key for g in self.grants]}

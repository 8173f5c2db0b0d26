"""Search: dense (Chroma) + lexical (BM25) fused on a 0-1 scale, with filters, MMR, length weighting and debug.

Synchronous and thread-safe: async callers use `asyncio.to_thread(retriever.search, ...)`. What the score means in
each mode is documented in docs/RETRIEVAL.md; the fusion constants are chosen on SciFact *train* by
benchmarks/tune_fusion.py.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import structlog

from .errors import InvalidQuery
from .lexical import CorpusStats, LexicalIndex
from .ingest.documents import chunk_id
from .models import Passage, SearchFilters, SearchMode, SearchResponse, SearchResult
from .store import KnowledgeStore, where_clause

log = structlog.get_logger(__name__)

MODES = ("hybrid", "dense", "lexical")
SPARE = 3  # MMR orders k + SPARE, so chunks deleted since they were ranked can be replaced in diversity order


@dataclass(frozen=True)
class Fusion:
    """How dense and lexical evidence combine (see benchmarks/tune_fusion.py for how these were chosen)."""

    # Chosen on SciFact train (809 queries) by `python -m benchmarks.tune_fusion`: nDCG@10 0.745 on a flat plateau
    # (w 0.45-0.65 with the matching scale all within 0.001); per-query min-max fusion 0.740, RRF 0.723.
    dense_weight: float = 0.65  # hybrid = w * dense + (1 - w) * lexical, both already on 0-1
    lexical_scale: float = 2.0  # lexical = min(1, scale * bm25 / best possible bm25 for the query's terms)
    pool: int = 100  # candidates fetched from each side before fusing


DEFAULT_FUSION = Fusion()


@dataclass
class Candidate:
    id: str
    dense: float | None = None  # cosine similarity
    dense_rank: int | None = None
    lexical_raw: float = 0.0  # BM25
    lexical: float | None = None  # 0-1
    lexical_rank: int | None = None
    words: int | None = None
    content: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    embedding: np.ndarray | None = None
    score: float = 0.0


def lexical_score(raw: np.ndarray | float, ceiling: float, scale: float = 1.0) -> np.ndarray:
    """BM25 as a share of the best score any chunk could get for this query's terms, scaled and capped at 1."""
    raw = np.asarray(raw, dtype=np.float64)
    if ceiling <= 0:
        return np.zeros_like(raw)
    return np.clip(raw / ceiling * scale, 0.0, 1.0)


def length_factor(words: int, weight: float) -> float:
    """Gently penalise very short chunks: up to `weight`/2 off for a one-word chunk, nothing from 40 words up."""
    if weight <= 0:
        return 1.0
    return 1.0 - 0.5 * weight * max(0.0, 1.0 - words / 40.0)


def mmr_order(relevance: np.ndarray, vectors: np.ndarray, k: int, diversity: float) -> list[int]:
    """Maximal marginal relevance: trade relevance for novelty against what is already picked (0 = off)."""
    lam = 1.0 - diversity
    sims = vectors @ vectors.T
    picked: list[int] = []
    best_sim = np.full(len(relevance), -np.inf)
    left = np.ones(len(relevance), dtype=bool)
    for _ in range(min(k, len(relevance))):
        gain = lam * relevance - (1.0 - lam) * best_sim if picked else relevance.astype(np.float64)
        gain = np.where(left, gain, -np.inf)
        i = int(np.argmax(gain))
        picked.append(i)
        left[i] = False
        best_sim = np.maximum(best_sim, sims[i])
    return picked


PRECEDES = "precedes"  # metadata of a chunk fetched as the one before a retrieved passage: that passage's id
CONTINUES = "continues"  # metadata of a chunk fetched as the next one of a retrieved passage: that passage's id


class Retriever:
    """Dense + lexical search over one KnowledgeStore.

    Args:
        store: the knowledge base (its embedder embeds queries).
        lexical: the BM25 index; by default an in-memory one derived from the store (see `make_retriever`).
        fusion: fusion constants; the default is the choice made on SciFact train.

    Example:
        >>> resp = Retriever(store).search("how do I page the on-call?", k=5)
        >>> resp.results[0].rank, resp.results[0].score
    """

    def __init__(self, store: KnowledgeStore, *, lexical: LexicalIndex | None = None,
                 fusion: Fusion = DEFAULT_FUSION) -> None:
        self.store = store
        self.lexical = lexical if lexical is not None else LexicalIndex(store)
        self.fusion = fusion

    def search(self, query: str, *, k: int = 5, mode: SearchMode = "hybrid", threshold: float = 0.0,
               diversity: float = 0.0, filters: SearchFilters | None = None, length_weight: float = 0.0,
               with_embeddings: bool = False, debug: bool = False, corpus: CorpusStats | None = None) -> SearchResponse:
        """Best `k` chunks for `query`; every score on 0-1. Raises InvalidQuery, KnowledgeBaseMissing, ModelMismatch.

        `corpus`: BM25 statistics shared by several collections searched together (synthesis.library), so this
        collection's scores compare with theirs; None scores within this collection alone.
        """
        _validate(query, k, mode, threshold, diversity, length_weight)
        started = time.perf_counter()
        timings: dict[str, float] = {}
        info: dict[str, Any] = {}
        where = where_clause(filters)
        self.store.collection()  # raises KnowledgeBaseMissing / ModelMismatch before any work
        pool = max(self.fusion.pool, 4 * k if diversity > 0 else k)  # MMR needs room to pick from
        need = max(4 * k, 20)  # MMR picks from this many of the best
        cands: dict[str, Candidate] = {}
        qvec: np.ndarray | None = None

        if mode in ("hybrid", "dense"):
            t = time.perf_counter()
            qvec = self.store.embedder.embed([query], query=True)[0]
            timings["embed"] = _ms(t)
            t = time.perf_counter()
            # Ids and distances only: text and metadata are fetched for the final few (most of a query's cost).
            # No count() to cap n_results: Chroma returns fewer when there are fewer, and count costs ~5 ms at 100k.
            got = self.store.read("query", lambda coll: coll.query(
                query_embeddings=np.asarray([qvec], dtype=np.float32), where=where, n_results=pool,
                include=["distances"]))
            for rank, (cid, dist) in enumerate(zip(got["ids"][0], got["distances"][0]), start=1):
                cands[cid] = Candidate(cid, dense=1.0 - float(dist), dense_rank=rank)
            timings["dense"] = _ms(t)
            info["dense_candidates"] = len(cands)

        if mode in ("hybrid", "lexical") or length_weight > 0:
            t = time.perf_counter()
            self._lexical(query, pool, filters, cands, info, rank_only=mode == "dense", corpus=corpus)
            timings["lexical"] = _ms(t)

        t = time.perf_counter()
        if mode == "hybrid":
            self._exact_dense(cands, qvec, info)
        ranked = sorted((c for c in cands.values() if mode != "hybrid" or c.dense is not None),
                        # Ties (lexical shares clamp at 1.0) fall back to raw BM25, then cosine, so rank order survives.
                        key=lambda c: (-self._score(c, mode, length_weight), -(c.lexical_raw or 0.0),
                                       -(c.dense or 0.0), c.id))
        timings["fuse"] = _ms(t)
        best = ranked[0].score if ranked else None
        kept = [c for c in ranked if c.score >= threshold]
        if diversity > 0 and len(kept) > 1:
            t = time.perf_counter()
            kept = self._mmr(kept[:need], k + SPARE, diversity)
            timings["mmr"] = _ms(t)
        t = time.perf_counter()
        kept = self._fetch(kept, k, embeddings=with_embeddings, info=info)
        timings["fetch"] = _ms(t)
        results = [_result(c, rank, with_embeddings, debug, self.store.name) for rank, c in enumerate(kept, start=1)]

        resp = SearchResponse(query=query, mode=mode, k=k, results=results)
        if not results:
            reason = self._why_empty(filters, best, threshold, info)
            resp.warnings.append(reason)
            info["empty_reason"] = reason
        timings["total"] = _ms(started)
        log.info("search.done", mode=mode, k=k, results=len(results), ms=timings["total"])
        if debug:
            resp.debug = {
                "model": self.store.embedder.name, "dimension": self.store.embedder.dimension,
                "collection": self.store.name, "filters": filters.model_dump() if filters else None,
                "where": where, "timings_ms": timings, "fusion": self.fusion.__dict__, "pool": pool,
                "best_score": best, "threshold": threshold, **info,
            }
        return resp

    def preceding(self, passages: Sequence[Passage]) -> list[SearchResult]:
        """The chunk right before each passage in its document (the same version), where there is one and this
        collection holds it, scored as the passage it leads into and naming it in metadata[PRECEDES]: chunking can
        cut a section's opening (what it is about, when it began) from the part of it that ranked."""
        return self._adjacent(passages, -1, PRECEDES)

    def following(self, passages: Sequence[Passage]) -> list[SearchResult]:
        """The chunk right after each passage in its document (the same version: chunk ids carry the document's
        hash), where there is one and this collection holds it, scored as the passage it continues and naming it
        in metadata[CONTINUES]: chunking can cut a list from the sentence that announces it ("… follow the steps
        and guidelines below." ends one chunk, the steps open the next)."""
        return self._adjacent(passages, 1, CONTINUES)

    def _adjacent(self, passages: Sequence[Passage], step: int, key: str) -> list[SearchResult]:
        parents = {chunk_id(p.doc_id, str(p.metadata["doc_hash"]), p.chunk_index + step): p for p in passages
                   if 0 <= p.chunk_index + step < p.chunk_count and p.metadata.get("doc_hash")
                   and p.metadata.get("collection", self.store.name) == self.store.name}
        if not parents:
            return []
        kept = self._fetch([Candidate(id=cid, score=p.score) for cid, p in parents.items()], len(parents),
                           embeddings=False, info={})
        out = [_result(c, rank, False, False, self.store.name) for rank, c in enumerate(kept, start=1)]
        return [r.model_copy(update={"metadata": {**r.metadata, key: parents[r.id].id}}) for r in out]

    # --- stages ----------------------------------------------------------------------------------------
    def _lexical(self, query: str, pool: int, filters, cands: dict[str, Candidate], info: dict, *,
                 rank_only: bool = False, corpus: CorpusStats | None = None) -> None:
        """BM25 candidates (unless `rank_only`), and every candidate's exact BM25 and word count."""
        snap = self.lexical.snapshot()
        if corpus is None:
            terms = snap.query_terms(query)
            raw = snap.scores(terms)
            ceiling = snap.idf_sum(terms)
        else:  # the idf of all the collections searched together, so scores compare across them
            terms, factors = corpus.for_snapshot(snap)
            raw = snap.scores(terms, factors)
            ceiling = corpus.ceiling
        info.update(lexical_terms=int(len(terms)), lexical_size=snap.size, lexical_revision=snap.revision)
        if not rank_only:
            mask = snap.allowed(filters)
            eligible = raw if mask is None else np.where(mask, raw, 0.0)
            if mask is not None:
                info["lexical_filtered"] = int(mask.sum())
            hits = np.flatnonzero(eligible > 0)
            if len(hits) > pool:
                hits = hits[np.argpartition(-eligible[hits], pool - 1)[:pool]]
            hits = hits[np.argsort(-eligible[hits], kind="stable")]
            info["lexical_candidates"] = int(len(hits))
            for rank, row in enumerate(hits, start=1):
                cid = snap.ids[row]
                c = cands.get(cid) or cands.setdefault(cid, Candidate(cid))
                c.lexical_rank = rank
        scale = self.fusion.lexical_scale
        for c in cands.values():  # dense hits outside the lexical pool still get their exact BM25
            row = snap.row_of.get(c.id)
            if row is not None:
                c.lexical_raw, c.words = float(raw[row]), int(snap.words[row])
            c.lexical = float(lexical_score(c.lexical_raw, ceiling, scale))

    def _exact_dense(self, cands: dict[str, Candidate], qvec, info: dict) -> None:
        """Exact cosine, from stored vectors, for every lexical candidate the dense pool did not return.

        No chunk is left out on a bound: HNSW is approximate, so a chunk outside the dense pool can have a higher
        cosine than the pool's lowest, and a bound that depends on k made the top k differ from the head of the
        top 2k. Scoring every candidate keeps the ranking a function of the candidates alone, whatever k is.
        """
        missing = [c for c in cands.values() if c.dense is None]
        info["exact_dense"] = len(missing)
        if missing:
            self._vectors(missing)
            for c in missing:
                if c.embedding is not None:
                    c.dense = float(c.embedding @ qvec)

    def _score(self, c: Candidate, mode: str, length_weight: float) -> float:
        dense = min(1.0, max(0.0, c.dense)) if c.dense is not None else 0.0
        lexical = c.lexical or 0.0
        w = self.fusion.dense_weight
        score = dense if mode == "dense" else lexical if mode == "lexical" else w * dense + (1 - w) * lexical
        if length_weight > 0 and c.words is not None:
            score *= length_factor(c.words, length_weight)
        c.score = float(score)
        return c.score

    def _fetch(self, ranked: list[Candidate], k: int, *, embeddings: bool, info: dict) -> list[Candidate]:
        """The best `k` of `ranked` that still exist, with text and metadata (and vectors if asked).

        One Chroma get of k ids in the common case; ids Chroma no longer has (deleted after the lexical snapshot
        was taken, or by a concurrent ingest) are dropped and the next ranked candidates fetched in their place.
        """
        include = ["documents", "metadatas"] + (["embeddings"] if embeddings else [])
        live: list[Candidate] = []
        start = gone = 0
        while len(live) < k and start < len(ranked):
            batch = ranked[start:start + k - len(live)]
            start += len(batch)
            got = self.store.read("get", lambda coll: coll.get(ids=[c.id for c in batch], include=include))
            by_id = {c.id: c for c in batch}
            for i, cid in enumerate(got["ids"]):
                c = by_id[cid]
                c.content, c.meta = got["documents"][i] or "", got["metadatas"][i] or {}
                if embeddings:
                    c.embedding = np.asarray(got["embeddings"][i], dtype=np.float32)
            found = set(got["ids"])
            gone += sum(1 for c in batch if c.id not in found)
            live += [c for c in batch if c.id in found]
        if gone:
            info["stale_dropped"] = gone
            log.info("search.stale_dropped", chunks=gone)
        return live[:k]

    def _vectors(self, cands: list[Candidate]) -> None:
        """Stored embeddings only (no text): the cheap kind of Chroma get."""
        if not cands:
            return
        got = self.store.read("get", lambda coll: coll.get(ids=[c.id for c in cands], include=["embeddings"]))
        by_id = {cid: np.asarray(e, dtype=np.float32) for cid, e in zip(got["ids"], got["embeddings"])}
        for c in cands:
            c.embedding = by_id.get(c.id)

    def _mmr(self, kept: list[Candidate], k: int, diversity: float) -> list[Candidate]:
        head = kept[:max(4 * k, 20)]  # as many as _exact_dense made sure to score exactly
        self._vectors([c for c in head if c.embedding is None])
        head = [c for c in head if c.embedding is not None]
        order = mmr_order(np.array([c.score for c in head]), np.stack([c.embedding for c in head]), k, diversity)
        return [head[i] for i in order]

    def _why_empty(self, filters, best: float | None, threshold: float, info: dict) -> str:
        if self.store.read("count", lambda coll: coll.count()) == 0:
            return f"knowledge base '{self.store.name}' is empty — run `synthbot ingest PATH`"
        if best is not None:
            return f"no result reached the threshold {threshold:.2f}; the best score seen was {best:.2f}"
        if filters is not None and not filters.is_empty():
            return "the filters excluded every chunk — loosen --source/--where/--tag"
        if info.get("lexical_terms") == 0 and "dense_candidates" not in info:
            return "no query word appears in the knowledge base — try other words or --mode hybrid"
        return "nothing matched the query"


def make_retriever(settings, store: KnowledgeStore, *, fusion: Fusion = DEFAULT_FUSION) -> Retriever:
    """The entry point's Retriever: the lexical index cached under `settings.home / "lexical"`."""
    return Retriever(store, lexical=LexicalIndex(store, cache_dir=Path(settings.home) / "lexical"), fusion=fusion)


def _validate(query: str, k: int, mode: str, threshold: float, diversity: float, length_weight: float) -> None:
    if not isinstance(query, str) or not query.strip():
        raise InvalidQuery("the query is empty — give some words to search for, e.g. `synthbot search \"deploy rollback\"`")
    if mode not in MODES:
        raise InvalidQuery(f"unknown search mode '{mode}' — use one of {', '.join(MODES)}")
    if k < 1:
        raise InvalidQuery(f"k must be at least 1 (got {k}) — pass --k 5 for example")
    for name, value in (("threshold", threshold), ("diversity", diversity), ("length_weight", length_weight)):
        if not 0.0 <= value <= 1.0:
            raise InvalidQuery(f"{name} must be between 0 and 1 (got {value}) — scores and weights are on 0-1")


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000, 2)


def _result(c: Candidate, rank: int, with_embeddings: bool, debug: bool, collection: str) -> SearchResult:
    m = {**c.meta, "collection": collection}  # which collection it came from (several may be searched together)
    return SearchResult(
        rank=rank, score=round(c.score, 4), id=c.id, doc_id=str(m.get("doc_id", "")), content=c.content or "",
        title=str(m.get("title") or ""), source_url=str(m.get("source_url") or ""), section=str(m.get("section") or ""),
        chunk_index=int(m.get("chunk_index") or 0), chunk_count=int(m.get("chunk_count") or 1), metadata=dict(m),
        embedding=c.embedding.tolist() if with_embeddings and c.embedding is not None else None,
        debug={"dense_rank": c.dense_rank, "dense_score": None if c.dense is None else round(c.dense, 4),
               "lexical_rank": c.lexical_rank, "lexical_score": None if c.lexical is None else round(c.lexical, 4),
               "bm25": round(c.lexical_raw, 4)} if debug else None,
    )

"""The lexical (BM25) index, derived from the Chroma collection: cached on disk by revision, rebuilt when stale.

Chroma stays the single source of truth. The index records the store revision it was built from; a search checks
the revision (throttled) and rebuilds or reloads when another process has written, so processes sharing one
Chroma server agree. Metadata columns are kept in memory beside the index so filters apply to lexical hits exactly
as Chroma's `where` applies them to dense hits.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import structlog

from .models import SearchFilters

log = structlog.get_logger(__name__)

TOKENIZER_VERSION = "2"  # bump when tokenisation or index layout changes: cached indexes then rebuild
_TOKEN = re.compile(r"\w\w+")  # bm25s' default pattern: words of two or more characters
DEFAULT_K1, DEFAULT_B = 1.2, 0.75


# bm25s' STOPWORDS_EN (Lucene's English set), copied: importing bm25s.stopwords imports all of bm25s and scipy
# (~0.4 s), which a query only needs when it has to build the index. tests/kb/test_lexical_stopwords.py keeps it equal.
STOPWORDS_EN = frozenset((
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it", "no", "not", "of",
    "on", "or", "such", "that", "the", "their", "then", "there", "these", "they", "this", "to", "was", "will", "with",
))


def _stopwords() -> frozenset[str]:
    return STOPWORDS_EN


class Tokenizer:
    """Lower-case words, English stopwords removed, Snowball-stemmed (one stemmer per thread: PyStemmer is not thread-safe)."""

    def __init__(self) -> None:
        self._stop = _stopwords()
        self._local = threading.local()

    def _stemmer(self):
        st = getattr(self._local, "stemmer", None)
        if st is None:
            import Stemmer

            st = self._local.stemmer = Stemmer.Stemmer("english")
        return st

    def __call__(self, text: str) -> list[str]:
        words = [w for w in _TOKEN.findall(text.lower()) if w not in self._stop]
        return self._stemmer().stemWords(words) if words else []


def lexical_text(document: str | None, meta: dict[str, Any]) -> str:
    """What BM25 sees: the title and section (repeated on every chunk, so a chunk matches its document's name) + text."""
    return f"{meta.get('title') or ''}\n{meta.get('section') or ''}\n{document or ''}"


@dataclass
class LexicalSnapshot:
    """An immutable built index: BM25 postings (CSC), chunk ids and metadata columns, for one store revision."""

    revision: str
    ids: list[str]
    columns: dict[str, list[Any]]
    tag_rows: dict[str, np.ndarray]
    data: np.ndarray
    indices: np.ndarray
    indptr: np.ndarray
    vocab: dict[str, int]
    words: np.ndarray  # whitespace-separated words per chunk text (for length weighting without fetching text)
    tokenizer: Tokenizer = field(default_factory=Tokenizer, repr=False)
    _row_of: dict[str, int] | None = field(default=None, repr=False)
    _column_arrays: dict[str, np.ndarray] = field(default_factory=dict, repr=False)

    @property
    def size(self) -> int:
        return len(self.ids)

    @property
    def row_of(self) -> dict[str, int]:
        if self._row_of is None:
            self._row_of = {cid: i for i, cid in enumerate(self.ids)}
        return self._row_of

    def _column(self, key: str) -> np.ndarray:
        arr = self._column_arrays.get(key)
        if arr is None:
            values = self.columns.get(key)
            arr = np.empty(self.size, dtype=object)
            if values is not None:
                arr[:] = values
            self._column_arrays[key] = arr
        return arr

    def query_terms(self, query: str) -> np.ndarray:
        """Vocabulary ids of the query's distinct known terms."""
        ids = {self.vocab[t] for t in self.tokenizer(query) if t in self.vocab}
        return np.fromiter(sorted(ids), dtype=np.int64, count=len(ids))

    def idf_sum(self, terms: np.ndarray) -> float:
        """The highest BM25 score any chunk could get for these terms (each term's saturating tf factor is < 1)."""
        n = self.size
        df = self.indptr[terms + 1] - self.indptr[terms]
        return float(np.sum(idf(n, df))) if len(terms) else 0.0

    def document_frequency(self, term: str) -> int:
        """How many chunks contain the (tokenised) term."""
        i = self.vocab.get(term)
        return 0 if i is None else int(self.indptr[i + 1] - self.indptr[i])

    def scores(self, terms: np.ndarray, factors: np.ndarray | None = None) -> np.ndarray:
        """BM25 score of every chunk (bincount over the query's posting lists: one vectorised pass).

        `factors` (one per term) rescale each term's weights: searching several collections together, each term's
        own idf is swapped for the idf over all of them (see `CorpusStats`).
        """
        if not len(terms) or not self.size:
            return np.zeros(self.size, dtype=np.float32)
        starts, ends = self.indptr[terms], self.indptr[terms + 1]
        rows = np.concatenate([self.indices[s:e] for s, e in zip(starts, ends)])
        if factors is None:
            weights = np.concatenate([self.data[s:e] for s, e in zip(starts, ends)])
        else:
            weights = np.concatenate([self.data[s:e] * f for s, e, f in zip(starts, ends, factors)])
        return np.bincount(rows, weights=weights, minlength=self.size).astype(np.float32)

    def allowed(self, filters: SearchFilters | None) -> np.ndarray | None:
        """Rows passing the filters (None = all), with the same equality semantics as the Chroma where clause."""
        if filters is None or filters.is_empty():
            return None
        mask = np.ones(self.size, dtype=bool)
        conditions: list[tuple[str, Any]] = [(f"tag:{t}", True) for t in filters.tags]
        if filters.source_url:
            conditions.append(("source_url", filters.source_url))
        conditions += list(filters.where.items())
        if filters.any_tags:
            keep = np.zeros(self.size, dtype=bool)
            for tag in filters.any_tags:
                rows = self.tag_rows.get(tag)
                if rows is not None:
                    keep[rows] = True
            mask &= keep
        for key, value in conditions:
            if key.startswith("tag:"):
                rows = self.tag_rows.get(key[4:])
                keep = np.zeros(self.size, dtype=bool)
                if rows is not None and value is True:
                    keep[rows] = True
                elif rows is not None and value is False:  # a stored flag is only ever True
                    keep[:] = False
                mask &= keep
            else:
                col = self._column(key)
                if isinstance(value, bool):  # True must not match 1, as in Chroma
                    mask &= np.fromiter((v is value for v in col), dtype=bool, count=self.size)
                else:
                    mask &= np.asarray(col == value, dtype=bool)
        return mask


def idf(size: int, df: int | np.ndarray) -> np.ndarray | float:
    """bm25s' "lucene" idf, the one baked into every snapshot's weights."""
    return np.log1p((size - np.asarray(df, dtype=np.float64) + 0.5) / (np.asarray(df, dtype=np.float64) + 0.5))


@dataclass(frozen=True)
class CorpusStats:
    """BM25 term statistics over several collections searched together, for one query.

    Each collection's index bakes its own idf into its weights, so the same words would weigh differently in each
    and their scores would not compare. Searching together, every term gets the idf it would have in one index
    holding all the collections (`size` chunks, `df` of them containing it); each collection's length normalisation
    (its own average chunk length) is kept, the one figure that stays per collection.
    """

    size: int
    df: dict[str, int]  # the query's terms → chunks containing them, over every collection

    @classmethod
    def over(cls, snapshots: "list[LexicalSnapshot]", query: str) -> "CorpusStats":
        tokenize = snapshots[0].tokenizer if snapshots else Tokenizer()  # one stemmer per thread, reused
        terms = list(dict.fromkeys(tokenize(query)))
        return cls(size=sum(s.size for s in snapshots),
                   df={t: sum(s.document_frequency(t) for s in snapshots) for t in terms})

    @property
    def ceiling(self) -> float:
        """The highest BM25 any chunk could get for the query's terms, over all the collections."""
        known = [d for d in self.df.values() if d > 0]
        return float(np.sum(idf(self.size, np.asarray(known)))) if known else 0.0

    def for_snapshot(self, snap: "LexicalSnapshot") -> tuple[np.ndarray, np.ndarray]:
        """(the snapshot's term ids for the query, the factor turning each term's own idf into the shared one)."""
        ids, factors = [], []
        for term, df in self.df.items():
            i = snap.vocab.get(term)
            if i is None or df <= 0:
                continue
            own = float(idf(snap.size, snap.document_frequency(term)))
            ids.append(i)
            factors.append(float(idf(self.size, df)) / own if own > 0 else 0.0)
        return np.asarray(ids, dtype=np.int64), np.asarray(factors, dtype=np.float64)


def build_snapshot(revision: str, batches, *, k1: float = DEFAULT_K1, b: float = DEFAULT_B) -> LexicalSnapshot:
    """Tokenise the scanned (ids, documents, metadatas) pages and build BM25 postings with bm25s."""
    import logging

    import bm25s

    logging.getLogger("bm25s").setLevel(logging.WARNING)  # bm25s sets its own logger to DEBUG on import
    tok = Tokenizer()
    ids: list[str] = []
    columns: dict[str, list[Any]] = {}
    tags: dict[str, list[int]] = {}
    corpus: list[list[str]] = []
    words: list[int] = []
    seen: set[str] = set()
    for page_ids, docs, metas in batches:
        for cid, doc, meta in zip(page_ids, docs, metas):
            if cid in seen:  # offset paging under concurrent writes may repeat a row
                continue
            seen.add(cid)
            row = len(ids)
            ids.append(cid)
            meta = meta or {}
            for key, value in meta.items():
                if key.startswith("tag:"):
                    tags.setdefault(key[4:], []).append(row)
                else:
                    columns.setdefault(key, [None] * row).append(value)
            for values in columns.values():
                if len(values) <= row:
                    values.append(None)
            corpus.append(tok(lexical_text(doc, meta)))
            words.append(len((doc or "").split()))
    if ids:
        bm = bm25s.BM25(k1=k1, b=b, method="lucene")
        bm.index(corpus, show_progress=False)
        scores, vocab = bm.scores, bm.vocab_dict
        data, indices, indptr = scores["data"], scores["indices"], scores["indptr"]
    else:
        data, indices, indptr, vocab = (np.zeros(0, np.float32), np.zeros(0, np.int32), np.zeros(1, np.int64), {})
    return LexicalSnapshot(
        revision=revision, ids=ids, columns=columns,
        tag_rows={t: np.asarray(r, dtype=np.int64) for t, r in tags.items()},
        data=np.asarray(data, np.float32), indices=np.asarray(indices, np.int64), indptr=np.asarray(indptr, np.int64),
        vocab=vocab, words=np.asarray(words, dtype=np.int32), tokenizer=tok,
    )


# --- on-disk cache -----------------------------------------------------------------------------------
_ARRAYS = ("data", "indices", "indptr", "words")


def _save(snap: LexicalSnapshot, target: Path) -> None:
    """Write to a temporary sibling then rename, so a concurrent reader never sees a half-written index."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".tmp-", dir=target.parent))
    try:
        for name in _ARRAYS:
            np.save(tmp / f"{name}.npy", getattr(snap, name))
        meta = {"revision": snap.revision, "ids": snap.ids, "columns": snap.columns, "vocab": snap.vocab,
                "tags": {t: r.tolist() for t, r in snap.tag_rows.items()}}
        (tmp / "meta.json").write_text(json.dumps(meta, separators=(",", ":")))
        try:
            os.rename(tmp, target)
        except OSError:  # another process saved the same revision first: theirs is as good as ours
            shutil.rmtree(tmp, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _load(source: Path) -> LexicalSnapshot:
    meta = json.loads((source / "meta.json").read_text())
    # mmap: the postings stay in the page cache, shared by every process serving the same collection
    arrays = {name: np.load(source / f"{name}.npy", mmap_mode="r") for name in _ARRAYS}
    return LexicalSnapshot(
        revision=meta["revision"], ids=meta["ids"], columns=meta["columns"], vocab=meta["vocab"],
        tag_rows={t: np.asarray(r, dtype=np.int64) for t, r in meta["tags"].items()}, **arrays,
    )


class LexicalIndex:
    """BM25 over a KnowledgeStore's collection, kept in step with the store's revision.

    Args:
        store: the KnowledgeStore the index is derived from.
        cache_dir: where built indexes are cached (e.g. `settings.home / "lexical"`); None keeps them in memory only.
        check_interval: seconds between revision checks; 0 checks on every search.
    """

    def __init__(self, store, *, cache_dir: Path | None = None, check_interval: float = 1.0,
                 k1: float = DEFAULT_K1, b: float = DEFAULT_B) -> None:
        self.store = store
        self.cache_dir = Path(cache_dir) if cache_dir is not None else None
        self.check_interval = check_interval
        self.k1, self.b = k1, b
        self._snap: LexicalSnapshot | None = None
        self._checked_at = 0.0
        self._lock = threading.Lock()
        self.builds = 0  # how many times this instance built from Chroma (tests and debug read it)

    def _cache_path(self, revision: str) -> Path | None:
        if self.cache_dir is None:
            return None
        key = hashlib.sha1(f"{TOKENIZER_VERSION}|{self.k1}|{self.b}|{revision}".encode()).hexdigest()[:16]
        return self.cache_dir / f"{self.store.name}@{key}"

    def snapshot(self) -> LexicalSnapshot:
        """The current index, rebuilt (or loaded from the cache) when the store's revision has moved on."""
        snap = self._snap
        if snap is not None and time.monotonic() - self._checked_at < self.check_interval:
            return snap
        with self._lock:
            snap = self._snap
            if snap is not None and time.monotonic() - self._checked_at < self.check_interval:
                return snap  # another thread refreshed while we waited
            revision = self.store.revision()
            self._checked_at = time.monotonic()
            if snap is None or snap.revision != revision:
                self._snap = snap = self._load_or_build(revision)
            return snap

    def _load_or_build(self, revision: str) -> LexicalSnapshot:
        path = self._cache_path(revision)
        if path is not None and (path / "meta.json").is_file():
            started = time.perf_counter()
            try:
                snap = _load(path)
                log.info("lexical.loaded", collection=self.store.name, chunks=snap.size,
                         seconds=round(time.perf_counter() - started, 3))
                return snap
            except (OSError, ValueError, KeyError) as exc:  # a corrupt cache is rebuilt, never trusted
                log.warning("lexical.cache_unreadable", path=str(path), error=str(exc))
        started = time.perf_counter()
        snap = build_snapshot(revision, self.store.scan(include_documents=True), k1=self.k1, b=self.b)
        self.builds += 1
        log.info("lexical.built", collection=self.store.name, chunks=snap.size, vocab=len(snap.vocab),
                 seconds=round(time.perf_counter() - started, 3))
        if path is not None:
            try:
                _save(snap, path)
                self._prune(keep=path)
            except OSError as exc:  # read-only data dir: the in-memory index still serves
                log.warning("lexical.cache_unwritable", path=str(path), error=str(exc))
        return snap

    def _prune(self, *, keep: Path) -> None:
        """Drop cached indexes of older revisions of this collection (readers holding an mmap keep their pages)."""
        for old in keep.parent.glob(f"{self.store.name}@*"):
            if old != keep:
                shutil.rmtree(old, ignore_errors=True)

"""The ingest pipeline: read → decide per document (skip / repair / write) → chunk → embed in large batches →
upsert → delete superseded chunks → prune. Crash-safe because chunk ids include the document hash and old chunks
are only deleted after all of a document's new chunks are stored."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import structlog
from pydantic import BaseModel, Field

from ..store import DocState, KnowledgeStore
from .chunking import Chunker, Planned, TokenCounts, token_starts
from .documents import Document, SkippedFile, chunk_id, display_path
from .loaders import Loaded, discover, load_file, resolve_roots

log = structlog.get_logger(__name__)

EMBED_BATCH = 1024  # chunks per embed+upsert round: large enough for length-sorted batching, small enough to stream
TOKENIZE_BATCH = 256  # documents per fast-tokenizer call
# Test hook (documented in tests/kb/test_ingest_crash.py): seconds to sleep after every store write, so a test can
# SIGKILL the process at a known point. Never set it in production.
PAUSE_ENV = "SYNTHBOT_INGEST_TEST_PAUSE"

Progress = Callable[[str, int, int], None]


class IngestReport(BaseModel):
    """What one ingest run did (`synthbot ingest --json` prints this)."""

    collection: str = ""
    model: str = ""
    files: int = 0
    documents: int = 0
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    removed: int = 0
    chunks: int = 0
    embedded: int = 0
    reused_embeddings: int = 0
    deleted_chunks: int = 0
    skipped: list[SkippedFile] = Field(default_factory=list)
    seconds: float = 0.0
    embed_seconds: float = 0.0


def _unchanged(doc: Document, state: DocState | None) -> bool:
    """Stored exactly as this version would be: same hash and the full expected id set (no chunking needed)."""
    if state is None or state.hashes != {doc.doc_hash} or state.expected_count < 1:
        return False
    return state.ids == {chunk_id(doc.doc_id, doc.doc_hash, i) for i in range(state.expected_count)}


def _under(path: str, roots: Sequence[Path]) -> bool:
    p = Path(path)
    return any(p == r or r in p.parents for r in roots)


class _Run:
    """One ingest: holds the store, the report and the write bookkeeping."""

    def __init__(self, store: KnowledgeStore, progress: Progress | None, batch_size: int,
                 max_file_bytes: int | None = None) -> None:
        self.store = store
        self.max_file_bytes = max_file_bytes
        self.progress = progress or (lambda stage, done, total: None)
        self.batch_size = max(1, batch_size)
        self.pause = float(os.environ.get(PAUSE_ENV) or 0)
        self.report = IngestReport(collection=store.name, model=store.embedder.name)
        self.wrote = False

    def _after_write(self) -> None:
        self.wrote = True
        if self.pause:
            time.sleep(self.pause)

    def delete(self, ids: Sequence[str]) -> None:
        if ids:
            self.store.delete(list(ids))
            self.report.deleted_chunks += len(ids)
            self._after_write()

    def load(self, roots: Sequence[Path]) -> list[Loaded]:
        files, skipped = discover(roots)
        self.report.skipped += skipped
        self.report.files = len(files)
        embedder = self.store.embedder
        loaded = []
        for i, path in enumerate(files, 1):
            item = self._too_large(path) or load_file(path, model=embedder.name, dimension=embedder.dimension)
            self.report.skipped += item.skipped
            for s in item.skipped:
                log.info("ingest.skipped", path=s.path, reason=s.reason)
            loaded.append(item)
            self.progress("read", i, len(files))
        return loaded

    def _too_large(self, path: Path) -> Loaded | None:
        """A file over the size limit is skipped before it is read (a 50 MB text took 5.7 GB and 40 minutes)."""
        try:
            size = os.stat(path).st_size
        except OSError:
            return None  # load_file reports why it cannot be read
        if self.max_file_bytes is None or size <= self.max_file_bytes:
            return None
        mb, limit = size / 2**20, self.max_file_bytes / 2**20
        reason = (f"too large: {mb:.1f} MB is over the {limit:g} MB limit — split it, or raise SYNTHBOT_MAX_FILE_MB "
                  "to ingest it anyway")
        return Loaded(path, skipped=[SkippedFile(path=display_path(path), reason=reason)], complete=False)

    def plan(self, docs: list[Document], states: dict[str, DocState]) -> tuple[list[Planned], dict[str, set[str]]]:
        """Chunk every document that is not already stored exactly; return the chunks to embed and, per document,
        the stored ids to delete once its new chunks are all written."""
        chunker = Chunker(self.store.embedder)
        todo: list[Planned] = []
        stale: dict[str, set[str]] = {}
        pending = []
        for doc in docs:
            if _unchanged(doc, states.get(doc.doc_id)):
                self.report.unchanged += 1
                self.report.chunks += states[doc.doc_id].expected_count
            else:
                pending.append(doc)
        for start in range(0, len(pending), TOKENIZE_BATCH):
            batch = pending[start:start + TOKENIZE_BATCH]
            chunker.warm(batch)
            for doc, starts in zip(batch, token_starts(self.store.embedder, [d.text for d in batch])):
                planned = chunker.chunk(doc, TokenCounts(starts))
                state = states.get(doc.doc_id)
                stored = state.ids if state else set()
                if state is None:
                    self.report.added += 1
                else:
                    self.report.updated += 1
                self.report.chunks += len(planned)
                # Chunks already stored under this exact hash (a rerun after a crash) need no embedding.
                todo += [p for p in planned if p.chunk.id not in stored]
                stale[doc.doc_id] = stored - {p.chunk.id for p in planned}
            self.progress("chunk", min(start + TOKENIZE_BATCH, len(pending)), len(pending))
        return todo, stale

    def write(self, todo: list[Planned], stale: dict[str, set[str]]) -> None:
        """Embed longest-first in large batches (little padding), upsert each batch, then retire superseded chunks
        of every document whose new chunks are now all stored."""
        remaining: dict[str, int] = {doc_id: 0 for doc_id in stale}
        for p in todo:
            remaining[p.chunk.doc_id] += 1
        for doc_id, n in remaining.items():  # nothing to embed: only leftovers of an older version to delete
            if n == 0:
                self.delete(sorted(stale[doc_id]))
        todo = sorted(todo, key=lambda p: -p.tokens)
        embedder = self.store.embedder
        done = 0
        self.progress("embed", 0, len(todo))
        for start in range(0, len(todo), self.batch_size):
            batch = todo[start:start + self.batch_size]
            vectors = np.zeros((len(batch), embedder.dimension), dtype=np.float32)
            fresh = [i for i, p in enumerate(batch) if p.vector is None]
            for i, p in enumerate(batch):
                if p.vector is not None:
                    vectors[i] = p.vector
            started = time.perf_counter()
            if fresh:
                vectors[fresh] = embedder.embed([batch[i].embed_text for i in fresh])
            embed_s = time.perf_counter() - started
            self.report.embed_seconds += embed_s
            self.report.embedded += len(fresh)
            self.report.reused_embeddings += len(batch) - len(fresh)
            started = time.perf_counter()
            self.store.upsert([p.chunk for p in batch], vectors)
            self._after_write()
            finished = []
            for p in batch:
                remaining[p.chunk.doc_id] -= 1
                if remaining[p.chunk.doc_id] == 0:
                    finished.append(p.chunk.doc_id)
            self.delete(sorted(i for doc_id in finished for i in stale[doc_id]))
            done += len(batch)
            log.info("ingest.batch", chunks=len(batch), embedded=len(fresh), embed_seconds=round(embed_s, 3),
                     write_seconds=round(time.perf_counter() - started, 3))
            self.progress("embed", done, len(todo))
            self.store.bump_revision()  # periodic: readers of a long ingest see it progress


def ingest(store: KnowledgeStore, paths: Sequence[str | Path], *, prune: bool = False,
           progress: Progress | None = None, batch_size: int = EMBED_BATCH,
           max_file_bytes: int | None = None) -> IngestReport:
    """Ingest files and directories into `store`; safe to rerun at any time, including after a crash.

    Args:
        store: the knowledge base (its embedder embeds; the collection is created on first write).
        paths: files and/or directories (walked recursively, hidden entries skipped).
        prune: also remove stored documents whose source file under `paths` no longer exists.
        progress: called as `progress(stage, done, total)` with stage in "read", "chunk", "embed".
        batch_size: chunks per embed+upsert round.
        max_file_bytes: files larger than this are skipped with the reason (None: no limit; the CLI passes
            SYNTHBOT_MAX_FILE_MB).

    Raises IngestError when a path does not exist (nothing is written), ModelMismatch when the collection was built
    with another model. Bad files never raise: they are listed in `report.skipped`.

    Example:
        >>> report = ingest(store, ["examples/"], prune=True)
        >>> report.added, report.unchanged, report.skipped
    """
    started = time.perf_counter()
    roots = resolve_roots(paths)
    states = store.doc_states()  # one metadata pass; also refuses a collection built with another model
    run = _Run(store, progress, batch_size, max_file_bytes)
    log.info("ingest.start", paths=[display_path(r) for r in roots], collection=store.name, stored_docs=len(states))
    loaded = run.load(roots)

    docs: dict[str, Document] = {}
    origin: dict[str, str] = {}
    for item in loaded:
        for doc in item.documents:
            if doc.doc_id in docs:
                run.report.skipped.append(SkippedFile(
                    path=display_path(item.path), reason=f"duplicate doc_id '{doc.doc_id}' (first seen in "
                                                         f"{origin[doc.doc_id]}); give each document a unique id"))
                continue
            docs[doc.doc_id] = doc
            origin[doc.doc_id] = display_path(item.path)
    run.report.documents = len(docs)

    # Documents that vanished: from a file that was read completely this time (the file changed its ids), or,
    # with prune, from a file under `paths` that no longer exists. Files that failed to read keep their documents.
    complete = {str(item.path) for item in loaded if item.complete}
    gone = [doc_id for doc_id, st in states.items() if doc_id not in docs and st.source_file and (
        st.source_file in complete or (prune and _under(st.source_file, roots) and not os.path.lexists(st.source_file)))]

    todo, stale = run.plan(list(docs.values()), states)
    run.write(todo, stale)
    if gone:
        run.delete(sorted(i for doc_id in gone for i in states[doc_id].ids))
        run.report.removed = len(gone)
    if run.wrote:
        store.bump_revision()
    run.report.seconds = round(time.perf_counter() - started, 3)
    run.report.embed_seconds = round(run.report.embed_seconds, 3)
    log.info("ingest.done", **run.report.model_dump(exclude={"skipped"}), skipped=len(run.report.skipped))
    return run.report

"""Inquiry synthesis: one cited, bounded-context synthesis per question of a QUESTION.md, with a record of the
paragraphs each one used and of the paragraphs no question reached.

Questions are embedded in one batch through a persistent cache (a rerun embeds nothing it has seen), each question
retrieves `k` paragraphs (hybrid search, MMR diversity), the agent's synthesizer writes from a numbered context
within the token budget, and verification keeps only citations into that context.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import structlog
from pydantic import BaseModel, Field

from .config import Settings
from .errors import QuestionFileError
from .questions import QuestionSet, load_questions
from .usage import UsageEvent, UsageLog, record_safely

log = structlog.get_logger(__name__)

Progress = Callable[[int, int, str], None]  # (done, total, question text)
_CITED = re.compile(r"\[(\d+)\]")


# --- the inquiry spec's JSON ---------------------------------------------------------------------------
class RetrievedParagraph(BaseModel):
    index: int  # the paragraph's position in the knowledge base (see `paragraph_indices`)
    source_file: str
    content: str
    similarity_score: float  # cosine similarity of question and paragraph embeddings


class InquiryQuestion(BaseModel):
    question_id: str
    question_text: str
    metadata: dict[str, Any] = Field(default_factory=dict)
    question_embedding: list[float] | None = None  # only with include_embeddings
    retrieved_paragraphs: list[RetrievedParagraph] = Field(default_factory=list)
    context_tokens: int = 0
    synthesis: str = ""
    synthesis_tokens: int = 0
    needs_review: bool = False


class InquiryCoverage(BaseModel):
    total_paragraphs: int
    retrieved_paragraphs: int
    retrieval_rate: float
    unretrieved_indices: list[int] = Field(default_factory=list)


class InquiryResult(BaseModel):
    inquiry_id: str
    questions: list[InquiryQuestion]
    coverage: InquiryCoverage
    title: str = Field(default="", exclude=True)
    warnings: list[str] = Field(default_factory=list, exclude=True)  # printed, not part of the spec's JSON
    seconds: float = Field(default=0.0, exclude=True)

    def to_json(self) -> str:
        """The spec's fields exactly; `question_embedding` only when it was asked for."""
        data = self.model_dump(mode="json")
        for q in data["questions"]:
            if q["question_embedding"] is None:
                del q["question_embedding"]
        return json.dumps(data, indent=2, ensure_ascii=False)


# --- the embedding cache -------------------------------------------------------------------------------
class EmbeddingCache:
    """Query vectors by (model, text) in SQLite, so a rerun of the same questions embeds nothing."""

    def __init__(self, path: str | Path) -> None:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None, timeout=10)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, vector BLOB NOT NULL)")
        self._lock = threading.Lock()

    @staticmethod
    def key(model: str, text: str) -> str:
        return hashlib.sha256(f"{model}\x00{text}".encode()).hexdigest()

    def get_many(self, keys: Sequence[str]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        with self._lock:
            for start in range(0, len(keys), 500):
                part = list(keys[start:start + 500])
                marks = ",".join("?" * len(part))
                for key, blob in self._db.execute(f"SELECT key, vector FROM vectors WHERE key IN ({marks})", part):
                    out[key] = np.frombuffer(blob, dtype=np.float32)
        return out

    def put_many(self, items: dict[str, np.ndarray]) -> None:
        with self._lock:
            self._db.executemany("INSERT OR REPLACE INTO vectors (key, vector) VALUES (?, ?)",
                                 [(k, np.asarray(v, dtype=np.float32).tobytes()) for k, v in items.items()])

    def close(self) -> None:
        with self._lock:
            self._db.close()


class CachedEmbedder:
    """An Embedder whose query vectors come from the cache when it has them (documents are never cached)."""

    def __init__(self, embedder, cache: EmbeddingCache) -> None:
        self._embedder, self._cache = embedder, cache
        self.misses = 0

    def __getattr__(self, name: str):  # name, dimension, max_tokens, count_tokens, tokenizer
        if name == "_embedder":
            raise AttributeError(name)
        return getattr(self._embedder, name)

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        if not query:
            return self._embedder.embed(texts)
        keys = [EmbeddingCache.key(self._embedder.name, t) for t in texts]
        found = self._cache.get_many(keys)
        todo = [i for i, k in enumerate(keys) if k not in found]
        if todo:  # one batch for everything not cached yet
            vectors = self._embedder.embed([texts[i] for i in todo], query=True)
            self._cache.put_many({keys[i]: vectors[n] for n, i in enumerate(todo)})
            found.update({keys[i]: np.asarray(vectors[n], dtype=np.float32) for n, i in enumerate(todo)})
            self.misses += len(todo)
        return np.stack([found[k] for k in keys]) if keys else np.zeros((0, self._embedder.dimension), np.float32)


# --- running an inquiry --------------------------------------------------------------------------------
def resolve_question_file(path_or_id: str | Path, settings: Settings) -> tuple[Path, str | None]:
    """A path (a file, or a directory holding QUESTION.md), or an inquiry id looked up in the usual places."""
    path = Path(path_or_id)
    if path.exists():
        return (path / "QUESTION.md" if path.is_dir() else path), None
    name = str(path_or_id)
    tried = [settings.home / "inquiries" / name / "QUESTION.md", Path("inquiries") / name / "QUESTION.md",
             Path(name) / "QUESTION.md", Path(f"{name}.md")]
    for candidate in tried:
        if candidate.is_file():
            return candidate, name
    if path.is_absolute():  # a path that is not there (joined to the id's places it named itself twice)
        raise QuestionFileError(f"no question file at {path} — check the path, or give an inquiry id such as INQ-007")
    raise QuestionFileError(f"no question file '{name}' — give a QUESTION.md path, or put it at "
                            + " or ".join(str(t) for t in tried[:2]))


def paragraph_indices(store) -> tuple[dict[str, int], dict[str, str]]:
    """Every chunk's stable position in the knowledge base (ordered by document, then chunk), and its source file."""
    rows = []
    for ids, _docs, metas in store.scan(include_documents=False):
        for cid, m in zip(ids, metas):
            m = m or {}
            # The document id reads like the file (relative path, BEIR _id, paragraph source_file); ingest may have
            # stored the source file as an absolute path.
            rows.append((str(m.get("doc_id") or m.get("source_file") or ""), str(m.get("doc_id", "")),
                         int(m.get("chunk_index") or 0), cid))
    rows.sort()
    return {cid: i for i, (_s, _d, _c, cid) in enumerate(rows)}, {cid: s for s, _d, _c, cid in rows}


def synthesis_text(synthesis, renumber: dict[int, int]) -> str:
    """Summary, findings, contradictions and gaps as plain text; [n] points into `retrieved_paragraphs` (1-based)."""
    def cite(text: str) -> str:
        return _CITED.sub(lambda m: f"[{renumber.get(int(m.group(1)), int(m.group(1)))}]", text)

    def marks(text: str, numbers: list[int]) -> str:
        return "" if _CITED.search(text) or not numbers else " " + "".join(f"[{renumber.get(n, n)}]" for n in numbers)

    lines = [cite(synthesis.summary.strip())] if synthesis.summary.strip() else []
    lines += [f"- {cite(f.content)}{marks(f.content, f.citations)}" for f in synthesis.findings]
    lines += [f"- Sources disagree: {cite(c.description)}{marks(c.description, c.citations)}"
              for c in synthesis.contradictions]
    lines += [f"- Not covered: {cite(g)}" for g in synthesis.gaps]
    return "\n".join(lines)


class InquiryRunner:
    """Runs inquiries over one knowledge base with the agent's synthesizer and token counter.

    Args:
        settings: data dir (embedding cache) and context budget.
        store: the knowledge base.
        agent: a synthesis.agent.Agent; its `synthesizer` and `counter` are used (one synthesis per question).
        usage: the retrieval log (None records nothing).
    """

    def __init__(self, settings: Settings, store, agent, *, usage: UsageLog | None = None) -> None:
        from .retrieval import make_retriever
        from .store import KnowledgeStore

        self.settings, self.agent, self.usage = settings, agent, usage
        self.cache = EmbeddingCache(settings.home / "cache" / "query_embeddings.sqlite3")
        self.embedder = CachedEmbedder(store.embedder, self.cache)
        self.store = KnowledgeStore(store.client, store.name, self.embedder)
        self.retriever = make_retriever(settings, self.store)

    def close(self) -> None:
        self.cache.close()

    def run(self, questions: QuestionSet, *, inquiry_id: str, k: int = 7, threshold: float = 0.6,
            diversity: float = 0.3, weight_length: bool = False, include_embeddings: bool = False,
            progress: Progress | None = None) -> InquiryResult:
        started = time.perf_counter()
        self.store.collection()  # KnowledgeBaseMissing ("run synthbot ingest PATH first") before any work
        index, source = paragraph_indices(self.store)
        texts = [q.text for q in questions.questions]
        vectors = self.embedder.embed(texts, query=True)  # one batch; the searches below hit the cache
        result = InquiryResult(inquiry_id=inquiry_id, questions=[], title=questions.title,
                               coverage=InquiryCoverage(total_paragraphs=len(index), retrieved_paragraphs=0,
                                                        retrieval_rate=0.0))
        used = asyncio.run(self._all(questions, vectors, index, source, result, k=k, threshold=threshold,
                                     diversity=diversity, weight_length=weight_length,
                                     include_embeddings=include_embeddings, progress=progress))
        total = len(index)
        result.coverage = InquiryCoverage(
            total_paragraphs=total, retrieved_paragraphs=len(used & set(index)),
            retrieval_rate=round(len(used & set(index)) / total, 4) if total else 0.0,
            unretrieved_indices=sorted(i for cid, i in index.items() if cid not in used))
        result.seconds = round(time.perf_counter() - started, 3)
        log.info("inquiry.done", inquiry=inquiry_id, questions=len(texts), seconds=result.seconds,
                 embedded=self.embedder.misses)
        return result

    async def _all(self, questions: QuestionSet, vectors: np.ndarray, index: dict[str, int], source: dict[str, str],
                   result: InquiryResult, *, k: int, threshold: float, diversity: float, weight_length: bool,
                   include_embeddings: bool, progress: Progress | None) -> set[str]:
        """The questions one after another (each already has its vector); returns every paragraph id retrieved."""
        used: set[str] = set()
        total = len(questions.questions)
        for n, (question, qvec) in enumerate(zip(questions.questions, vectors), start=1):
            out, passages, cited = await self._one(question, qvec, index, source, k=k, diversity=diversity,
                                                   weight_length=weight_length)
            if include_embeddings:
                out.question_embedding = [round(float(x), 6) for x in qvec]
            best = max((p.similarity_score for p in out.retrieved_paragraphs), default=0.0)
            if best < threshold:
                result.warnings.append(f"{question.id}: best similarity {best:.2f} is below the threshold "
                                       f"{threshold:.2f} — the knowledge base may not cover this question")
                log.info("inquiry.low_similarity", question=question.id, best=round(best, 4), threshold=threshold)
            used.update(p.id for p in passages)
            result.questions.append(out)
            await asyncio.to_thread(record_safely, self.usage, UsageEvent(
                kind="inquiry", surface="inquiry", collection=self.store.name, question=question.text,
                retrieved=[p.id for p in passages], cited=cited, no_answer=out.needs_review,
                confidence="low" if out.needs_review or best < threshold else "medium", best_score=round(best, 4)))
            if progress is not None:
                progress(n, total, question.text)
        return used

    async def _one(self, question, qvec: np.ndarray, index: dict[str, int], source: dict[str, str], *, k: int,
                   diversity: float, weight_length: bool):
        from .planner import plan as make_plan
        from .synthesize.context import build_context
        from .synthesize.extractive import decomposition
        from .verify import verify

        response = await asyncio.to_thread(self.retriever.search, question.text, k=k, diversity=diversity,
                                           length_weight=0.5 if weight_length else 0.0, with_embeddings=True)
        passages = [r for r in response.results if r.id in index]
        sims = [float(np.asarray(p.embedding, dtype=np.float32) @ qvec) if p.embedding is not None else p.score
                for p in passages]
        retrieved = [RetrievedParagraph(index=index[p.id], source_file=source.get(p.id) or p.doc_id,
                                        content=p.content, similarity_score=round(s, 4))
                     for p, s in zip(passages, sims)]
        out = InquiryQuestion(question_id=question.id, question_text=question.text, metadata=question.metadata,
                              retrieved_paragraphs=retrieved)
        counter = self.agent.counter
        context = build_context(passages, budget=self.settings.context_tokens, counter=counter)
        out.context_tokens = context.tokens
        if not context.sources:
            out.needs_review = True
            return out, passages, []
        planned = make_plan(question.text)
        outcome = await self.agent.synthesizer.synthesize(planned.standalone, context, sub_queries=planned.sub_queries)
        checked = verify(outcome.synthesis, context, question=planned.standalone,
                         aspects=decomposition(planned.standalone, planned.sub_queries) or [planned.standalone])
        position = {p.id: n for n, p in enumerate(passages, start=1)}
        renumber = {s.number: position[s.passage.id] for s in context.sources}
        synthesis = checked.synthesis
        if synthesis.findings:
            out.synthesis = synthesis_text(synthesis, renumber)
            out.synthesis_tokens = counter.count(out.synthesis)
        out.needs_review = not out.synthesis.strip()
        cited = [s.passage_id for s in synthesis.sources]
        return out, passages, cited


def synthesize_inquiry(path_or_id: str | Path, k: int = 7, threshold: float = 0.6, diversity: float = 0.3, *,
                       weight_length: bool = False, include_embeddings: bool = False, inquiry_id: str | None = None,
                       settings: Settings | None = None, store=None, agent=None, usage: UsageLog | None = None,
                       progress: Progress | None = None) -> InquiryResult:
    """One cited synthesis per question of a QUESTION.md (a path, or an inquiry id), as the inquiry spec's JSON.

    Example:
        >>> result = synthesize_inquiry("examples/QUESTION.md", k=7, threshold=0.6, diversity=0.3)
        >>> print(result.to_json())
    """
    settings = settings or Settings()
    path, named = resolve_question_file(path_or_id, settings)
    questions = load_questions(path)
    if store is None:
        from .store import open_store

        store = open_store(settings)
    if agent is None:
        from .agent import build_agent

        agent = build_agent(settings, store)
    the_id = inquiry_id or questions.inquiry_id or named or \
        "INQ-" + hashlib.sha1(path.read_bytes()).hexdigest()[:6].upper()
    runner = InquiryRunner(settings, store, agent, usage=usage)
    try:
        return runner.run(questions, inquiry_id=the_id, k=k, threshold=threshold, diversity=diversity,
                          weight_length=weight_length, include_embeddings=include_embeddings, progress=progress)
    finally:
        runner.close()

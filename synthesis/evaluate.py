"""Retrieval evaluation: BEIR datasets (nDCG@10, Recall@100, MRR@10, stage latency) and known-queries files.

Scoring is at document level: a document's score is its best chunk's score and each document counts once.
"""

from __future__ import annotations

import csv
import json
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import structlog
import yaml
from pydantic import BaseModel, Field, ValidationError, field_validator, model_validator

from .errors import EvaluationError
from .models import Passage, SearchMode

log = structlog.get_logger(__name__)

Qrels = Mapping[str, int]  # doc_id -> graded relevance for one query
STAGES = ("embed", "dense", "lexical", "fuse", "mmr", "fetch")  # Retriever's debug timings, in pipeline order


# --- metrics (trec_eval / pytrec_eval conventions: linear gain, relevant means grade > 0) ------------------
def dcg(gains: Sequence[float]) -> float:
    g = np.asarray(gains, dtype=np.float64)
    return float(np.sum(g / np.log2(np.arange(2, g.size + 2)))) if g.size else 0.0


def ndcg_at_k(ranking: Sequence[str], qrels: Qrels, k: int = 10) -> float:
    """nDCG@k of a ranked list of distinct doc ids against graded judgements."""
    ideal = dcg(sorted((r for r in qrels.values() if r > 0), reverse=True)[:k])
    return dcg([max(qrels.get(d, 0), 0) for d in ranking[:k]]) / ideal if ideal > 0 else 0.0


def recall_at_k(ranking: Sequence[str], qrels: Qrels, k: int = 100) -> float:
    relevant = {d for d, r in qrels.items() if r > 0}
    return len(relevant.intersection(ranking[:k])) / len(relevant) if relevant else 0.0


def mrr_at_k(ranking: Sequence[str], qrels: Qrels, k: int = 10) -> float:
    return next((1.0 / rank for rank, d in enumerate(ranking[:k], 1) if qrels.get(d, 0) > 0), 0.0)


def doc_ranking(passages: Sequence[Passage], *, exclude: set[str] | None = None) -> list[tuple[str, float]]:
    """Collapse chunks to documents: best chunk score per document, best first, each document once."""
    best: dict[str, float] = {}
    for p in passages:
        if exclude and p.doc_id in exclude:
            continue
        if p.doc_id not in best or p.score > best[p.doc_id]:
            best[p.doc_id] = p.score
    # sorted() is stable, so ties keep the retriever's order (first appearance).
    return sorted(best.items(), key=lambda kv: -kv[1])


def latency_summary(values_ms: Sequence[float]) -> dict[str, float]:
    if not values_ms:
        return {"p50": 0.0, "p95": 0.0, "mean": 0.0, "n": 0}
    v = np.asarray(values_ms, dtype=np.float64)
    return {"p50": round(float(np.percentile(v, 50)), 2), "p95": round(float(np.percentile(v, 95)), 2),
            "mean": round(float(v.mean()), 2), "n": int(v.size)}


def stage_timings(debug: Mapping[str, Any]) -> dict[str, float]:
    """Per-stage milliseconds from SearchResponse.debug (`timings_ms`, or `timings` in seconds)."""
    if isinstance(debug.get("timings_ms"), Mapping):
        return {k: float(v) for k, v in debug["timings_ms"].items() if isinstance(v, (int, float))}
    if isinstance(debug.get("timings"), Mapping):
        return {k: float(v) * 1000.0 for k, v in debug["timings"].items() if isinstance(v, (int, float))}
    return {}


# --- BEIR datasets ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class BeirDataset:
    """One split of a BEIR dataset directory: corpus.jsonl, queries.jsonl, qrels/<split>.tsv."""

    root: Path
    split: str
    queries: dict[str, str]  # only the queries judged in this split, in qrels order
    qrels: dict[str, dict[str, int]]

    @property
    def name(self) -> str:
        return self.root.name

    @property
    def corpus(self) -> Path:
        return self.root / "corpus.jsonl"

    def corpus_ids(self) -> Iterator[str]:
        with self.corpus.open(encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    yield str(json.loads(line)["_id"])


def load_beir(root: str | Path, split: str = "test") -> BeirDataset:
    """Read a BEIR directory; every missing piece is named in the error."""
    root = Path(root)
    if not root.is_dir():
        raise EvaluationError(f"BEIR directory {root} not found — pass a folder holding corpus.jsonl, queries.jsonl "
                              "and qrels/<split>.tsv (e.g. ../shared/eval/scifact)")
    qrels_path = root / "qrels" / f"{split}.tsv"
    missing = [str(p) for p in (root / "corpus.jsonl", root / "queries.jsonl", qrels_path) if not p.is_file()]
    if missing:
        splits = sorted(p.stem for p in (root / "qrels").glob("*.tsv")) if (root / "qrels").is_dir() else []
        hint = f" (splits present: {', '.join(splits)})" if splits else ""
        raise EvaluationError(f"{root} is not a complete BEIR dataset: missing {', '.join(missing)}{hint} — "
                              "choose another --split or download the dataset in BEIR layout")
    qrels: dict[str, dict[str, int]] = {}
    with qrels_path.open(encoding="utf-8", newline="") as fh:
        for row in csv.reader(fh, delimiter="\t"):
            if len(row) < 3 or row[0] == "query-id":
                continue
            qrels.setdefault(row[0], {})[row[1]] = int(row[2])
    texts: dict[str, str] = {}
    with (root / "queries.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                q = json.loads(line)
                texts[str(q["_id"])] = q["text"]
    unknown = [q for q in qrels if q not in texts]
    if unknown:
        raise EvaluationError(f"{qrels_path} judges {len(unknown)} queries missing from queries.jsonl "
                              f"(e.g. {unknown[0]}) — the dataset is inconsistent; re-download it")
    return BeirDataset(root=root, split=split, queries={q: texts[q] for q in qrels}, qrels=qrels)


def corpus_complete(store, dataset: BeirDataset) -> bool:
    """True when every corpus document is stored with all of its chunks (so ingest can be skipped)."""
    if not store.exists():
        return False
    states = store.doc_states()
    for doc_id in dataset.corpus_ids():
        st = states.get(doc_id)
        if st is None or len(st.ids) != st.expected_count:
            return False
    return True


def ensure_corpus(store, dataset: BeirDataset, *, progress: Callable[[str, int, int], None] | None = None):
    """Ingest the corpus unless it is already complete; returns the IngestReport, or None when skipped."""
    if corpus_complete(store, dataset):
        log.info("eval.corpus_complete", collection=store.name, dataset=dataset.name)
        return None
    from .ingest import ingest  # imported late: ingest pulls in every loader

    return ingest(store, [dataset.corpus], progress=progress)


class BeirResult(BaseModel):
    """One mode's scores on one split: mean nDCG@k, Recall@100 and MRR@k over the judged queries."""

    mode: SearchMode
    queries: int
    k: int = 10
    ndcg: float
    recall: float  # Recall@100
    mrr: float
    latency_ms: dict[str, dict[str, float]] = Field(default_factory=dict)  # stage -> {p50, p95, mean, n}
    underfilled: int = 0  # queries whose retrieved chunks covered fewer than 100 distinct documents
    seconds: float = 0.0
    per_query: dict[str, dict[str, float]] = Field(default_factory=dict, exclude=True)

    @property
    def metrics(self) -> dict[str, float]:
        return {f"ndcg@{self.k}": self.ndcg, "recall@100": self.recall, f"mrr@{self.k}": self.mrr}


def evaluate_beir(retriever, dataset: BeirDataset, *, mode: SearchMode = "hybrid", k: int = 10, depth: int = 200,
                  progress: Callable[[int, int], None] | None = None, limit: int | None = None) -> BeirResult:
    """Run every judged query through `retriever.search` and score the document-level ranking.

    Args:
        k: cut-off for nDCG and MRR (Recall is always @100).
        depth: chunks retrieved per query; enough to fill 100 distinct documents for Recall@100.
        limit: evaluate only the first N queries (for quick runs).
    """
    items = list(dataset.queries.items())[:limit]
    stages: dict[str, list[float]] = {}
    scores: dict[str, dict[str, float]] = {}
    underfilled = 0
    started = time.perf_counter()
    for done, (qid, text) in enumerate(items, 1):
        t0 = time.perf_counter()
        response = retriever.search(text, k=max(depth, k), mode=mode, debug=True)
        total_ms = (time.perf_counter() - t0) * 1000.0
        for stage, ms in stage_timings(response.debug).items():
            if stage != "total":  # ours below is the caller's wall clock, response building included
                stages.setdefault(stage, []).append(ms)
        stages.setdefault("total", []).append(total_ms)
        # BEIR drops a hit whose id equals the query id (ignore_identical_ids); we follow it so figures compare.
        ranking = [d for d, _ in doc_ranking(response.results, exclude={qid})]
        underfilled += len(ranking) < 100
        qrels = dataset.qrels[qid]
        scores[qid] = {"ndcg": ndcg_at_k(ranking, qrels, k), "recall": recall_at_k(ranking, qrels, 100),
                       "mrr": mrr_at_k(ranking, qrels, k)}
        if progress:
            progress(done, len(items))
    mean = {m: round(float(np.mean([s[m] for s in scores.values()])), 4) if scores else 0.0
            for m in ("ndcg", "recall", "mrr")}
    # Known stages in pipeline order, then any the retriever adds later, then the wall-clock total.
    ordered = [s for s in STAGES if s in stages] + sorted(set(stages) - {*STAGES, "total"}) + ["total"]
    result = BeirResult(
        mode=mode, queries=len(items), k=k, **mean, latency_ms={s: latency_summary(stages[s]) for s in ordered},
        underfilled=underfilled, seconds=round(time.perf_counter() - started, 2), per_query=scores,
    )
    log.info("eval.beir", dataset=dataset.name, split=dataset.split, mode=mode, queries=result.queries,
             **result.metrics, underfilled=underfilled)
    return result


# --- known queries ---------------------------------------------------------------------------------------
class KnownQuery(BaseModel):
    """A question the knowledge base must answer: the expected document must be in the top k results."""

    query: str
    expect_doc_id: str | None = None
    expect_source_url: str | None = None
    k: int = Field(5, ge=1, le=100)
    line: int = 0

    @field_validator("query")
    @classmethod
    def _not_blank(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("query is empty")
        return v

    @model_validator(mode="after")
    def _has_expectation(self) -> "KnownQuery":
        if not (self.expect_doc_id or self.expect_source_url):
            raise ValueError("needs expect_doc_id or expect_source_url")
        return self

    @property
    def expected(self) -> str:
        return self.expect_doc_id or self.expect_source_url or ""

    def matches(self, p: Passage) -> bool:
        return bool((self.expect_doc_id and p.doc_id == self.expect_doc_id)
                    or (self.expect_source_url and p.source_url == self.expect_source_url))


def _entry_lines(text: str) -> list[int]:
    """1-based line of each `queries:` entry, for error messages."""
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    for key, value in getattr(root, "value", []) if isinstance(root, yaml.MappingNode) else []:
        if key.value == "queries" and isinstance(value, yaml.SequenceNode):
            return [node.start_mark.line + 1 for node in value.value]
    return []


def load_known_queries(path: str | Path) -> list[KnownQuery]:
    """Parse a known-queries YAML file; errors name the line and entry at fault."""
    path = Path(path)
    if not path.is_file():
        raise EvaluationError(f"known-queries file {path} not found — pass a YAML file with a `queries:` list")
    text = path.read_text(encoding="utf-8")
    try:
        data = yaml.safe_load(text)
        lines = _entry_lines(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise EvaluationError(f"{path}:{where} is not valid YAML ({problem}) — fix the syntax there") from exc
    if not isinstance(data, dict) or not isinstance(data.get("queries"), list) or not data["queries"]:
        raise EvaluationError(f"{path}: expected a top-level `queries:` list of entries with `query` and "
                              "`expect_doc_id` or `expect_source_url` — see docs/BENCHMARKS.md")
    out: list[KnownQuery] = []
    for i, entry in enumerate(data["queries"]):
        line = lines[i] if i < len(lines) else 0
        where = f"{path}: line {line}, entry {i + 1}"
        if not isinstance(entry, dict):
            raise EvaluationError(f"{where}: expected a mapping with `query:`, got {type(entry).__name__}")
        typos = sorted(k for k in entry if str(k).startswith("expect") and k not in ("expect_doc_id", "expect_source_url"))
        if typos:
            raise EvaluationError(f"{where}: unknown key {typos[0]!r} — use expect_doc_id or expect_source_url")
        try:
            out.append(KnownQuery.model_validate({**entry, "line": line}))
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(x) for x in first["loc"])
            msg = first["msg"].removeprefix("Value error, ")
            raise EvaluationError(f"{where} ({entry.get('query', '?')!r}): {field + ': ' if field else ''}{msg} — "
                                  "fix this entry") from exc
    return out


class QueryOutcome(BaseModel):
    query: str
    expected: str
    k: int
    passed: bool
    rank: int | None = None  # 1-based rank of the first result that matches
    top: list[str] = Field(default_factory=list)  # what came back instead (doc ids), for failures
    line: int = 0


class KnownQueriesReport(BaseModel):
    mode: SearchMode
    outcomes: list[QueryOutcome]

    @property
    def passed(self) -> int:
        return sum(o.passed for o in self.outcomes)

    @property
    def failed(self) -> int:
        return len(self.outcomes) - self.passed

    @property
    def mrr(self) -> float:
        return round(sum(1.0 / o.rank for o in self.outcomes if o.rank) / max(len(self.outcomes), 1), 4)


def run_known_queries(retriever, queries: Sequence[KnownQuery], *, mode: SearchMode = "hybrid",
                      progress: Callable[[int, int], None] | None = None) -> KnownQueriesReport:
    """Search each query with its own k; it passes when an expected document is among those k results."""
    outcomes = []
    for done, q in enumerate(queries, 1):
        results = retriever.search(q.query, k=q.k, mode=mode).results
        rank = next((i for i, p in enumerate(results, 1) if q.matches(p)), None)
        outcomes.append(QueryOutcome(query=q.query, expected=q.expected, k=q.k, passed=rank is not None, rank=rank,
                                     top=[p.doc_id for p in results[:3]], line=q.line))
        if progress:
            progress(done, len(queries))
    report = KnownQueriesReport(mode=mode, outcomes=outcomes)
    log.info("eval.queries", mode=mode, passed=report.passed, failed=report.failed, mrr=report.mrr)
    return report

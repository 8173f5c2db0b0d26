"""The aggregator: relevance floor, near-duplicate removal, ranking, cap, sources by type, metrics.

The floor (settings.min_relevance, default 0.30) applies to the retriever's 0-1 hybrid score. It was chosen on the
demo handbook and SciFact so that off-topic questions ("What is the capital of France?") keep nothing while
on-topic sub-queries keep their answers; see docs/RETRIEVAL.md for what the score means.

Metrics are counts after each stage: total_input_results (every hit of every successful subagent),
filtered_results (distinct passages at or above the floor), deduplicated_count (left after near-duplicate removal);
`results` is then capped at max_passages.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np

from .models import AggregatedResults, AggregationMetrics, Passage, SubagentResult, headings

DUPLICATE_COSINE = 0.95
MULTI_HIT_BONUS = 0.02  # per extra subagent that found the same passage: agreement is weak evidence of relevance
MAX_BONUS = 0.06


def fingerprint(text: str) -> str:
    """Normalised text (lower case, punctuation and whitespace folded) hashed: equal for trivially different copies."""
    norm = re.sub(r"[\W_]+", " ", text.lower()).strip()
    return hashlib.blake2b(norm.encode(), digest_size=12).hexdigest()


def _unit(vec: Sequence[float]) -> np.ndarray:
    arr = np.asarray(vec, dtype=np.float32)
    norm = float(np.linalg.norm(arr))
    return arr / norm if norm else arr


def merge_hits(results: Sequence[SubagentResult]) -> tuple[dict[str, Passage], dict[str, set[str]], int]:
    """Best-scoring copy of every passage id across subagents, who found it, and the raw count."""
    best: dict[str, Passage] = {}
    found_by: dict[str, set[str]] = {}
    total = 0
    for res in results:
        if not res.success:
            continue
        for p in res.passages:
            total += 1
            found_by.setdefault(p.id, set()).add(res.subagent)
            if p.id not in best or p.score > best[p.id].score:
                keep_vec = p.embedding if p.embedding is not None else (best[p.id].embedding if p.id in best else None)
                best[p.id] = p.model_copy(update={"embedding": keep_vec})
    return best, found_by, total


def aggregate(results: Sequence[SubagentResult], *, min_relevance: float = 0.30, max_passages: int = 20,
              duplicate_cosine: float = DUPLICATE_COSINE) -> AggregatedResults:
    """Filter, dedupe, rank and cap the passages of all successful subagents.

    The rank score is the best score any subagent gave a passage plus a small bonus per extra subagent that found
    it; the passage's own `score` is left as retrieved, so the floor and confidence use the retriever's scale.
    """
    best, found_by, total = merge_hits(results)
    kept = [p for p in best.values() if p.score >= min_relevance]

    def rank_key(p: Passage) -> float:
        return p.score + min(MAX_BONUS, MULTI_HIT_BONUS * (len(found_by.get(p.id, ())) - 1))

    kept.sort(key=lambda p: (-rank_key(p), p.id))
    unique: list[Passage] = []
    prints: set[str] = set()
    vectors: list[np.ndarray] = []
    for p in kept:
        fp = fingerprint(p.content)
        vec = _unit(p.embedding) if p.embedding is not None else None
        near = vec is not None and any(float(vec @ other) >= duplicate_cosine for other in vectors)
        if fp in prints or near:
            continue
        prints.add(fp)
        if vec is not None:
            vectors.append(vec)
        unique.append(p.model_copy(update={"metadata": {**p.metadata, "found_by": sorted(found_by.get(p.id, ()))}}))
    capped = unique[:max_passages]
    by_type: dict[str, list[Passage]] = {}
    for p in capped:
        by_type.setdefault(p.source_type, []).append(p)
    metrics = AggregationMetrics(
        total_input_results=total,
        filtered_results=len(kept),
        deduplicated_count=len(unique),
        average_relevance=round(sum(p.score for p in capped) / len(capped), 4) if capped else 0.0,
        source_type_distribution={t: len(ps) for t, ps in by_type.items()},
    )
    return AggregatedResults(results=capped, sources_by_type=by_type, metrics=metrics)


def closest_topics(results: Sequence[SubagentResult], *, limit: int = 3) -> list[str]:
    """Titles/sections of the best-scoring passages, whatever their score: what to suggest when nothing passed."""
    best, _, _ = merge_hits(results)
    topics: list[str] = []
    for p in sorted(best.values(), key=lambda p: -p.score):
        section = headings(p.section)[-1].rstrip(" .")  # a heading may end in its own full stop
        parts = [p.title] + ([section] if section and section != p.title else [])
        label = " — ".join(x for x in parts if x) or p.doc_id
        if label not in topics:
            topics.append(label)
        if len(topics) >= limit:
            break
    return topics

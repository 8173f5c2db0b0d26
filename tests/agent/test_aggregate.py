"""Aggregator: relevance floor, near-duplicates (fingerprint and cosine), ranking, cap, metrics, types."""

from __future__ import annotations

from synthesis.aggregate import aggregate, closest_topics, fingerprint
from synthesis.models import SubagentResult

from .fakes import result


def _sub(name: str, *passages, success: bool = True) -> SubagentResult:
    return SubagentResult(subagent=name, success=success, passages=list(passages))


def test_floor_dedupe_rank_and_metrics():
    a = result(1, "Rollbacks must start within 15 minutes.", 0.80, vec=[1.0, 0.0, 0.0], type_="policy")
    a_copy = result(2, "ROLLBACKS must start, within 15 minutes!", 0.70, vec=[0.0, 1.0, 0.0])  # fingerprint twin
    near = result(3, "Rollback has to begin inside fifteen minutes.", 0.75, vec=[0.99, 0.05, 0.0])  # cosine twin
    other = result(4, "Deploys go through ferry.", 0.60, vec=[0.0, 0.0, 1.0], type_="guide")
    low = result(5, "Lunch is at noon.", 0.10, vec=[0.0, 0.7, 0.7])
    out = aggregate([_sub("s1", a, a_copy, low), _sub("s2", near, other, a), _sub("s3", success=False)],
                    min_relevance=0.3, max_passages=20)
    assert [p.id for p in out.results] == ["c1", "c4"]
    assert out.results[0].metadata["found_by"] == ["s1", "s2"]
    m = out.metrics
    assert m.total_input_results == 6
    assert m.filtered_results == 4  # c1, c2, c3, c4 pass the floor
    assert m.deduplicated_count == 2
    assert m.average_relevance == round((0.80 + 0.60) / 2, 4)
    assert m.source_type_distribution == {"policy": 1, "guide": 1}
    assert set(out.sources_by_type) == {"policy", "guide"}


def test_found_by_several_subagents_breaks_near_ties_and_cap_applies():
    solo = result(1, "solo passage text", 0.70)
    shared = result(2, "shared passage text", 0.69)
    many = [result(10 + i, f"filler number {i}", 0.5) for i in range(30)]
    out = aggregate([_sub("a", solo, shared, *many), _sub("b", shared), _sub("c", shared)], min_relevance=0.3,
                    max_passages=5)
    assert out.results[0].id == "c2"  # 0.69 + bonus for three subagents beats 0.70 alone
    assert out.results[0].score == 0.69  # the retriever's score is kept as is
    assert len(out.results) == 5


def test_nothing_above_floor_gives_empty_results_but_closest_topics():
    subs = [_sub("a", result(1, "Paris is in France", 0.12), result(2, "Other", 0.05))]
    out = aggregate(subs, min_relevance=0.3)
    assert out.results == [] and out.metrics.average_relevance == 0.0
    assert closest_topics(subs) == ["Doc 1 — Intro", "Doc 2 — Intro"]


def test_fingerprint_ignores_case_punctuation_and_spacing():
    assert fingerprint("Hello,   World!") == fingerprint("hello world")
    assert fingerprint("hello world") != fingerprint("hello there world")


def test_a_closest_topic_drops_its_headings_own_full_stop():
    """18F handbook: 'Suggested Agenda: 30 minutes, yours/theirs/future.' read as '… future..' in the summary."""
    p = result(1, "Bring your agenda.", 0.1).model_copy(
        update={"title": "One-on-Ones", "section": "Suggested Agenda: 30 minutes, yours/theirs/future."})
    assert closest_topics([_sub("a", p)]) == ["One-on-Ones — Suggested Agenda: 30 minutes, yours/theirs/future"]

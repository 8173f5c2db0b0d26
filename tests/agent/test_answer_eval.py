"""`synthbot eval answers`: graded questions scored as handbook-qa's README says, through the real agent."""

from __future__ import annotations

import json

import pytest

from synthesis.answer_eval import GradedQuestion, evaluate_answers, grade, load_graded_questions
from synthesis.errors import EvaluationError


def _q(**kw) -> GradedQuestion:
    return GradedQuestion(id="q", question="How many hours?", **kw)


def test_grading_follows_the_readme():
    q = _q(must_include=[["240"], ["annual leave", "vacation"]])
    assert grade(q, "You can carry over 240 hours of annual leave.", "", False) == "correct"
    assert grade(q, "You can carry over 240 hours.", "Annual  Leave rolls over.", False) == "partly"
    assert grade(q, "You can carry over some hours.", "Annual leave rolls over.", False) == "wrong"
    assert grade(q, "240 hours of annual leave", "", True) == "wrong"  # a refusal is never correct when answerable
    curly = _q(must_include=[["can't delete"]])
    assert grade(curly, "You can\u2019t delete it.", "", False) == "correct"  # curly quotes normalised
    unanswerable = _q(answerable=False)
    assert grade(unanswerable, "I couldn't find this.", "", True) == "correct"
    assert grade(unanswerable, "You get 5 days.", "", False) == "wrong"


def test_a_bad_question_file_names_its_lines(tmp_path):
    path = tmp_path / "q.jsonl"
    path.write_text('{"id": "a", "question": "ok?", "must_include": [["x"]]}\n{"id": "b"}\nnot json\n'
                    '{"id": "c", "question": "ok?", "must_include": [["x", ""]]}\n'
                    '{"id": "d", "question": "ok?"}\n')
    with pytest.raises(EvaluationError, match=r"4 bad line\(s\): line 2.*line 3.*line 4.*non-empty.*line 5.*needs "
                                              r"must_include") as err:
        load_graded_questions(path)
    assert "line 3: Invalid JSON" in str(err.value)  # not "line 3: object Invalid JSON"
    with pytest.raises(EvaluationError, match="no question file"):
        load_graded_questions(tmp_path / "missing.jsonl")


async def test_the_harness_scores_real_answers_on_the_demo_handbook(handbook_agent, tmp_path):
    path = tmp_path / "demo.jsonl"
    rows = [
        {"id": "d1", "question": "How quickly must a production rollback start after a failed health check?",
         "type": "number", "answerable": True, "must_include": [["15 minutes"]]},
        {"id": "d2", "question": "What is the capital of France?", "type": "unanswerable", "answerable": False,
         "must_include": []},
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    seen: list[tuple[int, int]] = []
    report = await evaluate_answers(handbook_agent.answer, load_graded_questions(path),
                                    progress=lambda done, total: seen.append((done, total)))
    by_id = {o.id: o for o in report.outcomes}
    assert by_id["d1"].grade in ("correct", "partly"), by_id["d1"].summary
    assert by_id["d2"].grade == "correct" and by_id["d2"].refused
    s = report.summary
    assert s["answerable"] == 1 and s["unanswerable_refused"] == 1 and s["wrongly_refused"] == 0
    assert s["by_type"]["unanswerable"] == {"correct": 1}
    assert seen == [(1, 2), (2, 2)]
    assert s["latency_p90"] >= s["latency_p50"] > 0

"""AnswerResult serialisation: what `--json` and stored results carry."""

from __future__ import annotations

import json

import pytest

from synthesis.models import AnswerResult, Quality, Synthesis


def answer(overall: float, **fields) -> AnswerResult:
    return AnswerResult(question="q", standalone_question="q", question_type="factual",
                        synthesis=Synthesis(summary="s", quality=Quality(overall=overall)), **fields)


@pytest.mark.parametrize(("overall", "fields", "expected"), [
    (0.9, {}, "high"), (0.9, {"low_confidence": True}, "medium"), (0.6, {}, "medium"), (0.2, {}, "low"),
    (0.9, {"no_answer": True}, "low")])
def test_answer_level_confidence_is_serialised(overall, fields, expected):
    result = answer(overall, **fields)
    assert json.loads(result.model_dump_json())["confidence"] == expected
    assert result.model_dump()["confidence"] == expected


def test_a_dumped_result_validates_back():
    result = answer(0.9)
    again = AnswerResult.model_validate_json(result.model_dump_json())
    assert again.confidence == "high" and again.id == result.id

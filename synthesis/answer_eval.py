"""Answer-quality evaluation: graded questions (handbook-qa format) run through the agent and scored.

A question file is JSON Lines, one object per line:
`{"id", "question", "type", "answerable", "must_include": [[alt, ...], ...], "files": [...], "answer"}`.
Scoring follows ../shared/eval/handbook-qa/README.md: an answerable question is *correct* when every
`must_include` group has an alternative in the summary, *partly* when every group is found in summary + findings,
*wrong* otherwise (a refusal included); an unanswerable one is *correct* only when the bot says it could not find it.
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Literal

import numpy as np
from pydantic import BaseModel, Field, ValidationError, model_validator

from .errors import EvaluationError
from .models import AnswerResult

Grade = Literal["correct", "partly", "wrong"]


class GradedQuestion(BaseModel):
    id: str
    question: str = Field(min_length=1)
    type: str = "fact"
    answerable: bool = True
    must_include: list[list[str]] = Field(default_factory=list)
    files: list[str] = Field(default_factory=list)
    answer: str = ""

    @model_validator(mode="after")
    def _gradable(self) -> "GradedQuestion":
        """An answerable question needs key facts, and no key fact may be empty (it would match anything)."""
        if self.answerable and not self.must_include:
            raise ValueError("an answerable question needs must_include groups")
        if any(not g or any(not a.strip() for a in g) for g in self.must_include):
            raise ValueError("must_include groups and alternatives must be non-empty")
        return self


class AnswerOutcome(BaseModel):
    id: str
    type: str
    answerable: bool
    question: str
    grade: Grade
    refused: bool
    confidence: str
    quality: float  # the overall quality behind the confidence label
    contradictions: int
    summary: str
    missing: list[list[str]] = Field(default_factory=list)  # must_include groups absent from summary + findings
    seconds: float
    context_tokens: int
    synthesizer: str


class AnswerReport(BaseModel):
    questions: int
    synthesizer: str
    outcomes: list[AnswerOutcome]

    def _answerable(self) -> list[AnswerOutcome]:
        return [o for o in self.outcomes if o.answerable]

    @property
    def summary(self) -> dict:
        """The figures the issue tracks, as one JSON-friendly dict."""
        answerable = self._answerable()
        unanswerable = [o for o in self.outcomes if not o.answerable]
        high = [o for o in self.outcomes if o.confidence == "high"]
        by_type: dict[str, dict[str, int]] = {}
        for o in self.outcomes:
            by_type.setdefault(o.type, Counter()).update([o.grade])
        seconds = [o.seconds for o in self.outcomes] or [0.0]
        tokens = [o.context_tokens for o in self.outcomes] or [0]
        return {
            "questions": self.questions,
            "synthesizer": self.synthesizer,
            "answerable": len(answerable),
            "correct": sum(o.grade == "correct" for o in answerable),
            "correct_or_partly": sum(o.grade != "wrong" for o in answerable),
            "wrong": sum(o.grade == "wrong" for o in answerable),
            "wrongly_refused": sum(o.refused for o in answerable),
            "unanswerable": len(unanswerable),
            "unanswerable_refused": sum(o.grade == "correct" for o in unanswerable),
            "high_confidence": len(high),
            "high_correct": sum(o.grade == "correct" for o in high),
            "high_precision": round(sum(o.grade == "correct" for o in high) / len(high), 3) if high else None,
            "answers_with_contradictions": sum(o.contradictions > 0 for o in self.outcomes),
            "by_type": {t: dict(c) for t, c in sorted(by_type.items())},
            "latency_p50": round(float(np.percentile(seconds, 50)), 3),
            "latency_p90": round(float(np.percentile(seconds, 90)), 3),
            "context_tokens_mean": round(float(np.mean(tokens)), 1),
        }


def load_graded_questions(path: Path) -> list[GradedQuestion]:
    """Parse a JSON Lines question file; every bad line is reported with its number."""
    if not path.is_file():
        raise EvaluationError(f"no question file at {path} — pass a JSON Lines file such as "
                              "../shared/eval/handbook-qa/questions.jsonl")
    questions: list[GradedQuestion] = []
    errors: list[str] = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            questions.append(GradedQuestion.model_validate_json(line))
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(map(str, first["loc"]))  # none for a line that is not JSON at all
            errors.append(f"line {n}: {field + ': ' if field else ''}{first['msg']}")
    if errors:
        raise EvaluationError(f"{path}: {len(errors)} bad line(s): " + "; ".join(errors[:5])
                              + ' — each line needs at least {"id", "question"}')
    if not questions:
        raise EvaluationError(f"{path} holds no questions")
    return questions


def norm(text: str) -> str:
    """The README's normalisation: straight quotes, dashes as '-', collapsed whitespace, lower case."""
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    text = text.replace("\u2013", "-").replace("\u2014", "-")
    return re.sub(r"\s+", " ", text).lower()


def missing_groups(groups: Sequence[Sequence[str]], text: str) -> list[list[str]]:
    t = norm(text)
    return [list(g) for g in groups if not any(norm(a) in t for a in g)]


def grade(q: GradedQuestion, summary: str, findings: str, said_not_found: bool) -> Grade:
    if not q.answerable:
        return "correct" if said_not_found else "wrong"
    if said_not_found or not summary.strip():
        return "wrong"
    if not missing_groups(q.must_include, summary):
        return "correct"
    if not missing_groups(q.must_include, summary + "\n" + findings):
        return "partly"
    return "wrong"


def outcome(q: GradedQuestion, result: AnswerResult, seconds: float) -> AnswerOutcome:
    s = result.synthesis
    findings = "\n".join(f.content for f in s.findings)
    return AnswerOutcome(
        id=q.id, type=q.type, answerable=q.answerable, question=q.question,
        grade=grade(q, s.summary, findings, result.no_answer), refused=result.no_answer,
        confidence=result.confidence, quality=s.quality.overall, contradictions=len(s.contradictions),
        summary=s.summary,
        missing=missing_groups(q.must_include, s.summary + "\n" + findings) if q.answerable else [],
        seconds=round(seconds, 3), context_tokens=result.context_tokens, synthesizer=result.synthesizer)


Answer = Callable[[str], Awaitable[AnswerResult]]


async def evaluate_answers(answer: Answer, questions: Sequence[GradedQuestion], *,
                           progress: Callable[[int, int], None] | None = None) -> AnswerReport:
    """Ask every question in turn (one at a time, so latency is per question) and grade each answer."""
    outcomes: list[AnswerOutcome] = []
    synthesizers: Counter[str] = Counter()
    for i, q in enumerate(questions, start=1):
        started = time.perf_counter()
        result = await answer(q.question)
        outcomes.append(outcome(q, result, time.perf_counter() - started))
        synthesizers[result.synthesizer] += 1
        if progress:
            progress(i, len(questions))
    return AnswerReport(questions=len(outcomes), synthesizer=", ".join(synthesizers) or "none", outcomes=outcomes)


def write_report(report: AnswerReport, path: Path) -> None:
    path.write_text(json.dumps({"summary": report.summary, "outcomes": [o.model_dump() for o in report.outcomes]},
                               indent=2), encoding="utf-8")

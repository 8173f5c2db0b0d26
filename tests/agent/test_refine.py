"""The refinement round: one more search for the parts the first reading left uncovered, kept when the first reading
answered nothing, or when its own reading covers more of the question, or as much with fewer parts reported as gaps.
A tie keeps the first reading: the wider context can read an already answered part worse (18F handbook, a fresh
probe: "How many interviews will they go through, and … who decides where they end up?" lost "from 4 to 3" to the
label "Interviewing for TTS 101")."""

from __future__ import annotations

from collections.abc import Sequence

from synthesis.agent import Agent
from synthesis.models import Finding, Synthesis
from synthesis.synthesize.base import SynthesisOutcome
from tests.agent.fakes import ScriptedBackend, result

QUESTION = "How many interviews will they go through, and who decides where they end up?"


class Every(dict):
    """A search script answering every query with the same two passages."""

    def get(self, _query, _default=None):
        return [result(1, "We'll consolidate the number of interviews from 4 to 3. If more than one office is "
                          "interested in the same candidate, the candidate will decide.", 0.7),
                result(2, "Interviewing for TTS 101. Sharing questions in advance helps.", 0.6)]


class Scripted:
    """A synthesizer seam that answers with the next of its scripted syntheses (the first reading, then the refined)."""

    name = "scripted"

    def __init__(self, *syntheses: Synthesis) -> None:
        self.syntheses = list(syntheses)
        self.calls = 0

    async def synthesize(self, question, context, *, sub_queries=None):
        self.calls += 1
        return SynthesisOutcome(synthesis=self.syntheses.pop(0), synthesizer=self.name)


def _synthesis(summary: str, gaps: Sequence[str] = ()) -> Synthesis:
    findings = [Finding(topic="t", content=summary, citations=[1])] if summary else []
    return Synthesis(summary=summary, findings=findings, gaps=list(gaps))


async def _answer(settings, *syntheses: Synthesis):
    synthesizer = Scripted(*syntheses)
    agent = Agent(settings, ScriptedBackend(Every()), synthesizer)
    answer = await agent.answer(QUESTION)
    agent.close()
    assert synthesizer.calls == 2  # the round ran
    return answer, next(s for s in answer.steps if s.name == "refine").detail


async def test_a_refined_reading_that_covers_no_more_is_not_kept(settings):
    # both readings leave "go through" unmatched (completeness 0.5, so the round runs) and report no gap
    first = _synthesis("We'll consolidate the number of interviews from 4 to 3. [1] The candidate will decide. [1]")
    answer, refine = await _answer(settings, first, _synthesis("Interviewing for TTS 101. [2] The candidate will "
                                                               "decide. [1]"))
    assert refine["adopted"] is False
    assert "from 4 to 3" in answer.synthesis.summary


async def test_a_refined_reading_with_fewer_gaps_is_kept(settings):
    # the keyword test covers neither part in either reading (no "go through", no "decides"): only the gap differs
    answer, refine = await _answer(
        settings, _synthesis("We'll consolidate the number of interviews from 4 to 3. [1]",
                             gaps=["The knowledge base does not cover who decides where they end up."]),
        _synthesis("Interviews drop from 4 to 3. [1] The candidate chooses the office. [1]"))
    assert refine["adopted"] is True
    assert refine["completeness_after"] == refine["completeness_before"]
    assert (refine["answered_before"], refine["answered_after"]) == (0.5, 1.0)
    assert "candidate chooses" in answer.synthesis.summary


async def test_a_refined_reading_that_answers_where_the_first_answered_nothing_is_kept(settings):
    """Review: a refined reading whose gaps name every part still beats no answer at all (both score 0, 0)."""
    answer, refine = await _answer(
        settings, _synthesis(""),
        _synthesis("The candidate will decide. [1]", gaps=["The knowledge base does not cover how many interviews "
                                                           "they will go through.", "The knowledge base does not "
                                                           "cover who decides where they end up."]))
    assert refine["adopted"] is True
    assert answer.synthesis.summary.startswith("The candidate will decide"), answer.synthesis.summary

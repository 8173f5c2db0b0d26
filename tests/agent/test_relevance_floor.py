"""Off-topic text is never shown as an answer: a weakly supported part is a gap, and confidence follows coverage."""

from __future__ import annotations

from synthesis.agent import NO_ANSWER
from synthesis.models import Passage
from synthesis.synthesize.base import Context, ContextSource
from synthesis.synthesize.extractive import ExtractiveSynthesizer
from synthesis.verify import overall_quality

ROLLBACK = ("A production rollback must start within 15 minutes of a failed health check. Ferry pages the on-call "
            "primary when a rollback has not started in time. Roll back first and investigate afterwards.")
LAPTOPS = ("This policy keeps that safe without getting in the way of your work. Laptops are replaced every three "
           "years. Report a lost laptop to IT immediately.")


def _context() -> Context:
    return Context(sources=[
        ContextSource(number=1, passage=Passage(id="p1", doc_id="rollback", content=ROLLBACK, score=0.7,
                                                title="Rollback policy", section="How fast")),
        ContextSource(number=2, passage=Passage(id="p2", doc_id="laptops", content=LAPTOPS, score=0.45,
                                                title="Laptop and device policy", section="Laptop and device policy")),
    ])


async def test_a_part_nothing_supports_is_a_gap_not_a_finding(minilm):
    question = "How fast must a production rollback start, and what is our parental leave policy?"
    parts = ["How fast must a production rollback start", "what is our parental leave policy"]
    s = (await ExtractiveSynthesizer(minilm).synthesize(question, _context(), sub_queries=[question, *parts])).synthesis
    assert s.findings and all("parental" not in f.topic.lower() for f in s.findings)
    assert all(f.citations == [1] for f in s.findings)  # the laptop text answers nothing that was asked
    assert any("parental leave policy" in g for g in s.gaps)
    assert "15 minutes" in s.summary and "parental leave" in s.summary


async def test_a_question_nothing_supports_has_no_findings(minilm):
    s = (await ExtractiveSynthesizer(minilm).synthesize("What's our parental leave policy?", _context())).synthesis
    assert s.findings == [] and s.gaps


async def test_off_topic_question_takes_the_no_answer_path(handbook_agent):
    r = await handbook_agent.answer("What's our parental leave policy?")
    assert r.no_answer and r.confidence == "low"
    assert r.synthesis.summary.startswith(NO_ANSWER) and r.closest_topics
    assert r.synthesis.findings == []


async def test_a_decomposed_part_keeps_its_subject_end_to_end(handbook_agent):
    r = await handbook_agent.answer("Who do I page if the notifier queue backs up, and what should I check first?")
    text = " ".join([r.synthesis.summary, *(f.content for f in r.synthesis.findings)])
    assert "review" not in text.lower()  # code-review text answered "what should I check first" before
    check = next(f for f in r.synthesis.findings if f.topic.lower().startswith("what should i check first"))
    assert "notifier" in check.topic and "notifier deploy" in check.content


async def test_confidence_is_not_high_with_a_part_unanswered(handbook_agent):
    r = await handbook_agent.answer("How quickly must a failed deploy be rolled back, who approves a production "
                                    "hotfix, and how does the quarterly DR failover test work?")
    assert r.synthesis.gaps and r.synthesis.quality.completeness < 1
    assert r.confidence != "high"


def test_overall_quality_is_capped_by_coverage():
    assert overall_quality(1.0, 1.0, 1.0) == 1.0
    assert overall_quality(1.0, 1.0, 2 / 3) < 0.75  # one of three parts unanswered: not high
    assert overall_quality(1.0, 1.0, 0.5) < 0.5  # half unanswered: low


def test_only_named_gaps_cap_confidence_not_a_paraphrase_the_keyword_test_misses():
    from synthesis.models import Finding, Quality, Synthesis
    from synthesis.verify import verify

    context = Context(sources=[ContextSource(number=1, passage=Passage(id="p1", doc_id="d1", content=LAPTOPS,
                                                                       score=0.6))])
    answer = Synthesis(summary="Report a lost laptop to IT immediately. [1]", quality=Quality(coherence=0.8),
                       findings=[Finding(topic="t", content="Report a lost laptop to IT immediately. [1]",
                                         citations=[1])])
    v = verify(answer, context, question="My MacBook was stolen from my bag on the train")
    assert v.completeness == 0.0  # no shared keywords with the question
    assert v.synthesis.quality.overall >= 0.5  # but nothing says a part is missing: medium, not low
    gapped = answer.model_copy(update={"gaps": ["The knowledge base does not cover macbook stolen bag train."]})
    assert verify(gapped, context, question="My MacBook was stolen from my bag on the train").synthesis.quality.overall < 0.5

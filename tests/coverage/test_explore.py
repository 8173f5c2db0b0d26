"""Meta questions answered with coverage, "You might also explore", the gap line, and the log of every answer."""

from __future__ import annotations

import pytest

from bot.render import render_answer
from synthesis.coverage import ChunkInfo, Inventory
from synthesis.explore import GAP_LINE, InstrumentedAgent, meta_topic, related_pages
from synthesis.models import (AnswerResult, Finding, Passage, QuestionType, RelatedPage, Source, SubagentResult,
                              Synthesis, Turn)
from synthesis.usage import SQLiteUsageLog
from tests.bot.fakes import block_text


@pytest.fixture(scope="module")
def real_agent(handbook):
    from synthesis.agent import build_agent

    settings, store = handbook
    agent = build_agent(settings, store)
    yield agent
    agent.close()


@pytest.fixture
def agent(real_agent, handbook, tmp_path):
    _, store = handbook
    usage = SQLiteUsageLog(tmp_path / "conversations.sqlite3")
    yield InstrumentedAgent(real_agent, store, usage=usage, surface="cli")
    usage.close()


async def test_an_answer_suggests_related_uncited_pages_and_is_logged(agent):
    result = await agent.answer("Who approves a production hotfix?")
    cited = {s.doc_id for s in result.synthesis.sources}
    assert result.synthesis.findings and cited
    assert 1 <= len(result.explore) <= 3 and not {p.doc_id for p in result.explore} & cited
    assert all(p.title and p.reason for p in result.explore)
    (event,) = agent.usage.events()
    assert event.kind == "ask" and event.surface == "cli" and event.collection == agent.store.name
    assert set(event.cited) == {s.passage_id for s in result.synthesis.sources} and set(event.cited) <= set(event.retrieved)
    assert event.confidence == result.confidence and not event.followup and not event.no_answer
    follow = await agent.answer("and during a freeze?", history=[Turn(question="Who approves a production hotfix?")])
    assert agent.usage.events()[-1].followup and follow.question == "and during a freeze?"


async def test_no_answer_says_it_might_be_a_gap_and_keeps_the_closest_topics(agent):
    result = await agent.answer("What is the capital of France?")
    assert result.no_answer and result.explore == []
    assert result.synthesis.summary.startswith("I couldn't find this in the knowledge base. " + GAP_LINE)
    assert result.closest_topics and "closest related topics" in result.synthesis.summary
    (message, *_) = render_answer(result)
    text = block_text(message.model_dump())
    assert GAP_LINE in text and "Closest topics" in text
    assert agent.usage.events()[-1].no_answer


@pytest.mark.parametrize("question,topic", [("How complete is our on-call documentation?", "on-call"),
                                            ("What do we have on hiring?", "hiring")])
async def test_meta_questions_are_answered_with_the_coverage_of_their_topic(agent, question, topic):
    assert meta_topic(question) == topic
    result = await agent.answer(question)
    assert result.question_type is QuestionType.META and result.synthesizer == "coverage"
    assert result.synthesis.summary.startswith("Overall: ") and f"coverage of “{topic}”" in result.synthesis.summary
    assert "share of this topic's facets" in result.synthesis.summary
    if topic == "on-call":
        assert result.synthesis.findings and all(f.citations for f in result.synthesis.findings)
        assert result.synthesis.sources and result.synthesis.gaps
    else:  # nothing in the demo handbook is about hiring
        assert any("gap worth filling" in g for g in result.synthesis.gaps)
    event = agent.usage.events()[-1]
    assert event.kind == "meta" and event.standalone == topic and event.gaps == []


def _chunk(cid, doc, tags=(), section="", url=""):
    return ChunkInfo(cid, doc, doc.title(), url, section, "doc", tuple(tags), "s")


def test_related_pages_prefers_links_then_nearby_then_shared_tags():
    inv = Inventory([_chunk("a#0", "a", ("ops",), "A", "https://w/a"), _chunk("b#0", "b", ("ops",)),
                     _chunk("c#0", "c", (), "", "https://w/c"), _chunk("d#0", "d", ("misc",)),
                     _chunk("e#0", "e", ("ops",))])
    cited = Passage(id="a#0", doc_id="a", content="See [the C page](https://w/c) for more.", score=0.8)
    near = Passage(id="d#0", doc_id="d", content="d", score=0.5)
    far = Passage(id="b#0", doc_id="b", content="b", score=0.1)
    result = AnswerResult(question="q", standalone_question="q", question_type=QuestionType.FACTUAL,
                          passages=[cited], subagents=[SubagentResult(subagent="s", success=True,
                                                                      passages=[cited, near, far])],
                          synthesis=Synthesis(summary="s", findings=[Finding(topic="t", content="x [1]",
                                                                             citations=[1])],
                                              sources=[Source(number=1, passage_id="a#0", doc_id="a")]))
    pages = related_pages(result, inv)
    assert [(p.doc_id, p.reason) for p in pages] == [("c", "linked"), ("d", "related"), ("b", "same tag or section")]
    assert related_pages(result, inv, limit=2)[-1].doc_id == "d"
    uncited = result.model_copy(update={"synthesis": Synthesis(summary="s")})
    assert related_pages(uncited, inv) == []


def test_slack_shows_the_explore_line_only_when_there_are_pages():
    from tests.bot.fakes import make_result

    result = make_result("How do we deploy?")
    assert "You might also explore" not in block_text(render_answer(result)[0].model_dump())
    result.explore = [RelatedPage(doc_id="x", title="Release calendar", url="https://w/releases"),
                      RelatedPage(doc_id="y", title="Glossary")]
    text = block_text(render_answer(result)[0].model_dump())
    assert "You might also explore: <https://w/releases|Release calendar>, Glossary" in text

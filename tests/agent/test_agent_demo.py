"""The offline agent on the demo handbook with the real model and real Chroma."""

from __future__ import annotations

import pytest

from synthesis.errors import InvalidQuery
from synthesis.models import AskOptions, Finding, SearchFilters, Synthesis, Turn
from synthesis.synthesize.base import ResearchOutcome
from synthesis.synthesize.context import build_context, default_counter

DEMO = ("How fast must a production rollback start after a failed health check, who approves a hotfix, and how "
        "does the quarterly DR failover test work?")


def _valid_numbers(result) -> set[int]:
    return set(range(1, len(result.passages) + 1))


async def test_demo_question_has_cited_findings_contradiction_and_gap(handbook_agent):
    messages: list[str] = []

    async def progress(message: str) -> None:
        messages.append(message)

    r = await handbook_agent.answer(DEMO, progress=progress)
    s = r.synthesis
    assert not r.no_answer and r.synthesizer == "extractive"
    assert len(s.findings) >= 2 and all(f.citations for f in s.findings)
    valid = _valid_numbers(r)
    assert all(set(f.citations) <= valid for f in s.findings)
    rollback = next(f for f in s.findings if "rollback" in f.topic.lower())
    assert "15 minutes" in rollback.content  # numbers are quoted verbatim from the sources
    disagreement = next(c for c in s.contradictions if "15 minutes" in c.description and "30 minutes" in c.description)
    docs = {r.passages[n - 1].doc_id for n in disagreement.citations}
    assert len(docs) == 2 and "Rollback and hotfix policy" in disagreement.suggestion
    assert any("DR failover test" in g for g in s.gaps)
    assert s.summary and "[" in s.summary
    assert [st.name for st in r.steps][:5] == ["plan", "retrieve", "aggregate", "synthesize", "verify"]
    assert all(st.duration >= 0 for st in r.steps)
    assert r.context_tokens > 0 and r.tokenizer == "bert-wordpiece (all-MiniLM-L6-v2)"
    assert r.metrics.total_input_results > 0 and len(r.subagents) >= 4
    assert any("in parallel" in m for m in messages)


async def test_make_demos_findings_put_the_current_side_first(handbook_agent):
    """`make demo`'s own question: the rollback finding quoted the replaced wiki's 30 minutes before the policy's 15
    (the summary already had them the right way round)."""
    r = await handbook_agent.answer("How quickly must a failed deploy be rolled back, who approves a production "
                                    "hotfix, and how does the quarterly DR failover test work?")
    rollback = next(f for f in r.synthesis.findings if "rolled back" in f.topic.lower())
    assert rollback.content.index("15 minutes") < rollback.content.index("30 minutes"), rollback.content


async def test_the_planted_friday_disagreement_is_reported(handbook_agent):
    """examples/README.md plants it: deploys/process allows Friday deploys "until 15:00 Lisbon time", the onboarding
    guide says they are not allowed. The time zone had read as another case, so the summary stated one side as
    fact."""
    r = await handbook_agent.answer("Are production deploys allowed on Fridays?")
    s = r.synthesis
    friday = next(c for c in s.contradictions if "not allowed on Fridays" in c.description
                  and "until 15:00" in c.description)
    pages = {r.passages[n - 1].source_url.rsplit("/", 2)[-2] + "/" + r.passages[n - 1].source_url.rsplit("/", 1)[-1]
             for n in friday.citations}
    assert pages == {"deploys/process", "onboarding/first-two-weeks"}
    assert s.summary.startswith("Sources disagree")


async def test_a_question_about_one_case_of_a_disputed_rule_is_answered_for_that_case(handbook_agent):
    """"… if the engineering manager is unreachable?" is about the case releases/calendar settles in one sentence; the
    approver dispute (on-call lead or engineering manager) is still reported, but it no longer replaces the answer."""
    r = await handbook_agent.answer("Who approves a production hotfix if the engineering manager is unreachable?")
    s = r.synthesis
    assert s.summary.startswith("If the owning team's engineering manager is unreachable for 30 minutes, any other "
                                "engineering manager may approve in their place."), s.summary
    assert any("on-call lead" in c.description for c in s.contradictions)


async def test_out_of_scope_question_is_refused_with_related_topics(handbook_agent):
    r = await handbook_agent.answer("What is the capital of France?")
    assert r.no_answer and r.low_confidence
    assert r.synthesis.summary.startswith("I couldn't find this in the knowledge base.")
    assert r.synthesis.findings == [] and r.synthesis.sources == []


async def test_follow_up_uses_history(handbook_agent):
    history = [Turn(question="Who approves a production hotfix?")]
    r = await handbook_agent.answer("What about a rollback?", history=history)
    assert r.standalone_question == "Who approves the rollback?"
    assert r.synthesis.findings


async def test_sources_only_skips_synthesis_and_options_reach_search(handbook_agent):
    r = await handbook_agent.answer("How do we deploy to production?", options=AskOptions(sources_only=True, k=3))
    assert r.synthesis.findings == [] and r.synthesis.sources
    assert "synthesize" not in [st.name for st in r.steps]
    assert all(len(a.passages) <= 3 for a in r.subagents)


async def test_detailed_gives_at_least_as_much(handbook_agent):
    q = "How do production deploys work?"
    short = await handbook_agent.answer(q)
    long = await handbook_agent.answer(q, options=AskOptions(detailed=True))
    words = lambda r: sum(len(f.content.split()) for f in r.synthesis.findings)  # noqa: E731
    assert words(long) > words(short)


async def test_filters_limit_the_sources(handbook_agent):
    url = "https://handbook.example.com/deploys/rollback"
    r = await handbook_agent.answer("How fast must a rollback start?",
                                    options=AskOptions(filters=SearchFilters(source_url=url)))
    assert r.passages and all(p.source_url == url for p in r.passages)
    assert r.synthesis.contradictions == []  # the old wiki page is filtered out


async def test_empty_question_is_invalid(handbook_agent):
    with pytest.raises(InvalidQuery):
        await handbook_agent.answer("   ")


# --- the Researcher seam: used when present, verified, and replaced by offline when it fails ----------------
class HallucinatingResearcher:
    """Searches through the agent's subagents, then cites [1] and a made-up [99]."""

    name = "fake-llm"

    async def research(self, question, *, history, search, context_budget, deadline=None):
        results = await search(["rollback start time", "hotfix approval"])
        passages = [p for r in results for p in r.passages]
        context = build_context(passages, budget=context_budget, counter=default_counter())
        synthesis = Synthesis(summary="Roll back fast [1][99].",
                              findings=[Finding(topic="Rollback", content="Start quickly [1][99].", citations=[1, 99])])
        return ResearchOutcome(synthesis=synthesis, context=context, sub_queries=["rollback start time"],
                               subagents=results, rounds=1)


class BrokenResearcher:
    name = "broken-llm"

    async def research(self, question, *, history, search, context_budget, deadline=None):
        raise RuntimeError("529 overloaded")


def _agent_with(handbook, researcher):
    from synthesis.agent import Agent
    from synthesis.retrieval import make_retriever
    from synthesis.synthesize.extractive import ExtractiveSynthesizer

    settings, store = handbook
    return Agent(settings, make_retriever(settings, store), ExtractiveSynthesizer(store.embedder),
                 researcher=researcher, counter=default_counter(store.embedder))


async def test_researcher_output_is_verified(handbook):
    agent = _agent_with(handbook, HallucinatingResearcher())
    try:
        r = await agent.answer("How fast must a rollback start?")
    finally:
        agent.close()
    assert r.synthesizer == "fake-llm"
    assert "[99]" not in r.synthesis.model_dump_json()
    assert r.synthesis.findings[0].citations == [1]
    assert any("Removed 3 citations" in n for n in r.notices)
    assert next(st for st in r.steps if st.name == "verify").detail["invalid_citations"] == 3
    assert len(r.subagents) == 2 and all(a.subagent.startswith("claude-") for a in r.subagents)


async def test_failing_researcher_falls_back_offline_with_notice(handbook):
    agent = _agent_with(handbook, BrokenResearcher())
    try:
        r = await agent.answer("How fast must a production rollback start after a failed health check?")
    finally:
        agent.close()
    assert r.synthesizer == "extractive"
    assert "Claude unavailable, offline synthesis used." in r.notices
    assert r.synthesis.findings and not r.no_answer
    assert r.steps[1].name == "research" and r.steps[1].detail["ok"] is False


async def test_a_page_another_page_replaces_does_not_lead_the_answer(handbook_agent, monkeypatch):
    """The demo handbook's rollback policy says it "replaces the rollback section of the old incident wiki page";
    "How do I roll back a deploy?" led with the old wiki's "Use shipit rollback <app> from the deploy box." (the tool
    it names is gone). A replaced page keeps only part of its relevance, so the current page answers first."""
    import synthesis.synthesize.extractive as extractive

    question = "How do I roll back a deploy?"
    on = (await handbook_agent.answer(question)).synthesis.summary
    monkeypatch.setattr(extractive, "SUPERSEDED", 1.0)
    off = (await handbook_agent.answer(question)).synthesis.summary
    assert off.startswith("Use shipit rollback"), "the old wiki led before the rule"
    assert "shipit" not in on.split("[")[0], on
    assert "ferry" in on.split("[")[0], on

"""Every error branch of Claude's tool loop, scripted through the real anthropic SDK against the fake Messages API."""

from __future__ import annotations

import pytest

from synthesis.agent import build_agent
from synthesis.errors import ClaudeRefused, SynthesisError

from .fake_anthropic import FakeMessagesAPI, RecordingSearch, researcher, finding, make_kb, record, text, tool_use

ANSWER = record("Deploys run on Tuesdays and Thursdays [1].", [finding("Tuesdays and Thursdays [1].", [1])])


@pytest.fixture
def store(settings):
    return make_kb(settings)


@pytest.fixture
def search(store):
    return RecordingSearch(store)


async def research(fake, settings, search, question="When are deploys allowed?", **kwargs):
    return await researcher(fake, settings, **kwargs).research(question, history=[], search=search,
                                                               context_budget=8000)


def results_of(body) -> list[dict]:
    return FakeMessagesAPI.tool_results(body)


# --- max_tokens ------------------------------------------------------------------------------------------------
async def test_a_cut_off_search_turn_is_asked_again_with_twice_the_limit(fake, settings, search):
    fake.reply(tool_use("search_knowledge_base", {"query": "deploy"}), stop_reason="max_tokens")
    fake.reply(tool_use("search_knowledge_base", {"query": "deploy days"}))
    fake.reply(ANSWER)
    outcome = await research(fake, settings, search)
    assert [b["max_tokens"] for b in fake.requests] == [4096, 8192, 4096]
    assert fake.requests[0]["messages"] == fake.requests[1]["messages"]  # the same turn, not a new one
    assert search.calls == [["deploy days"]]  # the cut-off turn's tool call was never run
    assert outcome.synthesis.findings


async def test_a_record_cut_off_at_every_limit_fails_without_repeating_a_limit(fake, settings, search):
    fake.reply(tool_use("search_knowledge_base", {"query": "deploys"}))
    for _ in range(3):
        fake.reply(tool_use("record_synthesis", {"summary": "Deploys run on"}), stop_reason="max_tokens")
    with pytest.raises(SynthesisError, match="cut off at 16384 output tokens"):
        await research(fake, settings, search)
    limits = [b["max_tokens"] for b in fake.requests[1:]]
    assert limits == [4096, 8192, 16384]
    assert len(set(limits)) == len(limits)
    assert not fake.exhausted


async def test_the_max_tokens_setting_is_the_starting_limit(fake, settings, search):
    fake.reply(tool_use("search_knowledge_base", {"query": "deploys"}))
    fake.reply(ANSWER)
    await research(fake, settings.model_copy(update={"claude_max_tokens": 1024}), search)
    assert [b["max_tokens"] for b in fake.requests] == [1024, 1024]


# --- refusal vs malformed -----------------------------------------------------------------------------------------
async def test_a_refusal_is_not_retried_and_is_named(fake, settings, search):
    fake.refuse(category="cyber", explanation="policy")
    fake.reply(ANSWER)  # must never be requested
    with pytest.raises(ClaudeRefused, match="declined to answer \\(cyber, policy\\)"):
        await research(fake, settings, search)
    assert len(fake.requests) == 1


async def test_a_refusal_at_the_answer_is_not_treated_as_malformed(fake, settings, search):
    fake.reply(tool_use("search_knowledge_base", {"query": "deploys"}))
    fake.refuse(category=None)
    fake.reply(ANSWER)
    with pytest.raises(ClaudeRefused, match="Claude declined to answer —"):
        await research(fake, settings, search)
    assert len(fake.requests) == 2  # no corrective round: asking again would not help


async def test_the_agent_says_claude_declined_and_answers_offline(settings, fake):
    claude_settings = settings.model_copy(update={"claude_model": fake.model})
    agent = build_agent(claude_settings, make_kb(claude_settings), anthropic_client=fake.client(claude_settings))
    fake.refuse()
    try:
        result = await agent.answer("When do I escalate a page to the team lead?")
    finally:
        agent.close()
    assert "Claude declined to answer this question, offline synthesis used." in result.notices
    assert "Claude unavailable, offline synthesis used." not in result.notices
    assert result.synthesizer == "extractive" and result.synthesis.findings


async def test_a_final_turn_without_the_record_gets_one_correction(fake, settings, search):
    fake.reply(tool_use("search_knowledge_base", {"query": "deploys"}))
    fake.reply(text("Deploys are on Tuesdays."), stop_reason="end_turn")  # ignored the forced tool
    fake.reply(ANSWER)
    outcome = await research(fake, settings, search, max_rounds=1)  # the second turn is the final one
    assert fake.requests[1]["tool_choice"] == {"type": "tool", "name": "record_synthesis"}
    correction = fake.requests[2]
    assert "no record_synthesis call" in str(correction["messages"][-1]["content"])
    assert correction["tool_choice"] == {"type": "tool", "name": "record_synthesis"}
    assert outcome.synthesis.summary.startswith("Deploys run")


# --- the search turn ---------------------------------------------------------------------------------------------
async def test_plain_text_instead_of_a_tool_call_is_asked_for_the_record(fake, settings, search):
    fake.reply(tool_use("search_knowledge_base", {"query": "deploys"}))
    fake.reply(text("I think I have enough."), stop_reason="end_turn")
    fake.reply(ANSWER)
    outcome = await research(fake, settings, search)
    assert fake.requests[2]["messages"][-1]["content"] == "Record the answer now."
    assert fake.requests[2]["tool_choice"] == {"type": "tool", "name": "record_synthesis"}
    assert outcome.synthesis.findings and outcome.rounds == 1


async def test_unknown_tools_and_invalid_search_input_come_back_as_tool_errors(fake, settings, search):
    fake.reply(tool_use("search_knowledge_base", {"query": "deploys"}, id="toolu_ok"),
               tool_use("delete_everything", {"really": True}, id="toolu_unknown"),
               tool_use("search_knowledge_base", {"query": "staging", "k": 99}, id="toolu_k"),
               tool_use("search_knowledge_base", {"k": 3}, id="toolu_noquery"))
    fake.reply(ANSWER)
    await research(fake, settings, search)
    by_id = {r["tool_use_id"]: r for r in results_of(fake.requests[1])}
    assert set(by_id) == {"toolu_ok", "toolu_unknown", "toolu_k", "toolu_noquery"}  # one result per call
    assert not by_id["toolu_ok"].get("is_error") and "<source n=" in by_id["toolu_ok"]["content"]
    assert by_id["toolu_unknown"]["is_error"] and "Unknown tool 'delete_everything'" in by_id["toolu_unknown"]["content"]
    assert by_id["toolu_k"]["is_error"] and "Invalid search input" in by_id["toolu_k"]["content"]
    assert by_id["toolu_noquery"]["is_error"] and "query" in by_id["toolu_noquery"]["content"]
    assert search.calls == [["deploys"]]  # only the valid call ran


async def test_a_failed_search_is_reported_to_claude(fake, settings):
    async def failing(queries):
        from synthesis.models import SubagentResult

        return [SubagentResult(subagent="s1", query=q, success=False, error="timed out after 20s") for q in queries]

    fake.reply(tool_use("search_knowledge_base", {"query": "deploys"}))
    fake.reply(ANSWER)
    await researcher(fake, settings).research("When?", history=[], search=failing, context_budget=8000)
    result = results_of(fake.requests[1])[0]
    assert result["is_error"] and "Search failed (timed out after 20s)" in result["content"]


async def test_a_search_that_finds_nothing_says_so(fake, settings):
    async def empty(queries):
        from synthesis.models import SubagentResult

        return [SubagentResult(subagent="s1", query=q, success=True, passages=[]) for q in queries]

    fake.reply(tool_use("search_knowledge_base", {"query": "mars colony"}))
    fake.reply(record("The sources do not say.", [], gaps=["mars colony"]))
    outcome = await researcher(fake, settings).research("When?", history=[], search=empty, context_budget=8000)
    assert "Nothing matched" in results_of(fake.requests[1])[0]["content"]
    assert outcome.synthesis.gaps == ["mars colony"]


async def test_results_are_matched_by_query_when_search_answers_fewer(fake, settings, store):
    real = RecordingSearch(store)

    async def partial(queries):
        return [r for r in await real(queries) if r.query != "deploys"]  # one query lost its result

    fake.reply(tool_use("search_knowledge_base", {"query": "deploys"}, id="toolu_a"),
               tool_use("search_knowledge_base", {"query": "cloud budget"}, id="toolu_b"))
    fake.reply(ANSWER)
    await researcher(fake, settings).research("When?", history=[], search=partial, context_budget=8000)
    by_id = {r["tool_use_id"]: r for r in results_of(fake.requests[1])}
    assert by_id["toolu_a"]["is_error"] and "no result" in by_id["toolu_a"]["content"]
    assert 'Results for "cloud budget"' in by_id["toolu_b"]["content"] and "40,000" in by_id["toolu_b"]["content"]


async def test_a_record_next_to_searches_ends_the_research(fake, settings, search):
    fake.reply(tool_use("search_knowledge_base", {"query": "deploys"}))
    fake.reply(tool_use("search_knowledge_base", {"query": "more"}), ANSWER)
    outcome = await research(fake, settings, search)
    assert search.calls == [["deploys"]] and len(fake.requests) == 2
    assert outcome.synthesis.findings[0].citations == [1]

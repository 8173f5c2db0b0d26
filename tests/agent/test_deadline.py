"""One deadline budget: Claude's rewrite and research fit inside the question's deadline, with a reserve for the
offline fallback, tested with a Claude fake that hangs (the real SDK against tests/agent/fake_anthropic.py)."""

from __future__ import annotations

import asyncio
import time

import pytest

from synthesis.agent import OFFLINE_RESERVE, Budget, build_agent
from synthesis.models import Turn

from .fake_anthropic import make_kb

FALLBACK = "Claude unavailable, offline synthesis used."
DEADLINE = 10.0
HISTORY = [Turn(question="When are deploys allowed?", standalone="When are deploys allowed?",
                summary="Tuesdays and Thursdays [1].")]


@pytest.fixture
def agent(settings, fake):
    # The production Claude deadlines (90 s research, 15 s rewrite): only the question's budget can cut them short.
    claude_settings = settings.model_copy(update={"claude_model": fake.model, "claude_deadline": 90.0})
    agent = build_agent(claude_settings, make_kb(claude_settings), anthropic_client=fake.client(claude_settings))
    yield agent
    agent.close()


async def _answer_within(agent, question: str, **kwargs):
    """As the Slack edge does: the same deadline outside, so only an agent that keeps its reserve answers."""
    started = time.monotonic()
    result = await asyncio.wait_for(agent.answer(question, deadline=DEADLINE, **kwargs), timeout=DEADLINE)
    return result, time.monotonic() - started


def test_the_budget_nests_claude_inside_the_deadline_with_a_reserve():
    budget = Budget(120.0)
    assert budget.reserve == OFFLINE_RESERVE == 20.0
    assert budget.for_claude(90.0) == 90.0  # 120 - 20 leaves room for all of it
    assert 14.0 <= budget.for_claude(15.0) <= 15.0
    budget.end -= 30  # 30 s spent (a slow rewrite and the queue): research gets the rest minus the reserve
    assert 69.0 <= budget.for_claude(90.0) <= 70.0
    short = Budget(8.0)
    assert short.reserve == 2.0 and 5.9 <= short.for_claude(90.0) <= 6.0  # a short deadline keeps a quarter
    assert Budget(None).for_claude(90.0) == 90.0


async def test_a_hanging_claude_research_still_gets_an_offline_answer_in_time(agent, fake):
    fake.hang()
    result, took = await _answer_within(agent, "When do I escalate a page to the team lead?")
    assert fake.hung == 1
    assert took < DEADLINE
    assert FALLBACK in result.notices and result.synthesizer == "extractive"
    research = next(s for s in result.steps if s.name == "research")
    assert research.detail["ok"] is False and "did not finish within" in research.detail["error"]
    assert result.synthesis.findings and result.passages[0].doc_id == "oncall"


async def test_a_hanging_rewrite_and_research_share_one_budget(agent, fake):
    fake.hang(times=2)  # the follow-up rewrite hangs, and so would the research
    result, took = await _answer_within(agent, "and who approves them?", history=HISTORY)
    assert took < DEADLINE
    plan = next(s for s in result.steps if s.name == "plan")
    assert plan.detail["rewriter"] == "heuristic"  # the rewrite was cut off; the offline heuristic took over
    assert FALLBACK in result.notices and result.synthesizer == "extractive"
    assert result.synthesis.findings or result.no_answer
    assert len(fake.requests) <= 2


async def test_claude_within_its_share_is_not_cut_short(agent, fake):
    from .fake_anthropic import finding, record, tool_use

    fake.reply(tool_use("search_knowledge_base", {"query": "cloud budget"}))
    fake.reply(record("The budget is 40,000 EUR a month [1].", [finding("40,000 EUR a month [1].", [1])]))
    result, took = await _answer_within(agent, "What is the monthly cloud budget?")
    assert result.synthesizer.startswith("claude:") and FALLBACK not in result.notices

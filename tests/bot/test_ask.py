"""/ask end to end: signed slash commands through the real app, the fake Web API recording every call."""

from __future__ import annotations

import asyncio
import time

from tests.bot.fakes import FakeAgent, block_text

CHANNEL = "C0CHAN"


async def test_ack_comes_before_any_web_api_call(harness):
    response = await harness.ask("how do we roll back a deploy?")
    acked_at = time.perf_counter()
    assert response.status == 200
    assert harness.fake.calls == []  # nothing reached Slack's Web API before the ack went back
    await harness.settle()
    assert harness.fake.calls, "the answer was never posted"
    assert all(call.at > acked_at for call in harness.fake.calls)
    assert harness.fake.calls[0].method == "chat.postMessage"


async def test_answer_lands_in_the_anchor_thread(harness):
    await harness.ask("how do we roll back a deploy?", user="U0ALICE")
    await harness.settle()
    anchor_ts = harness.anchor_ts()
    anchor = harness.fake.message(CHANNEL, anchor_ts)
    assert "<@U0ALICE>" in block_text(anchor) and "roll back a deploy" in block_text(anchor)
    replies = [c.args for c in harness.fake.calls_to("chat.postMessage") if c.args.get("thread_ts")]
    assert replies and all(r["thread_ts"] == anchor_ts and r["channel"] == CHANNEL for r in replies)
    answer = block_text(replies[-1])
    assert "Answer to: how do we roll back a deploy?" in answer
    assert "wiki.example.com/deploys" in answer  # the cited source, as a link
    actions = [b for r in replies for b in r["blocks"] if b["type"] == "actions"]
    assert {e["action_id"] for e in actions[-1]["elements"]} == {"feedback_up", "feedback_down"}
    assert "Answered in the thread" in block_text(anchor)  # the anchor no longer says "working on it"


async def test_progress_is_shown_by_updating_the_anchor(harness):
    await harness.ask("how do we roll back a deploy?")
    await harness.settle()
    anchor_ts = harness.anchor_ts()
    updates = [block_text(c.args) for c in harness.fake.calls_to("chat.update") if c.args["ts"] == anchor_ts]
    assert any("Planning" in u for u in updates) and any("Writing the answer" in u for u in updates)
    assert "Answered in the thread" in updates[-1]  # the final state wins over any late progress update


async def test_options_reach_the_agent(harness):
    await harness.ask("deploys --k 3 --tag ops --detailed")
    await harness.settle()
    (asked,) = harness.agent.calls
    assert asked.question == "deploys"
    assert asked.options.k == 3 and asked.options.detailed and asked.options.filters.tags == ["ops"]


async def test_empty_text_and_help_get_ephemeral_usage_without_posting(harness):
    for text in ("", "help"):
        response = await harness.ask(text)
        assert response.status == 200 and "Usage" in response.body
    await harness.settle()
    assert harness.fake.calls == [] and harness.agent.calls == []


async def test_unknown_option_gets_ephemeral_usage_error(harness):
    response = await harness.ask("deploys --frobnicate")
    await harness.settle()
    assert "Unknown option" in response.body and "--frobnicate" in response.body and "Usage" in response.body
    assert harness.fake.calls == []


async def test_coverage_without_a_reporter_says_it_is_not_available(harness):
    response = await harness.ask("--coverage deploys")
    await harness.settle()
    assert "not available" in response.body
    assert harness.fake.calls == [] and harness.agent.calls == []


async def test_coverage_dispatches_to_the_reporter(harness_factory):
    from synthesis.coverage import CoverageReport, Facet

    topics = []

    async def coverage(topic):
        topics.append(topic)
        return CoverageReport(collection="kb", topic=topic, headline=0.5, definition="half the facets",
                              facets=[Facet(kind="tag", name="deploys", supporting=3, coverage=1.0, status="covered"),
                                      Facet(kind="tag", name="billing", status="gap")],
                              gaps=["tag “billing”: no passage above 0.45"])

    h = await harness_factory(coverage=coverage)
    await h.ask("--coverage deploys")
    await h.settle()
    assert topics == ["deploys"]
    reply = block_text(next(c.args for c in h.fake.calls_to("chat.postMessage") if c.args.get("thread_ts")))
    assert "Overall: 50 % coverage of “deploys”" in reply and "🔴 tag *billing*" in reply
    assert "tag “billing”: no passage above 0.45" in reply


async def test_queued_users_are_told_their_place_in_line(harness_factory):
    gate = asyncio.Event()
    h = await harness_factory(FakeAgent(gate=gate), settings=None)
    h.deps.limiter = type(h.deps.limiter)(1)
    for n in range(3):
        await h.ask(f"question {n}", user=f"U0USER{n}")

    def updates() -> str:
        return "\n".join(block_text(c.args) for c in h.fake.calls_to("chat.update"))

    try:
        await h.fake.wait_for(lambda: "Queued — 1 ahead of you" in updates(), timeout=5)
        assert "Queued — you're next" in updates()
        assert len(h.agent.calls) == 1  # only one run at a time
    finally:
        gate.set()
    await h.settle()
    answers = [c for c in h.fake.calls_to("chat.postMessage") if c.args.get("thread_ts")]
    assert sorted(c.args["thread_ts"] for c in answers) == sorted(h.anchor_ts(n) for n in range(3))


async def test_rate_limited_post_is_retried(harness):
    harness.fake.fail_next("chat.postMessage", error="ratelimited", status=429, retry_after=0)
    await harness.ask("how do we roll back a deploy?")
    await harness.settle()
    posted = [c for c in harness.fake.calls_to("chat.postMessage") if not c.scripted]
    assert len(posted) == 2  # the anchor (after one 429) and the answer
    assert posted[1].args["thread_ts"] == posted[0].response["ts"]

"""Never silent: every failure posts something the user can act on, and the app keeps serving."""

from __future__ import annotations

import structlog

from synthesis.errors import StoreUnavailable
from tests.bot.fakes import FakeAgent, RaisingAgent, SlowAgent, block_text, no_kb_agent

CHANNEL = "C0CHAN"


def thread_text(h) -> str:
    return "\n".join(h.thread_texts(CHANNEL, h.anchor_ts()))


async def test_no_knowledge_base_says_how_to_build_one(harness_factory):
    h = await harness_factory(no_kb_agent())
    await h.ask("how do we deploy?")
    await h.settle()
    text = thread_text(h)
    assert "no knowledge base" in text.lower() and "synthbot ingest" in text
    assert "no knowledge base yet" in block_text(h.fake.message(CHANNEL, h.anchor_ts()))


async def test_nothing_found_says_so(harness_factory):
    h = await harness_factory(FakeAgent(no_answer=True))
    await h.ask("what is our policy on llamas?")
    await h.settle()
    assert "couldn't find an answer" in thread_text(h) and "llamas" in thread_text(h)
    assert "Try other words" in thread_text(h)


async def test_timeout_posts_a_message(harness_factory):
    h = await harness_factory(SlowAgent(), answer_timeout=0.2)
    await h.ask("how do we deploy?")
    await h.settle()
    assert "took too long" in thread_text(h)


async def test_internal_error_posts_an_error_id_that_is_also_logged(harness_factory):
    h = await harness_factory(RaisingAgent(RuntimeError("boom")))
    with structlog.testing.capture_logs() as logs:
        await h.ask("how do we deploy?")
        await h.settle()
    (failure,) = [e for e in logs if e["event"] == "answer.failed"]
    assert failure["exc_info"] and failure["error_id"]
    assert failure["error_id"] in thread_text(h)
    # The app is still alive: the next question is answered normally.
    h.deps.agent = FakeAgent()
    await h.ask("and now?")
    await h.settle()
    assert "Answer to: and now?" in "\n".join(h.thread_texts(CHANNEL, h.anchor_ts(1)))


async def test_other_synthbot_errors_pass_their_advice_on(harness_factory):
    h = await harness_factory(RaisingAgent(StoreUnavailable("cannot open the Chroma store — check SYNTHBOT_HOME")))
    await h.ask("how do we deploy?")
    await h.settle()
    assert "check SYNTHBOT_HOME" in thread_text(h)


async def test_follow_up_in_a_failed_thread_is_not_lost_when_history_breaks(harness_factory):
    class BrokenStore:
        async def load(self, **_):
            raise StoreUnavailable("redis down")

        async def save(self, **_):
            raise StoreUnavailable("redis down")

    h = await harness_factory(FakeAgent())
    h.deps.conversations = BrokenStore()
    mention = h.requests.app_mention("how do we deploy?")
    await h.event(mention)
    await h.settle()
    assert "Answer to: how do we deploy?" in block_text(h.fake.thread(CHANNEL, mention["ts"])[0])


async def test_a_channel_the_bot_cannot_post_in_gets_an_ephemeral_reason(harness):
    harness.fake.fail_next("chat.postMessage", error="not_in_channel")
    await harness.ask("how do we deploy?")
    await harness.settle()
    (reply,) = harness.fake.calls_to("response_url")
    assert reply.args["response_type"] == "ephemeral" and "/invite" in reply.args["text"]
    assert harness.agent.calls == []


class QuietAgent(FakeAgent):
    """Reports no progress, so the first chat.update the app makes is the answer replacing the placeholder."""

    async def answer(self, question, *, history=(), options=None, progress=None):
        return await super().answer(question, history=history, options=options)


def refusal_id(logs) -> str:
    (failure,) = [e for e in logs if e["event"] == "slack.deliver_failed"]
    return failure["error_id"]


async def test_a_refused_answer_is_reported_in_the_thread_with_an_error_id(harness):
    await harness.ask("how do we deploy?")
    await harness.fake.wait_for(lambda: harness.fake.calls_to("chat.postMessage"))
    harness.fake.fail_next("chat.postMessage", error="invalid_blocks")  # the answer post
    with structlog.testing.capture_logs() as logs:
        await harness.settle()
    (notice,) = harness.thread_texts(CHANNEL, harness.anchor_ts())
    assert f"error id `{refusal_id(logs)}`" in notice
    assert harness.fake.calls_to("response_url") == []  # the thread said it; no need for the ephemeral
    assert "couldn't answer" in block_text(harness.fake.message(CHANNEL, harness.anchor_ts()))


async def test_the_response_url_is_the_last_resort_for_a_refused_answer(harness):
    await harness.ask("how do we deploy?")
    await harness.fake.wait_for(lambda: harness.fake.calls_to("chat.postMessage"))
    harness.fake.fail_next("chat.postMessage", error="invalid_blocks", times=2)  # the answer, then its notice
    with structlog.testing.capture_logs() as logs:
        await harness.settle()
    (reply,) = harness.fake.calls_to("response_url")
    assert f"error id `{refusal_id(logs)}`" in reply.args["text"]


async def test_a_refused_answer_to_a_mention_replaces_the_placeholder(harness_factory):
    h = await harness_factory(QuietAgent())
    mention = h.requests.app_mention("how do we deploy?")
    h.fake.fail_next("chat.update", error="invalid_blocks")  # the answer replacing "Planning…"
    with structlog.testing.capture_logs() as logs:
        await h.event(mention)
        await h.settle()
    (reply,) = h.fake.thread(CHANNEL, mention["ts"])
    assert f"error id `{refusal_id(logs)}`" in reply["text"] and reply["blocks"] == []
    assert "Planning" not in block_text(reply)


async def test_a_refused_answer_to_a_follow_up_is_posted_in_the_thread(harness_factory):
    h = await harness_factory(QuietAgent())
    mention = h.requests.app_mention("how do we deploy?")
    await h.event(mention)
    await h.settle()
    # The answer and the plain-text update over the placeholder are both refused: a fresh post is left.
    h.fake.fail_next("chat.update", error="msg_too_long", times=2)
    with structlog.testing.capture_logs() as logs:
        await h.event(h.requests.message("and for hotfixes?", thread_ts=mention["ts"]))
        await h.settle()
    assert len(h.agent.calls) == 2
    notice = h.fake.thread(CHANNEL, mention["ts"])[-1]
    assert f"error id `{refusal_id(logs)}`" in notice["text"] and notice["blocks"] == []
    assert h.fake.calls_to("response_url") == []  # a follow-up has none: the thread was the only way to say it


async def test_a_store_failure_is_never_shown_as_not_found(harness_factory):
    down = StoreUnavailable("every search of the knowledge base failed (InternalError)")
    h = await harness_factory(RaisingAgent(down))
    with structlog.testing.capture_logs() as logs:
        await h.ask("how do we deploy?")
        await h.settle()
    text, anchor = thread_text(h), block_text(h.fake.message(CHANNEL, h.anchor_ts()))
    (failure,) = [e for e in logs if e["event"] == "answer.store_unavailable"]
    assert "unavailable" in text and failure["error_id"] in text
    assert "couldn't find" not in text.lower() and "add documents" not in text.lower()
    assert "unavailable" in anchor and "Answered" not in anchor


async def test_a_very_long_question_still_gets_an_anchor_and_an_answer(harness):
    question = "how do we deploy " * 1200  # ~20,000 characters: the whole question would exceed block limits
    await harness.ask(question)
    await harness.settle()
    anchor = block_text(harness.fake.message(CHANNEL, harness.anchor_ts()))
    assert f"({len(question.strip()):,} characters in all)" in anchor and "Answered" in anchor
    assert harness.agent.calls[0].question == question.strip()  # the agent gets all of it


async def test_a_rate_limited_anchor_says_so_not_invite_me(harness):
    harness.fake.fail_next("chat.postMessage", error="ratelimited", status=429, retry_after=0, times=4)
    await harness.ask("how do we deploy?")
    await harness.settle()
    (reply,) = harness.fake.calls_to("response_url")
    assert "rate-limiting" in reply.args["text"] and "/invite" not in reply.args["text"]
    assert len(harness.fake.calls_to("chat.postMessage")) == 4  # the first try and slack_sdk's three retries


async def test_a_refused_answer_names_its_cause(harness):
    await harness.ask("how do we deploy?")
    await harness.fake.wait_for(lambda: harness.fake.calls_to("chat.postMessage"))
    harness.fake.fail_next("chat.postMessage", error="msg_blocks_too_long")  # the answer post
    with structlog.testing.capture_logs() as logs:
        await harness.settle()
    (notice,) = harness.thread_texts(CHANNEL, harness.anchor_ts())
    assert "too long for Slack" in notice and refusal_id(logs) in notice and "/invite" not in notice
    assert "too long" in block_text(harness.fake.message(CHANNEL, harness.anchor_ts()))

"""Slack's delivery rules: signatures, retries handled once, feedback recorded."""

from __future__ import annotations

import asyncio
import time

from tests.bot.fakes import FakeAgent, block_text

CHANNEL = "C0CHAN"


async def test_bad_signature_is_rejected(harness):
    request = harness.requests.slash_command("how do we deploy?")
    request.headers["x-slack-signature"] = "v0=" + "0" * 64
    response = await harness.dispatch(request)
    await harness.settle()
    assert response.status == 401
    assert harness.fake.calls == [] and harness.agent.calls == []


async def test_stale_signature_is_rejected(harness):
    stale = harness.requests.slash_command("how do we deploy?", timestamp=int(time.time()) - 600)
    response = await harness.dispatch(stale)
    await harness.settle()
    assert response.status == 401 and harness.fake.calls == []


async def test_signature_with_another_secret_is_rejected(harness):
    from bot.fake_slack import SlackRequests

    forged = SlackRequests("not-the-secret").event(harness.requests.app_mention("hi"))
    response = await harness.dispatch(forged)
    await harness.settle()
    assert response.status == 401 and harness.agent.calls == []


async def test_retried_event_is_answered_once(harness):
    mention = harness.requests.app_mention("how do we deploy?")
    first = await harness.event(mention, event_id="Ev0RETRY")
    retry = await harness.event(mention, event_id="Ev0RETRY", retry_num=1)
    again = await harness.event(mention, event_id="Ev0RETRY", retry_num=2)
    await harness.settle()
    assert (first.status, retry.status, again.status) == (200, 200, 200)
    assert len(harness.agent.calls) == 1
    assert len(harness.fake.thread(CHANNEL, mention["ts"])) == 1


async def test_retry_while_the_first_attempt_is_in_flight_is_dropped(harness_factory):
    gate = asyncio.Event()
    h = await harness_factory(FakeAgent(gate=gate))
    mention = h.requests.app_mention("how do we deploy?")
    await h.event(mention, event_id="Ev0SLOW")
    await h.fake.wait_for(lambda: h.agent.calls)
    retry = await h.event(mention, event_id="Ev0SLOW", retry_num=1)
    gate.set()
    await h.settle()
    assert retry.status == 200 and len(h.agent.calls) == 1


async def test_first_delivery_that_arrives_as_a_retry_is_still_answered(harness):
    # The first attempt never reached us (say, during a restart): the retry is the only copy, so answer it.
    await harness.event(harness.requests.app_mention("how do we deploy?"), retry_num=1)
    await harness.settle()
    assert len(harness.agent.calls) == 1


async def test_repeated_slash_command_trigger_is_answered_once(harness):
    request = harness.requests.slash_command("how do we deploy?", trigger_id="trig.same")
    await harness.dispatch(request)
    await harness.dispatch(request)
    await harness.settle()
    assert len(harness.agent.calls) == 1 and len(harness.fake.calls_to("chat.postMessage")) == 2


async def test_feedback_is_recorded_with_question_and_answer_ids(harness):
    await harness.ask("how do we roll back a deploy?", user="U0ALICE")
    await harness.settle()
    anchor = harness.anchor_ts()
    answer = [c for c in harness.fake.calls_to("chat.postMessage") if c.args.get("thread_ts") == anchor][-1]
    buttons = next(b for b in answer.args["blocks"] if b["type"] == "actions")["elements"]
    answer_id = buttons[0]["value"]
    click = harness.requests.block_action("feedback_down", answer_id, user="U0BOB",
                                          message_ts=answer.response["ts"], thread_ts=anchor)
    response = await harness.dispatch(click)
    assert response.status == 200
    await harness.settle()
    (entry,) = await harness.deps.feedback.list()
    assert (entry.answer_id, entry.question, entry.vote, entry.user) == (
        answer_id, "how do we roll back a deploy?", "down", "U0BOB")
    assert entry.team == harness.fake.team_id and entry.channel == CHANNEL
    (thanks,) = harness.fake.calls_to("chat.postEphemeral")
    assert thanks.args["user"] == "U0BOB" and "Thanks" in block_text(thanks.args)


async def test_feedback_after_a_restart_still_finds_the_question(harness_factory, slack_settings):
    first = await harness_factory(FakeAgent())
    await first.ask("who approves a hotfix?")
    await first.settle()
    anchor = first.anchor_ts()
    answer = [c for c in first.fake.calls_to("chat.postMessage") if c.args.get("thread_ts") == anchor][-1]
    answer_id = next(b for b in answer.args["blocks"] if b["type"] == "actions")["elements"][0]["value"]
    await first.close()
    second = await harness_factory(FakeAgent(), settings=slack_settings)
    await second.dispatch(second.requests.block_action("feedback_up", answer_id, message_ts=answer.response["ts"],
                                                       thread_ts=anchor))
    await second.settle()
    (entry,) = await second.deps.feedback.list()
    assert entry.question == "who approves a hotfix?" and entry.vote == "up"


async def test_url_verification_challenge_is_answered(harness):
    import json

    body = json.dumps({"token": "legacy", "challenge": "c-123", "type": "url_verification"})
    response = await harness.dispatch(harness.requests.sign(body))
    assert response.status == 200 and "c-123" in response.body


async def test_a_listener_crash_is_logged_with_an_id_and_the_app_keeps_serving(harness_factory):
    import structlog

    from bot.deps import Background

    class BrokenBackground(Background):
        def spawn(self, coro, *, name):
            coro.close()
            raise RuntimeError("cannot start the task")

    harness = await harness_factory(background=BrokenBackground())
    with structlog.testing.capture_logs() as logs:
        broken = await harness.ask("crash, please")
    assert broken.status == 200  # acked, so Slack does not retry into the same crash
    (failure,) = [e for e in logs if e["event"] == "slack.listener_failed"]
    assert failure["error_id"] in broken.body
    harness.deps.background = Background()
    await harness.ask("still there?")
    await harness.settle()
    assert [c.question for c in harness.agent.calls] == ["still there?"]

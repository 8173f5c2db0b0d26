"""Follow-ups in threads, @mentions, DMs, and the messages the bot must ignore."""

from __future__ import annotations

import pytest

from tests.bot.fakes import FakeAgent, block_text

CHANNEL = "C0CHAN"


async def test_thread_reply_is_a_follow_up_with_history(harness):
    await harness.ask("how do we roll back a deploy?")
    await harness.settle()
    anchor = harness.anchor_ts()
    await harness.event(harness.requests.message("how does it differ for hotfixes?", thread_ts=anchor))
    await harness.settle()
    first, follow = harness.agent.calls
    assert follow.question == "how does it differ for hotfixes?"
    assert [t.question for t in follow.history] == ["how do we roll back a deploy?"]
    assert follow.history[0].cited_ids == ["deploys.md#0"] and follow.history[0].answer_id
    texts = harness.thread_texts(CHANNEL, anchor)
    assert any("after: how do we roll back a deploy?" in t for t in texts)  # answered in the same thread


async def test_follow_up_after_a_restart_uses_the_same_sqlite_file(harness_factory, slack_settings):
    first = await harness_factory(FakeAgent())
    await first.ask("who approves a production hotfix?")
    await first.settle()
    anchor = first.anchor_ts()
    await first.close()  # the process goes away; only the data dir remains

    agent = FakeAgent()
    second = await harness_factory(agent, settings=slack_settings)  # a new app over the same data dir
    await second.event(second.requests.message("and at weekends?", thread_ts=anchor))
    await second.settle()
    (follow,) = agent.calls
    assert [t.question for t in follow.history] == ["who approves a production hotfix?"]
    assert any("after: who approves a production hotfix?" in t for t in second.thread_texts(CHANNEL, anchor))


async def test_reply_in_a_thread_the_bot_never_answered_is_ignored(harness):
    await harness.event(harness.requests.message("random chatter", thread_ts="1600000000.000001"))
    await harness.event(harness.requests.message("top-level chatter"))
    await harness.settle()
    assert harness.agent.calls == [] and harness.fake.calls == []


async def test_thanks_in_a_thread_gets_a_reaction_not_a_new_answer(harness):
    await harness.ask("how do we roll back a deploy?")
    await harness.settle()
    replies = [harness.requests.message(text, thread_ts=harness.anchor_ts()) for text in ("thanks!", ":+1:", "Ok 🙏")]
    for reply in replies:
        await harness.event(reply)
    await harness.settle()
    assert len(harness.agent.calls) == 1
    # Each reply is its own background task: the reactions land in any order.
    reacted = sorted(c.args["timestamp"] for c in harness.fake.calls_to("reactions.add"))
    assert reacted == sorted(r["ts"] for r in replies)


async def test_mention_in_a_channel_is_answered_in_a_thread_once(harness):
    mention = harness.requests.app_mention("how do we roll back a deploy?")
    # Slack sends the mention twice: as app_mention and as a `message` carrying <@BOT>; answer only once.
    duplicate = harness.requests.message(mention["text"], ts=mention["ts"])
    await harness.event(mention)
    await harness.event(duplicate)
    await harness.settle()
    assert [c.question for c in harness.agent.calls] == ["how do we roll back a deploy?"]
    thread = harness.fake.thread(CHANNEL, mention["ts"])
    assert len(thread) == 1 and thread[0]["thread_ts"] == mention["ts"]  # the placeholder, now the answer
    assert "Answer to: how do we roll back a deploy?" in block_text(thread[0])
    assert harness.fake.calls_to("chat.update")  # it showed progress before the answer replaced it


async def test_mention_with_help_gets_usage_in_the_thread(harness):
    mention = harness.requests.app_mention("help")
    await harness.event(mention)
    await harness.settle()
    assert harness.agent.calls == []
    (post,) = harness.fake.calls_to("chat.postMessage")
    assert post.args["thread_ts"] == mention["ts"] and "Usage" in block_text(post.args)


async def test_dm_is_answered_in_the_dm_and_each_thread_has_its_own_history(harness):
    dm = dict(channel="D0DM", channel_type="im")
    await harness.event(harness.requests.message("how do we roll back a deploy?", **dm))
    await harness.settle()
    await harness.event(harness.requests.message("who approves hotfixes?", **dm))
    await harness.settle()
    first_answer, second_answer = (m["ts"] for m in harness.fake.messages["D0DM"])
    posts = [c.args for c in harness.fake.calls_to("chat.postMessage")]
    assert posts and all(p["channel"] == "D0DM" and not p.get("thread_ts") for p in posts)
    # A new top-level DM is a new conversation: the first question is not its context.
    assert harness.agent.calls[1].history == []
    for answer_ts, asked in ((first_answer, "how do we roll back a deploy?"),
                             (second_answer, "who approves hotfixes?")):
        await harness.event(harness.requests.message("and on weekends?", thread_ts=answer_ts, **dm))
        await harness.settle()
        assert [t.question for t in harness.agent.calls[-1].history] == [asked]


async def test_threaded_reply_in_a_dm_is_a_follow_up_in_that_thread(harness):
    dm = dict(channel="D0DM", channel_type="im")
    await harness.event(harness.requests.message("how do we roll back a deploy?", **dm))
    await harness.settle()
    answer_ts = harness.fake.messages["D0DM"][0]["ts"]
    await harness.event(harness.requests.message("what about hotfixes?", thread_ts=answer_ts, **dm))
    await harness.settle()
    first, follow = harness.agent.calls
    assert [t.question for t in follow.history] == ["how do we roll back a deploy?"]
    assert harness.fake.thread("D0DM", answer_ts)[-1].get("thread_ts") == answer_ts


@pytest.mark.parametrize("extra", [
    {"bot_id": "B0OTHER"},
    {"subtype": "bot_message", "bot_id": "B0OTHER"},
    {"subtype": "message_changed"},
    {"subtype": "message_deleted"},
    {"subtype": "channel_join"},
])
async def test_bot_messages_edits_deletes_and_joins_are_ignored(harness, extra):
    await harness.ask("how do we roll back a deploy?")
    await harness.settle()
    calls_before = len(harness.fake.calls)
    await harness.event(harness.requests.message("how about hotfixes?", thread_ts=harness.anchor_ts(), **extra))
    await harness.event(harness.requests.message("a DM from a bot", channel="D0DM", channel_type="im", **extra))
    await harness.settle()
    assert len(harness.agent.calls) == 1 and len(harness.fake.calls) == calls_before


async def test_own_messages_are_ignored(harness):
    await harness.ask("how do we roll back a deploy?")
    await harness.settle()
    own = harness.requests.message("our own answer", user=harness.fake.bot_user_id, bot_id=harness.fake.bot_id,
                                   thread_ts=harness.anchor_ts())
    await harness.event(own)
    await harness.settle()
    assert len(harness.agent.calls) == 1


@pytest.mark.parametrize("who", ["bot_id", "bot_message", "ourselves"])
async def test_mentions_from_bots_are_ignored(harness, who):
    # Two bots that answer each other's mentions would loop; a human mention next to them is still answered.
    mention = harness.requests.app_mention("how do we deploy?", user="U0OTHERBOT")
    if who == "bot_id":
        mention["bot_id"] = "B0OTHER"
    elif who == "bot_message":
        mention["subtype"] = "bot_message"
    else:
        mention["user"] = harness.fake.bot_user_id
    human = harness.requests.app_mention("and how do we roll back?")
    await harness.event(mention)
    await harness.event(human)
    await harness.settle()
    assert [c.question for c in harness.agent.calls] == ["and how do we roll back?"]
    assert harness.fake.thread(CHANNEL, mention["ts"]) == []

"""Follow-ups: only in threads the bot answered in, and never lost when the history store fails."""

from __future__ import annotations

from synthesis.errors import StoreUnavailable
from tests.bot.fakes import FakeAgent, block_text

CHANNEL = "C0CHAN"


class BrokenStore:
    """A conversation store whose saves fail (a full disk) while loads still work."""

    def __init__(self, *, load: bool = False, save: bool = True) -> None:
        self.fail_load, self.fail_save = load, save
        self.saved: list[tuple[str, str]] = []

    async def load(self, *, team, channel, thread):
        if self.fail_load:
            raise StoreUnavailable("Redis at redis://127.0.0.1:1 failed: connection refused")
        return []

    async def save(self, *, team, channel, thread, turn):
        if self.fail_save:
            raise StoreUnavailable("Redis at redis://127.0.0.1:1 failed: connection refused")
        self.saved.append((channel, thread))


async def test_a_mention_in_someone_elses_thread_does_not_claim_it(harness):
    root = harness.requests.message("lunch plans?", user="U0OTHER")
    await harness.event(root)
    await harness.event(harness.requests.app_mention("how do we deploy?", thread_ts=root["ts"]))
    await harness.settle()
    assert len(harness.agent.calls) == 1
    assert "Answer to: how do we deploy?" in "\n".join(harness.thread_texts(CHANNEL, root["ts"]))
    # Later plain replies between people stay theirs: no answer, no reaction.
    for text in ("pizza?", "sure, and thanks"):
        await harness.event(harness.requests.message(text, user="U0OTHER", thread_ts=root["ts"]))
    await harness.settle()
    assert len(harness.agent.calls) == 1 and not harness.fake.calls_to("reactions.add")
    # Another mention in the same thread continues the mentions' own conversation.
    await harness.event(harness.requests.app_mention("and rollbacks?", thread_ts=root["ts"]))
    await harness.settle()
    assert [t.question for t in harness.agent.calls[-1].history] == ["how do we deploy?"]


async def test_a_mention_in_the_bots_own_thread_keeps_the_thread(harness):
    await harness.ask("how do we deploy?")
    await harness.settle()
    anchor = harness.anchor_ts()
    await harness.event(harness.requests.app_mention("and rollbacks?", thread_ts=anchor))
    await harness.settle()
    await harness.event(harness.requests.message("and hotfixes?", thread_ts=anchor))
    await harness.settle()
    assert [len(c.history) for c in harness.agent.calls] == [0, 1, 2]


def dead_redis():
    """The real Redis store pointed at a port where nothing listens: every load and save fails."""
    from bot.threads import RedisConversationStore
    from tests.conftest import free_port

    return RedisConversationStore(f"redis://127.0.0.1:{free_port()}/0", ttl_seconds=60)


async def test_a_follow_up_is_answered_standalone_with_a_notice_when_history_fails(harness_factory):
    h = await harness_factory(FakeAgent())
    h.deps.conversations = dead_redis()
    await h.ask("how do we deploy?")
    await h.settle()
    await h.event(h.requests.message("and rollbacks?", thread_ts=h.anchor_ts()))
    await h.settle()
    assert [c.question for c in h.agent.calls] == ["how do we deploy?", "and rollbacks?"]
    assert h.agent.calls[1].history == []
    reply = "\n".join(h.thread_texts(CHANNEL, h.anchor_ts()))
    assert "Answer to: and rollbacks?" in reply and "answered this as a standalone question" in reply


async def test_after_a_restart_with_history_down_slack_says_whose_thread_it_is(harness_factory, slack_settings):
    first = await harness_factory(FakeAgent())
    await first.ask("how do we deploy?")
    await first.settle()
    anchor = first.anchor_ts()
    human = first.requests.message("lunch?", user="U0OTHER")
    await first.event(human)
    await first.settle()
    # A new process (nothing remembered in memory) whose history store is down.
    h = await harness_factory(FakeAgent())
    h.deps.conversations = dead_redis()
    await h.event(h.requests.message("and rollbacks?", thread_ts=anchor))
    await h.event(h.requests.message("pizza?", user="U0OTHER", thread_ts=human["ts"]))
    await h.settle()
    assert [c.question for c in h.agent.calls] == ["and rollbacks?"]  # the bot's thread only
    assert "standalone question" in block_text(h.fake.thread(CHANNEL, anchor)[-1])


async def test_a_failed_save_does_not_lose_the_next_follow_up(harness_factory):
    h = await harness_factory(FakeAgent())
    h.deps.conversations = BrokenStore()  # loads work (empty), saves fail
    await h.ask("how do we deploy?")
    await h.settle()
    await h.event(h.requests.message("and rollbacks?", thread_ts=h.anchor_ts()))
    await h.settle()
    assert [c.question for c in h.agent.calls] == ["how do we deploy?", "and rollbacks?"]

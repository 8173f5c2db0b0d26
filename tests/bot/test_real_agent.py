"""The Slack app over the real Agent and a real Chroma knowledge base (HashEmbedder, so it stays fast)."""

from __future__ import annotations

import re

import pytest

from synthesis.agent import build_agent
from synthesis.embedding import HashEmbedder
from synthesis.ingest import ingest
from synthesis.store import KnowledgeStore
from tests.bot.fakes import block_text

CHANNEL = "C0CHAN"
# Every ping the document tries (the asker's own <@U0USER> on the anchor is ours, and fine).
PINGS = re.compile(r"<!(?:channel|here|everyone)|<@U0ONCALL|<#C0OPS")

DOCS = {
    "alerts.md": "---\ntitle: Database alerts\nurl: https://wiki.example.com/alerts\n---\n# Paging\n\n"
                 "When the database is down, post <!channel> in <#C0OPS> and page <@U0ONCALL> the on-call "
                 "engineer. Say <!here> too, and @everyone if customers are affected.\n",
    "deploys.md": "---\ntitle: Deploys\nurl: https://wiki.example.com/deploys\n---\n# Rollback\n\n"
                  "A deploy can be rolled back within 30 minutes with the rollback button.\n\n"
                  "# Hotfixes\n\nA production hotfix needs approval from the release manager.\n",
}


@pytest.fixture
def real_agent(slack_settings, tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    for name, text in DOCS.items():
        (docs / name).write_text(text)
    store = KnowledgeStore.open(slack_settings, HashEmbedder())
    report = ingest(store, [docs])
    assert report.documents == 2
    agent = build_agent(slack_settings, store)
    yield agent
    agent.close()


async def test_document_with_broadcast_tokens_does_not_ping_anyone(harness_factory, real_agent):
    h = await harness_factory(real_agent)
    await h.ask("what do we post when the database is down?")
    await h.settle()
    anchor = h.anchor_ts()
    answer = "\n".join(h.thread_texts(CHANNEL, anchor))
    assert "database is down" in answer  # the passage was found and shown...
    assert not PINGS.search(answer), PINGS.search(answer)  # ...but it pings nobody
    for call in h.fake.calls:
        assert not PINGS.search(str(call.args.get("blocks", ""))), call.method
        assert not PINGS.search(str(call.args.get("text", ""))), call.method


async def test_real_agent_answers_and_follows_up_in_the_thread(harness_factory, real_agent):
    h = await harness_factory(real_agent)
    await h.ask("how long can a deploy be rolled back?")
    await h.settle()
    anchor = h.anchor_ts()
    first = "\n".join(h.thread_texts(CHANNEL, anchor))
    assert "30 minutes" in first and "wiki.example.com/deploys" in first
    await h.event(h.requests.message("and who approves a production hotfix?", thread_ts=anchor))
    await h.settle()
    replies = h.thread_texts(CHANNEL, anchor)
    assert len(replies) >= 2 and "release manager" in replies[-1]
    turns = await h.deps.conversations.load(team=h.fake.team_id, channel=CHANNEL, thread=anchor)
    assert [t.question for t in turns] == ["how long can a deploy be rolled back?",
                                           "and who approves a production hotfix?"]
    assert all(t.cited_ids for t in turns)


async def test_real_agent_without_a_knowledge_base_says_run_ingest(harness_factory, slack_settings):
    agent = build_agent(slack_settings, KnowledgeStore.open(slack_settings, HashEmbedder(), collection="empty"))
    try:
        h = await harness_factory(agent)
        await h.ask("anything?")
        await h.settle()
        assert "synthbot ingest" in "\n".join(h.thread_texts(CHANNEL, h.anchor_ts()))
    finally:
        agent.close()


async def test_progress_from_the_real_agent_updates_the_anchor(harness_factory, real_agent):
    h = await harness_factory(real_agent)
    await h.ask("how long can a deploy be rolled back?")
    await h.settle()
    texts = [block_text(c.args) for c in h.fake.calls_to("chat.update")]
    assert texts and "Answered in the thread" in texts[-1]
    assert not any("……" in t for t in texts)

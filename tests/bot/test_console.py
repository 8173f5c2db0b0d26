"""`synthbot console`: the same app through signed requests and the fake Web API, rendered as text."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from bot.console import blocks_to_renderable, mrkdwn_to_text, run_console
from bot.feedback import FeedbackLog
from tests.bot.fakes import FakeAgent


async def lines_of(*lines: str):
    for line in lines:
        yield line


def capture() -> tuple[Console, io.StringIO]:
    buffer = io.StringIO()
    return Console(file=buffer, width=120, color_system=None), buffer


async def test_console_asks_follows_up_and_votes(settings):
    out, buffer = capture()
    agent = FakeAgent()
    code = await run_console(settings, agent=agent, out=out, lines=lines_of(
        "/ask how do we roll back a deploy?", "> and for hotfixes?", "1", "quit", "/ask never reached"))
    text = buffer.getvalue()
    assert code == 0
    assert "asked:" in text and "how do we roll back a deploy?" in text  # the anchor
    assert "Answer to: how do we roll back a deploy?" in text
    assert "Rollbacks take 30 minutes" in text and "https://wiki.example.com/deploys" in text  # citation link shown
    assert "[1] 👍 Helpful" in text and "[2] 👎 Not helpful" in text
    assert "after: how do we roll back a deploy?" in text  # the follow-up used the thread's history
    assert "Thanks for the feedback" in text
    assert [c.question for c in agent.calls] == ["how do we roll back a deploy?", "and for hotfixes?"]


async def test_console_threads_and_votes_stay_out_of_the_real_data_dir(settings, tmp_path):
    # Production feedback that a console session must neither add to nor read from; a Redis it must not use.
    real = FeedbackLog(settings.home / "feedback.sqlite3")
    await real.record(answer_id="prod1", question="a real question", vote="down", user="U1", team="T1", channel="C1")
    await real.close()
    dead_redis = settings.model_copy(update={"redis_url": "redis://127.0.0.1:1/0"})
    out, buffer = capture()
    # This session's own scratch parent: other processes' synthbot-console-* dirs in /tmp cannot interfere.
    parent = tmp_path / "scratch"
    parent.mkdir()
    during: list[list[str]] = []

    async def lines():
        for line in ("/ask how do we roll back?", "> and hotfixes?", "2"):
            during.append([p.name for p in parent.iterdir()])
            yield line

    agent = FakeAgent()
    await run_console(dead_redis, agent=agent, out=out, lines=lines(), scratch_parent=parent)
    text = buffer.getvalue()
    assert "Thanks — noted" in text  # the vote was recorded (in the session's own log)
    assert agent.calls[1].history[0].question == "how do we roll back?"  # threads work without Redis
    assert [v.answer_id for v in await FeedbackLog(settings.home / "feedback.sqlite3").list()] == ["prod1"]
    assert not (settings.home / "conversations.sqlite3").exists()
    assert len(during[0]) == 1 and during[0][0].startswith("synthbot-console-")  # the session used one
    assert not list(parent.iterdir())  # and it is gone


async def test_console_shows_usage_and_option_errors(settings):
    out, buffer = capture()
    await run_console(settings, agent=FakeAgent(), out=out, lines=lines_of("/ask help", "/ask x --bogus", "> hi"))
    text = buffer.getvalue()
    assert "only visible to you" in text and "Usage:" in text and "Unknown option" in text
    assert "No thread yet" in text


async def test_console_without_a_knowledge_base_says_so(settings):
    from synthesis.agent import build_agent
    from synthesis.embedding import HashEmbedder
    from synthesis.store import KnowledgeStore

    # The real agent over an empty data dir (HashEmbedder instead of the model keeps this fast).
    agent = build_agent(settings, KnowledgeStore.open(settings, HashEmbedder()))
    out, buffer = capture()
    await run_console(settings, agent=agent, out=out, lines=lines_of("/ask how do we deploy?"))
    text = buffer.getvalue()
    assert "There is no knowledge base" in text and "synthbot ingest" in text
    assert "There's no knowledge base yet" in text  # and the bot said so in the thread


def test_mrkdwn_renders_links_bold_and_escapes():
    text = mrkdwn_to_text("*Deploys* use <https://x.io/r|the runbook> &amp; `a&lt;b` <@U1|ann>").plain
    assert text == "Deploys use the runbook (https://x.io/r) & a<b @ann"


def test_blocks_render_as_readable_text():
    out, buffer = capture()
    out.print(blocks_to_renderable({"text": "t", "blocks": [
        {"type": "section", "text": {"type": "mrkdwn", "text": "Summary <https://a.io|[1]>"}},
        {"type": "divider"},
        {"type": "context", "elements": [{"type": "mrkdwn", "text": "confidence: high"}]},
        {"type": "actions", "elements": [{"type": "button", "action_id": "feedback_up",
                                          "text": {"type": "plain_text", "text": "👍"}, "value": "a1"}]},
    ]}, buttons={"feedback_up": "1"}))
    text = buffer.getvalue()
    assert "Summary [1]" in text and "confidence: high" in text and "[1] 👍" in text and "─" in text

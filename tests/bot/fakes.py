"""Fake agents that implement `answer(...)` (the one seam the Slack edge uses) and a harness over the real app."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from bot.app import build_app
from bot.deps import BotIdentity, Deps, make_web_client
from bot.fake_slack import FakeSlack, SlackRequests, SignedRequest, block_problems
from bot.feedback import FeedbackLog
from bot.threads import SQLiteConversationStore
from synthesis.config import Settings
from synthesis.errors import KnowledgeBaseMissing
from synthesis.models import (AnswerResult, AskOptions, Finding, Passage, QuestionType, Quality, Source, Synthesis,
                              Turn)

SECRET = "test-signing-secret"


def make_result(question: str, *, summary: str | None = None, history: Sequence[Turn] = (),
                no_answer: bool = False, url: str = "https://wiki.example.com/deploys") -> AnswerResult:
    """A small, well-formed answer: one finding citing one source."""
    standalone = f"{question} (after: {history[-1].question})" if history else question
    passage = Passage(id="deploys.md#0", doc_id="deploys.md", content="Deploys roll back within 30 minutes.",
                      score=0.9, title="Deploys", source_url=url, section="Rollback")
    synthesis = Synthesis(
        summary=summary or f"Answer to: {standalone}",
        findings=[] if no_answer else [Finding(topic="Rollback", content="Rollbacks take 30 minutes [1].",
                                               citations=[1], confidence="high")],
        sources=[] if no_answer else [Source(number=1, passage_id=passage.id, doc_id=passage.doc_id,
                                             title="Deploys", section="Rollback", url=url)],
        quality=Quality(citation_rate=1.0, coherence=1.0, completeness=1.0, overall=0.9),
    )
    return AnswerResult(question=question, standalone_question=standalone, question_type=QuestionType.FACTUAL,
                        passages=[] if no_answer else [passage], synthesis=synthesis, no_answer=no_answer,
                        duration=0.01)


@dataclass
class Asked:
    question: str
    history: list[Turn]
    options: AskOptions | None


@dataclass
class FakeAgent:
    """Answers every question at once (or after `gate` opens), reporting two progress stages."""

    summary: str | None = None
    no_answer: bool = False
    gate: asyncio.Event | None = None
    stage_seconds: float = 0.02  # time "spent" in each stage, so progress updates have a chance to show
    calls: list[Asked] = field(default_factory=list)

    async def answer(self, question: str, *, history: Sequence[Turn] = (), options: AskOptions | None = None,
                     progress: Callable[[str], Awaitable[None]] | None = None) -> AnswerResult:
        self.calls.append(Asked(question, list(history), options))
        if progress:
            await progress("plan")
        await asyncio.sleep(self.stage_seconds)
        if self.gate is not None:
            await self.gate.wait()
        if progress:
            await progress("synthesize")
        await asyncio.sleep(self.stage_seconds)
        return make_result(question, summary=self.summary, history=history, no_answer=self.no_answer)


class RaisingAgent:
    def __init__(self, exc: BaseException) -> None:
        self.exc = exc

    async def answer(self, question, *, history=(), options=None, progress=None) -> AnswerResult:
        raise self.exc


class SlowAgent:
    async def answer(self, question, *, history=(), options=None, progress=None) -> AnswerResult:
        await asyncio.sleep(30)
        raise AssertionError("unreachable: the deadline cancels this")


def no_kb_agent() -> RaisingAgent:
    return RaisingAgent(KnowledgeBaseMissing("no knowledge base 'synthbot' — run `synthbot ingest PATH` first"))


class Harness:
    """The real Bolt app over a FakeSlack, with signed requests; `await h.settle()` waits for background work."""

    def __init__(self, fake: FakeSlack, settings: Settings, agent, **deps_kwargs) -> None:
        self.fake, self.settings, self.agent = fake, settings, agent
        self.requests = SlackRequests(SECRET, team_id=fake.team_id, bot_user_id=fake.bot_user_id,
                                      response_url=fake.response_url)
        self.deps_kwargs = deps_kwargs
        self.deps: Deps | None = None
        self.app = None

    async def start(self) -> "Harness":
        settings = self.settings
        self.deps = Deps(
            settings=settings, agent=self.agent,
            conversations=SQLiteConversationStore(settings.home / "conversations.sqlite3",
                                                  ttl_seconds=settings.thread_ttl_seconds),
            feedback=FeedbackLog(settings.home / "feedback.sqlite3"),
            client=make_web_client(settings, self.fake.bot_token),
            identity=BotIdentity(team_id=self.fake.team_id, bot_user_id=self.fake.bot_user_id, bot_id=self.fake.bot_id),
            **self.deps_kwargs,
        )
        self.app = build_app(self.deps, signing_secret=SECRET)
        return self

    async def close(self) -> None:
        if self.app is None:
            return
        await self.settle()
        await self.deps.aclose()
        self.app = None

    async def dispatch(self, request: SignedRequest):
        return await self.app.async_dispatch(request.to_bolt())

    async def settle(self, timeout: float = 20.0) -> None:
        await self.deps.background.drain(timeout)

    # --- shortcuts -------------------------------------------------------------------------------------
    async def ask(self, text: str, **kw):
        return await self.dispatch(self.requests.slash_command(text, **kw))

    async def event(self, event: dict, **kw):
        return await self.dispatch(self.requests.event(event, **kw))

    def posts(self, channel: str | None = None) -> list[dict]:
        return [c.args for c in self.fake.calls_to("chat.postMessage") if channel in (None, c.args.get("channel"))]

    def anchor_ts(self, n: int = 0) -> str:
        anchors = [c for c in self.fake.calls_to("chat.postMessage") if not c.args.get("thread_ts")]
        return anchors[n].response["ts"]

    def thread_texts(self, channel: str, ts: str) -> list[str]:
        return [block_text(m) for m in self.fake.thread(channel, ts) if m["ts"] != ts]


def block_text(message: dict) -> str:
    """All text in a message (fallback and blocks), for assertions."""
    parts = [message.get("text") or ""]

    def walk(node) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "text" and isinstance(value, str):
                    parts.append(value)
                else:
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(message.get("blocks") or [])
    return "\n".join(parts)


def assert_slack_would_accept(fake: FakeSlack) -> None:
    """Every message we sent is within Slack's limits and validates as Block Kit."""
    for call in fake.calls:
        if call.method in ("chat.postMessage", "chat.update", "chat.postEphemeral") and not call.scripted:
            assert call.response.get("ok"), (call.method, call.response)
            blocks = call.args.get("blocks") or []
            assert len(blocks) <= 50
            assert call.args.get("text"), f"{call.method} without a text fallback"
            assert not block_problems(blocks), block_problems(blocks)
            for block in blocks:
                if block.get("type") == "section":
                    assert len(block["text"]["text"]) <= 3000

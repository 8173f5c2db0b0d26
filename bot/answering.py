"""The work after the ack: run the agent (bounded, with a deadline) and deliver the answer or an error in Slack."""

from __future__ import annotations

import asyncio
import re
import uuid
from collections import OrderedDict
from dataclasses import dataclass

import structlog
from slack_sdk.models.blocks import ContextBlock, MarkdownTextObject, SectionBlock
from slack_sdk.webhook.async_client import AsyncWebhookClient

from bot import render
from bot.commands import USAGE, AskRequest, UsageError, parse_ask, unwrap_slack_text
from bot.deps import Deps, ProgressUpdater
from bot.slack_errors import refusal
from bot.channels import ChannelDirectory
from synthesis.errors import (ChannelRulesInvalid, InvalidQuery, KnowledgeBaseMissing, OutOfScope, StoreUnavailable,
                             SynthbotError)
from synthesis.models import AnswerResult, AskOptions, Turn
from synthesis.scoping import Channel
from synthesis.usage import ORIGIN

log = structlog.get_logger(__name__)

# Replies that only acknowledge an answer get a reaction, not a fresh agent run.
_THANKS = re.compile(r"^(?:\W|:[\w+-]+:)*(?:thanks?|thank you|thx|ty|ok(?:ay)?|cool|great|got it|perfect|nice)?"
                     r"(?:\W|:[\w+-]+:)*$", re.I)
RULES_INVALID = ("the channel rules file is invalid, so no channel is answered until it is fixed — whoever runs the "
                 "bot will find why in the log under this error id")
HISTORY_LOST = ("I couldn't load this thread's earlier messages, so I answered this as a standalone question — "
                "mention what it refers to if the answer misses it.")


def new_error_id() -> str:
    return uuid.uuid4().hex[:10]


@dataclass
class Where:
    """Where a question came from and where its answer goes."""

    team: str
    channel: str
    user: str
    reply_ts: str | None  # thread for the answer; None posts at the top level (a DM)
    keys: list[str]  # conversation-store thread keys: history is read from keys[0], the turn saved under all
    response_url: str | None = None
    borrowed: bool = False  # a mention inside someone else's thread: answering it must not make the thread ours
    fresh: bool = False  # a top-level mention or DM: a new conversation, with no history to load
    kind: str = "channel"  # im / mpim / channel: which channel rule applies (synthesis.scoping)
    channel_name: str = ""  # when Slack sent it (slash commands); else looked up if the rules need it


@dataclass
class Status:
    """The message that shows progress: the /ask anchor (kept), or a placeholder that becomes the answer."""

    channel: str
    question: str
    ts: str | None = None
    anchor_user: str | None = None  # set for the /ask anchor: it keeps "<@U> asked" and is restored at the end

    @property
    def replaceable(self) -> bool:
        return self.ts is not None and self.anchor_user is None


class Answerer:
    """The background tasks the listeners spawn, over one Deps."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps
        # answer id → (channel, question), for feedback after a miss: a vote only ever gets its own channel's question
        self._questions: OrderedDict[str, tuple[str, str]] = OrderedDict()
        self.channels = ChannelDirectory(deps.client, names_needed=lambda: bool(
            deps.rules is not None and deps.rules.current().uses_names))
        self._answered: OrderedDict[tuple[str, str], None] = OrderedDict()  # (channel, thread key) answered in

    async def run_ask(self, *, team: str, channel: str, user: str, request: AskRequest, response_url: str | None,
                      channel_name: str = "", kind: str = "channel") -> None:
        """Post the anchor, then answer (or run the coverage report) in its thread."""
        shown = request.question if not request.coverage else f"--coverage {request.coverage_topic or ''}".strip()
        anchor = render.render_anchor(user, shown)
        try:
            resp = await self.deps.client.chat_postMessage(channel=channel, **anchor.as_kwargs(), unfurl_links=False)
        except Exception as exc:
            why = refusal(exc)
            log.warning("slack.anchor_failed", channel=channel, cause=why.cause, error=why.error)
            await self._respond(response_url, f"I couldn't post your question: {why.reason}.")
            return
        ts = resp["ts"]
        where = Where(team=team, channel=channel, user=user, reply_ts=ts, keys=[ts], response_url=response_url,
                      kind=kind, channel_name=channel_name)
        status = Status(channel=channel, question=shown, ts=ts, anchor_user=user)
        if request.coverage:
            await self._coverage(where, request.coverage_topic, status)
        else:
            await self.answer(where, request.question, request.options, status)

    async def run_chat(self, where: Where, text: str, *, parse: bool, history_required: bool,
                       message_ts: str | None = None) -> None:
        """A mention, DM or thread reply: answer it where it was asked.

        A plain reply is a follow-up only in a thread the bot answered in (its history says so). When the history
        store fails, the thread is checked another way and the reply is answered standalone, with a notice.
        """
        history, loaded = ([], True) if where.fresh else await self._history(where)
        if where.borrowed and loaded and not history:
            # Not a thread the bot answered in: keep this mention's history apart, so later plain replies in
            # the thread stay human conversation (only further mentions continue it).
            where.keys = [f"mention:{where.keys[0]}"]
            history, loaded = await self._history(where)
        notices: list[str] = []
        if history_required and not history:
            if loaded and (where.channel, where.keys[0]) not in self._answered:
                return  # a reply in a thread the bot never answered: not ours
            if not loaded and not await self._bot_posted_in(where.channel, where.keys[0]):
                return
            notices.append(HISTORY_LOST)
        elif not loaded:
            notices.append(HISTORY_LOST)
        if parse:
            parsed = parse_ask(text)
            if isinstance(parsed, UsageError) or parsed.help:
                await self._post(where, text=parsed.text if isinstance(parsed, UsageError) else USAGE)
                return
            if parsed.coverage:
                if self.deps.coverage is None:
                    await self._post(where, text="Coverage reports are not available in this version yet.")
                else:
                    await self._coverage(where, parsed.coverage_topic, Status(channel=where.channel, question=""))
                return
            question, options = parsed.question, parsed.options
        else:
            question, options = unwrap_slack_text(text).strip(), AskOptions()
            if _THANKS.match(question) and message_ts:
                await self._react(where.channel, message_ts, "+1")
                return
        placeholder = render.render_progress("planning")
        status = Status(channel=where.channel, question=question)
        try:
            resp = await self.deps.client.chat_postMessage(channel=where.channel, thread_ts=where.reply_ts,
                                                           **placeholder.as_kwargs())
            status.ts = resp["ts"]
            if where.reply_ts is None:  # a top-level DM: a thread started under the answer continues it
                where.keys.append(status.ts)
        except Exception as exc:
            log.warning("slack.placeholder_failed", channel=where.channel, error=str(exc))
        await self.answer(where, question, options, status, history=history, notices=notices)

    async def answer(self, where: Where, question: str, options: AskOptions, status: Status, *,
                     history: list[Turn] | None = None, notices: list[str] | None = None) -> None:
        """Run the agent (bounded, with a deadline) and deliver the answer or an actionable error in the thread."""
        deps = self.deps
        log_ = log.bind(channel=where.channel, thread=where.reply_ts, user=where.user)
        history = history or []  # /ask starts a new thread: there is no history to load
        ORIGIN.set({"team": where.team, "channel": where.channel, "user": where.user})  # for the retrieval log
        ahead = deps.limiter.queued_ahead()
        # Join the queue before telling the user, so the next caller counts this one as ahead of them.
        queued = asyncio.create_task(self._show(status, _queued_text(ahead))) if ahead is not None else None
        updater = ProgressUpdater(lambda stage: self._show(status, stage))
        result: AnswerResult | None = None
        error: tuple[str, str, str | None] | None = None
        interrupted = False
        async with deps.limiter.slot():
            if queued is not None:
                await queued  # so "Queued" never lands after the first progress stage
            try:
                result = await asyncio.wait_for(
                    deps.agent.answer(question, history=history, options=options, progress=updater,
                                      **await self._scope_of(where)), deps.answer_timeout)
            except KnowledgeBaseMissing as exc:
                error = ("no_kb", str(exc), None)
            except OutOfScope as exc:  # the channel rules give this channel nothing: say so, not "not found"
                error = ("out_of_scope", str(exc), None)
            except ChannelRulesInvalid as exc:  # the details name channels and collections: the log only
                error_id = new_error_id()
                log_.error("answer.channel_rules_invalid", error_id=error_id, error=str(exc))
                error = ("internal", RULES_INVALID, error_id)
            except asyncio.TimeoutError:
                error = ("timeout", f"no answer within {deps.answer_timeout:g} s", None)
            except InvalidQuery as exc:
                error = ("invalid", str(exc), None)
            except StoreUnavailable as exc:  # a failure, never "not found"
                error_id = new_error_id()
                log_.error("answer.store_unavailable", error_id=error_id, error=str(exc))
                error = ("store_unavailable", str(exc), error_id)
            except SynthbotError as exc:  # a setup problem (store, model, Claude): its message says what to fix
                error_id = new_error_id()
                log_.error("answer.failed", error_id=error_id, error=str(exc), kind=exc.__class__.__name__)
                error = ("internal", str(exc), error_id)
            except Exception as exc:
                error_id = new_error_id()
                log_.error("answer.failed", error_id=error_id, question=question[:200], exc_info=exc)
                error = ("internal", f"{exc.__class__.__name__}", error_id)
            except asyncio.CancelledError:  # shutdown ran out of drain time: say so, not "Working…" forever
                log_.warning("answer.interrupted", question=question[:200])
                error, interrupted = ("restarting", "", None), True
        await updater.close()
        if result is not None:
            log_.info("answer.done", answer_id=result.id, no_answer=result.no_answer, seconds=round(result.duration, 2))
            result.notices.extend(n for n in notices or () if n not in result.notices)
            messages = await asyncio.to_thread(render.render_answer, result, options=options)  # CPU: off the loop
            await self._deliver(where, status, messages, outcome="not_found" if result.no_answer else "answered")
            await self._save(where, question, result)
        else:
            kind, detail, error_id = error
            await self._deliver(where, status, [render.render_error(kind, detail, error_id=error_id)], outcome=kind)
        if interrupted:
            raise asyncio.CancelledError  # the notice is posted; the task still ends cancelled, as shutdown asked

    async def record_feedback(self, body: dict, action: dict) -> None:
        """Store the vote with its question and answer ids, then thank the user ephemerally."""
        answer_id = action.get("value", "")
        vote = "up" if action.get("action_id") == "feedback_up" else "down"
        user = (body.get("user") or {}).get("id", "")
        team = (body.get("team") or {}).get("id") or (body.get("user") or {}).get("team_id", "")
        container = body.get("container") or {}
        message = body.get("message") or {}
        channel = container.get("channel_id") or (body.get("channel") or {}).get("id", "")
        thread = message.get("thread_ts") or container.get("thread_ts") or message.get("ts") or container.get("message_ts")
        question = await self._question_for(team, channel, [thread, f"mention:{thread}"], answer_id)
        log.info("feedback.question", found=bool(question), channel=channel)
        try:
            await self.deps.feedback.record(answer_id=answer_id, question=question, vote=vote, user=user, team=team,
                                            channel=channel)
            text = "Thanks for the feedback!" if vote == "up" else "Thanks — noted. That helps us improve the answers."
        except Exception as exc:
            error_id = new_error_id()
            log.error("feedback.failed", error_id=error_id, answer_id=answer_id, exc_info=exc)
            text = f"Sorry, I couldn't record that vote (error id `{error_id}`)."
        log.info("feedback.recorded", answer_id=answer_id, vote=vote, user=user)
        try:
            await self.deps.client.chat_postEphemeral(channel=channel, user=user, text=text,
                                                      thread_ts=message.get("thread_ts"))
        except Exception as exc:
            await self._respond(body.get("response_url"), text)
            log.warning("slack.ephemeral_failed", error=str(exc))

    # --- helpers -----------------------------------------------------------------------------------------
    async def _coverage(self, where: Where, topic: str | None, status: Status) -> None:
        """The coverage report (bot.coverage_view) in the thread, then its chart."""
        from bot.coverage_view import post_chart, render_coverage

        report = None
        try:
            report = await asyncio.wait_for(self.deps.coverage(topic, **await self._scope_of(where)),
                                            self.deps.answer_timeout)
            messages, outcome = render_coverage(report), "answered"
        except asyncio.TimeoutError:
            messages, outcome = [render.render_error("timeout", "the coverage report took too long")], "timeout"
        except KnowledgeBaseMissing as exc:
            messages, outcome = [render.render_error("no_kb", str(exc))], "no_kb"
        except OutOfScope as exc:
            messages, outcome = [render.render_error("out_of_scope", str(exc))], "out_of_scope"
        except ChannelRulesInvalid as exc:
            error_id = new_error_id()
            log.error("coverage.channel_rules_invalid", error_id=error_id, error=str(exc))
            messages, outcome = [render.render_error("internal", RULES_INVALID, error_id=error_id)], "internal"
        except Exception as exc:
            error_id = new_error_id()
            log.error("coverage.failed", error_id=error_id, exc_info=exc)
            messages = [render.render_error("internal", exc.__class__.__name__, error_id=error_id)]
            outcome = "internal"
        await self._deliver(where, status, messages, outcome=outcome)
        if report is not None:
            await post_chart(self.deps.client, channel=where.channel, thread_ts=where.reply_ts, report=report)

    async def _scope_of(self, where: Where) -> dict[str, Channel]:
        """`channel=` for the agent and the coverage report under channel rules (the core applies the rule); without
        rules every channel sees the same knowledge base and nothing is passed."""
        if self.deps.rules is None:
            return {}
        return {"channel": await self.channels.channel(where.channel, kind=where.kind,
                                                       name=where.channel_name or None)}

    async def _history(self, where: Where) -> tuple[list[Turn], bool]:
        """(turns, loaded): a store failure degrades the answer (loaded=False); it must not stop it."""
        try:
            return list(await self.deps.conversations.load(team=where.team, channel=where.channel,
                                                           thread=where.keys[0])), True
        except Exception as exc:
            log.warning("threads.load_failed", channel=where.channel, error=str(exc))
            return [], False

    async def _bot_posted_in(self, channel: str, thread: str) -> bool:
        """With the history store down: did the bot answer in this thread? (This process remembers; else Slack.)"""
        if (channel, thread) in self._answered:
            return True
        try:
            resp = await self.deps.client.conversations_replies(channel=channel, ts=thread, limit=200)
        except Exception as exc:
            log.warning("slack.replies_failed", channel=channel, error=str(exc))
            return False
        me = self.deps.identity
        return any(m.get("bot_id") == me.bot_id or m.get("user") == me.bot_user_id
                   for m in resp.get("messages") or [])

    async def _save(self, where: Where, question: str, result: AnswerResult) -> None:
        turn = Turn(question=question, standalone=result.standalone_question, summary=result.synthesis.summary[:4000],
                    cited_ids=[s.passage_id for s in result.synthesis.sources], answer_id=result.id,
                    scope=list(result.scope))
        self._questions[result.id] = (where.channel, question)
        while len(self._questions) > 10_000:
            self._questions.popitem(last=False)
        if not where.borrowed:  # remembered even if the store fails below, so a follow-up is not lost
            for key in where.keys:
                self._answered[(where.channel, key)] = None
            while len(self._answered) > 10_000:
                self._answered.popitem(last=False)
        for key in where.keys:
            try:
                await self.deps.conversations.save(team=where.team, channel=where.channel, thread=key, turn=turn)
            except Exception as exc:
                log.warning("threads.save_failed", channel=where.channel, error=str(exc))

    async def _question_for(self, team: str, channel: str, keys: list[str | None], answer_id: str) -> str:
        for key in filter(None, keys):
            try:
                turns = await self.deps.conversations.load(team=team, channel=channel, thread=key)
            except Exception:
                continue
            for turn in turns:
                if turn.answer_id == answer_id:
                    return turn.question
        asked_in, question = self._questions.get(answer_id, ("", ""))
        return question if asked_in == channel else ""  # a vote from another channel never gets this question

    async def _show(self, status: Status, stage: str) -> None:
        """Show a stage (or queue position) on the status message; a failed update is logged, never raised."""
        if status.ts is None:
            return
        # The anchor keeps "who asked what" above the stage; a placeholder in a thread is just the stage line.
        question = status.question if status.anchor_user else ""
        stage = stage.strip().rstrip("….").strip()  # the renderer adds its own ellipsis
        progress = render.render_progress(stage, question, user_id=status.anchor_user)
        try:
            await self.deps.client.chat_update(channel=status.channel, ts=status.ts, **progress.as_kwargs())
        except Exception as exc:
            log.warning("slack.progress_failed", stage=stage, error=str(exc))

    async def _deliver(self, where: Where, status: Status, messages: list, *, outcome: str) -> None:
        """The first message replaces a placeholder; the rest go in the thread. The anchor says how it ended."""
        client = self.deps.client
        for n, msg in enumerate(messages):
            try:
                if n == 0 and status.replaceable:
                    await client.chat_update(channel=where.channel, ts=status.ts, **msg.as_kwargs())
                else:
                    await client.chat_postMessage(channel=where.channel, thread_ts=where.reply_ts, unfurl_links=False,
                                                  unfurl_media=False, **msg.as_kwargs())
            except Exception as exc:
                error_id, why = new_error_id(), refusal(exc)
                log.error("slack.deliver_failed", error_id=error_id, part=n, cause=why.cause, error=why.error,
                          exc_info=exc)
                what = "I found an answer but couldn't post it" if outcome == "answered" else "I couldn't post my reply"
                await self._refused(where, status, f"{what}: {why.reason} (error id `{error_id}`).",
                                    replace=n == 0 and status.replaceable)
                outcome = f"refused:{why.cause}"
                break
        if status.anchor_user and status.ts:
            try:
                await client.chat_update(channel=status.channel, ts=status.ts,
                                         **_final_anchor(status.anchor_user, status.question,
                                                         _ANCHOR_STATUS.get(outcome, _ANCHOR_FAILED)).as_kwargs())
            except Exception as exc:
                log.warning("slack.anchor_restore_failed", error=str(exc))

    async def _refused(self, where: Where, status: Status, text: str, *, replace: bool) -> None:
        """Slack refused a reply: say so in plain text (no blocks to reject), so the thread never stays silent.

        Over the placeholder when there is one (else it reads "Planning…" forever), else in the thread; the
        response_url only as a last resort, since mentions, DMs and follow-ups have none.
        """
        client = self.deps.client
        if replace:
            try:  # blocks=[] clears the placeholder's blocks; omitting them would keep "Planning…" on screen
                await client.chat_update(channel=where.channel, ts=status.ts, text=text, blocks=[])
                return
            except Exception as exc:
                log.warning("slack.refusal_update_failed", channel=where.channel, error=str(exc))
        try:
            await client.chat_postMessage(channel=where.channel, thread_ts=where.reply_ts, text=text)
            return
        except Exception as exc:
            log.warning("slack.refusal_post_failed", channel=where.channel, error=str(exc))
        await self._respond(where.response_url, text)

    async def _post(self, where: Where, *, text: str) -> None:
        """Post our own mrkdwn text (usage, notices) in the thread."""
        try:
            for msg in _text_messages(text):
                await self.deps.client.chat_postMessage(channel=where.channel, thread_ts=where.reply_ts,
                                                        **msg.as_kwargs())
        except Exception as exc:
            log.warning("slack.post_failed", channel=where.channel, error=str(exc))

    async def _react(self, channel: str, ts: str, name: str) -> None:
        try:
            await self.deps.client.reactions_add(channel=channel, timestamp=ts, name=name)
        except Exception as exc:
            log.warning("slack.reaction_failed", error=str(exc))

    async def _respond(self, response_url: str | None, text: str) -> None:
        """Last resort when the channel is unusable: the command's response_url (ephemeral)."""
        if not response_url:
            return
        try:
            await AsyncWebhookClient(response_url).send(text=text, response_type="ephemeral")
        except Exception as exc:
            log.warning("slack.respond_failed", error=str(exc))


def _text_messages(mrkdwn: str) -> list[render.SlackMessage]:
    """mrkdwn text as section blocks, split under Slack's section and block-count limits."""
    blocks = [SectionBlock(text=MarkdownTextObject(text=piece, verbatim=True)).to_dict()
              for piece in render.split_text(mrkdwn)]
    fallback = " ".join(mrkdwn.split())[:300] or "…"
    return [render.SlackMessage(text=fallback, blocks=blocks[i:i + 50]) for i in range(0, len(blocks), 50)]


def _final_anchor(user: str, question: str, done: str) -> render.SlackMessage:
    """The anchor once answered: who asked what, and where the answer is (instead of "working on it")."""
    anchor = render.render_anchor(user, question)
    blocks = anchor.blocks[:-1] if anchor.blocks and anchor.blocks[-1].get("type") == "context" else anchor.blocks
    note = ContextBlock(elements=[MarkdownTextObject(text=done)]).to_dict()
    return render.SlackMessage(text=anchor.text, blocks=[*blocks, note])


# What the /ask anchor says once the thread holds the outcome.
_ANCHOR_FAILED = "⚠️ I couldn't answer this one — the thread says why."
_ANCHOR_STATUS = {
    "answered": "✅ Answered in the thread.",
    "not_found": "🔍 Not in the knowledge base — the thread names the closest topics.",
    "store_unavailable": "🛑 The knowledge base is unavailable, so nothing was searched — the thread has an error id.",
    "no_kb": "📭 There's no knowledge base yet — the thread says how to build one.",
    "out_of_scope": "🔒 This channel may not see any knowledge base — the thread says who can change that.",
    "refused:too_long": "⚠️ The reply was too long for Slack — the thread says more.",
    "refused:rate_limited": "⚠️ Slack is rate-limiting me — please ask again in a minute.",
    "refused:not_in_channel": "⚠️ I can't post in this channel — invite me with `/invite @synthbot`.",
    "restarting": "🔁 I was restarted before I could answer — please ask again.",
}


def _queued_text(ahead: int) -> str:
    return "Queued — you're next" if ahead == 0 else f"Queued — {ahead} ahead of you"

"""Thin Slack listeners: ack at once (no I/O before it), then hand the work to bot.answering in a background task."""

from __future__ import annotations

import re

import structlog
from slack_bolt.response import BoltResponse

from bot.answering import Answerer, Where
from bot.channels import channel_kind, event_kind
from bot.commands import USAGE, UsageError, parse_ask
from bot.deps import Deps

log = structlog.get_logger(__name__)

_MENTION = re.compile(r"<@[UW][A-Z0-9]+(?:\|[^>]*)?>")
_HUMAN_SUBTYPES = {None, "thread_broadcast", "file_share"}  # every other subtype is an edit, delete, join, bot…


class Handlers:
    """The listeners `build_app` registers, over one Deps."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps
        self.answering = Answerer(deps)

    # --- middleware --------------------------------------------------------------------------------------
    async def dedupe(self, body: dict, request, next):
        """Slack retries (X-Slack-Retry-Num, a repeated event_id or trigger_id) are acked and dropped."""
        key = _request_key(body)
        if key and not await self.deps.dedupe.first_seen(key):
            retry = (request.headers.get("x-slack-retry-num") or [None])[0]
            log.info("slack.duplicate_dropped", key=key, retry_num=retry)
            return BoltResponse(status=200, body="")
        return await next()

    # --- listeners (ack functions: CPU only, then spawn) ------------------------------------------------
    async def ask_command(self, ack, command: dict) -> None:
        parsed = parse_ask(command.get("text", ""))
        if isinstance(parsed, UsageError):
            await ack(text=parsed.text)
            return
        if parsed.help:
            await ack(text=USAGE)
            return
        if parsed.coverage and self.deps.coverage is None:
            await ack(text="Coverage reports are not available in this version yet — ask a question instead, "
                           "e.g. `/ask how do we deploy?`")
            return
        await ack()
        team, channel, user = command.get("team_id", ""), command.get("channel_id", ""), command.get("user_id", "")
        name = command.get("channel_name") or ""
        self.deps.background.spawn(
            self.answering.run_ask(team=team, channel=channel, user=user, request=parsed,
                                   response_url=command.get("response_url"), channel_name=name,
                                   kind=channel_kind(channel, channel_name=name)),
            name=f"ask:{channel}",
        )

    async def app_mention(self, event: dict, body: dict) -> None:
        if self._from_a_bot(event) or not _well_formed(event):
            return  # two bots mentioning each other would answer each other forever
        thread = event.get("thread_ts") or event["ts"]
        # A mention inside an existing thread is answered there, but does not claim the thread for follow-ups
        # unless the bot already answered in it (run_chat checks).
        where = Where(team=_team(event, body), channel=event["channel"], user=event.get("user", ""),
                      reply_ts=thread, keys=[thread], borrowed=thread != event["ts"], fresh=thread == event["ts"],
                      kind=event_kind(event))  # no channel_type here: a group DM's kind is looked up
        text = _MENTION.sub(" ", event.get("text", ""))
        self.deps.background.spawn(self.answering.run_chat(where, text, parse=True, history_required=False),
                                   name=f"mention:{where.channel}")

    async def message(self, event: dict, body: dict) -> None:
        if event.get("subtype") not in _HUMAN_SUBTYPES or self._from_a_bot(event) or not event.get("user") \
                or not _well_formed(event):
            return  # bots (ours included), edits, deletes, joins
        text, ts, thread = event.get("text", ""), event["ts"], event.get("thread_ts")
        in_thread = bool(thread) and thread != ts
        team = _team(event, body)
        kind = channel_kind(event["channel"], channel_type=event.get("channel_type"))
        if event.get("channel_type") == "im":
            where = Where(team=team, channel=event["channel"], user=event["user"],
                          reply_ts=thread if in_thread else None, kind=kind,
                          keys=[thread] if in_thread else [ts], fresh=not in_thread)  # a top-level DM: a new one
            self.deps.background.spawn(
                self.answering.run_chat(where, _MENTION.sub(" ", text), parse=True, history_required=False),
                name=f"dm:{where.channel}")
            return
        if f"<@{self.deps.identity.bot_user_id}" in text:
            return  # the app_mention listener answers this one; this is its duplicate `message` event
        if in_thread:
            where = Where(team=team, channel=event["channel"], user=event["user"], reply_ts=thread, keys=[thread],
                          kind=kind)
            self.deps.background.spawn(
                self.answering.run_chat(where, text, parse=False, history_required=True, message_ts=ts),
                name=f"followup:{where.channel}")

    def _from_a_bot(self, event: dict) -> bool:
        return bool(event.get("bot_id")) or event.get("subtype") == "bot_message" \
            or event.get("user") == self.deps.identity.bot_user_id

    async def feedback(self, ack, body: dict, action: dict) -> None:
        await ack()
        self.deps.background.spawn(self.answering.record_feedback(body, action), name="feedback")


def _well_formed(event: dict) -> bool:
    """A message event we can answer: it names its channel and ts (Socket Mode gets no front-door check)."""
    fields = (event.get("channel"), event.get("ts"), event.get("text", ""), event.get("thread_ts") or "")
    if all(isinstance(f, str) for f in fields) and fields[0] and fields[1]:
        return True
    log.info("slack.event_malformed", event_type=event.get("type"), keys=sorted(event)[:20])
    return False


def _team(event: dict, body: dict) -> str:
    return body.get("team_id") or event.get("team") or ""


def _request_key(body: dict) -> str | None:
    """What identifies one delivery across Slack's retries."""
    if body.get("type") == "event_callback" and body.get("event_id"):
        return f"event:{body['event_id']}"
    if body.get("command") and body.get("trigger_id"):
        return f"command:{body['trigger_id']}"
    if body.get("type") == "block_actions":
        action = (body.get("actions") or [{}])[0]
        return f"action:{body.get('trigger_id')}:{action.get('action_ts')}"
    return None

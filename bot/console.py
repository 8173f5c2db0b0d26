"""`synthbot console`: try the bot with no workspace. The same Slack app, signed requests, a loopback fake Web API."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import re
import tempfile
import uuid
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import SecretStr
from rich.console import Console, Group
from rich.panel import Panel
from rich.rule import Rule
from rich.text import Text

from bot.app import build_app
from bot.deps import build_deps
from bot.fake_slack import FakeSlack, SlackRequests
from bot.feedback import open_feedback_log
from bot.threads import open_conversation_store
from synthesis.config import Settings
from synthesis.errors import ConfigError, SynthbotError
from synthesis.scoping import Channel, channel_name

CHANNEL = "C0CONSOLE"


@dataclass(frozen=True)
class ConsoleChannel:
    """Where the console acts: a channel (by name or id) or a DM, so the channel rules can be tried out."""

    id: str = CHANNEL
    name: str = "console"
    dm: bool = False

    @classmethod
    def of(cls, *, name: str | None = None, channel_id: str | None = None, dm: bool = False) -> "ConsoleChannel":
        if dm:
            if name or channel_id:
                raise ConfigError("--dm acts in a direct message: leave out --channel and --channel-id")
            return cls(id="D0CONSOLE", name="directmessage", dm=True)
        name = channel_name(name or "")
        if channel_id:
            return cls(id=channel_id.strip(), name=name)
        if name:  # a stable made-up id, so an id rule never matches by accident
            return cls(id="C0" + hashlib.sha1(name.encode()).hexdigest()[:9].upper(), name=name)
        return cls()

    @property
    def label(self) -> str:
        return "a direct message" if self.dm else f"#{self.name} ({self.id})" if self.name else f"channel {self.id}"

    def as_rules_see_it(self) -> Channel:
        return Channel(id=self.id, name="" if self.dm else self.name, kind="im" if self.dm else "channel")
HELP = """[bold]synthbot console[/] — the Slack app, driven locally (no workspace, nothing leaves this machine).
  [cyan]/ask QUESTION \\[options][/]   ask in the channel (try [cyan]/ask help[/] for the options)
  [cyan]QUESTION[/]                  the same as /ask QUESTION
  [cyan]> REPLY[/]                   reply in the last thread: a follow-up, no need to tag the bot
  [cyan]1[/] / [cyan]2[/]                     press 👍 / 👎 on the last answer
  [cyan]help[/], [cyan]quit[/]
[dim]Threads and votes here are kept in a scratch directory and forgotten when you quit.[/]"""

_LINK = re.compile(r"<([^<>|]+)\|([^<>]*)>|<([^<>]+)>")
_STYLED = re.compile(r"```(.+?)```|`([^`\n]+)`|(?<!\w)\*([^*\n]+)\*(?!\w)|(?<!\w)_([^_\n]+)_(?!\w)|~([^~\n]+)~", re.S)


def _unescape(text: str) -> str:
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def mrkdwn_to_text(mrkdwn: str, base_style: str = "") -> Text:
    """Slack mrkdwn → rich Text: bold, italic, code, strike, and `<url|label>` links shown with their address."""
    out = Text(style=base_style)
    for piece, link in _split_links(mrkdwn):
        if link is not None:
            out.append(_unescape(piece), style=f"underline link {link}")
            if not re.fullmatch(r"\[\d+\]", piece):  # a citation [n] links inline; other links show where they go
                out.append(f" ({link})", style="dim")
            continue
        pos = 0
        for m in _STYLED.finditer(piece):
            out.append(_unescape(piece[pos:m.start()]))
            block, code, bold, italic, strike = m.groups()
            if block is not None:
                out.append(_unescape(block), style="cyan")
            elif code is not None:
                out.append(_unescape(code), style="cyan")
            else:
                out.append(_unescape(bold or italic or strike), style="bold" if bold else "italic" if italic else "strike")
            pos = m.end()
        out.append(_unescape(piece[pos:]))
    return out


def _split_links(text: str) -> Iterable[tuple[str, str | None]]:
    pos = 0
    for m in _LINK.finditer(text):
        yield text[pos:m.start()], None
        target, label, bare = m.group(1), m.group(2), m.group(3)
        target = target or bare
        if target.startswith(("@", "#", "!")):  # a mention: show it, it is not a link
            yield "@" + (label or target[1:]) if target[0] == "@" else (label or target), None
        else:
            yield (label or target), _unescape(target)
        pos = m.end()
    yield text[pos:], None


def blocks_to_renderable(message: dict[str, Any], *, buttons: dict[str, str] | None = None) -> Group:
    """A Block Kit message as readable terminal text; buttons are numbered (1 👍, 2 👎)."""
    parts: list[Any] = []
    for block in message.get("blocks") or []:
        kind = block.get("type")
        if kind == "section":
            parts.append(mrkdwn_to_text((block.get("text") or {}).get("text", "")))
            for field in block.get("fields") or []:
                parts.append(mrkdwn_to_text(field.get("text", "")))
        elif kind == "header":
            parts.append(Text(block["text"]["text"], style="bold underline"))
        elif kind == "context":
            line = Text(style="dim")
            for n, element in enumerate(block.get("elements") or []):
                line.append("  " if n else "")
                line.append_text(mrkdwn_to_text(element.get("text", ""), "dim"))
            parts.append(line)
        elif kind == "divider":
            parts.append(Rule(style="dim"))
        elif kind == "actions":
            line = Text()
            for element in block.get("elements") or []:
                number = (buttons or {}).get(element.get("action_id", ""), "?")
                label = (element.get("text") or {}).get("text", element.get("action_id", ""))
                line.append(f"[{number}] {label}   ", style="bold magenta")
            parts.append(line)
        else:
            parts.append(Text(json.dumps(block)[:200], style="dim"))
    if not parts:
        parts.append(mrkdwn_to_text(message.get("text") or ""))
    return Group(*parts)


class ConsoleSession:
    """One person in one channel: sends signed requests through the app and prints what Slack would show."""

    BUTTONS = {"feedback_up": "1", "feedback_down": "2"}

    def __init__(self, app, deps, fake: FakeSlack, requests: SlackRequests, out: Console, user: str,
                 channel: ConsoleChannel = ConsoleChannel()) -> None:
        self.app, self.deps, self.fake, self.requests, self.out, self.user = app, deps, fake, requests, out, user
        self.channel = channel
        self.thread: str | None = None  # the last thread the bot answered in
        self._shown: dict[str, str] = {}  # ts → text last printed
        self._seen_calls = 0

    async def handle(self, line: str) -> bool:
        """Run one input line; False means quit."""
        line = line.strip()
        if not line:
            return True
        if line.lower() in ("quit", "exit", ":q"):
            return False
        if line.lower() in ("help", "?"):
            self.out.print(HELP)
        elif line in ("1", "2"):
            await self._press("feedback_up" if line == "1" else "feedback_down")
        elif line.startswith(">"):
            if self.thread is None:
                self.out.print("[yellow]No thread yet — ask something first with /ask.[/]")
            else:
                await self._send(self.requests.event(self.requests.message(
                    line[1:].strip(), user=self.user, channel=self.channel.id, thread_ts=self.thread,
                    channel_type="im" if self.channel.dm else "channel")))
        else:
            text = line[len("/ask"):] if line.lower().startswith("/ask") else line
            await self._send(self.requests.slash_command(text.strip(), user=self.user, channel=self.channel.id,
                                                         channel_name=self.channel.name))
        return True

    async def _send(self, request) -> None:
        response = await self.app.async_dispatch(request.to_bolt())
        if response.status != 200:
            self.out.print(f"[red]Slack app answered HTTP {response.status}: {response.body}[/]")
        elif response.body:  # an ephemeral reply in the ack (usage, errors)
            self.out.print(Panel(mrkdwn_to_text(_ack_text(response.body)), title="only visible to you",
                                 border_style="yellow", title_align="left"))
        await self._wait()
        self._print_new()

    async def _wait(self) -> None:
        """Wait for the background run, showing its progress like the anchor would."""
        if not len(self.deps.background):
            return
        done = asyncio.ensure_future(self.deps.background.drain())
        with self.out.status("Working…") as status:
            while not done.done():
                updates = self.fake.calls_to("chat.update")
                if updates:
                    status.update(_progress_label(updates[-1].args))
                await asyncio.wait([done], timeout=0.1)
        await done

    def _print_new(self) -> None:
        for call in self.fake.calls[self._seen_calls:]:
            if call.method == "chat.postMessage" and not call.args.get("thread_ts") and call.response.get("ok"):
                self.thread = call.response["ts"]  # a new anchor (or a top-level answer) starts a thread
            elif call.method in ("chat.postEphemeral", "response_url"):
                self.out.print(Panel(blocks_to_renderable(call.args), title="only visible to you",
                                     border_style="yellow", title_align="left"))
            elif call.method == "reactions.add":
                self.out.print(f"[dim]synthbot reacted :{call.args.get('name')}:[/]")
        self._seen_calls = len(self.fake.calls)
        if self.thread is None:
            return
        for message in self.fake.thread(self.channel.id, self.thread):
            text = json.dumps(message.get("blocks")) + message.get("text", "")
            if self._shown.get(message["ts"]) == text:
                continue
            self._shown[message["ts"]] = text
            title = "synthbot (in channel)" if message["ts"] == self.thread else "synthbot (in thread)"
            self.out.print(Panel(blocks_to_renderable(message, buttons=self.BUTTONS), title=title, title_align="left",
                                 border_style="green" if message["ts"] != self.thread else "blue"))

    async def _press(self, action_id: str) -> None:
        if self.thread is None:
            self.out.print("[yellow]No answer to vote on yet.[/]")
            return
        for message in reversed(self.fake.thread(self.channel.id, self.thread)):
            for block in message.get("blocks") or []:
                for element in block.get("elements") or [] if block.get("type") == "actions" else []:
                    if element.get("action_id") == action_id:
                        await self._send(self.requests.block_action(
                            action_id, element.get("value", ""), user=self.user, channel=self.channel.id,
                            message_ts=message["ts"], thread_ts=message.get("thread_ts")))
                        return
        self.out.print("[yellow]The last answer has no buttons to press.[/]")


def _ack_text(body: str) -> str:
    try:
        return json.loads(body).get("text", body)
    except ValueError:
        return body


def _progress_label(args: dict) -> str:
    for block in reversed(args.get("blocks") or []):
        if block.get("type") == "context":
            return mrkdwn_to_text(block["elements"][0].get("text", "")).plain
    return args.get("text") or "Working…"


async def _stdin_lines(out: Console) -> AsyncIterator[str]:
    while True:
        try:
            yield await asyncio.to_thread(out.input, "[bold]you ›[/] ")
        except EOFError:
            return


def _knowledge_base_exists(settings: Settings) -> bool:
    from synthesis.store import make_client

    client = make_client(settings)
    names = {c if isinstance(c, str) else c.name for c in client.list_collections()}
    if settings.channel_rules:  # any collection a rule names will do
        from synthesis.scoping import load_rules

        try:
            rules = load_rules(settings.channel_rules)
        except SynthbotError:
            return True  # the bot reports the bad file itself
        return bool(set(rules.named_collections()) & names)
    return settings.collection in names


async def run_console(settings: Settings, *, user: str = "U0CONSOLE", agent=None,
                      lines: AsyncIterator[str] | None = None, out: Console | None = None,
                      scratch_parent: Path | None = None, channel: ConsoleChannel = ConsoleChannel()) -> int:
    """Start the fake Web API, build the app against it, and run the read-eval-print loop.

    The session's scratch directory goes under `scratch_parent` (default: the system temp dir). `channel` is where
    the session acts (the channel rules, if any, apply to it).
    """
    out = out or Console()
    if not await asyncio.to_thread(_knowledge_base_exists, settings):
        out.print(f"[yellow]There is no knowledge base in {settings.home} yet — build one with "
                  "`synthbot ingest PATH` (or `make demo`). Until then the bot will say so too.[/]")
    # Threads and votes from a console session are play, not production data: they live in a scratch directory
    # (and never in Redis) so they cannot mix with the real feedback log. Chroma stays in the real data dir.
    with tempfile.TemporaryDirectory(prefix="synthbot-console-", dir=scratch_parent) as scratch:
        async with FakeSlack() as fake:
            if channel.name and not channel.dm:  # conversations.info knows it, as Slack would
                fake.channels[channel.id] = {"name": channel.name, "is_channel": True}
            return await _run(settings, Path(scratch), fake, user=user, agent=agent, lines=lines, out=out,
                              channel=channel)


def describe_scope(settings: Settings, channel: ConsoleChannel) -> str:
    """One line: where the console acts and what the channel rules let it see there."""
    if not settings.channel_rules:
        return (f"Acting in {channel.label}. No channel rules (SYNTHBOT_CHANNEL_RULES is unset): every channel sees "
                f"the collection '{settings.collection}'.")
    from synthesis.scoping import load_rules, resolve

    try:
        visibility = resolve(load_rules(settings.channel_rules), channel.as_rules_see_it())
    except SynthbotError as exc:
        return f"Acting in {channel.label}. {exc}"
    sees = ", ".join(visibility.keys) or "nothing"
    return f"Acting in {channel.label}. Channel rule: {visibility.rule} → sees {sees}."


async def _run(settings: Settings, scratch: Path, fake: FakeSlack, *, user: str, agent,
               lines: AsyncIterator[str] | None, out: Console, channel: ConsoleChannel = ConsoleChannel()) -> int:
    secret = uuid.uuid4().hex
    local = settings.model_copy(update={"slack_api_url": fake.base_url, "slack_bot_token": SecretStr(fake.bot_token),
                                        "redis_url": None})
    session_settings = local.model_copy(update={"home": scratch})
    conversations, feedback = open_conversation_store(session_settings), open_feedback_log(session_settings)
    try:
        with out.status("Loading the model and the knowledge base…") if agent is None else contextlib.nullcontext():
            deps = await build_deps(local, bot_token=fake.bot_token, agent=agent, conversations=conversations,
                                    feedback=feedback)
    except BaseException:
        await conversations.close()
        await feedback.close()
        raise
    app = build_app(deps, signing_secret=secret)
    requests = SlackRequests(secret, team_id=fake.team_id, bot_user_id=fake.bot_user_id,
                             response_url=fake.response_url)
    session = ConsoleSession(app, deps, fake, requests, out, user, channel)
    out.print(HELP)
    out.print(Text(describe_scope(settings, channel), style="bold"))
    try:
        async for line in lines or _stdin_lines(out):
            if not await session.handle(line):
                break
    except KeyboardInterrupt:
        pass
    finally:
        await deps.aclose()
    return 0

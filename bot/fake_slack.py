"""A loopback fake of the Slack Web API that records every call, plus signed-request builders for driving an app.

Used by the tests, `synthbot console` and benchmarks/slack_load.py. It answers like Slack (a `ts` for every posted
message, `invalid_auth` for a wrong token, `invalid_blocks` for blocks that break Slack's limits) so code that
works against it has a fair chance of working against slack.com.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import itertools
import json
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar
from urllib.parse import parse_qsl, urlencode

from aiohttp import web

T = TypeVar("T")

# Slack rejects ~12-13k cumulative block characters (bolt-js#2509); the upper end, to flag only sure failures.
MAX_BLOCKS_CHARS = 13_000
MAX_BLOCKS = 50
MAX_TEXT = 40_000


@dataclass
class Call:
    """One recorded request to the fake: the Web API method (or `response_url`), its arguments, when it arrived."""

    method: str
    args: dict[str, Any]
    at: float  # time.perf_counter() on arrival
    token: str | None = None
    response: dict[str, Any] = field(default_factory=dict)
    scripted: bool = False  # answered with a canned failure from fail_next()


def _decode(value: Any) -> Any:
    """Form-encoded calls carry blocks/attachments as JSON strings; decode them like Slack does."""
    if isinstance(value, str) and value[:1] in "[{":
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def block_problems(blocks: list[dict] | None) -> list[str]:
    """Why Slack would reject these blocks (empty when it would accept them)."""
    from slack_sdk.errors import SlackObjectFormationError
    from slack_sdk.models.blocks import Block

    if not blocks:
        return []
    problems = [f"{len(blocks)} blocks, Slack allows at most {MAX_BLOCKS}"] if len(blocks) > MAX_BLOCKS else []
    for n, raw in enumerate(blocks):
        block = Block.parse(raw) if isinstance(raw, dict) else None
        if block is None:
            problems.append(f"block {n}: unknown block {raw!r:.80}")
            continue
        try:
            block.validate_json()
        except SlackObjectFormationError as exc:
            problems.append(f"block {n}: {exc}")
    return problems


class FakeSlack:
    """The fake Web API on 127.0.0.1: `await fake.start()` returns the base URL to give AsyncWebClient."""

    def __init__(self, *, bot_token: str = "xoxb-fake-token", app_token: str = "xapp-fake-token",
                 team_id: str = "T0FAKE", bot_user_id: str = "U0BOT", bot_id: str = "B0BOT",
                 team: str = "Fake Workspace", host: str = "127.0.0.1", port: int = 0) -> None:
        self.bot_token, self.app_token = bot_token, app_token
        self.team_id, self.bot_user_id, self.bot_id, self.team = team_id, bot_user_id, bot_id, team
        self.sockets: list[web.WebSocketResponse] = []  # Socket Mode connections
        self.host, self.port = host, port
        self.calls: list[Call] = []
        self.messages: dict[str, list[dict[str, Any]]] = {}  # channel -> messages in post order (updated in place)
        self._clock = itertools.count(1)
        self._changed = asyncio.Condition()
        self._scripted: dict[str, list[dict[str, Any]]] = {}  # method -> queued canned failures
        self._runner: web.AppRunner | None = None
        self.files: dict[str, dict[str, Any]] = {}  # file id -> {name, title, length, data, ...} (files_upload_v2)
        self.channels: dict[str, dict[str, Any]] = {}  # channel id -> conversations.info's `channel` (name, is_im…)

    # --- lifecycle -------------------------------------------------------------------------------------
    async def start(self) -> str:
        app = web.Application()
        app.router.add_post("/api/{method}", self._api)
        app.router.add_get("/api/{method}", self._api)
        app.router.add_post("/response/{key}", self._response_url)
        app.router.add_post("/upload/{file_id}", self._upload)
        app.router.add_get("/link", self._socket_mode)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self.base_url

    async def stop(self) -> None:
        for ws in list(self.sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> "FakeSlack":
        await self.start()
        return self

    async def __aexit__(self, *exc) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}/api/"

    def response_url(self, key: str | None = None) -> str:
        """A response_url (as slash commands and button clicks carry) whose posts are recorded as `response_url`."""
        return f"http://{self.host}:{self.port}/response/{key or uuid.uuid4().hex[:8]}"

    # --- scripting and inspection ----------------------------------------------------------------------
    def fail_next(self, method: str, *, error: str = "internal_error", status: int = 200, times: int = 1,
                  retry_after: int | None = None) -> None:
        """Make the next `times` calls to `method` fail (status 429 + retry_after simulates a rate limit)."""
        canned = {"error": error, "status": status, "retry_after": retry_after}
        self._scripted.setdefault(method, []).extend([canned] * times)

    def calls_to(self, method: str) -> list[Call]:
        return [c for c in self.calls if c.method == method]

    def thread(self, channel: str, thread_ts: str) -> list[dict[str, Any]]:
        """The parent and every reply of a thread, as they look now (after updates)."""
        return [m for m in self.messages.get(channel, []) if m["ts"] == thread_ts or m.get("thread_ts") == thread_ts]

    def message(self, channel: str, ts: str) -> dict[str, Any] | None:
        return next((m for m in self.messages.get(channel, []) if m["ts"] == ts), None)

    async def wait_for(self, predicate: Callable[[], T | None], timeout: float = 10.0) -> T:
        """Wait until `predicate()` returns something truthy (re-checked after every recorded call)."""
        async def until() -> T:
            async with self._changed:
                while not (found := predicate()):
                    await self._changed.wait()
                return found

        return await asyncio.wait_for(until(), timeout)

    # --- the API ---------------------------------------------------------------------------------------
    async def _args(self, request: web.Request) -> dict[str, Any]:
        args: dict[str, Any] = dict(request.query)
        if request.can_read_body:
            if request.content_type == "application/json":
                args.update(await request.json())
            else:
                args.update(parse_qsl(await request.text()))
        return {k: _decode(v) for k, v in args.items()}

    async def _api(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        args = await self._args(request)
        auth = request.headers.get("Authorization", "")
        token = auth.removeprefix("Bearer ") if auth.startswith("Bearer ") else args.pop("token", None)
        call = Call(method, args, time.perf_counter(), token)
        status, headers = 200, {}
        if self._scripted.get(method):
            canned = self._scripted[method].pop(0)
            status = canned["status"]
            if canned["retry_after"] is not None:
                headers["Retry-After"] = str(canned["retry_after"])
            call.response, call.scripted = {"ok": False, "error": canned["error"]}, True
        elif not token:
            call.response = {"ok": False, "error": "not_authed"}
        elif token != (self.app_token if method == "apps.connections.open" else self.bot_token):
            call.response = {"ok": False, "error": "invalid_auth"}
        else:
            handler = getattr(self, "_m_" + method.replace(".", "_"), None)
            call.response = handler(args) if handler else {"ok": False, "error": "unknown_method"}
        await self._record(call)
        return web.json_response(call.response, status=status, headers=headers)

    async def _response_url(self, request: web.Request) -> web.Response:
        body = await request.json() if request.content_type == "application/json" else dict(parse_qsl(await request.text()))
        call = Call("response_url", {"key": request.match_info["key"], **body}, time.perf_counter(), None, {"ok": True})
        await self._record(call)
        return web.Response(text="ok")

    async def _record(self, call: Call) -> None:
        async with self._changed:
            self.calls.append(call)
            self._changed.notify_all()

    def _next_ts(self) -> str:
        n = next(self._clock)
        return f"{1_700_000_000 + n}.{n:06d}"

    def _check_content(self, args: dict[str, Any]) -> dict[str, Any] | None:
        if not args.get("text") and not args.get("blocks") and not args.get("attachments"):
            return {"ok": False, "error": "no_text"}
        if len(str(args.get("text") or "")) > MAX_TEXT:
            return {"ok": False, "error": "msg_too_long"}
        if problems := block_problems(args.get("blocks")):
            return {"ok": False, "error": "invalid_blocks", "errors": problems}
        if len(json.dumps(args.get("blocks") or [], ensure_ascii=False)) > MAX_BLOCKS_CHARS:
            return {"ok": False, "error": "msg_blocks_too_long"}
        return None

    def _m_auth_test(self, args: dict) -> dict:
        return {"ok": True, "url": "https://fake.slack.test/", "team": self.team, "user": "synthbot",
                "team_id": self.team_id, "user_id": self.bot_user_id, "bot_id": self.bot_id}

    def _m_chat_postMessage(self, args: dict) -> dict:
        channel = args.get("channel")
        if not channel:
            return {"ok": False, "error": "channel_not_found"}
        if bad := self._check_content(args):
            return bad
        ts = self._next_ts()
        msg = {"type": "message", "ts": ts, "user": self.bot_user_id, "bot_id": self.bot_id,
               "text": args.get("text", ""), "blocks": args.get("blocks") or []}
        if args.get("thread_ts"):
            msg["thread_ts"] = str(args["thread_ts"])
        self.messages.setdefault(str(channel), []).append(msg)
        return {"ok": True, "channel": channel, "ts": ts, "message": msg}

    def _m_chat_update(self, args: dict) -> dict:
        msg = self.message(str(args.get("channel")), str(args.get("ts")))
        if msg is None:
            return {"ok": False, "error": "message_not_found"}
        if bad := self._check_content(args):
            return bad
        msg.update(text=args.get("text", ""), blocks=args.get("blocks") or [], edited={"ts": self._next_ts()})
        return {"ok": True, "channel": args["channel"], "ts": msg["ts"], "text": msg["text"], "message": msg}

    def _m_chat_delete(self, args: dict) -> dict:
        msgs = self.messages.get(str(args.get("channel")), [])
        keep = [m for m in msgs if m["ts"] != str(args.get("ts"))]
        if len(keep) == len(msgs):
            return {"ok": False, "error": "message_not_found"}
        self.messages[str(args["channel"])] = keep
        return {"ok": True, "channel": args["channel"], "ts": args["ts"]}

    def _m_chat_postEphemeral(self, args: dict) -> dict:
        if not args.get("channel") or not args.get("user"):
            return {"ok": False, "error": "channel_not_found" if not args.get("channel") else "user_not_in_channel"}
        return self._check_content(args) or {"ok": True, "message_ts": self._next_ts()}

    def _m_reactions_add(self, args: dict) -> dict:
        if not args.get("channel") or not args.get("timestamp") or not args.get("name"):
            return {"ok": False, "error": "invalid_arguments"}
        msg = self.message(str(args["channel"]), str(args["timestamp"]))  # users' messages are not stored here
        if msg is not None:
            msg.setdefault("reactions", []).append(args["name"])
        return {"ok": True}

    def _m_conversations_replies(self, args: dict) -> dict:
        return {"ok": True, "messages": self.thread(str(args.get("channel")), str(args.get("ts"))), "has_more": False}

    def _m_conversations_info(self, args: dict) -> dict:
        channel = self.channels.get(str(args.get("channel")))
        if channel is None:
            return {"ok": False, "error": "channel_not_found"}
        return {"ok": True, "channel": {"id": args["channel"], **channel}}

    def _m_conversations_history(self, args: dict) -> dict:
        return {"ok": True, "messages": list(reversed(self.messages.get(str(args.get("channel")), []))), "has_more": False}

    def _m_assistant_threads_setStatus(self, args: dict) -> dict:
        return {"ok": True}

    # --- file uploads: the three steps files_upload_v2 takes -------------------------------------------
    def _m_files_getUploadURLExternal(self, args: dict) -> dict:
        try:
            length = int(args.get("length") or 0)
        except (TypeError, ValueError):
            length = 0
        if not args.get("filename") or length <= 0:
            return {"ok": False, "error": "invalid_arguments"}
        file_id = "F" + uuid.uuid4().hex[:10].upper()
        self.files[file_id] = {"id": file_id, "name": str(args["filename"]), "length": length, "data": None,
                               "alt_txt": args.get("alt_txt") or "", "completed": False}
        return {"ok": True, "upload_url": f"http://{self.host}:{self.port}/upload/{file_id}", "file_id": file_id}

    async def _upload(self, request: web.Request) -> web.Response:
        """Step 2: the bytes, POSTed to the upload URL (like files.slack.com, answers 200 with a short text)."""
        file_id = request.match_info["file_id"]
        data = await request.read()
        entry = self.files.get(file_id)
        call = Call("file.upload", {"file_id": file_id, "bytes": len(data)}, time.perf_counter(), None)
        if entry is None or entry["completed"]:
            call.response, status = {"ok": False, "error": "file_not_found"}, 404
        elif len(data) != entry["length"]:
            call.response, status = {"ok": False, "error": "length_mismatch"}, 400
        else:
            entry["data"], call.response, status = data, {"ok": True}, 200
        await self._record(call)
        return web.Response(text=f"OK - {len(data)}" if status == 200 else call.response["error"], status=status)

    def _m_files_completeUploadExternal(self, args: dict) -> dict:
        files = args.get("files")
        if not isinstance(files, list) or not files:
            return {"ok": False, "error": "invalid_arguments"}
        for f in files:
            entry = self.files.get(str(f.get("id")))
            if entry is None or entry["data"] is None or entry["completed"]:
                return {"ok": False, "error": "file_not_found" if entry is None else "file_upload_not_complete"
                        if entry["data"] is None else "already_completed"}
        done = []
        for f in files:
            entry = self.files[str(f["id"])]
            png = entry["data"].startswith(b"\x89PNG")
            entry.update(completed=True, title=f.get("title") or entry["name"], channel=args.get("channel_id"),
                         thread_ts=args.get("thread_ts"), mimetype="image/png" if png else "application/octet-stream")
            done.append({k: entry[k] for k in ("id", "name", "title", "mimetype", "alt_txt")} | {"size": entry["length"]})
        channel = args.get("channel_id")
        if channel:  # shared into the channel (and thread): a message carrying the files
            msg = {"type": "message", "subtype": "file_share", "ts": self._next_ts(), "user": self.bot_user_id,
                   "bot_id": self.bot_id, "text": args.get("initial_comment") or "", "files": done, "blocks": []}
            if args.get("thread_ts"):
                msg["thread_ts"] = str(args["thread_ts"])
            self.messages.setdefault(str(channel), []).append(msg)
        return {"ok": True, "files": done}

    def _m_files_info(self, args: dict) -> dict:
        entry = self.files.get(str(args.get("file")))
        if entry is None or not entry["completed"]:
            return {"ok": False, "error": "file_not_found"}
        return {"ok": True, "file": {k: entry.get(k) for k in ("id", "name", "title", "mimetype", "alt_txt")}}

    # --- Socket Mode -----------------------------------------------------------------------------------
    def _m_apps_connections_open(self, args: dict) -> dict:
        return {"ok": True, "url": f"ws://{self.host}:{self.port}/link"}

    async def _socket_mode(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)  # answers the SDK's pings with pongs, like Slack
        await ws.prepare(request)
        await ws.send_json({"type": "hello", "num_connections": 1, "connection_info": {"app_id": "A0APP"}})
        self.sockets.append(ws)
        await self._record(Call("socket.connected", {}, time.perf_counter(), None, {"ok": True}))
        try:
            async for msg in ws:
                if msg.type.name == "TEXT":
                    await self._record(Call("socket.ack", json.loads(msg.data), time.perf_counter(), None, {"ok": True}))
        finally:
            self.sockets.remove(ws)
        return ws

    async def socket_send(self, kind: str, payload: dict[str, Any], *, retry_attempt: int = 0) -> str:
        """Deliver an envelope (events_api, slash_commands, interactive) over the newest Socket Mode connection."""
        await self.wait_for(lambda: self.sockets)
        envelope_id = uuid.uuid4().hex
        await self.sockets[-1].send_json({"envelope_id": envelope_id, "type": kind, "payload": payload,
                                          "accepts_response_payload": kind != "events_api",
                                          "retry_attempt": retry_attempt, "retry_reason": ""})
        return envelope_id


# --- signed requests --------------------------------------------------------------------------------------
@dataclass
class SignedRequest:
    """A request as Slack would send it: raw body plus signed headers."""

    body: str
    headers: dict[str, str]

    def to_bolt(self):
        from slack_bolt.request.async_request import AsyncBoltRequest

        return AsyncBoltRequest(body=self.body, headers=dict(self.headers))


class SlackRequests:
    """Builds signed slash commands, Events API callbacks and button clicks (Slack's v0 HMAC-SHA256 signing)."""

    def __init__(self, signing_secret: str, *, team_id: str = "T0FAKE", bot_user_id: str = "U0BOT",
                 api_app_id: str = "A0APP", response_url: Callable[[], str] | None = None) -> None:
        self.signing_secret, self.team_id, self.bot_user_id, self.api_app_id = signing_secret, team_id, bot_user_id, api_app_id
        self._response_url = response_url or (lambda: "")
        self._ts = itertools.count(1)

    def sign(self, body: str, *, timestamp: int | None = None, retry_num: int | None = None,
             content_type: str = "application/json") -> SignedRequest:
        stamp = str(int(time.time()) if timestamp is None else timestamp)
        digest = hmac.new(self.signing_secret.encode(), f"v0:{stamp}:{body}".encode(), hashlib.sha256).hexdigest()
        headers = {"content-type": content_type, "x-slack-request-timestamp": stamp, "x-slack-signature": f"v0={digest}"}
        if retry_num is not None:
            headers.update({"x-slack-retry-num": str(retry_num), "x-slack-retry-reason": "http_timeout"})
        return SignedRequest(body, headers)

    def next_ts(self) -> str:
        n = next(self._ts)
        return f"{1_600_000_000 + n}.{n:06d}"  # earlier than the fake's bot ts, never equal

    def slash_command(self, text: str, *, user: str = "U0USER", channel: str = "C0CHAN", command: str = "/ask",
                      trigger_id: str | None = None, timestamp: int | None = None,
                      channel_name: str = "general") -> SignedRequest:
        form = {"token": "legacy", "team_id": self.team_id, "team_domain": "fake", "channel_id": channel,
                "channel_name": channel_name, "user_id": user, "user_name": user.lower(), "command": command,
                "text": text, "api_app_id": self.api_app_id, "response_url": self._response_url(),
                "trigger_id": trigger_id or f"trig.{uuid.uuid4().hex[:12]}"}
        return self.sign(urlencode(form), timestamp=timestamp, content_type="application/x-www-form-urlencoded")

    def event(self, event: dict[str, Any], *, event_id: str | None = None, retry_num: int | None = None,
              timestamp: int | None = None) -> SignedRequest:
        body = {"token": "legacy", "team_id": self.team_id, "api_app_id": self.api_app_id, "event": event,
                "type": "event_callback", "event_id": event_id or f"Ev{uuid.uuid4().hex[:10].upper()}",
                "event_time": int(time.time()),
                "authorizations": [{"team_id": self.team_id, "user_id": self.bot_user_id, "is_bot": True}]}
        return self.sign(json.dumps(body), timestamp=timestamp, retry_num=retry_num)

    def message(self, text: str, *, user: str = "U0USER", channel: str = "C0CHAN", channel_type: str = "channel",
                thread_ts: str | None = None, ts: str | None = None, **extra: Any) -> dict[str, Any]:
        event = {"type": "message", "user": user, "text": text, "channel": channel, "channel_type": channel_type,
                 "ts": ts or self.next_ts(), "team": self.team_id, **extra}
        if thread_ts:
            event["thread_ts"] = thread_ts
        return event

    def app_mention(self, text: str, *, user: str = "U0USER", channel: str = "C0CHAN", thread_ts: str | None = None,
                    ts: str | None = None) -> dict[str, Any]:
        event = {"type": "app_mention", "user": user, "text": f"<@{self.bot_user_id}> {text}", "channel": channel,
                 "ts": ts or self.next_ts(), "team": self.team_id}
        if thread_ts:
            event["thread_ts"] = thread_ts
        return event

    def block_action(self, action_id: str, value: str, *, user: str = "U0USER", channel: str = "C0CHAN",
                     message_ts: str, thread_ts: str | None = None, trigger_id: str | None = None) -> SignedRequest:
        message = {"type": "message", "ts": message_ts, **({"thread_ts": thread_ts} if thread_ts else {})}
        payload = {"type": "block_actions", "team": {"id": self.team_id, "domain": "fake"},
                   "user": {"id": user, "team_id": self.team_id}, "api_app_id": self.api_app_id,
                   "container": {"type": "message", "message_ts": message_ts, "channel_id": channel,
                                 **({"thread_ts": thread_ts} if thread_ts else {})},
                   "channel": {"id": channel}, "message": message, "response_url": self._response_url(),
                   "trigger_id": trigger_id or f"trig.{uuid.uuid4().hex[:12]}",
                   "actions": [{"type": "button", "action_id": action_id, "block_id": "feedback", "value": value,
                                "action_ts": str(time.time())}]}
        return self.sign(urlencode({"payload": json.dumps(payload)}), content_type="application/x-www-form-urlencoded")

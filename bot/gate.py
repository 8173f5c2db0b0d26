"""The HTTP front door: verify Slack's signature on the raw bytes, then check the shape, before Bolt sees anything.

Every check here is cheap (one HMAC, one JSON parse) and raises nothing: a request is either passed on or turned
into a short 400/401 with a one-line reason. Verification comes first, so an unsigned sender can never make us
parse, decode or log more than a line.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from urllib.parse import parse_qs

MAX_SKEW = 60 * 5  # Slack's own guidance: reject requests older than five minutes (replays)
_MESSAGE_EVENTS = {"message", "app_mention"}


@dataclass(frozen=True)
class Rejection:
    status: int  # 400 malformed (signed), 401 unsigned/forged/stale
    reason: str


def check(raw: bytes, headers: Mapping[str, str], signing_secret: str, *,
          clock: Callable[[], float] = time.time) -> Rejection | None:
    """None when the request is signed by Slack and well formed; otherwise why not."""
    problem = _verify(raw, headers, signing_secret, clock())
    if problem:
        return Rejection(401, problem)
    problem = _shape(raw, headers.get("content-type", ""))
    return Rejection(400, problem) if problem else None


def _verify(raw: bytes, headers: Mapping[str, str], secret: str, now: float) -> str | None:
    stamp, signature = headers.get("x-slack-request-timestamp", ""), headers.get("x-slack-signature", "")
    if not stamp or not signature:
        return "unsigned"
    if not (stamp.isascii() and stamp.isdigit() and len(stamp) <= 12):
        return "bad timestamp"
    if abs(now - int(stamp)) > MAX_SKEW:
        return "stale timestamp"
    expected = "v0=" + hmac.new(secret.encode(), b"v0:" + stamp.encode() + b":" + raw, hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, signature.strip()):
        return "bad signature"
    return None


def _shape(raw: bytes, content_type: str) -> str | None:
    """What Bolt would choke on in a signed request (Slack never sends these; a buggy proxy or a replay might)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return "body is not UTF-8"
    if "application/json" in content_type:
        try:
            body = json.loads(text)
        except ValueError:
            return "body is not JSON"
        return _json_body(body)
    form = parse_qs(text, keep_blank_values=True)
    if "payload" in form:
        try:
            payload = json.loads(form["payload"][0])
        except ValueError:
            return "payload is not JSON"
        return _json_body(payload)
    if not form.get("command") and not form.get("ssl_check"):
        return "form without a command or payload"
    return None


def _json_body(body: object) -> str | None:
    if not isinstance(body, dict):
        return "body is not a JSON object"
    kind = body.get("type")
    if kind == "block_actions":
        actions = body.get("actions")
        if not isinstance(actions, list) or not actions or not all(isinstance(a, dict) for a in actions):
            return "block_actions without actions"
    if kind == "event_callback":
        event = body.get("event")
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            return "event_callback without an event"
        if event["type"] in _MESSAGE_EVENTS and not all(isinstance(event.get(k), str) and event[k]
                                                         for k in ("channel", "ts")):
            return f"{event['type']} event without channel or ts"
    return None

"""Why Slack refused a message, in words the asker can act on (instead of "invite me" for every failure)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

_NOT_IN_CHANNEL = {"not_in_channel", "channel_not_found"}
_TOO_LONG = {"msg_too_long", "msg_blocks_too_long", "invalid_blocks_too_long"}
_RATE_LIMITED = {"ratelimited", "rate_limited", "message_limit_exceeded"}


@dataclass(frozen=True)
class Refusal:
    cause: str  # not_in_channel | too_long | rate_limited | archived | unreachable | refused
    error: str  # Slack's error code, or the exception class

    @property
    def reason(self) -> str:
        """What went wrong and what to do, as one sentence fragment."""
        return {
            "not_in_channel": "I'm not in this channel — invite me with `/invite @synthbot`, or ask me in a DM",
            "too_long": "the message is too long for Slack — shorten the question and ask again",
            "rate_limited": "Slack is rate-limiting me right now — please ask again in a minute",
            "archived": "this channel is archived, so I can't post in it",
            "unreachable": "I couldn't reach Slack — please ask again in a minute",
        }.get(self.cause, f"Slack refused my message ({self.error})")


def refusal(exc: BaseException) -> Refusal:
    """Classify an exception from a Web API call (after slack_sdk's own retries)."""
    from slack_sdk.errors import SlackApiError

    if isinstance(exc, SlackApiError) and exc.response is not None:
        error = str(exc.response.get("error") or "unknown_error")
        status = getattr(exc.response, "status_code", 200)
        details = " ".join(str(m) for m in (exc.response.get("response_metadata") or {}).get("messages") or [])
        if status == 429 or error in _RATE_LIMITED:
            return Refusal("rate_limited", error)
        if error in _NOT_IN_CHANNEL:
            return Refusal("not_in_channel", error)
        if error == "is_archived":
            return Refusal("archived", error)
        if error in _TOO_LONG or (error == "invalid_blocks" and "less than" in details):
            return Refusal("too_long", error)
        return Refusal("refused", error)
    if isinstance(exc, (OSError, asyncio.TimeoutError)) or type(exc).__module__.startswith("aiohttp"):
        return Refusal("unreachable", type(exc).__name__)
    return Refusal("refused", type(exc).__name__)

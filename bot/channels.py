"""Which channel a question came from, as the channel rules need it: id, name (when known) and kind.

Slash commands carry the channel's name; events carry only its id (and, for messages, the channel type). When the
rules name channels by name, an unknown name is looked up once with conversations.info (channels:read /
groups:read) and remembered; a failed lookup leaves the name unknown, and the rules then give that channel nothing
rather than the default (synthesis.scoping.resolve).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

import structlog

from synthesis.scoping import Channel

log = structlog.get_logger(__name__)

RETRY_FAILED_AFTER = 60.0  # seconds before a failed name lookup is tried again
MAX_CHANNELS = 50_000


def channel_kind(channel_id: str, *, channel_type: str | None = None, channel_name: str | None = None) -> str:
    """im / mpim / channel, from what Slack sent: a message's channel_type, a command's channel_name, the id."""
    if channel_type in ("im", "mpim"):
        return channel_type
    if channel_name == "directmessage" or channel_id.startswith("D"):
        return "im"
    if (channel_name or "").startswith("mpdm-"):
        return "mpim"
    return "channel"


class ChannelDirectory:
    """Channel names by id: learned from slash commands, looked up when the rules need a name.

    Args:
        client: the Slack AsyncWebClient (conversations.info).
        names_needed: whether the current rules name channels by name (no lookups otherwise).
    """

    def __init__(self, client, *, names_needed: Callable[[], bool]) -> None:
        self.client, self.names_needed = client, names_needed
        self._names: OrderedDict[str, str] = OrderedDict()
        self._failed: dict[str, float] = {}

    def learn(self, channel_id: str, name: str | None) -> None:
        if channel_id and name and name not in ("directmessage", "privategroup"):
            self._names[channel_id] = name
            self._names.move_to_end(channel_id)
            while len(self._names) > MAX_CHANNELS:
                self._names.popitem(last=False)

    async def channel(self, channel_id: str, *, kind: str = "channel", name: str | None = None) -> Channel:
        self.learn(channel_id, name)
        known = self._names.get(channel_id, "")
        if not known and kind == "channel" and channel_id and self._wanted():
            known = await self._look_up(channel_id)
        return Channel(id=channel_id, name=known, kind=kind)  # type: ignore[arg-type]

    def _wanted(self) -> bool:
        try:
            return self.names_needed()
        except Exception:  # an invalid rules file: the agent reports it; no lookup helps
            return False

    async def _look_up(self, channel_id: str) -> str:
        if time.monotonic() - self._failed.get(channel_id, float("-inf")) < RETRY_FAILED_AFTER:
            return ""
        try:
            resp = await self.client.conversations_info(channel=channel_id)
            name = (resp.get("channel") or {}).get("name") or ""
        except Exception as exc:  # missing scope, channel_not_found, Slack down: the rules treat it as unnamed
            self._failed[channel_id] = time.monotonic()
            log.warning("slack.channel_name_unknown", channel=channel_id, error=str(exc)[:200])
            return ""
        self.learn(channel_id, name)
        return name

"""Which channel a question came from, as the channel rules need it: id, name (when known) and kind.

Slash commands carry the channel's name; events carry only its id (and, for messages, the channel type). When the
rules name channels by name, an unknown name is looked up once with conversations.info (channels:read /
groups:read) and remembered for NAME_TTL (a renamed channel gets its new name's rule after that); a failed lookup
leaves the name unknown, and the rules then give that channel nothing rather than the default
(synthesis.scoping.resolve). An app_mention says nothing of the kind either, and a group
DM's id does not start with D: its kind comes from the same lookup (is_im / is_mpim), so the `dm` rule applies.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

import structlog

from synthesis.scoping import Channel

log = structlog.get_logger(__name__)

RETRY_FAILED_AFTER = 60.0  # seconds before a failed name lookup is tried again
NAME_TTL = 600.0  # seconds a channel's name is trusted before it is looked up again (channels get renamed)
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


def event_kind(event: dict) -> str:
    """The kind an event shows, or UNKNOWN_KIND when it does not say (an app_mention: no channel_type)."""
    if event.get("channel_type") or event.get("channel", "").startswith("D"):
        return channel_kind(event["channel"], channel_type=event.get("channel_type"))
    return UNKNOWN_KIND


UNKNOWN_KIND = ""  # ChannelDirectory.channel looks it up (conversations.info's is_im / is_mpim)


class ChannelDirectory:
    """Channel names and kinds by id: learned from slash commands, looked up when the rules need them.

    Args:
        client: the Slack AsyncWebClient (conversations.info).
        names_needed: whether the current rules name channels by name (no name lookups otherwise).
        clock: monotonic seconds (tests pass a fake one).
    """

    def __init__(self, client, *, names_needed: Callable[[], bool],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.client, self.names_needed, self.clock = client, names_needed, clock
        self._names: OrderedDict[str, tuple[str, float]] = OrderedDict()  # id -> (name, when learned)
        self._kinds: OrderedDict[str, str] = OrderedDict()  # looked up; a channel never becomes a DM
        self._failed: dict[str, float] = {}

    def learn(self, channel_id: str, name: str | None) -> None:
        if channel_id and name and name not in ("directmessage", "privategroup"):
            _remember(self._names, channel_id, (name, self.clock()))

    async def channel(self, channel_id: str, *, kind: str = "channel", name: str | None = None) -> Channel:
        self.learn(channel_id, name)
        if kind == UNKNOWN_KIND:
            kind = await self._kind(channel_id)
        known, learned = self._names.get(channel_id, ("", 0.0))
        if known and self.clock() - learned >= NAME_TTL:
            known = ""  # perhaps renamed since: look it up again (kept if the lookup fails)
        if not known and kind == "channel" and channel_id and self._wanted():
            info = await self._info(channel_id)
            known = (info or {}).get("name") or self._names.get(channel_id, ("", 0.0))[0]
        return Channel(id=channel_id, name=known, kind=kind)  # type: ignore[arg-type]

    def _wanted(self) -> bool:
        try:
            return self.names_needed()
        except Exception:  # an invalid rules file: the agent reports it; no lookup helps
            return False

    async def _kind(self, channel_id: str) -> str:
        if channel_id not in self._kinds:
            await self._info(channel_id)
        return self._kinds.get(channel_id, "channel")  # not looked up: a channel (its name decides, as before)

    async def _info(self, channel_id: str) -> dict | None:
        """conversations.info's `channel`, remembered (name and kind); None when it failed (retried later)."""
        if not channel_id or self.clock() - self._failed.get(channel_id, float("-inf")) < RETRY_FAILED_AFTER:
            return None
        try:
            resp = await self.client.conversations_info(channel=channel_id)
            info = resp.get("channel") or {}
        except Exception as exc:  # missing scope, channel_not_found, Slack down: the rules treat it as unnamed
            self._failed[channel_id] = self.clock()
            log.warning("slack.channel_unknown", channel=channel_id, error=str(exc)[:200])
            return None
        kind = "im" if info.get("is_im") else "mpim" if info.get("is_mpim") else "channel"
        _remember(self._kinds, channel_id, kind)
        if kind == "channel":
            self.learn(channel_id, info.get("name") or "")
        return info


def _remember(cache: OrderedDict, key: str, value) -> None:
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > MAX_CHANNELS:
        cache.popitem(last=False)

"""Channel scoping: which collections (and tags) a channel, a DM or the console may see.

The rules live in a YAML file (SYNTHBOT_CHANNEL_RULES). Without one, every channel sees the configured collection,
as before. With one, a channel sees exactly what its rule grants, in this order: a rule naming its id, a rule naming
its name, the `dm` rule for a direct message, the `default` rule — and otherwise nothing. A collection no rule names
is visible nowhere (a `default` rule that lists it is the only way to make it visible everywhere).

    default:                      # any channel without a rule of its own (omit it: those channels see nothing)
      collections: [handbook]
    dm:                           # direct messages (one-to-one and group DMs)
      collections: [handbook, engineering]
    channels:
      - name: eng-oncall          # by name (without '#'), or…
        collections: [engineering, runbooks]
      - id: C0123ABCDEF           # …by id (wins over a name rule)
        collections:
          - handbook
          - collection: finance   # only finance's chunks tagged `public` or `payroll`
            tags: [public, payroll]

The rules are read again when the file changes, so an edit applies to the next question without a restart; a file
that stops being valid makes every scoped question fail with the file's error (never the old, wider rules).
"""

from __future__ import annotations

import os
import re
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import structlog
import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from .errors import ChannelRulesInvalid, ConfigError, OutOfScope

log = structlog.get_logger(__name__)

# Chroma's rule for collection names: 3-512 of [a-zA-Z0-9._-], starting and ending with a letter or digit.
COLLECTION_NAME = re.compile(r"[a-zA-Z0-9](?:[a-zA-Z0-9._-]{1,510})[a-zA-Z0-9]")
SLACK_ID = re.compile(r"[CGD][A-Z0-9]+")  # conversation ids: C (channels), G (private and group DMs), D (DMs)
ChannelKind = Literal["channel", "im", "mpim"]


def check_collection_name(name: str) -> str:
    """The name if Chroma accepts it, else ConfigError saying what a valid name looks like."""
    if not isinstance(name, str) or not COLLECTION_NAME.fullmatch(name) or ".." in name:
        raise ConfigError(f"invalid collection name '{name}': use 3-512 characters of letters, digits, '.', '_' or "
                          "'-', starting and ending with a letter or digit")
    return name


def channel_name(name: str) -> str:
    """Slack channel names are lower case; rules may write them with a leading '#'."""
    return name.strip().lstrip("#").strip().lower()


@dataclass(frozen=True)
class Channel:
    """Where a question was asked, as the edge knows it: the Slack id, the name when known, and the kind."""

    id: str = ""
    name: str = ""
    kind: ChannelKind = "channel"

    @property
    def is_dm(self) -> bool:
        return self.kind in ("im", "mpim")

    def label(self) -> str:
        if self.is_dm:
            return f"the direct message {self.id}".strip()
        return f"#{self.name}" + (f" ({self.id})" if self.id else "") if self.name else f"channel {self.id}"


# --- the file ------------------------------------------------------------------------------------------
class Grant(BaseModel):
    """One collection a rule makes visible; with `tags`, only its chunks carrying at least one of them."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    collection: str
    tags: tuple[str, ...] = ()

    @field_validator("collection")
    @classmethod
    def _valid_name(cls, value: str) -> str:
        try:
            return check_collection_name(value)
        except ConfigError as exc:
            raise ValueError(str(exc)) from None

    @field_validator("tags")
    @classmethod
    def _tags(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        tags = tuple(dict.fromkeys(t.strip() for t in value))
        if any(not t for t in tags):
            raise ValueError("a tag is empty")
        for tag in tags:  # they would make Grant.key ('finance[payroll,public]') read back as other tags
            if bad := sorted({c for c in tag if c in ",[]"}):
                raise ValueError(f"tag '{tag}' contains {' '.join(repr(c) for c in bad)}: tags may not contain "
                                 "',', '[' or ']' — list several tags as [a, b]")
        return tuple(sorted(tags))

    @property
    def key(self) -> str:
        """'handbook', or 'finance[payroll,public]' when tags narrow it (how answers and turns record a scope)."""
        return self.collection + (f"[{','.join(self.tags)}]" if self.tags else "")

    def covers(self, other: "Grant") -> bool:
        """Everything `other` may show is visible under this grant."""
        return self.collection == other.collection and (not self.tags or bool(other.tags)
                                                        and set(other.tags) <= set(self.tags))


class Rule(BaseModel):
    """The collections a rule grants: names, or {collection, tags}; rule-level `tags` apply to plain names."""

    model_config = ConfigDict(extra="forbid")

    collections: list[str | Grant]
    tags: list[str] = Field(default_factory=list)

    @field_validator("collections", mode="before")
    @classmethod
    def _listed(cls, value: Any) -> Any:
        if isinstance(value, str):
            raise ValueError("write collections as a list, e.g. collections: [handbook]")
        return value

    @model_validator(mode="after")
    def _check(self) -> "Rule":
        seen: set[str] = set()
        for item in self.collections:
            name = item if isinstance(item, str) else item.collection
            if isinstance(item, str):
                Grant(collection=item, tags=tuple(self.tags))  # validates the name and the rule's tags
            if name in seen:
                raise ValueError(f"collection '{name}' is listed twice in one rule")
            seen.add(name)
        return self

    def grants(self) -> tuple[Grant, ...]:
        out = [Grant(collection=item, tags=tuple(self.tags)) if isinstance(item, str) else item
               for item in self.collections]
        return tuple(sorted(out, key=lambda g: g.collection))


class ChannelRule(Rule):
    """A rule for one channel, named by its id or by its name (exactly one)."""

    id: str | None = None
    name: str | None = None

    @model_validator(mode="after")
    def _one_key(self) -> "ChannelRule":
        if bool(self.id) == bool(self.name):
            raise ValueError("give a channel either `id` (e.g. C0123ABCDEF) or `name` (e.g. eng-oncall), not both "
                             "or neither")
        if self.id is not None:
            self.id = self.id.strip()
            if not SLACK_ID.fullmatch(self.id):
                raise ValueError(f"'{self.id}' is not a Slack channel id (like C0123ABCDEF, G… or D…) — write a "
                                 "channel's name as `name:`")
        if self.name is not None:
            self.name = channel_name(self.name)
            if not self.name:
                raise ValueError("the channel name is empty")
        return self


class RulesFile(BaseModel):
    """The whole rules file."""

    model_config = ConfigDict(extra="forbid")

    default: Rule | None = None
    dm: Rule | None = None
    channels: list[ChannelRule] = Field(default_factory=list)

    @model_validator(mode="after")
    def _no_duplicates(self) -> "RulesFile":
        seen: dict[str, int] = {}
        for n, rule in enumerate(self.channels):
            key = f"id {rule.id}" if rule.id else f"name #{rule.name}"
            if key in seen:
                raise ValueError(f"channel {key} is listed twice (channels[{seen[key]}] and channels[{n}]): merge the "
                                 "two rules into one")
            seen[key] = n
        return self

    @property
    def uses_names(self) -> bool:
        return any(r.name for r in self.channels)

    def named_collections(self) -> tuple[str, ...]:
        """Every collection some rule names."""
        rules = [self.default, self.dm, *self.channels]
        return tuple(sorted({g.collection for r in rules if r is not None for g in r.grants()}))


def parse_rules(text: str, *, source: str = "channel rules") -> RulesFile:
    """Parse and validate the YAML; ConfigError lists every problem with where it is."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        why = " ".join(str(exc).split())
        raise ChannelRulesInvalid(f"{source} is not valid YAML ({why}) — fix the file") from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ChannelRulesInvalid(f"{source} must be a mapping with `default`, `dm` and `channels` — see the "
                                  "README's \"Channel rules\" section")
    try:
        return RulesFile.model_validate(data)
    except ValidationError as exc:
        lines = []
        for err in exc.errors():
            where = ".".join(str(p) for p in err["loc"] if not str(p).startswith(("str", "Grant", "function")))
            msg = err["msg"].removeprefix("Value error, ")
            if err["type"] == "extra_forbidden":
                msg = "unknown key (allowed: default, dm, channels; in a rule: collections, tags, id, name)"
            lines.append(f"{where or '(top level)'}: {msg}")
        listed = "\n  ".join(dict.fromkeys(lines))
        raise ChannelRulesInvalid(f"{source} is invalid — fix these and reload:\n  {listed}") from None


def load_rules(path: str | Path, *, named_by: str = "SYNTHBOT_CHANNEL_RULES") -> RulesFile:
    """The rules file at `path`; `named_by` is what named it (the setting, or the command line), for the error."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ChannelRulesInvalid(f"cannot read the channel rules file {path} ({exc}) — check {named_by}") from None
    return parse_rules(text, source=f"channel rules file {path}")


# --- resolving a channel -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Visibility:
    """What one question may see: grants (empty: nothing), and which rule decided (for messages and logs)."""

    grants: tuple[Grant, ...]
    rule: str

    @property
    def collections(self) -> tuple[str, ...]:
        return tuple(g.collection for g in self.grants)

    @property
    def keys(self) -> list[str]:
        return [g.key for g in self.grants]

    def covers_keys(self, keys: list[str]) -> bool:
        """Everything a past answer recorded under `keys` may see is visible now (an unknown scope is not)."""
        if not keys:
            return False
        return all(any(mine.covers(theirs) for mine in self.grants) for theirs in map(grant_of, keys))


def grant_of(key: str) -> Grant:
    """The inverse of Grant.key."""
    name, _, rest = key.partition("[")
    return Grant(collection=name, tags=tuple(t for t in rest.rstrip("]").split(",") if t))


def everything(collection: str) -> Visibility:
    """No rules file: the one configured collection, everywhere (the behaviour before channel scoping)."""
    return Visibility((Grant(collection=collection),), "no rules file")


def resolve(rules: RulesFile, channel: Channel | None) -> Visibility:
    """The rule that applies to `channel`: id, then name, then dm, then default, else nothing.

    `channel=None` (the CLI, Python) gets the default rule. A channel whose name is unknown while some rule names
    channels by name sees nothing: falling through to the default could show it more than its own rule allows.
    """
    if channel is not None and channel.id:
        for rule in rules.channels:
            if rule.id == channel.id:
                return Visibility(rule.grants(), f"channel id {rule.id}")
    if channel is not None and channel.name and not channel.is_dm:
        wanted = channel_name(channel.name)
        for rule in rules.channels:
            if rule.name == wanted:
                return Visibility(rule.grants(), f"channel #{rule.name}")
    if channel is not None and channel.is_dm:
        if rules.dm is not None:
            return Visibility(rules.dm.grants(), "dm")
        return Visibility((), "no dm rule")
    if channel is not None and not channel.name and rules.uses_names:
        return Visibility((), "unknown channel name")
    if rules.default is not None:
        return Visibility(rules.default.grants(), "default")
    return Visibility((), "no rule")


def refusal(visibility: Visibility, channel: Channel | None) -> OutOfScope:
    """Why a question sees nothing, and what fixes it."""
    where = channel.label() if channel is not None else "this command"
    why = {
        "unknown channel name": "its name could not be looked up and the rules name channels by name (grant the "
                                "app channels:read and groups:read, or add a rule with its id)",
        "no dm rule": "the channel rules have no `dm` rule",
        "no rule": "no rule in the channel rules names it and there is no `default` rule",
    }.get(visibility.rule, f"its rule ({visibility.rule}) lists no collection")
    return OutOfScope(f"{where} may not see any knowledge base collection: {why} — ask an admin to add a rule to the "
                      "channel rules file (SYNTHBOT_CHANNEL_RULES)")


class RulesSource:
    """The rules file, read again when it changes (checked at most every `check_every` seconds).

    A file that stops being valid raises its ConfigError on every `current()` until it is fixed: failing closed,
    never keeping the older rules, which may be wider than the admin now wants.
    """

    def __init__(self, path: str | Path, *, check_every: float = 1.0) -> None:
        self.path = Path(path)
        self.check_every = check_every
        self._lock = threading.Lock()
        self._stamp: tuple[int, int] | None = None
        self._rules: RulesFile | None = None
        self._error: ChannelRulesInvalid | None = None
        self._checked = float("-inf")
        self.current()  # a bad file is reported at start-up

    def current(self) -> RulesFile:
        with self._lock:
            now = time.monotonic()
            if now - self._checked >= self.check_every:
                self._checked = now
                try:
                    st = os.stat(self.path)
                    stamp = (st.st_mtime_ns, st.st_size)
                except OSError as exc:
                    # Forget the stamp: the file put back unchanged (same mtime and size) must be read again.
                    stamp, self._stamp, self._rules = None, None, None
                    self._error = ChannelRulesInvalid(f"cannot read the channel rules file {self.path} ({exc}) — "
                                                      "check SYNTHBOT_CHANNEL_RULES")
                if stamp is not None and stamp != self._stamp:
                    self._stamp = stamp
                    try:
                        self._rules, self._error = load_rules(self.path), None
                        log.info("channel_rules.loaded", path=str(self.path), channels=len(self._rules.channels),
                                 default=self._rules.default is not None, dm=self._rules.dm is not None)
                    except ChannelRulesInvalid as exc:
                        self._rules, self._error = None, exc
                        log.error("channel_rules.invalid", path=str(self.path), error=str(exc))
            if self._error is not None:
                raise self._error
            assert self._rules is not None
            return self._rules

    def resolve(self, channel: Channel | None) -> Visibility:
        return resolve(self.current(), channel)

    def named_collections(self) -> tuple[str, ...]:
        """Every collection some rule names (what `serve` warms up)."""
        return self.current().named_collections()


def open_rules(settings) -> RulesSource | None:
    """The configured rules file, or None when SYNTHBOT_CHANNEL_RULES is unset (every channel sees the collection)."""
    if not settings.channel_rules:
        return None
    return RulesSource(settings.channel_rules)

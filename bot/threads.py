"""Conversation history per Slack thread: SQLite in the data directory by default, Redis when configured."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import structlog

from synthesis.config import Settings
from synthesis.errors import StoreUnavailable
from synthesis.models import Turn

log = structlog.get_logger(__name__)

MAX_TURNS = 20  # a follow-up needs the last few exchanges, not the whole thread


@runtime_checkable
class ConversationStore(Protocol):
    """Past turns of one thread, keyed by team, channel and thread ts; entries expire after a TTL.

    Example:
        >>> await store.save(team="T1", channel="C1", thread="1700000000.000100", turn=Turn(question="q"))
        >>> [t.question for t in await store.load(team="T1", channel="C1", thread="1700000000.000100")]
        ['q']
    """

    async def save(self, *, team: str, channel: str, thread: str, turn: Turn) -> None: ...

    async def load(self, *, team: str, channel: str, thread: str) -> list[Turn]: ...


class SQLiteFile:
    """One SQLite connection shared by worker threads behind a lock (WAL, so other processes can read meanwhile)."""

    def __init__(self, path: str | Path, schema: str):
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=10)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(schema)
        except (OSError, sqlite3.Error) as exc:
            raise StoreUnavailable(f"cannot open {self.path}: {exc} — check that SYNTHBOT_HOME is writable") from exc
        self._lock = threading.Lock()

    def _run(self, fn: Callable[[sqlite3.Connection], Any], write: bool) -> Any:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                out = fn(self._db)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
            return out

    async def run(self, fn: Callable[[sqlite3.Connection], Any], *, write: bool = True) -> Any:
        """Run fn(connection) in one transaction, off the event loop."""
        return await asyncio.to_thread(self._run, fn, write)

    def close(self) -> None:
        with self._lock:
            self._db.close()


_SCHEMA = """
CREATE TABLE IF NOT EXISTS turns (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    team TEXT NOT NULL, channel TEXT NOT NULL, thread TEXT NOT NULL,
    expires REAL NOT NULL, turn TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS turns_thread ON turns (team, channel, thread, id);
CREATE INDEX IF NOT EXISTS turns_expires ON turns (expires);
"""


class SQLiteConversationStore:
    """The default store: a file in the data directory, so threads survive a restart.

    The TTL slides: each save extends the whole thread, like Redis EXPIRE on the thread's list.
    """

    def __init__(self, path: str | Path, *, ttl_seconds: float, max_turns: int = MAX_TURNS,
                 clock: Callable[[], float] = time.time):
        self.ttl_seconds, self.max_turns, self._clock = ttl_seconds, max_turns, clock
        self._file = SQLiteFile(path, _SCHEMA)

    async def save(self, *, team: str, channel: str, thread: str, turn: Turn) -> None:
        now = self._clock()
        key = (team, channel, thread)

        def write(db: sqlite3.Connection) -> None:
            db.execute("DELETE FROM turns WHERE expires <= ?", (now,))
            db.execute("INSERT INTO turns (team, channel, thread, expires, turn) VALUES (?, ?, ?, ?, ?)",
                       (*key, now + self.ttl_seconds, turn.model_dump_json()))
            db.execute("UPDATE turns SET expires = ? WHERE team = ? AND channel = ? AND thread = ?",
                       (now + self.ttl_seconds, *key))
            db.execute("DELETE FROM turns WHERE team = ? AND channel = ? AND thread = ? AND id NOT IN ("
                       "SELECT id FROM turns WHERE team = ? AND channel = ? AND thread = ? ORDER BY id DESC LIMIT ?)",
                       (*key, *key, self.max_turns))

        await self._file.run(write)
        log.debug("thread_saved", store="sqlite", channel=channel, thread=thread)

    async def load(self, *, team: str, channel: str, thread: str) -> list[Turn]:
        now = self._clock()
        rows = await self._file.run(lambda db: db.execute(
            "SELECT turn FROM turns WHERE team = ? AND channel = ? AND thread = ? AND expires > ? ORDER BY id",
            (team, channel, thread, now)).fetchall(), write=False)
        return [Turn.model_validate_json(row[0]) for row in rows]

    async def close(self) -> None:
        self._file.close()


class RedisConversationStore:
    """Scale-out store: one Redis list per thread, trimmed to the last turns, expiring with PEXPIRE."""

    def __init__(self, url: str, *, ttl_seconds: float, max_turns: int = MAX_TURNS, prefix: str = "synthbot:thread"):
        from redis.asyncio import Redis  # imported here: only a Redis deployment needs it loaded

        self.url, self.ttl_seconds, self.max_turns, self.prefix = url, ttl_seconds, max_turns, prefix
        self._redis = Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)

    def _key(self, team: str, channel: str, thread: str) -> str:
        return f"{self.prefix}:{team}:{channel}:{thread}"

    async def save(self, *, team: str, channel: str, thread: str, turn: Turn) -> None:
        from redis.exceptions import RedisError

        key = self._key(team, channel, thread)
        try:
            async with self._redis.pipeline(transaction=True) as pipe:
                pipe.rpush(key, turn.model_dump_json())
                pipe.ltrim(key, -self.max_turns, -1)
                pipe.pexpire(key, max(1, int(self.ttl_seconds * 1000)))
                await pipe.execute()
        except RedisError as exc:
            raise self._unavailable(exc) from exc
        log.debug("thread_saved", store="redis", channel=channel, thread=thread)

    async def load(self, *, team: str, channel: str, thread: str) -> list[Turn]:
        from redis.exceptions import RedisError

        try:
            items = await self._redis.lrange(self._key(team, channel, thread), 0, -1)
        except RedisError as exc:
            raise self._unavailable(exc) from exc
        return [Turn.model_validate_json(item) for item in items]

    def _unavailable(self, exc: Exception) -> StoreUnavailable:
        return StoreUnavailable(f"Redis at {_redact(self.url)} failed: {exc} — start it, or unset REDIS_URL "
                                "to keep threads in SQLite")

    async def close(self) -> None:
        await self._redis.aclose()


def _redact(url: str) -> str:
    """The URL without a password, for messages and logs."""
    scheme, sep, rest = url.partition("://")
    return f"{scheme}{sep}{rest.rsplit('@', 1)[1]}" if "@" in rest else url


def open_conversation_store(settings: Settings) -> SQLiteConversationStore | RedisConversationStore:
    """Redis when REDIS_URL is set, else `conversations.sqlite3` in the data directory."""
    if settings.redis_url:
        log.info("conversation_store", kind="redis", url=_redact(settings.redis_url))
        return RedisConversationStore(settings.redis_url, ttl_seconds=settings.thread_ttl_seconds)
    path = settings.home / "conversations.sqlite3"
    log.info("conversation_store", kind="sqlite", path=str(path))
    return SQLiteConversationStore(path, ttl_seconds=settings.thread_ttl_seconds)

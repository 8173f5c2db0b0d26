"""Conversation stores: SQLite (save/load, TTL, restart, bounds) and Redis against a real redis-server on loopback."""

from __future__ import annotations

import asyncio

import pytest

from bot.threads import (
    ConversationStore,
    RedisConversationStore,
    SQLiteConversationStore,
    open_conversation_store,
)
from synthesis.errors import StoreUnavailable
from synthesis.models import Turn
from tests.conftest import free_port

KEY = {"team": "T1", "channel": "C1", "thread": "1700000000.000100"}


class Clock:
    """A hand-moved clock, so TTL expiry is tested without sleeping."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def turn(i: int) -> Turn:
    return Turn(question=f"question {i}", standalone=f"standalone {i}", summary=f"summary {i}",
                cited_ids=[f"doc#{i}"], answer_id=f"a{i}")


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
async def sqlite_store(tmp_path, clock):
    store = SQLiteConversationStore(tmp_path / "conversations.sqlite3", ttl_seconds=60, clock=clock)
    yield store
    await store.close()


async def test_sqlite_save_and_load_oldest_first(sqlite_store):
    assert isinstance(sqlite_store, ConversationStore)
    for i in range(3):
        await sqlite_store.save(**KEY, turn=turn(i))
    turns = await sqlite_store.load(**KEY)
    assert [t.question for t in turns] == ["question 0", "question 1", "question 2"]
    assert turns[1] == turn(1)  # every field round-trips


async def test_sqlite_threads_are_keyed_by_team_channel_and_thread(sqlite_store):
    await sqlite_store.save(**KEY, turn=turn(1))
    for other in ({**KEY, "team": "T2"}, {**KEY, "channel": "C2"}, {**KEY, "thread": "1700000000.000200"}):
        assert await sqlite_store.load(**other) == []
    assert len(await sqlite_store.load(**KEY)) == 1


async def test_sqlite_entries_expire_after_the_ttl(sqlite_store, clock):
    await sqlite_store.save(**KEY, turn=turn(1))
    clock.now += 59
    assert len(await sqlite_store.load(**KEY)) == 1
    clock.now += 2
    assert await sqlite_store.load(**KEY) == []


async def test_sqlite_ttl_slides_with_each_save(sqlite_store, clock):
    await sqlite_store.save(**KEY, turn=turn(1))
    clock.now += 50
    await sqlite_store.save(**KEY, turn=turn(2))
    clock.now += 50  # 100 s after the first turn, 50 s after the last
    assert [t.question for t in await sqlite_store.load(**KEY)] == ["question 1", "question 2"]


async def test_sqlite_history_is_bounded(tmp_path, clock):
    store = SQLiteConversationStore(tmp_path / "c.sqlite3", ttl_seconds=60, max_turns=5, clock=clock)
    for i in range(12):
        await store.save(**KEY, turn=turn(i))
    assert [t.question for t in await store.load(**KEY)] == [f"question {i}" for i in range(7, 12)]
    await store.close()


async def test_sqlite_survives_a_restart_with_the_same_file(tmp_path, clock):
    path = tmp_path / "conversations.sqlite3"
    first = SQLiteConversationStore(path, ttl_seconds=60, clock=clock)
    await first.save(**KEY, turn=turn(1))
    await first.close()
    second = SQLiteConversationStore(path, ttl_seconds=60, clock=clock)
    assert await second.load(**KEY) == [turn(1)]
    await second.save(**KEY, turn=turn(2))
    assert [t.answer_id for t in await second.load(**KEY)] == ["a1", "a2"]
    await second.close()


async def test_sqlite_concurrent_saves_are_all_kept(sqlite_store):
    await asyncio.gather(*(sqlite_store.save(**{**KEY, "thread": f"t{i % 4}"}, turn=turn(i)) for i in range(40)))
    loaded = [await sqlite_store.load(**{**KEY, "thread": f"t{j}"}) for j in range(4)]
    assert sorted(t.answer_id for ts in loaded for t in ts) == sorted(f"a{i}" for i in range(40))


async def test_sqlite_uses_wal(tmp_path):
    import sqlite3

    store = SQLiteConversationStore(tmp_path / "c.sqlite3", ttl_seconds=60)
    await store.save(**KEY, turn=turn(1))
    with sqlite3.connect(tmp_path / "c.sqlite3") as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    await store.close()


def test_sqlite_unwritable_location_says_what_to_do(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(StoreUnavailable, match="SYNTHBOT_HOME"):
        SQLiteConversationStore(blocker / "sub" / "c.sqlite3", ttl_seconds=60)


async def test_open_conversation_store_defaults_to_sqlite_in_home(settings):
    store = open_conversation_store(settings)
    assert isinstance(store, SQLiteConversationStore)
    await store.save(**KEY, turn=turn(1))
    assert (settings.home / "conversations.sqlite3").exists()
    assert store.ttl_seconds == settings.thread_ttl_seconds
    await store.close()


async def test_open_conversation_store_picks_redis_when_configured(settings):
    store = open_conversation_store(settings.model_copy(update={"redis_url": "redis://127.0.0.1:1/0"}))
    assert isinstance(store, RedisConversationStore)
    await store.close()


# --- Redis: a real server on a free loopback port (the session's `redis_url` fixture) ---------------------
@pytest.fixture
async def redis_store(redis_url, request):
    store = RedisConversationStore(redis_url, ttl_seconds=60, max_turns=5, prefix=f"test:{request.node.name}")
    yield store
    await store.close()


async def test_redis_save_and_load_oldest_first(redis_store):
    assert isinstance(redis_store, ConversationStore)
    for i in range(3):
        await redis_store.save(**KEY, turn=turn(i))
    assert await redis_store.load(**KEY) == [turn(0), turn(1), turn(2)]
    assert await redis_store.load(**{**KEY, "channel": "C2"}) == []


async def test_redis_history_is_bounded(redis_store):
    for i in range(8):
        await redis_store.save(**KEY, turn=turn(i))
    assert [t.answer_id for t in await redis_store.load(**KEY)] == ["a3", "a4", "a5", "a6", "a7"]


async def test_redis_entries_expire_after_the_ttl(redis_url):
    store = RedisConversationStore(redis_url, ttl_seconds=0.3, prefix="test:expiry")
    await store.save(**KEY, turn=turn(1))
    assert len(await store.load(**KEY)) == 1
    await asyncio.sleep(0.6)
    assert await store.load(**KEY) == []
    await store.close()


async def test_redis_state_survives_a_new_client(redis_url):
    first = RedisConversationStore(redis_url, ttl_seconds=60, prefix="test:restart")
    await first.save(**KEY, turn=turn(1))
    await first.close()
    second = RedisConversationStore(redis_url, ttl_seconds=60, prefix="test:restart")
    assert await second.load(**KEY) == [turn(1)]
    await second.close()


async def test_redis_down_is_a_store_unavailable_error_that_says_what_to_do():
    store = RedisConversationStore(f"redis://:secret@127.0.0.1:{free_port()}/0", ttl_seconds=60)
    with pytest.raises(StoreUnavailable, match="REDIS_URL") as info:
        await store.load(**KEY)
    assert "secret" not in str(info.value)
    await store.close()

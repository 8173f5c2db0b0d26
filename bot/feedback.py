"""👍/👎 clicks on answers, kept in SQLite in the data directory for ops and evaluation."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Literal

import structlog
from pydantic import BaseModel

from synthesis.config import Settings

from .threads import SQLiteFile

log = structlog.get_logger(__name__)

Vote = Literal["up", "down"]
ACTION_VOTES: dict[str, Vote] = {"feedback_up": "up", "feedback_down": "down"}  # the buttons' action_ids

_SCHEMA = """
CREATE TABLE IF NOT EXISTS feedback (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at REAL NOT NULL, answer_id TEXT NOT NULL, question TEXT NOT NULL, vote TEXT NOT NULL,
    user TEXT NOT NULL, team TEXT NOT NULL, channel TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS feedback_answer ON feedback (answer_id);
"""


class FeedbackEntry(BaseModel):
    at: float
    answer_id: str
    question: str
    vote: Vote
    user: str
    team: str
    channel: str


class FeedbackLog:
    """Append-only feedback log; one row per click (a changed mind is a second row, the latest wins)."""

    def __init__(self, path: str | Path):
        self._file = SQLiteFile(path, _SCHEMA)

    async def record(self, *, answer_id: str, question: str, vote: Vote | str, user: str, team: str,
                     channel: str) -> FeedbackEntry:
        """Store one click; `vote` is "up"/"down" or the button's action_id."""
        vote = ACTION_VOTES.get(vote, vote)
        entry = FeedbackEntry(at=time.time(), answer_id=answer_id, question=question, vote=vote, user=user,
                              team=team, channel=channel)  # validates the vote
        await self._file.run(lambda db: db.execute(
            "INSERT INTO feedback (at, answer_id, question, vote, user, team, channel) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (entry.at, entry.answer_id, entry.question, entry.vote, entry.user, entry.team, entry.channel)))
        log.info("feedback_recorded", answer_id=answer_id, vote=entry.vote, channel=channel)
        return entry

    async def list(self, *, answer_id: str | None = None) -> list[FeedbackEntry]:
        """Every click, oldest first (optionally for one answer)."""
        def read(db: sqlite3.Connection) -> list[tuple]:
            sql = "SELECT at, answer_id, question, vote, user, team, channel FROM feedback"
            if answer_id is not None:
                return db.execute(sql + " WHERE answer_id = ? ORDER BY id", (answer_id,)).fetchall()
            return db.execute(sql + " ORDER BY id").fetchall()

        rows = await self._file.run(read, write=False)
        fields = list(FeedbackEntry.model_fields)
        return [FeedbackEntry(**dict(zip(fields, row, strict=True))) for row in rows]

    async def close(self) -> None:
        self._file.close()


def open_feedback_log(settings: Settings) -> FeedbackLog:
    """`feedback.sqlite3` in the data directory."""
    return FeedbackLog(settings.home / "feedback.sqlite3")

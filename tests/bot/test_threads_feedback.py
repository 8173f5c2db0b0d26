"""The feedback log: votes recorded with question and answer ids, kept across restarts."""

from __future__ import annotations

import pydantic
import pytest

from bot.feedback import FeedbackLog, open_feedback_log

WHO = {"user": "U1", "team": "T1", "channel": "C1"}


async def test_record_and_list(tmp_path):
    log = FeedbackLog(tmp_path / "feedback.sqlite3")
    await log.record(answer_id="a1", question="how do deploys work?", vote="up", **WHO)
    await log.record(answer_id="a2", question="who is on call?", vote="feedback_down", **WHO)
    entries = await log.list()
    assert [(e.answer_id, e.question, e.vote) for e in entries] == [
        ("a1", "how do deploys work?", "up"), ("a2", "who is on call?", "down")]
    assert [e.answer_id for e in await log.list(answer_id="a2")] == ["a2"]
    assert entries[0].user == "U1" and entries[0].team == "T1" and entries[0].channel == "C1"
    await log.close()


async def test_invalid_vote_is_rejected(tmp_path):
    log = FeedbackLog(tmp_path / "feedback.sqlite3")
    with pytest.raises(pydantic.ValidationError):
        await log.record(answer_id="a1", question="q", vote="meh", **WHO)
    assert await log.list() == []
    await log.close()


async def test_feedback_survives_a_restart(settings):
    first = open_feedback_log(settings)
    await first.record(answer_id="a1", question="q", vote="up", **WHO)
    await first.close()
    assert (settings.home / "feedback.sqlite3").exists()
    second = open_feedback_log(settings)
    assert [e.vote for e in await second.list()] == ["up"]
    await second.close()

"""The retrieval log (SQLite and Redis), usage stats, and `synthbot stats`/`coverage` at the command line."""

from __future__ import annotations

import json

import pytest

from synthesis.usage import (ORIGIN, RedisUsageLog, SQLiteUsageLog, UsageEvent, gap_phrase, open_usage_log,
                             record_safely, usage_stats)


def sample_events() -> list[UsageEvent]:
    return [
        UsageEvent(at=1.0, question="How do we roll back a deploy?", retrieved=["a#0"], cited=["a#0"], confidence="high"),
        UsageEvent(at=2.0, question="And who approves it?", retrieved=["a#1"], cited=["a#1"], confidence="medium",
                   followup=True, gaps=["The knowledge base does not explain who approves rollbacks."]),
        UsageEvent(at=3.0, question="What is our payroll schedule?", no_answer=True, confidence="low"),
        UsageEvent(at=4.0, question="When is the payroll schedule published?", no_answer=True, confidence="low"),
        UsageEvent(at=5.0, kind="search", question="rollback", retrieved=["a#0"]),
        UsageEvent(at=6.0, kind="inquiry", surface="inquiry", question="Q?", retrieved=["b#0"], cited=["b#0"],
                   confidence="medium"),
    ]


@pytest.fixture(params=["sqlite", "redis"])
def usage_log(request, tmp_path):
    if request.param == "sqlite":
        log = SQLiteUsageLog(tmp_path / "conversations.sqlite3")
    else:
        url = request.getfixturevalue("redis_url")
        log = RedisUsageLog(url, key=f"test:usage:{tmp_path.name}")
    yield log
    log.close()


def test_log_round_trips_in_order(usage_log):
    for e in sample_events():
        usage_log.record(e)
    got = usage_log.events()
    assert [e.question for e in got] == [e.question for e in sample_events()]
    assert got[1].followup and got[2].no_answer and got[4].kind == "search"
    assert [e.at for e in usage_log.events(since=4.0)] == [4.0, 5.0, 6.0]


def test_the_log_lives_with_the_conversations(settings, redis_url):
    log = open_usage_log(settings)
    assert isinstance(log, SQLiteUsageLog) and log.path == settings.home / "conversations.sqlite3"
    log.close()
    redis_log = open_usage_log(settings.model_copy(update={"redis_url": redis_url}))
    assert isinstance(redis_log, RedisUsageLog)
    redis_log.close()


def test_stats_counts_and_rates():
    stats = usage_stats(sample_events())
    assert stats.questions == 5 and stats.searches == 1
    assert stats.answers_with_citations == 3 and stats.citation_rate == 0.6
    assert stats.no_answer == 2 and stats.no_answer_rate == 0.4
    assert stats.followups == 1 and stats.followup_rate == 0.2
    assert stats.by_surface == {"python": 4, "inquiry": 1}
    assert ("payroll", 2) in stats.common_topics and ("schedule", 2) in stats.common_topics
    g = stats.gap_signals
    assert g.weak_count == 2 and [w["question"] for w in g.weak_questions] == [
        "When is the payroll schedule published?", "What is our payroll schedule?"]
    assert ("who approves rollbacks", 1) in g.gap_phrases
    assert [(t.topic, t.asked, t.weak) for t in g.poorly_supported] == [("payroll", 2, 2), ("schedule", 2, 2)]


def test_gap_phrase_strips_the_lead():
    assert gap_phrase("The knowledge base does not explain how the DR test works.") == "how the dr test works"


def test_recording_never_raises_and_takes_the_origin(tmp_path):
    class Broken:
        def record(self, event):
            raise OSError("disk full")

    record_safely(Broken(), UsageEvent(question="q"))  # logged, not raised
    log = SQLiteUsageLog(tmp_path / "c.sqlite3")
    token = ORIGIN.set({"team": "T1", "channel": "C9", "user": "U1"})
    try:
        record_safely(log, UsageEvent(question="q"))
    finally:
        ORIGIN.reset(token)
    assert [(e.team, e.channel, e.user) for e in log.events()] == [("T1", "C9", "U1")]
    log.close()


def test_cli_stats_and_coverage(small_kb, monkeypatch, capsys, tmp_path):
    from bot.cli import main

    settings, store, chunks = small_kb
    monkeypatch.setenv("SYNTHBOT_HOME", str(settings.home))
    monkeypatch.setenv("SYNTHBOT_EMBEDDING_MODEL", store.embedder.name)
    assert main(["stats"]) == 0 and "No questions logged yet" in capsys.readouterr().out
    log = open_usage_log(settings)
    for e in sample_events():
        log.record(e.model_copy(update={"retrieved": [chunks["ops/deploys.md"][0]], "collection": store.name}))
    log.close()
    assert main(["stats", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["questions"] == 5 and data["no_answer_rate"] == 0.4 and data["followup_rate"] == 0.2
    assert main(["stats"]) == 0
    out = capsys.readouterr().out
    assert "Questions asked: 5" in out and "No answer: 2 (40%)" in out and "payroll" in out
    chart = tmp_path / "coverage.png"
    assert main(["coverage", "--json", "--chart", str(chart)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["headline"] == 0.25 and report["retrieval"]["retrieved_documents"] == 1
    assert chart.read_bytes().startswith(b"\x89PNG")
    assert main(["coverage"]) == 0
    out = capsys.readouterr().out
    assert "Overall: 25 % coverage" in out and "Definition:" in out and "Gaps identified" in out
    assert "Never retrieved" in out


@pytest.fixture(autouse=True)
def _restore_logging():
    yield
    import structlog

    structlog.reset_defaults()

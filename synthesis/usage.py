"""The retrieval log: every retrieval (Slack, CLI, inquiry) appends what it retrieved, and usage stats read it back.

It lives in the same store as the conversations: `conversations.sqlite3` in the data directory by default, Redis
when REDIS_URL is set. The seam is two methods, `record(event)` and `events()`; recording never breaks an answer.
"""

from __future__ import annotations

import contextvars
import re
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Literal, Protocol

import structlog
from pydantic import BaseModel, Field

from .config import Settings
from .errors import StoreUnavailable
from .stems import content_words

log = structlog.get_logger(__name__)

Kind = Literal["ask", "search", "inquiry", "meta"]
MAX_EVENTS = 200_000  # Redis list cap; the SQLite table is pruned to the same size
# Who asked, set by the edge for the task that answers (Slack: team, channel, user); recorded with the event.
ORIGIN: contextvars.ContextVar[dict[str, str] | None] = contextvars.ContextVar("synthbot_origin", default=None)


class UsageEvent(BaseModel):
    """One retrieval: what was asked, which chunk ids came back, which were cited, how the answer went."""

    at: float = Field(default_factory=time.time)
    kind: Kind = "ask"
    surface: str = "python"  # slack, cli, inquiry, python
    collection: str = ""
    question: str = ""
    standalone: str = ""
    question_type: str = ""
    retrieved: list[str] = Field(default_factory=list)
    cited: list[str] = Field(default_factory=list)
    no_answer: bool = False
    confidence: str = ""  # high / medium / low for answers; "" for a plain search
    followup: bool = False
    gaps: list[str] = Field(default_factory=list)
    closest_topics: list[str] = Field(default_factory=list)
    answer_id: str = ""
    best_score: float | None = None
    team: str = ""
    channel: str = ""
    user: str = ""

    @property
    def answered(self) -> bool:
        return self.kind in ("ask", "inquiry", "meta")

    @property
    def weak(self) -> bool:
        """A gap signal: no answer, or an answer with low confidence."""
        return self.answered and (self.no_answer or self.confidence == "low")


class UsageLog(Protocol):
    """Append-only retrieval log.

    Example:
        >>> log.record(UsageEvent(kind="search", question="deploy window", retrieved=["a#0"]))
        >>> [e.question for e in log.events()]
        ['deploy window']
    """

    def record(self, event: UsageEvent) -> None: ...

    def events(self, *, since: float | None = None) -> list[UsageEvent]: ...


_SCHEMA = """
CREATE TABLE IF NOT EXISTS usage_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at REAL NOT NULL, kind TEXT NOT NULL, collection TEXT NOT NULL, channel TEXT NOT NULL, event TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS usage_events_at ON usage_events (at);
"""


class SQLiteUsageLog:
    """The default: a table beside the conversation turns in `conversations.sqlite3` (WAL; other processes read)."""

    def __init__(self, path: str | Path, *, max_events: int = MAX_EVENTS) -> None:
        self.path, self.max_events = Path(path), max_events
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=10)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.executescript(_SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise StoreUnavailable(f"cannot open {self.path}: {exc} — check that SYNTHBOT_HOME is writable") from exc
        self._lock = threading.Lock()
        self._writes = 0

    def record(self, event: UsageEvent) -> None:
        with self._lock:
            self._db.execute("INSERT INTO usage_events (at, kind, collection, channel, event) VALUES (?, ?, ?, ?, ?)",
                             (event.at, event.kind, event.collection, event.channel, event.model_dump_json()))
            self._writes += 1
            if self._writes % 1000 == 0:  # prune now and then, not on every write
                self._db.execute("DELETE FROM usage_events WHERE id <= (SELECT MAX(id) FROM usage_events) - ?",
                                 (self.max_events,))

    def events(self, *, since: float | None = None) -> list[UsageEvent]:
        with self._lock:
            rows = self._db.execute("SELECT event FROM usage_events WHERE at >= ? ORDER BY id",
                                    (since or 0.0,)).fetchall()
        return [UsageEvent.model_validate_json(r[0]) for r in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()


class RedisUsageLog:
    """Scale-out: one Redis list shared by every worker, capped at `max_events`."""

    def __init__(self, url: str, *, key: str = "synthbot:usage:events", max_events: int = MAX_EVENTS) -> None:
        import redis  # only a Redis deployment needs it loaded

        self.key, self.max_events = key, max_events
        self._redis = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)

    def record(self, event: UsageEvent) -> None:
        pipe = self._redis.pipeline(transaction=True)
        pipe.rpush(self.key, event.model_dump_json())
        pipe.ltrim(self.key, -self.max_events, -1)
        pipe.execute()

    def events(self, *, since: float | None = None) -> list[UsageEvent]:
        events = [UsageEvent.model_validate_json(raw) for raw in self._redis.lrange(self.key, 0, -1)]
        return [e for e in events if since is None or e.at >= since]

    def close(self) -> None:
        self._redis.close()


def open_usage_log(settings: Settings) -> SQLiteUsageLog | RedisUsageLog:
    """Where the conversations are: Redis when REDIS_URL is set, else `conversations.sqlite3` in the data dir."""
    if settings.redis_url:
        return RedisUsageLog(settings.redis_url)
    return SQLiteUsageLog(settings.home / "conversations.sqlite3")


def record_safely(usage: UsageLog | None, event: UsageEvent) -> None:
    """Append to the log; a broken log is logged, never raised (the answer matters more than the statistic)."""
    if usage is None:
        return
    origin = ORIGIN.get() or {}
    for key in ("team", "channel", "user"):
        if origin.get(key) and not getattr(event, key):
            setattr(event, key, origin[key])
    try:
        usage.record(event)
    except Exception as exc:
        log.warning("usage.record_failed", error=f"{type(exc).__name__}: {exc}"[:300])


def record_search(settings: Settings, response, *, collection: str, surface: str = "cli") -> None:
    """Log one search in the configured log (opened and closed here); any failure is logged, never raised."""
    try:
        usage = open_usage_log(settings)
    except Exception as exc:
        log.warning("usage.open_failed", error=f"{type(exc).__name__}: {exc}"[:300])
        return
    try:
        record_safely(usage, search_event(response, surface=surface, collection=collection))
    finally:
        usage.close()


def search_event(response, *, surface: str, collection: str) -> UsageEvent:
    """A plain search (`synthbot search`) as a log entry."""
    return UsageEvent(kind="search", surface=surface, collection=collection, question=response.query,
                      retrieved=[r.id for r in response.results],
                      best_score=max((r.score for r in response.results), default=None))


def answer_event(result, *, surface: str, collection: str, followup: bool, kind: Kind = "ask") -> UsageEvent:
    """An AnswerResult as a log entry: every chunk retrieval returned, and the chunks the answer cites."""
    retrieved = list(dict.fromkeys([p.id for s in result.subagents for p in s.passages]
                                   + [p.id for p in result.passages]))
    return UsageEvent(
        kind=kind, surface=surface, collection=collection, question=result.question,
        standalone=result.standalone_question, question_type=str(result.question_type.value),
        retrieved=retrieved, cited=[s.passage_id for s in result.synthesis.sources],
        no_answer=result.no_answer, confidence=result.confidence, followup=followup,
        gaps=list(result.synthesis.gaps), closest_topics=list(result.closest_topics), answer_id=result.id,
        best_score=max((p.score for p in result.passages), default=None),
    )


# --- reading the log ---------------------------------------------------------------------------------
_GAP_LEAD = ("the knowledge base does not explain", "the knowledge base does not cover", "nothing explains",
             "not covered:", "no source covers", "the sources do not say")


def topics_of(text: str, *, limit: int = 4) -> list[str]:
    """The words a question is about (lower case, no stopwords or question verbs): how questions group into topics.

    Single words group better than phrases: "payroll schedule" and "payroll schedule published" share "payroll".
    """
    out = [w.lower() for w in content_words(text) if len(w) > 2 and w.lower() not in _GENERIC]
    return list(dict.fromkeys(out))[:limit]


_GENERIC = frozenset("""approve approves approved allowed happen happens start starts must quickly long often many
much someone anyone people team teams new old""".split())


def gap_phrase(gap: str) -> str:
    """'The knowledge base does not explain how the DR test works.' → 'how the dr test works'."""
    text = re.sub(r"\[\d+\]", "", gap).split(";")[0]  # the gap itself, not the note about its sources
    text = " ".join(text.split()).strip().rstrip(".").strip()
    low = text.lower()
    for lead in _GAP_LEAD:
        if low.startswith(lead):
            text = text[len(lead):].strip(" :,—-")
            break
    return text.lower()


class TopicSupport(BaseModel):
    topic: str
    asked: int
    weak: int

    @property
    def support(self) -> float:
        return 1.0 - self.weak / self.asked if self.asked else 0.0


class GapSignals(BaseModel):
    """What the log says the knowledge base is thin on."""

    weak_questions: list[dict[str, Any]] = Field(default_factory=list)  # {question, reason, at}
    weak_count: int = 0
    gap_phrases: list[tuple[str, int]] = Field(default_factory=list)
    poorly_supported: list[TopicSupport] = Field(default_factory=list)


def gap_signals(events: Sequence[UsageEvent], *, limit: int = 10) -> GapSignals:
    """No-answer and low-confidence questions, the commonest gap phrases, and topics asked often but poorly supported."""
    answered = [e for e in events if e.answered]
    weak = [e for e in answered if e.weak]
    seen: set[str] = set()
    listed: list[dict[str, Any]] = []
    for e in reversed(weak):  # newest first, one line per distinct question
        key = " ".join(e.question.lower().split())
        if key not in seen:
            seen.add(key)
            listed.append({"question": e.question, "reason": "no answer" if e.no_answer else "low confidence",
                           "at": e.at})
    phrases: Counter[str] = Counter()
    for e in answered:
        phrases.update(p for p in dict.fromkeys(gap_phrase(g) for g in e.gaps) if p)
    for e in weak:
        if e.no_answer:
            phrases.update(topics_of(e.standalone or e.question, limit=2))
    return GapSignals(weak_questions=listed[:limit], weak_count=len(weak),
                      gap_phrases=phrases.most_common(limit), poorly_supported=topic_support(answered)[:limit])


def topic_support(events: Iterable[UsageEvent], *, min_asked: int = 2, max_support: float = 0.5) -> list[TopicSupport]:
    """Topics asked at least `min_asked` times whose share of good answers is at most `max_support`."""
    asked: Counter[str] = Counter()
    weak: Counter[str] = Counter()
    for e in events:
        for topic in topics_of(e.standalone or e.question):
            asked[topic] += 1
            weak[topic] += e.weak
    rows = [TopicSupport(topic=t, asked=n, weak=weak[t]) for t, n in asked.items()]
    rows = [r for r in rows if r.asked >= min_asked and r.support <= max_support]
    return sorted(rows, key=lambda r: (-r.asked, r.support, r.topic))


class UsageStats(BaseModel):
    """`synthbot stats`: what people asked and how well the knowledge base answered."""

    questions: int = 0
    searches: int = 0
    answers_with_citations: int = 0
    citation_rate: float = 0.0
    no_answer: int = 0
    no_answer_rate: float = 0.0
    followups: int = 0
    followup_rate: float = 0.0
    by_surface: dict[str, int] = Field(default_factory=dict)
    common_topics: list[tuple[str, int]] = Field(default_factory=list)
    gap_signals: GapSignals = Field(default_factory=GapSignals)
    first_at: float | None = None
    last_at: float | None = None


def usage_stats(events: Sequence[UsageEvent], *, topics: int = 10) -> UsageStats:
    """Counts and rates over the log (rates are shares of questions; 0 when nothing was asked)."""
    questions = [e for e in events if e.answered]
    n = len(questions)
    cited = sum(1 for e in questions if e.cited and not e.no_answer)
    none = sum(1 for e in questions if e.no_answer)
    follow = sum(1 for e in questions if e.followup)
    counts: Counter[str] = Counter()
    for e in questions:
        counts.update(topics_of(e.standalone or e.question))
    return UsageStats(
        questions=n, searches=sum(1 for e in events if e.kind == "search"), answers_with_citations=cited,
        citation_rate=round(cited / n, 4) if n else 0.0, no_answer=none, no_answer_rate=round(none / n, 4) if n else 0.0,
        followups=follow, followup_rate=round(follow / n, 4) if n else 0.0,
        by_surface=dict(Counter(e.surface for e in questions)), common_topics=counts.most_common(topics),
        gap_signals=gap_signals(events), first_at=min((e.at for e in events), default=None),
        last_at=max((e.at for e in events), default=None),
    )


"""The offline summary resolves disagreements instead of stating one side as fact, and names gaps in one clause."""

from __future__ import annotations

import re

from synthesis.models import Passage
from synthesis.synthesize.base import Context, ContextSource
from synthesis.synthesize.contradictions import judge
from synthesis.synthesize.extractive import ExtractiveSynthesizer

DEMO = ("How quickly must a failed deploy be rolled back, who approves a production hotfix, and how does the "
        "quarterly DR failover test work?")


def sentences(summary: str) -> list[str]:
    return [s for s in re.split(r"(?<=\.)\s+(?=[A-Z])", summary) if s.strip()]


async def test_demo_summary_states_the_winner_marks_the_loser_and_names_the_gap(handbook_agent):
    r = await handbook_agent.answer(DEMO)
    summary = r.synthesis.summary
    parts = sentences(summary)
    assert 1 <= len(parts) <= 3, summary
    assert all(re.search(r"\[\d+\]", s) for s in parts), summary  # every claim cited
    rollback = parts[0]
    assert "15 minutes" in rollback and "outdated" in rollback, summary
    assert rollback.index("15 minutes") < rollback.index("30 minutes")  # the policy's value first
    fifteen = int(re.search(r"15 minutes[^\[]*\[(\d+)\]", rollback).group(1))
    thirty = int(re.search(r"30 minutes[^\[]*\[(\d+)\]", rollback).group(1))
    assert r.passages[fifteen - 1].doc_id != r.passages[thirty - 1].doc_id
    assert "old wiki" in r.passages[thirty - 1].title.lower()
    assert "Sources disagree on who approves a production hotfix" in summary
    assert "engineering manager" not in summary  # one side of the hotfix dispute is never stated as fact
    assert "DR failover test" in parts[-1] and "does not" in parts[-1]
    assert "14 days" not in summary  # the rollback window does not answer "how quickly"


def _passage(n: int, text: str, *, title: str, type_: str, doc: str) -> ContextSource:
    return ContextSource(number=n, passage=Passage(id=f"p{n}", doc_id=doc, content=text, score=0.7, title=title,
                                                   section=title, metadata={"type": type_}))


async def test_no_winner_shows_both_sides_and_states_neither(minilm):
    context = Context(sources=[
        _passage(1, "A production hotfix is approved by the on-call lead. Hotfixes go out with ferry.",
                 title="Rollback policy", type_="policy", doc="a"),
        _passage(2, "A production hotfix is not approved by the on-call lead. Hotfixes are rare.",
                 title="Release calendar", type_="policy", doc="b"),
    ])
    outcome = await ExtractiveSynthesizer(minilm).synthesize("Who approves a production hotfix?", context)
    s = outcome.synthesis
    assert s.contradictions, s
    assert s.summary.startswith("Sources disagree on who approves a production hotfix:"), s.summary
    assert "[1]" in s.summary and "[2]" in s.summary


def test_a_page_that_says_it_replaces_another_wins():
    policy = Passage(id="p1", doc_id="policy", content="Rollbacks start within 15 minutes.", score=0.5,
                     title="Rollback policy", metadata={"type": "guide"})
    intro = Passage(id="p3", doc_id="policy", score=0.5, title="Rollback policy", metadata={"type": "guide"},
                    content="This page replaces the rollback section of the incident handling wiki page.")
    wiki = Passage(id="p2", doc_id="wiki", content="Rollbacks start within 30 minutes.", score=0.5,
                   title="Incident handling", metadata={"type": "guide"})
    assert judge(policy, 1, wiki, 2).winner is None  # same type, no dates: nothing decides
    verdict = judge(wiki, 2, policy, 1, related=[intro])
    assert (verdict.winner, verdict.loser, verdict.reason) == (1, 2, "replaces")
    assert "replaces" in verdict.suggestion

"""Sources are numbered 1..n in order of first citation, and every citation still points at the same passage."""

from __future__ import annotations

import re

from synthesis.agent import renumber
from synthesis.models import Contradiction, Finding, Passage, Source, Synthesis
from synthesis.sentences import split_sentences
from synthesis.synthesize.base import Context, ContextSource

DEMO = ("How quickly must a failed deploy be rolled back, who approves a production hotfix, and how does the "
        "quarterly DR failover test work?")
CITE = re.compile(r"\[(\d+)\]")


def _texts(s: Synthesis) -> list[str]:
    return [s.summary, *(f.content for f in s.findings),
            *(t for c in s.contradictions for t in (c.description, c.suggestion)), *s.gaps]


def test_renumber_follows_first_citation_and_keeps_every_pointer():
    context = Context(sources=[ContextSource(number=n, passage=Passage(id=f"p{n}", doc_id=f"d{n}", content=f"text {n}",
                                                                       score=0.5)) for n in range(1, 9)])
    synthesis = Synthesis(
        summary="Start in 15 minutes [8]; the wiki's 30 [2] is outdated.",
        findings=[Finding(topic="a", content="One [5] two [8].", citations=[5, 8]),
                  Finding(topic="b", content="Three [1].", citations=[1])],
        contradictions=[Contradiction(description="[8] vs [2]", citations=[2, 8], suggestion="Follow [8].")],
        gaps=["Not written down; [5] says so."],
        sources=[Source(number=n, passage_id=f"p{n}", doc_id=f"d{n}") for n in (1, 2, 5, 8)])
    before = [[context.passage(int(n)).id for n in CITE.findall(t)] for t in _texts(synthesis)]

    s, ctx = renumber(synthesis, context)

    assert s.summary == "Start in 15 minutes [1]; the wiki's 30 [2] is outdated."
    assert [f.citations for f in s.findings] == [[1, 3], [4]]
    assert s.contradictions[0].citations == [1, 2] and s.contradictions[0].description == "[1] vs [2]"
    assert [src.number for src in s.sources] == [1, 2, 3, 4]
    assert [src.passage_id for src in s.sources] == ["p8", "p2", "p5", "p1"]
    assert [c.number for c in ctx.sources] == list(range(1, 9))  # uncited context follows the cited
    after = [[ctx.passage(int(n)).id for n in CITE.findall(t)] for t in _texts(s)]
    assert after == before


def _normal(text: str) -> str:
    return " ".join(text.split()).rstrip(".;:")


async def test_demo_answer_numbers_are_contiguous_and_quotes_come_from_the_cited_passage(handbook_agent):
    r = await handbook_agent.answer(DEMO)
    s = r.synthesis
    numbers = [src.number for src in s.sources]
    assert numbers == list(range(1, len(numbers) + 1))
    first_seen = list(dict.fromkeys(int(n) for t in _texts(s) for n in CITE.findall(t)))
    assert first_seen == numbers  # numbered in reading order, and every listed source is cited
    for src in s.sources:
        assert r.passages[src.number - 1].id == src.passage_id
    for f in s.findings:  # each quoted sentence is in the passage its number now points at
        for quote, n in re.findall(r"\s*(.+?)\s\[(\d+)\]", f.content):
            sentences = {_normal(x) for x in split_sentences(r.passages[int(n) - 1].content)}
            assert _normal(quote) in sentences, (quote, n)

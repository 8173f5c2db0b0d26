"""Verification: invalid citations removed and counted, uncited findings dropped, completeness, gap phrasing."""

from __future__ import annotations

import pytest

from synthesis.models import Contradiction, Finding, Passage, Synthesis
from synthesis.synthesize.base import Context, ContextSource
from synthesis.verify import as_clause, clean_citations, gap_text, verify


def _context(n: int) -> Context:
    return Context(sources=[ContextSource(number=i, passage=Passage(id=f"p{i}", doc_id=f"d{i}", content="x",
                                                                    score=0.5, title=f"T{i}"))
                            for i in range(1, n + 1)])


def test_hallucinated_citation_is_removed_and_counted():
    synthesis = Synthesis(
        summary="Rollbacks start within 15 minutes [1][99].",
        findings=[Finding(topic="Rollback", content="Start within 15 minutes [1, 99]. Ferry pages you [2].",
                          citations=[1, 2, 99]),
                  Finding(topic="Invented", content="Something nobody wrote [99].", citations=[99]),
                  Finding(topic="Uncited", content="A claim with no source.", citations=[])],
        contradictions=[Contradiction(description="[1] vs [42]", citations=[1, 42])],
    )
    v = verify(synthesis, _context(2), question="How fast do rollbacks start?")
    s = v.synthesis
    text = s.model_dump_json()
    assert "99" not in text and "42" not in text
    assert v.invalid_citations == 7  # occurrences: summary 1, findings (text + list) 2 + 2, contradiction 1 + 1
    assert v.dropped_findings == 2
    assert [f.topic for f in s.findings] == ["Rollback"]
    assert s.findings[0].citations == [1, 2]
    assert s.summary == "Rollbacks start within 15 minutes [1]."
    assert s.contradictions[0].citations == [1]
    assert [src.number for src in s.sources] == [1, 2]
    assert s.quality.citation_rate == 1.0


def test_listed_citation_is_shown_in_text_when_missing():
    synthesis = Synthesis(summary="", findings=[Finding(topic="t", content="Deploys use ferry.", citations=[2])])
    s = verify(synthesis, _context(2), question="How do deploys work?").synthesis
    assert s.findings[0].content == "Deploys use ferry. [2]"


def test_completeness_counts_parts_answered_and_not_listed_as_gaps():
    synthesis = Synthesis(summary="Rollbacks start within 15 minutes [1].",
                          findings=[Finding(topic="t", content="Rollbacks start within 15 minutes [1].", citations=[1])],
                          gaps=["The knowledge base does not explain how the DR failover test works."])
    v = verify(synthesis, _context(1), question="q",
               aspects=["how fast do rollbacks start", "how does the DR failover test work"])
    assert v.completeness == 0.5
    assert v.uncovered == ["how does the DR failover test work"]


def test_clean_citations_keeps_valid_numbers_in_order():
    assert clean_citations("a [3] b [1, 7] c [9]", {1, 3}) == ("a [3] b [1] c", 2, [3, 1])


def test_gap_phrasing_reads_like_a_sentence():
    assert as_clause("how does the quarterly DR failover test work") == (
        "explain", "how the quarterly DR failover test works")
    assert as_clause("What is the on-call allowance?") == ("explain", "what the on-call allowance is")
    assert gap_text("how does the DR test work", evidence=4) == (
        "The knowledge base does not explain how the DR test works; [4] notes that it is not written down.")
    assert gap_text("deploy freeze exceptions") == "The knowledge base does not cover deploy freeze exceptions."


@pytest.mark.parametrize(("text", "expected", "removed"), [
    ("Ranges [2-4].", "Ranges [2][3][4].", 0),
    ("En dash [2–4].", "En dash [2][3][4].", 0),
    ("Em dash [2—3].", "Em dash [2][3].", 0),
    ("Semicolons [2; 3].", "Semicolons [2][3].", 0),
    ("Mixed [1, 3-4; 2].", "Mixed [1][3][4][2].", 0),
    ("Range past the context [3-6].", "Range past the context [3][4].", 2),
    ("All invalid [7; 8].", "All invalid.", 2),
    ("Inverted [4-2].", "Inverted.", 2),
    ("Years, not sources [2019-2024].", "Years, not sources.", 6),
    ("Huge range [1-500].", "Huge range.", 2),
    ("Repeated [2, 2].", "Repeated [2].", 0),
])
def test_every_citation_form_is_checked_and_rewritten(text, expected, removed):
    out, n, _ = clean_citations(text, {1, 2, 3, 4})
    assert (out, n) == (expected, removed)


def test_ranges_and_semicolons_in_findings_are_verified_end_to_end():
    synthesis = Synthesis(summary="Deploys need approval [2; 9].",
                          findings=[Finding(topic="t", content="Approval comes first [1-3]; hotfixes differ [4–9].",
                                            citations=[])])
    v = verify(synthesis, _context(4), question="Who approves deploys?")
    s = v.synthesis
    assert s.summary == "Deploys need approval [2]."
    assert s.findings[0].content == "Approval comes first [1][2][3]; hotfixes differ [4]."
    assert s.findings[0].citations == [1, 2, 3, 4] and [src.number for src in s.sources] == [1, 2, 3, 4]
    assert v.invalid_citations == 6  # 9 in the summary; 5-9 in the finding
    assert "9" not in s.model_dump_json()

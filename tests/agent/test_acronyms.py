"""Acronyms a document defines are read spelled out, so a sentence that only abbreviates still matches the question."""

from __future__ import annotations

import pytest

from synthesis.models import Passage
from synthesis.qa import Reader, analyze
from synthesis.qa.acronyms import definitions, expand
from synthesis.qa.candidate import Candidate


@pytest.mark.parametrize(("text", "acronym", "meaning"), [
    ("You can request Leave Without Pay (LWOP) of less than four weeks at any time.", "LWOP", "Leave Without Pay"),
    ("The Family and Medical Leave Act (FMLA) gives up to 12 weeks.", "FMLA", "Family and Medical Leave Act"),
    ("The requester's first line supervisor will be the decision maker (DM).", "DM", "decision maker"),
    ("Ask the Department of Defense (DoD) liaison.", "DoD", "Department of Defense"),
    ("TTS' Local Reasonable Accommodation Coordinator (LRAC) reviews it.", "LRAC",
     "Local Reasonable Accommodation Coordinator"),
    ("Individual Development Plans (IDPs) are due in May.", "IDP", "Individual Development Plans"),
])
def test_definitions_are_found(text, acronym, meaning):
    assert definitions([text]) == {acronym: meaning}


@pytest.mark.parametrize("text", [
    "Send it to the payroll office (Ex: the monthly report).",  # not capitals
    "Our deploy tool (CI) runs the checks.",  # the initials do not spell it
    "See the handbook (PDF).",
])
def test_parentheses_that_define_nothing(text):
    assert definitions([text]) == {}


def test_expansion_is_added_once_and_only_where_not_spelled_out():
    known = {"LWOP": "Leave Without Pay", "RA": "Reasonable Accommodation"}
    assert expand("Over 80 hours of LWOP needs two approvals; LWOP is unpaid.", known) == (
        "Over 80 hours of LWOP (Leave Without Pay) needs two approvals; LWOP is unpaid.")
    assert expand("Leave Without Pay (LWOP) is unpaid.", known) == "Leave Without Pay (LWOP) is unpaid."
    assert expand("RAID arrays and the RA request.", known) == "RAID arrays and the RA (Reasonable Accommodation) request."
    assert expand("Two LWOPs were approved.", known) == "Two LWOPs (Leave Without Pay) were approved."


def test_a_sentence_that_only_abbreviates_ranks_with_the_question(minilm):
    """18F handbook: the LWOP approval rule answers 'three weeks off without pay, whose sign-off?'."""
    leave = Passage(id="p1", doc_id="leave", title="Leave types", section="Unpaid leave", score=0.5, content=(
        "If you have exhausted all other paid leave options, you can request Leave Without Pay (LWOP)."))
    rule = Passage(id="p2", doc_id="leave", title="Leave types", section="Unpaid leave", score=0.5, content=(
        "To request over 80 hours of LWOP, you must get written approval from your immediate supervisor and "
        "Business Unit Director."))
    other = Passage(id="p3", doc_id="tock", title="Tock", section="Out of office", score=0.5, content=(
        "You cannot request paid time off in Tock, but you do need to record out of office time."))
    frame = analyze("I need about three weeks off without pay. Whose sign-off do I need?")
    cands = [Candidate(text=p.content, source=i, position=0, passage=p) for i, p in enumerate([leave, rule, other])]
    Reader(minilm.embed).score(frame, cands)
    with_acronyms = cands[1].scores[0]
    bare = [Candidate(text=p.content, source=i, position=0, passage=p) for i, p in enumerate([rule, other])]
    Reader(minilm.embed).score(frame, bare)  # without the defining passage, LWOP stays opaque
    assert with_acronyms > bare[0].scores[0]
    assert {"leav", "pay"} <= cands[1].stems and "pay" not in bare[0].stems


def test_an_acronym_of_the_question_is_named_by_its_spelled_out_words(minilm, monkeypatch):
    """18F handbook: "I opened a PR … Who has to review it?" is answered by "Each pull request should be reviewed by
    at least one other TTS staff member": the context defines "pull request (PR)", and a sentence that spells the
    question's acronym out names it as much as one that writes "PR"."""
    from synthesis.qa import reader

    define = Passage(id="p1", doc_id="github", title="Editing in GitHub", section="", score=0.5, content=(
        "This will be used as part of the default description text when you open your pull request (PR)."))
    rule = Passage(id="p2", doc_id="updating", title="Updating the Handbook", section="Reviews", score=0.5,
                   content="Each pull request should be reviewed by at least one other TTS staff member.")
    other = Passage(id="p3", doc_id="updating", title="Updating the Handbook", section="Reviews", score=0.5,
                    content="Share the PR in Slack if you want quick feedback.")
    frame = analyze("I opened a PR to fix some outdated info in the handbook. Who has to review it?")

    def scores() -> list[float]:
        cands = [Candidate(text=p.content, source=i, position=0, passage=p)
                 for i, p in enumerate([define, rule, other])]
        Reader(minilm.embed).score(frame, cands)
        return [c.scores[-1] for c in cands]

    on = scores()
    monkeypatch.setattr(reader, "ACRONYM_SPELLED", False)
    off = scores()
    assert on[1] > off[1] + 0.01, (on, off)  # the rule's line gains what "PR" gives the other
    assert abs(on[2] - off[2]) < 1e-6, (on, off)  # a line that writes "PR" is read as before


def test_a_question_word_that_spells_an_acronym_in_lower_case_is_not_that_acronym(minilm):
    """"Is there a cap on conference travel?" is no question about a "Cross-Agency Priority (CAP)" goal (review)."""
    define = Passage(id="p1", doc_id="goals", title="Goals", section="", score=0.5, content=(
        "Each cross-agency priority goal is tracked quarterly. The Cross-Agency Priority (CAP) goals are public."))
    travel = Passage(id="p2", doc_id="travel", title="Travel", section="Conferences", score=0.5, content=(
        "Conference travel is approved by your supervisor."))
    frame = analyze("Is there a cap on conference travel?")
    cands = [Candidate(text=p.content.split(". ")[0] + ".", source=i, position=0, passage=p)
             for i, p in enumerate([define, travel])]
    Reader(minilm.embed).score(frame, cands)
    from synthesis.qa import reader

    before = cands[0].scores[0]
    reader_off = [Candidate(text=c.text, source=c.source, position=0, passage=c.passage) for c in cands]
    old = reader.ACRONYM_SPELLED
    reader.ACRONYM_SPELLED = False
    try:
        Reader(minilm.embed).score(frame, reader_off)
    finally:
        reader.ACRONYM_SPELLED = old
    assert abs(before - reader_off[0].scores[0]) < 1e-6  # the lower-case "cap" gains nothing from "CAP"

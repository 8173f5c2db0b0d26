"""Question shapes the thirty-sixth session found answered wrongly among the fresh probes' unanswerable questions of
the 18F handbook, on the page text they failed on: a kind of thing named by two words that no page uses ("a signing
bonus"), and a span asked of a named thing stated only on a page that never names it.

A rule with a flag is switched off once in its test, so the test fails when the rule does nothing.
"""

from __future__ import annotations

from synthesis.qa import answerability, unstated
from synthesis.synthesize.extractive import ExtractiveSynthesizer

from .test_probe35_shapes import FITARA, FITARA_WHAT, _pages
from .test_qa import _answer, _context, _with_and_without

TTSJOBS = ("TTSJobs", "Prospective candidates",
           "Join the Slack channel #tts-jobs to be notified in real-time about TTS job opportunities. Have questions "
           "about a role? Please reach out to the point of contact listed on the announcement.")
TRAINING = ("Benefits", "Training",
            "TTS team members are eligible for many professional development and training opportunities. Ask your "
            "supervisor about the training budget for your team.")
LEAVING = ("Leaving TTS", "2. Provide summary reviews for direct reports (Supervisors only)",
           "If you are a supervisor and you are leaving within 120 days of the next review period, you need to provide "
           "to your supervisor a summary review of each of the employees that report into you. An employee's review "
           "needs to come from a supervisor that they've worked under for 120 days.")


def test_noun_pairs_are_two_nouns_of_the_asking():
    """A noun (or gerund) rarer than MODIFIER_ZIPF before a noun; not a describing word, a common one, or the story."""
    pairs = answerability.noun_pairs
    assert pairs("Is there a parking subsidy for people who drive to the office?") == [("parking", "subsidy")]
    assert ("signing", "bonus") in pairs("Do new TTS hires get a signing bonus when they join?")
    assert pairs("Is there free lunch in the office?") == []  # "free" is too common to name a kind
    assert pairs("How do I request leave?") == []  # a verb after its subject
    assert pairs("What's the approval process for buying software?") == []  # a general head; a gerund's object
    assert pairs("Is there a gym membership reimbursement?") == [("gym", "membership"), ("membership", "reimbursement")]
    # what the asker tells is their story, even when the asking points back at it (hp28-21 had been refused)
    assert pairs("I submitted a reasonable accommodation request for a different monitor setup. Who actually makes "
                 "the decision on it?") == []
    assert pairs("I submitted a reasonable accommodation request for a different monitor setup. Who actually makes "
                 "the decision on it") == []  # (no "?": the last sentence asks)


async def test_a_kind_named_by_two_absent_words_is_not_covered(minilm, monkeypatch):
    """"Do new TTS hires get a signing bonus or recruitment incentive when they join?" (hp23, unanswerable) was
    answered with "TTS team members are eligible for many professional development and training opportunities":
    no page uses "signing" or "bonus", each too common to decide alone (answerability.PAIRED)."""
    question = "Do new TTS hires get a signing bonus or recruitment incentive when they join?"
    outcome = await ExtractiveSynthesizer(minilm).synthesize(question, _context(TTSJOBS, TRAINING))
    # (the bonus is asked as pay too: specifics.PAY_ASKED names it lacking as well)
    assert not outcome.synthesis.summary and outcome.missing[0] == "signing bonus", outcome
    # where the asker stands is no kind ("… on our staging cluster")
    staged = "How do I run cargo test with optimizations on our staging cluster?"
    release = ("cargo test", "Options", "Pass --release to run tests with optimizations, in the release profile.")
    assert "--release" in (await _answer(minilm, staged, _context(release))).summary
    from synthesis.qa import specifics

    monkeypatch.setattr(specifics, "PAY_ASKED", False)  # the rule on its own (a bonus asked is refused as pay too)
    on, off = await _with_and_without(minilm, monkeypatch, question, _context(TTSJOBS, TRAINING),
                                      answerability, "PAIRED", False)
    assert not on and "eligible" in off, off


async def test_a_span_of_a_named_thing_is_not_stated_on_a_page_that_never_names_it(minilm, monkeypatch):
    """"How many business days does a FITARA review usually take to come back from the CIO?" (hp36, unanswerable)
    was answered beside "… leaving within 120 days of the next review period": a performance review, on a page that
    never names FITARA (unstated.SPAN_PAGE)."""
    question = "How many business days does a FITARA review usually take to come back from the CIO?"
    context = _pages(FITARA, FITARA_WHAT, LEAVING)
    outcome = await ExtractiveSynthesizer(minilm).synthesize(question, context)
    assert not outcome.synthesis.summary and outcome.missing == ["a number of days"], outcome
    # the same sentence on a page that names FITARA may state it
    timed = (FITARA[0], "Timing", "Reviews usually come back within 10 business days.")
    outcome = await ExtractiveSynthesizer(minilm).synthesize(question, _pages(FITARA, timed, LEAVING))
    assert "10 business days" in outcome.synthesis.summary, outcome
    on, off = await _with_and_without(minilm, monkeypatch, question, context, unstated, "SPAN_PAGE", False)
    assert not on and "120 days" in off, off

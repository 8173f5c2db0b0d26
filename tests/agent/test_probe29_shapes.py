"""Question shapes the sixteenth and seventeenth fresh probes of the 18F handbook (hp29, hp30, written by helpers that
read only the corpus) found answered wrongly, each on the page text it failed on.

A rule with a flag is switched off once in its test, so the test fails when the rule does nothing.
"""

from __future__ import annotations

from synthesis.synthesize.extractive import ExtractiveSynthesizer

from .test_qa import _answer, _context

SPEAKING = ("External speaking request playbook", "Steps > Approval timeline",
            "Most approvals will take 2–3 weeks to complete. Some approvals can take up to 3-6 weeks to complete "
            "depending on the approvals necessary. Requests submitted with less than a week lead time are not likely "
            "to be approved–please check in with your designated Outreach/Events lead before submitting an approval "
            "with less than a week lead time.")
CONFERENCE = ("Conferences, events, and training", "Getting approval for a conference, event, or training",
              "1. Submit this form to initiate the request process. Upon completing it, you and your supervisor will "
              "get an automated email, which confirms the details you entered and provides all of the actions that "
              "you will need to complete for the request.")
DISTRESS = ("Managing 18F Projects in Distress — When to Pivot / Pause / Stop", "Internal impact of stopping work",
            "- When a team rolls off a project unexpectedly, staffing representatives must re-staff that team. This "
            "may lead to lengthy periods without billable work depending on availability of project work.\n"
            "- Organizational revenue loss (because team members will likely be temporarily benched while awaiting "
            "reassignment) - each team member’s opportunity cost to 18F is about $10,000/week at current billing "
            "rates.")


def test_an_it_that_stands_for_the_clause_after_it_points_at_nothing_told(minilm, monkeypatch):
    """"Got invited to be on a panel at a civic tech conference, which is exciting! Roughly how long does it take to
    get the official go-ahead?" (hp29) was refused for "tech": the "it" of "does it take to get" stands for getting
    the go-ahead, so the story sets the scene and the tech conference is no topic the pages must name
    (pointing.DUMMY_IT)."""
    from synthesis.qa import analyze, pointing

    from .test_probe_shapes import checked

    question = ("Got invited to be on a panel at a civic tech conference, which is exciting! Roughly how long does it "
                "take to get the official go-ahead?")
    assert checked(minilm, analyze(question), _context(SPEAKING, CONFERENCE)).missing == []
    monkeypatch.setattr(pointing, "DUMMY_IT", False)
    assert checked(minilm, analyze(question), _context(SPEAKING, CONFERENCE)).missing == ["tech"]
    monkeypatch.setattr(pointing, "DUMMY_IT", True)
    for asking in ("Roughly how long does it take to get the official go-ahead?", "Is it OK to expense lunch?",
                   "Is it possible to bring a guest?", "Does it matter whether I use Chrome?",
                   "How much does it usually cost to ship a monitor?"):
        assert not pointing._points_back(asking), asking
    for asking in ("How long does it take?", "Is it allowed?", "Will TTS pay for it?",  # nothing after: the story's
                   "How much does it cost to renew it?",  # a second "it" still points back
                   "Can I use it to pay for lunch?",  # an object, not a subject standing for a clause
                   "Is it worth it?"):
        assert pointing._points_back(asking), asking


async def test_a_billed_rate_is_about_money(minilm, monkeypatch):
    """"What hourly rate does 18F bill a partner agency for one team member's time?" (hp29, unanswerable) was answered
    with "each team member’s opportunity cost to 18F is about $10,000/week at current billing rates": a billed rate is
    an amount of money per hour, and no page states one (values.BILLED)."""
    from synthesis.qa import values

    question = "What hourly rate does 18F bill a partner agency for one team member's time?"
    outcome = await ExtractiveSynthesizer(minilm).synthesize(question, _context(DISTRESS))
    assert not outcome.synthesis.summary and outcome.missing == ["an amount per hour"], outcome.missing
    monkeypatch.setattr(values, "BILLED", False)
    assert "$10,000/week" in (await _answer(minilm, question, _context(DISTRESS))).summary
    monkeypatch.setattr(values, "BILLED", True)
    assert values.asked_rate("What's the hourly rate a contractor charges?") == "hour"
    assert values.asked_rate("Who is in charge of the hourly rate limit?") is None  # "in charge" is no money
    assert values.asked_rate("What's the hourly API rate limit?") is None

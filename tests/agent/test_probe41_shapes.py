"""Question shapes the thirty-seventh session found answered wrongly on the 18F handbook, on the page text they failed
on: from the twenty-eighth and twenty-ninth fresh probes (hp41, hp42, written by helpers that read only the corpus,
and measured before any change).

A rule with a flag is switched off once in its test, so the test fails when the rule does nothing.
"""

from __future__ import annotations

from synthesis.qa import analyze, values
from synthesis.stems import content_stems
from synthesis.synthesize.candidates import candidates

from .test_qa import _answer, _context, _with_and_without

LIFECYCLE = ("High-level 18F project lifecycle", "Agreement",
             "The next step in the process is for 18F and the partner agency to sign an interagency agreement (IAA). "
             "Projects can be paused for things like a lapse in funding, an IAA expiring before a new one could be "
             "signed, or a mismatch in project team skills or working styles that needs to be restaffed.")
STAFFING = ("Account Management at 18F", "Different roles at different times > Post-agreement",
            "Projects are not staffed until the agreement has been fully executed and it can take up to 8 weeks to "
            "staff a project after it’s been executed.")


async def test_how_long_until_something_happens_asks_a_duration(minilm, monkeypatch):
    """"Our partner just signed the IAA. How long until a team is actually staffed, …?" (hp42) was answered with the
    lifecycle's "The next step … is … to sign an interagency agreement": "how long until" asked nothing the reader
    knew, so a sentence naming 18F (a digit) held a quantity (values.UNTIL_ASKED)."""
    question = "Our partner just signed the IAA. How long until a team is actually staffed?"
    on, off = await _with_and_without(minilm, monkeypatch, question, _context(LIFECYCLE, STAFFING), values,
                                      "UNTIL_ASKED", False)
    assert on.startswith("Projects are not staffed until the agreement has been fully executed"), on
    assert not off.startswith("Projects are not staffed"), off


def test_only_how_long_until_before_or_after_asks_the_time_until():
    """… and a date answers it as well as a length of time (found in review: "Training funds must be obligated by
    August 15" answers "How long before the end of the fiscal year …")."""
    for asked in ("How long before I hear back from HR?", "how long after I apply do I get my travel card?",
                  "How long will it be before my laptop arrives?", "How long do I have before the deadline?"):
        assert values.asked_value(asked) == (values.WAIT, values.WAIT), asked
    assert values.asked_value("What happens after the IAA is signed?") is None
    assert values.asked_value("How long is the onboarding class?") is None
    assert values.states_value("Training funds must be obligated by August 15.", values.WAIT)
    assert values.states_value("It can take up to 8 weeks to staff a project.", values.WAIT)
    assert not values.states_value("The team reviews every request.", values.WAIT)


OUT_OF_OFFICE = ("Tock", "Using Tock > Tocking for Out of Office time",
                 "You cannot request paid time off in Tock (see the Leave page for guidance on requesting paid time "
                 "off using HR Links). But you do need to record out of office time as part of your weekly Tock. Staff "
                 "should Tock any out of office time (federal holidays, sick leave, annual leave, family leave, etc) "
                 "to Tock line #670, Out of Office.")
TTSC_TOCK = ("Tracking your time and using Tock", "Billable expectations",
             "All TTSC employees are expected to Tock weekly by COB (close of business) each Friday, and submit "
             "HRLinks timesheets every two weeks.")
DEADLINE = "And what's the normal weekly deadline for Tocking once I'm back?"


async def test_a_deadline_asked_with_words_before_it_asks_a_date(minilm, monkeypatch):
    """"… And what's the normal weekly deadline for Tocking once I'm back?" (hp42) expected nothing in particular:
    only "the exact deadline" and a few such words asked one (question.DEADLINE_ASKED)."""
    from synthesis.qa import question

    assert question.expected(DEADLINE) is question.Expect.QUANTITY
    assert question.expected("What's our timesheet deadline for this week?") is question.Expect.QUANTITY
    assert question.expected("What are the deadline extension rules?") is not question.Expect.QUANTITY
    for policy in ("What's the process for extending deadlines?", "What's the policy on missed deadlines?",
                   "What is the reason for the deadline?"):  # (found in review)
        assert question.expected(policy) is not question.Expect.QUANTITY, policy
    monkeypatch.setattr(question, "DEADLINE_ASKED", False)
    assert question.expected(DEADLINE) is not question.Expect.QUANTITY


async def test_a_sentence_whose_only_date_the_asker_said_states_no_deadline(minilm, monkeypatch):
    """… and once it did, "But you do need to record out of office time as part of your weekly Tock." still answered
    it: its only date is the asker's own "weekly" (kinds.TOLD_DATES)."""
    from synthesis.qa import kinds

    question = "When is my weekly Tock due?"  # (no page of this context says "deadline")
    on, off = await _with_and_without(minilm, monkeypatch, question, _context(OUT_OF_OFFICE, TTSC_TOCK), kinds,
                                      "TOLD_DATES", False)
    assert on.startswith("All TTSC employees are expected to Tock weekly by COB"), on
    assert not off.startswith("All TTSC employees"), off
    assert not values.told_values_only("Tock weekly by COB each Friday.", values.DATE, DEADLINE)
    assert values.told_values_only("part of your weekly Tock.", values.DATE, DEADLINE)
    # a line with deadline wording of its own may say the date in a form the patterns miss (found in review)
    part = analyze("What's the monthly deadline for expense reports?").parts[0]
    due = "Monthly expense reports are due on the third business day of the following month."
    assert values.told_values_only(due, values.DATE, part.text)
    line = candidates(_context(("Expenses", "Deadlines", due)))[0]
    line.kinds = kinds.answer_kinds(line.text)  # (what the reader sets)
    assert kinds.holds(part, line)


PRE_OLU = ("First-time travel: Get in Concur (pre-OLU)", "Steps",
           "Email tts-travel@gsa.gov once you've finalized your reservations and they will approve your itinerary. "
           "Make sure this is done during business hours-- no later than 3:30 PM ET!")
BOOK = ("Book travel in Concur and secure approvals", "Brief overview of booking travel",
        "Any reservations made in Concur will be held until approvals are secured and finalized-- nothing is charged "
        "to you, your travel card, or GSA. Note: If you don't have your GSA travel card yet OR your estimated "
        "departure is less than 72 hours away, call AdTrav at (877) 472-6716 to make your reservations, then head "
        "into Concur an hour later.")


async def test_whom_to_call_is_answered_by_a_number_or_a_line_saying_to_call(minilm, monkeypatch):
    """"My government travel card hasn't arrived yet … Who do I call to make the reservations, …?" (hp41) was answered
    with "Email tts-travel@gsa.gov once you've finalized your reservations …" (kinds.CALLED)."""
    from synthesis.qa import kinds

    question = "My government travel card hasn't arrived yet and I need to book a trip. Who do I call to make the " \
               "reservations?"
    on, off = await _with_and_without(minilm, monkeypatch, question, _context(PRE_OLU, BOOK), kinds, "CALLED", False)
    assert "call AdTrav at (877) 472-6716" in on.split(". [")[0], on
    assert "call AdTrav" not in off.split(". [")[0], off


def test_only_a_part_asking_whom_to_call_needs_a_number():
    from synthesis.qa import analyze, kinds

    call, approve = analyze("Who should I phone about a lost card?").parts[0], analyze("Who approves travel?").parts[0]
    assert not kinds.called(call, "Email tts-travel@gsa.gov once you've finalized your reservations.")
    assert kinds.called(call, "Report it to Citibank at 1-888-994-4557.")
    assert kinds.called(approve, "Email tts-travel@gsa.gov once you've finalized your reservations.")
    assert not kinds.called(analyze("Who do I ring about the alarm?").parts[0], "Email the help desk.")
    assert kinds.called(analyze("Who calls the meeting?").parts[0], "The team lead schedules it.")  # no call asked
    for other in ("Who gets a government phone?", "Who pays for my work phone?", "Who sets up the conference call?"):
        assert kinds.called(analyze(other).parts[0], "Your supervisor approves it."), other  # (found in review)


BOOKS = ("Conferences, events, and training", "Buying books",
         "You can also use your training budget to buy books for self-guided study. You may want to first check your "
         "local library system to see what books, newspapers, subscriptions, and other resources are available "
         "there.\n\nStart with the training request form. That form has annotations for how to use it for book "
         "purchases. Briefly, the book title is used for the name of the event and the current date is used for all "
         "of the date fields. On the second page of the form under the \"Anything else\" question, enter the website "
         "where the book can be purchased.\n\nWhen you have submitted that form, you and your supervisor will receive "
         "an email with further instructions. In the case where the book is not being used for training, the only "
         "thing that needs to be done is an email from your supervisor approving the purchase. If the book is being "
         "used for training purposes, then there are further tasks to be completed with form SF-182 as detailed in "
         "that initial response email.")
TRAINING = ("Training and professional development", "Training budget",
            "Each employee has a training budget for the fiscal year. Talk to your supervisor about how to use it. "
            "Conferences and events need an events request form, submitted three to five weeks in advance.")


async def test_a_procedure_is_quoted_with_how_its_paragraph_goes_on(minilm):
    """"Can I use my training money to buy a technical book, and how do I actually request it?" (hp42) quoted "Start
    with the training request form. That form has annotations …" and stopped before the how, a 24-word sentence
    (summary.PROCEDURE_NEXT_WORDS)."""
    from synthesis.synthesize import summary

    question = "Can I use my training money to buy a technical book, and how do I actually request it?"
    on = (await _answer(minilm, question, _context(BOOKS, TRAINING))).summary
    assert "the book title is used for the name of the event" in on, on
    units = candidates(_context(BOOKS))
    for u in units:  # (what the reader sets)
        u.stems = content_stems(u.text)
    start = next(u for u in units if u.text.startswith("Start with the training request form"))
    asked = analyze(question).parts[1].stems
    how = summary._next_in_paragraph(start, units, set(), set(), summary.PROCEDURE_NEXT_WORDS, asked)
    assert how is not None and how.text.startswith("Briefly, the book title is used"), how
    assert summary._next_in_paragraph(start, units, set(), set(), summary.PARAGRAPH_NEXT_WORDS, asked) is None
    # a longer next sentence sharing no word with the part is not quoted (found in review: off-topic additions)
    assert summary._next_in_paragraph(start, units, set(), set(), summary.PROCEDURE_NEXT_WORDS, {"zoom"}) is None

"""Question shapes the twentieth and twenty-first fresh probes of the 18F handbook (hp33, hp34, written by helpers
that read only the corpus) found answered wrongly, each on the page text it failed on.

A rule with a flag is switched off once in its test, so the test fails when the rule does nothing.
"""

from __future__ import annotations

from synthesis import stems
from synthesis.qa import Expect, analyze, answerability, kinds

from synthesis.synthesize.extractive import ExtractiveSynthesizer

from .test_qa import _answer, _context

MEETINGS = ("TTS Consulting conduct and norms", "Interacting in meetings",
            "Follow these practices for video meetings.\n\n"
            "- **Minimize noise:** Work from a quiet space without much background noise.\n"
            "- **Muting:** Mute your microphone when you aren’t speaking so that your background noise doesn’t "
            "distract others. In smaller meetings, un-muting also signals that you’d like to speak. In larger "
            "meetings, use the meeting platform’s hand-raise feature.\n"
            "- **Seek privacy:** If you need to discuss sensitive topics, give a presentation, or handle personnel "
            "issues, make sure you have privacy in your physical space.\n"
            "- **Video on:** Default to using video when possible. Nonverbal cues like facial expressions and "
            "gestures help keep the conversation moving and build empathy and trust. Of course, being on screen all "
            "day can be taxing so use face muting when you need to.\n"
            "- **Make introductions:** At the beginning of each meeting, make sure that everyone present has met, "
            "and that anyone calling in by phone has identified themselves. In introductions, include your name, "
            "pronouns, and role.")
REMOTE = ("How we collaborate", "Making the most of remote meetings",
          "Default to using video so colleagues can see your face and gestures. Keep your camera on during video "
          "calls to give them more connection. We’ve found that video calls help teams stay connected and are easier "
          "to manage than conference calls for large groups.")


def _fresh_stems(monkeypatch, on: bool) -> None:
    monkeypatch.setattr(stems, "COMPARATIVES", on)
    stems.stem.cache_clear()


async def test_a_comparative_is_its_adjective(minilm, monkeypatch):
    """"On TTSC video calls, how should I signal I want to talk in a small meeting versus a big one?" (hp33) quoted
    "Keep your camera on during video calls …": Snowball kept "smaller" and "larger" whole, so "In smaller meetings,
    un-muting also signals …" shared no word of "small meeting" (stems.COMPARATIVES)."""
    assert [stems.stem(w) for w in ("smaller", "Larger", "bigger", "easier", "number", "order")] == [
        "small", "larg", "big", "easi", "number", "order"]
    question = "On TTSC video calls, how should I signal I want to talk in a small meeting versus a big one?"
    on = (await _answer(minilm, question, _context(MEETINGS, REMOTE))).summary
    try:
        _fresh_stems(monkeypatch, False)
        off = (await _answer(minilm, question, _context(MEETINGS, REMOTE))).summary
    finally:
        _fresh_stems(monkeypatch, True)
    assert "un-muting also signals" in on.split("[1]")[0] and "hand-raise" in on
    assert "un-muting also signals" not in off.split("[1]")[0]


def test_a_phone_number_is_a_way_to_reach_someone_and_asking_one_asks_where():
    """"What's the phone number for the Concur help desk …?" (hp33) was read as asking anything; a phone number is a
    contact as an email address is."""
    assert analyze("What's the phone number for the Concur help desk if I get stuck on a travel voucher?"
                   ).parts[0].expect is Expect.WHERE
    assert analyze("What email address do I send the form to?").parts[0].expect is Expect.WHERE
    assert analyze("How many phone numbers can a team have?").parts[0].expect is Expect.QUANTITY
    assert analyze("How do I update my email address in Workday?").parts[0].expect is Expect.PROCEDURE
    assert analyze("Can we store contact details in Airtable?").parts[0].expect is Expect.YESNO
    assert Expect.WHERE in kinds.answer_kinds("Business Applications Service Desk (Concur Helpdesk): (866) 450-6588, "
                                              "press 2")
    assert Expect.WHERE in kinds.answer_kinds("Call 866-450-6588 and press 2.")
    for text in ("The budget grew from 2023 to 450,658 dollars.", "The ranges are 100 200-3000.",
                 "Upgrade to version 1.100.200.3000.", "Order 2023-450-6588 shipped."):
        assert Expect.WHERE not in kinds.answer_kinds(text), text


def test_a_measures_target_asks_a_value():
    """"What Net Promoter Score target has TTSC set for the client listening tour results this year?" (hp33,
    unanswerable) was read as asking anything, so a page that only names the score answered it with "high"-sounding
    prose; a measure's target is a value."""
    for question in ("What Net Promoter Score target has TTSC set for the client listening tour results this year?",
                     "What's the target for billable hours each week?", "What utilization target should I hit?"):
        assert analyze(question).parts[0].expect is Expect.QUANTITY, question
    for question in ("What target audience should I write for?", "What is the build target called?",
                     "What are the goals of the program?", "What is the goal of the time-off policy?"):
        assert analyze(question).parts[0].expect is not Expect.QUANTITY, question


def test_the_first_thing_to_do_asks_a_procedure():
    """"We need to buy something for around $50k. What's the first thing I do to get the process started?" (hp33)
    was read as asking anything; it asks the procedure's first step."""
    assert analyze("We need to buy something for around $50k. What's the first thing I do to get the process "
                   "started?").parts[0].expect is Expect.PROCEDURE
    assert analyze("What is the first step I take after my offer letter?").parts[0].expect is Expect.PROCEDURE
    assert analyze("What's the first thing I should do after my offer letter?").parts[0].expect is Expect.PROCEDURE
    for question in ("What's the first thing you notice about the site?",
                     "What's the first thing I need to know about Tock?"):
        assert analyze(question).parts[0].expect is not Expect.PROCEDURE, question


COMPRESSED = ("Work schedules", "Schedule types > Compressed schedule",
              "You are scheduled to arrive and depart at the same time, every day that you work. The start/stop times "
              "do not change from one pay period to the next.  But, you work longer than 8 hours each day, so that you "
              "do not have to work the full 10 days in a pay period. This is a common TTS schedule, which we have "
              "typically called an Alternate Work Schedule (AWS).")
STANDARD = ("Work schedules", "Schedule types > Standard schedule",
            "You are scheduled to arrive and depart at the same time, every day that you work. You work 8 hours every "
            "day, for all 10 work days per pay period.")


async def test_a_case_the_asker_sets_by_a_number_is_high_only_where_a_quoted_line_states_it(minilm, monkeypatch):
    """"If I go on an alternative work schedule with nine-hour days, how many of those days do I work in a pay
    period?" (hp34) was a wrong 'high' quoting "… you do not have to work the full 10 days in a pay period": the
    glossary's "nine, nine-hour days" was not retrieved, and no quoted line was about nine-hour days
    (extractive.TOLD_CASE)."""
    from synthesis.synthesize import extractive

    question = ("If I go on an alternative work schedule with nine-hour days, how many of those days do I work in a "
                "pay period?")
    on = await _answer(minilm, question, _context(COMPRESSED, STANDARD))
    assert "10 days" in on.summary and on.quality.overall < 0.8
    glossary = ("Glossary", "A", "- **AWS** - Alternative Work Schedule. Working eight, 10-hour days or working nine, "
                "nine-hour days in a pay period.")
    monkeypatch.setattr(extractive, "TOLD_CASE", False)
    assert (await _answer(minilm, question, _context(COMPRESSED, STANDARD))).quality.overall >= 0.8
    monkeypatch.setattr(extractive, "TOLD_CASE", True)
    stated = await _answer(minilm, question, _context(glossary))
    assert "nine, nine-hour days" in stated.summary and stated.quality.overall >= 0.8
    # a number that sets no case (a year, a count in the story) takes nothing from the answer
    for told in ("I have 2 kids. ", "In 2024, "):
        plain = await _answer(minilm, f"{told}how many work days are in a pay period on a standard schedule?",
                              _context(STANDARD))
        assert "10 work days" in plain.summary and plain.quality.overall >= 0.8, told


RFC_ADVISOR = ("RFC 003 - TTS Senior Cybersecurity Advisor", "The proposed path forward",
               "One of the conclusions in this RFC was to create a TTS security lead position to coordinate security "
               "approaches/activities across TTS programs.\n\n**Proposed path forward: ADD a Senior Cybersecurity "
               "Advisor in the TTS Front Office.**")
RFC_WHY = ("RFC 003 - TTS Senior Cybersecurity Advisor", "Why should we do this",
           "1. **Cybersecurity point of contact at TTS.** The Senior Cybersecurity Advisor will assist in bridging our "
           "communications throughout GSA in regards to security and privacy in our organization.")
OVERTIME = ("Overtime, comp time, and credit hours", "Overtime, depending on your salary level",
            "Your total pay (including overtime) cannot exceed the maximum salary at GSA, which is $191,900 as of "
            "2024. This is GS-15, step 10, including any applicable special salary rate or locality rate of pay.")


async def test_a_salary_asked_is_an_amount_of_pay(minilm, monkeypatch):
    """"What GS grade and salary range was the senior cybersecurity advisor role from the RFC posted at?" (hp33,
    unanswerable) was answered from the RFC's description of the role: asking a salary asks an amount of money
    (values.SALARY_ASKED); "what happens to my salary" asks none."""
    from synthesis.qa import values

    question = "What GS grade and salary range was the senior cybersecurity advisor role from the RFC posted at?"
    outcome = await ExtractiveSynthesizer(minilm).synthesize(question, _context(RFC_ADVISOR, RFC_WHY))
    assert not outcome.synthesis.summary and "an amount of pay" in outcome.missing, outcome.missing
    assert "$191,900" in (await _answer(minilm, "What's the maximum salary at GSA?", _context(OVERTIME))).summary
    assert values.asked_value("What happens to my salary when I go on a detail?") is None
    assert values.asked_value("Which salary table applies to me in Denver?") is None
    assert values.asked_value("What is the rule on pay for holidays?") is None  # a rule asked, no amount
    for kind in ("What is locality pay?", "What is Pay.gov used for?", "Which pay scale applies to me?"):
        assert values.asked_value(kind) is None, kind  # what a kind of pay is, a scale's name
    monkeypatch.setattr(values, "SALARY_ASKED", False)
    monkeypatch.setattr(answerability, "PAIRED", False)  # (which refuses it too: no page says "salary" or "range")
    assert (await _answer(minilm, question, _context(RFC_ADVISOR, RFC_WHY))).summary

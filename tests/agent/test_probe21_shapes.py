"""Question shapes the eighth and ninth fresh probes of the 18F handbook (hp21, hp22, written by helpers that read
only the corpus) found answered wrongly, each on the page text it failed on.

A rule with a flag is switched off once in its test, so the test fails when the rule does nothing.
"""

from __future__ import annotations

from synthesis.qa import analyze, compared, every_side

from .test_probe18_shapes import SCHEDULES
from .test_qa import _answer, _context, _with_and_without

CHANNELS = ("Slack guidelines", "Slack > Channel names",
            "Here's what various prefixes and suffixes mean:\n\n| prefix/suffix | description |\n| --- | --- |\n"
            "| `admins-` | Administrators for various tools. #admins-slack, for example, is used to request invites to "
            "Slack, change the name of a channel, and so on. |\n"
            "| `-partner` | Channels that include partners from other agencies. |\n"
            "| `-public` | Channels that include members of the public. |\n"
            "| `-shared` | Channels that are linked with another Slack org. |\n"
            "| `wg-` | Working groups |\n| `g-` | Guilds |\n| `c-` | 18F Collectives |\n")
COMP_TIME = ("Overtime, comp time, and credit hours", "Compensatory (Comp) time, depending on your salary level",
             "Comp time is when you receive hours of leave instead of overtime pay. If you make the maximum salary "
             "($191,900 in 2024), you cannot receive comp time.\n\nComp time expires one year (26 pay periods) after "
             "it is earned. When you reach the expiration date, you will forfeit the leave. If you leave GSA, your "
             "comp time will be paid out.")
CREDIT_HOURS = ("Overtime, comp time, and credit hours", "Credit hours, in flexible work schedules",
                "Only people on flexible work schedules can earn and use credit hours. There is no salary maximum "
                "for earning and using credit hours.\n\n* You can have up to 24 credit hours accrued, at any given "
                "time.\n\n* The hours will rollover from one pay period to the next, and they never expire.\n\n"
                "* Credit hours cannot be converted to cash, unless you leave GSA (then they will be paid out).")
CREDIT_EXAMPLE = ("Overtime, comp time, and credit hours", "Credit hours, in flexible work schedules > Credit hours "
                  "example", "You are on a Gliding schedule, and you work 8 hours every day. You are not required to "
                  "stay late, but if you are in a productive headspace and want to work an extra hour to finish work, "
                  "you can ask your supervisor about working 1 more hour, therefore receiving 1 credit hour. You will "
                  "need to request the 1 hour in HR Links, and your supervisor will need to approve it.")
CART = ("Deaf and hard of hearing", "Services for remote meetings > CART (Captioning)",
        "There is no cost to program offices (like 18F, OPP, PIF, etc.) for using these services, and CART services "
        "do not require medical documentation.\n\nTo access captioning services:\n\n- Send an email at least 12 "
        "hours prior to the meeting (2-3 days is preferred) to BISCOORD@BISWORLD.COM with the following "
        "information:\n  - **Requestors Name:**\n  - **Event Title:**\n  - **Event date:**")
ASL = ("Deaf and hard of hearing", "Services for remote meetings > ASL interpreters",
       "An American Sign Language interpreter can be provided when two parties in a virtual meeting experience a "
       "communication barrier (e.g. Google Meet or Zoom).\n\nTo request ASL interpreters:\n\n- Fill out the ASL "
       "Service Intake Form at least 72 hours before the event is scheduled.\n- A coordinator will be in touch via "
       "email to confirm the details.")
ON_SITE = ("Deaf and hard of hearing", "Best practices for working with an on-site interpreter(s):",
           "- Schedule interpreters to arrive at least 15 minutes prior to the event to allow the individuals and "
           "interpreters to meet beforehand.")
MOVING = ("Moving and changing your address", "Moving",
          "If you plan to permanently move or relocate for longer than 120 days, email TTS-PeopleOps@gsa.gov and copy "
          "your supervisor as soon as you are thinking about moving. Please provide the following information:\n\n"
          "- The city, county, state, ZIP code that you are moving to (if you know it).\n- Whether you are a Remote "
          "Worker (you always work from home) or a Routine Teleworker (onsite flexible: you go into an office two "
          "times or more per pay period). If you don’t know your status, tell us that.")
REMOTE_KIT = ("Distributed TTS", "What supplies do distributed employees receive?",
              "GSA provides remote workers with a laptop and phone but does not provide desk chairs or office "
              "products. GSA IT can provide you with a remote kit, including a monitor, keyboard, mouse, headset and "
              "hub.")
TELEWORKERS = ("Distributed TTS", "Making remote collaboration successful",
               "We’re an organization of full-time teleworkers because it’s how we attract and hire folks with the "
               "skills we need. Working remote means you can't rely on your physical presence to communicate to "
               "everyone else whether or not you are working.")


async def test_a_number_after_the_number_of_units_it_counts_states_a_duration(minilm, monkeypatch):
    """"Is there a cap on how many hours I can work in one day?" was answered 'high' with "slightly longer or shorter
    than 8 hours": "The maximum number of hours you can work in a single day is 12." read as stating no hours."""
    from synthesis.qa import values

    question = ("thinking about switching to a variable week schedule. is there a cap on how many hours I can work in "
                "one day?")
    on, off = await _with_and_without(minilm, monkeypatch, question, _context(*SCHEDULES), values,
                                      "NUMBER_OF_UNIT", False)
    assert on.startswith("Variable Week: The maximum number of hours"), on
    assert not off.startswith("Variable Week: The maximum number of hours"), off
    monkeypatch.setattr(values, "NUMBER_OF_UNIT", True)
    assert values.states_value("The number of days is ten.", values.DURATION)
    assert not values.states_value("the number of hours worked is recorded in Tock", values.DURATION)
    assert not values.states_value("The number of hours is 40%.", values.DURATION)


async def test_an_affix_the_asker_names_picks_its_row(minilm, monkeypatch):
    """"I keep seeing slack channels that start with g- ... what does that prefix mean?" quoted the first rows of the
    prefix table (admins-, -partner, -public …), not the one for "g-"."""
    from synthesis.qa import asker

    question = "I keep seeing slack channels that start with g- ... what does that prefix mean?"
    on, off = await _with_and_without(minilm, monkeypatch, question, _context(CHANNELS), asker, "AFFIX_CODES", False)
    assert "Guilds" in on and "admins-" not in on, on
    assert "Guilds" not in off, off


def test_a_phrase_naming_what_is_compared_is_asked_of_each_side(monkeypatch):
    """"trying to decide between comp time and credit hours for some extra hours I'm putting in. how are they
    different when it comes to expiring?" compared the sides on "extra hours" and never on expiring."""

    text = ("trying to decide between comp time and credit hours for some extra hours I'm putting in. how are they "
            "different when it comes to expiring?")
    assert [p.text for p in analyze(text).parts] == ["comp time", "expiring (comp time)", "credit hours",
                                                     "expiring (credit hours)"]
    assert [p.text for p in analyze("How do the DC and NY offices differ as far as after-hours access goes?").parts
            ][1::2] == ["after-hours access (the DC)", "after-hours access (NY offices)"]
    monkeypatch.setattr(compared, "ASPECT_PHRASES", False)
    assert [p.text for p in analyze(text).parts] == ["comp time", "credit hours"]
    monkeypatch.setattr(compared, "TRAILING_CLAUSE", False)
    assert [p.text for p in analyze(text).parts] == ["comp time", "credit hours for some extra hours I'm putting in"]


async def test_sides_compared_on_expiry_are_answered_with_their_expiry(minilm):
    question = ("trying to decide between comp time and credit hours for some extra hours I'm putting in. how are they "
                "different when it comes to expiring?")
    summary = (await _answer(minilm, question, _context(COMP_TIME, CREDIT_EXAMPLE, CREDIT_HOURS))).summary
    assert "one year" in summary and "never expire" in summary, summary


async def test_how_much_notice_asks_a_span_of_time_stated_under_the_sides_heading(minilm, monkeypatch):
    """"How much notice do I need for live captioning (CART) compared to an ASL interpreter?" quoted that CART costs
    nothing: the line with the notice ("at least 12 hours prior") names no captioning, its heading does."""
    from synthesis.qa import unstated, values

    question = ("I'm setting up accommodations for a deaf colleague in an upcoming meeting. how much notice do I need "
                "for live captioning (CART) compared to an ASL interpreter?")
    context = _context(ASL, ON_SITE, CART)
    on, off = await _with_and_without(minilm, monkeypatch, question, context, values, "NOTICE_ASKED", False)
    assert on.startswith("To access captioning services: Send an email at least 12 hours"), on
    assert "72 hours" in on, on
    assert off.startswith("There is no cost"), off
    monkeypatch.setattr(values, "NOTICE_ASKED", True)
    monkeypatch.setattr(unstated, "HEADED_ABOUT", False)
    # without the heading, nothing about captioning states a span of time: that side is a gap
    gap = (await _answer(minilm, question, context)).summary
    assert "12 hours" not in gap and 'does not answer "how much notice do I need for live captioning' in gap, gap
    assert values.asked_value("How far in advance should I book it?") == (values.DURATION, values.DURATION)
    assert values.asked_value("How much do I need to pay for it?") is None


async def test_sides_named_in_the_story_are_compared_in_its_terms(minilm, monkeypatch):
    """"When I tell PeopleOps I'm moving, they ask if I'm a Remote Worker or a Routine Teleworker. What's the
    difference?" was refused: the asking sentence named no sides; read as a comparison, each side was searched
    alone and answered with remote workers' equipment."""

    question = ("When I tell PeopleOps I'm moving, they ask if I'm a Remote Worker or a Routine Teleworker. What's the "
                "difference?")
    assert [p.text for p in analyze(question).parts] == ["Remote Worker", "Routine Teleworker"]
    assert "moving" in analyze(question).parts[0].query
    context = _context(TELEWORKERS, REMOTE_KIT, MOVING)
    on, off = await _with_and_without(minilm, monkeypatch, question, context, every_side, "BRACKETED_SIDES", False)
    assert "you always work from home" in on.split(". ")[0], on
    assert on != off
    monkeypatch.setattr(compared, "TOLD_CONTEXT", False)
    assert "moving" not in analyze(question).parts[0].query
    monkeypatch.setattr(compared, "BARE_DIFFERENCE", False)
    assert len(analyze(question).parts) == 1


def test_when_am_i_supposed_to_use_one_over_another_asks_a_case(monkeypatch):
    """"When am I supposed to use Zoom instead of Google Meet, and …?" read as a time: the first part was answered
    with "Join the Zoom room 10 to 15 minutes early"."""
    from synthesis.qa import Expect
    from synthesis.qa import question as q

    text = "When am I supposed to use Zoom instead of Google Meet"
    assert q.expected(text) is Expect.OTHER
    assert q.expected("When am I supposed to submit my timesheet?") is Expect.QUANTITY
    monkeypatch.setattr(q, "SUPPOSED_CASE", False)
    assert q.expected(text) is Expect.QUANTITY
    assert q.expected("When do we use a multi-workspace channel versus Slack Connect?") is Expect.OTHER


RECORDS = ("Slack records", "Slack > Records policy",
           "Per the mandatory General Records Schedule 3.1 issued by the National Archives and Records Administration "
           "(NARA), everything in Slack channels and groups is considered at minimum a temporary record.\n\nTo ensure "
           "compliance with the possibility that we might create permanent or long-lived records in Slack, the "
           "records retention policy is set to **retain all messages forever AND also retain edit and deletion logs "
           "for all messages**. Users are prohibited from deleting messages. Do not abuse the `edit` command in Slack "
           "to effectively delete your message by replacing it with null or symbolic content. Edits for clarity or "
           "typos are fine.")
EDITING = ("Slack guidelines", "What are best practices for Slack? > Editing messages",
           "You can edit a message that has been sent in Slack for 5 minutes after it is posted. You aren’t able to "
           "delete a message: instead, you can edit the text and leave a . or a note such as wrong channel.")


async def test_a_rule_is_quoted_with_the_purpose_stated_right_before_it(minilm, monkeypatch):
    """"Can I delete a Slack message I regret posting?" quoted "Users are prohibited from deleting messages." without
    why: the sentence before it, in its paragraph, says all messages are retained forever."""
    from synthesis.qa import selection

    question = "Can I delete a Slack message I regret posting?"
    on, off = await _with_and_without(minilm, monkeypatch, question, _context(RECORDS, EDITING), selection,
                                      "RULE_PURPOSE", False)
    assert "retain all messages forever" in on and "prohibited" in on, on
    assert on.index("retain all messages forever") < on.index("Users are prohibited"), on
    assert "retain all messages forever" not in off, off


CAPACITY = ("FAS Speaker Guide", "Professional vs personal capacity",
            "When receiving an invitation to speak, you need to decide if you want to do the event in your "
            "professional or personal capacity:\n\n### Professional capacity\n\n- You'll participate as a TTS employee "
            "and discuss the work you do on behalf of GSA and our partners.\n- You'll be using GSA funds to travel to "
            "the event or pay for conference fees.\n- You'll prepare during your work time and use GSA equipment.")
PERSONAL = ("FAS Speaker Guide", "Professional vs personal capacity > Personal capacity",
            "- You didn't receive the invitation because of your position at TTS, but because of your expertise in "
            "the subject.\n- You won't be representing TTS/GSA.\n- You'll use your personal leave or participate "
            "after work hours.\n- You'll prepare on your own time and use your own equipment.")
APPROVAL = ("FAS Speaker Guide", "Getting approval when speaking in your professional capacity",
            "Once you have determined you have good reasons to speak and have decided to accept the invitation, you "
            "have to get approval to participate. If the invitation is for a media interview, work with GSA’s press "
            "office to coordinate.")
GUIDELINES = ("FAS Speaker Guide", "Guidelines for speaking in your personal capacity",
              "- There is a general prohibition on receiving compensation for personal capacity speaking on a "
              "subject that relates to your official duties. Free/waived attendance or registration fee is not "
              "compensation.")


async def test_a_section_headed_by_a_side_answers_it(minilm, monkeypatch):
    """"What's the difference between doing it in my professional capacity versus my personal capacity?" answered the
    personal side with the intro that names both: "Personal capacity" heads the lines that describe it, and they
    never repeat the words ("You'll use your personal leave or participate after work hours.")."""
    from synthesis.qa import selection

    question = ("If I'm invited to speak at a conference, what's the difference between doing it in my professional "
                "capacity versus my personal capacity?")
    context = _context(CAPACITY, APPROVAL, GUIDELINES, PERSONAL)
    on, off = await _with_and_without(minilm, monkeypatch, question, context, selection, "SIDE_TITLED", False)
    assert "personal leave" in on and "GSA funds" in on, on
    assert "personal leave" not in off, off


BALANCES = ("Leaving TTS", "Leaving TTS > 3. Review your benefits",
            "- Check your leave balances.\n  - If you received Award Leave from your end-of-year performance review or "
            "a Special Act Award, it **will not** be paid out. You must use it before you depart GSA, or you will "
            "forfeit it.\n  - Your Annual Leave **will** be paid out. If you are staying in the federal government "
            "and you are not taking a break in employment, then it will be automatically transferred to your next "
            "agency.\n  - Your Sick Leave **will not** be paid out; however, you will not lose it. If your next role "
            "is still within the federal government and you are not taking a break in service, it will be automatically "
            "transferred to your next agency. If you leave the federal government and later decide to rejoin, your "
            "Sick Leave will be reinstated.")
ANNUAL_LEAVE = ("Leave", "Leave > Types of leave > Annual leave",
                "You may use annual leave for any reason. Annual leave accrues based on how long you’ve worked for "
                "the federal government:\n\n* Fewer than 3 years: 4 hours per pay period\n* Between 3 and 15 years: 6 "
                "hours per pay period\n* 15+ years: 8 hours per pay period\n\nIf you’ve transferred to TTS from "
                "another federal agency, your accrued annual leave will transfer with you.")
SICK_LEAVE = ("Leave", "Leave > Types of leave > Sick leave",
              "All federal employees, no matter how long they have worked in government, accrue four hours of sick "
              "leave per pay period. There is no maximum amount of sick leave you can accrue.")
AWARD_LEAVE = ("Leave", "Leave > Types of leave > Award leave",
               "Award leave is offered for End of Year Performance Awards and Special Act Awards. Award leave expires "
               "one year after it is issued. If you leave TTS, award leave is not paid out.")


async def test_sides_asked_in_one_case_are_answered_from_the_section_on_that_case(minilm, monkeypatch):
    """"If I leave federal service, what happens to my annual leave versus my sick leave versus my award leave?"
    answered annual leave with how it accrues: each leave's own section says what it is in general; the leaving
    page's benefits section says what happens to each on leaving."""

    question = ("If I leave federal service, what happens to my annual leave versus my sick leave versus my award "
                "leave?")
    context = _context(ANNUAL_LEAVE, SICK_LEAVE, AWARD_LEAVE, BALANCES)
    on, off = await _with_and_without(minilm, monkeypatch, question, context, every_side, "SHARED_SECTION", False)
    assert "Your Annual Leave will be paid out" in on and "reinstated" in on and "forfeit" in on, on
    assert "Your Annual Leave will be paid out" not in off, off


def test_what_the_review_found_the_rules_must_leave_alone():
    """(review) Inputs the rules above first read wrongly."""
    from synthesis.qa import Expect, values
    from synthesis.qa.question import expected

    for text in ("The number of hours you can carry over depends on which of 3 categories you fall into.",
                 "Report the number of hours spent on each of 4 projects.",
                 "The number of days off is one of the benefits of the job."):
        assert not values.states_value(text, values.DURATION), text
    assert values.states_value("Maximum number of hours per pay period: 80", values.DURATION)
    assert values.states_value("The number of annual leave hours you can carry over is 240.", values.DURATION)
    for text in ("When am I supposed to pick up my new laptop from the office?",
                 "When am I supposed to use my use-or-lose leave?"):
        assert expected(text) is Expect.QUANTITY, text
    assert [p.text for p in analyze("How do Zoom and Google Meet differ, as far as I can tell?").parts] == [
        "Zoom", "Google Meet"]
    assert [p.text for p in analyze("What's the difference between telework and the rules regarding remote "
                                    "work?").parts] == ["telework", "the rules regarding remote work"]
    assert len(analyze("I moved from DC to Chicago and my badge stopped working. What's different?").parts) == 1
    assert [p.text for p in analyze("People mention credit hours or comp time. What is the difference "
                                    "exactly?").parts] == ["credit hours", "comp time"]
    assert compared.told_in("How is the badge in Chicago different? I use it daily.", []) == ""
    assert [p.text for p in analyze("trying to decide between comp time and credit hours for some extra hours i'm "
                                    "putting in. how are they different?").parts] == ["comp time", "credit hours"]
    frame = analyze("What's the difference between comp time and credit hours?")
    assert not every_side.defines_each(frame, [0, 1], "Comp time (CT) and credit hours (CH) are both recorded.")


async def test_a_sentence_of_its_own_before_a_rule_is_no_purpose(minilm):
    """(review) "Since March 2020, …" tells a time; it is not quoted before the rule after it."""
    question = "Can I use my personal email for government business?"
    context = _context(("Email", "Email > Personal accounts",
                        "Since March 2020, personal email accounts have been blocked on government laptops. You may "
                        "not use personal email "
                        "accounts for government business."))
    summary = (await _answer(minilm, question, context)).summary
    assert "may not use personal email" in summary and "March 2020" not in summary, summary


def test_a_heading_sharing_only_a_common_word_is_not_the_part_s(minilm):
    """(review) "How far in advance should I book travel?" is not answered by a travel card's replacement cycle."""
    from .test_probe_shapes import checked

    card = _context(("Travel", "Travel > Travel card", "The card is replaced every 3 years when it expires."))
    assert checked(minilm, analyze("How far in advance should I book travel?"), card).unstated == ["a duration"]


def test_a_section_naming_the_sides_but_not_the_case_is_not_shared(minilm):
    """(loop) "When I'm called for jury duty, how do I record that time in HR Links versus in Tock?" had been
    answered from a section on working extra hours that names HR Links and Tock apart and says nothing of jury duty."""
    from synthesis.qa import Reader
    from synthesis.synthesize.candidates import candidates

    hours = ("Billable hours", "18F billable hour expectations > Working more than the minimum hours",
             "Before you work those extra hours, talk to your Account Manager and supervisor. Request the extra time "
             "in HR Links so your supervisor can approve it. Record the hours you worked in Tock each week.")
    court = ("Leave", "Leave > Types of leave > Court leave",
             "You can receive Court Leave for however long you serve on a jury. To report Court Leave, follow the "
             "typical steps for Entering a leave request in HR Links. Tock it to line 670, Out of Office.")
    frame = analyze("When I'm called for jury duty, how do I record that time in HR Links versus in Tock?")
    units = candidates(_context(court, hours))
    Reader(minilm.embed).score(frame, units)
    assert frame.side_frame and every_side.shared_section(frame, units, set()) is None


def test_a_comparison_without_readable_sides_is_asked_whole(monkeypatch):
    """(review) A comparison whose sides cannot be read was searched as its asking sentence alone, its story left
    out ("How does sharing work differently for each?")."""
    from synthesis.qa import question as q

    text = ("I need to share some Drive docs with two partner agencies: one uses Google Workspace and the other is all "
            "Microsoft. How does sharing work differently for each?")
    [part] = analyze(text).parts
    assert part.query == text and "microsoft" in part.stems
    monkeypatch.setattr(q, "SIDELESS_WHOLE", False)
    [part] = analyze(text).parts
    assert "Microsoft" not in part.query


def test_the_last_read_s_findings_on_sides_aspects_and_headings():
    """(last read) An aspect asked of each side is no side of its own: the contrast line and the bracketed gloss
    are read per side, not per part; a page's title heads nothing; a side is named as a word ("CO" is not in
    "compare")."""
    from types import SimpleNamespace

    from synthesis.models import Passage
    from synthesis.qa import unstated

    frame = analyze("When I tell PeopleOps I'm moving, they ask if I'm a Remote Worker or a Routine Teleworker. How "
                    "are they different when it comes to pay?")
    sides = every_side.side_parts(frame, set())
    assert [frame.parts[j].text for j in sides] == ["Remote Worker", "Routine Teleworker"] and len(frame.parts) == 4
    assert every_side.own_words(frame, sides[0], sides) == {"remot", "worker"}
    assert every_side.defines_each(frame, sides, "Whether you are a Remote Worker (you always work from home) or a "
                                                 "Routine Teleworker (onsite flexible: you go into an office).")
    assert compared.told_in("On this acquisition I keep hearing about the CO and the COR. How do their roles "
                            "compare?", ["CO", "COR"]).startswith("On this acquisition")
    part = analyze("How much notice do I need for live captioning?").parts[0]
    titled = SimpleNamespace(passage=Passage(id="p", doc_id="d", content="x", score=0.5, title="Live captioning",
                                             section="Live captioning"))
    headed = SimpleNamespace(passage=Passage(id="p", doc_id="d", content="x", score=0.5,
                                             title="Deaf and hard of hearing",
                                             section="Deaf and hard of hearing > Live captioning"))
    assert not unstated._headed_by(part, titled) and unstated._headed_by(part, headed)

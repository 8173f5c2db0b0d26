"""Question shapes the fortieth session found answered wrongly on the 18F handbook, on the page text they failed on
(hp47, written by a helper that read only the corpus, and measured before any change).

A rule with a flag is switched off once in its test, so the test fails when the rule does nothing.
"""

from __future__ import annotations

from synthesis.models import Passage
from synthesis.synthesize import candidates

from .test_qa import _answer, _context, _with_and_without

ANALYST = ("Roles and responsibilities", "Procurement Analyst",
           "The procurement analysts serves as the focal point for TTS procurement oversight and internal controls. "
           "Responsibilities may include but are not limited to:\n\n"
           "- Establishing a foundation of sound policies, procedures, and processes to ensure TTS achieves excellent "
           "acquisition outcomes.\n"
           "- Reviewing and providing recommendation on TTS’ procurement actions to ensure compliance with federal "
           "and agency regulations.\n"
           "- Serving as System Administrators for procurement-related systems (EASi, FPDS-NG, CPARs, etc.).\n"
           "- Coordinating responses to procurement related data calls.")
TECH_OPS = ("TTS Technology Operations", "Division Overview",
            "We are a small team that manages TTS-wide IaaS/PaaS/SaaS contracts (i.e Airtable, Docker Desktop, New "
            "Relic, Zendesk, etc.). We perform the technical controls for FedRAMP Authorizations - like setting up "
            "SAML/Google Oauth, and user onboarding/offboarding.")


async def test_an_item_of_a_list_of_duties_is_quoted_under_the_role(minilm, monkeypatch):
    """"Which role acts as system administrator for procurement systems like FPDS-NG and CPARS?" (hp47) was answered
    'high' with the item alone: the role is named only in its heading (candidates.DOER_ITEMS)."""
    asked = "On the TTS acquisition team, which role acts as system administrator for procurement systems like FPDS-NG?"
    on, off = await _with_and_without(minilm, monkeypatch, asked, _context(ANALYST), candidates, "DOER_ITEMS", False)
    assert on.startswith("Procurement Analyst: Responsibilities may include"), on
    assert "Serving as System Administrators" in on
    assert not off.startswith("Procurement Analyst"), off


async def test_a_unit_describing_itself_as_we_is_quoted_under_its_page(minilm, monkeypatch):
    """"Which team looks after the TTS-wide contracts for tools like Docker Desktop and New Relic?" (hp47) quoted "We
    are a small team that manages …" and named no team: the page's title does (candidates.DOER_SELF)."""
    asked = "Which team looks after the TTS-wide contracts for tools like Docker Desktop and New Relic?"
    on, off = await _with_and_without(minilm, monkeypatch, asked, _context(TECH_OPS), candidates, "DOER_SELF", False)
    assert on.startswith("TTS Technology Operations: We are a small team"), on
    assert off.startswith("We are a small team"), off


def test_only_duties_and_self_descriptions_take_the_heading():
    def passage(section, title=""):
        return Passage(id="p", doc_id="d", content="", score=0.5, section=section, title=title)

    analyst = passage("Procurement Analyst", "Roles and responsibilities")
    duties = "Responsibilities may include but are not limited to:"
    duty = candidates.duty_doer
    assert duty("Coordinating responses to procurement related data calls.", analyst, duties) == "Procurement Analyst"
    assert duty("Reviews the statement of work.", analyst, "Your duties as a COR are:") == "Procurement Analyst"
    # (found in review) a heading naming the role by its head noun; never the page's title
    assert duty("Conducting discovery research.", passage("Technical Lead", "Roles"), duties) == "Technical Lead"
    assert duty("Conducting discovery research.", passage("", "Roles and responsibilities"), duties) == ""
    # an item under any other lead-in, one opening on a noun, or a base form (as often an instruction to the reader)
    assert duty("Coordinating responses to data calls.", analyst, "Things to do this week:") == ""
    assert duty("Contracts over $250,000.", analyst, duties) == ""
    assert duty("The CO signs the award.", analyst, duties) == ""
    assert duty("Check out the 18F Product Guide for more information on this role!", analyst, duties) == ""
    ops = passage("Division Overview", "TTS Technology Operations")
    assert candidates.doer("We’re a team of five engineers who run the sandbox accounts.", ops) == (
        "TTS Technology Operations")
    # "we" doing something, or "we are" anything but a unit, is no self-description
    assert candidates.doer("We manage all of the AWS access.", ops) == ""
    assert candidates.doer("We are a government agency, so FOIA applies.", ops) == ""
    # a heading or title naming no role or unit gives none
    assert candidates.doer("We are a small team that edits the blog.", passage("Overview", "Blogging guide")) == ""


CONTACT_CENTER = ("A Brief History of TTS Solutions", "1966-1990: Walk-In, Order, or Call",
                  "The centers were first established in 1966, were formalized in 1978, and were merged with our "
                  "office in 2000. They gradually moved from providing in-person service locally to answering "
                  "questions by telephone nationally—a bilingual service which still exists today as the USAGov "
                  "Contact Center at 1-844-USA-GOV1 and via chat.")
CHANNELS = ("Public Experience Portfolio (USAGov)", "Our Channels",
            "Through the USAGov Contact Center, we answer phone calls and chats in English and Spanish for our own "
            "program, as well as for customer agencies who reimburse us to answer calls, chats, and/or emails for "
            "their programs.")
TLC = ("Delivery Assurance", "TLC Crew",
       "Since there can be no guarantee that this team is staffed every two weeks, TLC can’t guarantee delivery on "
       "issues in their repository until they've been prioritized and assigned.")
SERVICE_DESK = ("GSA internal tools", "IT Service Desk",
                "If you have any issues with a GSA-maintained system or website, you'll need to contact the IT service "
                "desk through the Service Portal. They are available 6am-9pm ET. If your ticket gets stuck, you can "
                "ask them to escalate it.")


async def test_the_hours_something_is_open_are_answered_only_by_clock_times(minilm, monkeypatch):
    """"What hours is the USAGov Contact Center staffed …?" (hp48, unanswerable) was answered with the centre's history
    and its phone number: the hours something is open ask clock times, and no line states them (values.HOURS_ASKED)."""
    from synthesis.qa import values

    asked = "What hours is the USAGov Contact Center staffed, if someone from the public wants to call?"
    on, off = await _with_and_without(minilm, monkeypatch, asked, _context(CONTACT_CENTER, CHANNELS, TLC), values,
                                      "HOURS_ASKED", False)
    assert on == "", on
    assert "USAGov Contact Center" in off, off
    answer = await _answer(minilm, "What are the IT service desk's support hours?", _context(SERVICE_DESK, CHANNELS))
    assert "6am-9pm ET" in answer.summary, answer.summary


def test_which_hours_ask_a_time_of_day():
    from synthesis.qa.values import HOURS, asked_value, states_value

    for asked in ("What hours is the contact center staffed?", "what hours are they available?",
                  "What are the help desk's business hours?", "What are the hours of the library?",
                  "Which hours does the garage stay open on weekends?"):
        assert asked_value(asked) == (HOURS, HOURS), asked
    # hours counted or billed, or hours chosen, are no opening hours (some found in review)
    for asked in ("What hours do I Tock for a holiday?", "What hours should I target for the meeting?",
                  "What are the hours I need to bill this week?", "How many hours is the course?",
                  "What are the hours of annual leave I earn each pay period?",
                  "What hours do I Tock when the office is closed?", "What are the service hours I owe?"):
        assert asked_value(asked) != (HOURS, HOURS), asked
    # and only a clock time states them: "during business hours" does not
    assert states_value("They are available 6am-9pm ET.", HOURS) and states_value("Staffed 24/7.", HOURS)
    assert not states_value("Requests are handled during business hours.", HOURS)


GUILDS = ("Affinity groups, working groups, guilds, and other communities", "Guilds in TTS > Guild leadership",
          "Guilds should be led by people from different parts of TTS. They should expect to spend a few hours per "
          "week on guild leadership, meetings, and preparation. Individual guilds can set their own leadership terms, "
          "with the most common being one year.\n\n"
          "Guild leadership is recognized by a staff member’s supervisor as a responsibility and they should be "
          "reviewed on their performance. However, it is an informal role.")
WORKING_GROUPS = ("Affinity groups, working groups, guilds, and other communities",
                  "Working groups in TTS > Current working groups",
                  "User Research Compensation: Operationalizing user research compensation at TTS. "
                  "#wg-user-research-compensation")
AWARD_LEAVE = ("Leave types", "Types of leave > Award leave",
               "Award leave is offered for End of Year Performance Awards and Special Act Awards. You can receive a "
               "maximum of 80 hours of award leave in a single fiscal year. If you receive a Special Act Award after "
               "hitting the 80 hour cap, your award will be monetary.")


async def test_being_paid_for_something_is_answered_only_by_a_line_on_pay(minilm, monkeypatch):
    """"Do people who lead a TTS guild get any extra pay, award, or bonus for doing it?" (hp48, unanswerable) was
    answered 'high' with how long guild leads serve: a yes/no on pay or an award asks a line on pay about them, and
    "User Research Compensation … at TTS" is about no guild lead (specifics.PAY_ASKED)."""
    from synthesis.qa import specifics

    asked = "Do people who lead a TTS guild get any extra pay, award, or bonus for doing it?"
    on, off = await _with_and_without(minilm, monkeypatch, asked, _context(GUILDS, WORKING_GROUPS), specifics,
                                      "PAY_ASKED", False)
    assert on == "", on
    assert "guild" in off.lower(), off
    answer = await _answer(minilm, "Does someone receiving a Special Act Award get a monetary award once they hit the "
                                   "award leave cap?", _context(AWARD_LEAVE, GUILDS))
    assert "your award will be monetary" in answer.summary, answer.summary


def test_which_questions_ask_about_pay():
    from synthesis.qa import specifics

    for asked in ("Do buddies get any kind of award or time off for taking that on?",
                  "Do new employees get a laptop stipend?", "Do I get a pay bump when I'm promoted?"):
        assert specifics.asks_pay(asked), asked
    # pay records, leave, and being paid back are no pay for something
    for asked in ("Can I still get my pay stubs after I leave?", "Will I get paid for the award leave I haven't used?",
                  "Do I get award leave instead of cash?", "How do I get reimbursed for a cab?"):
        assert not specifics.asks_pay(asked), asked
    assert specifics.paid_who("Do people who lead a TTS guild get any extra pay?") == {"guild", "lead", "tts"}
    assert specifics.paid_who("Is there a bonus for referrals?") == set()
    assert specifics.paid_who("Do I still get locality pay while on a detail?") == set()  # (found in review)


MESSAGING = ("Onboarding overview", "How we collaborate > Messaging tools",
             "- Gmail: We use Gmail for email communication.\n"
             "- Google Chat: You can use Google Chat for internal instant messaging needs (note: many folks in TTS "
             "prefer Slack).\n"
             "- Slack: Slack is a widely-used messaging application at TTS. Most Slack usage is internal to TTS.")
STAFFING = ("Engagement overview", "",
            "Both require deep alignment and support of the partner, and can be staffed with 18F people, CoE people, "
            "or a combination of the two.")


async def test_a_verb_before_to_and_a_verb_names_no_kind(minilm, monkeypatch):
    """"Do 18F people and CoE people tend to use the same chat tool day to day?" (hp48) was refused: "tend", after the
    covered "people", read as a kind of people no page names (topic.CATENATIVE)."""
    from synthesis.qa import topic

    asked = "Do 18F people and CoE people tend to use the same chat tool day to day?"
    on, off = await _with_and_without(minilm, monkeypatch, asked, _context(MESSAGING, STAFFING), topic, "CATENATIVE",
                                      False)
    assert "CoE people" in on or "Google Chat" in on, on  # answered (which line leads is the reader's choice)
    assert off == "", off


def test_only_a_verb_before_to_and_a_verb_is_left_out():
    from synthesis.qa.topic import compound_modifiers

    present = {"peopl", "guid", "bonus", "plan"}
    assert compound_modifiers("Do CoE people tend to use Slack?", {"tend"}, present) == []
    assert compound_modifiers("Is there a technique the guide recommends to pin down the audience?",
                              {"recommends"}, present) == []
    # a noun before "to" still names a kind ("a relocation bonus to cover the move" names relocation)
    assert compound_modifiers("Is there a relocation bonus to cover the move?", {"relocation"}, present) == [
        "relocation"]


async def test_an_item_quoted_under_its_heading_names_it_once(minilm):
    """(found in review) An item whose lead-in is its heading ("18F" over "- General inbox: 18f@gsa.gov") is quoted
    "18F: General inbox: …", not "18F: 18F: General inbox: …": only a list of duties adds who it is about."""
    contacts = ("General contacts", "TTS information > 18F", "- General inbox: 18f@gsa.gov\n- Slack: #18f")
    answer = await _answer(minilm, "What's the general inbox address for 18F?", _context(contacts))
    assert "18F: General inbox: 18f@gsa.gov" in answer.summary, answer.summary
    assert "18F: 18F:" not in answer.summary, answer.summary

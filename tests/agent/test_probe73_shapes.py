"""Question shapes the fifty-first session found answered wrongly or badly written on the 18F handbook, on the page
text they failed on (hp68, hp73–hp75, written by helpers that read only the corpus, and measured before any change).

A rule with a flag is switched off once in its test, so the test fails when the rule does nothing.
"""

from __future__ import annotations

from synthesis.qa import kinds, question, unstated, values
from synthesis.synthesize import candidates as candidates_module
from synthesis.synthesize import contradictions, quotes

from .test_probe51_shapes import _page
from .test_probe67_shapes import _unstated
from .test_qa import _answer, _with_and_without

ISSUE_TITLES = ("Writing Lab", "Guidelines for submitting an issue > Writing a good issue title",
                "The best issue titles have three elements, in this order: team, content type,\ncontent name.\n\n"
                "For example:\n\n- Talent - Performance Profile - Front end dev\n"
                "- Accessibility - Guide - Images section\n\nSince this is all internal, feel free to use common "
                "shortening and abbreviations\nin your titles.")


async def test_a_sentence_opening_a_lead_in_is_quoted_once(minilm, monkeypatch):
    """"How should I title the GitHub issue when I submit something to the Writing Lab?" (hp68) quoted "The best
    issue titles have three elements …" alone and then again before its examples, where a bare "For example:" is
    joined to the sentence before it (quotes.CARRIED_OPENINGS)."""
    asked = "How should I title my issue when I submit something to the Writing Lab?"
    on, off = await _with_and_without(minilm, monkeypatch, asked, _page(ISSUE_TITLES), quotes, "CARRIED_OPENINGS",
                                      False)
    opening = "The best issue titles have three elements"
    assert on.count(opening) == 1 and "Talent - Performance Profile - Front end dev" in on, on
    assert off.count(opening) == 2, off


def test_a_finding_quotes_a_sentence_opening_a_lead_in_once(monkeypatch):
    """The same in a finding: the sentence the list's lead-in opens with is not quoted on its own before the list."""
    from synthesis.models import Passage
    from synthesis.qa.candidate import Candidate

    page = Passage(id="lab", doc_id="writing-lab.md", content="", score=0.6, title="Writing Lab",
                   section="Writing a good issue title")
    first = "The best issue titles have three elements, in this order: team, content type, content name."
    lead = f"{first} For example:"
    units = [Candidate(first, 1, 0, page),
             Candidate("Talent - Performance Profile - Front end dev", 1, 1, page, True, lead),
             Candidate("Accessibility - Guide - Images section", 1, 2, page, True, lead)]
    quoted = quotes.quote_all(units)
    assert quoted.count("The best issue titles") == 1, quoted
    # (review) a list item is not taken for the opening of another list's lead-in ("Annual leave accrues as follows:")
    leave = [Candidate("Annual leave", 1, 0, page, True, "The types of leave are:"),
             Candidate("Sick leave", 1, 1, page, True, "The types of leave are:"),
             Candidate("Four hours per pay period", 1, 2, page, True, "Annual leave accrues as follows:")]
    assert "Annual leave; Sick leave" in quotes.quote_all(leave)
    examples = "Talent - Performance Profile - Front end dev; Accessibility"
    assert quoted.startswith(f"{first} For example: {examples}"), quoted
    monkeypatch.setattr(quotes, "CARRIED_OPENINGS", False)
    assert quotes.quote_all(units).count("The best issue titles") == 2


SAAR = ("Accessing DoD systems", "System Authorization Access Request (SAAR)",
        "This form will need to be e-signed by both you and your supervisor using either a DOD CAC (preferred), PIV "
        "provided by GSA, or as a last resort with DocuSign. If you run into issues getting your SAAR form approved, "
        "please contact your Account Manager, or the National Security & Intelligence Portfolio manager.")
SPEAKING_APPROVALS = ("External speaking request playbook", "Approvals",
                      "Most approvals will take 2–3 weeks to complete. Some approvals can take up to 4 weeks.")


def test_the_time_a_thing_takes_to_be_done_is_that_things(minilm, monkeypatch):
    """"how long does DoD usually take to approve a SAAR once I've sent it in?" (hp73, unanswerable) was answered
    with "Most approvals will take 2–3 weeks to complete", said of speaking requests: a paragraph naming the doing
    and not the thing is about another thing (values.TAKEN_EVENTS, as EVENT_SUBJECTS for "before it gets …")."""
    asked = "how long does DoD usually take to approve a SAAR once I've sent it in?"
    assert values.event_subject(asked) == ("SAAR", "approve", "to approve a SAAR")
    assert values.event_subject("how long for my Docusign envelope to be signed?")[:2] == ("Docusign envelope",
                                                                                           "signed")
    assert values.event_subject("How long does it take to get a PIV card?") == ("", "", "")  # a light verb
    assert values.event_subject("How long does it take to review them?") == ("", "", "")  # no thing named
    # (review) irregular participles, the thing before "take", a particle, and no place taken for a thing
    assert values.event_subject("How long for my travel reimbursement to be paid?")[:2] == ("travel reimbursement",
                                                                                            "paid")
    assert values.event_subject("How long does a SAAR usually take to be approved?")[:2] == ("SAAR", "approved")
    assert values.event_subject("How long does it take to fill out the SF-86?")[:2] == ("SF-86", "fill")
    assert values.event_subject("How long does it take to walk to the Denver office?") == ("", "", "")
    context = _page(SAAR, SPEAKING_APPROVALS)
    assert _unstated(minilm, asked, context) == {0: "a duration to approve a SAAR"}
    assert _unstated(minilm, asked.replace("a SAAR", "a speaking request"), context) == {}  # (common words)
    monkeypatch.setattr(values, "TAKEN_EVENTS", False)
    assert _unstated(minilm, asked, context) == {}


GITHUB_RULE = "Do not store sensitive information in GitHub."
GITHUB_INTRO = ("Understanding what a repository is will help you understand where your information is stored in "
                "GitHub and who can access it.")
MERIT_HIRING = ("Competitive Service Merit Promotions are open to current or former Competitive Service employees. "
                "These roles must be posted to USAJobs and are prioritized with other TTS external hiring.")
MERIT_PATHS = ("Merit Promotions: applications that are open to current Competitive Service employees or former "
               "Competitive Service employees who have tenure. These applications are not open to the general public.")


def test_a_question_inside_a_sentence_asserts_nothing(monkeypatch):
    """"how do I file an issue on one of our GitHub repos?" (hp75) reported that the sources disagree: "Do not
    store sensitive information in GitHub." against "… understand where your information is stored in GitHub …",
    which asks where, it says nothing is stored (contradictions.INDIRECT_QUESTIONS)."""
    assert contradictions.compare(GITHUB_RULE, GITHUB_INTRO) is None
    assert contradictions.compare(GITHUB_RULE, "Your information is stored in GitHub for partners to see.") is not None
    shown = "This page shows you where your information is stored in GitHub."
    assert contradictions.compare(GITHUB_RULE, shown) is None
    # (review) the verb putting the question is still said, and a denial putting the same question still conflicts
    for denied, said in (("Supervisors cannot see what you post in private Slack channels.",
                          "Supervisors can see what you post in private Slack channels."),
                         ("Contractors do not know who approves their timesheets.",
                          "Contractors know who approves their timesheets.")):
        assert contradictions.compare(denied, said) is not None, denied
    monkeypatch.setattr(contradictions, "INDIRECT_QUESTIONS", False)
    assert contradictions.compare(GITHUB_RULE, GITHUB_INTRO) is not None


def test_a_denial_is_of_what_follows_its_head(monkeypatch):
    """"What's the difference between a delegated examining announcement and a merit promotion one?" (hp75) reported
    that two hiring pages disagree: "… are not open to the general public" denies nothing "… are open to current or
    former Competitive Service employees" says (contradictions.DENIED_WORDS)."""
    assert contradictions.compare(MERIT_HIRING, MERIT_PATHS) is None
    # a denial of what the other claim asserts still conflicts, with or without words after its head
    assert contradictions.compare("Merit Promotions are open to the general public.", MERIT_PATHS) is not None
    assert contradictions.compare("Contractors can approve timesheets for their team.",
                                  "Contractors cannot approve timesheets for their team.") is not None
    # (review) a number or a unit after the head is the value, not what the denial is said of
    assert contradictions.compare("Comp time does not expire after one year.",
                                  "Comp time expires after 26 pay periods.") is not None
    monkeypatch.setattr(contradictions, "DENIED_WORDS", False)
    assert contradictions.compare(MERIT_HIRING, MERIT_PATHS) is not None



def test_where_to_change_a_quantity_asks_a_place(monkeypatch):
    """"where do I actually go to change how much I put into my TSP each paycheck? is it tsp.gov?" (hp73) was read
    as asking an amount, and answered "After one or two pay periods at your new address …" over "You will update TSP
    directly in HR Links …": where to change (or look up) how much asks a place (question.MEASURE_WHERE; on the
    handbook's store the HR Links line then leads, measured by benchmarks.answers)."""
    asked = "where do I actually go to change how much I put into my TSP each paycheck?"
    assert question.expected(asked) is question.Expect.WHERE
    assert question.expected("Where can I check how much annual leave I have left?") is question.Expect.WHERE
    assert question.expected("How much can I put into my TSP each paycheck?") is question.Expect.QUANTITY
    assert question.expected("Where is the office, and how much does parking cost?") is question.Expect.QUANTITY
    # (review) more words before the verb, and a rate looked up is still the rate asked
    assert question.expected("Where in HR Links can I change how much goes to my TSP?") is question.Expect.WHERE
    rate = "Where can I see how much a hotel in Denver may cost per night?"
    assert question.expected(rate) is question.Expect.QUANTITY
    monkeypatch.setattr(question, "MEASURE_WHERE", False)
    assert question.expected(asked) is question.Expect.QUANTITY


CO_INTRO = ("TTS Acquisition Division Team Roles & Responsibilities", "Contracting Officer (CO)",
            "The contracting officer serves as the official buyer of supplies and services on behalf of TTS. They "
            "achieve this authority by obtaining a warrant. Responsibilities may include but are not limited to:")
CO_DUTIES = ("TTS Acquisition Division Team Roles & Responsibilities", "Contracting Officer (CO)",
             "- Serving as the final decision-maker for all contractual matters.\n- Holding the final authority for "
             "all TTS contractual actions and only person to\n  change the terms and conditions of contract.\n"
             "- Planning, developing, and establishing the acquisition strategy for a\n  procurement in collaboration "
             "with the team.")


async def test_a_duty_led_from_the_chunk_before_names_its_role(minilm, monkeypatch):
    """"on a TTS acquisition, who's actually allowed to change the terms and conditions of the contract?" (hp74) was
    answered "Responsibilities may include …: Holding the final authority … only person to change the terms …"
    without the role: the list's lead-in closes the chunk before, and the item read under it again is a duty of the
    section's role (candidates.REJOINED_DUTIES)."""
    asked = "on a TTS acquisition, who's actually allowed to change the terms and conditions of the contract?"
    on, off = await _with_and_without(minilm, monkeypatch, asked, _page(CO_INTRO, CO_DUTIES), candidates_module,
                                      "REJOINED_DUTIES", False)
    assert on.startswith("Contracting Officer (CO): Responsibilities may include"), on
    assert "only person to change the terms" in off and "Contracting Officer (CO):" not in off, off


SERVICE_DESK = ("GSA internal tools", "IT Service Desk",
                "_Also known as the GSA IT Help Desk or Service Now._\n\nIf you have any issues with a GSA-maintained "
                "system or website, you'll need to\ncontact the IT service desk through:\n\n- The Service Portal, "
                "where you can submit a\n  ticket or live chat\n- Call them at 866-450-5250\n\nThey are available "
                "6am-9pm ET. If your ticket gets stuck, you can ask them to\nescalate it.")
DC_BUILDING = ("Washington, D.C.", "How do I... > Access the building after hours",
               "Please note that the building closes at 6 pm, a GSA badge is required for after hours access and no "
               "visitors are permitted.")


async def test_a_time_of_day_is_of_what_the_part_names(minilm, monkeypatch):
    """"what time does the GSA IT help desk open and close?" (hp75) was answered "Please note that the building
    closes at 6 pm …": a clock time answers it under a heading or in a sentence naming the desk
    (values.CLOCK_SUBJECTS), and "They are available 6am-9pm ET.", opening its paragraph under "IT Service Desk",
    is read under that heading instead of being kept out of the summary (candidates.HEADED_PRONOUNS)."""
    asked = "what time does the GSA IT help desk open and close?"
    assert values.clock_subject(asked) == "desk"
    assert values.clock_subject("What hours is the library open?") == "library"
    assert values.clock_subject("What time does it open?") == ""
    # (review) no word that names nothing ("Building 2"), no people, and not the place a thing is at
    for unnamed in ("What time does Building 2 open?", "What time do most people start work?"):
        assert values.clock_subject(unnamed) == "", unnamed
    assert values.clock_subject("what time does the security desk at 1800 F open?") == "desk"
    context = _page(DC_BUILDING, SERVICE_DESK)
    on, off = await _with_and_without(minilm, monkeypatch, asked, context, candidates_module, "HEADED_PRONOUNS", False)
    assert on.startswith("IT Service Desk: They are available 6am-9pm ET. [2]"), on
    assert "6am-9pm" not in off, off
    monkeypatch.setattr(candidates_module, "HEADED_PRONOUNS", True)
    monkeypatch.setattr(values, "CLOCK_SUBJECTS", False)
    unnamed = (await _answer(minilm, asked, context)).summary
    assert unnamed.startswith("Please note that the building closes at 6 pm"), unnamed


def test_a_pronoun_stands_for_its_heading_only_where_the_section_named_it():
    """(review) "It is important to …", "It can be hard to …" say "it" of nothing; a sentence after another in its
    paragraph points at that one ("There's a lactation room … It has outlets, a sink, and a fridge."); under
    "Eligibility", "They are required …" stands for the people the paragraph before names; and a chunk's first
    sentence may point into the chunk before."""
    from synthesis.models import Passage
    from synthesis.sentences import sentence_units

    def heading_of(text: str, section: str) -> str:
        units = sentence_units(text)
        page = Passage(id="p", doc_id="d", content=text, score=0.5, title="Tools", section=section)
        return candidates_module.pronoun_heading(units, len(units) - 1, page)

    desk = "Contact the IT service desk through the Service Portal.\n\nThey are available 6am-9pm ET.\n"
    assert heading_of(desk, "IT Service Desk") == "IT Service Desk"
    for text in ("Notify the IT service desk.\n\nIt is critical that you notify GSA IT within 1 hour.\n",
                 "Talk to the service desk.\n\nIt can be hard to change habits.\n",
                 "There's a service desk on the 54th floor.\nIt has outlets, a sink, and a fridge.\n",
                 "They are available 6am-9pm ET.\n"):  # (the chunk's first sentence)
        assert heading_of(text, "IT Service Desk") == "", text
    supervisors = ("New supervisors must take the supervisory training course.\n\nThey are required to finish it "
                   "within 1 year.\n")
    assert heading_of(supervisors, "Eligibility") == ""


def test_whose_things_asked_about_asks_no_one(monkeypatch):
    """"if I give a talk in my personal capacity instead of as a TTS employee, what changes about whose time, money
    and equipment I use?" (hp74) was read as asking who, and answered with one line that names no time, money or
    equipment: a "whose" after a preposition in a "what" question asks for no one (question.EMBEDDED_WHOSE)."""
    asked = ("if I give a talk in my personal capacity instead of as a TTS employee, what changes about whose time, "
             "money and equipment I use?")
    assert question.expected(asked) is question.Expect.OTHER
    for who in ("Whose approval do I need?", "On whose behalf do I sign the form?",
                "I need three weeks off without pay. Whose sign-off do I need?",
                "What changes about whose approval I need, and who signs it?",
                "I'm confused about whose responsibility it is to file the SF-182.",  # (review)
                "What are the rules about whose signature goes on the SF-52?"):
        assert question.expected(who) is question.Expect.WHO, who
    monkeypatch.setattr(question, "EMBEDDED_WHOSE", False)
    assert question.expected(asked) is question.Expect.WHO


GUILDS = ("Affinity groups, working groups, and guilds", "Guilds in TTS",
          "Guilds seek to implement long-term, positive change within TTS. They offer\ntraining and promotion of best "
          "practices in their subject area. Guilds are typically long-running.\n\nGuild Slack channels have a `g-` "
          "before the name. Like working groups, you do\nnot need permission to participate: just jump right in.")
GUILD_SPEAKERS = ("Guidance on hosting non-government speakers", "Steps for virtual meetings",
                  "If you’d like to host a non-government speaker at a guild meeting, training, workshop, or other TTS "
                  "gathering, you must follow the steps and guidelines below:\n\n1. Make a local copy of the Outside "
                  "Speaker Checklist\n2. Have each outside speaker sign a Gratuitous Services Agreement")


async def test_whether_i_need_to_is_answered_by_what_you_need(minilm, monkeypatch):
    """"do I need to ask someone before I start posting in a guild's channel or showing up to their meetings?" (hp75)
    was answered with the steps for hosting a speaker at a guild meeting ("you must follow …"): a question whether
    the asker needs to do something prefers the sentence saying whether "you" need to (kinds.NEED_STATED)."""
    asked = "do I need to ask someone before I start posting in a guild's channel or showing up to their meetings?"
    assert kinds.asks_need(asked) and kinds.asks_need("I start Monday. hey, do I need a PIV card?")
    assert not kinds.asks_need("What do I need to do to get a PIV card?")  # (what, not whether)
    assert kinds.says_need("Like working groups, you do not need permission to participate: just jump right in.")
    for said in ("You'll need your PIV card.", "You are not required to submit a self-assessment.",
                 "Supervisor approval is not required for this."):
        assert kinds.says_need(said), said
    # (review) having, a case, a question and someone else's need say nothing of the asker's
    for other in ("They need to sign the agreement.", "You have a few options.", "If you need to take leave, tell "
                  "your supervisor.", "Do you need a PIV card?"):
        assert not kinds.says_need(other), other
    # (loop, hp37-21 and hp46-28, "Do I still need an IDP …?") a need said of a case is that case's
    assert not kinds.says_need("If you are traveling to a conference on behalf of a partner who is paying, an IDP "
                               "and SF-182 approval is not needed.")
    assert kinds.says_need("An IDP is no longer required for requests, but an SF-182 is required for most "
                           "conference, event, and training requests that have a cost.")
    assert kinds.asks_need("Do I need supervisor approval to telework?") and kinds.asks_need("Am I required to go?")
    context = _page(GUILD_SPEAKERS, GUILDS)
    on, off = await _with_and_without(minilm, monkeypatch, asked, context, kinds, "NEED_STATED", 1.0)
    assert on.startswith("Like working groups, you do not need permission to participate"), on
    assert not off.startswith("Like working groups"), off


MURAL_GUESTS = ("Mural", "Usage",
                "People outside of TTS or GSA can be added as guests to the TTS workspace. Guests do not cost any "
                "money to add, so add your partners!")


def test_whether_a_count_has_a_limit_asks_the_count(minilm, monkeypatch):
    """"is there a max number of partner guests we can add to the TTS Mural workspace?" (hp73, unanswerable) was
    answered "Guests do not cost any money to add, so add your partners!": a yes/no asking whether a count has a
    limit is answered by that count, or by there being none (unstated.LIMIT_ASKED)."""
    asked = "is there a max number of partner guests we can add to the TTS Mural workspace?"
    assert _unstated(minilm, asked, _page(MURAL_GUESTS)) == {0: "a number of guests"}
    stated = ("Mural", "Guests", "You can add up to 50 guests to the TTS workspace.")
    assert _unstated(minilm, asked, _page(MURAL_GUESTS, stated)) == {}
    unlimited = ("Mural", "Guests", "There is no limit on how many guests you can add to the TTS workspace.")
    assert _unstated(minilm, asked, _page(MURAL_GUESTS, unlimited)) == {}
    monkeypatch.setattr(unstated, "LIMIT_ASKED", False)
    assert _unstated(minilm, asked, _page(MURAL_GUESTS)) == {}

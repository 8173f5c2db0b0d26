"""Question shapes the forty-third session found answered wrongly on the 18F handbook, on the page text they failed on
(hp53, hp54, written by helpers that read only the corpus, and measured before any change).

A rule with a flag is switched off once in its test, so the test fails when the rule does nothing.
"""

from __future__ import annotations

import pytest

from synthesis import pointers, sentences
from synthesis.qa import analyze, answerability, reader, topic, unstated, values
from synthesis.qa.question import Expect, expected
from synthesis.sentences import sentence_units
from synthesis.synthesize.candidates import candidates
from synthesis.synthesize.extractive import ExtractiveSynthesizer

from .test_probe51_shapes import _page
from .test_qa import _context, _with_and_without


def _missing(minilm, asked: str, context) -> list[str]:
    """The question's words that `answerability` finds no passage of `context` covering."""
    frame, units = analyze(asked), candidates(context)
    ExtractiveSynthesizer(minilm).reader.score(frame, units)
    return answerability.missing_words(frame, units, minilm.embed)

PRA_INTRO = ("PRA for user research", "Introduction",
             "Many teams at TTS must conduct small-scale UX/CX research to better understand their users' needs and "
             "determine how to better serve them. Often, teams must navigate the PRA (Paperwork Reduction Act) during "
             "this process.")
PRA = ("PRA for user research", "Determining whether you need PRA clearance > Research activities that DO NOT need PRA "
       "clearance",
       "You do not need PRA clearance if:\n\n"
       "- You are conducting research with federal employees or contractors acting within the scope of their "
       "employment.\n"
       "- You are conducting research with 9 or fewer participants over a period of 12 months.\n"
       "  - This refers to one \"instance\" of research. For example, if you are conducting interviews, usability "
       "testing and a survey during the course of one larger project, each of these activities would each be "
       "considered different \"instances\" of research.\n"
       "- You are gathering information at a public hearing, meeting or online equivalent.")
ENGAGEMENTS = ("Engagement overview", "",
               "The Implementation phase frequently includes some kind of acquisition (either an assisted acquisition "
               "operated by TTS Consulting, or acquisition consulting with a partner’s acquisition folks). The "
               "sequence and duration of acquisition work depends on the needs of the partner. CoE tends to do the "
               "acquisition work right at the beginning of Implementation, while 18F typically does any acquisition "
               "work in parallel with the Implementation activities conducted by our fed team.")
TRELLO = ("Trello", "Setup",
          "We are limited in the number of Workspace Members we can add. You will be added as a Workspace Guest. Most "
          "changes to a board will require an Admin. You can make requests in #admins-trello.")
DC_OFFICE = ("Washington DC", "Meeting rooms",
             "Office / Seats: TTS is located on the 6th floor, 4th wing (6400 rooms, in the infill). It is shared with "
             "other FAS colleagues (hi friends!).\n\nThe TTS space is in the 6400 wing, sometimes referred to as the "
             "infill. 6400 is the 4th wing on the 6th floor, located between wings 1 and 2. Meeting rooms in 6400, "
             "6100, or 6200 are closest.")
FINANCE = ("Organanizational financial management", "",
           "TTSC is part of the Federal Acquisition Service (FAS). FAS manages a revolving fund called the Acquisition "
           "Services Fund (ASF) and TTSC is funded through ASF.\n\n"
           "In contrast to appropriated funds, which are provided by Congress through the annual budget process, a "
           "revolving fund like ASF is designed to be replenished through reimbursements. This is why we must charge "
           "our partners for our actual time and material costs, plus a fixed overhead amount.\n\n"
           "Every month, utilization rates are shared with TTSC and with TTS leadership. These include a four-week "
           "rolling average and year-to-date average for each 18F chapter and CoE center.")
DEPOSITS = ("Veteran & service member resources", "Military Service Deposits (“Buying back”)",
            "Veterans can receive retirement credit for their military service. This is often called “buying back”. "
            "You’ll work with OHRM to complete paperwork and make a financial deposit covering your military service.\n"
            "- InSite has information on Military Service Deposits.\n"
            "- DFAS offers a Military Service Earnings/Buy Back Estimator.\n"
            "- Your FAS Benefits Specialist is your point of contact for questions and assistance.")
SPEAKERS = ("External speaking request playbook", "Steps > Step 1: Join the TTS Speaker’s Bureau",
            "If you want to represent TTS at an external event in your official capacity, you will need to be part of "
            "the TTS Speaker’s Bureau. In order to join the TTS Speaker’s Bureau you will need to\n\n"
            "- Create a headshot and bio in the GSA template. Examples of bios\n"
            "- Complete the Join the TTS Speaker’s Bureau form")
SPEAKER_REQUEST = ("External speaking request playbook", "Steps > Step 3: Request approval",
                   "Request that your external event point of contact complete the TTS Speaker Request Form to ensure "
                   "you have all of the critical information for the approval process, CCing speakers@gsa.gov.")
PAGES_ACCESS = ("Infrastructure", "GSA Pages > Getting access",
                "Instead of putting in a support ticket, users are granted cloud.gov Pages access by their "
                "organization manager. To find out who is an org manager for a given site, ask over in #cg-pages, and "
                "they'll direct you to your next steps. Once you have access, you can begin adding sites by following "
                "cloud.gov's instructions for adding new sites in Pages.")
PAGES_CHECK = ("Infrastructure", "GSA Pages > How to check if a site is on cloud.gov Pages",
               "1. Open a Terminal\n2. Run\n```\ncurl -Is https://<site>.gov | grep -I x-server\n```\n\n"
               "If it outputs `x-server: Cloud.gov Pages`, it's a Cloud.gov Pages site. Otherwise, it's not.")


def test_a_verb_before_a_closing_particle_is_no_kind(minilm, monkeypatch):
    """"… before the Paperwork Reduction Act kicks in?" (hp54) was refused: "kicks", after the covered "act", read
    as a kind of act no page names (topic.PHRASAL_VERBS)."""
    asked = ("How many people can I interview with the same set of questions before the Paperwork Reduction Act kicks "
             "in?")
    assert _missing(minilm, asked, _page(PRA, PRA_INTRO)) == []
    monkeypatch.setattr(topic, "PHRASAL_VERBS", False)
    assert _missing(minilm, asked, _page(PRA, PRA_INTRO)) == ["kicks"]


def test_a_particle_ends_the_clause_for_a_phrasal_verb(monkeypatch):
    present = {"act", "paperwork", "reduct", "interview"}
    asked = "How many people can I interview before the Paperwork Reduction Act kicks in?"
    assert topic.compound_modifiers(asked, {"kicks"}, present) == []
    assert topic.compound_modifiers("When does the Act kick in?", {"kick"}, present) == []
    # not a noun's compound that a particle ends ("a bike tune up": no verb form, no auxiliary before it)
    assert topic.compound_modifiers("Is there a stipend for a bike tune up?", {"tune"}, {"bike", "stipend"}) == ["tune"]
    # a kind still counts: a word before a covered noun, or a rarer one after it that no particle closes
    assert topic.compound_modifiers("Is there pet insurance?", {"pet"}, {"insur"}) == ["pet"]
    assert topic.compound_modifiers("Does the act bonus apply in DC?", {"bonus"}, {"act"}) == ["bonus"]
    monkeypatch.setattr(topic, "PHRASAL_VERBS", False)
    assert topic.compound_modifiers(asked, {"kicks"}, present) == ["kicks"]


async def test_the_verb_after_a_named_subject_is_no_kind(minilm, monkeypatch):
    """"Do CoE and 18F handle acquisition work at the same point in an engagement?" (hp53) was refused: "handle",
    before the covered "acquisition", read as a kind of acquisition (topic.NAMED_SUBJECTS)."""
    asked = "Do CoE and 18F handle acquisition work at the same point in an engagement?"
    on, off = await _with_and_without(minilm, monkeypatch, asked, _context(ENGAGEMENTS), topic, "NAMED_SUBJECTS",
                                      False)
    assert "in parallel" in on, on
    assert "in parallel" not in off, off


def test_only_a_verb_after_a_name_in_a_yes_no_question(monkeypatch):
    present = {"acquisit", "work", "engag", "coe"}
    assert topic.compound_modifiers("Does TTS handle acquisition work?", {"handle"}, present) == []
    # not in a question that opens otherwise, nor after a word that is no name
    assert topic.compound_modifiers("Which teams handle acquisition work?", {"handle"}, present) == ["handle"]
    assert topic.compound_modifiers("Does GSA offer pet insurance?", {"pet"}, {"insur", "offer", "gsa"}) == ["pet"]
    # nor a word after a name that modifies, the name no subject (review)
    assert topic.compound_modifiers("Does GSA cover PIV badge replacement?", {"badge"},
                                    {"replac", "gsa", "piv", "cover"}) == ["badge"]
    monkeypatch.setattr(topic, "NAMED_SUBJECTS", False)
    assert topic.compound_modifiers("Does TTS handle acquisition work?", {"handle"}, present) == ["handle"]


async def test_a_count_asked_of_a_long_name_is_a_count_of_its_noun(minilm, monkeypatch):
    """"How many Trello Workspace Member seats does TTS have in total?" (hp53, unanswerable) was answered with the
    DC office's 6400 wing: the counted noun is the fourth word of its phrase, and only three were read
    (unstated.LONGER_NP)."""
    asked = "How many Trello Workspace Member seats does TTS have in total?"
    assert unstated.counted_noun(asked) == "seats"
    # four words only when the asking's verb follows them (review: no adverb or participle is counted)
    assert unstated.counted_noun("How many test cases fail intermittently?") == ""
    assert unstated.counted_noun("How many CMake targets get rebuilt?") == ""
    on, off = await _with_and_without(minilm, monkeypatch, asked, _context(TRELLO, DC_OFFICE), unstated,
                                      "LONGER_NP", False)
    assert on == "", on
    assert off, off


@pytest.mark.parametrize(("asked", "percent"), [
    ("What overhead percentage does TTSC add on top of time and materials when billing partners?", True),
    ("If I buy back my military service time, what interest rate gets charged on the deposit?", True),
    ("Which flat percentage applies?", True),
    ("What percentage does 18F add on top of time and materials?", True),  # (as before)
    ("What rate does Concur use?", False),  # a rate names a thing as often
    ("How much interest has the survey drawn?", False),
    # the percentage or rate not asked of, a verb before it or a noun after it (review)
    ("What command shows percent complete for a download?", False),
    ("What does the percentage column in the report mean?", False),
    ("Which accounts earn interest rates above inflation?", False),
])
def test_a_named_percentage_is_asked(asked, percent):
    """(the flag is a key of the cached reading: switched off, "what overhead percentage" asks none; review)"""
    assert (values.asked_value(asked) == (values.PERCENT, values.PERCENT)) is percent
    if percent:  # a percentage is a quantity ("what rate" was one already)
        assert expected(asked) is Expect.QUANTITY


def test_a_named_percentage_switched_off(monkeypatch):
    monkeypatch.setattr(values, "NAMED_PERCENT", False)
    assert values.asked_value("What overhead percentage does TTSC add on top of time and materials?") is None


async def test_a_percentage_no_page_states_is_refused(minilm, monkeypatch):
    """hp53's interest rate on a military service deposit (unanswerable) was answered with the page about deposits,
    which states no rate: "what interest rate" asks a percentage (values.NAMED_PERCENT)."""
    asked = "If I buy back my military service time, what interest rate gets charged on the deposit?"
    on, off = await _with_and_without(minilm, monkeypatch, asked, _context(DEPOSITS), values, "NAMED_PERCENT", False)
    assert on == "", on
    assert off, off


def test_an_overhead_percentage_is_unstated_on_the_finance_page(minilm, monkeypatch):
    """… and "What overhead percentage does TTSC add …?" over the finance page, which says "a fixed overhead amount"
    and utilization rates but no percentage (hp53, answered with the utilization rates)."""
    asked = "What overhead percentage does TTSC add on top of time and materials when billing partners?"
    frame, units = analyze(asked), candidates(_context(FINANCE))
    ExtractiveSynthesizer(minilm).reader.score(frame, units)
    assert unstated.unstated_values(frame, units) == {0: values.PERCENT}
    monkeypatch.setattr(values, "NAMED_PERCENT", False)
    frame, units = analyze(asked), candidates(_context(FINANCE))
    ExtractiveSynthesizer(minilm).reader.score(frame, units)
    assert unstated.unstated_values(frame, units) == {}


async def test_an_unfinished_sentence_leads_its_list(minilm, monkeypatch):
    """"How do I get onto the Speaker's Bureau?" (hp54) quoted "In order to join the TTS Speaker’s Bureau you will
    need to." without the list that finishes it (sentences.UNFINISHED_LEADS)."""
    asked = "I'd like to start representing TTS at external events. How do I get onto the Speaker's Bureau?"
    on, off = await _with_and_without(minilm, monkeypatch, asked, _page(SPEAKERS, SPEAKER_REQUEST), sentences,
                                      "UNFINISHED_LEADS", False)
    assert "you will need to: Create a headshot and bio" in on, on
    assert "you will need to." in off and "you will need to:" not in off, off


def test_only_a_sentence_cut_off_leads():
    units = sentence_units("To set it up you will need the\n\n- admin password from the vault\n- API key you made")
    assert [u.lead_in for u in units if u.listed] == ["To set it up you will need the:"] * 2
    units = sentence_units("Set it up with an admin.\n\n- The admin password is in the vault\n- Ask in #help now")
    assert [u.lead_in for u in units if u.listed] == ["", ""]
    # a heading is no sentence cut off ("Who this handbook is for"), nor is a name ending on a capital "A" (review)
    units = sentence_units("## Who this handbook is for\n\n- People who are new here today")
    assert [u.lead_in for u in units] == ["Who this handbook is for"]
    units = sentence_units("Our plan is Medicare Part A\n\n- It covers hospital stays in full")
    assert [u.lead_in for u in units if u.listed] == [""]


async def test_a_how_to_heading_asks_its_question(minilm, monkeypatch):
    """"How can I tell if some .gov site is hosted on cloud.gov Pages?" (hp54) was answered with how to get access:
    the steps sit under "How to check if a site is on cloud.gov Pages", a heading that asks the very question as an
    FAQ's does (reader.HOW_TO_HEADINGS)."""
    asked = "How can I tell if some .gov site is hosted on cloud.gov Pages?"
    on, off = await _with_and_without(minilm, monkeypatch, asked, _page(PAGES_ACCESS, PAGES_CHECK), reader,
                                      "HOW_TO_HEADINGS", False)
    assert on.startswith("How to check if a site is on cloud.gov Pages: Open a Terminal."), on
    assert "curl -Is" in on, on
    assert not off.startswith("How to check"), off


def test_a_how_to_heading_is_read_as_asking(monkeypatch):
    assert reader._asks("How to check if a site is on cloud.gov Pages")
    assert reader._asks("How do I request leave")
    assert not reader._asks("Howard's onboarding notes")
    assert not reader._asks("Checking a site")
    monkeypatch.setattr(reader, "HOW_TO_HEADINGS", False)
    assert not reader._asks("How to check if a site is on cloud.gov Pages")


def test_a_step_announces_its_code_block(monkeypatch):
    """… the "2. Run" item over the command is its lead-in, as a sentence ending in ':' would be: it was dropped as
    too short, and the command hung off the heading (sentences.STEP_CODE_LEADS)."""
    units = sentence_units(PAGES_CHECK[2])
    assert [(u.text, u.lead_in) for u in units if u.code] == [
        ("curl -Is https://<site>.gov | grep -I x-server", "Run")]
    monkeypatch.setattr(sentences, "STEP_CODE_LEADS", False)
    assert [u.lead_in for u in sentence_units(PAGES_CHECK[2]) if u.code] == [""]
    # a block after prose keeps the prose's lead-in, and an item that ends a sentence announces nothing (review)
    units = sentence_units("Build it with:\n\n```\nmake all\n```")
    assert [u.lead_in for u in units if u.code] == ["Build it with:"]
    units = sentence_units("- Clone the repository from GitHub.\n```\ncargo test --workspace\n```")
    assert [u.lead_in for u in units if u.code] == [""]


def test_otherwise_points_back(monkeypatch):
    """"Otherwise, it's not." says nothing without the case before it: it is joined to that sentence
    (pointers.OTHERWISE_BACK)."""
    assert pointers.points_back("Otherwise, it's not.")
    assert pointers.points_back("If not, ask in #helpdesk.")
    assert not pointers.points_back("Other teams use Jira.")
    # a comma closes the opening: not "Otherwise-unused variables …" nor "If so desired, …" (review)
    assert not pointers.points_back("Otherwise-unused variables are reported.")
    assert not pointers.points_back("If so desired, you can pass --verbose.")
    monkeypatch.setattr(pointers, "OTHERWISE_BACK", False)
    assert not pointers.points_back("Otherwise, it's not.")



SLACK_PROFILE = ("Getting started with Slack", "How do I set up my profile?",
                 "1. Full Name: Your first and last name. _Automatic_. This will auto-populate from GSA’s Google "
                 "account for you.\n"
                 "2. Display Name: The name that will display when your teammates mention you in Slack. _Required_. "
                 "You can edit your Display Name at any time. Ex. @Tee Tiger, Team Awesome, he/him/his\n"
                 "3. Title: Your work title. _Recommended_. Ex. Executive Designer of TTS Awesomeness\n"
                 "8. Phone number: Your GSA phone number. _Optional_.")


def test_a_one_word_tag_stays_with_its_sentence(monkeypatch):
    """"Which field is actually required?" (hp53) could not be answered: each field's "_Required_." or "_Optional_."
    was a sentence of one word, dropped as too short to quote (sentences.TAG_SENTENCES)."""
    texts = [u.text for u in sentence_units(SLACK_PROFILE[2])]
    assert "Display Name: The name that will display when your teammates mention you in Slack. Required." in texts
    assert "Phone number: Your GSA phone number. Optional." in texts
    assert "Full Name: Your first and last name. Automatic." in texts
    # an abbreviation is no tag ("Ex." opens an example), nor a run-in label (review), nor a word of another paragraph
    assert "Run the tests before you push." in [u.text for u in sentence_units(
        "Run the tests before you push.\n**Warning.** Never force-push to the main branch.")]
    assert not any(t.endswith(" Ex.") for t in texts), texts
    assert [u.text for u in sentence_units("Run the whole build first.\n\nDone.")] == ["Run the whole build first."]
    monkeypatch.setattr(sentences, "TAG_SENTENCES", False)
    texts = [u.text for u in sentence_units(SLACK_PROFILE[2])]
    assert "Phone number: Your GSA phone number." in texts and not any("Optional" in t for t in texts)


PANEL = ("Your interviewers should be present for each interview. The interview panel should usually include:\n"
         "  - At least one—preferably two—chapter supervisors\n"
         "  - A representative from the diversity guild or a chapter diversity representative\n"
         "  In some cases, you may also want to include a supervisor or director from another chapter. Reach out to "
         "people with relevant expertise to be on the interview panel.\n"
         "5. Create calendar holds for several interviews the following week.")


def test_a_paragraph_after_a_nested_list_is_no_item_of_it(monkeypatch):
    """The 18F leadership selection guide's panel list (hp54): the item's next paragraph, at the nested items' indent,
    was read as the last nested item going on ("… a chapter diversity representative In some cases, …")
    (sentences.ITEM_PARAGRAPHS)."""
    texts = [u.text for u in sentence_units(PANEL)]
    assert "A representative from the diversity guild or a chapter diversity representative" in texts, texts
    assert any(t.startswith("In some cases, you may also want to include") for t in texts), texts
    # a line indented under an item's text still continues it, and so does a wrapped line at its indent (review)
    assert [u.text for u in sentence_units("- A representative from\n    the diversity guild\n")] == [
        "A representative from the diversity guild"]
    assert [u.text for u in sentence_units("- Top\n  - Features are unified with the\n  features of normal deps.")] == [
        "Features are unified with the features of normal deps."]
    monkeypatch.setattr(sentences, "ITEM_PARAGRAPHS", False)
    assert any("representative In some cases" in u.text for u in sentence_units(PANEL))


PARTNER_SATISFACTION = ("TTS Consulting planning", "Success measures > Partner satisfaction",
                        "How we measure partner satisfaction:\n\n"
                        "- TTSC Customer Listening Tour. Beginning in FY24, the TTSC director, along with some "
                        "helpers, interviewed the primary points of contact for most of our active engagements. "
                        "Questions focus on perceived value for the cost of our services and likelihood to use us "
                        "again or recommend us.\n"
                        "  - See: Client Listening Tour 2024 in Google Drive\n"
                        "- 18F Partner Satisfaction Surveys. For several years, 18F account managers have conducted "
                        "partner satisfaction surveys after an engagement ends. These surveys are structured "
                        "interviews. In FY24, began collecting them throughout the delivery cycle: 90 days after the "
                        "engagement/project starts, and for longer engagements, every six-months thereafter. The "
                        "feedback from these interviews is analyzed and shared out in a quarterly cadence.\n"
                        "  - FY24 benchmarks were:\n"
                        "    - 50% or more of partner satisfaction survey respondents report being Likely or Very "
                        "Likely to recommend 18F to others")


def test_a_name_the_question_writes_with_a_number_is_no_time(monkeypatch):
    """"When do 18F account managers first run a partner satisfaction interview after a project kicks off?" (hp54)
    was answered 'high' with "For several years, 18F account managers have conducted partner satisfaction surveys
    after an engagement ends.": the "18" of "18F", a name the question writes, held the time asked
    (kinds.TOLD_CODES)."""
    from synthesis.qa import kinds

    asked = "When do 18F account managers first run a partner satisfaction interview after a project kicks off?"
    part = analyze(asked).parts[0]
    units = {u.text.split(". ")[0]: u for u in candidates(_context(PARTNER_SATISFACTION))}
    for u in units.values():
        u.kinds = kinds.answer_kinds(u.text)
    several = units["For several years, 18F account managers have conducted partner satisfaction surveys after an "
                    "engagement ends"]
    ninety = units["In FY24, began collecting them throughout the delivery cycle: 90 days after the engagement/project "
                   "starts, and for longer engagements, every six-months thereafter."]
    assert not kinds.holds(part, several) and kinds.holds(part, ninety)
    # a measure the asker states is no name: the sentence confirming it holds it (review)
    told = analyze("I heard it takes 48h to get GitHub access. How long does it actually take?").parts[0]
    assert not kinds._names_told_numbers_only(told, "Access requests are processed within 48h.")
    monkeypatch.setattr(kinds, "TOLD_CODES", False)
    assert kinds.holds(part, several)


SHORT_MOVE = ("Moving and changing your address", "Short-term relocation",
              "If you are relocating for 120 days or less, you do not need to notify PeopleOps or update GSA systems.")
DETAIL = ("Details within GSA", "Applying to a GSA Detail",
          "All details of GSA employees to other Federal agencies or departments should be reimbursable: this means "
          "the other agency will pay the employee’s salary.")


async def test_who_covers_a_cost_no_page_says_is_refused(minilm, monkeypatch):
    """"If I take a GSA detail in an office in another city, will GSA cover my relocation costs?" (hp54, which no page
    answers) was answered with the short-term relocation rule: a sentence about the costs asked must say who pays,
    covers, funds or reimburses them (unstated.COVERED_COSTS)."""
    asked = "If I take a GSA detail in an office in another city, will GSA cover my relocation costs?"
    on, off = await _with_and_without(minilm, monkeypatch, asked, _context(SHORT_MOVE, DETAIL), unstated,
                                      "COVERED_COSTS", False)
    assert on == "", on
    assert "relocating for 120 days" in off, off


@pytest.mark.parametrize(("asked", "thing"), [
    ("Will GSA cover my relocation costs?", "relocation"),
    ("Will TTS pay for my conference fees?", "conference"),
    ("Does TTS cover the cost of a gym membership?", "gym membership"),
    ("Will the agency pick up the bill for my home internet?", "home internet"),
    ("Will GSA reimburse my moving costs?", "my moving costs"),  # (as before)
    # no payer named, or no cost asked (review)
    ("Does the plan cover dental?", ""),
    ("Does the travel training cover expense reports?", ""),
    ("Can I use my purchase card to pay for conference registration fees?", ""),
    ("Will my health insurance cover the costs of therapy?", ""),
])
def test_a_covered_cost_is_named(asked, thing):
    assert unstated.reimbursed(asked)[0] == thing


def test_doing_it_points_at_no_told_thing(monkeypatch):
    """"Someone asked me to speak at a meetup. What's the practical difference between doing it in my official
    capacity vs my personal capacity …?" (hp54) was refused for "meetup": "doing it" stands for the speaking asked
    of the asker, not for the meetup the statement names (pointing.DO_IT)."""
    from synthesis.qa import pointing

    asking = "What's the practical difference between doing it in my official capacity vs my personal capacity?"
    assert not pointing._points_back(asking)
    assert pointing._points_back("Will TTS pay for it?")  # (as before)
    assert pointing._points_back("Is doing this one allowed?")  # "one" still points back
    # "it" after "do" as a helper, or "do it" for the very thing told, still points back (review)
    assert pointing._points_back("Does it cover dental?")
    assert pointing._points_back("What happens if I do it late?")
    monkeypatch.setattr(pointing, "DO_IT", False)
    assert pointing._points_back(asking)

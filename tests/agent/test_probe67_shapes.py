"""Question shapes the forty-ninth session found refused or answered wrongly on the 18F handbook, on the page text
they failed on (hp67–hp69, written by helpers that read only the corpus, and measured before any change).

A rule with a flag is switched off once in its test, so the test fails when the rule does nothing.
"""

from __future__ import annotations

from synthesis.qa import analyze, answerability, kinds, topic, unstated, values
from synthesis.qa.question import Expect, expected
from synthesis.synthesize import candidates as candidates_module
from synthesis.synthesize.base import Context
from synthesis.synthesize.candidates import candidates
from synthesis.synthesize.extractive import ExtractiveSynthesizer

from .test_probe51_shapes import _page
from .test_probe53_shapes import _missing
from .test_qa import _answer, _context, _with_and_without

HISTORY = ("TTS mission, history, and values", "Our history",
           "In 2012, the White House launched the Presidential Innovation Fellows (PIF) program to bring technologists "
           "in for short tours of duty in government. The next year, the PIF program found a permanent home at GSA "
           "and a group of PIFs started thinking about how they could extend their impact on government. In December "
           "2013, eight PIFs left the fellowship to become GSA employees and created a lean startup inside "
           "government.")
DRIVE = ("Google Drive", "",
         "a.k.a. G Suite\n\nGoogle Drive is a cloud storage and file backup system. We use Google Drive to keep track "
         "of our project work and templates as well as collaborate on documents, presentations, and spreadsheets. You "
         "don't need to install anything to use our Google Drive.")
SHARING = ("Google Drive", "Permissions and sharing",
           "Everything in Google Drive can be FOIA’ed.\n\nYou can share files with the entire TTS team by adding "
           "tts@gsa.gov, opp-team@gsa.gov, or 18f-team@gsa.gov in the Share menu.")
SAFE = ("Collaboration tools", "Sharing files",
        "SAFE: GSA's Secure Access File Exchange lets you share files that are too large for email. SAFE can handle "
        "files up to 8.0 GB.")
HUDDLES = ("Getting started with Slack", "Do all TTS teams use Slack the exact same way?",
           "No, and that’s okay! Each team develops norms and culture around how they use Slack. For example, teams "
           "may use the Huddle call feature for their daily standups; others may decide to use Slack as a text-only "
           "form of communication. Talk to your supervisor and onboarding buddy about your team’s Slack norms.")
SLACK = ("Getting started with Slack", "What is Slack?",
         "Slack is used at TTS as a means of daily communication and coordination. It allows us to join channels — "
         "specific workspaces that bring the relevant people and information together — and directly message people "
         "or smaller groups.\n\nYou can also use a call feature within Slack called “Huddles.”")
INTERVIEWS = ("18F Leadership Selection Guide", "Evaluating candidates",
              "Create calendar holds for several interviews the following week. Remember, time zones are a thing, and "
              "the open space on your calendar may be at 7 a.m. for your candidate.\n\nThe calendar hold should be "
              "for at least 45 minutes (preferably an hour) and be sure to keep all the interview times equal.\n\n"
              "Toward the end of the week, be sure to make at least one additional call for nominations. You cannot "
              "over-publicize.")
PUBLICIZE = ("18F Leadership Selection Guide", "Getting started",
             "Set your deadline. That deadline should be a minimum of five days and preferably longer.\n\nSubmit "
             "materials to Talent. Talent will publicize the position on #tts-jobs and on the TTS Jobs Handbook "
             "page.\n\nPublicize the open position and nomination form on Slack in any relevant channels, to the "
             "appropriate email distribution list for your chapter or portfolio.")
DATES = ("Performance management dates", "FY25 Mid-year",
         "Date: April 3, 2025; Item: OHRM Guidance on FY25 Mid-year Reviews will be emailed to supervisors and "
         "employees around this date.\n\nDate: April 1 - May 27, 2025; Item: Employees complete mid-year "
         "Self-Assessment prior to a 1:1 performance conversation with their Supervisor.\n\nDate: May 28, 2025; Item: "
         "Supervisor signs & submits mid-year evaluation in HR Links for direct reports to review and acknowledge.")
STEPS = ("Mid Year Performance Management", "Entering a self-assessment",
         "Self-assessments are not required for the mid year review; however, Supervisors can request that their "
         "direct reports submit one.\n\n- Step-by-step instructions:\n  - Employee\n    - We strongly recommend "
         "that you draft your self-assessment using Google Docs to avoid losing it if HRLinks crashes due to "
         "inactivity.\n    - If you need to make adjustments, you can \"stop sharing\" the self-assessment with your "
         "Supervisor as long as their Mid-Year has not been completed.\n  - No action required by supervisor\n\n"
         "HR Links in-depth guide (with screenshots): Create a Mid Year Self-Assessment; Employee (Section 3, Topic "
         "3.3)")


async def test_pay_asked_as_what_someone_gets_paid_needs_an_amount(minilm, monkeypatch):
    """"How much do Presidential Innovation Fellows get paid?" (hp67, unanswerable) was answered "In December 2013,
    eight PIFs left the fellowship …": a number, but no pay (values.PAID_ASKED)."""
    on, off = await _with_and_without(minilm, monkeypatch, "How much do Presidential Innovation Fellows get paid?",
                                      _page(HISTORY), values, "PAID_ASKED", False)
    assert on == "", on
    assert "eight PIFs" in off, off


def test_only_how_much_then_its_verb_asks_pay():
    paid = values._ASKS_PAID.search
    assert paid("How much does a GS-13 make?") and paid("how much will I earn as an intern")
    assert paid("How much are fellows paid?")
    # (review) "make use of", "make a difference", "paid out" for leave: no pay asked
    assert not paid("How much do we make use of Slack huddles?")
    assert not paid("How much does the team make a difference?")
    assert not paid("How much do I get paid out for unused leave?")
    # something else measured, or what an activity pays: no amount of pay asked
    assert not paid("How much leave do I get paid for?")
    assert not paid("How much do I get paid for overtime?")
    assert not paid("How much does it make sense to spend?")


async def test_storage_asked_needs_a_size(minilm, monkeypatch):
    """"How much storage do we get in our GSA Google Drive? Is there a GB cap?" (hp67, unanswerable) was answered
    with what Drive is and how to share: no size of storage (values.SIZES_ASKED)."""
    asked = "How much storage do we get in our GSA Google Drive? Is there a GB cap?"
    on, off = await _with_and_without(minilm, monkeypatch, asked, _page(DRIVE, SHARING), values, "SIZES_ASKED",
                                      False)
    assert on == "", on
    assert "Google Drive" in off, off


async def test_a_stated_size_still_answers(minilm):
    """… and a page that states one answers ("SAFE can handle files up to 8.0 GB")."""
    stated = (await _answer(minilm, "What's the file size limit for SAFE?", _page(SAFE))).summary
    assert "8.0 GB" in stated, stated
    assert expected("what's the storage limit on our GSA Gmail mailboxes?") is Expect.QUANTITY
    assert values.asked_value("How big can an attachment be?") == (values.SIZE, values.SIZE)
    # not a size: the space of an office, data collected; (review) a limit of messages, receipts or files counted
    assert values.asked_value("How much space is there in the DC office?") is None
    assert values.asked_value("How much data do we collect in the survey?") is None
    assert values.asked_value("How much storage space do I get at my desk in the DC office?") is None
    assert values.asked_value("Is there an email limit for how many messages I can send per day?") is None
    assert values.asked_value("What's the attachment limit for a Concur expense report?") is None
    assert values.asked_value("What's the maximum size of a working group?") is None
    assert values.asked_value("What's the maximum size of an email attachment?") == (values.SIZE, values.SIZE)
    assert values.states_value("Slack limits file uploads to 1 gigabyte", values.SIZE)


async def test_a_number_of_people_asked_needs_a_count(minilm, monkeypatch):
    """"what's the max number of people that can be in one Slack huddle?" (hp67, unanswerable) was answered with
    sentences that count no one: "number of people" asks a count as "how many people" does
    (unstated.PEOPLE_NUMBER_OF)."""
    asked = "what's the max number of people that can be in one Slack huddle?"
    assert unstated.counted_people("the maximum number of days I can telework") == "days"  # (a unit: asked_value's)
    on, off = await _with_and_without(minilm, monkeypatch, asked, _page(SLACK, HUDDLES), unstated,
                                      "PEOPLE_NUMBER_OF", False)
    assert on == "", on
    assert "Huddle" in off, off


def test_a_slot_asked_how_long_is_the_span_asked(minilm, monkeypatch):
    """"how long should each interview slot be when I set up calendar holds for the leadership panel?" (hp68) was
    refused for "slot", read as a kind of interview (topic.SLOT_SPANS)."""
    asked = "how long should each interview slot be when I set up calendar holds for the leadership panel?"
    context = _page(INTERVIEWS, PUBLICIZE)
    assert "slot" not in _missing(minilm, asked, context)
    monkeypatch.setattr(topic, "SLOT_SPANS", False)
    assert "slot" in _missing(minilm, asked, context)


def test_a_conditions_verb_is_no_topic(minilm, monkeypatch):
    """"When Talent advertises an 18F leadership opening, where does it get posted?" (hp68) was refused for
    "advertises" (the page says "publicize"): the verb of the asker's condition (topic.CLAUSE_VERBS)."""
    asked = "When Talent advertises an 18F leadership opening, where does it get posted?"
    context = _page(PUBLICIZE, INTERVIEWS)
    assert "advertises" not in _missing(minilm, asked, context)
    monkeypatch.setattr(topic, "CLAUSE_VERBS", False)
    assert "advertises" in _missing(minilm, asked, context)


def test_only_a_verb_only_form_after_the_conditions_subject():
    verbs = topic.story_verbs
    assert "approved" in verbs("When my supervisor approved the leave, was it logged?")
    # (review) the case asked of is no story: "What happens if my PIV card expires?"
    assert "expires" not in verbs("What happens if my PIV card expires?")
    # a form that is also a noun may be what is asked of
    assert "interviews" not in verbs("When Talent interviews are scheduled, who joins?")
    assert "posts" not in verbs("If the team posts updates, where do they go?")


def _unstated(minilm, asked: str, context) -> dict[int, str]:
    frame, units = analyze(asked), candidates(context)
    ExtractiveSynthesizer(minilm).reader.score(frame, units)
    return unstated.unstated_values(frame, units)


def test_a_window_asked_by_name_is_answered_by_its_dates(minilm, monkeypatch):
    """"FY25 mid-year: what's the window for doing my self-assessment, and what date does my supervisor submit the
    evaluation in HR Links?" (hp67) answered its first part with "Self-assessments are not required …": a window
    asked by name asks dates (values.WINDOWS_ASKED)."""
    asked = "FY25 mid-year: what's the window for doing my self-assessment?"
    assert expected(asked) is Expect.QUANTITY
    assert _unstated(minilm, asked, _page(STEPS)) == {0: values.WAIT}  # the steps page dates nothing
    assert _unstated(minilm, asked, _page(STEPS, DATES)) == {}
    monkeypatch.setattr(values, "WINDOWS_ASKED", False)
    assert expected(asked) is Expect.OTHER
    assert _unstated(minilm, asked, _page(STEPS)) == {}
    monkeypatch.setattr(values, "WINDOWS_ASKED", True)
    assert values.asked_value("What are the dates for open season?") == (values.WAIT, values.WAIT)
    # (review) a timeframe is as often a length: "three to six months" states it
    timeframe = ("Background investigations", "", "Background investigations typically take three to six months.")
    assert _unstated(minilm, "What is the time frame for a background investigation?", _page(timeframe)) == {}
    assert values.asked_value("What's the Windows laptop for interns?") is None


def _signed_page(*sections: tuple[str, str, str], author: str) -> Context:
    """`_page`, its chunks carrying the author ingest read off the page (`ingest.authors`)."""
    page = _page(*sections)
    for s in page.sources:
        s.passage.metadata["author"] = author
    return page


LETTER = ("New Supervisor Playbook", "Congratulations!",
          "Whether you are starting your supervisory career for the first time or joining TTS as a new hire, it can be "
          "daunting to step into a supervisory role and feel successful at the start. I have written this playbook to "
          "document my experience re-joining TTS as an Engineering Supervisor after serving as a people manager and "
          "business unit director in previous jobs.")
PLAYS = ("New Supervisor Playbook", "The plays",
         "Each play contains a short description about the philosophy and goals behind it and a small checklist to "
         "help guide you.")


async def test_who_wrote_a_page_is_its_signed_author(minilm, monkeypatch):
    """"Who wrote the New Supervisor Playbook?" was asked in five sets (hp16, hp26, hp46, hp53, hp66), never answered:
    the page's sign-off is two chunks after "I have written this playbook …". Its author, stored with every chunk,
    is a line of the page for a question asking who wrote it (candidates.AUTHORED)."""
    on, off = await _with_and_without(minilm, monkeypatch, "Who wrote the New Supervisor Playbook?",
                                      _signed_page(LETTER, PLAYS, author="Carlo Costino"), candidates_module,
                                      "AUTHORED", False)
    assert "Author: Carlo Costino" in on, on
    assert "Costino" not in off, off


async def test_an_author_answers_only_who_wrote(minilm):
    """… not another who-question of the page, nor who created or founded something."""
    page = _signed_page(LETTER, PLAYS, author="Carlo Costino")
    summary = (await _answer(minilm, "Who should a new supervisor make time for?", page)).summary
    assert "Costino" not in summary, summary
    # (review) nor the author of another page than the one asked of
    other = (await _answer(minilm, "Who wrote the content guide?", page)).summary
    assert "Costino" not in other, other
    assert kinds.asks_author("who's the author of the style guide?") and kinds.asks_author("Who put together this?")
    assert not kinds.asks_author("Who created the PIF program?")
    assert not kinds.asks_author("Who reviews what I have written?")
    assert not kinds.asks_author("Who writes the performance plans for my direct reports?")
    assert not kinds.asks_author("Is the author of a PR allowed to merge it?")


ISSUE_TITLE = ("Writing Lab 101", "Guidelines for submitting an issue > Writing a good issue title",
               "The best issue titles have three elements, in this order: team, content type, content name.\n\nFor "
               "example:\n\n- Talent - Performance Profile - Front end dev\n- Accessibility - Guide - Images "
               "section\n\nSince this is all internal, feel free to use common shortening and abbreviations in your "
               "titles. Having this information helps members of the Lab pick issues that are right for them.")
GITHUB_ISSUES = ("GitHub", "Issues",
                 "If you want to make a suggestion to an TTS project without making a specific change to its code, "
                 "such as if you aren't sure how to fix a problem or want clarification before fixing something, file "
                 "an issue on that project via GitHub. Try searching the list of open issues before you add one; the "
                 "error you see might already be on the team's radar.")


async def test_a_page_titled_by_the_word_is_no_other_place(minilm, monkeypatch):
    """"How should I title the GitHub issue when I submit something to the Writing Lab?" (hp68) was refused: "GitHub"
    is on the GitHub page and not on the Writing Lab's, read as a sibling place's word, as the San Francisco page's gym
    is for a Chicago question. A page titled by the word is the word's own page (answerability.OWN_TITLES)."""
    asked = "How should I title the GitHub issue when I submit something to the Writing Lab?"
    on, off = await _with_and_without(minilm, monkeypatch, asked, _context(ISSUE_TITLE, GITHUB_ISSUES), answerability,
                                      "OWN_TITLES", False)
    assert "team, content type, content name" in on, on
    assert off == "", off

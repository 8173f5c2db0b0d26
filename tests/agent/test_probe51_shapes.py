"""Question shapes the forty-second session found answered wrongly on the 18F handbook, on the page text they failed on
(hp50, hp51, hp52, written by helpers that read only the corpus, and measured before any change).

A rule with a flag is switched off once in its test, so the test fails when the rule does nothing.
"""

from __future__ import annotations

import pytest

from synthesis.models import Passage
from synthesis.qa import kinds
from synthesis.qa.question import Expect, analyze, expected
from synthesis.synthesize.base import Context, ContextSource

from .test_qa import _answer, _context, _with_and_without

SLACK_TIPS = ("Slack communication and notification best practices",
              "Do you have any tips on how not to get overwhelmed by Slack?",
              "Slack can be overwhelming for both new and existing employees!\n\n"
              "Remember that you don’t have to be a part of every conversation, and you can join and leave public "
              "channels as much as you want. Though you may get invited to channels, you don’t have to stay. Of "
              "course, check with your supervisor before leaving a channel designed specifically for your team. If "
              "you leave a private channel, you will need to be added by a current channel member in order to return.")
SLACK_PUBLIC = ("External collaboration through Slack", "Collaborating with the public on Slack",
                "TTS has specific channels in Slack that the public can join. These channels end with -public. (Note: "
                "In Slack's parlance, all channels in a workspace are either public, allowing any full member to "
                "find/join, or private. However, when we say \"public channels\" on this page, we mean channels open "
                "to all members of the public.)\n\n"
                "To invite people to a public Slack channel, send them to chat.18f.gov and have them select the "
                "appropriate channel from the drop-down. Note that these users are added as single-channel guests.")
CALENDAR = ("Google Calendar", "Change default event durations",
            "Google Calendar's default event duration is 30 minutes. If you want to change it:\n\n"
            "1. In the Settings menu, click Settings.\n"
            "2. Under General > Event Settings, choose 15, 30, 60, 90, or 120 minutes.\n"
            "3. For even shorter meetings, select Speedy meetings. 30 minute meetings become 25 minutes; 60 become 50, "
            "90 become 80, and 120 become 110.\n"
            "4. Click Save.")
CALENDAR_PERMISSIONS = ("Google Calendar", "Change default event permissions",
                        "Google Calendar's default event permissions prohibit guests from modifying the events to "
                        "which they're invited.")
DUTIES = ("Supervisor responsibilities", "",
          "Supervisor responsibilities are generally outlined in the TTS New Supervisor Playbook and the TTS "
          "Supervisors Guide. Performance plans also lay out specific expectations for TTSC supervisors.\n\n"
          "At a high-level, TTSC supervisors are expected to provide their direct reports with:\n\n"
          "- Being a thought partner and reviewer for engagement work, ensuring the deliverables meet quality "
          "standards and advance the engagement goals\n"
          "- Help completing administrative tasks\n"
          "- Providing context on our organization and ways of working\n"
          "- Collecting peer feedback and conducting performance reviews\n"
          "- Supporting professional development\n\n"
          "TTSC supervisors are also responsible for regularly conducting the following administrative tasks:")
WEEKLY = ("Supervisor responsibilities", "Weekly",
          "- Check that your direct reports are Tocking correctly.\n"
          "- 18F: Fill out the data check form. Report any Airtable discrepancies, and follow up with your direct "
          "report on any necessary Tock changes.\n"
          "- 18F: Attend GMT meetings.\n"
          "- CoE: Attend “CoE Management Weekly” meetings")
QUARTERLY = ("Supervisor responsibilities", "Quarterly/semi-annually",
             "- Collect peer observations on your direct report’s work, synthesize, and share with them.\n"
             "- Talk to your direct reports about their progress towards performance goals.")
ROLLING = ("Supervisor responsibilities", "Rolling basis",
           "- Help match direct reports to incoming work\n"
           "- When one of your direct report starts on a new engagement, reach out to the AM and PL/EL to introduce "
           "yourself and offer to help as needed\n"
           "- Onboarding new team members\n"
           "- Offboard departing staff and conduct exit interviews")
def _page(*sections: tuple[str, str, str]) -> Context:
    """(title, section, content) chunks of one page, numbered 1..n, best first."""
    return Context(sources=[
        ContextSource(number=i, passage=Passage(id=f"page#{i}", doc_id="page.md", content=content, score=0.6 - 0.02 * i,
                                                title=title, section=section, chunk_index=i))
        for i, (title, section, content) in enumerate(sections, start=1)])


PUBLIC_OR_PRIVATE = ("What's the difference between leaving a public Slack channel and leaving a private one if I "
                     "later want back in?")


async def test_the_compared_word_picks_a_sides_line(minilm, monkeypatch):
    """"… leaving a public Slack channel and leaving a private one …" (hp50) answered the public side with how to
    invite people to a public channel: what the sides share ("leave") is what is compared (selection.COMMON_ASPECT)."""
    from synthesis.qa import selection

    on, off = await _with_and_without(minilm, monkeypatch, PUBLIC_OR_PRIVATE, _context(SLACK_PUBLIC, SLACK_TIPS),
                                      selection, "COMMON_ASPECT", False)
    # the public side's answer leads, the private side's follows
    assert on.startswith("Remember that you don’t have to be a part of every conversation, and you can join and leave "
                         "public channels") and "current channel member" in on, on
    assert not off.startswith("Remember that"), off


async def test_a_pro_form_side_leaves_the_head_noun_to_both(minilm, monkeypatch):
    """… and "a private one" stands for "a private Slack channel": the public side is named by "public" alone, so
    "you can join and leave public channels" names it though it lacks "Slack" (sides.PRO_FORM_SIDES)."""
    from synthesis.qa import sides

    on, off = await _with_and_without(minilm, monkeypatch, PUBLIC_OR_PRIVATE, _context(SLACK_PUBLIC, SLACK_TIPS),
                                      sides, "PRO_FORM_SIDES", False)
    assert "join and leave public channels" in on, on
    assert "join and leave public channels" not in off, off


def test_what_a_pro_form_leaves_names_the_side():
    from synthesis.qa.sides import _before_pro_form, names_whole

    assert _before_pro_form("leaving a private one if I later want back in") == 1
    assert _before_pro_form("the old ones") == 1
    assert _before_pro_form("one of the new hires") == 0  # a number, not a pro-form
    assert names_whole("leaving a public Slack channel", "you can join and leave public channels", "",
                       ["leaving a private one"])
    # without a pro-form the whole phrase is needed, as before
    assert not names_whole("a variable day schedule", "you may work fewer than 10 days", "",
                           ["a variable week schedule"])


async def test_changing_how_long_asks_the_steps(minilm, monkeypatch):
    """"How do I change how long new Google Calendar events are by default?" (hp51) was answered 'high' with "Google
    Calendar's default event duration is 30 minutes." alone: the embedded "how long" read as the question
    (question.CHANGED_MEASURE)."""
    from synthesis.qa import question

    asked = "How do I change how long new Google Calendar events are by default?"
    on, off = await _with_and_without(minilm, monkeypatch, asked, _context(CALENDAR, CALENDAR_PERMISSIONS), question,
                                      "CHANGED_MEASURE", False)
    assert "Click Save" in on, on
    assert "Click Save" not in off, off


def test_a_changed_measure_is_a_procedure():
    assert expected("How do I change how long new Google Calendar events are by default?") is Expect.PROCEDURE
    assert expected("How can I set how many days the archive keeps?") is Expect.PROCEDURE
    # the measure itself is still a quantity
    assert expected("How long are new Google Calendar events by default?") is Expect.QUANTITY
    assert expected("How often do I have to change my password?") is Expect.QUANTITY


async def test_a_heading_naming_the_asked_case_answers(minilm, monkeypatch):
    """"What are TTSC supervisors expected to do on a quarterly or semi-annual basis?" (hp52) was answered with the
    page's general duties: the items under "Quarterly/semi-annually" repeat none of the question's words, and their
    heading is the case asked (reader.NAMED_SECTION)."""
    from synthesis.qa import reader

    asked = "What are TTSC supervisors expected to do on a quarterly or semi-annual basis?"
    on, off = await _with_and_without(minilm, monkeypatch, asked, _page(DUTIES, WEEKLY, QUARTERLY, ROLLING), reader,
                                      "NAMED_SECTION", False)
    assert on.startswith("Quarterly/semi-annually: Collect peer observations") and "performance goals" in on, on
    assert not off.startswith("Quarterly/semi-annually"), off


def test_a_heading_of_the_topics_own_word_names_no_case(minilm, monkeypatch):
    """A section heading the lines themselves use ("Weekly" over lines saying "weekly") names no case of its own; a
    line of another section that uses the case's words is inside it (not lowered)."""
    from synthesis.qa import reader
    from synthesis.qa.reader import Reader
    from synthesis.synthesize.candidates import candidates

    meetings = ("Meetings", "Weekly", "- Attend the weekly staff sync.\n- Post weekly notes in the team channel.\n"
                "- Review the weekly metrics with your lead.")
    frame = analyze("What happens at the weekly staff sync?")
    units = candidates(_context(meetings))
    Reader(minilm.embed).score(frame, units)
    assert not any(c.named_case[0] for c in units)
    asked = analyze("What are TTSC supervisors expected to do on a quarterly or semi-annual basis?")
    units = candidates(_page(DUTIES, QUARTERLY, ("Supervisor responsibilities", "Reviews",
                                                 "Peer reviews are collected quarterly.")))
    Reader(minilm.embed).score(asked, units)
    assert [c.text[:7] for c in units if c.named_case[0]] == ["Collect", "Talk to"]
    on = {c.text[:12]: c.plain[0] for c in units}
    monkeypatch.setattr(reader, "NAMED_SECTION", False)
    Reader(minilm.embed).score(asked, units)
    off = {c.text[:12]: c.plain[0] for c in units}
    assert on["At a high-le"] < 0.9 * off["At a high-le"]  # a line of the page outside the case is lowered …
    assert on["Peer reviews"] == pytest.approx(off["Peer reviews"])  # … not one that uses its words
    monkeypatch.setattr(reader, "NAMED_SECTION", True)
    # a structural heading names no case: "Overview", "Next steps"
    overview = ("Travel", "Overview", "Book flights and hotels in Concur.")
    units = candidates(_page(overview))
    Reader(minilm.embed).score(analyze("Can you give me an overview of how travel booking works?"), units)
    assert not any(c.named_case[0] for c in units)
    # a heading naming the word a part modifies names something else: "Setup" of a GitHub page is no
    # "commit-signing setup"; nor does a case the asker tells ("I'm on a gliding schedule") name what is asked
    setup = ("GitHub", "Setup", "GitHub is a web application, and you may be able to do all of your work within the "
             "github.com website.")
    signing = ("Git commit signing", "Using GitHub on the web does not require signing",
               "If you only use GitHub from the web interface, you do not need to configure signing.")
    asked = analyze("I only ever make changes through the GitHub website, never in a local clone. Do I still have to "
                    "go through the whole commit-signing setup?")
    units = candidates(_context(setup, signing))
    Reader(minilm.embed).score(asked, units)
    assert not any(c.named_case[0] for c in units)
    gliding = ("Work schedules", "Gliding", "You work 8 hours, 5 days a week.")
    asked = analyze("I'm on a gliding schedule and sometimes stay late. How many credit hours can I have banked?")
    units = candidates(_context(gliding))
    Reader(minilm.embed).score(asked, units)
    assert not any(c.named_case[0] for c in units)



async def test_reaching_out_to_an_initialism_names_someone(minilm, monkeypatch):
    """"My direct report just got staffed on a new engagement. As their TTSC supervisor, who am I supposed to reach
    out to?" (hp52) was answered 'high' with the supervisor's general duties: "reach out to the AM and PL/EL" held no
    role a pattern reads (kinds.CONTACTED_ACRONYM), and the asker's own role ("As their TTSC supervisor") answered."""
    asked = ("My direct report just got staffed on a new engagement. As their TTSC supervisor, who am I supposed to "
             "reach out to?")
    on, off = await _with_and_without(minilm, monkeypatch, asked, _context(DUTIES, WEEKLY, QUARTERLY, ROLLING),
                                      kinds, "CONTACTED_ACRONYM", False)
    assert on.startswith("Rolling basis: When one of your direct report") and "PL/EL" in on, on
    assert "PL/EL" not in off.split("[1]")[0], off


def test_whom_one_reaches_and_who_asks():
    assert Expect.WHO in kinds.answer_kinds("reach out to the AM and PL/EL to introduce yourself")
    assert Expect.WHO in kinds.answer_kinds("Check with your COR before you accept the deliverable.")
    assert Expect.WHO not in kinds.answer_kinds("Please email the PDF to the front desk queue")  # no contact verb
    asked = ("My direct report just got staffed on a new engagement. As their TTSC supervisor, who am I supposed to "
             "reach out to?")
    assert kinds.asker_roles(asked, analyze(asked).parts[0]) == {"supervisor"}
    # "their" inside a sentence is someone else's
    told = "I work with their supervisor daily. Who do I ask about leave?"
    assert kinds.asker_roles(told, analyze(told).parts[0]) == set()


PRINCIPLES = ("Consulting with partners", "Principles for consulting work",
              "We build trust when we’re able to demonstrate the value of our deep technology expertise by showing, "
              "with clarity and conviction, how new approaches can help our partners. In addition, we keep these "
              "principles in mind as we engage with partners:\n\n"
              "- **Empathy:** Changing how government approaches technology is hard, slow, and incremental work — "
              "both for us and for our partners. Our work is more effective when we bring compassion and patience to "
              "the constraints of our partners and appreciate the risks they face in spearheading change.\n"
              "- **Curiosity:** The more we can ground our work in genuine curiosity about their mission and the "
              "details of delivering on that mission, the more our recommendations will be concrete, transformative, "
              "and possible.\n"
              "- **Humility:** We are not experts in other agencies’ work. If we can gain their trust, our partners "
              "are our best guides to their organization, users, processes, and opportunities, and we learn as much "
              "from them as they learn from us.\n"
              "- **Transparency:** Our work is best when we bring partners along through everything we do. Showing "
              "them the process helps us model the work and build a foundation for them to take it over.")


async def test_a_long_list_is_quoted_by_its_items_first_sentences(minilm, monkeypatch):
    """"What principles does 18F keep in mind when consulting with partners?" (hp51) quoted three items whole and ran
    out of room before "Transparency" (quotes.LIST_HEADS)."""
    from synthesis.synthesize import quotes

    asked = "What principles does 18F keep in mind when consulting with partners?"
    on, off = await _with_and_without(minilm, monkeypatch, asked, _context(PRINCIPLES), quotes, "LIST_HEADS", False)
    assert "Transparency: Our work is best when we bring partners along" in on and "Humility" in on, on
    assert "compassion and patience" not in on, on  # an item's later sentence is left out
    assert "Transparency" not in off, off


FINALIZING = ("Book travel in Concur and secure approvals", "Brief overview of finalizing approvals",
              "Once you have finalized your reservations, there are still a few more steps to follow through on.\n\n"
              "1. Completing trip information, including relevant details about your trip.\n"
              "2. Justify any rental car use or personal vehicle mileage claims, when applicable.\n"
              "3. Stamp and submit authorization, ensuring your authorization is in SUBMIT TO APPROVER status.\n"
              "4. If you haven't done so already, secure written approval from your authorizing official and send it "
              "to tts-travelauths@gsa.gov so the TTS travel team can likewise approve your trip in the system.\n\n"
              "Ensure all of the above steps are completed no later than 3:30 PM ET the last business day before "
              "travel to give the travel team sufficient time to review.")
RESERVATIONS = ("Book travel in Concur and secure approvals", "",
                "Any reservations made in Concur will be held until approvals are secured and finalized-- nothing is "
                "charged to you, your travel card, or GSA.")
EMAIL_TEMPLATES = ("Travel Approval Email Templates", "",
                   "Jump to Step 2: Booking Travel >\n\nUse these templates to request approval by email.")


async def test_numbered_steps_under_their_heading_are_quoted_together(minilm, monkeypatch):
    """"My reservations are done in Concur. What else do I have to do to finalize the trip approval?" (hp52) quoted
    steps 1 and 4 as two answers: their lead-in is their section's heading, the sentence before them ends in a full
    stop (quotes.HEADED_STEPS); and "what else do I have to do" asks the steps (question.WHAT_TO_DO)."""
    from synthesis.synthesize import quotes

    asked = "My reservations are done in Concur. What else do I have to do to finalize the trip approval?"
    on, off = await _with_and_without(minilm, monkeypatch, asked, _context(FINALIZING, RESERVATIONS), quotes,
                                      "HEADED_STEPS", False)
    steps = "relevant details about your trip; Justify any rental car use"  # one list, in order
    assert steps in on and "Stamp and submit authorization" in on, on
    assert steps not in off, off


async def test_what_else_to_do_asks_the_steps(minilm, monkeypatch):
    from synthesis.qa import question

    asked = "My reservations are done in Concur. What else do I have to do to finalize the trip approval?"
    on, off = await _with_and_without(minilm, monkeypatch, asked, _context(FINALIZING, RESERVATIONS), question,
                                      "WHAT_TO_DO", False)
    steps = "relevant details about your trip; Justify any rental car use"
    assert steps in on, on
    assert steps not in off, off


def test_what_to_do_shapes():
    assert expected("What else do I have to do to finalize the trip approval?") is Expect.PROCEDURE
    assert expected("What do I need to do next?") is Expect.PROCEDURE
    assert expected("What else should I do before I travel?") is Expect.PROCEDURE
    assert expected("What else is covered by the travel card?") is not Expect.PROCEDURE
    # what change is asked, not the rest of a procedure (review)
    assert expected("What do I need to do to the timesheet?") is not Expect.PROCEDURE
    assert expected("What do I have to do to be eligible for the bonus?") is not Expect.PROCEDURE


def test_cutoff_shapes():
    from synthesis.qa.question import cue_free

    assert expected("What's the cutoff for submitting travel?") is Expect.QUANTITY
    assert expected("What's the cutoff switch on the server rack for?") is not Expect.QUANTITY
    assert "income" in cue_free("What's the income cutoff for the transit subsidy?")  # what it is of stays (review)
    assert "cutoff" not in cue_free("When is the cutoff for timesheets?")


async def test_a_cutoff_is_a_deadline(minilm, monkeypatch):
    """"What's the cutoff for getting all my travel booking and approval steps done before a trip?" (hp52) was
    refused: no page says "cutoff"; it asks a deadline ("no later than 3:30 PM ET", question.CUTOFF_ASKED); and a
    guide's "Jump to Step 2: Booking Travel >" led the answer (pointers.NAV_LINKS)."""
    from synthesis.qa import question

    asked = "What's the cutoff for getting all my travel booking and approval steps done before a trip?"
    context = _context(EMAIL_TEMPLATES, FINALIZING, RESERVATIONS)
    on, off = await _with_and_without(minilm, monkeypatch, asked, context, question, "CUTOFF_ASKED", False)
    assert on.startswith("Ensure all of the above steps are completed no later than 3:30 PM ET"), on
    assert "3:30 PM" not in off, off


async def test_a_navigation_link_is_a_pointer(minilm, monkeypatch):
    from synthesis import pointers

    asked = "What's the cutoff for getting all my travel booking and approval steps done before a trip?"
    context = _context(EMAIL_TEMPLATES, FINALIZING, RESERVATIONS)
    on, off = await _with_and_without(minilm, monkeypatch, asked, context, pointers, "NAV_LINKS", False)
    assert "Jump to" not in on, on
    assert off.startswith("Jump to Step 2"), off


def test_navigation_shapes():
    from synthesis.pointers import is_pointer

    assert is_pointer("Jump to Step 2: Booking Travel >") and is_pointer("Skip to the next section")
    assert is_pointer("Return to top of page")
    assert not is_pointer("Go to the F Street entrance, where 24/7 access is available.")
    assert not is_pointer("Next, submit the form to your supervisor.")
    # a step that goes on is no link (review)
    assert not is_pointer("Go to Part 2 of the form and fill in your banking information.")
    assert not is_pointer("Skip to step 5 if you already have a PIV card.")
    assert not is_pointer("Proceed to the top floor for security screening.")


BRANCHES = ("Editing in GitHub", "",
            "If you need to edit multiple files as part of a single pull request, it is best to use a desktop file "
            "editor. Doing it directly in GitHub is a bit more complicated.\n\n"
            "- After editing your first file as described above, navigate to the list of branches, find the one you "
            "created above, and click it. This will display a list of all files in the Handbook, but as they exist "
            "on your branch.\n"
            "- Browse the file tree to find the ones you want to edit. Click a filename to open a file viewer. From "
            "here, you can edit the file by clicking the pencil icon above the content.\n"
            "- When you finish editing a file, make sure `Commit directly to the <your branch> branch` is selected "
            "and then click the `Commit changes` button. This will cause your new edits to be added to the pull "
            "request you opened previously.\n"
            "- You can continue to edit files from your branch and they will be added to your pull request.")


async def test_more_imperatives_make_a_list_of_steps(minilm, monkeypatch):
    """"I already opened a handbook PR from the GitHub editor. How do I add changes to another file in that same PR?"
    (hp51) quoted the list's last items one by one and never its first, "navigate to the list of branches": "Browse
    …", "After …, navigate …" and "When you finish …, make sure …" read as no instructions (kinds.MORE_IMPERATIVES)."""
    asked = ("I already opened a handbook PR from the GitHub editor. How do I add changes to another file in that same "
             "PR?")
    on, off = await _with_and_without(minilm, monkeypatch, asked, _context(BRANCHES), kinds, "MORE_IMPERATIVES",
                                      False)
    assert "navigate to the list of branches" in on, on
    assert "navigate to the list of branches" not in off, off


def test_imperative_shapes():
    def instruction(text: str) -> bool:
        return Expect.PROCEDURE in kinds.answer_kinds(text)

    assert instruction("Browse the file tree to find the ones you want to edit.")
    assert instruction("After editing your first file as described above, navigate to the list of branches.")
    assert instruction("When you finish editing a file, make sure the branch is selected.")
    assert not instruction("Search is available to all staff.")
    assert not instruction("Copy costs are covered by the team.")
    assert not instruction("When the form is approved, the request moves to HR.")


async def test_another_product_is_no_synonym(minilm, monkeypatch):
    """"Will TTS pay for a 1Password or LastPass subscription if I prefer it to the recommended tool?" (hp51) was
    answered from the password pages: "LastPass" counted as present through a near word, and "1Password" was never
    read, led by a digit (answerability.PRODUCT_NAMES)."""
    from synthesis.qa import answerability

    asked = "Will TTS pay for a 1Password or LastPass subscription if I prefer it to the recommended tool?"
    passwords = ("Requirements for passwords", "Password managers",
                 "GSA IT provides KeePassXC as the approved password manager. Any TTS employee may use this tool for "
                 "free. Passwords must be at least 16 characters long.")
    on, off = await _with_and_without(minilm, monkeypatch, asked, _context(passwords), answerability,
                                      "PRODUCT_NAMES", False)
    assert on == "", on
    assert off != "", off


def test_product_names():
    from synthesis.qa.answerability import product_names

    assert product_names("Will TTS pay for 1Password or LastPass?") == {"1password", "lastpass"}
    assert product_names("Can I use GitHub or KeePassXC?") == {"github", "keepassxc"}
    assert product_names("How do I reset my password in 3 days?") == set()



DOCKER = ("Editing locally", "Running the Handbook > Docker",
          "If you have Docker installed and don't want to think about installing all of the Handbook's dependencies, "
          "you can simply run `docker compose up` from the Handbook root directory. This will create a container, map "
          "your local directory into that container, and make the container's port 8080 available to your machine. "
          "The first time you run `docker compose up`, it may take a few minutes before the site is ready, but once it "
          "is, you'll be able to view your local instance of the Handbook at http://localhost:8080.")
NODE = ("Editing locally", "Running the Handbook > Node.js",
        "If you have Node.js installed, you can run the Handbook directly. When running this way, the automatic "
        "browser updates happen more quickly. However, you may need administrative privileges on your computer in "
        "order to install Node.js in the first place.\n\nTo begin, from the Handbook's root directory, run:\n\n"
        "```\nnpm ci\nnpm start\n```")


async def test_a_word_every_line_uses_compares_nothing(minilm, monkeypatch):
    """"What's the difference between running it with Docker and running it with Node?" (hp7, in review): "run" is in
    most lines of either side and tells none apart; led by it, the Node side lost its commands and its need for
    administrative privileges (selection.ASPECT_SHARE)."""
    from synthesis.qa import selection

    asked = ("I want to preview my handbook edits on my laptop before opening a PR. What's the difference between "
             "running it with Docker and running it with Node?")
    local = ("Updating the Handbook", "Choosing a development environment > Local",
             "Working locally also allows you to build and run the Handbook on your own computer so you can see your "
             "changes live in your web browser as you make them, which is especially helpful for larger updates. "
             "However, this requires that you either have Docker or Node.js installed and running, additional one-time "
             "complexities. Installing those is beyond the scope of this guide for now.")
    hub = ("Docker Hub", "How do I get access to Docker Hub?",
           "You may use your personal Docker Hub account for work. Ask #admins-docker for access to the TTS-wide "
           "account.")
    on, off = await _with_and_without(minilm, monkeypatch, asked, _context(local, DOCKER, hub, NODE), selection,
                                      "ASPECT_SHARE", 1)
    # the Node side's best line leads its answer, not the one that says "run"
    assert on.index("administrative privileges") < on.index("If you have Node.js installed"), on
    assert off.index("administrative privileges") > off.index("If you have Node.js installed"), off

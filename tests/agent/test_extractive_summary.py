"""The offline summary quotes whole sentences: a list item never appears cut off from what it continues."""

from __future__ import annotations

import inspect
import re

import pytest

from synthesis.models import Passage
from synthesis.sentences import Sentence, sentence_units, split_sentences
from synthesis.synthesize.base import Context, ContextSource
from synthesis.synthesize.candidates import candidates
from synthesis.synthesize.extractive import ExtractiveSynthesizer

HOTFIX = """A hotfix request states:

1. what is broken and who is affected;
2. why a rollback or a flag flip does not fix it;
3. the pull request, with at least one approving review;
4. how you will know that the fix worked.
"""

POSTMORTEMS = """## When we write one

- Every SEV1 and SEV2 incident, no exceptions.
- Any production hotfix, even if there was no customer impact.
- A SEV3 when the incident
  commander asks for one.

Owners are assigned before the incident channel is closed.
"""


def test_list_items_know_their_lead_in():
    units = sentence_units(HOTFIX)
    assert units[0] == Sentence("A hotfix request states:", paragraph=1)
    assert units[0].fragment  # a lead-in alone says nothing
    # each item is a paragraph of its own: the lead-in's paragraph does not go on into it
    assert units[3] == Sentence("the pull request, with at least one approving review;", True,
                                "A hotfix request states:", paragraph=4, step=True)  # (a numbered list's item)
    post = sentence_units(POSTMORTEMS)
    assert post[1] == Sentence("Any production hotfix, even if there was no customer impact.", True,
                               "When we write one", paragraph=2)
    assert post[2].text == "A SEV3 when the incident commander asks for one."  # the item's continuation line
    assert post[2].paragraph == 3
    assert post[3] == Sentence("Owners are assigned before the incident channel is closed.", paragraph=4)  # prose
    assert not post[3].fragment
    assert split_sentences(HOTFIX) == [u.text for u in units]


# 18F handbook, "Approval timelines" (conferences-events-training.md): the cases are nested under their lead times
TIMELINES = """It is best to submit your training request as early as possible.

- Five days to ten days in advance for:
  - Training (not at a conference) that costs less than $2,500, including travel
- Ten days to two weeks
  - Conference events that cost less than $2500, including travel
- Three to five weeks in advance for:
  - Conference events that costs more than $2,500, including travel
  - Speaking events in your official capacity

- Step-by-step instructions:
  - Employee
    - If you need to make adjustments, you can stop sharing the self-assessment.
"""


def test_a_nested_item_is_led_by_the_item_it_is_nested_under(monkeypatch):
    from synthesis import sentences

    lead = {u.text: u.lead_in for u in sentence_units(TIMELINES)}
    assert lead["Training (not at a conference) that costs less than $2,500, including travel"] == (
        "Five days to ten days in advance for:")
    assert lead["Conference events that cost less than $2500, including travel"] == "Ten days to two weeks"
    assert lead["Speaking events in your official capacity"] == "Three to five weeks in advance for:"
    assert lead["Three to five weeks in advance for:"] == ""  # the outer items keep the list's own lead-in
    # a label of one word leads with the next item out that says something (LABEL_PARENTS: whose steps these are)
    assert lead["If you need to make adjustments, you can stop sharing the self-assessment."] == (
        "Step-by-step instructions: Employee")
    monkeypatch.setattr(sentences, "LABEL_PARENTS", False)  # … it had led nothing
    assert {u.text: u.lead_in for u in sentence_units(TIMELINES)}[
        "If you need to make adjustments, you can stop sharing the self-assessment."] == "Step-by-step instructions:"
    # what nested items hang off is the enclosing item's last sentence, as written (found in review: its raw
    # paragraph, with a code span's placeholder)
    code = sentence_units("1. Open the file. Edit `proxy.conf` to add the proxy host:\n   - set the port to 8080 now\n")
    assert code[-1].lead_in == "Edit proxy.conf to add the proxy host:" == code[-2].text
    monkeypatch.setattr(sentences, "NESTED_ITEMS", False)
    assert not any(u.lead_in for u in sentence_units(TIMELINES))


def test_an_example_list_is_led_by_the_rule_before_it():
    lead = {u.text: u.lead_in for u in sentence_units(
        "Intro line one.\n\nYou must resubmit it. For example:\n\n1. You submit it on a Thursday.\n")}
    assert lead["You submit it on a Thursday."] == "You must resubmit it. For example:"
    # not the prose before a list, a code block or a table that stands between (found in review)
    for between in ("- one item here now\n", "```\nx = 1\n```\n", "| a | b |\n|---|---|\n| 1 | 2 |\n"):
        units = sentence_units(f"Set the flag in the config.\n\n{between}\nFor example:\n\n- a thing happens here\n")
        assert units[-1].lead_in == "For example:", (between, units[-1])


# pip's "Upgrade options" page (development/architecture/upgrade-options.rst), as ingested: each option is a term line
# in a paragraph of its own, then its description, which never names it.
UPGRADE_OPTIONS = """## Controlling what gets installed

--force-reinstall

Doesn't affect resolution, but if the resolved result is the same as what is currently installed, uninstall and
reinstall it rather than leaving the current version in place. This occurs even if --upgrade is not set.

--ignore-installed

Act as if the currently installed version isn't there - so don't care about --upgrade, and don't uninstall before
(re-)installing.

## Controlling what gets considered

These options affect the list of distribution files that the resolver will consider as candidates.
"""


def test_an_options_description_is_read_under_its_term_line(monkeypatch):
    from synthesis import sentences

    units = sentence_units(UPGRADE_OPTIONS)
    act = next(u for u in units if u.text.startswith("Act as if"))
    assert act.listed and act.lead_in == "--ignore-installed"
    occurs = next(u for u in units if u.text.startswith("This occurs even"))
    assert occurs.lead_in == "--force-reinstall" and occurs.goes_on  # the description's second sentence
    prose = next(u for u in units if u.text.startswith("These options affect"))
    assert not prose.listed and not prose.lead_in  # a heading ends the option list
    # a description's own list keeps its lead-in (found in review: it had lost it to the term)
    values = sentence_units("--color=<when>\n\nColorize the output. Possible values are:\n\n- always\n- never\n")
    assert [(u.text, u.lead_in) for u in values if u.text in ("always", "never")] == [
        ("always", "Possible values are:"), ("never", "Possible values are:")]
    monkeypatch.setattr(sentences, "OPTION_ITEMS", False)
    assert not any(u.lead_in for u in sentence_units(UPGRADE_OPTIONS))


async def _on_and_off(minilm, monkeypatch, question: str, passage: Passage, module, name: str) -> tuple[str, str]:
    """The summary over one passage as the rule stands, then with the flag `module.name` switched off."""
    context = Context(sources=[ContextSource(number=1, passage=passage)])
    on = (await ExtractiveSynthesizer(minilm).synthesize(question, context)).synthesis.summary
    monkeypatch.setattr(module, name, False)
    return on, (await ExtractiveSynthesizer(minilm).synthesize(question, context)).synthesis.summary


async def test_an_options_description_is_quoted_after_its_term(minilm, monkeypatch):
    from synthesis import sentences

    passage = Passage(id="p1", doc_id="d1", content=UPGRADE_OPTIONS, score=0.8, title="Upgrade options",
                      section="Upgrade options > Controlling what gets installed")
    on, off = await _on_and_off(minilm, monkeypatch, "Does --ignore-installed uninstall the current version before "
                                "installing?", passage, sentences, "OPTION_ITEMS")
    assert "--ignore-installed: Act as if the currently installed version" in on, on
    assert "Act as if" in off and "--ignore-installed: Act" not in off, off  # alone, it names no option


# Node.js's contributing guide (recognizing-contributors.md): the list the answer's items point to ("the sponsorship
# platforms listed below") comes after them, under a lead-in of its own.
SUPPORT_ME = """## Support me links

Collaborators may add a single link beside their name on the README file in the section titled Collaborators named
Support me. This link may be:

1. a direct link to one of the sponsorship platforms listed below,
2. a page that has text explaining how to support the collaborator including zero or more links to the sponsorship
   platforms listed below.

The sponsorship platforms to which links can be made currently includes (in alphabetical order):

* GitHub Sponsors
* Polar
* thanks.dev
"""


async def test_a_line_pointing_to_a_list_below_is_quoted_with_that_list(minilm, monkeypatch):
    """It answered "where may the Support me link point?" with high confidence and without the platforms."""
    from synthesis.synthesize import quotes

    passage = Passage(id="p1", doc_id="d1", content=SUPPORT_ME, score=0.8, title="Recognizing contributors",
                      section="Recognizing contributors > Support me links")
    on, off = await _on_and_off(minilm, monkeypatch, "Where am I allowed to point the 'Support me' link next to my "
                                "name in the README?", passage, quotes, "FORWARD_LISTS")
    assert "listed below" in on and "GitHub Sponsors; Polar; thanks.dev" in on, on
    assert "listed below" in off and "GitHub Sponsors" not in off, off
    # a line that leads its own list brings no other (found in review: the next, unrelated steps were quoted)
    own = Passage(id="p2", doc_id="d2", score=0.8, title="Recognizing contributors", section="Support me links",
                  content="The sponsorship platforms we accept are listed below:\n\n* GitHub Sponsors\n* Polar\n\n"
                          "To add your link, follow these steps:\n\n1. Open a pull request.\n2. Ask a maintainer.\n")
    summary = (await ExtractiveSynthesizer(minilm).synthesize("Which sponsorship platforms are accepted?", Context(
        sources=[ContextSource(number=1, passage=own)]))).synthesis.summary
    assert "GitHub Sponsors" in summary and "Open a pull request" not in summary, summary


def summary_sentences(summary: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=\])\s+", summary) if s.strip()]


@pytest.mark.parametrize(("question", "text", "lead_in"), [
    ("What must a hotfix request include, such as the pull request and approving review?", HOTFIX,
     "A hotfix request states: "),
    ("Do we write a postmortem for a production hotfix without customer impact?", POSTMORTEMS, "When we write one: "),
])
async def test_summary_never_quotes_a_list_item_out_of_context(minilm, question, text, lead_in):
    context = Context(sources=[ContextSource(number=1, passage=Passage(
        id="p1", doc_id="d1", content=text, score=0.8, title="Handbook", section="Handbook"))])
    outcome = await ExtractiveSynthesizer(minilm).synthesize(question, context)
    summary = outcome.synthesis.summary
    assert summary and outcome.synthesis.findings
    for sentence in summary_sentences(summary):
        assert not sentence[:1].islower(), sentence
        assert not re.search(r"[;:,]\s*\[\d+\]$", sentence), sentence
    items = [u for u in sentence_units(text) if u.listed]
    for item in items:  # an item that made it into the summary comes right after its lead-in
        if item.text.rstrip(" ;.") in summary:
            assert lead_in + item.text[:1] in summary, summary
    assert any(item.text.rstrip(" ;.") in summary for item in items), summary  # the case under test happened


def test_the_synthesizer_has_one_async_entry_point_and_no_sync_twin():
    public = {n for n in dir(ExtractiveSynthesizer) if not n.startswith("_") and callable(getattr(
        ExtractiveSynthesizer, n))}
    assert public == {"synthesize", "configured"}
    assert inspect.iscoroutinefunction(ExtractiveSynthesizer.synthesize)


@pytest.mark.parametrize(("text", "pointer", "leans"), [
    ("The rollback rules are in the rollback policy.", True, False),
    ("See Database migrations.", True, False),
    # 18F handbook (a development probe): where the instructions are is not what to do
    ("Detailed ENT password reset instructions can be found at ServiceNow KB0022142.", True, False),
    ("The fridge can be found on the fifth floor.", False, False),  # a thing found somewhere is a place
    ("Your leave balance information can be found in HR Links.", False, False),  # … in a system too (review)
    ("More information can also be found on the Benefits page.", True, False),
    ("Anyone can declare one, including you, in your first week.", False, True),
    ("It fires when the queue grows.", False, True),
    # 18F handbook (a development probe): an "it" that stands for no thing leans on nothing; the line answering "if
    # it's been a while and nothing has shown up, who should I email?" had been left out of the summary's candidates
    ("If it has been over a week after your voucher has been approved and your reimbursement hasn't arrived, "
     "contact kc-travel.finance@gsa.gov and describe the issue you are having.", False, False),
    ("When it is important to respond fast, call the on-call engineer.", False, False),
    ("If it\u2019s been a while, ping the team in #writing-lab.", False, False),
    ("If it fails, retry the deploy.", False, True),
    ("If it was approved two days ago, wait for the email.", False, True),  # a time, but "it" is the request
    ("This is how we deploy.", False, True),
    ("This policy covers production access.", False, False),
    ("Anyone can declare an incident, at any time, for any reason.", False, False),
    ("A production rollback must start within 15 minutes of a failed health check.", False, False),
])
def test_pointer_and_dangling_pronoun_detection(text, pointer, leans):
    from synthesis.pointers import is_pointer, leans_on_context

    assert (is_pointer(text), leans_on_context(text)) == (pointer, leans)


async def test_pointers_and_dangling_pronouns_do_not_lead(minilm):
    oncall = ("If the cause is a recent deploy, roll back first. The rollback rules are in the rollback policy. "
              "Anyone can declare one, including you, in your first week.")
    policy = ("A production rollback must start within 15 minutes of a failed health check. Anyone can declare an "
              "incident, at any time, for any reason.")
    context = Context(sources=[
        ContextSource(number=1, passage=Passage(id="p1", doc_id="d1", content=oncall, score=0.8, title="On-call",
                                                section="After you acknowledge")),
        ContextSource(number=2, passage=Passage(id="p2", doc_id="d2", content=policy, score=0.6, title="Policy",
                                                section="How fast"))])
    s = (await ExtractiveSynthesizer(minilm).synthesize("What are the rollback rules?", context)).synthesis
    assert "are in the rollback policy" not in s.summary, s.summary
    assert "15 minutes" in s.summary
    assert not s.findings[0].content.startswith("The rollback rules are in"), s.findings[0]
    s = (await ExtractiveSynthesizer(minilm).synthesize("Who can declare an incident?", context)).synthesis
    assert s.summary.startswith("Anyone can declare an incident"), s.summary


# Real text (18F handbook, security incidents): the answer is the list, not the sentence that introduces it.
PHISHING = """If you receive a suspicious email, follow these steps:

1. Do not click any links in the email. Do not delete it yet.
2. Follow the "Cofense Report" video on the Phishing Emails and Scams InSite page.
3. GSA IT will triage and let you know what they need you to do, if anything.

If you also clicked on a link in a phishing email, follow these steps to report to GSA's Incident Response (IR) team:

1. Send an email to itservicedesk@gsa.gov and devops@gsa.gov. Please include "Security Incident" in the subject line.
2. Forward the phishing email to the same addresses.
"""


async def test_a_lead_in_in_the_summary_brings_its_steps(minilm):
    context = Context(sources=[ContextSource(number=1, passage=Passage(
        id="p1", doc_id="d1", content=PHISHING, score=0.8, title="Security incidents", section="Reporting Phishing"))])
    outcome = await ExtractiveSynthesizer(minilm).synthesize(
        "What should I do if I already clicked the link in a phishing email?", context)
    summary = outcome.synthesis.summary
    assert "to GSA's Incident Response (IR) team: Send an email to itservicedesk@gsa.gov and devops@gsa.gov" in summary
    assert not re.search(r":\s*\[\d+\]", summary), summary  # never a lead-in quoted without what it introduces
    assert "Forward the phishing email" in summary
    assert "…" not in summary  # the whole list is quoted: nothing to mark as left out


async def test_a_long_list_is_marked_as_going_on(minilm):
    steps = "\n".join(f"{i}. Step {i}: open the ledger console and reconcile batch {i} against the bank export."
                      for i in range(1, 10))
    text = f"To close the month, follow these steps:\n\n{steps}\n"
    context = Context(sources=[ContextSource(number=1, passage=Passage(
        id="p1", doc_id="d1", content=text, score=0.8, title="Finance", section="Month end"))])
    summary = (await ExtractiveSynthesizer(minilm).synthesize("How do I close the month?", context)).synthesis.summary
    assert "follow these steps: Step 1" in summary, summary
    assert "; …" in summary and "Step 9" not in summary


# Real text (18F handbook, equipment): the sentence naming who approves says "This request", not what is requested.
PRINTER = ("A separate justification process is required for printer requests. If you believe you have a business "
           "justification for a home printer, please discuss with your supervisor. This request will require "
           "approval from your supervisor and the head of your division. To submit a waiver for a printer, please "
           "complete a Non-Standard Equipment Request.")


@pytest.mark.parametrize(("text", "points"), [
    ("This request will require approval from your supervisor and the head of your division.", True),
    ("These rules apply to contractors too.", True),
    ("It must be longer than 14 characters.", True),
    ("To submit a waiver for a printer, please complete a Non-Standard Equipment Request.", False),
    ("Thistle is a plant.", False),
    ("This year, the rules changed.", False),  # a time, not the sentence before
    ("Those who travel must file a voucher.", False),  # people it names
    ("Request: Monitor; Reviewers needed: one; Time: 2 days.", False),  # a table row ending in "one"
])
def test_a_sentence_that_points_back(text, points):
    from synthesis.pointers import points_back

    assert points_back(text) is points


def test_a_sentence_pointing_back_is_one_unit_with_the_one_before(minilm):
    passage = Passage(id="p1", doc_id="d1", content=PRINTER, score=0.8, title="Equipment", section="Printers")
    units = candidates(Context(sources=[ContextSource(number=1, passage=passage)]))
    texts = [u.text for u in units]
    assert texts[1] == ("If you believe you have a business justification for a home printer, please discuss with "
                        "your supervisor. This request will require approval from your supervisor and the head of "
                        "your division.")
    assert not any(t.startswith("This request") for t in texts)
    assert [u.position for u in units] == [0, 1, 2]  # the sentence after the pair is still the next one
    assert [u.joined for u in units] == [False, True, False]


# Real text (18F handbook, equipment): each rule is a list item whose bold first sentence names what the rest is about.
PHONE_RULES = ("### Rules\n\n"
               "- **Change the phone's passcode.** It must be longer than 14 characters and\n"
               "  contain both letters and numbers. The code should be known only to you.\n"
               "- **Activate Find My iPhone.** If you're on an Android phone, activate Android Device Manager.\n"
               "- **You are responsible for applying software updates.** When you receive a notification that an\n"
               "  update is available, you should apply the update as soon as possible.\n")


def test_a_list_items_later_sentence_pointing_back_is_one_unit_with_the_one_before(minilm):
    passage = Passage(id="p1", doc_id="d1", content=PHONE_RULES, score=0.8, title="Equipment", section="Phone > Rules")
    units = candidates(Context(sources=[ContextSource(number=1, passage=passage)]))
    texts = [u.text for u in units]
    assert texts[0] == ("Change the phone's passcode. It must be longer than 14 characters and contain both letters "
                        "and numbers."), texts
    assert units[0].fragment and units[0].lead_in == "Rules"  # still an item of its list
    assert "The code should be known only to you." in texts  # one join per unit
    # the next item's first sentence never joins the item before it, though it reads as going on
    assert "You are responsible for applying software updates." in texts


async def test_a_rule_told_in_a_list_item_answers_for_its_subject(minilm):
    context = Context(sources=[ContextSource(number=1, passage=Passage(
        id="p1", doc_id="d1", content=PHONE_RULES, score=0.8, title="Equipment", section="Equipment > Phone > Rules"))])
    summary = (await ExtractiveSynthesizer(minilm).synthesize(
        "What are the rules for my iPhone passcode?", context)).synthesis.summary
    assert summary.startswith("Rules: Change the phone's passcode. It must be longer than 14 characters"), summary


async def test_who_approves_is_read_with_what_it_approves(minilm):
    context = Context(sources=[ContextSource(number=1, passage=Passage(
        id="p1", doc_id="d1", content=PRINTER, score=0.8, title="Equipment",
        section="Equipment > Peripherals > Printers > Your own printer"))])
    outcome = await ExtractiveSynthesizer(minilm).synthesize(
        "I really need a printer at home for my work. Whose sign-off do I need?", context)
    assert "the head of your division" in outcome.synthesis.summary, outcome.synthesis.summary


# Real text (18F handbook, Slack user management): the page opens with a link home and a line about itself.
SLACK_ADMIN = ("Back to Slack page\n\nThis page overviews the administrative tasks done to manage our Slack accounts "
               "at TTS.\n\n## Offboarding\n\nWhen a TTS Slack user leaves, the admins convert their account to a "
               "Single-Channel Guest. They keep access to their direct message history.")


async def test_a_page_about_itself_and_a_link_home_do_not_answer(minilm):
    from synthesis.pointers import about_itself, points_back

    assert about_itself("This page overviews the administrative tasks done to manage our Slack accounts at TTS.")
    assert not points_back("This guide covers the whole process.")  # it points at the document, not a sentence
    assert not about_itself("This request will require approval from your supervisor.")
    context = Context(sources=[ContextSource(number=1, passage=Passage(
        id="p1", doc_id="d1", content=SLACK_ADMIN, score=0.8, title="Slack user management",
        section="Slack user management"))])
    synthesizer = ExtractiveSynthesizer(minilm)
    assert not any(u.text.startswith("Back to") for u in candidates(context))
    s = (await synthesizer.synthesize("What happens to my Slack account when I leave TTS?", context)).synthesis
    assert s.summary.startswith("When a TTS Slack user leaves"), s.summary
    assert "This page overviews" not in s.summary


CENTERS = """## Centers of Excellence

CoE has six “centers”:

- Artificial intelligence
- Data analytics
- Cloud adoption

## Approvals

Approved by:

- OCTO
- GSA IT Slack admins

## Tools

- Security
- Zoom
"""


def test_a_short_item_of_an_introduced_list_is_kept(monkeypatch):
    from synthesis import sentences

    units = sentence_units(CENTERS)
    texts = [u.text for u in units]
    assert ["Artificial intelligence", "Data analytics", "Cloud adoption"] == texts[1:4]
    assert "OCTO" in texts  # one word: dropping it changed a quoted list ("approval from ISE; GSA IT Slack admins")
    assert all(u.lead_in == "CoE has six “centers”:" for u in units[1:4])
    assert "Security" not in texts  # a list under a heading, not a sentence ending in ':': too little to quote
    monkeypatch.setattr(sentences, "SHORT_ITEMS", False)
    assert "Data analytics" not in [u.text for u in sentence_units(CENTERS)]


async def test_a_lead_in_is_quoted_with_its_short_items(minilm):
    context = Context(sources=[ContextSource(number=1, passage=Passage(
        id="p1", doc_id="d1", content=CENTERS, title="TTS Consulting", section="Mission", score=0.6))])
    outcome = await ExtractiveSynthesizer(minilm).synthesize("How many Centers of Excellence does CoE have?", context)
    assert "CoE has six “centers”: Artificial intelligence; Data analytics; Cloud adoption." in outcome.synthesis.summary


# The shape of a real handbook page (18F, a fresh probe): the sentence announcing the list ends in a full stop, and a
# note sits between it and the numbered list.
PAPERWORK = """To get approval for advanced sick leave, you will need to submit the following paperwork to your
supervisor and your HR specialist. Note: draft all four pieces before routing them for signatures in Docusign.

1. The advanced sick leave request form. Your supervisor can route it for you.
2. An original medical certification signed by your physician.
3. A copy of your timesheet report for the current and previous year.
4. A written explanation of why your sick leave ran out.

When routing for signatures, use the Docusign template for the request.
"""


def test_a_sentence_announcing_the_following_is_the_lead_in_of_its_list(monkeypatch):
    from synthesis import sentences

    units = sentence_units(PAPERWORK)
    announcing = units[0].text
    assert announcing.startswith("To get approval") and announcing.endswith("specialist.")
    items = [u for u in units if u.listed]
    assert len(items) == 5 and all(u.lead_in == announcing for u in items)
    assert sentences.lead_text(announcing).endswith("HR specialist")  # quoted before its items without its stop
    monkeypatch.setattr(sentences, "ANNOUNCED_LISTS", False)
    assert all(u.lead_in == "" for u in sentence_units(PAPERWORK) if u.listed)


async def test_a_sentence_announcing_the_following_is_quoted_with_its_items(minilm, monkeypatch):
    from synthesis import sentences

    context = Context(sources=[ContextSource(number=1, passage=Passage(
        id="p1", doc_id="d1", content=PAPERWORK, title="Advanced sick leave", section="Getting approval",
        score=0.6))])
    question = "What paperwork do I need for advanced sick leave?"
    summary = (await ExtractiveSynthesizer(minilm).synthesize(question, context)).synthesis.summary
    assert "HR specialist: The advanced sick leave request form" in summary
    assert "medical certification" in summary and "timesheet report" in summary
    monkeypatch.setattr(sentences, "ANNOUNCED_LISTS", False)
    without = (await ExtractiveSynthesizer(minilm).synthesize(question, context)).synthesis.summary
    assert "medical certification" not in without


# A comparison table under a sentence ending in ':' (18F handbook, a fresh probe: "How do Tock and the HR Links
# timesheet differ?" was answered without the "Cadence" row).
TIMESHEETS = """Tock is a different tool than HR Links. Here is a quick comparison:

|  | Tock timesheet | HR Links timesheet |
|--|----------------|-------------------|
| **Level** | TTS | GSA |
| **Cadence** | Weekly | Bi-weekly |
| **Goal** | Tracks how time is spent, so we bill partners | Tracks how much an employee works, for leave |

## Billable expectations

| Role | Hours |
|--|--|
| Engineer | 32 |
"""


def test_the_rows_of_a_table_a_sentence_introduces_are_its_items(monkeypatch):
    from synthesis import sentences

    rows = [u for u in sentence_units(TIMESHEETS) if "timesheet:" in u.text]
    assert len(rows) == 3 and all(u.listed and u.lead_in == "Here is a quick comparison:" for u in rows)
    assert rows[1].text == "Cadence; Tock timesheet: Weekly; HR Links timesheet: Bi-weekly."
    other = next(u for u in sentence_units(TIMESHEETS) if u.text.startswith("Role"))
    assert not other.listed and other.lead_in == ""  # a table under a heading introduces nothing
    monkeypatch.setattr(sentences, "TABLE_ITEMS", False)
    assert not any(u.listed for u in sentence_units(TIMESHEETS))


async def test_a_comparison_table_is_quoted_whole_under_its_lead_in(minilm):
    context = Context(sources=[ContextSource(number=1, passage=Passage(
        id="p1", doc_id="d1", content=TIMESHEETS, title="Tock", section="Tock and HR Links", score=0.6))])
    summary = (await ExtractiveSynthesizer(minilm).synthesize(
        "People mention both Tock and the HR Links timesheet. How do they differ?", context)).synthesis.summary
    assert "Here is a quick comparison: Level; Tock timesheet: TTS; HR Links timesheet: GSA. Cadence;" in summary
    assert "Bi-weekly" in summary


def test_review_the_following_day_announces_no_list():
    """Review: "pay is deposited the following Tuesday." followed by a list is no lead-in; nor is an announcing
    sentence with another sentence than an aside after it."""
    text = ("Timesheets are due every other Friday, and pay is deposited the following Tuesday. Late timesheets "
            "delay pay.\n\n- Log your hours in Tock\n- Your supervisor approves them\n")
    assert all(u.lead_in == "" for u in sentence_units(text))
    moved = "You will need the following forms. Your supervisor signs them.\n\n- The request form\n- A timesheet\n"
    assert all(u.lead_in == "" for u in sentence_units(moved))


def test_review_a_lead_in_keeps_an_abbreviation_and_a_question():
    from synthesis.sentences import lead_joint, lead_text

    assert lead_text("Offices are in Washington, D.C.") == "Offices are in Washington, D.C."
    announcing = "Submit the following forms to your HR Specialist."
    assert lead_text(announcing) == announcing[:-1]
    assert lead_joint("Do you need any of the following?") == " " and lead_joint("These are:") == ": "


async def test_review_the_following_without_a_list_is_a_sentence_like_any_other(minilm):
    """Review: `_introduces` requires the items to follow; a sentence naming "the following" with no list after it
    is quoted like any other, not dropped as a bare lead-in."""
    context = Context(sources=[ContextSource(number=1, passage=Passage(
        id="p1", doc_id="d1", content="The following teams use Slack Connect with partners: design and research.",
        title="Slack", section="Partners", score=0.6))])
    outcome = await ExtractiveSynthesizer(minilm).synthesize("Which teams use Slack Connect?", context)
    summary = outcome.synthesis.summary
    assert "design and research" in summary


async def test_review_a_settings_table_quotes_the_asked_row(minilm):
    """Review: a table under a sentence ending in ':' is items; the row a part asks for is quoted, not the table."""
    table = ("The client accepts these options:\n\n| Option | Default |\n|--|--|\n| proxy | none |\n| agent | auto |\n"
             "| cache | ~/.cache |\n| timeout | 300000 |\n| retries | 2 |\n| loglevel | warn |\n")
    context = Context(sources=[ContextSource(number=1, passage=Passage(
        id="p1", doc_id="d1", content=table, title="Client", section="Options", score=0.6))])
    summary = (await ExtractiveSynthesizer(minilm).synthesize("What's the default timeout for the client?",
                                                              context)).synthesis.summary
    assert "timeout; Default: 300000" in summary and "proxy" not in summary


def test_review_a_sentence_naming_the_following_without_a_list_stays_in_a_finding():
    """Review: `_introduces` needs items of its passage to hang off an announcing sentence; without them it is quoted
    like any other sentence, not left out of a finding as a bare lead-in."""
    from synthesis.qa import Candidate
    from synthesis.synthesize.quotes import quote_all

    passage = Passage(id="p1", doc_id="d1", content="", title="Slack", section="Partners", score=0.6)
    said = [Candidate(text="The following teams use Slack Connect with partners: design and research.", source=1,
                      position=0, passage=passage),
            Candidate(text="Other teams share channels by invitation.", source=1, position=1, passage=passage)]
    assert "design and research" in quote_all(said, said)


def test_a_full_stop_inside_inline_code_ends_no_sentence():
    """The demo's migrations page: "It is slower than `ALTER TABLE ... RENAME`, and it is the only way …" was quoted
    from "RENAME, and it …" on; the code span's dots are code, not sentence ends."""
    from synthesis.sentences import split_sentences

    assert split_sentences("Copy the table instead. It is slower than `ALTER TABLE ... RENAME`, and it is the only "
                           "way that keeps the previous release working.") == [
        "Copy the table instead.",
        "It is slower than ALTER TABLE ... RENAME, and it is the only way that keeps the previous release working."]
    assert split_sentences("- Run `make lint. Then test` before pushing. Reviews wait for green builds.") == [
        "Run make lint. Then test before pushing.", "Reviews wait for green builds."]


# Real text (18F handbook, external details): a table row whose last cell is a whole sentence already ends in ".".
DETAIL_STEPS = """| Step | Who | Timeline |
|---|---|---|
| Detailee granted security access at agency | Employee | 5 business days |
| Detailee able to onboard | Employee | As soon as all of the necessary approvals are obtained the detailee can begin working. |
"""


def test_a_table_row_ending_in_its_own_full_stop_gets_no_second_one():
    rows = [u.text for u in sentence_units(DETAIL_STEPS) if u.row]
    assert rows == ["Step: Detailee granted security access at agency; Who: Employee; Timeline: 5 business days.",
                    "Step: Detailee able to onboard; Who: Employee; Timeline: As soon as all of the necessary approvals "
                    "are obtained the detailee can begin working."]

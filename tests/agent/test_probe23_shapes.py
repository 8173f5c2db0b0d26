"""Question shapes the tenth and eleventh fresh probes of the 18F handbook (hp23, hp24, written by helpers that read
only the corpus) and the earlier probes still found answered wrongly, each on the page text it failed on.

A rule with a flag is switched off once in its test, so the test fails when the rule does nothing.
"""

from __future__ import annotations

from synthesis.qa import analyze, compared, sides
from synthesis.qa.sides import numbered
from synthesis.stems import key_phrases
from synthesis.synthesize.base import Context, ContextSource
from synthesis.synthesize.extractive import ExtractiveSynthesizer

from .test_qa import _context, _with_and_without

DC_TABLE = ("Washington, D.C.", "", "Location: Washington, D.C.; Address: 1800 F St. NW. 20405; GSA region: 11; "
            "Office guide: Office Guide")
DC_AFTER = ("Washington, D.C.", "How do I... > Access the building after hours",
            "Go to the F Street entrance, where 24/7 access is available.\nPlease note that the building closes at "
            "6 pm, a GSA badge is required for after hours access and no visitors are permitted.")
NY_TABLE = ("New York City", "", "Location: New York City, NY; Address: One World Trade Center, 10007; GSA region: 2; "
            "Office guide: Office Guide")
NY_AFTER = ("New York City", "How do I...? > Access the building after hours?",
            "Building hours are 6am - 7pm. While you can stay in the space later, you won't be able to get back in if "
            "you go to the bathroom or something.")
SF_AFTER = ("San Francisco", "How do I...? > Access the building after hours?",
            "If you're based in SF and would like to regularly access the building after hours (6pm-6am), fill out "
            "the 50 UNP after-hours access form.")
OFFICES = (DC_TABLE, NY_TABLE, SF_AFTER, DC_AFTER, NY_AFTER)
AFTER_HOURS = "I sometimes work late. How does after-hours access work at the D.C. office compared with the New York office?"


def test_a_bare_aspect_before_parallel_determiners_frames_the_sides():
    """"How does after-hours access work at the D.C. office compared with the New York office?" had two sides,
    "after-hours access work at the D.C. office" and "the New York office": the second was searched as an office,
    and answered with its address."""
    assert compared.side_frame(compared.comparison_sides(AFTER_HOURS)) == (
        "after-hours access work at", ["D.C. office", "New York office"])
    assert analyze(AFTER_HOURS).parts[1].query == "after-hours access work at New York office"
    # a told case with its question is no bare aspect: each side stays whole
    overtime = ("If my supervisor needs me to put in extra hours, how does overtime eligibility work on a standard "
                "schedule compared with a compressed 4x10 schedule?")
    assert compared.side_frame(compared.comparison_sides(overtime))[0] == ""
    # … and a frame that shares the determiner keeps it ("… what happens to my")
    assert compared.side_frame(["If I leave federal service, what happens to my annual leave", "my sick leave"]) == (
        "If I leave federal service, what happens to my", ["annual leave", "sick leave"])
    # … nor is a side with a clause of its own ("an individual user, what can they do differently")
    cargo = ("If I add a GitHub team as an owner of my crate instead of an individual user, what can they do "
             "differently?")
    assert compared.side_frame(compared.comparison_sides(cargo))[0] == ""
    # a noun phrase with a determiner of its own stays one side
    assert compared.side_frame(["a detail to another role at my current grade", "a temporary promotion"])[0] == ""


def test_a_dotted_initialism_names_a_side_whole():
    """"D.C. office" was read as the phrase "office" (its key phrase split at the full stops), so only a line with
    "office" in it named the side: the office's address, not its after-hours section."""
    assert "D.C. office" in key_phrases("the D.C. office")
    assert "Slack" in key_phrases("Which tools (e.g. Slack, Zoom) can I install?")  # "e.g." is no word of a phrase
    assert key_phrases("work after 6 p.m. Saturday shifts") == ["Saturday shifts"]
    # … and its mark ("D" and "C" together) names it in the page title too ("Washington, D.C.")
    mark = numbered("D.C. office", ["New York office"])
    assert mark is not None and mark.search("Washington, D.C.")
    assert numbered("U.S. holidays", ["U.K. holidays"]).search("U.S. federal holidays")


async def test_a_side_named_by_its_page_title_is_answered_from_the_aspect_asked(minilm, monkeypatch):
    """The New York side was answered with its address (naming "New York" in the line), not "Building hours are 6am
    - 7pm." on the page titled "New York City", under "Access the building after hours?"."""
    on, off = await _with_and_without(minilm, monkeypatch, AFTER_HOURS, _context(*OFFICES), sides,
                                      "TITLE_NAMES", False)
    assert "24/7" in on and "6am - 7pm" in on, on
    assert not ("24/7" in off and "6am - 7pm" in off), off


async def test_of_a_sides_lines_those_under_the_aspects_heading_lead(minilm, monkeypatch):
    assert sides.frame_case(analyze(AFTER_HOURS)) == {"access", "hour"}
    told = ("If I'm invited to speak at a conference, what's the difference between doing it in my professional "
            "capacity versus my personal capacity?")
    assert sides.frame_case(analyze(told)) == set()  # a told case the whole page shares
    on, off = await _with_and_without(minilm, monkeypatch, AFTER_HOURS, _context(*OFFICES), sides,
                                      "FRAME_CASE", False)
    assert "24/7" in on and "6am - 7pm" in on, on
    assert off.startswith("Location:") or not ("24/7" in off and "6am - 7pm" in off), off


LEAVING = ("Leaving TTS & Offboarding", "When it's time to leave TTS > 3. Review your benefits",
           "- Review your benefits options.\n- Ensure your home address is correct in Employee Express and consider switching your W2 delivery to Hard "
           "Copy.\n  - Note: Ensure you keep your login information for Employee Express after you leave. Separated "
           "employees retain access to Employee Express (EEX) for 3 years, so long as they retain their login ID and "
           "password. Separated employees who lose access to EEX cannot regain it.")
PAYCHECKS = ("Benefits", "Paychecks",
             "We are paid biweekly. You’ll receive your first paycheck about three weeks after your start date.\n\n"
             "To see your recent pay stubs:\n\n1. Sign into Employee Express.\n2. Click the \"View Your Earnings and "
             "Leave Statement\" link in the middle of the page.")
EEX = ("GSA internal tools", "Employee Express",
       "Employee Express is used to view your paystub, change your withholdings, change your health insurance plan, "
       "and change your address. If you're new to GSA, it'll take a few weeks for IT to set up your account.")


async def test_a_page_titled_by_a_common_noun_is_no_other_place(minilm, monkeypatch):
    """"After my last day at TTS, how long will I still be able to log in to Employee Express to get my pay stubs?"
    was refused: "at TTS" scoped it to the leaving page, and "stubs" on the page titled "Benefits" read as the
    answer for another place, as New York's page answers for New York."""
    from synthesis.qa import answerability

    question = ("After my last day at TTS, how long will I still be able to log in to Employee Express to get my pay "
                "stubs?")
    on, off = await _with_and_without(minilm, monkeypatch, question, _context(PAYCHECKS, EEX, LEAVING),
                                      answerability, "NAMED_TITLE", False)
    assert "3 years" in on, on
    assert "3 years" not in off, off
    monkeypatch.setattr(answerability, "NAMED_TITLE", True)
    assert not answerability._named_page("Benefits", "Review your benefits. Benefits are listed below.")
    assert answerability._named_page("New York City", "The New York City office is on floor 55.")
    # a channel or an address is no use of the name: "Ask in #denver for the key."
    assert answerability._named_page("Denver", "The Denver office. Ask in #denver or email denver@gsa.gov.")


# Two pages of the 18F handbook as written (the link is a Jekyll `page` tag): the leave page links its Docusign template
# to the Docusign page's section, where the steps are.
SICK_LEAVE_PAGE = """---
title: Advanced sick leave
---
## Getting approval for advanced sick leave

To get approval for advanced sick leave, you will need to submit the Advanced Sick Leave Request form and medical
documentation to your supervisor.

When routing for signatures, you can use the [Docusign template]({% page "/tools/digital-signatures#use-docusign-templates-to-complete-forms" %}) for the Advanced Sick Leave Request to fill out the form and request the right signatures.
"""
DOCUSIGN_PAGE = """---
title: Docusign
---
GSA provides access to [Docusign](https://sign.gsa.gov/) for staff to sign and request signatures on documents.

## Use Docusign templates to complete forms
GSA has set up some shared templates in Docusign. You can use them to fill out certain administrative forms and set
up automatic email routing to get the right signatures.

Forms that have Docusign templates include:
- Voluntary Leave Transfer Program (VLTP)
- Paid parental leave (PPL)
- Advanced Sick Leave

### Instructions for using Docusign templates
1. Login to Docusign.
2. Select **Templates**, which is located on the top navigation bar.
3. Along the left navigation bar, select **Shared with Me.**
4. Enter the name of the form or program into the search bar in the main body.
5. Add the necessary recipients on the next screen.
6. When finished, select **SEND**, located at the bottom right of your screen.
"""


async def test_a_procedure_linked_to_another_pages_section_is_quoted_with_its_steps(tmp_path, minilm, monkeypatch):
    """"How do I use Docusign to route my advanced sick leave request form for signatures?" was answered with "you
    can use the Docusign template …" alone: the steps are on the page the template links to (real ingest keeps the
    link target, real Chroma retrieves both pages)."""
    from synthesis.config import Settings
    from synthesis.retrieval import make_retriever
    from synthesis.synthesize import linked
    from synthesis.synthesize.base import Context, ContextSource
    from synthesis.synthesize.extractive import ExtractiveSynthesizer
    from tests.scope.conftest import ingest_into, write_docs

    settings = Settings(_env_file=None, home=tmp_path / "home", collection="linked")
    docs = write_docs(tmp_path, {"travel-and-leave/advanced-sick-leave.md": SICK_LEAVE_PAGE,
                                 "tools/digital-signatures.md": DOCUSIGN_PAGE})
    store = ingest_into(settings, minilm, "linked", docs)
    question = "How do I use Docusign to route my advanced sick leave request form for signatures?"
    results = make_retriever(settings, store).search(question, k=6).results
    context = Context(sources=[ContextSource(number=i, passage=p) for i, p in enumerate(results, 1)])
    on = (await ExtractiveSynthesizer(minilm).synthesize(question, context)).synthesis.summary
    assert "Instructions for using Docusign templates: Login to Docusign; Select Templates" in on, on
    assert "select Shared with Me" in on, on
    assert "Voluntary Leave Transfer Program" not in on, on  # the list of forms holds no steps
    monkeypatch.setattr(linked, "LINKED_STEPS", False)
    off = (await ExtractiveSynthesizer(minilm).synthesize(question, context)).synthesis.summary
    assert "Shared with Me" not in off, off


def test_a_link_names_its_page_by_path_and_anchor():
    from synthesis.synthesize.linked import _page_parts, slug

    assert slug("Use Docusign templates to complete forms") == "use-docusign-templates-to-complete-forms"
    assert _page_parts("/tools/digital-signatures/") == ("tools", "digital-signatures")
    assert _page_parts("/work/corpus/tools/digital-signatures.md")[-2:] == ("tools", "digital-signatures")
    assert _page_parts("../tools/digital-signatures/index.md")[-2:] == ("tools", "digital-signatures")


TERM_PROCESS = ("Term extensions", "What's the process?",
                "1. 6-7 months before an employee's term ends, TTS PeopleOps will reach out to the Supervisor of the "
                "employee and the Director of that office with a list of staff whose terms are about to end.\n\n"
                "2. Supervisors and Directors will consider the individual's performance, organizational priorities, "
                "position needs, and other factors to determine their recommendation.\n\n"
                "3. Directors will provide their recommendation to TTS PeopleOps.\n\n"
                "4. TTS PeopleOps will send the list of renewal requests to the TTS Front Office for approval.\n\n"
                "5. If the **decision is to extend**, TTS PeopleOps will process a Personnel Action Request (PAR) to "
                "extend the employee's term.")
TERM_AFTER = ("Term extensions", "What happens between the decision and the end of term?",
              "- Approved extensions are added to the TTS PeopleOps internal Operations Trello board.\n"
              "- GSA HR reviews and confirms the PAR, checking that all information is accurate (employee has another "
              "term left, correct extension dates, etc.). HR is not \"approving\" the extension request at this step "
              "of the process. The extension has already been approved; this is just a matter of processing.")
TERM_QUESTION = ("My term appointment ends next year. When will PeopleOps start the renewal process, and who gives "
                 "the final approval on extensions?")


async def test_a_role_said_not_to_do_what_is_asked_does_not_answer_who(minilm, monkeypatch):
    """"… who gives the final approval on extensions?" was answered "HR is not "approving" the extension request at
    this step of the process.": the role that does not approve."""
    from synthesis.qa import kinds

    on, off = await _with_and_without(minilm, monkeypatch, TERM_QUESTION, _context(TERM_AFTER, TERM_PROCESS), kinds,
                                      "DENIED_ACT", False)
    assert 'term? HR is not "approving"' not in on, on  # (it no longer answers first)
    assert 'term? HR is not "approving"' in off, off
    part = analyze(TERM_QUESTION).parts[1]
    monkeypatch.setattr(kinds, "DENIED_ACT", True)
    assert not kinds.denies_act(part, "You do not need approval to extend a term.")  # no one must approve: an answer
    assert not kinds.denies_act(part, "The Front Office approves extensions; HR does not process them early.")
    assert kinds.denies_act(part, "HR doesn't approve the extension request.")
    for names_the_approver in ("The TTS Front Office, not HR, gives final approval on extensions.",
                               "Your request is not approved until your supervisor approves it in GovTA.",
                               "Extensions are not only approved by the supervisor but also by the director.",
                               "If the Front Office does not approve, the term ends."):
        assert not kinds.denies_act(part, names_the_approver), names_the_approver


async def test_a_line_sending_it_to_someone_for_approval_names_the_approver(minilm, monkeypatch):
    from synthesis.qa import kinds

    on, off = await _with_and_without(minilm, monkeypatch, TERM_QUESTION, _context(TERM_AFTER, TERM_PROCESS), kinds,
                                      "SENT_FOR_APPROVAL", 0.0)
    assert "Front Office for approval" in on, on
    assert "Front Office for approval" not in off, off
    for sends_to_no_one in ("Send it to the events mailbox two weeks before the event.",
                            "Supervisors need to submit the renewal list for approval.",  # an infinitive
                            "Upload your receipts to Concur for approval.",  # a tool
                            "Do not send a modification to your supervisor for approval."):
        assert not kinds.sent_for_approval(sends_to_no_one), sends_to_no_one
    assert kinds.sent_for_approval("Route it to your supervisor for approval.")
    assert kinds.sent_for_approval("The designated TTS Ops team member will determine whether or not to recommend "
                                   "your request for approval by the TTS Director of Operations.")
    assert not kinds.sent_for_approval("Submit it for approval by Friday.")


# The 18F handbook's benefits page, as the store chunks it: the PSLF steps are cut inside step 5's nested list, and
# the next chunk (overlapping the cut by two lines) goes on with steps 6 to 12.
PSLF_25 = ("To fill out your PSLF application and obtain employer verification:\n\n1. Download the application PDF from "
           "the PSLF application page\n2. Fill out your Section 1 of the application with your personal information.\n"
           "3. Check the appropriate box in Section 2 depending on whether you think you currently qualify for PSLF or "
           "not.\n4. Add your signature to the bottom of page 1. IMPORTANT: You can sign the document in pen/ink or "
           "using a digital signature. But if you use a digital signature, it must be hand-drawn. Adobe Reader "
           "provides the ability to sign documents with hand-drawn signatures.\n5. Enter the following information in "
           "Section 3:\n  - Employer Name: General Services Administration\n  - Federal Employer Identification Number "
           "(FEIN): 44-0553234\n  - Employer Address: 1800 F St. NW, Washington, D.C. 20405\n  - Employer Website: "
           "www.gsa.gov\n  - Employment End Date: Check \"Still Employed\"\n  - Employment Status: Check \"Full-Time\"")
PSLF_26 = ("- Employment End Date: Check \"Still Employed\"\n  - Employment Status: Check \"Full-Time\"\n  - Hours Per "
           "Week (Average): 40\n  - Is your employer a governmental organization?: Check \"Yes\"\n6. Do not fill out "
           "Section 4. This section will be completed by a GSA HR representative as detailed below.\n7. Save your "
           "updated PDF.\n8. Login to DocuSign.\n9. Click \"Start\" and then \"Send an Envelope\".\n10. Under `Add "
           "Documents to the Envelope`, click the \"Upload\" button and select your partially completed PSLF "
           "application.\n11. Under `Add Recipients to the Envelope`, add our PSLF point of contact as the recipient "
           "of the envelope")
PSLF_QUESTION = "How do I get my employment certified for student loan forgiveness?"


def _pslf() -> Context:
    from synthesis.models import Passage

    def chunk(index: int, content: str) -> Passage:
        return Passage(id=f"benefits#{index}", doc_id="benefits.md", content=content, score=0.6 - index / 100,
                       chunk_index=index, title="Benefits", section="Public Service Loan Forgiveness (PSLF)")

    return Context(sources=[ContextSource(number=1, passage=chunk(25, PSLF_25)),
                            ContextSource(number=2, passage=chunk(26, PSLF_26))])


async def test_a_procedure_cut_by_chunking_goes_on_in_the_next_chunk(minilm, monkeypatch):
    """"How do I get my employment certified …?" was answered with steps 1 to 5 only (and step 4's notes): steps 6
    and 8, "Do not fill out Section 4" and "Login to DocuSign", opened the next chunk under the section heading."""
    from synthesis.synthesize import candidates

    on, off = await _with_and_without(minilm, monkeypatch, PSLF_QUESTION, _pslf(), candidates, "STEPS_GO_ON", False)
    assert "Enter the following information in Section 3; Do not fill out Section 4; Save your updated PDF; Login to " \
           "DocuSign" in on, on
    assert "Login to DocuSign" not in off, off


async def test_a_finished_list_does_not_go_on_in_the_next_sections_steps(minilm):
    """A section ending in its list, and the next section opening with its own: the MFA steps stay the MFA's."""
    from synthesis.models import Passage

    def chunk(index: int, section: str, content: str) -> Passage:
        return Passage(id=f"it#{index}", doc_id="it.md", content=content, score=0.6 - index / 100,
                       chunk_index=index, title="IT help", section=section)

    reset = Context(sources=[
        ContextSource(number=1, passage=chunk(4, "Reset your password", (
            "To reset your password:\n\n1. Go to the login page.\n2. Click Forgot password.\n3. Enter your GSA "
            "email address.\n4. Check your email for the reset link."))),
        ContextSource(number=2, passage=chunk(5, "Reset your MFA device", (
            "1. Call the IT service desk and verify your identity.\n2. Remove the old device in Okta.\n3. Enroll "
            "your new phone in Okta Verify.")))])
    summary = (await ExtractiveSynthesizer(minilm).synthesize("How do I reset my password?", reset)).synthesis.summary
    assert "Check your email for the reset link" in summary and "Okta" not in summary, summary


async def test_a_long_procedure_is_quoted_by_its_steps_first_sentences(minilm, monkeypatch):
    from synthesis.synthesize import quotes

    on, off = await _with_and_without(minilm, monkeypatch, PSLF_QUESTION, _pslf(), quotes, "STEP_HEADS", False)
    assert "Add your signature to the bottom of page 1; Enter the following" in on, on  # its notes left out
    assert "IMPORTANT" not in on and "Login to DocuSign" in on, on
    assert "IMPORTANT: You can sign" in off and "Login to DocuSign" not in off, off


def test_a_chunk_ending_inside_numbered_instructions_is_continued(monkeypatch):
    """Which chunk is read with its next (the store-level test is in test_continued.py): one ending inside numbered
    instructions, whose next chunk goes on with step 6 after step 5."""
    from synthesis import agent
    from synthesis.models import Passage
    from synthesis.lists import ends_in_steps, steps_go_on

    passage = Passage(id="b#25", doc_id="benefits.md", content=PSLF_25, score=0.5, chunk_index=25)
    assert ends_in_steps(PSLF_25) and agent._cut_steps(passage) and steps_go_on(PSLF_25, PSLF_26)
    # the next section's own steps ("1. Call the IT service desk") do not go on with "4. Check your email"
    reset = "To reset your password:\n\n1. Go to the login page.\n2. Click Forgot password.\n4. Check your email."
    assert not steps_go_on(reset, "1. Call the IT service desk and verify your identity.\n2. Remove the old device.")
    assert not steps_go_on(PSLF_25, "Public Service Loan Forgiveness is a program.")
    proposals = ("I propose the following:\n\n1. Candidates will apply without indicating specific groups.\n2. We'll "
                 "cap the number of people a hiring manager can select.\n   1. Rationale: This will limit the burden.")
    assert ends_in_steps(proposals) and not agent._cut_steps(passage.model_copy(update={"content": proposals}))
    assert not ends_in_steps("- a bullet\n- another") and not ends_in_steps("1. Do this.\n\nThen some prose.")
    monkeypatch.setattr(agent, "CONTINUE_STEPS", False)
    assert not agent._cut_steps(passage)

def test_a_part_asked_after_a_preposition_is_a_part_of_its_own():
    """"How long does OCE's review take, and at what point do we also need PRA approval?" was one part, answered
    with durations only: the threshold ("more than 10 people") was never asked for."""
    question = ("We want to send a Qualtrics survey to the public. How long does OCE's review take, and at what point "
                "do we also need PRA approval?")
    assert [p.text for p in analyze(question).parts] == ["How long does OCE's review take",
                                                          "at what point do we also need PRA approval"]
    assert [p.text for p in analyze("How do I request leave, and to whom should I send it?").parts] == [
        "How do I request leave", "to whom should I send it"]
    assert len(analyze("In what cases can I telework from abroad?").parts) == 1
    assert len(analyze("I took leave in June, and in the end it was fine. Who approves it?").parts) == 1


DESIGN_PUBLIC = ("Design", "Be open > 1. Share your work early and often",
                 "Since GitHub is a tool we’ve chosen for facilitating public dialogue, consider also making your work "
                 "available to the public (if appropriate for the project) by posting work-in-progress there. Before "
                 "creating a public GitHub repo or otherwise sharing project-specific information, check with your "
                 "project lead; they’ll let you know what information can be shared publicly.")
GITHUB_RULES = ("GitHub", "Rules",
                "- **Ask TTS Tech Operations before creating private repositories.** We pay GitHub for the ability to "
                "create private repositories and need to bill clients for repositories created on their behalf.")


async def test_a_rule_for_the_opposite_kind_answers_another_case(minilm, monkeypatch):
    """"Who do I have to check with before creating a private GitHub repo for my project?" was answered 'high' with
    "Before creating a public GitHub repo …, check with your project lead"."""
    from synthesis.qa import asker

    question = "Who do I have to check with before creating a private GitHub repo for my project?"
    on, off = await _with_and_without(minilm, monkeypatch, question, _context(DESIGN_PUBLIC, GITHUB_RULES), asker,
                                      "OPPOSITE_CASE", 1.0)
    assert "Ask TTS Tech Operations before creating private repositories" in on, on
    assert "private repositories" not in off, off
    # … and an answer quoting the opposite kind's rule is never 'high'
    from synthesis.synthesize.extractive import ExtractiveSynthesizer as Reader

    from synthesis.synthesize import extractive

    outcome = await Reader(minilm).synthesize(question, _context(DESIGN_PUBLIC))
    assert outcome.synthesis.quality.overall <= 0.6, outcome.synthesis.quality
    monkeypatch.setattr(extractive, "opposite_kinds", lambda q: (set(), set()))  # (no kind asked: 'high' again)
    assert (await Reader(minilm).synthesize(question, _context(DESIGN_PUBLIC))).synthesis.quality.overall > 0.6
    assert asker.opposite_kinds(question) == ({"private"}, {"public"})
    # a question naming both kinds asks of both: no opposite
    assert asker.opposite_kinds("How does creating a public repo differ from creating a private one?") == (set(), set())

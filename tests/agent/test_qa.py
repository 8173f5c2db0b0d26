"""Extractive question answering (synthesis.qa) on the failure patterns seen on real handbooks.

Every passage below is written in the style of a real organisation handbook (sections, list items, near-identical
sentences that differ in one word), and every answer is produced by the real bundled model through the real
synthesizer; nothing is scored by hand.
"""

from __future__ import annotations

import re

import pytest

from synthesis.models import Passage
from synthesis.qa import Expect, analyze, compared, every_side
from synthesis.qa.kinds import answer_kinds
from synthesis.qa.question import comparison_sides, expected, split_parts
from synthesis.synthesize.base import Context, ContextSource
from synthesis.synthesize.candidates import candidates
from synthesis.synthesize.extractive import ExtractiveSynthesizer


def _context(*passages: tuple[str, str, str]) -> Context:
    """(title, section, content) triples numbered 1..n, best first."""
    return Context(sources=[
        ContextSource(number=i, passage=Passage(id=f"p{i}", doc_id=f"d{i}", content=content, score=0.6 - 0.02 * i,
                                                title=title, section=section))
        for i, (title, section, content) in enumerate(passages, start=1)])


async def _answer(minilm, question: str, context: Context):
    outcome = await ExtractiveSynthesizer(minilm).synthesize(question, context)
    return outcome.synthesis


async def _with_and_without(minilm, monkeypatch, question: str, context: Context, module, name: str, off):
    """The summary as the rule stands, then with `module.name` set to `off` (the rule switched off): a rule's test
    shows both, so it fails when the rule does nothing."""
    on = (await _answer(minilm, question, context)).summary
    monkeypatch.setattr(module, name, off)
    return on, (await _answer(minilm, question, context)).summary


@pytest.mark.parametrize(("question", "kind"), [
    ("How many hours of unused vacation can I roll over into the next year?", Expect.QUANTITY),
    ("If I think my work laptop has been hacked, how quickly do I have to report it?", Expect.QUANTITY),
    ("What year did 18F get its current name?", Expect.QUANTITY),  # a year, held by a bare year (see `holds`)
    # "what's" asks as "what is" does (it had read as no quantity with "maximum", "minimum" and "deadline")
    ("What's the maximum number of responses our Qualtrics contract allows?", Expect.QUANTITY),
    ("What’s the deadline for the self-assessment?", Expect.QUANTITY),
    ("I need about three weeks off without pay. Whose sign-off do I need?", Expect.WHO),
    ("Who actually decides whether my request is approved?", Expect.WHO),
    ("Is there a cash bonus if I refer someone who ends up getting hired?", Expect.YESNO),
    # a yes/no that asks for an amount: the answer is "under $10 million", not a rule
    ("Is there a contract size that the TTS Acquisition Division tries to stay under?", Expect.QUANTITY),
    ("Is there a budget for an end-of-year holiday party?", Expect.QUANTITY),
    ("Is there a dress code for the office?", Expect.YESNO),
    ("Is there a maximum number of owners a single crate can have on crates.io?", Expect.QUANTITY),
    # … but not a verb before the noun, nor the noun as a modifier (review)
    ("Is there any way to cap my overtime hours?", Expect.YESNO),
    ("Is there a need to budget for software licenses?", Expect.YESNO),
    ("Is there a budget code I should use?", Expect.YESNO),
    ("Is there a budget approval process for conferences?", Expect.PROCEDURE),
    ("A new macOS version just came out. Should I upgrade my MacBook right away?", Expect.YESNO),
    ("As an engineer, am I expected to carry a pager on weekends?", Expect.YESNO),
    ("How do I give a contractor access to our GitHub repository?", Expect.PROCEDURE),
    ("Why is my gross pay a little less than my salary divided by 26?", Expect.OTHER),
])
def test_expected_answer_kind(question, kind):
    assert analyze(question).expects is kind


def test_an_amount_asked_as_yes_or_no_keeps_what_it_is_an_amount_of():
    """The cue is "is there a" before the amount's noun: "contract size" stays what the question is about."""
    frame = analyze("Is there a contract size that we try to stay under?")
    assert frame.expects is Expect.QUANTITY and {"contract", "size"} <= frame.parts[0].stems


def test_another_word_made_by_rewriting_an_ending_is_not_the_same_word():
    """Only a spelling at most SPELLING_GAIN more common is the word's own: "four" is no "for" (review)."""
    from synthesis.qa.question import zipf
    from wordfreq import zipf_frequency

    assert zipf("four") == zipf_frequency("four", "en") and zipf("entre") == zipf_frequency("entre", "en")
    assert zipf("behaviour") == zipf_frequency("behavior", "en")


def test_parts_drop_leading_statements_and_keep_the_subject():
    frame = analyze("I'm taking a week and a half of vacation next month. Where do I request it, how much notice "
                    "should I give, and how do I account for that time in Tock?")
    assert [p.text for p in frame.parts] == ["Where do I request it", "how much notice should I give",
                                             "how do I account for that time in Tock"]
    assert [p.expect for p in frame.parts] == [Expect.WHERE, Expect.QUANTITY, Expect.PROCEDURE]
    assert all("vacat" in p.stems for p in frame.parts)  # the statement is every part's context
    follow = analyze("I'm a supervisor. Will the agency reimburse me for liability insurance, and how much?")
    assert len(follow.parts) == 2 and "insur" in follow.parts[1].stems  # "how much?" keeps its subject


def test_an_and_if_clause_is_a_part_of_its_own():
    """18F handbook (fresh probe) and npm's docs: ', and if X do we need Y?' asks a third thing, under a condition
    written without its comma."""
    frame = analyze("Our team maintains a repo that only gets a couple of commits a year. Will it get archived "
                    "automatically, how do we prevent that, and if it does get archived do we need anyone's approval "
                    "to unarchive it?")
    assert [p.text for p in frame.parts] == [
        "Will it get archived automatically", "how do we prevent that",
        "if it does get archived, do we need anyone's approval to unarchive it"]
    assert frame.parts[2].expect is Expect.YESNO
    npm = analyze("Which npm stage subcommands will make me do a 2FA prompt, and if I staged a build under the wrong "
                  "dist-tag can I just fix the tag afterwards?")
    assert [p.expect for p in npm.parts] == [Expect.OTHER, Expect.YESNO]
    # "if so" is a condition too; "do it" is the condition's own verb; a condition with no question of its own that
    # can be read apart stays with the part before it instead of being dropped (found in review)
    assert split_parts("Will our repo get archived automatically, how do we prevent that, and if so do we need "
                       "approval to unarchive it?")[2] == "if so, do we need approval to unarchive it"
    assert split_parts("How do I book travel, and if I do it myself do I need approval?") == [
        "How do I book travel", "if I do it myself, do I need approval"]
    # "once" sets a case as "if" does (18F handbook, a fresh probe)
    assert split_parts("I opened a PR to fix some outdated info in the handbook. Who has to review it, and once it's "
                       "approved can I just merge it myself?") == [
        "Who has to review it", "once it's approved, can I just merge it myself"]
    # a preposition before the question word still asks, and asks for a date (18F handbook, a fresh probe: "Until
    # when …, and will my FSA roll into next year automatically?" was one part, answered for its first half only)
    fsa = analyze("I still have money in my health care FSA from last year. Until when can I incur expenses and "
                  "submit claims against it, and will my FSA roll into next year automatically?")
    assert [(p.text, p.expect) for p in fsa.parts] == [
        ("Until when can I incur expenses and submit claims against it", Expect.QUANTITY),
        ("will my FSA roll into next year automatically", Expect.YESNO)]
    assert all(expected(f"{lead} when does coverage start?") is Expect.QUANTITY for lead in ("From", "Since", "Till"))
    # an aside before the first part does not hide that it asks (found in the last read, on the demo handbook)
    assert split_parts("Maybe a dumb question, but who has to review my PR, and once it's approved can I merge it "
                       "myself?") == ["Maybe a dumb question, but who has to review my PR",
                                      "once it's approved, can I merge it myself"]
    assert split_parts("Who approves my leave, how far ahead must I ask, and if my supervisor is out who approves "
                       "it?")[1] == "how far ahead must I ask, and if my supervisor is out who approves it"


def test_an_and_if_clause_before_a_comma_is_the_case_of_the_next_part(monkeypatch):
    """18F handbook (a fresh probe): ", and if it's been a while and nothing has shown up, who should I email?" asks
    whom to email in that case; the condition is not the first part's ("how long does it take")."""
    from synthesis.qa import parts

    asked = ("I submitted my travel voucher. How long does it take before I get paid back, and if it's been a while "
             "and nothing has shown up, who should I email?")
    assert split_parts(asked) == ["How long does it take before I get paid back",
                                  "if it's been a while and nothing has shown up, who should I email"]
    assert analyze(asked).parts[1].expect is Expect.WHO
    monkeypatch.setattr(parts, "IF_GOES_ON", False)
    assert split_parts(asked)[0].endswith("and if it's been a while and nothing has shown up")


def test_a_question_asked_after_telling_is_a_part():
    """18F handbook (fresh probe): the second question told before it asked ("And one of my assigned trainings isn't
    even showing up, so how do I contact OLU support?") was no part, and the statement was read into the context
    twice."""
    frame = analyze("I'm knocking out my mandatory trainings in OLU this week. Which Tock line does that time go to? "
                    "And one of my assigned trainings isn't even showing up, so how do I contact OLU support?")
    assert [p.expect for p in frame.parts] == [Expect.OTHER, Expect.PROCEDURE]
    assert frame.parts[1].text.endswith("so how do I contact OLU support")
    assert all(p.query.count("I'm knocking out") == 1 for p in frame.parts)
    assert "Which Tock line" not in frame.parts[1].query
    # a story told in the first asking sentence is every part's context, and read once (found in review)
    laptop = analyze("My laptop died, so who do I contact, and how long does a replacement take?")
    assert [p.query for p in laptop.parts] == ["My laptop died, so who do I contact",
                                               "My laptop died how long does a replacement take"]
    # telling, then a clause that does not ask, is no part ("but what I found was old")
    assert split_parts("What is 18F? I tried the wiki, but what I found was old, and how do I get access to "
                       "GitHub?") == ["What is 18F", "how do I get access to GitHub"]


def test_a_when_clause_with_its_own_subject_sets_the_case_and_is_no_part():
    """Node.js contributor docs: 'When I land a pull request by hand, which metadata lines must the commit message
    contain?' was read as two parts, the first a 'when' question expecting a date."""
    frame = analyze("When I land a pull request by hand, which metadata lines must the commit message contain?")
    assert len(frame.parts) == 1 and frame.parts[0].expect is not Expect.QUANTITY
    hotfix = analyze("When we ship a hotfix, who approves it and how fast must it be rolled back?")
    assert [p.text for p in hotfix.parts] == ["who approves it", "how fast must it be rolled back"]
    assert all("hotfix" in p.query and "hotfix" in p.stems for p in hotfix.parts)  # the case goes with each part
    three = analyze("Where do I file it, and when it is late, who do I tell, and how much is the fine?")
    assert [p.text for p in three.parts] == ["Where do I file it", "when it is late, who do I tell",
                                             "how much is the fine"]  # the clause takes one part, not the rest
    middle = analyze("Who approves a hotfix, and when the deploy fails, who rolls it back?")
    assert [p.text for p in middle.parts] == ["Who approves a hotfix", "when the deploy fails, who rolls it back"]
    assert [p.expect for p in middle.parts] == [Expect.WHO, Expect.WHO]
    asks = analyze("When should it get the author ready label, and how many approvals does it need?")
    assert [p.expect for p in asks.parts] == [Expect.QUANTITY, Expect.QUANTITY]  # 'When should …' asks


def test_comparison_sides():
    frame = analyze('How is a local voucher different from a "voucher from authorization" in Concur?')
    assert frame.comparison
    assert [p.text for p in frame.parts] == ["a local voucher", 'a "voucher from authorization" in Concur']
    # Cargo book: of two asking sentences, the one that compares holds the sides (the split ran across both:
    # "What's the actual difference between cargo check" | "cargo build? Why is check so much quicker")
    two = analyze("What's the actual difference between cargo check and cargo build? Why is check so much quicker?")
    assert [p.text for p in two.parts] == ["cargo check", "cargo build"]
    # the compared thing before the verb, the sides after it (a fresh 18F probe read this as one procedure)
    between = analyze("How do the after-hours building rules differ between DC headquarters and the New York office?")
    assert between.comparison
    assert [p.text for p in between.parts] == ["DC headquarters", "the New York office"]
    assert all("after-hours building rules" in p.query for p in between.parts)
    # found in review: sides before the verb stay the sides ("between" then names the case both are asked in)
    both = analyze("How do annual leave and sick leave differ between full-time and part-time employees?")
    assert [p.text for p in both.parts] == ["annual leave", "sick leave"]


def test_comparison_sides_after_a_scene_or_before_a_question_that_points_back(monkeypatch):
    """Valgrind's manual and pip's docs: a clause setting the scene ("In a Memcheck leak summary, …") was read into the
    first side, and a question after the sides ("X vs Y: how do they behave differently?") into the last."""

    cases = {
        'In the leak report, what\'s the difference between "still reachable" and "possibly lost"?':
            ["still reachable", "possibly lost"],
        "For a flag shared between two threads, how does guarding it with a mutex differ from using an atomic?":
            ["guarding it with a mutex", "using an atomic"],
        "--no-deps vs --no-index: how do they behave differently?": ["--no-deps", "--no-index"],
        # no scene is dropped where a frame carries it to every side
        "When I'm called for jury duty, how do I record that time in HR Links versus in Tock?": ["HR Links", "in Tock"],
    }
    for question, sides in cases.items():
        assert [p.text for p in analyze(question).parts] == sides, question
    jury = analyze("When I'm called for jury duty, how do I record that time in HR Links versus in Tock?")
    assert jury.side_frame.startswith("When I'm called for jury duty")
    monkeypatch.setattr(compared, "SCENE_LEAD", False)
    off = [[p.text for p in analyze(question).parts] for question in list(cases)[:3]]
    assert all(got != want for got, want in zip(off, list(cases.values())[:3])), off


def test_comparison_sides_share_the_first_sides_frame():
    """18F handbook: 'If I leave federal service, what happens to my annual leave versus my sick leave versus my award
    leave?' read the second and third sides as bare 'my sick leave', so they were answered with accrual rules."""
    from synthesis.planner import plan

    question = ("If I leave federal service, what happens to my annual leave versus my sick leave versus my award "
                "leave?")
    frame = analyze(question)
    assert [p.text for p in frame.parts] == ["annual leave", "sick leave", "award leave"]
    assert all(p.query.startswith("If I leave federal service, what happens to my") for p in frame.parts)
    assert all({"feder", "servic"} <= p.stems and "versus" not in p.stems for p in frame.parts)
    assert "If I leave federal service, what happens to my sick leave" in plan(question).sub_queries
    plain = analyze("How do comp time and credit hours differ?")  # sides of equal shape carry no frame
    assert plain.side_frame == "" and [p.text for p in plain.parts] == ["comp time", "credit hours"]
    long_side = analyze("What is the difference between the annual leave policy for new employees who joined this "
                        "year and sick leave?")  # a long first side whose tail is not the compared thing
    assert long_side.side_frame == "" and long_side.parts[0].text.endswith("who joined this year")


def test_an_aspect_after_the_sides_is_asked_of_both():
    """18F handbook (fresh probe): '… differ from a temporary promotion in how long it can last?' read the aspect as
    part of the second side only, and the first side's length was never asked."""
    frame = analyze("How does a detail to another role at my current grade differ from a temporary promotion in how "
                    "long it can last?")
    assert [p.text for p in frame.parts] == [
        "a detail to another role at my current grade", "how long it can last (a detail to another role at my "
        "current grade)", "a temporary promotion", "how long it can last (a temporary promotion)"]
    assert frame.side_frame == ""  # a side with a determiner of its own ("a temporary promotion") is whole
    # a relative clause inside a side is no aspect; a frame ending in a preposition stays a frame (found in review)
    assert comparison_sides("How does the plan in which I enrolled differ from the new plan?") == [
        "the plan in which I enrolled", "the new plan"]
    rules = analyze("What's the difference between the carryover rules for annual leave and sick leave?")
    assert rules.side_frame == "the carryover rules for" and [p.text for p in rules.parts] == ["annual leave",
                                                                                             "sick leave"]


async def test_a_comparison_asks_its_named_aspect_of_each_side(minilm):
    """18F handbook: 'How is a local voucher different from a "voucher from authorization" in Concur, including when
    receipts are needed?' was answered with how to pick each voucher type in Concur, and never with the receipt
    thresholds ($25 local, $75 otherwise) it asked about."""
    from synthesis.planner import plan

    question = ('How is a local voucher different from a "voucher from authorization" in Concur, including when '
                'receipts are needed?')
    frame = analyze(question)
    assert [p.text for p in frame.parts] == [
        "a local voucher", "when receipts are needed (a local voucher)", 'a "voucher from authorization" in Concur',
        'when receipts are needed (a "voucher from authorization" in Concur)']
    assert [p.side for p in frame.parts] == [0, 0, 1, 1]
    assert "a local voucher: when receipts are needed" in plan(question).sub_queries
    context = _context(
        ("Travel guide FAQ", "How do I create a local or miscellaneous voucher?",
         "Type code and Trip purpose: if the voucher is for local travel (taxis, mileage, etc.), choose Local travel. "
         "For any other sort of reimbursement, choose Misc voucher. The payment method for all local and "
         "miscellaneous vouchers is CASH. Note that any local transit over $25 requires a receipt."),
        ("Travel guide: reimbursement", "Creating a voucher from your authorization",
         'Click "Vouchers" in the top bar and then "New Voucher". In the field Document Type, select "Voucher From '
         'Authorization" and click Next. You will be led through creating a voucher from your authorization that '
         "you got approved prior to traveling."),
        ("Travel guide FAQ", "When are receipts or further justification required?",
         "Lodging and rental cars always require receipts. Any other expense on a voucher from authorization "
         "exceeding $75 requires a receipt."),
    )
    s = await _answer(minilm, question, context)
    assert "$25" in s.summary and "$75" in s.summary, s.summary


async def test_a_how_do_i_answer_gets_its_whole_list_of_steps_as_a_finding(minilm, monkeypatch):
    """18F handbook: 'How do I get my employment certified for student loan forgiveness?' The steps (a long numbered
    list that chunking cut after its lead-in) never reached the answer: the summary quoted two prose sentences and the
    DocuSign and Section 4 steps were nowhere."""
    lead = ("As a GSA employee, you are eligible for PSLF. To fill out your PSLF application and obtain employer "
            "verification:")
    steps = ("1. Download the application PDF from the PSLF application page.\n"
             "2. Fill out Section 1 of the application with your personal information.\n"
             "3. Do not fill out Section 4; a GSA HR representative completes it.\n"
             "4. Wait for HR to confirm your dates of employment by email.\n"
             "5. Check the employment dates and the employer identification number.\n"
             "6. Log in to DocuSign and send the form to our PSLF point of contact.\n"
             "7. Submit the signed form on the Student Aid website.\n"
             "8. Keep a copy of the signed form for your records.\n"
             "9. Check your PSLF tracker on the Student Aid website after a few weeks.\n"
             "10. Repeat the certification every year you work at GSA.")  # more steps than the summary quotes
    section = "Public Service Loan Forgiveness (PSLF)"
    context = Context(sources=[
        ContextSource(number=1, passage=Passage(
            id="p1", doc_id="benefits", title="Benefits", section=section, chunk_index=0, chunk_count=2, score=0.7,
            content="If you do not submit the PSLF form with your employment certification annually, you will have "
                    "to certify every employer when you apply for forgiveness. " + lead)),
        ContextSource(number=2, passage=Passage(id="p2", doc_id="benefits", title="Benefits", section=section,
                                                chunk_index=1, chunk_count=2, score=0.6, content=steps)),
    ])
    s = await _answer(minilm, "How do I get my employment certified for student loan forgiveness?", context)
    listed = [f for f in s.findings if f.topic.startswith("Steps:")]
    assert len(listed) == 1, s.findings
    assert listed[0].content.startswith("To fill out your PSLF application and obtain employer verification:")
    assert "DocuSign" in listed[0].content and "Section 4" in listed[0].content and "Download" in listed[0].content
    assert listed[0].citations == [1, 2]  # the lead-in's chunk and the steps' chunk
    # the summary quotes the first steps under the lead-in too (the list read as one again: candidates._rejoin_lists)
    assert "obtain employer verification: Download the application PDF" in s.summary, s.summary
    # a how-do-I summary quotes up to eight steps (PROCEDURE_STEPS), the sixth ("Log in to DocuSign") among them
    assert "Log in to DocuSign" in s.summary, s.summary
    from synthesis.synthesize import quotes

    monkeypatch.setattr(quotes, "PROCEDURE_STEPS", quotes.MAX_STEPS)
    fewer = await _answer(minilm, "How do I get my employment certified for student loan forgiveness?", context)
    assert "Log in to DocuSign" not in fewer.summary, fewer.summary


async def test_a_papers_aim_does_not_answer_the_claim_its_result_does(minilm):
    """SciFact: 'Asymptomatic visual impairment screening in elderly populations does not lead to improved vision.'
    was answered with the review's 'OBJECTIVE To assess whether …' sentence, which restates the claim, instead of
    the result that settles it."""
    from synthesis.qa.reader import _AIM

    context = _context(
        ("Screening older people for impaired vision", "",
         "OBJECTIVE To assess whether population screening for impaired vision among older people in the community "
         "leads to improvements in vision. DESIGN Systematic review of randomised controlled trials of population "
         "screening in the community. RESULTS The inclusion of a visual screening component in the assessment did "
         "not result in improvements in self reported visual problems."),
    )
    s = await _answer(minilm, "Asymptomatic visual impairment screening in elderly populations does not lead to "
                              "improved vision.", context)
    assert s.summary.startswith("RESULTS The inclusion of a visual screening component"), s.summary
    assert _AIM.search("We investigated whether the drug lowers blood pressure.")
    assert _AIM.search("The mechanisms regulating invadopodium assembly are not understood.")
    assert _AIM.search("AIMS patients with diabetes have high platelet reactivity.")  # a structured abstract's label
    assert _AIM.search("However, the long-term impact of bariatric surgery is largely unclear.")
    assert not _AIM.search("Background checks are required for all staff.")  # a label is in capitals or has a colon
    assert not _AIM.search("If you are unsure whether to report it, report it.")


def test_answer_kinds_read_the_sentence():
    assert Expect.QUANTITY in answer_kinds("Incidents need to be reported within one hour of being identified.")
    assert Expect.QUANTITY not in answer_kinds("Report security incidents to the IR team.")
    assert Expect.WHO in answer_kinds("The requester's first line supervisor will be the decision maker.")
    assert Expect.WHO not in answer_kinds("You can receive up to 4 hours for each election event.")
    assert Expect.WHO not in answer_kinds("They will also confirm that the employee would like to be renewed.")
    # a system or a place is not someone who acts ("HR Links", "out of office"); HR and an office are
    assert Expect.WHO not in answer_kinds("You cannot request paid time off in Tock (use HR Links).")
    assert Expect.WHO not in answer_kinds("You do need to record out of office time as part of your Tock.")
    assert Expect.WHO in answer_kinds("Contact HR for help.") and Expect.WHO in answer_kinds("Email the office.")
    # an instruction may open politely or with a sequence word
    assert Expect.PROCEDURE in answer_kinds("Please contact the Help Desk and they will enable a password login.")
    assert Expect.PROCEDURE in answer_kinds("Then, submit the form in HR Links.")
    # a file or folder on disk is a place (CMake: "where does CMake store the per-user package registry?")
    assert Expect.WHERE in answer_kinds("On UNIX platforms the user package registry is stored in the user home "
                                        "directory under ~/.cmake/packages.")
    assert Expect.WHERE in answer_kinds("The token is saved in $CARGO_HOME/credentials.toml.")
    assert Expect.WHERE not in answer_kinds("Use 1/2 of the budget, and/or ask for more.")
    assert Expect.WHERE not in answer_kinds("Mean age was 54 +/- 9 years, on a /24 subnet, read from process.env.")
    # a street address (18F handbook, San Francisco: where to get fingerprints and a badge)
    assert Expect.WHERE in answer_kinds("You can get them at 450 Golden Gate.")
    assert Expect.WHERE in answer_kinds("Visitors check in at 1800 F Street NW.")
    assert Expect.WHERE not in answer_kinds("Submit it in 2024 for review.")
    assert Expect.WHERE not in answer_kinds("It expires in 90 Days.")


def test_a_verb_and_its_sion_noun_share_a_stem():
    """18F handbook: 'Who actually decides …?' is answered by '… will be the decision maker (DM)'."""
    from synthesis.stems import content_stems, stem

    assert stem("decides") == stem("decision") == stem("decide")
    assert stem("submit") == stem("submission") and stem("permission") == stem("permitted")
    assert stem("include") == stem("inclusion")
    assert stem("this") == "this" and stem("miss") == "miss" and stem("crisis") != stem("crisp")
    assert stem("commission") != stem("commit") and stem("valise") != stem("valid")  # only the productive pairs
    assert stem("decid") in content_stems("The first line supervisor will be the decision maker (DM).")


def test_an_initialism_with_full_stops_is_one_word():
    """18F handbook: 'the DC office' never matched the page 'Washington, D.C.' ('D.C.' read as 'd' and 'c')."""
    from synthesis.stems import content_stems

    assert "dc" in content_stems("Washington, D.C. > Amenities > Gym") & content_stems("the gym in the DC office")
    assert content_stems("e.g. the U.S. office") == content_stems("eg the office")  # 'us' stays a stopword


async def test_how_many_is_answered_with_a_number(minilm):
    context = _context(
        ("Leave", "Annual leave > Carry over",
         "Annual leave is one of the most flexible benefits we have. Leave you do not use stays in your balance "
         "from one leave year to the next. You can carry over a maximum of 240 annual leave hours into the next "
         "leave year."),
    )
    s = await _answer(minilm, "How many hours of unused vacation can I roll over into the next year?", context)
    assert "240" in s.summary
    assert s.summary.index("240") < 200  # the answer leads


async def test_who_is_answered_with_a_role(minilm):
    context = _context(
        ("Reasonable accommodations", "Submitting a request",
         "If a more structured format is preferred, GSA has Form 3676, Confirmation of Reasonable Accommodation "
         "Request. RA requests can also go to the Local Reasonable Accommodation Coordinator."),
        ("Reasonable accommodations", "Who decides",
         "The requester's first line supervisor will be the decision maker for the reasonable accommodation "
         "request."),
    )
    s = await _answer(minilm, "Who actually decides whether my reasonable accommodation request is approved?",
                      context)
    assert "first line supervisor" in s.summary


async def test_a_sentence_is_read_under_its_section(minilm):
    rule = "Your pay adjusts to the locality rate of your new duty station, and you update your tax withholding."
    context = _context(
        ("Moving", "States > California", "Employees moving to California should file the state form DE 4. " + rule),
        ("Moving", "States > Colorado", "Employees moving to Colorado should file the state form DR 0004. " + rule),
    )
    s = await _answer(minilm, "Which state tax form do I file when I move to Colorado?", context)
    assert "DR 0004" in s.summary and "DE 4" not in s.summary


# Real text (18F handbook, office pages): only the New York and DC pages have a nursing room; Chicago's does not.
OFFICES = (
    ("New York City", "Where are the... > Mother’s rooms",
     "There's a mother's (aka lactation) room on the 54th floor on the southeast side. It has outlets, a sink, and a "
     "fridge. Ideally you should book time in the room with BookIt."),
    ("Washington, D.C.", "Where are the... > Nursing/Pumping rooms",
     "Look for room 1232A at the back of the health center on the first floor. There is a fridge inside the room "
     "and one outside the room, in the health clinic."),
    ("Chicago", "Amenities > Health Center",
     "There is a health center (Federal Occupational Health) near the southeast corner of the 3rd floor."),
    ("Chicago", "How do I...? > Book rooms for meetings?", "In Chicago, you can book rooms using BookIt."),
)


async def test_a_place_the_question_names_is_where_it_is_answered(minilm):
    """A Chicago question answered with New York's mother's room answers about another office: a part naming a
    place whose key word no page of that place uses is not answered (and the closest topics are named)."""
    asked = ("I'm nursing and will be working out of the Chicago office a few days a week. Is there a lactation room "
             "there, and on which floor?")
    s = await _answer(minilm, asked, _context(*OFFICES))
    assert not s.findings and "54th floor" not in s.summary, s.summary
    s = await _answer(minilm, "Is there a lactation room in the New York office?", _context(*OFFICES))
    assert "54th floor" in s.summary, s.summary


async def test_a_place_part_is_judged_by_its_own_words(minilm):
    """Another part's word ("acupuncture") missing from the Chicago pages does not unanswer the Chicago part."""
    from synthesis.qa import answerability
    from synthesis.qa.question import analyze

    frame = analyze("Where is the health center in the Chicago office? Does FEHB cover acupuncture?")
    units = candidates(_context(*OFFICES, (
        "Health benefits", "FEHB > Covered services",
        "FEHB plans cover acupuncture when a licensed practitioner performs it.")))
    ExtractiveSynthesizer(minilm).reader.score(frame, units)
    assert answerability.answered_elsewhere(frame, units, minilm.embed) == {}


async def test_a_general_page_answers_for_a_named_system(minilm):
    """"… in Tock" scopes a part, but a general page (not titled by a name) answering it is no other place."""
    context = _context(
        ("Leave types", "Sick leave > For bereavement purposes",
         "You can use up to 13 days (104 hours) per year of your sick leave for bereavement purposes."),
        ("Tock", "Tocking for Out of Office",
         "Record out of office time as part of your weekly Tock, on the Out of Office line."),
        ("Tock", "Tock lines", "Use the Out of Office line for any leave."),
        ("Leave types", "Sick leave", "You can use sick leave for doctor and medical appointments."),
        ("HR Links", "Using leave", "You will need to submit an absence request in HR Links whenever you are out."))
    s = await _answer(minilm, "How do I charge bereavement leave in Tock?", context)
    assert s.findings, s.summary


# Real text (18F handbook, TTSC success measures): the year's results are an editor's placeholder, "TK".
MEASURES = _context(
    ("Success measures", "Success measures > Employee engagement",
     "How we measure employee engagement:\n\n- FY24 FEVS results for TTSC TK\n- TTSC pulse check surveys have been "
     "conducted separately within 18F and CoE. These help us identify areas for improving employee experience.\n"
     "- Federal Employee Viewpoint Survey (FEVS) is an organizational climate survey administered annually by the "
     "Office of Personnel Management. All TTSC employees are encouraged to participate."),
    ("Success measures", "Success measures > Partner satisfaction",
     "How we measure partner satisfaction:\n\n- Respondents should be asked to quantify their satisfaction with TTSC "
     "so we can track year-over-year improvement via Net Promoter Score, Customer Satisfaction Score, or equivalent "
     "score as defined by the TTS Director’s annual goals.\n- For several years, 18F account managers have "
     "conducted partner satisfaction surveys after an engagement ends. These surveys are structured interviews."),
)


async def test_a_placeholder_is_no_answer(minilm):
    """'How did TTSC score on FEVS' was answered by quoting 'FY24 FEVS results for TTSC TK.': the page has not
    written it yet, and the answer says so."""
    from synthesis.verify import PLACEHOLDER, UNDOCUMENTED

    assert PLACEHOLDER.search("FY24 FEVS results for TTSC TK.") and PLACEHOLDER.search("Owner: TODO")
    assert PLACEHOLDER.search("TODO: write this section")
    assert not PLACEHOLDER.search("The GUI toolkit is Tcl/TK.")  # a name
    assert not PLACEHOLDER.search("The tk module wraps Tk.")  # a word, not the placeholder
    # Node's contributing guide: a request to be added as a triager is how to become one, not a missing page
    assert not UNDOCUMENTED.search("Open a PR on the README.md of this project with: i) a request to be added as a "
                                   "triager, ii) the motivation for becoming a triager")
    s = await _answer(minilm, "How did TTSC score on last year's Federal Employee Viewpoint Survey? What was our "
                              "engagement score?", MEASURES)
    # the gap cites the page that holds the placeholder: it is not written yet, not missing from the search
    assert any("Federal Employee Viewpoint Survey" in g and "[1]" in g for g in s.gaps), s.gaps
    assert "TTSC TK" not in s.summary, s.summary


async def test_a_system_or_a_place_is_not_a_person_who_signs_off(minilm):
    """18F handbook: 'Three weeks off without pay. Whose sign-off do I need?' was answered from the Tock page
    ('You cannot request paid time off in Tock (… HR Links)'): 'HR Links' and 'out of office' read as a role."""
    context = _context(
        ("Time tracking and billing", "Tocking for Out of Office",
         "You cannot request paid time off in Tock (see the Leave page for guidance on requesting paid time off "
         "using HR Links). But you do need to record out of office time as part of your weekly Tock."),
        ("Leave types", "Types of leave > Unpaid leave",
         "If you have exhausted all other paid leave options, you can request Leave Without Pay (LWOP). You can "
         "request unpaid leave of less than four weeks at any time.\n\n"
         "To take a leave of absence without pay, you'll need justification and supervisory oversight. For longer "
         "periods, you'll also need 2nd level supervisory approval:\n\n"
         "* To request 80 hours or less of LWOP, you must get written approval from your immediate supervisor.\n\n"
         "* To request over 80 hours of LWOP, you must get written approval from your immediate supervisor and "
         "Business Unit Director."),
    )
    s = await _answer(minilm, "I need about three weeks off without pay. Whose sign-off do I need?", context)
    assert "supervisor" in s.summary.split("[")[0], s.summary
    assert "Tock" not in s.summary.split("[")[0]
    # the answering list item is one of two cases (80 hours or less, over 80): a short list is quoted whole
    assert "Business Unit Director" in s.summary and "80 hours or less" in s.summary, s.summary
    # … once, however many of its items the summary picked
    assert s.summary.count("80 hours or less") == 1, s.summary
    three = _context(("Leave types", "Unpaid leave",
                      "Approval for leave without pay depends on its length:\n\n"
                      "* Up to 80 hours: your immediate supervisor approves.\n"
                      "* Over 80 hours: your supervisor and the Business Unit Director approve.\n"
                      "* Over 240 hours: the Head of People Ops also approves."))
    s = await _answer(minilm, "Who approves leave without pay?", three)
    assert s.summary.count("Up to 80 hours") == 1 and "Head of People Ops" in s.summary, s.summary


def test_a_sentence_under_a_heading_that_matches_the_question_gains(minilm, monkeypatch):
    """The innermost heading is read on its own: 'Forgot your card' is where 'I left my badge at home' is answered,
    though its sentence says neither badge nor home."""
    import synthesis.qa.reader as reader

    context = _context(
        ("Mac setup", "Passwords", "You can change the password that you use to log into your Mac or reset the "
                                   "password by following ServiceNow KB0024344."),
        ("PIV card", "Troubleshooting > Forgot your card",
         "Please contact the Help Desk and they will assist you by temporarily enabling your computer to use a "
         "username and password instead of your PIV card."),
    )
    frame = analyze("I left my badge at home and can't log into my Mac. What should I do?")
    synthesizer = ExtractiveSynthesizer(minilm)

    def scores() -> dict[str, float]:
        units = candidates(context)
        synthesizer.reader.score(frame, units)
        return {u.passage.section.split(">")[-1].strip(): u.relevance for u in units}

    with_sections = scores()
    monkeypatch.setattr(reader, "W_SECTION", 0.0)
    without = scores()
    gain = {k: with_sections[k] - without[k] for k in without}
    assert gain["Forgot your card"] > gain["Passwords"] >= 0, gain


async def test_a_question_about_one_office_is_not_answered_from_another(minilm):
    """18F handbook: 'Is bike parking free at the DC office?' was answered from the Chicago page ('Bike parking is
    available in the basement of JCK …'): the question names its place, and the Chicago sentence shares more words."""
    context = _context(
        ("Chicago", "Amenities > Bike parking",
         "Bike parking at the office is free in the basement of JCK, once you complete the permission form."),
        ("Washington, D.C.", "Getting here > Biking",
         "Cyclists can leave their bikes in the bike room at no cost; the entrance is via a ramp on E Street."),
        ("San Francisco", "Getting here > Biking", "If you have your own bike: the SF office offers bike parking."),
    )
    from synthesis.qa.asker import scopes as reader_scopes

    s = await _answer(minilm, "Is bike parking free at the DC office?", context)
    first = s.summary.split("[")[0]
    assert "E Street" in first and "JCK" not in first, s.summary
    # a possession is not a place ("my Mac"); a name is what the passages write capitalised, not title case
    from synthesis.qa.asker import _NAME
    from synthesis.stems import content_stems
    assert [m.group("name") for m in _NAME.finditer("I can't log into my Mac at the DC office")] == ["DC"]
    units = candidates(context)
    head = [content_stems(u.heading + " " + u.lead_in) for u in units]
    assert reader_scopes("Is bike parking free at the DC office?", units, head) == {"dc"}
    assert reader_scopes("How do I get to Bike parking?", units, head) == set()  # "parking": lower case


async def test_a_heading_that_asks_the_question_holds_the_answer(minilm, monkeypatch):
    """18F handbook: 'Who is eligible for the end of year performance bonus?' is a heading; the answer is the
    paragraph under it, not a sentence elsewhere about who is eligible to be rated."""
    import synthesis.qa.reader as reader

    context = _context(
        ("Performance management", "Performance plans",
         "A GSA employee is eligible to be rated by their official Supervisor if they have been on an established "
         "Performance Plan for 120 days."),
        ("Performance management", "Who is eligible for the end of year performance bonus?",
         "Employees who occupy eligible positions as of September 30, of the current fiscal year, and who receive "
         "an eligible rating of record, may receive an Individual Performance Award (IPA)."),
    )
    question = "Who is eligible for the end of year performance bonus?"
    on, off = await _with_and_without(minilm, monkeypatch, question, context, reader, "FAQ_BONUS", 0.0)
    assert on.startswith("Employees who occupy eligible positions as of September 30"), on
    assert not off.startswith("Employees who occupy"), "the heading bonus is what puts it first here"


async def test_near_duplicates_that_differ_in_the_question_word_both_survive(minilm):
    context = _context(
        ("Paid parental leave", "Caregivers",
         "A primary caregiver receives up to 16 weeks of paid parental leave after the birth or placement. "
         "A secondary caregiver receives up to 6 weeks of paid parental leave after the birth or placement."),
    )
    s = await _answer(minilm, "How many weeks of paid parental leave does a primary caregiver get?", context)
    assert "16 weeks" in s.summary
    assert "6 weeks" not in s.summary.replace("16 weeks", "")


async def test_comparison_answers_both_sides(minilm):
    context = _context(
        ("Overtime", "Comp time",
         "Comp time is when you receive hours of leave instead of overtime pay. Comp time expires if you do not "
         "use it within 26 pay periods."),
        ("Overtime", "Credit hours",
         "Credit hours are hours you work beyond your schedule on a flexible schedule. You can carry over up to "
         "24 credit hours from one pay period to the next, and they do not expire."),
    )
    s = await _answer(minilm, "How do comp time and credit hours differ?", context)
    assert "Comp time" in s.summary and "24" in s.summary


async def test_a_side_is_answered_by_what_it_says_of_that_side_not_by_a_label_or_by_both(minilm):
    """18F handbook: a comparison of comp time and credit hours quoted 'Use credit hours, or use comp time' (both
    sides, told apart in nothing); a comparison of vouchers quoted two list labels ('Local and miscellaneous
    vouchers.')."""
    holiday = _context(
        ("Overtime", "Holidays", "If you typically work more than 8 hours on a day which falls on a holiday, you have "
                                 "a few options:\n\n- Use credit hours, or use comp time.\n- Make up the hours."),
        ("Overtime", "Comp time", "Comp time is when you receive hours of leave instead of overtime pay."),
        ("Overtime", "Credit hours", "You can only be compensated with credit hours on a flexible schedule."),
    )
    s = await _answer(minilm, "How do comp time and credit hours differ?", holiday)
    assert "flexible schedule" in s.summary and "instead of overtime pay" in s.summary, s.summary
    assert "or use comp time" not in s.summary
    vouchers = _context(
        ("Get reimbursed", "Types of vouchers", "- Local and miscellaneous vouchers.\n"
                                                "- Voucher from authorization (all non-local travel)."),
        ("Get reimbursed", "Local vouchers", "The payment method for all local and miscellaneous vouchers is CASH."),
        ("Get reimbursed", "Voucher from authorization", "You will be led through creating a voucher from your "
                                                         "authorization that you got approved prior to traveling."),
    )
    s = await _answer(minilm, "How is a local voucher different from a voucher from authorization?", vouchers)
    assert "CASH" in s.summary and "led through creating a voucher" in s.summary, s.summary
    # a short sentence with a verb is no label ("Bike parking is free." answers a question)
    from synthesis.qa.reader import _VERB
    assert _VERB.search("Bike parking is free.") and not _VERB.search("Local and miscellaneous vouchers.")


async def test_a_neighbouring_topic_is_not_an_answer(minilm):
    context = _context(
        ("Leave types", "Annual leave",
         "You earn 4 hours of annual leave per pay period in your first three years, then 6 hours, then 8 hours "
         "after fifteen years of service."),
        ("Leave types", "Leave without pay",
         "If you have exhausted all other paid leave options, you can request leave without pay."),
    )
    s = await _answer(minilm, "Am I eligible for a paid sabbatical after five years, and how long can it be?",
                      context)
    assert not s.findings and not s.summary  # the agent turns this into "not in the knowledge base"


async def test_paraphrase_is_still_answered(minilm):
    context = _context(
        ("Leave types", "Voting and poll volunteering",
         "You can receive Administrative Leave in order to vote, register to vote, or participate in early "
         "voting. You can receive up to 4 hours for each election event."),
    )
    s = await _answer(minilm, "How much paid time off can I get to go cast my ballot in a primary election?",
                      context)
    assert "4 hours" in s.summary


async def test_unrelated_numbers_are_not_a_contradiction(minilm):
    context = _context(
        ("Travel", "Receipts", "You need receipts for lodging and for any expense over $75."),
        ("Travel", "Local vouchers", "For local vouchers the receipt threshold is $25 and trips under 12 hours "
                                     "get no per diem."),
        ("Benefits", "Insurance", "Supervisors can be reimbursed up to half the cost of liability insurance, at "
                                  "most $150 a year."),
    )
    s = await _answer(minilm, "Which travel expenses need receipts?", context)
    assert not s.contradictions
    assert "Sources disagree" not in s.summary


FLIGHTS = _context(  # the 18F handbook's flight rules, as the ingest renders them
    ("Frequently Asked Questions", "Questions about booking travel > How to Choose a Flight",
     "When choosing flights, you may notice they fall into four different categories:\n\n"
     "- Govt. Contract Discounted: the preferred option. In general, these fares are only available 15 or more "
     "days in advance, so try to book your travel as early as possible.\n"
     "- Govt. Contract: the standard option, based on the city pair rate, the agreed upon rate for government "
     "flights between two cities.\n"
     "- Other flights: you may book other flights if no contract fare is available, and you must justify it.\n\n"
     "If your international flight is delayed more than 4 hours, contact AdTrav to rebook."),
    ("Travel 101", "Booking travel", "All flights, hotels and rental cars are booked through Concur."),
)


async def test_a_threshold_the_knowledge_base_never_states_is_not_answered(minilm):
    """18F handbook: 'business class on a flight longer than 14 hours' was answered from the coach-fare rules."""
    s = await _answer(minilm, "Am I allowed to book business class on an international flight longer than 14 hours?",
                      FLIGHTS)
    assert not s.findings and not s.summary


async def test_a_threshold_the_knowledge_base_states_is_answered(minilm):
    s = await _answer(minilm, "What do I do if my international flight is delayed more than 4 hours?", FLIGHTS)
    assert "AdTrav" in s.summary


async def test_a_rare_word_in_an_unrelated_passage_does_not_make_the_question_answerable(minilm):
    """'coworking' appears once in the handbook, in a sample resume ('monthly coworking days')."""
    from synthesis.qa import support

    context = _context(
        ("Equipment", "Peripherals", "If your business unit pays for peripherals beyond the remote workers home "
                                     "kit, submit a micropurchase request for review by a purchase card holder."),
        ("Resume examples", "Web professional", "Convened monthly coworking days among all college web "
                                               "professionals, bringing us together as a team of peers."),
    )
    synthesizer = ExtractiveSynthesizer(minilm)
    frame = analyze("Will the agency reimburse a coworking space membership for remote employees?")
    units = candidates(context)
    synthesizer.reader.score(frame, units)
    assert "coworking" in support(frame, units, minilm.embed).missing


async def test_a_rare_word_is_not_present_as_the_people_who_do_it(minilm):
    """18F handbook: 'coworkers' (travel tips) stems like 'coworking', so a coworking-space question was answered from
    the home-office kit: an agent noun names people, not the activity."""
    from synthesis.qa import support
    from synthesis.qa.wordforms import agent_noun as _agent

    context = _context(
        ("Equipment", "Peripherals", "If your business unit pays for peripherals beyond the remote workers home "
                                     "kit, submit a micropurchase request for review by a purchase card holder."),
        ("Travel", "Remote working guidance", "When working remotely from somewhere that isn't your usual duty "
                                              "location, consider these tips to help coworkers plan around your trip."),
    )
    synthesizer = ExtractiveSynthesizer(minilm)
    frame = analyze("Will the agency reimburse a coworking space membership for remote employees?")
    units = candidates(context)
    synthesizer.reader.score(frame, units)
    assert "coworking" in support(frame, units, minilm.embed).missing
    assert _agent("coworkers") and _agent("recruiter") and not _agent("coworking") and not _agent("numbers")
    frame = analyze("Can my coworkers see my calendar?")  # the same kind of word is present
    assert "coworkers" not in support(frame, units, minilm.embed).missing
    # the other way round is not a different thing: a question about transporters is answered by transport
    papers = _context(("Paper", "Results", "Glucose transport into the cell fell by half in the knockout mice."))
    units = candidates(papers)
    frame = analyze("Do glucose transporters work in knockout mice?")
    synthesizer.reader.score(frame, units)
    assert "transporters" not in support(frame, units, minilm.embed).missing


async def test_a_part_that_stands_alone_is_not_drowned_by_the_statement(minilm):
    """18F handbook: the statement 'I'm on a compressed schedule working four 10-hour days' pulled the holiday part
    to the schedule examples ('you work four 9 hour days … and have a specific day off') instead of the holiday
    rule."""
    context = _context(
        ("Work schedules", "Schedule types > Compressed schedule",
         "You are scheduled to arrive and depart at the same time, every day that you work. But, you work longer "
         "than 8 hours each day, so that you do not have to work the full 10 days in a pay period.\n\n"
         "- Holiday pay: Yes - You will receive holiday pay for the 8, 9, 10, 12 hours you were scheduled to work. "
         "If a holiday falls on your scheduled off day, GSA may move your holiday one day earlier or later.\n"
         "- Credit hours: No - Not available with this schedule"),
        ("Work schedules", "Compressed schedule examples",
         "- Example 1: You work four, 10 hour days each week. You have one specific day off each week.\n"
         "- Example 2: One week, you work four 9 hour days and one 8 hour day (44 hours). The other week, you work "
         "four 9 hour days (36 hours) and have a specific day off."),
        ("Overtime", "Credit hours", "Only people on flexible work schedules can earn and use credit hours."),
    )
    s = await _answer(minilm, "I'm on a compressed schedule working four 10-hour days. Can I earn credit hours, "
                              "and what happens if a federal holiday falls on my regular day off?", context)
    assert "one day earlier or later" in s.summary, s.summary


async def test_a_kind_of_a_covered_thing_that_no_passage_names_is_not_answered(minilm):
    """18F handbook: 'Will the agency reimburse my pet insurance?' was answered from the liability-insurance rule.
    The knowledge base covers insurance, not pet insurance."""
    from synthesis.qa.topic import compound_modifiers

    context = _context(
        ("Frequently Asked Questions", "How can I get reimbursed for professional liability insurance?",
         "You may be reimbursed for your expenses from official travel, or any other approved expense paid for via "
         "personal funds (such as reimbursement for local travel, or professional liability insurance for "
         "supervisors) by creating a voucher in Concur."),
        ("Benefits", "Insurance", "Supervisors can be reimbursed up to half the cost of professional liability "
                                  "insurance."),
    )
    s = await _answer(minilm, "Will the agency reimburse my pet insurance?", context)
    assert not s.findings and not s.summary
    # a covered kind, a verb after its subject, a preposition and a participle are not kinds the context lacks
    assert compound_modifiers("Will the agency reimburse my pet insurance?", {"pet"}, {"insur"}) == ["pet"]
    assert compound_modifiers("Can I delete a Slack message I regret posting?", {"regret"}, {"post"}) == []
    assert compound_modifiers("what happens to annual versus sick leave?", {"versus"}, {"sick"}) == []
    assert compound_modifiers("a seriously injured servicemember", {"injured"}, {"servicememb"}) == []
    assert compound_modifiers("Does TTS match my donations to charity?", {"charity"}, {"donat", "tts"}) == ["charity"]
    assert compound_modifiers("Can I see a demo?", {"demo"}, {"see"}) == []
    # a thing the context never names after a word it covers: a relocation is covered, a relocation bonus is not;
    # a verb after a covered noun is not a thing ("go cast my ballot", "paid parental leave ends")
    assert compound_modifiers("Is there a relocation bonus?", {"bonus"}, {"reloc"}) == ["bonus"]
    assert compound_modifiers("Can I go cast my ballot?", {"cast"}, {"go", "ballot"}) == []
    assert compound_modifiers("when my paid parental leave ends", {"ends"}, {"leav"}) == []
    assert compound_modifiers("Do I need approval to attend a conference?", {"attend"}, {"approv", "confer"}) == []
    # a gerund right before a covered noun after an article names a kind ("a signing bonus"); a gerund after a verb
    # is still a verb; a common word is not read as a kind: "primary election" is covered by "each election event",
    # and frequency cannot tell it from "stock options" (Zipf 4.9 both)
    assert compound_modifiers("Can I get a signing bonus as a new hire?", {"signing"}, {"bonus", "hire"}) == [
        "signing"]
    assert compound_modifiers("Can I vote in a primary election?", {"primary"}, {"vote", "elect"}) == []
    assert compound_modifiers("Is it okay to keep coding late?", {"coding"}, {"keep", "late"}) == []
    s = await _answer(minilm, "Will the agency reimburse my professional liability insurance?", context)
    assert "liability insurance" in s.summary


async def test_a_passage_word_that_is_another_question_word_is_no_synonym(minilm):
    """18F handbook: 'Does TTS match my donations to charity?' was answered from the leave-donation program:
    'charity' read as present because the passages say 'donate', a form of the question's own 'donations'."""
    context = _context(
        ("Voluntary Leave Transfer Program", "", "The Voluntary Leave Transfer Program (VLTP) allows TTS employees "
                                                 "to donate annual leave directly to another employee who has a "
                                                 "personal or family medical emergency."),
        ("Voluntary Leave Transfer Program", "Donating leave", "You can donate hours to your colleagues through "
                                                               "VLTP. Donated hours are used before advanced leave."),
    )
    s = await _answer(minilm, "Does TTS match my donations to charity?", context)
    assert not s.findings and not s.summary
    s = await _answer(minilm, "How do I donate annual leave to a colleague?", context)
    assert "donate" in s.summary


async def test_why_is_answered_by_the_reason_after_the_restated_premise(minilm):
    """A 'why' question's best match restates its premise ('Note that your pay is a little less than …'); the
    reason is in the sentences that follow, and the summary must reach them."""
    context = _context(
        ("On-call", "Pages", "Note that your pager fires twice for every SEV1 alert during the night. The second page "
                             "comes from the escalation policy, not from the alert itself. The escalation policy "
                             "re-pages the primary after 5 minutes without an acknowledgement. Acknowledge in the app "
                             "to stop it."),
        ("On-call", "Handover", "The outgoing primary writes a handover note every Monday."),
    )
    s = await _answer(minilm, "Why does my pager fire twice for every SEV1 alert at night?", context)
    assert s.summary.startswith("Note that your pager fires twice"), s.summary
    assert "after 5 minutes" in s.summary, s.summary
    assert "handover" not in s.summary.lower()


def test_a_yes_no_question_about_two_cases_has_two_parts():
    frame = analyze("Can I work remotely from outside the U.S., say while on vacation in Europe, or long-term because "
                    "my spouse is being posted overseas?")
    assert [p.text for p in frame.parts] == ["Can I work remotely from outside the U.S., say while on vacation in Europe",
                                             "long-term because my spouse is being posted overseas"]
    assert "remot" in frame.parts[1].stems and frame.parts[1].query.startswith("Can I work remotely")
    assert len(analyze("Can I use Slack or email?").parts) == 1  # alternatives of one word each are one question
    assert len(analyze("Is the deadline Friday, or Monday?").parts) == 1


async def test_a_one_word_question_is_answered_where_the_word_is_used(minilm):
    """The rare-word rule asks for a second question word beside the rare one; a question with one word has none."""
    context = _context(("Benefits", "Time away", "A sabbatical of up to three months is available after seven "
                                                 "years of service, with your director's approval."))
    s = await _answer(minilm, "Do we offer sabbaticals?", context)
    assert "three months" in s.summary, s.summary


CTEST_SUBMIT = _context(
    ("ctest(1)", "Dashboard Client > Dashboard Client Configuration",
     "CTestSubmitRetryCount: Specify a number of attempts to retry submission on network failure.\n\n"
     "CTestSubmitRetryDelay: Specify a delay before retrying submission on network failure.\n\n"
     "HTTP1.0: This option will force CTest to use HTTP 1.0 to submit files to the dashboard, instead of HTTP 1.1."),
    ("ctest(1)", "Dashboard Client",
     "CTest can operate as a client for the CDash software quality dashboard application. As a dashboard client, "
     "CTest performs a sequence of steps to configure, build, and test software, and then submits the results to a "
     "CDash server. A submission that fails on a network error is retried."),
)


async def test_a_duration_no_passage_states_is_not_answered(minilm):
    """CMake's manual names the retry delay setting and gives no value: 'how many seconds' was answered with it."""
    outcome = await ExtractiveSynthesizer(minilm).synthesize(
        "When a CDash submission fails on a network error, how many seconds does ctest wait by default before "
        "retrying?", CTEST_SUBMIT)
    assert not outcome.synthesis.summary and not outcome.synthesis.findings
    assert outcome.missing == ["a number of seconds"]


async def test_a_duration_a_passage_states_is_answered(minilm):
    context = _context(*[(s.passage.title, s.passage.section, s.passage.content) for s in CTEST_SUBMIT.sources],
                       ("ctest(1)", "Dashboard Client > Dashboard Client Configuration",
                        "If no retry delay is given, CTest waits 5 seconds before it submits again."))
    s = await _answer(minilm, "When a CDash submission fails on a network error, how many seconds does ctest wait "
                              "by default before retrying?", context)
    assert "5 seconds" in s.summary, s.summary


async def test_a_price_no_passage_states_is_not_answered_but_a_stated_one_is(minilm):
    """npm's docs: the org seat question was answered with 'it impacts the monthly bill'."""
    org = ("Organizations", "Roles", "Super admin, controls billing & adding people to the npm org. The super admin is "
           "the only person who can add users to the org because it impacts the monthly bill. Each member takes a "
           "seat in the org.")
    question = "How much does each member seat in a paid npm org cost per month?"
    assert not (await _answer(minilm, question, _context(org))).summary
    priced = ("Organizations", "Pricing", "Each member seat in a paid organization costs $7 per month.")
    assert "$7" in (await _answer(minilm, question, _context(org, priced))).summary


SURVEYS = ("Qualtrics", "Best practices",
           "While you're testing your survey, use the preview link. This is because the survey contract has a max "
           "number of audible responses. Responses received from the preview link are not audible responses. If "
           "you're collecting feedback from more than 10 people outside of the Federal Government, your survey will "
           "need to go through PRA approval.")


async def test_a_count_of_something_no_passage_counts_is_not_answered(minilm, monkeypatch):
    """18F handbook (a fresh probe): "How many survey responses does the contract allow?" was answered with "more
    than 10 people": a count, but of people."""
    from synthesis.qa import unstated

    question = "How many survey responses does our Qualtrics contract allow per year?"
    outcome = await ExtractiveSynthesizer(minilm).synthesize(question, _context(SURVEYS))
    assert not outcome.synthesis.summary and outcome.missing == ["a number of responses"]
    counted = ("Qualtrics", "Licenses", "The survey contract allows 50,000 audible responses per year.")
    assert "50,000" in (await _answer(minilm, question, _context(SURVEYS, counted))).summary
    monkeypatch.setattr(unstated, "COUNTED", False)
    assert "10 people" in (await _answer(minilm, question, _context(SURVEYS))).summary


async def test_the_number_of_something_asks_a_count_of_it(minilm, monkeypatch):
    """18F handbook (a development probe): "What's the maximum number of responses GSA's Qualtrics contract
    allows?" was answered with "more than 10 people" too: "the number of X" counts X as "how many X" does."""
    from synthesis.qa import unstated

    question = "What's the maximum number of responses our Qualtrics contract allows?"
    outcome = await ExtractiveSynthesizer(minilm).synthesize(question, _context(SURVEYS))
    assert not outcome.synthesis.summary and outcome.missing == ["a number of responses"], outcome.missing
    monkeypatch.setattr(unstated, "NUMBER_OF", False)
    monkeypatch.setattr(unstated, "PEOPLE_NUMBER_OF", False)  # (which reads "number of" as a count of anyone)
    outcome = await ExtractiveSynthesizer(minilm).synthesize(question, _context(SURVEYS))
    assert "a number of responses" not in outcome.missing, outcome.missing


@pytest.mark.parametrize(("question", "noun"), [
    ("How many survey responses does our Qualtrics contract allow per year?", "responses"),
    ("How many survey responses?", "responses"),
    ("How many GPUs does the build machine have?", "GPUs"),
    ("How many hours of leave can I carry over?", ""),  # a unit: the duration rules read it
    ("How many GB of RAM does it have?", ""),  # a unit
    ("How many times will it retry?", ""),  # as common as a unit
    ("How much training budget does each employee get?", ""),  # "how much" asks an amount of anything
    ("How much faster is cargo check?", ""),
    ("How many hardware breakpoints and watchpoints should it report?", ""),  # two things counted
    ("What's the maximum number of responses the contract allows?", "responses"),
    ("What's the maximum number of days I can carry over?", ""),  # a unit
    ("What's the maximum number of Zoom participants in a meeting?", "participants"),  # the phrase's head
    ("What's the max number of PTO days?", ""),  # … a unit (found in review)
])
def test_the_noun_a_count_counts(question, noun):
    from synthesis.qa.unstated import counted_noun

    assert counted_noun(question) == noun


async def test_a_count_named_in_another_form_is_stated(minilm):
    """Found in review: "How many GPUs" against "four GPU devices" (another stem) was refused."""
    gpus = ("Build farm", "Hardware", "Each build machine has four GPU devices and 64 GB of memory.")
    assert "four GPU" in (await _answer(minilm, "How many GPUs does each build machine have?", _context(gpus))).summary


def _weakly_retrieved(*passages: tuple[str, str, str], scores=(0.37, 0.32, 0.31, 0.3)) -> Context:
    """Like `_context`, with the retrieval scores of a question the knowledge base only brushes against."""
    context = _context(*passages)
    for source, score in zip(context.sources, scores):
        source.passage = source.passage.model_copy(update={"score": score})
    return context


MEET_PAGES = (
    ("Google Meet", "Tips",
     "Google Meet is an online video conferencing tool that integrates with Google Calendar. Every calendar invite "
     "gets a Meet link automatically. Use a headset to avoid echo."),
    ("Meetings and events policy", "Internal meetings",
     "The most applicable part of this policy for TTS is the approval requirement for internal meetings that "
     "require the travel of more than six employees or will cost more than $10,000."),
    ("Onboarding overview", "Video conferencing tools",
     "Some types of meetings you might attend include one-on-ones, team meetings and all-hands."),
)


async def test_a_year_never_makes_an_answer_high(minilm, monkeypatch):
    """18F handbook (fresh probe, found in the final run): "… when did the CoE program get started?" was answered
    'high' with "In 2020, the CoE was codified into law" (it started in 2017). A year holds a "when did" part for
    ranking, but whether it is the year of what was asked cannot be seen in the quote."""
    import synthesis.synthesize.extractive as extractive

    monkeypatch.setattr(extractive, "HIGH_SUPPORT", 0.0)  # support is not what this is about
    context = _context(
        ("Centers of Excellence", "Centers of Excellence > About",
         "CoE has six centers. In 2020, the CoE was codified into law by the IT Modernization Centers of Excellence "
         "Program Act. In October 2018, CoE began working with its second partner."))
    question = "How many Centers of Excellence are there, and when did the CoE program get started?"
    on = (await _answer(minilm, question, context)).quality.overall
    monkeypatch.setattr(extractive, "asks_date", lambda text: False)
    off = (await _answer(minilm, question, context)).quality.overall
    assert on <= 0.6 < 0.75 <= off, (on, off)


@pytest.mark.parametrize(("word", "other"), [
    ("behaviour", "behavior"), ("organise", "organize"), ("analysed", "analyzed"), ("centre", "center"),
    ("catalogue", "catalog"), ("travelled", "traveled"), ("cancelled", "canceled"), ("prebuild", "build"),
    ("non-blocking", "blocking"),
])
def test_another_spelling_names_the_same_thing(word, other):
    from synthesis.qa.wordforms import spellings

    assert other in spellings(word)


@pytest.mark.parametrize("word", ["restore", "release", "decode", "stall", "pre", "controller", "stalled", "polling",
                                  "preserve", "prescribe", "unemployment", "nonprofit"])
def test_a_prefix_that_changes_the_topic_is_kept(word):
    from synthesis.qa.wordforms import spellings

    assert not spellings(word)  # "restore" is no "store", "release" no "lease"


@pytest.mark.parametrize(("word", "other"), [("behaviour", "behavior"), ("analyse", "analyze"),
                                             ("travelled", "traveled"), ("colour", "color")])
def test_a_british_spelling_is_as_common_as_the_american_one(word, other):
    from synthesis.qa.question import zipf

    assert zipf(word) >= zipf(other) - 1e-9


# Real text (the Embedded Rust Book, "Tips for embedded C developers > Volatile Access", its two best chunks for the
# question): it says "volatile" and "volatile access", never "behaviour" (nor "behavior").
VOLATILE = _context(
    ("Tips for embedded C developers", "Tips for embedded C developers > Volatile Access",
     "In C, individual variables may be marked volatile, indicating to the compiler that the value in the variable "
     "may change between accesses. Volatile variables are commonly used in an embedded context for memory-mapped "
     "registers.\n\nIn Rust, instead of marking a variable as volatile, we use specific methods to perform "
     "volatile access: core::ptr::read_volatile and core::ptr::write_volatile. These methods take a *const T or a "
     "*mut T (raw pointers, as discussed above) and perform a volatile read or write.\n\n"
     "For example, in C you might write:\n\n```\nvolatile bool signalled = false;\n\nvoid ISR() {\n"
     "    // Signal that the interrupt has occurred\n    signalled = true;\n}\n\nvoid driver() {\n"
     "    while(true) {\n        // Sleep until signalled\n        while(!signalled) { WFI(); }\n"
     "        // Reset signalled indicator\n        signalled = false;\n"
     "        // Perform some task that was waiting for the interrupt\n        run_task();\n    }\n}\n```"),
    ("Tips for embedded C developers", "Tips for embedded C developers > Volatile Access",
     "The equivalent in Rust would use volatile methods on each access:\n\n```\n"
     "static mut SIGNALLED: bool = false;\n\n#[interrupt]\nfn ISR() {\n"
     "    // Signal that the interrupt has occurred\n"
     "    unsafe { core::ptr::write_volatile(&mut SIGNALLED, true) };\n}\n```\n\n"
     "A few things are worth noting in the code sample:\n\nWe can pass &mut SIGNALLED into the function requiring "
     "*mut T, since &mut T automatically converts to a *mut T (and the same for *const T)"),
)


async def test_a_british_spelling_does_not_make_a_word_the_topic(minilm, monkeypatch):
    """'How do you get volatile behaviour in Rust?' was refused ('No retrieved page mentions “behaviour”'):
    "behaviour" read as rarer than "behavior" (Zipf 4.36 against 4.69), so as a kind of volatile thing the pages
    lack ("pet insurance"), where "behavior" would not have been."""
    from synthesis.qa import question as question_module

    asked = "In C I'd declare the flag my ISR sets as `volatile bool`. How do you get volatile behaviour in Rust?"
    on, off = await _with_and_without(minilm, monkeypatch, asked, VOLATILE, question_module, "ANY_SPELLING", False)
    assert "read_volatile" in on, on
    assert "read_volatile" not in off, off


# Real text (pip's docs, repeatable installs and pip wheel): the pages say "build" and "bundle", never "prebuild".
WHEELHOUSE = _context(
    ("Repeatable Installs", "Using a wheelhouse (AKA Installation Bundles)",
     "pip wheel can be used to generate and package all of a project's dependencies, with all the compilation "
     "performed, into a single directory that can be converted into a single archive. This archive then allows "
     "installation when index servers are unavailable and avoids time-consuming recompilation.\n\n"
     "Creating the bundle, on a modern Unix system:\n\n```\n$ tempdir=$(mktemp -d /tmp/wheelhouse-XXXXX)\n"
     "$ python -m pip wheel -r requirements.txt --wheel-dir=$tempdir\n```\n\n"
     "Installing from the bundle, on a modern Unix system:\n\n```\n"
     "$ python -m pip install --force-reinstall --no-index --no-deps $tempdir/*\n```"),
    ("pip wheel", "Description", "Build Wheel archives for your requirements and dependencies."),
)


async def test_a_word_spelled_with_a_prefix_is_covered_by_the_word(minilm, monkeypatch):
    """pip's docs: 'How do I prebuild all deps into a bundle … and install from it on the offline one?' was refused:
    'No retrieved page mentions “prebuild”', though the wheelhouse section answers it."""
    import synthesis.qa.answerability as answerability

    question = ("Our build servers have no internet. How do I prebuild all deps into a bundle on one box and install "
                "from it on the offline one?")
    on, off = await _with_and_without(minilm, monkeypatch, question, WHEELHOUSE, answerability, "spellings",
                                      lambda word: set())
    assert "pip wheel" in on, on
    assert "pip wheel" not in off, off


# Real text (the 18F handbook's term extension and hiring pages): nothing about severance, but "several" — which
# the Porter stemmer reduces to "sever", as it does "severance".
TERM_ENDS = _context(
    ("Term extensions", "What's the process?",
     "Term renewals are not automatic. They require a lot of thought and deliberation - and a fair bit of "
     "bureaucratic process, too. If the decision is not to extend, TTS PeopleOps will submit a PAR to GSA HR near "
     "the end of the employee's term to initiate offboarding."),
    ("Hiring Authorities", "",
     "There are several different hiring paths within the federal government. We have a side-by-side comparison "
     "chart of Hiring Methods we use at TTS. Below is a brief overview. The DHA is a Competitive Service hiring "
     "authority that can be used for term or permanent appointments."),
    ("Term extensions", "",
     "Many TTS employees are hired on term appointments for a maximum of four or eight years. However, term "
     "appointments need to be renewed every two years or 3 years depending on the appointment."),
)


async def test_a_rare_word_whose_stem_only_another_word_shares_is_missing(minilm, monkeypatch):
    """18F handbook (fresh probes): "My term appointment ends … If that happens, does GSA pay any kind of severance?"
    was answered from the DHA hiring rules: "severance" counted as present because "several" has its stem."""
    from synthesis.qa import wordforms

    question = ("My term appointment ends in a few months and it's sounding like it won't be renewed. If that "
                "happens, does GSA pay any kind of severance?")
    on, off = await _with_and_without(minilm, monkeypatch, question, TERM_ENDS, wordforms, "STEM_COSINE", 0.0)
    assert on == "", on  # nothing answers: the agent says what is nearby instead
    assert "[" in off, off  # the rule switched off: answered from the hiring rules


def test_forms_of_one_word_are_no_collision(minilm):
    """The check keeps a word's own forms: "donate" is in a page about donations, "relocate" in one on relocation,
    "accommodate" in one on accommodations; only "several" is no form of "severance"."""
    from synthesis.qa.wordforms import collided as _collided
    from synthesis.stems import content_words

    texts = [content_words(t) for t in ("You can make donations through the leave bank.", "Relocation costs are "
                                        "covered.", "Request reasonable accommodations early.",
                                        "Submit the request with the designation form.", "There are several paths.")]
    # "design" sits 0.30 from "designation": a form of one word can sit that low, so it is left alone
    assert _collided(["donate", "relocate", "accommodate", "design", "severance"], texts, minilm.embed) == ["severance"]


@pytest.mark.parametrize(("a", "b", "same"), [
    ("approves", "approved", True), ("hotfix", "hotfixes", True), ("policies", "policy", True),
    ("relocate", "relocating", True), ("severance", "several", False), ("design", "designation", False),
    ("donate", "donations", False),  # a derived form: the embedder judges it (0.83)
])
def test_inflections_of_one_word(a, b, same):
    from synthesis.qa.wordforms import one_word as _one_word

    assert _one_word(a, b) is same


def test_an_embedder_that_reads_no_meaning_judges_no_collision():
    """A store on the hash embedder (every two words at cosine 0) refused "who approves a production hotfix?" beside
    "A production hotfix needs approval from the release manager": "approval" read as a collision. The rule stands
    down when the embedder does not put two forms of one word close."""
    from synthesis.embedding import HashEmbedder
    from synthesis.qa.wordforms import collided as _collided
    from synthesis.stems import content_words

    texts = [content_words("A production hotfix needs approval from the release manager."),
             content_words("There are several paths.")]
    assert _collided(["approves", "severance"], texts, HashEmbedder(256).embed) == []


async def test_a_number_no_sentence_answers_well_is_not_answered(minilm, monkeypatch):
    """18F handbook (fresh probes): "What's the max number of participants Google Meet allows?" was answered with a
    travel approval rule ("more than six employees"), and "how many weeks does a Path Analysis take" with another
    phase's two weeks. A part asking a number whose best sentence is this weak (QUANTITY_FLOOR) is not answered: any
    number near the topic would do, and it would be the wrong one."""
    import synthesis.qa.answerability as answerability
    from synthesis.qa import unstated

    monkeypatch.setattr(unstated, "COUNT_ANY", False)  # it refuses this one too (no sentence states a count)
    question = "How many people can join a Google Meet call?"
    on, off = await _with_and_without(minilm, monkeypatch, question, _weakly_retrieved(*MEET_PAGES), answerability,
                                      "QUANTITY_FLOOR", 0.0)
    assert on == "", on
    assert off, "without the floor a neighbouring sentence answers"


async def test_a_number_stated_for_the_topic_is_answered_however_weak_the_retrieval(minilm):
    stated = ("Google Meet", "Limits", "A Google Meet call on a GSA account can have up to 100 participants.")
    s = await _answer(minilm, "How many people can join a Google Meet call?",
                      _weakly_retrieved(stated, *MEET_PAGES))
    assert "100 participants" in s.summary, s.summary


async def test_the_comparing_word_is_no_missing_topic(minilm, monkeypatch):
    """18F handbook (fresh probe): "How do the after-hours building rules differ between DC headquarters and the New
    York office?" was refused because no retrieved page says "differ". It compares two sides, each answered."""
    import synthesis.qa.answerability as answerability

    context = _context(
        ("New York City", "Building access",
         "The New York office's building hours are 6am - 7pm. While you can stay in the space later, you won't be "
         "able to get back in if you leave the floor."),
        ("Washington DC", "Building access",
         "The headquarters building is open 24 hours a day to badge holders. Visitors must be escorted after 6pm."),
    )
    question = "How do the after-hours building rules differ between DC headquarters and the New York office?"
    s = await _answer(minilm, question, context)
    assert "6am - 7pm" in s.summary and "24 hours" in s.summary, s.summary
    # over pages about something else, the words no page uses are the topic's, never the comparing word (it was
    # counted among the absent words that make a question off-topic, and named in the refusal)
    parking = _context(("Parking", "Reserving a spot", "Spots are located in the East Courtyard and reserved a day "
                                                       "ahead through the parking desk."))
    synthesizer = ExtractiveSynthesizer(minilm)
    frame, units = analyze("How do comp time and credit hours differ?"), candidates(parking)
    synthesizer.reader.score(frame, units)
    on = answerability.missing_words(frame, units, minilm.embed)
    monkeypatch.setattr(answerability, "comparison_word", lambda word: False)
    off = answerability.missing_words(frame, units, minilm.embed)
    assert "comp" in on and "differ" not in on, on
    assert "differ" in off, off


@pytest.mark.parametrize(("text", "states"), [
    ("You can carry over a maximum of 240 annual leave hours.", True),
    ("Report it within three business days.", True),
    ("Award leave expires a year after it is issued.", True),
    ("Payroll runs biweekly.", True),
    ("Set a timeout in seconds with --timeout.", False),  # a unit with no value is no duration
    ("CTest will not run more than 8 slots at a time.", False),
])
def test_a_stated_duration_needs_a_value(text, states):
    from synthesis.qa.values import DURATION, states_value

    assert states_value(text, DURATION) is states


SAVE_PREFIX = _context(
    ("config", "Config Settings > save-prefix",
     "Default: \"^\". Type: String. Configure how versions of packages installed to a package.json file via --save "
     "or --save-dev get prefixed. For example if a package has version 1.2.3, by default its version is set to "
     "^1.2.3 which allows minor upgrades for that package, but after npm config set save-prefix='~' it would be "
     "set to ~1.2.3 which only allows patch upgrades."),
    ("config", "Config Settings > save-exact",
     "Default: false. Type: Boolean. Dependencies saved to package.json will be configured with an exact version "
     "rather than using npm's default semver range operator."),
    ("npm-update", "Example > Caret Dependencies",
     "If app's package.json contains: \"dependencies\": { \"dep1\": \"^1.1.1\" } Then npm update will install "
     "dep1@1.2.2, because 1.2.2 is latest and 1.2.2 satisfies ^1.1.1."),
)


async def test_a_clipped_word_is_the_word_the_passages_spell_out(minilm):
    """npm's docs: 'when it saves deps to package.json' was refused because no page says 'deps'."""
    s = await _answer(minilm, "How do I get npm to stop sticking a caret in front of versions when it saves deps to "
                              "package.json?", SAVE_PREFIX)
    assert s.summary, s.gaps  # answered, and the setting that does it is among what is quoted
    assert "get prefixed" in " ".join([s.summary, *(f.content for f in s.findings)])


def test_a_clipped_word_needs_a_longer_word_it_begins():
    from synthesis.qa.wordforms import clipped as _clipped

    assert _clipped("deps", ["dependencies"]) and _clipped("env", ["environment"])
    assert not _clipped("sabbatical", ["sabbaticals"])  # a plural is no longer word
    assert not _clipped("moped", ["mode", "model"])
    assert not _clipped("commas", ["commands"])  # a word of its own, not a clipping


async def test_a_hyphenated_word_is_there_when_its_parts_are(minilm, monkeypatch):
    """18F handbook (a fresh probe): "How do I stop the auto-archiver from archiving it?" was refused because no
    page says "auto-archiver"; the GitHub page says repositories are "automatically archived" and how to exempt
    one. A part that only starts a longer word ("co" of "co-working") is no word of its own."""
    from synthesis.qa import wordforms

    archiving = _context(("GitHub", "Repositories > Archiving",
                          "Repositories created as part of an engagement with a partner should be transferred to "
                          "the partner agency, forked back to one of our organizations, and then archived. "
                          "Inactive repositories are automatically archived by the TTS Tech Operations with ghad. A "
                          "repository is considered \"inactive\" if there haven't been any new commits or comments on "
                          "issues or pull requests in a while. For repositories that are still maintained and used but "
                          "have infrequent commits or comments, maintainers can add the MAINTAINED topic to the "
                          "repository to exempt it from automatic archiving."))
    question = ("I maintain a small repo in the 18F org that only gets a commit every few months but is definitely "
                "still in use. How do I stop the auto-archiver from archiving it?")
    on, off = await _with_and_without(minilm, monkeypatch, question, archiving, wordforms, "HYPHENATED", False)
    assert "MAINTAINED topic" in on, on
    assert not off
    assert not wordforms.hyphenated("co-working", {"work"}, ["company", "working"])
    # one part at least is there whole, and a part only begun is four letters or more (found in review)
    assert not wordforms.hyphenated("post-doc", {"post"}, ["documents"])
    assert not wordforms.hyphenated("pre-approval", {"approv"}, ["prepare"])


async def test_an_amount_asked_per_unit_is_answered_only_by_one_stated_per_that_unit(minilm, monkeypatch):
    """18F handbook (real text; two fresh probes): "What's the per-mile rate I get reimbursed when I drive my own car?"
    was answered with "Reimbursement … at the POV mileage rates can be approved …", which states no rate; the
    page's only amounts are per day. A rate asked per mile, per month or per year is answered only by an amount
    stated per that unit of what the question names ("$500 per month" of sandbox spending)."""
    from synthesis.qa import rates

    travel = _context(("Travel guide", "Mileage, Parking, and Tolls",
                       "Reimbursement for privately-owned (not rented) vehicle mileage at the POV mileage rates can be "
                       "approved if considered advantageous to the Government. POV mileage is advantageous when it is "
                       "the least costly method (taking into account the cost of additional travel time) of all "
                       "options including a government car, public transportation, ride-share, taxi, rental car."),
                      ("Travel guide FAQ", "How should I claim meals and incidental expenses?",
                       "The allowance for Meals and Incidental Expenses (M&IE) is a flat rate given to a traveler "
                       "regardless of what they actually spent. For example: Consider a trip taken between 9/16 and "
                       "9/18. M&IE is $69 per day in DC, and is 75% of $69 ($51.75) on the first and last days of a "
                       "trip."))
    question = "What's the per-mile rate I get reimbursed when I drive my own car on official travel?"
    on, off = await _with_and_without(minilm, monkeypatch, question, travel, rates, "RATES", False)
    assert not on, on
    assert "POV mileage rates" in off, off
    # with the rule on (found in review: the checks below had run with it off), an amount per that unit answers
    monkeypatch.setattr(rates, "RATES", True)
    sandbox = _context(("Infrastructure", "Sandbox accounts",
                        "The sandbox is for testing and demonstration purposes only. Thus sandbox users can spend up "
                        "to $500 per month without explicit permission from Infrastructure."))
    s = await _answer(minilm, "I'm spinning up some test infrastructure in my TTS AWS sandbox account. How much can I "
                              "spend per month before I need someone to sign off?", sandbox)
    assert "$500 per month" in s.summary, s.summary
    rated = _context(("Travel guide", "Mileage", "Privately-owned vehicle mileage is reimbursed at 67 cents per mile."),
                     ("Travel guide", "Lodging", "Lodging in Denver is reimbursed up to $199 per night."))
    for asked, stated in (("What's the per-mile rate?", "67 cents per mile"),
                          ("How much do I get reimbursed per mile?", "67 cents per mile"),
                          ("How much can I spend on a hotel in Denver per night?", "$199 per night")):
        assert stated in (await _answer(minilm, asked, rated)).summary, asked
    assert rates.asked_rate("how much of the daily meal allowance do I get?") is None  # a share, no rate
    assert rates.asked_rate("How much does a seat cost?") is None  # one seat's price, no rate
    assert rates.asked_rate("How much will it cost me a month?") == "month"  # … but "a month" is per month
    assert rates.asked_rate("How much leave do I earn each month?") is None  # no money asked
    assert rates.asked_rate("What's the hourly rate limit for the GitHub API?") is None
    # a reason asked, and a salary, which is yearly whatever is asked (hq-032 was refused for "an amount per year")
    assert rates.asked_rate("Why is my gross pay each paycheck a little less than my annual salary divided by "
                             "26?") is None
    assert rates.asked_rate("is it time-and-a-half of my hourly rate", "what's the pay rate - is it …") == "hour"
    assert rates.states_rate("It costs $25/mo.", "month") and rates.states_rate("$1,200 per annum", "year")
    assert not rates.states_rate("a bonus of $500 at year-end", "year")


async def test_a_reimbursement_asked_is_answered_only_by_a_sentence_about_reimbursing(minilm, monkeypatch):
    """18F handbook (real text; a fresh probe): "Will GSA reimburse my moving costs?" was answered from the moving
    page ("If you plan to permanently move …, email TTS-PeopleOps …"), which says nothing of who pays."""
    from synthesis.qa import unstated

    moving = _context(("Moving and changing your address", "Short-term relocation",
                       "If you are relocating for 120 days or less, you do not need to notify PeopleOps or update GSA "
                       "systems."),
                      ("Moving and changing your address", "Moving",
                       "If you plan to permanently move or relocate for longer than 120 days, email "
                       "TTS-PeopleOps@gsa.gov and copy your supervisor as soon as you are thinking about moving. There "
                       "may be implications to your move you might not be aware of or would like to confirm - such as "
                       "a change in pay."))
    question = "I'm moving permanently to Denver for family reasons. Will GSA reimburse my moving costs?"
    on, off = await _with_and_without(minilm, monkeypatch, question, moving, unstated, "REIMBURSED", False)
    assert not on and "relocat" in off, (on, off)
    monkeypatch.setattr(unstated, "REIMBURSED", True)
    insurance = _context(("Travel guide FAQ", "How can I get reimbursed for professional liability insurance?",
                          "Supervisors may be reimbursed for up to half the cost of professional liability insurance, "
                          "up to $150."))
    s = await _answer(minilm, "I'm a supervisor. Will the agency reimburse me for professional liability insurance?",
                      insurance)
    assert "up to half the cost" in s.summary, s.summary


LOGLEVEL = _context(
    ("Config", "Config Settings > loglevel",
     "- Default: \"notice\"\n- Type: \"silent\", \"error\", \"warn\", \"notice\", \"http\", \"info\", \"verbose\", or "
     "\"silly\"\n\nWhat level of logs to report. All logs are written to a debug log, with the path to that file "
     "printed if the execution of a command fails."),
    ("Logging", "Setting Log Levels",
     "The npm CLI has various mechanisms for showing different levels of information back to end-users for "
     "certain commands, configurations & environments. All logs are written to a debug log."),
)


async def test_a_question_about_a_default_is_answered_by_the_line_that_states_it(minilm):
    """npm's docs: 'what loglevel does it use if I don't set one' was answered with what the setting is for."""
    s = await _answer(minilm, "What loglevel does npm use if I don't set one?", LOGLEVEL)
    assert s.summary.find("notice") != -1 and s.summary.find("notice") < 120, s.summary


def test_what_asks_for_a_default():
    assert [p.field == "default" for p in analyze("how chatty is npm out of the box?").parts] == [True]
    omitted = analyze("If I leave out the slots field, how many slots does it get?")
    assert [p.field == "default" for p in omitted.parts] == [True]
    assert [p.field == "default" for p in analyze("How many slots does a GPU have?").parts] == [False]


PRESETS = _context(
    ("cmake-presets(7)", "cmake-presets(7) > Introduction",
     "New in version 3.19. One problem that CMake users often face is sharing settings with other people for common "
     "ways to configure a project. This may be done to support CI builds, or for users who frequently use the same "
     "build. CMake supports two main files, CMakePresets.json and CMakeUserPresets.json, that allow users to specify "
     "common configure options and share them with others."),
    ("cmake-presets(7)", "cmake-presets(7) > Format > Includes",
     "CMakePresets.json and CMakeUserPresets.json can include other files with the include field in file version "
     "4 and later. Files included by these files can also include other files."),
    ("cmake-gui(1)", "cmake-gui(1) > Description",
     "The CMake GUI can also recognize CMakePresets.json and CMakeUserPresets.json files."),
)


async def test_a_question_about_the_release_that_added_a_feature_is_answered_by_its_version_line(minilm):
    """CMake's manual: 'which cmake release first added support for CMakePresets.json' was answered with what the
    files are for; the page's 'New in version 3.19.' line says nothing a question's words match."""
    s = await _answer(minilm, "which cmake release first added support for CMakePresets.json files?", PRESETS)
    assert "3.19" in s.summary, s.summary


@pytest.mark.parametrize(("text", "states"), [
    ("Close of business for the travel team is at 4:30 PM ET.", True),
    ("Ensure this is complete by 3:30 PM Eastern.", True),
    ("The fans are set to stay on until 6 pm.", True),
    ("Submit it by noon.", True),
    ("The goal for the check-in tool is 100% reporting every day.", False),  # how often, not when
    ("Vouchers are reviewed within 5 business days.", False),
])
def test_a_stated_time_of_day_needs_a_clock_time(text, states):
    from synthesis.qa.values import CLOCK, states_value

    assert states_value(text, CLOCK) is states


# Real text (18F handbook): the Daily Check-in page says how often, never by what time; the travel class says when the
# travel team closes.
CHECK_IN = ("Daily Check-in", "Daily Check-in",
            "The Daily Check-in Tool gathers data that the GSA Leadership Team, including the Administrator, reviews on "
            "a daily basis as part of the agency’s COVID planning and response. The goal for the check-in tool is 100% "
            "reporting every day.")
TRAVEL_TEAM = ("Travel 101", "Getting help",
               "Properly submitted authorizations for upcoming travel are reviewed by the team daily, and vouchers are "
               "reviewed within 5 business days. Close of business for the travel team is at 4:30 PM ET.")


async def test_what_time_is_answered_by_a_time_of_day(minilm):
    s = await _answer(minilm, "What time each day is the Daily Check-in due?", _context(CHECK_IN, TRAVEL_TEAM))
    assert not s.findings, s.summary  # "every day" says how often, not by when
    s = await _answer(minilm, "I've got a question for the travel team late in the afternoon. What time do they "
                              "close for the day?", _context(TRAVEL_TEAM, CHECK_IN))
    assert s.summary.startswith("Close of business for the travel team is at 4:30 PM ET."), s.summary


async def test_a_worded_time_of_day_answers_what_time(minilm):
    """A time said in words holds no digit, and answers "what time" as well as "4:30 PM" does."""
    timesheets = _context(("Tock", "Tocking your time",
                           "Submit your timesheet in Tock by close of business on Friday. Late timesheets are flagged "
                           "to your supervisor on Monday."))
    s = await _answer(minilm, "What time is my Tock timesheet due on Friday?", timesheets)
    assert "close of business" in s.summary, (s.summary, s.gaps)


@pytest.mark.parametrize(("question", "asks"), [
    ("How many seconds does ctest wait before retrying?", True),
    ("What's the maximum number of days I can set as the expiry?", True),
    ("How long does travel approval take?", True),
    ("How much does each member seat in a paid org cost per month?", True),
    ("How long can a package name be?", False),  # a length, not a duration
    ("How soon do I get reimbursed?", False),  # "with your next paycheck" answers it
    ("How much of the course fee does the program cover?", False),  # a share, not a price
    ("What time each day is the Daily Check-in due?", True),
    ("What time do they close for the day?", True),
    ("What time zone do I enter my hours in?", False),
    ("What time zones does the team span?", False),
    ("What time tracking tool does 18F use?", False),  # a noun phrase, not a clock time
    ("What time of year is open season for health benefits?", False),
    ("What time limit applies to npm install?", False),
    ("What time-off can I take?", False),
])
def test_only_an_unambiguous_duration_or_price_question_needs_one_stated(question, asks):
    from synthesis.qa.values import asked_value

    assert (asked_value(question) is not None) is asks


async def test_a_duration_on_a_settings_default_line_is_stated(minilm):
    """The default line is too short to relate to the question by itself; its section's description does."""
    context = _context(("Config", "Config Settings > fetch-retry-mintimeout",
                        "- Default: 10000 (10 seconds)\n- Type: Number\n\nThe \"minTimeout\" config for the retry "
                        "module to use when npm fetches packages."),
                       ("Config", "Config Settings > fetch-retries",
                        "- Default: 2\n- Type: Number\n\nThe \"retries\" config for the retry module to use when "
                        "fetching packages from the registry."))
    s = await _answer(minilm, "How many seconds does npm wait before retrying a failed fetch by default?", context)
    assert "10 seconds" in s.summary, s.summary


HTTPS = _context(
    ("HTTPS Certificates", "HTTPS Certificates",
     "By default, pip will perform SSL certificate verification for network connections it makes over HTTPS. These "
     "serve to prevent man-in-the-middle attacks against package downloads."),
    ("HTTPS Certificates", "HTTPS Certificates > Using system certificate stores",
     "You should try using system trust stores when there is a custom certificate chain configured for your system "
     "that pip isn't aware of. Typically, this situation will manifest with an SSLCertVerificationError."),
)


async def test_a_preference_for_a_default_line_does_not_weaken_an_answer_into_a_refusal(minilm):
    """pip's docs: asking 'by default' lowered every sentence that states no default, and the best answer then fell
    below the strength that excuses an absent casual word ('talks')."""
    s = await _answer(minilm, "quick q: when pip talks HTTPS, does it trust my OS certificate store or something "
                              "else by default?", HTTPS)
    assert "pip" in s.summary, (s.summary, s.gaps)  # answered from the page, not refused


UPGRADE = _context(
    ("Managing a different Python interpreter", "Managing a different Python interpreter",
     "Occasionally, you may want to use pip to manage a Python installation other than the one pip is installed "
     "into. In this case, you can use the --python option to specify the interpreter you want to manage. For "
     "example, python -m venv .venv --without-pip and then pip --python .venv install SomePackage."),
    ("Upgrade options", "Upgrade options > Controlling what gets installed",
     "to-satisfy-only (undocumented, please avoid) - packages are not upgraded (not even direct requirements) unless "
     "the currently installed version fails to satisfy a requirement."),
)


async def test_a_line_that_calls_something_else_undocumented_is_no_gap_in_the_answer(minilm):
    """pip's docs: 'to-satisfy-only (undocumented, please avoid) - packages are not upgraded …' shares 'install
    packages' with the question and made the whole answer a gap."""
    s = await _answer(minilm, "I made a venv with --without-pip. How can I install packages into it using the pip "
                              "I already have elsewhere?", UPGRADE)
    assert "--python" in s.summary and not s.gaps, (s.summary, s.gaps)


async def test_a_kind_named_only_in_the_askers_story_does_not_refuse(minilm):
    """18F handbook (a fresh probe): a question about rental-car damage coverage was refused because no passage says
    "counter" (read as a kind of car) in 'The rental car counter always pushes their extra damage coverage.' The
    counter is where the asker stands; what is asked is in the asking sentence, unless that sentence points back at
    the story."""
    context = _context(
        ("Frequently Asked Questions", "Travel > How to Book A Rental Car in Concur",
         "The Government is self-insured and rental vehicles under the DTMO agreement include full coverage for "
         "damages resulting from an accident while performing official travel. Employees on TDY travel within CONUS "
         "will not be reimbursed for collision damage waiver (CDW) or theft insurance available on commercial rental "
         "contracts. Personal liability insurance is considered a personal expense and will not be reimbursed."),
    )
    s = await _answer(minilm, "The rental car counter always pushes their extra damage coverage. Will damage coverage "
                              "bought on a work trip inside the continental US be reimbursed?", context)
    assert "not be reimbursed" in s.summary, s.summary
    # the same kind asked in the asking sentence still refuses, and so does one the asking sentence points back at
    s = await _answer(minilm, "Will I be reimbursed for the rental car counter fee?", context)
    assert not s.summary, s.summary
    # (a passage written for this case in review: the handbook never says what it offers in one line)
    benefits = _context(("Benefits", "Insurance", "The agency offers health insurance, dental insurance and vision "
                                                  "insurance to all employees. You must sign up within 60 days of "
                                                  "joining."))
    s = await _answer(minilm, "I'm looking into pet insurance. Does the agency offer it?", benefits)
    assert not s.summary, s.summary


# Real text (18F handbook, Tock): the table row for the asker's own week, not the one before it.
BILLABLE = """## 18F billable hour expectations

If you're an individual contributor or a lead, you're expected to spend at least 80% of your time on billable project
work. So for most people in a given 40-hour week, the expectation is to bill at least 32 hours to project work. But
what about holidays or leave time? Then you'll need to spend 80% of the time you're working that week on billable work.

| Work week | Billable time (minimum hours expected) | Non-billable time (not to exceed) |
| --------- | -------------------------------------- | --------------------------------- |
| 5 days    | 32 hours (80% of 40 hours)             | 8 hours                           |
| 4 days    | 25.5 hours (80% of 32 hours)           | 6.5 hours                         |
| 3 days    | 19 hours (80% of 24 hours)             | 5 hours                           |
| 2 days    | 13 hours (80% of 16 hours)             | 3 hours                           |
"""


async def test_the_case_the_asker_states_by_a_number_is_the_one_answered(minilm):
    context = _context(("Tock", "18F billable hour expectations", BILLABLE))
    s = await _answer(minilm, "I'm only working 3 days this week because of a holiday and a day of vacation. What's "
                              "the minimum I'm expected to bill to my 18F project?", context)
    assert "19 hours" in s.summary, s.summary


# Real text (18F handbook, TTSC Tock): supervisors' targets by number of direct reports.
SUPERVISOR_TARGETS = """## Billable expectations

TTSC employees are expected to bill a certain amount of hours towards assigned billable projects each week.

Supervisors' utilization expectations are based on the number of direct reports, detailed in the table below:

| Number of direct reports | Utilization % target | Target hours |
|--------------------------|----------------------|--------------|
| \\>/=7 | 30% | 10-16 hours |
| 6 | 40% | 14-18 hours |
| 5 | 50% | 16-20 hours |
| 4 | 60% | 18-24 hours |
| 1-3 | 65% | 20-26 hours |
| 0 (individual contributors) | 80%+ | 32+ hours |
"""


async def test_the_row_for_the_askers_own_count_answers(minilm):
    from synthesis.qa.asker import numbers_stated, same_number

    assert {"direct", "report"} <= numbers_stated("I'm a TTSC supervisor with 5 direct reports.")[("number", "5")]
    assert ("number", "5") in numbers_stated("Team: A; Reports: 5.")  # a table row's last cell ends in "."
    assert ("number", "3") not in numbers_stated("I work 3 days a week")  # that "3" is the quantity "3 days"
    assert not numbers_stated("pip 3.5.1 costs $40, v2, 50%").keys() & {("number", "3"), ("number", "40"),
                                                                        ("number", "2")}
    # the same number of something else is no match (a fresh probe: "a 120-day detail" had raised "a performance
    # plan for 120 days" over the detail's own rules)
    detail = numbers_stated("One of my folks just got picked for a 120-day detail in another GSA office.")
    assert not same_number(detail, "A GSA employee is eligible to be rated by their official Supervisor if they have "
                                   "been on an established Performance Plan for 120 days, beginning with the date.")
    assert same_number(detail, "A detail to a GSA office may last up to 120 days.")
    context = _context(("Tracking your time and using Tock", "Billable expectations", SUPERVISOR_TARGETS))
    s = await _answer(minilm, "I'm a TTSC supervisor with 5 direct reports. What's my weekly billable target supposed "
                              "to be?", context)
    assert "16-20 hours" in s.summary and "14-18" not in s.summary, s.summary


async def test_a_word_that_only_describes_does_not_refuse(minilm):
    """18F handbook (a fresh probe): 'New here, maybe a dumb question, but where does the name "18F" actually come
    from?' was refused because no passage says "dumb", and a TS/SCI question because none says "Realistically". A word
    the lexicon knows only as an adjective or adverb describes the asker's situation; it names no topic."""
    from synthesis.qa.topic import compound_modifiers

    history = _context(("History and values of 18F", "18F: a civic tech unit",
                        "GSA officially launched 18F on March 19, 2014. The name is an abbreviation for the "
                        "intersection of 18th and F Streets in Washington, D.C., where GSA headquarters is located. "
                        "In March 2014, the 18F team had 15 full-time staff."),
                       ("Onboarding", "Help the new employee find answers and solve problems",
                        "Invite the new employee to come to you as a starting point for questions. If you don't know "
                        "the answer to a question, it's OK to redirect them to their supervisor, especially for "
                        "personnel-related issues like benefits and HR."))
    s = await _answer(minilm, 'New here, maybe a dumb question, but where does the name "18F" actually come from?',
                      history)
    assert "18th and F Streets" in s.summary, s.summary
    clearance = _context(("Top Secret / Sensitive Compartmented Information", "Timelines",
                          "Below are approximate timelines for the clearance process:\n\n"
                          "- 1-2 months for a new Secret (interim) clearance\n"
                          "- 6-8 months for a new Top Secret (TS) clearance\n"
                          "- 8-15 months for a new Top Secret clearance with access to Sensitive Compartmented "
                          "Information (TS/SCI)"),
                         ("Top Secret / Sensitive Compartmented Information", "",
                          "However, for certain projects, partners need TTS employees to have access to classified "
                          "national security information. These employees need to be granted security clearance "
                          "eligibility (a.k.a a security clearance) to be able to view this information."),
                         ("Top Secret / Sensitive Compartmented Information", "Clearance upgrade requests",
                          "If you are a TTS employee and your project work requires a security clearance, your "
                          "supervisor will be responsible for initiating the process."))
    s = await _answer(minilm, "My partner project needs me to hold a TS/SCI clearance. Realistically, how long does "
                              "a brand-new TS/SCI take to come through?", clearance)
    assert "8-15 months" in s.summary, s.summary
    # an aside before the asking names no topic either, though the lexicon knows "ballpark" as a noun too (hp14-09)
    s = await _answer(minilm, "Partner says I need TS/SCI for this project and I don't have any clearance now. "
                              "ballpark, how long does that take?", clearance)
    assert "8-15 months" in s.summary, s.summary
    # opening the question, such a word is its topic (found in review)
    from synthesis.qa.topic import colours
    assert not colours("dental", "Dental, is it covered?") and colours("ballpark", "I need TS/SCI. ballpark, how long?")
    # a describing word still names a kind before a covered noun ("dental insurance"), never after one ("check is
    # so much quicker"), and an adverb never does
    assert compound_modifiers("Is there dental insurance?", {"dental"}, {"insur"}) == ["dental"]
    assert compound_modifiers("Why is check so much quicker?", {"quicker"}, {"check", "much"}) == []
    assert compound_modifiers("how do I bump it to the latest afterwards?", {"afterwards"}, {"latest"}) == []
    # a noun or verb the context lacks still refuses, and so does a plain adjective, which can be what is asked
    # ("Is it retroactive?"; found in review: only adverbs and comparatives merely colour the asking)
    s = await _answer(minilm, "Does 18F offer a paid sabbatical after five years?", history)
    assert not s.summary, s.summary
    court = _context(("Leave types", "Court leave (jury duty)",
                      "When you are called to jury duty, your absence is marked as Court Leave and does not count "
                      "against any of your other leave balances. You can receive Court Leave for however long you "
                      "serve on a jury."))
    s = await _answer(minilm, "Is court leave retroactive?", court)
    assert not s.summary, s.summary


async def test_a_heading_that_asks_the_part_holds_its_answer_whatever_story_came_before(minilm, monkeypatch):
    """18F handbook (a fresh probe): "Filling out the CGE access request form for Concur. I'm a fully remote 18F
    designer living in Denver. Which user type do I pick …?" was answered with how to get approver access. The FAQ
    heading "What is my user type?" asks the part itself; read with the story before it, it matched too little."""
    import synthesis.qa.reader as reader

    context = _context(
        ("Get access to Concur", "Frequently Asked questions > How can I get Travel Approver access?",
         'To be able to approve in Concur, fill out the CGE Access Request Form:\n\n1. For "Type of Access Request", '
         'select "Revise Current User"\n2. For User Roles, select both "Traveler" and "Travel Approver".'),
        ("Get access to Concur", "3. Complete the CGE Access Request Form",
         "Complete the CGE Access Request Form, minus the EFT enrollment form. Either an electronic or ink signature "
         "is fine. Don't forget to get your supervisor's signature as well!"),
        ("Get access to Concur", "Frequently Asked questions > What is my user type?",
         "GSA employee (Regular) if based in a city which has a TTS office which you report to.\n\n"
         "GSA employee (Virtual) if based anywhere else."),
    )
    question = ("Filling out the CGE access request form for Concur. I'm a fully remote 18F designer living in "
                "Denver. Which user type do I pick?")
    on, off = await _with_and_without(minilm, monkeypatch, question, context, reader, "FAQ_BONUS", 0.0)
    assert on.startswith("GSA employee ("), on
    assert "(Virtual)" in on, on
    assert not off.startswith("GSA employee ("), "the heading bonus is what puts it first here"


async def test_a_how_do_i_answer_goes_on_in_the_sentences_after_it(minilm, monkeypatch):
    """18F handbook (a fresh probe): "How do I reserve a parking spot for them?" was answered with "email Tenant
    Support …" alone; where the spots are is two sentences on, in the same section. A procedure's answer is its best
    line and the steps after it."""
    from synthesis.qa import selection

    context = _context(
        ("Washington, D.C.", "How do I... > Reserve parking for government business",
         "In order to reserve parking for a meeting with a government colleague, email Tenant Support with the "
         "driver's name, date, time, agency, and (if it's not a government vehicle) vehicle info. 2-3 business days "
         "is preferable but requests can be accommodated on less notice. Spots are located in the East Courtyard. "
         "Access the East Courtyard of the building via on E Street: it's the first right turn into the building, "
         "between Which Wich and Greenberry's."),
        ("Washington, D.C.", "How do I... > Register for building badge swipe access as a non-GSA federal employee",
         "If you are a federal employee from another agency, you can register for badge swipe access to the "
         "building."),
    )
    question = ("A colleague from another agency is driving in to meet me at DC headquarters next week. How do I "
                "reserve a parking spot for them?")
    # a later line of the best's page 0.8 as relevant follows it anyway (`_next`): switched off here, so the test
    # shows the steps rule alone
    monkeypatch.setattr(selection, "SAME_PAGE_ANYWHERE", False)
    on, off = await _with_and_without(minilm, monkeypatch, question, context, selection, "STEP_RATIO", 2.0)
    assert on.startswith("In order to reserve parking"), on
    assert "East Courtyard" in on, on
    assert "East Courtyard" not in off, "the steps rule is what brings the place in here"


async def test_a_side_with_a_section_of_its_own_is_answered_from_it(minilm):
    """18F handbook (fresh probe): "What's the difference between doing it in my professional capacity vs my
    personal capacity?" quoted one line per side ("You'll prepare on your own time …"); what tells personal capacity
    apart, taking leave, is the line before it in the "Personal capacity" section. A line under a heading naming the
    side is about that side."""
    context = _context(
        ("External speaking request playbook", "Official vs. personal capacity > Professional capacity",
         "You were invited because of your position at TTS. You'll participate as a TTS employee and discuss the "
         "work you do on behalf of GSA and our partners. You'll be using GSA funds to travel to the event or pay "
         "for conference fees. You'll prepare during your work time and use GSA equipment."),
        ("External speaking request playbook", "Official vs. personal capacity > Personal capacity",
         "You didn't receive the invitation because of your position at TTS, but because of your expertise in the "
         "subject. You won't be representing TTS/GSA. You'll use your personal leave or participate after work "
         "hours. You'll prepare on your own time and use your own equipment."),
    )
    question = ("I got invited to speak at a meetup on a topic I know well from my job. What's the difference "
                "between doing it in my professional capacity vs my personal capacity?")
    from synthesis.qa.selection import pick_answers

    frame = analyze(question)
    synthesizer = ExtractiveSynthesizer(minilm)
    units = candidates(context)
    synthesizer.reader.score(frame, units)
    professional, personal = pick_answers(frame, units)
    # no line says "professional" or "personal": the headings do (the professional side had quoted the personal
    # section's lines, the best match for "capacity" alone)
    assert {c.source for c in professional} == {1} and {c.source for c in personal} == {2}
    lines = [c.position for c in personal if c.passage.id == personal[0].passage.id]
    assert lines == sorted(lines), "a side's own section reads in its order"
    assert any("personal leave" in c.text for c in personal), [c.text for c in personal]
    assert any("during your work time" in c.text for c in professional), [c.text for c in professional]


async def test_a_side_is_answered_by_the_best_lines_of_its_own_section(minilm, monkeypatch):
    """18F handbook (dev set): "How do comp time and credit hours differ?" quoted comp time's definition and the
    calculator line; that comp time expires after 26 pay periods came two lines later in the "Comp time" section. A
    side whose best line sits under a heading naming it is answered by that section's best SIDE_SECTION lines."""
    from synthesis.qa import selection

    context = _context(
        ("Overtime, comp time, and credit hours", "Overtime, comp time, and credit hours > Comp time",
         "Comp time is when you receive hours of leave instead of overtime pay. To determine the maximum number of "
         "comp time hours that you can accrue per pay period, please use the Bi-weekly Comp Time Cap Calculator. If "
         "you make the maximum salary ($191,900 in 2024), you cannot receive comp time. Comp time expires one year "
         "(26 pay periods) after it is earned."),
        ("Overtime, comp time, and credit hours", "Overtime, comp time, and credit hours > Credit hours",
         "You can be approved for credit hours if you want to voluntarily work additional hours beyond your "
         "normal schedule. You can only earn credit hours on a flexible schedule. You can carry over up to 24 credit "
         "hours from one pay period to the next."),
    )
    # the other rules that add lines switched off: what the section rule alone adds
    monkeypatch.setattr(selection, "GOES_ON", 0)
    monkeypatch.setattr(selection, "EXTRA_SENTENCES", {})
    on, off = await _with_and_without(minilm, monkeypatch, "How do comp time and credit hours differ?", context,
                                      selection, "SIDE_SECTION", 0)
    assert "expires" in on and "24 credit hours" in on, on
    assert "expires" not in off, "the side's section is what brings its expiry in"


async def test_a_how_do_i_answer_goes_on_through_its_section(minilm, monkeypatch):
    """18F handbook (fresh probe): "How do I use my training budget to buy a book?" quoted the section's first two
    sentences; the form to start with and the SF-182 step came four and eight sentences later. A procedure's answer
    is its section: the next STEP_SENTENCES sentences follow the best line when each is STEP_RATIO as relevant."""
    from synthesis.qa import selection

    context = _context(
        ("Conferences, events, and training", "Conferences, events, and training > Buying books",
         "You can also use your training budget to buy books for self-guided study. You may want to first check your "
         "local library system to see what books and other resources are available there. Approval for books uses a "
         "similar process as approval for trainings, but many of the forms are not designed for book purchases and "
         "need to be repurposed.\n\nStart with the training request form. That form has annotations for how to use "
         "it for book purchases. Briefly, the book title is used for the name of the event and the current date is "
         "used for all of the date fields.\n\nWhen you have submitted that form, you and your supervisor will "
         "receive an email with further instructions. If the book is being used for training purposes, then there "
         "are further tasks to be completed with form SF-182 as detailed in that initial response email."),
        ("Development and training", "Development and training",
         "Guide on requesting use of your training budget to attend conferences, trainings or buy professional "
         "development books."),
    )
    on, off = await _with_and_without(minilm, monkeypatch, "How do I use my training budget to buy a book?",
                                      context, selection, "STEP_SENTENCES", 2)
    assert on.startswith("You can also use your training budget"), on
    assert "training request form" in on and "SF-182" in on, on
    assert "SF-182" not in off, "two sentences after the best line do not reach the form's last step"


async def test_an_answer_goes_on_in_the_sentence_after_its_best_line(minilm, monkeypatch):
    """18F handbook (GitHub page): "Which repositories get archived automatically?" was answered with "Inactive
    repositories are automatically archived …" alone; what makes a repository inactive is the next sentence. On the
    fresh handbook sets the key fact sat one sentence after the best line in 13 of the missed answers."""
    from synthesis.qa import selection

    context = _context(
        ("GitHub", "GitHub > Archiving repositories",
         "Repositories created as part of an engagement with a partner should be transferred to the partner agency, "
         "forked back to one of our organizations, and then archived. See the handoff to partner agencies section "
         "for more information.\n\nInactive repositories are automatically archived by the TTS Tech Operations with "
         "ghad. A repository is considered \"inactive\" if there haven't been any new commits or comments on issues "
         "or pull requests in a while; or if the repository description includes the terms \"deprecated,\" \"not "
         "supported,\" or \"no longer supported.\" The current default is 90 days. For repositories that are still "
         "maintained and used but have infrequent commits or comments, maintainers can add the MAINTAINED topic to "
         "the repository to exempt it from automatic archiving."),
        ("GitHub", "GitHub > Archiving repositories > Unarchiving",
         "No approval is needed to archive/unarchive a repository. Note that archiving a repository is not the same "
         "as deleting it."),
    )
    on, off = await _with_and_without(minilm, monkeypatch, "Which repositories get archived automatically?",
                                      context, selection, "GOES_ON", 0)
    assert on.startswith("Inactive repositories are automatically archived"), on
    assert 'considered "inactive"' in on, on
    assert 'considered "inactive"' not in off, "the rule is what brings the definition in"


@pytest.mark.parametrize(("question", "text", "holds_it"), [
    # a number, but not of hours: the answer to "how many hours" that made an unanswerable question 'high'
    ("How many hours of training do I need to get FAC-COR Level II certification?",
     "The Federal Acquisition Certification for Contracting Officer's Representatives (FAC-COR) contains three "
     "levels of certification.", False),
    ("How many hours of training do I need to get FAC-COR Level II certification?",
     "FAC-COR Level II requires 40 hours of training.", True),
    ("How many levels of FAC-COR certification are there?",
     "The Federal Acquisition Certification for Contracting Officer's Representatives (FAC-COR) contains three "
     "levels of certification.", True),
    ("How much does each member seat in a paid org cost per month?", "Each seat is billed monthly.", False),
    ("How much does each member seat in a paid org cost per month?", "Each seat costs $7 per month.", True),
    # a part asking when something happened is held by a year, which is no quantity anywhere else
    ("How many centers are there, and when did the program get started?",
     "We were established in October 2017 within GSA.", True),
    ("What year did 18F get its current name?", "The team took its current name in 2014.", True),
    ("How many centers are there?", "We were established in October 2017 within GSA.", False),
])
def test_a_duration_or_price_answer_states_one(question, text, holds_it):
    """A quantity part that asks for a duration or a price is held (for the fit that ranks sentences and for 'high'
    confidence) only by a sentence that states one; a part asking when something happened, by a year."""
    from synthesis.qa.kinds import holds
    from synthesis.qa.candidate import Candidate

    part = analyze(question).parts[-1]
    assert part.expect is Expect.QUANTITY
    c = Candidate(text=text, source=1, position=0, passage=Passage(id="p", doc_id="d", content=text, score=0.5),
                  kinds=answer_kinds(text))
    assert holds(part, c) is holds_it


async def test_a_contracted_question_word_is_no_missing_topic(minilm, monkeypatch):
    """18F handbook (a fresh probe): "When's the first check-in, and how often after that?" was refused because no
    page says "when's". A stopword contracted with a verb ("when's", "who's", "we've", "I'm") names no topic."""
    import synthesis.qa.answerability as answerability
    from synthesis.stems import contracted_stopword

    assert contracted_stopword("when's") and contracted_stopword("I'm") and contracted_stopword("we've")
    assert not contracted_stopword("pat's") and not contracted_stopword("work's") and not contracted_stopword("check-in")
    context = _context(
        ("Partner satisfaction", "Partner satisfaction > Check-ins",
         "Account managers check in with partners on their satisfaction two weeks after an engagement starts. On "
         "engagements longer than six months, they check in again every quarter."),
    )
    question = "18F checks in with partners while an engagement is running. When's the first check-in?"
    on, off = await _with_and_without(minilm, monkeypatch, question, context, answerability, "contracted_stopword",
                                      lambda w: False)
    assert "two weeks" in on, on
    assert not off, "without the rule the contraction is a missing word and the question is refused"


def test_the_row_naming_the_askers_code_answers(minilm, monkeypatch):
    """18F handbook (a fresh probe): an 18F designer asked what goes in the correspondence/office symbol field; the
    FAQ under that heading lists a code per office, and the one for 18F is "Q2ADA: 18F". The row naming the code the
    asker gives is theirs, as the row stating their number is."""
    import synthesis.qa.reader as reader
    from synthesis.qa.candidate import Candidate
    from synthesis.qa.reader import Reader

    rows = ["Q2: Director and Staff", "Q2AC: IAE", "Q2ADA: 18F", "Q2ADB: CoE", "Q2BA: Acquisitions",
            "Q2BB: Business Operations", "Q2BD: Outreach"]
    faq = Passage(id="p1", doc_id="concur", title="Get access to Concur", score=0.5,
                  section="Frequently Asked questions > What is my Correspondence/Office symbol?",
                  content="\n\n".join(rows))
    frame = analyze("Filling out the CGE access request form for Concur. I'm a fully remote 18F designer living in "
                    "Denver. What goes in the correspondence/office symbol field?")

    def best() -> str:
        cands = [Candidate(text=r, source=1, position=k, passage=faq) for k, r in enumerate(rows)]
        Reader(minilm.embed).score(frame, cands)
        return max(cands, key=lambda c: c.scores[0]).text

    assert best() == "Q2ADA: 18F"
    monkeypatch.setattr(reader, "SAME_QUANTITY", 1.0)
    assert best() != "Q2ADA: 18F", "the code rule is what picks the row here"


async def test_a_section_headed_with_what_is_asked_is_not_refused_for_a_missing_word(minilm, monkeypatch):
    """18F handbook (a fresh probe): "I got invited to speak at a meetup … What's the difference between doing it in
    my professional capacity vs my personal capacity?" was refused because no page says "meetup", beside sections
    headed "Professional capacity" and "Personal capacity"."""
    import synthesis.qa.answerability as answerability
    from synthesis.qa import pointing

    context = _context(
        ("Guidelines for speaking at events", "Professional vs personal capacity > Professional capacity",
         "- You'll participate as a TTS employee and discuss the work you do on behalf of GSA and our partners.\n"
         "- You'll be using GSA funds to travel to the event or pay for conference fees.\n"
         "- You'll prepare during your work time and use GSA equipment."),
        ("Guidelines for speaking at events", "Professional vs personal capacity > Personal capacity",
         "- You didn't receive the invitation because of your position at TTS, but because of your expertise in the "
         "subject.\n- You won't be representing TTS/GSA.\n- You'll prepare on your own time and use your own "
         "equipment."),
    )
    question = ("I got invited to speak at a meetup on a topic I know well from my job. What's the difference between "
                "doing it in my professional capacity vs my personal capacity?")
    monkeypatch.setattr(pointing, "DO_IT", False)  # ("doing it" pointing at no told thing answers it too)
    on, off = await _with_and_without(minilm, monkeypatch, question, context, answerability, "HEADING_COVERS", 1.01)
    assert "Professional capacity" in on or "work time" in on, on
    assert not off, "the heading is what keeps it from a refusal here"


def test_a_side_of_a_comparison_gets_more_than_its_best_line(minilm, monkeypatch):
    """18F handbook (a fresh probe): "How does a flexitour schedule differ from a gliding one?" quoted flexitour's
    first line, not "Once set, the times are fixed", which is what sets it apart. A part of a two-part question has
    room for more sentences, within the same relevance gate (with no room, the next sentence, the side's section and
    nothing else brings it in)."""
    from synthesis.qa import selection
    from synthesis.qa.selection import pick_answers
    from synthesis.qa.candidate import Candidate
    from synthesis.qa.reader import Reader

    section = "Alternative work schedules > Types of flexible schedules"
    flexitour = Passage(id="p1", doc_id="schedules", title="Work schedules", section=f"{section} > Flexitour",
                        score=0.5, content="")
    gliding = Passage(id="p2", doc_id="schedules", title="Work schedules", section=f"{section} > Gliding",
                      score=0.5, content="")
    lines = [(flexitour, "You choose a specific start/stop time for each day, and it can be different day-to-day."),
             (flexitour, "Once set, the times are fixed (i.e. your start/stop times don't change from one pay period "
                         "to the next)."),
             (flexitour, "You work 8 hours a day, 5 days a week."),
             (gliding, "You can arrive/depart within a given time range each day."),
             (gliding, "You work 8 hours, 5 days a week.")]
    frame = analyze("Thinking about switching off the standard schedule. How does a flexitour schedule differ from a "
                    "gliding one?")

    def flexitour_answer() -> list[str]:
        cands = [Candidate(text=t, source=1, position=k, passage=p) for k, (p, t) in enumerate(lines)]
        read = Reader(minilm.embed)
        read.score(frame, cands)
        return [c.text for c in pick_answers(frame, cands)[0]]

    assert any("fixed" in t for t in flexitour_answer()), flexitour_answer()
    monkeypatch.setattr(selection, "GOES_ON", 0)  # the next sentence after the best line brings it in too
    monkeypatch.setattr(selection, "SIDE_SECTION", 0)  # and so does the section headed with the side
    assert any("fixed" in t for t in flexitour_answer()), flexitour_answer()
    monkeypatch.setattr(selection, "EXTRA_SENTENCES", {1: 2, 2: 0})
    assert not any("fixed" in t for t in flexitour_answer()), "the room for more is what brings it in"


SAFE = _context(  # the 18F handbook's list of file-sharing services, as the ingest renders it
    ("Collaboration tools", "Sharing files",
     "Tools for sharing files with other agencies:\n\n"
     "- DOD SAFE, (Secure Access File Exchange): SAFE is a service to exchange unclassified files that are too "
     "large to share via email. SAFE can handle files up to 8.0 GB.\n"
     "- Intelink's: IntelDocs, allows users to share unclassified files. The service has a file size limit of "
     "100MB and folder limit of 1GB."),
    ("Collaboration tools", "Google Drive",
     "Share data with partners through a shared drive when they have a Google account."),
)


async def test_a_pronoun_after_a_thing_the_asking_introduces_points_at_that_thing(minilm, monkeypatch):
    # "its" is the service's and "that size" is the 3 GB told: neither points back at "data export", so the story's
    # "export" (a word no passage uses) sets the scene and decides nothing
    from synthesis.qa import pointing

    question = ("A vendor needs to get us a 3 GB data export and it's way too big for email. Is there a "
                "file-exchange service that can take something that size, and what's its limit?")
    on, off = await _with_and_without(minilm, monkeypatch, question, SAFE, pointing, "POINTS_WITHIN", False)
    assert "8.0 GB" in on, on
    assert off == "", off  # pointing back, the story's "data export" is what is asked, and no passage has it


@pytest.mark.parametrize("question", [
    "I'd like to send a data export to a partner. Will SAFE take it?",  # nothing introduced before "it"
    "I have a data export for a partner. Can I use a file-exchange service for a transfer of it?",  # not a possessive
    "I have a data export for a partner. Can’t that go through SAFE?",  # a curly apostrophe: "that" still points back
])
async def test_a_pronoun_that_points_at_the_story_still_points_back(minilm, question):
    s = await _answer(minilm, question, SAFE)
    assert not s.summary, s.summary  # it is the data export, which no passage mentions


async def test_a_word_of_a_snake_case_identifier_is_a_word_of_the_passage(minilm, monkeypatch):
    # the Embedded Rust book's math page names std only inside "#[no_std]"
    from synthesis.qa import wordforms

    context = _context(
        ("The Embedded Rust Book", "Performing math functionality with #[no_std]",
         "If you want to perform math related functionality like calculating the square root or the exponential "
         "of a number and you have the full standard library available, your code might call f32::sqrt. Without "
         "the standard library support, those functions are not available in #[no_std] code. An external crate "
         "like libm can be used instead."),
        ("The Embedded Rust Book", "Floating point",
         "The Cortex-M4F and Cortex-M7F cores have a floating point unit; others emulate floats in software."),
    )
    question = "Without std I can't call sqrt() or sin() on my floats. Which crate does the book point to for that?"
    on, off = await _with_and_without(minilm, monkeypatch, question, context, wordforms, "IDENTIFIER_PARTS", False)
    assert "libm" in on, on
    assert off == "", off  # "std" missing from every passage: refused


async def test_a_procedure_starts_at_its_first_step_not_its_best_line(minilm, monkeypatch):
    """18F handbook (fresh probes): the line most like "how do I log in" is the procedure's last step ("Then, go back
    … and click the second link to log in"), and the steps the asker needs come before it."""
    from synthesis.qa import selection

    context = _context(
        ("Employee Express", "First login",
         "You'll receive a Welcome to Employee Express email with a security code. You must click the first link "
         "first to activate your account. Sign in with your temporary ID number, the last five digits of your "
         "social security number. Then, go back to the welcome email and click the second link to log in."),
        ("Payroll", "Pay stubs", "Your pay stubs are in Employee Express. Pay periods are two weeks long."))
    question = "I just got the Employee Express welcome email. How do I log in for the first time?"
    on, off = await _with_and_without(minilm, monkeypatch, question, context, selection, "STEP_BEFORE", 0)
    assert on.index("first link") < on.index("last five digits") < on.index("second link")
    assert "first link" not in off and "second link" in off


async def test_a_number_the_asker_names_is_no_amount(minilm, monkeypatch):
    """18F handbook (a fresh probe): "if I get a Level 4 rating, what's the most I could get?" asks an amount; a
    sentence naming only Level 5, 4 and 3 states none, and the line stating 2.1 % answers."""
    from synthesis.qa import kinds

    assert analyze("If I end up with a Level 4 rating, what's the most I could get as an award?").parts[0].expect \
        is Expect.QUANTITY
    assert analyze("What's the most common way to book travel?").parts[0].expect is not Expect.QUANTITY
    context = _context(
        ("Performance awards", "Award targets",
         "The final award percentages for Level 5, Level 4 and Level 3 summary ratings will be determined when all "
         "performance reviews are complete. Subject to funds, awards are planned as follows:\n\n"
         "- Level 5 summary ratings: Up to 3.85% of adjusted basic pay, or up to 80 hours of time off.\n"
         "- Level 4 summary ratings: Up to 2.1% of adjusted basic pay, or up to 44 hours of time off.\n"))
    question = "If I end up with a Level 4 rating, what's the most I could get as a performance award?"
    on, off = await _with_and_without(minilm, monkeypatch, question, context, kinds, "TOLD_NUMBERS", False)
    assert "2.1%" in on.split("[1]")[0]
    assert "2.1%" not in off.split("[1]")[0]


async def test_a_word_only_one_part_asks_about_leaves_the_other_parts_answered(minilm, monkeypatch):
    """18F handbook (a fresh probe): "What needs to happen? And if I switch to biking next year, how do I leave the
    program?" was refused whole because no page says "biking". The word is the second part's; the first is
    answered and the second is a gap. A part pointing back at a missing topic ("how long can it be") shares it."""
    from synthesis.qa import answerability
    from synthesis.qa.answerability import parts_missing

    context = _context(
        ("Transit benefit", "Enrolling in transit benefit",
         "Select your supervisor. If your supervisor is not listed, have your supervisor enroll in the TranServe "
         "system as a participant. Once enrolled, the supervisor needs to email the transit coordinator at "
         "transit-subsidy@example.gov to be elevated to supervisor status."),
        ("Transit benefit", "Eligibility", "All employees who take public transit to work are eligible for transit "
                                           "subsidies."))
    question = ("Signing up for the transit subsidy, but my supervisor isn't in the approver list. What needs to "
                "happen? And if I switch to biking next year, how do I leave the program?")
    on, off = await _with_and_without(minilm, monkeypatch, question, context, answerability, "PART_WORDS", False)
    assert "transit-subsidy@example.gov" in on and "does not explain how I leave the program" in on
    assert off == ""  # refused whole
    assert parts_missing(analyze(question), ["biking"]) == {1}
    assert parts_missing(analyze("Am I eligible for a paid sabbatical after five years, and how long can it be?"),
                         ["sabbatical"]) is None
    assert parts_missing(analyze("Does GSA get me an official no-fee passport, and how do I apply for one?"),
                         ["passport"]) is None
    assert parts_missing(analyze("I'm leaving for a private-sector job. How far ahead should I start offboarding, "
                                 "and can I take leave on my final day?"), ["private-sector"]) is None  # told


def test_a_missing_word_of_one_alternative_is_the_whole_question_s():
    """Node.js contributor docs: "Is there a release freeze over the holidays, or can releases still go out in late
    December?" asks one thing two ways; no page says "freeze", and the second alternative is no part to answer."""
    from synthesis.qa.answerability import parts_missing

    asked = "Is there a release freeze over the end-of-year holidays, or can releases still go out in late December?"
    assert len(analyze(asked).parts) == 2
    assert parts_missing(analyze(asked), ["freeze"]) is None


async def test_a_yes_no_answer_goes_on_in_what_to_do_instead(minilm, monkeypatch):
    """18F handbook (a fresh probe): "The police got my stolen laptop back. Can I go back to using it?" was answered
    "it may have been tampered with and should not be used" without the next sentence, what to do instead."""
    from synthesis.qa import selection
    from synthesis.synthesize import summary

    # the short next sentence of a quoted line's paragraph is quoted with it anyway: this rule is what picks it
    # when that one does not apply (here it is switched off, so the test shows this rule alone)
    monkeypatch.setattr(summary, "PARAGRAPH_NEXT_WORDS", 0)

    assert Expect.PROCEDURE in answer_kinds("Return the equipment to GSA IT so they can inspect it.")
    context = _context(
        ("Equipment", "Lost or stolen equipment",
         "For lost work laptops, report the loss to the IT service desk as quickly as possible. Your access to "
         "various systems may need to be temporarily removed. If your equipment is returned to you, it may have "
         "been tampered with and should not be used. Return the equipment to GSA IT so they can inspect it, and if "
         "necessary, re-image it."),
        ("Equipment", "Laptops", "Every employee gets a GSA laptop on their first day."))
    question = "My work laptop was stolen from my car, and the police just got it back to me. Can I go back to using it?"
    on, off = await _with_and_without(minilm, monkeypatch, question, context, selection, "YESNO_GOES_ON", False)
    assert "tampered" in on and "inspect it" in on
    assert "tampered" in off and "inspect it" not in off


async def test_review_a_procedure_does_not_start_with_background(minilm):
    """Review of the fourteenth session: STEP_BEFORE took any sentence before the best line; only an unbroken run of
    instructions counts, so a description of annual leave does not precede how to request it."""
    s = await _answer(minilm, "How do I request annual leave?", _context(
        ("Leave", "Annual leave",
         "Annual leave is paid time off that full-time employees earn every pay period. New employees earn 4 hours "
         "per pay period. Supervisors track leave balances in HR Links. To request annual leave, submit a leave "
         "request in HR Links and email your supervisor.")))
    assert s.summary.startswith("To request annual leave"), s.summary


async def test_review_the_askers_plain_numbers_still_hold_a_quantity(minilm):
    """Review: TOLD_NUMBERS erased any number the asker said ("take 3 … take 13", "the cap is 240 hours"); only
    numbers under a label the asker numbers ("Level 4") are names."""
    s = await _answer(minilm, "Someone told me the cap is 240 hours. How many hours of annual leave can I carry over?",
                      _context(("Leave", "Carry over", "You can carry over up to 240 hours of annual leave into the "
                                                        "next year. Senior executives may carry over 720 days in "
                                                        "special cases.")))
    assert s.summary.startswith("You can carry over up to 240 hours"), s.summary
    s = await _answer(minilm, "If I take 3 days off in a row, how many days of sick leave can I take in a year?",
                      _context(("Leave", "Sick leave", "Full-time employees can take 13 days of sick leave in a year. "
                                                       "Part-time employees earn 1 hour of sick leave for every 20 "
                                                       "hours worked.")))
    assert s.summary.startswith("Full-time employees can take 13 days"), s.summary
    assert analyze("What's the latest I can submit my timesheet each week?").parts[0].expect is not Expect.QUANTITY


def test_review_a_topic_named_in_a_part_is_every_later_parts():
    """Review: "…at the Anchorage office, and how do I get in after hours?" must not answer the second part from
    another office's page; nor may a question asking one thing two ways across sentences ("? Or …")."""
    from synthesis.qa.answerability import parts_missing

    assert parts_missing(analyze("How do I get a parking permit at the Anchorage office, and how do I get in after "
                                 "hours?"), ["anchorage"]) is None
    assert parts_missing(analyze("Is there a release freeze over the holidays? Or can releases still go out in late "
                                 "December?"), ["freeze"]) is None


async def test_a_role_only_the_askers_story_names_does_not_answer_who(minilm, monkeypatch):
    """18F handbook (a fresh probe): "… the team thinks we should end the engagement early. Who actually makes that
    call?" was answered with "… a lack of good faith in our team and work": its only role is the story's own team.
    The line naming someone new (the Director of Account Management) answers."""
    import synthesis.qa.kinds as kinds

    context = _context(
        ("Projects in distress", "When is ending a project early appropriate?",
         "Consistently contradicting and ignoring 18F advice: We don’t expect to have all of our advice and guidance "
         "accepted, but the agency must show that it is willing to engage, experiment, and try some new ways of "
         "working. Note that this is different from “pushback” or questioning advice, which is expected, but "
         "rather when the partner demonstrates a lack of good faith in our team and work."),
        ("Projects in distress", "Who makes the decision?",
         "Teams should make a recommendation to the Director of Account Management, who is accountable for both "
         "project impact goals and business goals and will make the ultimate decision. Change in our partner "
         "organizations and our work, even in the best of circumstances, is difficult."))
    question = ("Our partner keeps ignoring basically all of our advice and the team thinks we should end the "
                "engagement early. Who actually makes that call?")
    from synthesis.qa import idioms

    # (read as asked: "make that call" read as "make that decision" finds the line without TOLD_ROLES, idioms.IDIOMS)
    monkeypatch.setattr(idioms, "IDIOMS", False)
    on, off = await _with_and_without(minilm, monkeypatch, question, context, kinds, "TOLD_ROLES", False)
    assert on.startswith("Teams should make a recommendation to the Director"), on
    assert not off.startswith("Teams should make a recommendation"), off
    # a unit or acronym the story does not name is someone new ("If you or your team … with AcqDiv")
    assert kinds.names_someone_new("If your team needs a buy over $10,000, work with AcqDiv.", set())
    assert not kinds.names_someone_new("Your team has tried restarting and it is still not working.", set())
    assert kinds.names_told_roles_only({"team"}, "Your team has tried restarting and it is still not working.")
    # review: a title the story names is often the answer ("Your supervisor approves travel authorizations")
    asked = "I asked my supervisor about a conference trip. Who approves travel authorizations?"
    assert kinds.told_roles(asked, analyze(asked).parts[0]) == set()


def test_different_before_a_noun_it_counts_compares_nothing():
    """18F handbook (a fresh probe): "…, and if two different offices both want to hire them, who decides where they
    end up?" was read as a comparison, and its second part became "if two"."""
    frame = analyze("How many interviews will they go through, and if two different offices both want to hire them, "
                    "who decides where they end up?")
    assert not frame.comparison
    assert [p.expect for p in frame.parts] == [Expect.QUANTITY, Expect.WHO]
    assert frame.parts[1].text.startswith("if two different offices"), frame.parts[1].text
    assert not analyze("Where did the report go, and how can I choose a different file name?").comparison
    assert analyze("How is a local voucher different from a travel voucher?").comparison
    assert analyze("How do the after-hours rules differ between DC and New York?").comparison


async def test_a_generic_group_is_a_weaker_who_answer_than_a_named_contact(minilm, monkeypatch):
    """18F handbook (a fresh probe): "A podcast host emailed asking to interview me about my work at TTS. Who do I
    need to loop in?" was answered with "Interviewers play a fundamental role in vetting incoming talent …" and "TTS
    encourages all staff to attend conferences …": "talent" and "staff" name no one to loop in. The line with the
    press address does."""
    import synthesis.qa.kinds as kinds

    context = _context(
        ("Hiring", "TTS Interviewers",
         "Interviewers play a fundamental role in vetting incoming talent, as well as creating a positive experience "
         "for our candidates. Moreover, they are critical in ensuring Merit Systems Principles are being followed."),
        ("Conferences, events, and training", "Conferences, events, and training",
         "TTS encourages all staff to attend conferences, speak at events, and focus on professional development "
         "and training opportunities. Check out the TTS Training Database to see what conferences and trainings "
         "your colleagues have attended."),
        ("Conferences, events, and training", "Conferences, events, and training",
         "If you need help with conference and event requests, go to #training-conferences. Any media requests "
         "(like news or podcast interviews) are a separate process — please forward the email or reach out to "
         "press@gsa.gov and CC your team's Outreach liaison."))
    question = "A podcast host emailed asking to interview me about my work at TTS. Who do I need to loop in?"
    on, off = await _with_and_without(minilm, monkeypatch, question, context, kinds, "GENERIC_WHO", 1.0)
    assert "press@gsa.gov" in on.split("[")[0], on
    assert "press@gsa.gov" not in off.split("[")[0], off
    assert kinds.generic_roles_only("CoE launched with teams that provided expertise.")
    assert not kinds.names_someone_new("CoE launched with teams that provided expertise.", {"CoE"})  # asked
    assert not kinds.generic_roles_only("Workspace owners can create new Slack channels.")  # review: owners are
    assert not kinds.generic_roles_only("It was designed by the White House's Office of American Innovation.")


async def test_an_acronym_the_question_spells_out_names_no_one_new(minilm, monkeypatch):
    """18F handbook (a development probe): "Who originally came up with the Centers of Excellence idea?" was answered
    with "CoE originally launched with teams that …": "CoE" read as a unit the asker had not named, so the line
    fitted a who-question fully, although the page defines it as "Centers of Excellence (CoE)" and the question
    names it. The line naming the White House's office answers."""
    from synthesis.qa import acronyms, kinds, reader

    context = _context(
        ("Mission, approach, and history", "CoE's mission and history",
         "CoE originally launched with teams that provided technical expertise in five interrelated areas. "
         "By standing up the CoEs we strive to centralize and share the brightest talent across government."),
        ("IT Modernization Centers of Excellence", "Our Story",
         "A signature initiative designed by the White House's Office of American Innovation (OAI) and implemented "
         "at the General Services Administration (GSA), the Centers of Excellence (CoE) seek to address IT "
         "modernization as a means to improve citizen services."))
    question = "Who originally came up with the Centers of Excellence idea?"
    on, off = await _with_and_without(minilm, monkeypatch, question, context, reader, "spelled_out",
                                      lambda text, known: set())
    assert on.startswith("A signature initiative designed by the White House"), on
    assert off.startswith("CoE originally launched"), off
    known = acronyms.definitions(["the Centers of Excellence (CoE) seek to", "Leave Without Pay (LWOP)"])
    assert acronyms.spelled_out("Who came up with the Center of Excellence idea?", known) == {"CoE"}
    assert acronyms.spelled_out("Can I take leave?", known) == set()  # a word of it is not the name
    assert not kinds.names_someone_new("By standing up the CoEs we strive to share talent.", {"CoE"})  # its plural
    assert not kinds.names_someone_new("CoE originally launched with teams.", {"CoEs"})  # the question's plural
    assert kinds.names_someone_new("Ask the AWS admins.", {"AW"})  # a capital S is the acronym's own


async def test_a_line_saying_where_the_instructions_are_does_not_answer_where_to_go(minilm, monkeypatch):
    """18F handbook (a development probe): "My ENT password is about to expire. Where do I go to change it, …?" was
    answered with "Detailed ENT password reset instructions can be found at ServiceNow KB0022142." (the closer
    match), not the line two sentences before it that says where to go: "Go to reset.gsa.gov to change your
    password." A line sending the reader to instructions is a pointer (`is_pointer`), like "See X."."""
    from synthesis import pointers

    context = _context(
        ("Logging in & Networks", "ENT (enterprise) login > Changing your ENT password",
         "You must change your ENT password immediately after you start with GSA and every 90 days thereafter. Go "
         "to reset.gsa.gov to change your password. Locking and unlocking your workstation when you are connected "
         "to the network is a required step to ensure the new ENT password is cached properly. Detailed ENT "
         "password reset instructions can be found at ServiceNow KB0022142."))
    question = ("My ENT password is about to expire. Where do I go to change it, and is there anything I need to do "
                "afterwards so my laptop picks up the new one?")
    on, off = await _with_and_without(minilm, monkeypatch, question, context, pointers, "_FOUND_ELSEWHERE",
                                      re.compile(r"(?!)"))
    assert on.startswith("Go to reset.gsa.gov"), on
    assert off.startswith("Detailed ENT password reset instructions"), off


async def test_a_line_contrasting_the_sides_leads_a_comparison(minilm, monkeypatch):
    """18F handbook (a fresh probe): "What's the difference between when we use Google Meet and when we use Zoom?"
    was answered with each tool's own lines (what Meet integrates with, Zoom's password rule); the line that sets
    them against each other names both sides, so neither side took it."""
    context = _context(
        ("Google Meet", "Google Meet",
         "Google Meet (which has mostly replaced Google Hangouts) is an online video conferencing tool that "
         "integrates with Google calendar. We use Google Meet to conference call, video conference, screen share, "
         "and bridge to a telephone line (free domestically)."),
        ("Getting started", "Video conferencing tools",
         "Google Meet is typically used for internal TTS/GSA meetings, while Zoom is often used for larger meetings "
         "(for example, GSA Town Halls or TTS All Hands) and meetings with our partners or other external "
         "stakeholders."),
        ("Zoom", "Rules", "All Zoom meetings hosted by GSA require a meeting password. Zoom meetings hosted by "
                          "external partners are to be limited to non-sensitive discussions."))
    question = "What's the difference between when we use Google Meet and when we use Zoom?"
    on, off = await _with_and_without(minilm, monkeypatch, question, context, every_side, "CONTRAST_RATIO", 0)
    assert on.startswith("Google Meet is typically used for internal"), on
    assert "while Zoom" not in off, off


def test_a_comparison_pointing_back_takes_its_sides_from_the_statement_before_it(monkeypatch):
    """18F handbook (a fresh probe): "On this acquisition I keep hearing about the CO and the COR. How do their roles
    actually differ?" was one part ("How do their roles actually differ?") answered with neither role; its sides are
    the pair the statement ends on."""

    frame = analyze("On this acquisition I keep hearing about the CO and the COR. How do their roles actually differ?")
    assert frame.comparison and [p.text for p in frame.parts] == ["CO", "COR"]
    assert [p.text for p in analyze("I use Slack and email. How do they differ?").parts] == ["Slack", "email"]
    assert not analyze("I read the policy. How do they differ from last year?").comparison  # no pair told
    monkeypatch.setattr(compared, "TOLD_SIDES", False)
    assert not analyze("On this acquisition I keep hearing about the CO and the COR. How do their roles actually "
                       "differ?").comparison


async def test_the_rule_for_the_askers_own_case_answers_over_the_general_rule(minilm, monkeypatch):
    """A new user asked the demo handbook "Who approves a production hotfix if the engineering manager is
    unreachable?" and got the general rule ("must be approved by the engineering manager") before the sentence for
    that very case. The sentence whose own condition is the asker's leads."""
    from synthesis.qa import asker

    context = _context(("Release calendar and change freezes", "Hotfixes",
                        "Hotfixes are the only production changes allowed during a freeze, and the same approval "
                        "applies outside freezes. A production hotfix must be approved by the engineering manager of "
                        "the owning team. The on-call lead can advise, but cannot approve a hotfix. If the owning "
                        "team's engineering manager is unreachable for 30 minutes, any other engineering manager may "
                        "approve in their place. Approval is given in writing in #deploys, quoting the hotfix "
                        "request."))
    question = "Who approves a production hotfix if the engineering manager is unreachable?"
    on, off = await _with_and_without(minilm, monkeypatch, question, context, asker, "SAME_CASE", 1.0)
    assert on.startswith("If the owning team's engineering manager is unreachable for 30 minutes"), on
    assert not off.startswith("If the owning team's engineering manager is unreachable"), off


def test_a_case_is_the_askers_only_when_its_condition_holds_most_of_their_words():
    from synthesis.qa.asker import asked_case, same_case

    case = asked_case("Who approves a production hotfix if the engineering manager is unreachable?")
    assert same_case(case, "If the owning team's engineering manager is unreachable for 30 minutes, any other "
                           "engineering manager may approve in their place.")
    assert not same_case(case, "If the deploy fails, the engineering manager decides.")  # another case
    assert not same_case(case, "The engineering manager is unreachable on weekends.")  # no condition of its own
    assert not same_case(asked_case("What if it rains?"), "If it rains, the picnic moves indoors.")  # too few words


def test_a_case_set_by_unless_or_an_asking_when_is_no_case():
    from synthesis.qa.asker import asked_case

    # "unless" sets the opposite case; "When is …?" asks a time
    assert asked_case("Can I deploy on Friday unless the engineering manager is unreachable?") == set()
    assert asked_case("When is the self-assessment due?") == set()
    assert asked_case("When I travel abroad, who pays for the SIM card?") >= {"travel", "abroad"}


def test_a_condition_in_the_story_is_no_case_asked():
    """The Embedded Rust Book's "OpenOCD only talks to my Discovery board when I run it as root. What file do I need
    to create?" describes the situation; taking "when I run it as root" as the case asked for raised "try to run them
    with root permission" over the udev rule file."""
    from synthesis.qa.asker import asked_case

    assert asked_case("On Linux OpenOCD only talks to my Discovery board when I run it as root. What file do I need "
                      "to create to fix that?") == set()
    assert asked_case("We ship on Fridays. Who approves a hotfix if the engineering manager is unreachable?") == {
        "engin", "manag", "unreach"}


COR_FAQ = (
    ("Office of Acquisition", "FAQs > How do I become certified as a COR?",
     "The Federal Acquisition Certification for Contracting Officer's Representatives (FAC-COR) contains three "
     "levels of certification that allows for appropriate training and experience for CORs managing a range of "
     "various contracts from low-risk to high-risk and complex acquisitions. CORs: Review FAC-COR Requirements "
     "for education, experience, training requirements for each FAC-COR level. Refer to FAITAS Frequently "
     "Asked Questions to learn how to apply for training. If you have questions, please Slack #fac-cor and tag "
     "the TTS-Bureau Certification Manager for further assistance."),
    ("Office of Acquisition", "FAQs > What is a COR?",
     "The Contracting Officer's Representative (COR) helps the Contracting Officer (CO) administer and manage "
     "the contract from time of award through the contract close-out."),
)


async def test_a_procedure_asked_by_its_section_heading_is_that_section(minilm, monkeypatch):
    """18F handbook (a fresh probe): "How do I get certified?" as a COR is asked by the FAQ heading "How do I become
    certified as a COR?". Its best line is the fourth ("If you have questions, please Slack #fac-cor …"), and the
    pointer to the FAITAS FAQ just before it stopped the walk back to the first steps; the lines under the heading,
    from the first through the best, are the procedure."""
    from synthesis.qa import selection

    question = "I've been tapped to be the COR on our contract. How do I get certified?"
    on, off = await _with_and_without(minilm, monkeypatch, question, _context(*COR_FAQ), selection, "FAQ_SECTION", 0)
    assert on.index("three levels") < on.index("Review FAC-COR") < on.index("FAITAS") < on.index("#fac-cor"), on
    assert "FAITAS" not in off, off
    assert "administer and manage" not in on  # another question's section stays out


async def test_an_faq_procedure_whose_best_line_comes_late_keeps_its_background_out(minilm, monkeypatch):
    """Review of the eighteenth session: a best line past the first FAQ_SECTION lines under the heading ("To get a
    parking permit, email Tenant Support …" after four lines about the garage) is answered as any procedure is; the
    section's opening lines are background, not steps."""
    from synthesis.qa import selection

    context = _context(
        ("Facilities", "FAQs > How do I get a parking permit?",
         "The building has 40 parking spaces. Spaces are shared between three agencies. The garage opens at 6 am. "
         "Motorcycles park on level 2. To get a parking permit, email Tenant Support with your license plate "
         "number. Permits are mailed within five business days."),
        ("Facilities", "FAQs > Where is the bike room?", "The bike room is next to the loading dock."))
    question = "How do I get a parking permit?"
    on, off = await _with_and_without(minilm, monkeypatch, question, context, selection, "FAQ_SECTION", 6)
    assert "email Tenant Support" in on and "40 parking spaces" not in on, on
    assert "40 parking spaces" in off, off  # with room for six lines the rule would quote the garage first


async def test_an_faq_procedure_leaves_another_parts_answer_to_it(minilm):
    """Review of the eighteenth session: in "How do I get certified as a COR, and who do I ask if I have
    questions?", a line under the FAQ heading that answers the who-part better stays the who-part's."""
    from synthesis.qa.selection import pick_answers

    question = "How do I get certified as a COR, and who do I ask if I have questions?"
    frame = analyze(question)
    assert [p.expect for p in frame.parts] == [Expect.PROCEDURE, Expect.WHO]
    synthesizer = ExtractiveSynthesizer(minilm)
    units = candidates(_context(*COR_FAQ))
    synthesizer.reader.score(frame, units)
    how, who = pick_answers(frame, units)
    assert any("FAITAS" in c.text for c in how), [c.text for c in how]  # the rule quoted the section …
    assert not any("three levels" in c.text for c in how), [c.text for c in how]  # … but not the who-part's line
    assert any("three levels" in c.text for c in who), [c.text for c in who]


@pytest.mark.parametrize(("heading", "match", "asks"), [
    ("How do I become certified as a COR?", 0.85, True),
    ("How do I become certified as a COR?", 0.6, False),  # a how-heading asking another procedure
    ("What kind of help can the Writing Lab offer?", 0.85, False),  # close in words, asks what, not how
    ("How to become certified", 0.85, False),  # a title, not a question
])
def test_an_faq_heading_asks_the_procedure_only_when_it_asks_how_and_asks_this(heading, match, asks):
    """The FAQ rule's gates: the heading asks a question, asks how to do something, and is the part's own question
    (cosine at least the reader's FAQ_COSINE): "What kind of help can the Writing Lab offer?" is 0.8 from "How do I
    ask the Writing Lab for help" and would have quoted what the Lab does as the way to ask it."""
    from synthesis.qa.candidate import Candidate
    from synthesis.qa.selection import _asks_the_procedure

    text = "Refer to the FAQ to learn how to apply."
    c = Candidate(text=text, source=1, position=0, passage=Passage(id="p", doc_id="d", content=text, score=0.5,
                                                                    title="Handbook", section=f"FAQs > {heading}"),
                  heading_match=[match])
    assert _asks_the_procedure(c, 0) is asks


async def test_an_answer_is_quoted_with_the_short_sentence_its_paragraph_goes_on_with(minilm, monkeypatch):
    """The rule a paragraph states, then what follows from it ("… you do not need the desktop client. The browser
    editor keeps every revision for you."): the second sentence reads weakly alone, but it is the half of the answer
    that says why. It is quoted after the first, from the same paragraph only."""
    from synthesis.synthesize import summary

    context = _context(
        ("Team wiki", "Editing in the browser",
         "If you only edit pages in the browser, you do not need to install the desktop client. The browser editor "
         "keeps every revision for you.\n\nSpace owners can lock a page while it is being reviewed."),
        ("Team wiki", "Desktop client",
         "The desktop client syncs pages for offline editing. Install it from the software catalog; it needs "
         "admin rights on a managed laptop."),
    )
    question = "I only ever edit pages in the browser, never offline. Do I still have to install the desktop client?"
    # the same answer ending its paragraph: the next paragraph's first sentence is not the rest of it
    ends = _context(
        ("Team wiki", "Editing in the browser",
         "If you only edit pages in the browser, you do not need to install the desktop client.\n\nSpace owners "
         "can lock a page while it is being reviewed."),
        ("Team wiki", "Desktop client", context.sources[1].passage.content),
    )
    alone = (await _answer(minilm, question, ends)).summary
    assert "you do not need to install the desktop client" in alone, alone
    assert "lock a page" not in alone, alone
    on, off = await _with_and_without(minilm, monkeypatch, question, context, summary, "PARAGRAPH_NEXT_WORDS", 0)
    assert "you do not need to install the desktop client" in on, on
    assert "keeps every revision for you" in on, on
    assert "keeps every revision for you" not in off, off


async def test_a_line_of_the_best_answers_page_nearly_as_relevant_completes_it(minilm, monkeypatch):
    """A yes/no question answered by the page's general rule, with the line that settles it further down the same
    page ("Can my FSA pay for a gym membership?": what an FSA is for, then "Gym memberships are reimbursed with a
    doctor's note"). From the best's own page a line 0.8 as relevant follows (`NEXT_RATIO`), neighbour or not; a
    line from another page still needs 0.9 and more (`CLOSE_RATIO`)."""
    from synthesis.qa import selection

    context = _context(
        ("Benefits", "Flexible spending accounts",
         "Flexible spending accounts (FSA) let you pay for eligible out-of-pocket health care costs with pre-tax "
         "dollars.\n\nEnrollment happens during Open Season each November.\n\nGym memberships are reimbursed with a "
         "doctor's note, as are over-the-counter medication and eyeglasses."),
        ("Office", "Gym", "The building has a small gym in the basement for everyone who works there."),
    )
    on, off = await _with_and_without(minilm, monkeypatch, "Can my FSA pay for a gym membership?", context,
                                      selection, "SAME_PAGE_ANYWHERE", False)
    assert on.startswith("Flexible spending accounts (FSA) let you pay"), on
    assert "reimbursed with a doctor's note" in on, on
    assert "reimbursed with a doctor's note" not in off, off
    assert "small gym in the basement" not in on, "another page's weaker line stays out"


async def test_a_procedure_is_completed_by_a_later_line_of_its_page_not_by_background(minilm, monkeypatch):
    """How a garage permit is requested, then (in the page's next chunk) how it arrives: a later line of the best's
    page 0.8 as relevant follows a procedure as it follows any answer (a line above a procedure's best does not: see
    the FAQ test above). "The garage has 40 spaces …" stands between them at 0.68 of the best and stays out."""
    from synthesis.qa import selection

    def passage(i: int, doc: str, chunk: int, section: str, content: str) -> ContextSource:
        return ContextSource(number=i, passage=Passage(id=f"p{i}", doc_id=doc, content=content, score=0.6 - 0.02 * i,
                                                       title=doc.title(), section=section, chunk_index=chunk,
                                                       chunk_count=2))

    context = Context(sources=[
        passage(1, "parking", 0, "Garage permits",
                "To get a parking permit for the garage, email Tenant Support with your license plate number."),
        passage(2, "parking", 1, "Garage permits > After you apply",
                "The garage has 40 spaces shared by three agencies.\n\nYour garage permit arrives by mail within five "
                "business days; hang it on the mirror."),
        passage(3, "bikes", 0, "Bike room", "The bike room is next to the loading dock."),
    ])
    on, off = await _with_and_without(minilm, monkeypatch, "How do I get a parking permit for the garage?", context,
                                      selection, "SAME_PAGE_ANYWHERE", False)
    assert on.startswith("To get a parking permit for the garage, email Tenant Support"), on
    assert "arrives by mail within five business days" in on, on
    assert "arrives by mail" not in off, off
    assert "40 spaces" not in on and "bike room" not in on, on


# Valgrind's manual (mc-manual.html, "4.3. Memcheck Command-Line Options"): every option shares one section, and each
# option's term line heads its own description, so a chunk can end on the next option's term line.
_FREELIST_SECTION = "4. Memcheck: a memory error detector > 4.3. Memcheck Command-Line Options"
_FREELIST_CHUNKS = (
    "When the client program releases memory using free (in C) or delete (C++), that memory is not immediately "
    "made available for re-allocation. Instead, it is marked inaccessible and placed in a queue of freed blocks. "
    "The purpose is to defer as long as possible the point at which freed-up memory comes back into circulation.\n\n"
    "This option specifies the maximum total size, in bytes, of the blocks in the queue. The default value is "
    "twenty million bytes. Increasing this increases the total amount of memory used by Memcheck but may detect "
    "invalid uses of freed blocks which would otherwise go undetected.\n\n"
    "--freelist-big-blocks=<number> [default: 1000000]",
    "When making blocks from the queue of freed blocks available for re-allocation, Memcheck will in priority "
    "re-circulate the blocks with a size greater or equal to --freelist-big-blocks. This ensures that freeing big "
    "blocks (in particular freeing blocks bigger than --freelist-vol) does not immediately lead to a re-circulation "
    "of all (or a lot of) the small blocks in the free list.\n\n"
    "Setting a value of 0 means that all the blocks are re-circulated in a FIFO order.\n\n"
    "--workaround-gcc296-bugs=<yes|no> [default: no]",
)
FREELIST = Context(sources=[  # two chunks of one page, in the order they were retrieved
    ContextSource(number=n, passage=Passage(id=f"mc-{index}", doc_id="mc-manual", content=_FREELIST_CHUNKS[index - 55],
                                            score=score, title="Memcheck", section=_FREELIST_SECTION,
                                            chunk_index=index, chunk_count=80))
    for n, (index, score) in enumerate(((56, 0.58), (55, 0.56)), start=1)])


async def test_an_option_term_line_takes_its_relevance_from_its_own_description(minilm, monkeypatch):
    """A default line reads as well as the description it belongs to. An option's term line belongs to the lines
    after it, not to the section's best line: "--workaround-gcc296-bugs=<yes|no> [default: no]" closed the chunk
    describing the freed-blocks queue and answered "How big is that queue … by default?" (as 'high'). A term line
    whose description the chunk cut off is a label: "--freelist-big-blocks=<number> [default: 1000000]" is not the
    queue's size."""
    from synthesis.qa import reader

    question = ("After free(), Memcheck keeps freed blocks out of circulation for a while to catch use-after-free. "
                "How big is that queue of freed blocks by default?")
    on, off = await _with_and_without(minilm, monkeypatch, question, FREELIST, reader, "OPTION_TERM",
                                      re.compile(r"(?!)"))
    assert "twenty million" in on and "workaround" not in on and "1000000" not in on, on
    assert "workaround" in off, off


# Real text (the 18F handbook's office pages), in the order retrieved: most of what a DC question retrieves is the
# DC page, written "Washington, D.C."; one passage is San Francisco's bike parking.
_BIKE_ROOM = (
    ("Washington, D.C.", "Getting here > Biking",
     "Bike parking is free. The entrance to the bike room is via a ramp on E Street by Greenberry's Coffee. (There "
     "are two ramps into GSA courtyards. The one closer to 19th Street is the one you're looking for.) You must show "
     "your GSA ID to the guard and then take your bike down to the bike room in the big building at the center of "
     "the courtyard."),
    ("Washington, D.C.", "Amenities > Gym, lockers, locker rooms",
     "The gym is located in the basement. Make sure you bring your badge with you, as you'll need it to get back into "
     "the second wing. The easiest way to get there is by taking the old elevators at the F Street entrance down to "
     "the basement, walking slightly north, and then cutting across the parking lot (where the bike room entrance "
     "is) into the third wing hallway."),
    ("Washington, D.C.", "How do I... > Register for building badge swipe access as a non-GSA federal employee",
     "Federal employees who work for agencies other than GSA can register their PIV cards to open doors and "
     "turnstiles at 1800 F by visiting the GSA security office. OMA Security is located on the ground floor in room "
     "G151. This is particularly useful for biking as it will allow your PIV card to open the courtyard doors from "
     "the parking lot."),
    ("San Francisco", "Amenities > Bike parking",
     "Bike parking is next to the loading dock, entered from the far corner at McAllister and Leavenworth.\n\n"
     "To request bike parking access: Fill out the bike access request form and return to James E., either by "
     "email or by printing and returning the form to the building office in the basement level."),
)
BIKE_ROOM = Context(sources=[  # four chunks of two pages, one the DC office's
    ContextSource(number=i, passage=Passage(id=f"p{i}", doc_id="sf" if title == "San Francisco" else "dc",
                                            content=content, score=0.6 - 0.02 * i, title=title, section=section))
    for i, (title, section, content) in enumerate(_BIKE_ROOM, start=1)])


async def test_a_place_most_passages_are_about_still_scopes_the_question(minilm, monkeypatch):
    """"Where is the entrance to the bike room at the DC office?" led with San Francisco's "… entered from the far
    corner at McAllister and Leavenworth": DC headed 10 of the 11 retrieved passages, and a name carried by 60 % of
    them scoped nothing (meant for a name every page carries, like the organisation's)."""
    from synthesis.qa import asker

    on, off = await _with_and_without(minilm, monkeypatch, "Where is the entrance to the bike room at the DC office?",
                                      BIKE_ROOM, asker, "SCOPE_SHARE", 0.6)
    first_on, first_off = on.split(" [")[0], off.split(" [")[0]  # the summary's first quoted line
    assert "E Street" in on and "McAllister" not in first_on and "bike parking access" not in first_on, on
    assert "bike parking access" in first_off or "McAllister" in first_off, off




@pytest.mark.parametrize("text", ["You do not need approval to create public repositories.",
                                  "No approval is needed to archive/unarchive a repository.",
                                  "Approval is not required for purchases under the micro-purchase threshold."])
def test_that_no_one_must_approve_answers_whose_sign_off_is_needed(text, monkeypatch):
    """18F handbook: "what sign-off do I need to create a public repository …?" is answered by "You do not need
    approval to create public repositories.", which names no one and so fit no who-part (ranked 12th)."""
    from synthesis.qa import kinds

    assert Expect.WHO in answer_kinds(text)
    monkeypatch.setattr(kinds, "NO_SIGN_OFF", False)
    assert Expect.WHO not in answer_kinds(text)


@pytest.mark.parametrize("text", ["Get approval first.", "The approval process takes two weeks.",
                                  "Approval usually comes within a day."])
def test_a_sentence_about_approval_names_no_approver_by_that_alone(text):
    assert Expect.WHO not in answer_kinds(text)

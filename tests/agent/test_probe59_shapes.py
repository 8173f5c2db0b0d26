"""Question shapes the forty-sixth session found refused or answered wrongly on the 18F handbook, on the page text they
failed on (hp59, hp60, written by helpers that read only the corpus, and measured before any change).

A rule with a flag is switched off once in its test, so the test fails when the rule does nothing.
"""

from __future__ import annotations

from synthesis.qa import analyze, pointing, selection, topic
from synthesis.qa.sides import SideName
from synthesis.synthesize import candidates as candidates_module
from synthesis.synthesize.candidates import candidates

from .test_probe51_shapes import _page
from .test_probe53_shapes import _missing
from .test_qa import _context, _with_and_without

ATO = ("Security", "ATO Scanning",
       "**Greybox testing**\n\nOnce you are ready, the GSA OCISO team will start both automated and manual scanning "
       "and testing.\n\n**Expectation management**\n\nOverall, if _no_ vulnerabilities are found, this process has "
       "been taking approximately 2 weeks for test preparation and System Security Plan writing and 2 weeks for "
       "greybox testing and signature. FISMA Moderate and FISMA High will require additional time.")
REOPENING = ("End of Year Performance Management HRLinks Steps", "Re-opening a performance plan",
             "If modifications need to be made to an existing performance plan, a plan can be re-opened by the "
             "Supervisor and resubmitted to the employee to acknowledge.\n\n**_NOTE: 120 days must pass from the date "
             "the employee acknowledges the updated plan before they can be rated against it._**")
HOW_WE_WORK = ("TTS Acquisition Division", "How we work",
               "The TTS Acquisition Division (AcqDiv) is uniquely focused on helping government buy technology.\n\n"
               "- We strive to procure technology in a transparent and cost-effective way. We collaborate directly "
               "with our internal clients to create the acquisition strategy and build the acquisition package "
               "together. We focus on procurements under $10 million to prevent vendor lock-in. We use low dollar "
               "amounts and option periods so that we can assess the results of our acquisitions, and refine our "
               "approaches over time to find the best value solution.")


def test_a_span_of_time_asked_for_is_no_kind(minilm, monkeypatch):
    """"If OCISO's testing doesn't find anything, roughly how long should we plan for the ATO scanning and testing
    stretch?" (hp59) was refused for "stretch", read as a kind of testing (topic.SPAN_HEADS)."""
    asked = ("If OCISO's testing doesn't find anything, roughly how long should we plan for the ATO scanning and "
             "testing stretch?")
    context = _page(ATO)
    assert _missing(minilm, asked, context) == []
    monkeypatch.setattr(topic, "SPAN_HEADS", False)
    assert _missing(minilm, asked, context) == ["stretch"]


def test_a_span_noun_decides_when_the_question_asks_no_time():
    present = {"test", "ato"}
    asked = "Is there a testing stretch for the ATO?"
    assert topic.compound_modifiers(asked, {"stretch"}, present) == ["stretch"]  # whether one exists, not how long
    assert topic.compound_modifiers("How long is the testing stretch for the ATO?", {"stretch"}, present) == []
    # a span word modifying a noun names a kind, and a "when" opening a condition asks no time (review)
    goals = {"goal", "hrlink"}
    assert topic.compound_modifiers("When do I need to set my stretch goals?", {"stretch"}, goals) == ["stretch"]
    assert topic.compound_modifiers("When I start, is there a probation stint I have to finish first?", {"stint"},
                                    {"probat"}) == ["stint"]


def test_a_named_subject_s_catenative_verb_is_no_kind(minilm, monkeypatch):
    """"Is there a dollar ceiling AcqDiv tries to keep procurements under so we don't get locked into a vendor?"
    (hp60) was refused for "tries", read as a kind of AcqDiv (topic.NAMED_CATENATIVE)."""
    asked = "Is there a dollar ceiling AcqDiv tries to keep procurements under so we don't get locked into a vendor?"
    context = _page(HOW_WE_WORK)
    assert _missing(minilm, asked, context) == []
    monkeypatch.setattr(topic, "NAMED_CATENATIVE", False)
    assert _missing(minilm, asked, context) == ["tries"]


def test_a_noun_before_to_stays_a_noun():
    present = {"ceil", "contract", "rebid", "tts", "attend", "confer", "coursera", "take", "cours"}
    # after a common noun, "tries" is a noun with an infinitive, and a kind; after a name, the name's verb
    assert topic.compound_modifiers("Is there a ceiling on contract tries to rebid?", {"tries"}, present) == ["tries"]
    assert topic.compound_modifiers("Is there a ceiling AcqDiv tries to rebid under?", {"tries"}, present) == []
    # a name modifying the noun after it, after a determiner or a verb: the noun's kind (review)
    assert topic.compound_modifiers("Are there any TTS grants to attend conferences?", {"grants"},
                                    present) == ["grants"]
    assert topic.compound_modifiers("Does it include Coursera credits to take courses?", {"credits"},
                                    present) == ["credits"]


def test_an_it_inside_the_asking_clause_points_at_its_own_thing(minilm, monkeypatch):
    """"My supervisor reopened my performance plan last month to tweak the critical elements. How long after I
    acknowledge the revised plan before I can actually be rated against it?" (hp60) was refused for "tweak": "it" was
    read as pointing back at the statement, whose last words then held the topic (pointing.CLAUSE_INSIDE)."""
    asked = ("My supervisor reopened my performance plan last month to tweak the critical elements. How long after I "
             "acknowledge the revised plan before I can actually be rated against it?")
    context = _page(REOPENING)
    assert _missing(minilm, asked, context) == []
    assert "tweak" in pointing.told_words(asked)
    monkeypatch.setattr(pointing, "CLAUSE_INSIDE", False)
    assert _missing(minilm, asked, context) == ["tweak"]


def test_an_it_with_nothing_of_its_own_still_points_back():
    told = "My supervisor reopened my performance plan last month."
    asking = "How long after I acknowledge the revised plan before I can be rated against it?"
    assert not pointing._points_back(asking, told)
    # no changed thing of its own in the asking, or none the statement told of: "it" is what was told (review)
    assert pointing._points_back("If I expense it after the trip, will it be reimbursed?", "I bought a monitor.")
    assert pointing._points_back("How long after I submit before they approve it?", told)
    assert pointing._points_back("If I sign the updated agreement can I extend it?", "I'm doing a detail at USDS.")
    assert pointing._points_back("Once I update my current address in HRLinks, how do I renew it?",
                                 "My badge expires next week.")


SPEAKING = ("FAS speaker guide", "Questions to ask yourself",
            "Ask yourself the following questions when considering an invitation:\n\n"
            "- Who is the audience? Not just the organizer, consider the attendees: Who are they? Is it a diverse "
            "audience?\n"
            "- What are the top three messages we want to convey?\n"
            "- Do I have time to get this approved? (Allow at least 20 days.)\n"
            "- Is there a conflict or the appearance of a conflict of interest speaking at this event?\n")


def test_a_list_item_s_question_and_its_answer_are_one_unit(monkeypatch):
    """"Got invited to speak at a conference in my official role. How far ahead do I need to start on approval?" (hp59)
    was answered with "Most approvals will take 2–3 weeks": "(Allow at least 20 days.)" alone says nothing of approval
    (candidates.ASKED_ITEMS)."""
    texts = [u.text for u in candidates(_page(SPEAKING))]
    assert "Do I have time to get this approved? (Allow at least 20 days.)" in texts
    # an item whose question more sentences follow is left as it was
    assert "Who is the audience?" in texts and "Is it a diverse audience?" in texts
    monkeypatch.setattr(candidates_module, "ASKED_ITEMS", False)
    assert "(Allow at least 20 days.)" in [u.text for u in candidates(_page(SPEAKING))]


APPROACHES = ("Mission, approach, and history", "",
              "These are _not_ hard and fast rules, but generally the different approaches tend to be:\n\n"
              "| Area | CoE common approach | 18F common approach |\n|------|---------------------|-----------|\n"
              "| **Partners** | An agency's OCIO | A program office |\n"
              "| **Engagement scope** | Larger modernization efforts involving parallel projects in artificial "
              "intelligence, data analytics, cloud adoption, infrastructure optimization, contact center, and customer "
              "experience | Agile product development for specific agency challenges |\n")
ACQUISITION = ("Acquisition consulting", "Assisted acquisitions",
               "While still collaborative, compared to an Acquisition Consulting engagement, the 18F contracting lead "
               "and project team will take a much more active role in setting up and running the procurement. CoE "
               "engagement teams are composed of federal employees and vendors.")


async def test_a_row_with_a_cell_per_side_answers_each(minilm, monkeypatch):
    """"At an agency, who does CoE usually partner with compared to 18F?" (hp60) was answered without the table row
    that has a column per side: a line naming both sides tells them apart in nothing, but a row's cell labels do
    (selection.ROW_SIDES)."""
    asked = "At an agency, who does CoE usually partner with compared to 18F?"
    context = _context(ACQUISITION, APPROACHES)
    on, off = await _with_and_without(minilm, monkeypatch, asked, context, selection, "ROW_SIDES", False)
    assert "An agency's OCIO" in on and "A program office" in on
    assert "OCIO" not in off


def test_an_item_s_pointer_or_lead_is_no_answer_to_join():
    # (review) an answer sending the reader elsewhere, or leading items nested under it, stays apart
    texts = [u.text for u in candidates(_page(("Equipment", "Laptops",
                                               "Before you ask:\n\n"
                                               "- Need to request a new laptop? See the IT equipment page for the "
                                               "request form.\n"
                                               "- Not seeing your supervisor's name? You can add another supervisor by "
                                               "following this process:\n"
                                               "  - Scroll to the bottom of the approval status selection\n"
                                               "  - Select the plus icon\n")))]
    assert not any(t.startswith("Need to request a new laptop? See") for t in texts)
    assert not any(t.startswith("Not seeing your supervisor's name? You can") for t in texts)


def test_a_row_without_parallel_columns_names_no_side():
    row = candidates(_page(("Projects", "", "| Partner agency | 18F lead | Status |\n|---|---|---|\n"
                                            "| USDA Food and Nutrition Service | Jane Doe | Active |\n")))
    frame = analyze("At an agency, who does CoE usually partner with compared to 18F?")
    mine, theirs = frame.parts[0].own - frame.parts[1].own, frame.parts[1].own - frame.parts[0].own
    assert [u for u in row if u.row]
    assert not any(selection.sided_row(u, SideName.of(frame.parts[0].text, mine), [theirs]) for u in row if u.row)
    table = candidates(_page(APPROACHES))
    assert any(selection.sided_row(u, SideName.of(frame.parts[0].text, mine), [theirs]) for u in table if u.row)

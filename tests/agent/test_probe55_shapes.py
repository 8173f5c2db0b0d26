"""Question shapes the forty-fourth session found answered wrongly on the 18F handbook, on the page text they failed on
(hp55, hp56, written by helpers that read only the corpus, and measured before any change).

A rule with a flag is switched off once in its test, so the test fails when the rule does nothing.
"""

from __future__ import annotations

from synthesis import pointers, sentences
from synthesis.qa import analyze, compared, parts, topic
from synthesis.sentences import sentence_units
from synthesis.synthesize import candidates as candidates_module
from synthesis.synthesize.candidates import candidates

from .test_probe51_shapes import _page
from .test_probe53_shapes import _missing
from .test_qa import _context, _with_and_without

INTEGRATIONS = ("Slack integrations", "New integrations",
                "You can add new \"configurations\" of pre-approved integrations to Slack, for things like posting "
                "Trello or GitHub notifications to a Slack channel. For getting notifications into Slack with a "
                "custom integration, you can create a new App for Incoming Webhooks, which will be approved. For any "
                "new integration types, please follow the process below.\n\nIntegration request form\n\n"
                "Note this is only necessary for new bots or _types_ of integrations — approval is not needed for new "
                "“configurations” of a previously-approved App. The form should be filled out again if the nature of "
                "the connection changes, e.g. a webhook connection changes to using OAuth.")
DEDICATED = ("External collaboration through Slack", "Dedicated channels",
             "You may want to invite partners, contractors, etc. to specific project channels.")
SOFTWARE = ("Software Under $10,000", "",
            "Do you need software to do your job or make sure TTS is running smoothly? Follow the steps below to "
            "access software we own or request a software purchase of under $10,000.\n\n"
            "If you need to purchase more expensive software, see procurements over $10,000.")
OUTREACH = ("TTS Outreach", "Sending a message to all of TTS",
            "You might have a need to get a message to all of TTS, such as:\n\n"
            "- Major events impacting all of TTS or a TTS Business unit\n- Required trainings\n"
            "- Policy changes or reminders\n\n"
            "To send, **reach out to us in #outreach**. We will:\n\n"
            "1. Copyedit the message\n1. Get approvals (if needed)\n1. Email to all of TTS\n1. Cross-post in #news")
SELF_ASSESSMENT = ("Mid Year Performance Management HRLinks Steps", "Entering a self-assessment",
                   "Self-assessments are **not required** for the mid year review; however,\nSupervisors can request "
                   "that their direct reports submit one.\n\n- Step-by-step instructions:\n\n  - Employee\n"
                   "    - We **strongly recommend** that you draft your self-assessment using Google Docs to avoid "
                   "losing it if HRLinks crashes due to inactivity.\n"
                   "    - If you need to make adjustments, you can \"stop sharing\" the self-assessment with your "
                   "Supervisor as long as their Mid-Year has not been completed.\n  - No action required by supervisor")
# a chunk the chunker cut inside the redirect_from row: it opens on that row's tail, then the redirect_to row
FRONT_MATTER_TAIL = ("Front matter", "",
                     "E.g., `redirect_from: /handbook-frontmatter` |\n"
                     "| `redirect_to` | If present, this element causes the page content to be ignored and instead a "
                     "redirect page is created that will send the user to the URL specified in the element. E.g., "
                     "`redirect_to: https://www.gsa.gov` |")
FRONT_MATTER = ("Front matter", "",
                "Here are the front matter elements that the Handbook knows about by default:\n\n"
                "| front matter element | what it does |\n"
                "| `title` | Sets the page title and the top-level heading text on a page |\n"
                "| `redirect_from` | If present, this element causes an additional page to be created at the specified "
                "URL that will redirect to this page. This element is useful and recommended when pages are renamed "
                "so that links to the old URL will point to the new URL. E.g., "
                "`redirect_from: /handbook-frontmatter` |")
LEAVING = ("Leaving TTS", "When it's time to leave TTS > 3. Review your benefits",
           "are not taking a break in employment, then it will be automatically transferred to your next agency (but "
           "it often takes a few pay periods). We recommend printing a copy of your last Leave and Earnings statement "
           "before the end of your final day.\n"
           "- You may be entitled to unemployment insurance if you lose your job, as long as it's not due to "
           "misconduct.")


def test_a_verb_before_its_object_pronoun_is_no_kind(minilm, monkeypatch):
    """"If I just want to hook it up to another channel, do I need to fill out the integration request form again?"
    (hp55) was refused for "hook", read as a kind of what "want to" is of (topic.OBJECT_PRONOUNS)."""
    asked = ("Our team already uses the GitHub app in Slack. If I just want to hook it up to another channel, do I "
             "need to fill out the integration request form again?")
    context = _page(INTEGRATIONS, DEDICATED)
    assert _missing(minilm, asked, context) == []
    monkeypatch.setattr(topic, "OBJECT_PRONOUNS", False)
    assert _missing(minilm, asked, context) == ["hook"]


def test_only_a_verb_before_an_object_pronoun(monkeypatch):
    present = {"want", "channel", "slack"}
    assert topic.compound_modifiers("I want to hook it up to a channel.", {"hook"}, present) == []
    # a word before a covered noun still names a kind
    assert topic.compound_modifiers("Do I want to pet insurance?", {"pet"}, {"want", "insur"}) == ["pet"]
    # "IT" is information technology, no pronoun (review)
    assert topic.compound_modifiers("Who handles procurement for cloud IT services?", {"cloud"},
                                    {"procur", "it", "servic"}) == ["cloud"]
    monkeypatch.setattr(topic, "OBJECT_PRONOUNS", False)
    assert topic.compound_modifiers("I want to hook it up to a channel.", {"hook"}, present) == ["hook"]


def test_a_comparative_names_no_kind(minilm, monkeypatch):
    """"… go to the bigger procurement process instead?" (hp55) was refused for "bigger", read as a kind of
    procurement no page names (topic.DEGREE_FORMS)."""
    asked = ("What's the cost cutoff where I have to stop using the normal software request process and go to the "
             "bigger procurement process instead?")
    assert "bigger" not in _missing(minilm, asked, _page(SOFTWARE))
    monkeypatch.setattr(topic, "DEGREE_FORMS", False)
    assert "bigger" in _missing(minilm, asked, _page(SOFTWARE))


def test_only_a_degree_form_is_no_kind():
    present = {"procur", "process", "insur"}
    assert topic.compound_modifiers("Is there a bigger procurement process?", {"bigger"}, present) == []
    assert topic._degree_form("larger") and topic._degree_form("cheapest")
    # the plain adjective still names a kind, and so does a noun ending in -er
    assert topic.compound_modifiers("Is there dental insurance?", {"dental"}, present) == ["dental"]
    assert not topic._degree_form("manager") and not topic._degree_form("summer")


def test_a_bare_lead_takes_the_sentence_before_it():
    """"To send, reach out to us in #outreach. We will:" then the steps (hp56): the lead of a pronoun and an
    auxiliary says nothing; the sentence before it says where to ask (sentences.BARE_LEADS)."""
    items = [s for s in sentence_units(OUTREACH[2]) if s.text == "Copyedit the message"]
    assert items[0].lead_in == "To send, reach out to us in #outreach. We will:"
    # a lead that says something keeps to itself
    other = sentence_units("Read this first. The form asks for:\n\n- your name\n- your grade")
    assert other[-1].lead_in == "The form asks for:"
    # a pointer or a note before the bare lead says nothing of the list either (review)
    pointer = sentence_units("See the FAQ for details. You can also:\n\n- call the help desk\n- file a ticket")
    assert pointer[-1].lead_in == "You can also:"


async def test_where_to_ask_leads_the_steps(minilm, monkeypatch):
    asked = "How do I get a message sent out to all of TTS, e.g. a required training reminder?"
    on, off = await _with_and_without(minilm, monkeypatch, asked, _context(OUTREACH), sentences, "BARE_LEADS", False)
    assert "#outreach" in on and "Copyedit" in on, on
    assert "#outreach" not in off, off


def test_one_standing_for_a_noun_of_its_own_sentence():
    """"Self-assessments are not required …; however, Supervisors can request that their direct reports submit
    one." (hp56) was kept out of the answer as leaning on the sentence before it (pointers.ONE_WITHIN)."""
    said = SELF_ASSESSMENT[2].split("\n\n")[0].replace("**", "").replace("\n", " ")
    assert not pointers.leans_on_context(said)
    assert pointers.leans_on_context("You should submit one.")
    assert pointers.leans_on_context("Anyone can declare one, and it lasts a year.")
    assert pointers.leans_on_context("If you lose your badge, you must request one.")  # (no conjunction: as before)
    # an earlier clause pointing elsewhere names nothing "one" could stand for (review)
    assert pointers.leans_on_context("Supervisors may ask for it, but you are not required to submit one.")


async def test_a_rule_with_one_answers_whether_it_is_required(minilm, monkeypatch):
    asked = "Is a self-assessment mandatory for the mid-year review?"
    on, off = await _with_and_without(minilm, monkeypatch, asked, _context(SELF_ASSESSMENT), pointers, "ONE_WITHIN",
                                      False)
    assert "not required" in on, on
    assert "not required" not in off, off


def test_rows_after_a_cut_row_have_no_header_here(monkeypatch):
    """A chunk cut inside the redirect_from row (hp56): the redirect_to row was read as the table's header, and
    lost (sentences.CUT_ROWS)."""
    units = sentence_units(FRONT_MATTER_TAIL[2])
    # (the tail is kept, as prose: a long row's middle is only in this chunk; review)
    assert [u.text[:40] for u in units] == ["E.g., redirect_from: /handbook-frontmatt",
                                            "redirect_to; If present, this element ca"]
    assert units[1].row
    # a tail that is the pipe alone counts too
    assert sentence_units("|\n| `redirect_to` | Creates a redirect page instead. |")[0].text.startswith(
        "redirect_to; Creates")
    # a table with its header is read as before
    whole = sentence_units(FRONT_MATTER[2])
    assert any(u.text.startswith("front matter element: title; what it does: Sets") for u in whole)
    monkeypatch.setattr(sentences, "CUT_ROWS", False)
    assert not any("redirect_to" in u.text and "ignored" in u.text for u in sentence_units(FRONT_MATTER_TAIL[2]))


def test_a_shared_scope_after_the_last_side_is_no_side(monkeypatch):
    """"redirect_from vs redirect_to in handbook front matter — what's the difference?" (hp56): "in handbook front
    matter" is where both sides are; as the last side's own words, every line about the page named redirect_to
    (compared.SHARED_SCOPE)."""
    asked = "redirect_from vs redirect_to in handbook front matter — what's the difference?"
    assert compared.comparison_sides(asked) == ["redirect_from", "redirect_to"]
    # a side with a preposition of its own, or a last side longer than the first, keeps its phrase
    assert compared.comparison_sides("What is the difference between working from home vs working in the office?") \
        == ["working from home", "working in the office"]
    assert compared.comparison_sides("How does Tock differ from time tracking in Concur?") == [
        "Tock", "time tracking in Concur"]
    # … and one word after the preposition is the side's own (review)
    assert compared.comparison_sides("telework vs leave for illness: what's the difference?") == [
        "telework", "leave for illness"]
    monkeypatch.setattr(compared, "SHARED_SCOPE", False)
    assert compared.comparison_sides(asked)[1].startswith("redirect_to in")


async def test_both_redirect_rows_answer(minilm, monkeypatch):
    asked = "redirect_from vs redirect_to in handbook front matter — what's the difference?"
    context = _page(FRONT_MATTER, FRONT_MATTER_TAIL)
    on, off = await _with_and_without(minilm, monkeypatch, asked, context, sentences, "CUT_ROWS", False)
    assert "ignored" in on and "additional page" in on, on
    assert "ignored" not in off, off


def test_a_chunk_opening_inside_a_sentence_quotes_none_of_it(monkeypatch):
    """A chunk opening on "are not taking a break in employment, then it will be automatically transferred …" (the
    rest of a sentence in the chunk before) was quoted for "How is a detail different from just transferring to
    another job?" (hp56; candidates.CUT_STARTS)."""
    context = _page(("Leaving TTS", "Intro", "You can leave TTS at any time."), LEAVING)  # LEAVING is chunk 2
    texts = [c.text for c in candidates(context)]
    assert not any(t.startswith("are not taking") for t in texts)
    assert any(t.startswith("We recommend printing") for t in texts)
    # a sentence opening on a name is whole
    first = _page(("npm", "", "npm caches every package it downloads in a folder of its own."))
    assert candidates(first)[0].text.startswith("npm caches")
    # … and an option's term that opens a chunk of a manual ("until-pass", CMake's ctest --repeat: cm-14)
    term = _page(("ctest(1)", "", "x"), ("ctest(1)", "Options > --repeat <mode>:<n>",
                                          "until-pass\n  Allow each test to run up to <n> times in order to pass."))
    assert any("Allow each test to run up to" in c.text for c in candidates(term))
    # … and so is one opening on a keyword in code (review)
    code = _page(("JS", "", "x"), ("JS", "Keywords", "`this` refers to the object the function is called on."))
    assert any(c.text.startswith("this refers") for c in candidates(code))
    monkeypatch.setattr(candidates_module, "CUT_STARTS", False)
    assert any(t.startswith("are not taking") for t in (c.text for c in candidates(context)))


def test_a_label_before_a_dash_is_context_not_a_part(monkeypatch):
    """"Writing my travel approval email to my AO — what's the subject line supposed to look like and how do I state
    the cost?" (hp55) was one part opening on the label, and answered neither (parts.DASH_LABELS)."""
    asked = ("Writing my travel approval email to my AO — what's the subject line supposed to look like and how do I "
             "state the cost?")
    assert [p.text for p in analyze(asked).parts] == ["what's the subject line supposed to look like",
                                                      "how do I state the cost"]
    assert parts.context_of(asked) == "Writing my travel approval email to my AO"
    # a colon's label as before; a lead naming only the asking is chatter, no context
    assert parts.context_of("Two HR Links questions: where do I see my plan, and where can I check my rating?") \
        == "Two HR Links questions"
    assert parts.context_of("Quick one — how do I reset my PIV pin?") == ""
    # a colon's label holding a dash of its own still splits at the colon (review)
    assert len(analyze("FY2024–2025 open season: where do I change my plan and when does it close?").parts) == 2
    monkeypatch.setattr(parts, "DASH_LABELS", False)
    assert len(analyze(asked).parts) == 1


def test_a_sentence_ending_on_a_dash_announces_what_follows(monkeypatch):
    """"Here's a short guide to facilitating an accessible meeting --" closed a chunk; the next one, "Before the
    meeting: Request ASL interpreters and CART transcription …", was never read with it (hp56; sentences.DASH_LEADS:
    the agent reads on past a chunk that ends announcing what follows)."""
    chunk = ("When we host a large meeting, we'll often record it so that people can watch after-the-fact.\n\n"
             "Here's a short guide to facilitating an accessible meeting --")
    assert sentences.announces_next(chunk) == "Here's a short guide to facilitating an accessible meeting --"
    assert sentences.lead_text("Here's a short guide to facilitating an accessible meeting --") == (
        "Here's a short guide to facilitating an accessible meeting")
    # a dash inside a sentence, or a hyphenated word at its end, announces nothing
    assert sentences.announces_next("Chatter on calls is hard to parse — make room for pauses.") == ""
    assert sentences.announces_next("We meet every week, in person or via co-") == ""
    # nor a command's bare "--", nor a field's dash for "none" (review)
    assert sentences.announces_next("To pass arguments to the program, put them after --") == ""
    assert sentences.announces_next("Default: —") == ""
    monkeypatch.setattr(sentences, "DASH_LEADS", False)
    assert sentences.announces_next(chunk) == ""

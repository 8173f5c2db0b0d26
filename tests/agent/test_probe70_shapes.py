"""Question shapes the fiftieth session found refused or answered wrongly on the 18F handbook, on the page text they
failed on (hp69–hp72, written by helpers that read only the corpus, and measured before any change).

A rule with a flag is switched off once in its test, so the test fails when the rule does nothing.
"""

from __future__ import annotations

from synthesis.qa import kinds, specifics, topic, values
from synthesis.stems import content_stems
from synthesis.synthesize import candidates as candidates_module

from .test_probe51_shapes import _page
from .test_probe53_shapes import _missing
from .test_probe67_shapes import _unstated
from .test_qa import _answer, _with_and_without

ARCHIVING = ("GitHub", "Archiving",
             "Inactive repositories are automatically archived by the TTS Tech Operations with ghad. A repository is "
             "considered \"inactive\" if there haven't been any new commits or comments on issues or pull requests in "
             "a while; or if the repository description includes the terms \"deprecated,\" \"not supported,\" or \"no "
             "longer supported.\" The current default is 90 days.")
SLACK_ARCHIVE = ("External collaboration through Slack", "Archive a Slack channel",
                 "When a Slack channel is no longer needed (e.g., a partner project has ended), the channel should be "
                 "archived. Channels that aren't Slack Connect can be archived by any member of the channel.")
INCIDENTS = ("Security incidents", "You must report IT security incidents or suspicious activity",
             "For questions about GSA’s Incident Response Program, contact the GSA Incident Response (IR) Team at "
             "gsa-ir@gsa.gov. If you do not receive a timely acknowledgement of your report, you can phone the IR team "
             "via the numbers listed in Section 3.1.1 of the GSA IT Security Procedural Guide.")
SERVICE_DESK = ("Security incidents", "Contacts",
                "If you have any issues with a GSA-maintained system or website, you'll need to contact the IT service "
                "desk through: the Service Portal, where you can submit a ticket or live chat; Call them at "
                "866-450-5250; Email them at itservicedesk@gsa.gov.")
CGE_FORM = ("Get access to Concur", "3. Complete the CGE Access Request Form",
            "Complete the CGE Access Request Form, minus the EFT enrollment form. Either an electronic or ink "
            "signature is fine. Don't forget to get your supervisor's signature as well!")
CGE_FAQ = ("Get access to Concur",
           "Frequently Asked questions > Whose signature should I get for the supervisor field?",
           "That of your functional supervisor.")
MEDIA = ("Guidelines for speaking at events", "Media interview requests",
         "If this is a press request (newspaper, TV station, radio station, podcast, or blog), do not respond. Forward "
         "the message to press@gsa.gov and the Office of Strategic Communication will handle it.")


def test_a_time_up_to_an_event_is_that_things(minilm, monkeypatch):
    """"How many days of inactivity before a Slack channel gets archived automatically?" (hp69, unanswerable) was
    answered "The current default is 90 days", said of archiving repositories (values.EVENT_SUBJECTS)."""
    asked = "How many days of inactivity before a Slack channel gets archived automatically?"
    assert values.event_subject(asked) == ("Slack channel", "archived", "before a Slack channel gets archived")
    assert values.event_subject("how many days until the request expires?")[:2] == ("request", "expires")
    assert values.event_subject("how many days before the end of the year?") == ("", "", "")  # no event
    assert values.event_subject("How long until someone is assigned to my ticket?") == ("", "", "")  # (review)
    context = _page(SLACK_ARCHIVE, ARCHIVING)
    assert _unstated(minilm, asked, context) == {0: "a number of days before a Slack channel gets archived"}
    # the repository's own question is answered by the same paragraph
    assert _unstated(minilm, asked.replace("a Slack channel", "a GitHub repository"), context) == {}
    # (review) a paragraph that does not name the event may say it otherwise: badges "valid for six years"
    badge = _page(("PIV cards", "Renewing your card", "PIV cards are valid for six years. Renew yours at a "
                                                      "credentialing center."))
    assert _unstated(minilm, "How many years before my badge expires?", badge) == {}
    monkeypatch.setattr(values, "EVENT_SUBJECTS", False)
    assert _unstated(minilm, asked, context) == {}


def test_a_phone_number_asked_needs_one_written(minilm, monkeypatch):
    """"What's the phone number for the GSA Incident Response team? I need to call them." (hp70, unanswerable) was
    answered "you can phone the IR team via the numbers listed in Section 3.1.1 …", which gives none
    (specifics.PHONES_ASKED)."""
    asked = "What's the phone number for the GSA Incident Response team? I need to call them."
    assert specifics.asks_phone("It's 9pm: what number do I call to make the arrangements?")
    assert specifics.asks_phone("if I then hit Concur problems, what's the helpdesk number?")
    assert not specifics.asks_phone("How do I phone the IR team?")  # a procedure
    assert specifics.writes_phone("You will need to call AdTrav at 877-472-6716")
    assert specifics.writes_phone("(866) 450-6588, press 2")
    assert not specifics.writes_phone("the numbers listed in Section 3.1.1 of the guide, FY 2016-2017")
    # (review) what else a number can be, and questions naming a phone without asking its number
    for text in ("RFC 002-1234", "100-1000 employees", "Zoom meeting ID 812 345 6789", "version 10.100.200.3000"):
        assert not specifics.writes_phone(text), text
    for text in ("+44 20 7946 0958", "877-GSA-HELP", "In an emergency, call 911."):
        assert specifics.writes_phone(text), text
    for question in ("What is the policy on personal phone lines?", "What are the phone number requirements for MFA?",
                     "What's the support number of seats?", "What is the phone line stipend?",
                     "What's the number of the earlier RFC that concluded TTS should create a security lead position?"):
        assert not specifics.asks_phone(question), question
    assert _unstated(minilm, asked, _page(INCIDENTS)) == {0: "a phone number"}
    assert _unstated(minilm, "What is the IT service desk phone number?", _page(SERVICE_DESK, INCIDENTS)) == {}
    monkeypatch.setattr(specifics, "PHONES_ASKED", False)
    assert _unstated(minilm, asked, _page(INCIDENTS)) == {}


def test_an_acronym_made_a_verb_is_the_askers_story(minilm, monkeypatch):
    """"A podcast host DMed me asking if I'd come on their show to talk about my work. Can I just reply and set it
    up?" (hp72) was refused for "DMed", which no page says (topic.ACRONYM_VERBS)."""
    asked = ("A podcast host DMed me asking if I'd come on their show to talk about my work. Can I just reply and set "
             "it up?")
    assert "dmed" in topic.story_verbs(asked)
    assert "im'd" in topic.story_verbs("My lead IM'd me about the offsite. Where is it?")
    assert "dmed" in topic.story_verbs("A podcast host dmed me. Can I reply?")  # chat, in lower case (review)
    assert "emailed" not in topic.acronym_verbs("Someone emailed me a link. Is it phishing?")
    context = _page(MEDIA, INCIDENTS)
    told = "A reporter DM'd me on LinkedIn asking for an interview about my project. Can I just reply and set it up?"
    assert _missing(minilm, asked, context) == []
    assert _missing(minilm, told, context) == []  # (review: read as a kind of interview before)
    monkeypatch.setattr(topic, "ACRONYM_VERBS", False)
    assert _missing(minilm, asked, context) == ["dmed"]


def test_an_faq_answer_opens_on_what_answers():
    """(review) "This is different for SES members …" opens a later chunk of a long answer: it points at text before
    it, not at the heading's question."""
    from synthesis.models import Passage

    faq = Passage(id="p", doc_id="d", content="", score=0.5, title="Leave",
                  section="FAQ > Can I carry over annual leave?")
    assert candidates_module.faq_heading("It depends on your grade.", faq) == "Can I carry over annual leave?"
    assert candidates_module.faq_heading("This is different for SES members.", faq) == ""
    assert candidates_module.faq_heading("Yes, up to 240 hours.", faq) == ""  # (leans on nothing: read as it is)


async def test_an_faq_answer_is_read_under_its_question(minilm, monkeypatch):
    """"on the CGE access form there's a supervisor signature field — which supervisor signs it?" (hp68) was answered
    "Don't forget to get your supervisor's signature as well!": the FAQ's answer, "That of your functional
    supervisor.", leans on its heading and was kept out of the summary (candidates.FAQ_ANSWERS); and the sentence
    naming which supervisor is preferred to one that names none (kinds.WHICH_NAMED)."""
    asked = "on the CGE access form there's a supervisor signature field — which supervisor signs it?"
    context = _page(CGE_FORM, CGE_FAQ)
    on, off = await _with_and_without(minilm, monkeypatch, asked, context, candidates_module, "FAQ_ANSWERS", False)
    assert ("Whose signature should I get for the supervisor field? That of your functional supervisor. [2]"
            in on), on
    assert "functional" not in off, off
    monkeypatch.setattr(candidates_module, "FAQ_ANSWERS", True)
    monkeypatch.setattr(kinds, "WHICH_NAMED", False)
    unnamed = (await _answer(minilm, asked, context)).summary
    assert "functional" not in unnamed, unnamed


def test_which_one_of_a_kind_is_named_by_a_word_of_its_own():
    asked = "Which of my supervisors should sign it?"
    assert kinds.which_kind(asked) == "supervisor"
    assert kinds.which_kind("Which way should I go?") is None  # no kind a name answers
    stems = content_stems(asked)
    assert kinds.names_which("supervisor", "That of your functional supervisor.", stems)
    assert not kinds.names_which("supervisor", "Don't forget to get your supervisor's signature as well!", stems)
    assert kinds.names_which("key", "we recommend an ed25519 key", content_stems("which key type should I use?"))
    assert not kinds.names_which("key", "generate 2 key pairs", content_stems("which key type should I use?"))
    # (review) "which" that asks nothing, a verb or a describing word after it, and words that name no one
    assert kinds.which_kind("My travel authorization, which was denied, had a typo. Can I appeal?") is None
    assert kinds.which_kind("Which of the following applies to me?") is None
    assert kinds.which_kind("Which applies first?") is None
    assert kinds.which_kind("Which npm registry should I use?") == "registry"
    assert kinds.which_kind("Which addresses do I email?") == "address"
    assert kinds.names_which("supervisor", "Your first-line supervisor signs block 23.", stems)
    assert kinds.names_which("channel", "Ask in the #it-help channel.", content_stems("Which channel do I use?"))
    for text in ("Notify supervisor immediately.", "Send it to the appropriate supervisor."):
        assert not kinds.names_which("supervisor", text, stems), text

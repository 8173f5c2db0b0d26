"""Question shapes the forty-eighth session found refused or answered wrongly on the 18F handbook, on the page text
they failed on (hp64–hp66, written by helpers that read only the corpus, and measured before any change).

A rule with a flag is switched off once in its test, so the test fails when the rule does nothing.
"""

from __future__ import annotations

from synthesis.qa import asker, selection, topic, values
from synthesis.qa.question import Expect, expected

from .test_probe51_shapes import _page
from .test_probe53_shapes import _missing
from .test_qa import _context, _with_and_without

RECORDS = ("Slack records", "Records policy",
           "This policy applies to all types of Slack communications: public channels, private groups, even direct "
           "messages. Nothing is private. GSA IT uses an eDiscovery tool with Slack's Discovery APIs to pull and "
           "filter data. There is no regular monitoring of these messages, but they have been reviewed in the past. "
           "Various legal actions (for example, a Freedom of Information Act (FOIA) request) or security operations "
           "approved by the TTS Tech Operations Director have required others to view the exports.")
MENTIONS = ("Slack communication and notification best practices", "@Mentions - alerting someone of a message they "
            "need to see",
            "If you want to ensure that someone sees a message in a channel when you post it, you need to “mention” "
            "them by typing an @ symbol, followed by their name, which will auto-populate as you type).")


def test_an_indefinite_pronoun_is_the_object_of_the_verb_before_it(minilm, monkeypatch):
    """"Who has to approve security operations that involve someone looking at Slack exports?" (hp65) was refused for
    "involve", read as a kind of operations (topic.INDEFINITE_OBJECTS)."""
    asked = "Who has to approve security operations that involve someone looking at Slack exports?"
    context = _page(RECORDS, MENTIONS)  # (a page using "someone" makes "involve" read as a kind of it)
    assert _missing(minilm, asked, context) == []
    monkeypatch.setattr(topic, "INDEFINITE_OBJECTS", False)
    assert "involve" in _missing(minilm, asked, context)


def test_a_noun_before_an_indefinite_pronoun_stays_a_kind(minilm):
    """(review) "Is there a parking permit anyone can get?" on a page with no permits: "permit" is a noun, a kind."""
    garage = _page(("Washington, D.C.", "Parking", "The building has a garage. Spots in the garage are limited and "
                    "first come, first served. Bike racks are in the East Courtyard."))
    assert "permit" in _missing(minilm, "Is there a parking permit anyone can get?", garage)
    assert topic._indefinite_object("operations that involve someone's exports".split(), 2)  # (a possessive too)


async def test_a_who_asked_of_an_involving_operation_names_the_approver(minilm, monkeypatch):
    on, off = await _with_and_without(
        minilm, monkeypatch, "Who has to approve security operations that involve someone looking at Slack exports?",
        _page(RECORDS, MENTIONS), topic, "INDEFINITE_OBJECTS", False)
    assert "Tech Operations Director" in on
    assert "Tech Operations Director" not in off


FEEDBACK = ("Feedback principles", "",
            "Feedback matters. Research shows how feedback is crucial to accomplishing organizational and team goals. "
            "In TTS, we recognize feedback as essential to living our values of inclusion, integrity, and impact.\n\n"
            "Feedback takes practice; learning best practices for giving (and receiving!) feedback helps decrease "
            "tension in times of conflict and increases our ability to deliver messages that are truly heard by "
            "others.")


def test_the_verb_after_a_do_questions_subject_is_no_kind(minilm, monkeypatch):
    """"Which of our TTS values does the handbook tie giving and receiving feedback to?" (hp64) was refused for "tie",
    read as a kind of giving (topic.DO_SUBJECTS)."""
    asked = "Which of our TTS values does the handbook tie giving and receiving feedback to?"
    context = _page(FEEDBACK)
    assert "tie" not in _missing(minilm, asked, context)
    monkeypatch.setattr(topic, "DO_SUBJECTS", False)
    assert "tie" in _missing(minilm, asked, context)


def test_only_a_base_form_after_a_determined_subject_is_the_verb():
    after = topic._after_do_subject
    assert after("Which values does the handbook tie giving to", "tie")
    assert after("Did the team pilot it", "pilot")
    # the word after the one noun is not the verb when it is no verb or no base form; a name has its own rule
    assert not after("Does the travel policy cover taxis", "policy")
    assert not after("does the team meeting matter", "meeting")
    assert not after("does the team guides help", "guides")
    assert not after("Does TTS pay for it", "pay")
    # (review) a verb alone after it is the verb, and the word before it the subject's second noun
    assert not after("Does the hiring freeze apply to contractors", "freeze")
    assert after("Does a supervisor tie feedback to values", "tie")
    assert after("Does the team focus on delivery", "focus")


CHALLENGE = ("Innovation Portfolio", "Open Innovation",
             "Challenge.gov empowers the federal government to engage the public to solve problems and innovate "
             "through prize competitions. Challenge.gov, the official site for federal prize and challenge "
             "competitions, launched in 2010.")


async def test_an_amount_asked_by_name_wants_an_amount(minilm, monkeypatch):
    """"What's the biggest prize amount an agency is allowed to offer through Challenge.gov?" (hp65, unanswerable) was
    answered with what Challenge.gov is (values.AMOUNTS_ASKED)."""
    on, off = await _with_and_without(
        minilm, monkeypatch, "What's the biggest prize amount an agency is allowed to offer through Challenge.gov?",
        _page(CHALLENGE), values, "AMOUNTS_ASKED", False)
    assert on == "", on  # (refused: the agent says it could not find it)
    assert "prize competitions" in off


def test_which_wordings_ask_an_amount_of_money():
    asks = values.asked_value
    assert asks("What's the biggest prize amount an agency can offer?") == (values.PRICE, "an amount of money")
    assert asks("What is the reimbursement amount for a phone?") == (values.PRICE, "an amount of money")
    assert expected("What's the biggest prize amount an agency can offer?") is Expect.QUANTITY
    assert asks("What's the amount of the relocation bonus?") == (values.PRICE, "an amount of money")
    # an amount of something named after it is no money, nor one of leave or time, and "amount" not asked is none
    assert asks("What's the amount of leave I can carry over?") is None
    assert asks("Does the amount matter?") is None
    for hours in ("What's the maximum amount I can carry over?",
                  "What's the sick leave amount I accrue each pay period?",
                  "What's the leave amount I can carry over into next year?"):
        assert asks(hours) is None, hours


RFC = ("RFC: TTS Senior Cybersecurity Advisor", "The proposed path forward",
       "RFC 002 received feedback from across GSA with agreement that we should invest in security. One of the "
       "conclusions in this RFC was to create a TTS security lead position to coordinate security "
       "approaches/activities across TTS programs.\n\nProposed path forward: ADD a Senior Cybersecurity Advisor in "
       "the TTS Front Office.")


async def test_a_line_naming_the_asked_thing_as_this_one_is_read_with_the_line_that_numbers_it(minilm, monkeypatch):
    """"What's the number of the earlier RFC that concluded TTS should create a security lead position?" (hp65) was
    answered with "One of the conclusions in this RFC …", the number only in the sentence before
    (selection.ANTECEDENT)."""
    on, off = await _with_and_without(
        minilm, monkeypatch,
        "What's the number of the earlier RFC that concluded TTS should create a security lead position?",
        _page(RFC), selection, "ANTECEDENT", False)
    assert "RFC 002" in on and on.index("RFC 002") < on.index("this RFC")
    assert "RFC 002" not in off


def test_only_a_noun_with_its_number_names_it():
    named = selection._identified
    assert named("RFC", "RFC 002 received feedback")
    assert named("form", "sign GSA Form 87 first")
    assert named("play", "See Play #6 for more")
    assert not named("RFC", "The RFC received feedback")
    assert not named("form", "formal approval 3 days")
    assert named("form", "Submit Form SF-182 first")
    # (review) a number with a unit is no name, nor a lowercase word; a time is never pointed back at
    assert not named("year", "In fiscal year 2023, teams lost money")
    assert not named("training", "the training 3 hours long")
    assert not named("day", "due on day 5")
    assert not selection._DEMONSTRATIVE.search("This year, unspent funds return. That said, travel is fine.")


SLACK_WORKSPACES = ("External collaboration through Slack", "Use of other Slack workspaces",
                    "You may be invited to other Slack workspaces operated by government entities, or entities under "
                    "contract to the government. You're allowed to join those workspaces as necessary for your work. "
                    "You should join those workspaces with your GSA email address.")
TRELLO = ("Trello", "Setup",
          "We are limited in the number of Workspace Members we can add. You will be added as a Workspace Guest. Most "
          "changes to a board will require an Admin. You can make requests in #admins-trello.")


async def test_a_tool_the_asker_joined_scopes_the_question(minilm, monkeypatch):
    """"Just joined Trello for my project — am I going to be a full Workspace member, …?" (hp66) was answered from
    the Slack page's workspaces (asker.JOINED_NAMES)."""
    on, off = await _with_and_without(
        minilm, monkeypatch, "Just joined Trello for my project — am I going to be a full Workspace member?",
        _context(SLACK_WORKSPACES, TRELLO), asker, "JOINED_NAMES", False)
    assert "Workspace Guest" in on and "Slack" not in on.split("Workspace Guest")[0]
    assert "allowed to join those workspaces" in off


def test_which_joined_tools_scope():
    titles = {"trello", "slack", "new york city"}
    assert asker.joined_names("Just joined Trello for my project", titles) == ["Trello"]
    # (review) a name no retrieved page is titled by alone, and a tool the asker is "on" or "using", scope nothing
    assert asker.joined_names("I just joined TTS — when do I get my PIV card?", titles) == []
    assert asker.joined_names("I'm on Slack a lot, can I get a second monitor?", titles) == []
    assert asker.joined_names("I'm currently using Slack all day, can I get a headset?", titles) == []
    assert asker.joined_names("When I set up a TTS event on Trello, who is the admin?", titles) == ["Trello"]
    assert asker.joined_names("How do I share a doc using Slack?", titles) == ["Slack"]
    assert asker.joined_names("Should I join the Slack Connect channel?", titles) == []  # (a longer name)
    assert asker.named_scopes("Just joined Trello for my project") == []

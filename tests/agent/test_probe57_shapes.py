"""Question shapes the forty-fifth session found answered wrongly on the 18F handbook, on the page text they failed on
(hp57, hp58, written by helpers that read only the corpus, and measured before any change).

A rule with a flag is switched off once in its test, so the test fails when the rule does nothing.
"""

from __future__ import annotations

from synthesis import planner, sentences
from synthesis.qa import analyze, parts, question, topic, wordforms
from synthesis.qa.question import Expect
from synthesis.sentences import asked_sentences

from .test_probe51_shapes import _page
from .test_probe53_shapes import _missing
from .test_qa import _context, _with_and_without

NOMINATIONS = ("18F Leadership Candidate Guide", "Nominations",
               "All leadership role searches will have a deadline. That deadline should be a minimum of five days and "
               "preferably longer. There should be enough time for everyone to consider whether they want to apply or "
               "nominate a colleague and to prepare their application materials. The deadline should be communicated "
               "clearly in the announcement and on the nomination form. If you can’t find the deadline, ask! The "
               "hiring manager or guild leaders should know, or the 18F Chief of Staff can find out for you.")
MEETINGS = ("Internal communications", "18F-focused meetings",
            "| Meeting  | Attendees | Timing |\n|----------|-----------|--------|\n"
            "| **18F Leadership Team meetings**<br> Support people of 18F, projects of 18F, plan for the future, and "
            "clear blockers | 18F Directors, Chief of Staff, Chief of Delivery | 45 minutes Mondays, 30 minutes "
            "Thursdays |\n"
            "| **18F GMT**<br> To share updates and work through management issues. | Supervisors, directors, and "
            "representatives from Account Management and Acquisitions  | 30 minutes on Thursdays |")
SELECTION = ("18F Leadership Selection Guide", "Getting started",
             "3. Set your deadline. Your deadline should be at least five business days out, preferably longer. For "
             "roles with formal applications (e.g., supervisors, chapter leads, etc.), your deadline should include a "
             "weekend.\n  Publicize the open position and nomination form on Slack in any relevant channels, to the "
             "appropriate email distribution list for your chapter or portfolio, and, if time allows, any relevant "
             "newsletters or other communications media you can think of.")
CLASSES = ("TTS onboarding classes", "",
           "Most of these classes are required, some are recommended, and others are optional. If you have a "
           "conflicting team meeting or another commitment scheduled at the same time as a class, prioritize your "
           "project work first! Most classes recur on a two-week cycle so you can always join the class two weeks "
           "later or read the course materials at your convenience.")
SANDWICH = ("Feedback principles", "Sandwiches are for eating, not for feedback",
            "You may have been taught the “sandwich method” of using 2 bread “compliments” around a filling of "
            "constructive feedback.\n\nHowever, this method tends to lead to insincere compliments, can feel "
            "manipulative, and makes people suspicious about positive feedback because they know hard feedback is "
            "coming.\n\nIn short, feedback is best when it’s not muddied with other messaging.")
FORUM = ("Feedback principles", "Consider the forum",
         "Decide whether the feedback is best delivered asynchronously or face-to-face. Quick, time-sensitive, or "
         "positive feedback can often be delivered well over email and Slack. However, constructive or complex "
         "feedback is typically best done face-to-face, and difficult conversations deserve the time.")
SAAR = ("Accessing DoD Systems", "System Authorization Access Request (SAAR)",
        "- You may attempt to submit the form without filling out Part III. DoD agencies typically don't care that we "
        "have public trust (moderate risk) investigations. If they do care, then you'll need to get the SAAR form "
        "signed by the GSA security manager's team.\n\n"
        "If you run into issues getting your SAAR form approved, please contact your Account Manager, or the "
        "National Security & Intelligence Portfolio manager.")


def test_a_when_clause_with_a_named_subject_asks_nothing(monkeypatch):
    """"when 18F opens up a leadership spot, what's the shortest the nomination window is allowed to be?" (hp57) was
    read as two parts, the first answered with 18F's meeting times (parts.NAMED_WHEN)."""
    asked = "when 18F opens up a leadership spot, what's the shortest the nomination window is allowed to be?"
    assert parts.split_parts(asked) == []
    assert parts.context_of(asked) == "when 18F opens up a leadership spot"
    # "When Should …" still asks, and a when-question after a name is no clause
    assert parts.split_parts("When Should I file it, and who approves it?") == ["When Should I file it",
                                                                                "who approves it"]
    assert not parts.subordinate("When does GSA pay")
    # a clause with an asking word of its own asks, and "When Am I …" asks (review)
    assert parts.split_parts("when 2FA fails what do I do and who do I contact?") == ["when 2FA fails what do I do",
                                                                                     "who do I contact"]
    assert len(parts.split_parts("When Am I eligible for a WGI, and who approves it?")) == 2
    monkeypatch.setattr(parts, "NAMED_WHEN", False)
    assert parts.split_parts(asked)[0] == "when 18F opens up a leadership spot"


async def test_the_shortest_a_window_may_be_is_a_quantity(minilm, monkeypatch):
    """"what's the shortest the nomination window is allowed to be?" asks a limit, as "what's the shortest I …" does
    (question.SUPERLATIVE_SUBJECT)."""
    asked = "when 18F opens up a leadership spot, what's the shortest the nomination window is allowed to be?"
    assert analyze(asked).parts[0].expect is Expect.QUANTITY
    assert analyze("what's the most a hotel can cost per night?").parts[0].expect is Expect.QUANTITY
    assert analyze("what's the most common way to book travel?").parts[0].expect is not Expect.QUANTITY
    # news is no limit (review)
    assert analyze("what's the latest the agency is saying about return to office?").parts[0].expect \
        is not Expect.QUANTITY
    on, off = await _with_and_without(minilm, monkeypatch, asked, _context(NOMINATIONS, SELECTION), question,
                                      "SUPERLATIVE_SUBJECT", False)
    # the limit leads the answer (off, the page's other lines about the deadline come first)
    assert "five days" in on.split("[1]")[0] or "five business days" in on.split("[")[0], on
    assert "five" not in off.split("[")[0], off


def test_a_statement_before_a_spaced_dash_is_told(monkeypatch):
    """"had a client call clash with one of my onboarding classes - how long until it comes around again?" (hp57) was
    one asking sentence; its story ("client", "clash") refused it (sentences.DASH_STATEMENTS)."""
    asked = "had a client call clash with one of my onboarding classes - how long until it comes around again?"
    assert asked_sentences(asked) == ["had a client call clash with one of my onboarding classes",
                                      "how long until it comes around again?"]
    assert asked_sentences("my zoom calls keep getting cut off — what's the time limit here?")[0] == \
        "my zoom calls keep getting cut off"
    # a short label names the topic, and a clause that asks is no statement
    assert len(asked_sentences("Parental leave - how many weeks?")) == 1
    assert len(asked_sentences("is the office open on weekends - and how do I get in?")) == 1
    # … nor is a long noun phrase, a statement holding the question, or one before a bare appeal (review)
    for whole in ("Parental leave for adoptive parents of older kids - how many weeks?",
                  "Travel to Honolulu for the TTS offsite next month - what's the lodging rate?",
                  "trying to find out how many hours of leave I can carry over - is it 240?",
                  "I need to know the per diem rate for Boston in March - can you help?",
                  # an activity's label (pp-05, from the pip run) and two sides compared
                  "Writing some docs for pip — should it be \"Pip\" at the start of a sentence or not?",
                  "Consensus vs. just deciding myself — what does the supervisor playbook say about each?"):
        assert len(asked_sentences(whole)) == 1, whole
    monkeypatch.setattr(sentences, "DASH_STATEMENTS", False)
    assert len(asked_sentences(asked)) == 1


def test_the_told_story_before_a_dash_decides_nothing(minilm, monkeypatch):
    asked = "had a client call clash with one of my onboarding classes - how long until it comes around again?"
    assert _missing(minilm, asked, _page(CLASSES)) == []
    monkeypatch.setattr(sentences, "DASH_STATEMENTS", False)
    assert _missing(minilm, asked, _page(CLASSES)) == ["client call"]


def test_an_irregular_past_after_a_noun_subject_is_the_story(minilm, monkeypatch):
    """"my old manager swore by the compliment sandwich for tough convos - is that how we're supposed to do feedback
    here?" (hp57) was refused for "swore" (topic.IRREGULAR_PAST) and "convos" (wordforms.O_CLIPPINGS)."""
    asked = ("my old manager swore by the compliment sandwich for tough convos - is that how we're supposed to do "
             "feedback here?")
    context = _page(SANDWICH, FORUM)
    assert _missing(minilm, asked, context) == []
    with monkeypatch.context() as m:
        m.setattr(topic, "IRREGULAR_PAST", False)
        assert _missing(minilm, asked, context) == ["swore"]
    monkeypatch.setattr(wordforms, "O_CLIPPINGS", False)
    assert _missing(minilm, asked, context) == ["convos"]


def test_only_a_verb_form_alone_is_an_irregular_past():
    assert topic._irregular_past("my old manager swore by the sandwich") == "swore"
    assert topic._irregular_past("my zoom calls keep getting cut off") is None  # "calls" is a noun too
    assert topic._irregular_past("the new hire left early") is None  # "left" is a noun and an adjective too
    assert topic._irregular_past("our team lead sent the form") == "sent"
    # a participle only, or a past form inside the subject (review)
    assert topic._irregular_past("the overtime hours overridden by my supervisor look wrong") is None
    assert topic._irregular_past("My federal tax withheld doubled this pay period") is None


def test_clippings_to_an_o():
    vocabulary = ["conversations", "memory", "logging"]
    assert wordforms.clipped("convos", vocabulary) and wordforms.clipped("convo", vocabulary)
    # words of their own stay words, a clipping of its own stem still is one, and a name is no clipping (review)
    assert not wordforms.clipped("memo", vocabulary) and not wordforms.clipped("logo", vocabulary)
    assert wordforms.clipped("recos", ["recommendations"])
    assert not wordforms.clipped("provo", ["provider", "travel"], "what's the per diem in Provo?")


def test_what_happened_to_the_asker_s_form_is_the_story(minilm, monkeypatch):
    """"my SAAR form keeps getting bounced and isn't getting approved, who should I ping?" (hp57) was refused for
    "bounced" (topic.GET_PASSIVE)."""
    asked = "my SAAR form keeps getting bounced and isn't getting approved, who should I ping?"
    assert _missing(minilm, asked, _page(SAAR)) == []
    assert "bounced" in topic.story_verbs(asked)
    assert "reimbursed" not in topic.story_verbs("How do I get reimbursed for parking?")  # the asking's own
    # … and what the asker wants, or a one-clause question (review)
    assert "fingerprinted" not in topic.story_verbs("I need to get fingerprinted for my background check, where do "
                                                    "I go?")
    assert "reimbursed" not in topic.story_verbs("When I travel, can I still get reimbursed?")
    monkeypatch.setattr(topic, "GET_PASSIVE", False)
    assert _missing(minilm, asked, _page(SAAR)) == ["bounced"]


VOUCHERS = ("Get reimbursed", "Brief overview of vouchers",
            "You may be reimbursed for your expenses from official travel, or any other approved expense paid for via "
            "personal funds (such as reimbursement for local travel, or professional liability insurance for "
            "supervisors) by creating a voucher in Concur.\n\n"
            "You can get started by navigating to the Vouchers tab on top and selecting New Voucher.\n\n"
            "- Any travel that involves a flight, Amtrak, or is otherwise over 12 hours in duration is considered a "
            "Voucher From Authorization.\n"
            "- For any local travel choose the Local voucher option.\n"
            "- For any other reimbursement, like expenses unrelated to travel such as professional liability insurance "
            "or training materials, choose the Miscellaneous voucher option.")


def test_which_one_asks_for_the_kind_asked_before(monkeypatch):
    """"which voucher type do I use to get paid back for professional liability insurance, and which one for a trip
    where I flew?" (hp57): the second part asked about nothing but a trip (planner.WHICH_ONE)."""
    asked = ("which voucher type do I use to get paid back for professional liability insurance, and which one for a "
             "trip where I flew?")
    assert [p.text for p in analyze(asked).parts][1] == "which voucher type for a trip where I flew"
    # "what … should" and a plural "ones" too; a part naming its own kind is left alone
    assert planner.with_subject("which ones are private", "What channel should I post in") == \
        "which channel are private"
    assert planner.with_subject("which form covers telework", "Which form do I fill out") == "which form covers telework"
    # no kind before an auxiliary: "What does the FAQ say" names none (last read)
    assert planner.with_subject("which one applies to me", "What does the FAQ say") == "which one applies to me"
    monkeypatch.setattr(planner, "WHICH_ONE", False)
    assert [p.text for p in analyze(asked).parts][1] == "which one for a trip where I flew"


async def test_the_flight_s_voucher_type_answers(minilm, monkeypatch):
    asked = ("which voucher type do I use to get paid back for professional liability insurance, and which one for a "
             "trip where I flew?")
    on, off = await _with_and_without(minilm, monkeypatch, asked, _context(VOUCHERS), planner, "WHICH_ONE", False)
    assert "Voucher From Authorization" in on and "Miscellaneous" in on, on
    assert "Voucher From Authorization" not in off, off

"""Question shapes the thirty-sixth session found answered wrongly on the 18F handbook, on the page text they failed
on: from the twenty-sixth and twenty-seventh fresh probes (hp39, hp40, written by helpers that read only the corpus,
and measured before any change).

A rule with a flag is switched off once in its test, so the test fails when the rule does nothing.
"""

from __future__ import annotations

from synthesis.models import Passage
from synthesis.qa import analyze, answerability, compared, topic
from synthesis.synthesize.base import Context, ContextSource

from .test_qa import _answer, _context, _with_and_without

ACE = (("Additional feedback frameworks", "ACE: appreciation, coaching, evaluation > Coaching",
        "Coaching communicates what “good” looks like, to help the recipient learn and improve."),
       ("Additional feedback frameworks", "ACE: appreciation, coaching, evaluation > Evaluation",
        "Evaluation helps someone change specific actions or behaviors, and understand the impact of their actions."),
       ("Additional feedback frameworks", "ACE: appreciation, coaching, evaluation",
        "Everyone needs appreciation, coaching, and evaluative feedback to learn and improve."))
CLASSES = ("TTS onboarding classes", "Guidance to help you prioritize",
           "Most classes recur on a two-week cycle so you can always join the class two weeks later or read the "
           "course materials at your convenience.")
PLAY6 = ("Play 6 - Be human; bring your authentic self to work, and get to know the story of others", "Action Items",
         "You might benefit from: Shortening the default length of your meetings in Google Calendar, so that they are "
         "25/50 minutes, instead of 30/60. This gives you short breaks between meetings.")
PLAY6_PATH = "/corpus/supervisor-resources/new-supervisor-playbook/play-6.md"


def test_what_separates_one_thing_from_another_compares_them(monkeypatch):
    """"When I'm giving a teammate feedback, what separates coaching from evaluation?" (hp39) was one part, and
    refused over "separates" (compared.SETS_APART)."""
    question = "When I'm giving a teammate feedback, what separates coaching from evaluation?"
    assert [p.text for p in analyze(question).parts] == ["coaching", "evaluation"]
    assert compared.comparison_sides("What actually distinguishes a detail from a temporary promotion?") == [
        "a detail", "a temporary promotion"]
    assert compared.comparison_sides("How can I tell comp time from credit hours?") == ["comp time", "credit hours"]
    assert compared.comparison_sides("What sets a workspace apart from a package?") == ["a workspace", "a package"]
    assert not compared.compares("Which team separates recycling from trash?")  # who does it: no comparison
    for told in ("How do I tell npm to install from a local folder?",  # telling someone what to do
                 "How do I tell CMake from the command line which compiler to use?",
                 "How do I tell my manager from HR that I am leaving?"):
        assert not compared.compares(told), told
    monkeypatch.setattr(compared, "SETS_APART", False)
    assert len(analyze(question).parts) == 1


async def test_a_comparison_by_separates_answers_both_sides(minilm):
    question = "When I'm giving a teammate feedback, what separates coaching from evaluation?"
    summary = (await _answer(minilm, question, _context(*ACE))).summary
    assert "learn and improve" in summary and "change specific actions" in summary, summary


async def test_the_verb_of_a_told_noun_phrase_is_no_topic(minilm, monkeypatch):
    """"A project meeting clashed with one of my required onboarding classes. When will I get another chance to take
    it?" (hp40) was refused for "clashed"; "Our engagement wraps up in a few months …" (hp39) for "wraps"
    (topic.TOLD_SUBJECT)."""
    question = ("A project meeting clashed with one of my required onboarding classes. When will I get another chance "
                "to take it?")
    assert topic.told_subject_verbs(question) == {"clashed"}
    assert topic.told_subject_verbs("Our engagement wraps up in a few months. How do we move them off?") == {"wraps"}
    assert topic.told_subject_verbs("The shared drive is full. Who can add space?") == set()  # no verb after a noun
    assert topic.told_subject_verbs("My team's shared drive filled up. Who can add space?") == {"filled"}
    assert topic.told_subject_verbs("The upload speed dropped after the update. Why?") == {"dropped"}  # not "speed"
    on, off = await _with_and_without(minilm, monkeypatch, question, _context(CLASSES), topic, "TOLD_SUBJECT",
                                      False)
    assert "two weeks later" in on, on
    assert not off, off


def _at(path: str, title: str, section: str, content: str) -> Context:
    return Context(sources=[ContextSource(number=1, passage=Passage(
        id="p1", doc_id=path, content=content, score=0.58, title=title, section=section))])


async def test_a_page_path_names_its_topic(minilm, monkeypatch):
    """"My calendar is back-to-back meetings all day. What meeting length does the new supervisor playbook suggest so
    I get breaks?" (hp40) was refused for "playbook": the pages are titled "Play 6 - …", in the folder
    "new-supervisor-playbook" (answerability.PATH_WORDS)."""
    assert answerability.path_words(PLAY6_PATH) == "new supervisor playbook play 6"
    assert answerability.path_words("4983") == ""  # an id that is no path names nothing
    assert answerability.path_words("parking.md") == "parking"
    assert answerability.path_words("C:\\kb\\Leave_Policy.docx") == "kb Leave Policy"
    assert answerability.path_words("https://docs.npmjs.com/cli/commands/npm-install?tab=x") == "commands npm install"
    question = ("My calendar is back-to-back meetings all day. What meeting length does the new supervisor playbook "
                "suggest so I get breaks?")
    on, off = await _with_and_without(minilm, monkeypatch, question, _at(PLAY6_PATH, *PLAY6), answerability,
                                      "PATH_WORDS", False)
    assert "25/50 minutes" in on, on
    assert not off, off

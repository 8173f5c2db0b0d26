"""A question shape the thirty-fifth session found answered wrongly on the 18F handbook, on the page text it failed on:
from the twenty-fifth fresh probe (hp38, written by a helper that read only the corpus, and measured before any
change).

A rule with a flag is switched off once in its test, so the test fails when the rule does nothing.
"""

from __future__ import annotations

from synthesis.qa import analyze, reader
from synthesis.synthesize.candidates import candidates

from .test_qa import _context

TTSJOBS = ("TTSJobs", "TTSJobs",
           "Join the Slack channel #tts-jobs to be notified in real-time about TTS job opportunities.\n\n"
           "Have questions about a role? Please reach out to the point of contact listed on the announcement.\n\n"
           "Why do we post here? We want everyone to see them.\n\n"
           "Which roles are open?\n\n- Engineers who build and run our shared platforms.\n- Designers who lead research.\n")


def test_a_sentence_answering_the_question_before_it_is_one_unit_with_it(monkeypatch):
    """"Who do I ask if I have questions about a specific TTS job posting?" (hp38): "Please reach out to the point of
    contact listed on the announcement." names no job posting alone, and its question before it answers nothing
    alone; read as one unit it ranks second instead of sixteenth (ASKED_BEFORE)."""
    from synthesis.synthesize import candidates as module

    context = _context(TTSJOBS)
    texts = [u.text for u in candidates(context)]
    assert ("Have questions about a role? Please reach out to the point of contact listed on the announcement."
            in texts), texts
    assert "Why do we post here? We want everyone to see them." in texts, texts
    # a question before a list is its lead-in, not a sentence it answers
    assert "Which roles are open?" in texts and not any(t.startswith("Which roles are open? ") for t in texts), texts
    monkeypatch.setattr(module, "ASKED_BEFORE", False)
    texts = [u.text for u in candidates(context)]
    assert "Have questions about a role?" in texts and "We want everyone to see them." in texts, texts


def test_only_a_question_opening_its_paragraph_is_joined_to_its_answer():
    """(review) A question further into a paragraph is rhetorical or the last of a list of questions ("… Is there
    another tool already in place? Discovering the root causes …"), a long one is prose ending in a question mark, a
    question after a question answers nothing, and an answer that the next sentence points back at joins that one."""
    def units(text: str) -> list[str]:
        return [u.text for u in candidates(_context(("Tools", "Setting up tools", text)))]

    listed = units("Why won't they use it? Is there another tool already in place? Discovering the root causes helps.")
    assert "Discovering the root causes helps." in listed, listed
    long = units("Have you ever wondered how the people who post the roles decide where each of them is announced "
                 "first? We post every role in #tts-jobs.")
    assert "We post every role in #tts-jobs." in long, long
    asked_twice = units("Who approves it? Who pays for it?")
    assert "Who pays for it?" in asked_twice, asked_twice
    pointed = units("How are project teams run? Project teams decide how work is shared. This should be guided by "
                    "partner needs.")
    assert ("Project teams decide how work is shared. This should be guided by partner needs." in pointed
            and "How are project teams run?" in pointed), pointed
    apart = units("Have questions about a role?\n\nPlease reach out to the point of contact on the announcement.")
    assert "Please reach out to the point of contact on the announcement." in apart, apart
    # a labelled question tells what to check (a runbook's "First check: was there a deploy …?")
    labelled = units("First check: was there a notifier deploy in the last hour? Look in #deploys.")
    assert "Look in #deploys." in labelled, labelled
    # the same shapes, joined when the question opens the paragraph the answer is in
    assert "Who approves it? Your supervisor approves it." in units("Who approves it? Your supervisor approves it.")


def _best(minilm, question: str, context, words: str) -> float:
    """The best relevance of a candidate holding `words`."""
    frame = analyze(question)
    units = candidates(context)
    reader.Reader(minilm.embed).score(frame, units)
    return max(u.relevance for u in units if words in u.text)


def test_the_answer_to_a_question_before_it_scores_with_that_question(minilm, monkeypatch):
    """(ASKED_BEFORE, as the reader scores it) the unit with its question is closer to what was asked."""
    from synthesis.synthesize import candidates as module

    question = "Who do I ask if I have questions about a specific TTS job posting?"
    on = _best(minilm, question, _context(TTSJOBS), "point of contact")
    monkeypatch.setattr(module, "ASKED_BEFORE", False)
    off = _best(minilm, question, _context(TTSJOBS), "point of contact")
    assert on > off + 0.1, (on, off)

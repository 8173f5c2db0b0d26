"""Before refusing for a word no retrieved passage uses, the agent searches for the word itself once.

"I have one C source file I want compiled and linked into my Rust firmware": the pages on linking C never say
"firmware", the book's other pages do. A passage found that way covers the word only through a sentence about the
question that shares another of its words: "tell us about your kennel" does not make kennel insurance covered, and
"How quickly were the secrets rotated?" does not say how often to rotate a signing key.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from synthesis.embedding import RecentEmbeddings
from synthesis.models import AskOptions, Passage
from synthesis.qa import answerability
from synthesis.qa.answerability import LOOKED_FOR
from synthesis.synthesize.base import Context, ContextSource

from .test_qa import _answer, _with_and_without


def _context(*passages: tuple[str, str, str], looked: set[int] = frozenset()) -> Context:
    """(title, section, content) numbered 1..n, best first; the numbers in `looked` found by a word lookup."""
    return Context(sources=[
        ContextSource(number=i, passage=Passage(id=f"p{i}", doc_id=f"d{i}", content=content, score=0.6 - 0.02 * i,
                                                title=title, section=section,
                                                metadata={LOOKED_FOR: True} if i in looked else {}))
        for i, (title, section, content) in enumerate(passages, start=1)])


KENNEL = _context(
    ("Insurance", "Health insurance", "The agency pays about 72 percent of your health insurance premium. You can "
                                      "change plans during open season each year."),
    ("Getting started", "Meet the team", "Come to the weekly social call and tell us about your kennel. The agency "
                                         "newsletter prints photos of the dogs."),
    looked={2})

SIGNING = _context(
    ("Git commit signing", "Signing requirements > Managing your keys",
     "Keep your signing key in a password manager such as KeePassXC. If you lose the key, generate a new one and "
     "tell git about it."),
    ("Git commit signing", "Configure git to sign commits",
     "Configure git to sign every commit with your SSH key: git config --global commit.gpgsign true."),
    ("Security incidents", "Reporting other incidents",
     "If secrets were exposed, answer these questions: 1. What was exposed? 2. How quickly can/were the secrets "
     "rotated?"),
    ("Compensation for working extra hours", "Comp time",
     "Comp time expires one year (26 pay periods) after it is earned."),
    looked={3})


async def test_a_looked_for_passage_covers_the_word_only_through_a_sentence_about_the_question(minilm, monkeypatch):
    # the passage shares "agency" with the question, which covers a word for a retrieved passage, not a looked-for one
    on, off = await _with_and_without(minilm, monkeypatch, "Does the agency pay for kennel insurance?", KENNEL,
                                      answerability, "LOOKED_FOR", "never-set")
    assert on == "", on
    assert "72 percent" in off  # the rule switched off: answered with health insurance


async def test_a_looked_for_sentence_must_share_another_word_of_the_question(minilm, monkeypatch):
    question = "How often am I required to rotate my git commit-signing key? Does it expire after a set time?"
    on, off = await _with_and_without(minilm, monkeypatch, question, SIGNING, answerability, "LOOKED_SHARED", 1)
    assert on == "", on
    assert "Comp time expires" in off


async def test_a_looked_for_passage_lends_no_synonyms(minilm):
    # "pets" is a near synonym of "kennel" for the bundled model (0.56): from a retrieved passage it would cover it
    context = _context(
        ("Insurance", "Health insurance", "The agency pays about 72 percent of your health insurance premium."),
        ("Getting started", "Meet the team", "Tell us about your kennel and your pets at the weekly social call."),
        looked={2})
    s = await _answer(minilm, "Does the agency pay for kennel insurance?", context)
    assert s.summary == "", s.summary


async def test_a_retrieved_passage_still_covers_the_word_as_before(minilm):
    # the same kennel passage, retrieved rather than looked for: it shares "agency", so "kennel" is covered
    retrieved = _context(*((s.passage.title, s.passage.section, s.passage.content) for s in KENNEL.sources))
    s = await _answer(minilm, "Does the agency pay for kennel insurance?", retrieved)
    assert s.summary


KB = {
    "c-code.md": """---
title: A little C with your Rust
---
## Building your C code

The Rust compiler does not know how to compile C source code. Use the cc crate in a build.rs script: add cc as a
build dependency, then call `cc::Build::new().file("foo.c").compile("foo")` to compile the C source file and link it
into your Rust program.

## Calling your C functions

Declare the C function in an `extern "C"` block and call it inside `unsafe`.
""",
    "bindgen.md": """---
title: Generating bindings
---
## Automatically generating the interface

bindgen reads a C header file and generates the Rust declarations for the C functions and types it declares. Run
bindgen from build.rs so the bindings are regenerated whenever the C header changes.
""",
    "linking.md": """---
title: Linking
---
## Linker scripts

The linker places each section of your Rust program in memory according to memory.x. Compiled object files are
linked in the order the build lists them.
""",
    "boot.md": """---
title: Bootloaders
---
## Images

Embedded systems have no operating system to install software on: firmware images are compiled as a whole and
flashed to the device in one piece.
""",
    "team.md": """---
title: Getting started
---
## Meet the team

Come to the weekly social call and tell us about your kennel. The agency newsletter prints photos of the dogs.
""",
    "insurance.md": """---
title: Insurance
---
## Health insurance

The agency pays about 72 percent of your health insurance premium. You can change plans during open season each
year.
""",
}


@pytest.fixture(scope="module")
def small_agent(tmp_path_factory, minilm):
    from synthesis.agent import build_agent
    from synthesis.config import Settings
    from synthesis.ingest import ingest
    from synthesis.store import KnowledgeStore

    root = tmp_path_factory.mktemp("look-for-words")
    kb = root / "kb"
    kb.mkdir()
    for name, text in KB.items():
        (kb / name).write_text(text)
    settings = Settings(_env_file=None, home=root / "home")
    store = KnowledgeStore.open(settings, minilm)
    assert ingest(store, [Path(kb)]).chunks >= len(KB)
    agent = build_agent(settings, store)
    yield agent
    agent.close()


def _steps(result) -> dict[str, dict]:
    return {s.name: s.detail for s in result.steps}


async def test_the_agent_looks_for_a_missing_word_and_answers_when_the_knowledge_base_uses_it(small_agent):
    # one passage per search: the C page answers, and no retrieved passage says "firmware"
    r = await small_agent.answer("Which crate compiles my C file for my firmware?", options=AskOptions(k=1))
    steps = _steps(r)
    assert steps["look-for-words"]["words"] == ["firmware"] and steps["look-for-words"]["added"] >= 1
    assert steps["synthesize-again"]["answered"] is True
    assert not r.no_answer and "cc crate" in r.synthesis.summary


async def test_the_agent_still_refuses_when_the_word_is_used_about_something_else(small_agent):
    r = await small_agent.answer("Does the agency pay for kennel insurance?", options=AskOptions(k=1))
    steps = _steps(r)
    assert steps["look-for-words"]["words"] == ["kennel"] and steps["look-for-words"]["added"] >= 1
    assert steps["synthesize-again"]["answered"] is False
    assert r.no_answer and "“kennel”" in r.synthesis.summary


async def test_an_answered_question_looks_for_nothing(small_agent):
    r = await small_agent.answer("How do I compile a C source file into my Rust program?", options=AskOptions(k=1))
    assert not r.no_answer
    assert "look-for-words" not in _steps(r)


async def test_the_lookups_are_no_subagents_and_respect_filters(small_agent):
    from synthesis.models import SearchFilters

    r = await small_agent.answer("Which crate compiles my C file for my firmware?", options=AskOptions(k=1))
    assert r.subagents and not any(s.subagent.startswith("word") for s in r.subagents)
    # a filter that only the C page passes: the lookup finds no firmware page, so the question is refused
    only = AskOptions(k=1, filters=SearchFilters(where={"title": "A little C with your Rust"}))
    r = await small_agent.answer("Which crate compiles my C file for my firmware?", options=only)
    assert r.no_answer and "“firmware”" in r.synthesis.summary


class _Counting:
    """The real embedder, recording what each call embeds."""

    def __init__(self, embedder):
        self.embedder = embedder
        self.calls: list[list[str]] = []

    def __call__(self, texts, *, query=False):
        self.calls.append(list(texts))
        return self.embedder.embed(texts, query=query)


def test_a_second_reading_of_a_question_embeds_only_its_new_texts(minilm):
    counting = _Counting(minilm)
    memo = RecentEmbeddings(counting)
    first = ["Comp time expires after a year.", "Keep your key in a password manager."]
    with memo.within("q"):
        a = memo(first)
        a[0] *= 0  # a reader may change its batch in place: what is remembered is a copy
        again = memo(first)  # the same reading never reuses its own vectors (a batch moves the last digits)
    assert counting.calls == [first, first]
    with memo.within("q"):
        b = memo([first[1], "A new sentence.", first[0]])
    assert counting.calls[-1] == ["A new sentence."]
    np.testing.assert_array_equal(b[0], again[1])
    np.testing.assert_array_equal(b[2], again[0])
    assert float(np.linalg.norm(b[2])) == pytest.approx(1.0, abs=1e-4)


def test_a_reading_of_known_texts_embeds_nothing_and_keeps_duplicates(minilm):
    counting = _Counting(minilm)
    memo = RecentEmbeddings(counting)
    texts = ["Comp time expires after a year.", "Keep your key in a password manager."]
    with memo.within("q"):
        first = memo(texts)
    with memo.within("q"):
        again = memo([texts[1], texts[0], texts[1]])
    assert counting.calls == [texts]
    np.testing.assert_array_equal(again, first[[1, 0, 1]])


async def test_the_synthesizer_shares_embeddings_only_within_one_answer(minilm):
    from synthesis.embedding import ANSWER
    from synthesis.synthesize.extractive import ExtractiveSynthesizer

    counting = _Counting(minilm)
    synthesizer = ExtractiveSynthesizer(minilm, embed=RecentEmbeddings(counting))
    question = "Does the agency pay for kennel insurance?"
    await synthesizer.synthesize(question, KENNEL)
    alone = len(counting.calls)
    await synthesizer.synthesize(question, KENNEL)  # no answer in progress: nothing shared
    assert len(counting.calls) == 2 * alone
    token = ANSWER.set("answer-1")
    try:
        await synthesizer.synthesize(question, KENNEL)
        before = sum(len(c) for c in counting.calls)
        await synthesizer.synthesize(question, KENNEL)  # the same answer reads again: every text is known
        assert sum(len(c) for c in counting.calls) == before
    finally:
        ANSWER.reset(token)


def test_another_question_or_no_reading_remembers_nothing(minilm):
    counting = _Counting(minilm)
    memo = RecentEmbeddings(counting)
    texts = ["Comp time expires after a year."]
    with memo.within("q1"):
        memo(texts)
    with memo.within("q2"):
        memo(texts)
    memo(texts)
    memo(texts)
    assert counting.calls == [texts] * 4


def test_a_shared_memo_embeds_a_text_once_across_questions_and_answers(minilm):
    counting = _Counting(minilm)
    memo = RecentEmbeddings(counting, shared=True)
    first = ["Comp time expires after a year.", "Keep your key in a password manager."]
    with memo.within("answer-1\nq1"):
        a = memo(first)
        a[0] *= 0  # what is remembered is a copy
    with memo.within("answer-2\nq2"):
        b = memo(["A new sentence.", first[1], first[0]])
    c = memo(first)  # outside any reading too
    assert counting.calls == [first, ["A new sentence."]]
    np.testing.assert_array_equal(b[1:], minilm.embed([first[1], first[0]]))
    np.testing.assert_array_equal(c, minilm.embed(first))


class _BatchDependent:
    """An embedder whose vectors move in their last digits with the batch they are in (as torch's padding can)."""

    name, dimension, max_tokens = "batchy", 384, 256

    def __init__(self, embedder):
        self.embedder = embedder

    def embed(self, texts, *, query=False):
        vecs = self.embedder.embed(texts, query=query)
        return vecs + np.float32(1e-7) * len(texts)

    def count_tokens(self, text):
        return self.embedder.count_tokens(text)


def test_only_an_embedder_whose_vectors_ignore_their_batch_is_shared_across_answers(minilm):
    from synthesis.embedding import batch_invariant
    from synthesis.synthesize.extractive import ExtractiveSynthesizer

    batchy = _BatchDependent(minilm)
    assert not batch_invariant(batchy)
    assert not ExtractiveSynthesizer(batchy).embed.shared
    if getattr(minilm, "backend", "") == "onnx":  # ONNX Runtime's CPU kernels: the same vector in any batch
        assert batch_invariant(minilm)
        assert ExtractiveSynthesizer(minilm).embed.shared


async def test_a_shared_memo_gives_an_answer_the_same_whatever_was_asked_before(minilm):
    from synthesis.embedding import ANSWER, batch_invariant
    from synthesis.synthesize.extractive import ExtractiveSynthesizer

    if not batch_invariant(minilm):
        pytest.skip("this backend's vectors depend on their batch: nothing is shared across answers")
    question = "Does the agency pay for kennel insurance?"
    alone = await ExtractiveSynthesizer(minilm).synthesize(question, KENNEL)
    counting = _Counting(minilm)
    synthesizer = ExtractiveSynthesizer(minilm, embed=RecentEmbeddings(counting, shared=True))
    await synthesizer.synthesize("What does pet insurance cost?", KENNEL)
    before, calls = {t for c in counting.calls for t in c}, len(counting.calls)
    token = ANSWER.set("answer-2")
    try:
        after = await synthesizer.synthesize(question, KENNEL)
    finally:
        ANSWER.reset(token)
    assert "The agency pays about 72 percent of your health insurance premium." in before
    assert not before & {t for c in counting.calls[calls:] for t in c}  # nothing read before is embedded again
    assert after.synthesis.model_dump() == alone.synthesis.model_dump()


def test_the_memo_keeps_at_most_its_size(minilm):
    counting = _Counting(minilm)
    memo = RecentEmbeddings(counting, size=2)
    with memo.within("q"):
        memo(["one", "two", "three"])
    with memo.within("q"):
        memo(["one", "two", "three"])
    assert counting.calls[-1] == ["one"]  # the oldest went first


def test_a_looked_for_passage_is_cut_to_the_sentences_that_could_cover_the_word():
    from synthesis.qa.answerability import covering

    question = "Which crate compiles my C file for my firmware?"
    boot = Passage(id="b", doc_id="boot", title="Bootloaders", section="Images", score=0.5, content=(
        "Bootloaders start first. Embedded systems have no operating system: firmware images are compiled as a "
        "whole. They are flashed to the device in one piece. Flash tools differ by vendor."))
    team = Passage(id="t", doc_id="team", title="Getting started", section="Meet the team", score=0.5, content=(
        "Come to the weekly social call. Tell us about the firmware you like."))
    cut = covering(question, ["firmware"], [boot, team], [boot, team])
    assert [p.id for p in cut] == ["b"]  # the team page shares only "firmware" with the question
    # the sentence with either neighbour (a reading may join a sentence to the one before it); not the rest
    assert cut[0].content == ("Bootloaders start first. Embedded systems have no operating system: firmware images "
                              "are compiled as a whole. They are flashed to the device in one piece.")

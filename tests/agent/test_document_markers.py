"""Papers carry their own numbered references ([4], [6, 8], [114]). Through the real agent, those are quoted verbatim,
never removed, renumbered or counted as ours, and every citation we write points at a passage holding the sentence."""

from __future__ import annotations

import asyncio
import json
import re

import pytest

from bot.render.mrkdwn import markdown_to_mrkdwn
from synthesis import citations
from synthesis.citations import cite, claims, find, protect, renumber, strip, unescape

PAPERS = [
    ("p1", "Vitamin D and fractures",
     "Vitamin D supplementation did not reduce hip fracture risk in adults over 70 [4]. Earlier cohort studies "
     "had suggested a protective effect [6, 8]. The trial enrolled 25,871 participants across 12 sites [114]."),
    ("p2", "Statins after stroke",
     "High-intensity statin therapy lowered the rate of recurrent stroke by 16% [2]. Muscle symptoms were reported "
     "by 9% of patients, similar to placebo [3]. Adherence fell after the first year [1, 5]."),
    ("p3", "Sleep and memory in mice",
     "Sleep deprivation impaired spatial memory consolidation in mice [12-14]. Restoring slow-wave sleep rescued "
     "the deficit within two days [2]. Hippocampal replay was reduced by half during deprivation [7]."),
    ("p4", "Aspirin and colorectal cancer",
     "Daily low-dose aspirin reduced colorectal adenoma recurrence by 17% over three years [1]. The benefit was "
     "limited to patients without prior bleeding [3; 9]. Gastrointestinal bleeding doubled on aspirin [2]."),
    ("p5", "Exercise and depression",
     "Supervised aerobic exercise reduced depressive symptoms as much as sertraline after 16 weeks [5]. Relapse was "
     "less common in the exercise group at ten months [11]. Effects were larger with three sessions per week [2]."),
]
QUESTIONS = [
    "Does vitamin D supplementation reduce hip fracture risk?",
    "Do statins lower the rate of recurrent stroke?",
    "How does sleep deprivation affect memory in mice?",
    "Does aspirin reduce colorectal adenoma recurrence and what about bleeding?",
    "Is exercise as effective as sertraline for depression?",
]
_MARKER = re.compile(r"\[\d+(?:\s*[,;\-]\s*\d+)*\]")


def test_grammar_keeps_document_markers_apart():
    quoted = cite("Earlier cohort studies had suggested a protective effect [6, 8].", [2])
    assert quoted == r"Earlier cohort studies had suggested a protective effect \[6, 8]. [2]"
    assert find(quoted) == [2] and claims(quoted) == [quoted]
    assert renumber(quoted, {2: 1, 6: 9}) == r"Earlier cohort studies had suggested a protective effect \[6, 8]. [1]"
    assert strip(quoted) == "Earlier cohort studies had suggested a protective effect [6, 8]."
    assert protect(protect("x [4]")) == protect("x [4]") == r"x \[4]"  # idempotent
    assert unescape(renumber(quoted, {2: 1})).endswith("effect [6, 8]. [1]")
    assert citations.clean(quoted + " [114]", {1, 2}) == (quoted, 1, [2])  # only our out-of-range one goes
    assert find("as shown [2-4] and [5; 7]") == [2, 3, 4, 5, 7]


@pytest.fixture(scope="module")
def papers_agent(tmp_path_factory, minilm):
    from synthesis.agent import build_agent
    from synthesis.config import Settings
    from synthesis.ingest import ingest
    from synthesis.store import KnowledgeStore

    home = tmp_path_factory.mktemp("papers")
    corpus = home / "corpus.jsonl"
    corpus.write_text("".join(json.dumps({"_id": i, "title": t, "text": x}) + "\n" for i, t, x in PAPERS))
    settings = Settings(_env_file=None, home=home)
    store = KnowledgeStore.open(settings, minilm)
    assert ingest(store, [corpus]).chunks == len(PAPERS)
    agent = build_agent(settings, store)
    yield agent
    agent.close()


@pytest.mark.parametrize("question", QUESTIONS)
def test_papers_through_the_real_agent(papers_agent, question):
    result = asyncio.run(papers_agent.answer(question))
    syn = result.synthesis
    assert syn.findings, question
    assert not [n for n in result.notices if n.startswith("Removed")]
    content = {p.id: p.content for p in result.passages}
    passage_of = {s.number: content[s.passage_id] for s in syn.sources}
    markers_seen = 0
    for f in syn.findings:
        assert set(find(f.content)) <= set(passage_of), f.content
        for claim in claims(f.content):
            cited = find(claim)
            assert cited, claim
            quote = strip(claim).rstrip(".")
            markers_seen += len(_MARKER.findall(quote))
            # Verbatim, markers included, and in a passage it cites.
            assert any(quote in passage_of[n] for n in cited), (claim, cited)
    assert markers_seen, "the fixture's markers should reach the answer"
    # Slack shows the paper's markers as written and links only ours.
    rendered = markdown_to_mrkdwn(syn.findings[0].content, citation_urls={n: f"https://x.example/{n}" for n in
                                                                            passage_of})
    assert "\\[" not in rendered
    linked = re.findall(r"\|\[(\d+)\]>", rendered)
    assert linked and {int(n) for n in linked} == set(find(syn.findings[0].content))


def test_claude_sees_markers_escaped_and_its_quotes_of_them_are_not_citations():
    from synthesis.models import Passage
    from synthesis.synthesize import prompts
    from synthesis.synthesize.context import render_source

    block = render_source(1, Passage(id="c1", doc_id="p1", content=PAPERS[0][2], score=0.9, title=PAPERS[0][1]))
    assert r"over 70 \[4]." in block and r"\[6, 8]" in block and r"\[114]" in block
    out = prompts.SynthesisOut(
        summary=r"No: supplementation did not reduce hip fracture risk [1], despite earlier studies \[6, 8].",
        findings=[prompts.FindingOut(topic="Trial", content=r"The trial enrolled 25,871 participants \[114]. [1]",
                                     citations=[1], confidence="high")],
        contradictions=[], gaps=[])
    syn = prompts.to_synthesis(out)
    assert syn.findings[0].citations == [1]
    assert citations.verbatim(syn).findings[0].content == "The trial enrolled 25,871 participants [114]. [1]"
    assert citations.verbatim(syn).summary.endswith("earlier studies [6, 8].")


def test_slack_notification_text_shows_markers_as_written():
    from bot.render import render_answer
    from synthesis.models import AnswerResult, Finding, QuestionType, Synthesis

    summary = cite("The trial enrolled 25,871 participants [114].", [1])
    result = AnswerResult(question="q", standalone_question="q", question_type=QuestionType.FACTUAL,
                          synthesis=Synthesis(summary=summary, findings=[Finding(topic="t", content=summary,
                                                                                 citations=[1])]))
    [message, *_] = render_answer(result)
    assert "participants [114]. [1]" in message.text and "\\[" not in message.text
    assert "\\[" not in json.dumps([b for m in render_answer(result) for b in m.blocks])

"""Inquiry end to end on the demo corpus: the JSON has exactly the spec's fields, the cache, warnings, review."""

from __future__ import annotations

import json

import pytest

from bot.cli.inquiry import to_markdown
from synthesis.inquiry import (CachedEmbedder, EmbeddingCache, InquiryRunner, resolve_question_file,
                               synthesize_inquiry)
from synthesis.questions import parse_questions
from synthesis.usage import SQLiteUsageLog
from tests.conftest import EXAMPLES

QUESTION_KEYS = {"question_id", "question_text", "metadata", "retrieved_paragraphs", "context_tokens", "synthesis",
                 "synthesis_tokens", "needs_review"}
PARAGRAPH_KEYS = {"index", "source_file", "content", "similarity_score"}
COVERAGE_KEYS = {"total_paragraphs", "retrieved_paragraphs", "retrieval_rate", "unretrieved_indices"}


@pytest.fixture(scope="module")
def agent(handbook):
    from synthesis.agent import build_agent

    settings, store = handbook
    agent = build_agent(settings, store)
    yield agent
    agent.close()


def validate(data: dict, *, embeddings: bool = False) -> None:
    """The inquiry spec's fields, exactly, with the right types."""
    assert set(data) == {"inquiry_id", "questions", "coverage"}
    assert isinstance(data["inquiry_id"], str) and data["inquiry_id"]
    for q in data["questions"]:
        assert set(q) == QUESTION_KEYS | ({"question_embedding"} if embeddings else set())
        assert isinstance(q["context_tokens"], int) and isinstance(q["synthesis_tokens"], int)
        assert isinstance(q["needs_review"], bool) and isinstance(q["synthesis"], str)
        for p in q["retrieved_paragraphs"]:
            assert set(p) == PARAGRAPH_KEYS
            assert isinstance(p["index"], int) and -1.0 <= p["similarity_score"] <= 1.0
    assert set(data["coverage"]) == COVERAGE_KEYS


def test_inquiry_on_the_demo_question_file(handbook, agent, tmp_path):
    settings, store = handbook
    usage = SQLiteUsageLog(tmp_path / "log.sqlite3")
    result = synthesize_inquiry(EXAMPLES / "QUESTION.md", k=5, threshold=0.6, diversity=0.3, settings=settings,
                                store=store, agent=agent, usage=usage, inquiry_id="INQ-001")
    data = json.loads(result.to_json())
    validate(data)
    assert data["inquiry_id"] == "INQ-001" and len(data["questions"]) == 5
    q1 = data["questions"][0]
    assert len(q1["retrieved_paragraphs"]) == 5
    assert q1["retrieved_paragraphs"][0]["source_file"].endswith("deploys/rollback.md")
    assert "15 minutes" in q1["synthesis"] and "[1]" in q1["synthesis"] and not q1["needs_review"]
    assert 0 < q1["context_tokens"] <= settings.context_tokens and q1["synthesis_tokens"] > 0
    # coverage: the union of what the questions retrieved, against every paragraph in the knowledge base
    used = {p["index"] for q in data["questions"] for p in q["retrieved_paragraphs"]}
    cov = data["coverage"]
    assert cov["total_paragraphs"] == store.collection().count() and cov["retrieved_paragraphs"] == len(used)
    assert set(cov["unretrieved_indices"]) == set(range(cov["total_paragraphs"])) - used
    assert cov["retrieval_rate"] == round(len(used) / cov["total_paragraphs"], 4)
    # every retrieval was logged
    events = usage.events()
    assert [e.kind for e in events] == ["inquiry"] * 5 and all(len(e.retrieved) == 5 for e in events)
    md = to_markdown(result)
    assert md.startswith("# Inquiry INQ-001") and "## Q1. How quickly" in md and "## Coverage" in md


def test_low_similarity_warns_and_an_empty_synthesis_needs_review(handbook, agent, tmp_path):
    settings, store = handbook
    qfile = tmp_path / "QUESTION.md"
    qfile.write_text("---\nid: INQ-FR\n---\n# Off topic\n\n1. What is the capital of France? [tags: geo] [P2]\n"
                     "2. How quickly must a production rollback start?\n")
    result = synthesize_inquiry(qfile, k=3, settings=settings, store=store, agent=agent, include_embeddings=True)
    data = json.loads(result.to_json())
    validate(data, embeddings=True)
    assert data["inquiry_id"] == "INQ-FR"
    france, rollback = data["questions"]
    assert france["metadata"]["tags"] == ["geo"] and france["metadata"]["priority"] == "P2"
    assert len(france["question_embedding"]) == store.embedder.dimension
    assert any(w.startswith("Q1: best similarity") and "below the threshold 0.60" in w for w in result.warnings)
    assert not any(w.startswith("Q2:") for w in result.warnings)
    assert france["needs_review"] == (france["synthesis"] == "")
    assert rollback["synthesis"] and not rollback["needs_review"]


def test_questions_are_embedded_once_in_a_batch_and_cached(handbook, agent, settings):
    _, store = handbook
    local = settings.model_copy(update={"home": settings.home})  # a fresh cache in this test's data dir
    questions = parse_questions("1. Who approves a production hotfix?\n2. Are deploys allowed on Fridays?\n")
    runner = InquiryRunner(local, store, agent)
    try:
        runner.run(questions, inquiry_id="A", k=2)
        assert runner.embedder.misses == 2
        runner.run(questions, inquiry_id="B", k=2)
        assert runner.embedder.misses == 2  # the second run embedded nothing
    finally:
        runner.close()
    cache = EmbeddingCache(local.home / "cache" / "query_embeddings.sqlite3")
    embedder = CachedEmbedder(store.embedder, cache)
    vec = embedder.embed(["Who approves a production hotfix?"], query=True)
    assert embedder.misses == 0 and vec.shape == (1, store.embedder.dimension)
    cache.close()


def test_an_inquiry_id_is_looked_up_in_the_data_dir(settings, tmp_path, monkeypatch):
    from synthesis.errors import QuestionFileError

    monkeypatch.chdir(tmp_path)
    target = settings.home / "inquiries" / "INQ-007" / "QUESTION.md"
    target.parent.mkdir(parents=True)
    target.write_text("1. Why?\n")
    assert resolve_question_file("INQ-007", settings) == (target, "INQ-007")
    assert resolve_question_file(target.parent, settings) == (target, None)
    with pytest.raises(QuestionFileError, match="no question file 'INQ-404'"):
        resolve_question_file("INQ-404", settings)
    # a path that is not there is named once, as given (an id's places joined to it read the same path twice)
    with pytest.raises(QuestionFileError, match=r"no question file at /nowhere/Q\.md — check the path") as err:
        resolve_question_file("/nowhere/Q.md", settings)
    assert str(err.value).count("/nowhere/Q.md") == 1


def test_cli_inquiry_md_out_and_missing_knowledge_base(handbook, tmp_path, monkeypatch, capsys):
    from bot.cli import main

    settings, _ = handbook
    monkeypatch.setenv("SYNTHBOT_HOME", str(settings.home))
    out = tmp_path / "report.md"
    assert main(["inquiry", str(EXAMPLES / "QUESTION.md"), "--k", "3", "--format", "md", "--out", str(out)]) == 0
    assert out.read_text().startswith("# Inquiry INQ-") and "wrote" in capsys.readouterr().err
    monkeypatch.setenv("SYNTHBOT_HOME", str(tmp_path / "empty"))
    assert main(["inquiry", str(EXAMPLES / "QUESTION.md")]) == 1
    assert "run `synthbot ingest PATH` first" in capsys.readouterr().err
    (tmp_path / "none.md").write_text("# Key Questions for Synthesis\n\nNothing to ask.\n")
    assert main(["inquiry", str(tmp_path / "none.md")]) == 1
    assert "no questions found" in capsys.readouterr().err


@pytest.fixture(autouse=True)
def _restore_logging():
    yield
    import structlog

    structlog.reset_defaults()


@pytest.mark.parametrize("command", [
    ["inquiry", str(EXAMPLES / "QUESTION.md"), "--out"],
    ["eval", "answers", str(EXAMPLES.parent / "tests" / "agent" / "data" / "none.jsonl"), "--out"],
    ["coverage", "--chart"],
])
def test_an_output_path_that_cannot_be_written_fails_before_any_work(tmp_path, monkeypatch, capsys, command):
    """A new user's `--out /nonexistent/dir/r.json` ran every question, then lost them all to a traceback. The path
    is checked first: exit 2 and a message naming the folder, before the knowledge base (missing here) is opened
    or the questions file (also missing for `eval answers`) is read."""
    from bot.cli import main

    monkeypatch.setenv("SYNTHBOT_HOME", str(tmp_path / "empty"))
    assert main([*command, str(tmp_path / "no" / "such" / "out.json")]) == 2
    assert "the folder" in capsys.readouterr().err
    assert main([*command, str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err


def test_an_output_file_that_fails_to_write_keeps_the_result(handbook, tmp_path, monkeypatch, capsys):
    """Writing can still fail after the check (a full disk, a special file system): the result goes to standard
    output and the error says so, exit 1."""
    from pathlib import Path

    from bot.cli import main

    settings, _ = handbook
    monkeypatch.setenv("SYNTHBOT_HOME", str(settings.home))

    def full_disk(self, *args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "write_text", full_disk)
    assert main(["inquiry", str(EXAMPLES / "QUESTION.md"), "--k", "3", "--format", "md",
                 "--out", str(tmp_path / "report.md")]) == 1
    captured = capsys.readouterr()
    assert captured.out.startswith("# Inquiry INQ-") and "No space left on device" in captured.err


def test_eval_answers_and_a_coverage_chart_that_fail_to_write_keep_their_result(handbook, tmp_path, monkeypatch,
                                                                                  capsys):
    """`eval answers --out` prints the whole report it could not write (the grade table alone lacks the answers),
    `coverage --chart` the report the chart was drawn from; both exit 1 naming the file."""
    import json
    from pathlib import Path

    from bot.cli import main

    settings, _ = handbook
    monkeypatch.setenv("SYNTHBOT_HOME", str(settings.home))
    questions = tmp_path / "q.jsonl"
    questions.write_text('{"id": "r1", "question": "How fast must a rollback start?", "must_include": [["15"]]}\n')

    def full_disk(self, *args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "write_text", full_disk)
    monkeypatch.setattr(Path, "write_bytes", full_disk)
    assert main(["eval", "answers", str(questions), "--out", str(tmp_path / "r.json")]) == 1
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report["outcomes"][0]["summary"] and "r.json: could not write it" in captured.err
    assert main(["coverage", "--chart", str(tmp_path / "c.png")]) == 1
    captured = capsys.readouterr()
    assert "Coverage" in captured.out and "c.png: could not write it" in captured.err

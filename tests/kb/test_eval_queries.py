"""Known-queries files: parsing errors name the line and entry; `synthbot eval queries` passes, fails and exits."""

from __future__ import annotations

import json
import textwrap

import pytest

from bot.cli import main
from synthesis.errors import EvaluationError
from synthesis.evaluate import load_known_queries, run_known_queries

from ..conftest import EXAMPLES


def write(tmp_path, text: str):
    path = tmp_path / "queries.yaml"
    path.write_text(textwrap.dedent(text))
    return path


def test_parses_entries_with_defaults_and_lines(tmp_path):
    qs = load_known_queries(write(tmp_path, """\
        queries:
          - query: "How long is the rollback window?"
            expect_source_url: https://handbook.example.com/deploys/rollback
            note: free-form keys are allowed
          - query: on-call pay
            expect_doc_id: oncall-pay
            k: 3
        """))
    assert [(q.expected, q.k, q.line) for q in qs] == [
        ("https://handbook.example.com/deploys/rollback", 5, 2), ("oncall-pay", 3, 5)]


@pytest.mark.parametrize("text, message", [
    ("queries:\n  - query: ok\n    expect_doc_id: [unclosed\n", r"line 4.*not valid YAML"),
    ("queries: []\n", "top-level `queries:` list"),
    ("- query: x\n", "top-level `queries:` list"),
    ("queries:\n  - query: fine\n    expect_doc_id: a\n  - query: no expectation\n",
     r"line 4, entry 2 \('no expectation'\).*expect_doc_id or expect_source_url"),
    ("queries:\n  - query: typo\n    expect_url: https://x\n", r"line 2, entry 1: unknown key 'expect_url'"),
    ("queries:\n  - query: '   '\n    expect_doc_id: a\n", r"entry 1.*query.*empty"),
    ("queries:\n  - query: x\n    expect_doc_id: a\n    k: 0\n", r"entry 1.*k"),
    ("queries:\n  - just a string\n", r"line 2, entry 1: expected a mapping"),
])
def test_bad_files_name_the_entry_at_fault(tmp_path, text, message):
    with pytest.raises(EvaluationError, match=message):
        load_known_queries(write(tmp_path, text))


def test_missing_file(tmp_path):
    with pytest.raises(EvaluationError, match="not found"):
        load_known_queries(tmp_path / "nope.yaml")


HANDBOOK = {
    "rollback.md": ("rollback", "https://kb.example.com/rollback", "Rollbacks",
                    "A bad deploy can be rolled back within 14 days using the deploy tool's revert command."),
    "pager.md": ("pager", "https://kb.example.com/pager", "Paging",
                 "If a page is not acknowledged in five minutes it escalates to the secondary on-call engineer."),
    "laptops.md": ("laptops", "https://kb.example.com/laptops", "Laptops",
                   "Company laptops must use full-disk encryption and lock after ten minutes idle."),
}


@pytest.fixture
def small_kb(tmp_path, monkeypatch, minilm):
    """A three-page knowledge base in SYNTHBOT_HOME, ingested with the real model."""
    from synthesis.config import Settings
    from synthesis.ingest import ingest
    from synthesis.store import KnowledgeStore

    docs = tmp_path / "docs"
    docs.mkdir()
    for name, (doc_id, url, title, body) in HANDBOOK.items():
        (docs / name).write_text(f"---\nid: {doc_id}\nurl: {url}\ntitle: {title}\n---\n# {title}\n\n{body}\n")
    monkeypatch.setenv("SYNTHBOT_HOME", str(tmp_path / "home"))
    ingest(KnowledgeStore.open(Settings(_env_file=None), minilm), [docs])
    return tmp_path


def test_cli_passes_and_reports_mrr(small_kb, capsys):
    path = write(small_kb, """\
        queries:
          - query: what happens when nobody acknowledges a page
            expect_source_url: https://kb.example.com/pager
            k: 1
          - query: disk encryption on laptops
            expect_doc_id: laptops
        """)
    assert main(["eval", "queries", str(path), "--json", "--mode", "all"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [(r["mode"], r["passed"], r["failed"], r["mrr"]) for r in doc["results"]] == [
        ("dense", 2, 0, 1.0), ("lexical", 2, 0, 1.0), ("hybrid", 2, 0, 1.0)]
    assert doc["results"][0]["outcomes"][0]["rank"] == 1


def test_cli_fails_with_exit_1_and_shows_what_came_instead(small_kb, capsys):
    path = write(small_kb, """\
        queries:
          - query: how many days can a deploy be rolled back
            expect_doc_id: rollback
          - query: how many days can a deploy be rolled back
            expect_doc_id: laptops
            k: 1
        """)
    assert main(["eval", "queries", str(path)]) == 1
    out = capsys.readouterr().out
    assert "PASS" in out and "FAIL" in out and "1 passed, 1 failed" in out
    assert "rollback" in out.split("FAIL", 1)[1]  # the failing row names the document that ranked instead


def test_cli_bad_file_exits_2_before_touching_the_store(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SYNTHBOT_HOME", str(tmp_path / "home"))
    path = write(tmp_path, "queries:\n  - query: x\n")
    assert main(["eval", "queries", str(path)]) == 2
    assert "line 2, entry 1 ('x'): needs expect_doc_id" in " ".join(capsys.readouterr().err.split())
    assert not (tmp_path / "home").exists()


def test_cli_without_knowledge_base_says_to_ingest(tmp_path, monkeypatch, capsys, minilm):
    monkeypatch.setenv("SYNTHBOT_HOME", str(tmp_path / "home"))
    path = write(tmp_path, "queries:\n  - query: x\n    expect_doc_id: a\n")
    assert main(["eval", "queries", str(path)]) == 1
    assert "synthbot ingest" in capsys.readouterr().err


def test_known_queries_pass_on_the_demo_corpus(demo_store):
    """examples/known_queries.yaml over the demo handbook: every query finds its page in hybrid mode."""
    from synthesis.retrieval import Retriever

    report = run_known_queries(Retriever(demo_store), load_known_queries(EXAMPLES / "known_queries.yaml"))
    failures = [(o.query, o.expected, o.top) for o in report.outcomes if not o.passed]
    assert not failures, failures
    assert report.mrr >= 0.8

"""`synthbot search` in process: the seed output format, --json, filters, and every exit code."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from bot.cli.search import parse_value, parse_where
from synthesis.errors import InvalidQuery
from synthesis.store import KnowledgeStore
from tests.kb.test_retrieval import fill, make_chunks


@pytest.fixture
def kb(settings, minilm, monkeypatch):
    """A small knowledge base built with the bundled model, and the environment pointing the CLI at it."""
    monkeypatch.setenv("SYNTHBOT_HOME", str(settings.home))
    monkeypatch.chdir(settings.home.parent)  # no stray .env from the repository
    store = KnowledgeStore.open(settings, minilm)
    fill(store, make_chunks())
    return store


def test_human_output_follows_the_seed_format(kb, capsys):
    assert main(["search", "who carries the pager this week", "--k", "2"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "Result [1]:"
    assert lines[1].startswith("  Score: 0.") and len(lines[1].split(": ")[1]) == 4
    assert lines[2].startswith("  Content: The on-call rotation changes every Monday")
    assert lines[3:7] == ["  Source URL: https://wiki/oncall", "  Page Title: Oncall", "  Section: Main",
                          "  Chunk: 1 of 2"]
    assert "Result [2]:" in lines and "Result [3]:" not in lines


def test_json_output_keeps_the_agreed_names(kb, capsys):
    assert main(["search", "rollback a deploy", "--json", "--k", "3", "--mode", "hybrid"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"query", "mode", "k", "results", "warnings", "debug"}
    assert (data["query"], data["mode"], data["k"]) == ("rollback a deploy", "hybrid", 3)
    first = data["results"][0]
    assert set(first) >= {"rank", "score", "id", "doc_id", "content", "source_url", "title", "section",
                          "chunk_index", "chunk_count", "metadata"}
    assert first["rank"] == 1 and first["doc_id"] == "deploy" and 0 <= first["score"] <= 1


@pytest.mark.parametrize("mode", ["dense", "lexical"])
def test_modes_from_the_command_line(kb, capsys, mode):
    assert main(["search", "vault secrets", "--mode", mode, "--json", "--k", "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["mode"] == mode and data["results"][0]["id"] == "security-1"


def test_filters_from_the_command_line(kb, capsys):
    argv = ["search", "pager on-call deploy", "--json", "--k", "10", "--tag", "ops", "--where", "type=handbook",
            "chunk_index=1"]
    assert main(argv) == 0
    assert [r["id"] for r in json.loads(capsys.readouterr().out)["results"]] == ["oncall-2"]
    assert main(["search", "deploy", "--json", "--source", "https://wiki/deploy"]) == 0
    assert {r["doc_id"] for r in json.loads(capsys.readouterr().out)["results"]} == {"deploy"}


def test_debug_shows_ranks_model_filters_and_timings(kb, capsys):
    assert main(["search", "incident commander", "--debug", "--k", "1", "--tag", "ops"]) == 0
    out = capsys.readouterr().out
    assert "  Dense: rank 1, score" in out and "| Lexical: rank 1, score" in out
    assert "Model: all-MiniLM-L6-v2 (384 dims)" in out and "{'tag:ops': True}" in out
    assert "Time (ms): embed" in out and "dense" in out and "lexical" in out


@pytest.mark.parametrize("query", ["", "   "])
def test_empty_query_exits_2(kb, capsys, query):
    assert main(["search", query]) == 2
    assert "query is empty" in capsys.readouterr().err


def test_bad_where_exits_2(kb, capsys):
    assert main(["search", "deploy", "--where", "no-equals-sign"]) == 2
    assert "KEY=VALUE" in capsys.readouterr().err


def test_nothing_above_threshold_exits_0_with_the_best_score(kb, capsys):
    assert main(["search", "deploy rollback", "--threshold", "0.99"]) == 0
    out = capsys.readouterr().out
    assert "Result [" not in out and "best score seen was 0." in out


def test_nothing_found_debug_says_why(kb, capsys):
    assert main(["search", "deploy", "--debug", "--where", "type=nothing"]) == 0
    assert "Why nothing was found: the filters excluded every chunk" in capsys.readouterr().out


def test_missing_knowledge_base_exits_1(kb, capsys):
    assert main(["search", "deploy", "--collection", "nowhere"]) == 1
    assert "no knowledge base 'nowhere'" in capsys.readouterr().err


@pytest.mark.parametrize("text,value", [("3", 3), ("2.5", 2.5), ("true", True), ("False", False),
                                        ("runbook", "runbook"), ("", "")])
def test_where_values_are_typed(text, value):
    got = parse_value(text)
    assert got == value and type(got) is type(value)


def test_parse_where_rejects_bad_keys():
    assert parse_where(["a=1", "b=x=y"]) == {"a": 1, "b": "x=y"}
    with pytest.raises(InvalidQuery):
        parse_where(["=1"])

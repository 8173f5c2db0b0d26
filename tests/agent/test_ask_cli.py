"""`synthbot ask` in process: rich output, --json, exit codes."""

from __future__ import annotations

import json

import pytest

from bot.cli import main


@pytest.fixture(autouse=True)
def _restore_logging():
    """main() points structlog at the captured stderr; put it back so later tests do not log to a closed file."""
    yield
    import structlog

    structlog.reset_defaults()


@pytest.fixture
def kb_env(handbook, monkeypatch):
    settings, _ = handbook
    monkeypatch.setenv("SYNTHBOT_HOME", str(settings.home))
    return settings


def test_ask_prints_answer_sources_and_footer(kb_env, capsys):
    code = main(["ask", "How fast must a production rollback start after a failed health check?"])
    out = capsys.readouterr().out
    assert code == 0
    assert "15 minutes" in out and "[1]" in out
    assert "⚠" in out  # the old wiki disagrees
    assert "Sources" in out and "https://handbook.example.com/deploys/rollback" in out
    assert "confidence" in out and "subagents" in out and "extractive" in out


def test_sources_only_reports_no_synthesis_in_its_footer(kb_env, capsys):
    """Nothing is synthesized: the footer had read "confidence low · … · extractive"."""
    assert main(["ask", "How do we deploy?", "--sources-only", "--k", "3"]) == 0
    footer = capsys.readouterr().out.strip().splitlines()[-1]
    assert footer.startswith("sources only · subagents 1 ok") and "confidence" not in footer
    assert "extractive" not in footer and "context tokens" in footer


def test_ask_json_is_an_answer_result(kb_env, capsys):
    code = main(["ask", "Who approves a production hotfix?", "--json", "--k", "4", "--tag", "hotfix"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    assert data["question"] == "Who approves a production hotfix?"
    assert data["synthesis"]["findings"] and data["steps"]
    assert all(len(a["passages"]) <= 4 for a in data["subagents"])
    assert all(p["metadata"].get("tag:hotfix") for p in data["passages"])
    assert data["confidence"] in {"high", "medium", "low"}  # the answer-level confidence, not only per finding


def test_ask_out_of_scope_says_so(kb_env, capsys):
    assert main(["ask", "What is the capital of France?"]) == 0
    assert "I couldn't find this in the knowledge base." in capsys.readouterr().out


def test_empty_question_exits_2(kb_env, capsys):
    assert main(["ask", "   "]) == 2
    assert "empty" in capsys.readouterr().err


def test_missing_knowledge_base_exits_1(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SYNTHBOT_HOME", str(tmp_path / "nothing-here"))
    assert main(["ask", "How do we deploy?"]) == 1
    assert "synthbot ingest" in capsys.readouterr().err


@pytest.mark.parametrize("argv, usage", [
    (["ask", "rollback", "--bogus"], "synthbot ask: error: unrecognized arguments: --bogus"),
    (["eval", "answers", "q.jsonl", "--bogus"], "synthbot eval answers: error: unrecognized arguments: --bogus"),
    (["--bogus", "ask", "rollback"], "synthbot: error: unrecognized arguments: --bogus"),  # given to synthbot
])
def test_an_unknown_option_shows_the_commands_own_usage(argv, usage, capsys):
    """A new user's `ask … --bogus` got the list of commands instead of what `ask` takes."""
    from bot.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2 and usage in capsys.readouterr().err

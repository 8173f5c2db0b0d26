"""The CLI never forwards terminal escapes from documents, and refuses a query that is not valid UTF-8 cleanly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.cli.terminal import printable
from synthesis.ingest import ingest
from synthesis.store import KnowledgeStore

ROOT = Path(__file__).resolve().parents[2]
CLI = "import sys; from bot.cli import main; sys.exit(main(sys.argv[1:]))"
HOSTILE = ("The \x1b[31mred\x1b[0m rollback rule: roll back within 15 minutes. \x1b]0;pwned\x07Click "
           "\x1b]8;;https://evil.example\x07here\x1b]8;;\x07 \u202eNO\u202c, then tell \x9b2Jthe on-call lead.\x07")
FORBIDDEN = ("\x1b", "\x07", "\x9b", "\u202e", "\u202c")


@pytest.fixture
def hostile_kb(settings, minilm, monkeypatch, tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "rollback\x1b[2J.md").write_text(
        f"# Rollback \x1b[5mpolicy\n\nA failed deploy must be rolled back within 15 minutes \x1b[1mby the on-call "
        f"lead\x1b[0m.\n\n{HOSTILE}\n")
    monkeypatch.setenv("SYNTHBOT_HOME", str(settings.home))
    monkeypatch.chdir(tmp_path)
    ingest(KnowledgeStore.open(settings, minilm), [docs])
    return docs


def test_printable_strips_escapes_and_controls_but_keeps_text():
    assert printable(HOSTILE).startswith("The red rollback rule")
    assert "Click here NO, then tell the on-call lead." in printable(HOSTILE)
    assert not any(ch in printable(HOSTILE) for ch in FORBIDDEN)
    assert printable("tabs\tand\nnewlines stay") == "tabs\tand\nnewlines stay"


def test_search_prints_no_terminal_escapes(hostile_kb, capsys):
    assert main(["search", "how fast must we roll back", "--k", "1"]) == 0
    out = capsys.readouterr().out
    assert "roll back within 15 minutes" in out and "Click here" in out
    assert not any(ch in out for ch in FORBIDDEN), repr(out)


def test_ask_prints_no_terminal_escapes(hostile_kb, capsys):
    assert main(["ask", "How quickly must a failed deploy be rolled back?"]) == 0
    out = capsys.readouterr().out
    assert "15 minutes" in out
    assert not any(ch in out for ch in FORBIDDEN), repr(out)


@pytest.mark.parametrize("command", ["search", "ask"])
def test_a_query_that_is_not_utf8_is_a_one_line_error(command, tmp_path):
    done = subprocess.run([sys.executable, "-c", CLI, command, b"caf\xe9 \xff rollback"], cwd=tmp_path,
                          capture_output=True, env={**os.environ, "PYTHONPATH": str(ROOT),
                                                    "SYNTHBOT_HOME": str(tmp_path / "home")}, timeout=120)
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 2, err
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "not valid UTF-8 (byte 0xe9 at character 4)" in lines[0]

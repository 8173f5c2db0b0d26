"""`synthbot ingest` end to end in process, with the real bundled model: summary, --json, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.cli import main


@pytest.fixture
def home(tmp_path, monkeypatch, minilm) -> Path:  # minilm: loaded once per session, reused by the CLI's open_store
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SYNTHBOT_HOME", str(tmp_path / "home"))
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "deploys.md").write_text("---\ntitle: Deploys\nurl: https://wiki.example.com/deploys\n---\n# Deploys\n\n"
                                   "Deploys go out Monday to Thursday.\n\n## Rollback\n\nRun `ferry rollback`.\n")
    (kb / "oncall.txt").write_text("The pager rotates weekly.\n")
    (kb / "blob.md").write_bytes(b"\x00\x01binary")
    return tmp_path / "home"


def test_summary_then_unchanged_rerun(home, capsys):
    assert main(["ingest", "kb"]) == 0
    out = capsys.readouterr().out
    assert "Ingested 2 documents from 3 files into 'synthbot' (all-MiniLM-L6-v2)" in out
    assert "2 added, 0 updated, 0 unchanged, 0 removed" in out
    assert "chunks:    3 in these documents; 3 embedded" in out
    assert "Skipped 1:\n  kb/blob.md: binary file (contains NUL bytes)" in out

    assert main(["ingest", "kb"]) == 0
    assert "0 added, 0 updated, 2 unchanged, 0 removed" in capsys.readouterr().out


def test_json_report_and_collection_and_prune(home, capsys):
    assert main(["ingest", "kb", "--collection", "team-kb", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["collection"] == "team-kb" and report["documents"] == 2 and report["chunks"] == 3
    assert report["skipped"] == [{"path": "kb/blob.md", "reason": "binary file (contains NUL bytes)"}]
    assert report["seconds"] >= report["embed_seconds"] > 0

    Path("kb/oncall.txt").unlink()
    assert main(["ingest", "kb", "--collection", "team-kb", "--prune", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["removed"], report["unchanged"], report["deleted_chunks"]) == (1, 1, 1)


def test_missing_path_exits_non_zero_and_writes_nothing(home, capsys):
    assert main(["ingest", "kb", "no/such/dir"]) == 1
    err = " ".join(capsys.readouterr().err.split())  # rich wraps long lines
    assert "no/such/dir: no such file or directory" in err and "nothing was ingested" in err
    assert not (home / "chroma").exists()


def test_no_ingestible_files_exits_non_zero(home, tmp_path, capsys):
    only_bad = tmp_path / "bad"
    only_bad.mkdir()
    (only_bad / "empty.md").write_text("")
    (only_bad / "photo.jpg").write_bytes(b"\xff\xd8")
    assert main(["ingest", "bad"]) == 1
    captured = capsys.readouterr()
    assert "bad/empty.md: empty file" in captured.out
    assert "nothing to ingest: no supported file with text under bad" in " ".join(captured.err.split())


def test_invalid_collection_name_is_a_clear_error(home, capsys):
    assert main(["ingest", "kb", "--collection", "no"]) == 1
    assert "invalid collection name 'no'" in " ".join(capsys.readouterr().err.split())
    assert not (home / "chroma").exists()

"""Ingest reports what it did not read: files over the size limit, and directories it cannot list."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from synthesis.embedding import HashEmbedder
from synthesis.ingest import ingest
from synthesis.store import KnowledgeStore

ROOT = Path(__file__).resolve().parents[2]
CLI = "import sys; from bot.cli import main; sys.exit(main(sys.argv[1:]))"


def test_a_file_over_the_limit_is_skipped_before_it_is_read(settings, tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "small.md").write_text("# Small\n\nDeploys happen on Tuesdays.\n")
    (docs / "huge.txt").write_text(("A line of a very long log that nobody should embed. " * 40 + "\n\n") * 600)
    store = KnowledgeStore.open(settings, HashEmbedder())
    report = ingest(store, [docs], max_file_bytes=256 * 1024)
    assert report.documents == 1 and report.added == 1
    [skipped] = report.skipped
    assert skipped.path.endswith("huge.txt")
    assert "too large" in skipped.reason and "0.25 MB limit" in skipped.reason
    assert "SYNTHBOT_MAX_FILE_MB" in skipped.reason
    assert {m["title"] for _, _, metas in store.scan() for m in metas} == {"Small"}


def test_the_cli_takes_the_limit_from_the_setting(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "small.md").write_text("# Small\n\nDeploys happen on Tuesdays.\n")
    (docs / "big.md").write_text("# Big\n\n" + "word " * 300_000)
    done = subprocess.run([sys.executable, "-c", CLI, "ingest", str(docs), "--json"], cwd=tmp_path, text=True,
                          capture_output=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "SYNTHBOT_HOME": str(tmp_path / "home"),
                               "SYNTHBOT_MAX_FILE_MB": "1"})
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["documents"] == 1
    assert [s["path"] for s in report["skipped"]] == ["docs/big.md"]
    assert "over the 1 MB limit" in report["skipped"][0]["reason"]


def test_an_unreadable_directory_is_reported(tmp_path):
    docs = tmp_path / "docs"
    (docs / "locked").mkdir(parents=True)
    (docs / "open.md").write_text("# Open\n\nDeploys happen on Tuesdays.\n")
    (docs / "locked" / "secret.md").write_text("# Secret\n\nNobody reads this.\n")
    os.chmod(docs / "locked", 0)
    prefix: list[str] = []
    if os.geteuid() == 0:  # root reads anything: drop the capabilities that bypass permissions, as a user lacks them
        if shutil.which("setpriv") is None:
            pytest.skip("running as root without setpriv: cannot make a directory unreadable")
        prefix = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", "--"]
    try:
        done = subprocess.run([*prefix, sys.executable, "-c", CLI, "ingest", str(docs)], cwd=tmp_path, text=True,
                              capture_output=True, timeout=300,
                              env={**os.environ, "PYTHONPATH": str(ROOT), "SYNTHBOT_HOME": str(tmp_path / "home")})
    finally:
        os.chmod(docs / "locked", 0o755)
    assert done.returncode == 0, done.stderr
    assert "Ingested 1 document" in done.stdout
    assert "docs/locked: unreadable directory: Permission denied" in done.stdout

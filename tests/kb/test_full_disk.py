"""A full disk during ingest is one line that says so (exit 3), not a Chroma traceback.

The disk is real: a 3 MB tmpfs mounted over the data dir in a private mount namespace (`unshare -m`, which needs
root or unprivileged user namespaces; skipped with the reason otherwise). Nothing of ours is patched.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # the real model embeds until the disk fills (about 90 s on a busy machine)
ROOT = Path(__file__).resolve().parents[2]
CLI = "import sys; from bot.cli import main; sys.exit(main(sys.argv[1:]))"


def _namespace_prefix() -> list[str] | None:
    """How to run a command in a private mount namespace where it may mount a tmpfs, or None."""
    if shutil.which("unshare") is None:
        return None
    for prefix in (["unshare", "-m"], ["unshare", "-r", "-m"]):
        probe = subprocess.run([*prefix, "sh", "-c", "mount -t tmpfs -o size=1m tmpfs /mnt 2>/dev/null || "
                                "mount -t tmpfs -o size=1m tmpfs \"$TMPDIR\""], capture_output=True,
                               env={**os.environ, "TMPDIR": "/tmp"})
        if probe.returncode == 0:
            return prefix
    return None


def test_ingest_on_a_full_disk_is_one_line_and_exit_3(tmp_path):
    prefix = _namespace_prefix()
    if prefix is None:
        pytest.skip("cannot mount a tmpfs in a private mount namespace here (needs root or user namespaces)")
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for i in range(150):
        paragraphs = "\n\n".join(f"Paragraph {j} of document {i} about deploys, rollbacks and the on-call rota. " * 3
                                 for j in range(8))
        (corpus / f"doc{i:03}.md").write_text(f"# Document {i}\n\n{paragraphs}\n")
    home = tmp_path / "home"
    home.mkdir()
    script = (f'mount -t tmpfs -o size=3m tmpfs "{home}" && exec "{sys.executable}" -c "$CLI" ingest "{corpus}"')
    done = subprocess.run([*prefix, "sh", "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "CLI": CLI, "SYNTHBOT_HOME": str(home), "PYTHONPATH": str(ROOT),
                               "SYNTHBOT_LOG_LEVEL": "ERROR", "COLUMNS": "60"})
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 3, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    assert len(lines) == 1 and lines[0].startswith("error:"), lines
    assert "the disk is full" in lines[0] and "SYNTHBOT_HOME" in lines[0]

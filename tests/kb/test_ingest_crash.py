"""Crash safety: an ingest SIGKILLed mid-run, then run again, ends with exactly the chunks of a clean run.

The child process sets the test hook SYNTHBOT_INGEST_TEST_PAUSE (synthesis/ingest/pipeline.py): it sleeps after
every store write, so the kill reliably lands mid-run, and often between an upsert and the delete that follows it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from synthesis.embedding import HashEmbedder
from synthesis.ingest import ingest

ROOT = Path(__file__).resolve().parents[2]
CHILD = """
import sys
from synthesis.config import Settings
from synthesis.embedding import HashEmbedder
from synthesis.ingest import ingest
from synthesis.store import KnowledgeStore

home, path = sys.argv[1:]
store = KnowledgeStore.open(Settings(_env_file=None, home=home), HashEmbedder())
ingest(store, [path], batch_size=4, progress=lambda stage, done, total: print("@", stage, done, flush=True))
print("@ finished 0", flush=True)
"""


def write_corpus(root: Path, version: str) -> None:
    root.mkdir(parents=True, exist_ok=True)
    for i in range(10):
        paragraphs = "\n\n".join(f"Paragraph {j} of document {i}, {version}. " + "filler words " * 60 for j in range(2))
        (root / f"doc{i:02}.md").write_text(f"# Document {i}\n\n{paragraphs}\n")


def kill_mid_run(home: Path, corpus: Path, *, after_batches: int, delay: float) -> None:
    env = {**os.environ, "SYNTHBOT_INGEST_TEST_PAUSE": "0.4", "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(home), str(corpus)], cwd=corpus.parent, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        seen = 0
        for line in proc.stdout:
            if not line.startswith("@ "):
                continue  # log lines
            _, stage, done = line.split()
            assert stage != "finished", "the ingest finished before it could be killed"
            if stage == "embed" and int(done) > 0:
                seen += 1
                if seen == after_batches:
                    time.sleep(delay)
                    assert proc.poll() is None
                    proc.send_signal(signal.SIGKILL)
                    break
    finally:
        proc.kill()
        proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL


def snapshot(store) -> dict[str, tuple[str, dict]]:
    return {i: (d, m) for ids, docs, metas in store.scan() for i, d, m in zip(ids, docs, metas)}


@pytest.mark.parametrize("scenario,after_batches,delay", [("fresh", 1, 0.1), ("update", 2, 0.2)])
def test_rerun_after_sigkill_matches_a_clean_ingest(tmp_path, monkeypatch, make_store, scenario, after_batches, delay):
    monkeypatch.chdir(tmp_path)
    corpus = tmp_path / "kb"
    crashed_home, clean_home = tmp_path / "crashed", tmp_path / "clean"
    write_corpus(corpus, "v1")
    if scenario == "update":  # a complete v1 is stored; the crash interrupts replacing it with v2
        ingest(make_store(HashEmbedder(), home=crashed_home), [corpus])
        write_corpus(corpus, "v2")

    kill_mid_run(crashed_home, corpus, after_batches=after_batches, delay=delay)
    crashed = make_store(HashEmbedder(), home=crashed_home)
    partial = snapshot(crashed)
    if scenario == "update":  # killed mid-replacement: both versions are stored at once
        assert {("v1" in d, "v2" in d) for d, _ in partial.values()} == {(True, False), (False, True)}
    rerun = ingest(crashed, [corpus])

    clean = make_store(HashEmbedder(), home=clean_home)
    ingest(clean, [corpus])
    expected, got = snapshot(clean), snapshot(crashed)
    assert len(expected) == rerun.chunks == 20
    assert set(got) == set(expected)  # no duplicates, nothing lost, no leftovers of v1
    assert got == expected  # same text and metadata for every chunk
    assert all("v2" in d for d, _ in got.values()) if scenario == "update" else True
    # The rerun resumed rather than starting over: chunks the killed run had stored were not embedded again.
    resumed = len(set(partial) & set(expected))
    assert resumed > 0 and rerun.embedded == len(expected) - resumed

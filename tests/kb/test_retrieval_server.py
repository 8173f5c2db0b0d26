"""Search against a real `chroma run` server on loopback: two clients share it and their lexical indexes agree."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from synthesis.config import Settings
from synthesis.embedding import HashEmbedder
from synthesis.lexical import LexicalIndex
from synthesis.models import SearchFilters
from synthesis.retrieval import Retriever
from synthesis.store import KnowledgeStore
from tests.conftest import free_port, stop_process
from tests.kb.test_retrieval import fill, make_chunks

pytestmark = pytest.mark.slow
CHROMA = Path(sys.executable).with_name("chroma")


def start_chroma(path: Path) -> tuple[subprocess.Popen, str]:
    """A `chroma run` on a free loopback port, started and answering its heartbeat."""
    if not CHROMA.exists() and not shutil.which("chroma"):
        pytest.skip("the chroma CLI is not installed in this environment")
    port = free_port()
    path.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen([str(CHROMA if CHROMA.exists() else "chroma"), "run", "--host", "127.0.0.1",
                             "--port", str(port), "--path", str(path)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"{url}/api/v2/heartbeat", timeout=1) as resp:
                if resp.status == 200:
                    return proc, url
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                stop_process(proc)
                pytest.fail(f"chroma server did not start on port {port} (exit code {proc.poll()})")
            time.sleep(0.2)


@pytest.fixture(scope="module")
def chroma_url(tmp_path_factory):
    proc, url = start_chroma(tmp_path_factory.mktemp("chroma-server"))
    try:
        yield url
    finally:
        stop_process(proc)


@pytest.fixture
def server_settings(chroma_url, tmp_path, request):
    # One collection per test: the server outlives tests within this module.
    return Settings(_env_file=None, home=tmp_path / "home", chroma_url=chroma_url,
                    collection=f"t-{request.node.name[:40].replace('[', '-').replace(']', '')}")


def test_hybrid_search_and_filters_over_a_chroma_server(server_settings):
    store = KnowledgeStore.open(server_settings, HashEmbedder())
    fill(store, make_chunks())
    retriever = Retriever(store)
    resp = retriever.search("vault secrets git", k=3, debug=True)
    assert resp.results[0].id == "security-1" and resp.debug["lexical_size"] == 6
    for mode in ("dense", "lexical", "hybrid"):
        got = retriever.search("pager on-call", k=10, mode=mode, filters=SearchFilters(source_url="https://wiki/oncall"))
        assert got.results and {r.doc_id for r in got.results} == {"oncall"}


def test_two_clients_of_one_server_agree_after_a_write(server_settings):
    writer = KnowledgeStore.open(server_settings, HashEmbedder())
    fill(writer, make_chunks())
    reader = KnowledgeStore.open(server_settings, HashEmbedder())  # a second process's client
    retriever = Retriever(reader, lexical=LexicalIndex(reader, check_interval=0))
    assert retriever.search("terraform", mode="lexical").results == []
    fill(writer, make_chunks([("tf-1", "tf", "Terraform plans are reviewed before apply.", ["infra"], "doc", "u-tf")]))
    resp = retriever.search("terraform", mode="lexical")
    assert [r.id for r in resp.results] == ["tf-1"] and retriever.lexical.builds == 2
    assert retriever.search("terraform plans reviewed", mode="hybrid").results[0].id == "tf-1"

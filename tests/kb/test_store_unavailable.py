"""A store that fails is reported as unavailable (exit 3), never as an empty result: a real `chroma run` killed."""

from __future__ import annotations

import pytest

from bot.cli import main
from synthesis.errors import StoreUnavailable
from synthesis.retrieval import Retriever
from synthesis.store import KnowledgeStore
from tests.conftest import stop_process
from tests.kb.test_retrieval import fill, make_chunks
from tests.kb.test_retrieval_server import start_chroma

pytestmark = pytest.mark.slow


def test_a_dead_chroma_server_is_store_unavailable_not_no_results(settings, hash_embedder, tmp_path, monkeypatch,
                                                                  capsys):
    proc, url = start_chroma(tmp_path / "server")
    try:
        server = settings.model_copy(update={"chroma_url": url})
        store = KnowledgeStore.open(server, hash_embedder)
        fill(store, make_chunks())
        retriever = Retriever(store)
        assert retriever.search("rollback a deploy", k=3).results
    finally:
        stop_process(proc)
    with pytest.raises(StoreUnavailable) as err:
        retriever.search("rollback a deploy", k=3)
    assert err.value.exit_code == 3 and "SYNTHBOT_CHROMA_URL" in str(err.value)

    monkeypatch.setenv("SYNTHBOT_CHROMA_URL", url)
    monkeypatch.chdir(tmp_path)
    assert main(["search", "rollback a deploy"]) == 3
    out = capsys.readouterr()
    assert "No results" not in out.out and "error:" in out.err

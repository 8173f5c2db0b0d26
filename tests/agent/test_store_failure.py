"""A store that fails every search is a failure (StoreUnavailable), never the "not in the knowledge base" answer."""

from __future__ import annotations

import pytest

from synthesis.agent import Agent
from synthesis.errors import StoreUnavailable
from synthesis.synthesize.extractive import ExtractiveSynthesizer
from tests.agent.fakes import ScriptedBackend


class Every(dict):
    """A script that does the same thing for every query."""

    def __init__(self, action) -> None:
        super().__init__()
        self.action = action

    def get(self, _query, _default=None):
        return self.action


def agent_over(settings, backend, hash_embedder) -> Agent:
    return Agent(settings, backend, ExtractiveSynthesizer(hash_embedder))


async def test_every_search_failing_raises_store_unavailable(settings, hash_embedder):
    from chromadb.errors import InternalError

    backend = ScriptedBackend(Every(InternalError("Error finding id")))
    agent = agent_over(settings, backend, hash_embedder)
    with pytest.raises(StoreUnavailable, match="every search of the knowledge base failed.*Error finding id"):
        await agent.answer("how do we deploy?")
    assert len(backend.calls) >= 1
    agent.close()


def test_the_cli_exit_code_tells_unavailable_from_missing(tmp_path, monkeypatch, capsys):
    from bot.cli import main
    from tests.conftest import free_port

    monkeypatch.setenv("SYNTHBOT_HOME", str(tmp_path / "home"))
    assert main(["ask", "how do we deploy?"]) == 1  # no knowledge base yet
    assert "synthbot ingest" in capsys.readouterr().err
    monkeypatch.setenv("SYNTHBOT_CHROMA_URL", f"http://127.0.0.1:{free_port()}")  # a Chroma server that is down
    assert main(["ask", "how do we deploy?"]) == 3
    assert "cannot open the Chroma store" in capsys.readouterr().err

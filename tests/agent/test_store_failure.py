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


async def test_on_the_claude_path_too(settings, hash_embedder):
    """Claude's search tool reaching a dead store ends the answer as unavailable (not 'not found', not offline)."""
    from chromadb.errors import InternalError

    from synthesis.synthesize.claude import ClaudeResearcher
    from tests.agent.fake_anthropic import FakeMessagesAPI, record, tool_use

    fake = FakeMessagesAPI(model="claude-sonnet-5-5")
    fake.reply(tool_use("search_knowledge_base", {"query": "deploys"}))
    fake.reply(record("The knowledge base has nothing on deploys.", []))  # what Claude says to empty results
    cfg = settings.model_copy(update={"claude_model": fake.model})
    researcher = ClaudeResearcher.from_settings(cfg, fake.client(cfg))
    agent = Agent(cfg, ScriptedBackend(Every(InternalError("Error finding id"))),
                  ExtractiveSynthesizer(hash_embedder), researcher=researcher)
    with pytest.raises(StoreUnavailable, match="Error finding id"):
        await agent.answer("how do we deploy?")
    agent.close()

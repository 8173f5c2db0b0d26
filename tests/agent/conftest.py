"""Agent fixtures: the demo handbook ingested once with the real model into real Chroma."""

from __future__ import annotations

import pytest

from tests.conftest import EXAMPLES

from .fake_anthropic import FakeMessagesAPI


@pytest.fixture(scope="session")
def handbook(request, tmp_path_factory, minilm):
    """(settings, store) over examples/handbook: the shared `demo_store` when the suite has one, else our own."""
    from synthesis.config import Settings
    from synthesis.store import KnowledgeStore

    try:
        store = request.getfixturevalue("demo_store")
        home = getattr(store, "home", None)
    except pytest.FixtureLookupError:
        store, home = None, None
    if store is None or home is None:
        from synthesis.ingest import ingest

        home = tmp_path_factory.mktemp("handbook-home")
        settings = Settings(_env_file=None, home=home)
        store = KnowledgeStore.open(settings, minilm)
        report = ingest(store, [EXAMPLES / "handbook"])
        assert report.chunks > 0
        return settings, store
    return Settings(_env_file=None, home=home), store


@pytest.fixture(scope="session")
def handbook_agent(handbook):
    from synthesis.agent import build_agent

    settings, store = handbook
    agent = build_agent(settings, store)
    yield agent
    agent.close()


@pytest.fixture
def fake():
    """The scripted fake Messages API that every Claude-path test talks to through the real SDK."""
    return FakeMessagesAPI(model="claude-sonnet-5-5")

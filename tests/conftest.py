"""Suite-wide guards and fixtures: no network but loopback, no host settings leaking in, real components."""

from __future__ import annotations

import ipaddress
import os
import socket
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

# No host configuration may leak into tests; the model must never be fetched.
for var in ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET", "SLACK_APP_TOKEN",
            "SLACK_API_URL", "REDIS_URL", "SYNTHBOT_CHROMA_URL", "SYNTHBOT_HOME", "SYNTHBOT_EMBEDDING_MODEL"):
    os.environ.pop(var, None)
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["ANONYMIZED_TELEMETRY"] = "False"


def _is_loopback(address) -> bool:
    if not isinstance(address, tuple):
        return True  # AF_UNIX paths
    host = address[0]
    if host in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False


class NetworkBlocked(RuntimeError):
    pass


@pytest.fixture(autouse=True, scope="session")
def _no_network():
    """Any connection to a non-loopback address fails the test (pydantic-ai's ALLOW_MODEL_REQUESTS, by sockets)."""
    real_connect, real_connect_ex = socket.socket.connect, socket.socket.connect_ex

    def connect(self, address):
        if not _is_loopback(address):
            raise NetworkBlocked(f"test tried to reach {address!r}: only loopback is allowed")
        return real_connect(self, address)

    def connect_ex(self, address):
        if not _is_loopback(address):
            raise NetworkBlocked(f"test tried to reach {address!r}: only loopback is allowed")
        return real_connect_ex(self, address)

    socket.socket.connect, socket.socket.connect_ex = connect, connect_ex
    yield
    socket.socket.connect, socket.socket.connect_ex = real_connect, real_connect_ex


@pytest.fixture
def settings(tmp_path):
    from synthesis.config import Settings

    return Settings(_env_file=None, home=tmp_path / "home")


@pytest.fixture(scope="session")
def minilm():
    """The real bundled model, loaded and hash-checked once for the whole run."""
    from synthesis.embedding import load_embedder

    return load_embedder()


@pytest.fixture
def hash_embedder():
    from synthesis.embedding import HashEmbedder

    return HashEmbedder()


@pytest.fixture(scope="session")
def demo_store(tmp_path_factory, minilm):
    """The demo handbook (examples/handbook) ingested once with the real model; `store.home` is its data dir.

    Ingest runs from the repository root, so doc ids and path-derived source URLs read `examples/handbook/...`.
    """
    from synthesis.config import Settings
    from synthesis.ingest import ingest
    from synthesis.store import KnowledgeStore

    corpus = EXAMPLES / "handbook" if (EXAMPLES / "handbook").is_dir() else EXAMPLES
    if not corpus.is_dir():
        pytest.skip("examples/ (the demo corpus) is missing")
    home = tmp_path_factory.mktemp("demo-home")
    store = KnowledgeStore.open(Settings(_env_file=None, home=home), minilm)
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        report = ingest(store, [corpus])
    finally:
        os.chdir(cwd)
    assert report.documents > 0 and report.chunks > 0, report
    store.home = home
    return store

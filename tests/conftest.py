"""Suite-wide guards and fixtures: no network but loopback, no host settings leaking in, real components."""

from __future__ import annotations

import ipaddress
import os
import socket
import subprocess
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
    """The real bundled model, loaded and hash-checked once for the whole run (ONNX Runtime unless it fell back)."""
    from synthesis.embedding import load_embedder

    return load_embedder()


@pytest.fixture(scope="session")
def minilm_st():
    """The bundled model on sentence-transformers: the reference the ONNX backend is checked against."""
    from synthesis.embedding import load_embedder

    return load_embedder(backend="sentence-transformers")


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


def stop_process(proc: subprocess.Popen) -> None:
    """Stop a server started by a fixture: politely, then for sure."""
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now (for loopback servers, or a 'Redis is down' URL)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_redis(directory: Path) -> tuple[subprocess.Popen, str]:
    """A real redis-server on a free loopback port, without persistence, answering PING: (process, URL of db 0).

    Skips the test when redis-server is not installed. Also used by benchmarks/soak.py.
    """
    import shutil
    import time

    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server); CI installs it")
    port = free_port()
    directory.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                             "--dir", str(directory)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2) as s:
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    return proc, f"redis://127.0.0.1:{port}/0"
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            stop_process(proc)
            pytest.fail(f"redis-server did not start on port {port} (exit code {proc.poll()})")
        time.sleep(0.05)


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    """One redis-server for the whole run (`start_redis`). Shared by every test: use keys or prefixes unique to it."""
    proc, url = start_redis(tmp_path_factory.mktemp("redis"))
    try:
        yield url
    finally:
        stop_process(proc)


@pytest.fixture(autouse=True)
def _restore_logging():
    """`synthbot` entry points configure logging process-wide; undo it so no test sees another's level or handler."""
    import logging

    import structlog

    root = logging.getLogger()
    handlers, level, config = list(root.handlers), root.level, structlog.get_config()
    yield
    structlog.configure(**config)
    root.handlers[:] = handlers
    root.setLevel(level)
    logging.captureWarnings(False)

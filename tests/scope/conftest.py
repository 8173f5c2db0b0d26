"""Knowledge bases split into collections, with the real bundled model and real Chroma."""

from __future__ import annotations

from pathlib import Path

from synthesis.ingest import ingest
from synthesis.store import KnowledgeStore


def write_docs(root: Path, docs: dict[str, str]) -> list[Path]:
    paths = []
    for rel, text in docs.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        paths.append(path)
    return paths


def ingest_into(settings, embedder, collection: str, paths: list[Path]) -> KnowledgeStore:
    store = KnowledgeStore.open(settings, embedder, collection=collection)
    report = ingest(store, paths)
    assert report.documents == len(paths), report
    return store


from tests.bot.conftest import fake_slack, harness_factory, slack_settings  # noqa: E402,F401  (the Slack fixtures)

"""A small knowledge base with known documents, tags and chunk ids (hash embedder: fast and deterministic)."""

from __future__ import annotations

import pytest

DOCS = {
    "ops/deploys.md": ("---\ntitle: Deploys\ntype: policy\ntags: [deploys, ops]\n---\n# Deploys\n\n"
                       "Deploys go out through ferry in three stages.\n\n## Rollback\n\nRoll back within 15 minutes.\n"),
    "ops/oncall.md": ("---\ntitle: On-call\ntype: policy\ntags: [oncall, ops]\n---\n# On-call\n\n"
                      "The primary answers pages within five minutes.\n\n## Handover\n\nHandover is on Monday.\n"),
    "people/hiring.md": ("---\ntitle: Hiring\ntype: guide\ntags: [hiring]\n---\n# Hiring\n\n"
                         "Every candidate meets four interviewers.\n"),
    "people/laptops.md": "# Laptops\n\nLaptops are encrypted with FileVault.\n",
}


@pytest.fixture
def small_kb(tmp_path, settings, hash_embedder, monkeypatch):
    """(settings, store, {doc_id: [chunk ids]}) for DOCS ingested from tmp_path (doc ids are the relative paths)."""
    from synthesis.ingest import ingest
    from synthesis.store import KnowledgeStore

    root = tmp_path / "kb"
    for rel, text in DOCS.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    monkeypatch.chdir(root)
    store = KnowledgeStore.open(settings, hash_embedder)
    report = ingest(store, [root / rel for rel in DOCS])
    assert report.documents == len(DOCS)
    chunks: dict[str, list[str]] = {}
    for ids, _docs, metas in store.scan(include_documents=False):
        for cid, meta in zip(ids, metas):
            chunks.setdefault(meta["doc_id"], []).append(cid)
    return settings, store, {d: sorted(ids) for d, ids in chunks.items()}


@pytest.fixture(scope="session")
def handbook(demo_store):
    """(settings, store) over the demo handbook (the suite's shared, read-only `demo_store`)."""
    from synthesis.config import Settings

    return Settings(_env_file=None, home=demo_store.home), demo_store

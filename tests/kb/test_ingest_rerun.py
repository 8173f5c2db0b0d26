"""Re-running ingest: deterministic ids, unchanged documents not re-embedded, changed replaced, prune."""

from __future__ import annotations

from pathlib import Path

import pytest

from synthesis.ingest import ingest


def write_docs(root: Path, n: int = 4, *, version: str = "v1") -> None:
    root.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        (root / f"doc{i}.md").write_text(
            f"---\ntitle: Doc {i}\n---\n# Doc {i}\n\nParagraph about topic {i} ({version}).\n\n"
            f"## Details\n\nMore detail on topic {i}.\n")


def ids_of(store) -> dict[str, str]:
    """chunk id -> doc_id"""
    return {i: m["doc_id"] for ids, _, metas in store.scan(include_documents=False) for i, m in zip(ids, metas)}


@pytest.fixture
def kb(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    write_docs(tmp_path / "kb")
    return tmp_path / "kb"


def test_chunk_ids_are_deterministic(kb, tmp_path, make_store, counting_embedder):
    a, b = make_store(counting_embedder, home=tmp_path / "a"), make_store(counting_embedder, home=tmp_path / "b")
    ingest(a, [kb])
    ingest(b, [kb])
    assert set(ids_of(a)) == set(ids_of(b)) and len(ids_of(a)) == 8


def test_unchanged_documents_are_not_re_embedded(kb, make_store, counting_embedder):
    store = make_store(counting_embedder)
    first = ingest(store, [kb])
    before = ids_of(store)
    counting_embedder.reset()
    second = ingest(store, [kb])
    assert counting_embedder.calls == 0 and counting_embedder.embedded == []
    assert (second.unchanged, second.added, second.updated, second.embedded) == (4, 0, 0, 0)
    assert second.chunks == first.chunks == 8
    assert ids_of(store) == before


def test_changed_document_has_its_old_chunks_replaced(kb, make_store, counting_embedder):
    store = make_store(counting_embedder)
    ingest(store, [kb])
    old = {i for i, d in ids_of(store).items() if d == "kb/doc1.md"}
    (kb / "doc1.md").write_text("---\ntitle: Doc 1\n---\n# Doc 1\n\nRewritten from scratch.\n")
    counting_embedder.reset()
    report = ingest(store, [kb])
    assert (report.updated, report.unchanged, report.embedded, report.deleted_chunks) == (1, 3, 1, 2)
    assert counting_embedder.embedded == ["Doc 1\n\nRewritten from scratch."]
    now = ids_of(store)
    assert not old & set(now)
    got = store.get([i for i, d in now.items() if d == "kb/doc1.md"])
    assert got["documents"] == ["Rewritten from scratch."]
    assert len(now) == 7


def test_metadata_change_alone_rewrites_the_document(kb, make_store, counting_embedder):
    store = make_store(counting_embedder)
    ingest(store, [kb])
    text = (kb / "doc2.md").read_text().replace("title: Doc 2", "title: Doc 2\ntags: [new]")
    (kb / "doc2.md").write_text(text)
    report = ingest(store, [kb])
    assert report.updated == 1
    metas = [m for _, _, ms in store.scan(where={"doc_id": "kb/doc2.md"}) for m in ms]
    assert metas and all(m.get("tag:new") is True for m in metas)


def test_a_file_that_changes_its_document_id_drops_the_old_one(kb, make_store, counting_embedder):
    store = make_store(counting_embedder)
    ingest(store, [kb])
    (kb / "doc3.md").write_text("---\nid: renamed\ntitle: Doc 3\n---\nSame file, new id.\n")
    report = ingest(store, [kb])  # no --prune needed: the file was read and no longer yields kb/doc3.md
    assert (report.added, report.removed) == (1, 1)
    assert "kb/doc3.md" not in ids_of(store).values() and "renamed" in ids_of(store).values()


def test_prune_removes_documents_whose_files_are_gone(kb, tmp_path, make_store, counting_embedder):
    other = tmp_path / "other"
    write_docs(other, 2)
    store = make_store(counting_embedder)
    ingest(store, [kb, other])
    (kb / "doc0.md").unlink()
    (other / "doc1.md").unlink()

    kept = ingest(store, [kb])  # without --prune, a vanished file's document stays
    assert kept.removed == 0 and "kb/doc0.md" in ids_of(store).values()

    pruned = ingest(store, [kb], prune=True)  # prune looks only under the PATHs given
    assert pruned.removed == 1 and pruned.deleted_chunks == 2
    docs = set(ids_of(store).values())
    assert "kb/doc0.md" not in docs and "other/doc1.md" in docs

    assert ingest(store, [other], prune=True).removed == 1
    assert "other/doc1.md" not in set(ids_of(store).values())


def test_revision_changes_after_a_write_only(kb, make_store, counting_embedder):
    store = make_store(counting_embedder)
    ingest(store, [kb])
    rev = store.revision()
    ingest(store, [kb])
    assert store.revision() == rev  # nothing written, derived indexes stay valid
    (kb / "doc0.md").write_text("# Doc 0\n\nChanged.\n")
    ingest(store, [kb])
    assert store.revision() != rev

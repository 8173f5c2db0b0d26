"""Bad input: skipped with a reason, never aborting the batch, never damaging what is stored."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from synthesis.embedding import HashEmbedder
from synthesis.errors import IngestError, ModelMismatch
from synthesis.ingest import ingest


@pytest.fixture
def kb(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "kb"
    root.mkdir()
    (root / "good.md").write_text("# Good\n\nA perfectly fine document.\n")
    return root


def reasons(report) -> dict[str, str]:
    return {s.path: s.reason for s in report.skipped}


def test_bad_files_are_skipped_with_reasons(kb, make_store, counting_embedder):
    (kb / "binary.md").write_bytes(b"PK\x03\x04\x00\x00 zip pretending to be markdown")
    (kb / "latin1.txt").write_bytes("caf\xe9 cr\xe8me".encode("latin-1"))
    (kb / "empty.txt").write_text("  \n\n ")
    (kb / "headings-only.md").write_text("---\ntitle: x\n---\n# Only a heading\n")
    (kb / "bad-front-matter.md").write_text("---\ntitle: [unclosed\n---\nBody.\n")
    (kb / "dangling.md").symlink_to(kb / "missing-target.md")
    (kb / "image.png").write_bytes(b"\x89PNG")
    (kb / ".hidden.md").write_text("# Hidden\n\nNot ingested.\n")
    (kb / ".git").mkdir()
    (kb / ".git" / "x.md").write_text("# Hidden dir\n")
    (kb / "dir.md").mkdir()  # a directory with a document-like name is walked, not read
    (kb / "dir.md" / "inner.txt").write_text("Inside a directory named like a file.\n")
    fifo = kb / "pipe.txt"
    os.mkfifo(fifo)

    store = make_store(counting_embedder)
    report = ingest(store, [kb])
    got = reasons(report)
    assert got == {
        "kb/bad-front-matter.md": got["kb/bad-front-matter.md"],
        "kb/binary.md": "binary file (contains NUL bytes)",
        "kb/dangling.md": "unreadable: broken symlink or file vanished",
        "kb/empty.txt": "empty file",
        "kb/headings-only.md": "no text (only front matter, headings or markup)",
        "kb/image.png": got["kb/image.png"],
        "kb/latin1.txt": got["kb/latin1.txt"],
        "kb/pipe.txt": "not a regular file",
    }
    assert got["kb/bad-front-matter.md"].startswith("front matter is not valid YAML")
    assert got["kb/image.png"].startswith("unsupported file type '.png'")
    assert got["kb/latin1.txt"].startswith("not UTF-8 text")
    assert report.documents == 2  # good.md and dir.md/inner.txt
    assert {m["doc_id"] for _, _, ms in store.scan() for m in ms} == {"kb/good.md", "kb/dir.md/inner.txt"}


def test_a_file_gone_bad_keeps_its_stored_document(kb, make_store, counting_embedder):
    store = make_store(counting_embedder)
    ingest(store, [kb])
    before = store.get([i for ids, _, _ in store.scan() for i in ids])
    for damage in (b"\x00\x01\x02", b"", b"\xff\xfe\xfa"):
        (kb / "good.md").write_bytes(damage)
        report = ingest(store, [kb], prune=True)
        assert report.skipped and report.removed == 0 and report.deleted_chunks == 0
        assert store.get(before["ids"])["documents"] == before["documents"]


def test_bad_jsonl_lines_are_skipped_and_the_rest_ingested(kb, make_store, counting_embedder):
    (kb / "corpus.jsonl").write_text(
        '{"_id": "a", "title": "A", "text": "Alpha."}\n'
        "{not json\n"
        '{"title": "no id", "text": "x"}\n'
        '{"_id": "e", "text": ""}\n'
        '{"_id": "b", "title": "B", "text": "Beta."}\n')
    report = ingest(make_store(counting_embedder), [kb / "corpus.jsonl"])
    assert report.documents == 2
    got = reasons(report)
    assert got["kb/corpus.jsonl:2"].startswith("invalid JSON")
    assert got["kb/corpus.jsonl:3"] == "not a BEIR corpus line (needs '_id' and 'text')"
    assert got["kb/corpus.jsonl:4"] == "document 'e' has empty text"


def test_duplicate_document_ids_keep_the_first(kb, make_store, counting_embedder):
    (kb / "a.md").write_text("---\nid: same\n---\nFirst.\n")
    (kb / "b.md").write_text("---\nid: same\n---\nSecond.\n")
    store = make_store(counting_embedder)
    report = ingest(store, [kb])
    assert "duplicate doc_id 'same' (first seen in kb/a.md)" in reasons(report)["kb/b.md"]
    assert [d for _, ds, ms in store.scan(where={"doc_id": "same"}) for d in ds] == ["First."]


def test_missing_path_is_an_error_and_nothing_is_written(kb, make_store, counting_embedder):
    store = make_store(counting_embedder)
    with pytest.raises(IngestError, match="nope: no such file or directory"):
        ingest(store, [kb, "nope"])
    assert not store.exists() and counting_embedder.calls == 0


def test_nothing_ingestible_writes_nothing(tmp_path, make_store, counting_embedder):
    (tmp_path / "empty.md").write_text("")
    store = make_store(counting_embedder)
    report = ingest(store, [tmp_path / "empty.md"])
    assert report.documents == 0 and len(report.skipped) == 1
    assert not store.exists()


def test_a_collection_built_with_another_model_is_refused(kb, make_store, counting_embedder):
    store = make_store(counting_embedder)
    ingest(store, [kb])
    other = make_store(HashEmbedder(128, name="hash-128"))
    with pytest.raises(ModelMismatch, match="hash-256"):
        ingest(other, [kb])
    assert store.info()["count"] == 1

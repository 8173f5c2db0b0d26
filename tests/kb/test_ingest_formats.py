"""Each input format: what becomes a document, its metadata, sections, and offsets that slice back to the text."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from synthesis.ingest import ingest
from synthesis.ingest.loaders import load_file


@pytest.fixture
def kb(tmp_path, ingest_data, monkeypatch) -> Path:
    """A copy of the fixture corpus at ./kb (doc ids are paths relative to the current directory)."""
    shutil.copytree(ingest_data, tmp_path / "kb")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "kb"


def stored(store) -> dict[str, tuple[str, dict]]:
    return {i: (d, m) for ids, docs, metas in store.scan() for i, d, m in zip(ids, docs, metas)}


def by_doc(store, doc_id: str) -> list[tuple[str, dict]]:
    return sorted(((d, m) for d, m in stored(store).values() if m["doc_id"] == doc_id),
                  key=lambda dm: dm[1]["chunk_index"])


def test_markdown_front_matter_sections_and_offsets(kb, make_store, counting_embedder):
    store = make_store(counting_embedder)
    report = ingest(store, [kb / "handbook" / "deploys.md"])
    assert (report.documents, report.added, report.skipped) == (1, 1, [])
    chunks = by_doc(store, "deploys")  # front matter `id` wins over the path
    [doc] = load_file(kb / "handbook" / "deploys.md", model="hash-256", dimension=256).documents
    assert [m["chunk_index"] for _, m in chunks] == list(range(len(chunks)))
    for text, meta in chunks:
        assert doc.text[meta["char_start"]:meta["char_end"]] == text  # offsets index the rendered text
        assert meta["chunk_count"] == len(chunks)
        assert meta["title"] == "Deploying services"
        assert meta["source_url"] == "https://wiki.example.com/eng/deploys"
        assert meta["tags"] == "deploys,release" and meta["tag:deploys"] is True
        assert meta["type"] == "runbook"
        assert meta["source_file"] == str(kb / "handbook" / "deploys.md")
        assert not text.startswith("#") and "title:" not in text  # no headings or front matter in stored text
    sections = [m["section"] for _, m in chunks]
    assert sections == ["Deploys", "Deploys > Rollback", "Deploys > Rollback > After a rollback",
                        "Deploys > Freeze windows"]
    rollback = chunks[1][0]
    assert "release rollback payments" in rollback and "release status payments" in rollback  # fence kept whole


def test_plain_text_defaults_to_path_metadata(kb, make_store, counting_embedder):
    store = make_store(counting_embedder)
    ingest(store, [kb / "handbook" / "oncall.txt"])
    [(text, meta)] = by_doc(store, "kb/handbook/oncall.txt")  # three short paragraphs pack into one chunk
    assert meta["source_url"] == "kb/handbook/oncall.txt" and meta["title"] == "oncall" and meta["section"] == ""
    assert text.startswith("The on-call engineer") and text.endswith("Monday stand-up.")
    assert (kb / "handbook" / "oncall.txt").read_text()[meta["char_start"]:meta["char_end"]] == text


def test_html_keeps_text_and_headings_not_markup(kb, make_store, counting_embedder):
    store = make_store(counting_embedder)
    ingest(store, [kb / "handbook" / "security.html"])
    chunks = by_doc(store, "kb/handbook/security.html")
    text = "\n".join(t for t, _ in chunks)
    assert "Rotate API keys every 90 days." in text
    for banned in ("<", "do not index", "color: red", "html comment"):
        assert banned not in text
    assert {m["section"] for _, m in chunks} >= {"Security", "Security > Laptops", "Security > Access reviews"}
    assert all(m["title"] == "Security basics" for _, m in chunks)
    assert 'ssh-keygen -t ed25519\n  -C "you@example.com"' in text  # <pre> keeps its line breaks
    [doc] = load_file(kb / "handbook" / "security.html", model="hash-256", dimension=256).documents
    assert "Laptops" in doc.text  # headings are part of the document text, on their own lines
    for chunk_text, meta in chunks:
        assert doc.text[meta["char_start"]:meta["char_end"]] == chunk_text


def test_beir_jsonl_one_document_per_line(kb, make_store, counting_embedder):
    store = make_store(counting_embedder)
    report = ingest(store, [kb / "corpus.jsonl"])
    assert report.documents == 3
    [(text, meta)] = by_doc(store, "doc-2")
    assert meta["title"] == "Vitamin D" and meta["source_url"] == "kb/corpus.jsonl#doc-2"
    assert text == "Vitamin D supplements did not reduce fractures in the trial.\n\nA second paragraph about bone density."
    assert (meta["char_start"], meta["char_end"]) == (0, len(text))
    assert by_doc(store, "doc-3")[0][1]["title"] == ""
    # The title is embedded with the text (see chunking.py) but not stored in it.
    assert any(t.startswith("Aspirin and heart attacks\n\nDaily low-dose aspirin") for t in counting_embedder.embedded)


def _paragraph_file(path: Path, *, model: str | None, vectors: list[list[float]], per_paragraph_model: bool = False):
    paragraphs = []
    for i, (source, content) in enumerate([("guides/a.md", "Alpha paragraph one."), ("guides/a.md", "Alpha two."),
                                           ("guides/b.md", "Beta only paragraph.")]):
        meta = {"title": f"Guide {source[7]}", "url": f"https://x.example/{source}"}
        if per_paragraph_model and model:
            meta["embedding_model"] = model
        paragraphs.append({"index": i, "source_file": source, "content": content, "embedding": vectors[i],
                           "metadata": meta})
    data = {"paragraphs": paragraphs}
    if model and not per_paragraph_model:
        data["model"] = model
    path.write_text(json.dumps(data))


def _sentinels(dim: int) -> list[list[float]]:
    return [np.eye(dim, dtype=np.float32)[i].tolist() for i in range(3)]


@pytest.mark.parametrize("per_paragraph", [False, True])
def test_paragraph_json_reuses_embeddings_of_the_same_model(tmp_path, make_store, counting_embedder, per_paragraph):
    path = tmp_path / "export.json"
    _paragraph_file(path, model="hash-256", vectors=_sentinels(256), per_paragraph_model=per_paragraph)
    store = make_store(counting_embedder)
    report = ingest(store, [path])
    assert (report.documents, report.chunks, report.reused_embeddings, report.embedded) == (2, 3, 3, 0)
    assert counting_embedder.embedded == []
    got = store.get(sorted(stored(store)), embeddings=True)
    vectors = {d: np.asarray(e) for d, e in zip(got["documents"], got["embeddings"])}
    assert np.allclose(vectors["Alpha paragraph one."], _sentinels(256)[0])
    metas = {m["doc_id"]: m for m in got["metadatas"]}
    assert set(metas) == {"guides/a.md", "guides/b.md"}  # grouped by the paragraphs' source_file
    assert metas["guides/b.md"]["source_url"] == "https://x.example/guides/b.md"
    assert metas["guides/b.md"]["source_file"] == str(path)


@pytest.mark.parametrize("model,dim", [("all-MiniLM-L6-v2", 256), ("hash-256", 3), (None, 256)])
def test_paragraph_json_re_embeds_other_models_or_dimensions(tmp_path, make_store, counting_embedder, model, dim):
    path = tmp_path / "export.json"
    _paragraph_file(path, model=model, vectors=_sentinels(dim))
    store = make_store(counting_embedder)
    report = ingest(store, [path])
    assert (report.reused_embeddings, report.embedded) == (0, 3)
    assert any(t.endswith("Alpha paragraph one.") for t in counting_embedder.embedded)
    got = store.get(sorted(stored(store)), embeddings=True)
    first = np.asarray(got["embeddings"][got["documents"].index("Alpha paragraph one.")])
    assert not np.allclose(first[:3], _sentinels(3)[0])


def test_markdown_details(tmp_path, make_store, counting_embedder, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.md").write_text(
        "Setext title\n============\n\nIntro under it.\n\n***\n\nAfter a rule.\n\nSub\n---\n\n"
        "~~~\ncode with\n\n# not a heading\n~~~\n")
    store = make_store(counting_embedder)
    ingest(store, [tmp_path / "notes.md"])
    chunks = sorted(((d, m) for _, ds, ms in store.scan() for d, m in zip(ds, ms)), key=lambda x: x[1]["chunk_index"])
    assert [(m["section"], d) for d, m in chunks] == [
        ("Setext title", "Intro under it.\n\nAfter a rule."),  # a thematic break is not text
        ("Setext title > Sub", "```\ncode with\n\n# not a heading\n```"),  # every fence is written as ```
    ]
    assert chunks[0][1]["title"] == "Setext title"  # no front matter: the first H1 is the title

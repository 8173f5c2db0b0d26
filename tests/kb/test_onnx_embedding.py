"""The ONNX Runtime backend: same vectors as sentence-transformers, refused and replaced when its export is bad."""

from __future__ import annotations

import json
import re
import shutil

import numpy as np
import pytest

from synthesis.config import BUNDLED_MODEL
from synthesis.embedding import BUNDLED_SHA256, bundled_model_path, load_embedder
from synthesis.errors import ModelLoadError
from synthesis.onnx_embedding import MODEL_FILE, RECORD_FILE, default_cache_dir, export_dir_for

TEXTS = [
    "How quickly must a failed deploy be rolled back?",
    "on-call",
    "",
    "---\ntitle: Runbook\n---\n# Rollback {{ page.title }}\nSee [the policy](policy.md) and <b>ask</b> in #ops.",
    "Ünïcödé, 東京, emoji 🚀 — and a ‘quoted’ phrase.",
    "Friday deploys need the incident commander's approval. " * 40,  # past the 256-word-piece window
    " ".join(f"token{i}" for i in range(600)),
]


def _cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.sum(a * b, axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))


def _export_copy(tmp_path):
    """A private copy of the verified export, as the cache layout has it, to damage."""
    source = export_dir_for(default_cache_dir(), BUNDLED_MODEL, BUNDLED_SHA256)
    target = export_dir_for(tmp_path, BUNDLED_MODEL, BUNDLED_SHA256)
    shutil.copytree(source, target)
    return target


def test_default_backend_is_onnx_and_matches_sentence_transformers(minilm, minilm_st):
    assert minilm.backend == "onnx", getattr(minilm, "fallback_reason", None)
    assert minilm_st.backend == "sentence-transformers"
    assert (minilm.name, minilm.dimension, minilm.max_tokens) == (minilm_st.name, minilm_st.dimension, 256)
    got, ref = minilm.embed(TEXTS), minilm_st.embed(TEXTS)
    assert got.shape == (len(TEXTS), 384)
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)
    assert _cosines(got, ref).min() >= 0.9999
    # Batched differently (one at a time, so no padding) gives the same vectors.
    single = np.vstack([minilm.embed([t], query=True) for t in TEXTS])
    assert _cosines(single, got).min() >= 0.9999


def test_token_counts_and_offsets_match_the_transformers_tokenizer(minilm, minilm_st):
    """Chunking sees the same word-pieces with either backend, so both ingest the same chunks."""
    for text in TEXTS:
        assert minilm.count_tokens(text) == minilm_st.count_tokens(text)
    ours = minilm.tokenizer(TEXTS, add_special_tokens=False, return_offsets_mapping=True)
    theirs = minilm_st.tokenizer(TEXTS, add_special_tokens=False, return_offsets_mapping=True, truncation=False)
    assert ours["input_ids"] == theirs["input_ids"]
    assert [list(map(tuple, o)) for o in ours["offset_mapping"]] == [list(map(tuple, o)) for o in theirs["offset_mapping"]]


def test_a_fresh_export_is_verified_against_the_reference(tmp_path, minilm_st):
    from synthesis.onnx_embedding import load_onnx_embedder
    from synthesis.onnx_export import SAMPLE, export_bundled

    messages: list[str] = []
    folder = export_bundled(tmp_path, say=messages.append)
    assert folder == export_dir_for(tmp_path, BUNDLED_MODEL, BUNDLED_SHA256)
    assert "Exporting" in messages[0] and "verified" in messages[-1]
    record = json.loads((folder / RECORD_FILE).read_text())
    assert record["model_sha256"] == BUNDLED_SHA256
    assert record["variants"]["fp32"]["min_cosine_vs_sentence_transformers"] >= 0.9999
    fresh = load_onnx_embedder(folder, bundled_model_path(), name=BUNDLED_MODEL)
    assert _cosines(fresh.embed(SAMPLE + TEXTS), minilm_st.embed(SAMPLE + TEXTS)).min() >= 0.9999
    # A second call finds the verified export and does not export again.
    assert export_bundled(tmp_path, say=messages.append) == folder and len(messages) == 2


@pytest.mark.parametrize("damage, why", [
    ("flip", "reference vectors|cannot open"),  # same size, bytes changed: other vectors (or no longer a model)
    ("truncate", "bytes"),           # cut short
    ("delete", "missing"),           # the model file is gone
    ("record", "no verified ONNX export"),  # the verification record is gone
])
def test_a_damaged_export_is_refused_and_sentence_transformers_answers(tmp_path, minilm_st, damage, why):
    folder = _export_copy(tmp_path)
    model = folder / MODEL_FILE
    if damage == "flip":
        data = bytearray(model.read_bytes())
        for at in range(len(data) // 2, len(data) - 256, 1 << 20):  # the encoder layers' weights, every 1 MB
            data[at:at + 256] = bytes(b ^ 0x5A for b in data[at:at + 256])
        model.write_bytes(bytes(data))
    elif damage == "truncate":
        model.write_bytes(model.read_bytes()[: model.stat().st_size // 3])
    elif damage == "delete":
        model.unlink()
    else:
        (folder / RECORD_FILE).unlink()
    embedder = load_embedder(cache_dir=tmp_path, backend="auto")
    assert embedder.backend == "sentence-transformers"
    assert re.search(why, embedder.fallback_reason)
    assert np.allclose(embedder.embed(["rollback"]), minilm_st.embed(["rollback"]), atol=1e-6)
    # "onnx" insists: the same damage is an error that says why and how to fix it.
    with pytest.raises(ModelLoadError, match="onnx_export --force") as err:
        load_embedder(cache_dir=tmp_path, backend="onnx")
    assert re.search(why, str(err.value))


def test_an_unwritable_cache_falls_back(tmp_path):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the cache folder should be")
    embedder = load_embedder(cache_dir=blocker, backend="auto")
    assert embedder.backend == "sentence-transformers" and embedder.fallback_reason


def test_other_models_always_use_sentence_transformers(tmp_path):
    copy = tmp_path / "my-model"
    shutil.copytree(bundled_model_path(), copy)
    assert load_embedder(str(copy), backend="onnx").backend == "sentence-transformers"


def test_unknown_backend_is_a_config_error():
    from synthesis.errors import ConfigError

    with pytest.raises(ConfigError, match="SYNTHBOT_EMBEDDING_BACKEND"):
        load_embedder(backend="tensorflow")

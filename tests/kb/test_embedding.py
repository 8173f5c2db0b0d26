"""The bundled model loads offline, is hash-checked, and is cached once per process."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from synthesis.embedding import (
    BGE_QUERY_PREFIX, BUNDLED_SHA256, HashEmbedder, bundled_model_path, load_embedder, sha256_file, verify_model_dir,
)
from synthesis.errors import ModelIntegrityError, ModelLoadError


def test_bundled_weights_match_the_pinned_hash():
    path = bundled_model_path()
    assert sha256_file(path / "model.safetensors") == BUNDLED_SHA256


def test_tampered_weights_are_refused(tmp_path):
    (tmp_path / "model.safetensors").write_bytes(b"not the real weights")
    with pytest.raises(ModelIntegrityError) as err:
        verify_model_dir(tmp_path)
    assert BUNDLED_SHA256 in str(err.value) and "reinstall" in str(err.value)


def test_missing_weights_are_refused(tmp_path):
    with pytest.raises(ModelIntegrityError, match="missing"):
        verify_model_dir(tmp_path)


def test_real_model_embeds_unit_vectors_and_ranks_by_meaning(minilm):
    vecs = minilm.embed(["How do I roll back a deploy?", "Reverting a bad release", "Lunch menu for Friday"])
    assert vecs.shape == (3, 384)
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-4)
    assert vecs[0] @ vecs[1] > vecs[0] @ vecs[2]
    assert minilm.max_tokens == 256 and minilm.count_tokens("on-call rotation") > 0


def test_model_is_cached_once_per_process(minilm):
    assert load_embedder("all-MiniLM-L6-v2") is minilm
    assert load_embedder("sentence-transformers/all-MiniLM-L6-v2") is minilm


def test_any_model_by_path_loads_and_is_named_by_it(tmp_path, minilm):
    copy = tmp_path / "my-model"
    shutil.copytree(bundled_model_path(), copy)
    other = load_embedder(str(copy))
    assert other is not minilm and other.name == str(copy) and other.query_prefix == ""
    assert np.allclose(other.embed(["same text"]), minilm.embed(["same text"]), atol=1e-5)


def test_unknown_model_fails_offline_with_an_action():
    with pytest.raises(ModelLoadError, match="never downloaded"):
        load_embedder("no-such-org/no-such-model-xyz")


def test_bge_query_prefix_applies_to_queries_only(minilm, minilm_st):
    from synthesis.embedding import SentenceTransformerEmbedder

    bge = SentenceTransformerEmbedder(minilm_st._model, name="BAAI/bge-small-en-v1.5", query_prefix=BGE_QUERY_PREFIX)
    doc = bge.embed(["rollback window"])
    query = bge.embed(["rollback window"], query=True)
    assert np.allclose(doc, minilm.embed(["rollback window"]), atol=1e-5)
    assert np.allclose(query, minilm.embed([BGE_QUERY_PREFIX + "rollback window"]), atol=1e-5)


def test_hash_embedder_is_deterministic():
    a, b = HashEmbedder(64), HashEmbedder(64)
    assert np.array_equal(a.embed(["deploy freeze"]), b.embed(["deploy freeze"]))
    assert a.embed([]).shape == (0, 64)


def test_small_batches_run_on_one_thread_and_restore_the_setting(minilm_st):
    import torch

    from synthesis.embedding import _torch_threads

    before = torch.get_num_threads()
    with _torch_threads(1):
        assert torch.get_num_threads() == 1
    assert torch.get_num_threads() == before
    minilm_st.embed(["a query"], query=True)
    assert torch.get_num_threads() == before

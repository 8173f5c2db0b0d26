"""Queries never import torch, and a knowledge base built with one backend is queried with the other."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from synthesis.config import Settings
from synthesis.models import Chunk
from synthesis.retrieval import Retriever
from synthesis.store import KnowledgeStore

from ..conftest import ROOT

HEAVY = ("torch", "transformers", "sentence_transformers")
UNUSED_OFFLINE = ("anthropic", "slack_bolt", "aiohttp")  # an offline search or ask needs neither Claude nor Slack

# Runs the real CLI in a fresh interpreter, then reports which heavy modules it imported.
CHILD = """
import json, sys
from bot.cli import main
code = main(sys.argv[1:])
print(json.dumps({"code": code, "heavy": [m for m in %r if m in sys.modules],
                  "unused": [m for m in %r if m in sys.modules],
                  "chromadb": "chromadb" in sys.modules, "onnxruntime": "onnxruntime" in sys.modules}))
""" % (HEAVY, UNUSED_OFFLINE)


def _run_cli(args: list[str], home) -> dict:
    env = {**os.environ, "SYNTHBOT_HOME": str(home), "SYNTHBOT_LOG_LEVEL": "WARNING"}
    env.pop("SYNTHBOT_EMBEDDING_BACKEND", None)
    proc = subprocess.run([sys.executable, "-c", CHILD, *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=240)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("args", [
    ["search", "How quickly must a failed deploy be rolled back?", "--k", "3"],
    ["ask", "Who approves a production hotfix?", "--json"],
])
def test_search_and_ask_never_import_torch(demo_store, minilm, args):
    assert minilm.backend == "onnx", getattr(minilm, "fallback_reason", None)  # the export exists for the child too
    got = _run_cli(args, demo_store.home)
    assert got["code"] == 0
    assert got["heavy"] == [], f"the query path imported {got['heavy']}"
    assert got["unused"] == [], f"an offline {args[0]} imported {got['unused']}"
    assert got["onnxruntime"]


def test_help_imports_neither_the_store_nor_a_model(tmp_path):
    proc = subprocess.run([sys.executable, "-c", CHILD.replace("code = main(sys.argv[1:])", """
try:
    main(["--help"])
except SystemExit as exit:
    code = exit.code
""")], cwd=ROOT, capture_output=True, text=True, timeout=120, env={**os.environ, "SYNTHBOT_HOME": str(tmp_path)})
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got["code"] == 0 and "ingest" in proc.stdout
    assert got["heavy"] == [] and not got["chromadb"] and not got["onnxruntime"]


def _chunks() -> list[Chunk]:
    texts = {
        "rollback": "Roll back a failed deploy within 15 minutes; the on-call engineer decides.",
        "hotfix": "A production hotfix is approved by the on-call lead before it ships.",
        "lunch": "The Friday lunch menu rotates between tacos and curry.",
        "dr": "The quarterly disaster-recovery test fails traffic over to the secondary region.",
    }
    return [Chunk(id=f"{key}-0", doc_id=key, text=text, title=key, source_url=f"{key}.md", chunk_index=0,
                  chunk_count=1, doc_hash=key) for key, text in texts.items()]


@pytest.mark.parametrize("build, query", [("minilm_st", "minilm"), ("minilm", "minilm_st")])
def test_a_collection_built_with_one_backend_is_queried_with_the_other(tmp_path, request, build, query):
    builder, asker = request.getfixturevalue(build), request.getfixturevalue(query)
    assert builder.backend != asker.backend
    settings = Settings(_env_file=None, home=tmp_path / "home")
    chunks = _chunks()
    KnowledgeStore.open(settings, builder).upsert(chunks, builder.embed([c.text for c in chunks]))
    store = KnowledgeStore.open(settings, asker)
    store.collection()  # the model-mismatch check: same model, either backend, so it must not refuse
    resp = Retriever(store).search("who signs off on a hotfix to production", k=2, mode="dense")
    assert resp.results[0].doc_id == "hotfix"
    stored = store.get(["hotfix-0"], embeddings=True)["embeddings"][0]
    assert float(asker.embed([chunks[1].text])[0] @ stored) >= 0.9999

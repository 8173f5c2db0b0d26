"""`synthbot eval beir` end to end on a tiny BEIR dataset (real Chroma, real model), and the loader's errors."""

from __future__ import annotations

import json

import pytest

from bot.cli import main
from bot.cli.eval import default_collection
from synthesis.errors import EvaluationError
from synthesis.evaluate import corpus_complete, load_beir

DOCS = {
    "d1": ("Glacier retreat", "Alpine glaciers have lost a third of their ice volume since 1980 due to warming."),
    "d2": ("Coffee and sleep", "Caffeine taken six hours before bedtime measurably shortens total sleep time."),
    "d3": ("Octopus cognition", "Octopuses solve puzzles and use coconut shells as portable shelters."),
    "d4": ("Bridge corrosion", "Chloride from de-icing salt corrodes the steel reinforcement of concrete bridges."),
    "d5": ("Sourdough starters", "Wild yeast and lactic acid bacteria leaven sourdough bread and make it tangy."),
}
QUERIES = {"q1": "Does caffeine before bed reduce how long you sleep?",
           "q2": "Do octopuses use tools such as coconut shells?",
           "q3": "Why do road salts damage concrete bridges?",
           "q9": "an unjudged query that must be ignored"}
QRELS = [("q1", "d2", 1), ("q2", "d3", 1), ("q3", "d4", 2)]


def write_beir(root, *, qrels_split="test"):
    (root / "qrels").mkdir(parents=True)
    (root / "corpus.jsonl").write_text("".join(
        json.dumps({"_id": i, "title": t, "text": x}) + "\n" for i, (t, x) in DOCS.items()))
    (root / "queries.jsonl").write_text("".join(json.dumps({"_id": i, "text": t}) + "\n" for i, t in QUERIES.items()))
    (root / "qrels" / f"{qrels_split}.tsv").write_text(
        "query-id\tcorpus-id\tscore\n" + "".join(f"{q}\t{d}\t{s}\n" for q, d, s in QRELS))
    return root


@pytest.fixture
def tiny_beir(tmp_path):
    return write_beir(tmp_path / "tiny-set")


def test_loader_reads_only_judged_queries(tiny_beir):
    ds = load_beir(tiny_beir, "test")
    assert list(ds.queries) == ["q1", "q2", "q3"]
    assert ds.qrels["q3"] == {"d4": 2}
    assert sorted(ds.corpus_ids()) == sorted(DOCS)


def test_loader_names_what_is_missing(tmp_path, tiny_beir):
    with pytest.raises(EvaluationError, match="not found"):
        load_beir(tmp_path / "nope")
    with pytest.raises(EvaluationError, match=r"qrels/dev\.tsv.*splits present: test"):
        load_beir(tiny_beir, "dev")
    (tiny_beir / "queries.jsonl").unlink()
    with pytest.raises(EvaluationError, match="queries.jsonl"):
        load_beir(tiny_beir)


def test_loader_rejects_judgements_for_unknown_queries(tmp_path):
    root = write_beir(tmp_path / "bad")
    with (root / "qrels" / "test.tsv").open("a") as fh:
        fh.write("q404\td1\t1\n")
    with pytest.raises(EvaluationError, match="q404"):
        load_beir(root)


def test_default_collection_is_a_valid_chroma_name(tmp_path):
    assert default_collection(tmp_path / "scifact") == "beir-scifact"
    assert default_collection(tmp_path / "My Data!") == "beir-my-data"


def test_eval_beir_cli_ingests_once_and_scores_every_mode(tiny_beir, tmp_path, monkeypatch, capsys, minilm):
    monkeypatch.setenv("SYNTHBOT_HOME", str(tmp_path / "home"))
    assert main(["eval", "beir", str(tiny_beir), "--mode", "all", "--json"]) == 0
    out, err = capsys.readouterr()
    doc = json.loads(out)
    assert doc["collection"] == "beir-tiny-set" and doc["chunks"] >= len(DOCS) and "ingested 5 documents" in err
    by_mode = {r["mode"]: r for r in doc["results"]}
    assert set(by_mode) == {"dense", "lexical", "hybrid"}
    for mode, r in by_mode.items():
        assert r["queries"] == 3
        # Each query has one clearly matching document among unrelated ones: every mode must rank it first.
        assert r["metrics"] == {"ndcg@10": 1.0, "recall@100": 1.0, "mrr@10": 1.0}, mode
        assert r["latency_ms"]["total"]["n"] == 3
        assert r["underfilled"] == 3  # five documents can never fill 100
    assert {"embed", "dense", "lexical", "fuse", "total"} <= set(by_mode["hybrid"]["latency_ms"])

    # The collection is complete now: a second run skips ingest and prints tables.
    assert main(["eval", "beir", str(tiny_beir), "--k", "1"]) == 0
    out, err = capsys.readouterr()
    assert "ingested" not in err
    assert "nDCG@1" in out and "hybrid" in out and "latency" in out


def test_corpus_complete_notices_a_missing_chunk(tiny_beir, settings, minilm):
    from synthesis.evaluate import ensure_corpus
    from synthesis.store import KnowledgeStore

    store = KnowledgeStore.open(settings, minilm, collection="beir-tiny")
    ds = load_beir(tiny_beir)
    assert not corpus_complete(store, ds)
    assert ensure_corpus(store, ds).documents == len(DOCS)
    assert corpus_complete(store, ds) and ensure_corpus(store, ds) is None
    victim = next(iter(store.doc_states()["d3"].ids))
    store.delete([victim])  # as if a build were killed half-way
    assert not corpus_complete(store, ds)
    ensure_corpus(store, ds)
    assert corpus_complete(store, ds)


def test_eval_beir_cli_missing_dir_exits_2(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SYNTHBOT_HOME", str(tmp_path / "home"))
    assert main(["eval", "beir", str(tmp_path / "missing")]) == 2
    assert "not found" in capsys.readouterr().err

"""Precision and recall of the offline contradiction detector on SciFact claim/rationale pairs.

Each SciFact evidence row pairs a claim with rationale sentences from one abstract, labelled SUPPORT or CONTRADICT.
CONTRADICT is the positive class: the detector "fires" on a pair when `compare(claim, sentence)` finds a conflict
for any rationale sentence. BEIR's corpus.jsonl joins each abstract's sentences into one text, so sentences are
re-split here (the indices may be off by one on some abstracts; the figure is an honest estimate, not exact).

    .venv/bin/python -m benchmarks.contradictions                 # train + validation, rule breakdown
    .venv/bin/python -m benchmarks.contradictions --split validation --examples 5
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import time
from collections import Counter
from pathlib import Path

from benchmarks._common import SCIFACT_DIR, write_result
from synthesis.synthesize.contradictions import compare

_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\[])")


def abstract_sentences(text: str) -> list[str]:
    return [s.strip() for s in _SPLIT.split(text.strip()) if s.strip()]


def load_pairs(scifact: Path, split: str) -> list[dict]:
    corpus: dict[str, list[str]] = {}
    with (scifact / "corpus.jsonl").open() as fh:
        for line in fh:
            doc = json.loads(line)
            corpus[str(doc["_id"])] = abstract_sentences(doc.get("text", ""))
    pairs = []
    with (scifact / f"claims_{split}.csv").open(newline="") as fh:
        for row in csv.DictReader(fh):
            label = row.get("evidence_label", "")
            if label not in ("SUPPORT", "CONTRADICT"):
                continue
            sentences = corpus.get(str(row["evidence_doc_id"]), [])
            idx = [int(n) for n in re.findall(r"\d+", row["evidence_sentences"] or "")]  # "[1 9]" or "[1, 9]"
            rationale = [sentences[i] for i in idx if 0 <= i < len(sentences)]
            if rationale:
                pairs.append({"claim": row["claim"], "rationale": rationale, "positive": label == "CONTRADICT"})
    return pairs


def evaluate(pairs: list[dict]) -> dict:
    tp = fp = fn = tn = 0
    rules: Counter[str] = Counter()
    true_rules: Counter[str] = Counter()
    hits, misses = [], []
    for pair in pairs:
        conflict = next((c for s in pair["rationale"] if (c := compare(pair["claim"], s))), None)
        fired = conflict is not None
        if fired:
            rules[conflict.kind] += 1
        if fired and pair["positive"]:
            tp += 1
            true_rules[conflict.kind] += 1
            hits.append((pair, conflict))
        elif fired:
            fp += 1
            misses.append((pair, conflict))
        elif pair["positive"]:
            fn += 1
        else:
            tn += 1
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"pairs": len(pairs), "positives": tp + fn, "negatives": fp + tn, "tp": tp, "fp": fp, "fn": fn, "tn": tn,
            "precision": round(precision, 3), "recall": round(recall, 3), "f1": round(f1, 3),
            "fired_by_rule": dict(rules), "true_positives_by_rule": dict(true_rules),
            "_hits": hits, "_false_positives": misses}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=["train", "validation", "all"], default="all")
    parser.add_argument("--scifact", type=Path, default=SCIFACT_DIR)
    parser.add_argument("--examples", type=int, default=0, help="print N true and N false positives")
    parser.add_argument("--no-write", action="store_true", help="do not write benchmarks/results/contradictions.json")
    args = parser.parse_args(argv)
    splits = ["train", "validation"] if args.split == "all" else [args.split]
    report = {}
    for split in splits:
        started = time.perf_counter()
        result = evaluate(load_pairs(args.scifact, split))
        result["seconds"] = round(time.perf_counter() - started, 2)
        hits, false_pos = result.pop("_hits"), result.pop("_false_positives")
        report[split] = result
        print(f"{split:>10}: pairs={result['pairs']} (contradict={result['positives']}) precision={result['precision']}"
              f" recall={result['recall']} f1={result['f1']} fired_by_rule={result['fired_by_rule']}")
        for title, items in (("true positives", hits), ("false positives", false_pos)):
            for pair, conflict in items[:args.examples]:
                print(f"  [{title}] {conflict.kind} '{conflict.subject}' {conflict.a_value} {conflict.b_value}\n"
                      f"    claim: {pair['claim']}\n    evidence: {' | '.join(pair['rationale'])[:300]}")
    if not args.no_write:
        print("wrote", write_result("contradictions", {"detector": "synthesis.synthesize.contradictions.compare",
                                                        "splits": report}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Answer quality on a second real corpus: SciFact claims asked of the ~10k-chunk SciFact store, offline.

    .venv/bin/python -m benchmarks.scifact_answers [--n 100]

Each validation claim with rationale sentences (SUPPORT or CONTRADICT) is asked as written. The papers' own
rationale sentences are the gold: the answer *holds the evidence* when its summary (or summary + findings) quotes
one of them. Reported beside it, as the issue-7 report did: the share of claims whose gold paper was in the
retrieved context at all, and whose rationale sentence was among the candidate sentences the reader saw — so the
losses after retrieval show. A claim is a statement, not a question, so this checks the reader on text it was not
tuned on (scientific abstracts, declarative queries); nothing here is graded by hand.

Rationale indices come from the original SciFact release; BEIR's corpus joins an abstract's sentences into one text,
so sentences are re-split (as in benchmarks/contradictions.py) and a gold sentence is matched by its first 60
normalised characters, which tolerates the odd split that moved by one.
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import json
import re
import sys
import time

from benchmarks._common import SCIFACT_DIR, bench_settings, write_result
from benchmarks.contradictions import abstract_sentences
from benchmarks.scifact import CACHE_DIR, COLLECTION, scifact_store

PREFIX = 60


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def load_claims(split: str = "validation") -> list[dict]:
    """Claims with their gold rationale sentences, grouped by claim: {id, claim, docs: {doc_id: [sentence, …]}}."""
    corpus: dict[str, list[str]] = {}
    with (SCIFACT_DIR / "corpus.jsonl").open() as fh:
        for line in fh:
            doc = json.loads(line)
            corpus[str(doc["_id"])] = abstract_sentences(doc.get("text", ""))
    claims: dict[str, dict] = {}
    with (SCIFACT_DIR / f"claims_{split}.csv").open(newline="") as fh:
        for row in csv.DictReader(fh):
            doc, label = row["evidence_doc_id"], row["evidence_label"]
            if not doc or label not in ("SUPPORT", "CONTRADICT") or doc not in corpus:
                continue
            indices = [int(i) for i in re.findall(r"\d+", row["evidence_sentences"])]
            sentences = [corpus[doc][i] for i in indices if i < len(corpus[doc])]
            if sentences:
                entry = claims.setdefault(row["id"], {"id": row["id"], "claim": row["claim"], "docs": {}})
                entry["docs"].setdefault(doc, []).extend(sentences)
    return list(claims.values())


def _holds(text: str, gold: list[str]) -> bool:
    norm = _norm(text)
    return any(_norm(g)[:PREFIX] in norm for g in gold if _norm(g))


async def _run(n: int) -> dict:
    from synthesis.agent import build_agent

    store = scifact_store(show_progress=False)
    agent = build_agent(bench_settings(CACHE_DIR, COLLECTION), store)
    claims = load_claims()[:n]
    counts = {"claims": len(claims), "gold_paper_in_context": 0, "gold_sentence_in_context": 0,
              "in_summary": 0, "in_summary_or_findings": 0, "refused": 0}
    outcomes, seconds = [], []
    try:
        for c in claims:
            gold = [s for sentences in c["docs"].values() for s in sentences]
            started = time.perf_counter()
            result = await agent.answer(c["claim"])
            seconds.append(time.perf_counter() - started)
            context = " ".join(p.content for p in result.passages)  # the passages the answer was read from
            papers = {p.doc_id for p in result.passages}
            summary = result.synthesis.summary
            findings = " ".join(f.content for f in result.synthesis.findings)
            row = {"id": c["id"], "claim": c["claim"], "refused": result.no_answer,
                   "gold_paper_in_context": bool(papers & c["docs"].keys()),
                   "gold_sentence_in_context": _holds(context, gold),
                   "in_summary": _holds(summary, gold), "in_summary_or_findings": _holds(f"{summary} {findings}", gold)}
            for key in ("gold_paper_in_context", "gold_sentence_in_context", "in_summary", "in_summary_or_findings",
                        "refused"):
                counts[key] += int(row[key])
            outcomes.append(row)
    finally:
        agent.close()
    seconds.sort()
    return {"counts": counts, "shares": {k: round(v / max(1, len(claims)), 3) for k, v in counts.items()
                                         if k != "claims"},
            "latency_p50": round(seconds[len(seconds) // 2], 3) if seconds else None, "outcomes": outcomes}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.scifact_answers", description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100, help="validation claims to ask (default 100)")
    args = parser.parse_args(argv)
    result = asyncio.run(_run(args.n))
    c, s = result["counts"], result["shares"]
    print(f"{c['claims']} SciFact validation claims: gold paper in context {s['gold_paper_in_context']:.0%}, its "
          f"rationale sentence in context {s['gold_sentence_in_context']:.0%}, in the summary {s['in_summary']:.0%}, "
          f"in summary + findings {s['in_summary_or_findings']:.0%}, refused {s['refused']:.0%}")
    path = write_result("scifact_answers", {**result, "command": f"python -m benchmarks.scifact_answers --n {args.n}"})
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

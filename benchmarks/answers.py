"""Issue-7 answer quality on handbook-qa (the 18F/TTS handbook, 40 graded questions), offline unless a key is set.

    .venv/bin/python -m benchmarks.answers [--limit N] [--questions FILE] [--corpus DIR]

Ingests ../shared/eval/handbook-qa/corpus (or --corpus DIR) into its own store under benchmarks/.cache (unchanged
files are skipped on reruns), answers every question through the real agent, and scores them as the set's README
says. The same run as a user would type it: `synthbot eval answers ../shared/eval/handbook-qa/questions.jsonl
--corpus ../shared/eval/handbook-qa/corpus`. Writes benchmarks/results/answers.json (every answer included), or
answers-<questions file>.json for another question file.

Two more real corpora sit on this machine, with question files of the same format written for them:
    --questions benchmarks/data/npm-docs-qa.jsonl --corpus /usr/lib/node_modules/npm/docs/content
    --questions benchmarks/data/node-contributing-qa.jsonl --corpus /usr/share/doc/nodejs/contributing
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import sys
from pathlib import Path

from benchmarks._common import CACHE, REPO, bench_settings, rich_progress, setup_logging, write_result

HANDBOOK_QA = Path(os.environ.get("SYNTHBOT_HANDBOOK_QA_DIR", REPO.parent / "shared" / "eval" / "handbook-qa"))
HELDOUT = REPO / "benchmarks" / "data" / "handbook-qa-heldout.jsonl"
TARGETS = {"correct_share": 0.75, "correct_or_partly_share": 0.90, "unanswerable_refused": 4,
           "wrongly_refused_max": 1, "high_precision": 0.90, "contradiction_answers_max": 3}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.answers", description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, help="only the first N questions (development)")
    parser.add_argument("--questions", type=Path, default=HANDBOOK_QA / "questions.jsonl",
                        help="graded questions over the handbook-qa corpus (default: the set's own 40; "
                             f"{HELDOUT.relative_to(REPO)} holds 12 written after tuning)")
    parser.add_argument("--corpus", type=Path, default=HANDBOOK_QA / "corpus",
                        help="the documents the questions are about (default: handbook-qa's corpus)")
    args = parser.parse_args(argv)
    if not args.corpus.is_dir():
        parser.error(f"no corpus folder at {args.corpus}")
    setup_logging()
    from synthesis.agent import build_agent
    from synthesis.answer_eval import evaluate_answers, load_graded_questions
    from synthesis.ingest import ingest
    from synthesis.store import open_store

    questions = load_graded_questions(args.questions)[:args.limit]
    own = args.corpus == HANDBOOK_QA / "corpus"
    where = args.corpus.resolve()
    store_name = "handbook-qa" if own else (
        f"answers-{where.name}-{hashlib.blake2b(str(where).encode(), digest_size=4).hexdigest()}")
    settings = bench_settings(CACHE / store_name, store_name)
    store = open_store(settings, create=True)
    bar, update = rich_progress(f"ingest {store_name}")
    with bar:
        ingest(store, [args.corpus], progress=update)
    agent = build_agent(settings, store)
    bar, update = rich_progress("answering")
    try:
        with bar:
            report = asyncio.run(evaluate_answers(agent.answer, questions, progress=update))
    finally:
        agent.close()
    s = report.summary
    answerable = max(1, s["answerable"])
    met = {
        "correct_share": s["correct"] / answerable >= TARGETS["correct_share"],
        "correct_or_partly_share": s["correct_or_partly"] / answerable >= TARGETS["correct_or_partly_share"],
        "unanswerable_refused": s["unanswerable_refused"] >= TARGETS["unanswerable_refused"],
        "wrongly_refused": s["wrongly_refused"] <= TARGETS["wrongly_refused_max"],
        "high_precision": s["high_precision"] is None or s["high_precision"] >= TARGETS["high_precision"],
        "contradictions": s["answers_with_contradictions"] <= TARGETS["contradiction_answers_max"],
    }
    name = "answers" if args.questions == HANDBOOK_QA / "questions.jsonl" else f"answers-{args.questions.stem}"
    if not own and args.questions.stem.startswith(("questions", "handbook-qa")):
        name += f"-{store_name}"  # the handbook's questions asked of another corpus: a result file of their own
    path = write_result(name, {"questions": str(args.questions), "corpus": str(args.corpus),
                               "chunks": store.info()["count"], "summary": s,
                               "targets": TARGETS, "met": met, "outcomes": [o.model_dump() for o in report.outcomes]})
    print(f"answerable correct {s['correct']}/{s['answerable']}, with findings {s['correct_or_partly']}/"
          f"{s['answerable']}, wrongly refused {s['wrongly_refused']}, unanswerable refused "
          f"{s['unanswerable_refused']}/{s['unanswerable']}, high {s['high_correct']}/{s['high_confidence']}, "
          f"contradictions {s['answers_with_contradictions']}/{s['questions']}, p50 {s['latency_p50']}s "
          f"p90 {s['latency_p90']}s, context tokens {s['context_tokens_mean']}")
    for name, ok in met.items():
        print(f"  {name}: {'met' if ok else 'MISSED'}")
    print(f"wrote {path.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Where handbook answers are lost: for each answerable question a result file grades not correct, is every key fact in
the passages the synthesizer was given?

    .venv/bin/python -m benchmarks.failure_context [--first 20] [--last 48]

Reads benchmarks/results/answers-handbook-qa-probeN.json for N in [first, last] (written by `python -m
benchmarks.answers --questions benchmarks/data/handbook-qa-probeN.jsonl`), answers each such question again through
the real agent on the handbook store that run built, and looks for every `must_include` group in the retrieved
context, as the grader looks for it in the answer. Per type: how many failures had their key facts in the context
(lost after retrieval, in what the summary quotes) and how many did not (lost in retrieval). Writes
benchmarks/results/failure_context.json. About five minutes for 29 files on two cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from collections import Counter

from benchmarks._common import CACHE, REPO, RESULTS, bench_settings, rich_progress, setup_logging, write_result

DATA = REPO / "benchmarks" / "data"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.failure_context", description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=20, help="first probe number (default 20)")
    parser.add_argument("--last", type=int, default=48, help="last probe number (default 48)")
    args = parser.parse_args(argv)
    setup_logging()
    from synthesis.agent import build_agent
    from synthesis.answer_eval import load_graded_questions, missing_groups
    from synthesis.store import open_store

    failed = []
    for n in range(args.first, args.last + 1):
        path = RESULTS / f"answers-handbook-qa-probe{n}.json"
        if not path.exists():
            parser.error(f"no result file {path.relative_to(REPO)}: run python -m benchmarks.answers --questions "
                         f"benchmarks/data/handbook-qa-probe{n}.jsonl first")
        bad = {o["id"] for o in json.loads(path.read_text())["outcomes"] if o["answerable"] and o["grade"] != "correct"}
        failed += [q for q in load_graded_questions(DATA / f"handbook-qa-probe{n}.jsonl") if q.id in bad]
    settings = bench_settings(CACHE / "handbook-qa", "handbook-qa")
    agent = build_agent(settings, open_store(settings))
    rows = []
    bar, update = rich_progress("failures")
    with bar:
        for k, q in enumerate(failed, 1):
            result = asyncio.run(agent.answer(q.question))
            missing = missing_groups(q.must_include, "\n".join(p.content for p in result.passages))
            rows.append({"id": q.id, "type": q.type, "in_context": not missing, "missing": missing})
            update(k, len(failed))
    agent.close()
    kept = Counter(r["type"] for r in rows if r["in_context"])
    by_type = {t: {"in_context": kept[t], "failures": n} for t, n in sorted(Counter(r["type"] for r in rows).items())}
    for t, v in by_type.items():
        print(f"{t:12} key facts in the context for {v['in_context']} of {v['failures']} failures")
    out = write_result("failure_context", {"probes": [args.first, args.last], "failures": len(rows),
                                           "by_type": by_type, "rows": rows})
    print(f"wrote {out.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

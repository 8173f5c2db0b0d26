"""The issue-3 five-question check on the demo handbook (offline, real model, real Chroma).

    .venv/bin/python -m benchmarks.five_questions [--repeat 3]

One factual question, one about a key finding, one comparison, one synthesis across documents, one out of scope.
Targets: answers carry citations in >= 80 % of cases; the out-of-scope question is refused every time; no answer
contains an invalid citation (a [n] that is not one of the answer's numbered sources).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys

from benchmarks._common import CACHE, REPO, bench_settings, write_result
from synthesis import citations

QUESTIONS = [
    ("factual", "Who approves a production hotfix?"),
    ("key finding", "How long after a deploy can it still be rolled back?"),
    ("comparison", "How does a rollback differ from a hotfix?"),
    ("synthesis", "What should a new engineer know about deploys, on-call and incidents?"),
    ("out of scope", "What is the capital of France?"),
]
def _numbers(text: str) -> set[int]:
    return set(citations.find(text))


def _invalid(result) -> list[int]:
    """Citation numbers anywhere in the delivered text that are not among the answer's sources."""
    syn = result.synthesis
    valid = {s.number for s in syn.sources}
    cited = _numbers(syn.summary)
    for f in syn.findings:
        cited |= set(f.citations) | _numbers(f.content)
    for c in syn.contradictions:
        cited |= set(c.citations) | _numbers(c.description)
    return sorted(cited - valid)


async def _run(repeat: int) -> dict:
    from synthesis.agent import build_agent
    from synthesis.embedding import load_embedder
    from synthesis.ingest import ingest
    from synthesis.store import KnowledgeStore

    settings = bench_settings(CACHE / "demo-minilm", "demo")
    store = KnowledgeStore.open(settings, load_embedder(), collection="demo")
    cwd = os.getcwd()
    os.chdir(REPO)  # doc ids relative to the repository root, as in `make demo`
    try:
        ingest(store, [REPO / "examples" / "handbook"])
    finally:
        os.chdir(cwd)
    agent = build_agent(settings, store)
    rows = []
    for kind, question in QUESTIONS:
        for _ in range(repeat):
            r = await agent.answer(question)
            cited = any(f.citations for f in r.synthesis.findings)
            rows.append({"kind": kind, "question": question, "no_answer": r.no_answer, "cited": cited,
                         "findings": len(r.synthesis.findings), "invalid": _invalid(r),
                         "summary": r.synthesis.summary[:300], "seconds": round(r.duration, 3)})
    agent.close()
    in_scope = [x for x in rows if x["kind"] != "out of scope"]
    out = [x for x in rows if x["kind"] == "out of scope"]
    return {
        "rows": rows,
        "citation_rate": round(sum(x["cited"] and not x["no_answer"] for x in in_scope) / len(in_scope), 3),
        "out_of_scope_refused": f"{sum(x['no_answer'] for x in out)}/{len(out)}",
        "invalid_citations": sum(len(x["invalid"]) for x in rows),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    data = asyncio.run(_run(args.repeat))
    refused, total = map(int, data["out_of_scope_refused"].split("/"))
    data["command"] = f"python -m benchmarks.five_questions --repeat {args.repeat}"
    data["met"] = {"citations": data["citation_rate"] >= 0.8, "refused": refused == total,
                   "no_invalid": data["invalid_citations"] == 0}
    path = write_result("five_questions", data)
    for row in data["rows"][:: args.repeat]:
        print(f"{row['kind']:>13}: cited={row['cited']} no_answer={row['no_answer']} invalid={row['invalid']} "
              f"{row['seconds']}s — {row['summary'][:140]}")
    print(json.dumps({k: data[k] for k in ("citation_rate", "out_of_scope_refused", "invalid_citations", "met")}))
    print(f"wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

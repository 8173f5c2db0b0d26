"""Papers' own bracketed numbers through the offline agent: "Removed N citations" notices and changed quotes.

    .venv/bin/python -m benchmarks.document_markers [--questions 60] [--others 400]

Target (issue 7, item 7): 0 notices, 0 changed quotes, 0 claims cited to a passage that does not hold them.

The store holds every SciFact abstract that carries a bracketed number ([4], [6, 8], [12-14]) plus the first
`--others` abstracts without one. The questions are the SciFact claims (test and train) whose judged abstract
carries such a number, plus one probe per such abstract: its first sentence holding a marker, with the markers
removed, asked as is (so the answer is likely to quote it). A "changed quote" is a cited claim (or a double-quoted
part of a composed line) whose text, without our citations, is found verbatim in no retrieved passage; one found
only in a passage it does not cite counts as "cited to a passage that does not hold it".
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import json
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

from benchmarks._common import SCIFACT_DIR, bench_settings, setup_logging, write_result

_QUOTED = re.compile(r'"([^"]+)"')
MARKER = re.compile(r"\[\d+(?:\s*[,;\-–—]\s*\d+)*\]")


def _corpus(where: Path, others: int) -> tuple[Path, set[str]]:
    marked: set[str] = set()
    path = where / "corpus.jsonl"
    kept_others = 0
    with (SCIFACT_DIR / "corpus.jsonl").open(encoding="utf-8") as src, path.open("w", encoding="utf-8") as dst:
        for line in src:
            row = json.loads(line)
            if MARKER.search(row.get("text", "")):
                marked.add(str(row["_id"]))
            elif kept_others < others:
                kept_others += 1
            else:
                continue
            dst.write(line)
    return path, marked


def _probes(corpus: Path, marked: set[str]) -> list[tuple[str, str]]:
    """Per abstract with markers, its first sentence holding one, markers removed: a question it answers verbatim."""
    out = []
    with corpus.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            if str(row["_id"]) not in marked:
                continue
            for sentence in re.split(r"(?<=[.!?])\s+", row["text"]):
                if MARKER.search(sentence):
                    out.append((f"probe:{row['_id']}", re.sub(r"\s*" + MARKER.pattern, "", sentence).strip()))
                    break
    return out


def _questions(marked: set[str], limit: int) -> list[tuple[str, str]]:
    texts = {}
    with (SCIFACT_DIR / "queries.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                q = json.loads(line)
                texts[str(q["_id"])] = q["text"]
    chosen: dict[str, str] = {}
    for split in ("test", "train"):
        with (SCIFACT_DIR / "qrels" / f"{split}.tsv").open(encoding="utf-8", newline="") as fh:
            for row in csv.reader(fh, delimiter="\t"):
                if len(row) >= 2 and row[1] in marked and row[0] in texts:
                    chosen.setdefault(row[0], texts[row[0]])
    return sorted(chosen.items(), key=lambda kv: int(kv[0]) if kv[0].isdigit() else kv[0])[:limit]


def audit(result) -> dict[str, int]:
    """Notices, cited claims, changed quotes, wrong-source citations and document markers quoted in one answer."""
    from synthesis import citations

    syn = result.synthesis
    content = {p.id: p.content for p in result.passages}
    passage_of = {s.number: content.get(s.passage_id, "") for s in syn.sources}
    out = {"removed_notices": sum(1 for n in result.notices if n.startswith("Removed")), "claims": 0,
           "changed_quotes": 0, "wrong_source": 0, "markers_quoted": 0}
    for text in [syn.summary, *(f.content for f in syn.findings)]:
        for claim in citations.claims(text):
            cited = citations.find(claim)
            if not cited:
                continue  # a gap clause or a lead-in: not a quote
            plain = citations.strip(claim)
            # A composed line ('Sources disagree: "A" [1] vs "B" [2]') quotes in double quotes, maybe shortened.
            quotes = [q for seg in _QUOTED.findall(plain) for q in seg.split("…")] or [plain]
            for quote in (q.strip().rstrip(".").strip() for q in quotes):
                if not quote:
                    continue
                out["claims"] += 1
                out["markers_quoted"] += len(MARKER.findall(quote))
                if not any(quote in passage_of.get(n, "") for n in cited):
                    anywhere = any(quote in p for p in content.values())
                    out["wrong_source" if anywhere else "changed_quotes"] += 1
    return out


def run(questions: int = 60, others: int = 400) -> dict:
    from synthesis.agent import build_agent
    from synthesis.embedding import load_embedder
    from synthesis.ingest import ingest
    from synthesis.store import KnowledgeStore

    work = Path(tempfile.mkdtemp(prefix="synthbot-markers-"))
    try:
        corpus, marked = _corpus(work, others)
        settings = bench_settings(work / "home", "markers")
        store = KnowledgeStore.open(settings, load_embedder(), collection="markers")
        report = ingest(store, [corpus])
        asked = _questions(marked, questions) + _probes(corpus, marked)
        agent = build_agent(settings, store)
        totals = {"removed_notices": 0, "claims": 0, "changed_quotes": 0, "wrong_source": 0, "markers_quoted": 0}
        answers_with = {"notice": 0, "marker_quoted": 0}
        examples: list[dict] = []
        started = time.perf_counter()
        try:
            for qid, text in asked:
                result = asyncio.run(agent.answer(text))
                got = audit(result)
                for k, v in got.items():
                    totals[k] += v
                answers_with["notice"] += bool(got["removed_notices"])
                answers_with["marker_quoted"] += bool(got["markers_quoted"])
                if (got["changed_quotes"] or got["wrong_source"] or got["removed_notices"]) and len(examples) < 5:
                    examples.append({"id": qid, "question": text, **got})
        finally:
            agent.close()
        seconds = time.perf_counter() - started
    finally:
        shutil.rmtree(work, ignore_errors=True)
    bad = totals["removed_notices"] + totals["changed_quotes"] + totals["wrong_source"]
    data = {
        "command": f"python -m benchmarks.document_markers --questions {questions} --others {others}",
        "documents": report.documents, "documents_with_markers": len(marked), "questions": len(asked),
        "answers_quoting_a_marker": answers_with["marker_quoted"], "answers_with_removed_notice": answers_with["notice"],
        **totals, "seconds": round(seconds, 1), "examples": examples, "target": 0, "met": bad == 0,
    }
    path = write_result("document_markers", data)
    print(f"{len(asked)} SciFact claims over {report.documents} abstracts ({len(marked)} with bracketed numbers); "
          f"{answers_with['marker_quoted']} answers quote a paper's own marker\n"
          f"  'Removed N citations' notices: {totals['removed_notices']} "
          f"(in {answers_with['notice']} answers)\n"
          f"  cited claims: {totals['claims']}; changed quotes: {totals['changed_quotes']}; "
          f"cited to a passage that does not hold them: {totals['wrong_source']}\n"
          f"target 0: {'met' if bad == 0 else 'MISSED'}\nwrote {path}")
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.document_markers", description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=60)
    parser.add_argument("--others", type=int, default=400, help="abstracts without markers added to the store")
    args = parser.parse_args(argv)
    if not (SCIFACT_DIR / "corpus.jsonl").is_file():
        print(f"no SciFact corpus at {SCIFACT_DIR} — set SYNTHBOT_SCIFACT_DIR", file=sys.stderr)
        return 2
    setup_logging()
    return 0 if run(args.questions, args.others)["met"] else 1


if __name__ == "__main__":
    sys.exit(main())

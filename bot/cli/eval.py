"""`synthbot eval beir DIR` (nDCG@10, Recall@100, MRR@10, stage latency), `synthbot eval queries FILE.yaml` and
`synthbot eval answers QUESTIONS.jsonl` (answer quality on graded questions)."""

from __future__ import annotations

import json
import re
from contextlib import contextmanager
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from . import output_path, write_output

MODES = ("hybrid", "dense", "lexical")


def register(sub) -> None:
    p = sub.add_parser("eval", help="measure retrieval (a BEIR dataset, a known-queries file) or answers (graded "
                                    "questions)")
    ev = p.add_subparsers(dest="eval_command", required=True, metavar="KIND")

    b = ev.add_parser("beir", help="nDCG@k, Recall@100, MRR@k and stage latency on a BEIR dataset")
    b.add_argument("dir", type=Path, help="BEIR folder: corpus.jsonl, queries.jsonl, qrels/<split>.tsv")
    b.add_argument("--split", default="test")
    b.add_argument("--mode", choices=(*MODES, "all"), default="hybrid")
    b.add_argument("--k", type=int, default=10, help="cut-off for nDCG and MRR (default 10)")
    b.add_argument("--collection", help="collection to ingest into and search (default: beir-<dir name>)")
    b.add_argument("--limit", type=int, help="evaluate only the first N queries")
    b.add_argument("--depth", type=int, default=200, help="chunks retrieved per query (to fill 100 documents)")
    b.add_argument("--json", action="store_true")
    b.set_defaults(func=run_beir)

    q = ev.add_parser("queries", help="check that known queries find their expected documents")
    q.add_argument("file", type=Path, help="YAML: queries: [{query, expect_doc_id | expect_source_url, k}]")
    q.add_argument("--mode", choices=(*MODES, "all"), default="hybrid")
    q.add_argument("--collection", help="collection to search (default: SYNTHBOT_COLLECTION)")
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=run_queries)

    a = ev.add_parser("answers", help="answer graded questions through the agent and score the answers",
                      description="Run every question of a JSON Lines file (handbook-qa format) through the agent "
                                  "and score it: correct / partly / wrong per type, unanswerable handled, wrongly "
                                  "refused, precision of 'high' confidence, contradictions, latency, context tokens. "
                                  "Uses Claude when ANTHROPIC_API_KEY is set, the offline synthesizer otherwise.")
    a.add_argument("file", type=Path, help="JSON Lines: {id, question, type, answerable, must_include, ...}")
    a.add_argument("--corpus", type=Path, help="ingest this folder first (unchanged files are skipped on reruns)")
    a.add_argument("--collection", help="collection to ask (default: answers-<corpus dir> with --corpus, "
                                        "else SYNTHBOT_COLLECTION)")
    a.add_argument("--limit", type=int, help="only the first N questions")
    a.add_argument("--out", type=Path, help="also write the full report (every answer) as JSON to this file")
    a.add_argument("--json", action="store_true")
    a.set_defaults(func=run_answers)


def default_collection(root: Path) -> str:
    """`beir-<dir name>`, reduced to what Chroma accepts in a collection name."""
    slug = re.sub(r"[^a-z0-9._-]+", "-", root.resolve().name.lower()).strip("-._") or "dataset"
    return f"beir-{slug}"[:63]


@contextmanager
def _bar(console: Console, description: str):
    bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   console=console, transient=True)
    task = bar.add_task(description, total=None)

    def update(*args) -> None:  # ingest calls (stage, done, total); evaluation calls (done, total)
        *stage, done, total = args
        bar.update(task, completed=done, total=total or None,
                   description=f"{description}: {stage[0]}" if stage else description)

    with bar:
        yield update


def _modes(mode: str) -> tuple[str, ...]:
    return ("dense", "lexical", "hybrid") if mode == "all" else (mode,)


def run_beir(args, settings) -> int:
    from synthesis.errors import InvalidQuery
    from synthesis.evaluate import ensure_corpus, evaluate_beir, load_beir
    from synthesis.retrieval import Retriever
    from synthesis.store import open_store

    if args.k < 1 or args.k > 100:
        raise InvalidQuery(f"--k must be between 1 and 100, got {args.k}")
    err = Console(stderr=True)
    dataset = load_beir(args.dir, args.split)
    store = open_store(settings, collection=args.collection or default_collection(args.dir), create=True)
    with _bar(err, f"ingest {dataset.corpus}") as update:
        report = ensure_corpus(store, dataset, progress=update)
    if report is not None:
        err.print(f"ingested {report.documents} documents ({report.chunks} chunks) into '{store.name}' "
                  f"in {report.seconds:.1f}s", highlight=False)
    retriever = Retriever(store)
    results = []
    for mode in _modes(args.mode):
        with _bar(err, f"{dataset.name} {args.split} {mode}") as update:
            results.append(evaluate_beir(retriever, dataset, mode=mode, k=args.k, depth=max(args.depth, args.k),
                                         limit=args.limit, progress=update))
    info = store.info()
    doc = {"dataset": dataset.name, "split": args.split, "collection": store.name, "model": info["model"],
           "chunks": info["count"], "k": args.k,
           "results": [{**r.model_dump(exclude={"ndcg", "recall", "mrr"}), "metrics": r.metrics} for r in results]}
    if args.json:
        print(json.dumps(doc, indent=2))
        return 0
    out = Console()
    table = Table(title=f"{dataset.name} {args.split}: {results[0].queries} queries, {info['count']} chunks, "
                        f"{info['model']}")
    for col in ("mode", f"nDCG@{args.k}", "Recall@100", f"MRR@{args.k}", "seconds"):
        table.add_column(col, justify="left" if col == "mode" else "right")
    for r in results:
        table.add_row(r.mode, f"{r.ndcg:.4f}", f"{r.recall:.4f}", f"{r.mrr:.4f}", f"{r.seconds:.1f}")
    out.print(table)
    lat = Table(title="latency per query (ms)")
    for col in ("mode", "stage", "p50", "p95"):
        lat.add_column(col, justify="left" if col in ("mode", "stage") else "right")
    for r in results:
        for stage, s in r.latency_ms.items():
            lat.add_row(r.mode, stage, f"{s['p50']:.1f}", f"{s['p95']:.1f}")
    out.print(lat)
    short = [r for r in results if r.underfilled]
    for r in short:
        out.print(f"note: {r.mode}: {r.underfilled} queries found fewer than 100 distinct documents in {args.depth} "
                  "chunks (Recall@100 counts what was found; raise --depth to retrieve more)")
    return 0


def run_queries(args, settings) -> int:
    from synthesis.evaluate import load_known_queries, run_known_queries
    from synthesis.retrieval import Retriever
    from synthesis.store import open_store

    queries = load_known_queries(args.file)  # parse first: a bad file fails before the model loads
    store = open_store(settings, collection=args.collection)
    store.collection()  # KnowledgeBaseMissing / ModelMismatch surface here, with their fix
    retriever = Retriever(store)
    err = Console(stderr=True)
    reports = []
    for mode in _modes(args.mode):
        with _bar(err, f"known queries ({mode})") as update:
            reports.append(run_known_queries(retriever, queries, mode=mode, progress=update))
    failed = sum(r.failed for r in reports)
    if args.json:
        print(json.dumps({"file": str(args.file), "collection": store.name, "results": [
            {"mode": r.mode, "passed": r.passed, "failed": r.failed, "mrr": r.mrr,
             "outcomes": [o.model_dump() for o in r.outcomes]} for r in reports]}, indent=2))
        return 1 if failed else 0
    out = Console()
    for r in reports:
        table = Table(title=f"{args.file} · {r.mode} · collection '{store.name}'")
        for col in ("", "query", "expected", "rank", "got instead"):
            table.add_column(col, overflow="fold")
        for o in r.outcomes:
            table.add_row("[green]PASS[/]" if o.passed else "[red]FAIL[/]", o.query, o.expected,
                          f"{o.rank}/{o.k}" if o.rank else f"-/{o.k}", "" if o.passed else ", ".join(o.top))
        out.print(table)
        colour = "green" if not r.failed else "red"
        out.print(f"[{colour}]{r.mode}: {r.passed} passed, {r.failed} failed[/] of {len(r.outcomes)} · "
                  f"MRR {r.mrr:.3f}", highlight=False)
    return 1 if failed else 0



def run_answers(args, settings) -> int:
    import asyncio

    from synthesis.agent import build_agent
    from synthesis.answer_eval import evaluate_answers, load_graded_questions, write_report
    from synthesis.store import open_store

    if args.limit is not None and args.limit < 1:
        from synthesis.errors import EvaluationError
        raise EvaluationError(f"--limit must be at least 1 (got {args.limit})")
    if args.out:
        output_path(args.out, "--out")  # before the run, so a bad path loses no answers
    questions = load_graded_questions(args.file)[:args.limit]  # a bad file fails before the model loads
    err = Console(stderr=True, highlight=False)
    if args.corpus is not None:
        if not args.corpus.is_dir():
            from synthesis.errors import EvaluationError
            raise EvaluationError(f"--corpus {args.corpus} is not a directory")
        from synthesis.ingest import ingest

        store = open_store(settings, collection=args.collection or default_collection(args.corpus).replace(
            "beir-", "answers-", 1), create=True)
        with _bar(err, f"ingest {args.corpus}") as update:
            report = ingest(store, [args.corpus], progress=update)
        err.print(f"'{store.name}': {report.chunks} new chunks from {args.corpus}")
    else:
        store = open_store(settings, collection=args.collection)
        store.collection()  # "run synthbot ingest" before any work
    agent = build_agent(settings, store)
    try:
        with _bar(err, f"answering {len(questions)} questions") as update:
            result = asyncio.run(evaluate_answers(agent.answer, questions, progress=update))
    finally:
        agent.close()
    # the results are still printed; the error follows them
    report_error = write_output(args.out, "--out", lambda out: write_report(result, out)) if args.out else None
    s = result.summary
    if args.json or report_error is not None:  # the report the file was to hold, whole, so no answer is lost
        print(json.dumps({"file": str(args.file), "collection": store.name, "summary": s,
                          "outcomes": [o.model_dump() for o in result.outcomes]}, indent=2))
        if report_error is not None:
            raise report_error
        return 0
    out = Console(highlight=False)
    table = Table(title=f"{args.file} · {len(questions)} questions · collection '{store.name}' · {s['synthesizer']}")
    for col in ("", "id", "type", "confidence", "question", "missing"):
        table.add_column(col, overflow="fold")
    colours = {"correct": "green", "partly": "yellow", "wrong": "red"}
    for o in result.outcomes:
        label = o.grade + (" (refused)" if o.refused else "")
        table.add_row(f"[{colours[o.grade]}]{label}[/]", o.id, o.type, o.confidence, o.question,
                      " · ".join("/".join(g) for g in o.missing))
    out.print(table)
    per_type = Table(title="per type")
    for col in ("type", "correct", "partly", "wrong"):
        per_type.add_column(col, justify="left" if col == "type" else "right")
    for t, counts in s["by_type"].items():
        per_type.add_row(t, *(str(counts.get(g, 0)) for g in ("correct", "partly", "wrong")))
    out.print(per_type)
    high = f"{s['high_correct']}/{s['high_confidence']}" if s["high_confidence"] else "none"
    out.print(f"answerable: {s['correct']}/{s['answerable']} correct in the summary, "
              f"{s['correct_or_partly']}/{s['answerable']} in summary + findings, "
              f"{s['wrongly_refused']} wrongly refused · unanswerable refused: "
              f"{s['unanswerable_refused']}/{s['unanswerable']} · 'high' answers correct: {high} · "
              f"answers with contradictions: {s['answers_with_contradictions']}/{s['questions']} · "
              f"latency p50 {s['latency_p50']:.2f}s p90 {s['latency_p90']:.2f}s · "
              f"context tokens mean {s['context_tokens_mean']:.0f}")
    return 0

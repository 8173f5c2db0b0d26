"""`synthbot inquiry QUESTION.md`: one cited, bounded-context synthesis per question, as the inquiry spec's JSON."""

from __future__ import annotations

import sys

from rich.console import Console
from rich.markup import escape

from . import output_path, write_output


def register(sub) -> None:
    p = sub.add_parser("inquiry", help="synthesize an answer to every question of a QUESTION.md",
                       description="Parse QUESTION.md (numbered, headed or bulleted questions, with [tags: …] and "
                                   "(priority: …) metadata), retrieve k paragraphs per question, write one cited "
                                   "synthesis each from a bounded context, and report which paragraphs were used.")
    p.add_argument("path", metavar="QUESTION.md", help="the question file (or a directory holding one, or an id)")
    p.add_argument("--id", dest="inquiry_id", metavar="INQ-001", help="inquiry id (default: the file's, or a hash)")
    p.add_argument("--k", type=int, default=7, help="paragraphs retrieved per question (default 7)")
    p.add_argument("--threshold", type=float, default=0.6,
                   help="warn when a question's best cosine similarity is below this (default 0.6)")
    p.add_argument("--diversity", type=float, default=0.3, help="MMR diversity 0..1 (default 0.3)")
    p.add_argument("--weight-length", action="store_true", help="gently prefer longer paragraphs over one-liners")
    p.add_argument("--out", metavar="FILE", help="write the result here instead of standard output")
    p.add_argument("--include-embeddings", action="store_true", help="include each question's embedding")
    p.add_argument("--format", choices=("json", "md"), default="json", help="json (the spec's fields) or md")
    p.add_argument("--collection", metavar="NAME", help="collection to ask (default: SYNTHBOT_COLLECTION)")
    p.set_defaults(func=run)


def run(args, settings) -> int:
    from synthesis.errors import InvalidQuery
    from synthesis.inquiry import resolve_question_file, synthesize_inquiry
    from synthesis.questions import load_questions
    from synthesis.usage import open_usage_log

    if args.k < 1:
        raise InvalidQuery(f"--k must be at least 1 (got {args.k})")
    for name in ("threshold", "diversity"):
        if not 0 <= getattr(args, name) <= 1:
            raise InvalidQuery(f"--{name} must be between 0 and 1 (got {getattr(args, name)})")
    if args.out:
        output_path(args.out, "--out")  # before the synthesis, so a bad path loses no answers
    path, _ = resolve_question_file(args.path, settings)
    questions = load_questions(path)  # a file without questions fails here, before the model loads
    from synthesis.agent import build_agent
    from synthesis.store import open_store

    store = open_store(settings, collection=args.collection)
    store.collection()
    agent = build_agent(settings, store)
    err = Console(stderr=True, highlight=False)
    usage = open_usage_log(settings)
    try:
        result = _with_progress(err, len(questions.questions), lambda progress: synthesize_inquiry(
            path, k=args.k, threshold=args.threshold, diversity=args.diversity, weight_length=args.weight_length,
            include_embeddings=args.include_embeddings, inquiry_id=args.inquiry_id, settings=settings, store=store,
            agent=agent, usage=usage, progress=progress))
    finally:
        agent.close()
        usage.close()
    for warning in result.warnings:
        err.print(f"[yellow]warning:[/] {escape(warning)}")
    text = result.to_json() if args.format == "json" else to_markdown(result)
    if args.out:
        error = write_output(args.out, "--out", lambda out: out.write_text(text + "\n", encoding="utf-8"))
        if error is not None:
            sys.stdout.write(text + "\n")
            raise error
        review = sum(q.needs_review for q in result.questions)
        err.print(f"wrote {escape(args.out)}: {len(result.questions)} questions, {review} need review, "
                  f"{result.coverage.retrieved_paragraphs}/{result.coverage.total_paragraphs} paragraphs used "
                  f"({result.seconds:.1f}s)")
    else:
        sys.stdout.write(text + "\n")
    return 0


def _with_progress(err: Console, total: int, work):
    """A progress bar across questions on stderr (plain when stderr is not a terminal)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn("[bold]inquiry[/]"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TextColumn("{task.description}"), console=err, transient=False,
                  disable=not err.is_terminal) as bar:
        task = bar.add_task("", total=total)

        def progress(done: int, _total: int, question: str) -> None:
            bar.update(task, completed=done, description=escape(question[:60]))

        return work(progress)


def to_markdown(result) -> str:
    """A readable report: per question the synthesis, its paragraphs and any warning; then coverage."""
    lines = [f"# Inquiry {result.inquiry_id}" + (f": {result.title}" if result.title else ""), ""]
    warned = {w.split(":", 1)[0]: w.split(":", 1)[1].strip() for w in result.warnings}
    for q in result.questions:
        lines += [f"## {q.question_id}. {q.question_text}", ""]
        meta = {k: v for k, v in q.metadata.items() if k in ("tags", "priority")}
        if meta:
            lines += ["*" + "; ".join(f"{k}: {', '.join(v) if isinstance(v, list) else v}" for k, v in meta.items())
                      + "*", ""]
        if q.question_id in warned:
            lines += [f"> ⚠ {warned[q.question_id]}", ""]
        if q.needs_review:
            lines += ["**Needs review:** no cited synthesis could be written from the retrieved paragraphs.", ""]
        if q.synthesis:
            lines += [q.synthesis, ""]
        lines += ["| # | paragraph | source | similarity |", "|---|---|---|---|"]
        for n, p in enumerate(q.retrieved_paragraphs, start=1):
            lines.append(f"| [{n}] | {p.index} | {p.source_file.replace('|', '/')} | {p.similarity_score:.2f} |")
        lines += ["", f"Context: {q.context_tokens} tokens · synthesis: {q.synthesis_tokens} tokens", ""]
    c = result.coverage
    lines += ["## Coverage", "", f"{c.retrieved_paragraphs} of {c.total_paragraphs} paragraphs retrieved "
              f"({c.retrieval_rate:.1%}); {len(c.unretrieved_indices)} never retrieved.", ""]
    return "\n".join(lines)

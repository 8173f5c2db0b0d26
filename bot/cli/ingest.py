"""`synthbot ingest PATH... [--collection NAME] [--prune] [--json]`: add or update documents in the knowledge base."""

from __future__ import annotations

from collections import Counter

from rich.console import Console

from .terminal import printable

SHOW_SKIPPED = 20  # longer lists are summarised by reason; --json has them all


def register(sub) -> None:
    p = sub.add_parser(
        "ingest", help="add or update documents (Markdown, text, HTML, BEIR JSONL, paragraph JSON)",
        description="Ingest files and directories (walked recursively, hidden entries skipped). Safe to rerun: "
                    "unchanged documents are not re-embedded, changed ones are replaced, and an interrupted run "
                    "is completed by the next one.",
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="files or directories")
    p.add_argument("--collection", default=None, help="collection name (default: SYNTHBOT_COLLECTION or 'synthbot')")
    p.add_argument("--prune", action="store_true", help="remove stored documents whose source file under PATH is gone")
    p.add_argument("--json", action="store_true", help="print the ingest report as JSON")
    p.set_defaults(func=run)


class _Bar:
    """A transient rich progress bar on stderr, shown only on a terminal (long runs; quiet in pipes and tests)."""

    LABELS = {"read": "reading files", "chunk": "chunking", "embed": "embedding"}

    def __init__(self, console: Console) -> None:
        self.console = console
        self.progress = None
        self.tasks: dict[str, int] = {}

    def __enter__(self) -> "_Bar":
        if self.console.is_terminal:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            self.progress = Progress(TextColumn("{task.description:<14}"), BarColumn(), MofNCompleteColumn(),
                                     TimeRemainingColumn(), console=self.console, transient=True)
            self.progress.start()
        return self

    def __exit__(self, *exc) -> None:
        if self.progress is not None:
            self.progress.stop()

    def update(self, stage: str, done: int, total: int) -> None:
        if self.progress is None:
            return
        if stage not in self.tasks:
            self.tasks[stage] = self.progress.add_task(self.LABELS.get(stage, stage), total=total)
        self.progress.update(self.tasks[stage], completed=done, total=total)


def summary(report) -> list[str]:
    """The human summary: documents by outcome, chunks, skipped files with reasons, time."""
    lines = [
        f"Ingested {report.documents} document{'s' * (report.documents != 1)} from {report.files} "
        f"file{'s' * (report.files != 1)} into '{report.collection}' ({report.model}) in {report.seconds:.1f}s "
        f"(embedding {report.embed_seconds:.1f}s)",
        f"  documents: {report.added} added, {report.updated} updated, {report.unchanged} unchanged, "
        f"{report.removed} removed",
        f"  chunks:    {report.chunks} in these documents; {report.embedded} embedded, "
        f"{report.reused_embeddings} reused embeddings, {report.deleted_chunks} old chunks deleted",
    ]
    if report.embedded and report.embed_seconds:
        lines[-1] += f" ({report.embedded / report.embed_seconds:.0f} chunks/s)"
    if report.skipped:
        lines.append(f"Skipped {len(report.skipped)}:")
        lines += [printable(f"  {s.path}: {s.reason}") for s in report.skipped[:SHOW_SKIPPED]]
        rest = report.skipped[SHOW_SKIPPED:]
        if rest:
            by_reason = Counter(s.reason.split(" (")[0] for s in rest)
            lines.append(f"  … and {len(rest)} more: " + "; ".join(f"{n}× {r}" for r, n in by_reason.most_common(5))
                         + " (--json lists all)")
    return lines


def run(args, settings) -> int:
    from synthesis.ingest import ingest
    from synthesis.ingest.loaders import SUPPORTED, resolve_roots
    from synthesis.scoping import check_collection_name
    from synthesis.store import open_store

    resolve_roots(args.paths)  # a missing PATH fails before the model loads; nothing is written
    check_collection_name(args.collection or settings.collection)  # Chroma's rule, said before any work
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    store = open_store(settings, collection=args.collection, create=True)
    with _Bar(err) as bar:
        report = ingest(store, args.paths, prune=args.prune, progress=bar.update,
                        max_file_bytes=int(settings.max_file_mb * 2**20))
    if args.json:
        print(report.model_dump_json(indent=2))
    else:
        print("\n".join(summary(report)))
    if report.documents == 0:
        err.print(f"[bold red]error:[/] nothing to ingest: no supported file with text under {' '.join(args.paths)} "
                  f"(supported: {', '.join(sorted(SUPPORTED))}). Check the path and the skipped reasons above.")
        return 1
    return 0

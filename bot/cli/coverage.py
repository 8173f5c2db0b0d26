"""`synthbot coverage [TOPIC]`: inventory, retrieval coverage, gap signals and topic facets (rich table or JSON)."""

from __future__ import annotations

import sys

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from . import output_path, write_output
from .scope import add_scope_options, single_collection, visibility_from

_STATUS = {"covered": "[green]covered[/]", "thin": "[yellow]thin[/]", "gap": "[red]gap[/]"}


def register(sub) -> None:
    p = sub.add_parser("coverage", help="where the knowledge base is thin: coverage, never-retrieved pages, gaps",
                       description="Without TOPIC: documents and chunks per source, type, tag and section, what the "
                                   "retrieval log never reached, and gap signals. With TOPIC: the passages above the "
                                   "threshold per facet (tag, source, type) and the facets with few or none. "
                                   "The questions counted are one channel's only with --channel-id (the retrieval "
                                   "log records channel ids, not names).")
    p.add_argument("topic", nargs="*", help="a topic, e.g. on-call (optional)")
    p.add_argument("--threshold", type=float, default=None,
                   help="topic mode: hybrid score a passage needs to support the topic (default 0.45)")
    p.add_argument("--json", action="store_true", help="print the CoverageReport as JSON")
    p.add_argument("--chart", metavar="FILE.png", help="also write a PNG chart of coverage per facet")
    add_scope_options(p, "report on")
    p.set_defaults(func=run)


def run(args, settings) -> int:
    from synthesis.coverage import TOPIC_THRESHOLD, Scope, analyze
    from synthesis.errors import InvalidQuery
    from synthesis.usage import open_usage_log

    topic = " ".join(args.topic).strip() or None
    threshold = TOPIC_THRESHOLD if args.threshold is None else args.threshold
    if not 0 <= threshold <= 1:
        raise InvalidQuery(f"--threshold must be between 0 and 1 (got {threshold}) — scores are on 0-1")
    if args.chart:
        output_path(args.chart, "--chart")  # before the analysis, so a bad path costs no work
    visibility = visibility_from(args, settings)
    scope = Scope()
    if visibility is None:
        store, retriever = _open(settings, single_collection(args), topic)
    else:  # several collections, or a channel's view (with --channel-id, only that channel's questions)
        from synthesis.scoped import open_visibility

        agent = open_visibility(settings, visibility, surface="cli")
        agent.close()
        store, retriever = agent.store, agent.retriever
        scope = Scope(collections=frozenset(visibility.collections),
                      channels=frozenset({args.channel_id}) if args.channel_id else None)
    usage = open_usage_log(settings)
    try:
        report = analyze(store, usage.events(), topic, retriever=retriever, threshold=threshold, scope=scope)
    finally:
        usage.close()
    chart_error = None  # the report is still printed; the error follows it
    if args.chart:
        from bot.chart import coverage_chart_png

        chart_error = write_output(args.chart, "--chart", lambda out: out.write_bytes(coverage_chart_png(report)))
    if args.json:
        print(report.model_dump_json(indent=2))
    else:
        render(report, Console(file=sys.stdout, highlight=False, soft_wrap=True,
                               width=None if sys.stdout.isatty() else 110))
        if args.chart and chart_error is None:
            Console(stderr=True).print(f"chart written to {escape(args.chart)}")
    if chart_error is not None:
        raise chart_error
    return 0


def _open(settings, collection: str | None, topic: str | None):
    """The store; a retriever (and so the model) only for topic mode — the whole-KB report reads metadata only."""
    from synthesis.store import make_client

    if topic is None:
        from synthesis.errors import KnowledgeBaseMissing

        name = collection or settings.collection
        client = make_client(settings)
        if name not in {c if isinstance(c, str) else c.name for c in client.list_collections()}:
            raise KnowledgeBaseMissing(f"no knowledge base '{name}' — run `synthbot ingest PATH` first")
        # Metadata reads never embed: skip loading the model (get_collection does not check our function).
        return _MetadataStore(client, name), None
    from synthesis.retrieval import make_retriever
    from synthesis.store import open_store

    store = open_store(settings, collection=collection)
    return store, make_retriever(settings, store)


class _MetadataStore:
    """Just enough of KnowledgeStore to page through metadata without loading the embedding model."""

    def __init__(self, client, name: str) -> None:
        self.client, self.name = client, name

    def scan(self, *, include_documents: bool = True, where: dict | None = None):
        from synthesis.store import PAGE

        coll = self.client.get_collection(self.name)
        offset = 0
        while True:
            got = coll.get(include=["metadatas"], limit=PAGE, offset=offset, where=where)
            if not got["ids"]:
                return
            yield got["ids"], [None] * len(got["ids"]), got["metadatas"]
            offset += len(got["ids"])


def render(report, console: Console) -> None:
    """Headline and its definition, facets, gaps identified, never-retrieved pages and gap signals."""
    console.print(f"\n[bold]{escape(report.headline_text)}[/]")
    console.print(f"[dim]Definition: {escape(report.definition)}[/]")
    inv = report.inventory
    console.print(f"\n{inv.get('documents', 0)} documents, {inv.get('chunks', 0)} chunks in '{escape(report.collection)}'")
    table = Table(title="Coverage per facet", title_justify="left", show_lines=False)
    for col, kw in (("facet", {}), ("documents", {"justify": "right"}), ("chunks", {"justify": "right"}),
                    ("passages ≥ threshold" if report.topic else "documents retrieved", {"justify": "right"}),
                    ("coverage", {"justify": "right"}), ("status", {})):
        table.add_column(col, **kw)
    for f in report.facets[:40]:
        table.add_row(f"{f.kind}: {escape(f.name)}", str(f.documents), str(f.chunks), str(f.supporting),
                      f"{f.coverage:.0%}", _STATUS[f.status])
    console.print(table)
    if len(report.facets) > 40:
        console.print(f"[dim]… {len(report.facets) - 40} more facets (--json lists all)[/]")
    if not report.topic:
        for kind in ("type", "tag", "section"):
            rows = list(inv.get(f"by_{kind}", {}).items())[:8]
            if rows:
                console.print(f"[bold]By {kind}:[/] " + ", ".join(f"{escape(n)} ({r['documents']} docs, "
                                                                  f"{r['chunks']} chunks)" for n, r in rows))
    console.print("\n[bold]Gaps identified[/]")
    for gap in report.gaps or ["none"]:
        console.print(f"  • {escape(gap)}")
    r = report.retrieval
    console.print(f"\n[bold]Retrieval[/] {r.retrieved_chunks}/{r.chunks} chunks ({r.chunk_rate:.0%}), "
                  f"{r.retrieved_documents}/{r.documents} documents ({r.document_rate:.0%}) retrieved by "
                  f"{r.events} logged questions and searches")
    if r.never_retrieved_documents and r.events:
        shown = r.never_retrieved_documents[:10]
        console.print("Never retrieved: " + ", ".join(escape(p["title"] or p["doc_id"]) for p in shown)
                      + (f" … and {len(r.never_retrieved_documents) - 10} more" if len(r.never_retrieved_documents) > 10
                         else ""))
    s = report.signals
    if s.gap_phrases:
        console.print("[bold]Frequent gap phrases:[/] " + ", ".join(f"{escape(p)} ({n})" for p, n in s.gap_phrases[:8]))
    if report.passages:
        console.print("\n[bold]Top passages[/]")
        for p in report.passages[:5]:
            console.print(f"  {p.score:.2f}  {escape(p.title or p.doc_id)}" + (f" — {escape(p.section)}" if p.section
                                                                                else ""))
    console.print(f"\n[dim]{report.seconds:.2f}s[/]")

"""`synthbot ask "QUESTION"`: a verified, cited answer in the terminal (rich) or as the AnswerResult JSON."""

from __future__ import annotations

import asyncio
import sys

from rich.console import Console
from rich.markup import escape as rich_escape

from synthesis.citations import verbatim
from synthesis.errors import InvalidQuery
from synthesis.models import AnswerResult, AskOptions, headings

from .scope import add_scope_options, single_collection, visibility_from
from .search import add_filter_options, filters_from
from .terminal import printable, utf8_argument

_CONFIDENCE_STYLE = {"high": "green", "medium": "yellow", "low": "red"}


def escape(text: str) -> str:
    """Document text made safe for the terminal (no escape sequences) and for rich markup."""
    return rich_escape(printable(text))


def register(sub) -> None:
    p = sub.add_parser("ask", help="answer a question from the knowledge base, with citations",
                       description="Answer a question from the knowledge base: findings with [n] citations, where "
                                   "sources disagree, and what the knowledge base does not cover. Offline unless "
                                   "ANTHROPIC_API_KEY is set.")
    p.add_argument("question", help="the question, in quotes")
    p.add_argument("--sources-only", action="store_true", help="list the sources that would be used; no synthesis")
    p.add_argument("--detailed", action="store_true", help="more findings and more sentences per finding")
    p.add_argument("--k", type=int, default=None, help="results per search subagent (default SYNTHBOT_TOP_K, 8)")
    add_filter_options(p)
    p.add_argument("--json", action="store_true", help="print the AnswerResult as JSON")
    add_scope_options(p, "ask")
    p.set_defaults(func=run)


def run(args, settings) -> int:
    utf8_argument(args.question, "question")
    if not args.question.strip():
        raise InvalidQuery('the question is empty — ask something, e.g. `synthbot ask "How do we deploy?"`')
    if args.k is not None and args.k < 1:
        raise InvalidQuery(f"--k must be at least 1 (got {args.k})")
    options = AskOptions(k=args.k, sources_only=args.sources_only, detailed=args.detailed, filters=filters_from(args))
    # Imported here so `synthbot --help` stays fast (the store pulls in Chroma and torch).
    from synthesis.agent import build_agent
    from synthesis.explore import InstrumentedAgent
    from synthesis.store import open_store
    from synthesis.usage import open_usage_log

    visibility = visibility_from(args, settings)
    if visibility is None:
        store = open_store(settings, collection=single_collection(args))
        store.collection()  # the store's "run synthbot ingest" message before any work
        agent = InstrumentedAgent(build_agent(settings, store), store, usage=open_usage_log(settings), surface="cli")
    else:  # several collections, or what a channel may see under the channel rules
        from synthesis.scoped import open_visibility

        agent = open_visibility(settings, visibility, usage=open_usage_log(settings), surface="cli")
    err = Console(stderr=True, highlight=False)
    try:
        if args.json or not sys.stderr.isatty():
            result = asyncio.run(agent.answer(args.question, options=options))
        else:
            with err.status("Thinking…") as status:
                async def progress(message: str) -> None:
                    status.update(message)
                result = asyncio.run(agent.answer(args.question, options=options, progress=progress))
    finally:
        agent.close()
    if args.json:
        print(result.model_copy(update={"synthesis": verbatim(result.synthesis)}).model_dump_json(indent=2))
    else:
        render(result, Console(file=sys.stdout, highlight=False, soft_wrap=True), sources_only=args.sources_only)
    return 0


def render(result: AnswerResult, console: Console, *, sources_only: bool = False) -> None:
    """Summary, findings, ⚠ contradictions, gaps, numbered sources, then a footer with confidence and timings."""
    s = verbatim(result.synthesis)  # documents' own [4] as written
    for notice in result.notices:
        console.print(f"[yellow]note:[/] {escape(notice)}")
    if s.summary:
        console.print(f"\n[bold]{escape(s.summary)}[/]")
    for f in s.findings:
        style = _CONFIDENCE_STYLE.get(f.confidence, "white")
        console.print(f"\n[bold cyan]{escape(f.topic)}[/] [{style}]({f.confidence})[/]")
        console.print(f"  {escape(f.content)}")
    if s.contradictions:
        console.print("\n[bold red]⚠ Sources disagree[/]")
        for c in s.contradictions:
            console.print(f"  ⚠ {escape(c.description)}")
            if c.suggestion:
                console.print(f"    [dim]→ {escape(c.suggestion)}[/]")
    if s.gaps:
        console.print("\n[bold magenta]Not covered by the knowledge base[/]")
        for g in s.gaps:
            console.print(f"  • {escape(g)}")
    sources = s.sources or []
    if sources:
        console.print("\n[bold]Sources[/]")
        for src in sources:
            parts = [src.title or src.doc_id, headings(src.section)[-1] if src.section else "", src.url]
            console.print(f"  [{src.number}] " + escape(" — ".join(p for p in parts if p)))
    if result.explore:
        console.print("\n[bold]You might also explore:[/] " + escape(", ".join(p.title or p.doc_id
                                                                           for p in result.explore)))
    ok = sum(1 for a in result.subagents if a.success)
    failed = len(result.subagents) - ok
    confidence = result.confidence
    # --sources-only synthesizes nothing: no confidence or synthesizer to report
    footer = (("sources only" if sources_only else f"confidence {confidence}") + f" · subagents {ok} ok"
              + (f", {failed} failed" if failed else "")
              + ("" if sources_only else f" · {result.synthesizer}")
              + f" · {result.context_tokens} context tokens ({result.tokenizer}) · {result.duration:.2f}s")
    console.print(f"\n[dim]{escape(footer)}[/]")

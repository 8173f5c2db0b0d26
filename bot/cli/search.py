"""`synthbot search "QUERY"`: hybrid (default), dense or lexical search, printed in the seed format or as JSON."""

from __future__ import annotations

import re
import sys

from synthesis.errors import InvalidQuery
from synthesis.models import SearchFilters, SearchResponse

from .scope import add_scope_options, single_collection, visibility_from
from .terminal import printable, utf8_argument

_KEY = re.compile(r"^[A-Za-z_][\w.:-]*$")


def register(sub) -> None:
    p = sub.add_parser("search", help="search the knowledge base (hybrid dense + BM25 by default)",
                       description="Search the knowledge base. Scores are on 0-1; see docs/RETRIEVAL.md.")
    p.add_argument("query", help="what to look for")
    p.add_argument("--k", type=int, default=5, help="how many results (default 5)")
    p.add_argument("--threshold", type=float, default=0.0, help="drop results scoring below this 0-1 value")
    p.add_argument("--mode", choices=("hybrid", "dense", "lexical"), default="hybrid")
    p.add_argument("--diversity", type=float, default=0.0, help="MMR diversity 0..1 (0 = off)")
    p.add_argument("--length-weight", type=float, default=0.0, help="0..1: gently penalise very short chunks")
    add_filter_options(p)
    p.add_argument("--debug", action="store_true", help="show ranks and scores per side, filters, timings")
    p.add_argument("--json", action="store_true", help="print the SearchResponse as JSON")
    add_scope_options(p, "search")
    p.set_defaults(func=run)


def parse_value(text: str) -> str | int | float | bool:
    """`--where` values: true/false, then int, then float, else the string itself."""
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


def parse_where(items: list[str]) -> dict[str, str | int | float | bool]:
    where: dict[str, str | int | float | bool] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not _KEY.match(key):
            raise InvalidQuery(f"bad --where '{item}' — write KEY=VALUE, e.g. --where type=runbook")
        where[key] = parse_value(value.strip())
    return where


def add_filter_options(p) -> None:
    """--source, --where and --tag: the same metadata filters for `search` and `ask`."""
    p.add_argument("--source", metavar="URL", help="only chunks whose source_url is exactly URL")
    p.add_argument("--where", metavar="KEY=VALUE", nargs="+", action="extend", default=[],
                   help="metadata equality filters (numbers and true/false are typed), e.g. --where type=runbook")
    p.add_argument("--tag", metavar="T", action="append", default=[], help="only chunks tagged T (repeatable)")


def filters_from(args) -> SearchFilters:
    return SearchFilters(source_url=args.source or None, tags=list(args.tag), where=parse_where(args.where))


def run(args, settings) -> int:
    utf8_argument(args.query, "query")
    if not args.query.strip():
        raise InvalidQuery('the query is empty — give some words to search for, e.g. `synthbot search "deploy rollback"`')
    filters = filters_from(args)
    # Imported here so `synthbot --help` stays fast (the store pulls in Chroma and torch).
    from synthesis.retrieval import make_retriever
    from synthesis.store import open_store

    visibility = visibility_from(args, settings)
    if visibility is None:
        store = open_store(settings, collection=single_collection(args))
        retriever, name = make_retriever(settings, store), store.name
    else:  # several collections, or a channel's view: scores merged on one scale (synthesis/library.py)
        from synthesis.scoped import open_visibility

        agent = open_visibility(settings, visibility, surface="cli")
        agent.close()  # only its search is used
        retriever, name = agent.retriever, agent.store.name
    resp = retriever.search(
        args.query, k=args.k, mode=args.mode, threshold=args.threshold, diversity=args.diversity,
        filters=None if filters.is_empty() else filters, length_weight=args.length_weight, debug=args.debug,
    )
    from synthesis.usage import record_search

    record_search(settings, resp, collection=name)  # the retrieval log behind `synthbot coverage`
    if args.json:
        print(resp.model_dump_json(indent=2))
    else:
        print_human(resp, debug=args.debug)
    return 0


def print_human(resp: SearchResponse, *, debug: bool = False, out=None) -> None:
    """The seed format: one block per result."""
    out = out or sys.stdout
    for r in resp.results:
        content = " ".join(printable(r.content).split())
        print(f"Result [{r.rank}]:", file=out)
        print(f"  Score: {r.score:.2f}", file=out)
        print(f"  Content: {content}", file=out)
        print(f"  Source URL: {printable(r.source_url)}", file=out)
        print(f"  Page Title: {printable(r.title)}", file=out)
        print(f"  Section: {printable(r.section)}", file=out)
        print(f"  Chunk: {r.chunk_index + 1} of {r.chunk_count}", file=out)
        if debug and r.debug:
            d = r.debug
            print(f"  Dense: rank {_fmt(d.get('dense_rank'))}, score {_fmt(d.get('dense_score'))}"
                  f" | Lexical: rank {_fmt(d.get('lexical_rank'))}, score {_fmt(d.get('lexical_score'))}"
                  f" (bm25 {_fmt(d.get('bm25'))})", file=out)
        print(file=out)
    if not resp.results:
        for w in resp.warnings or ["no results"]:
            print(f"No results: {printable(w)}", file=out)
    if debug:
        d = resp.debug
        print("Debug:", file=out)
        print(f"  Model: {d.get('model')} ({d.get('dimension')} dims), collection {d.get('collection')}", file=out)
        print(f"  Filters: {d.get('filters')}  Chroma where: {d.get('where')}", file=out)
        print(f"  Candidates: dense {_fmt(d.get('dense_candidates'))}, lexical {_fmt(d.get('lexical_candidates'))}"
              f" (query terms known: {_fmt(d.get('lexical_terms'))})", file=out)
        print("  Time (ms): " + ", ".join(f"{k} {v}" for k, v in d.get("timings_ms", {}).items()), file=out)
        if d.get("empty_reason"):
            print(f"  Why nothing was found: {d['empty_reason']}", file=out)


def _fmt(value) -> str:
    if value is None:
        return "-"
    return f"{value:.2f}" if isinstance(value, float) else str(value)

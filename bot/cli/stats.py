"""`synthbot stats`: usage metrics from the retrieval log kept with the conversations."""

from __future__ import annotations

import sys

from rich.console import Console
from rich.markup import escape


def register(sub) -> None:
    p = sub.add_parser("stats", help="usage: questions asked, citation, no-answer and follow-up rates, topics, gaps",
                       description="Usage metrics from the retrieval log (kept with the conversations: SQLite in "
                                   "SYNTHBOT_HOME, or Redis when REDIS_URL is set).")
    p.add_argument("--json", action="store_true", help="print the UsageStats as JSON")
    p.set_defaults(func=run)


def run(args, settings) -> int:
    from synthesis.usage import open_usage_log, usage_stats

    usage = open_usage_log(settings)
    try:
        stats = usage_stats(usage.events())
    finally:
        usage.close()
    if args.json:
        print(stats.model_dump_json(indent=2))
        return 0
    out = Console(file=sys.stdout, highlight=False, soft_wrap=True)
    if not stats.questions and not stats.searches:
        out.print("No questions logged yet: ask with `synthbot ask`, in Slack, or run `synthbot inquiry`.")
        return 0
    out.print(f"[bold]Questions asked:[/] {stats.questions}  ({', '.join(f'{k} {v}' for k, v in stats.by_surface.items())})"
              f" · searches: {stats.searches}")
    out.print(f"[bold]Answers with citations:[/] {stats.answers_with_citations} ({stats.citation_rate:.0%})")
    out.print(f"[bold]No answer:[/] {stats.no_answer} ({stats.no_answer_rate:.0%})")
    out.print(f"[bold]Follow-ups:[/] {stats.followups} ({stats.followup_rate:.0%})")
    if stats.common_topics:
        out.print("[bold]Common topics:[/] " + ", ".join(f"{escape(t)} ({n})" for t, n in stats.common_topics))
    g = stats.gap_signals
    out.print(f"[bold]Gap signals:[/] {g.weak_count} questions without a good answer")
    for row in g.weak_questions[:5]:
        out.print(f"  • {escape(row['question'])} [dim]({row['reason']})[/]")
    for row in g.poorly_supported[:5]:
        out.print(f"  • asked often, poorly supported: {escape(row.topic)} ({row.asked} asked, {row.weak} weak)")
    if g.gap_phrases:
        out.print("  frequent gap phrases: " + ", ".join(f"{escape(p)} ({n})" for p, n in g.gap_phrases[:8]))
    return 0

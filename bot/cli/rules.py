"""`synthbot rules`: check the channel rules file and show who sees what (and what nobody sees)."""

from __future__ import annotations

import json
import sys

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from synthesis.errors import ConfigError


def register(sub) -> None:
    p = sub.add_parser("rules", help="check the channel rules (SYNTHBOT_CHANNEL_RULES): who sees which collections",
                       description="Validate the channel rules file and list every rule with the collections it "
                                   "grants, collections no rule names (visible nowhere) and named collections not "
                                   "ingested yet. Exit 1 when the file is invalid.")
    p.add_argument("file", nargs="?", help="the rules file (default: SYNTHBOT_CHANNEL_RULES)")
    p.add_argument("--json", action="store_true", help="print the rules and findings as JSON")
    p.set_defaults(func=run)


def run(args, settings) -> int:
    from synthesis.scoping import load_rules
    from synthesis.store import _names, make_client

    path = args.file or settings.channel_rules
    if not path:
        raise ConfigError("no channel rules file: pass one (`synthbot rules FILE`) or set SYNTHBOT_CHANNEL_RULES")
    # ChannelRulesInvalid (exit 1) says what is wrong and where
    rules = load_rules(path, named_by="the path given" if args.file else "SYNTHBOT_CHANNEL_RULES")
    stored = sorted(_names(make_client(settings))) if settings.chroma_path.exists() or settings.chroma_url else []
    named = set(rules.named_collections())
    rows = [("default", rules.default), ("dm", rules.dm)] + [
        (f"id {r.id}" if r.id else f"#{r.name}", r) for r in rules.channels]
    report = {
        "file": str(path),
        "rules": [{"rule": who, "sees": [g.key for g in rule.grants()] if rule else None} for who, rule in rows],
        "visible_nowhere": [n for n in stored if n not in named],
        "not_ingested": sorted(named - set(stored)),
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    out = Console(file=sys.stdout, highlight=False, soft_wrap=True)
    table = Table(title=f"Channel rules in {escape(str(path))}")
    table.add_column("rule")
    table.add_column("sees")
    for row in report["rules"]:
        sees = "—  (no such rule: " + ("channels without a rule see nothing)" if row["rule"] == "default"
                                       else "DMs see nothing)") if row["sees"] is None else \
            escape(", ".join(row["sees"])) or "nothing"
        table.add_row(escape(row["rule"]), sees)
    out.print(table)
    if report["visible_nowhere"]:
        out.print("Visible nowhere (no rule names them): " + escape(", ".join(report["visible_nowhere"])))
    if report["not_ingested"]:
        out.print("Named but not ingested yet: " + escape(", ".join(report["not_ingested"]))
                  + " — `synthbot ingest PATH --collection NAME`")
    return 0

"""The `synthbot` command: one entry point that reads settings once and dispatches to a subcommand module."""

from __future__ import annotations

import argparse
import importlib
import sys

from rich.console import Console

from synthesis.config import Settings
from synthesis.errors import SynthbotError
from synthesis.logging import configure_logging, secrets_of

# Each module exposes register(subparsers); the parser it adds sets `func(args, settings) -> int`.
SUBCOMMANDS = ("ingest", "search", "eval", "ask", "inquiry", "coverage", "stats", "serve")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="synthbot", description="Answers from your team's knowledge base, with citations.")
    parser.add_argument("--log-level", default=None, help="DEBUG, INFO, WARNING (default: SYNTHBOT_LOG_LEVEL or WARNING)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in SUBCOMMANDS:
        importlib.import_module(f"bot.cli.{name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    settings = Settings()
    configure_logging(level=args.log_level or settings.log_level, fmt=settings.log_format,
                      secrets=secrets_of(settings))
    err = Console(stderr=True, soft_wrap=True)  # an error is one line, however narrow the terminal
    try:
        return int(args.func(args, settings) or 0)
    except SynthbotError as exc:
        err.print(f"[bold red]error:[/] {exc}", highlight=False)
        return exc.exit_code
    except KeyboardInterrupt:
        err.print("interrupted")
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

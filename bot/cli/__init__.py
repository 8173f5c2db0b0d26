"""The `synthbot` command: one entry point that reads settings once and dispatches to a subcommand module.

Imports are lazy all the way down: `--help` loads no settings, store or model, and each command imports only what it
uses (a query never imports torch: docs/BENCHMARKS.md, "Cold start").
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable
from pathlib import Path

from synthesis.errors import SynthbotError

# Each module exposes register(subparsers); the parser it adds sets `func(args, settings) -> int`.
SUBCOMMANDS = ("ingest", "search", "eval", "ask", "inquiry", "coverage", "stats", "serve", "rules")
# Commands registered by a module of another name.
MODULE_OF = {"console": "serve"}


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser; given the command line, only the named command's module is imported (all of them for --help)."""
    parser = argparse.ArgumentParser(prog="synthbot", description="Answers from your team's knowledge base, with citations.")
    parser.add_argument("--log-level", default=None, help="DEBUG, INFO, WARNING (default: SYNTHBOT_LOG_LEVEL or WARNING)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in _modules_for(argv):
        importlib.import_module(f"bot.cli.{name}").register(sub)
    _mark(parser)
    return parser


def _mark(parser: argparse.ArgumentParser) -> None:
    """Each parser sets itself as `_parser` (a command's default overrides its parent's), so an unknown option is
    reported with the usage of the command it was given to."""
    parser.set_defaults(_parser=parser)
    for action in parser._actions:  # argparse keeps subcommands as actions; there is no public accessor
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                _mark(child)


def _modules_for(argv: list[str] | None) -> tuple[str, ...]:
    tokens = iter(argv or ())
    for token in tokens:
        if token == "--log-level":
            next(tokens, None)
        elif not token.startswith("-"):  # the command: its module alone; an unknown one gets the full list to choose
            module = MODULE_OF.get(token, token)
            return (module,) if module in SUBCOMMANDS else SUBCOMMANDS
    return SUBCOMMANDS


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv)
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # the command's own usage, not the list of commands: "synthbot ask … --bogus"
        before = argv.index(args.command) if args.command in argv else len(argv)
        command = parser if any(argv.index(u) < before for u in unknown if u in argv) else args._parser
        command.error(f"unrecognized arguments: {' '.join(unknown)}")
    from synthesis.config import Settings
    from synthesis.logging import configure_logging, secrets_of

    settings = Settings()
    configure_logging(level=args.log_level or settings.log_level, fmt=settings.log_format,
                      secrets=secrets_of(settings))
    try:
        return int(args.func(args, settings) or 0)
    except SynthbotError as exc:
        _stderr().print(f"[bold red]error:[/] {exc}", highlight=False)
        return exc.exit_code
    except KeyboardInterrupt:
        _stderr().print("interrupted")
        return 130


def output_path(path: str | Path, flag: str) -> Path:
    """The file an option names to write, checked before any work: a long run that fails only when it writes its
    result loses it. Raises InvalidQuery (exit 2) for a folder, a missing folder, or a file (or, for a new file, a
    folder) we cannot write."""
    from synthesis.errors import InvalidQuery

    out = Path(path)
    if out.is_dir():
        raise InvalidQuery(f"{flag} {out} is a folder — give the name of a file in it")
    if not out.parent.is_dir():
        raise InvalidQuery(f"{flag} {out}: the folder {out.parent} does not exist — create it or write elsewhere")
    if not os.access(out if out.exists() else out.parent, os.W_OK):  # an existing file is overwritten in place
        raise InvalidQuery(f"{flag} {out}: no permission to write there")
    return out


def write_output(path: str | Path, flag: str, write: Callable[[Path], object]) -> SynthbotError | None:
    """Write a result file after the work was done; on failure the error to raise once the caller has put the
    result on standard output (so nothing is lost), else None."""
    from synthesis.errors import OutputNotWritten

    try:
        write(Path(path))
    except OSError as exc:
        return OutputNotWritten(f"{flag} {path}: could not write it ({exc.strerror or exc}) — the result was "
                                "printed above")
    return None


def _stderr():
    from rich.console import Console

    return Console(stderr=True, soft_wrap=True)  # an error is one line, however narrow the terminal


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

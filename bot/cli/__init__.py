"""The `synthbot` command: one entry point that reads settings once and dispatches to a subcommand module.

Imports are lazy all the way down: `--help` loads no settings, store or model, and each command imports only what it
uses (a query never imports torch: docs/BENCHMARKS.md, "Cold start").
"""

from __future__ import annotations

import argparse
import importlib
import sys

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
    parser.set_defaults(_commands=sub.choices)
    return parser


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
        command = args._commands.get(args.command, parser)
        nested = getattr(args, "eval_command", None)  # `eval answers`: its own parser has the usage
        if nested and hasattr(command, "_subparsers") and command._subparsers is not None:
            command = next((a.choices[nested] for a in command._subparsers._group_actions
                            if getattr(a, "choices", None) and nested in a.choices), command)
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


def output_path(path, flag: str):
    """The file an option names to write, checked before any work: a long run that fails only when it writes its
    result loses it. Raises InvalidQuery (exit 2) for a folder, a missing folder or one we cannot write in."""
    import os
    from pathlib import Path

    from synthesis.errors import InvalidQuery

    out = Path(path)
    folder = out.parent if str(out.parent) else Path(".")
    if out.is_dir():
        raise InvalidQuery(f"{flag} {out} is a folder — give the name of a file in it")
    if not folder.is_dir():
        raise InvalidQuery(f"{flag} {out}: the folder {folder} does not exist — create it or write elsewhere")
    if not os.access(folder, os.W_OK) or (out.exists() and not os.access(out, os.W_OK)):
        raise InvalidQuery(f"{flag} {out}: no permission to write there")
    return out


def write_failed(flag: str, path, exc: OSError):
    """The error for an output file that could not be written after the work was done (the caller has already put
    the result on standard output, so nothing is lost)."""
    from synthesis.errors import SynthbotError

    return SynthbotError(f"{flag} {path}: could not write it ({exc.strerror or exc}) — the result was printed above")


def _stderr():
    from rich.console import Console

    return Console(stderr=True, soft_wrap=True)  # an error is one line, however narrow the terminal


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

"""structlog setup: console in development, JSON in production; called once at the entry point."""

from __future__ import annotations

import logging
import sys

import structlog


class _Stderr:
    """Resolves sys.stderr at write time, so a swapped stream (pytest capture, a closed console) is never kept."""

    def write(self, text: str) -> int:
        return sys.stderr.write(text)

    def flush(self) -> None:
        sys.stderr.flush()


def configure_logging(*, level: str = "WARNING", fmt: str = "console") -> None:
    """Route structlog and stdlib logging to stderr with key/value events."""
    lvl = getattr(logging, level.upper(), logging.WARNING)
    logging.basicConfig(level=lvl, stream=sys.stderr, format="%(message)s")
    for noisy in ("chromadb", "httpx", "httpx2", "sentence_transformers", "urllib3", "slack_bolt", "anthropic"):
        logging.getLogger(noisy).setLevel(max(lvl, logging.WARNING))
    renderer = structlog.processors.JSONRenderer() if fmt == "json" else structlog.dev.ConsoleRenderer(colors=False)
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso"),
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(lvl),
        logger_factory=structlog.PrintLoggerFactory(file=_Stderr()),
        cache_logger_on_first_use=False,
    )

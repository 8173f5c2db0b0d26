"""structlog setup: console in development, JSON in production; called once at the entry point.

Secrets never reach the output: every rendered line (structlog's and the stdlib's, tracebacks included) passes
through `redact`, which masks the configured secret values and anything shaped like a Slack token, an Anthropic key,
an `Authorization` header or a URL password. Tracebacks never show local variables (rich's default does, and a
SlackApiError's locals hold the request headers).
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Callable, Iterable
from typing import Any

import structlog
from structlog.tracebacks import ExceptionDictTransformer

MASK = "[redacted]"
_MIN_SECRET = 6  # shorter configured values would mask ordinary words

_SHAPES = re.compile(
    r"""\bxox[abposr]-[0-9A-Za-z-]+            # Slack bot/user/config tokens
      | \bxapp-[0-9A-Za-z-]+                  # Slack app-level tokens
      | \bsk-ant-[0-9A-Za-z_-]+               # Anthropic keys
      | (?<=://)[^/\s:@'"]*:[^/\s@'"]+(?=@)   # user:password@ in URLs
    """,
    re.X,
)
# `Authorization: Bearer …`, `'x-api-key': '…'`, `signing_secret=…`: the key stays, the value goes.
_KEYED = re.compile(
    r"""(?ix)
    ( \b(?:authorization|x-api-key|api[_-]?key|signing[_-]?secret|password|secret|token)
      ['"]?\s*[:=]\s*['"]?
      (?:bearer\s+|basic\s+)? )
    [^\s'",}\]]+
    | (\bbearer\s+)[^\s'",}\]]+
    """
)


def redact(text: str, secrets: Iterable[str]) -> str:
    """`text` with every configured secret and every token-shaped string replaced by MASK."""
    for secret in secrets:
        if secret and len(secret) >= _MIN_SECRET:
            text = text.replace(secret, MASK)
    text = _SHAPES.sub(MASK, text)
    return _KEYED.sub(lambda m: (m.group(1) or m.group(2)) + MASK, text)


def secrets_of(settings: Any) -> list[str]:
    """The secret values a Settings holds: tokens, keys and URL passwords."""
    values: list[str] = []
    for name in ("slack_bot_token", "slack_signing_secret", "slack_app_token", "anthropic_api_key"):
        value = getattr(settings, name, None)
        raw = value.get_secret_value() if hasattr(value, "get_secret_value") else value
        if raw:
            values.append(str(raw).strip())
    for name in ("redis_url", "chroma_url", "anthropic_base_url"):
        match = re.search(r"://[^/\s@]*:([^/\s@]+)@", getattr(settings, name, None) or "")
        if match:
            values.append(match.group(1))
    return values


class _Stderr:
    """Resolves sys.stderr at write time, so a swapped stream (pytest capture, a closed console) is never kept."""

    def write(self, text: str) -> int:
        return sys.stderr.write(text)

    def flush(self) -> None:
        sys.stderr.flush()


def _redacting(renderer: Callable[..., str], secrets: list[str]) -> Callable[..., str]:
    def render(logger: Any, name: str, event_dict: dict) -> str:
        return redact(renderer(logger, name, event_dict), secrets)

    return render


class _Handler(logging.StreamHandler):
    """Our stdlib handler (replaced, not stacked, when logging is configured again)."""


def configure_logging(*, level: str = "WARNING", fmt: str = "console", secrets: Iterable[str] = ()) -> None:
    """Route structlog and stdlib logging to stderr through one renderer, with `secrets` masked everywhere."""
    lvl = getattr(logging, level.upper(), logging.WARNING)
    secrets = sorted({s for s in secrets if s}, key=len, reverse=True)  # longest first: no partial masks
    if fmt == "json":
        # Error entries carry their stack as structured frames, never the frames' locals.
        tracebacks = structlog.processors.ExceptionRenderer(ExceptionDictTransformer(show_locals=False))
        final: list = [tracebacks, _redacting(structlog.processors.JSONRenderer(), secrets)]
    else:
        console = structlog.dev.ConsoleRenderer(colors=False, exception_formatter=structlog.dev.plain_traceback)
        final = [_redacting(console, secrets)]
    shared = [structlog.contextvars.merge_contextvars, structlog.processors.add_log_level,
              structlog.processors.TimeStamper(fmt="iso")]
    structlog.configure(
        processors=[*shared, *final],
        wrapper_class=structlog.make_filtering_bound_logger(lvl),
        logger_factory=structlog.PrintLoggerFactory(file=_Stderr()),
        cache_logger_on_first_use=False,
    )
    # The stdlib (Bolt, slack_sdk, Chroma…) goes through the same renderer: one format, the same redaction.
    handler = _Handler(_Stderr())
    handler.setFormatter(structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=[*shared, structlog.stdlib.add_logger_name],
        processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, *final]))
    root = logging.getLogger()
    root.handlers[:] = [h for h in root.handlers if not isinstance(h, _Handler)] + [handler]
    root.setLevel(lvl)
    if fmt == "json":
        logging.captureWarnings(True)  # a warnings.warn line would be plain text in a JSON stream
    for noisy in ("chromadb", "httpx", "httpx2", "sentence_transformers", "urllib3", "slack_bolt", "anthropic"):
        logging.getLogger(noisy).setLevel(max(lvl, logging.WARNING))

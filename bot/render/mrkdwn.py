"""Markdown → Slack mrkdwn, escaping that keeps document text from pinging anyone, and limit-aware splitting."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from synthesis import citations

SECTION_LIMIT = 3000  # Slack: section text
ZWSP = "\u200b"


# --- characters we never post -------------------------------------------------------------------------
# C0 controls but tab and newline, DEL, C1 controls, and the bidi embeddings/overrides/isolates (Trojan Source).
_UNSAFE = re.compile("\x1b\\[[0-?]*[ -/]*[@-~]|[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u202a-\u202e\u2066-\u2069]")


def strip_unsafe(text: str) -> str:
    """`text` without terminal escape sequences, control or bidi-override characters (tab and newline stay)."""
    return _UNSAFE.sub("", text)


def strip_unsafe_deep(value):
    """strip_unsafe on every string inside a JSON-like value (blocks)."""
    if isinstance(value, str):
        return strip_unsafe(value)
    if isinstance(value, list):
        return [strip_unsafe_deep(v) for v in value]
    if isinstance(value, dict):
        return {k: strip_unsafe_deep(v) for k, v in value.items()}
    return value


# --- escaping and mrkdwn ------------------------------------------------------------------------------
_SPECIAL_OPEN = re.compile(r"&lt;(?=[!@#])")
_BARE_BROADCAST = re.compile(r"(?<![\w.])@(?=(?:channel|here|everyone)\b)", re.I)  # not in me@here.io


def escape_mrkdwn(text: str) -> str:
    """Escape `&<>` and neutralise broadcast/user/channel tokens so document text can never ping anyone."""
    # Normalise already-escaped forms first so `&lt;!channel&gt;` is escaped exactly once, like `<!channel>`.
    text = text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _SPECIAL_OPEN.sub("&lt;" + ZWSP, text)  # `<!here>`, `<@U1>`, `<#C1>`, `<!subteam^S1>` stay inert text
    return _BARE_BROADCAST.sub("@" + ZWSP, text)


def slack_url(url: str) -> str | None:
    """A URL safe inside `<url|label>`, or None when it is not http(s) (file paths never become broken links)."""
    url = (url or "").strip()
    if not re.match(r"(?i)^https?://[^\s/?#]+\S*$", url):
        return None
    return url.replace("&", "&amp;").replace("<", "%3C").replace(">", "%3E").replace("|", "%7C")


def link_label(text: str, limit: int = 150) -> str:
    """Escaped text usable as a link label: no `|` (Slack's separator), `>` escaped, bounded length."""
    text = " ".join(text.split())
    text = text if len(text) <= limit else text[: limit - 1] + "…"
    return escape_mrkdwn(text).replace("|", "∣")


def slack_link(url: str, label: str) -> str:
    """`<url|label>` for an http(s) URL; otherwise just the escaped label."""
    safe = slack_url(url)
    return f"<{safe}|{link_label(label)}>" if safe else link_label(label)


_FENCE = re.compile(r"```(?:[\w+-]*\n)?(.*?)(?:```|\Z)", re.S)
_INLINE_CODE = re.compile(r"`[^`\n]+`")
_MD_LINK = re.compile(r"\[([^\]\n]+)\]\(\s*(\S+?)\s*\)")
_AUTOLINK = re.compile(r"<(https?://[^\s<>|]+)>")
_HEADING = re.compile(r"^[ \t]*#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$", re.M)
_RULE = re.compile(r"^[ \t]*(?:-{3,}|\*{3,}|_{3,})[ \t]*$", re.M)
_BULLET = re.compile(r"^([ \t]*)[-*+][ \t]+", re.M)
_QUOTE = re.compile(r"^&gt;[ \t]?", re.M)
_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*|__(?=\S)(.+?)(?<=\S)__")
_ITALIC = re.compile(r"(?<![\w*])\*(?=[^\s*])([^*\n]+?)(?<=[^\s*])\*(?![\w*])")
_STRIKE = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~")
_STASHED = re.compile("\x00(\\d+)\x00")
_BOLD_MARK = "\x01"


def markdown_to_mrkdwn(text: str, *, citation_urls: Mapping[int, str] | None = None) -> str:
    """Markdown (from the synthesizer or a document) → escaped Slack mrkdwn; code is left as written.

    With `citation_urls`, `[n]` and `[n, m]` markers become `<url|[n]>` links (http sources only).

    Example:
        >>> markdown_to_mrkdwn("**Deploys** use [the runbook](https://x.io/r) — see `a**b`")
        '*Deploys* use <https://x.io/r|the runbook> — see `a**b`'
    """
    kept: list[str] = []

    def stash(s: str) -> str:
        kept.append(s)
        return f"\x00{len(kept) - 1}\x00"

    text = (text or "").replace("\x00", "").replace(_BOLD_MARK, "")
    text = _FENCE.sub(lambda m: stash("```" + escape_mrkdwn(m.group(1).strip("\n")) + "```"), text)
    text = _INLINE_CODE.sub(lambda m: stash(escape_mrkdwn(m.group(0))), text)

    def md_link(m: re.Match) -> str:
        label, url = m.group(1).replace("**", "").replace("__", ""), m.group(2)
        safe = slack_url(url)
        return stash(f"<{safe}|{link_label(label)}>" if safe else f"{link_label(label)} ({escape_mrkdwn(url)})")

    text = _MD_LINK.sub(md_link, text)
    text = _AUTOLINK.sub(lambda m: stash(f"<{slack_url(m.group(1))}>"), text)
    text = escape_mrkdwn(text)
    if citation_urls:
        text = citations.sub(text, lambda numbers: stash(cite(numbers, citation_urls)))
    text = citations.unescape(text)  # a document's own [4] in a quote: verbatim, never linked
    text = _RULE.sub("──────────", text)
    text = _HEADING.sub(lambda m: _BOLD_MARK + m.group(1).replace("**", "").replace("__", "") + _BOLD_MARK, text)
    text = _BULLET.sub(r"\1• ", text)
    text = _QUOTE.sub("> ", text)  # a Markdown quote stays a Slack quote (escaping turned its `>` into `&gt;`)
    text = _BOLD.sub(lambda m: _BOLD_MARK + (m.group(1) or m.group(2)) + _BOLD_MARK, text)
    text = _ITALIC.sub(r"_\1_", text)
    text = _STRIKE.sub(r"~\1~", text).replace(_BOLD_MARK, "*")
    while _STASHED.search(text):  # a stashed link label may itself hold a stashed piece
        text = _STASHED.sub(lambda m: kept[int(m.group(1))], text)
    return text


def cite(numbers: Iterable[int], urls: Mapping[int, str]) -> str:
    """`[1, 3]` → `<url1|[1]><url3|[3]>`; a number without an http source stays plain `[n]`."""
    out = []
    for n in numbers:
        safe = slack_url(urls.get(n, ""))
        out.append(f"<{safe}|[{n}]>" if safe else f"[{n}]")
    return "".join(out)


def split_text(text: str, limit: int = SECTION_LIMIT) -> list[str]:
    """Pack whole lines (long lines cut between words) into pieces ≤ limit; links stay whole, fences are re-opened."""
    text = text.strip() or "—"
    pieces: list[str] = []
    current, fence_open = "", False
    for line in text.split("\n"):
        for part in _split_long_line(line, limit - 8):
            candidate = f"{current}\n{part}" if current else part
            if len(candidate) + (3 if fence_open else 0) <= limit:
                current = candidate
            else:
                if fence_open:
                    current += "```"  # close the fence here and reopen it in the next piece
                pieces.append(current)
                current = ("```" if fence_open else "") + part
            fence_open ^= part.count("```") % 2 == 1
    if current.strip():
        pieces.append(current)
    return [p for p in pieces if p.strip()] or ["—"]


def _split_long_line(line: str, limit: int) -> list[str]:
    if len(line) <= limit:
        return [line]
    out, current = [], ""
    for token in re.findall(r"<[^<>]*>|\S+|\s+", line):  # a `<url|label>` link is never cut
        while len(token) > limit:  # a single enormous token: cut it hard (it cannot be a valid link anyway)
            out.append(current + token[: limit - len(current)])
            token, current = token[limit - len(current):], ""
        if len(current) + len(token) > limit:
            out.append(current.rstrip())
            current = token.lstrip()
        else:
            current += token
    return [*out, current] if current.strip() else out


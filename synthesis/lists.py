"""The lists a chunk holds: whether it holds one at all, and the numbered steps of a procedure that chunking cut
(its last line inside the list, the next chunk going on with the next step)."""

from __future__ import annotations

import re

from .sentences import ITEM_LINE as _BULLET

_NUMBERED = re.compile(r"^(\d+)[.)]\s+")  # a step of a numbered list, at the top level
_BARE_MARKER = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s*$")  # a cut can end a chunk on the next item's marker ("9.")


def numbered_items(text: str) -> list[str]:
    """The top-level numbered items of the text, without their numbers ("1. Login to Docusign." → "Login to
    Docusign.")."""
    return [_NUMBERED.sub("", line) for line in text.splitlines() if _NUMBERED.match(line)]


def steps_go_on(text: str, after: str) -> bool:
    """`after` goes on with the numbered list `text` ends in: it opens with a list item, and its first numbered
    step at the top level is the one after `text`'s last ("5." then "6."), or that one again (chunks overlap)."""
    first = next((line for line in after.splitlines() if line.strip()), "")
    last = [int(m.group(1)) for line in text.splitlines() if (m := _NUMBERED.match(line))]
    step = next((int(m.group(1)) for line in after.splitlines() if (m := _NUMBERED.match(line))), None)
    return bool(_BULLET.match(first)) and bool(last) and step in (last[-1], last[-1] + 1)  # (chunks overlap)


def ends_in_steps(text: str) -> bool:
    """The text ends inside a numbered list (its last line an item of it, or nested under one): chunking cut a
    procedure, and its later steps are in the next chunk ("5. Enter the following information in Section 3: … -
    Employment Status: Check "Full-Time"" and then "6. Do not fill out Section 4")."""
    lines = [line for line in text.rstrip().splitlines() if line.strip() and not _BARE_MARKER.match(line)]
    if not lines or not _BULLET.match(lines[-1]) and not lines[-1].startswith((" ", "\t")):
        return False
    for line in reversed(lines):  # up to the list's top-level item: numbered, or not a step list
        if not line.startswith((" ", "\t")):
            return bool(_NUMBERED.match(line))
    return False


def has_list(text: str) -> bool:
    """The text holds a list item, a table row or a code block (what a lead-in before it may announce)."""
    return any(_BULLET.match(line) or line.lstrip().startswith(("|", "```", "~~~")) for line in text.splitlines())


# A bulleted list of instructions cut by chunking ("- On the pull request page, give your PR a short title …" closes
# one chunk, "- Click the `Create pull request` button." opens the next, after the lines the chunks overlap)
OVERLAP_LINES = 2


def last_bullets(text: str) -> list[str]:
    """The top-level items, markers off, of the bulleted (not numbered) list the text ends inside; [] when it ends
    otherwise."""
    lines = [line for line in text.rstrip().splitlines() if line.strip() and not _BARE_MARKER.match(line)]
    items: list[str] = []
    for line in reversed(lines):
        if line.startswith((" ", "\t")):
            continue  # nested under an item, or an item's wrapped line
        if not _BULLET.match(line) or _NUMBERED.match(line):
            break
        items.insert(0, _BULLET.sub("", line))
    if not lines or not items or not (_BULLET.match(lines[-1]) or lines[-1].startswith((" ", "\t"))):
        return []
    return items


def bullets_go_on(after: str) -> bool:
    """`after` goes on with a bulleted list: a top-level bullet item within its first lines (past those the chunks
    overlap)."""
    lines = [line for line in after.splitlines() if line.strip()][:OVERLAP_LINES + 1]
    return any(_BULLET.match(line) and not _NUMBERED.match(line) for line in lines)

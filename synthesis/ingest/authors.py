"""Who wrote a page, where the page says so: its front matter's `author` (or `authors`), or a sign-off, a section's
last paragraph that is only a name after prose written in the first person ("I have written this playbook to
document my experience …" … "I wish you the best of luck …" then "_Carlo Costino_").

The name is the chunks' `author` metadata, so "Who wrote the New Supervisor Playbook?" is answered from any chunk of
the page: the sign-off sits two chunks after the first-person line a search finds (`synthesize.candidates.
authored`)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..stems import STOPWORDS
from .documents import Block

AUTHOR_FIELDS = ("author", "authors")
# A sign-off: two to four capitalised words, alone in their paragraph, maybe after a dash ("— Jane Doe"); no sentence
_SIGNATURE = re.compile(r"^(?:[-—–~]{1,2}\s*)?(?P<name>[A-Z][\w'’.-]*[a-z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*[a-z][\w'’.-]*)"
                        r"{1,3})$")
# "I" opening a sentence or a clause, before a word in lower case ("I have written …", "… and I hope"), or "my"
# before one: not "Title I funds", "Phase I", "My Workspace" (found in review)
_FIRST_PERSON = re.compile(r"(?:^|(?<=[.!?:;]\s)|(?<=\n)|\b(?:and|but|so|that|because|when|if|as|which|where|then|"
                           r"since|while)\s+)I(?:['’](?:ve|m|d|ll))?\s+[a-z]|(?<![\w'’-])my\s+[a-z]")
# a closing before the name in one paragraph ("Thanks,\nJane Doe", "Best regards,\nJane Doe")
_CLOSING = re.compile(r"^(?:thanks(?: again)?|thank you|many thanks|cheers|best|all the best|"
                      r"(?:best|kind|warm|warmest)? ?regards|sincerely|yours(?: truly)?|warmly|with gratitude)[,.!]?$",
                      re.I)
_PLACEHOLDERS = frozenset("tbd todo tk n/a none unknown".split())


def front_matter_author(meta: Mapping[str, Any]) -> str:
    """The front matter's author, or its authors joined by commas (a name, or a mapping with a `name`); "" for none
    or a placeholder ("TBD")."""
    for key in AUTHOR_FIELDS:
        value = meta.get(key)
        items = value if isinstance(value, list) else [value]
        names = [" ".join(str(n).split()) for x in items
                 if isinstance(n := x.get("name") if isinstance(x, Mapping) else x, str) and n.strip()]
        names = [n for n in names if n.lower() not in _PLACEHOLDERS]
        if names:
            return ", ".join(names)
    return ""


def _signature(paragraph: str) -> str:
    """The name a paragraph signs with: the paragraph alone, or its last line after a closing ("Thanks,"); a name
    whose first word is no English word ("Carlo", "Jane"; not "Happy Hacking", "Next Steps", "Google Drive")."""
    lines = [x.strip() for x in paragraph.strip().splitlines() if x.strip()]
    if len(lines) == 1 and "," in lines[0]:  # (a rendered paragraph joins its lines: "Thanks, Jane Doe")
        lines = [x.strip() for x in lines[0].split(",", 1)]
        lines[0] += ","
    if not lines or (len(lines) > 1 and not _CLOSING.match(" ".join(lines[:-1]))):
        return ""
    m = _SIGNATURE.match(lines[-1])
    if m is None or (first := m.group("name").split()[0].lower()) in STOPWORDS:
        return ""
    # (imported here: the answering core's lexicon is needed only for a name-shaped line, and importing `qa` with the
    # loaders cost every ingest 0.35 s)
    from ..qa.wordforms import lexicon

    return "" if lexicon(first) else m.group("name")


def sign_off(text: str, blocks: Sequence[Block]) -> str:
    """The name a section of the page is signed with (see the module docstring), or "": the last paragraph of a
    section, a name (`_signature`), after a paragraph of that section that does not lead in to it (":") and at least
    one written in the first person."""
    for i, block in enumerate(blocks):
        last = i + 1 == len(blocks) or blocks[i + 1].section != block.section
        if not last or i == 0 or blocks[i - 1].section != block.section:
            continue
        name = _signature(text[block.start:block.end])
        before = [b for b in blocks[:i] if b.section == block.section]
        if (name and not text[before[-1].start:before[-1].end].rstrip().endswith(":")
                and any(_FIRST_PERSON.search(text[b.start:b.end]) for b in before)):
            return name
    return ""

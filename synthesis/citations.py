"""The citation grammar, in one place: what our citations look like and how a document's own markers are kept apart.

Our citations are `[n]` markers a synthesizer writes: `[2]`, `[2][3]`, and from Claude also `[2, 3]`, `[2; 3]`,
`[2-4]`. Documents carry markers of the same shape (a paper's `[4]`, `[6, 8]`, `[114]`; a wiki's footnote `[2]`).
So that those are never read, renumbered or removed as ours, quoted document text is *protected*: each of its
markers is written with a Markdown escape, `\\[4]`. The grammar below never matches an escaped marker, and
`unescape` turns it back into the verbatim `[4]` where text leaves us (Slack rendering, JSON output).

    >>> cite("Aspirin lowers risk [4].", [2])
    'Aspirin lowers risk \\\\[4]. [2]'
    >>> find(cite("Aspirin lowers risk [4].", [2]))
    [2]
    >>> strip(cite("Aspirin lowers risk [4].", [2]))
    'Aspirin lowers risk [4].'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping

from .models import Synthesis

# A bracket holding numbers separated by , ; or a dash. Ours when not escaped; a document's own when escaped.
_BODY = r"\d+(?:\s*[,;\-–—]\s*\d+)*"
CITATION = re.compile(r"(?<!\\)\[(" + _BODY + r")\]")
_UNPROTECTED = CITATION  # the same shape: everything that could be read as ours gets protected
_PROTECTED = re.compile(r"\\(\[" + _BODY + r"\])")
_ITEM = re.compile(r"(\d+)(?:\s*[-–—]\s*(\d+))?")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
MAX_RANGE = 20  # a wider "range" is not a citation anyone meant (e.g. years): its numbers count as invalid


def protect(text: str) -> str:
    """Document text safe to quote: its own `[4]`, `[6, 8]` become `\\[4]`, `\\[6, 8]` (idempotent)."""
    return _UNPROTECTED.sub(r"\\[\1]", text)


def unescape(text: str) -> str:
    """Protected document markers back to verbatim (`\\[4]` → `[4]`); our citations are left as they are."""
    return _PROTECTED.sub(r"\1", text)


def marker(numbers: Iterable[int]) -> str:
    """`[2][3]`: the form every citation takes after verification."""
    return "".join(f"[{n}]" for n in dict.fromkeys(numbers))


def cite(text: str, numbers: Iterable[int]) -> str:
    """Quoted document text followed by our citation: `cite("X [4].", [2])` → `X \\[4]. [2]`."""
    mark = marker(numbers)
    text = protect(text)
    return f"{text} {mark}" if mark else text


def numbers(body: str) -> tuple[list[int], int]:
    """The numbers of one citation's body: `'2-4; 7'` → `([2, 3, 4, 7], 0)`; ranges expanded, and an inverted,
    huge or malformed item counted as invalid (the second value)."""
    found: list[int] = []
    bad = 0
    for item in re.split(r"\s*[,;]\s*", body.strip()):
        m = _ITEM.fullmatch(item)
        if m is None:
            bad += len(re.findall(r"\d+", item))
            continue
        first, last = int(m.group(1)), int(m.group(2) or m.group(1))
        if not first <= last < first + MAX_RANGE:
            bad += 2
            continue
        found.extend(range(first, last + 1))
    return list(dict.fromkeys(found)), bad


def find(text: str) -> list[int]:
    """Every number our citations in `text` name, in order of first appearance (documents' markers excluded)."""
    return list(dict.fromkeys(n for m in CITATION.finditer(text) for n in numbers(m.group(1))[0]))


def has(text: str) -> bool:
    return CITATION.search(text) is not None


def sub(text: str, replace: Callable[[list[int]], str]) -> str:
    """Each of our citations replaced by `replace(its numbers)`; documents' markers untouched."""
    return CITATION.sub(lambda m: replace(numbers(m.group(1))[0]), text)


def renumber(text: str, mapping: Mapping[int, str | int]) -> str:
    """Our citations renumbered by `mapping` (numbers it lacks stay); documents' markers untouched."""
    return sub(text, lambda ns: marker(mapping.get(n, n) for n in ns))


def clean(text: str, valid: set[int]) -> tuple[str, int, list[int]]:
    """Our citations rewritten as `[n][m]` with numbers outside `valid` dropped: (text, removed count, kept)."""
    removed = 0
    kept: list[int] = []

    def fix(m: re.Match[str]) -> str:
        nonlocal removed
        nums, bad = numbers(m.group(2))
        good = [n for n in nums if n in valid]
        removed += bad + len(nums) - len(good)
        kept.extend(good)
        return m.group(1) + marker(good) if good else ""

    return re.sub(r"(\s?)" + CITATION.pattern, fix, text), removed, kept


def strip(text: str) -> str:
    """The text without our citations, documents' markers verbatim: what a quote said."""
    out = re.sub(r"\s?" + CITATION.pattern, "", text)
    return unescape(out)


def claims(text: str) -> list[str]:
    """A finding's claims: cut after each of our citations (when text follows) and at sentence ends."""
    pieces: list[str] = []
    pos = 0
    for m in CITATION.finditer(text):
        rest = text[m.end():]
        if rest[:1].isspace() and not rest.lstrip().startswith("["):
            pieces.append(text[pos:m.end()])
            pos = m.end()
    pieces.append(text[pos:])
    return [s.strip() for p in pieces for s in _SENTENCE_END.split(p) if s.strip()]


def verbatim(synthesis: Synthesis) -> Synthesis:
    """A copy whose text shows documents' markers as written (`[4]`): for output that does not render Markdown."""
    return synthesis.model_copy(update={
        "summary": unescape(synthesis.summary),
        "findings": [f.model_copy(update={"content": unescape(f.content)}) for f in synthesis.findings],
        "contradictions": [c.model_copy(update={"description": unescape(c.description),
                                                 "suggestion": unescape(c.suggestion)})
                           for c in synthesis.contradictions],
        "gaps": [unescape(g) for g in synthesis.gaps],
    })

"""Acronyms a document defines ("Leave Without Pay (LWOP)"), so a sentence that only uses "LWOP" still reads as
being about leave without pay.

Handbooks define a term once and abbreviate it after: "To request over 80 hours of LWOP, you must get written
approval from your immediate supervisor and Business Unit Director." answers "I need three weeks off without pay,
whose sign-off do I need?", but shares none of its words and little of its meaning unless LWOP is spelled out.
A definition is a parenthesised run of 2-6 letters (two or more capitals, an optional plural "s") spelled, in order,
by the words just before it: each word gives its initial and may give more of its letters ("Leave WithOut Pay
(LWOP)"); a small word may give its initial or nothing ("Family and Medical Leave Act (FMLA)", "Department of Defense
(DoD)").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..stems import content_stems

_DEFINED = re.compile(r"\((?P<acr>[A-Z][A-Za-z]{1,5}?)s?\)")
_SMALL = frozenset({"of", "and", "the", "for", "to", "in", "on", "a", "an", "&"})
_WORDS_BEFORE = re.compile(r"[A-Za-z][\w'-]*|&")
_USE = re.compile(r"\b([A-Z][A-Za-z]{1,5}?)s?\b")


def definitions(texts: Iterable[str]) -> dict[str, str]:
    """Acronym → its expansion, from every "Words Spelled Out (WSO)" in `texts` (the first definition wins)."""
    found: dict[str, str] = {}
    for text in texts:
        for m in _DEFINED.finditer(text):
            acr = m.group("acr")
            if acr in found or sum(ch.isupper() for ch in acr) < 2:
                continue
            words = _WORDS_BEFORE.findall(text[max(0, m.start() - 120):m.start()])
            if expansion := _spelled(acr, words):
                found[acr] = expansion
    return found


def _spelled(acr: str, words: list[str]) -> str:
    """The shortest run of words ending right before the parenthesis that spells `acr`."""
    letters = acr.lower()
    for start in range(len(words) - 1, max(-1, len(words) - len(letters) * 2 - 2), -1):
        run = [w.lower() for w in words[start:]]
        if run[0] not in _SMALL and _fits(letters, run):
            return " ".join(words[start:])
    return ""


def _fits(letters: str, run: list[str]) -> bool:
    """Each word gives its initial, and may give more of its letters in order ("Leave WithOut Pay" → LWOP); a small
    word may give its initial or nothing ("Department of Defense" → DoD, "Family and Medical Leave Act" → FMLA)."""
    if not run:
        return not letters
    word, rest = run[0], run[1:]
    if word in _SMALL and _fits(letters, rest):
        return True
    if not letters or word[0] != letters[0]:
        return False
    for taken in range(1, len(letters) + 1):
        if _subsequence(letters[1:taken], word[1:]) and _fits(letters[taken:], rest):
            return True
    return False


def _subsequence(part: str, word: str) -> bool:
    it = iter(word)
    return all(ch in it for ch in part)


def spelled_out(text: str, known: dict[str, str]) -> set[str]:
    """The defined acronyms whose expansion `text` spells out, by its content words in any form ("Who came up with
    the Centers of Excellence idea?" asks about CoE, defined as "Centers of Excellence (CoE)")."""
    words = content_stems(text)
    return {acr for acr, meaning in known.items() if (spelled := content_stems(meaning)) and spelled <= words}


def expand(text: str, known: dict[str, str]) -> str:
    """`text` with each defined acronym it uses followed by its expansion ("LWOP (Leave Without Pay)"), once each;
    an acronym already spelled out in the text is left alone."""
    if not known:
        return text
    done: set[str] = set()

    def spell(m: re.Match[str]) -> str:
        acr = m.group(1)
        meaning = known.get(acr)
        if meaning is None or acr in done or meaning.lower() in text.lower():
            return m.group(0)
        done.add(acr)
        return f"{m.group(0)} ({meaning})"

    return _USE.sub(spell, text)

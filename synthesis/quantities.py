"""Quantities in text: numbers with their units ("30 minutes", "two weeks", "20%"), read to one base unit per family
so that "1 hour" and "60 minutes" agree. One home for every reader of quantities (answerability, the reader,
contradictions, the question's values)."""

from __future__ import annotations

import re

# numbers written as words
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40,
                "fifty": 50, "sixty": 60, "ninety": 90, "hundred": 100}
NUMBER_WORD = "|".join(NUMBER_WORDS)  # a regex alternation
# unit → (family, factor to the family's base unit) so "1 hour" and "60 minutes" agree
UNITS = {
    "second": ("time", 1 / 60), "sec": ("time", 1 / 60), "s": ("time", 1 / 60), "minute": ("time", 1),
    "min": ("time", 1), "hour": ("time", 60), "hr": ("time", 60), "h": ("time", 60), "day": ("time", 1440),
    "week": ("time", 10080), "month": ("time", 43200), "year": ("time", 525600), "ms": ("time", 1 / 60000),
    "%": ("percent", 1), "percent": ("percent", 1), "per cent": ("percent", 1),
    "gb": ("bytes", 1024), "mb": ("bytes", 1), "tb": ("bytes", 1024 * 1024), "kb": ("bytes", 1 / 1024),
    "x": ("times", 1), "times": ("times", 1), "fold": ("times", 1),
    "people": ("people", 1), "person": ("people", 1), "engineers": ("people", 1), "engineer": ("people", 1),
    "approvals": ("approvals", 1), "approval": ("approvals", 1), "reviewers": ("approvals", 1),
    "reviewer": ("approvals", 1),
    "per million": ("per-million", 1), "patients": ("patients", 1), "mg": ("mg", 1), "g": ("mg", 1000),
}
_UNIT_PATTERN = "|".join(sorted((re.escape(u) for u in UNITS), key=len, reverse=True))
# A digit may touch its unit ("30s", "5h"); a number word may not, and starts a word: "ones" and "bones" are no
# seconds. Repeats are bounded, so a run of "1,1,1,…" or of digits costs linear time, not quadratic.
_NUM = r"\b(?:(?P<num>\d{1,15}(?:[.,]\d{1,15}){0,4})(?:\s*-\s*|\s*)|(?P<word>" + NUMBER_WORD + r")(?:\s*-\s*|\s+))"
_QUANTITY = re.compile(_NUM + r"(?P<unit>" + _UNIT_PATTERN + r")s?\b(?!-)", re.IGNORECASE)
_QUANTITY_PCT = re.compile(r"(?P<num>\d{1,15}(?:\.\d{1,15})?)\s*(?P<unit>%)")


def quantities(text: str) -> list[tuple[str, float, str, int]]:
    """(family, value in base unit, surface text, position) for every number-with-unit in the text."""
    found = []
    for m in list(_QUANTITY.finditer(text)) + list(_QUANTITY_PCT.finditer(text)):
        raw = (m.group("num") or m.group("word")).lower()
        try:
            value = float(NUMBER_WORDS.get(raw, raw.replace(",", "")))
        except ValueError:
            continue
        unit = m.group("unit").lower()
        family, factor = UNITS.get(unit, ("percent", 1) if unit == "%" else (unit, 1))
        found.append((family, value * factor, m.group(0), m.start()))
    return list({(f, v, s, p) for f, v, s, p in found})

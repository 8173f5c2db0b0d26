"""Sums of money the asker states as theirs and the thresholds a rule is stated for: which clause of "Conference
events that cost less than $2,500 … / more than $2,500 …" is the asker's case. Split from `values`."""

from __future__ import annotations

import re

# A sum of money the asker states ("a regional conference that'll cost about $1,200 all in") against the thresholds
# a rule is stated for ("Conference events that cost less than $2,500" / "… more than $2,500"): a clause whose
# threshold the sum meets states the asker's case; a sentence all of whose clauses state thresholds it fails states
# another's (a clause with none, "Speaking events in your official capacity", may be the asker's). THRESHOLDS
THRESHOLDS = True
_AMOUNT = r"\$\s?(?P<v>\d[\d,]*(?:\.\d+)?)\s*(?P<vk>k\b|thousand\b|million\b)?"
_MONEY = re.compile(_AMOUNT, re.I)
_PER = re.compile(r"^\s*(?:/\s*|per\s+|a\s+|an\s+|each\s+)(?:hour|day|night|week|month|year|mile|person|seat)", re.I)
_UNDER, _UP_TO = r"less than|under|below", r"up to|no more than|at most|not (?:to )?exceed(?:ing)?|within"
_OVER, _FROM = r"more than|over|above|exceeding|exceeds|greater than", r"at least"
_THRESHOLD_AT = re.compile(rf"\b(?P<op>{_UNDER}|{_UP_TO}|{_OVER}|{_FROM})\s+{_AMOUNT}|"
                           rf"{_AMOUNT.replace('?P<v>', '?P<v2>').replace('?P<vk>', '?P<vk2>')}\s+or\s+"
                           r"(?P<post>more|above|greater|higher|less|under|below|lower)\b", re.I)
_BELOW_OPS = re.compile(rf"^(?:{_UNDER}|{_UP_TO}|less|under|below|lower)$", re.I)
_INCLUSIVE = re.compile(rf"^(?:{_UP_TO}|{_FROM})$", re.I)


def _dollars(value: str, scale: str | None) -> float:
    return float(value.replace(",", "")) * {"k": 1e3, "thousand": 1e3, "million": 1e6}.get((scale or "").lower(), 1.0)


def told_amounts(question: str) -> list[float]:
    """The sums of money the asker states as theirs ("about $1,200"): not a threshold they ask about ("over $500",
    "under $25" read so too; answerability's unmet thresholds look at those) and not a rate ("$1,200/month")."""
    if not THRESHOLDS:
        return []
    limits = {m.start("v") for m in _THRESHOLD_AT.finditer(question) if m.group("v")}
    limits |= {m.start("v2") for m in _THRESHOLD_AT.finditer(question) if m.group("v2")}
    return [_dollars(m.group("v"), m.group("vk")) for m in _MONEY.finditer(question)
            if m.start("v") not in limits and not _PER.match(question[m.end():])]


# "For something under $2,500 including travel, is the lead time different for a standalone training course versus a
# conference?" was answered with "Conference events that costs more than $2,500": a bound the asker puts on their own
# thing is their case as a sum is, a sum just inside it (ASKED_BOUNDS; only one bound: "between $500 and $2,500", "under
# $2,500 or over it" ask of more than one case)
ASKED_BOUNDS = True
_OTHER_CASE = re.compile(r"\b(?:or|vs\.?|versus|and)\s+(?:(?:what|how)\s+about\s+)?(?:" + _UNDER + "|" + _OVER
                         + r"|more|less|above|below)\b|\b(?:larger|bigger|smaller|cheaper|higher|lower|pricier)\s+"
                           r"(?:ones?|amounts?|purchases?|trips?|orders?)\b|\bwhat about\b", re.I)
# (a limit asked of ("Is the micro-purchase threshold still over $10,000?") is no bound on the asker's thing)
_LIMIT_NAMED = re.compile(r"\b(?:threshold|limit|cap|ceiling|maximum|minimum)\b[^$?]{0,30}$", re.I)


def asked_bounds(question: str) -> list[float]:
    """A sum just inside the one bound the asker puts on their thing ("under $2,500" → 2,499.99), or none."""
    found = [m for m in _THRESHOLD_AT.finditer(question) if m.group("v")] if ASKED_BOUNDS else []
    if len(found) != 1 or _OTHER_CASE.search(question):
        return []
    op, amount = found[0].group("op"), _dollars(found[0].group("v"), found[0].group("vk"))
    if (op.lower() == "within" or _PER.match(question[found[0].end():])
            or _LIMIT_NAMED.search(question[:found[0].start()])):
        return []  # "within $20 of the lodging rate", "a hotel over $200 a night", "the threshold still over …"
    if _INCLUSIVE.match(op):
        return [amount]
    return [amount - 0.01 if _BELOW_OPS.match(op) else amount + 0.01]


def _thresholds(clause: str) -> list[tuple[bool, bool, float]]:
    """(below, inclusive, amount) of each threshold a clause states."""
    out = []
    for m in _THRESHOLD_AT.finditer(clause):
        if m.group("v"):
            op = m.group("op")
            out.append((bool(_BELOW_OPS.match(op)), bool(_INCLUSIVE.match(op)), _dollars(m.group("v"), m.group("vk"))))
        else:  # "$2,500 or more"
            out.append((bool(_BELOW_OPS.match(m.group("post"))), True, _dollars(m.group("v2"), m.group("vk2"))))
    return out


def threshold_case(amounts: list[float], text: str) -> bool | None:
    """True when a clause's threshold holds for one of the asker's sums; False when every clause states thresholds
    and none holds; None when the text states none."""
    clauses = [_thresholds(c) for c in re.split(r"[;:]\s+", text)]
    if not any(clauses):
        return None

    def holds(below: bool, inclusive: bool, v: float, a: float) -> bool:
        return (a <= v if inclusive else a < v) if below else (a >= v if inclusive else a > v)

    if any(holds(*t, a) for found in clauses for t in found for a in amounts):
        return True
    return False if all(clauses) else None


__all__ = ["asked_bounds", "threshold_case", "told_amounts"]

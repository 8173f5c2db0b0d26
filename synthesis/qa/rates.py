"""An amount of money asked per unit of time, distance or use, and whether a sentence states one: "What's the
per-mile rate I get reimbursed?" is answered by "$0.67 per mile", not by the page's "$69 per day". Split from `values`,
which reads the kind of value a part asks; `unstated` reads both."""

from __future__ import annotations

import functools
import re

from .values import PRICE, states_value

# An amount of money per unit of time, distance or use ("What's the per-mile rate I get reimbursed?", "the max dollar
# amount it covers per month", "How much training budget does each employee get per year?", "my hourly pay rate"):
# only an amount stated per that unit answers it ("$500 per month", "$75/hour", "a monthly limit of $300"); another
# rate on the page ("$69 per day" for a per-mile question) does not. The part must ask about money (a cost, pay, a
# budget, a stipend, a reimbursement …): "How much leave do I earn each month?" and "the hourly API rate limit" ask
# none. "How much of the daily meal allowance …" asks a share of it, no rate.
RATES = True
_PERIODS = {"hour": "hour", "hr": "hour", "day": "day", "diem": "day", "night": "night", "week": "week",
            "month": "month", "mo": "month", "year": "year", "yr": "year", "annum": "year"}
# (per person, per seat, per session are left alone: a price "per participant" answers "per session" as often)
_UNITS = {**_PERIODS, "mile": "mile", "hourly": "hour", "daily": "day", "nightly": "night", "weekly": "week",
          "monthly": "month", "yearly": "year", "annual": "year", "annually": "year"}
_PERIOD = r"(?:hour|day|night|week|month|year)s?"
_UNIT = r"(?:mile|hour|day|night|week|month|year)s?"
_MONEY_NOUN = r"(?:rate|stipend|allowance|budget|subsidy|reimbursement|pay|salary|cost|fee|price)"
# ("monthly stipend", "hourly rate"; not "annual salary" or "annual leave cap": a salary is yearly whatever is asked)
_RATE_NOUN = r"(?:rate|stipend|allowance|budget|subsidy|reimbursement)"
_ASKS_RATE = re.compile(
    rf"\b(?:cents|dollars?)[- ]per[- ](?P<a>{_UNIT})\b|\bper[- ](?P<b>{_UNIT})\s+{_MONEY_NOUN}\b|"
    # "a month", "each month" is per month (per period only: "How much does a seat cost?" asks a price)
    rf"\bhow much\b(?!\s+of\b)[^?]*?\b(?:per\s+(?P<c>{_UNIT})|(?:each|every|a|an)\s+(?P<d>{_PERIOD}))\b|"
    rf"\bdollar (?:amount|limit|cap)\b[^?]*?\b(?:per\s+(?P<e>{_UNIT})|(?:each|every|a|an)\s+(?P<f>{_PERIOD}))\b|"
    rf"\b(?P<g>hourly|daily|nightly|weekly|monthly|yearly|annual)\s+(?:[\w-]+\s+)?{_RATE_NOUN}\b", re.I)
# "What's the most the transit subsidy will cover per month?" (MOST_PER)
_MOST_PER = re.compile(rf"\bwhat(?:'s|’s| is) the (?:most|max|maximum|limit|cap)\b[^?]*?\bper\s+(?P<h>{_UNIT})\b",
                       re.I)
# the most or the limit of money per unit ("What's the most the transit subsidy will cover per month?", hp25): a rate
MOST_PER = True
_COUNTED_PER = re.compile(r"\bnumber of\b|\b(?:days|hours|weeks|nights|miles|trips|times|visits|sessions|people|"
                          r"seats|licenses|meetings|credits|units)\s+per\s+\w+$", re.I)
_REASON = re.compile(r"(?i)^\W*(?:why|how come)\b")  # a reason asked: "Why is my pay … less than my annual …"
_SHARE = re.compile(r"\bhow much of\b", re.I)
# what shows the part asks about money, not time, leave or storage (billing a partner is money too: "What hourly rate
# does 18F bill a partner agency?" is answered by an amount per hour, not by "$10,000/week at current billing
# rates", BILLED)
BILLED = True
_ABOUT_MONEY = re.compile(r"[$€£]|\b(?:cents|dollars?|costs?|pay|paid|spend|spent|reimburs\w*|stipends?|budgets?|"
                          r"allowances?|subsid\w*|prices?|fees?|salary|wages?|compensat\w*|per diem)\b", re.I)
# (with who or what is billed: not "charge my laptop", "take charge of", a bill of Congress)
_BILLING = re.compile(r"\b(?:bill|bills|charge|charges)\s+(?:a|an|the|our|their|its|partners?|agenc(?:y|ies)|clients?|"
                      r"customers?|for|per)\b|\bbilled\b|\bbilling rates?\b", re.I)
MAX_RATE_TEXT = 1000  # a part is read this far for a rate (a pasted essay is no question about one)
# Time is spent too: "How much time per week are core Writing Lab volunteers allowed to spend on Lab requests?" asks
# hours per week, and "spend" says nothing of money when the part asks how much time (TIME_SPENT; a cost or a price
# named beside it still does: "how much time and money do we spend per month")
TIME_SPENT = True
_TIME_ASKED = re.compile(r"\bhow much (?:of (?:my|our|your|their|the) )?(?:time|effort)\b(?![^?]*\bmoney\b)", re.I)
_SPENDING = re.compile(r"\b(?:spend|spent)\b", re.I)


def asked_rate(text: str, question: str = "") -> str | None:
    """The unit an amount of money is asked per in `text` ("mile" for "What's the per-mile rate …?"), when it or the
    whole `question` it is part of is about money ("… what's the pay rate - is it … my hourly rate?", "What hourly
    rate does 18F bill a partner agency?", BILLED), else None."""
    about = f"{text} {question}"[:2 * MAX_RATE_TEXT]
    if TIME_SPENT and _TIME_ASKED.search(text):
        about = _SPENDING.sub(" ", about)
    if not RATES or _REASON.match(text) or not (_ABOUT_MONEY.search(about) or (BILLED and _BILLING.search(about))):
        return None
    return _rate_unit(text[:MAX_RATE_TEXT], MOST_PER)


@functools.lru_cache(maxsize=256)  # read per part (the rule's flag is in the key)
def _rate_unit(text: str, most_per: bool) -> str | None:
    if _SHARE.search(text):
        return None
    if not (m := _ASKS_RATE.search(text)):
        m = _MOST_PER.search(text) if most_per else None
        if m is None or _COUNTED_PER.search(m.group(0)):
            return None  # "the maximum number of trips per month", "the limit on paid sick days per year": a count
    word = next(g for g in m.groups() if g).lower()
    word = word if word in _UNITS else word.rstrip("s")
    return _UNITS.get(word, word)


def rate_words(unit: str) -> set[str]:
    """The words that name `unit` ("month", "monthly", "mo"): no topic of what the rate is of."""
    return {w for w, u in _UNITS.items() if u == unit} | {unit}


def states_rate(text: str, unit: str) -> bool:
    """The text states an amount of money per `unit` ("$500 per month", "$75/hour", "$25/mo", "a monthly limit of
    $300", "$1,200 per annum"; a per diem is per day)."""
    if not states_value(text, PRICE):
        return False
    names = "|".join(sorted(w for w in rate_words(unit) if w in _PERIODS or w == unit))
    adjectives = "|".join(sorted(w for w in rate_words(unit) if w not in _PERIODS and w != unit))
    # ("per fiscal year", "a calendar month": one word may stand between)
    per = rf"(?:\b(?:per|a|an|each|every)\s+(?:[\w-]+\s+)?|/\s*)(?:{names})s?\b" + (
        rf"|\b(?:{adjectives})\b" if adjectives else "")
    return bool(re.search(per, text, re.I))


__all__ = ["asked_rate", "rate_words", "states_rate"]

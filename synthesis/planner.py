"""The offline planner: question type, standalone rewrite of a follow-up, and sub-queries."""

from __future__ import annotations

import re
from collections.abc import Sequence

import structlog

from .models import Plan, QuestionType, Turn
from .sentences import STOPWORDS, content_words, key_phrases, keyword_query

log = structlog.get_logger(__name__)

MAX_SUB_QUERIES = 5

# Checked in this order: the first type whose cue matches wins (meta and gap-finding are the most specific).
_TYPE_CUES: list[tuple[QuestionType, re.Pattern[str]]] = [
    (QuestionType.META, re.compile(
        r"\b(what (topics|documents|docs|sources)|which (documents|docs|sources|topics)|list (all|the) (docs|documents"
        r"|topics|sources)|how many (documents|docs|sources)|knowledge base|what do you know|what can you (answer|tell)"
        r"|what('s| is) (covered|in the kb)"
        # about the knowledge base's coverage of a topic: answered with the coverage report, not passages
        r"|how (complete|thorough|comprehensive|good|up[- ]to[- ]date) (is|are) (our|the)\b.{0,60}\b(docs|documentation"
        r"|handbook|wiki|knowledge|pages?)|what (do|does) (we|the (kb|handbook|wiki|docs)) have (on|about|for)"
        r"|what (docs|documentation|pages) (do|does) we have|how (well|much) (is|are|do we document)\b.{0,60}"
        r"\b(covered|documented)|coverage (of|for))\b", re.I)),
    (QuestionType.GAP_FINDING, re.compile(
        r"\b(gaps?|missing|not (documented|covered|explained)|undocumented|what('s| is) (missing|unclear)|"
        r"(do|does|don't|doesn't) we (have|document)|is there (any )?(documentation|a doc|a policy)|unanswered|"
        r"open questions?)\b", re.I)),
    (QuestionType.COMPARATIVE, re.compile(
        r"\b(vs\.?|versus|compare[sd]?|comparison|difference|differences|differ|better|worse|pros and cons|"
        r"trade-?offs?|similarit(y|ies)|rather than|instead of|or)\b", re.I)),
    (QuestionType.RELATIONAL, re.compile(
        r"\b(relat(e|es|ed|ion|ionship)|connect(ed|ion)?|depend(s|ency|encies|ent)?|affect(s|ed)?|impact(s|ed)?|"
        r"interact(s|ion)?|link(ed)?|between|lead(s)? to|cause[sd]?|because of|influence[sd]?)\b", re.I)),
    (QuestionType.EXPLORATORY, re.compile(
        r"^(how (?!long|many|much|often|soon|quickly|fast|big|old\b)|why|explain|describe|tell me about|overview|summari[sz]e|walk me through|what are the (main|key)|"
        r"what should i know|give me an overview)\b|\b(overview|in general|best practices?|approach(es)?)\b", re.I)),
]
_COMPARE_SPLIT = re.compile(r"\s+(?:vs\.?|versus|compared (?:to|with)|or|and|rather than|instead of)\s+", re.I)
_COMPARE_LEAD = re.compile(
    r"^(?:what(?:'s| is| are)? (?:the )?(?:differences?|trade-?offs?|pros and cons) (?:between|of)|compare|"
    r"how (?:does|do|is|are)|which is better[,:]?|should (?:we|i) use)\s+", re.I)
_PART_SPLIT = re.compile(
    r"(?:[?;]\s+|,\s*(?:and|also|plus)\s+|\s+and also\s+|\?\s*$|"
    r",\s*(?=(?:who|what|when|where|why|how|which|is|are|does|do|can|should)\b))", re.I)
_PRONOUN = re.compile(r"\b(it|its|they|them|their|that|this|those|these|he|she|him|her)\b", re.I)
_WHAT_ABOUT = re.compile(r"^\s*(?:and\s+)?(?:what|how)\s+about\s+(?P<x>.+?)\s*\??\s*$", re.I)
_LEADING_AND = re.compile(r"^\s*(?:and|also|so|ok(?:ay)?|then)[,\s]+", re.I)
_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.I)
_CONDITION = re.compile(r"(?<=\w)\s+(?:if|when|whenever)\s+(?P<clause>.+)$", re.I)  # not the question's "When …"
# Words that say what to do or when, never what about: a part made only of these lost its subject in the split.
_GENERIC = frozenset("""check first next then step steps start begin look happen happens happened need needs
should must can do does done go goes going call ask try make take takes taken before after now later first
thing things anything something else also""".split())
_SUBJECT_PRONOUNS = {"it", "they", "that", "this", "those", "these", "he", "she"}


def classify(question: str) -> QuestionType:
    """The first matching cue decides; anything else is a plain factual question."""
    q = question.strip()
    for qtype, cue in _TYPE_CUES:
        if qtype is QuestionType.COMPARATIVE and not _is_comparison(q):
            continue
        if cue.search(q):
            return qtype
    return QuestionType.FACTUAL


def _is_comparison(q: str) -> bool:
    """'or' and 'better' alone are weak cues: require a real two-sided shape or an explicit comparison word."""
    if re.search(r"\b(vs\.?|versus|compare[sd]?|comparison|differences?|differ|pros and cons|trade-?offs?|"
                 r"rather than|instead of)\b", q, re.I):
        return True
    return bool(re.search(r"\b(which|should (?:we|i))\b.*\b(or)\b", q, re.I))


def comparison_sides(question: str) -> list[str]:
    """'X vs Y' → ['X', 'Y'] (only when both sides are non-empty)."""
    body = _COMPARE_LEAD.sub("", question.strip().rstrip("?").strip())
    body = re.sub(r"^(?:the )?(?:difference|differences) between\s+", "", body, flags=re.I)
    sides = [_ARTICLE.sub("", s.strip(" ,.")) for s in _COMPARE_SPLIT.split(body) if s.strip(" ,.")]
    sides = [s for s in sides if content_words(s)]
    return sides if len(sides) >= 2 else []


def question_parts(question: str) -> list[str]:
    """'A, and B?' / 'A? B?' → ['A', 'B'] when each part carries its own content; a part that lost its subject
    ('what should I check first') gets it back from the part before it."""
    parts = [p.strip(" ,.") for p in _PART_SPLIT.split(question.strip()) if p and p.strip(" ,.")]
    parts = [p for p in parts if len(content_words(p)) >= 2]
    if len(parts) < 2:
        return []
    return [parts[0], *(with_subject(p, parts[i]) for i, p in enumerate(parts[1:]))]


def with_subject(part: str, before: str) -> str:
    """'what should I check first' after 'who do I page if the queue backs up' → '… first when the queue backs up'.

    Only a part made of generic words ('check', 'first', 'next') lost its subject in the split; it takes the earlier
    part's condition ('if/when …'), else that part's main noun phrase.
    """
    words = content_words(part)
    if not words or not all(w in _GENERIC for w in words):
        return part
    if condition := _CONDITION.search(before):
        return f"{part} when {condition.group('clause').strip(' ,.?')}"
    subject = main_noun_phrase(before)
    return f"{part} for the {subject}" if subject else part


def main_noun_phrase(text: str) -> str:
    """The longest key phrase of a question: what a pronoun in the follow-up most likely points at."""
    phrases = key_phrases(text)
    if not phrases:
        return ""
    return max(phrases, key=lambda p: (len(p.split()), phrases.index(p)))  # ties: the later phrase, usually the object


def rewrite_followup(question: str, history: Sequence[Turn]) -> str:
    """Make a follow-up standalone: 'what about X?' substitutes X; pronouns resolve to the previous main phrase."""
    if not history:
        return question.strip()
    prev = history[-1].standalone or history[-1].question
    q = _LEADING_AND.sub("", question.strip())
    if m := _WHAT_ABOUT.match(q):
        new = _ARTICLE.sub("", m.group("x").strip())
        old = main_noun_phrase(prev)
        if old and old.lower() in prev.lower():
            pattern = re.compile(r"\b(?:(?:a|an|the)\s+)?" + re.escape(old), re.I)
            return pattern.sub(lambda hit: ("the " if hit.group(0) != old else "") + new, prev, count=1).strip()
        return f"{prev.rstrip('?')} — {new}?"
    words = re.findall(r"\w+", q.lower())
    refers_back = bool(_PRONOUN.search(q)) and len([w for w in words if w not in STOPWORDS]) <= 4  # short: leans on context
    if not refers_back:
        return q
    subject = main_noun_phrase(prev)
    if not subject:
        return q
    noun = subject if subject[:1].isupper() else f"the {subject}"

    def replace(m: re.Match[str]) -> str:
        word = m.group(0)
        if word.lower() in ("its", "their"):
            return f"{noun}'s"
        if word.lower() in ("that", "this", "those", "these") and _followed_by_noun(q, m.end()):
            return word  # a determiner ("that rule") is not a pronoun
        return noun if word.lower() in _SUBJECT_PRONOUNS or word.lower() in ("them", "him", "her") else word

    rewritten = _PRONOUN.sub(replace, q, count=1)
    return rewritten[0].upper() + rewritten[1:] if rewritten else rewritten


def _followed_by_noun(text: str, pos: int) -> bool:
    nxt = re.match(r"\s+(\w+)", text[pos:])
    return bool(nxt) and nxt.group(1).lower() not in STOPWORDS


def sub_queries(question: str, qtype: QuestionType, *, limit: int = MAX_SUB_QUERIES) -> list[str]:
    """The question itself, then its decomposition (sides or parts), then the keyword variant; capped."""
    queries = [question.strip()]
    if qtype is QuestionType.COMPARATIVE:
        queries += comparison_sides(question)
    queries += question_parts(question)
    keywords = keyword_query(question)
    if keywords and len(keywords.split()) >= 2:
        queries.append(keywords)
    unique: list[str] = []
    for q in queries:
        if q and q.lower() not in (u.lower() for u in unique):
            unique.append(q)
    if len(unique) > limit:  # keep the original and the keyword variant; trim the decomposition
        unique = unique[:limit - 1] + [unique[-1]] if keywords and unique[-1] == keywords else unique[:limit]
    return unique


def plan(question: str, history: Sequence[Turn] = ()) -> Plan:
    """Classify, rewrite a follow-up into a standalone question, and decompose it into sub-queries."""
    standalone = rewrite_followup(question, history)
    qtype = classify(standalone)
    queries = sub_queries(standalone, qtype)
    log.debug("planner.plan", question_type=qtype.value, sub_queries=len(queries), rewritten=standalone != question)
    return Plan(question_type=qtype, standalone=standalone, sub_queries=queries)

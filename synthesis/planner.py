"""The offline planner: question type, standalone rewrite of a follow-up, and sub-queries."""

from __future__ import annotations

import re
from collections.abc import Sequence

import structlog

from .models import Plan, QuestionType, Turn
from .pointers import NOT_IT
from .stems import STOPWORDS, content_words, key_phrases, keyword_query

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
_PRONOUN = re.compile(rf"\b{NOT_IT}(it|its|they|them|their|that|this|those|these|he|she|him|her)\b", re.I)
# "and what about X?", "how about for X?", "same for X?", "and for X?": X replaces or qualifies the last question.
_WHAT_ABOUT = re.compile(
    r"^\s*(?:and\s+|but\s+|ok(?:ay)?,?\s+)?(?:(?:what|how)\s+about|(?:(?:and\s+)?(?:is\s+it\s+)?(?:the\s+)?same)"
    r"(?=\s+for\b)|and(?=\s+for\b))\s+(?P<x>.+?)\s*[?.!]*\s*$", re.I)
# "how about we meet?", "what about you?": a proposal or a question to us, not a new subject.
_NOT_A_SUBJECT = re.compile(r"^(?:we|i|you|us|me|ya|y'all)\b(?:\s+\w+)?", re.I)
_PREPOSITION = re.compile(r"^(?P<prep>for|in|on|at|during|after|before|when|if|while|with|without|under|outside|"
                          r"inside|from|to)\s+(?P<rest>.+)$", re.I)
_FIRST_PERSON = re.compile(r"\b(?P<aux>am|do|can|should|must|may|will|could|would|did)\s+(?P<who>I|we)\b"
                           r"|\b(?P<who2>I|we)\b(?!')", re.I)
# Who a question can be about: a follow-up naming one asks the same thing for them ("and what about part-timers?").
_PEOPLE = frozenset("""employee staff contractor intern manager supervisor part-timer full-timer hire worker engineer designer fellow
executive volunteer student team people member folk detailee temp parent caregiver veteran trainee appointee
retiree newcomer lead director consultant vendor partner remote teleworker federal civilian military spouse
dependent child children family user admin administrator developer""".split())
_POSSESSIVE = re.compile(r"\b(?:my|our)\b", re.I)
MAX_FOLLOWUP_WORDS = 7  # "what about <a longer clause>" is a question of its own, not a new subject
_LEADING_AND = re.compile(r"^\s*(?:and|also|so|ok(?:ay)?|then)[,\s]+", re.I)
_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.I)
_CONDITION = re.compile(r"(?<=\w)\s+(?:if|when|whenever)\s+(?P<clause>.+)$", re.I)  # not the question's "When …"
# Words that say what to do or when, never what about: a part made only of these lost its subject in the split.
_GENERIC = frozenset("""check first next then step steps start begin look happen happens happened need needs
should must can do does done go goes going call ask try make take takes taken before after now later first
thing things anything something else also""".split())
_UNITS = frozenset("minutes hours days weeks months years dollars".split())
# "which voucher type do I use to get paid back for professional liability insurance, and which one for a trip where
# I flew?": "which one" asks for the kind the earlier part's "which …" named; read alone, the second part asked about
# nothing but a trip (WHICH_ONE; the kind is one to three words between "which/what" and the part's verb)
WHICH_ONE = True
_WHICH_ONE = re.compile(r"(?i)^(?P<which>which|what)\s+ones?\b")
_AUX_OR_SUBJECT = r"(?:do|does|did|is|are|was|were|should|can|could|would|will|must|may|i|we|you|ones?)\b"
_WHICH_KIND = re.compile(rf"(?i)^(?:which|what)\s+(?P<kind>(?!{_AUX_OR_SUBJECT})[\w/-]+(?:\s+(?!{_AUX_OR_SUBJECT})"
                         r"[\w/-]+){0,2})\s+(?:do|does|did|is|are|was|were|should|can|could|would|will|must|may)\b")
POINTED_SUBJECT = True
_POINTS_BACK = re.compile(r"\b(?:to|from|with|for|about|of|on|reach|contact|ask|email|use|find) (?:them|it)\b", re.I)
_SUBJECT_PRONOUNS = {"it", "they", "that", "this", "those", "these", "he", "she"}
# A question asking who (its rest: "approves a production hotfix"), and a pronoun for a person, with the verb after
# it ("they are" becomes "the person who … is").
_WHO_ASKED = re.compile(r"^\s*who(?P<be>\s+(?:is|are))?\s+(?P<rest>[^?]+?)\s*\??\s*$", re.I)
# ("her" before a word is a possessive: "her manager")
_PERSON_PRONOUN = re.compile(r"\b(?:they|he|she|them|him|her(?!\s+[a-z]))\b"
                             r"(?:\s+(?P<verb>are|were|have|aren't|weren't|haven't|is|was|has)\b)?", re.I)
_SINGULAR = {"are": "is", "were": "was", "have": "has", "aren't": "isn't", "weren't": "wasn't", "haven't": "hasn't"}


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


def with_subject(part: str, before: str) -> str:
    """'what should I check first' after 'who do I page if the queue backs up' → '… first when the queue backs up'.

    A part made of generic words ('check', 'first', 'next') lost its subject in the split; it takes the earlier
    part's condition ('if/when …'), else that part's main noun phrase. A part of its own words pointing back with a
    pronoun ('where do I submit a request to them') takes that phrase in brackets; a shorter one ('who do I talk to
    about it') is read with the whole earlier part instead (see `qa.question.analyze`).
    """
    if WHICH_ONE and (one := _WHICH_ONE.match(part)) and (kind := _WHICH_KIND.match(before)):
        # "which one for a trip where I flew" after "which voucher type do I use to …": the kind asked before
        return f"{one.group('which')} {kind.group('kind')}{part[one.end():]}"
    words = content_words(part)
    if POINTED_SUBJECT and len(words) >= 2 and _POINTS_BACK.search(part) and not all(w in _GENERIC for w in words):
        # "where do I submit a request to them" after "What was the TTS Tech Operations team called before": the
        # pronoun's noun, named in the earlier part, is what this part is searched and read about
        subject = main_noun_phrase(before)
        return f"{part} ({subject})" if len(subject.split()) >= 2 and subject.lower() not in part.lower() else part
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
    """Make a follow-up standalone: 'what about X?' asks the previous question about X; pronouns resolve to the
    previous main phrase."""
    if not history:
        return question.strip()
    prev = history[-1].standalone or history[-1].question
    if (m := _WHAT_ABOUT.match(question.strip())) and (rewritten := what_about(prev, m.group("x"))):
        return rewritten[:1].upper() + rewritten[1:]
    q = _LEADING_AND.sub("", question.strip())
    words = re.findall(r"\w+", q.lower())
    refers_back = bool(_PRONOUN.search(q)) and len([w for w in words if w not in STOPWORDS]) <= 4  # short: leans on context
    if not refers_back:
        return q
    if (who := _WHO_ASKED.match(prev)) and (person := _PERSON_PRONOUN.search(q)):
        # after "Who approves a production hotfix?", "they" in "and what if they are unreachable?" is whoever does
        # (it had become "the production hotfix")
        verb = _SINGULAR.get((person.group("verb") or "").lower(), person.group("verb") or "")
        rest = who.group("rest").strip()  # "Who is the on-call lead?": the person is the on-call lead
        said = (rest if who.group("be") else f"the person who {rest}") + (f" {verb}" if verb else "")
        rewritten = q[:person.start()] + said + q[person.end():]
        return rewritten[0].upper() + rewritten[1:]
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


# People a question can be asked for as a group (not a role it asks about: "the manager", "who leads").
_GROUPS = frozenset("""employee staff contractor intern part-timer full-timer hire worker fellow volunteer student
folk detailee temp trainee appointee retiree newcomer consultant teleworker civilian""".split())


def _is_people(phrase: str, kinds: frozenset[str] = _PEOPLE) -> bool:
    """The phrase's head word (singular or plural) names people of `kinds`."""
    words = re.findall(r"[\w-]+", phrase.lower())
    if not words:
        return False
    head = words[-1]
    return any(w in kinds for w in (head, head[:-1] if head.endswith("s") else head, head.rstrip("s")))


def _is_group(phrase: str) -> bool:
    return _is_people(phrase, _GROUPS)


def what_about(prev: str, x: str) -> str | None:
    """`prev` asked about X instead, or None when X is not a new subject (a proposal, a clause of its own).

    - a preposition phrase ("for contractors", "in Colorado") replaces the same preposition's phrase at the end of
      `prev`, else is added at its end;
    - people ("part-timers") replace a first-person asker ("can I carry over" → "can part-timers carry over"), else
      the question is asked for them;
    - anything else replaces the phrase of `prev` it shares a word with ("sick leave" for "annual leave"), else
      `prev`'s main noun phrase ("staging" for "production").
    """
    x = x.strip().strip(" ,")
    x = re.sub(r"^(?:the\s+)?same\s+", "", x, flags=re.I)
    if not x or _NOT_A_SUBJECT.match(x) or len(x.split()) > MAX_FOLLOWUP_WORDS:
        return None
    body = prev.strip().rstrip("?.! ")
    m = _PREPOSITION.match(x)
    who = m.group("rest") if m and m.group("prep").lower() == "for" else x if not m else ""
    if who and _is_people(who):
        if swapped := _swap_asker(body, _ARTICLE.sub("", who)):
            return swapped + "?"
        # "full-time employees" → "part-timers": a group of staff gives way to another group, never a role that
        # is asked about ("Who is the manager of …")
        if _is_group(who) and (group := next((p for p in key_phrases(body) if _is_group(p)), "")):
            return _replace_phrase(body, group, _ARTICLE.sub("", who))
        shared = _shared_phrase(body, _ARTICLE.sub("", who))
        if shared and shared.split()[-1].lower() == who.split()[-1].lower():  # "the design team" for "the platform
            return _replace_phrase(body, shared, _ARTICLE.sub("", who))  # team", never "new hires" for "new laptop"
        body = _POSSESSIVE.sub("their", body)  # "my 401k" asked for contractors is their 401k
        tail = re.search(r"\bfor\s+(?!(?:the\s+)?(?:first|next|last)\b)[^,;]+$", body, re.I)
        return f"{body[:tail.start()] if tail else body + ' '}for {who}?"
    if m is not None:
        prep, rest = m.group("prep").lower(), m.group("rest")
        tail = re.search(rf"\b{prep}\s+(?!(?:the\s+)?(?:first|next|last)\b)[^,;]+$", body, re.I)
        return f"{body[:tail.start()] if tail else body + ' '}{prep} {rest}?"
    new = _ARTICLE.sub("", x)
    # a thing replaces a thing, not the people the question is about ("sick leave" for "vacation days", never for
    # "full-time employees")
    things = [p for p in key_phrases(body) if not _is_people(p)]
    old = _shared_phrase(body, new) or (main_noun_phrase(" , ".join(things)) if things else main_noun_phrase(body))
    if old and old.lower() in body.lower():
        unit = old.split()[-1]
        # "How many vacation days …": the unit belongs to the quantity asked
        if (re.search(rf"(?i)\bhow (?:many|much)\s+{re.escape(old)}", body) and len(old.split()) > 1
                and unit.lower() in _UNITS
                and unit.lower() not in new.lower()):
            new = f"{unit} of {new}"  # "How many vacation days" asked of sick leave: "How many days of sick leave"
        return _replace_phrase(body, old, new)
    return f"{body} — {new}?"


def _replace_phrase(body: str, old: str, new: str) -> str:
    """`body` with its first `old` (and the article before it) replaced by `new`, as a question."""
    pattern = re.compile(r"\b(?:(?:a|an|the)\s+)?" + re.escape(old), re.I)
    return pattern.sub(lambda hit: ("the " if hit.group(0) != old else "") + new, body, count=1).strip() + "?"


def _swap_asker(body: str, people: str) -> str | None:
    """'How many days can I carry over' → 'How many days can part-timers carry over' (None without an I/we)."""
    m = _FIRST_PERSON.search(body)
    if m is None:
        return None
    if m.group("aux"):
        aux = m.group("aux")
        if aux.lower() == "am":
            aux = "are" if people.lower().endswith("s") else "is"
        elif aux.lower() == "do" and not people.lower().endswith("s"):
            aux = "does"
        out = f"{body[:m.start()]}{aux} {people}{body[m.end():]}"
    else:
        out = f"{body[:m.start()]}{people}{body[m.end():]}"
    return _POSSESSIVE.sub("their", out)


def _shared_phrase(body: str, new: str) -> str:
    """The key phrase of `body` that shares a word with `new` ('annual leave' for 'sick leave'), else ''."""
    words = {w.lower() for w in re.findall(r"[\w-]+", new)}
    for phrase in key_phrases(body):
        if {w.lower() for w in phrase.split()} & words and phrase.lower() != new.lower():
            return phrase
    return ""


def _followed_by_noun(text: str, pos: int) -> bool:
    nxt = re.match(r"\s+(\w+)", text[pos:])
    return bool(nxt) and nxt.group(1).lower() not in STOPWORDS


def sub_queries(question: str, qtype: QuestionType, *, limit: int = MAX_SUB_QUERIES) -> list[str]:
    """The question itself, then its decomposition (sides or parts), then the keyword variant; capped."""
    from .qa.question import analyze  # the reader's own split: retrieval asks for the parts the reader will read

    queries = [question.strip()]
    frame = analyze(question)
    if len(frame.parts) > 1:  # a side alone ("canary"); a part with the statement it leans on
        queries += [p.search for p in frame.parts]
    elif qtype is QuestionType.COMPARATIVE:
        queries += comparison_sides(question)
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

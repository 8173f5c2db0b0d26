"""What the asking sentence points back at: "Will TTS pay for it?", "Is that eligible?", "What's the rate there?".

`answerability.missing_words` reads the words of the story told before the asking as the asker's situation, not the
topic, unless the asking points back at them ("I'd like a coworking space. Will TTS pay for it?"): then what the last
statement ends on, and its specific words, are the topic. Out of topic.py, which reads the words themselves.
"""

from __future__ import annotations

import re

from ..sentences import asked_sentences, told_statements
from ..stems import STOPWORDS, content_words, stem
from .question import zipf
from .topic import DETERMINERS, POINTED_WORDS, SPECIFIC_ZIPF, TOKEN
from .wordforms import lexicon

# Pointing back at what was told: "Will TTS pay for it?", "Is that eligible?", "Does this apply to me?", "get one?".
# A demonstrative points back unless it is a relative ("versions that have been out a while") or dates the question
# ("this week").
_PRONOUNS = frozenset("it its them they".split())
_DEMONSTRATIVES = frozenset("this that these those".split())
_TIME_NOUNS = frozenset("""week weeks month months year years quarter time morning afternoon evening weekend season
semester sprint release cycle""".split())
_ONE_ALONE = re.compile(r"\bones?(?=\s*[?.!,]|$)", re.I)


def _points_back(asking: str, told: str = "") -> bool:
    """Whether the asking sentence leans on what was told before it ("it", "that one", "this week"); `told` is the
    statements before it (CLAUSE_INSIDE reads them)."""
    if _ONE_ALONE.search(asking):
        return True
    # "a" too (it introduces a thing); a curly apostrophe is a straight one ("What’s that about?")
    if DUMMY_IT:  # "how long does it take to get the go-ahead?": that "it" points at nothing told
        asking = _DUMMY_IT.sub(" ", asking.replace("\u2019", "'"))
    toks = _asking_tokens(asking)
    clause = _CLAUSE_THING.search(asking) if CLAUSE_WITHIN else None
    if clause is None and CLAUSE_INSIDE and (inside := _CLAUSE_INSIDE.search(asking)):
        # (only a thing the statement told of, in its changed version: "my performance plan" … "the revised plan")
        if stem(inside.group("thing").lower()) in {stem(w.lower()) for w in TOKEN.findall(told)}:
            clause = inside
    for k, t in enumerate(toks):
        if t in _PRONOUNS and not (POINTS_WITHIN and t in _POSSESSIVES and _introduced(toks[:k])) and not (
                DO_IT and k and toks[k - 1] == "doing"):
            if clause and t in _OBJECTS and k >= len(_asking_tokens(asking[:clause.end()])):
                continue  # "Once I acknowledge the new version, how long before I can be rated on it?"
            return True
        if t in _DEMONSTRATIVES:
            before, after = toks[k - 1] if k else "", toks[k + 1] if k + 1 < len(toks) else ""
            if (not (t == "that" and before and before not in STOPWORDS) and after not in _TIME_NOUNS
                    and not (POINTS_WITHIN and after in _MEASURE_NOUNS)):
                return True
    return False


# "Someone asked me to speak at a meetup. What's the practical difference between doing it in my official capacity
# vs my personal capacity …?" was refused for "meetup": "doing it" stands for what the asker was asked to do (to
# speak), not for the things the statement names, which set the scene (DO_IT; only the gerund: in "Does it cover
# dental?" and "What happens if I do it late?" the pronoun still points back at what was told, found in review)
DO_IT = True


# An "it" that stands for the clause after it ("How long does it take to get the official go-ahead?", "Is it OK
# to …?", "Does it matter whether …?") points at nothing told: "Got invited to be on a panel at a civic tech
# conference. Roughly how long does it take to get the official go-ahead?" asks about the approval, not a tech
# conference. Only with the clause there: "How long does it take?" and "Is it allowed?" still point back (DUMMY_IT).
DUMMY_IT = True
_JUDGED = (r"(?:ok|okay|possible|allowed|permitted|required|necessary|mandatory|fine|acceptable|appropriate|worth|"
           r"best|better|normal|common|reasonable|true|too late|too early|a good idea|a problem|frowned upon)")
# (the verb after "to" takes an object, "to get the official go-ahead": "How long will it take to arrive?" and "Will
# it take effect before I move to Denver?" still point back)
_OBJECT = r"(?:the|a|an|my|our|your|their|this|that|these|those|any|some|it|them|approval|access)\b"
_DUMMY_IT = re.compile(
    r"(?i)\b(?:(?:does|did|do|will|would|should|could|can|might|may)\s+it\s+(?:\w+ly\s+)?(?:take|cost)|"
    r"it\s+(?:\w+ly\s+)?(?:takes|took|costs))\b(?=[^?]{0,80}?\bto\s+(?!be\b)[a-z]+\s+" + _OBJECT + r")|"
    r"\b(?:(?:is|was|would|will)\s+it(?:\s+be)?|it(?:'s|\s+is|\s+was))\s+(?:\w+ly\s+)?" + _JUDGED
    + r"(?=\s+(?:to\s+[a-z]|(?:that|if|whether)\b|for\s+\w+\s+to\b))|"
    r"\b(?:does|do|did|will|would)\s+it\s+matter\s+(?=(?:if|whether|when)\b|that\s+(?!much\b|many\b)\w+\s+\w)")


# A subordinate clause opening the asking sentence on a new state of a thing ("Once I acknowledge the new version, how
# long before I can be rated on it?") is what a later "it" or "them" points at, not the story before the asking
# ("My supervisor reopened my performance plan to tweak the critical elements."): the story then sets the scene. Only
# a re-mention ("the new/updated/revised … X"): in "I'm looking into pet insurance. If I miss the open season
# deadline, can I still sign up for it?" "it" is still the story's pet insurance.
CLAUSE_WITHIN = True
_CLAUSE_THING = re.compile(r"^\W*(?:once|if|when|after|before|since|until|now that)\b[^,?]*?\b(?:the|my|our|this)\s+"
                           r"(?:new|updated|revised|amended|edited|modified|changed|corrected|latest|final|current)\s+"
                           r"(?:[a-z][\w'-]*\s+){0,1}[a-z][\w'-]*\s*,", re.I)
# … and inside the asking sentence ("My supervisor reopened my performance plan … How long after I acknowledge the
# revised plan before I can be rated against it?"): "it" is the changed version of a thing the statement told of, and
# the asking holds it; the rest of the statement is the story (CLAUSE_INSIDE; "If I sign the updated agreement can I
# extend it?" after "I'm on a detail at USDS" still points back: the statement told of no agreement)
CLAUSE_INSIDE = True
_CLAUSE_INSIDE = re.compile(r"\b(?:once|if|when|after|before|since|until|now that)\s+(?:I|we|you)\s+"
                            r"(?:[a-z]+\s+){1,2}?(?:the|my|our|this)\s+(?:updated|revised|amended|edited|modified|"
                            r"changed|corrected)\s+(?P<thing>[a-z][\w'-]*)\b", re.I)
_OBJECTS = frozenset("it them".split())
# A demonstrative before a measure points at a quantity told ("something that size", "that much"), not at a topic.
_MEASURE_NOUNS = frozenset("size sizes much many long big amount amounts number often far".split())
_INDEFINITE = frozenset("a an another".split())
_POSSESSIVES = frozenset("its their".split())
POINTS_WITHIN = True  # a possessive after a thing the asking sentence itself introduces is that thing's


def _introduced(before: list[str]) -> bool:
    """The asking introduces a thing of its own before the possessive ("Is there a government file-exchange service
    that can take something that size, and what's its limit?": "its" is the service's). Only a possessive: "Can I
    use my stipend for a refund on it?" still points back ("it" is what the story bought)."""
    return any(t in _INDEFINITE and k + 1 < len(before) and before[k + 1] not in STOPWORDS
               for k, t in enumerate(before))


def told_words(question: str) -> set[str]:
    """Words only in the statements of a question that also asks ("my build dir has stale cache junk in it. is there
    a flag to reconfigure from scratch?"): the asker's situation. When the asking sentence points back at what was
    told ("I'd like a coworking space. Will TTS pay for it?"), what the last statement ends on (POINTED_WORDS) and its
    specific words hold the topic; the rest of the story is still the situation."""
    asking = _asking(question)
    if not asking:
        return set()
    statements = told_statements(question)
    said = {w.lower() for s in statements for w in TOKEN.findall(s)}
    if _points_back(asking, " ".join(statements)) and statements:
        # "it" points at what the last statement ends on ("The rental car counter always pushes their extra damage
        # coverage. If I buy it …, will it be reimbursed?"): those words hold the topic, and so does any specific
        # word of that statement ("a coworking space near my home in Denver"); the rest sets the scene
        words = [w for w in content_words(statements[-1]) if w[0].isalpha()]
        end = _plural_end(words, statements[-1]) if _plural_pointer(asking) else len(words)
        said -= set(words[max(0, end - POINTED_WORDS):end]) | {w for w in words if zipf(w) < SPECIFIC_ZIPF}
    return said - {w.lower() for w in TOKEN.findall(asking)}


# A place told before the asking and pointed at by "there" ("I'm going to a conference in Denver next month. What's
# the daily meals and incidentals rate there?"): the asking is about that place, and a page that names no such place
# (a DC example) does not answer it, however common the name is in English.
PLACE_THERE = True
_TOLD_PLACE = re.compile(r"\b(?:in|at|to|from|near|visiting)\s+(?:the\s+)?"
                         r"(?P<name>(?:[A-Z][a-z]+|[A-Z]{2,})(?:\s+(?:[A-Z][a-z]+|[A-Z]{2,}))*)\b")
# (a month or a day is no place: "… in September. What's the rate there?")
_PLACE_TIMES = frozenset("""january february march april may june july august september october november december monday
tuesday wednesday thursday friday saturday sunday""".split())
_THERE = re.compile(r"(?<!\bis )(?<!\bare )(?<!\bwas )(?<!\bwere )\bthere\b(?!['’](?:s|re|ll|d)\b)"
                    r"(?!\s+(?:is|are|was|were|be|been|will|would|any|a|an|some|isn't|aren't|wasn't|weren't|may|might|"
                    r"must|can|could|should|has|have|had|seems?|used)\b)", re.I)


def pointed_places(question: str) -> list[list[str]]:
    """The places the asker told of ("in Denver", "to Washington DC"), each as its words, when the asking points at
    them with "there"; a place is present when a page uses any of its words ("DC" of "Washington DC")."""
    asking = _asking(question)
    if not PLACE_THERE or not asking or not _THERE.search(asking):
        return []
    statements = told_statements(question)
    places = [[w.lower() for w in m.group("name").split()] for s in statements for m in _TOLD_PLACE.finditer(s)]
    return [p for p in places if not set(p) & _PLACE_TIMES]


# "those", "these", "them" point at a plural: "I want business cards with the 18F logo for a conference booth. Can I
# get those through the micropurchase process?" asks about the cards; the booth is what they are for (AGREEMENT)
AGREEMENT = True
_PLURAL_POINTERS = frozenset("those these them".split())  # ("they" is as often the agency or people)


def _asking_tokens(asking: str) -> list[str]:
    """The asking sentence's words, lower case (a curly apostrophe a straight one); "IT", information technology, is
    no pronoun ("Can GSA IT help?")."""
    return [t.lower() for t in re.findall(r"[A-Za-z][A-Za-z'-]*", asking.replace("\u2019", "'")) if t != "IT"]


def _plural_pointer(asking: str) -> bool:
    """The first word of the asking sentence that points back is a plural one standing alone ("get those through",
    "report them", "Are those covered?"); "those buys" names its own thing."""
    toks = _asking_tokens(asking)
    k = next((k for k, t in enumerate(toks) if t in _PRONOUNS or t in _DEMONSTRATIVES), None)
    if not AGREEMENT or k is None or toks[k] not in _PLURAL_POINTERS:
        return False
    nxt = toks[k + 1] if k + 1 < len(toks) else ""
    return toks[k] == "them" or not nxt or nxt in STOPWORDS or "NOUN" not in lexicon(nxt)


def _plural_end(words: list[str], statement: str) -> int:
    """Where the pointed words end: after the statement's last plural noun ("cards"), else at its end. An -s word
    before a determiner is a verb with its object ("… and books the hotel")."""
    for k in range(len(words) - 1, -1, -1):
        w = words[k].lower()
        if (len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is"))
                and any(lemma != w for lemma in lexicon(w).get("NOUN", ()))
                and not re.search(rf"(?i)\b{re.escape(w)}\s+(?:{'|'.join(DETERMINERS)})\b", statement)):
            return k + 1
    return len(words)


def _asking(question: str) -> str:
    """The sentences of a question that ask (end in '?'), joined; '' when none does."""
    return " ".join(s for s in asked_sentences(question) if s.endswith("?"))


def asked_about(question: str) -> str:
    """Where the kinds a question asks about are named: the sentences that ask, unless they point back at what was
    told ("I'm looking into pet insurance. Does the agency offer it?"), then the whole question."""
    asking = _asking(question)
    return asking if asking and not _points_back(asking, " ".join(told_statements(question))) else question

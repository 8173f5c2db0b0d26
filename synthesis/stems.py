"""The words of a text: stopwords, content words, stems (Snowball, with a verb and its -sion noun folded), key
phrases and keyword queries; shared by retrieval, the planner and the offline synthesizer."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

STOPWORDS = frozenset("""
a about above after again against all also am an and any are aren't as at be because been before being below
between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each else
ever every few for from further had hadn't has hasn't have haven't having he her here hers herself him himself his
how i if in into is isn't it it's its itself just let let's me might more most must mustn't my myself need needs no
nor not now of off on once only or other ought our ours ourselves out over own per please same shall shan't she
should shouldn't so some such tell than that that's the their theirs them themselves then there there's these they
this those through to too under until up upon us very via was wasn't we were weren't what what's when where which
while who whom whose why will with within without won't would wouldn't you your yours yourself yourselves
explain describe know anything something thing things get got give show find use used using way ways work works
""".split())
QUESTION_WORDS = frozenset("what which who whom whose when where why how".split())
WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'_-]*")
_DOTTED = re.compile(r"\b(?:[A-Za-z]\.){2,}")  # initialisms written with full stops: "D.C.", "U.S.", "e.g."


def fold_initialisms(text: str) -> str:
    """ "Washington, D.C." → "Washington, DC": an initialism written with full stops is one word."""
    return _DOTTED.sub(lambda m: m.group(0).replace(".", ""), text)


def words(text: str) -> list[str]:
    return [w.lower().strip("'") for w in WORD.findall(fold_initialisms(text))]


@functools.lru_cache(maxsize=1)
def _stemmer():
    try:
        import Stemmer

        return Stemmer.Stemmer("english")
    except ImportError:  # pragma: no cover - PyStemmer is a dependency; a crude fallback keeps this module usable
        return None


# Snowball keeps a verb and its -sion noun apart ("decide" → decid, "decision" → decis; "submit" → submit,
# "submission" → submiss): folded together, "Who decides …?" finds "the decision maker".
# Only the productive pairs: -cide/-cision, -vide/-vision, -clude/-clusion, and the Latin -mit/-mission verbs
# ("commission" is not "commit").
_DERIVED = ((re.compile(r"(?<=\w{2})([cv])is$"), r"\1id"), (re.compile(r"(?<=\w)clus$"), "clud"),
            (re.compile(r"^(sub|per|ad|o|e|trans)miss$"), r"\1mit"))


# A common adjective's comparative is the adjective ("In smaller meetings, un-muting …" answers "… in a small
# meeting versus a big one?"): Snowball keeps "smaller" whole. A closed list: "-er" also ends nouns ("number").
COMPARATIVES = True
_COMPARATIVE = {
    **{w + w[-1] + "er": w for w in "big hot fat thin wet".split()},
    **{w + "r": w for w in "large wide safe simple nice rare loose".split()},
    **{w[:-1] + "ier": w for w in "easy early busy heavy happy costly".split()},
    # (not "longer": "no longer" is no length; not "fewer": "few" is a stopword)
    **{w + "er": w for w in """small short high low old new fast slow quick hard soft tight strict cheap deep clear
    broad great young light dark warm cold""".split()},
}


@functools.lru_cache(maxsize=50_000)
def stem(word: str) -> str:
    st = _stemmer()
    word = _COMPARATIVE.get(word.lower(), word) if COMPARATIVES else word
    if st is None:  # pragma: no cover - PyStemmer is a dependency
        return re.sub(r"(ing|ed|es|s)$", "", word.lower()) or word.lower()
    root = st.stemWord(word.lower())
    for pattern, ending in _DERIVED:
        root = pattern.sub(ending, root)
    return root


def content_words(text: str) -> list[str]:
    """Lower-cased words without stopwords, in order."""
    return [w for w in words(text) if w not in STOPWORDS and len(w) > 1]


# A question word or pronoun contracted with a verb: "when's", "who's", "we've", "I'm", "they'll". It names no topic
# ("work's" is a possessive: a topic word). Curly apostrophes never reach here: `words` splits at them.
_CONTRACTED = re.compile(r"^(?P<word>[a-z]+)'(?:s|re|ve|d|ll|m)$")
# (and an indefinite pronoun's possessive: "Do we need anybody's sign-off?")
_CONTRACTS = QUESTION_WORDS | frozenset("""i you we they he she it that there here this anybody anyone somebody someone
everybody everyone nobody""".split())


def contracted_stopword(w: str) -> bool:
    return bool((m := _CONTRACTED.match(w.lower())) and m.group("word") in _CONTRACTS)


def content_stems(text: str) -> set[str]:
    return {stem(w) for w in content_words(text)}


def keyword_query(text: str) -> str:
    """The keyword-focused variant of a question: content words only, order kept, duplicates dropped."""
    seen: list[str] = []
    for w in content_words(text):
        if w not in seen:
            seen.append(w)
    return " ".join(seen)


_DOT = "\ue000"  # a full stop inside a capitalised initialism, while clauses are split at full stops
_CAPITAL_DOTTED = re.compile(r"\b(?:[A-Z]\.){2,}")  # "D.C.", "U.S." (not "e.g.", "p.m.")
_PHRASE_WORD = re.compile(rf"(?:[A-Z]{_DOT}){{2,}}|{WORD.pattern}")
_QUANTIFIERS = frozenset("many much few several more less fewer most".split())


def key_phrases(text: str, *, max_words: int = 4) -> list[str]:
    """Runs of content words between stopwords/punctuation: rough noun phrases ("quarterly DR failover test"). A
    quantifier does not open one: "How many vacation days" is about "vacation days"."""
    phrases: list[str] = []
    # a capitalised initialism written with full stops is one word of a phrase ("the D.C. office"), as written
    masked = _CAPITAL_DOTTED.sub(lambda m: m.group(0).replace(".", _DOT), text)
    for clause in re.split(r"[,;:?!.()\"]", masked):
        run: list[str] = []
        for raw in _PHRASE_WORD.findall(clause):
            raw = raw.replace(_DOT, ".")
            w = raw.lower()
            if w in STOPWORDS or w in QUESTION_WORDS or len(w) < 2 or (not run and w in _QUANTIFIERS):
                if run:
                    phrases.append(" ".join(run[-max_words:]))
                run = []
            else:
                run.append(raw)
        if run:
            phrases.append(" ".join(run[-max_words:]))
    unique: list[str] = []
    for p in phrases:
        if p.lower() not in (u.lower() for u in unique):
            unique.append(p)
    return unique


def overlap(query_stems: Iterable[str], text_stems: set[str]) -> float:
    """Share of the query's stems found in the text (0 when the query has none)."""
    q = set(query_stems)
    return len(q & text_stems) / len(q) if q else 0.0


def truncate_words(text: str, n: int) -> str:
    parts = text.split()
    return text if len(parts) <= n else " ".join(parts[:n]) + " …"


def as_written(term: str, text: str) -> str:
    """A lower-cased word as `text` writes it ("Denver", "PTO"); `term` itself when it is not there as one word (a
    phrase such as "a number of hours")."""
    m = re.search(rf"(?<![\w-]){re.escape(term)}(?![\w-])", text, re.I)
    return m.group(0) if m else term

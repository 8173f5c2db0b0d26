"""Is a word of the question one the passages use? Another spelling ("behaviour", "prebuild"), a part of
a snake_case identifier ("std" of "no_std"), a clipped form ("deps"), an agent noun ("coworkers" is no "coworking"),
the English lexicon's reading of a word, and the stemmer's collisions ("severance" is no "several"). Used by
`answerability` to decide which of the question's words the context lacks.
"""

from __future__ import annotations

import functools
import re

from ..stems import stem
from .question import zipf

CLIPPED_ZIPF = 3.0  # a rarer word that begins a longer passage word is its clipped form ("deps", "env")


# British spellings and their American forms: a page spelled the other way covers the same thing.
_SPELLINGS = ((re.compile(r"our(s?)$"), r"or\1"), (re.compile(r"is(e|es|ed|ing|ation|ations)$"), r"iz\1"),
              (re.compile(r"ys(e|es|ed|ing)$"), r"yz\1"), (re.compile(r"tre(s?)$"), r"ter\1"),
              (re.compile(r"ogue(s?)$"), r"og\1"),
              (re.compile(r"(?<=[a-z]{2}e)ll(ed|ing|er|ers)$"), r"l\1"))  # travelled; not controller, stalled
# A prefix that makes a word of the same topic ("prebuild", "non-blocking"); not "re" or "de" ("restore" is no
# "store", "release" no "lease"), and only on a word the English lexicon does not know: "preserve" is no "serve",
# "unemployment" no "employment".
_SAME_TOPIC_PREFIX = re.compile(r"^(?:pre|un|non)-?(?P<rest>[a-z]{5,})$")


def american(word: str) -> set[str]:
    """The word's American spellings, if it is written the British way ("behaviour" → "behavior")."""
    w = word.lower()
    return {pattern.sub(repl, w) for pattern, repl in _SPELLINGS} - {w}


def spellings(word: str) -> set[str]:
    """The word's other spellings that name the same thing: American for British, and without a prefix that keeps
    the topic."""
    w = word.lower()
    out = american(w)
    if (m := _SAME_TOPIC_PREFIX.match(w)) and not lexicon(w):
        out.add(m.group("rest"))
    return out


IDENTIFIER_PARTS = True  # a word of a snake_case identifier is a word of the passage ("std" in "no_std")


def identifier_parts(words: list[str]) -> set[str]:
    """Stems of the words joined in the passage's snake_case identifiers: "#![no_std]" is about std, and
    "CMAKE_INSTALL_PREFIX" about an install prefix (parts of three letters or more)."""
    if not IDENTIFIER_PARTS:
        return set()
    return {stem(part) for w in words if "_" in w.strip("_") for part in w.lower().split("_") if len(part) >= 3}


HYPHENATED = True  # a hyphenated word is there when its parts are ("auto-archiver": "automatically archived")
# … and a common part after a rarer one the passages use says nothing of its own: "COVID-era travel guidance" is
# the guidance about COVID, which the page writes "COVID-19" (COMMON_PARTS: Zipf COMMON_PART_ZIPF or more)
COMMON_PARTS = True
COMMON_PART_ZIPF = 4.5


def hyphenated(word: str, present: set[str], vocabulary: list[str]) -> bool:
    """A hyphenated word whose every part the passages use, one at least whole (by stem), the others whole or as the
    start of a longer word (four letters or more): "auto-archiver" of "Inactive repositories are automatically
    archived"; not "post-doc" of "posted documents", nor "co-working" of "company working". With COMMON_PARTS a
    common part may be missing after a rarer part that the passages use whole or as a part of their own hyphenated
    word ("covid" of "COVID-19"): "covid-era", "covid-related"; not "gala-style" of "galaxy"."""
    parts = [p for p in word.lower().split("-") if p]
    whole = [stem(p) in present for p in parts]
    used = [w or (len(p) >= 4 and any(v.startswith(p) for v in vocabulary)) for p, w in zip(parts, whole)]
    if HYPHENATED and len(parts) >= 2 and any(whole) and all(used):
        return True
    if not (HYPHENATED and COMMON_PARTS and len(parts) >= 2):
        return False
    joined = {piece for v in [*vocabulary, *present] if "-" in v for piece in v.lower().split("-")}
    rare = [k for k, p in enumerate(parts) if (whole[k] or p in joined) and zipf(p) < COMMON_PART_ZIPF]
    return bool(rare) and all(used[i] or i in rare or (zipf(p) >= COMMON_PART_ZIPF and any(r < i for r in rare))
                              for i, p in enumerate(parts))


def clipped(word: str, vocabulary: list[str], question: str = "") -> bool:
    """A rare word (Zipf under CLIPPED_ZIPF, and so without its plural "s") that starts some longer word of the
    passages, at least three letters of it and three short of it ("deps" of "dependencies", "env" of "environment";
    not "commas" of "commands": "comma" is a word of its own); or a clipping to a stem and an "o" (O_CLIPPINGS)."""
    base = word[:-1] if word.endswith("s") and len(word) > 3 else word
    if _clipped_to(base, word, vocabulary):
        return True
    return bool(O_CLIPPINGS and base.endswith("o") and len(base) >= 4 and not lexicon(word) and not lexicon(base)
                and not re.search(rf"(?<![\w-]){re.escape(word[0].upper() + word[1:])}\b", question)
                and _clipped_to(base[:-1], word, [v for v in vocabulary if "NOUN" in lexicon(v)]))


def _clipped_to(base: str, word: str, vocabulary: list[str]) -> bool:
    return (len(base) >= 3 and zipf(word) < CLIPPED_ZIPF and zipf(base) < CLIPPED_ZIPF  # "commas" is no clipping
            and any(v.startswith(base) and len(v) >= len(base) + 3 for v in vocabulary))


# "… the compliment sandwich for tough convos - is that how we're supposed to do feedback here?" was refused for
# "convos": chat clips a word to its first letters and an "o" ("convo", "combo"); a word the lexicon does not know,
# ending in "o", whose letters before the "o" start a longer noun of the passages is that noun (O_CLIPPINGS; not a
# name the question writes with a capital, "Provo"; "memo" and "logo" are words of their own)
O_CLIPPINGS = True


def agent_noun(word: str) -> bool:
    """An agent noun: 'coworkers' and 'recruiter' name people; 'coworking', 'recruiting' name the activity."""
    return bool(re.search(r"(?:er|or)s?$", word)) and not stem(word).endswith(("er", "or"))


def other_kind(agents: dict[str, bool], words: list[str]) -> set[str]:
    """The question's rare activity words ("coworking") that `words` use only as agent nouns: 'coworkers' are people,
    not the activity. Only that way round: "inhibitors" in a question is about what "inhibition" describes."""
    return {s for s, agent in agents.items()
            if any(stem(w) == s for w in words) and not any(stem(w) == s and agent_noun(w) == agent for w in words)}


@functools.lru_cache(maxsize=8192)
def lexicon(word: str) -> dict[str, tuple[str, ...]]:
    """The word's lemmas per part of speech in the English lexicon ({"ADJ": ("quick",), "ADV": ("quick",)} for
    "quicker"); empty when the lexicon does not know it. lemminflect is imported here, when a question first needs it:
    its lexicon loads in about 0.1 s."""
    from lemminflect import getAllLemmas

    return getAllLemmas(word.lower())


def describes(word: str) -> bool:
    """A word the English lexicon knows only as an adjective or adverb ("dumb", "untouched", "realistically",
    "quicker"). Nouns and verbs ("sabbatical", "stipend", "rotate"), and words the lexicon does not know
    ("coworking", "meetup"), name things."""
    kinds = set(lexicon(word))
    return bool(kinds) and kinds <= {"ADJ", "ADV"}


# Two words of one stem this far apart in meaning are two words (a stemmer's collision). Single-word vectors are
# noisy: forms of one word measured as low as 0.23 (relations/relatively), 0.35 (leave/leaves, person/personal).
STEM_COSINE = 0.2


# Two forms of one word any embedder that reads meaning puts close (0.87 in the bundled model): the check that the
# configured model can judge a collision at all.
KNOWN_FORMS, KNOWN_FORMS_COSINE = ("donate", "donation"), 0.5
_INFLECTION = re.compile(r"(?:ies|es|s|ed|d|ing)$")


def one_word(a: str, b: str) -> bool:
    """Inflections of one word: one lemma in the English lexicon ("approves", "approved"), or one form with a regular
    ending the other lacks ("hotfixes" of "hotfix", for words the lexicon does not know)."""
    def lemmas(w: str) -> set[str]:
        return {w, *(x for xs in lexicon(w).values() for x in xs)}

    return bool(lemmas(a) & lemmas(b)) or any(_INFLECTION.sub("", x, count=1) in (y, y.rstrip("e")) for x, y in ((a, b), (b, a)))


def collided(words: list[str], texts: list[list[str]], embed) -> list[str]:
    """The `words` whose stem the `texts` (their content words) use only in words of another meaning: Porter reduces
    "severance" and "several" alike, and a passage about several options says nothing of severance. An inflection is
    the word itself. Other forms of one word mostly stay close in the bundled model (donate/donations 0.83,
    accommodate/accommodation 0.48), the collisions read here do not (severance/several 0.09, probation/probe
    0.13); closer ones are left alone (design/designation 0.30), as forms of one word can sit that low
    (relations/relatively 0.23)."""
    if not STEM_COSINE or not words:
        return []
    stems = {stem(w) for w in words}
    forms: dict[str, set[str]] = {}
    for text in texts:
        for w in text:
            if (s := stem(w)) in stems:
                forms.setdefault(s, set()).add(w)
    pairs = {w: sorted(seen) for w in words
             if (seen := forms.get(stem(w), set())) and w not in seen and not seen & spellings(w)
             and not any(one_word(w, x) for x in seen)}
    if not pairs:
        return []
    batch = list(dict.fromkeys([*pairs, *(x for others in pairs.values() for x in others), *KNOWN_FORMS]))
    vecs = dict(zip(batch, embed(batch)))
    if float(vecs[KNOWN_FORMS[0]] @ vecs[KNOWN_FORMS[1]]) < KNOWN_FORMS_COSINE:
        return []  # an embedder that does not read words' meaning (the hash embedder) cannot tell a collision
    return [w for w, others in pairs.items() if max(float(vecs[x] @ vecs[w]) for x in others) < STEM_COSINE]

"""Does the context answer the question at all? Per-part support, and the question's specific words that no
passage mentions.

A neighbouring topic can rank well and still not answer: a coworking-space question retrieves the home-office kit,
a sabbatical question retrieves leave rules. What gives it away is a specific word of the question that no retrieved
passage uses — not literally, and not through a close synonym (the bundled model reads "ballot" as close to
"voting", "coworker" as close to "employee", "sabbatical" as close to nothing there). "Specific" means uncommon in
English (wordfreq's Zipf frequency below SPECIFIC_ZIPF): "stipend", "sabbatical", "coworking" are; filler such as
"straight", "friend" or "outside" is not, and its absence says nothing. A question most of whose words are absent
(an off-topic question) is not answered either.

Two refinements, both seen on the 18F handbook:
  * a specific word counts as present only in a passage that shares another of the question's words ("coworking
    days" in a sample resume does not answer a coworking-space question);
  * a case the question sets by a number ("longer than 14 hours", "after five years") is missing when no passage
    states that quantity: the rules for flights in general do not answer a question about 14-hour flights.

A part that asks for a duration, a price or a time of day ("how many seconds …", "how long …", "how much does …
cost", "what time is it due") is not answered by sentences that state none: a page that names a retry delay
setting but gives no value does not say how long the delay is (seen on CMake's and npm's manuals, where such
questions were otherwise answered with the nearest number of something else). Which wording asks for one, and
what states one, is in `values.py`. Nor is a part asking for any number whose best sentence is weak
(QUANTITY_FLOOR): a number that answers is stated next to what is asked, and a weak line holds some other number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..sentences import (STOPWORDS, asked_sentences, content_stems, content_words, contracted_stopword, quantities,
                         split_sentences, stem)
from .question import FRAMING, QUANTITY_CUE, Expect, Frame, comparison_word, zipf
from .reader import Candidate, field_line
from .values import asked_value, states_value
from .wordforms import clipped, collided, describes, identifier_parts, lexicon, other_kind, spellings

PART_FLOOR = 0.5  # best cosine + 0.3·keyword overlap of a part below this: the context does not answer it
# A number part whose best sentence is less relevant than QUANTITY_FLOOR is not answered. Set between the answerable
# (>= 0.418) and unanswerable (<= 0.396) single-part number questions of the handbook sets it was measured on: a thin
# margin, and `plain` includes the passage's retrieval score, so a change to retrieval scoring moves it.
QUANTITY_FLOOR = 0.40
STRONG_SUPPORT = 0.62  # a best sentence this relevant answers even when a question word is missing from the context
HEADING_COVERS = 0.8  # a retrieved section headed this close to a part ("Personal capacity") is about the question
SYNONYM_COSINE = 0.55  # a missing word this close (single-word embeddings) to a context word counts as present
HEAD_ZIPF = 4.6  # … and an absent word after a covered one ("relocation bonus"): stricter, verbs sit there too
# Head nouns that name no kind of their own after a name: in "a cmake flag", "the GPU entries", "the approve-scripts
# mechanism" the name before them is what is asked about ("relocation bonus" is another matter: a bonus is a thing,
# and so is a "feature flag": "feature" is no name). Only words rarer than HEAD_ZIPF need listing.
LIGHT_HEADS = frozenset("flag flags entries mechanism mechanisms settings commands item tool tools kinds".split())
NAME_ZIPF = 3.6  # a word this rare (or with a hyphen or a digit) before a light head names something: "cmake", "gpu"
MODIFIER_ZIPF = 4.8  # an absent word naming a kind of a covered thing ("pet insurance") decides below this
# Words that name the documentation itself, never a topic it lacks: "under Cargo's SemVer guidelines", "what do the
# docs say about …", "is it in the handbook"
DOCUMENT_WORDS = frozenset("guide guides guideline guidelines doc docs documentation handbook".split())
SPECIFIC_ZIPF = 3.6  # below this Zipf frequency a word is specific enough that its absence means "not covered"
ABSENT_SHARE = 0.6  # this share of the question's words absent (even common ones): the question is off-topic
RELATED_SUPPORT = 0.45  # a sentence this close (cosine + 0.3·overlap) to the question is about it
VOCABULARY_PASSAGES = 8  # synonyms are looked for in the best passages only (one batch of their words)
POINTED_WORDS = 3  # a pronoun asking about what was told points at the last statement's last this-many content words
_TOKEN = re.compile(r"[A-Za-z][A-Za-z'-]+")
LOOKED_FOR = "looked_for"  # metadata of a passage the agent found by searching for a missing word itself
LOOKED_SHARED = 2  # … where a sentence using the word covers it when it shares this many of the question's words


@dataclass
class Support:
    """How well the context supports each part, and the key words it lacks."""

    per_part: list[float]
    unsupported: set[int] = field(default_factory=set)  # parts nothing answers
    missing: list[str] = field(default_factory=list)  # key question words absent from every passage
    unstated: list[str] = field(default_factory=list)  # values asked for that no passage about them states
    titled: bool = False  # a retrieved section's heading names what a part asks (HEADING_COVERS)

    @property
    def answerable(self) -> bool:
        """Some part is answered, and no key word is missing — unless the best answer is strong on its own (a
        passage can answer without using the question's word: a "postmortem" rule under "When we write one"), or a
        section is headed with what is asked ("Personal capacity" for "… in my professional capacity vs my personal
        capacity?" about a meetup the pages call an event)."""
        if len(self.unsupported) >= len(self.per_part):
            return False
        return not self.missing or max(self.per_part, default=0.0) >= STRONG_SUPPORT or self.titled


def support(frame: Frame, candidates: list[Candidate], embed, *, floor: float = PART_FLOOR) -> Support:
    """Per-part best scores, unsupported parts, and missing key words (see the module docstring)."""
    per_part = [max((c.plain[j] for c in candidates if c.plain), default=0.0) for j in range(len(frame.parts))]
    closeness = [max((c.support[j] for c in candidates if c.support), default=0.0) for j in range(len(frame.parts))]
    unsupported = {j for j, s in enumerate(closeness) if s < floor and not _names_it(frame.parts[j].text, candidates)}
    unsupported |= {j for j, p in enumerate(frame.parts)
                    if p.expect is Expect.QUANTITY and p.side is None and per_part[j] < QUANTITY_FLOOR}
    unstated = unstated_values(frame, candidates)
    titled = any(h >= HEADING_COVERS for c in candidates for h in c.heading_match)
    missing = missing_words(frame, candidates, embed)
    if missing and PART_WORDS and len(frame.parts) >= 2 and max(per_part, default=0.0) < STRONG_SUPPORT and not titled:
        # "… What needs to happen? And if I switch to biking next year, how do I get off the program?": a word only
        # one part asks about leaves that part unanswered instead of refusing the whole question (when the missing
        # word would refuse it: see `Support.answerable`)
        owners = parts_missing(frame, missing)
        if owners and len(owners) < len(frame.parts):
            unsupported |= owners
            missing = []
    if not titled:  # (the words are not `missing`: a page of another place uses them)
        unsupported |= set(answered_elsewhere(frame, candidates, embed))
    return Support(per_part=per_part, unsupported=unsupported | set(unstated),
                   missing=missing, unstated=list(dict.fromkeys(unstated.values())), titled=titled)


PART_WORDS = True  # a missing word in some parts of a multi-part question only: those parts are gaps
_ALTERNATIVES = re.compile(r",\s*or\s+|^or\s", re.I)  # "…, or can …?" and "… ? Or can …?"


def parts_missing(frame: Frame, words: list[str]) -> set[int] | None:
    """The parts that ask about the missing `words`; None when they belong to every part: told before the asking
    (the asker's situation is every part's), a number threshold, or a word of each part. A word of an asking
    sentence that no part kept ("if I switch to biking next year, how do I get off the program?") is that sentence's
    part's, and a topic a part names is the topic of every part after it ("how long can it be", "how do I get in
    after hours"): only a word of a later part leaves earlier parts answerable."""
    asking = [x for x in asked_sentences(frame.question) if x.endswith("?")]
    if any(_ALTERNATIVES.search(x) for x in asking):
        return None  # "Is there a release freeze …, or can releases still go out …?" asks one thing two ways
    starts = [" ".join(p.text.lower().split()[:4]) for p in frame.parts]
    owners: set[int] = set()
    for word in words:
        if " " in word:
            return None
        said = next((x for x in asking if re.search(rf"(?i)(?<![\w-]){re.escape(word)}(?![\w-])", x)), None)
        owned = {j for j, p in enumerate(frame.parts) if stem(word) in p.own}
        if not owned:
            if said is None:
                return None
            owned = {j for j, start in enumerate(starts) if start and start in said.lower()}
        if not owned:
            return None
        owners |= owned
    # a topic named in a part is the topic of the parts after it too ("… at the Anchorage office, and how do I get in
    # after hours?"): only a word of a later part leaves the parts before it answered
    first = min(owners)
    owners = set(range(first, len(frame.parts)))
    return owners if len(owners) < len(frame.parts) else None


def covering(question: str, words: list[str], looked, passages) -> list:
    """The `looked`-for passages cut to the sentences that could cover one of the missing `words`: two sentences in
    a row (a reading may join them), with the acronyms that any of the context's `passages` defines spelled out as
    the reader spells them, that use it and share LOOKED_SHARED of the question's words — what `missing_words` asks
    of a looked-for sentence, before the relevance it also asks. A passage with no such sentence is left out; none
    left means a second reading would refuse again. Cut passages keep the second reading cheap: it embeds only
    these sentences (a whole passage each cost 0.2-0.7 s on SciFact's abstracts)."""
    from .acronyms import definitions, expand

    asked = {stem(w) for w in content_words(question)}
    wanted = {stem(w) for w in words}
    known = definitions(p.content for p in passages)
    out = []
    for p in looked:
        sentences = split_sentences(p.content)
        stems = [content_stems(expand(t, known)) for t in sentences]
        keep: set[int] = set()
        for k, (a, b) in enumerate(zip(stems, stems[1:] + [set()])):
            if wanted & (a | b) and len((a | b) & asked) >= LOOKED_SHARED:
                keep |= {k, k + 1} if k + 1 < len(sentences) else {k}
        if keep:
            out.append(p.model_copy(update={"content": " ".join(sentences[k] for k in sorted(keep))}))
    return out


def answered_elsewhere(frame: Frame, candidates: list[Candidate], embed) -> dict[int, list[str]]:
    """Parts that name a place and are answered only for another one, with the words no page of their place uses.

    "I'll be working out of the Chicago office. Is there a lactation room there?" was answered with New York's
    mother's room. A part is answered elsewhere when a key word of its own (the missing-word test, run on the
    passages inside its place) is missing from every passage inside, and a passage that uses the word belongs to a
    sibling: a page titled by a name ("New York City", "Washington, D.C."), not a general page ("Leave types" may
    answer "… in Tock"). A strong answer inside the place (STRONG_SUPPORT) still answers."""
    out: dict[int, list[str]] = {}
    absent: dict[tuple[int, ...], list[str]] = {}  # the missing-word test per set of inside passages (it embeds)
    for j, part in enumerate(frame.parts):
        inside = [c for c in candidates if c.outside and not c.outside[j]]
        if len(inside) == len(candidates) or not inside:  # the part names no place, or nothing is inside it
            continue
        if max(c.plain[j] for c in inside) >= STRONG_SUPPORT:
            continue
        key = tuple(id(c) for c in inside)
        if key not in absent:
            absent[key] = missing_words(frame, inside, embed)
        own = {stem(w) for w in content_words(part.query)}
        used = set().union(*(c.stems | content_stems(c.heading) for c in candidates
                             if c.outside and c.outside[j] and _named_page(c.passage.title)))
        if lacking := [w for w in absent[key] if stem(w) in own and stem(w) in used]:
            out[j] = lacking
    return out


def _named_page(title: str) -> bool:
    """A page titled by a name: every word capitalised ("New York City", "Washington, D.C.", "San Francisco")."""
    words = re.findall(r"[A-Za-z][\w'.-]*", title)
    return bool(words) and len(words) <= 4 and all(w[0].isupper() for w in words)


def _names_it(text: str, candidates: list[Candidate]) -> bool:
    """A sentence uses the part's most specific word ("ngrok"): the context is about exactly this, however loosely
    the rest of the sentence matches the question's wording."""
    specific = {stem(w) for w in content_words(text) if len(w) > 2 and zipf(w) < SPECIFIC_ZIPF}
    return bool(specific) and any(specific & c.stems for c in candidates)


def unstated_values(frame: Frame, candidates: list[Candidate]) -> dict[int, str]:
    """Quantity parts asking for a duration, a price or a time of day that no sentence about them states, with what
    is lacking ("a number of seconds", "a price"); see the module docstring. A sentence is about the part when it is
    related to it (RELATED_SUPPORT) or is a short "Label: value" line in the same section as one that is: a
    setting's "Default: 10000 (10 seconds)"."""
    unstated: dict[int, str] = {}
    for j, part in enumerate(frame.parts):
        if part.expect is not Expect.QUANTITY or (asked := asked_value(part.text)) is None:
            continue
        kind, lacking = asked
        related = [c.support[j] >= RELATED_SUPPORT if c.support else False for c in candidates]
        sections = {(id(c.passage), c.passage.section) for c, r in zip(candidates, related) if r}
        about = [c for c, r in zip(candidates, related) if r or (
            field_line(c.text) and (id(c.passage), c.passage.section) in sections)]
        if not any(states_value(f"{c.text} {c.lead_in}", kind) for c in about):
            unstated[j] = lacking
    return unstated


# "longer than 14 hours", "after five years", "over $500": a case the question sets by a number.
_THRESHOLD = re.compile(r"\b(?:(?:longer|more|less|fewer|shorter|greater|higher|lower|bigger|larger)\s+than|over|under|"
                        r"after|beyond|exceeding|at least|at most)\s+(?P<q>\S+\s+\S+)", re.I)


def unmet_thresholds(question: str, passages) -> list[str]:
    """The question's thresholds ("longer than 14 hours") whose quantity no passage states: the knowledge base does
    not address that case, whatever it says about the topic."""
    stated = {(family, round(value, 6)) for p in passages for family, value, _, _ in quantities(p.content)}
    unmet = []
    for m in _THRESHOLD.finditer(question):
        for family, value, surface, _ in quantities(m.group("q")):
            if (family, round(value, 6)) not in stated:
                unmet.append(m.group(0).rstrip("?.,;:!").lower())
    return unmet


_SUBJECT = frozenset("i you we they he she it".split())
_OWNERS = frozenset("my our your his her their".split())
_BE = frozenset("is are was were be been being am isn't aren't wasn't weren't".split())
NOUN_SUBJECT = True  # … and after a possessive's noun ("my supervisor hinted")
# words that open a noun phrase, so an -s word after them is a noun ("a savings plan", "is there ethics training");
# a relative "that" opens a verb ("a proxy that re-signs TLS")
_NOUN_OPENERS = frozenset("""a an the my your our their his her its some these those any no every each is are was were
be been there""".split())
_LINKING = frozenset("versus via per vs".split())  # prepositions that wordfreq ranks as rare words
_OF = frozenset("to for of".split())  # "donations to charity", "insurance for my pet"
_DETERMINERS = frozenset("a an the my your our their his her its this that these those some".split())
_ASKING = frozenset("question questions q".split())  # the asking itself: "a dumb question" names no topic


def _names(word: str) -> bool:
    return zipf(word) < NAME_ZIPF or bool(re.search(r"[-\d]", word))


def compound_modifiers(question: str, absent: set[str], present: set[str]) -> list[str]:
    """Absent words that name a kind of something the context does cover: "pet" in "pet insurance", "charity" in
    "donations to charity", "bonus" in "relocation bonus". The context is about insurance, not pet insurance, so
    the question is not covered. Only a word directly before a present word of the same phrase counts, or one after
    a present word and "to", "for" or "of" (a determiner may sit between), or one directly after a present word when
    it is rarer still (Zipf under HEAD_ZIPF: verbs sit there too, "go cast", "leave ends"); not when it is a verb
    ("I regret posting", "to attend a conference"), a participle or an adverb, or a common word (Zipf MODIFIER_ZIPF
    or more: "long-term", "Europe"). A word the lexicon knows only as an adjective or adverb counts only directly
    before a covered word ("dental insurance"), not after one ("so much quicker") nor before the asking itself ("a
    dumb question", _ASKING)."""
    found: list[str] = []
    for clause in re.split(r"[,;:?!.()\"]", question):
        tokens = [t.lower() for t in re.findall(r"[A-Za-z][A-Za-z'-]*", clause)]
        for k, w in enumerate(tokens):
            after = tokens[k + 1] if k + 1 < len(tokens) else ""
            # a participle or adverb modifies nothing here ("I regret posting", "keep coding late"), unless it opens
            # a noun phrase before a covered word ("a signing bonus")
            inflected = re.search(r"(ed|ly)$", w) or (w.endswith("ing") and not (
                k and tokens[k - 1] in _DETERMINERS and after and stem(after) in present))
            # an -s form of a common verb between a noun and a covered word is that verb with its object ("my crate
            # declares rust-version"), not a modifier ("ethics training", "a savings plan" stay kinds)
            verb_s = (bool(re.search(r"[^su]s$", w)) and bool(after) and stem(after) in present and k > 0
                      and tokens[k - 1] not in _NOUN_OPENERS and _common_verb(w[:-1], w[:-2]))
            if (w not in absent or w in _LINKING or zipf(w) >= MODIFIER_ZIPF or inflected or verb_s
                    or (k and tokens[k - 1] in _SUBJECT) or after in _DETERMINERS):  # "to attend a conference": a verb
                continue
            previous = tokens[k - 1] if k else ""
            before = [t for t in tokens[max(0, k - 3):k] if t not in _DETERMINERS]
            # a word that only describes modifies the covered word after it ("dental insurance"), never the one
            # before it ("check is so much quicker", "the latest afterwards"), nor the asking ("a dumb question")
            modifies = bool(after) and stem(after) in present and bool(content_words(after)) and after not in _ASKING
            if describes(w):
                if modifies and "ADJ" in lexicon(w):
                    found.append(w)
            elif modifies or (
                    previous and stem(previous) in present and content_words(previous) and zipf(w) < HEAD_ZIPF
                    and not (w in LIGHT_HEADS and _names(previous))) or (
                    len(before) >= 2 and before[-1] in _OF and stem(before[-2]) in present
                    and content_words(before[-2])):
                found.append(w)
    return found


# Where the asker stands, not what they ask about: "… in our CI pipeline", "… on the build server".
_SETTING = re.compile(r"\b(?:in|on|at|inside|within)\s+(?:our|my|your|their|the)\s+"
                      r"(?P<words>(?:[A-Za-z][\w'-]*\s+){0,2}[a-z][\w'-]*)(?=\s*(?:[,.;:?!]|$))")


def _verbs(question: str, present: set[str] = frozenset()) -> set[str]:
    """Past and -ing forms right after a subject pronoun (an adverb or "'ve"/"'m" between them allowed), and past forms
    right after "my/our <noun>" ("my supervisor hinted I'll get a Level 4"): the verbs of the asker's story ("we
    nuked our package", "we've accidentally nuked it", "I'm moonlighting"), not topics the knowledge
    base lacks ("tenured staff", "my moped", "can I telecommute" still are). Also a gerund of a common verb after a
    preposition, with its object after it ("tools for spotting dependencies"): what the asker does, where a rare
    one names a thing ("a stipend for coworking spaces")."""
    text = re.sub(r"(?i)\b(i|we|you|they|he|she)'(?:ve|m|re|d|ll)\b", r"\1", question)
    tokens = [t.lower() for t in re.findall(r"[A-Za-z][A-Za-z'-]*", text)]
    found = set()
    for k, w in enumerate(tokens):
        prev = tokens[k - 1] if k else ""
        if prev.endswith("ly") and k > 1:
            prev = tokens[k - 2]
        if prev in _SUBJECT and re.search(r"\w{2}(?:ed|ing)$", w):
            found.add(w)
        elif (NOUN_SUBJECT and k > 1 and tokens[k - 2] in _OWNERS and re.search(r"\w{3,}(?<!e)ed$", w)
              and not prev.endswith("ed") and (k < 3 or tokens[k - 3] not in _BE)):
            # a past form after "my/our <noun>": the story's verb ("my supervisor hinted I'll get …"); not after a
            # form of "be", where it is what is asked ("Is my commute reimbursed?"); "-eed" words are no past forms
            # ("our team need", "feed"), and "agreed" is left out with them
            found.add(w)
        elif (prev in _PREPOSITIONS and w.endswith("ing") and k + 1 < len(tokens) and _common_verb(w[:-3])
              and (tokens[k + 1] in _DETERMINERS or stem(tokens[k + 1]) in present)):
            found.add(w)  # its object follows: a determiner or a word the passages use ("for spotting dependencies")
    return found


_PREPOSITIONS = frozenset("for of by about without before after while when in on at from into".split())
COMMON_VERB_ZIPF = 4.0  # a verb this common in English is an action, not a thing the knowledge base names


def _common_verb(*bases: str) -> bool:
    """Whether a stem left by an ending is a common English verb: "spott" (spot), "us" (use), "declare", "re-sign"."""
    forms = set()
    for base in (b.split("-", 1)[1] if b.startswith(("re-", "pre-", "un-")) else b for b in bases):
        forms |= {base, base + "e"}
        if len(base) > 2 and base[-1] == base[-2]:
            forms.add(base[:-1])
    return any(len(f) > 2 and zipf(f) >= COMMON_VERB_ZIPF for f in forms)


def _setting_words(question: str) -> set[str]:
    """Lower-case words that only name the setting of the question: a closing place phrase with its determiner
    ("in our CI pipeline", "on the build server"); a name ("at the Denver office") still scopes what is asked, and a
    bare topic ("the policy on sabbaticals") is what is asked."""
    inside = {w for m in _SETTING.finditer(question) for w in m.group("words").split() if w.islower()}
    outside = set(re.findall(r"[A-Za-z][\w'-]*", _SETTING.sub(" ", question).lower()))
    return inside - outside


# Pointing back at what was told: "Will TTS pay for it?", "Is that eligible?", "Does this apply to me?", "get one?".
# A demonstrative points back unless it is a relative ("versions that have been out a while") or dates the question
# ("this week").
_PRONOUNS = frozenset("it its them they".split())
_DEMONSTRATIVES = frozenset("this that these those".split())
_TIME_NOUNS = frozenset("""week weeks month months year years quarter time morning afternoon evening weekend season
semester sprint release cycle""".split())
_ONE_ALONE = re.compile(r"\bones?(?=\s*[?.!,]|$)", re.I)


def _points_back(asking: str) -> bool:
    if _ONE_ALONE.search(asking):
        return True
    # "a" too (it introduces a thing); a curly apostrophe is a straight one ("What’s that about?")
    toks = [t.lower() for t in re.findall(r"[A-Za-z][A-Za-z'-]*", asking.replace("\u2019", "'"))]
    for k, t in enumerate(toks):
        if t in _PRONOUNS and not (POINTS_WITHIN and t in _POSSESSIVES and _introduced(toks[:k])):
            return True
        if t in _DEMONSTRATIVES:
            before, after = toks[k - 1] if k else "", toks[k + 1] if k + 1 < len(toks) else ""
            if (not (t == "that" and before and before not in STOPWORDS) and after not in _TIME_NOUNS
                    and not (POINTS_WITHIN and after in _MEASURE_NOUNS)):
                return True
    return False


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


def _told_words(question: str) -> set[str]:
    """Words only in the statements of a question that also asks ("my build dir has stale cache junk in it. is there
    a flag to reconfigure from scratch?"): the asker's situation. When the asking sentence points back at what was
    told ("I'd like a coworking space. Will TTS pay for it?"), what the last statement ends on (POINTED_WORDS) and its
    specific words hold the topic; the rest of the story is still the situation."""
    asking = _asking(question)
    if not asking:
        return set()
    statements = [s for s in asked_sentences(question) if not s.endswith("?")]
    said = {w.lower() for s in statements for w in _TOKEN.findall(s)}
    if _points_back(asking) and statements:
        # "it" points at what the last statement ends on ("The rental car counter always pushes their extra damage
        # coverage. If I buy it …, will it be reimbursed?"): those words hold the topic, and so does any specific
        # word of that statement ("a coworking space near my home in Denver"); the rest sets the scene
        words = [w for w in content_words(statements[-1]) if w[0].isalpha()]
        said -= set(words[max(0, len(words) - POINTED_WORDS):]) | {w for w in words if zipf(w) < SPECIFIC_ZIPF}
    return said - {w.lower() for w in _TOKEN.findall(asking)}


def _asking(question: str) -> str:
    """The sentences of a question that ask (end in '?'), joined; '' when none does."""
    return " ".join(s for s in asked_sentences(question) if s.endswith("?"))


def _asked_about(question: str) -> str:
    """Where the kinds a question asks about are named: the sentences that ask, unless they point back at what was
    told ("I'm looking into pet insurance. Does the agency offer it?"), then the whole question."""
    asking = _asking(question)
    return asking if asking and not _points_back(asking) else question


_YES_NO = re.compile(r"^\W*(?:is|are|was|were|will|would|can|could|do|does|did|should|shall|may|might|must|has|have)"
                     r"\b", re.I)


def _colours(word: str, question: str) -> bool:
    """A word that only colours how the asker asks, not what: an adverb ("Realistically, how long …", "… to the
    latest afterwards"), a comparative or superlative ("why is check so much quicker?"), or an adjective outside a
    yes/no question ("sitting untouched for a week", "how chatty is npm out of the box"). In a yes/no question a
    plain adjective is what is asked ("Is court leave retroactive?") and decides."""
    if not describes(word):
        return False
    readings = lexicon(word)
    if set(readings) == {"ADV"} or any(lemma != word.lower() for lemmas in readings.values() for lemma in lemmas):
        return True
    pattern = re.compile(rf"(?i)(?<![\w'-]){re.escape(word)}(?![\w'-])")
    return not any(s.endswith("?") and _YES_NO.match(s) and pattern.search(s) for s in asked_sentences(question))


def _off_topic(absent: list[str], asked: list[str]) -> bool:
    """ABSENT_SHARE of the question's words are absent: it is about something else. An absent word that names
    nothing is not counted: "maybe a dumb question, but …" is not off-topic for lacking "dumb" and "question"."""
    named = [w for w in absent if w not in _ASKING and not describes(w)]
    return bool(asked) and len(named) >= ABSENT_SHARE * len(asked)


def missing_words(frame: Frame, candidates: list[Candidate], embed) -> list[str]:
    """The question's words that no passage uses, literally or through a near synonym, when they decide (a
    specific word, or so many words that the question is about something else), then its numeric cases that no
    passage states."""
    passages = {id(c.passage): c.passage for c in candidates}.values()
    # a passage found by searching for the word itself covers it only through a related sentence (below): it lends
    # no passage-level presence, no threshold and no synonyms
    retrieved = [p for p in passages if not p.metadata.get(LOOKED_FOR)]
    asked = [w for w in dict.fromkeys(content_words(QUANTITY_CUE.sub(" ", frame.question)))
             if w not in FRAMING and w not in DOCUMENT_WORDS and not w[0].isdigit() and len(w) > 2
             and not contracted_stopword(w)  # "When's the first check-in?" misses no "when's"
             and not comparison_word(w)]  # nor "How do the rules differ …?" a page saying "differ"
    asked_stems = {stem(w) for w in asked}
    rare = {stem(w) for w in asked if zipf(w) < SPECIFIC_ZIPF}
    agents = {stem(w): False for w in asked if stem(w) in rare and w.endswith("ing")}  # activities ("coworking")
    present: set[str] = set()
    covering: list[list[str]] = []  # the words of the texts that make a rare word present (see `collided`)
    for p in retrieved:
        words = content_words(f"{p.title} {p.section} {p.content}")
        here = ({stem(w) for w in words} | identifier_parts(words)) - other_kind(agents, words)
        # A specific word counts where the passage shares another of the question's words ("coworking days" in a
        # sample resume is not about a coworking-space membership)…
        if len(here & asked_stems) >= 2:
            present |= here
            covering.append(words)
        else:
            present |= here - rare
    # …or where a sentence using it reads as about the question ("Do we offer sabbaticals?" has one other word).
    # A passage found by searching for the word itself needs that sentence to share another of the question's words
    # too: "How quickly were the secrets rotated?" is not about rotating a signing key.
    for c in candidates:
        if (c.support and max(c.support) >= RELATED_SUPPORT
                and (not c.passage.metadata.get(LOOKED_FOR) or len(c.stems & asked_stems) >= LOOKED_SHARED)):
            words = content_words(c.text)
            present |= (c.stems & rare) - other_kind(agents, words)
            covering.append(words)
    absent = [w for w in asked if stem(w) not in present]
    # a rare word whose stem only another word shares is not there ("severance" and "several" are both "sever")
    absent += collided([w for w in asked if stem(w) in rare and stem(w) in present and w not in absent],
                        covering, embed)
    # another spelling of a word the passages use is that word ("behaviour" of "behavior", "prebuild" of "build")
    absent = [w for w in absent if not any(stem(v) in present for v in spellings(w))]
    unmet = unmet_thresholds(frame.question, retrieved)
    off_topic = _off_topic(absent, asked)
    # a kind named only in what the asker tells ("my build dir has stale cache junk") sets the scene, unless the
    # asking sentence points back at it (a rare told word still decides, below)
    kinds = set(compound_modifiers(_asked_about(frame.question), set(absent), present))
    if not absent or not (off_topic or kinds or any(zipf(w) < SPECIFIC_ZIPF for w in absent)):
        return unmet  # nothing else that could decide: skip the synonym check (it embeds the passages' vocabulary)
    top = retrieved[:VOCABULARY_PASSAGES]
    top_text = " ".join(f"{p.title} {p.section} {p.content}" for p in top)
    # A synonym is another word: neither the absent word itself (judged above) nor a form of another question word
    # ("donate" is no synonym of "charity" when the question says "donations").
    vocabulary = sorted(w for w in {w.lower() for w in _TOKEN.findall(top_text) if len(w) > 2}
                        & set(content_words(top_text)) if stem(w) not in asked_stems)
    if vocabulary:
        vecs = embed(absent + vocabulary)
        nearest = (vecs[:len(absent)] @ vecs[len(absent):].T).max(axis=1)
        absent = [w for w, s in zip(absent, nearest) if s < SYNONYM_COSINE]
    # a clipped form of a word the passages use is that word ("deps", "env", "impl"): chat shortens, docs spell out
    absent = [w for w in absent if not clipped(w, vocabulary)]
    # a rare past or -ing form after a subject pronoun is the asker's verb ("we nuked our package"), not a topic
    verbs = _verbs(frame.question, present)
    specific = [w for w in absent if (zipf(w) < SPECIFIC_ZIPF and w not in verbs) or w in kinds]
    # where the asker stands is no topic, when the question names something rarer that the passages do cover
    # ("will npx wait … in our CI pipeline")
    setting = {w for w in _setting_words(frame.question)
               if any(zipf(x) < zipf(w) and stem(x) in present for x in asked)}
    specific = [w for w in specific if w not in setting]
    # what the asker tells before asking is their situation, not the topic asked ("my build dir has stale cache junk
    # in it. is there a flag to reconfigure from scratch?")
    told = _told_words(frame.question)
    specific = [w for w in specific if w not in told]
    # a word that only colours the asking is no topic, however rare ("Realistically, how long …"), unless it names
    # a kind of a covered thing
    specific = [w for w in specific if w in kinds or not _colours(w, frame.question)]
    if specific:
        return specific + unmet
    return absent + unmet if _off_topic(absent, asked) else unmet

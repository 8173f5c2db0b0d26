"""Does the context answer the question at all? Per-part support, and the question's specific words that no
passage mentions.

A neighbouring topic can rank well and still not answer: a coworking-space question retrieves the home-office kit,
a sabbatical question retrieves leave rules. What gives it away is a specific word of the question that no retrieved
passage uses — not literally, and not through a close synonym (the bundled model reads "ballot" as close to
"voting", "coworker" as close to "employee", "sabbatical" as close to nothing there). "Specific" means uncommon in
English (wordfreq's Zipf frequency below topic.SPECIFIC_ZIPF): "stipend", "sabbatical", "coworking" are; filler
such as "straight", "friend" or "outside" is not, and its absence says nothing. A question most of whose words are
absent (an off-topic question) is not answered either; nor are the words that only tell the asker's story (see
topic.py).

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

from ..sentences import NUMBER_WORD, asked_sentences, quantities, split_sentences
from ..stems import content_stems, content_words, contracted_stopword, stem
from . import specifics, topic
from .compared import comparison_word
from .question import FRAMING, QUANTITY_CUE, Expect, Frame, Part, zipf
from .reader import Candidate, field_line, last_heading, section_heading, written_as_name
from .values import (DURATION, PRICE, asked_rate, asked_value, measured_subject, priced_words, rate_words, states_rate,
                     states_value)
from .wordforms import clipped, collided, hyphenated, identifier_parts, other_kind, spellings

PART_FLOOR = 0.5  # best cosine + 0.3·keyword overlap of a part below this: the context does not answer it
# A number part whose best sentence is less relevant than QUANTITY_FLOOR is not answered. Set between the answerable
# (>= 0.418) and unanswerable (<= 0.396) single-part number questions of the handbook sets it was measured on: a thin
# margin, and `plain` includes the passage's retrieval score, so a change to retrieval scoring moves it.
QUANTITY_FLOOR = 0.40
STRONG_SUPPORT = 0.62  # a best sentence this relevant answers even when a question word is missing from the context
HEADING_COVERS = 0.8  # a retrieved section headed this close to a part ("Personal capacity") is about the question
SYNONYM_COSINE = 0.55  # a missing word this close (single-word embeddings) to a context word counts as present
# Words that name the documentation itself, never a topic it lacks: "under Cargo's SemVer guidelines", "what do the
# docs say about …", "is it in the handbook"
DOCUMENT_WORDS = frozenset("guide guides guideline guidelines doc docs documentation handbook".split())
DOCUMENT_POSSESSIVE = True  # "the handbook's travel guidance" names the handbook, a document word too
_POSSESSIVE = re.compile(r"['’]s$")
RELATED_SUPPORT = 0.45  # a sentence this close (cosine + 0.3·overlap) to the question is about it
VOCABULARY_PASSAGES = 8  # synonyms are looked for in the best passages only (one batch of their words)
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
    named: dict[str, bool] = {}  # per page title: `_named_page` in the passages' text, read once
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
        if not named:
            text = " ".join({id(c.passage): c.passage.content for c in candidates}.values())
            named = {t: _named_page(t, text) for t in {c.passage.title for c in candidates}}
        used = set().union(*(c.stems | content_stems(c.heading) for c in candidates
                             if c.outside and c.outside[j] and named[c.passage.title]))
        if lacking := [w for w in absent[key] if stem(w) in own and stem(w) in used]:
            out[j] = lacking
    return out


# A page titled by a common noun ("Benefits") is no place's: the pages write it in lower case ("After my last day at
# TTS, how long will I still be able to log in to Employee Express to get my pay stubs?" is not answered for another
# place on the Benefits page, "To see your recent pay stubs: …")
NAMED_TITLE = True


def _named_page(title: str, text: str = "") -> bool:
    """A page titled by a name: every word capitalised ("New York City", "Washington, D.C.", "San Francisco"), and
    written as a name in the passages' `text` when it is used there (not "Benefits", NAMED_TITLE)."""
    words = re.findall(r"[A-Za-z][\w'.-]*", title)
    if not words or len(words) > 4 or not all(w[0].isupper() for w in words):
        return False
    return not NAMED_TITLE or written_as_name(title.strip(), text, unused=True)


def _names_it(text: str, candidates: list[Candidate]) -> bool:
    """A sentence uses the part's most specific word ("ngrok"): the context is about exactly this, however loosely
    the rest of the sentence matches the question's wording."""
    specific = {stem(w) for w in content_words(text) if len(w) > 2 and zipf(w) < topic.SPECIFIC_ZIPF}
    return bool(specific) and any(specific & c.stems for c in candidates)


def unstated_values(frame: Frame, candidates: list[Candidate]) -> dict[int, str]:
    """Quantity parts asking for a duration, a price or a time of day that no sentence about them states, with what
    is lacking ("a number of seconds", "a price"); see the module docstring. A sentence is about the part when it is
    related to it (RELATED_SUPPORT) or is a short "Label: value" line in the same section as one that is: a
    setting's "Default: 10000 (10 seconds)"."""
    unstated: dict[int, str] = {}
    for j, part in enumerate(frame.parts):
        related = [c for c in candidates if c.support and c.support[j] >= RELATED_SUPPORT]
        # an amount per mile, per month …: only that answers (values.RATES), stated of what the part or its story
        # names ("buy over $10,000 per year" is no training budget); a yes/no or a who asks no amount
        if part.expect in (Expect.QUANTITY, Expect.OTHER) and (unit := asked_rate(part.text, frame.question)):
            named = (part.stems | content_stems(part.text)) - content_stems(" ".join([*rate_words(unit), RATE_WORDS]))
            about = [c for c in related if not named or named & (c.stems | content_stems(c.lead_in))]
            if not any(states_rate(f"{c.text} {c.lead_in}", unit) for c in about):
                unstated[j] = f"an amount per {unit}"
                continue
        thing, lacking = reimbursed(part.text) if REIMBURSED and part.expect is Expect.YESNO else ("", "")
        if (named := content_stems(thing)) and not any(
                _REIMBURSE.search(f"{c.text} {c.lead_in}")
                and 3 * len(named & (c.stems | content_stems(c.lead_in))) >= 2 * len(named) for c in related):
            unstated[j] = lacking  # "Will GSA reimburse my moving costs?" (see REIMBURSED)
            continue
        if (part.expect is Expect.YESNO and specifics.asks_fee(part.text)
                and not any(specifics.talks_money(f"{c.text} {c.lead_in}") for c in related)):
            unstated[j] = "a fee"  # "Will I be charged a fee for a replacement card?" (specifics.py)
            continue
        if specifics.asks_named_holder(part.text) and not any(specifics.names_person(f"{c.text} {c.lead_in}")
                                                              for c in related):
            unstated[j] = "the name of the person who holds it"  # "Who is the current 18F Director of Engineering?"
            continue
        if (part.expect is Expect.QUANTITY and COUNTED and asked_value(part.text) is None
                and (head := counted_noun(part.text))):
            if not any(_counts(head, c) for c in candidates):
                unstated[j] = f"a number of {head}"
                continue
        if part.expect is not Expect.QUANTITY or (asked := asked_value(part.text)) is None:
            continue
        kind, lacking = asked
        sections = {(id(c.passage), c.passage.section) for c in related}
        near = {id(c) for c in related}
        about = [c for c in candidates if id(c) in near or (
            field_line(c.text) and (id(c.passage), c.passage.section) in sections) or (
            HEADED_ABOUT and _headed_by(part, c))]
        if kind == DURATION and (subject := content_stems(measured_subject(part.text))) and any(
                _covers(subject, content_stems(last_heading(c))) for c in candidates):
            # "how many hours of weather and safety leave", and a section is headed so: hours stated there or of it
            # (two thirds of its words named), not of another leave on the same page; "hours of unused vacation"
            # names no section (the pages say "annual leave"), and any related sentence may state them
            about = [c for c in about if _covers(subject, content_stems(f"{c.text} {c.lead_in} {c.heading}"))]
            lacking = f"{lacking} of {measured_subject(part.text)}"
        if kind == PRICE and PRICED and (head := priced_noun(part.text)):
            about = [c for c in about if _names(head, c)]  # "how much does each seat cost": a seat's price
            lacking = f"a price of {head}" if head.endswith("s") else f"a price of {_article(head)} {head}"
        if not any(states_value(f"{c.text} {c.lead_in}", kind) for c in about):
            unstated[j] = lacking
    return unstated


# A sentence under a heading the part (mostly) names ("how much notice do I need for live captioning (CART)" and
# "Send an email at least 12 hours prior to the meeting …" under "CART (Captioning)") is about the part, however
# little its own words share with it: its value is the part's (HEADED_ABOUT)
HEADED_ABOUT = True


def _headed_by(part: Part, c: Candidate) -> bool:
    """The sentence's innermost section heading (not a page title) has half its content words or more among the
    part's, one of them a specific word ("booking live captioning" and "CART (Captioning)"; not "book travel" and
    "Travel card")."""
    words = content_words(section_heading(c))
    heading, shared = {stem(w) for w in words}, {stem(w) for w in words} & (part.own or content_stems(part.text))
    return (bool(heading) and 2 * len(shared) >= len(heading)
            and any(stem(w) in shared and zipf(w) < topic.SPECIFIC_ZIPF for w in words))


def _covers(wanted: set[str], stems: set[str]) -> bool:
    """Two thirds of the wanted stems are among `stems`."""
    return 3 * len(wanted & stems) >= 2 * len(wanted)


# "Will GSA reimburse my moving costs?" is answered only by a sentence about reimbursing: one about relocating ("If
# you plan to permanently move …, email TTS-PeopleOps") says nothing of who pays
# (of what is asked, two thirds of its words: "… reimbursed for up to half the cost of professional liability
# insurance" is no word on moving costs)
REIMBURSED = True
REIMBURSED_PASSIVE = True
_REIMBURSE = re.compile(r"\breimburs\w*", re.I)
_CUT = r"(?=\s+(?:if|when|while|because|since|after|before|on|during)\b|[?,.;]|$)"
_REIMBURSED_THING = re.compile(r"\breimburse\s+(?:me\s+|us\s+)?(?:for\s+)?(?P<thing>[^?,.;]+?)" + _CUT, re.I)
# … and the passive: "Can I get reimbursed for X?", "… reimbursed if I upgrade it to a paid Pro plan?" (what is done
# is what would be paid for)
_REIMBURSED_PASSIVE = re.compile(
    r"\breimbursed\s+(?:for\s+|(?P<when>if|when)\s+(?:i|we)\s+)(?P<thing>[^?,.;]+?)" + _CUT, re.I)


def reimbursed(text: str) -> tuple[str, str]:
    """What a question asks to be reimbursed, and how a refusal names it: ("my moving costs", "a reimbursement of my
    moving costs") for "Will GSA reimburse my moving costs?", ("upgrade it to a paid Pro plan", "a reimbursement when
    you upgrade it to a paid Pro plan") for "Can I get reimbursed if I upgrade it …?"; ("", "") when none is named."""
    m = _REIMBURSED_THING.search(text) or (_REIMBURSED_PASSIVE.search(text) if REIMBURSED_PASSIVE else None)
    if m is None:
        return "", ""
    thing = m.group("thing").strip()
    return thing, f"a reimbursement when you {thing}" if m.groupdict().get("when") else f"a reimbursement of {thing}"


RATE_WORDS = ("rate cap limit maximum max amount dollar dollars cents much per each every current "
              "per-mile per-hour per-day per-night per-week per-month per-year cents-per-mile")  # no topic of a rate


# "How many survey responses …": what is counted is named by the sentence that counts it, unless it is a unit or as
# common as one ("hours", "times", "people": COUNTED_ZIPF). A count of something else ("more than 10 people outside
# of the Federal Government") does not answer it. ("How much …" asks an amount of anything: "how much faster",
# "how much memory" name no count.)
COUNTED = True
COUNTED_ZIPF = 5.0
# (a noun phrase of up to three words: "how many hardware breakpoints and watchpoints" counts two things, no noun)
_PHRASE_END = (r"(?=\s+(?:do|does|did|is|are|was|were|can|could|should|will|would|have|has|had|i|we|you|they|it|"
               r"must|may|might|of|in|for|on|per|at|to|before|after|left|there)\b|\s*[?,.;]|\s*$)")
_COUNTED = re.compile(r"\bhow many\s+(?P<np>[\w'’-]+(?:\s+(?!(?:and|or)\b)[\w'’-]+){0,2}?)" + _PHRASE_END, re.I)
_NUMBER = re.compile(r"\d|\b(?:" + NUMBER_WORD + r")\b", re.I)
# … and "the maximum number of responses the contract allows": the noun after "number of" is what is counted
NUMBER_OF = True
# (the phrase's last word, as for "how many": "the number of Zoom participants in a meeting" counts participants; when
# no phrase ends as one does there, its first word: "the number of responses GSA's contract allows")
_NUMBER_OF = re.compile(r"\bnumber of\s+(?P<np>[\w'’-]+(?:\s+(?!(?:and|or)\b)[\w'’-]+){0,2}?)" + _PHRASE_END, re.I)
_NUMBER_OF_WORD = re.compile(r"\bnumber of\s+(?P<np>[A-Za-z][\w'’-]*)", re.I)


def counted_noun(text: str) -> str:
    """The noun a "how many" or "number of" part counts, when it names a topic: "responses" of "How many survey
    responses does …" and of "the maximum number of responses …"; '' for a unit ("how many hours", "how many GB")
    or a word as common as one ("how many times", "how many people")."""
    m = _COUNTED.search(text) or (_NUMBER_OF.search(text) or _NUMBER_OF_WORD.search(text) if NUMBER_OF else None)
    words = m.group("np").split() if m else []
    if not words or zipf(words[-1]) >= COUNTED_ZIPF or quantities(f"2 {words[-1]}"):
        return ""
    return words[-1]


def _counts(noun: str, c: Candidate) -> bool:
    """The sentence states a number and names the counted noun (in its text, lead-in or heading; "GPUs" is named
    by "GPU")."""
    return bool(_NUMBER.search(c.text)) and _names(noun, c)


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def _names(noun: str, c: Candidate) -> bool:
    named = content_stems(f"{c.text} {c.lead_in} {c.heading}")
    return stem(noun) in named or (noun[-1:] in "sS" and stem(noun[:-1]) in named)


# "How much does each seat cost my team?" is answered by a price of a seat, not by "$125 per participant" or an
# opportunity cost on the same pages: the sentence stating the price names what is priced (unless it is a pronoun
# or as common as one, COUNTED_ZIPF; an adverb after it is no part of it: "a FedRAMP authorization typically").
PRICED = True


def priced_noun(text: str) -> str:
    """The noun a "how much does X cost" part prices ("seat" of "how much does each seat cost my team"), or ''."""
    words = priced_words(text)
    while words and words[-1].lower().endswith("ly"):
        words = words[:-1]
    if not words or zipf(words[-1]) >= COUNTED_ZIPF:
        return ""
    return words[-1]


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


def missing_words(frame: Frame, candidates: list[Candidate], embed) -> list[str]:
    """The question's words that no passage uses, literally or through a near synonym, when they decide (a
    specific word, or so many words that the question is about something else), then its numeric cases that no
    passage states."""
    passages = {id(c.passage): c.passage for c in candidates}.values()
    # a passage found by searching for the word itself covers it only through a related sentence (below): it lends
    # no passage-level presence, no threshold and no synonyms
    retrieved = [p for p in passages if not p.metadata.get(LOOKED_FOR)]
    asked = [w for w in dict.fromkeys(content_words(QUANTITY_CUE.sub(" ", frame.question)))
             if w not in FRAMING and (_POSSESSIVE.sub("", w) if DOCUMENT_POSSESSIVE else w) not in DOCUMENT_WORDS
             and not w[0].isdigit() and len(w) > 2
             and not contracted_stopword(w)  # "When's the first check-in?" misses no "when's"
             and not comparison_word(w)]  # nor "How do the rules differ …?" a page saying "differ"
    asked_stems = {stem(w) for w in asked}
    rare = {stem(w) for w in asked if zipf(w) < topic.SPECIFIC_ZIPF}
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
    off_topic = topic.off_topic(absent, asked)
    # a kind named only in what the asker tells ("my build dir has stale cache junk") sets the scene, unless the
    # asking sentence points back at it (a rare told word still decides, below)
    kinds = set(topic.compound_modifiers(topic.asked_about(frame.question), set(absent), present))
    # "… in Denver … What's the rate there?": a place no page names (by any of its words: "DC" of "Washington DC")
    places = {w for place in topic.pointed_places(frame.question) if all(w in absent for w in place) for w in place}
    if not absent or not (off_topic or kinds or places or any(zipf(w) < topic.SPECIFIC_ZIPF for w in absent)):
        return unmet  # nothing else that could decide: skip the synonym check (it embeds the passages' vocabulary)
    top = retrieved[:VOCABULARY_PASSAGES]
    top_text = " ".join(f"{p.title} {p.section} {p.content}" for p in top)
    # A synonym is another word: neither the absent word itself (judged above) nor a form of another question word
    # ("donate" is no synonym of "charity" when the question says "donations").
    vocabulary = sorted(w for w in {w.lower() for w in topic.TOKEN.findall(top_text) if len(w) > 2}
                        & set(content_words(top_text)) if stem(w) not in asked_stems)
    if vocabulary:
        vecs = embed(absent + vocabulary)
        nearest = (vecs[:len(absent)] @ vecs[len(absent):].T).max(axis=1)
        absent = [w for w, s in zip(absent, nearest) if s < SYNONYM_COSINE or w in places]  # another city is no synonym
    # a clipped form of a word the passages use is that word ("deps", "env", "impl"): chat shortens, docs spell out
    absent = [w for w in absent if not clipped(w, vocabulary)]
    absent = [w for w in absent if not hyphenated(w, present, vocabulary)]  # "auto-archiver": "automatically archived"
    # a rare past or -ing form after a subject pronoun is the asker's verb ("we nuked our package"), not a topic
    verbs = topic.story_verbs(frame.question, present)
    specific = [w for w in absent if (zipf(w) < topic.SPECIFIC_ZIPF and w not in verbs) or w in kinds or w in places]
    # where the asker stands is no topic, when the question names something rarer that the passages do cover
    # ("will npx wait … in our CI pipeline")
    setting = {w for w in topic.setting_words(frame.question)
               if any(zipf(x) < zipf(w) and stem(x) in present for x in asked)}
    specific = [w for w in specific if w not in setting]
    # what the asker tells before asking is their situation, not the topic asked ("my build dir has stale cache junk
    # in it. is there a flag to reconfigure from scratch?")
    told = topic.told_words(frame.question)
    specific = [w for w in specific if w not in told or w in places]
    # a word that only colours the asking is no topic, however rare ("Realistically, how long …"), unless it names
    # a kind of a covered thing
    specific = [w for w in specific if w in kinds or not topic.colours(w, frame.question)]
    if specific:
        return specific + unmet
    return absent + unmet if topic.off_topic(absent, asked) else unmet

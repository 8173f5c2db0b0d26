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
what states one, is in `values.py`; the check itself is in `unstated.py`. Nor is a part asking for any number whose
best sentence is weak (QUANTITY_FLOOR): a number that answers is stated next to what is asked, and a weak line holds
some other number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..quantities import quantities
from ..sentences import asked_sentences, split_sentences
from ..stems import content_stems, content_words, contracted_stopword, stem
from . import pointing, topic
from .asker import written_as_name
from .candidate import Candidate, section_heading
from .chatter import chatter
from .compared import comparison_word
from .kinds import EMAIL, PHONE
from .question import FRAMING, Expect, Frame, cue_free, framing, zipf
from .reader import RELATED_SUPPORT
from .unstated import unstated_values
from .values import asked_value, states_value
from .wordforms import clipped, collided, describes, hyphenated, identifier_parts, lexicon, other_kind, spellings

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
                    if p.expect is Expect.QUANTITY and p.side is None and per_part[j] < QUANTITY_FLOOR
                    and not _close_value(p.text, j, candidates)}
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


# … unless a sentence this close to the part (cosine + keyword overlap) states a value of the kind it asks: "If
# someone you pinged directly hasn't responded within a few days, you may want to try …" for "How long should I wait
# before trying email …?" (0.88 close, 0.355 relevant: its passage ranked low)
QUANTITY_CLOSE = 0.8


def _close_value(part: str, j: int, candidates: list[Candidate]) -> bool:
    asked = asked_value(part) if QUANTITY_CLOSE else None
    return asked is not None and any(c.support and c.support[j] >= QUANTITY_CLOSE
                                     and states_value(f"{c.text} {c.lead_in}", asked[0]) for c in candidates)


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
    known = definitions(p.readable for p in passages)
    out = []
    for p in looked:
        sentences = split_sentences(p.readable)
        stems = [content_stems(expand(t, known)) for t in sentences]
        keep: set[int] = set()
        for k, (a, b) in enumerate(zip(stems, stems[1:] + [set()])):
            if wanted & (a | b) and len((a | b) & asked) >= LOOKED_SHARED:
                keep |= {k, k + 1} if k + 1 < len(sentences) else {k}
        if keep:
            out.append(p.model_copy(update={"content": " ".join(sentences[k] for k in sorted(keep))}))
    return out


# … and a word of the part that a sibling place's page uses and no passage inside the place does, in no form and by no
# synonym, even a common one ("I'm going to work out of the Chicago JCK office a couple of days a week. Is there a gym
# in the building I can use before work?": the San Francisco page has the gym, the Chicago page none); not a word as
# common as MODIFIER_ZIPF ("building", "work"). Only for an office the question names as one ("the Chicago JCK office",
# "the NYC building"): a scope such as "in Concur" or "at TTS" has no sibling places (ELSEWHERE_WORDS)
ELSEWHERE_WORDS = True
# … but a page titled by the word itself is the word's own page, no sibling place's: "How should I title the GitHub
# issue when I submit something to the Writing Lab?" was refused because the "GitHub" page uses "GitHub" and the
# Writing Lab's pages do not (OWN_TITLES)
OWN_TITLES = True
_OFFICE = re.compile(r"\b[A-Z][\w.-]*(?:\s+[A-Z][\w.-]*){0,3}\s+(?:office|building|campus|headquarters|HQ)\b")


def answered_elsewhere(frame: Frame, candidates: list[Candidate], embed) -> dict[int, list[str]]:
    """Parts that name a place and are answered only for another one, with the words no page of their place uses.

    "I'll be working out of the Chicago office. Is there a lactation room there?" was answered with New York's
    mother's room. A part is answered elsewhere when a key word of its own (the missing-word test, run on the
    passages inside its place) is missing from every passage inside, and a passage that uses the word belongs to a
    sibling: a page titled by a name ("New York City", "Washington, D.C."), not a general page ("Leave types" may
    answer "… in Tock"); or, when that test finds none, a common word of the part only a sibling uses
    (ELSEWHERE_WORDS). A strong answer inside the place (STRONG_SUPPORT) still answers."""
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
            text = " ".join({id(c.passage): c.passage.readable for c in candidates}.values())
            named = {t: _named_page(t, text) for t in {c.passage.title for c in candidates}}
        used = set().union(*((c.stems | content_stems(c.heading))
                             - (content_stems(c.passage.title) if OWN_TITLES else set())
                             for c in candidates if c.outside and c.outside[j] and named[c.passage.title]))
        lacking = [w for w in absent[key] if stem(w) in own and stem(w) in used]
        if ELSEWHERE_WORDS and not lacking and _OFFICE.search(frame.question):
            siblings = [c for c in candidates if c.outside and c.outside[j] and named[c.passage.title]]
            lacking = _only_elsewhere(part.query, inside, siblings, embed)
        if lacking:
            out[j] = lacking
    return out


def _only_elsewhere(asked: str, inside: list[Candidate], siblings: list[Candidate], embed) -> list[str]:
    """The part's words (under MODIFIER_ZIPF) that head a section of a sibling place's page ("Amenities > Gym") when
    no section inside the place shares a word with that heading and no passage inside uses the word, by itself, a
    clipping or a synonym (SYNONYM_COSINE: "bicycle" is there in "Bike parking"; DC's "Getting here > Biking" covers
    Chicago's "Bike parking", so "Is bike parking free at the DC office?" is asked of a topic DC has)."""
    here = set().union(*(c.stems | content_stems(c.heading) for c in inside))
    sections = set().union(*(content_stems(section_heading(c)) for c in inside))
    headed = [content_stems(section_heading(c)) for c in siblings]
    words = [w for w in dict.fromkeys(x.lower() for x in content_words(asked)) if zipf(w) < topic.MODIFIER_ZIPF
             and stem(w) not in here and w not in FRAMING
             and any(stem(w) in h and not h & sections for h in headed)]
    if not words:
        return []
    text = " ".join({f"{c.heading} {c.text}" for c in inside})
    vocabulary = sorted({w.lower() for w in topic.TOKEN.findall(text) if len(w) > 2} & set(content_words(text)))
    near = _synonyms(words, vocabulary, embed)
    return [w for w in words if w not in near and not clipped(w, vocabulary)]


def _synonyms(words: list[str], vocabulary: list[str], embed) -> set[str]:
    """The `words` some vocabulary word is within SYNONYM_COSINE of (one embedding call for all of them)."""
    if not words or not vocabulary:
        return set()
    vecs = embed(words + vocabulary)
    nearest = (vecs[:len(words)] @ vecs[len(words):].T).max(axis=1)
    return {w for w, s in zip(words, nearest) if s >= SYNONYM_COSINE}


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


# "longer than 14 hours", "after five years", "over $500": a case the question sets by a number.
_THRESHOLD = re.compile(r"\b(?:(?:longer|more|less|fewer|shorter|greater|higher|lower|bigger|larger)\s+than|over|under|"
                        r"after|beyond|exceeding|at least|at most)\s+(?P<q>\S+\s+\S+)", re.I)


WRITTEN_FORMS = True
_FORMS = {"address": (re.compile(r"\be-?mail\s+address(?:es)?\b", re.I), EMAIL),
          "number": (re.compile(r"\b(?:phone|telephone|fax|contact)\s+numbers?\b", re.I), PHONE)}


def written_form(word: str, question: str, passages) -> bool:
    """`word` names the written form of a value ("addresses" of "email addresses", "number" of "phone number") and
    a passage writes one (an address with '@', a ten-digit phone number): present in what the passages write."""
    form = _FORMS.get(stem(word))
    return (WRITTEN_FORMS and form is not None and bool(form[0].search(question))
            and any(form[1].search(p.content) for p in passages))


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
    people = topic.speakers(frame.question)  # "A coworker said …": the people around the asker are not asked about
    products = product_names(frame.question)
    asked = [w for w in dict.fromkeys(content_words(cue_free(frame.question)))
             if not framing(w, frame.question) and w not in people
             and (_POSSESSIVE.sub("", w) if DOCUMENT_POSSESSIVE else w) not in DOCUMENT_WORDS
             and (not w[0].isdigit() or w in products) and len(w) > 2
             and not contracted_stopword(w)  # "When's the first check-in?" misses no "when's"
             and not comparison_word(w)]  # nor "How do the rules differ …?" a page saying "differ"
    asked_stems = {stem(w) for w in asked}
    rare = {stem(w) for w in asked if zipf(w) < topic.SPECIFIC_ZIPF}
    agents = {stem(w): False for w in asked if stem(w) in rare and w.endswith("ing")}  # activities ("coworking")
    present: set[str] = set()
    covering: list[list[str]] = []  # the words of the texts that make a rare word present (see `collided`)
    for p in retrieved:
        words = content_words(f"{p.title} {p.section} {p.readable} {path_words(p.doc_id) if PATH_WORDS else ''}")
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
    # an email address or a phone number is written, not named: "What email addresses should I use …?" is answered by
    # "tts-travel@gsa.gov" (WRITTEN_FORMS)
    absent = [w for w in absent if not written_form(w, frame.question, retrieved)]
    unmet = unmet_thresholds(frame.question, retrieved)
    off_topic = topic.off_topic(absent, asked)
    # a kind named only in what the asker tells ("my build dir has stale cache junk") sets the scene, unless the
    # asking sentence points back at it (a rare told word still decides, below)
    kinds = set(topic.compound_modifiers(pointing.asked_about(frame.question), set(absent), present))
    kinds -= topic.told_subject_verbs(frame.question)  # "Our engagement wraps up …": what happened, no kind
    kinds -= topic.acronym_verbs(frame.question)  # "A reporter DM'd me …" (topic.ACRONYM_VERBS)
    # "… in Denver … What's the rate there?": a place no page names (by any of its words: "DC" of "Washington DC")
    places = {w for place in pointing.pointed_places(frame.question) if all(w in absent for w in place) for w in place}
    action = topic.asked_action(frame.question) & set(absent)  # "Is there a formal way to appeal …?"
    gone = [p for p in noun_pairs(frame.question) if all(w in absent for w in p)] if PAIRED else []  # (below)
    if not absent or not (off_topic or kinds or places or action or gone
                          or any(zipf(w) < topic.SPECIFIC_ZIPF for w in absent)):
        return unmet  # nothing else that could decide: skip the synonym check (it embeds the passages' vocabulary)
    top = retrieved[:VOCABULARY_PASSAGES]
    top_text = " ".join(f"{p.title} {p.section} {p.readable}" for p in top)
    # A synonym is another word: neither the absent word itself (judged above) nor a form of another question word
    # ("donate" is no synonym of "charity" when the question says "donations").
    vocabulary = sorted(w for w in {w.lower() for w in topic.TOKEN.findall(top_text) if len(w) > 2}
                        & set(content_words(top_text)) if stem(w) not in asked_stems)
    near = _synonyms(absent, vocabulary, embed)
    # another city is no synonym, nor another product ("LastPass" is not "KeePassXC")
    absent = [w for w in absent if w not in near or w in places or w in products]
    # a clipped form of a word the passages use is that word ("deps", "env", "impl"): chat shortens, docs spell out
    absent = [w for w in absent if not clipped(w, vocabulary, frame.question)]
    absent = [w for w in absent if not hyphenated(w, present, vocabulary)]  # "auto-archiver": "automatically archived"
    # a rare past or -ing form after a subject pronoun is the asker's verb ("we nuked our package"), not a topic
    verbs = topic.story_verbs(frame.question, present)
    specific = [w for w in absent if (zipf(w) < topic.SPECIFIC_ZIPF and w not in verbs) or w in kinds or w in places
                or w in action]
    # where the asker stands is no topic, when the question names something rarer that the passages do cover
    # ("will npx wait … in our CI pipeline")
    setting = {w for w in topic.setting_words(frame.question)
               if any(zipf(x) < zipf(w) and stem(x) in present for x in asked)}
    specific = [w for w in specific if w not in setting]
    # what the asker tells before asking is their situation, not the topic asked ("my build dir has stale cache junk
    # in it. is there a flag to reconfigure from scratch?")
    told = pointing.told_words(frame.question)
    specific = [w for w in specific if w not in told or w in places]
    # a word that only colours the asking is no topic, however rare ("Realistically, how long …"), unless it names
    # a kind of a covered thing
    specific = [w for w in specific if w in kinds or not topic.colours(w, frame.question)]
    # … nor does a word of how the asker talks ("Dumb question from a newbie: …", "In TTSC lingo, …")
    talk = chatter(frame.question)
    specific = [w for w in specific if w not in talk]
    if specific:
        return specific + unmet
    if absent and topic.off_topic(absent, asked):
        return absent + unmet
    # (where the asker stands, how they talk and words that colour the asking are no kind either: "… on our staging
    # cluster")
    aside = topic.setting_words(frame.question) | talk
    gone = [(a, b) for a, b in gone if a in absent and b in absent and not {a, b} & aside
            and not topic.colours(a, frame.question) and not topic.colours(b, frame.question)]
    return [f"{a} {b}" for a, b in gone] + unmet


# A product written as one ("LastPass", "1Password", "KeePassXC", "1password") is a name: no other word is its synonym,
# and one led by a digit is still a word (PRODUCT_NAMES)
PRODUCT_NAMES = True
_PRODUCT = re.compile(r"(?<![\w-])(?:\d+[A-Za-z]{4,}|[A-Z][a-z]+[A-Z][A-Za-z]*)(?![\w-])")  # "1password" in chat


def product_names(question: str) -> set[str]:
    """The question's words written as a product's name, lower-cased (PRODUCT_NAMES)."""
    return {m.group(0).lower() for m in _PRODUCT.finditer(question)} if PRODUCT_NAMES else set()


# A page's file name and the folder holding it name its topic as its title does: "What meeting length does the new
# supervisor playbook suggest?" asks of the pages in "new-supervisor-playbook/", titled "Play 6 - Be human; …"
# (PATH_WORDS)
PATH_WORDS = True


def path_words(doc_id: str) -> str:
    """'…/supervisor-resources/new-supervisor-playbook/play-6.md' → 'new supervisor playbook play 6',
    'parking.md' → 'parking'; '' for an id that is no file path or URL ('4983')."""
    path = re.split(r"[?#]", doc_id.replace("\\", "/"))[0].rstrip("/")
    if "/" not in path and not re.search(r"\.\w{1,5}$", path):
        return ""
    *_, folder, name = ["", *path.split("/")]
    return " ".join(re.split(r"[-_.\s]+", f"{folder} {name.rsplit('.', 1)[0]}")).strip()


# A kind of thing named by two nouns neither of which any passage uses, by any form or synonym ("Do new hires get a
# signing bonus?" where no page speaks of a bonus or of signing), though each is too common to decide alone: the
# first a noun (or a gerund) rarer than MODIFIER_ZIPF, never only a describing word ("unused vacation"), the second a
# noun that is no light head ("cmake flag"); both in a sentence that asks. (Tried and dropped in the thirty-sixth
# session: two words the passages do use but never in one sentence, "a parking subsidy": it refused 34 answerable
# questions more across the handbook sets, "vacation time", "minimum length", "severity levels", for 10 unanswerable
# ones.) (PAIRED)
PAIRED = True


def noun_pairs(question: str) -> list[tuple[str, str]]:
    """The noun compounds of two words (see PAIRED) in the sentences that ask (the last sentence when none ends in
    "?"), never in what the asker tells before them, even when the asking points back at it ("I submitted a
    reasonable accommodation request for a different monitor setup. Who actually makes the decision on it?" asks who
    decides, of no monitor setup); not after a subject, "to" or a modal, where the first word is a verb ("how do I
    request leave"), nor a gerund after a preposition ("for buying software"), nor before a head too general to name
    a kind ("approval process")."""
    sentences = asked_sentences(question)
    asking = " ".join([x for x in sentences if x.endswith("?")] or sentences[-1:]) or question
    pairs: list[tuple[str, str]] = []
    for clause in re.split(r"[,;:?!.()\"]", asking):
        tokens = [t.lower() for t in re.findall(r"[A-Za-z][A-Za-z'-]*", clause)]
        pairs += [(w, head) for k, (w, head) in enumerate(zip(tokens, tokens[1:]))
                  if stem(w) != stem(head) and head not in topic.LIGHT_HEADS and head not in GENERAL_HEADS
                  and not (k and (tokens[k - 1] in _BEFORE_VERB
                                  or (w.endswith("ing") and tokens[k - 1] in _BEFORE_GERUND)))
                  and (w, head) not in pairs
                  and zipf(w) < topic.MODIFIER_ZIPF and content_words(w) and content_words(head)
                  and not describes(w) and "NOUN" in lexicon(head) and ("NOUN" in lexicon(w) or w.endswith("ing"))]
    return pairs


# heads that name no kind of their own ("the approval process", "the leave policy"), and what a verb follows
GENERAL_HEADS = frozenset("process processes procedure procedures policy policies rule rules requirement requirements "
                          "option options step steps".split())
_BEFORE_VERB = frozenset("i we you they he she it to can could should would will must may might do does did".split())
_BEFORE_GERUND = frozenset("for of by about in on with without before after from".split())  # "for buying software"

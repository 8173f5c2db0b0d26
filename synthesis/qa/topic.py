"""Which of a question's words name what it asks about, and which only tell the asker's story.

`answerability.missing_words` refuses a question when a word it asks about is missing from every passage. Not every
absent word decides: the verbs of the asker's story ("we nuked our package"), where they stand ("in our CI
pipeline"), what they told before asking ("my build dir has stale cache junk in it. is there a flag …?") and words
that only colour the asking ("Realistically, how long …") name no topic. A word naming a kind of a covered thing
("pet" in "pet insurance", "bonus" in "relocation bonus") does, even when not rare (below MODIFIER_ZIPF).
"""

from __future__ import annotations

import re

from ..sentences import asked_sentences, told_statements
from ..stems import STOPWORDS, content_words, stem
from .question import zipf
from .wordforms import describes, lexicon

SPECIFIC_ZIPF = 3.6  # below this Zipf frequency a word is specific enough that its absence means "not covered"
ABSENT_SHARE = 0.6  # this share of the question's words absent (even common ones): the question is off-topic
MODIFIER_ZIPF = 4.8  # an absent word naming a kind of a covered thing ("pet insurance") decides below this
HEAD_ZIPF = 4.6  # … and an absent word after a covered one ("relocation bonus"): stricter, verbs sit there too
# Head nouns that name no kind of their own after a name: in "a cmake flag", "the GPU entries", "the approve-scripts
# mechanism" the name before them is what is asked about ("relocation bonus" is another matter: a bonus is a thing,
# and so is a "feature flag": "feature" is no name). Only words rarer than HEAD_ZIPF need listing.
LIGHT_HEADS = frozenset("flag flags entries mechanism mechanisms settings commands item tool tools kinds".split())
NAME_ZIPF = 3.6  # a word this rare (or with a hyphen or a digit) before a light head names something: "cmake", "gpu"
POINTED_WORDS = 3  # a pronoun asking about what was told points at the last statement's last this-many content words
TOKEN = re.compile(r"[A-Za-z][A-Za-z'-]+")


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
            # nor does a word before a gerund with its own object ("skip setting a password": "setting" is a verb)
            # (not "a yoga training this month", "a diversity meeting this week": a noun phrase, then a time)
            gerund = (GERUND_OBJECT and after.endswith("ing") and k + 2 < len(tokens)
                      and tokens[k + 2] in _DETERMINERS and not (k and tokens[k - 1] in _NOUN_OPENERS)
                      and not (k + 3 < len(tokens) and tokens[k + 3] in _TIMES))
            if (w not in absent or w in _LINKING or zipf(w) >= MODIFIER_ZIPF or inflected or verb_s or gerund
                    or (k and tokens[k - 1] in _SUBJECT) or after in _DETERMINERS):  # "to attend a conference": a verb
                continue
            previous = tokens[k - 1] if k else ""
            before = [t for t in tokens[max(0, k - 3):k] if t not in _DETERMINERS]
            # a word that only describes modifies the covered word after it ("dental insurance"), never the one
            # before it ("check is so much quicker", "the latest afterwards"), nor the asking ("a dumb question")
            modifies = bool(after) and stem(after) in present and bool(content_words(after)) and after not in _ASKING
            if describes(w):
                if modifies and "ADJ" in lexicon(w) and not (ORDINARY_WORDS and w in _ORDINARY):
                    found.append(w)
            elif modifies or (
                    previous and stem(previous) in present and content_words(previous) and zipf(w) < HEAD_ZIPF
                    and not (w in LIGHT_HEADS and _names(previous))) or (
                    len(before) >= 2 and before[-1] in _OF and stem(before[-2]) in present
                    and content_words(before[-2])):
                found.append(w)
    return found


# "Can I just use my Personal Meeting ID and skip setting a password?" was refused for "skip", read as a kind of
# setting: before a gerund that takes an object, a word is a verb, no modifier
GERUND_OBJECT = True
_TIMES = frozenset("day days week weeks month months year years morning afternoon evening time quarter".split())


# Adjectives that say how ordinary or which one, never what kind: "Besides the usual incident emails, …" asks about
# incident emails, not a usual kind of them
ORDINARY_WORDS = True
# (only words rarer than MODIFIER_ZIPF need listing: "same", "whole", "certain" never decide)
_ORDINARY = frozenset("usual typical ordinary customary everyday".split())


# Where the asker stands, not what they ask about: "… in our CI pipeline", "… on the build server".
_SETTING = re.compile(r"\b(?:in|on|at|inside|within)\s+(?:our|my|your|their|the)\s+"
                      r"(?P<words>(?:[A-Za-z][\w'-]*\s+){0,2}[a-z][\w'-]*)(?=\s*(?:[,.;:?!]|$))")


def story_verbs(question: str, present: set[str] = frozenset()) -> set[str]:
    """Past and -ing forms right after a subject pronoun (an adverb or "'ve"/"'m" between them allowed), and past forms
    right after "my/our <noun>" ("my supervisor hinted I'll get a Level 4"): the verbs of the asker's story ("we
    nuked our package", "we've accidentally nuked it", "I'm moonlighting"), not topics the knowledge
    base lacks ("tenured staff", "my moped", "can I telecommute" still are). Also a gerund of a common verb after a
    preposition, with its object after it ("tools for spotting dependencies"): what the asker does, where a rare
    one names a thing ("a stipend for coworking spaces")."""
    text = re.sub(r"(?i)\b(i|we|you|they|he|she)'(?:ve|m|re|d|ll)\b", r"\1", question)
    told = told_statements(question)
    found = {m.group("verb").lower() for s in told
             if OPENING_PARTICIPLE and (m := _OPENING_PARTICIPLE.match(s)) and "VERB" in lexicon(m.group("verb"))}
    if VERB_ME:  # "a recruiter from a search firm pinged me": a past form with the asker as its object, told
        found |= {w.lower() for s in told for m in _VERB_ME.finditer(s)
                  if (w := m.group("verb")) and any(lemma != w.lower() for lemma in lexicon(w).get("VERB", ()))}
    tokens = [t.lower() for t in re.findall(r"[A-Za-z][A-Za-z'-]*", text)]
    for k, w in enumerate(tokens):
        prev = tokens[k - 1] if k else ""
        if prev.endswith("ly") and k > 1:
            prev = tokens[k - 2]
        if prev in _SUBJECT and re.search(r"\w{2}(?:ed|ing)$", w):
            found.add(w)
        elif ASPECT_VERBS and prev in _ASPECT and w.endswith("ing") and _common_verb(w[:-3]):
            found.add(w)  # "… and keep volunteering to stay late": what the asker does (a rare verb, "keep
            # teleworking", "start freelancing", can be the topic the knowledge base lacks)
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
# "If I'm on a flexible schedule and keep volunteering to stay late, how many credit hours …?" was refused for
# "volunteering": an -ing form of a common verb after a verb of keeping, starting or stopping (or "been") is the
# asker's doing
ASPECT_VERBS = True
_ASPECT = frozenset("keep keeps kept start starts started stop stops stopped began begun continue continues continued "
                    "been".split())
VERB_ME = True
# (lower-case "me"/"us": "US-wide" is no object; not after a form of "be": "been provisioned me")
_VERB_ME = re.compile(r"(?<!\bbe )(?<!\bbeen )(?<!\bis )(?<!\bwas )(?<!\bwere )(?<!\bare )\b"
                      r"(?P<verb>[A-Za-z]{2,}ed)\s+(?-i:me|us)\b", re.I)
# A statement opening on what the asker was doing ("Poking around HR Links, my … tab says …", "Digging through the
# travel guide, I …"): the asker's verb (a verb to the lexicon: not "Nothing", "Coworking"), where they did it
# after it, then the asker's own clause
OPENING_PARTICIPLE = True
_OPENING_PARTICIPLE = re.compile(r"^\W*(?P<verb>[A-Za-z]{2,}ing)\s+(?:around|through|into|in|at|over|across|on|"
                                 r"about|with|under)\b[^,]{0,60},\s*(?:my|our|i|i'm|i’m|we|we're|we’re)\b", re.I)
COMMON_VERB_ZIPF = 4.0  # a verb this common in English is an action, not a thing the knowledge base names


def _common_verb(*bases: str) -> bool:
    """Whether a stem left by an ending is a common English verb: "spott" (spot), "us" (use), "declare", "re-sign"."""
    forms = set()
    for base in (b.split("-", 1)[1] if b.startswith(("re-", "pre-", "un-")) else b for b in bases):
        forms |= {base, base + "e"}
        if len(base) > 2 and base[-1] == base[-2]:
            forms.add(base[:-1])
    return any(len(f) > 2 and zipf(f) >= COMMON_VERB_ZIPF for f in forms)


def setting_words(question: str) -> set[str]:
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
    """Whether the asking sentence leans on what was told before it ("it", "that one", "this week")."""
    if _ONE_ALONE.search(asking):
        return True
    # "a" too (it introduces a thing); a curly apostrophe is a straight one ("What’s that about?")
    toks = _asking_tokens(asking)
    clause = _CLAUSE_THING.search(asking) if CLAUSE_WITHIN else None
    for k, t in enumerate(toks):
        if t in _PRONOUNS and not (POINTS_WITHIN and t in _POSSESSIVES and _introduced(toks[:k])):
            if clause and t in _OBJECTS and k >= len(_asking_tokens(asking[:clause.end()])):
                continue  # "Once I acknowledge the new version, how long before I can be rated on it?"
            return True
        if t in _DEMONSTRATIVES:
            before, after = toks[k - 1] if k else "", toks[k + 1] if k + 1 < len(toks) else ""
            if (not (t == "that" and before and before not in STOPWORDS) and after not in _TIME_NOUNS
                    and not (POINTS_WITHIN and after in _MEASURE_NOUNS)):
                return True
    return False


# A subordinate clause opening the asking sentence on a new state of a thing ("Once I acknowledge the new version, how
# long before I can be rated on it?") is what a later "it" or "them" points at, not the story before the asking
# ("My supervisor reopened my performance plan to tweak the critical elements."): the story then sets the scene. Only
# a re-mention ("the new/updated/revised … X"): in "I'm looking into pet insurance. If I miss the open season
# deadline, can I still sign up for it?" "it" is still the story's pet insurance.
CLAUSE_WITHIN = True
_CLAUSE_THING = re.compile(r"^\W*(?:once|if|when|after|before|since|until|now that)\b[^,?]*?\b(?:the|my|our|this)\s+"
                           r"(?:new|updated|revised|amended|edited|modified|changed|corrected|latest|final|current)\s+"
                           r"(?:[a-z][\w'-]*\s+){0,1}[a-z][\w'-]*\s*,", re.I)
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
    if _points_back(asking) and statements:
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
_TIMES = frozenset("""january february march april may june july august september october november december monday
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
    return [p for p in places if not set(p) & _TIMES]


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
                and not re.search(rf"(?i)\b{re.escape(w)}\s+(?:{'|'.join(_DETERMINERS)})\b", statement)):
            return k + 1
    return len(words)


def _asking(question: str) -> str:
    """The sentences of a question that ask (end in '?'), joined; '' when none does."""
    return " ".join(s for s in asked_sentences(question) if s.endswith("?"))


def asked_about(question: str) -> str:
    """Where the kinds a question asks about are named: the sentences that ask, unless they point back at what was
    told ("I'm looking into pet insurance. Does the agency offer it?"), then the whole question."""
    asking = _asking(question)
    return asking if asking and not _points_back(asking) else question


_YES_NO = re.compile(r"^\W*(?:is|are|was|were|will|would|can|could|do|does|did|should|shall|may|might|must|has|have)"
                     r"\b", re.I)


# A lone word set off by a comma before the asking, after the asker has told their situation ("… I don't have any
# clearance now. ballpark, how long does that take?"): an aside on how to answer, when the lexicon knows it as a
# describing word at all ("ballpark" is a noun and an adjective; a name such as "ngrok" is none). Opening the
# question, such a word is its topic: "Dental, is it covered?"
ASIDES = True
_ASIDE = re.compile(r"^\W*(?P<word>[A-Za-z][\w'-]*)\s*,\s*(?=(?:how|what|when|where|who|whom|whose|which|why|is|are|"
                    r"was|were|will|would|can|could|do|does|did|should|shall|may|might|must|has|have)\b)", re.I)


# Words that judge whether what the asker does is acceptable ("Is that frowned upon?", "Is it kosher to …?"): the
# passages answer them with their rules ("only as a last resort", "may", "should not"), never in these words.
JUDGEMENTS = frozenset("frowned kosher unprofessional taboo verboten uncool sketchy iffy".split())
# … and words that ask for the conventions themselves ("Is there any etiquette I should follow?"): the passages state
# them ("put the lists in bcc:"), never naming them so
NORMS = frozenset("etiquette decorum netiquette".split())


def colours(word: str, question: str) -> bool:
    """A word that only colours how the asker asks, not what: an adverb ("Realistically, how long …", "… to the
    latest afterwards"), a comparative or superlative ("why is check so much quicker?"), an adjective outside a
    yes/no question ("sitting untouched for a week", "how chatty is npm out of the box"), or an aside before the
    asking (ASIDES). In a yes/no question a plain adjective is what is asked ("Is court leave retroactive?") and
    decides. A word judging what the asker does (JUDGEMENTS: "Is that frowned upon?") asks what the rules say."""
    if word.lower() in JUDGEMENTS or word.lower() in NORMS:
        return True
    if ASIDES and {"ADJ", "ADV"} & set(lexicon(word)) and any(
            (m := _ASIDE.match(s)) and m.group("word").lower() == word.lower()
            for s in asked_sentences(question)[1:]):
        return True
    if not describes(word):
        return False
    readings = lexicon(word)
    if set(readings) == {"ADV"} or any(lemma != word.lower() for lemmas in readings.values() for lemma in lemmas):
        return True
    pattern = re.compile(rf"(?i)(?<![\w'-]){re.escape(word)}(?![\w'-])")
    return not any(s.endswith("?") and _YES_NO.match(s) and pattern.search(s) for s in asked_sentences(question))


def off_topic(absent: list[str], asked: list[str]) -> bool:
    """ABSENT_SHARE of the question's words are absent: it is about something else. An absent word that names
    nothing is not counted: "maybe a dumb question, but …" is not off-topic for lacking "dumb" and "question"."""
    named = [w for w in absent if w not in _ASKING and not describes(w)]
    return bool(asked) and len(named) >= ABSENT_SHARE * len(asked)

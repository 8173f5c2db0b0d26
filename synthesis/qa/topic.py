"""Which of a question's words name what it asks about, and which only tell the asker's story.

`answerability.missing_words` refuses a question when a word it asks about is missing from every passage. Not every
absent word decides: the verbs of the asker's story ("we nuked our package"), where they stand ("in our CI
pipeline"), what they told before asking ("my build dir has stale cache junk in it. is there a flag …?") and words
that only colour the asking ("Realistically, how long …") name no topic. A word naming a kind of a covered thing
("pet" in "pet insurance", "bonus" in "relocation bonus") does, even when not rare (below MODIFIER_ZIPF).
"""

from __future__ import annotations

import re

from ..sentences import asked_sentences, asking_sentence, told_statements
from ..stems import STOPWORDS, content_words, stem
from .parts import context_of
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
DETERMINERS = frozenset("a an the my your our their his her its this that these those some".split())
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
    asking = _asking_words(question) if STORY_INFINITIVES else set()
    for clause in re.split(r"[,;:?!.()\"]", question):
        raw = re.findall(r"[A-Za-z][A-Za-z'-]*", clause)
        tokens = [t.lower() for t in raw]
        for k, w in enumerate(tokens):
            after = tokens[k + 1] if k + 1 < len(tokens) else ""
            # a participle or adverb modifies nothing here ("I regret posting", "keep coding late"), unless it opens
            # a noun phrase before a covered word ("a signing bonus")
            inflected = re.search(r"(ed|ly)$", w) or (w.endswith("ing") and not (
                k and tokens[k - 1] in DETERMINERS and after and stem(after) in present))
            # an -s form of a common verb between a noun and a covered word is that verb with its object ("my crate
            # declares rust-version"), not a modifier ("ethics training", "a savings plan" stay kinds)
            verb_s = (bool(re.search(r"[^su]s$", w)) and bool(after) and stem(after) in present and k > 0
                      and tokens[k - 1] not in _NOUN_OPENERS and _common_verb(w[:-1], w[:-2]))
            # nor does a word before a gerund with its own object ("skip setting a password": "setting" is a verb)
            # (not "a yoga training this month", "a diversity meeting this week": a noun phrase, then a time)
            gerund = (GERUND_OBJECT and after.endswith("ing") and k + 2 < len(tokens)
                      and tokens[k + 2] in DETERMINERS and not (k and tokens[k - 1] in _NOUN_OPENERS)
                      and not (k + 3 < len(tokens) and tokens[k + 3] in _TIMES))
            # (nor a verb after "to" in what is told: "an AI chatbot to summarize notes", STORY_INFINITIVES; "Can I
            # use Copilot to translate documents?" still asks of translating)
            infinitive = (STORY_INFINITIVES and k and tokens[k - 1] == "to" and set(lexicon(w)) == {"VERB"}
                          and w not in asking)
            # (nor a verb before "to" and another verb: "Do 18F people and CoE people tend to use …", "a technique
            # the blogging guide recommends to pin down …" ask of using and pinning down; CATENATIVE)
            catenative = (CATENATIVE and after == "to" and k + 2 < len(tokens) and "VERB" in lexicon(tokens[k + 2])
                          and (set(lexicon(w)) == {"VERB"} or _named_catenative(raw, tokens, k)))
            span = (SPAN_HEADS and (w in _SPANS or (SLOT_SPANS and w in _SLOTS and _HOW_LONG.search(question)))
                    and raw[k].islower()
                    and not (after and stem(after) in present) and _ASKS_SPAN.search(question) is not None)
            # (nor a verb before a particle that ends its clause: "… before the Paperwork Reduction Act kicks in?";
            # PHRASAL_VERBS) (nor the verb after a name that a yes/no question asks of: "Do CoE and 18F handle
            # acquisition work at the same point?"; NAMED_SUBJECTS)
            phrasal = (PHRASAL_VERBS and after in _PARTICLES and k + 2 == len(tokens) and "VERB" in lexicon(w)
                       and (re.search(r"[^su]s$|ed$", w) is not None or bool(_DOES & set(tokens[:k]))))
            # (nor a verb before the pronoun that is its object: "If I just want to hook it up to another channel";
            # OBJECT_PRONOUNS) (nor a comparative, which says which one, not what kind: "the bigger procurement
            # process"; DEGREE_FORMS)
            governs = (OBJECT_PRONOUNS and (after in _OBJECTS or _indefinite_object(tokens, k))
                       and "VERB" in lexicon(w)
                       and raw[k + 1] not in ("IT", "US"))  # (information technology is no pronoun: review)
            degree = DEGREE_FORMS and describes(w) and _degree_form(w)
            if (w not in absent or w in _LINKING or zipf(w) >= MODIFIER_ZIPF or inflected or verb_s or gerund
                    or infinitive or catenative or phrasal or governs or degree or span
                    or (NAMED_SUBJECTS and _after_named_subject(clause, w))
                    or (DO_SUBJECTS and _after_do_subject(clause, w))
                    or (k and tokens[k - 1] in _SUBJECT)
                    or after in DETERMINERS):  # "to attend a conference": a verb
                continue
            previous = tokens[k - 1] if k else ""
            before = [t for t in tokens[max(0, k - 3):k] if t not in DETERMINERS]
            # a word that only describes modifies the covered word after it ("dental insurance"), never the one
            # before it ("check is so much quicker", "the latest afterwards"), nor the asking ("a dumb question")
            modifies = bool(after) and stem(after) in present and bool(content_words(after)) and after not in _ASKING
            if describes(w):
                if (modifies and "ADJ" in lexicon(w) and not (ORDINARY_WORDS and w in _ORDINARY)
                        and not (FITTING_WORDS and w in _FITTING and after in _MEASURED)):
                    found.append(w)
            elif modifies or (
                    previous and stem(previous) in present and content_words(previous) and zipf(w) < HEAD_ZIPF
                    and not (w in LIGHT_HEADS and _names(previous))) or (
                    len(before) >= 2 and before[-1] in _OF and stem(before[-2]) in present
                    and content_words(before[-2])):
                found.append(w)
    return found


# "How many people can I interview … before the Paperwork Reduction Act kicks in?" was refused for "kicks", read as a
# kind of act: a verb right before a particle that ends its clause is a phrasal verb ("kicks in", "runs out"), in
# its -s or -ed form or after "does/do/will …" ("When does it kick in?"; not "a stipend for a bike tune up")
PHRASAL_VERBS = True
_PARTICLES = frozenset("in on up out off over down back away through".split())
_DOES = frozenset("do does did will would can could should may might must".split())
# "If I just want to hook it up to another channel, do I need to fill out the integration request form again?" was
# refused for "hook", read as a kind of what "want to" is of ("donations to charity"): a word the lexicon knows as a
# verb, right before an object pronoun, is that verb with its object (OBJECT_PRONOUNS; "her" is a possessive too)
OBJECT_PRONOUNS = True
_OBJECTS = frozenset("it them him me us".split())
# "Who has to approve security operations that involve someone looking at Slack exports?" was refused for "involve",
# read as a kind of operations: an indefinite pronoun is an object as "it" is (INDEFINITE_OBJECTS)
INDEFINITE_OBJECTS = True
# (only a word that is a verb alone, or one after "that/which/who/to" or a modal: "a parking permit anyone can get"
# keeps "permit", a noun, as a kind; review)
_INDEFINITE = frozenset("someone somebody anyone anybody everyone everybody something anything everything nobody "
                        "nothing".split())
_RELATIVE = frozenset("that which who to".split())


def _indefinite_object(tokens: list[str], k: int) -> bool:
    """Whether tokens[k] is a verb whose object is the indefinite pronoun after it (INDEFINITE_OBJECTS)."""
    if not INDEFINITE_OBJECTS or k + 1 >= len(tokens) or re.sub(r"['’]s$", "", tokens[k + 1]) not in _INDEFINITE:
        return False
    return set(lexicon(tokens[k])) == {"VERB"} or (k > 0 and (tokens[k - 1] in _RELATIVE or tokens[k - 1] in _DOES))


# "… stop using the normal software request process and go to the bigger procurement process instead?" was refused
# for "bigger", read as a kind of procurement: an adjective's comparative or superlative ("bigger", "smallest") sets
# one thing against another the question names; it names no kind a page must cover (DEGREE_FORMS)
DEGREE_FORMS = True


def _degree_form(word: str) -> bool:
    """An -er/-est form of an adjective the lexicon knows by another lemma: "bigger" (big), "larger" (large)."""
    return bool(re.search(r"..(?:er|est)$", word)) and any(
        lemma != word for lemma in lexicon(word).get("ADJ", ()))


# "Do CoE and 18F handle acquisition work at the same point in an engagement?" was refused for "handle", read as a
# kind of acquisition: in a question opening on an auxiliary, a word the lexicon knows as a verb right after a name
# written in capitals or with a digit ("CoE", "18F", "TTS") is the verb that name is the subject of
NAMED_SUBJECTS = True
_CAPITAL_NAME = r"(?:[A-Z]{2,}[a-z]?|[A-Z][a-z]+[A-Z][A-Za-z]*|\d+[A-Z][A-Za-z]*)"  # "TTS", "CoE", "18F"
# the auxiliary opening the question, then the names (and only names) it asks of: "Do CoE and 18F handle …", not
# "Can I request an HR exit interview?" (a name after "an" modifies)
_NAMED_SUBJECT = re.compile(rf"^\s*(?i:do|does|did|can|could|will|would|should|may|might|must)\s+(?:the\s+)?"
                            rf"{_CAPITAL_NAME}(?:\s+(?:and|or)\s+(?:the\s+)?{_CAPITAL_NAME})*\s+(?P<verb>[a-z]+)\b")


# "Which of our TTS values does the handbook tie giving and receiving feedback to?" was refused for "tie", read as a
# kind of giving: after "do/does/did" and a subject of a determiner and one noun, the next word is the verb, in its
# base form (DO_SUBJECTS; the lexicon must know it as a verb: "does the travel policy cover …" reads "travel" as the
# noun and "policy" as no verb; a word in -ed, -ing or -s is no base form)
DO_SUBJECTS = True
_DO_SUBJECT = re.compile(r"(?i)\b(?:do|does|did)\s+(?:the|this|that|our|your|my|their|its|his|her|a|an|each|every|"
                         r"any)\s+[a-z][\w-]*\s+(?P<verb>[a-z]+)\b(?:\s+(?P<next>[a-z]+))?")


def _after_do_subject(clause: str, word: str) -> bool:
    """Whether `word` is the base-form verb after "do/does/did" and a determined one-noun subject (DO_SUBJECTS)."""
    # (not when a verb alone follows it: "Does the hiring freeze apply to contractors?" has "apply" for its verb and
    # "freeze" for its noun; review)
    return any(m.group("verb") == word and "VERB" in lexicon(word) and not re.search(r"(?:ed|ing|[^su]s)$", word)
               and not ((nxt := m.group("next")) and set(lexicon(nxt)) == {"VERB"} and not nxt.endswith(("ing", "ed")))
               for m in _DO_SUBJECT.finditer(clause))


def _after_named_subject(clause: str, word: str) -> bool:
    """Whether `word` is the verb after a named subject of a yes/no question (NAMED_SUBJECTS)."""
    m = _NAMED_SUBJECT.match(clause)
    return bool(m) and m.group("verb") == word and "VERB" in lexicon(word)


# "Do 18F people and CoE people tend to use the same chat tool day to day?" was refused for "tend", read as a kind
# of people: a word the lexicon knows only as a verb, before "to" and a verb, is a verb (CATENATIVE)
CATENATIVE = True

# "Is there a dollar ceiling AcqDiv tries to keep procurements under …?" was refused for "tries", read as a kind of
# AcqDiv: an -s word that is a noun too ("tries") is a verb before "to" and a verb when a name comes right before it
# and a noun before the name, a relative clause without its "that" ("a dollar ceiling AcqDiv tries to …";
# NAMED_CATENATIVE). Not after a determiner or a verb: "any TTS grants to attend", "use Uber rides to get" are nouns.
NAMED_CATENATIVE = True
_NAME_WORD = re.compile(rf"^(?:{_CAPITAL_NAME}|[A-Z][a-z]+)$")


def _named_catenative(raw: list[str], tokens: list[str], k: int) -> bool:
    """Whether tokens[k] is a verb after a named subject in a relative clause (NAMED_CATENATIVE; "to" and a verb
    follow it, the caller checks that)."""
    if not NAMED_CATENATIVE or k < 2 or not re.search(r"[^su]s$", tokens[k]) or "VERB" not in lexicon(tokens[k]):
        return False
    noun = tokens[k - 2]
    return (_NAME_WORD.match(raw[k - 1]) is not None and noun not in STOPWORDS
            and set(lexicon(noun)) == {"NOUN"})


# "… how long should we plan for the ATO scanning and testing stretch?" was refused for "stretch", read as a kind of
# testing: in a question asking how long or when, a noun naming a span of time that ends its phrase is the span asked
# for, no kind a page must cover (SPAN_HEADS; "testing" and "ATO" still decide). Not a modifier: "stretch goals",
# "stretch assignments" are kinds; nor "when" opening a condition ("When I start, is there a probation stint …?").
# A slot too, asked how long: "how long should each interview slot be when I set up calendar holds …" (SLOT_SPANS).
SPAN_HEADS = True
SLOT_SPANS = True
_SPANS = frozenset("""stretch stretches phase phases span spans stint stints spell spells timeframe timeframes timeline
duration interval intervals""".split())
_SLOTS = frozenset("slot slots".split())  # (only in a question asking how long: a parking slot is a place)
_HOW_LONG = re.compile(r"(?i)\bhow long\b")
_ASKS_SPAN = re.compile(r"\bhow\s+(?:long|many\s+(?:days|weeks|months|years|hours)|much\s+time)\b|"
                        r"\b(?:by|until)\s+when\b|\bwhen\s+(?:is|are|was|does|do|did|will|would|can|should|must)\b",
                        re.I)

# "Can I just use my Personal Meeting ID and skip setting a password?" was refused for "skip", read as a kind of
# setting: before a gerund that takes an object, a word is a verb, no modifier
GERUND_OBJECT = True
_TIMES = frozenset("day days week weeks month months year years morning afternoon evening time quarter".split())


# Adjectives that say how ordinary or which one, never what kind: "Besides the usual incident emails, …" asks about
# incident emails, not a usual kind of them
ORDINARY_WORDS = True
# (only words rarer than MODIFIER_ZIPF need listing: "same", "whole", "certain" never decide)
_ORDINARY = frozenset("usual typical ordinary customary everyday".split())
# … nor those that judge whether it fits: "What's a reasonable amount to pay a member of the public for an hour-long
# moderated research session?" asks how much to pay, not of a reasonable kind of amount (FITTING_WORDS)
FITTING_WORDS = True
_FITTING = frozenset("reasonable appropriate acceptable sensible decent suitable".split())
# (only before a measure: "a reasonable accommodation" is a term of art, a kind of accommodation)
_MEASURED = frozenset("""amount amounts price prices rate rates cost costs fee fees sum sums number time notice budget
compensation pay payment length duration""".split())


# Where the asker stands, not what they ask about: "… in our CI pipeline", "… on the build server".
_SETTING = re.compile(r"\b(?:in|on|at|inside|within)\s+(?:our|my|your|their|the)\s+"
                      r"(?P<words>(?:[A-Za-z][\w'-]*\s+){0,2}[a-z][\w'-]*)(?=\s*(?:[,.;:?!]|$))")


def story_verbs(question: str, present: set[str] = frozenset()) -> set[str]:
    """Past and -ing forms right after a subject pronoun (an adverb or "'ve"/"'m" between them allowed), and past forms
    right after "my/our <noun>" ("my supervisor hinted I'll get a Level 4"): the verbs of the asker's story ("we
    nuked our package", "we've accidentally nuked it", "I'm moonlighting"), not topics the knowledge
    base lacks ("tenured staff", "my moped", "can I telecommute" still are). Also a gerund of a common verb after a
    preposition, with its object after it ("tools for spotting dependencies"): what the asker does, where a rare
    one names a thing ("a stipend for coworking spaces"). And a rare verb after "to" or a modal in what the asker
    tells ("I'm worried it'll lapse", STORY_INFINITIVES), unless the asking uses it too ("Can we unionize?")."""
    text = re.sub(r"(?i)\b(i|we|you|they|he|she)'(?:ve|m|re|d|ll)\b", r"\1", question)
    told = told_statements(question)
    found = {m.group("verb").lower() for s in told
             if OPENING_PARTICIPLE and (m := _OPENING_PARTICIPLE.match(s)) and "VERB" in lexicon(m.group("verb"))}
    if STORY_INFINITIVES:  # "an AI chatbot to summarize notes", "I'm worried it'll lapse": the story's verbs
        asked = _asking_words(question)
        found |= {w for s in told for m in _INFINITIVE.finditer(re.sub(r"['’]ll\b", " will", s))
                  if zipf(w := m.group("verb").lower()) < SPECIFIC_ZIPF and "VERB" in (forms := lexicon(w))
                  and (m.group("by").lower() != "to" or "NOUN" not in forms)  # (only a rare one could be a topic)
                  and w not in asked}
    found |= told_subject_verbs(question)
    if CLAUSE_VERBS:  # "When Talent advertises an 18F leadership opening, where does it get posted?"
        found |= {w for m in _CLAUSE_VERB.finditer(question) if (w := m.group("verb")) and (forms := lexicon(w))
                  and "NOUN" not in forms and any(lemma != w for lemma in forms.get("VERB", ()))}
    if GET_PASSIVE:  # "my SAAR form keeps getting bounced, who should I ping?": what happened to it
        story = context_of(question)
        asking = asking_sentence(question).strip(" ?")
        leading = [story] if story and story.strip(" ?") != asking and asking.startswith(story) else []
        found |= {w for s in [*told, *leading] for m in _GET_PASSIVE.finditer(s)
                  if (w := m.group("verb").lower()) and any(lemma != w for lemma in lexicon(w).get("VERB", ()))}
    if VERB_ME:  # "a recruiter from a search firm pinged me": a past form with the asker as its object, told
        found |= {w.lower() for s in told for m in _VERB_ME.finditer(s)
                  if (w := m.group("verb")) and any(lemma != w.lower() for lemma in lexicon(w).get("VERB", ()))}
        found |= acronym_verbs(question)
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
              and (tokens[k + 1] in DETERMINERS or stem(tokens[k + 1]) in present)):
            found.add(w)  # its object follows: a determiner or a word the passages use ("for spotting dependencies")
    return found


_PREPOSITIONS = frozenset("for of by about without before after while when in on at from into".split())
# "my SAAR form keeps getting bounced and isn't getting approved, who should I ping?" was refused for "bounced": a
# past participle after a finite form of "get" in what the asker tells (a statement, or a told clause that opens the
# asking sentence before its asking part) is what happened to their thing, no topic (GET_PASSIVE). Not after bare
# "get" ("how do I get reimbursed?", "I need to get fingerprinted" ask for it), and not in a one-clause question
# ("When I travel, can I still get reimbursed?").
GET_PASSIVE = True
_GET_PASSIVE = re.compile(r"(?i)\b(?:gets|got|getting|gotten)\s+(?:\w+ly\s+)?(?P<verb>[a-z]{3,}ed)\b")
# "If I'm on a flexible schedule and keep volunteering to stay late, how many credit hours …?" was refused for
# "volunteering": an -ing form of a common verb after a verb of keeping, starting or stopping (or "been") is the
# asker's doing
ASPECT_VERBS = True
_ASPECT = frozenset("keep keeps kept start starts started stop stops stopped began begun continue continues continued "
                    "been".split())
VERB_ME = True
# "Our team wants to try an AI chatbot to summarize notes … Do we need anybody's sign-off before we start using it?"
# was refused for "summarize", "I'm worried it'll lapse. How do I figure out when it expires?" for "lapse": a verb
# after "to" or a modal in what the asker tells is what they do or fear, not the thing "it" points at (a word that is
# also a noun counts only after a modal: "to moonlight" may be the topic) (STORY_INFINITIVES)
STORY_INFINITIVES = True


def _asking_words(question: str) -> set[str]:
    """The lower-cased words of the sentences that ask (end in '?')."""
    return {w.lower() for s in asked_sentences(question) if s.endswith("?") for w in TOKEN.findall(s)}


_INFINITIVE = re.compile(r"(?i)\b(?P<by>to|will|would|can|could|should|might|may|must)\s+(?P<verb>[a-z]+)\b")
# … and an acronym made a verb, which no lexicon knows: "A podcast host DMed me …", "… DM'd me", "dmed me" in chat
# (ACRONYM_VERBS; in capitals, or the chat ones in lower case)
ACRONYM_VERBS = True
_ACRONYM_VERB = re.compile(r"(?:[A-Z]{2,}|(?i:dm|pm|im|cc|bcc))[’']?(?:ed|d)")
# The verbs above and past forms ending in "-ed" or "'d" (lower-case "me"/"us": "US-wide" is no object; not after a form
# of "be": "been provisioned me")
_VERB_ME = re.compile(r"(?<!\bbe )(?<!\bbeen )(?<!\bis )(?<!\bwas )(?<!\bwere )(?<!\bare )\b"
                      r"(?P<verb>[A-Za-z]{2,}(?:ed|[’']d))\s+(?-i:me|us)\b", re.I)
# A statement opening on what the asker was doing ("Poking around HR Links, my … tab says …", "Digging through the
# travel guide, I …"): the asker's verb (a verb to the lexicon: not "Nothing", "Coworking"), where they did it
# after it, then the asker's own clause
OPENING_PARTICIPLE = True
# A told statement whose subject is a noun phrase ("A project meeting clashed with one of my required onboarding
# classes.", "Our engagement wraps up in a few months"): its verb, a past form or an -s form before a particle, is
# what happened, no topic (TOLD_SUBJECT; the noun phrase is one to three words after its determiner, the verb the
# last inflected one that can follow it: "My team's shared drive filled up", "The upload speed dropped")
TOLD_SUBJECT = True
_TOLD_SUBJECT = re.compile(r"^\W*(?:a|an|the|my|our|their|this|that)\s+(?:[\w'-]+\s+){1,3}"
                           r"(?P<verb>[a-z]{3,}(?:ed|s(?=\s+(?:up|out|off|down|over|back|through)\b)))\b", re.I)
_OPENING_PARTICIPLE = re.compile(r"^\W*(?P<verb>[A-Za-z]{2,}ing)\s+(?:around|through|into|in|at|over|across|on|"
                                 r"about|with|under)\b[^,]{0,60},\s*(?:my|our|i|i'm|i’m|we|we're|we’re)\b", re.I)
COMMON_VERB_ZIPF = 4.0  # a verb this common in English is an action, not a thing the knowledge base names


# The people around the asker are not what is asked: "A coworker said they're 'on AWS' … What does that schedule
# look like?" (hp43-30) was refused because no page says "coworker". A noun naming someone by their relation to the
# asker (a short list: coworker, teammate, buddy, boss …) never decides that a page is missing (TOLD_SPEAKER); the
# thing that "said" it does ("The sabbatical policy says …": no page names a sabbatical).
TOLD_SPEAKER = True
RELATIONS = frozenset("""coworker co-worker colleague teammate friend boss buddy mentor mentee peer someone somebody
folk guy predecessor successor""".split())


def speakers(question: str) -> set[str]:
    """The question's lower-case words that name people by their relation to the asker (TOLD_SPEAKER)."""
    if not TOLD_SPEAKER:
        return set()
    return {w for w in map(str.lower, TOKEN.findall(question))
            if w in RELATIONS or set(lexicon(w).get("NOUN", ())) & RELATIONS}


def acronym_verbs(question: str) -> set[str]:
    """The acronyms made verbs before "me"/"us" in what the asker tells ("dmed", "dm'd"; ACRONYM_VERBS)."""
    if not (VERB_ME and ACRONYM_VERBS):
        return set()
    return {m.group("verb").lower() for s in told_statements(question) for m in _VERB_ME.finditer(s)
            if _ACRONYM_VERB.fullmatch(m.group("verb"))}


def told_subject_verbs(question: str) -> set[str]:
    """The verbs of told statements whose subject is a noun phrase (TOLD_SUBJECT): "clashed", "wraps", and an
    irregular past form ("my old manager swore by …", IRREGULAR_PAST)."""
    if not TOLD_SUBJECT:
        return set()
    found = {m.group("verb").lower() for s in told_statements(question) if (m := _TOLD_SUBJECT.match(s))
             and any(lemma != m.group("verb").lower() for lemma in lexicon(m.group("verb")).get("VERB", ()))}
    if IRREGULAR_PAST:
        found |= {v for s in told_statements(question) if (v := _irregular_past(s))}
    return found


# "When Talent advertises an 18F leadership opening, where does it get posted?" was refused for "advertises" (the page
# says "publicize"): the verb of a condition's clause, after its subject, a name or a noun phrase of up to three
# words, is what happens in the asker's case, no topic (CLAUSE_VERBS): an inflected form the lexicon knows only as a
# verb ("advertises", "approved"; not "interviews" or "posts", which may be what is asked of). Only a clause that opens
# its sentence and is followed by the asking after a comma: "What happens if my PIV card expires?" asks of expiring
# (found in review).
CLAUSE_VERBS = True
_CLAUSE_VERB = re.compile(r"(?:^|(?<=[.?!]\s)|(?<=\n))\W*(?i:(?:when|whenever|if|once|after|before|while|until)\s+"
                          r"(?:(?:the|a|an|our|my|your|their|his|her|its)\s+)?(?:[A-Za-z][\w'’-]*\s+){1,3}?)"
                          r"(?P<verb>[a-z]{3,}(?:es|s|ed))\b(?=[^,?.;]*,\s*\w)")


# "my old manager swore by the compliment sandwich for tough convos - is that how we're supposed to do feedback
# here?" was refused for "swore": a told statement's verb after its noun-phrase subject may be an irregular past form,
# which TOLD_SUBJECT's endings miss (IRREGULAR_PAST). The subject is the determiner and a word or more; the second to
# fourth words after the determiner are looked at, and the first that the lexicon knows only as a verb's past tense
# (not a participle only, "overridden"; no noun, "my zoom calls …"; no -s, -ing or -ed form) is the verb, unless a verb
# form follows it ("My federal tax withheld doubled …": it was part of the subject).
IRREGULAR_PAST = True
_NOUN_PHRASE_OPEN = re.compile(r"^\W*(?:a|an|the|my|our|their|this|that)\s+(?P<rest>.+)$", re.I | re.S)


def _irregular_past(statement: str) -> str | None:
    from lemminflect import getInflection  # (loaded with the lexicon)

    m = _NOUN_PHRASE_OPEN.match(statement)
    words = [x.lower() for x in re.findall(r"[A-Za-z'’-]+", m.group("rest"))] if m else []
    for k, w in enumerate(words[1:4], start=1):
        forms = lexicon(w)
        if (set(forms) == {"VERB"} and not w.endswith(("s", "ing", "ed"))
                and any(lemma != w and w in getInflection(lemma, "VBD") for lemma in forms["VERB"])):
            following = words[k + 1] if k + 1 < len(words) else ""
            return None if following and "VERB" in lexicon(following) and re.search(r"ed$|s$", following) else w
        if "VERB" in forms and w not in forms["VERB"]:
            return None  # another verb form comes first: the story's verb is not this one
    return None


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


# The act a question asks a way to do ("Is there a formal way to appeal that decision?", "Is there a process to
# transfer …?") is its topic, however common the verb: pages that never speak of appealing do not say how to appeal,
# whatever they say of the decision (ACTION_ASKED). A light verb ("get", "use", "keep") names no act of its own
# (ACTION_ZIPF and over).
ACTION_ASKED = True
ACTION_ZIPF = 5.0
# (only a way asked for: "How should I handle …?" asks a manner, and "How many hours can I roll over …?" an amount,
# whose verb the pages may well say otherwise, "carry over")
_ACTION = re.compile(r"(?i)\b(?:a|an|any|some|the)\s+(?:formal\s+|official\s+|proper\s+|right\s+|quick\s+|easy\s+)?"
                     r"(?:way|process|procedure|option)\s+(?:for\s+(?:me|us)\s+)?to\s+(?:still\s+|even\s+|also\s+)?"
                     r"(?P<verb>[a-z]+)\b")


def asked_action(question: str) -> set[str]:
    """The verb of the act the question asks a way to do ("appeal" of "Is there a formal way to appeal that
    decision?"), when it is no light verb; see ACTION_ASKED."""
    if not ACTION_ASKED:
        return set()
    return {w for m in _ACTION.finditer(question) if "VERB" in lexicon(w := m.group("verb").lower())
            and zipf(w) < ACTION_ZIPF and w not in STOPWORDS}

"""What a question asks for: its parts (or the sides of a comparison) and, per part, the kind of answer expected.

The expected answer kind is read from the question's wording, not its topic:
  * quantity — how many/much/long/often/soon/quickly, what percentage/amount, by when, what year;
  * who — who/whom/whose, which team/office/person, whose sign-off;
  * where — where do I…, which site/system;
  * yes/no — a main clause that starts with an auxiliary ("Can I…", "Am I expected to…", "Should I…");
  * procedure — how do/can/should I…, what should I do;
  * other — anything else (what is…, why…).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from enum import StrEnum

from ..sentences import asking_sentence
from ..stems import content_words, stem
from . import compared, values
from .compared import SIDE_LEAD, compared_aspect, compares, comparison_sides, side_frame, told_in
from .idioms import plain
from .parts import CLAUSE_LEAD, alternatives, asks, context_of, split_parts, without_lead
from .values import ASKS_CLOCK, BEFORE_DEADLINE, asks_salary

# Words a question uses to frame itself, never what it is about ("Can I get…", "What should I do…").
FRAMING = frozenset("""able actually ask asked anyone really okay ok also else want wants wanted like would going go
gets getting let lets tell told mean means say says said think thinks realize realized realise wonder wondering
sure just versus""".split())
# … and "supposed" before "to": "Am I supposed to …", "How much notice am I supposed to give …" asks what one should
# do, whatever the pages call it (SUPPOSED_TO; "the supposed savings" is another word)
SUPPOSED_TO = True
_SUPPOSED_TO = re.compile(r"\bsupposed\s+to\b", re.I)


def framing(word: str, question: str) -> bool:
    """`word` frames the `question` (FRAMING, or "supposed" of "supposed to"), never what it is about."""
    return word in FRAMING or (SUPPOSED_TO and word == "supposed" and bool(_SUPPOSED_TO.search(question)))


COMMON_ZIPF = 5.0  # words at least this common in English ("policy", "start") say little about what is asked
ANY_SPELLING, SPELLING_GAIN = True, 1.0  # a word is as common as its American spelling (`zipf`)


def zipf(word: str) -> float:
    """How common a word is in English (Zipf scale: 7 'the', 5 'straight', 3 'stipend', 0 unknown), whichever way
    it is spelled: "behaviour" is as common as "behavior" (4.69, not 4.36), and a British spelling is no sign that
    a word names something specific. Only a spelling at most SPELLING_GAIN more common counts as the same word: the
    endings rewritten blindly also make other words ("four" → "for", "entre" → "enter")."""
    own = _zipf(word)
    if not ANY_SPELLING:
        return own
    from .wordforms import american

    return max([own, *(z for w in american(word) if (z := _zipf(w)) <= own + SPELLING_GAIN)])


@functools.lru_cache(maxsize=8192)
def _zipf(word: str) -> float:
    from wordfreq import zipf_frequency  # imported on first use: its tables load lazily

    return zipf_frequency(word, "en")


def stem_weights(text: str) -> dict[str, float]:
    """Content stems of `text`, each weighted 1, or 0.3 when the word is very common in English."""
    weights: dict[str, float] = {}
    for w in content_words(text):
        weights[stem(w)] = max(weights.get(stem(w), 0.0), 0.3 if zipf(w) >= COMMON_ZIPF else 1.0)
    return weights


class Expect(StrEnum):
    QUANTITY = "quantity"
    WHO = "who"
    WHERE = "where"
    YESNO = "yes/no"
    PROCEDURE = "procedure"
    OTHER = "other"


_MEASURE = (r"(?:score|rate|percent(?:age)?|number|count|time|hours?|days?|utili[sz]ation|satisfaction|NPS|"
            r"metric|KPI|budget|revenue|savings|spend|headcount|ratio)")
QUANTITY_CUE = _QUANTITY = re.compile(
    r"\b(how (many|much|long|often|frequently|soon|quickly|fast|far|early|late|big|old)|"
    r"what (percentage|percent|portion|share|fraction|amount|rate|number|proportion|deadline)|by when|up to what|"
    # a measure's goal: "What Net Promoter Score target has TTSC set?", "what's the target for billable hours?" (not
    # "what target audience", "the build target")
    # (a lookahead: the cue is left out of the question's words, the measure is what it asks about)
    r"\bwhat(?=(?:'s|’s| is| are)? (?:the |our |its |their )?(?:[\w-]+\s+){0,2}?" + _MEASURE
    + r"\s+(?:goal|target)s?\b|(?:'s|’s| is| are) (?:the|our|its|their) (?:goal|target)s? (?:for|of|on) "
    r"(?:[\w-]+\s+){0,3}?" + _MEASURE + r"\b(?!-))|"
    # ("what's the exact maximum number of candidates …": a word that only sharpens the limit asks it too)
    r"what(?:'s|’s| is) the (?:(?:exact|actual|absolute|current|overall|official|hard|upper|lower)\s+)?"
    r"(?:(?:credit|spending|purchase|dollar|time|size|word|character|page)\s+)?(?:maximum|"
    r"minimum|max|min|limit|cap|deadline)|(what|which) year\b(?!['’]s|-)|"
    # "is there a contract size that we stay under", "is there a cap on …": a yes/no that asks for an amount; the noun
    # ends the phrase ("a budget approval process", "a budget code" ask for no amount) and no verb comes before it
    # ("a way to limit who …", "a need to budget …")
    r"(?:is|are) there (?:a|an|any)(?=\s+(?:(?!to\b)[\w-]+\s+){0,2}(?:size|limit|cap|maximum|minimum|threshold|"
    r"ceiling|deadline|budget)s?(?:\s*[?,.;]|\s*$|\s+(?:on|for|of|per|to|that|which|we|i|you|they|in|at|number|"
    r"amount)\b))|"
    # "what's the most I could get", "what's the longest we can keep it" (not "the most common way"; "the latest I
    # can submit" asks a time)
    r"what(?:'s|’s| is) the (?:most|least|longest|shortest|highest|lowest) (?:i|we|you|they|one|"
    r"someone|anyone)\b)\b|" + ASKS_CLOCK, re.I)
# … and in another tense: "what was the maximum number of candidates a hiring manager could pick?", "what will be
# the minimum …" (LIMIT_TENSES; only the maximum or minimum: "what are the limits on personal use" asks rules)
LIMIT_TENSES = True
_SHARPENED = r"(?:(?:exact|actual|absolute|current|overall|official|hard|upper|lower)\s+)?"
_LIMIT_TENSES = re.compile(
    rf"\bwhat (?:was|will be|would be) the {_SHARPENED}(?:maximum|minimum|max|min)\b|"
    # (plural, only before what is counted: "what are the minimum requirements" asks the requirements)
    rf"\bwhat (?:are|were) the {_SHARPENED}(?:maximum|minimum|max|min) (?:number|amount|count|size|hours|days|weeks|"
    r"months|years|dollars)\b", re.I)
# "what's the shortest the nomination window is allowed to be?", "what's the most a hotel can cost?": a superlative
# whose noun phrase and verb follow asks the limit, a quantity, as "what's the shortest I …" does (SUPERLATIVE_SUBJECT;
# the cue is "what's the shortest", the noun phrase after it is what is asked about; not "the latest": "what's the
# latest the agency is saying" asks news, and an -ing form or "to say" after the verb asks no limit)
SUPERLATIVE_SUBJECT = True
_SUPERLATIVE_SUBJECT = re.compile(r"\bwhat(?:'s|’s| is) the (?:most|least|longest|shortest|highest|lowest|fewest)"
                                  r"(?= (?:the|a|an|my|our|your|their|its|this|that|each|every) "
                                  r"(?:[\w'’-]+\s+){1,4}?(?:is|are|can|could|may|might|should|will|would|must|has to|"
                                  r"have to|needs? to|gets? to)\b(?!\s+(?:\w+ing|to say)\b))", re.I)
# Asking what holds when nothing is set: "what's the default timeout", "what does it default to", "out of the box",
# "if I don't set one", "if I leave out the slots field".
ASKS_DEFAULT = re.compile(r"\b(?:by|the|a|its|their|your|our|my|npm's|cmake's)\s+defaults?\b|\bdefaults?\s+to\b|"
                          r"\bdefault\s+(?:value|setting|level|mode|timeout|behaviou?r|location|path|port|branch|"
                          r"config\w*|option|directory|folder|limit|size|format|shell|editor|registry)\b|"
                          r"\bout of the box\b|\bif (?:i|we|you) (?:don'?t|do not|never) (?:set|pass|specify|give|"
                          r"configure|provide)\b|\bif (?:i|we|you) (?:leave out|omit|skip)\b|"
                          r"\b(?:i|we|you) never (?:set|pass|specify)\b", re.I)
# Asking which release brought something: "which cmake release added …", "since what version", "when was …
# introduced"; not a thing named with the word ("what release process", "which version of the form").
ASKS_VERSION = re.compile(r"\b(?:which|what)\s+(?:[\w.-]+\s+){0,2}?(?:version|release)s?\s+(?:added|introduced|"
                          r"brought|first|started|removed|dropped|deprecated|supports?|lets?|made|did|does|do|will|was|"
                          r"is|has|have|had|of \w+ (?:added|introduced|removed|dropped|supports?|lets?))\b|"
                          r"\bsince (?:when|what version|which version)\b|"
                          r"\bwhen (?:was|were|did) .{1,60}\b(?:added|introduced|removed|deprecated)\b", re.I)


NAME_ORIGIN = True
# Asking where a name comes from: "why is it called 18F?", "Why do we call it Tock?", "where does the name Tock come
# from?", "Where did 18F get its name?", "what does CoE stand for?", "What is 18F short for?"; not "what is the tool
# called?" (asking the name itself) nor "Why was the meeting called off?" (a name follows "called").
_NAMED = r"(?-i:[\"'“‘]?[A-Z0-9][\w./&-]*[\"'”’]?)"
ASKS_NAME = re.compile(r"\bwhy(?:'s|’s| is| was| are| were) (?:it|this|that|they|the [\w-]+(?: [\w-]+)?|"
                       + _NAMED + r") (?:called|named) " + _NAMED
                       + r"|\bwhy (?:do|did) (?:we|they|you|people) (?:call|name) (?:it|this|that|them|the [\w-]+|"
                       + _NAMED + r") " + _NAMED + r"|\bwhere (?:does|did) "
                       r"(?:the (?:team |group |office )?name\b.{0,40}\bcome from|" + _NAMED + r" get (?:its|their) "
                       r"name)\b|\bwhat (?:does|do|did) " + _NAMED + r" stand for\b|\bwhat(?:'s|’s| is) "
                       + _NAMED + r" short for\b", re.I)


class Field(StrEnum):
    """A field of a setting or feature that reference docs state on a line of its own."""

    DEFAULT = "default"  # what holds when nothing is set: "what's the default timeout", "if I leave it out"
    VERSION = "version"  # which release added it: "since which version"
    NAME = "name"  # where a name comes from: "why is it called 18F?" (NAME_ORIGIN)


def asked_field(text: str) -> Field | None:
    """The field of a setting or feature the text asks for, if any."""
    if ASKS_DEFAULT.search(text):
        return Field.DEFAULT
    if NAME_ORIGIN and ASKS_NAME.search(text):
        return Field.NAME
    return Field.VERSION if ASKS_VERSION.search(text) else None


# Asking for a person without "who": "Whose sign-off …", "…, and I need approval from …?" (after _WHO_STRICT).
_WHO_ACT = re.compile(r"\b(sign-?off|approv\w*|contact|notify|tell|ask)\b.*\?$", re.I)
# "who" as the asking word, not as a relative pronoun ("someone who ends up hired")
_WHO_STRICT = re.compile(r"^(who|whom|whose)\b|\b(to|from|by|with) whom\b|\bwhose\b|\bwho (do|does|did|should|"
                         r"must|can|could|will|would|to|is|are|was|has|approves|decides|makes|signs|owns)\b|"
                         r"\bwhich (team|person|people|office|group|role|manager|official|unit)\b", re.I)
_WHERE = re.compile(r"^where\b|\bwhere (do|does|did|can|could|should|must|is|are|will|would|to)\b|"
                    r"\bwhich (site|system|tool|website|form|channel|page)\b", re.I)
# … and what or which way to reach someone: "What's the phone number for the Concur help desk?" (not "How do I update
# my email address?", "Can I store contact details in Airtable?")
_ASKS_CONTACT = re.compile(r"^(?:what|which)(?:'s|’s| is| are)?\s+(?:(?:the|a|an|their|its|your|our)\s+)?"
                           r"(?:[\w.'’-]+\s+){0,3}?(?:(?:phone|telephone|fax|contact|hotline)\s+(?:numbers?|"
                           r"info(?:rmation)?|details)|email address(?:es)?)\b(?!\s+(?:is|are)\s+(?:out|wrong))", re.I)
_AUX_START = re.compile(r"^(can|could|may|might|am|is|are|was|were|do|does|did|should|shall|will|would|must|have|"
                        r"has|had)\b", re.I)
_PROCEDURE = re.compile(r"\bhow (do|can|should|would|could|shall|must) (i|we|you|one|a|an|the|my|our)\b|"
                        r"\bwhat (should|do|must|can) (i|we|you) do\b|\bsteps? (to|for)\b|\bprocess for\b|"
                        r"\bhow to\b|"
                        # "What's the first thing I do to get the process started?": a procedure's first step
                        r"\bwhat(?:'s|’s| is| are) the (?:first|next) (?:thing|step)s? (?:i|we|you) "
                        r"(?:(?:should|must|have to|need to)\s+)?(?:do|take)\b",
                        re.I)


@dataclass
class Part:
    """One thing the question asks: its text, the answer kind it expects, and its content stems."""

    text: str
    expect: Expect
    stems: set[str] = field(default_factory=set)
    query: str = ""  # what to embed: the part with the statement or earlier part it leans on
    own: set[str] = field(default_factory=set)  # the stems of the part's own words (without the statement's)
    side: int | None = None  # in a comparison, the side it is about (a side, or the compared aspect of one)
    search: str = ""  # what retrieval asks for it (default: the query)
    field: Field | None = None  # asked of a setting or feature: its default, or the release that added it

    def __post_init__(self) -> None:
        self.query = self.query or self.text
        self.search = self.search or self.query


@dataclass
class Frame:
    """The question as the reader sees it: one part for a simple question, several for a multi-part or comparison."""

    question: str
    parts: list[Part]
    comparison: bool = False
    stems: set[str] = field(default_factory=set)
    side_frame: str = ""  # what every side of a comparison is asked in ("If I leave federal service, what happens to")

    @property
    def expects(self) -> Expect:
        return self.parts[0].expect if self.parts else Expect.OTHER


# "When do we use a multi-workspace channel versus Slack Connect?" asks in which case, not at what time: a choice
WHEN_CASE = True
# (a choice of one thing over another: "When can I apply for paid parental leave?" asks a time)
_WHEN_CASE = re.compile(r"(?i)^when\s+(?:(?:do|does|should|would|can|could|must|might)\s+(?:i|we|you|they|one|people|"
                        r"someone|teams?)|"
                        # … and "When am I supposed to use Zoom instead of Google Meet" (SUPPOSED_CASE)
                        r"(?P<supposed>(?:am i|are we|are you|is one|are people|are they)\s+(?:supposed|expected|"
                        r"meant|allowed|required)\s+to))\s+(?:use|choose|pick(?!\s+up)|prefer|opt for|go with)\b")
SUPPOSED_CASE = True
# (… and it names the other one: "instead of Google Meet"; not "my use-or-lose leave")
_OTHER_CHOICE = re.compile(r"(?i)(?<![\w-])(?:instead of|rather than|versus|vs\.?|or)(?![\w-])")


def _when_case(text: str) -> bool:
    m = _WHEN_CASE.match(text)
    return bool(m) and (not m.group("supposed") or (SUPPOSED_CASE and bool(_OTHER_CHOICE.search(text, m.end()))))


# "And what's the normal weekly deadline for Tocking once I'm back?": a deadline asked with words before it (not only
# "the exact deadline") asks a date, and dates are numbers too (DEADLINE_ASKED)
DEADLINE_ASKED = True
_ASKS_DEADLINE = re.compile(r"(?i)\bwhat(?:'s|’s| is| are) (?:the|our|my|its|their) " + BEFORE_DEADLINE
                            + r"(?:deadline|due date|cut-?off date)s?(?=\s*(?:[?,.;!]|$)|\s+(?:for|to|of|on|in|at|by|"
                            r"each|every|this|that|when|if|once|after|before)\b)")  # not "the deadline process"
_ASKS_CUTOFF = re.compile(r"(?i)\bwhat(?:'s|’s| is| are) (?:the|our|my|its|their) " + BEFORE_DEADLINE
                          + r"cut-?offs?(?: date| time)?(?=\s*(?:[?,.;!]|$)|\s+(?:for|to|of|on|in|at|by|each|every|"
                          r"this|that|when|if|once|after|before)\b)")
_WHEN_CUTOFF = re.compile(r"(?i)\bwhen(?:'s|’s| is| are)\s+(?:the|our|my|its|their)\s+(?:[\w-]+\s+)?cut-?offs?\b")


# "What's the cutoff for getting all my travel booking and approval steps done?" asks a deadline ("no later than 3:30
# PM ET the last business day before travel"), in a word the pages need not use (CUTOFF_ASKED; the word is a cue, as
# "deadline" is, not a word the answer must hold: `cue_free`)
CUTOFF_ASKED = True
_CUTOFF_WORD = re.compile(r"(?i)\bcut-?offs?\b")


def asks_cutoff(text: str) -> bool:
    """The part asks a cutoff: "what's the (…) cutoff (date/time) for …" (CUTOFF_ASKED; as `_ASKS_DEADLINE` reads a
    deadline, the noun ending its phrase: not "the cutoff switch")."""
    return CUTOFF_ASKED and bool(_ASKS_CUTOFF.search(text))


def cue_free(text: str) -> str:
    """The text without the words that cue a quantity ("how many"; "cutoff" where it asks one), what they ask of kept
    ("the income cutoff" keeps "income")."""
    text = QUANTITY_CUE.sub(" ", text)
    if SUPERLATIVE_SUBJECT:
        text = _SUPERLATIVE_SUBJECT.sub(" ", text)
    return _CUTOFF_WORD.sub(" ", text) if asks_cutoff(text) or (CUTOFF_ASKED and _WHEN_CUTOFF.search(text)) else text


# "What Net Promoter Score is TTSC targeting …?", "What GS grade or salary was the position going to be?": a score,
# grade, salary or quota that a verb follows is the value asked, a figure (MEASURE_ASKED; not "what score report do I
# file", where the measure names a thing, nor "what if my salary is wrong"; not a rate or a budget, which as often
# name a thing: "what exchange rate does Concur use", "which budget does my training come out of"). A lookahead: the
# measure stays a topic word a page must use.
MEASURE_ASKED = True
_ASKS_MEASURE = re.compile(r"\bwhat(?=\s+(?:(?!(?:if|when|happens?|about|of|for|in|on)\b)[\w'’-]+\s+){0,3}?"
                           r"(?P<measure>score|grade|salary|salaries|quota)s?\s+"
                           r"(?:is|was|are|were|do|does|did|will|would|should|can|must|has|have|am)\b)", re.I)


def asked_measure(text: str) -> str:
    """The measure a part asks the value of ("What Net Promoter Score is …" → "score"), or '' (MEASURE_ASKED)."""
    m = _ASKS_MEASURE.search(text) if MEASURE_ASKED else None
    return m.group("measure").lower() if m else ""


# "What else do I have to do to finalize the trip approval?", "What do I need to do next?": the rest of a procedure
# (WHAT_TO_DO; not "What do I need to do to the timesheet?", which asks what change, nor "… to be eligible")
WHAT_TO_DO = True
_TO_DO = re.compile(r"\bwhat else (?:do|should|must|can|would) (?:i|we|you) (?:still |also )?(?:(?:have|need|got|ought) "
                    r"to )?do\b|\bwhat (?:do|should|must) (?:i|we|you) (?:(?:have|need) to )?do (?:next|now|then)\b",
                    re.I)
# "How do I change how long new events are by default?" asks the steps that change a quantity, not the quantity: a
# procedure's verb of change before an embedded "how long/many/much/often" (CHANGED_MEASURE)
CHANGED_MEASURE = True
_CHANGES_MEASURE = re.compile(r"\bhow (?:do|can|should|would|could) (?:i|we|you|one)\s+(?:\w+\s+)?(?:change|set|"
                              r"adjust|update|modify|edit|extend|shorten|lengthen|increase|reduce|lower|raise|"
                              r"customi[sz]e|configure|control|limit|pick|choose|specify) how (?:long|many|much|"
                              r"often|far|soon|early|late)\b", re.I)


# … and "where do I actually go to change how much I put into my TSP each paycheck?" asks where: the place to change
# or look up one's own quantity, not a quantity (MEASURE_WHERE)
MEASURE_WHERE = True
_HOW_MEASURE = r" how (?:long|many|much|often|far|soon|early|late)\b"
_MEASURE_WHERE = re.compile(r"\bwhere\b[^?]{0,40}?\b(?:change|set|adjust|update|modify|edit|extend|shorten|lengthen|"
                            r"increase|reduce|lower|raise|customi[sz]e|configure|control|limit|pick|choose|specify|log|"
                            r"record|report|enter)" + _HOW_MEASURE +
                            # one's own quantity looked up ("… check how much annual leave I have left"), not a rate
                            # ("… see how much a hotel in Denver is allowed to cost")
                            r"|\bwhere\b[^?]{0,40}?\b(?:see|check|find|find out|view|look up|track)" + _HOW_MEASURE
                            + r"(?=[^?]*\b(?:i|we|my|our)\b)", re.I)


# "… what changes about whose time, money and equipment I use?" asks what changes: a "whose" after a preposition in a
# question led by another asking word names whose things are meant, it asks for no one (EMBEDDED_WHOSE; "Whose
# approval do I need?" and "On whose behalf …?" still ask who)
EMBEDDED_WHOSE = True
_EMBEDDED_WHOSE = re.compile(r"^(?:what|how)\b[^?]*?\s(?:about|of|on|in|for|with|from|to|by)\s+whose\s+(?!(?:approval|"
                             r"signature|sign-?off|permission|responsibility|job|decision|call|authority|budget|"
                             r"name|role|team|office)\b)", re.I)


def expected(text: str) -> Expect:
    """The answer kind one part expects (see the module docstring)."""
    q = text.strip()
    main = CLAUSE_LEAD.sub("", q).strip()
    if CHANGED_MEASURE and _CHANGES_MEASURE.search(q):
        return Expect.PROCEDURE
    if MEASURE_WHERE and _MEASURE_WHERE.search(q):
        return Expect.WHERE
    if (_QUANTITY.search(q) or asks_salary(q) or (DEADLINE_ASKED and _ASKS_DEADLINE.search(q)) or asks_cutoff(q)
            or (LIMIT_TENSES and _LIMIT_TENSES.search(q))
            or (SUPERLATIVE_SUBJECT and _SUPERLATIVE_SUBJECT.search(q))
            or (MEASURE_ASKED and _ASKS_MEASURE.search(q)) or (values.HOURS_ASKED and values.ASKS_HOURS.search(q))
            or (values.NAMED_PERCENT and values.ASKS_NAMED_PERCENT.search(q))
            or values.asks_amount(q) or (values.SIZES_ASKED and values.ASKS_SIZE.search(q))
            or (values.WINDOWS_ASKED and values.ASKS_WINDOW.search(q))):
        return Expect.QUANTITY
    if _WHO_STRICT.search(main) and not (EMBEDDED_WHOSE and _EMBEDDED_WHOSE.search(main)
                                         and not _WHO_STRICT.search(_EMBEDDED_WHOSE.sub(" ", main))):
        return Expect.WHO
    if (re.match(r"(?i)^(?:(?:by|until|till|since|from) )?when\b", main) and not (WHEN_CASE and _when_case(main))
            or re.search(r"(?i)\b(?:by|until|till|since|from) when\b", q)):
        return Expect.QUANTITY  # dates and deadlines are numbers too
    if _WHERE.search(main):
        return Expect.WHERE
    if _PROCEDURE.search(q) or (WHAT_TO_DO and _TO_DO.search(q)):
        return Expect.PROCEDURE
    if _AUX_START.match(main):
        return Expect.YESNO
    if _ASKS_CONTACT.search(main):
        return Expect.WHERE
    if _WHO_ACT.search(q) and not re.match(r"(?i)^(what|how|why)\b", main):
        return Expect.WHO
    return Expect.OTHER


def _stems(text: str) -> set[str]:
    """Content stems of what is asked about: framing words and the quantity cue ("how quickly") left out."""
    text = _QUANTITY.sub(" ", text)
    if LIMIT_TENSES:
        text = _LIMIT_TENSES.sub(" ", text)
    if SUPERLATIVE_SUBJECT:
        text = _SUPERLATIVE_SUBJECT.sub(" ", text)
    if values.HOURS_ASKED and values.ASKS_HOURS.search(text):  # "What are the help desk's hours?" asks no "hours"
        text = re.sub(r"(?i)\bhours\b", " ", values.ASKS_HOURS.sub(" ", text))
    return {stem(w) for w in content_words(text) if w not in FRAMING}




# "I need accounts on both Docker Hub and Smartsheet. Is getting access the same process for both?" compares the two
# the story names: each is answered (it was read as one question, answered for Docker Hub alone).
SAME_FOR_BOTH = True
_SAME = re.compile(r"\bthe same\b[^?]*?\b(?:for|with|between|in|to) (?:both|the two|either)\b", re.I)
# A part that points at the one before it by a demonstrative and a general noun ("that day", "this form", "the same
# deadline") or "what if it/that …": its own words do not say what it is about.
PART_POINTER = True
# ("this week", "at the same time", "this one of …" point at no part: a time, an idiom, a choice)
_POINTS_TO_PART = re.compile(r"\b(?<!at )(?:that|the same)\s+(?:day|date|time|week|month|deadline|form|request|amount|"
                             r"step|case|period)\b|\bthis\s+(?:form|request|amount|step|case|deadline)\b|"
                             r"\b(?:that|the same) one\b(?!\s+of\b)|^\W*(?:and\s+)?what if (?:it|that|this)\b", re.I)
# … and one that names what it asks of by a pronoun ("when was the Centers of Excellence program created, and which
# office set it up?", "where do I order business cards, and how long do they take to arrive?"): "it", "they" or
# "them" is what the part before was about (PART_PRONOUN; not an "it" that announces, "is it okay to bring my dog",
# "it's worth asking", nor one of time, "if it's been a while and nothing has shown up, who …")
PART_PRONOUN = True
_PART_PRONOUN = re.compile(r"\b(?:it|they|them)\b", re.I)
_ANNOUNCING_IT = re.compile(
    r"(?i)\b(?:(?:is|was|will|would|isn['’]t|wasn['’]t)\s+it|it(?:['’]s|\s+is|\s+was))\s+(?:\w+\s+)?"
    r"(?:okay|ok|fine|possible|worth|true|better|easier|best|necessary|time|a\s+good\s+idea|allowed|required|"
    r"normal|common|appropriate)\b|"
    r"\bit(?:['’]s|\s+has|\s+had)\s+been\s+(?:a\s+while|(?:a|\d+|two|three|four|five|several|more\s+than\s+a|over\s+a)?"
    r"\s*(?:few\s+|couple\s+(?:of\s+)?)?(?:days?|weeks?|months?|years?|hours?|long))\b")


def _points_back(part: str) -> bool:
    """The part names what it asks of by "it", "they" or "them", beside any "it" that announces (PART_PRONOUN)."""
    return PART_PRONOUN and bool(_PART_PRONOUN.search(_ANNOUNCING_IT.sub(" ", part)))


# A comparison whose sides cannot be read, split into parts that each ask ("Someone recommended the ACE feedback
# framework. What do the three letters stand for and how are they different from each other?"), is two questions,
# each read with the statement before them; as sides, neither knew what "they" are.
PARTS_NOT_SIDES = True
# A comparison whose sides cannot be read is one part asked as the whole question, its story included ("I need to
# share some Drive docs with two partner agencies: one uses Google Workspace and the other is all Microsoft. How
# does sharing work differently for each?"), as any one-part question is; it had been the asking sentence alone
SIDELESS_WHOLE = True


def analyze(question: str, sub_parts: list[str] | None = None) -> Frame:
    """The frame of `question`: parts from `sub_parts` (the planner's decomposition) or its own split.

    A part inherits the whole question's expectation when its own wording expects nothing in particular.
    """
    question = without_lead(question)  # "Random trivia question from a new hire: why is it called 18F?"
    question = plain(question)  # "Who gives the final OK on that?" asks who approves (idioms)
    asking = asking_sentence(question)
    whole = expected(asking)
    # (the pair must be there: "Is the process the same?" after a story of no pair is one question)
    comparison = (compares(question) and whole is not Expect.YESNO) or (
        SAME_FOR_BOTH and bool(_SAME.search(asking)) and len(comparison_sides(question)) >= 2)
    texts = list(sub_parts or [])
    frame_words = ""
    if comparison and not texts:
        frame_words, texts = side_frame(comparison_sides(question))
        if compared.SCENE_LEAD and not frame_words:  # no frame carries the scene: the sides follow it
            scened = comparison_sides(question, scene=True)
            # ("In my Concur voucher, what's the difference between marking an expense as IBA, CASH or CBA?": the
            # first side after the scene can carry a frame of its own)
            frame_words, texts = side_frame(scened) if compared.LISTED_SIDES and scened else ("", scened or texts)
    if not texts:
        texts = split_parts(question)
        if comparison and PARTS_NOT_SIDES and len(texts) >= 2 and all(asks(t) for t in texts):
            comparison = False  # "What do the three letters stand for and how are they different?": two questions
    cases = not texts and whole is Expect.YESNO and alternatives(asking)
    if cases:
        texts = cases
    context = context_of(question)
    parts: list[Part] = []
    previous: set[str] = set()
    for t in texts or [asking]:
        kind = expected(t)
        if comparison or not asks(t):  # a side or a fragment: the question's kind
            kind = whole
        stems = _stems(t)
        query = t
        if texts and not comparison:
            # "how much?" after "Will the agency reimburse me for insurance", "what if that day is a holiday?" after
            # "When is my Tock due each week": read in the terms of the part before (PART_POINTER)
            if parts and (len(stems) < 2 or (PART_POINTER and _POINTS_TO_PART.search(t))
                          or _points_back(t)):
                stems |= previous
                query = f"{parts[-1].text.rstrip('?')}, {t}"
            stems |= _stems(context)
            query = query if context and context in t else f"{context} {query}".strip()  # told in the part itself
        elif comparison and frame_words:  # "If I leave federal service, what happens to my sick leave"
            query = f"{frame_words} {t}"
        elif comparison and (texts or not SIDELESS_WHOLE):  # a side, read in the question's terms, searched alone
            query = f"{t} ({SIDE_LEAD.sub('', asking).rstrip('?')})"
            if compared.TOLD_CONTEXT and (told := told_in(question, texts)):
                query = f"{t} ({told.rstrip('.!')})"  # … in the terms of the statement that named the sides
        else:
            stems = _stems(question)
            query = question
        previous = stems
        search = t if comparison and not frame_words else query
        parts.append(Part(text=t, expect=kind, stems=stems, query=query, own=_stems(t), search=search,
                          field=asked_field(f"{context} {t}" if texts else question)))
    if cases:  # the second case is asked in the first's terms: "… long-term" is about working from outside the U.S.
        head = cases[0].split(",")[0]
        parts[1].query = f"{head} {parts[1].query}"
        parts[1].stems |= _stems(head)
    if comparison and len(parts) >= 2:
        shared = _stems(question) - set().union(*(p.stems for p in parts))
        for k, p in enumerate(parts):  # each side is compared on the question's own terms ("including when receipts
            p.stems |= shared  # are needed")
            p.side = k
        aspect = compared_aspect(asking.rstrip("?"))
        if aspect and not sub_parts:  # "…, including when receipts are needed": asked of each side, after it
            what = aspect.group("aspect").strip(" ,.")
            parts = [x for p in parts for x in (p, Part(text=f"{what} ({p.text})", expect=expected(what),
                                                        stems=p.stems | _stems(what), query=f"{p.text}: {what}",
                                                        own=p.own, side=p.side))]
    return Frame(question=question, parts=parts, comparison=comparison and len(parts) >= 2, stems=_stems(question),
                 side_frame=frame_words)

"""Values a part asks for that no sentence about it states: a duration, a price, a time of day, a date, a percentage,
an amount per unit, a count of something named, a reimbursement or a fee. A page that names a retry delay setting but
gives no value does not say how long the delay is; a sentence about relocating says nothing of who pays for the move.
`answerability` treats such a part as unanswered (its `Support.unstated` names what is lacking)."""

from __future__ import annotations

import re
from bisect import bisect_right

from ..quantities import NUMBER_WORD, quantities
from ..stems import STOPWORDS, content_stems, content_words, stem
from . import specifics, topic
from .candidate import Candidate, field_line, last_heading, section_heading
from .question import Expect, Frame, Part, asked_measure, zipf
from .rates import asked_rate, rate_words, states_rate
from .reader import RELATED_SUPPORT
from .wordforms import lexicon
from .values import (DATE, DURATION, PRICE, SERVICE, WAIT, YEAR, asked_unit, asked_value, event_subject, fits_scale,
                     measured_subject, priced_words, span_subject, states_service, states_value)

def unstated_values(frame: Frame, candidates: list[Candidate]) -> dict[int, str]:
    """Quantity parts asking for a duration, a price, a time of day, a date or a percentage that no sentence about them
    states, with what is lacking ("a number of seconds", "a price", "a date"); see the module docstring. A sentence is
    about the part when it is related to it (RELATED_SUPPORT) or is a short "Label: value" line in the same section as
    one that is: a setting's "Default: 10000 (10 seconds)"."""
    unstated: dict[int, str] = {}
    for j, part in enumerate(frame.parts):
        related = [c for c in candidates if c.support and c.support[j] >= RELATED_SUPPORT]
        # an amount per mile, per month …: only that answers (rates.RATES), stated of what the part or its story
        # names ("buy over $10,000 per year" is no training budget); a yes/no or a who asks no amount
        if part.expect in (Expect.QUANTITY, Expect.OTHER) and (unit := asked_rate(part.text, frame.question)):
            named = (part.stems | content_stems(part.text)) - content_stems(" ".join([*rate_words(unit), RATE_WORDS]))
            about = [c for c in related if not named or named & (c.stems | content_stems(c.lead_in))]
            if not any(states_rate(f"{c.text} {c.lead_in}", unit) for c in about):
                unstated[j] = f"an amount per {unit}"
                continue
        thing, lacking = reimbursed(part.text) if REIMBURSED and part.expect is Expect.YESNO else ("", "")
        if (named := content_stems(thing)) and not any(
                (_PAID if COVERED_COSTS else _REIMBURSE).search(f"{c.text} {c.lead_in}")
                and 3 * len(named & (c.stems | content_stems(c.lead_in))) >= 2 * len(named) for c in related):
            unstated[j] = lacking  # "Will GSA reimburse my moving costs?" (see REIMBURSED)
            continue
        if (part.expect is Expect.YESNO and specifics.asks_fee(part.text)
                and not any(specifics.talks_money(f"{c.text} {c.lead_in}") for c in related)):
            unstated[j] = "a fee"  # "Will I be charged a fee for a replacement card?" (specifics.py)
            continue
        if part.expect is Expect.YESNO and specifics.asks_pay(part.text):
            who = specifics.paid_who(part.text)
            if not any(_pays(c, who) for c in related):
                unstated[j] = "pay or an award"  # "Do guild leads get any extra pay, award, or bonus?" (specifics.py)
                continue
        if specifics.asks_phone(part.text) and not any(specifics.writes_phone(f"{c.text} {c.lead_in}")
                                                       for c in related):
            unstated[j] = "a phone number"  # "What's the phone number for the GSA Incident Response team?"
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
        elif (LIMIT_ASKED and part.expect is Expect.YESNO and _ASKS_LIMIT.search(part.text)
              and (head := counted_noun(part.text))):
            # "is there a max number of partner guests we can add to the TTS Mural workspace?" asks the number (or
            # that there is none): "Guests do not cost any money to add" says neither (LIMIT_ASKED)
            if not any(_counts(head, c) for c in candidates) and not any(_COUNT_WORDS.search(c.text) for c in related):
                unstated[j] = f"a number of {head}"
                continue
        elif (part.expect is Expect.QUANTITY and COUNT_ANY and asked_value(part.text) is None
              and (people := counted_people(part.text)) and not any(_states_number(c.text) for c in related)):
            unstated[j] = f"a number of {people}"  # "How many people can join one huddle?" (COUNT_ANY)
            continue
        elif (part.expect is Expect.QUANTITY and asked_value(part.text) is None
              and (measure := asked_measure(part.text)) and not any(_states_figure(c.text, measure) for c in related)):
            unstated[j] = f"a {measure}"  # "What Net Promoter Score is TTSC targeting …?" (question.MEASURE_ASKED)
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
        if kind == DURATION and (unit := asked_unit(part.text)):  # "how many weeks": not only minutes (UNIT_SCALE)
            about = [c for c in about if fits_scale(f"{c.text} {c.lead_in}", unit)]
        if kind == DURATION and NAMED_SPANS:
            name, marks, marked = _span_names(part, candidates)
            if name or marks:
                asked = content_stems(frame.question)
                about = [c for c in about if _names_span(name, marks, c, asked, marked)]
        thing, verb, event = event_subject(part.text)
        if kind in (DURATION, WAIT) and (subject := _named_thing(thing)):
            # "How many days of inactivity before a Slack channel gets archived?": "The current default is 90 days",
            # in a paragraph on archiving repositories, is the time before another thing is archived: a paragraph
            # naming the event and none of the thing's words is about another thing (values.EVENT_SUBJECTS; one
            # that does not name the event may say it otherwise: "PIV cards are valid for six years" for "before my
            # badge expires", review)
            about = [c for c in about if not _of_another(subject, stem(verb), _paragraph_stems(c, candidates))]
        else:
            event = ""
        if kind == DURATION and lacking == SERVICE:  # a term: stated of serving (values.SERVICE_ASKED)
            about = [c for c in about if states_service(f"{c.text} {c.lead_in}")]
        if kind == DATE and NAMED_DATES and (name := _proper_name(part.text)):
            # "When does the application window for GSA's Competitive Development Program open?": a date of it
            about = [c for c in about if _dates_name(name, f"{c.text} {c.lead_in} {c.heading}")]
        if kind == PRICE and PRICED and (head := priced_noun(part.text)):
            about = [c for c in about if _names(head, c)]  # "how much does each seat cost": a seat's price
            lacking = f"a price of {head}" if head.endswith("s") else f"a price of {_article(head)} {head}"
        if not any(states_value(f"{c.text} {c.lead_in}", kind) for c in about):
            unstated[j] = f"{lacking} {event}" if event else lacking
    return unstated


def _named_thing(thing: str) -> set[str]:
    """The stems of the thing an event happens to, when it names something specific: a word in capitals or one rarer
    than SPECIFIC_ZIPF ("Slack channel", "Docusign envelope"); a team, a request or a new one is what the pages call
    by other words ("Projects are not staffed until …" for "until a team is staffed", review)."""
    words = thing.split()
    if not any(w[:1].isupper() or zipf(w.lower()) < topic.SPECIFIC_ZIPF for w in words):
        return set()
    return content_stems(thing)


def _of_another(subject: set[str], verb: str, stems: set[str]) -> bool:
    """The stems name the event and none of the subject's words (see EVENT_SUBJECTS)."""
    return verb in stems and not subject & stems


def _paragraph_stems(c: Candidate, candidates: list[Candidate]) -> set[str]:
    """The stems of the sentence, its lead-in and headings, and the other sentences of its paragraph."""
    stems = c.stems | content_stems(f"{c.lead_in} {c.heading}")
    if c.paragraph >= 0:
        for other in candidates:
            if other.passage is c.passage and other.paragraph == c.paragraph:
                stems |= other.stems
    return stems


# A date asked (a deadline, a window's opening) of a program, an event or a form the part names in capitals ("When
# does the application window for GSA's Competitive Development Program open each year?") is stated by a sentence
# naming it, by its words or its initials (in its text, lead-in or headings): "… must meet time-in-grade within 30 days
# of an application's closing date" dates Merit Promotion applications, not the program's (NAMED_DATES)
NAMED_DATES = True
_PROPER_NAME = re.compile(r"(?<=\s)(?:[A-Z][a-z]+\s+){1,5}[A-Z][a-z]+\b")


def _proper_name(text: str) -> str:
    """The longest run of two or more capitalised words after the part's first word, or ''."""
    return max(_PROPER_NAME.findall(text), key=len, default="")


def _dates_name(name: str, text: str) -> bool:
    """The text names the program: two thirds of its words, or its initials ("IDPs are due by October 31" names an
    "Individual Development Plan")."""
    initials = "".join(w[0] for w in name.split()).upper()
    return (_covers(content_stems(name), content_stems(text))
            or bool(re.search(rf"(?<![\w-]){initials}s?(?![\w-])", text)))


# A duration asked of a thing named by a name ("How many business days does the GSA Pages Authority to Use security
# review usually take?": two or more capitalised words, as NAMED_DATES reads them) or by a specific word that marks out
# some retrieved pages from the rest ("… does a FITARA review usually take": rarer than SPECIFIC_ZIPF, on some
# retrieved page but on no more than half of them: "GSA" is everywhere) is not stated by a sentence that does not name
# it (text, lead-in, headings, page title): a name must be named, and a sentence without the word must name nothing
# else specific ("OCE requires 5 business days for the initial review" times another review; "Background
# investigations take about two months" may be about "the e-QIP background investigation"). The thing is what takes or
# lasts (`values.span_subject`), never the asker's own case ("a GS-13", "my trip to New York") (NAMED_SPANS)
NAMED_SPANS = True
# … and a sentence naming nothing specific states it only on a page naming a mark: "If you are a supervisor and you
# are leaving within 120 days of the next review period" is about a performance review, on a page that never names
# FITARA (SPAN_PAGE)
SPAN_PAGE = True


def _span_names(part: Part, candidates: list[Candidate]) -> tuple[str, frozenset[str], frozenset]:
    """The name and the distinctive specific stems of what the part asks the duration of, per the rule above, and the
    pages (documents) naming one of those stems."""
    subject = span_subject(part.text) or measured_subject(part.text)
    if not subject:
        return "", frozenset(), frozenset()
    pages: dict[tuple, set[str]] = {}  # per document: its chunks are one page
    for c in candidates:
        pages.setdefault(c.document, set()).update(c.stems | content_stems(c.heading))
    specific = {stem(w) for w in content_words(subject) if zipf(w) < topic.SPECIFIC_ZIPF}
    marks = frozenset(s for s in specific if 0 < sum(s in p for p in pages.values()) <= len(pages) / 2)
    return _proper_name(f" {subject}"), marks, frozenset(d for d, p in pages.items() if marks & p)


def _names_span(name: str, marks: frozenset[str], c: Candidate, asked: set[str], marked: frozenset) -> bool:
    """The sentence may state the duration of the named thing: it names the name, and it names a mark or nothing
    else specific (a content word rarer than SPECIFIC_ZIPF that the question does not use) on a page naming one."""
    if name and not _dates_name(name, f"{c.text} {c.lead_in} {c.heading}"):
        return False
    return (not marks or bool(marks & (c.stems | content_stems(f"{c.lead_in} {c.heading}")))
            or (not any(zipf(w) < topic.SPECIFIC_ZIPF and stem(w) not in asked for w in content_words(c.text))
                and (not SPAN_PAGE or c.document in marked)))


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


# … and one that asks whether a payer covers a cost: "If I take a GSA detail in another city, will GSA cover my
# relocation costs?" (hp54, no page says) was answered with "If you are relocating for 120 days or less, you do not
# need to notify PeopleOps": what the costs are of, then a sentence about it that says it is paid, covered, funded,
# reimbursed, included or waived (COVERED_COSTS). The payer is named ("GSA", "TTS", "the agency", "my team"; not
# "Can I use my purchase card to pay for …?", which asks how), and the cost ends its phrase or says what it is of
# ("the cost of a gym membership"; not "Does the travel training cover expense reports?"); found in review.
COVERED_COSTS = True
_COVERED = re.compile(r"\b(?i:will|would|does|do|did|can|could)\s+(?:(?:the|my|our|your)\s+)?(?:[A-Z]{2,}\w*|agency|"
                      r"government|team|office|company|employer|they)\s+(?:cover|pay for|pick up|foot)\s+"
                      r"(?:my|our|the|any|their|your)?\s*(?P<thing>(?:[\w'’-]+\s+){0,3}?)(?:costs?|expenses?|fees?|"
                      r"bills?)(?:\s+(?:of|for)\s+(?:an?\s+|the\s+|my\s+)?(?P<of>[\w'’-]+(?:\s+[\w'’-]+){0,2}?))?"
                      r"(?=\s*[?,.;]|\s+(?:if|when|too|as|while|during)\b|\s*$)")
_PAID = re.compile(r"\b(?:reimburs\w*|pay|pays|paid|paying|covers?|covered|funds?|funded|funding|includ\w*|waived|"
                   r"eligible|allowable)\b", re.I)


def reimbursed(text: str) -> tuple[str, str]:
    """What a question asks to be reimbursed, and how a refusal names it: ("my moving costs", "a reimbursement of my
    moving costs") for "Will GSA reimburse my moving costs?", ("upgrade it to a paid Pro plan", "a reimbursement when
    you upgrade it to a paid Pro plan") for "Can I get reimbursed if I upgrade it …?"; ("", "") when none is named."""
    m = _REIMBURSED_THING.search(text) or (_REIMBURSED_PASSIVE.search(text) if REIMBURSED_PASSIVE else None)
    if m is None and COVERED_COSTS and (m := _COVERED.search(text)):
        thing = (m.group("of") or m.group("thing")).strip()  # the costs' own words, not "costs"
        return (thing, f"who pays for {thing}") if thing else ("", "")
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
# … and a "how many" of a common noun ("how many people can join one Slack huddle at the same time?", hp43-14) is not
# answered where no sentence about the part states a count at all: a number no measure takes, a number word ("once",
# "a couple", "several", "both") or no limit ("There is no limit on how many …"). Not "how many times": a frequency
# answers it ("Every two weeks: Meet with your supervisor") (COUNT_ANY)
COUNT_ANY = True
# … and a yes/no asking whether a count has a limit ("is there a max number of partner guests …?", "Is there a cap on
# the number of seats?") asks that count, or that there is none (LIMIT_ASKED)
LIMIT_ASKED = True
_ASKS_LIMIT = re.compile(r"\b(?:is|are)\s+there\s+(?:a|an|any)\s+(?:max|maximum|minimum|min|limit|cap|upper limit|"
                         r"ceiling)\b[^?]{0,12}?\bnumber\s+of\b", re.I)
_COUNT_WORDS = re.compile(r"\b(?:once|twice|thrice|couple|several|both|single|dozens?|hundreds|thousands?|any number|"
                          r"as many|no (?:limit|maximum|max|cap)|unlimited|limitless)\b", re.I)
# (a noun phrase of up to three words: "how many hardware breakpoints and watchpoints" counts two things, no noun)
_PHRASE_END = (r"(?=\s+(?:do|does|did|is|are|was|were|can|could|should|will|would|have|has|had|i|we|you|they|it|"
               r"must|may|might|of|in|for|on|per|at|to|before|after|left|there|each|every|that|which)\b|"
               r"\s*[?,.;]|\s*$)")
_COUNTED = re.compile(r"\bhow many\s+(?P<np>[\w'’-]+(?:\s+(?!(?:and|or)\b)[\w'’-]+){0,2}?)" + _PHRASE_END, re.I)
# … or of four, names and all, when the asking goes on with its verb: "How many Trello Workspace Member seats does TTS
# have in total?" counts seats ("How many test cases fail intermittently?" names no noun) (LONGER_NP)
LONGER_NP = True
_COUNTED_LONG = re.compile(r"\bhow many\s+(?P<np>(?:(?!(?:and|or)\b)[\w'’-]+\s+){3}(?!(?:and|or)\b)[\w'’-]+)"
                           r"(?=\s+(?:do|does|did|is|are|was|were|can|"
                           r"could|should|will|would|have|has|had)\b)", re.I)
_NUMBER = re.compile(r"\d|\b(?:" + NUMBER_WORD + r")\b", re.I)
_NO_COUNT = re.compile(r"\bone (?:another|of)\b", re.I)  # "interact with one another" counts nobody


def _pays(c: Candidate, who: set[str]) -> bool:
    """The sentence speaks of pay or awards and is about who would be paid: half the words of `who` (in its text,
    lead-in or innermost heading): "Guild leads …" for "people who lead a TTS guild", not "User Research Compensation:
    … at TTS" (specifics.PAY_ASKED)."""
    return specifics.talks_pay(f"{c.text} {c.lead_in}") and 2 * len(
        who & content_stems(f"{c.text} {c.lead_in} {last_heading(c)}")) >= len(who)


def _states_number(text: str) -> bool:
    """The text states a count (COUNT_ANY): a number of its own that no time or size takes ("for 30-45 minutes at
    2pm" counts no one, nor do "18F" and "one another"; "80% of employees" does), or a word that counts."""
    text = _NO_COUNT.sub(" ", text)
    return bool(_COUNT_WORDS.search(text) or _OWN_NUMBER.search(_without_measures(text, {"time", "bytes"})))


# A measure's value is a figure in digits ("100% reporting every day", "$120K–$191K", "a 15GB quota"; or "twice"; a
# grade's also a code: "GS-13", "GS15s", "level 4"): not a count word ("both", "a single point of contact"), a year
# ("In May 2021, …"), nor the zero-padded number of a name ("RFC 003 - TTS Senior Cybersecurity Advisor")
# (question.MEASURE_ASKED)
_PADDED = re.compile(r"(?<![\w.])0\d+\b")
_FIGURE = re.compile(r"[$€£]\s?\d|(?<![\w.])\d[\d,]*(?:\.\d+)?\s?(?:[kmb]|bn|[kmgt]b|x|%)?(?![A-Za-z])|"
                     r"\b(?:twice|half|double|triple)\b", re.I)
_GRADE_CODE = re.compile(r"\b[A-Z]{1,3}-?\d{1,2}s?\b|\b(?i:level|grade|band|step)\s+\d{1,2}\b")


def _states_figure(text: str, measure: str = "") -> bool:
    """The text states a figure of its own, or a grade's code when the measure is a grade (see above)."""
    text = _PADDED.sub(" ", YEAR.sub(" ", text))
    return bool(_FIGURE.search(text) or (measure == "grade" and _GRADE_CODE.search(text)))


# … and a count asked as "the max number of people that can be in one Slack huddle" (PEOPLE_NUMBER_OF)
PEOPLE_NUMBER_OF = True


def counted_people(text: str) -> str:
    """The noun right after a part's "how many" or "number of" ("people", "employees"), or '' for none ("how many of
    us", "how many direct reports") and for a frequency ("how many times")."""
    m = _COUNTED.search(text) or (_NUMBER_OF_WORD.search(text) if PEOPLE_NUMBER_OF else None)
    first = m.group("np").lower().split()[0] if m else ""
    return first if first and first != "times" and first not in STOPWORDS and lexicon(first).get("NOUN") else ""


# … a number of its own: "18F" in "These are the TTS blogs: 18F blog." counts no blog posts (NAMES_COUNT_NOTHING)
NAMES_COUNT_NOTHING = True
# (nor a compound's first word: "two-factor authentication" counts no requests)
_COMPOUND = re.compile(r"(?<![\w.])(\d[\d,]*|\b(?:" + NUMBER_WORD + r"))-([A-Za-z][\w']*)", re.I)
_OWN_NUMBER = re.compile(r"(?<![\w.])(?:\d[\d,]*+(?:\.\d+)?|\b(?:" + NUMBER_WORD + r")\b)(?![A-Za-z]|-[A-Za-z])", re.I)
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
    m = (_COUNTED.search(text) or (_COUNTED_LONG.search(text) if LONGER_NP else None)
         or (_NUMBER_OF.search(text) or _NUMBER_OF_WORD.search(text) if NUMBER_OF else None))
    words = m.group("np").split() if m else []
    if not words or zipf(words[-1]) >= COUNTED_ZIPF or quantities(f"2 {words[-1]}"):
        return ""
    return words[-1]


# "How many Mural member seats does TTS have in total?" (hp26, unanswerable) was answered under a "member seats"
# heading by "Members who have been inactive for more than 90 days should be converted to guests.": a number of a
# unit is a count of that unit, never of the noun asked (UNIT_COUNTS_NOTHING)
UNIT_COUNTS_NOTHING = True
_MEASURES = frozenset({"time", "percent", "bytes"})
# … and the number of a noun the sentence names sits near it in its clause: "If a holiday falls …, and you work 2 extra
# hours" counts no holidays, "posts should only be written by one or two people" no posts (COUNT_NEAR)
COUNT_NEAR, NEAR_WORDS = True, 5
_LISTED_BEFORE = re.compile(r"(?:\b\d(?:[\d.]|,\d)*+\s*(?:,|and|or|to|-|–)\s*)+$")  # (linear: no nested choice)


def _without_measures(text: str, measures: frozenset[str] | set[str] = _MEASURES) -> str:
    """The text without its measures (a time, a percentage, a size: "three times a year" still counts check-ins),
    each with the numbers listed before it ("holiday pay for the 8, 9, 10, 12 hours" counts hours too)."""
    for family, _, surface, pos in sorted(quantities(text), key=lambda q: -q[3]):
        if family in measures:
            start = pos - len(m.group(0)) if (m := _LISTED_BEFORE.search(text[:pos])) else pos
            text = text[:start] + text[pos + len(surface):]
    return text


def _counts(noun: str, c: Candidate) -> bool:
    """The sentence states a number and names the counted noun (in its text, lead-in or heading; "GPUs" is named
    by "GPU")."""
    # a compound naming the noun counts it: "a 300-seat license" is 300 seats ("two-factor" counts no requests)
    text = _COMPOUND.sub(lambda m: f"{m[1]} {m[2]}" if _names_word(noun, m[2]) else m[0], c.text)
    if UNIT_COUNTS_NOTHING:  # "… inactive for more than 90 days" counts days, not seats
        text = _without_measures(text)
    number = _OWN_NUMBER if NAMES_COUNT_NOTHING else _NUMBER
    if not (number.search(text) and (_names(noun, c) or any(_names_word(noun, w) for w in text.split()))):
        return False
    return not COUNT_NEAR or _near(noun, text, number)


def _near(noun: str, text: str, number: re.Pattern) -> bool:
    """A number counts the noun the sentence names when it sits in the noun's clause (a "Label: value" line is one),
    within NEAR_WORDS words of it ("TTS has 3,000 Mural member seats", "Responses are capped at 500", "Breakout rooms:
    up to 50 per meeting", "1-2 external monitors"), or anywhere in a clause saying "the number of" it; a sentence
    that does not name it (its heading does) may state it anywhere, in digits."""
    named, found = False, False
    for clause in re.split(r"[,;()]|\s[-–—]\s", text):
        words = list(re.finditer(r"\S+", clause))
        starts = [m.start() for m in words]
        at = [k for k, m in enumerate(words) if _names_word(noun, m.group(0))]
        named = named or bool(at)
        numbers = [bisect_right(starts, m.start()) - 1 for m in number.finditer(clause)]
        said = rf"(?i)\bnumber of\s+(?:[\w'-]+\s+){{0,2}}{re.escape(noun[:-1] or noun)}"  # "the number of seats … is"
        if at and numbers and re.search(said, clause):
            return True
        found = found or any(abs(k - n) <= NEAR_WORDS for n in numbers for k in at)
    # (a sentence naming it only in its heading states it in digits: "from one pay period to the next" counts nothing)
    return found or (not named and bool(re.search(r"(?<![\w.])\d", text)))


def _names_word(noun: str, word: str) -> bool:
    w = stem(re.sub(r"[^\w'-]", "", word))
    return bool(w) and (w == stem(noun) or (noun[-1:] in "sS" and w == stem(noun[:-1])))


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

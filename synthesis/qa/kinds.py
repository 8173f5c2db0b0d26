"""What kind of answer a sentence holds (a number, a role or team, a place or system, a rule, an instruction), and how
well that fits what a question part expects: a quick, explainable reading of its words, which `reader.Reader.score`
weighs in (a "how many" part answered by a sentence with no number keeps MISFIT of its relevance).

For a who-part, a sentence fits only when it names someone the asker did not: not a group the asker's story names
("… the team thinks we should end the engagement early. Who makes that call?" is not answered by "our team"), and
only partly when it names nothing but generic groups ("all staff", "teams").
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from ..quantities import NUMBER_WORD, quantities
from ..sentences import asked_sentences
from ..stems import STOPWORDS, content_stems, stem
from .acronyms import expand
from .question import Expect, Part
from .values import (CLOCK, DATE, FREQUENCY, HOURS, YEAR, asked_value, clock_subject,
                     asks_date, states_value, states_year, told_values_only)
from .wordforms import lexicon

if TYPE_CHECKING:
    from .candidate import Candidate

# Relevance kept by a sentence without the kind of answer the part expects ("how many" answered with no number).
MISFIT = {Expect.QUANTITY: 0.58, Expect.WHO: 0.62, Expect.WHERE: 0.7, Expect.YESNO: 0.82, Expect.PROCEDURE: 0.82,
          Expect.OTHER: 1.0}

_NUMBER = re.compile(r"\d|\b(" + NUMBER_WORD + r"|thousand|half|quarter|twice|double|triple|dozen|annually|"
                     r"weekly|biweekly|monthly|quarterly|daily|yearly|hourly|immediately)\b", re.I)
_ROLE = re.compile(
    r"\b(supervisors?|supervisory|managers?|directors?|leads|team leads?|leaders?|heads? of|chiefs?|officers?|"
    r"officials?|teams?|(?<!out of )(?<!out of the )office(?! hours| space| supplies)|staff|admins?|"
    r"administrators?|owners?|approvers?|hr(?! links?| portal| system| tool| app| site| page| forms?| records?)|"
    r"human resources|people ?ops|"
    r"help ?desk|service ?desk|committee|board|coordinators?|specialists?|analysts?|representatives?|counsel|liaisons?|"
    r"points? of contact|poc|executives?|ombuds\w*|ceo|cto|cio|ciso|cfo|coo|president|deputy|commissioner|"
    r"secretary|talent|recruiters?|decision makers?|contracting|approving official|authorizing official|"
    r"the requester|(?:on-call|team|tech|project|engineering|product|"
    r"incident|release|service) (?:leads?|managers?|owners?|engineers?|primary|secondary|commanders?))\b", re.I)
# A named unit: "Tech Operations", "the Talent team", "Front Office", "People Ops".
_UNIT = re.compile(r"\b[A-Z][a-zA-Z]+\s+(?:Team|Office|Operations|Ops|Desk|Division|Branch|Group|Committee|Board|"
                   r"Council|Center|Staff|Services)\b")
# "Whose sign-off do I need?" answered by "You do not need approval to create public repositories.": that no one
# must approve is who approves
NO_SIGN_OFF = True
_NOBODY = re.compile(r"\b(?:no|not|n['’]t|without)\s+(?:\w+\s+){0,3}?(?:approvals?|sign-?offs?|permission|"
                     r"authori[sz]ation)\b|\b(?:approvals?|sign-?offs?|permission)\s+(?:is|are)\s+not\s+"
                     r"(?:needed|required|necessary)\b", re.I)
_ADDRESS = re.compile(r"[\w.+-]+@[\w-]+\.\w+|(?<![\w/])#[a-z]", re.I)  # an email address or a Slack channel
# a North American phone number: "(866) 450-6588", "866-450-6588", "1-800-555-0100" (area code and exchange start 2-9,
# one separator twice, never a bare space: not "100 200-3000"); its one group is the separator
_PHONE = re.compile(r"(?<![\w.-])(?:\+?1[ .-])?(?:\([2-9]\d{2}\)\s?[2-9]\d{2}-\d{4}|[2-9]\d{2}([.-])[2-9]\d{2}\1\d{4})"
                    r"(?![\w-]|\.\d)")
PHONE = _PHONE
# (the phone number last: the only group, so its backreference stays \1)
_CONTACT = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+|(?<![\w/])#[a-z0-9][\w-]+|(?<!\w)@[a-z][\w.-]+|https?://\S+|"
                      r"\b[\w-]+\.(?:gov|com|org|io|net|edu|us)\b|" + _PHONE.pattern, re.I)
_PLACE = re.compile(r"\b(portal|site|website|page|form|system|tool|app|application|channel|link|inbox|queue|"
                    r"spreadsheet|folder|directory|drive|repository|repo|dashboard|catalog|in [A-Z]\w+|at [A-Z]\w+|"
                    # a street address: "at 450 Golden Gate", "1800 F Street NW"
                    r"\b\d+\s+(?:[A-Z][\w.]*\s+){1,3}(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Way|Place|"
                    r"Plaza|Gate|Drive|Lane|Square|NW|NE|SW|SE)\b|"
                    r"through [A-Z]\w+|via [A-Z]\w+|using [A-Z]\w+|on [A-Z]\w+)\b|"
                    # a file or folder on disk: "~/.cargo/credentials.toml", "$CARGO_HOME/bin", "/etc/npmrc" (a
                    # segment starts with a letter, a dot or "_": "+/- SD", "3 /4" and "a /24 subnet" are none)
                    r"(?<![\w/])(?:(?:~|\$\w+|\.{1,2})/[A-Za-z_.][\w.-]*|/[A-Za-z_.][\w.-]*/[A-Za-z_.][\w.-]*)|"
                    r"\b[\w-]+\.(?:toml|json|ya?ml|ini|cfg|conf|lock|xml)\b")
_RULE = re.compile(r"\b(not|no|never|must|may|cannot|can't|won't|shouldn't|mustn't|allowed|permitted|prohibited|"
                   r"forbidden|required|requires?|requirement|should|only|recommend\w*|eligible|entitled|expected|"
                   r"expectation|mandatory|optional|exception|unless|always|encouraged|discouraged|banned|"
                   r"disallowed|authorized|unauthorized|wait)\b", re.I)
_PLAIN_VERBS = (r"go|email|submit|contact|fill|send|ask|use|visit|open|log|request|complete|sign|reach|call|file|post|"
                r"create|add|click|select|enter|choose|follow|read|check|make|talk|message|notify|report|tell|book|"
                r"reserve|download|install|upload|forward|attach|include|provide|find|start|get|let|review|register|"
                r"apply")
# verbs that also open a sentence as its noun ("Change requests are reviewed", "Mail is delivered")
_NOUNLIKE_VERBS = (r"return|bring|take|keep|stop|wait|remove|change|update|save|share|print|mail|turn|lock|unlock|"
                   r"restart|reset")
_INSTRUCTION = re.compile(
    rf"^(?:(?:please|first|then|next|finally|also|instead|otherwise),?\s+)?({_PLAIN_VERBS})\b|"
    # more imperatives, not as the noun a sentence opens with ("Change requests are reviewed", "Mail is delivered")
    rf"^(?:(?:please|first|then|next|finally|also|instead|otherwise),?\s+)?(?:{_NOUNLIKE_VERBS})\b(?!-)"
    r"(?!\s+(?:is|are|was|were|will|can|may|must|should)\b)(?!\s+\w+\s+(?:is|are|was|were|will)\b)|"
    r"\byou (can|should|must|will need to|need to|will|may|have to)\b|\b(to do (this|so)|steps?|instructions?|"
    r"procedure)\b|https?://|[\w.+-]+@[\w-]+\.\w+|(?<![\w/])#[a-z]", re.I)


# "Who is the current director of the Market Development division?" names the role it asks about: only a person's
# name answers it, which no reading of a sentence's words can check (a sentence naming the division and its staff
# holds a role). Such a part is never answered with 'high' confidence.
ROLE_HOLDER = True
ROLES_HELD = (r"(?:director|head|chief|lead|leader|manager|owner|chair|chairperson|president|commissioner|"
               r"administrator|deputy|executive|supervisor|coordinator|officer|ceo|cto|cio|ciso|cfo|coo)s?")
_HOLDER = re.compile(r"\bwho(?:'s|’s|\s+is|\s+are|\s+was|\s+were)\s+(?:(?:the|our|my|their|its)\s+)?"
                     r"(?:(?:current|new|acting|interim|present)\s+)?"
                     rf"(?:{ROLES_HELD}\b|"
                     # … or after a name or two, where the role ends the phrase: "GSA's EAP program manager?"
                     rf"(?!(?:considered|eligible|allowed|responsible|required|able)\b)(?:[\w'’&-]+\s+){{1,3}}?"
                     rf"{ROLES_HELD}(?=\s*[?,.;]|\s*$|\s+(?:of|for|at|in|on|over|and|who|that|if|when|to)\b))",
                     re.I)


# "reach out to the AM and PL/EL to introduce yourself": whom one reaches out to, asks or notifies, named by an
# initialism after "the", "your" or "their", is someone (CONTACTED_ACRONYM; not "email the PDF": emailing is no
# contact verb; not "the FAQ page", "ask the CLI": things)
CONTACTED_ACRONYM = True
_CONTACTED = re.compile(r"(?i:\b(?:reach out to|talk to|speak (?:to|with)|check with|contact|notify|ask|loop in|"
                        r"coordinate with|introduce yourself to))\s+(?i:the|your|their)\s+"
                        r"(?!(?:API|CLI|FAQ|URL|PDF|AI|UI|SDK|SSH|DNS|VPN|CSV|HTML|JSON|XML)s?\b)[A-Z]{2,5}s?"
                        # (the initialism ends the phrase: "the API docs", "the FAQ page" name things)
                        r"(?:/[A-Z]{2,5})?(?=\s*(?:$|[,.;:!?)])|\s+(?:and|or|to|for|about|before|after|if|when|"
                        r"with|at|on|in|first|directly)\b)")

# "Browse the file tree to find …", "After editing your first file …, navigate to the list of branches …", "When you
# finish editing a file, make sure … is selected": an instruction opens on a verb the list above lacks, or on a clause
# of when, then its verb (MORE_IMPERATIVES; not the noun a sentence opens with: "Search is …", "Copy costs …")
MORE_IMPERATIVES = True
# (each of these is a noun too, "Run times vary", "Copy editors review", "Close of business is 5 PM": an instruction
# only with its object or its particle next, "Run the tests", "Search for …", "Navigate to …")
_OBJECT_NEXT = (r"(?=\s+(?:the|a|an|your|our|their|this|that|these|those|it|them|its|each|every|any|all|to|into|"
                r"through|for|up|down|out|on|in|over|back|\"|“|`|')(?:\W|$))")
_AMBIGUOUS_VERBS = (r"browse|navigate|type|paste|copy|edit|scroll|search|tap|press|drag|rename|close|launch|run|pick|"
                    r"assign|enable|disable|confirm|verify|ensure|locate")
_IMPERATIVE = re.compile(
    rf"^(?:(?:please|first|then|next|finally|also|instead|otherwise),?\s+)?(?:{_AMBIGUOUS_VERBS})\b" + _OBJECT_NEXT + "|"
    # "After editing your first file …, navigate to the list of branches", "When you finish …, make sure …"
    r"^(?:after|when|once|before|if|while|as soon as)\b[^,.;]{3,90},\s+(?:then\s+)?(?:please\s+)?"
    rf"(?:(?:make|be) sure\b|(?:{_PLAIN_VERBS})\b(?!-)(?!\s+(?:of|is|are|was|were|will|can|may|must|should)\b)"
    r"(?!\s+\w+\s+(?:is|are|was|were|will)\b)|"
    rf"(?:{_NOUNLIKE_VERBS}|{_AMBIGUOUS_VERBS})\b" + _OBJECT_NEXT + ")", re.I)


def asks_holder(text: str) -> bool:
    """The part asks who holds a role it names ("Who is the current director of …?")."""
    return ROLE_HOLDER and bool(_HOLDER.search(text))


def mostly_instructions(texts: list[str]) -> bool:
    """Half of the texts or more are instructions ("Download the application PDF …"): a procedure's steps, not a
    list of proposals ("We'll cap the number of people …")."""
    return bool(texts) and 2 * sum(Expect.PROCEDURE in answer_kinds(x) for x in texts) >= len(texts)


# Who wrote something (`synthesize.candidates.AUTHORED`): "Who wrote the New Supervisor Playbook?", "who's the author of
# the style guide?"; not who created or founded a thing (a program's founders are no page's author), nor who writes or
# drafts one as a job ("Who writes the performance plans for my direct reports?"), nor a yes/no question about authors
# ("Is the author of a PR allowed to merge it?"; found in review)
_ASKS_AUTHOR = re.compile(r"\bwho\s+(?:(?:originally|actually|first|really)\s+)?(?:wrote|authored|penned|"
                          r"put\s+together)\b|\bwho(?:['’]s|\s+is|\s+was|\s+were)\s+(?:the\s+)?(?:authors?|writers?)\b",
                          re.I)
# … answered by a line naming the author ("Author: Carlo Costino", "Written by Jane Doe"): a who-answer (AUTHOR_LINES)
AUTHOR_LINES = True
_AUTHOR_LINE = re.compile(r"^(?:Authors?|Written by|Maintainers?)\s*:?\s+[A-Z]")


def asks_author(question: str) -> bool:
    """The question asks who wrote something (see _ASKS_AUTHOR)."""
    return bool(_ASKS_AUTHOR.search(question))


# "our project wrapped up, can I just delete the trello board?" is answered by "Close boards rather than deleting
# them." (hp81-02): a way preferred over another is a rule, as "should" or "not" make one (PREFERRED_RULES); it had
# held no yes/no answer, and a second page's line must hold one to join the summary
PREFERRED_RULES = True
_PREFERRED = re.compile(r"\b(?:rather\s+than|instead\s+of)\s+\w", re.I)


def answer_kinds(text: str) -> set[Expect]:
    """Which kinds of answer a sentence can give (a quick, explainable reading of its words)."""
    kinds = {Expect.OTHER}
    if _NUMBER.search(YEAR.sub(" ", text)):
        kinds.add(Expect.QUANTITY)
    if (_ROLE.search(text) or _UNIT.search(text) or _ADDRESS.search(text) or (NO_SIGN_OFF and _NOBODY.search(text))
            or (CONTACTED_ACRONYM and _CONTACTED.search(text)) or (AUTHOR_LINES and _AUTHOR_LINE.match(text))):
        kinds.add(Expect.WHO)
    if _CONTACT.search(text) or _PLACE.search(text):
        kinds.add(Expect.WHERE)
    if _RULE.search(text) or (PREFERRED_RULES and _PREFERRED.search(text)):
        kinds.add(Expect.YESNO)
    if _INSTRUCTION.search(text) or (MORE_IMPERATIVES and _IMPERATIVE.search(text)):
        kinds.add(Expect.PROCEDURE)
    return kinds


# "Is there a specific style guide our blog posts are expected to follow?" is answered by the line naming one ("Our
# publications adhere to 18F's Content Guide, …"), not by lines on how posts read: an existence question is answered by
# a name whose last word is the kind asked for (NAMED_INSTANCE, the preference such a sentence gets; not a "way", a
# "limit" or a "fee", whose answer is no name; nor "The Guide" alone: a name has a word of its own before the kind)
NAMED_INSTANCE = 1.2
_EXISTS = re.compile(r"\b(?:is|are)\s+there\s+(?:a|an|any|some)\s+(?:[\w-]+\s+){0,3}?(?P<kind>[a-z]{3,})"
                     r"(?=\s*(?:[?,.;]|$)|\s+(?:our|my|we|i|you|they|that|which|who|for|to|on|in|at|of|about|where|"
                     r"when|the|a|an|available|out\s+there|i['’]d|we['’]d)\b)", re.I)
_NO_NAMED_KIND = frozenset("""way ways thing things time reason need chance point difference problem issue catch one
something anything anyone someone limit cap minimum maximum deadline fee charge cost rule requirement penalty
option alternative number amount period day code lot max version gap block new news team form""".split())
_NAME_WORD = r"(?!(?:The|A|An|Our|Your|Their|This|That|These|Those|Each|Every|Any|All|Its)\b)[A-Z0-9][\w'’&.-]*"


def asked_kind_named(question: str) -> str | None:
    """The kind an existence question asks for ("guide" of "Is there a specific style guide …?"), when a name can
    answer it (NAMED_INSTANCE)."""
    m = _EXISTS.search(question) if NAMED_INSTANCE != 1.0 else None
    kind = _one_of(m.group("kind").lower()) if m else ""  # "Are there any policies …": one is a "… Policy"
    return kind if kind and kind not in _NO_NAMED_KIND and kind not in STOPWORDS else None


def names_instance(kind: str, text: str) -> bool:
    """The text names one of the kind ("18F’s Content Guide" for "guide"): a capitalised name ending in the kind."""
    return bool(re.search(rf"\b(?:{_NAME_WORD}\s+){{1,3}}{kind[0].upper()}{re.escape(kind[1:])}s?\b(?!\s+of\b)", text))


# "… which supervisor signs it?" (hp68) and "Which of my supervisors should sign it?" (hp36) were answered "Don't forget
# to get your supervisor's signature", over the FAQ's "That of your functional supervisor.": a question asking which
# one of a kind prefers a sentence naming one, a word of its own before the kind ("functional supervisor", "first-line
# supervisor", "the Kluczynski building", "an ed25519 key") that the question does not use (WHICH_NAMED, the same
# preference as NAMED_INSTANCE). Only "which" opening an asking clause, its kind a noun the lexicon knows, the last of
# up to two words before the verb ("Which npm registry should …" asks a registry; not "My authorization, which was
# denied, …"); a word that only describes ("appropriate", "designated", "following") or a verb ("Notify supervisor …")
# names none (review). (Marking down a sentence naming the kind after a possessive lost "our values of inclusion,
# integrity, and impact" for "Which of our TTS values …?"; reading "which supervisor" as asking who made a wrong answer
# 'high': both tried and left out.)
WHICH_NAMED = True
_AUX_NEXT = r"(?:do|does|did|should|must|can|could|will|would|is|are|was|has|have)"
_WHICH = re.compile(r"(?:^|[.?!,;:—–]\s*|\b(?:and|or|but|so)\s+|\s-\s)which\s+(?:of\s+(?:the|my|our|your|their|these|"
                    r"those)\s+)?(?P<first>[A-Za-z][\w-]*)(?:\s+(?!" + _AUX_NEXT + r"\b)(?P<second>[a-z][\w-]*))?"
                    r"(?=\s+(?:" + _AUX_NEXT + r"|needs?|signs?|approves?|handles?|gets?|goes|go|sits?|takes?|applies|"
                    r"i|we|you)\b|\s*[?,.;]|\s*$)", re.I)
_NOT_NAMING = frozenset("""the a an my our your their his her its this that these those each every any all some no
other another same first last next new old current one two three which what own such more most appropriate relevant
correct designated following proper right respective specific particular applicable assigned required given usual
normal actual real""".split())


def _one_of(kind: str) -> str:
    """"policies" → "policy", "classes" → "class", "lockers" → "locker"."""
    if kind.endswith("ies"):
        return kind[:-3] + "y"
    if kind.endswith(("sses", "xes", "ches", "shes")):
        return kind[:-2]
    if kind.endswith("s") and not kind.endswith(("ss", "us", "is")):
        return kind[:-1]
    return kind


def which_kind(question: str) -> str | None:
    """The kind a "which …" question asks one of ("supervisor" of "Which of my supervisors should sign it?")."""
    m = _WHICH.search(question) if WHICH_NAMED else None
    if not m:
        return None
    first, second = m.group("first").lower(), (m.group("second") or "").lower()
    if second and (forms := lexicon(first)) and set(forms) <= {"VERB"}:
        return None  # "Which applies first?": no kind
    kind = _one_of(second or first)
    if "NOUN" not in lexicon(kind) or kind in _NO_NAMED_KIND or kind in _NOT_NAMING or kind in STOPWORDS:
        return None
    return kind


def _naming(mod: str) -> bool:
    """A word that can tell one of a kind from another ("functional", "first-line", "#it-help", "ed25519")."""
    word = mod.lstrip("#").replace("-", "")
    if not word or word.isdigit() or mod in _NOT_NAMING or mod in STOPWORDS or mod.endswith(("'s", "’s")):
        return False
    forms = lexicon(mod)
    return not (forms and set(forms) <= {"VERB"})  # "Notify supervisor …", "designated"


def names_which(kind: str, text: str, asked: set[str]) -> bool:
    """The text names one of the kind by a word of its own before it (see WHICH_NAMED)."""
    return any(_naming(m.group("mod").lower()) and stem(m.group("mod").lower()) not in asked
               for m in re.finditer(rf"(?<![\w#-])(?P<mod>[#\w’'-]+)\s+{re.escape(kind)}s?\b", text, re.I))


# "Who do I call to make the reservations?" is answered by "… call AdTrav at (877) 472-6716 to make your reservations",
# not by "Email tts-travel@gsa.gov once you've finalized your reservations": a who-part asking whom to call or phone
# needs a line with a phone number, or one saying to call or phone (CALLED)
CALLED = True
_ASKS_CALL = re.compile(r"(?i)\bwhom?\s+(?:do|does|did|should|can|could|must|would|will|shall|to)\s+"
                        r"(?:(?:i|we|you|they|one)\s+)?(?:\w+\s+){0,2}(?:call|phone|ring|dial)\b(?!-)")
_SAYS_CALL = re.compile(r"(?i)\b(?:call|calls|calling|phone|phones|telephone|dial)\b(?!\s+(?:it|this|that|for)\b)")


def called(part: Part, text: str) -> bool:
    """For a part asking whom to call, the line gives a number or says to call (CALLED); any line, for other parts."""
    return not (CALLED and part.expect is Expect.WHO and _ASKS_CALL.search(part.text)) or bool(
        _PHONE.search(text) or _SAYS_CALL.search(text))


# "And what's the normal weekly deadline for Tocking?" is not answered by "… record out of office time as part of your
# weekly Tock.": a sentence whose only dates are the asker's own words ("weekly") states no deadline (TOLD_DATES)
TOLD_DATES = True
# (a line with deadline wording of its own may state the date in a form the date patterns miss: "Monthly expense
# reports are due on the third business day of the following month")
_DEADLINE_WORDING = re.compile(r"(?i)\b(?:due|deadline|no later than|by|before|until)\b")


# "What email addresses should I use for travel questions …?" is answered by a line that writes one ("… email the
# completed form to tts-travel@gsa.gov"), not by "You can ask questions in #travel" (EMAIL_ASKED)
EMAIL_ASKED = True
_ASKS_EMAIL = re.compile(r"(?i)\b(?:what|which)(?:'s|’s|\s+is|\s+are|\s+was)?\s+(?:(?:the|an?|my|our|their|your)\s+)?"
                         r"(?:[\w-]+\s+){0,2}?e-?mail\s+address(?:es)?\b|"
                         # ("which email should I send the form to"; not "what email should I send my supervisor", a
                         # message)
                         r"\b(?:what|which)\s+e-?mail\s+(?:(?:should|do|can|could|would)\s+(?:i|we|you|they)\s+|to\s+)?"
                         r"(?:use|write to|contact|reach|cc|send\s+(?:[\w-]+\s+){0,3}?to)\b|"
                         r"\bwhat(?:'s|’s| is) the e-?mail\s*(?:[?,]|$|(?:for|to|of)\b)")
EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.\w+")  # an email address as written


def asks_email(part: Part) -> bool:
    """The part asks for an email address (EMAIL_ASKED), in its own words or an asking sentence of the question it
    was split from (not a statement: "I already know which email address to use …")."""
    return EMAIL_ASKED and _asks_email(part.text, part.query)


@functools.lru_cache(maxsize=256)  # read per candidate sentence and part: the same few part texts
def _asks_email(text: str, query: str) -> bool:
    def asking(said: list[str]) -> list[str]:
        return [x for x in said if x.endswith("?")] or said

    return any(_ASKS_EMAIL.search(x) for t in (text, query) for x in asking(asked_sentences(t)))


# "… and when does the award usually get paid?" was answered without "IPAs are targeted to be paid out in December":
# a part asking when is held by a date, a month or a weekday as by a number (WHEN_DATES; only "when" and its verb:
# "when I leave, how many …" asks the number)
WHEN_DATES = True
_ASKS_WHEN = re.compile(r"^\W*when\s+(?:is|are|was|were|will|would|does|do|did|can|could|should|must|has|have)\b", re.I)


# "When were the Centers of Excellence first set up?" was answered "CoE originally launched with teams that provided
# technical expertise in five interrelated areas:" (its "five" held the number asked): a part asking when something
# happened ("when did", "when was", "what year") is held by a date or a year, not by any number (DATE_ASKED)
DATE_ASKED = True
# (when it opens the part, or a clause of it: "So when did the CoE actually start?", "Out of curiosity, what year was
# 18F founded?"; not "which job families were covered and until when was it supposed to run?", which asks the
# families too; a date said relatively holds it: "earlier this year", "two weeks ago")
_OPENS_WHEN = re.compile(r"(?:^\W*|[,:;]\s*|\b(?:so|hey|and|but|ok|okay)\s+)(?:when|(?:in\s+)?(?:what|which)\s+year)\b",
                         re.I)
_RELATIVE_DATE = re.compile(r"\b(?:last|this|earlier\s+this|later\s+this|next)\s+(?:year|month|week|spring|summer|fall|"
                            r"autumn|winter)\b|\b\w+\s+(?:days?|weeks?|months?|years?)\s+ago\b", re.I)


def holds(part: Part, c: Candidate) -> bool:
    """The sentence holds the kind of answer the part expects; for a part asking a duration or a price, one stated
    ("how many hours of training …" is not answered by "three levels of certification"); for a part asking when
    something happened, a year ("The CoE program launched in 2017."); for a time of day, a clock time or a part of
    the day; for a deadline, a date (a weekday, a span before or after something, a period it recurs in)."""
    if part.expect is Expect.QUANTITY and asks_date(part.text):
        if states_year(c.text):
            return True
        said = f"{c.text} {c.lead_in}"
        if (DATE_ASKED and _OPENS_WHEN.search(part.text) and not states_value(said, DATE)
                and not _RELATIVE_DATE.search(said)):
            return False
    if asks_email(part) and not EMAIL.search(f"{c.text} {c.lead_in}"):
        return False
    asked = asked_value(part.text)
    if asked is not None and asked[0] == DATE and part.expect is not Expect.QUANTITY:
        asked = None  # "Is the due date fixed?" asks yes or no
    if (TOLD_DATES and asked is not None and asked[0] == DATE and not _DEADLINE_WORDING.search(c.text)
            and told_values_only(f"{c.text} {c.lead_in}", DATE, part.text)):
        return False
    if (WHEN_DATES and part.expect is Expect.QUANTITY and _ASKS_WHEN.match(part.text) and states_value(c.text, DATE)
            and not told_values_only(f"{c.text} {c.lead_in}", DATE, part.text)):
        return True  # "when does the award usually get paid" is answered by "… paid out in December"
    if (asked is not None and asked[0] in (CLOCK, HOURS, DATE, FREQUENCY)
            and states_value(f"{c.text} {c.lead_in}", asked[0])):
        # "by close of business" or "every Tuesday" holds no digit, and answers "what time is it due" -- of what the
        # part asks it of, when it names that (values.CLOCK_SUBJECTS)
        head = clock_subject(part.text) if asked[0] in (CLOCK, HOURS) else ""
        return not head or bool(content_stems(head) & content_stems(f"{c.text} {c.lead_in} {c.heading}"))
    if part.expect not in c.kinds:
        return False
    if part.expect is Expect.QUANTITY and TOLD_NUMBERS and _names_told_numbers_only(part, c.text):
        return False
    if part.expect is Expect.WHO and ((DENIED_ACT and denies_act(part, c.text)) or not called(part, c.text)):
        return False
    return asked is None or states_value(f"{c.text} {c.lead_in}", asked[0])


# … and one asking when something began ("set up", "created", "founded", "launched", "get started") prefers the
# sentence saying that it began, naming it: "On October 24, 2017, the Office of American Innovation (OAI) established
# the IT Modernization Centers of Excellence within TTS …", not "In October 2018, CoE also began working with its
# second partner …" (an activity begun, and "also"), nor "The centers were first established in 1966" (other centers)
# (ORIGIN_STATED, the preference; not "When is the form due?" or "when was it created", whose subject names nothing)
ORIGIN_STATED = 1.3
_ORIGIN = (r"(?:set\s+up|start(?:ed)?|creat(?:e|ed)|found(?:ed)?|establish(?:ed)?|launch(?:ed)?|form(?:ed)?|"
           r"beg[aiu]n|kick(?:ed)?\s+off|st(?:an|oo)d\s+up|c[oa]me\s+(?:about|into\s+being)|introduc(?:e|ed)|born)")
_ASKS_ORIGIN = re.compile(r"\b(?:when|what\s+year|which\s+year)\s+(?:was|were|did|is|are|has|have)\s+"
                          r"(?P<np>[^?,;]+?)\s+(?:(?:first|originally|officially|actually|initially|really|formally|"
                          r"itself|themselves|get|got|be|been)\s+)*" + _ORIGIN + r"\b", re.I)
# (a beginning, not an activity begun, "began working", "started to hire"; "established during October 2017" is one)
_STATES_ORIGIN = re.compile(r"(?<!\balso )\b(?:set\s+up|created|founded|established|launched|formed|introduced|"
                            r"kicked\s+off|stood\s+up|came\s+(?:about|into\s+being)|was\s+born|"
                            r"(?:started|began|begun)(?!\s+to\b))\b"
                            r"(?!\s+(?!(?:during|following|according|including)\b)\w+ing\b)", re.I)
_GENERAL_NAMES = frozenset({"program", "itself", "themselv", "initi", "effort"})


def origin_asked(text: str) -> str:
    """What a part asks when it began of ("the Centers of Excellence program" of "when was the Centers of Excellence
    program created"), or '' (ORIGIN_STATED)."""
    m = _ASKS_ORIGIN.search(" ".join(text.split())) if ORIGIN_STATED != 1.0 else None
    return m.group("np") if m and content_stems(m.group("np")) - _GENERAL_NAMES else ""


def states_origin(subject: str, text: str, known: dict[str, str]) -> bool:
    """The sentence says when the subject began: a verb of beginning, a year or a date, and every word of the subject
    (an acronym by it or its expansion, "CoE" or "Centers of Excellence"; "program" may go unsaid)."""
    if not (_STATES_ORIGIN.search(text) and (states_year(text) or states_value(text, DATE))):
        return False
    said = content_stems(expand(text, known))
    spelled = {acronym.lower(): meaning for acronym, meaning in known.items()}  # ("the coe", as chat writes it)
    for word in re.findall(r"[\w'’-]+", subject):
        w = stem(word)
        if w in STOPWORDS or w in _GENERAL_NAMES or w in said or word.lower() in STOPWORDS:
            continue
        if not (word.lower() in spelled and content_stems(spelled[word.lower()]) <= said):
            return False
    return True


# "do I need to ask someone before I start posting in a guild's channel …?" is answered by "… you do not need
# permission to participate: just jump right in.", not by a guild-meeting rule that says "must": a question whether
# the asker needs (or has) to do something prefers a sentence saying whether "you" need to (NEED_STATED, the
# preference such a sentence gets). Not "You have a few options" (having), nor "If you need to take leave, …" or "If
# you are traveling … on behalf of a partner …, an IDP … is not needed" (a case: "An IDP is no longer required for
# requests" answers "Do I still need an IDP …?", hp37-21), nor "Do you need a PIV card?" (a question) (review)
NEED_STATED = 1.15
# (also after a phrase setting the scene, "for my end of year review do I have to attach evidence like emails or
# customer feedback, or is that up to me?"; and a sentence saying it is optional says whether you need to:
# "Supporting documentation that aligns with your Performance Management Plan is optional …") (OPTIONAL_NEED)
OPTIONAL_NEED = True
_OPENS = r"(?:^|[.?!:;,—–-]\s*|\b(?:so|but|and|or|hey|ok|okay|also)\s+)"  # a sentence or clause: not "What do I …"
_SCENE = (r"^\W*(?:for|in|on|at|during|with|after|before|about)\s"  # (no question word in it: "In Concur what do I …")
          r"(?:(?!\b(?:what|how|which|where|when|who|why)\b)[^,?]){0,60}?\s(?=(?:do|does|will|would|am)\s)")
_NEED_ASKED = (r"(?:(?:do|does|will|would)\s+(?:i|we)\s+(?:still\s+|actually\s+|really\s+|also\s+)?"
               r"(?:(?:need|have)\s+to\b|need\s+(?!to\b)\w)|am\s+i\s+(?:required|expected|supposed)\s+to\b)")
_ASKS_NEED = re.compile(_OPENS + _NEED_ASKED, re.I)
_ASKS_NEED_IN_SCENE = re.compile(_SCENE + _NEED_ASKED, re.I)
_SAYS_NEED = re.compile(r"\byou(?:['’]ll|['’]d)?\s+(?:do\s+not|don['’]t|will\s+not|won['’]t|also|"
                        r"still|only|do|will|may|might|would|will\s+also|need\s+not)?\s*(?:need\s+(?:to|a|an|any|no|"
                        r"permission|approval|your|the)|have\s+to)\b|"
                        r"\byou\s+are\s+(?:not\s+|no\s+longer\s+)?required\s+to\b|"
                        r"\b(?:is|are)\s+(?:not|no\s+longer)\s+(?:needed|required|necessary)\b|"
                        r"\bno\s+(?:need|permission|approval)\s+(?:is\s+)?(?:needed|required|necessary)\b|"
                        r"\bthere(?:['’]s|\s+is)\s+no\s+need\b", re.I)
_SAYS_OPTIONAL = re.compile(r"\b(?:is|are|['’]s|remains?)\s+(?:not\s+|also\s+|\w+ly\s+)?"
                            r"(?:optional|voluntary|mandatory|compulsory)\b", re.I)
_CASE_BEFORE = re.compile(r"\b(?:if|when|unless|whether|once)\b", re.I)  # (the need is said of a case)


def asks_need(question: str) -> bool:
    """The question asks whether the asker needs (or has) to do something, opening a sentence or clause ("Do I need
    to …?", "hey do I need a ticket?", "Am I required to …?"; not "What do I need to do?") (NEED_STATED)."""
    return NEED_STATED != 1.0 and bool(_ASKS_NEED.search(question)
                                       or (OPTIONAL_NEED and _ASKS_NEED_IN_SCENE.search(question)))


def says_need(text: str) -> bool:
    """The sentence says whether "you" need (or have) to do something, or that it is not needed; not asking it
    (NEED_STATED)."""
    if text.rstrip().endswith("?"):
        return False
    said = [*_SAYS_NEED.finditer(text), *(_SAYS_OPTIONAL.finditer(text) if OPTIONAL_NEED else ())]
    return any(not _CASE_BEFORE.search(text[:m.start()]) for m in said)


# A sentence saying a role does not do what the part asks ("HR is not "approving" the extension request at this
# step") names who does not, for "who gives the final approval on extensions?": the act is an approval, a sign-off, an
# authorization or a decision, the part asks of it, and the sentence says it only negated (that no one must approve
# still answers, NO_SIGN_OFF; "not only … but also", "If the Front Office does not approve, …" and "X, not Y, approves"
# deny nothing)
DENIED_ACT = True
_ACT = re.compile(r"\b(?:approv|sign-?off|signs? off|authori[sz]|decid|decision)\w*", re.I)
_NEGATED_ACT = re.compile(r"(?:\b(?:not|never)|\Bn['’]t)\W+(?:\w+\W+)??" + _ACT.pattern[2:], re.I)
_NOT_DENIAL = re.compile(r"^\W*(?:if|unless|when|whether)\b|\bnot (?:only|just|all|until)\b|,\s*not\s+[^,]+,", re.I)


def denies_act(part: Part, text: str) -> bool:
    """The part asks about an approval (or sign-off, authorization, decision) and the sentence says it only negated,
    a word between at most (see DENIED_ACT)."""
    if not _ACT.search(part.text) or _NOBODY.search(text) or _NOT_DENIAL.search(text):
        return False
    negated = [m.span() for m in _NEGATED_ACT.finditer(text)]
    said = [m for m in _ACT.finditer(text) if not any(a <= m.start() < b for a, b in negated)]
    return bool(negated) and not said


# … and one sending something "to the TTS Front Office for approval" names the approver, for a part asking who
# approves ("who gives the final approval on extensions?"), over lines that name a role beside an approval done
# ("Approved extensions are added to the TTS PeopleOps internal Operations Trello board.")
SENT_FOR_APPROVAL = 1.2
_FOR_APPROVAL = re.compile(r"\bto\s+(?:the\s+|your\s+|their\s+|a\s+)?(?:[\w&-]+\s+){1,4}?for\s+(?:\w+\s+)?"
                           r"(?:approval|sign-?off|authori[sz]ation)\b", re.I)
# … or "for approval by the TTS Director of Operations"
_APPROVAL_BY = re.compile(r"\bfor\s+(?:\w+\s+)?(?:approval|sign-?off|authori[sz]ation)\s+by\s+(?:the\s+|your\s+)?"
                          r"(?:[\w&-]+\s+){0,3}[\w&-]+", re.I)


def sent_for_approval(text: str) -> bool:
    """The sentence sends something to a role or unit for its approval ("… send the list of renewal requests to the
    TTS Front Office for approval", "… recommend your request for approval by the TTS Director of Operations"): not
    to a tool or a queue ("Upload your receipts to Concur for approval"), not an infinitive ("to submit the form for
    approval"), not negated ("Do not send a modification to your supervisor for approval"; "whether or not" is no
    negation)."""
    for m in (*_FOR_APPROVAL.finditer(text), *_APPROVAL_BY.finditer(text)):
        if ((_ROLE.search(m.group(0)) or _UNIT.search(m.group(0)))
                and not re.search(r"(?<!\bor )\b(?:not|never)\b|n['’]t\b", text[:m.start()], re.I)):
            return True
    return False


TOLD_NUMBERS = True  # a sentence whose only numbers are labels the asker numbers ("Level 5") holds no quantity
TOLD_ROLES = True  # a sentence whose only roles are groups the asker's story names ("our team") names no one new
GENERIC_WHO = 0.8  # relevance kept, for a who-part, by a sentence naming only a generic group ("all staff", "teams")
_GENERIC_ROLES = frozenset(stem(w) for w in ("team", "teams", "staff", "talent", "office", "leaders"))
# a unit named before a generic noun ("the Operations team"), and an acronym or CamelCase name ("COR", "AcqDiv")
_NAMED_UNIT = re.compile(r"(?<=\w )[A-Z][\w&-]*\s+(?:team|office|staff|group|division|desk|committee|board)s?\b")
ACRONYM = re.compile(r"\b(?:[A-Z]{2,}[a-z]*[A-Z]*\w*|[A-Z][a-z]+[A-Z]\w*)\b")


def _roles(text: str) -> set[str]:
    return {" ".join(stem(w) for w in m.group(0).split()) for m in _ROLE.finditer(text)}


def told_roles(question: str, part: Part) -> set[str]:
    """The groups the asker names outside the part's own words ("… the team thinks we should end the engagement
    early. Who actually makes that call?" → team): the people of the story, not the one asked for. Only groups: a
    title the story names is often the answer ("I asked my supervisor … Who approves travel?")."""
    return {r for r in _roles(question) - _roles(part.text) if r in _GENERIC_ROLES}


# "First time as a hiring manager here. Before anything gets posted, who do I work with to decide whether the role
# even needs to be filled?" was answered with "Hiring managers lead the hiring process for a specific role.": the role
# the asker says they are ("as a …", "I'm a …") is the asker, and a sentence whose only roles are it names no one to
# deal with. Only for a who-part asking whom the asker deals with ("who do I work with / ask / contact / go to"): "I'm
# a supervisor. Who approves my team's timecards?" is answered by "Supervisors approve …". A role after "your" or
# "their" is someone else ("ask your supervisor") (ASKER_ROLE)
ASKER_ROLE = True
# (as the asker says it of themselves: "First time as a …", "As a new …", "I'm a …"; not "such as a supervisor" or
# "registered as a team lead")
_SELF = re.compile(r"(?i)(?:(?:^|[.!?;,:]\s*|\bfirst time\s+|\b(?:I|I['’]m|I am)\s+(?:\w+\s+)?)as an?|"
                   # "As their TTSC supervisor, who …" (a role ends the phrase: not "As her supervisor leaves, …")
                   r"(?:^|[.!?;]\s+)as (?:their|his|her)(?=\s+(?:[\w-]+\s+)?(?:supervisor|manager|lead|director|"
                   r"mentor|coordinator|owner|sponsor|specialist|representative|officer|admin|chair)s?\s*,)|"
                   r"\bI['’]m an?|\bI am an?|\bI['’]ve (?:just )?become an?|\bI (?:just )?became an?)\s+"
                   r"((?:new\s+|first[- ]time\s+)?[\w-]+(?:\s+[\w-]+)?)")
_DEALS_WITH = re.compile(r"(?i)\bwhom?\s+(?:(?:do|should|can|must|would|could)\s+I|am I (?:supposed|meant|expected) to|"
                         r"do I (?:need|have) to)\s+(?:\w+ly\s+)?(?:work|ask|contact|go|"
                         r"talk|speak|report|check|email|reach|coordinate|consult|partner|send|turn)\b")
_SOMEONE_ELSES = re.compile(r"(?i)\b(?:your|their|his|her|my)\s+(?:[\w-]+\s+)?$")


def asker_roles(question: str, part: Part) -> set[str]:
    """The roles the asker says they are, for a who-part asking whom they deal with (see ASKER_ROLE); else none."""
    if not ASKER_ROLE or not _DEALS_WITH.search(part.text):
        return set()
    return {r for m in _SELF.finditer(question) for r in _roles(m.group(1))}


def names_asker_only(asker: set[str], text: str) -> bool:
    """The sentence's only roles are the asker's own (`asker_roles`); a role of someone's ("your supervisor", "their
    director") is someone else."""
    if not asker:
        return False
    roles = list(_ROLE.finditer(text))
    if any(_SOMEONE_ELSES.search(text[:m.start()]) for m in roles):
        return False
    found = {" ".join(stem(w) for w in m.group(0).split()) for m in roles}
    return bool(found) and found <= asker


def names_someone_new(text: str, asked_acronyms: set[str]) -> bool:
    """A named unit, a contact or an acronym the question lacks ("work with AcqDiv") says who, whatever else."""
    named = {_singular(a) for a in ACRONYM.findall(text)} - {_singular(a) for a in asked_acronyms}
    return bool(_UNIT.search(text) or _NAMED_UNIT.search(text) or _ADDRESS.search(text) or named)


def _singular(acronym: str) -> str:
    """A plural acronym read as its singular: "CoEs" is "CoE" ("AWS" keeps its capital S)."""
    return acronym[:-1] if acronym.endswith("s") and len(acronym) > 2 else acronym


def names_told_roles_only(told: set[str], text: str) -> bool:
    """The sentence's only roles are groups the asker's story names ("… a lack of good faith in our team and work"
    for "… the team thinks …. Who makes that call?"); for a sentence naming no one new (`names_someone_new`)."""
    found = _roles(text)
    return bool(told) and bool(found) and found <= told


def generic_roles_only(text: str) -> bool:
    """The sentence's only roles are generic groups ("TTS encourages all staff to …", "CoE launched with teams that
    …"): no title says who; for a sentence naming no one new (`names_someone_new`)."""
    found = list(_ROLE.finditer(text))
    # a capitalised one after the first word is a name: "the White House's Office of American Innovation"
    return bool(found) and all(stem(m.group(0)) in _GENERIC_ROLES and not (m.start() > 0 and m.group(0)[0].isupper())
                               for m in found)


_LABELLED = re.compile(r"\b([A-Za-z]+)[\s-]?(\d+(?:\.\d+)?)\b(?![.,]?\d|\s*%)")
# words that number what they name ("Level 4", "Tier 2", "GS-13", "step 3"), besides a capitalised word
_LABEL_NOUNS = frozenset("level levels tier tiers grade grades step steps phase phases stage stages band bands".split())


def _names_told_numbers_only(part: Part, text: str) -> bool:
    """The sentence's numbers are all labels the question numbers ("The final award percentages for Level 5, Level 4
    and Level 3 summary ratings will be determined …" for "if I end up with a Level 4 rating, what's the most I could
    get?"): they name what is asked about, and say nothing of how much. A label is a capitalised word or a word
    like level or tier right before a number of the question; a bare number the asker states is not erased ("the cap
    is 240 hours" is confirmed by "up to 240 hours")."""
    asked = f"{part.query} {part.text}"
    labels = {m.group(1).lower() for m in _LABELLED.finditer(asked)
              if m.group(1)[0].isupper() or m.group(1).lower() in _LABEL_NOUNS}
    codes = _told_codes(asked) if TOLD_CODES else frozenset()
    if not labels and not codes:
        return False
    rest = _LABELLED.sub(lambda m: " " if m.group(1).lower() in labels else m.group(0), text)
    rest = _CODE.sub(lambda m: " " if m.group(0).lower() in codes else m.group(0), rest)
    return rest != text and not _NUMBER.search(YEAR.sub(" ", rest))


# … and so are names written with a number that the question writes too: "18F" in "For several years, 18F account
# managers have conducted partner satisfaction surveys after an engagement ends." is no time for "When do 18F account
# managers first run a partner satisfaction interview …?" (hp54-12 had been answered 'high' with it) (TOLD_CODES)
TOLD_CODES = True
_CODE = re.compile(r"(?<![\w.-])\d+[A-Za-z][A-Za-z\d]*(?![\w-])")  # "18F", "401k", "1Password", "2FA"
# … but not a measure the asker states ("48h", "8GB", "15s": `quantities` reads them), a time of day, an ordinal or
# thousands ("10am", "1st", "$30k"): the sentence confirming "Access requests are processed within 48h" holds it
_NO_NAME = re.compile(r"\d+(?:am|pm|st|nd|rd|th|k)", re.I)


@functools.lru_cache(maxsize=256)  # read per candidate sentence: the same question each time
def _told_codes(asked: str) -> frozenset[str]:
    """The names with a number the question writes ("18f"), lower-cased (TOLD_CODES)."""
    return frozenset(m.group(0).lower() for m in _CODE.finditer(asked)
                     if not quantities(m.group(0)) and not _NO_NAME.fullmatch(m.group(0)))


def fit(part: Part, c: Candidate, told: set[str], someone_new: bool, asker: frozenset[str] = frozenset()) -> float:
    """The relevance `c` keeps for the kind of answer `part` expects: all of it when it holds one (`holds`), MISFIT
    when not. A who-part's sentence that names no one new (`names_someone_new`) fits as badly when its only roles
    are groups the story names (`told`, from `told_roles`) or the asker's own role (`asker`, from `asker_roles`), and
    keeps GENERIC_WHO when they are generic groups."""
    who = part.expect is Expect.WHO and not someone_new
    if (not holds(part, c) or (who and TOLD_ROLES and names_told_roles_only(told, c.text))
            or (who and names_asker_only(set(asker), c.text))):
        return MISFIT[part.expect]
    if part.expect is Expect.WHO and SENT_FOR_APPROVAL and _ACT.search(part.text) and sent_for_approval(c.text):
        return SENT_FOR_APPROVAL
    return GENERIC_WHO if who and generic_roles_only(c.text) else 1.0


# "… where in Docusign do I find the ready-made form template?" was answered 'high' with "… you can use the Docusign
# template for the Advanced Sick Leave Request to fill out the form …": its only places ("form") are the question's
# own. Such an answer is never 'high' (extractive's confidence, PLACES_TOLD); it still answers, since a page often
# says where in words no pattern reads as a place ("click Print SF-50 in HR Links").
PLACES_TOLD = True


def places_told_only(part: Part, text: str) -> bool:
    """Every place or contact the sentence names ("form", "in Docusign") is in the words of the part (with the
    statement it is read with)."""
    found = [m.group(0) for m in (*_PLACE.finditer(text), *_CONTACT.finditer(text))]
    asked = part.stems | content_stems(part.query)
    return bool(found) and all(content_stems(x) <= asked for x in found)


# "Whose sign-off do we need before it can go live?" is answered by "New integrations/bots need approval from the
# following:" and its items ("Security Engineering (ISE)", "OCTO", "GSA IT Slack admins"): a lead-in ending on whom
# its list names names the roles the list names, and is quoted with it
LIST_ROLES = True
# (the lead-in ends on whom its list names: "… approval from the following:", "… contact one of these people:", not
# "Relationship becomes toxic with our partner:", whose items are cases)
_LEADS_TO_WHOM = re.compile(r"\b(?:from|by|to|with|contact|notify|ask|email)(?:\s+(?:one|any|all|each|either|both)\s+"
                            r"of)?(?:\s+(?:the\s+following|these|those)(?:\s+[\w-]+)?)?\s*:$", re.I)
# … of an approval or a contact ("need approval from the following:", "reach out to one of these people:"; not "Sign
# in with:", "Pay with:"), or a label of people ("Approvers:", "The following people must sign off:")
_WHOM_ACT = re.compile(r"\b(?:approv\w*|sign-?off|sign off|permission|contact|notify|reach out|ask|email|review\w*|"
                       r"consult|check with|talk to|escalat\w*|report)\b", re.I)
_WHOM_LABEL = re.compile(r"^(?:(?:approvers?|contacts?|reviewers?|owners?|points? of contact)|the following (?:people|"
                         r"persons|teams|offices|roles|groups|officials)\b[^:]*)\s*:$", re.I)


def listed_roles(candidates: list[Candidate]) -> dict[tuple[int, str], str]:
    """The items of each lead-in ending on whom its list names, joined, by (passage, lead-in)."""
    out: dict[tuple[int, str], str] = {}
    for c in candidates:
        lead = c.lead_in.rstrip()
        if (_LEADS_TO_WHOM.search(lead) and _WHOM_ACT.search(lead)) or _WHOM_LABEL.match(lead):
            key = (id(c.passage), c.lead_in)
            out[key] = f"{out.get(key, '')} {c.text}".strip()
    return out

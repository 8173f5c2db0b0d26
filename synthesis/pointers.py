"""Sentences that lean on something else: a pointer that sends the reader elsewhere ("See the rollback policy."), a
sentence that opens on a pronoun or a demonstrative whose referent is the sentence before, and one about the page
itself ("This page overviews …"). Quoted alone, none says what holds."""

from __future__ import annotations

import re

from .models import headings
from .stems import STOPWORDS
from .stems import WORD as _WORD

_POINTER_START = re.compile(r"^(?:see|read|refer to|more in|details in|for (?:more|details)|check out|back to)\b",
                            re.I)
# a guide's navigation link, "Jump to Step 2: Booking Travel >", "Skip to the next section", "Back to top": a short line
# of where to read next, not what holds (NAV_LINKS; not a step that goes on, "Go to Part 2 of the form and fill in your
# banking information", "Skip to step 5 if you already have a PIV card", nor "Go to the F Street entrance")
NAV_LINKS = True
_NAV_LINK = re.compile(r"^(?:jump|skip|go|continue|return|proceed)\s+(?:back\s+)?to\s+(?:the\s+)?"
                       r"(?:(?:next\s+|previous\s+)?(?:step|section|part|page|chapter)\b"
                       r"(?![^>»→]*\b(?:and|if|once|when|after|before|unless|until|then)\b)[^.;!?]{0,50}?|"
                       r"top(?: of (?:the |this )?page)?)\s*[>»→]?\s*\.?$", re.I)
_LIVES_ELSEWHERE = re.compile(
    r"\b(?:is|are)\s+(?:(?:described|covered|documented|explained|listed|defined|set out|kept)\s+)?in\s+(?:the|our)\s+"
    r"(?:[\w-]+\s+){0,4}?(?:policy|page|guide|runbook|docs?|document|section|handbook|wiki)\b", re.I)
# where the instructions are, not what to do: "Detailed ENT password reset instructions can be found at ServiceNow
# KB0022142."; details or information found in a document or an article ("… can be found on the Benefits page"). A
# thing found in a system or a place is where it is: "Your leave balance information can be found in HR Links."
_FOUND_ELSEWHERE = re.compile(
    r"\b(?:instructions|guidance)\b[^.;:]{0,40}?\b(?:can|may)\s+(?:also\s+)?be\s+found\b|"
    r"\b(?:details|information)\s+(?:can|may)\s+(?:also\s+)?be\s+found\s+(?:at|in|on)\s+(?:[\w-]+\s+){0,4}?"
    r"(?:KB\d+|articles?|page|guide|docs?|documentation|wiki|handbook|link|website)\b", re.I)
_POINTER_SECTION = re.compile(r"\b(?:related( pages)?|see also|further reading|read first|links|references)\b", re.I)
# … not a system named so: "Entering your new schedule in HR Links" says how, and "Once you have supervisor agreement,
# you’ll need to create a new base schedule in HR Links" was kept out of "How do I make it official?" (NAMED_LINKS)
NAMED_LINKS = True
_NAMED_LINKS = re.compile(r"\b[A-Z]{2,5}\s+Links\b")


# "If you need office supplies that aren’t available in your office, …, read on here for what to do next." says that
# what follows answers, and answers nothing itself (READ_ON)
READ_ON = True
# (the pointer is the sentence, or its clause after a condition: not "…, so read on for details" after a fact)
_READ_ON = re.compile(r"^\W*(?:(?:if|when|once|for|to)\b[^.;]*,\s*)?(?:please\s+)?"
                      r"(?:read|keep reading|continue reading)\s+(?:on|below)\b(?:\s+(?:here|below))?"
                      r"(?:\s+(?:for|to (?:find out|learn|see))\s+(?:what|how|more|details)\b[^.;:]*)?\s*[.!]?$", re.I)


def _pointer_section(section: str) -> bool:
    """The section lists where to read on ("Related links", "Benefits links", "See also"), by its last heading."""
    last = headings(section)[-1]
    if NAMED_LINKS:
        last = _NAMED_LINKS.sub(" ", last)
    return bool(_POINTER_SECTION.search(last))


# "IT", information technology, is no pronoun ("IT Service Desk can …", "GSA IT does not …"), in patterns that
# ignore case otherwise
NOT_IT = r"(?-i:(?!IT\b))"
# a subject or possessive that opens a sentence
_PRONOUN = rf"(?:{NOT_IT}(?:it|they|them|its|their|he|she|his|her))"
_PRONOUN_START = re.compile(rf"^{_PRONOUN}\b|^(?:this|that|these|those)\s+(?P<next>[\w']+)", re.I)
# "it" that stands for nothing: a time that has passed or a judgement ("If it has been over a week after your voucher
# was approved, contact …", "When it is important to …"); not "If it was approved two days ago"
_EXPLETIVE = (r"it(?:['\u2019]s(?:\s+been)?|\s+(?:is|was|has\s+been|had\s+been|will\s+be|would\s+be|may\s+be|"
              r"takes|took))\s+"
              r"(?:(?:over|more|less|than|at|least|about|under|only|almost|nearly|a|an|few|several|couple|of|\d+|"
              r"one|two|three|four|five|six|seven|eight|nine|ten)\s+){0,3}(?:minutes?|hours?|days?|weeks?|months?|"
              r"years?|while|(?:important|necessary|recommended|possible|required|best|okay|ok|fine|helpful|useful|"
              r"likely|unlikely|easy|hard|difficult|good|better|a\s+good\s+idea)\s+(?:to|that|for))\b")
_PRONOUN_OBJECT = re.compile(rf"^[A-Za-z]+\s+(?!{_EXPLETIVE}){NOT_IT}(?:it|them)\b|"
                             r"(?<!\bno )(?<!\bany )(?<!\bevery )(?<!\beach )\bone(?=\s*[,.;!?])",
                             re.I)  # "Say it out loud", "Anyone can declare one, …": what is meant is elsewhere
_THAT_VERBS = frozenset("means mean makes keeps happens says includes covers applies works depends".split())


def is_pointer(text: str, section: str = "") -> bool:
    """A sentence that sends the reader elsewhere ("The rollback rules are in the rollback policy.", "See X.",
    "Detailed … instructions can be found at KB0022142.")."""
    if (_POINTER_START.match(text) or _pointer_section(section)
            or (NAV_LINKS and _NAV_LINK.match(text))):
        return True
    if READ_ON and _READ_ON.search(text):
        return True
    return len(_WORD.findall(text)) <= 14 and bool(_LIVES_ELSEWHERE.search(text) or _FOUND_ELSEWHERE.search(text))


def leans_on_context(text: str) -> bool:
    """Starts with (or hangs on) a pronoun whose referent is in the sentence before: quoted alone it is unclear."""
    if m := _PRONOUN_START.match(text):
        nxt = (m.group("next") or "").lower()
        if not m.group("next") or nxt in STOPWORDS or nxt in _THAT_VERBS:
            return True
    m = _PRONOUN_OBJECT.search(text)
    if (m and ONE_WITHIN and m.group(0).lower() == "one" and (clause := _EARLIER_CLAUSE.search(text[:m.start()]))
            and not _POINTS_ELSEWHERE.search(clause.group(0))):
        return False  # (ONE_WITHIN: what "one" stands for is in the sentence's first clause)
    return bool(m)


# "Self-assessments are not required for the mid year review; however, Supervisors can request that their direct
# reports submit one.": a "one" after a semicolon or a comma and a conjunction stands for a noun of the clause before
# it in the same sentence, which quoted alone is clear; the sentence was kept out of the answer to "Is a
# self-assessment mandatory for the mid-year review?" (ONE_WITHIN; "Anyone can declare one, …" still leans)
ONE_WITHIN = True
# (an earlier clause pointing elsewhere itself, "Supervisors may ask for it, but you are not required to submit one",
# names nothing it could stand for; review)
_EARLIER_CLAUSE = re.compile(r"\w[^;]*;|\w[^,]*,\s*(?:and|but|however|though|although)\b", re.I)
_POINTS_ELSEWHERE = re.compile(rf"\b{NOT_IT}(?:it|them|this|that|these|those)\b", re.I)


def points_back(text: str) -> bool:
    """Opens by pointing at the sentence before it: a pronoun ("It must be longer than 14 characters") or a
    demonstrative ("This request will require approval from your supervisor …"). "This page …" points at the
    document (`about_itself`), "This year, …" at a time and "Those who …" at people it goes on to name."""
    back = bool(_POINTS_BACK.match(text)) or (OTHERWISE_BACK and bool(_OTHERWISE.match(text)))
    return back and not about_itself(text)


# "Otherwise, it's not." after "If it outputs x-server: Cloud.gov Pages, it's a Cloud.gov Pages site.": a sentence
# opening on the case left over by the one before it ("Otherwise", "If not", "If so") means nothing alone
OTHERWISE_BACK = True
_OTHERWISE = re.compile(r"^(?:otherwise|if (?:not|so))\s*,", re.I)


def about_itself(text: str) -> bool:
    """A sentence about the document it is in ("This page overviews the administrative tasks …", "This guide
    covers …"): it says what is written, not what holds."""
    return bool(_ABOUT_ITSELF.match(text))


_POINTS_BACK = re.compile(rf"^{_PRONOUN}\b|^(?:this|these|that|those)\s+(?!(?:year|years|week|weeks|month|months|day|"
                          r"days|time|morning|afternoon|evening|quarter|season|semester|who|with|of|in|on|at|for)\b)"
                          r"[a-z]", re.I)
_ABOUT_ITSELF = re.compile(r"^(?:this|the following)\s+(?:page|document|doc|guide|section|article|chapter|tutorial|"
                           r"site|book|manual|post)\b", re.I)

"""Parts that only a particular kind of sentence answers, however close the rest of the page reads: who holds a role
(a sentence naming a person) and whether a fee is charged (a sentence speaking of money). `answerability` refuses
such a part when no related sentence is of that kind.

"Who is the current 18F Director of Engineering?" was answered with the page describing the role ("The Director
represents the chapter on the Senior Management Team …"); "Will I be charged a fee for a replacement card?" with how
to request one. (All three role-holder questions of the 629 handbook questions were unanswerable: the handbook
names roles, rarely people.)
"""

from __future__ import annotations

import re

from ..stems import STOPWORDS, content_words, stem
from .kinds import PHONE, ROLES_HELD, asks_holder
from .wordforms import describes, lexicon

HOLDER_NAMED = True
# (only a role held now, or of a named organisation: "Who is my supervisor if my manager is out?", "Who is GSA's
# contracting officer for my project?", "Who is the current owner of a repo after someone leaves?" and "Who is the
# TTS Director of Operations responsible for?" are answered by a role, or ask what the role covers)
_NAMED_HOLDER = re.compile(r"\b(?i:who(?:'s|’s|\s+is|\s+are|\s+was|\s+were))\s+(?:(?i:the\s+)?(?i:current|present|"
                           r"acting|interim)\b|(?i:the\s+)?(?:[A-Z][\w&-]*(?:['’]s)?\s+)+)")
_ROLE_ANSWERS = re.compile(r"\b(?:responsible|accountable)\s+for\s*\??\s*$|\bin charge of\s*\??\s*$|"
                           r"\b(?:for|on|of|in)\s+(?:my|our)\b|\bafter\b", re.I)
_L = "A-ZÀ-ÖØ-Þ"  # capitals, accented ones too ("María López")
_l = "a-zß-öø-ÿ"
# a capitalised pair, a middle initial allowed; a lookahead, so "Contact Maria Lopez" is tried at "Maria" too
_PERSON = re.compile(rf"(?<![\w.])(?=(?P<first>[{_L}][{_l}]+)(?:\s+[{_L}]\.)?\s+"
                     rf"(?P<last>(?:Mc|Mac|O['’])?[{_L}][{_l}]+(?:-[{_L}][{_l}]+)?)\b)")
# the head nouns of a named unit or product, never a surname ("Jira Service", "Microsoft Teams", "Zoom Webinar")
_LISTED_AFTER = re.compile(r"\s*,\s*(?:(?:and|or)\s+)?[A-Z]")
_LISTED_BEFORE = re.compile(r"[A-Z][\w-]*,\s*(?:(?:and|or)\s+)?$")
_OPENS = re.compile(r"(?:^|[.!?:;]\s+|\n)\W*$")
_UNIT_HEADS = frozenset("""service services team teams office desk management center centre group board division
branch council staff operations ops program programs portal system systems webinar webinars workspace suite cloud
drive docs sheets meet""".split())
_EMAIL = re.compile(r"\b(?P<first>[a-z]+)\.(?P<last>[a-z]+)@", re.I)  # first.last@agency.gov
_MAILBOXES = frozenset("support help helpdesk admin admins info travel hr finance payroll events press feedback "
                       "noreply".split())  # "tock.support@" is a team's


# … or asks the name itself: "What's the name of the Workforce Relations HR Specialist who supports TTS?"
_NAME_OF = re.compile(r"\bwhat(?:'s|’s|\s+is|\s+are)\s+(?:the\s+)?names?\s+of\s+(?:the|our|my|your|their)\s+"
                      rf"(?:[\w'’&-]+\s+){{0,4}}?(?:{ROLES_HELD}|(?:specialist|representative|liaison|advisor|"
                      r"adviser|counselor|counsellor|contact|person)s?)"
                      # (the role ends the phrase: "the contact form", "the lead agency", "the director's office" name
                      # things)
                      r"(?=\s*[?,.;!]|\s*$|\s+(?:who|that|for|at|in|of|on|to)\b)", re.I)
NAME_ASKED = True


def asks_named_holder(text: str) -> bool:
    """The part asks who holds a role now, or a named organisation's ("Who is GSA's EAP program manager?"), or the
    name of the person in a role ("What's the name of the … HR Specialist …?")."""
    if not HOLDER_NAMED:
        return False
    if _ROLE_ANSWERS.search(text):
        return False
    return (NAME_ASKED and bool(_NAME_OF.search(text))) or (asks_holder(text) and bool(_NAMED_HOLDER.search(text)))


def names_person(text: str) -> bool:
    """The text names someone: a capitalised pair, the second no head of a unit's name ("Jira Service", "Microsoft
    Teams"), whose first word the English lexicon does not know (a given name: "Djemila McCray", "Kim White"), or
    whose second it does not know after a first that is no adjective and outside a list of capitalised items ("Mark
    Fenton"; not "Daily Standups"); not two words it knows ("Google Meet", "Senior Management"); or a first.last@
    address whose first part is no word ("jane.doe@", not "support.team@")."""
    if any(not lexicon(m.group("first")) and m.group("last").lower() not in _UNIT_HEADS | _MAILBOXES
           for m in _EMAIL.finditer(text)):
        return True
    for m in _PERSON.finditer(text):
        first, last = m.group("first"), m.group("last")
        if first.lower() in STOPWORDS or last.lower() in _UNIT_HEADS:
            continue
        if lexicon(first) and _OPENS.search(text[:m.start()]):
            continue  # a word capitalised for opening the sentence ("Ask Tech Ops.")
        if not lexicon(first):  # a given name the lexicon does not know: "Djemila", "Maria", "Kim"
            return True
        # a known first word ("Mark") before an unknown surname: not an adjective ("Daily Standups"), nor an item of
        # a list of capitalised names ("Sprint Reviews, Sprint Retros, and Sprint Planning")
        after, before = text[m.end("last"):], text[:m.start()]
        if (not lexicon(last) and "ADJ" not in lexicon(first) and not _LISTED_AFTER.match(after)
                and not _LISTED_BEFORE.search(before)):
            return True
    return False


FEES = True
# "Will I be charged a fee for a replacement card?", "Is there a fee for …?": a yes/no on money; not "Will I be
# charged annual leave for a holiday?" (leave is charged), nor "Do I have to pay back advanced leave?"
_ASKS_FEE = re.compile(r"\b(?:be|get|getting|being)\s+charged\b(?!\s+(?:\w+\s+)?(?:leave|hours?|time|days?)\b)|"
                       r"\bis there (?:a|any)\s+(?:\w+\s+)?(?:fee|charge|cost)s?\b|\bcharge (?:me|us)\b", re.I)
_MONEY_TALK = re.compile(r"[$€£]\s?\d|\b(?:fees?|charged?|charges|costs?|free|pay|paid|pays|repay\w*|prices?|"
                         r"reimburs\w*|deduct\w*|salary)\b", re.I)


def asks_fee(text: str) -> bool:
    """The part asks whether a fee is charged."""
    return FEES and bool(_ASKS_FEE.search(text))


def talks_money(text: str) -> bool:
    """The text speaks of money: a sum, a fee, a cost, a charge, free, pay."""
    return bool(_MONEY_TALK.search(text))


# "Do people who lead a TTS guild get any extra pay, award, or bonus for doing it?", "Do buddies get any kind of award
# or time off for taking that on?": a yes/no on being paid or rewarded, answered only by a sentence speaking of pay or
# awards; the guild page says how leads are "recognized" by their supervisor, and nothing of pay (PAY_ASKED). Not
# "will I get paid for the award leave I haven't used?" (leave paid out is money talk, and the page talks money)
PAY_ASKED = True
_ASKS_PAY = re.compile(r"\b(?:get|gets|getting|receive|receives|earn|earns)\s+(?:any\s+(?:kind\s+of\s+|sort\s+of\s+)?|"
                       r"an?\s+|some\s+)?(?:extra\s+|additional\s+|special\s+)?(?:[\w-]+\s+)??"
                       r"(?:pay|compensation|bonus(?:es)?|stipends?|awards?|incentives?|cash)\b"
                       r"(?!\s+(?:stubs?|info\w*|statements?|periods?|dates?|leave)\b)|"
                       r"\b(?:paid|compensated)\s+(?:extra|more)\b", re.I)
_PAY_TALK = re.compile(_MONEY_TALK.pattern + r"|\b(?:awards?|bonus(?:es)?|compensat\w*|stipends?|incentives?)\b", re.I)


# who would be paid: "Do people who lead a TTS guild get …" → "people who lead a TTS guild"
_PAID_WHO = re.compile(r"^\W*(?:do|does|did|will|would|can|could|should|shall)\s+(?P<who>.+?)\s+(?:get|gets|getting|"
                       r"receive|receives|earn|earns|(?:be|get)\s+(?:paid|compensated))\b", re.I)
_ANYONE = frozenset(stem(w) for w in "people person someone anyone employee employees staff folks".split())


def asks_pay(text: str) -> bool:
    """The part asks whether someone is paid or rewarded for something (PAY_ASKED)."""
    return PAY_ASKED and bool(_ASKS_PAY.search(text))


def paid_who(text: str) -> set[str]:
    """The content stems of who the part asks would be paid ("buddies", "people who lead a TTS guild"), those naming
    anyone at all and words that only describe ("Do I still get …", "new employees") left out; empty when the part does
    not say."""
    m = _PAID_WHO.search(text)
    words = [w for w in content_words(m.group("who")) if not (describes(w) or "ADV" in lexicon(w))] if m else []
    return {stem(w) for w in words} - _ANYONE


def talks_pay(text: str) -> bool:
    """The text speaks of money, pay or awards."""
    return bool(_PAY_TALK.search(text))


# A phone number asked ("What's the phone number for the GSA Incident Response team?", "what number do I call to book
# emergency travel?") is given only by a sentence writing one: "you can phone the IR team via the numbers listed in
# Section 3.1.1 of the … Guide" points elsewhere and gives none (PHONES_ASKED). The number is what is asked: nothing
# after it but the asking ("… for the help desk?"), not "the phone number requirements for MFA", and the words before it
# name whose ("the IT service desk phone number"), not "the policy on personal phone lines"; "the number of the
# earlier RFC" is no phone (review)
PHONES_ASKED = True
_PHONE_NOUN = (r"(?:(?:phone|telephone|hotline|help ?line|call-?in|toll-free|tty|fax)\s+(?:number|line)s?|"
               r"(?:help ?desk|support|contact)\s+numbers?(?!\s+of\b))")
_ASKS_PHONE = re.compile(r"\b(?:what(?:'s|’s|\s+is|\s+are)|which|is there(?:\s+an?)?|do (?:we|they|you) have"
                         r"(?:\s+an?)?|give me (?:the|a))\s+(?:(?:the|a|an|their|its|our|your)\s+)?"
                         r"(?:(?!(?:on|of|for|about|in|with|to|at|from)\b)[\w-]+\s+){0,3}?" + _PHONE_NOUN +
                         r"(?=\s*[?.,;!]|\s*$|\s+(?:for|to|at|of|i|we|you|should|do|does|can|could|would|will|is)\b)|"
                         r"\bwhat(?:'s|’s|\s+is) the number (?:for (?:the|a|an|our|my)\s+(?:[\w-]+\s+){0,3}?"
                         r"(?:help ?desk|desk|line|team|office|support|hotline)\b|to call)|"
                         r"\bis there (?:a|any) (?:phone )?number (?:i|we|you) (?:can|could|should) (?:call|dial)\b|"
                         r"\bwhat (?:phone |telephone )?number (?:do|should|can|could|would) (?:i|we|you) (?:call|dial|"
                         r"ring|phone)\b", re.I)
# (a number as written: a US one as `kinds.PHONE` reads it, "877-472-6716", "(866) 450-6588"; and "+44 20 7946 0958",
# "1-800-FLY-AWAY", "877-GSA-HELP", and the three-digit lines one calls or dials, "call 911"; not "RFC 002-1234",
# "100-1000 employees" or a meeting ID written with spaces. PHONE comes first: its backreference is group 1)
_WRITES_PHONE = re.compile(PHONE.pattern + r"|(?<![\w-])\+\d{1,3}(?:[\s.-]?\d{2,4}){2,4}(?![\w-])|"
                           r"\b(?:1-)?8\d\d-[A-Z0-9]{3}-[A-Z0-9]{4}\b|\b1-8\d\d-[A-Z0-9-]{7,}\b|"
                           r"\b(?:call|dial|text)\s+(?:9-1-1|911|988|311)\b", re.I)


def asks_phone(text: str) -> bool:
    """The part asks for a phone number (PHONES_ASKED)."""
    return PHONES_ASKED and bool(_ASKS_PHONE.search(text))


def writes_phone(text: str) -> bool:
    """The text writes a phone number (see `_WRITES_PHONE`)."""
    return bool(_WRITES_PHONE.search(text))


__all__ = ["asks_fee", "asks_named_holder", "asks_pay", "asks_phone", "names_person", "talks_money", "talks_pay",
           "writes_phone"]

"""The kind of value a question part asks for, where its wording leaves no other reading, and whether a sentence
states one: a duration ("how many hours …", "how long does approval take"), a price ("how much does a seat
cost"), a time of day ("what time do they close"), a date, a percentage or a frequency ("how often"). One home for
answerability (a part nothing states it for is not answered), the reader (a sentence that states it fits the part)
and confidence (an answer is 'high' only when its quoted sentence states it).

"How many hours of training do I need for FAC-COR Level II?" is not answered by "FAC-COR contains three levels of
certification": a number, but not of hours. And a part asking when something happened ("when did the program get
started") is answered by a year, which is no quantity anywhere else.
"""

from __future__ import annotations

import functools
import re

from ..quantities import NUMBER_WORD
from ..stems import content_stems

# A number of a time unit ("how many seconds", "the maximum number of days"), how long something takes or lasts
# ("how long does approval take"; not "how long can a package name be"), or what something costs ("how much does a
# seat cost"; not "how much of the fee is covered").
_TIME_UNITS = "seconds|minutes|hours|days|weeks|months|years"
# … or how long a span of time is, named as what is asked ("how long is the comment window", "how long is the
# probationary period before …"; not "how long is the session ID", "the Windows product key", "the password": SPANS)
SPANS = True
_SPAN = (r"window|period|term|delay|wait|waiting period|notice|probation|retention|trial|cycle|timeframe|time frame|"
         r"turnaround|interval|timeout|grace period|cooldown|cool-down|rotation|tour|fellowship|internship|detail|"
         r"assignment|appointment|sabbatical|furlough|leave|break|shift|session|meeting|training|course|bootcamp")
_ASKS_TIME = re.compile(rf"\b(?:how many|number of|maximum|minimum|max|min)\s+(?:\w+\s+)?(?P<unit>{_TIME_UNITS})\b|"
                        r"\bhow long\b(?=[^?]*\b(?:take|takes|last|lasts|wait|waits|keep|kept|stay|stays|valid|"
                        r"retain\w*|remain\w*|expire\w*)\b)|"
                        # "How long does the 18F Team Coffee meeting run?" (not "How long can a package name run?")
                        r"\bhow long (?:does|do|did|will|would|should)\b[^?]{0,80}?\bruns?\b", re.I)
# … or how much notice or lead time ("how much notice do I need for live captioning", "how much lead time does
# the panel need"): a span of time before something (NOTICE_ASKED)
NOTICE_ASKED = True
_ASKS_NOTICE = re.compile(r"\bhow much (?:advance |advanced |prior )?(?:notice|lead[- ]time|warning|heads[- ]up)\b|"
                          r"\bhow (?:far|long) (?:in advance|ahead|beforehand)\b", re.I)
# … or how long someone serves in a role ("How long does someone serve as coordinator of the Digital Council before a
# new one is picked?"): a term, stated only by a sentence that speaks of serving or of a term ("Members serve two-year
# terms", "the role rotates every six months"), not by the length of the council's weekly meeting (SERVICE_ASKED)
SERVICE_ASKED = True
# (a role held: "serve as coordinator", "serve on the council", or a holder of one serving: "How long does an 18F
# product chapter supervisor serve …"; not a server's "serve cached pages", nor "while serving on jury duty")
_HOLDERS = (r"(?:director|head|chief|lead|leader|manager|owner|chair|chairperson|president|commissioner|"
            r"administrator|deputy|supervisor|coordinator|officer|member|representative|fellow|liaison|"
            r"steward|advisor|champion|captain|secretary|treasurer)s?")
_ASKS_SERVICE = re.compile(
    r"\bhow long (?:does|do|did|will|would|should|can|is|are|was|were)\b(?:(?!\b(?:while|when|if)\b)[^?]){0,80}?"
    rf"(?:(?<![\w-])serv(?:e|es|ing)\s+(?:as|on|in)\b|\b{_HOLDERS}\s+(?:\w+ly\s+)?serv(?:e|es)\b)", re.I)
_STATES_SERVICE = re.compile(r"\bserv(?:e|es|ed|ing)\b|\bterms?\b(?!\s+(?:and|&)\s+conditions\b)(?!\s+of\s+(?!"
                             r"office|appointment))|\btenure\b|\brotat(?:e|es|ed|ing|ion|ions)\b|\bstints?\b|"
                             r"\bappoint(?:ed|ment|ments)\b|\bfellowships?\b", re.I)
_ASKS_SPAN = re.compile(
    rf"\bhow long (?:is|are|was|were|will be|would be)\s+(?:(?:the|a|an|my|our|your|their|this|that|each|every)\s+)?"
    rf"(?:[\w-]+\s+){{0,2}}?(?:{_SPAN})s?(?=\s*(?:[?,.;!]|$)|\s+(?:before|for|of|in|on|at|to|when|after|until|"
    r"during|if|and|or|usually|typically|normally|generally)\b)", re.I)
# The thing a price is asked of ("seat" of "how much does each seat cost my team", "What does a Zoom seat cost?",
# "what is the price of a Zoom license"): its words, up to four.
_DET = r"(?:(?:a|an|the|each|one|every|my|our|your|this|that)\s+)?"
_THING = r"[\w'’-]+(?:\s+[\w'’-]+){0,3}?"
_PRICED = re.compile(rf"\bhow much (?:does|do|will|would|did|is|are)\s+{_DET}(?P<a>{_THING})\s+costs?\b|"
                     rf"\bwhat (?:does|do|will|would)\s+{_DET}(?P<b>{_THING})\s+cost\b|"
                     rf"\bwhat(?:'s| is) the (?:price|cost) of\s+{_DET}(?P<c>{_THING})"
                     r"(?=\s*[?,.;]|\s*$|\s+(?:for|in|at|per|to|if|when|and|or)\b)|"
                     # "How much does TTS charge a partner agency for each private GitHub repository we create?"
                     rf"\bhow much (?:does|do|will|would|did)\s+[\w'’-]+(?:\s+[\w'’-]+){{0,2}}?\s+charge\s+"
                     rf"(?:[\w'’-]+\s+){{0,3}}?for\s+{_DET}(?P<d>{_THING})"
                     r"(?=\s*[?,.;]|\s*$|\s+(?:for|in|at|per|to|if|when|and|or|we|i|you|they|that|which)\b)", re.I)
CHARGED = True  # "how much does X charge …" asks a price as "… cost" does


# What a duration is asked of ("How many hours of weather and safety leave am I allowed per year?"): only a sentence
# naming that answers it; "a 240 hour limit on the number of hours you can carry over" states hours of annual leave.
OF_SUBJECT = True
_OF_SUBJECT = re.compile(
    rf"\bhow (?:many|much)\s+(?:[\w-]+\s+)?(?:{_TIME_UNITS})\s+of\s+(?:(?:the|my|our|your|their|this|that)\s+)?"
    r"(?P<np>[\w'’-]+(?:\s+[\w'’-]+){0,4}?)(?=\s+(?:am|do|does|did|is|are|was|were|can|could|should|will|would|"
    r"have|has|had|i|we|you|they|it|must|may|might|in|for|on|per|at|to|before|after|left|there|each|every|a|an|"
    r"this|that|my|our|get|gets|given|carry|carries|roll|rolls|accrue|accrues|earn|earns|expire|expires|transfer|"
    r"transfers|count|counts|take|takes|use|need|needs)\b|\s*[?,.;]|\s*$)", re.I)


# … and what takes or lasts: "How many business days does a FITARA review usually take …" → "FITARA review" (not
# the asker: "How long should I expect the Customer Experience office to take …" names who acts, no thing that lasts)
_SPAN_SUBJECT = re.compile(
    rf"\bhow (?:many\s+(?:[\w-]+\s+)?(?:{_TIME_UNITS})|long)\s+(?:does|do|did|will|would|should|can|is|are)\s+"
    r"(?:(?:the|a|an|my|our|your|their|this|that|its)\s+)?(?!(?:i|we|you|they|he|she|it)\b)"
    r"(?P<np>[\w'’-]+(?:\s+[\w'’-]+){0,6}?)\s+"
    r"(?:(?:usually|typically|normally|generally|actually|really|still)\s+)?(?:take|last|run|stay|remain)s?\b", re.I)
_PRONOUN = re.compile(r"(?i)^(?:it|this|that|they|these|those|he|she|you|we|i)$")


def span_subject(text: str) -> str:
    """What a "how long does X take" part asks the duration of ("FITARA review"), or '' (a pronoun: "it")."""
    m = _SPAN_SUBJECT.search(text)
    return m.group("np") if m and not _PRONOUN.match(m.group("np")) else ""


# A duration asked up to an event of a thing ("How many days of inactivity before a Slack channel gets archived?",
# "How long until my leave request is approved?", "how many days until the request expires?"): the thing the event
# happens to, and the event (EVENT_SUBJECTS, read by unstated.py; not "someone", "everything")
EVENT_SUBJECTS = True
_EVENT_SUBJECT = re.compile(
    r"\b(?:before|until|till)\s+(?:(?:a|an|the|my|our|your|their|its)\s+)?"
    r"(?!(?:i|we|you|they|he|she|it|a|an|the|my|our|your|their|its|someone|somebody|something|anyone|anybody|"
    r"anything|everyone|everybody|everything|no\s?one|nobody|nothing)\b)"
    r"(?P<np>[\w'’-]+(?:\s+[\w'’-]+){0,3}?)\s+(?:(?:gets?|is|are|becomes?|will\s+(?:be|get)|can\s+be)\s+"
    r"(?:(?:automatically|officially|actually|finally|fully)\s+)?(?P<done>\w+ed)|(?:(?:automatically|actually)\s+)?"
    r"(?P<does>expires?|lapses?|closes?|ends?|runs? out|times? out|goes through|kicks? in|takes? effect))\b", re.I)


# … and the time something takes to be done to a thing ("how long does DoD usually take to approve a SAAR once I've
# sent it in?", "how long for my Docusign envelope to be signed?"): "Most approvals will take 2–3 weeks", said of
# speaking requests, is not the time a SAAR takes (TAKEN_EVENTS; not a light verb: "to get a PIV card")
TAKEN_EVENTS = True
_LIGHT_VERBS = frozenset("get got do done make made have had go gone be been see seen come happen take taken hear "
                         "find found use used start started set put".split())
_THING_END = (r"(?=\s+(?:once|after|when|if|so|from|in|on|at|by|before|since|for|and|or|with|to|usually|typically|"
              r"normally)\b|\s*[?.,;!]|$)")
_DONE = r"(?P<done>\w+ed|paid|sent|given|shown|held|built|bought|told|written|read|run|won|kept)"
_TAKEN_EVENT = re.compile(
    r"\b(?:takes?|took|taking)\s+(?:\w+\s+){0,2}?to\s+(?P<does>\w+)\s+(?:(?:out|up|off|back|over|through|in)\s+)?"
    rf"|\bfor\s+{_DET}(?P<np2>[\w'’-]+(?:\s+[\w'’-]+){{0,3}}?)\s+to\s+(?:be|get)\s+" + _DONE + _THING_END
    # "How long does a SAAR usually take to be approved?"
    + rf"|\bhow long (?:does|do|will|would|did)\s+{_DET}(?!(?:it|they|this|that|these|those)\b)"
    r"(?P<np3>[\w'’-]+(?:\s+[\w'’-]+){0,3}?)\s+(?:(?:usually|typically|normally|generally|actually)\s+)?"
    r"take\s+to\s+(?:be|get)\s+" + _DONE.replace("done", "done3"),
    re.I)
_TAKEN_THING = re.compile(_DET + r"(?!(?:it|them|this|that|these|those|one|someone|something|anything|everything|to|"
                          r"from|into|at|in|on|with|for|by|through|over|around|across)\b)"
                          r"(?P<np>[\w'’-]+(?:\s+[\w'’-]+){0,3}?)" + _THING_END, re.I)


def event_subject(text: str) -> tuple[str, str, str]:
    """What a "how long before X gets archived" part asks the time up to an event of ("Slack channel"), the event's
    verb ("archived") and the event ("before a Slack channel gets archived"), or ('', '', ''); likewise the time a
    thing takes to be done ("SAAR", "approve", "to approve a SAAR": TAKEN_EVENTS)."""
    m = _EVENT_SUBJECT.search(text) if EVENT_SUBJECTS else None
    if m:
        return m.group("np"), (m.group("done") or m.group("does")).split()[0], m.group(0)
    m = _TAKEN_EVENT.search(text) if EVENT_SUBJECTS and TAKEN_EVENTS else None
    if m is None:
        return "", "", ""
    if m.group("np2"):
        thing, verb, event = m.group("np2"), m.group("done"), m.group(0)
    elif m.group("np3"):  # "… does a SAAR usually take to be approved": "for a SAAR to be approved"
        thing, verb = m.group("np3"), m.group("done3")
        event = f"for {text[m.start('np3'):m.end('np3')]} to be {verb}"
    elif thing_m := _TAKEN_THING.match(text, m.end()):
        thing, verb, event = thing_m.group("np"), m.group("does"), f"to {text[m.start('does'):thing_m.end()]}"
    else:
        return "", "", ""
    return ("", "", "") if verb.lower() in _LIGHT_VERBS else (thing, verb, event.strip())


def measured_subject(text: str) -> str:
    """What a "how many hours of …" part asks the duration of ("weather and safety leave"), or ''."""
    m = _OF_SUBJECT.search(text) if OF_SUBJECT else None
    return m.group("np") if m else ""


def priced_words(text: str) -> list[str]:
    """The words of the thing a part asks the price of, or []."""
    m = _PRICED.search(text)
    if m is None or (m.group("d") and not CHARGED):
        return []
    return (m.group("a") or m.group("b") or m.group("c") or m.group("d")).split()


_ASKS_MONEY = re.compile(r"\bhow much (?:does|do|will|would|did|is|are)\b[^?]*\bcosts?\b|\bhow much money\b|"
                         r"\bwhat (?:does|do|will|would) [\w\s]{1,30} cost\b|"
                         r"\bwhat(?:'s| is) the (?:price|cost) of\b", re.I)
# (not "the person in charge of …", nor "what do I charge my time to": a Tock line, no price)
_CHARGED = r"(?<!\bin )charge[sd]?\b(?!\s+(?:(?:my|our|your|their|the)\s+)?(?:time|hours)\b)"
_ASKS_CHARGE = re.compile(rf"\bhow much (?:does|do|will|would|did)\b[^?]*\b{_CHARGED}|"
                          rf"\bwhat (?:does|do|will|would) [\w\s]{{1,30}} {_CHARGED}", re.I)
# an amount of money a card or account allows ("What's the credit limit on the GSA travel card?")
MONEY_LIMITS = True
# (asked, not named: "Who can raise the credit limit?" asks who)
_ASKS_LIMIT = re.compile(r"\b(?:what(?:'s|’s| is| are)|how (?:high|big|much|large) is|is there)\s+"
                         r"(?:(?:the|a|an|my|our|any)\s+)?(?P<limit>(?:credit|spending|purchase|purchasing|dollar)"
                         r"(?:\s+card)?\s+(?:limit|cap|ceiling))s?\b", re.I)
# "What's the biggest prize amount an agency is allowed to offer through Challenge.gov?" was answered with what
# Challenge.gov is: an amount asked by name is an amount of money, and a sentence stating none does not answer it
# (AMOUNTS_ASKED; not "the amount of leave", an amount of something named after it, unless that is money, "the amount
# of the relocation bonus"; nor an amount of leave or time named anywhere in the asking, "What's the leave amount I
# can carry over?", "What's the maximum amount I can carry over?": hours, found in review)
AMOUNTS_ASKED = True
_MONEY_NOUN = r"(?:bonus|award|stipend|payment|reimbursement|fee|grant|prize|allowance|salary|check|refund)"
ASKS_AMOUNT = re.compile(r"\bwhat(?:'s|’s| is| was| are| were)?\s+(?:the|an?|our|my|your)\s+(?:[\w-]+\s+){0,2}?"
                         r"(?:amount|sum)s?\b(?:(?!\s+of\b)|\s+of\s+(?:(?:the|a|an|my|our|your|this|that)\s+)?"
                         rf"(?:[\w-]+\s+)?{_MONEY_NOUN}s?\b)", re.I)
_TIME_AMOUNT = re.compile(r"\b(?:leave|PTO|vacation|sick|hours?|days?|weeks?|time|notice|accru\w*|carry(?:ing)?\s+over|"
                          r"roll(?:ing)?\s+over|credit\s+hours|comp\s+time|overtime)\b", re.I)


def asks_amount(text: str) -> bool:
    """An amount of money asked by name (AMOUNTS_ASKED)."""
    return AMOUNTS_ASKED and _names_amount(text)


def _names_amount(text: str) -> bool:
    return ASKS_AMOUNT.search(text) is not None and _TIME_AMOUNT.search(text) is None


# "How long until a team is actually staffed?", "how long before I hear back?", "How long will it be before …": the
# time until something happens is a length of time or the date it happens ("Training funds must be obligated by
# August 15" answers "how long before the end of the fiscal year …"): either answers (UNTIL_ASKED)
UNTIL_ASKED = True
_ASKS_UNTIL = re.compile(r"\bhow long\s+(?:(?:will|would|is|does|do|did|can|should)\s+(?:it|i|we|you|they)\s+"
                         r"(?:be\s+|have\s+|take\s+|wait\s+)?)?(?:until|till|til|'til|’til|before|after)\b", re.I)
# pay asked ("What GS grade and salary range was the role posted at?", "What's the maximum salary at GSA?", "what's the
# pay for a GS-13"): an amount of money answers it, a grade alone does not (SALARY_ASKED). Not what a kind of pay is
# ("What is locality pay?", "What is Pay.gov used for?"), nor "what happens to my salary", "which pay scale applies":
# those ask no amount. The noun follows a determiner ("the", "my"); only "salary" and "wage" take a word between
# ("the maximum salary").
SALARY_ASKED = True
_ASKS_SALARY = re.compile(
    r"\bwhat(?:'s|’s| is| are| was| were)\s+(?:the|my|our|their|its|a|an)\s+(?:pay|"
    r"(?:(?!(?:on|of|for|about|to|in|with|regarding)\b)[\w-]+\s+){0,2}?(?:salary|salaries|wages?))"
    r"(?=\s*(?:[?,]|\.(?!\w)|$|(?:at|for|of|in|on|with|when|if)\b))|"
    r"\b(?:what|which)\s+(?:[\w-]+\s+){0,3}?(?:salary|pay|wage) ranges?\b", re.I)
# … and pay asked as what someone is paid ("How much do Presidential Innovation Fellows get paid?", "how much does a
# GS-13 make?", "How much will I earn as an intern?"): "how much" then at once its verb, so nothing else is measured
# ("how much leave do I get paid for" asks hours); an amount of money answers it, not "eight PIFs left the fellowship"
# (PAID_ASKED; not what an activity pays, "how much do I get paid for overtime": a rate or a multiple, "time and a
# half")
PAID_ASKED = True
_ASKS_PAID = re.compile(r"\bhow much (?:do|does|did|will|would|can|could|should|might)\s+(?!(?:it|this|that|there)\b)"
                        r"(?:[\w'’.-]+\s+){1,5}?(?:(?:get|gets|be|getting)\s+)?(?:paid|earn|earns|make|makes)\b"
                        r"(?!\s+(?:for|from|up|out|back|sure|sense|use|a|an|the|it|me|us|of|on|off|in|with|during|"
                        r"while|when|if)\b)|"
                        r"\bhow much (?:are|is|were|was)\s+(?!(?:it|this|that|there)\b)(?:[\w'’.-]+\s+){1,5}?paid\b"
                        r"(?!\s+(?:for|from|out|back|off|in|with|during|while|when|if)\b)", re.I)
# A size of storage asked ("How much storage do we get in our GSA Google Drive?", "what's the storage limit on our
# Gmail mailboxes?", "Is there a GB cap?", "how big can an attachment be?"): a number of bytes answers it ("files up
# to 8.0 GB", "a file size limit of 100MB") or "unlimited"; sentences about sharing Drive files state none
# (SIZES_ASKED; not "how much space" of an office, nor "how much data do we collect")
SIZES_ASKED = True
ASKS_SIZE = re.compile(r"\bhow much (?:(?:cloud |online |drive |disk |email |mailbox |inbox )?storage|(?:disk|drive|"
                       r"storage|mailbox|inbox) space|space (?:do|does|will) (?:i|we|you) (?:get|have) (?:in|on) (?:my|"
                       r"our|your|the) (?:drive|mailbox|inbox|account|gmail|google drive))\b(?![^?]*\b(?:desk|locker|"
                       r"cabinet|closet|shelf|shelves|office|room|garage|car)\b)|"
                       r"\b(?:storage|mailbox|inbox|disk|drive)\s+(?:space\s+)?(?:limit|cap|quota|maximum)s?\b|"
                       r"\b(?:file|attachment|upload|email|message)\s+size\s+(?:limit|cap|quota|maximum|max)s?\b|"
                       r"\b(?:max|maximum|largest|biggest)\s+(?:(?:file|attachment|upload)\s+size\b|size\b(?=[^?]{0,40}"
                       r"\b(?:files?|attachments?|uploads?|e-?mails?|mailbox|inbox|drive|storage)\b))|"
                       r"\b(?:GB|MB|TB|gigabytes?|megabytes?|terabytes?)\s+(?:cap|limit|quota|max|maximum)s?\b|"
                       r"\bhow many (?:GB|MB|TB|gigs?|gigabytes|megabytes|terabytes)\b|"
                       r"\bhow (?:big|large) (?:of )?an? (?:file|attachment|upload)s?\b|"
                       r"\bhow (?:big|large) (?:can|may|could)\s+(?:(?:a|an|the|my|our|each|one)\s+)?(?:[\w-]+\s+)?"
                       r"(?:file|attachment|upload|mailbox|inbox)s?\b", re.I)
_BYTES = (r"(?:[KMGTP]B|[KMGTP]iB|bytes?|kilobytes?|megabytes?|gigabytes?|terabytes?|petabytes?|gigs?|megs?)")
_STATES_SIZE = re.compile(rf"\b(?:\d[\d,.]*|{NUMBER_WORD}|twenty-five|fifty)\s?-?\s?{_BYTES}\b|\bunlimited\b|"
                          r"\bno (?:storage |size )?(?:limit|cap|quota)\b", re.I)
# A stated duration or price, counted generously ("a week", "240 annual leave hours", "by Friday", "free", "80
# percent"): answerability refuses only when none is there at all.
_TIME_UNIT = r"(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|fortnights?|months?|years?|periods?)\b"
_STATES_TIME = re.compile(
    r"\b(?:\d+(?:[.,]\d+)?|" + NUMBER_WORD + r")\s*-?\s*(?:[a-z][\w-]*\s+){0,3}?" + _TIME_UNIT + "|"
    r"\b(?:a|an|half an?|several|a few|a couple of|the next|next|same|each|every)\s+(?:business\s+|working\s+|"
    r"calendar\s+|full\s+)?" + _TIME_UNIT + "|"
    r"\b\d+\s*(?:ms|s|h|d)\b|\b(?:immediately|annually|daily|weekly|biweekly|monthly|yearly|hourly|overnight|"
    r"same[- ]day|indefinitely|forever|never expire\w*|no (?:time )?limit|by (?:the )?end of|by (?:mon|tues|wednes|"
    r"thurs|fri|satur|sun)day|next (?:paycheck|pay period|business day))\b", re.I)
# … or the unit named before the number it counts ("The maximum number of hours you can work in a single day is 12."):
# the number alone states the duration (NUMBER_OF_UNIT)
NUMBER_OF_UNIT = True
_STATES_COUNTED = re.compile(r"\bnumber of (?:[a-z-]+\s+){0,2}" + _TIME_UNIT + r"[^.;!?]{0,80}?(?:\b(?:is|are|was|"
                             r"were|equals|(?:capped|set|limited) (?:at|to))\s+|:\s*)(?:\d+(?:[.,]\d+)?|" + NUMBER_WORD
                             + r")\b(?!\s*(?:%|percent|of\b|" + _TIME_UNIT + r"))", re.I)
_STATES_MONEY = re.compile(r"[$€£]\s?\d|\d\s?[$€£]|\b(?:usd|eur|gbp)\s?\d|\b\d[\d,.]*\s?(?:dollars|usd|eur|euros?|gbp|"
                           r"cents|percent)\b|\d\s?%|\bprice:\s*\d|\bfree\b|"
                           r"\b(?:no|without)\s+(?:extra\s+|additional\s+)?(?:cost|charge|fee)\b|"
                           r"\bfull (?:cost|fee|price|registration fee)\b", re.I)
# A time of day ("what time is the check-in due", "what time do they close"): a clock time answers it, or a part of
# the day ("close of business", "by noon"); "every day" does not.
# A verb or "each/every" follows: "what time tracking tool", "what time zones", "what time of year" ask no clock time.
ASKS_CLOCK = (r"\b(?:what|which) time(?:'s|\s+(?:is|are|was|were|do|does|did|will|would|should|must|can|could|each|"
              r"every)\b)")
_ASKS_CLOCK = re.compile(ASKS_CLOCK, re.I)
# The hours something is open ask clock times too (HOURS_ASKED): "What hours is the USAGov Contact Center staffed?",
# "what hours are they available?", "What are the help desk's business hours?", "What are the hours of the library?";
# not "what hours do I Tock when the office is closed?" (the asker's hours), "What are the hours of annual leave I
# earn?" or "What are the service hours I owe?", which ask a count. Only the asking words are the cue (a lookahead):
# what is open is what the part is about. Only a clock time states such hours, not "during business hours".
HOURS_ASKED = True
ASKS_HOURS = re.compile(r"\b(?:what|which)\s+hours(?=\s+(?:is|are|does|do|will|can)\s+(?!(?:i|we|you)\b)"
                        r"(?:(?!(?:when|if|while|because)\b)[\w'’.-]+\s+){1,6}?(?:open|staffed|available|closed|"
                        r"operat\w*|answer\w*|running|reachable|manned)\b)|"
                        r"\b(?:what|which)(?:['’]re|\s+are)(?=\s+(?:the|its|their|your|our|[\w.-]+['’]s)\s+"
                        r"(?:[\w'’.-]+\s+){0,4}?(?:opening|business|operating|support|service|staffed|open)\s+hours"
                        r"(?:\s*[?,.;]|\s*$|\s+(?:of|at|for|on)\b)|"
                        r"\s+(?:the|its|their)\s+hours(?:\s*[?]|\s*$|\s+(?:of|at|for)\s+"
                        r"(?:the|our|your|a|an|this|that)\b))", re.I)
# What the time of day is asked of ("what time does the GSA IT help desk open and close?", "What hours is the library
# open?"): a clock time answers it where the sentence, its lead-in or its heading names its head noun ("desk": "They
# are available 6am-9pm ET." under "IT Service Desk"), not "the building closes at 6 pm" (CLOCK_SUBJECTS)
CLOCK_SUBJECTS = True
_CLOCK_SUBJECT = re.compile(
    r"\b(?:what|which) (?:time|hours)\s+(?:does|do|did|will|would|is|are)\s+"
    r"(?:(?:the|a|an|my|our|your|their|this|that|its|most)\s+)?(?!(?:i|we|you|they|he|she|it|most|people|folks|"
    r"everyone|everybody|things|staff|employees|teams?)\b)"
    r"(?P<np>[\w'’-]+(?:\s+(?!(?:at|in|on|of|for|near|by)\b)[\w'’-]+){0,5}?)"
    r"(?:\s+(?:at|in|on|of|for|near|by)\s+[\w'’-]+(?:\s+[\w'’-]+){0,3}?)?"  # "the security desk at 1800 F"
    r"\s+(?:(?:usually|typically|normally|generally|actually)\s+)?"
    r"(?:open|opens|close|closes|start|starts|end|ends|begin|begins|finish|finishes|shut|stop|staffed|available)\b",
    re.I)


def clock_subject(text: str) -> str:
    """The head noun of what a time of day is asked of ("desk" of "the GSA IT help desk"), or '' (nor a word that
    is no content word: "Building 2")."""
    m = _CLOCK_SUBJECT.search(text) if CLOCK_SUBJECTS else None
    head = m.group("np").split()[-1] if m else ""
    return head if content_stems(head) else ""


_CLOCK_TIME = r"\b\d{1,2}(?::\d\d)?\s*(?:a\.?m\.?|p\.?m\.?)(?!\w)|\b\d{1,2}:\d\d\b|\b(?:noon|midnight)\b"  # "4:30 PM"
_STATES_HOURS = re.compile(_CLOCK_TIME + r"|\b(?:around the clock|24 hours a day)\b|\b24/7\b", re.I)
_STATES_CLOCK = re.compile(_CLOCK_TIME + r"|\b(?:close of business|COB|EOD|o'clock|"
                           r"end of (?:the )?(?:day|business day|workday)|business hours|working hours|core hours|"
                           r"morning|afternoon|evening)\b", re.I)
# A deadline or a day asked ("When is this year's application deadline for …?", "what's the deadline to choose cash
# or time off", "by when", "what day does it usually land"; not "how soon", which "with your next paycheck"
# answers): a date answers it, a weekday, a clock time, a span before or after something ("within 3 business days",
# "30 days after"), a period it recurs in or a season. "… employees with at least 1 year of GSA service (by the
# application deadline)" names the deadline and states none (DATES_ASKED).
DATES_ASKED = True
# up to three words before it, none a preposition: "the normal weekly deadline", not "the process for extending
# deadlines", "the policy on missed deadlines", "the reason for the deadline"
BEFORE_DEADLINE = (r"(?:(?!(?:on|for|of|about|around|to|in|with|regarding|behind|between|after|before|at|by)\b)"
                   r"[\w-]+\s+){0,3}?")
_ASKS_DUE = re.compile(r"\bwhen(?:'s|’s| is| are| was| were| will| would)\b[^?]*\b(?:due(?! diligence)|deadline|"
                       r"cut-?off(?! (?:score|time|point|value|income)))\b|"
                       r"\bwhat(?:'s|’s| is| are) (?:the|our|my|its|their) " + BEFORE_DEADLINE
                       + r"(?:deadline|due date|cut-?off date)s?\b|"
                       r"\b(?:what|which) (?:date|day)(?![-\w]| format)|\bby (?:when|what date)\b", re.I)
_MONTH = (r"(?-i:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|"
          r"Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\b\.?")  # capitalised: "may" is a verb
_SPAN_UNIT = r"(?:business |work |working |calendar )?(?:days?|weeks?|months?|hours?|years?)"
_STATES_DATE = re.compile(
    rf"\b{_MONTH}\s+\d{{1,2}}\b|\b\d{{1,2}}\s+{_MONTH}(?!\w)|"  # "October 17", "Oct. 17", "17 Oct"
    r"\b(?-i:January|February|March|April|June|July|August|September|October|November|December)\b|"
    r"\b(?:in|by|until|before|after|from|since|during) (?-i:May)\b|"
    r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|\b\d{1,2}(?:st|nd|rd|th)\b|\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b|"
    r"\b\d{4}-\d\d-\d\d\b|\b(?:19|20)\d\d\b(?![-\w])|\bFY\s?\d\d\b|\bQ[1-4]\b|"
    # a span before or after something, or within one ("5 business days after", "within 3 days", "no later than 30
    # days"), not a bare "before you apply"
    rf"\b(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|twelve|thirty|sixty|ninety) {_SPAN_UNIT} "
    r"(?:before|after|prior to|from|in advance|ahead)\b|"  # (not "of": "at least 1 year of GSA service")
    rf"\b(?:within|no later than|in)\s+(?:the\s+(?:first|next|last)\s+)?(?:\d+|a|an|one|two|three|four|five|six|"
    rf"seven|eight|nine|ten|twelve|thirty|sixty|ninety)\s+{_SPAN_UNIT}\b|"
    # (not a name: "End of Year Performance Awards" is a kind of award, its words in capitals)
    r"\b(?!(?-i:(?:End|Close|Start|Beginning|First|Last) of (?:the )?[A-Z]))"
    r"(?:end|close|start|beginning|first|last) (?:day |week |month |business day )?of (?:the |each |every |your |a )?"
    r"(?:day|week|month|year|quarter|pay period|fiscal year|leave year|business day|cycle)\b|"
    r"\b(?:each|every|next) (?:business |work |working |calendar )?(?:day|week|month|year|quarter|pay period|"
    r"morning|afternoon|evening)\b|"
    r"\b(?:immediately|right away|asap|today|tomorrow|tonight|annually|quarterly|monthly|weekly|daily|biweekly|"
    r"yearly|spring|summer|fall|autumn|winter|open season|EOD|COB|close of business|end of day|rolling basis|"
    r"any ?time|no (?:set )?deadline)\b", re.I)


# … and a window asked when it opens or closes ("When does the application window for GSA's Competitive Development
# Program open each year?"): "the CDP is only open to full-time, permanent employees" says who, not when
WINDOW_DATES = True
_ASKS_OPENING = re.compile(r"\bwhen (?:does|do|will|would) (?:the |its |this year's |next year's )?"
                           r"(?:[\w'’-]+\s+){0,8}?(?:open|close|reopen)\b(?! to\b)|"
                           r"\bwhen (?:is|are) (?:the |its |this year's |next year's )?(?:[\w'’-]+\s+){0,6}?"
                           r"(?:window|registration|enrollment|enrolment|applications?|season|period|sign-?ups?)s? "
                           r"(?:open|closed?)\b", re.I)
# … and a window asked by name ("FY25 mid-year: what's the window for doing my self-assessment?", "what are the dates
# for open season?"): its dates answer it ("April 1 - May 27, 2025"), or its length ("What's the timeframe for a
# background investigation?": "three to six months", found in review), not "Self-assessments are not required for the
# mid year review" (WINDOWS_ASKED; a window in a name, "the Windows laptop", is capitalised)
WINDOWS_ASKED = True
ASKS_WINDOW = re.compile(r"\bwhat(?:'s|’s| is| are| was| were)\s+(?:the|my|our|their|its|this year's|next year's)\s+"
                         r"(?:[\w-]+\s+){0,2}?(?-i:window|timeframe|time frame|date range|dates)\s+"
                         r"(?:for|to|of|when)\b", re.I)
# A share asked ("What percentage does 18F add on top of time and materials as its overhead charge?"): a percentage
# answers it, or a fraction in words ("half the cost"); "18F is a cost-recoverable organization" states none
# (PERCENT_ASKED).
PERCENT_ASKED = True
_ASKS_PERCENT = re.compile(r"\b(?:what|which) (?:percentage|percent\b|(?:share|proportion|fraction) of\b)|\bwhat %|"
                           r"\bhow (?:much|big|large) (?:of )?a (?:percentage|share|cut)\b", re.I)
# … and one named by a word before it ("What overhead percentage does TTSC add …?"), or an interest rate ("what
# interest rate gets charged on the deposit?"), which a percentage states: only as the subject or object of the
# asking, a verb next ("What command shows percent complete", "Which accounts earn interest rates above inflation" ask
# no number) (NAMED_PERCENT)
NAMED_PERCENT = True
_NEXT_VERB = (r"(?=\s+(?:is|are|was|were|do|does|did|will|would|should|can|could|must|has|have|gets?|applies|apply)"
              r"\b|\s*\?)")
ASKS_NAMED_PERCENT = re.compile(r"\b(?:what|which) (?:(?!(?:is|are|does|do|did|the)\b)[\w'’-]+\s+){1,2}?"
                                r"(?:percentage|percent)" + _NEXT_VERB
                                + r"|\b(?:what|which) (?:is the )?interest rates?" + _NEXT_VERB, re.I)
_STATES_PERCENT = re.compile(r"\d\s?%|\b(?:\d[\d,.]*|" + NUMBER_WORD + r")\s?(?:percent|per cent|percentage points?)\b|"
                             r"\b(?:half|a third|one[- ]third|two[- ]thirds|a quarter|one[- ]quarter|"
                             r"three[- ]quarters) of\b|\bhalf (?:the|its|their|your)\b", re.I)
# How often something happens ("On the 18F product team, how often do I meet with my supervisor?"): a frequency
# answers it ("Bi-weekly", "At least once a month", "every other week", "each sprint", "on Tuesdays"); "The 18F Product
# team consists of experienced product managers." holds a number and states none (FREQUENCY_ASKED)
FREQUENCY_ASKED = True
_ASKS_FREQUENCY = re.compile(r"\bhow (?:often|frequently)\b", re.I)
_EVERY_UNIT = (r"(?:business |work |working |calendar )?(?:days?|weeks?|months?|quarters?|years?|hours?|minutes?|"
               r"sprints?|iterations?|cycles?|mornings?|afternoons?|evenings?|nights?|weekdays?|weekends?|pay periods?|"
               r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?)")
_STATES_FREQUENCY = re.compile(
    r"\b(?:hourly|daily|nightly|weekly|bi-?weekly|fortnightly|semi-?monthly|bi-?monthly|monthly|quarterly|"
    r"semi-?annually|bi-?annually|annually|yearly|twice-yearly)\b|"
    r"\b(?:once|twice|thrice|(?:\d+|" + NUMBER_WORD + r")\s+times)\s+(?:a|an|per|each|every)\s+" + _EVERY_UNIT + r"\b|"
    r"\b(?:every|each)\s+(?:other\s+|few\s+|couple\s+of\s+|(?:\d+(?:\s*[-–]\s*\d+)?|" + NUMBER_WORD
    + r")[\s-]+)?" + _EVERY_UNIT + r"\b|"
    r"\bon\s+(?:mon|tues|wednes|thurs|fri|satur|sun)days\b|"
    r"\b(?:regularly|periodically|continuously|as needed|as-needed|"
    r"on an? (?:as-needed|ad hoc|regular|rolling) basis)\b",
    re.I)
# A part asking when something happened ("when did the CoE program get started", "what year did it get its name"):
# a year answers it, though a bare year is no quantity anywhere else ("in 2017" is not "how many").
_ASKS_DATE = re.compile(r"\bwhen (?:did|was|were)\b|\b(?:what|which) year\b", re.I)
YEAR = re.compile(r"\b(?:19|20)\d\d\b")  # a bare year
DURATION, PRICE, CLOCK, DATE, PERCENT = "a duration", "a price", "a time of day", "a date", "a percentage"
HOURS = "opening hours"
SIZE = "a storage size"  # a number of bytes (SIZES_ASKED)
FREQUENCY = "a frequency"
WAIT = "a duration or a date"  # the time until something happens (UNTIL_ASKED)
SERVICE = "a length of service"  # how long someone serves in a role (SERVICE_ASKED)
_VALUES = ((_ASKS_TIME, DURATION), (_ASKS_MONEY, PRICE), (_ASKS_CLOCK, CLOCK))
_STATES = {DURATION: _STATES_TIME, PRICE: _STATES_MONEY, CLOCK: _STATES_CLOCK, HOURS: _STATES_HOURS, DATE: _STATES_DATE,
           PERCENT: _STATES_PERCENT, FREQUENCY: _STATES_FREQUENCY, SIZE: _STATES_SIZE,
           WAIT: re.compile(f"(?:{_STATES_TIME.pattern})|(?:{_STATES_DATE.pattern})", re.I)}


def asked_value(text: str) -> tuple[str, str] | None:
    """(kind, what is lacking when nothing states it) for a part asking a duration, a price, a time of day, a date
    (a deadline, a window's opening), a percentage or a frequency, else None: ("a duration", "a number of hours")
    for "how many hours of training …", ("a price", "a price") for "how much does a seat cost"."""
    return _asked_value(text, CHARGED, MONEY_LIMITS, SPANS, NOTICE_ASKED, DATES_ASKED, WINDOW_DATES, PERCENT_ASKED,
                        FREQUENCY_ASKED, SALARY_ASKED, UNTIL_ASKED, HOURS_ASKED, SERVICE_ASKED, NAMED_PERCENT,
                        AMOUNTS_ASKED, PAID_ASKED, SIZES_ASKED, WINDOWS_ASKED)


# read per candidate sentence and part: the same few part texts (the rules' flags are in the key)
@functools.lru_cache(maxsize=256)
def _asked_value(text: str, charged: bool, limits: bool, spans: bool, notice: bool, dates: bool, windows: bool,
                 percent: bool, frequency: bool, salary: bool, until: bool, hours: bool,
                 service: bool, named_percent: bool, amounts: bool, paid: bool, sizes: bool,
                 named_windows: bool) -> tuple[str, str] | None:
    for asks, kind in _VALUES:
        if (m := asks.search(text)) or (charged and asks is _ASKS_MONEY and (m := _ASKS_CHARGE.search(text))):
            unit = m.groupdict().get("unit")
            return kind, f"a number of {unit.lower()}" if unit else kind
        if asks is _ASKS_CLOCK and hours and ASKS_HOURS.search(text):
            return HOURS, HOURS
    if frequency and _ASKS_FREQUENCY.search(text):  # ("How often and for how many days …" asks the days first)
        return FREQUENCY, FREQUENCY
    if dates and (_ASKS_DUE.search(text) or (windows and _ASKS_OPENING.search(text))):
        return DATE, DATE
    if named_windows and ASKS_WINDOW.search(text):
        return WAIT, WAIT
    if percent and (_ASKS_PERCENT.search(text) or (named_percent and ASKS_NAMED_PERCENT.search(text))):
        return PERCENT, PERCENT
    if limits and (m := _ASKS_LIMIT.search(text)):
        return PRICE, f"an amount for the {m.group('limit').lower()}"
    if (salary and _ASKS_SALARY.search(text)) or (paid and _ASKS_PAID.search(text)):
        return PRICE, "an amount of pay"
    if sizes and ASKS_SIZE.search(text):
        return SIZE, SIZE
    if amounts and _names_amount(text):
        return PRICE, "an amount of money"
    if (spans and _ASKS_SPAN.search(text)) or (notice and _ASKS_NOTICE.search(text)):
        return DURATION, DURATION
    if service and _ASKS_SERVICE.search(text):
        return DURATION, SERVICE
    if until and _ASKS_UNTIL.search(text):
        return WAIT, WAIT
    return None


# A number of weeks, months or years asked is not stated by a sentence whose only durations are seconds or minutes
# ("How many weeks does the discovery phase last?" and "Timing: 60 minutes monthly"), nor a number of seconds or
# minutes by one stating only weeks, months or years; hours and days fit any (leave is asked in weeks and stated in
# hours). Nor is a number of any unit stated by how often something happens alone ("… an online subscription that
# bills monthly"; "twice weekly" counts days) (UNIT_SCALE)
UNIT_SCALE = True
_HOW_OFTEN = re.compile(r"\b(?:annually|daily|weekly|biweekly|monthly|yearly|hourly)\b", re.I)
_COUNTED_TIMES = re.compile(r"\b(?:once|twice|thrice|(?:\d+|" + NUMBER_WORD + r")\s+times)\b", re.I)
_SHORT, _LONG = {"second", "minute"}, {"week", "month", "year"}
_STATED_UNIT = re.compile(r"\b(?:\d[\d,.]*|" + NUMBER_WORD + r"|a|an|one|few|several|couple of)\s*[- ]?(?:\w+\s+)?"
                          r"(?P<u>second|sec|minute|min|hour|hr|day|week|fortnight|month|year)s?\b", re.I)
_UNIT_NAMES = {"sec": "second", "min": "minute", "hr": "hour", "fortnight": "week"}


def asked_unit(text: str) -> str:
    """The time unit a "how many …" part counts ("weeks"), or ''."""
    m = _ASKS_TIME.search(text)
    return (m.group("unit") or "").lower() if m else ""


def fits_scale(text: str, asked: str) -> bool:
    """False when every duration `text` states is on the other scale from the unit asked ("weeks": only "60 minutes"),
    or when it says only how often ("monthly"); True otherwise."""
    asked = asked.lower().rstrip("s")
    if not UNIT_SCALE or asked not in _SHORT | _LONG | {"hour", "day"}:
        return True
    stated = {_UNIT_NAMES.get(u := m.group("u").lower(), u) for m in _STATED_UNIT.finditer(text)}
    if not stated:  # ("bills monthly": only how often)
        return (not _HOW_OFTEN.search(text) or bool(_COUNTED_TIMES.search(text))
                or bool(_STATES_TIME.search(_HOW_OFTEN.sub(" ", text))))
    other = _LONG if asked in _SHORT else _SHORT if asked in _LONG else set()
    return not stated <= other


def states_service(text: str) -> bool:
    """The text speaks of serving, a term, a tenure or a rotation: where a length of service is stated."""
    return bool(_STATES_SERVICE.search(text))


def asks_salary(text: str) -> bool:
    """The part asks an amount of pay ("What's the maximum salary at GSA?"; SALARY_ASKED): a quantity."""
    return SALARY_ASKED and bool(_ASKS_SALARY.search(text))


@functools.lru_cache(maxsize=256)  # read per candidate sentence and part, like `asked_value`
def asks_date(text: str) -> bool:
    """The part asks in what year (or on what date) something happened."""
    return bool(_ASKS_DATE.search(text))


def states_year(text: str) -> bool:
    """The text names a year ("established in October 2017"; any number from 1900 to 2099 reads as one)."""
    return bool(YEAR.search(text))


def states_value(text: str, kind: str) -> bool:
    """The text states a value of that kind ("240 annual leave hours", "by Friday", "$7", "free")."""
    if _STATES[kind].search(text) or (kind in (DATE, WAIT) and _STATES_CLOCK.search(text)):  # "due by 10 a.m. ET"
        return True
    return kind in (DURATION, WAIT) and NUMBER_OF_UNIT and bool(_STATES_COUNTED.search(text))


def told_values_only(text: str, kind: str, told: str) -> bool:
    """Every value of that kind the text states is one the asker's own words say: "… as part of your weekly Tock"
    states no deadline for "what's the normal weekly deadline for Tocking?" (`kinds.TOLD_DATES`)."""
    found = [m.group(0).lower() for m in _STATES[kind].finditer(text)]
    if kind == DATE:
        found += [m.group(0).lower() for m in _STATES_CLOCK.finditer(text)]
    said = told.lower()
    return bool(found) and all(re.search(rf"(?<!\w){re.escape(f)}(?!\w)", said) for f in found)


__all__ = ["ASKS_CLOCK", "BEFORE_DEADLINE", "CLOCK", "DATE", "DURATION", "FREQUENCY", "HOURS", "PRICE", "WAIT",
           "YEAR", "asked_unit", "asked_value", "asks_date", "asks_salary", "fits_scale", "measured_subject",
           "priced_words", "span_subject", "states_value", "states_year", "told_values_only"]

"""A question's parts as the asker typed them: "Where do I request it, how much notice should I give, and how do I
account for that time in Tock?" asks three things. What is told around the asking parts (a statement before them, a
condition or a label that opens them) is every part's context, not a part (`question.analyze` reads each part)."""

from __future__ import annotations

import re

from ..sentences import asked_sentences, asking_sentence, told_statements
from ..stems import content_words

CLAUSE_LEAD = re.compile(r"^(?:(?:and|but|so|also|or)\s+|"
                          r"(?:as|if|once|when|since|because|while|after|before)\b[^,]*,\s*|"
                          r"[^,?]{0,60},\s*(?=(?:can|could|may|am|is|are|do|does|should|will|would|must)\b))", re.I)
# Multi-part splits: "A, and B?", "A? B?", "A; B", ", who …", ", what …", "and what/how/when/who …", and ", and if C
# B?" (or ", but if", ", and once").
PART_SPLIT = re.compile(
    r"(?:\?\s+|;\s+|,\s*(?:and|but)\s+(?=(?:if|once)\b)|"
    r",\s*(?:and|also|plus|or)\s+(?=(?:(?:at|in|on|for|to|from|with|under|after|before|by|until|till|during)\s+"
    r"(?:what|which|whom|whose|how)\s|who|what|when|where|why|how|which|is|are|does|do|can|should|"
    r"will|would|whose|by when)\b)|\s+and\s+(?=(?:who|what|when|where|why|how|which|whose|by when)\b)|"
    r",\s*(?=(?:who|what|when|where|why|how|which|whose|by when)\b))", re.I)


IF_GOES_ON = True


def split_parts(question: str) -> list[str]:
    """'Where do I request it, how much notice should I give, and how do I …?' → three parts."""
    q = question.strip()
    parts = [p.strip(" ,.") for p in PART_SPLIT.split(q) if p and p.strip(" ,.")]
    parts = [last_sentence(p) for p in parts if re.search(r"[A-Za-z]{2}", p)]
    if LABELLED_PARTS and parts and not asks(parts[0]) and (m := _label(parts[0])) and asks(parts[0][m.end():]):
        # "Heading to the NYC office for the first time - what floor are we on, and until what time …?": the label
        # is every part's context (`context_of`), the first part is after it
        parts[0] = parts[0][m.end():]
    # "On the days I'm flying, how much …": a leading condition is context for the part after it, not a part.
    # a when-clause with its own subject sets the case of the part after it ("…, and when the deploy fails, who
    # rolls it back"); the one that opens the question is every part's context (see context_of)
    joined: list[str] = []
    for k, p in enumerate(parts):
        if k > 1 and subordinate(parts[k - 1]) and joined[-1] == parts[k - 1]:  # a bare clause before it
            joined[-1] = f"{joined[-1]}, {p}"
        elif joined and re.match(r"(?i)if\b", p) and not asks(p):
            if IF_GOES_ON and k + 1 < len(parts) and asks(parts[k + 1]):
                # ", and if it's been a while and nothing has shown up, who should I email?": the case of the part
                # after it, which was split from it at the comma
                parts[k + 1] = f"{p}, {parts[k + 1]}"
                continue
            joined[-1] = f"{joined[-1]}, and {p}"  # ", and if my supervisor is out who …": no question we can
            # read apart; it stays with the part before it
        else:
            joined.append(p)
    parts = joined
    asking = [p for p in parts if asks(p) and not (subordinate(p) and "," not in p)]
    if len(asking) < 2:
        return []
    from ..planner import with_subject  # "what should I check first" takes the earlier part's condition or subject

    asking = [p.rstrip("?").strip() for p in asking]
    return [asking[0], *(with_subject(p, asking[i]) for i, p in enumerate(asking[1:]))]


def alternatives(asking: str) -> list[str]:
    """'Can I work from outside the U.S. while on vacation, or long-term because my spouse is posted overseas?' asks
    about two cases: ['Can I work from outside the U.S. while on vacation', 'long-term because my spouse is posted
    overseas']. Only a ', or' between two clauses of at least two content words each splits ('Slack or email' does
    not)."""
    sides = [x.strip(" ,?") for x in re.split(r",\s*or\s+", asking.strip()) if x.strip(" ,?")]
    if len(sides) != 2 or any(len(content_words(x)) < 2 for x in sides):
        return []
    return sides


def asks(part: str) -> bool:
    """The part asks: it opens with a question word once a leading clause is set aside ("If I leave, what …"), or
    asks after telling ("one of my trainings isn't even showing up, so how do I contact OLU support")."""
    return bool(ASKS.match(CLAUSE_LEAD.sub("", part)) or _ASKS_AFTER_TELLING.search(part))


_AUX = r"(?:do|does|did|can|could|should|would|will|is|are|was|were|am|must|may|shall)"
_ASKS_AFTER_TELLING = re.compile(rf",\s*(?:so|and|but|then)\s+(?=(?:who|what|when|where|why|how|which)\s+{_AUX}\b|"
                                 rf"{_AUX}\s+(?:i|we|you|they|it|he|she)\b|"
                                 # "who" and its verb: "maybe a dumb question, but who approves a hotfix"
                                 r"who\s+(?!(?:i|we|you|they|he|she|it|me|us|them)\b)[a-z]+s\b)", re.I)
# ("Until when can I incur expenses …, and will my FSA roll over?", "… and at what point do we need PRA approval?":
# a preposition before the question word)
ASKS = re.compile(r"(?i)^(who|whom|whose|what|when|where|why|how|which|(?:by|until|till|since|from) when|"
                   r"(?:at|in|on|for|to|from|with|under|after|before|by|until|till|during)\s+"
                   r"(?:what|which|whom|whose|how)|can|could|"
                   r"may|might|am|is|are|was|were|do|does|did|should|shall|will|would|must|have|has|had)\b")


# "When I land a pull request by hand, which lines …": a when/where clause with its own subject sets the case of
# the question after it; it asks nothing ("When should it …" asks).
SUBORDINATE = re.compile(r"(?i)^(?:when|where|whenever|wherever)\s+(?:i|we|you|they|he|she|it|my|our|your|their|"
                          r"the|a|an|this|that|these|those|someone|somebody|people)\b")
# … and one whose subject is a name ("when 18F opens up a leadership spot, what's the shortest the nomination window
# is allowed to be?" was read as two parts, the first answered with 18F's meeting times): a capitalised word or one
# with a digit, then up to three more capitalised words, then a lower-case word, its verb (NAMED_WHEN). "When Is …",
# "When Am …" and "When Exactly is …" still ask, and so does a clause holding an asking word of its own ("when 2FA fails
# what do I do").
NAMED_WHEN = True
_NAMED_WHEN = re.compile(r"^(?i:when|where|whenever|wherever)\s+(?!(?i:is|are|am|was|were|do|does|did|can|could|"
                         r"should|would|will|must|may|might|shall|has|have|had)\b)(?![A-Za-z]+ly\b)"
                         r"(?:[A-Z][\w&'’-]*|\d+[A-Za-z][\w-]*)(?:\s+[A-Z][\w&'’-]*){0,3}\s+[a-z]")
_ASKING_WORD = re.compile(r"(?i)\b(?:who|whom|whose|what|which|how|why|where|when)\b")


def subordinate(part: str) -> bool:
    """A when/where clause with its own subject: it sets the case of the question after it and asks nothing."""
    if SUBORDINATE.match(part):
        return True
    return bool(NAMED_WHEN and _NAMED_WHEN.match(part) and not _ASKING_WORD.search(part.split(None, 1)[1]))


def last_sentence(part: str) -> str:
    """'I'm taking a week off. Where do I request it' → 'Where do I request it' (the statement is context). A
    condition written without its comma gets one: 'if it does get archived do we need …' → 'if it does get archived,
    do we need …', so the part reads as the yes/no question it is."""
    pieces = asked_sentences(part)
    last = pieces[-1].strip(" ,.") if pieces else part
    if LABELLED_PARTS and (m := _label(last)) and asks(last[m.end():]) and not asks(m.group("label")):
        last = last[m.end():]  # "Two HR Links questions: where do I see …" asks "where do I see …"
    return _BARE_CONDITION.sub(r"\1, \2", last)


# A label before the asking ("Two HR Links questions: where do I see …, and where can I check …?", "Quick one: how
# do I …"): the parts are after it, and what it names ("HR Links") is the context of every part.
LABELLED_PARTS = True
_LABEL = re.compile(r"^(?P<label>[^:?.!]{2,60}):\s+")
# … or a dash with a space each side ("Writing my travel approval email to my AO — what's the subject line supposed to
# look like and how do I state the cost?" was read as one part opening on the label, and answered neither;
# DASH_LABELS; a colon's label may hold a dash of its own, "FY2024–2025 open season: where …")
DASH_LABELS = True
# (a spaced hyphen is a typed dash when a question opens after it: "Heading to the NYC office for the first time - what
# floor are we on …"; not a range, "My hours are 9 - 5:30, can I flex them?", "Flying out Monday - Thursday, …")
_DASH_LABEL = re.compile(r"^(?P<label>[^:?.!]{2,60}?)\s(?:[—–]|-(?=\s+(?:who|whom|whose|what|when|where|why|how|which|"
                         r"can|could|do|does|did|is|are|am|should|will|would|may|must|until|till)\b))\s+", re.I)
_CHATTER = frozenset("""quick q question questions note heads sorry dumb silly ok okay fyi re hey hi hello thanks
two three couple things thing one follow followup follow-up random newbie""".split())


def _label(text: str) -> re.Match | None:
    """The label before the asking: up to a colon, or else up to a spaced dash (DASH_LABELS)."""
    return _LABEL.match(text) or (_DASH_LABEL.match(text) if DASH_LABELS else None)


# "if it does get archived do we need …", "if so do we …": a condition, then the question's auxiliary and its
# subject ("if I do it myself do I need …": "do it" is the condition's verb, "to do we" no question).
# The condition has a subject of its own ("When should it …" asks, it sets no case).
_BARE_CONDITION = re.compile(r"(?i)^((?:if|once|when)\s+(?:so|not|i|we|you|they|he|she|it|my|our|your|their|the|a|"
                             r"an|this|that|these|those|someone|people)\b[^,]*?)(?<!\bto)\s+((?:do|does|did)\s+"
                             r"(?:i|we|you|they|he|she)|(?:can|could|should|will|would|is|are|am|must|may|shall)\s+"
                             r"(?:i|we|you|they|it|he|she))\b")


def context_of(question: str) -> str:
    """Statements around the asking parts ("I'm taking a week and a half of vacation next month."), and whatever
    opens the asking sentence before its first asking part: a condition ("When we ship a hotfix, who approves it and
    …", "On the days I'm flying, how much …"), a lead ("Please tell me who approves …") or a story told before
    it asks ("My laptop died, so who do I contact")."""
    statements = told_statements(question)
    asking = asking_sentence(question)
    opening = PART_SPLIT.split(asking)[0].strip(" ,")
    first = last_sentence(opening)  # a statement before it is one of the above
    label = _label(asked_sentences(opening)[-1] if asked_sentences(opening) else opening)
    if (LABELLED_PARTS and label and first != opening and not asks(label.group("label"))
            and set(content_words(label.group("label"))) - _CHATTER):  # "Quick q:" names nothing
        statements.append(label.group("label"))
    if subordinate(first) or (first and not asks(first)
                              and first != asking.strip(" ,")):
        statements.append(first)
    elif not ASKS.match(CLAUSE_LEAD.sub("", first)) and (told := _ASKS_AFTER_TELLING.search(first)):
        statements.append(first[:told.start()])  # "My laptop died, so who do I contact": the story is everyone's
    return " ".join(statements)


# A lead naming the asking itself ("Random trivia question from a new hire: why is it called 18F?", "Dumb question from
# a newbie — is TTS Consulting paid for …?"), when a question of its own follows: the lead says how the question is
# asked, and its "new hire" is no part of what is asked. Only words of manner may stand before "question", and only a
# newcomer after "from": a lead naming a topic ("Parental leave question: …", "Two HR Links questions: …") or a role
# ("Question from a contractor: …") says what is asked, and is left alone.
ASKING_LEAD = True
_MANNER = ("quick|dumb|silly|stupid|random|trivia|newbie|noob|beginner|rookie|basic|naive|simple|small|odd|weird|"
           "general|another|one|more|last|final|follow-up|possibly|probably|maybe|a|an")
_NEWCOMER = r"from\s+(?:a|an|the|your)\s+(?:new\s+\w+|newbie|noob|beginner|rookie|newcomer)"
_ASKING_LEAD = re.compile(rf"^\W*(?:(?:{_MANNER})\s+){{0,4}}(?:question|q)(?:\s+{_NEWCOMER})?\s*(?:[:：—–.]|-(?=\s))\s*"
                          r"(?P<rest>.+)$", re.I | re.S)
LEAD_REST_WORDS = 2  # the content words the question after the lead needs of its own
# … or a lead naming what the answer is wanted for, a piece of trivia and its occasion ("trivia for team coffee: what
# year did the first Consumer Information Catalog come out?" was refused for "trivia"): the occasion is no topic. Only
# trivia or a fun fact: a question for someone ("Question for the Chicago folks: …") names whom it is asked of, and
# that may scope it (PURPOSE_LEADS).
PURPOSE_LEADS = True
_LEANS = re.compile(r"\b(?:it|its|they|them|their|there|this|that|these|those)\b", re.I)
_PURPOSE_LEAD = re.compile(r"^\W*(?:(?:a|an|some|random|quick|fun)\s+)?(?:trivia|fun\s+fact)(?:\s+(?:question|q))?"
                           r"\s+for\s+(?:[\w'’-]+\s+){0,4}?[\w'’-]+\s*(?:[:：—–]|-(?=\s))\s*(?P<rest>.+)$", re.I | re.S)


def without_lead(question: str) -> str:
    """The question after a lead naming the asking ("Random trivia question from a new hire: why is it called 18F?"
    → "why is it called 18F?"): the lead's "new hire" is no part of what is asked (ASKING_LEAD)."""
    m = _ASKING_LEAD.match(question.strip()) if ASKING_LEAD else None
    if m is None and PURPOSE_LEADS and (m := _PURPOSE_LEAD.match(question.strip())) and _LEANS.search(m.group("rest")):
        m = None  # "Trivia for the Chicago office: what year did it open?": "it" is what the lead names
    return m.group("rest") if m and len(content_words(m.group("rest"))) >= LEAD_REST_WORDS else question

"""How the asker talks, not what they ask about: words a question is worded with that name no topic, so their
absence from every passage refuses nothing (`answerability.missing_words`). (A lead naming the asking, "Dumb question
from a newbie: …", is dropped before the question is read at all: `parts.without_lead`.)

- The register a term is asked in ("In TTSC lingo, is an 'engagement' the same thing as a 'project'?"): the pages
  define the terms, they never call themselves lingo (REGISTER_WORDS).
- How exact the answer need be ("Ballpark, how long …?": APPROXIMATION).
- How a thing looks to the asker, in a hyphenated adjective ("a sketchy-looking email"): a judgement, not a kind of
  email (LOOKS).
"""

from __future__ import annotations

import re

from .topic import JUDGEMENTS
from .wordforms import describes

REGISTER_WORDS = True
# ("In TTSC lingo, …", "Using 18F parlance, …", "In TTSC-speak, …"; not "In the terminology guide" nor "In meetings can
# I speak …": the word must close the phrase, after a name or a determiner)
_REGISTER = re.compile(r"\b(?:in|using|by)\s+(?:(?:the|our|their|your|its)\s+)?(?:[\w.'’]+\s+){0,2}"
                       r"(?P<word>lingo|parlance|jargon)\b|(?P<speak>\b[\w.]+-speak)\b", re.I)

# How exact the answer need be ("Ballpark, how long does a brand-new TS/SCI clearance take to come through?"): the
# pages give their figures, they never call them a ballpark (APPROXIMATION)
APPROXIMATION = True
_APPROXIMATE = re.compile(r"\b(?:ballpark|guesstimate)\b", re.I)

LOOKS = True
_LOOKS = re.compile(r"^(?P<first>[a-z]+)-(?:looking|sounding|seeming)$", re.I)


def chatter(question: str) -> set[str]:
    """The question's lower-case words that only say how it is asked (see the module's docstring); a word judging
    what the asker does (`topic.JUDGEMENTS`: "sketchy") counts as describing in a hyphenated look."""
    found: set[str] = set()
    if REGISTER_WORDS:
        found |= {(m.group("word") or m.group("speak")).lower() for m in _REGISTER.finditer(question)}
    if APPROXIMATION:
        found |= {m.group(0).lower() for m in _APPROXIMATE.finditer(question)}
    if LOOKS:
        for word in re.findall(r"[A-Za-z]+-[A-Za-z]+", question):
            if (m := _LOOKS.match(word)) and (describes(m.group("first")) or m.group("first").lower() in JUDGEMENTS):
                found.add(word.lower())
    return found

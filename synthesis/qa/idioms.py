"""Idioms an asker uses for what the pages say plainly: "Who gives the final OK on that?" asks who approves, "Who gets
to make that call?" who decides, "pull the plug on an engagement" to end it. MiniLM reads "the final OK" far from
"approval by the TTS Director of Operations" and "make that call" far from "Who makes the decision?", so the reader
reads the question with the plain word in place of the idiom (`plain`); what the asker wrote is kept everywhere else.
"""

from __future__ import annotations

import re

IDIOMS = True
# (each only where the idiom cannot be read literally: an OK that is given or needed, a call someone gets to make or
# makes about something, a plug pulled on something; "make the call to IT" phones)
_READINGS = (
    (re.compile(r"\b(?P<verb>gives?|giving|gave|get|gets|getting|got|need|needs|needed|grants?|signs?)\s+"
                r"(?P<det>(?:the|an?|my|your|their|our)\s+)?(?P<adj>(?:final|official|formal)\s+)?"
                r"(?:ok|okay|go-?ahead|green\s+light|thumbs[\s-]up)\b"
                # (an OK or a thumbs up given on something, asked of someone or ending the clause: not "an OK
                # rating", "give a thumbs up to acknowledge an announcement")
                r"(?=\s+(?:on|for|from)\b|\s*[?.,;!]|\s*$)", re.I),
     lambda m: f"{m.group('verb')} {m.group('det') or ''}{m.group('adj') or ''}approval"),
    # … and OK as a verb: "who needs to OK that" asks who approves it
    (re.compile(r"\b(?P<before>to|must|will|should|can|could|would|may)\s+(?:ok|okay)\s+(?=(?:that|this|it|them|my|"
                r"the|a|an|his|her|their|our|your)\b)", re.I),
     lambda m: f"{m.group('before')} approve "),
    (re.compile(r"\b(?P<verb>make|makes|making|made)\s+(?P<det>that|the|this|the final|that final)\s+call\b"
                # (the call ends the clause, or is about something: "make the call on Zoom", "make the call before 5pm"
                # phone)
                r"(?=\s*[?.,;!]|\s*$|\s+(?:on|about)\s+(?:whether|if|what|which|how|this|that|it)\b)", re.I),
     lambda m: f"{m.group('verb')} {m.group('det')} decision"),
    (re.compile(r"\b(?P<verb>pull|pulls|pulling|pulled)\s+the\s+plug\s+on\s+(?=(?:the|a|an|our|my|this|that|their|"
                r"your)\s+(?:[\w-]+\s+){0,2}?(?:project|engagement|work|contract|effort|initiative|pilot|program|"
                r"partnership|plan|idea)s?\b)", re.I),
     lambda m: {"pull": "end ", "pulls": "ends ", "pulling": "ending ", "pulled": "ended "}[m.group("verb").lower()]),
)


# "does the approach differ if the person is brand new versus someone who's been on the team a long time?" is about a
# new person: its "brand" put "brand management means presenting our organization consistently …" first (BRAND_NEW)
BRAND_NEW = True
_BRAND_NEW = re.compile(r"\bbrand[\s-]+(?=new\b)", re.I)
# "Two people … both want to be project lead. Who has the final say?" asks who decides: "The final decision is made by
# the staffing team." (the final say, the last word, the final word someone has or gets; not "have a say")
FINAL_SAY = True
_FINAL_SAY = re.compile(r"\b(?P<verb>has|have|having|had|gets?|getting|got)\s+(?P<det>the\s+)?(?:final\s+say|"
                        # (a word of a text is no say: "the last word in the email", "the final word count")
                        r"(?:final|last)\s+word(?!\s+(?:count|out|of|in)\b))\b", re.I)


def plain(question: str) -> str:
    """The question with each idiom above in its plain words ("Who gives the final OK on that?" → "Who gives the final
    approval on that?")."""
    if not IDIOMS:
        return question
    for pattern, reading in _READINGS:
        question = pattern.sub(reading, question)
    if BRAND_NEW:
        question = _BRAND_NEW.sub("", question)
    if FINAL_SAY:
        question = _FINAL_SAY.sub(lambda m: f"{m.group('verb')} {m.group('det') or 'the '}final decision", question)
    return question

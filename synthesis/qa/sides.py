"""Which lines name a side of a comparison: by a number or a letter that tells the sides apart ("Tier 1", "Schedule
A(r)"), or by the side's own words ("the Direct Hiring Authority"). `selection.pick_answers` answers a side only with
lines that name it."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..planner import main_noun_phrase
from ..stems import STOPWORDS, content_stems, content_words, stem
from . import topic
from .candidate import Candidate, last_heading
from .compared import bare_aspect
from .question import Frame, zipf
from .wordforms import lexicon

QUALIFIED = True  # a qualifier in brackets is part of a side's mark: "Schedule A(r)" is not "Schedule A(u)"


def numbered(side: str, others: list[str]) -> re.Pattern[str] | None:
    """A comparison side named by a number or a capital letter that no other side has ("Tier 1" against "Tier 2
    diagnostic tools", "Plan B", "a 401(k)"): that mark with the word before it (unless a stopword), as a pattern
    that finds them together ("Tier 1 -", "tier-1"; the letter's case kept); None for a side with no such mark."""
    words = re.findall(r"[A-Za-z0-9]+", side)
    theirs = {w.lower() for o in others for w in re.findall(r"[A-Za-z0-9]+", o)}
    for k, w in enumerate(words[:4]):
        letter = len(w) == 1 and w.isupper() and w != "I" and k > 0
        if (w.isdigit() or letter) and w.lower() not in theirs:
            before = words[k - 1] if k and words[k - 1].lower() not in STOPWORDS else ""
            mark = re.escape(w) if w.isdigit() else f"(?-i:{re.escape(w)})"
            head = rf"(?i:{re.escape(before)})\W*" if before else ""
            qualifier = re.search(rf"(?<![A-Za-z0-9]){re.escape(w)}\s*\((?P<q>[A-Za-z0-9]{{1,3}})\)", side)
            if QUALIFIED and qualifier:
                q = re.escape(qualifier.group("q"))
                mark += rf"\s*(?:\((?i:{q})\)|(?i:{q}))"
            return re.compile(rf"(?<![A-Za-z0-9]){head}{mark}(?![A-Za-z0-9])")
    return None


# A side of three words or more of its own (in its noun phrase) is named by a specific one of them (rarer than
# topic.SPECIFIC_ZIPF: "passcode"), by two of them in a line, by its initials, or by a heading holding all of them:
# "There are several different hiring paths" on a page titled "Hiring Authorities" does not name "the Direct Hiring
# Authority"; "The DHA is a … hiring authority" does. A side no line names so is named by any of its words.
SIDE_WORDS = True
PRO_FORMS = frozenset("one ones".split())


@dataclass(frozen=True)
class SideName:
    """What names a comparison side in a line (see SIDE_WORDS)."""

    own: set[str]  # the side's own stems (none of another side's)
    naming: set[str]  # … those of its noun phrase that name something
    specific: set[str]  # … those rare enough to name it alone
    initials: re.Pattern[str] | None  # "DHA" of "the Direct Hiring Authority"

    @classmethod
    def of(cls, side: str, own: set[str]) -> "SideName":
        # only the words of the side's noun phrase name it: not "kinds of questions go to" before "TTS Ops", nor a
        # pro-form or an adverb ("one where I already clicked the link")
        phrase = main_noun_phrase(side)
        words = [w for w in content_words(phrase) if stem(w) in own
                 and w.lower() not in PRO_FORMS and set(lexicon(w)) != {"ADV"}]
        letters = "".join(w[0] for w in re.findall(r"[A-Za-z][\w'-]*", phrase)
                          if w[0].isupper() and w.lower() not in STOPWORDS)
        return cls(own=own, naming={stem(w) for w in words},
                   specific={stem(w) for w in words if zipf(w) < topic.SPECIFIC_ZIPF},
                   initials=re.compile(rf"(?<![\w-]){letters}s?(?![\w-])") if len(letters) >= 2 else None)

    def strictly(self, text: str, heading: str) -> bool:
        """The line names the side by the rule above (by any of its words when it has fewer than three)."""
        if not SIDE_WORDS or len(self.naming) < 3:
            return self.loosely(text, heading)
        shared = self.naming & content_stems(text)
        return (len(shared) >= 2 or bool(shared & self.specific) or self.naming <= content_stems(heading)
                or (self.initials is not None and bool(self.initials.search(f"{text} {heading}"))))

    def loosely(self, text: str, heading: str) -> bool:
        """The line or its heading uses any of the side's own words."""
        return bool(self.own & content_stems(f"{text} {heading}"))


# Sides told apart only by a common word ("variable day" and "variable week"): a line names one only with all the
# words of its phrase ("Variable Day" heads its section; "you may work fewer than 10 days" names no schedule).
COMMON_SIDES = True


def told_apart_by_common(side: str, own: set[str]) -> bool:
    """The side's own words (none of another side's) are all common English words."""
    words = [w for w in content_words(side) if stem(w) in own]
    return COMMON_SIDES and bool(words) and all(zipf(w) >= topic.SPECIFIC_ZIPF for w in words)


# A side that another names by a pro-form ("leaving a private one") is named by the words the pro-form leaves
PRO_FORM_SIDES = True


def _before_pro_form(side: str) -> int:
    """How many modifiers (adjectives or nouns, no verb: "creating one" has none) stand right before the pro-form
    "one(s)" after a determiner ("a private one" → 1, "the old ones" → 1); 0 without one."""
    words = re.findall(r"[A-Za-z][\w'-]*", side)
    for k, w in enumerate(words):
        if w.lower() not in PRO_FORMS or not k:
            continue
        n = 0
        while n < k and (x := words[k - 1 - n]).lower() not in STOPWORDS and x.lower() not in PRO_FORMS and (
                (tags := set(lexicon(x))) and tags <= {"ADJ", "NOUN"}):
            n += 1
        if n and k - 1 - n >= 0 and words[k - 1 - n].lower() in topic.DETERMINERS:
            return n
    return 0


def names_whole(side: str, text: str, heading: str, others: list[str]) -> bool:
    """The line or its heading uses the content words of the side's noun phrase in a row ("Variable Day"; not
    "Same as Variable Week, but … fewer than 10 days"), without the head noun every side ends in ("schedule" of
    "a variable day schedule" against "a variable week schedule")."""
    phrase = [stem(w) for w in content_words(main_noun_phrase(side))]
    theirs = [content_stems(o) for o in others]
    if PRO_FORM_SIDES and others and len(phrase) > 1:
        # "a public Slack channel" against "a private one": the pro-form stands for the head ("Slack channel"), and
        # only the words it leaves ("public" against "private") tell the sides apart
        kept = [_before_pro_form(o) for o in others]
        if all(kept):
            phrase = phrase[:min(max(kept), len(phrase) - 1)]
    while len(phrase) > 1 and theirs and all(phrase[-1] in t for t in theirs):
        phrase.pop()
    if not phrase:
        return False
    for line in (text, heading):
        stems = [stem(w) for w in content_words(line)]
        if any(stems[k:k + len(phrase)] == phrase for k in range(len(stems) - len(phrase) + 1)):
            return True
    return False


# A line on a page titled by a side's name names it ("New York City > Access the building after hours > Building
# hours are 6am - 7pm." answers "the New York office"), when the title names no other side (a page "Comp time and
# credit hours" names both in every line, and so neither)
TITLE_NAMES = True


def titled_by(c: Candidate, others: list[set[str]]) -> str:
    """The title of `c`'s page when it names a side (TITLE_NAMES): it is no heading of the line's own, and it uses
    none of the other sides' own words; else ''."""
    title = c.passage.title.strip()
    if not TITLE_NAMES or not title or title == last_heading(c) or any(o & content_stems(title) for o in others):
        return ""
    return title


def named_over(c: Candidate, others: list[set[str]]) -> str:
    """The headings a line is named by: its innermost, and its page's title (`titled_by`)."""
    return f"{last_heading(c)} {titled_by(c, others)}".strip()


# What a framed comparison asks of every side: its lines under a heading naming all of that lead (see
# `selection.pick_answers`)
FRAME_CASE = True


def split_stems(text: str) -> set[str]:
    """Content stems with hyphenated words split too ("after-hours" → "hour")."""
    return content_stems(text.replace("-", " "))


def frame_case(frame: Frame) -> set[str]:
    """What a framed comparison asks of every side ("after-hours access work at" → access, hour): the stems of a
    frame that asks nothing itself (hyphenated words split) that no side has; none for a frame telling a case and
    asking in it ("If I'm invited to speak at a conference, what's the difference between doing it in my": every
    line of the page speaks of that)."""
    if not FRAME_CASE or not frame.comparison or not frame.side_frame or not bare_aspect(frame.side_frame):
        return set()
    sides = [p for p in frame.parts if p.side is not None]
    return split_stems(frame.side_frame) - set().union(*(split_stems(p.text) | p.own for p in sides))


__all__ = ["PRO_FORMS", "SideName", "frame_case", "named_over", "names_whole", "numbered", "split_stems", "titled_by",
           "told_apart_by_common"]

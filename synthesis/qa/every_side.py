"""Lines that answer every side of a comparison at once: one that sets the sides against each other ("Google Meet is
typically used for internal meetings, while Zoom …") or glosses each in brackets, and the one section that speaks
of every side in the case the question asks ("If I leave federal service, what happens to my annual leave versus my
sick leave …"). `selection.pick_answers` puts such a line first, and such a section's lines first for each side.
"""

from __future__ import annotations

import re

from ..stems import content_stems
from .candidate import Candidate
from .compared import DETERMINER
from .question import Frame
from .sides import SideName, names_whole, told_apart_by_common

CONTRAST_RATIO = 0.9  # a line contrasting the sides this close to each side's best answers the comparison
_CONTRAST = re.compile(r"\b(?:while|whereas|but|unlike|instead|however|rather than|compared (?:to|with)|on the "
                       r"other hand|in contrast)\b", re.I)


def side_parts(frame: Frame, exclude: set[int]) -> list[int]:
    """One part per side, its own (not the aspect asked of it: "expiring (comp time)"), in order."""
    seen: set[int] = set()
    parts = []
    for j, p in enumerate(frame.parts):
        if p.side is not None and p.side not in seen and j not in exclude:
            seen.add(p.side)
            parts.append(j)
    return parts


def own_words(frame: Frame, j: int, sides: list[int]) -> set[str]:
    """A side's own stems: none of another side's ("variable" is both "variable day"'s and "variable week"'s)."""
    return frame.parts[j].own - set().union(*(frame.parts[k].own for k in sides
                                              if frame.parts[k].side != frame.parts[j].side))


# … or that defines each side in brackets after its name ("Whether you are a Remote Worker (you always work from
# home) or a Routine Teleworker (onsite flexible: you go into an office two times or more per pay period)")
BRACKETED_SIDES = True


def defines_each(frame: Frame, sides: list[int], text: str) -> bool:
    """Each side's name (without its determiner) is followed by a bracketed gloss of three words or more in the text
    (not an acronym: "Comp time (CT) and credit hours (CH) are both recorded …" glosses nothing)."""
    names = [re.escape(DETERMINER.sub("", frame.parts[j].text.strip())) for j in sides]
    return BRACKETED_SIDES and all(re.search(rf"(?i)\b{name}\s*\(\s*[^()\s]+(?:\s+[^()\s]+){{2,}}[^()]*\)", text)
                                   for name in names)


# Sides asked in one frame ("If I leave federal service, what happens to my annual leave versus my sick leave versus
# my award leave?") are answered from the one section that speaks of every side in that case ("Leaving TTS > Review
# your benefits": "Your Annual Leave will be paid out.", "Your Sick Leave will not be paid out; …", "… Award Leave
# … will not be paid out"), when each side's line there is at least SHARED_RATIO as relevant as that side's best
# anywhere: the sides' own sections say what each is in general, not in the frame's case (SHARED_SECTION).
SHARED_SECTION, SHARED_RATIO = True, 0.55


def shared_section(frame: Frame, candidates: list[Candidate], exclude: set[int]) -> tuple | None:
    """The section (document, section path; it may span chunks) whose lines name and answer every side of a framed
    comparison nearly as well as the best, or None (the best such section by its lines' total relevance)."""
    sides = side_parts(frame, exclude)
    if not SHARED_SECTION or not frame.comparison or not frame.side_frame or len(sides) < 2:
        return None
    scored = [c for c in candidates if c.scores]
    best = {j: max((c.scores[j] for c in scored), default=0.0) for j in sides}
    names = {j: SideName.of(frame.parts[j].text, own_words(frame, j, sides)) for j in sides}
    # … and speaks of the frame's case: half its words (not the sides') and two at least, "federal" and "service" of
    # "If I leave federal service, what happens to my" (a timesheet section naming HR Links and Tock, "record" and
    # "time", says nothing of being called for jury duty)
    case = content_stems(frame.side_frame) - set().union(*(frame.parts[j].own for j in sides))
    totals: dict[tuple, float] = {}
    for key in dict.fromkeys(section_of(c) for c in scored):
        lines = [c for c in scored if section_of(c) == key]
        said = set().union(*(c.stems | content_stems(c.lead_in) for c in lines)) | content_stems(key[1])
        if len(case & said) < min(2, len(case)) or 2 * len(case & said) < len(case):
            continue
        # (a line naming another side too, itself or by its lead-in, tells them apart in nothing: "… in your
        # professional or personal capacity:" is every side's lead-in, no side's answer)
        tops = [max((c.scores[j] for c in lines if names[j].loosely(f"{c.text} {c.lead_in}", "")
                     and not any(names[k].loosely(f"{c.text} {c.lead_in}", "") for k in sides if k != j)),
                    default=0.0)
                for j in sides]
        if all(t > 0 and t >= SHARED_RATIO * best[j] for t, j in zip(tops, sides)):
            totals[key] = sum(tops)
    return max(totals, key=totals.__getitem__, default=None)


def section_of(c: Candidate) -> tuple:
    """A line's document and section path: one section whatever chunks it spans."""
    return c.document, c.passage.section


def contrast_line(frame: Frame, candidates: list[Candidate], exclude: set[int]) -> Candidate | None:
    """In a comparison, the line that names every side and sets them against each other ("Google Meet is typically
    used for internal TTS/GSA meetings, while Zoom is often used for larger meetings …"), when it is nearly each
    side's best: it answers the question in one sentence, where a side's own lines answer half of it each."""
    sides = side_parts(frame, exclude)  # (an aspect asked of a side is no side of its own: "… when it comes to X")
    if not CONTRAST_RATIO or not frame.comparison or len(sides) < 2:
        return None
    best = {j: max((c.scores[j] for c in candidates if c.scores), default=0.0) for j in sides}
    owns = {j: own_words(frame, j, sides) for j in sides}
    common = {j for j in sides if told_apart_by_common(frame.parts[j].text, owns[j])}
    fits = [c for c in candidates if c.scores and (_CONTRAST.search(c.text) or defines_each(frame, sides, c.text))
            and all(owns[j] & c.stems and c.scores[j] >= CONTRAST_RATIO * best[j]
                    and (j not in common or names_whole(frame.parts[j].text, c.text, "",
                                                        [frame.parts[k].text for k in sides if k != j]))
                    for j in sides)]
    return max(fits, key=lambda c: min(c.scores[j] for j in sides), default=None)

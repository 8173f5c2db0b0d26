"""The candidate sentences of a context: what the reader scores and the summary quotes.

Each source's passage is cut into sentence units (`sentences.sentence_units`), the document's own bracketed
numbers protected from citation processing, pointers to other pages left out, a list item given the heading it
hangs off, a sentence naming its subject only as "this option" given the reference heading that names it; then the
lists a chunk boundary cut from their lead-in are read under it again and sentences pointing back are joined.
"""

from __future__ import annotations

import re

from ..citations import protect
from ..models import Passage, headings
from ..qa import Candidate
from ..qa.reader import field_line
from ..sentences import announces_next, lead_text, points_back, sentence_units
from .base import Context

MAX_SENTENCES_PER_SOURCE = 60  # long passages: the first sentences carry the section's point
MAX_CANDIDATES = 150  # sentences read per question (every one is embedded): the answer time is bounded by it
JOIN_WORDS = 40  # a sentence pointing back is joined to the one before it when that one is at most this long
POINTER = re.compile(r"^(see|read|refer to|more in|details in|back to)\b", re.I)
GENERIC_SECTIONS = {"", "overview", "introduction", "intro", "summary", "background", "notes", "general", "details"}


def candidates(context: Context) -> list[Candidate]:
    """Every source's sentences as candidates, best source first, up to MAX_CANDIDATES; a list whose lead-in
    closed the chunk before is read under it again, and a sentence pointing back is joined to the one before."""
    units: list[Candidate] = []
    for src in context.sources:  # best source first: a long context stops at the cap, not at its best sentences
        if len(units) >= MAX_CANDIDATES:
            break
        for pos, sentence in enumerate(sentence_units(src.passage.content)[:MAX_SENTENCES_PER_SOURCE]):
            text = protect(sentence.text)  # the document's own [4] never reads as our citation
            if POINTER.match(text) and len(text.split()) <= 8:
                continue  # "See Database migrations." points elsewhere; it answers nothing itself
            lead_in = protect(sentence.lead_in or (section_heading(src.passage) if sentence.listed else ""))
            subject = protect(subject_heading(text, src.passage))
            units.append(Candidate(text=text, source=src.number, position=pos, passage=src.passage,
                                   fragment=sentence.fragment, lead_in=lead_in, subject=subject, code=sentence.code,
                                   goes_on=sentence.goes_on, row=sentence.row, paragraph=sentence.paragraph,
                                   label=protect(sentence.label)))
    return _join_back(_rejoin_lists(units))


# "This option tells CTest to write …": the sentence names its subject only by its kind; the heading names it.
_THIS_KIND = re.compile(r"^(?:this|that|such an?)\s+(?:option|flag|switch|setting|variable|environment variable|"
                        r"command|subcommand|property|field|value|key|parameter|argument|directive|function|method|"
                        r"module|policy|preset|mode|generator|keyword|entry|member|config|configuration)\b", re.I)
# A heading that names one thing of a reference: an option, an identifier ("--output-junit <file>", "cmakeExecutable",
# "loglevel", "CMAKE_BUILD_TYPE"), not a prose heading ("Run Tests", "Description").
_IDENTIFIER = re.compile(r"^-|[_.()<>$=]|[a-z][A-Z]|^[A-Z0-9_]{2,}$|^[a-z][a-z0-9-]*$")


def subject_heading(text: str, p: Passage) -> str:
    """The innermost heading when `text` names its subject only as "this option", or is a short field line of it
    ("Default: 3" under "net.retry"), and the heading is an identifier."""
    heading = headings(p.section)[-1]
    if not heading or len(heading) > 60 or not (field_line(text) or _THIS_KIND.match(text)) or (
            heading.lower() in GENERIC_SECTIONS):
        return ""
    return heading if _IDENTIFIER.search(heading) else ""


def section_heading(p: Passage) -> str:
    """The passage's own heading when it says something (what a list at the top of a chunk hangs off)."""
    section = headings(p.section)[-1]
    return section if section.lower() not in GENERIC_SECTIONS else ""


REJOIN_LISTS = True


def _rejoin_lists(units: list[Candidate]) -> list[Candidate]:
    """A list whose lead-in closed the chunk before it ("… follow the steps and guidelines below." then, in the next
    chunk, "1. Make a local copy of the Outside Speaker Checklist."), read under that lead-in again when both chunks
    of the document (same collection, same version) are in the context: its opening items hang off the section
    heading, and the lead-in quoted alone says nothing."""
    if not REJOIN_LISTS:
        return units
    by_chunk: dict[tuple, list[Candidate]] = {}
    for u in units:
        by_chunk.setdefault((*u.document, u.passage.chunk_index), []).append(u)
    for (*doc, index), chunk in by_chunk.items():
        last = max(chunk, key=lambda u: u.position)
        nxt = sorted(by_chunk.get((*doc, index + 1), []), key=lambda u: u.position)
        announced = announces_next(last.passage.content)
        if not nxt or nxt[0].position != 0 or not announced or last.text != protect(announced):
            continue  # (the lead-in must be the passage's own last sentence, and the list must open the next chunk)
        opening = nxt[0].lead_in
        led: set[str] = set()  # the items re-led so far: an item nested under one of them stays under it
        for u in nxt:
            if u.fragment and u.lead_in in led:
                led.add(u.text)  # (and an item nested under that one)
                continue
            # an item under a label of its own ("Docker Hub", then "Smartsheet") keeps it, after the lead-in
            labelled = bool(u.label) and u.lead_in == u.label
            if not u.fragment or not u.lead_in or (u.lead_in != opening and not labelled) or u.code:
                break
            led.add(u.text)
            u.lead_in = f"{lead_text(last.text)}: {u.label}" if labelled else last.text
    return units


def _join_back(units: list[Candidate]) -> list[Candidate]:
    """A sentence that points back ("This request will require approval from your supervisor and the head of your
    division.", "It must be longer than 14 characters.") is one unit with the sentence just before it: read alone
    its subject is missing, so it neither scores for it nor makes sense quoted. Sentences of prose, or a list item's
    later sentence with the item's first ("Change the phone's passcode. It must be longer …"); never code; one join
    per unit, and only after a sentence of at most JOIN_WORDS words. Positions close up behind a
    join, so the unit after the pair is still the next one (a "why" answer reads on from a restated premise)."""
    joined: list[Candidate] = []
    closed: dict[int, int] = {}  # per passage: sentences folded into the one before them so far
    for u in units:
        prev = joined[-1] if joined else None
        key = id(u.passage)
        if (prev is not None and prev.passage is u.passage and prev.position == u.position - closed.get(key, 0) - 1
                and (u.goes_on or (not prev.fragment and not u.fragment))  # (a code line is listed: a fragment)
                and not prev.joined
                and len(prev.text.split()) <= JOIN_WORDS and points_back(u.text)):
            prev.text = f"{prev.text} {u.text}"
            prev.joined = True
            closed[key] = closed.get(key, 0) + 1
            continue
        u.position -= closed.get(key, 0)
        joined.append(u)
    return joined

"""A candidate sentence of the retrieved passages, and where it sits: its page's title and section path, its innermost
heading, and whether it is a setting's short "Label: value" line (the reader scores candidates; `selection` picks)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..models import SECTION_SEP, Passage, headings
from ..sentences import LABEL_LINE
from .question import Expect

FIELD_LINE_WORDS = 8  # a line stating it this short is a setting's field ("Default: 300000 (5 minutes)")


def heading(p: Passage) -> str:
    """Title and section path, without repeating the title ("Leave > Voting and poll volunteering")."""
    section = p.section.strip()
    title = p.title.strip()
    if title and section.lower().startswith(title.lower()):
        return section
    return SECTION_SEP.join(x for x in (title, section) if x)


@dataclass(eq=False)  # identity: two sentences with the same text in one passage are still two candidates
class Candidate:
    """One sentence that may answer, with where it came from and how well it answers each part."""

    text: str
    source: int
    position: int
    passage: Passage
    fragment: bool = False  # a list item or clause: quoted alone it loses what it hangs off
    lead_in: str = ""  # for a list item: the sentence ending in ':' (or the heading) it continues
    subject: str = ""  # the heading a sentence names only as "this option" (`--output-junit <file>`)
    code: bool = False  # a line of a code block
    row: bool = False  # a table row ("Cadence; Tock timesheet: Weekly; HR Links timesheet: Bi-weekly.")
    paragraph: int = -1  # the paragraph (or list item) it sits in, numbered within its passage; -1: a row or code
    goes_on: bool = False  # a list item's later sentence ("**Change the passcode.** It must be …"): see `_join_back`
    label: str = ""  # the label of a word or two a nested item reads under ("TTSC calendar"): sentences.LABEL_PARENTS
    step: bool = False  # an item of a numbered list
    joined: bool = False  # two sentences: the second points back at the first ("This request will require …")
    asked: bool = False  # it answers the question just before it in its paragraph (see `candidates._join_back`)
    vector: np.ndarray | None = None
    scores: list[float] = field(default_factory=list)  # relevance per part
    support: list[float] = field(default_factory=list)  # per part: cosine + 0.3·keyword overlap (answerability)
    plain: list[float] = field(default_factory=list)  # relevance per part without a field preference (answerability)
    heading_match: list[float] = field(default_factory=list)  # per part: cosine of its innermost heading
    outside: list[bool] = field(default_factory=list)  # per part: outside the place or unit the part names
    named_case: list[bool] = field(default_factory=list)  # per part: under a heading naming the case it asks of
    stems: set[str] = field(default_factory=set)
    dense: float = 0.0
    relevance: float = 0.0  # best over parts
    part: int = 0  # the part it answers best
    kinds: set[Expect] = field(default_factory=set)
    pinned: bool = False  # one side of a contradiction: always shown
    own_number: bool = False  # states the asker's own number or code (`SAME_QUANTITY`: "5 direct reports")

    @property
    def heading(self) -> str:
        return heading(self.passage)

    @property
    def document(self) -> tuple:
        """The document its passage is a chunk of: collection, id and version (two collections can hold a
        `docs/README.md` each; a re-ingest leaves a second version for a moment)."""
        meta = self.passage.metadata
        return meta.get("collection"), self.passage.doc_id, meta.get("doc_hash")

    def contextual(self, text: str | None = None) -> str:
        """The sentence (or `text`, its reading) under its heading: what the section-aware embedding sees."""
        h = self.heading
        lead = f"{self.lead_in.rstrip(':')}: " if self.lead_in and self.lead_in not in h else ""
        text = text or self.text
        return f"{h}: {lead}{text}" if h else f"{lead}{text}"


def field_line(text: str) -> bool:
    """A setting's short "Label: value" line ("Default: 3", "Type: integer"): it says nothing without its heading."""
    return bool(LABEL_LINE.match(text)) and len(text.split()) <= FIELD_LINE_WORDS


def last_heading(c: Candidate) -> str:
    """The innermost heading over a sentence (the page title when it has none)."""
    return headings(c.passage.section)[-1] or c.passage.title.strip()


def section_heading(c: Candidate) -> str:
    """The innermost section heading over a sentence, or '' when it has none but the page's title."""
    heading = last_heading(c)
    return "" if not c.passage.section or heading == c.passage.title.strip() else heading

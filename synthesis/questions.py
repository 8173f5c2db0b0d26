"""QUESTION.md parsing: numbered, headed and bulleted questions (nested lists too), with their metadata.

Accepted shapes, mixed freely in one file:

    1. How do we roll back a deploy?            numbered (`1.` or `1)`), continuation lines indented
    ## Question: Who approves a hotfix?         a heading that carries the question
    ### Question 3                              a heading, the question in the paragraph below it
    - What happens during a freeze?             bullets (`-`, `*`, `+`), nested lists included

Metadata on a question — `[tags: a, b]`, `#tag`, `(priority: high)`, `[P1]` — comes out as data and is stripped
from the text. Prose, titles, front matter, HTML comments and fenced code blocks are never questions: a list item
counts only when it reads as a question (it ends in `?` or starts with a question or request word).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from .errors import QuestionFileError
from .ingest.markup import front_matter
from .sentences import clean_markdown

EXAMPLES = """\
Write one question per item, in any of these forms:

  1. How quickly must a failed deploy be rolled back?
  2) Who approves a production hotfix? [tags: deploys, hotfix] (priority: high)

  ## Question: Are production deploys allowed on Fridays?

  ### Question 4
  How does the quarterly DR failover test work? #dr [P1]

  - What does the on-call secondary do?
    - And who pages them?

Metadata: [tags: a, b] or #tag, and (priority: high) or [P1]."""

_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_HEADED_INLINE = re.compile(r"^(?:question|q)\s*(?P<n>\d+)?\s*[:.)\-–—]\s*(?P<text>\S.*)$", re.I)
_HEADED_BARE = re.compile(r"^(?:question|q)\s*(?P<n>\d+)?\s*:?\s*$", re.I)
_ITEM = re.compile(r"^(?P<indent>\s*)(?:(?P<num>\d{1,4})[.)]|(?P<bullet>[-*+•]))\s+(?P<text>.*)$")
_COMMENT = re.compile(r"<!--.*?-->", re.S)

_TAGS_BLOCK = re.compile(r"\[\s*tags?\s*:\s*([^\]]*)\]", re.I)
_PRIORITY_PAREN = re.compile(r"[(\[]\s*priority\s*:\s*([A-Za-z0-9_-]+)\s*[)\]]", re.I)
_PRIORITY_SHORT = re.compile(r"\[\s*(P\d)\s*\]", re.I)
_HASHTAG = re.compile(r"(?:(?<=\s)|^)#([A-Za-z][\w-]*)\b")
_ASKING = re.compile(
    r"^(?:how|what|which|who|whom|whose|when|where|why|is|are|was|were|do|does|did|can|could|should|would|will|"
    r"has|have|had|may|must|shall|explain|describe|compare|list|summari[sz]e|outline|identify|find|determine|"
    r"assess|evaluate|tell me)\b", re.I)
_CHECKBOX = re.compile(r"^\[[ xX]\]\s+")


class Question(BaseModel):
    """One question of an inquiry: a stable id, the text without metadata, and the metadata as data."""

    id: str
    text: str
    metadata: dict[str, Any] = Field(default_factory=dict)


class QuestionSet(BaseModel):
    """A parsed QUESTION.md: the inquiry id (if the file names one), its title and the questions in order."""

    inquiry_id: str | None = None
    title: str = ""
    questions: list[Question] = Field(default_factory=list)


def extract_metadata(text: str) -> tuple[str, dict[str, Any]]:
    """Strip `[tags: a, b]`, `#tag`, `(priority: high)` and `[P1]` from `text`; return the text and the data.

    Example:
        >>> extract_metadata("Who approves a hotfix? [tags: deploys] #oncall [P1]")
        ('Who approves a hotfix?', {'tags': ['deploys', 'oncall'], 'priority': 'P1'})
    """
    tags: list[str] = []
    priority: str | None = None
    for m in _TAGS_BLOCK.finditer(text):
        tags += [t.strip().lstrip("#") for t in m.group(1).split(",") if t.strip()]
    text = _TAGS_BLOCK.sub(" ", text)
    if m := _PRIORITY_PAREN.search(text):
        priority = m.group(1).lower()
    text = _PRIORITY_PAREN.sub(" ", text)
    if m := _PRIORITY_SHORT.search(text):
        priority = priority or m.group(1).upper()
    text = _PRIORITY_SHORT.sub(" ", text)
    tags += _HASHTAG.findall(text)
    text = _HASHTAG.sub(" ", text)
    meta: dict[str, Any] = {}
    if tags:
        meta["tags"] = list(dict.fromkeys(tags))
    if priority:
        meta["priority"] = priority
    return " ".join(text.split()), meta


def reads_as_question(text: str) -> bool:
    """A question mark at the end, or a question/request word first."""
    text = text.strip().strip("*_ ").strip()
    return len(text) > 3 and (text.endswith("?") or bool(_ASKING.match(text)))


class _Draft:
    def __init__(self, text: str, *, line: int, form: str, indent: int = 0, number: int | None = None,
                 parent: int | None = None, needs_text: bool = False, heading_meta: dict | None = None) -> None:
        self.parts = [text] if text else []
        self.line, self.form, self.indent, self.number, self.parent = line, form, indent, number, parent
        self.needs_text = needs_text  # `### Question N`: the text is the next paragraph
        self.heading_meta = heading_meta or {}

    @property
    def text(self) -> str:
        return " ".join(" ".join(self.parts).split())


def parse_questions(markdown: str) -> QuestionSet:
    """Every question in a QUESTION.md, in file order (possibly none: `load_questions` reports that).

    Example:
        >>> [q.text for q in parse_questions("Intro.\\n\\n1. Who approves a hotfix?\\n").questions]
        ['Who approves a hotfix?']
    """
    meta, offset = front_matter(markdown)
    body = _COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), markdown[offset:])
    first_line = markdown[:offset].count("\n") + 1
    drafts: list[_Draft] = []
    open_item: _Draft | None = None  # the list item or headed question that continuation lines extend
    stack: list[tuple[int, int]] = []  # (indent, index in drafts) of the open list items, for nesting
    title = ""
    fence: str | None = None
    blank_run = 0
    for n, raw in enumerate(body.splitlines(), start=first_line):
        if fence is not None:
            if raw.strip().startswith(fence):
                fence = None
            continue
        if m := _FENCE.match(raw):
            fence, open_item = m.group(1)[:3], None
            continue
        if not raw.strip():
            blank_run += 1
            if open_item is not None and not open_item.needs_text and open_item.form == "headed":
                open_item = None  # a headed question's paragraph ends at a blank line
            continue
        if m := _HEADING.match(raw):
            blank_run, stack = 0, []
            text = m.group(2)
            if inline := _HEADED_INLINE.match(text):
                open_item = _Draft(inline.group("text"), line=n, form="headed",
                                   number=int(inline.group("n")) if inline.group("n") else None)
                drafts.append(open_item)
            elif bare := _HEADED_BARE.match(text):
                open_item = _Draft("", line=n, form="headed", needs_text=True,
                                   number=int(bare.group("n")) if bare.group("n") else None)
                drafts.append(open_item)
            else:
                open_item = None
                if not title and len(m.group(1)) == 1:
                    title = " ".join(text.split())
            continue
        if m := _ITEM.match(raw):
            indent = len(m.group("indent").expandtabs(4))
            text = _CHECKBOX.sub("", m.group("text"))
            if open_item is not None and open_item.needs_text:  # `### Question 2` then "1. text": take the text
                open_item.parts.append(text)
                open_item.needs_text = False
                blank_run = 0
                continue
            while stack and stack[-1][0] >= indent:
                stack.pop()
            parent = stack[-1][1] if stack else None
            open_item = _Draft(text, line=n, form="numbered" if m.group("num") else "bullet", indent=indent,
                               number=int(m.group("num")) if m.group("num") else None, parent=parent)
            drafts.append(open_item)
            stack.append((indent, len(drafts) - 1))
            blank_run = 0
            continue
        line = raw.strip()
        if open_item is not None and open_item.needs_text:
            open_item.parts.append(line)
            open_item.needs_text = False
        elif open_item is not None and open_item.form == "headed" and blank_run == 0:
            open_item.parts.append(line)
        elif open_item is not None and open_item.form != "headed" and (
                blank_run == 0 or len(raw) - len(raw.lstrip()) > open_item.indent):
            open_item.parts.append(line)  # a wrapped list item (indented, or straight below it)
        else:  # prose: it ends the open item; unindented prose also ends the list
            open_item = None
            if len(raw) == len(raw.lstrip()):
                stack = []
        blank_run = 0
    return QuestionSet(inquiry_id=_inquiry_id(meta), title=str(meta.get("title") or title),
                       questions=_finish(drafts))


def _finish(drafts: list[_Draft]) -> list[Question]:
    out: list[Question] = []
    ids: dict[int, str] = {}
    for i, d in enumerate(drafts):
        text, meta = extract_metadata(clean_markdown(d.text))
        if not text or not (d.form == "headed" or reads_as_question(text)):
            continue
        qid = f"Q{len(out) + 1}"
        ids[i] = qid
        meta = {**meta, "format": d.form, "line": d.line}
        if d.number is not None:
            meta["number"] = d.number
        if d.parent is not None and d.parent in ids:
            meta["parent"] = ids[d.parent]
        out.append(Question(id=qid, text=text, metadata=meta))
    return out


def _inquiry_id(meta: dict[str, Any]) -> str | None:
    for key in ("inquiry_id", "inquiry", "id"):
        if meta.get(key):
            return str(meta[key]).strip()
    return None


def load_questions(path: str | Path) -> QuestionSet:
    """Read and parse a QUESTION.md (a directory means its QUESTION.md); raises QuestionFileError with examples."""
    path = Path(path)
    if path.is_dir():
        path = path / "QUESTION.md"
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise QuestionFileError(f"cannot read {path} ({exc.strerror or exc}) — give the path of a QUESTION.md") from exc
    if b"\x00" in raw[:4096]:
        raise QuestionFileError(f"{path} is a binary file — give a Markdown QUESTION.md.\n\n{EXAMPLES}")
    try:
        parsed = parse_questions(raw.decode("utf-8", errors="replace").lstrip("\ufeff"))
    except ValueError as exc:  # front matter that is not a YAML mapping
        raise QuestionFileError(f"{path}: {exc} — fix or remove the front matter") from exc
    if not parsed.questions:
        raise QuestionFileError(f"no questions found in {path} — intros and headings are ignored.\n\n{EXAMPLES}")
    return parsed

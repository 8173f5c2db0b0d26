"""What loaders produce: a document's text, its paragraph blocks (character spans) and its citation metadata."""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from pydantic import BaseModel

# Bump when chunking or embedding-input rules change: every document hash changes, so the next ingest rewrites all.
CHUNKER_VERSION = "14"  # 2: Markdown is stored as rendered text (no link syntax, template tags or comments); 3: a
# paragraph ending in ":" starts the chunk of the list it introduces; 4: an HTML block in Markdown keeps its rows and
# block elements as paragraphs ("Office / Seats: TTS is located on …"); 5: reStructuredText is stored as rendered
# text (no roles, directives or title underlines; titles become section paths); 6: HTML's preformatted blocks are
# fenced like Markdown's code; 7: a MyST directive in Markdown ("```{note}") is rendered as prose, not code; 8: an
# HTML page with a <main> element is read from it alone (no site chrome); 9: nor from site chrome marked by class or
# id (a table of contents, navigation bars, sidebars, footers); 10: a paragraph ending in ":" also opens the first
# chunk of a list too long for one chunk; 11: {% slack_channel "#ops" %} is "#ops", not "##ops"; 12: a line break inside a
# Markdown table cell ("E.g.,<br><br>`outdated: true`") keeps the cell in its row; 13: a block of lines (a table, a
# list) split at a line's end starts its next piece at the next line, not inside the line before; 14: a chunk that
# opens on a table's rows keeps the header row an earlier chunk holds (metadata, and embedded with the rows)

_BLANK_LINE = re.compile(r"\n[ \t]*\n")


class SkippedFile(BaseModel):
    """A file (or one line of a JSONL file) that was not ingested, and why."""

    path: str
    reason: str


@dataclass(eq=False)
class Block:
    """A paragraph: `text[start:end]` of its document, under one section path."""

    start: int
    end: int
    section: str = ""
    embedding: np.ndarray | None = None  # a vector supplied by the input file (paragraph JSON), reused as is
    links: list[str] = field(default_factory=list)  # targets of the links whose text the block shows


@dataclass(eq=False)
class Document:
    """One citable document. `text` is what chunk offsets index into (see docs in synthesis/ingest/__init__.py)."""

    doc_id: str
    text: str
    title: str
    source_url: str
    source_file: str
    blocks: list[Block]
    tags: list[str] = field(default_factory=list)
    type: str = "doc"
    pack: bool = True  # False: every block is its own chunk (paragraph JSON keeps the exporter's units)
    author: str = ""  # who wrote it, where the page says so (`authors`)
    _hash: str | None = field(default=None, repr=False)

    @property
    def doc_hash(self) -> str:
        """Content + metadata + chunker version: any change that would change a stored chunk changes this."""
        if self._hash is None:
            h = hashlib.sha1()
            head = [CHUNKER_VERSION, self.doc_id, self.title, self.source_url, self.source_file, self.tags, self.type,
                    self.pack, [(b.start, b.end, b.section, b.embedding is not None, b.links) for b in self.blocks]]
            if self.author:  # (only then: the stored chunks of every page that names no author keep their ids)
                head.append(self.author)
            h.update(json.dumps(head, ensure_ascii=False).encode())
            h.update(b"\0")
            h.update(self.text.encode("utf-8", "surrogatepass"))
            for b in self.blocks:
                if b.embedding is not None:
                    h.update(np.ascontiguousarray(b.embedding, dtype=np.float32).tobytes())
            self._hash = h.hexdigest()
        return self._hash


def chunk_id(doc_id: str, doc_hash: str, index: int) -> str:
    """Deterministic, and different for every version of a document, so new chunks never overwrite old ones."""
    return hashlib.sha1(f"{doc_id}|{doc_hash}|{index}".encode()).hexdigest()


def display_path(path: Path) -> str:
    """The path relative to the current directory, or absolute when it lies outside it (used for doc ids)."""
    path = Path(os.path.abspath(path))
    try:
        return path.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return path.as_posix()


def paragraphs(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """Blank-line separated spans of `text[start:end]`, trimmed of surrounding whitespace."""
    end = len(text) if end is None else end
    spans: list[tuple[int, int]] = []
    pos = start
    for m in _BLANK_LINE.finditer(text, start, end):
        spans.append((pos, m.start()))
        pos = m.end()
    spans.append((pos, end))
    return [t for s, e in spans if (t := trim(text, s, e))[0] < t[1]]


def trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def as_tags(value) -> list[str]:
    """Front-matter tags as a clean list: accepts a YAML list or a comma-separated string."""
    if value is None:
        return []
    items = value.split(",") if isinstance(value, str) else value if isinstance(value, list | tuple) else [value]
    seen: dict[str, None] = {}
    for item in items:
        tag = str(item).strip()
        if tag:
            seen.setdefault(tag, None)
    return list(seen)

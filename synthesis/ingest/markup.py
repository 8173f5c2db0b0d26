"""Markdown and HTML: paragraph blocks under a heading path ("Deploys > Rollback")."""

from __future__ import annotations

import re
from typing import Any

import yaml

from .documents import Block, paragraphs, trim

_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?\n)?(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.S)
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_RULE = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_EMPHASIS = re.compile(r"[*_`]+")


class MarkdownError(ValueError):
    """Front matter that is not a YAML mapping."""


def front_matter(text: str) -> tuple[dict[str, Any], int]:
    """The YAML front matter (if any) and the offset where the body starts."""
    m = _FRONT_MATTER.match(text)
    if not m:
        return {}, 0
    try:
        data = yaml.safe_load(m.group(1) or "") or {}
    except yaml.YAMLError as exc:
        raise MarkdownError(f"front matter is not valid YAML ({str(exc).splitlines()[0]})") from exc
    if not isinstance(data, dict):
        raise MarkdownError("front matter is not a YAML mapping")
    return data, m.end()


def heading_text(raw: str) -> str:
    return _EMPHASIS.sub("", _LINK.sub(r"\1", raw)).strip()


class _Sections:
    """The heading stack: a new heading of level L closes every open heading of level >= L."""

    def __init__(self) -> None:
        self.stack: list[tuple[int, str]] = []
        self.first_h1 = ""

    def push(self, level: int, text: str) -> None:
        if level == 1 and not self.first_h1:
            self.first_h1 = text
        while self.stack and self.stack[-1][0] >= level:
            self.stack.pop()
        if text:
            self.stack.append((level, text))

    @property
    def path(self) -> str:
        return " > ".join(t for _, t in self.stack)


def parse_markdown(text: str) -> tuple[dict[str, Any], list[Block], str]:
    """(front matter, blocks, first H1). Offsets index the whole file text; headings become section paths."""
    meta, pos = front_matter(text)
    sections = _Sections()
    blocks: list[Block] = []
    para: list[int] = []  # [start, end] of the open paragraph
    para_lines = 0
    fence = ""

    def flush() -> None:
        nonlocal para, para_lines
        if para:
            s, e = trim(text, para[0], para[1])
            if s < e:
                blocks.append(Block(s, e, sections.path))
        para, para_lines = [], 0

    for line in text[pos:].splitlines(keepends=True):
        start, pos = pos, pos + len(line)
        body = line.rstrip("\r\n")
        end = start + len(body)
        if fence:  # inside a fenced code block: blank lines and '#' do not end it
            para[1] = end
            if body.strip().startswith(fence):
                fence = ""
            continue
        if m := _FENCE.match(body):
            if not para:
                para = [start, end]
            para[1] = end
            fence = m.group(1)[0] * 3
            continue
        if m := _ATX.match(body):
            flush()
            sections.push(len(m.group(1)), heading_text(m.group(2) or ""))
            continue
        if (m := _SETEXT.match(body)) and para_lines == 1:
            title = heading_text(text[para[0]:para[1]])
            para, para_lines = [], 0
            sections.push(1 if m.group(1)[0] == "=" else 2, title)
            continue
        if not body.strip() or _RULE.match(body):  # a thematic break (---, ***) separates like a blank line
            flush()
            continue
        if not para:
            para = [start, end]
        para[1] = end
        para_lines += 1
    flush()
    return meta, blocks, sections.first_h1


# --- HTML ----------------------------------------------------------------------------------------------
# Not content: code, styling, embedded objects, and site navigation (the same menu on every exported page).
_SKIP = {"script", "style", "noscript", "template", "svg", "head", "iframe", "object", "canvas", "button", "form", "nav"}
_HEADINGS = {f"h{i}": i for i in range(1, 7)}
_BLOCKS = {"p", "div", "section", "article", "main", "header", "footer", "aside", "ul", "ol", "li", "dl", "dt",
           "dd", "table", "thead", "tbody", "tr", "td", "th", "blockquote", "pre", "figure", "figcaption", "hr",
           "address", "details", "summary", "body", "html"}
_SPACES = re.compile(r"\s+")


def parse_html(html: str) -> tuple[str, str, list[Block]]:
    """(title, text, blocks): visible text with headings on their own lines, no markup; offsets index `text`."""
    from bs4 import BeautifulSoup, Comment, Declaration, Doctype, NavigableString, ProcessingInstruction

    soup = BeautifulSoup(html, "html.parser")
    title_tag = soup.find("title")
    title = _SPACES.sub(" ", title_tag.get_text()).strip() if title_tag else ""
    out: list[str] = []
    size = 0
    blocks: list[Block] = []
    sections = _Sections()
    buf: list[str] = []
    in_pre = 0

    def emit(piece: str, *, block: bool) -> None:
        nonlocal size
        if out:
            out.append("\n\n")
            size += 2
        if block:
            blocks.append(Block(size, size + len(piece), sections.path))
        out.append(piece)
        size += len(piece)

    def flush() -> None:
        raw = "".join(buf)
        buf.clear()
        piece = raw.strip("\n") if in_pre else _SPACES.sub(" ", raw).strip()
        if piece.strip():
            emit(piece, block=True)

    def walk(node) -> None:
        nonlocal in_pre
        for child in node.children:
            if isinstance(child, Comment | Doctype | Declaration | ProcessingInstruction):
                continue
            if isinstance(child, NavigableString):
                buf.append(str(child))
                continue
            name = child.name
            if name in _SKIP:
                continue
            if name in _HEADINGS:
                flush()
                text = _SPACES.sub(" ", child.get_text(" ")).strip()
                sections.push(_HEADINGS[name], text)
                if text:
                    emit(text, block=False)
            elif name == "br":
                buf.append("\n")
            elif name in _BLOCKS:
                flush()
                in_pre += name == "pre"
                walk(child)
                flush()
                in_pre -= name == "pre"
            else:
                walk(child)

    walk(soup)
    flush()
    return title or sections.first_h1, "".join(out), blocks


def text_blocks(text: str) -> list[Block]:
    return [Block(s, e) for s, e in paragraphs(text)]

"""Markdown and HTML as the text a reader sees, in paragraph blocks under a heading path ("Deploys > Rollback")."""

from __future__ import annotations

import re
from functools import lru_cache
from html import unescape
from typing import Any

import yaml

from ..models import SECTION_SEP
from .documents import Block, paragraphs, trim
from .templates import render_templates

_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?\n)?(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.S)
_SPACES = re.compile(r"\s+")


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
        return SECTION_SEP.join(t for _, t in self.stack)


@lru_cache(maxsize=1)
def _md():
    from markdown_it import MarkdownIt

    # CommonMark resolves reference-style links ([text][ref] + "[ref]: url") and escapes; tables are GFM.
    return MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])


_HREF = re.compile(r"""<a\s[^>]*?href\s*=\s*["']([^"']+)["']""", re.I)
_BREAK = re.compile(r"<br\s*/?>", re.I)
_HTML_TAG = re.compile(r"<[^>]*>")
_CELL_GAP = re.compile(r"</t[dh]>\s*<t[dh][^>]*>", re.I)
_BLOCK_END = re.compile(r"</(?:p|div|li|tr|table|thead|tbody|ul|ol|dl|dt|dd|h[1-6]|blockquote|section|figure|"
                        r"figcaption|details|summary|pre)>|<(?:p|div|li|tr|table|ul|ol|h[1-6]|hr)\b[^>]*>", re.I)
_PARAGRAPH = re.compile(r"\n\s*\n")
_PRE = re.compile(r"<pre\b", re.I)
_CELL = "\ue000"  # a cell boundary while a row is read (private use: not whitespace, never in text)
_BEFORE_PUNCT = re.compile(r"\s+([:;,.!?])(?=\s|$)")  # "<strong>Location</strong>: …" lost its tag to a space
# Link syntax CommonMark leaves as text (an escaped "\\[text](url)", a link split by a template): shown as its text.
_LEFTOVER_LINK = re.compile(r"!?\[([^\[\]\n]+)\]\(\s*<?([^()\s<>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
_FOOTNOTE_DEF = re.compile(r"^\[\^[^\]\s]+\]:[ \t]*", re.M)
_FOOTNOTE_REF = re.compile(r"\[\^[^\]\s]+\]")


# A wiki link (Obsidian, MediaWiki, Foam): `[[Page]]` reads as "Page", `[[ops/rollback|the rollback page]]` as its
# label; the page is kept as a link target. Only in text: `[[ -f x ]]` in code is shell.
_WIKI_LINK = re.compile(r"\[\[([A-Za-z][^\[\]|\n]*)(?:\|([^\[\]\n]+))?\]\]")  # a page name, not "[[1, 2]]"
# A task list's box ("- [ ] Read the pages in Read first"): a checklist's mark, not the item's words.
_TASK_BOX = re.compile(r"^\[[ xX]\]\s+")


def _inline(children, links: list[str]) -> str:
    """Inline tokens as text: links and images by their text, code as `code`, inline HTML tags dropped."""
    out: list[str] = []
    for t in children:  # an image is skipped whole: its alt text is not prose
        if t.type == "text":
            out.append(_WIKI_LINK.sub(lambda m: links.append(m.group(1).strip()) or (m.group(2) or m.group(1)).strip(),
                                      t.content))
        elif t.type == "code_inline":
            out.append(f"`{t.content}`")
        elif t.type == "softbreak":
            out.append(" ")
        elif t.type == "hardbreak":
            out.append("\n")
        elif t.type == "link_open":
            href = str(t.attrGet("href") or "")
            if href and not href.startswith("#"):
                links.append(href)
        elif t.type == "html_inline":
            if m := _HREF.match(t.content):
                links.append(m.group(1))
            elif _BREAK.fullmatch(t.content.strip()):
                out.append("\n")
    text = _LEFTOVER_LINK.sub(lambda m: links.append(m.group(2)) or m.group(1), "".join(out))
    return "\n".join(line.strip() for line in text.split("\n") if line.strip())


def _html_text(html: str, links: list[str]) -> str:
    """An HTML block inside Markdown as a reader sees it: a table row as "Key: value" in a paragraph of its own
    ("Office / Seats: TTS is located on the 6th floor …"), each other block element on its own paragraph; before,
    a page's metadata table read as one run-on sentence ("… 20405 Points of contact GSA Tenant Support …")."""
    links += _HREF.findall(html)
    if _PRE.search(html):  # code keeps its lines and spacing, as a fenced block in Markdown does
        return f"```\n{unescape(_HTML_TAG.sub('', html)).strip(chr(10))}\n```"
    html = _CELL_GAP.sub(_CELL, html)  # between two cells of a row
    html = _BLOCK_END.sub("\n\n", html)
    text = unescape(_HTML_TAG.sub(" ", _BREAK.sub(" ", html)))
    out = []
    for paragraph in _PARAGRAPH.split(text):
        cells = [_BEFORE_PUNCT.sub(r"\1", _SPACES.sub(" ", x)).strip() for x in paragraph.split(_CELL)]
        cells = [c for c in cells if c]
        # a two-cell row is "Key: value"; a wider row keeps its columns apart as a Markdown table row reads
        out.append(": ".join(cells) if len(cells) <= 2 else " | ".join(cells))
    return "\n\n".join(p for p in out if p)


def parse_markdown(text: str, *, _depth: int = 0) -> tuple[dict[str, Any], str, list[Block], str]:
    """(front matter, rendered text, blocks, first H1): the text a reader sees, without Markdown link syntax,
    template tags or HTML comments; blocks index it, headings become section paths, link targets ride on blocks.
    (`_depth`: how deep in MyST directives this text sits.)"""
    meta, pos = front_matter(text)
    body = render_templates(text[pos:])
    body = _FOOTNOTE_REF.sub("", _FOOTNOTE_DEF.sub("\n", body))  # a footnote's text stays, as its own paragraph
    tokens = _md().parse(body)
    sections = _Sections()
    out: list[str] = []
    size = 0
    blocks: list[Block] = []

    def emit(piece: str, links: list[str], *, block: bool = True) -> None:
        nonlocal size
        piece = piece.strip("\n")
        if not piece.strip():
            return
        if out:
            out.append("\n\n")
            size += 2
        if block:
            s, e = trim(piece, 0, len(piece))
            blocks.append(Block(size + s, size + e, sections.path, links=list(dict.fromkeys(links))))
        out.append(piece)
        size += len(piece)

    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t.type == "heading_open":
            links: list[str] = []
            title = _SPACES.sub(" ", _inline(tokens[i + 1].children or [], links)).strip()
            sections.push(int(t.tag[1]), title)
            emit(title, [], block=False)
            i += 3
            continue
        if t.type in ("paragraph_open", "bullet_list_open", "ordered_list_open", "table_open", "blockquote_open"):
            j = _close(tokens, i)
            links = []
            emit(_render(tokens[i:j + 1], links), links)
            i = j + 1
            continue
        if t.type == "fence" and (shown := _directive_text(t.info, t.content, _depth)) is not None:
            if shown.strip():  # a MyST directive ("```{note}") holds prose: it reads like the page, not as code
                emit(shown, [])
        elif t.type in ("fence", "code_block"):
            emit(f"```\n{t.content.rstrip()}\n```", [])
        elif t.type == "html_block":
            links = []
            emit(_html_text(t.content, links), links)
        i += 1
    return meta, "".join(out), blocks, sections.first_h1


_DIRECTIVE = re.compile(r"^\{(?P<name>[\w:-]+)\}\s*(?P<arg>.*)$")  # MyST: ```{note}, ```{versionadded} 22.1
_DIRECTIVE_OPTION = re.compile(r"^:[\w-]+:")  # ":class: tip" under a directive
_CODE_DIRECTIVES = frozenset("code code-cell eval-rst math".split())
_SHELL = re.compile(r"^\s*(?:\$|>>>|C:\\)\s")  # a session's first line: a prompt
MAX_DIRECTIVE_DEPTH = 8  # directives nested deeper are kept as their plain text (a crafted file cannot recurse)


def _directive_text(info: str, content: str, depth: int = 0) -> str | None:
    """What a fenced MyST directive shows as prose, rendered like the page ("{note}", "{warning}"; "{versionadded}
    22.1" reads "New in version 22.1." as in reStructuredText); "" for one that shows nothing of its own
    ("{toctree}"); None for a plain fence or a code directive, or one whose lines read as a shell or REPL session."""
    from .sphinx import LITERAL, SILENT, VERSION

    m = _DIRECTIVE.match(info.strip())
    first = next((line for line in content.splitlines() if line.strip()), "")
    if not m or m.group("name") in LITERAL | _CODE_DIRECTIVES or _SHELL.match(first):
        return None
    name = m.group("name")
    if name in SILENT:
        return ""
    body = "\n".join(line for line in content.splitlines() if not _DIRECTIVE_OPTION.match(line))
    arg = m.group("arg").strip()
    label = ""
    if name in VERSION and arg:  # "{versionchanged} 23.1 The resolver is now the default." (the rest is the note)
        version, _, rest = arg.partition(" ")
        label, body = VERSION[name].format(version), f"{rest}\n\n{body}" if rest else body
    if depth >= MAX_DIRECTIVE_DEPTH:
        text = _SPACES.sub(" ", body).strip()
    else:
        text = parse_markdown(body, _depth=depth + 1)[1] if body.strip() else ""
    return f"{label} {text}".strip()


def _close(tokens, i: int) -> int:
    """The index of the token that closes the block opened at `i`."""
    level = tokens[i].level
    j = i + 1
    while j < len(tokens) and not (tokens[j].nesting == -1 and tokens[j].level == level):
        j += 1
    return j


# a line break inside a table cell: a space after punctuation, else "; " so the cell's lines stay apart as phrases
_CELL_BREAK = re.compile(r"([.,;:!?])?\n")


def _render(tokens, links: list[str]) -> str:
    """A paragraph, list, table or quote as plain lines: list items keep their markers, table rows their pipes."""
    lines: list[str] = []
    lists: list[list] = []  # per open list: [ordered, next number]
    item_open = False
    row: list[str] | None = None  # the cells of the open table row
    for t in tokens:
        kind = t.type
        if kind in ("bullet_list_open", "ordered_list_open"):
            start = int(t.attrGet("start") or 1) if kind == "ordered_list_open" else 0
            lists.append([kind == "ordered_list_open", start])
        elif kind in ("bullet_list_close", "ordered_list_close"):
            lists.pop()
        elif kind == "list_item_open":
            item_open = True
        elif kind == "tr_open":
            row = []
        elif kind == "tr_close" and row is not None:
            lines.append("| " + " | ".join(row) + " |")
            row = None
        elif kind == "inline":
            text = _inline(t.children or [], links).strip()
            if row is not None:  # a cell's own breaks ("E.g.,<br><br>`outdated: true`") stay inside its row
                row.append(_CELL_BREAK.sub(lambda m: f"{m.group(1)} " if m.group(1) else "; ", text).replace("|", "/"))
            elif item_open and lists:
                text = _TASK_BOX.sub("", text, count=1)
                ordered, number = lists[-1]
                if ordered:
                    lists[-1][1] += 1
                lines.append("  " * (len(lists) - 1) + f"{f'{number}.' if ordered else '-'} {text}")
                item_open = False
            elif lists:  # a second paragraph inside an item: its continuation
                lines.append("  " * len(lists) + text)
            else:
                lines.append(text)
        elif kind in ("fence", "code_block"):
            lines.append(f"```\n{t.content.rstrip()}\n```")
        elif kind == "html_block":
            lines.append(_html_text(t.content, links))
    return "\n".join(line for line in lines if line.strip())


# --- HTML ----------------------------------------------------------------------------------------------
# Not content: code, styling, embedded objects, and site navigation (the same menu on every exported page).
_SKIP = {"script", "style", "noscript", "template", "svg", "head", "iframe", "object", "canvas", "button", "form", "nav"}
_HEADINGS = {f"h{i}": i for i in range(1, 7)}
_BLOCKS = {"p", "div", "section", "article", "main", "header", "footer", "aside", "ul", "ol", "li", "dl", "dt",
           "dd", "table", "thead", "tbody", "tr", "td", "th", "blockquote", "pre", "figure", "figcaption", "hr",
           "address", "details", "summary", "body", "html"}


# Site chrome marked by class or id: a table of contents, navigation bars, breadcrumbs, sidebars and footers
# (DocBook's "toc" and "navheader", Sphinx's "sphinxsidebar", Confluence's "breadcrumbs").
_CHROME = re.compile(r"^(?:toc|table-of-contents|nav|navbar|navheader|navfooter|navigation|breadcrumbs?|"
                     r"sphinxsidebar|footer)$", re.I)


def _chrome(node) -> bool:
    names = [*(node.get("class") or []), node.get("id") or ""] if hasattr(node, "get") else []
    return any(_CHROME.match(n) for n in names if n)


def parse_html(html: str) -> tuple[str, str, list[Block]]:
    """(title, text, blocks): visible text with headings on their own lines, no markup; offsets index `text`.

    A page that marks its main content (<main>, role="main") keeps its site chrome outside it: the header, menus
    and help pop-ups an exported site repeats on every page (mdBook's "Keyboard shortcuts … Press ? to show this
    help"). Only the main content is read then, unless it holds no text of its own."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    title_tag = soup.find("title")
    title = _SPACES.sub(" ", title_tag.get_text()).strip() if title_tag else ""
    main = soup.find("main") or soup.find(attrs={"role": "main"})
    page = _HtmlText(main) if main is not None else None
    if page is None or not page.blocks:
        page = _HtmlText(soup)
    return title or page.sections.first_h1, "".join(page.out), page.blocks


class _HtmlText:
    """The visible text under one element, as parse_html returns it."""

    def __init__(self, root) -> None:
        from bs4 import Comment, Declaration, Doctype, NavigableString, ProcessingInstruction

        self.unread = (Comment, Doctype, Declaration, ProcessingInstruction)  # node kinds with no visible text
        self.string = NavigableString
        self.out: list[str] = []
        self.size = 0
        self.blocks: list[Block] = []
        self.sections = _Sections()
        self.buf: list[str] = []
        self.in_pre = 0
        self.walk(root)
        self.flush()

    def emit(self, piece: str, *, block: bool) -> None:
        if self.out:
            self.out.append("\n\n")
            self.size += 2
        if block:
            self.blocks.append(Block(self.size, self.size + len(piece), self.sections.path))
        self.out.append(piece)
        self.size += len(piece)

    def flush(self) -> None:
        raw = "".join(self.buf)
        self.buf.clear()
        # preformatted text is fenced as in Markdown, so its lines read as code, not as one run-on sentence
        piece = f"```\n{raw.strip(chr(10))}\n```" if self.in_pre and raw.strip() else _SPACES.sub(" ", raw).strip()
        if piece.strip():
            self.emit(piece, block=True)

    def walk(self, node) -> None:
        for child in node.children:
            if isinstance(child, self.unread):
                continue
            if isinstance(child, self.string):
                self.buf.append(str(child))
                continue
            name = child.name
            if name in _SKIP or _chrome(child):
                continue
            if name in _HEADINGS:
                self.flush()
                text = _SPACES.sub(" ", child.get_text(" ")).strip()
                self.sections.push(_HEADINGS[name], text)
                if text:
                    self.emit(text, block=False)
            elif name == "br":
                self.buf.append("\n")
            elif name in _BLOCKS:
                self.flush()
                self.in_pre += name == "pre"
                self.walk(child)
                self.flush()
                self.in_pre -= name == "pre"
            else:
                self.walk(child)


def text_blocks(text: str) -> list[Block]:
    return [Block(s, e) for s, e in paragraphs(text)]

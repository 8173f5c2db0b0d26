"""reStructuredText (Sphinx documentation included) as the text a reader sees, in paragraph blocks under a section
path, like Markdown in markup.py: roles show their title, directives their content, titles become section paths.

docutils parses (no file insertion, no raw output, no reports, no network); only the transforms that resolve
substitutions and link targets run. A source docutils cannot read at all is kept as plain text.
"""

from __future__ import annotations

import copy
import re
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import structlog
from docutils import frontend, nodes, utils
from docutils.parsers.rst import Parser
from docutils.transforms import references

from ..models import SECTION_SEP
from . import sphinx
from .documents import Block, paragraphs, trim

log = structlog.get_logger(__name__)
_SPACES = re.compile(r"\s+")
_SETTINGS = {
    "file_insertion_enabled": False, "raw_enabled": False, "report_level": 5, "halt_level": 5,
    "warning_stream": False, "syntax_highlight": "none", "smart_quotes": False, "pep_references": False,
    "rfc_references": False, "trim_footnote_reference_space": True, "language_code": "en",
}
_TRANSFORMS = [references.Substitutions, references.AnonymousHyperlinks, references.IndirectHyperlinks,
               references.ExternalTargets]
_lock = threading.Lock()
# Not text a reader of the rendered page reads (or, for include/raw, nothing we may load).
_SKIP = (nodes.comment, nodes.target, nodes.substitution_definition, nodes.pending, nodes.raw,
         nodes.image, nodes.figure, nodes.transition, nodes.meta, nodes.decoration, nodes.label)
_SKIP_INLINE = (nodes.footnote_reference, nodes.citation_reference, nodes.image, nodes.raw, nodes.system_message)
_UNPAIRED = re.compile(r"^[`*|_]+|[`*|_]+$")  # what is left of markup docutils could not pair
_ROLE_BEFORE = re.compile(r"(?<![\w:]):[\w.+-]+(?::[\w.+-]+)*:$")  # ":command:" before an unpaired backquote
_BORDER = re.compile(r"[\s\-=+~^*#\"'`:.|_]*")  # table borders and title underlines


@dataclass
class _Piece:
    """A paragraph of the output; `kind` "para" can take a lead ("--fresh: …"), a "title" is no block."""

    text: str
    section: str
    links: list[str] = field(default_factory=list)
    kind: str = "para"


def parse_rst(text: str) -> tuple[str, str, list[Block]]:
    """(title, text, blocks) like `parse_html`: roles as their title, directives as their content, section titles as
    block section paths, link targets on blocks, literal blocks fenced as Markdown code is. Never raises: a source
    docutils cannot read at all comes back as plain-text paragraphs with no title."""
    try:
        document = _parse(text)
        renderer = _Renderer()
        pieces = renderer.body(document.children)
        title = str(document.get("title") or renderer.first_title)
    except Exception as exc:  # noqa: BLE001 - hostile input (nesting deeper than the stack, odd bugs): keep the words
        log.warning("ingest.rst_unparsed", error=repr(exc)[:200], chars=len(text))
        return "", text, [Block(s, e) for s, e in paragraphs(text)]
    if _refused(document):
        log.warning("ingest.rst_unparsed", error="refused by docutils", chars=len(text))
        return "", text, [Block(s, e) for s, e in paragraphs(text)]
    out: list[str] = []
    blocks: list[Block] = []
    size = 0
    for p in pieces:
        piece = p.text.strip("\n")
        if not piece.strip():
            continue
        if out:
            out.append("\n\n")
            size += 2
        if p.kind != "title":
            s, e = trim(piece, 0, len(piece))
            blocks.append(Block(size + s, size + e, p.section, links=list(dict.fromkeys(p.links))))
        out.append(piece)
        size += len(piece)
    return title, "".join(out), blocks


def _parse(text: str) -> nodes.document:
    with _lock:
        settings = copy.copy(_defaults())
    document = utils.new_document("<rst>", settings)
    sphinx.register_unknown(text, document)
    Parser().parse(text, document)
    document.transformer.add_transforms(_TRANSFORMS)
    document.transformer.apply_transforms()
    return document


@lru_cache(maxsize=1)
def _defaults() -> Any:
    """docutils' defaults (no docutils.conf is read) with ours, built once: building them is slow and swaps the
    process's warning filters, which is not thread-safe."""
    settings = frontend.get_default_settings(Parser)
    for key, value in _SETTINGS.items():
        setattr(settings, key, value)
    return settings


def _refused(document: nodes.document) -> bool:
    """Nothing but error reports: docutils read none of it (a line over its length limit stops the whole parse)."""
    children = [c for c in document.children if not isinstance(c, nodes.comment)]
    return bool(children) and all(isinstance(c, nodes.system_message) and c["level"] >= 3 for c in children)


class _Renderer:
    def __init__(self) -> None:
        self.titles: list[str] = []
        self.first_title = ""

    @property
    def section(self) -> str:
        return SECTION_SEP.join(t for t in self.titles if t)

    def para(self, text: str, links: list[str], kind: str = "para") -> list[_Piece]:
        return [_Piece(text, self.section, links, kind)] if text.strip() else []

    def body(self, children) -> list[_Piece]:
        """Body elements in order; a version note without text of its own leads the paragraph after it."""
        out: list[_Piece] = []
        children = list(children)
        i = 0
        while i < len(children):
            node = children[i]
            following = children[i + 1] if i + 1 < len(children) else None
            if isinstance(node, sphinx.version_note) and not len(node) and isinstance(following, nodes.paragraph):
                out += self.lead(node["label"], [following], sep=" ")
                i += 2
                continue
            out += self.node(node)
            i += 1
        return out

    def lead(self, term: str, children, sep: str = ": ", *, heads: bool = False) -> list[_Piece]:
        """`term` leads the first paragraph of `children` ("cmakeExecutable: An optional string …"), so a search
        that finds the description finds what it describes; before a list, code or a table it stands alone. A term
        that `heads` what follows (an option, a definition list's term) is also the section of every paragraph of
        its description: "This option tells CTest to write …" three paragraphs down is still about `--output-junit`."""
        term = _SPACES.sub(" ", term).strip()
        if heads and term:
            self.titles.append(term)
            try:
                pieces = self.body(children)
            finally:
                self.titles.pop()
        else:
            pieces = self.body(children)
        if not term or not pieces:  # a tab or option whose text is generated elsewhere: the name alone says nothing
            return pieces
        if pieces[0].kind == "para":
            joint = " " if term[-1] in ".:?!" else sep
            pieces[0].text = f"{term}{joint}{pieces[0].text}"
            return pieces
        return self.para(term if term[-1] in ".:?!" else f"{term}:", []) + pieces

    def node(self, node: nodes.Node) -> list[_Piece]:
        if isinstance(node, _SKIP) or (isinstance(node, nodes.topic) and "contents" in node["classes"]):
            return []
        if isinstance(node, nodes.system_message):
            return self.salvage(node)
        if isinstance(node, nodes.section):
            return self.section_(node)
        if isinstance(node, nodes.paragraph | nodes.rubric | nodes.math_block | nodes.attribution):
            links: list[str] = []
            text = _SPACES.sub(" ", self.inline(node, links)).strip()
            return self.para(f"— {text}" if isinstance(node, nodes.attribution) else text, links)
        if isinstance(node, nodes.literal_block | nodes.doctest_block):
            return self.para(f"```\n{node.astext().rstrip()}\n```", [], "code")
        if isinstance(node, nodes.bullet_list | nodes.enumerated_list):
            return self.list_(node)
        if isinstance(node, nodes.definition_list):
            return [p for item in node.children for p in self.definition(item)]
        if isinstance(node, nodes.field_list):
            return [p for f in node.children for p in self.lead(f[0].astext(), f[1].children)]
        if isinstance(node, nodes.option_list):
            return [p for item in node.children for p in self.lead(
                ", ".join(o.astext() for o in item[0].children), item[1].children)]
        if isinstance(node, nodes.table):
            return self.table(node)
        if isinstance(node, nodes.line_block):
            links = []
            return self.para(self.lines(node, links), links)
        if isinstance(node, sphinx.described):
            return self.lead(node["term"], node.children, heads=True)
        if isinstance(node, sphinx.version_note):
            return self.lead(node["label"], node.children, sep=" ") or self.para(node["label"], [])
        if isinstance(node, nodes.Admonition | nodes.topic | nodes.sidebar):
            titled = bool(len(node)) and isinstance(node[0], nodes.title)
            label = node[0].astext() if titled else type(node).__name__.capitalize()
            return self.lead(label, node.children[1:] if titled else node.children)
        if isinstance(node, nodes.TextElement):  # anything else with text of its own
            links = []
            return self.para(_SPACES.sub(" ", self.inline(node, links)).strip(), links)
        return self.body(node.children) if isinstance(node, nodes.Element) else []

    def section_(self, node: nodes.section) -> list[_Piece]:
        links: list[str] = []
        title = _SPACES.sub(" ", self.inline(node[0], links)).strip() if len(node) else ""
        self.first_title = self.first_title or title
        self.titles.append(title)
        try:
            return self.para(title, [], "title") + self.body(node.children[1:])
        finally:
            self.titles.pop()

    def salvage(self, message: nodes.system_message) -> list[_Piece]:
        """The words of a construct docutils rejected (a malformed table, a title at an inconsistent level), which
        its error report holds as source: rows and title lines stay, borders and underlines go. A rejected
        directive stays out: its source is markup through and through."""
        source = next((c.astext() for c in message.children if isinstance(c, nodes.literal_block)), "")
        if message["level"] < 3 or source.lstrip().startswith(".."):
            return []
        lines = (_SPACES.sub(" ", line).strip() for line in source.split("\n") if not _BORDER.fullmatch(line))
        return self.para("\n".join(lines), [])

    def definition(self, item: nodes.definition_list_item) -> list[_Piece]:
        term = " ".join(self.inline(c, []) for c in item.children if isinstance(c, nodes.term))
        kinds = [c.astext() for c in item.children if isinstance(c, nodes.classifier)]
        if kinds:
            term = f"{term} ({', '.join(kinds)})"
        body = [c for c in item.children if isinstance(c, nodes.definition)]
        return self.lead(term, body[0].children if body else [], heads=True)

    def list_(self, node: nodes.Element) -> list[_Piece]:
        """One block, as Markdown lists are: "- item" or "1. item", nested items and continuations indented."""
        lines: list[str] = []
        links: list[str] = []
        start = node.get("start", 1)
        for number, item in enumerate(node.children, start):
            pieces = self.body(item.children)
            links += [link for p in pieces for link in p.links]
            text = "\n".join(p.text for p in pieces).split("\n")
            lines.append(f"{_marker(node, number)} {text[0]}".rstrip())
            lines += [f"  {line}" if line.strip() else "" for line in text[1:]]
        return self.para("\n".join(lines), links, "list")

    def table(self, node: nodes.table) -> list[_Piece]:
        """One block, as Markdown tables are: a row per line, "| a | b |", no border rows."""
        out: list[_Piece] = []
        if len(node) and isinstance(node[0], nodes.title):
            out += self.para(_SPACES.sub(" ", node[0].astext()).strip(), [])
        rows: list[str] = []
        links: list[str] = []
        for row in (r for group in node.findall(nodes.tgroup) for part in group.children
                    if isinstance(part, nodes.thead | nodes.tbody) for r in part.children):
            if row.parent.parent.parent is not node:  # a table nested in a cell is read with its cell
                continue
            cells = []
            for entry in row.children:
                pieces = self.body(entry.children)
                links += [link for p in pieces for link in p.links]
                cells.append(_SPACES.sub(" ", " ".join(p.text for p in pieces)).strip().replace("|", "/"))
            if any(cells):
                rows.append("| " + " | ".join(cells) + " |")
        return out + self.para("\n".join(rows), links, "table")

    def lines(self, node: nodes.line_block, links: list[str], indent: str = "") -> str:
        out = []
        for child in node.children:
            if isinstance(child, nodes.line_block):
                out.append(self.lines(child, links, indent + "  "))
            else:
                out.append(indent + _SPACES.sub(" ", self.inline(child, links)).strip())
        return "\n".join(out)

    def inline(self, node: nodes.Element, links: list[str]) -> str:
        """Text without markup; link targets (not internal ones) go to `links`."""
        out: list[str] = []
        for child in node.children:
            if isinstance(child, nodes.Text):
                out.append(child.astext())
            elif isinstance(child, _SKIP_INLINE):
                continue
            elif isinstance(child, nodes.problematic):  # markup docutils could not pair ("`foo"): its words stay
                if out:
                    out[-1] = _ROLE_BEFORE.sub("", out[-1])
                out.append(_UNPAIRED.sub("", child.astext()))
            else:
                uri = child.get("refuri", "") if isinstance(child, nodes.reference) else ""
                if uri and not uri.startswith("#"):
                    links.append(uri)
                out.append(self.inline(child, links))
        return "".join(out)


def _marker(node: nodes.Element, number: int) -> str:
    if isinstance(node, nodes.bullet_list):
        return "-"
    kind = node.get("enumtype", "arabic")
    if kind in ("loweralpha", "upperalpha") and number <= 26:
        letter = chr(ord("a") + number - 1)
        return f"{letter.upper() if kind == 'upperalpha' else letter}."
    return f"{number}."  # roman numerals read as numbers

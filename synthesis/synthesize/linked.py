"""Steps a sentence links to on another page: "When routing for signatures, you can use the [Docusign
template](/tools/digital-signatures#use-docusign-templates-to-complete-forms) for the Advanced Sick Leave Request"
answers "How do I use Docusign to route my request?" only with the steps under that section of the Docusign page
("1. Login to Docusign. 2. Select Templates …"). Ingest keeps a chunk's link targets as metadata (`links`); the
steps are quoted when that page is among the retrieved passages."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from ..models import headings
from ..qa import Candidate, Expect
from ..stems import content_stems

Unit = Candidate
LINKED_STEPS = True
# a list under the linked section with this many items read as instructions is its steps (not half: a page's image
# descriptions read as items too, "Left nav side bar that shows My Templates, Shared with Me, and Favorites")
LIST_STEPS = 2
_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)  # "https:", "mailto:": not a page of this knowledge base
_EXTENSIONS = (".md", ".markdown", ".html", ".htm", ".rst", ".txt")


def slug(heading: str) -> str:
    """A heading as a link anchor: "Use Docusign templates to complete forms" → "use-docusign-templates-to-complete-
    forms" (lower case, punctuation dropped, spaces as hyphens)."""
    return re.sub(r"\s", "-", re.sub(r"[^\w\s-]", "", heading.lower()).strip())  # ("leave & pay": "leave--pay")


def _page_parts(path: str) -> tuple[str, ...]:
    """A page path's folder and name parts without the extension or an index page: "/tools/digital-signatures/" and
    ".../corpus/tools/digital-signatures.md" both end in ("tools", "digital-signatures")."""
    parts = [p for p in PurePosixPath(path.strip()).parts if p not in ("/", ".", "..")]
    if parts:
        name = parts[-1]
        for ext in _EXTENSIONS:
            if name.lower().endswith(ext):
                parts[-1] = name[:-len(ext)]
        if parts[-1].lower() == "index" and len(parts) > 1:
            parts.pop()
    return tuple(parts)


def _targets(u: Unit) -> list[tuple[tuple[str, ...], str]]:
    """The internal link targets of `u`'s passage to a section of a page: (page parts, anchor)."""
    out = []
    for link in str(u.passage.metadata.get("links") or "").splitlines():
        if not link.strip() or _SCHEME.match(link.strip()):
            continue
        path, _, anchor = link.strip().partition("#")
        if (parts := _page_parts(path.split("?")[0])) and anchor.strip():  # (a page's whole: which of its lists?)
            out.append((parts, anchor.strip().lower()))
    return out


def _source_parts(x: Unit) -> tuple[str, ...]:
    return _page_parts(str(x.passage.metadata.get("source_file") or x.passage.source_url or ""))


def _under(x: Unit, anchor: str) -> bool:
    """`x` sits in the section the anchor names, or below it."""
    return any(slug(h) == anchor for h in headings(x.passage.section))


def linked_steps(u: Unit, units: list[Unit]) -> list[Unit]:
    """The first list under the section a link of `u`'s passage points at, on another retrieved page, with
    LIST_STEPS items read as instructions ("Select Templates, …", "Enter the name …"; not a list of forms), when `u`
    names that page or section (a word of its title, or two of its anchor's heading; not words of `u`'s own page
    title); else []."""
    if not LINKED_STEPS:
        return []
    said = content_stems(u.text) - content_stems(u.passage.title)
    for parts, anchor in _targets(u):
        page = [x for x in units if x.document != u.document and _source_parts(x)[-len(parts):] == parts]
        if not page or not (said & content_stems(page[0].passage.title)
                            or len(said & content_stems(anchor.replace("-", " "))) >= 2):
            continue
        lists: dict[str, list[Unit]] = {}
        for x in sorted((x for x in page if x.fragment and x.lead_in and not x.code and _under(x, anchor)),
                        key=lambda x: (x.passage.chunk_index, x.position)):
            lists.setdefault(x.lead_in, []).append(x)
        for items in lists.values():
            if sum(Expect.PROCEDURE in x.kinds for x in items) >= LIST_STEPS:
                return items
    return []


__all__ = ["LINKED_STEPS", "linked_steps", "slug"]

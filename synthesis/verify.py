"""Verification before delivery (citations, cited findings, completeness) and gap detection for the question's parts."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import citations
from .models import Finding, Quality, Source, Synthesis
from .planner import main_noun_phrase
from .stems import content_stems, overlap
from .synthesize.base import Context

# Sources that say themselves that something is not written down: the clearest gap signal a KB can give.
UNDOCUMENTED = re.compile(
    r"\b(no (written |formal )?(runbook|documentation|docs?|write-?up|process|procedure)|not (yet )?(documented|"
    r"written( down)?)|undocumented|write (it )?down how|(is|are|remains?) unclear|nobody (in the room )?knew|tbd|"
    r"to be (written|decided|documented)|lives? in (someone's|people's|their) heads?)\b", re.I)
# An editor's placeholder: "FY24 FEVS results for TTSC TK.", "TODO: write this section" (capitals only, after a space
# or opening the line; "Tcl/TK" is a name)
PLACEHOLDER = re.compile(r"(?<=\s)(?:TK|TODO|TBD)\W*$|^\W*(?:TODO|TBD)\b")
GAP_SUPPORT = 0.55  # best sentence support (cosine + 0.3·keyword overlap) below this: the part is not answered
COVERED_OVERLAP = 0.5
COVERAGE_CAPS = (0.74, 0.49)  # overall quality with some / half or more of the question's parts unanswered


@dataclass
class Verification:
    """The verified synthesis and what verification had to change."""

    synthesis: Synthesis
    invalid_citations: int = 0
    dropped_findings: int = 0
    completeness: float = 0.0
    uncovered: list[str] = field(default_factory=list)
    answered: float = 0.0  # share of the question's parts no gap names (0 without findings)

    def detail(self) -> dict[str, Any]:
        return {"invalid_citations": self.invalid_citations, "dropped_findings": self.dropped_findings,
                "completeness": round(self.completeness, 3), "uncovered": self.uncovered}


# --- gaps ------------------------------------------------------------------------------------------------
_MODAL_BE = re.compile(r"(?i)^(how \w+|what|who|which|when|where|why)\s+(must|should|can|could|will|would|may|might)"
                       r"\s+(.+?)\s+(be|have)\s+(.+)$")
_MODAL_VERB = re.compile(r"(?i)^(how \w+|what|who|which|when|where|why)\s+(must|should|can|could|will|would|may|might)"
                         r"\s+(.+)\s+(\w+)$")
_SUBORDINATE = re.compile(r"(?i)\b(if|when|whenever|after|before|while|unless|because)\b")
_WH_VERB = re.compile(r"(?i)^(who|what|which)\s+(?!(?:is|was|does|has)\b)(\w+s)\b")


def as_clause(part: str) -> tuple[str, str]:
    """('explain', 'how the DR test works') from 'How does the DR test work?'; ('answer', '"…?"') when unsure."""
    q = re.sub(r"\s+", " ", part.strip().rstrip("?").strip())
    if m := re.match(r"(?i)^(how|what|why|when|where|who|which)\s+(does|do|did)\s+(.+)\s+(\w+)$", q):
        wh, aux, subject, verb = m.groups()
        if aux.lower() == "does" and not verb.endswith("s"):
            verb = verb + ("es" if verb.endswith(("sh", "ch", "x", "o")) else "s")
        return "explain", f"{wh.lower()} {subject} {verb}"
    if m := re.match(r"(?i)^(what|who|which|where|when|why|how \w+)\s+(is|are|was|were)\s+(.+)$", q):
        wh, aux, rest = m.groups()
        return "explain", f"{wh.lower()} {rest} {aux.lower()}"
    if (m := _MODAL_BE.match(q)) and not _SUBORDINATE.search(m.group(3)):  # "how quickly must X be rolled back"
        wh, modal, subject, be, rest = m.groups()
        return "explain", f"{wh.lower()} {subject} {modal.lower()} {be.lower()} {rest}"
    if (m := _MODAL_VERB.match(q)) and len(m.group(3).split()) <= 4 and not _SUBORDINATE.search(q):
        wh, modal, subject, verb = m.groups()  # "how fast must a rollback start": short enough to trust the last word
        return "explain", f"{wh.lower()} {subject} {modal.lower()} {verb}"
    if _WH_VERB.match(q):  # "who approves a production hotfix" already reads as a clause
        return "explain", q[:1].lower() + q[1:]
    if not re.match(r"(?i)^(how|what|why|when|where|who|which|is|are|can|should|must|do|does)\b", q):
        return "cover", q
    return "answer", f'"{q}?"'


def gap_text(part: str, *, evidence: int | None = None) -> str:
    verb, clause = as_clause(part)
    text = f"The knowledge base does not {verb} {clause}".rstrip(".")
    if evidence is not None:
        text += f"; [{evidence}] notes that it is not written down"
    return text + "."


def gap_clause(gaps: Sequence["Gap"]) -> str:
    """One short sentence naming every gap, each with its evidence cited: for the summary."""
    if not gaps:
        return ""
    clauses = [(verb, clause + (f" [{g.evidence}]" if g.evidence is not None else ""))
               for g in gaps for verb, clause in [as_clause(g.aspect)]]
    if len(clauses) == 1:
        verb, clause = clauses[0]
        return f"The knowledge base does not {verb} {clause}."
    return "The knowledge base does not cover " + "; ".join(
        c if v != "answer" else c.strip('"') for v, c in clauses) + "."


@dataclass
class Gap:
    """A part of the question the context does not answer; `unsupported` when no sentence even comes close."""

    part: int  # index into the question's parts (0 for the whole question)
    aspect: str
    text: str
    evidence: int | None = None  # a source that says itself the thing is not written down
    support: float = 0.0

    @property
    def unsupported(self) -> bool:
        return self.evidence is None and self.support < GAP_SUPPORT


def find_gaps(question: str, parts: Sequence[str], units: Sequence[Any], sims: np.ndarray) -> list[tuple[int, str]]:
    """(index of the part, reader-facing gap) for every part `part_gaps` finds."""
    return [(g.part, g.text) for g in part_gaps(question, parts, units, sims)]


def part_gaps(question: str, parts: Sequence[str], units: Sequence[Any], sims: np.ndarray) -> list[Gap]:
    """Parts of the question no sentence supports, or that the sources themselves say are undocumented.

    `units` have `.text` and `.source`; `sims[i, j]` is the cosine of unit i with query j (0 = the question,
    j >= 1 = parts[j-1]).
    """
    aspects = list(parts) or [question]
    gaps: list[Gap] = []
    stems = [content_stems(u.text) for u in units]
    for j, aspect in enumerate(aspects):
        col = j + 1 if parts else 0
        a_stems = content_stems(aspect)
        concept = content_stems(main_noun_phrase(aspect))
        need = max(1, math.ceil(len(concept) * 2 / 3))
        support = max((float(sims[i, col]) + 0.3 * overlap(a_stems, s) for i, s in enumerate(stems)), default=0.0)
        mentions = [i for i, s in enumerate(stems) if concept and len(concept & s) >= need]
        flagged = next((units[i].source for i in mentions if UNDOCUMENTED.search(units[i].text)), None)
        if flagged is not None:
            gaps.append(Gap(j, aspect, gap_text(aspect, evidence=flagged), flagged, support))
        elif support < GAP_SUPPORT:
            gaps.append(Gap(j, aspect, gap_text(aspect), None, support))
    return gaps


# --- verification ----------------------------------------------------------------------------------------
def clean_citations(text: str, valid: set[int]) -> tuple[str, int, list[int]]:
    """Rewrite our citations as [n][m] and drop numbers outside the context: (text, removed count, kept numbers).
    A document's own markers in quoted text are protected (synthesis/citations.py) and never touched."""
    return citations.clean(text, valid)


def aspect_covered(aspect: str, answer_stems: set[str], gap_stems: list[set[str]]) -> bool:
    a = content_stems(aspect)
    if not a:
        return True
    if any(overlap(a, g) >= 0.6 for g in gap_stems):
        return False
    return overlap(a, answer_stems) >= COVERED_OVERLAP


def overall_quality(citation_rate: float, coherence: float, completeness: float, answered: float | None = None) -> float:
    """The weighted score, capped by `answered` (share of the question's parts not reported as gaps; defaults to
    completeness): an unanswered part rules out 'high' (>= 0.75), half or more rules out 'medium' (>= 0.5) —
    well-cited text about the other parts does not make up for it."""
    score = 0.4 * citation_rate + 0.3 * coherence + 0.3 * completeness
    answered = completeness if answered is None else answered
    if answered <= 0.5:
        return min(score, COVERAGE_CAPS[1])
    return min(score, COVERAGE_CAPS[0]) if answered < 1.0 else score


def verify(synthesis: Synthesis, context: Context, *, question: str, aspects: Sequence[str] = ()) -> Verification:
    """Only citations into the context survive; uncited findings go; completeness is scored on the question's parts."""
    valid = {s.number for s in context.sources}
    invalid = 0
    used: set[int] = set()

    def clean(text: str) -> tuple[str, list[int]]:
        nonlocal invalid
        out, removed, kept = clean_citations(text, valid)
        invalid += removed
        used.update(kept)
        return out.strip(), kept

    findings: list[Finding] = []
    dropped = 0
    for f in synthesis.findings:
        content, in_text = clean(f.content)
        listed = [c for c in f.citations if c in valid]
        invalid += len(f.citations) - len(listed)
        cited = sorted(set(listed) | set(in_text))
        if not cited or not content:
            dropped += 1
            continue
        if not in_text:  # the reader must see where the claim comes from
            content = f"{content} {citations.marker(cited)}"
        used.update(cited)
        findings.append(f.model_copy(update={"content": content, "citations": cited}))
    contradictions = []
    for c in synthesis.contradictions:
        description, in_text = clean(c.description)
        suggestion, _ = clean(c.suggestion)
        listed = [n for n in c.citations if n in valid]
        invalid += len(c.citations) - len(listed)
        cited = sorted(set(listed) | set(in_text))
        if cited:
            used.update(cited)
            contradictions.append(c.model_copy(update={"description": description, "suggestion": suggestion,
                                                       "citations": cited}))
    summary, _ = clean(synthesis.summary)
    gaps = [clean(g)[0] for g in synthesis.gaps]
    sources = [Source(number=s.number, passage_id=s.passage.id, doc_id=s.passage.doc_id, title=s.passage.title,
                      section=s.passage.section, url=s.passage.source_url)
               for s in context.sources if s.number in used]

    answer_stems = content_stems(" ".join([summary, *(f.content for f in findings)]))
    gap_stems = [content_stems(g) for g in gaps]
    aspects = list(aspects) or [question]
    uncovered = [a for a in aspects if not aspect_covered(a, answer_stems, gap_stems)]
    completeness = (len(aspects) - len(uncovered)) / len(aspects) if findings else 0.0
    # The cap counts only parts a gap names: the keyword test behind `uncovered` misses paraphrased answers.
    gapped = [a for a in aspects if any(overlap(content_stems(a), g) >= 0.6 for g in gap_stems)]
    answered = 1.0 - len(gapped) / len(aspects)
    sentences = [s for f in findings for s in citations.claims(f.content)]
    citation_rate = (sum(1 for s in sentences if citations.has(s)) / len(sentences)) if sentences else 0.0
    coherence = synthesis.quality.coherence if findings else 0.0
    overall = overall_quality(citation_rate, coherence, completeness, answered) if findings else 0.0
    if synthesis.quality.support is not None:  # the synthesizer's own evidence reading caps what verification finds
        overall = min(overall, synthesis.quality.support)
    quality = Quality(citation_rate=round(citation_rate, 3), coherence=round(coherence, 3),
                      completeness=round(completeness, 3), overall=round(overall, 3),
                      support=synthesis.quality.support)
    verified = Synthesis(summary=summary, findings=findings, contradictions=contradictions, gaps=gaps, sources=sources,
                         quality=quality)
    return Verification(verified, invalid_citations=invalid, dropped_findings=dropped, completeness=completeness,
                        uncovered=uncovered, answered=answered if findings else 0.0)

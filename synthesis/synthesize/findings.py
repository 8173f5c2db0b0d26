"""The findings: the selected sentences grouped by part or section, and a procedure's whole list of steps.

Sentences above the relevance floor are chosen by MMR, each part its own share; near-twins are dropped unless they
differ in substance (a number, a word the question uses, an outright conflict). Each group is read in document
order, quoted with the lists its sentences lead, and given a confidence of its own.
"""

from __future__ import annotations

import re

from ..citations import cite
from ..models import Finding, headings
from ..qa import Candidate, Expect, Frame
from ..qa.kinds import asks_holder, holds
from ..sentences import lead_joint, lead_text
from ..stems import content_stems, key_phrases
from .candidates import GENERIC_SECTIONS
from .contradictions import compare
from .quotes import join_items, quote_all, step_list

TWIN_COSINE = 0.9  # sentences this similar say the same thing — unless they differ in a word the question uses
# A "how do I" part's steps in full, as a finding of their own: the list that one of the part's STEP_LIST_RANKS
# best sentences belongs to, when it has at least 3 items (limits in quotes.py).
STEP_LIST_RANKS = 3


def select(units: list[Candidate], *, floor: float, limit: int, mmr_lambda: float) -> list[Candidate]:
    """MMR over sentences above the floor, each part its own share, so one part cannot crowd out another."""
    pool = [u for u in units if u.relevance >= floor]
    buckets: dict[int, list[Candidate]] = {}
    for u in pool:
        buckets.setdefault(u.part, []).append(u)
    share = limit if len(buckets) <= 1 else max(3, limit // len(buckets))
    chosen: list[Candidate] = []
    for bucket in buckets.values():
        _mmr(bucket, chosen, share, mmr_lambda)
    return chosen


def _mmr(pool: list[Candidate], chosen: list[Candidate], limit: int, mmr_lambda: float) -> None:
    taken = 0
    pool = list(pool)
    while pool and taken < limit:
        def score(u: Candidate) -> float:
            redundancy = max((float(u.vector @ c.vector) for c in chosen), default=0.0)
            return mmr_lambda * u.relevance - (1 - mmr_lambda) * redundancy
        best = max(pool, key=score)
        pool.remove(best)
        twins = [c for c in chosen if float(best.vector @ c.vector) >= TWIN_COSINE]
        if twins and not any(_differs(best, t) for t in twins):
            continue  # a restatement adds nothing; a near-twin that differs in substance is what to show
        chosen.append(best)
        taken += 1


def findings(selected: list[Candidate], parts: list[str], gap_parts: set[int], frame: Frame,
             units: list[Candidate], *, detailed: bool,
             superseded: frozenset[tuple[int, str]] | set[tuple[int, str]] = frozenset()) -> list[Finding]:
    """Sentences grouped by question part (or by section), best group first; parts that are gaps go last."""
    groups: dict[str, list[Candidate]] = {}
    labels: dict[str, str] = {}
    for u in selected:
        if parts:
            key, label = f"part:{u.part}", _topic_from_part(parts[u.part])
        else:
            section = headings(u.passage.section)[-1]
            informative = section.lower() not in GENERIC_SECTIONS and len(section) > 5  # "P–Z" says nothing
            label = section if informative else (u.passage.title or _keywords_label(u.text))
            key = f"topic:{label.lower()}"
        groups.setdefault(key, []).append(u)
        labels.setdefault(key, label)
    per_finding = 5 if detailed else 3
    scored: list[tuple[float, Finding]] = []
    for key, members in groups.items():
        members = sorted(members, key=lambda u: (not u.pinned, -u.relevance))[:per_finding]
        # read in document order, a side set aside by a disagreement's verdict after the rest
        ordered = sorted(members, key=lambda u: ((u.source, u.text) in superseded, u.source, u.position))
        content = quote_all(ordered, units)
        citations = sorted({u.source for u in members})
        best = max(u.relevance for u in members)
        is_gap = key.startswith("part:") and int(key[5:]) in gap_parts
        # (a part asking who holds a role it names is answered by a name no reading can check: kinds.asks_holder)
        fits = any(holds(part, u) and not asks_holder(part.text)
                   for u in members for part in [frame.parts[min(u.part, len(frame.parts) - 1)]])
        level = "low" if is_gap else _confidence(best, len(citations), fits)
        pinned = any(u.pinned for u in members)
        scored.append((best + (0.5 if pinned else 0.0) - (1.0 if is_gap else 0.0),
                       Finding(topic=labels[key], content=content, citations=citations, confidence=level)))
    scored.sort(key=lambda item: -item[0])
    return [f for _, f in scored[:7 if detailed else 4]]


def step_lists(frame: Frame, units: list[Candidate], gap_parts: set[int], summary: str) -> list[Finding]:
    """For each "how do I" part, the whole list of steps its best-ranked sentences belong to ("To fill out your
    PSLF application and obtain employer verification: Download …; Fill out Section 1 …; … Login to DocuSign"),
    unless the summary already quotes all of it. The summary quotes the first steps; the rest were lost."""
    out: list[Finding] = []
    listed: set[str] = set()
    for j, part in enumerate(frame.parts):
        if part.expect is not Expect.PROCEDURE or j in gap_parts:
            continue
        ranked = sorted((u for u in units if u.scores), key=lambda u: -u.scores[j])[:STEP_LIST_RANKS]
        for u in ranked:
            lead, items, more = step_list(u, units)
            if len(items) < 3 or items[0].text in listed or all(x.text.rstrip(" ;:,.") in summary for x in items):
                continue
            listed.add(items[0].text)
            steps = join_items(items)
            sources = sorted({x.source for x in items} | {x.source for x in units if x.text == lead})
            joint, lead = lead_joint(lead), lead_text(lead)
            out.append(Finding(topic=f"Steps: {lead}"[:120],
                               content=cite(f"{lead}{joint}{steps}{'; …' if more else '.'}", sources),
                               citations=sources, confidence=_confidence(u.scores[j], len(sources), True)))
            break
    return out


def _differs(a: Candidate, b: Candidate) -> bool:
    """Near-twins worth keeping both: different numbers, a different question word, or an outright conflict."""
    nums_a, nums_b = set(re.findall(r"\d+(?:\.\d+)?", a.text)), set(re.findall(r"\d+(?:\.\d+)?", b.text))
    if nums_a != nums_b:
        return True
    sa, sb = content_stems(a.text), content_stems(b.text)
    return bool(sa ^ sb) and compare(a.text, b.text) is not None or bool((sa - sb) or (sb - sa)) and len(sa ^ sb) <= 2


def _confidence(best: float, support: int, fits: bool) -> str:
    if fits and (best >= 0.6 or (best >= 0.5 and support >= 2)):
        return "high"
    return "medium" if best >= 0.42 else "low"


def _topic_from_part(part: str) -> str:
    text = part.strip().rstrip("?").strip()
    return text[:1].upper() + text[1:]


def _keywords_label(text: str) -> str:
    phrases = key_phrases(text)
    return phrases[0] if phrases else "Other"

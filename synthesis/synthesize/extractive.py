"""The offline synthesizer: sentence selection (embeddings + lexical overlap, MMR), findings, summary,
contradictions and gaps, all extracted verbatim from the numbered context."""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass

import numpy as np
import structlog

from ..embedding import Embedder
from ..models import Contradiction, Finding, Passage, Quality, Source, Synthesis
from ..sentences import content_stems, key_phrases, keyword_query, overlap, sentence_units
from ..verify import find_gaps
from .base import Context, SynthesisOutcome
from .contradictions import Claim, ClaimConflict, compare, describe, find_contradictions

log = structlog.get_logger(__name__)

MAX_SENTENCES_PER_SOURCE = 60  # long passages: the first sentences carry the section's point
POINTER = re.compile(r"^(see|read|refer to|more in|details in)\b", re.I)
GENERIC_SECTIONS = {"", "overview", "introduction", "intro", "summary", "background", "notes", "general", "details"}


@dataclass
class Unit:
    """One candidate sentence with where it came from and how well it answers."""

    text: str
    source: int
    position: int
    passage: Passage
    relevance: float = 0.0
    dense: float = 0.0
    part: int = -1  # index of the question part it answers best (-1: the whole question)
    pinned: bool = False  # one side of a contradiction: always shown in its finding
    fragment: bool = False  # a list item or a clause: quoted alone it loses what it hangs off
    lead_in: str = ""  # for a list item: the sentence ending in ':' (or the heading) it continues


def source_list(context: Context) -> list[Source]:
    return [Source(number=s.number, passage_id=s.passage.id, doc_id=s.passage.doc_id, title=s.passage.title,
                   section=s.passage.section, url=s.passage.source_url) for s in context.sources]


def decomposition(question: str, sub_queries: list[str] | None) -> list[str]:
    """The sub-queries that are parts/sides of the question (not the question itself or its keyword variant)."""
    if not sub_queries:
        return []
    skip = {question.strip().lower(), keyword_query(question).lower()}
    return [q for q in sub_queries if q.strip().lower() not in skip]


class ExtractiveSynthesizer:
    """Implements the Synthesizer seam without an LLM: every sentence it writes is quoted from a source.

    Args:
        embedder: the store's embedder (sentences are embedded in one batch per question).
        min_relevance: sentence floor on 0.65·cosine + 0.25·keyword overlap + 0.10·passage score.
        detailed: more findings and sentences per finding.
    """

    name = "extractive"

    def __init__(self, embedder: Embedder, *, min_relevance: float = 0.33, detailed: bool = False,
                 mmr_lambda: float = 0.7) -> None:
        self.embedder = embedder
        self.min_relevance = min_relevance
        self.detailed = detailed
        self.mmr_lambda = mmr_lambda

    def configured(self, *, detailed: bool) -> "ExtractiveSynthesizer":
        return ExtractiveSynthesizer(self.embedder, min_relevance=self.min_relevance, detailed=detailed,
                                     mmr_lambda=self.mmr_lambda)

    async def synthesize(self, question: str, context: Context, *, sub_queries: list[str] | None = None) -> SynthesisOutcome:
        started = time.perf_counter()
        synthesis = await asyncio.to_thread(self._synthesize, question, context, sub_queries)
        log.info("synthesize.extractive", sources=len(context.sources), findings=len(synthesis.findings),
                 contradictions=len(synthesis.contradictions), gaps=len(synthesis.gaps),
                 seconds=round(time.perf_counter() - started, 4))
        return SynthesisOutcome(synthesis=synthesis, synthesizer=self.name)

    # --- the pipeline (CPU-bound; runs in a worker thread) -------------------------------------------
    def _synthesize(self, question: str, context: Context, sub_queries: list[str] | None = None) -> Synthesis:
        parts = decomposition(question, sub_queries)
        units = self._units(context)
        if not units:
            return Synthesis(summary="", sources=source_list(context))
        queries = [question, *parts]
        qvecs = self.embedder.embed(queries, query=True)
        svecs = self.embedder.embed([u.text for u in units])  # one batch for every sentence
        sims = svecs @ qvecs.T  # (sentences, queries)
        self._score(units, sims, question, parts)
        selected = self._select(units, svecs)
        conflicts = self._contradictions(units, svecs)
        for c in conflicts:  # both sides of a disagreement belong in the answer, not just the higher-scoring one
            for claim in (c.a, c.b):
                unit = next((u for u in units if u.source == claim.source and u.text == claim.text), None)
                if unit is not None:
                    unit.pinned = True
                    if unit not in selected:
                        selected.append(unit)
        found = find_gaps(question, parts, units, sims)
        gaps = [text for _, text in found]
        gap_parts = {j for j, _ in found} if parts else set()
        findings = self._findings(selected, parts, gap_parts)
        summary = self._summary(findings, selected, conflicts)
        quality = self._quality(findings, selected, parts, gaps)
        return Synthesis(summary=summary, findings=findings, contradictions=[self._contradiction(c) for c in conflicts],
                         gaps=gaps, sources=source_list(context), quality=quality)

    def _units(self, context: Context) -> list[Unit]:
        units: list[Unit] = []
        for src in context.sources:
            for pos, sentence in enumerate(sentence_units(src.passage.content)[:MAX_SENTENCES_PER_SOURCE]):
                text = sentence.text
                if POINTER.match(text) and len(text.split()) <= 8:
                    continue  # "See Database migrations." points elsewhere; it answers nothing itself
                lead_in = sentence.lead_in or (_section(src.passage) if sentence.listed else "")
                units.append(Unit(text=text, source=src.number, position=pos, passage=src.passage,
                                  fragment=sentence.fragment, lead_in=lead_in))
        return units

    def _score(self, units: list[Unit], sims: np.ndarray, question: str, parts: list[str]) -> None:
        q_stems = content_stems(question)
        part_stems = [content_stems(p) for p in parts]
        for i, u in enumerate(units):
            stems = content_stems(f"{u.text} {u.passage.section}")
            dense = float(sims[i, 0])
            lexical = overlap(q_stems, stems)
            if parts:
                scores = [float(sims[i, j + 1]) + 0.3 * overlap(part_stems[j], stems) for j in range(len(parts))]
                best = int(np.argmax(scores))
                u.part = best
                dense = max(dense, float(sims[i, best + 1]))
                lexical = max(lexical, overlap(part_stems[best], stems))
            u.dense = dense
            u.relevance = 0.65 * dense + 0.25 * lexical + 0.10 * u.passage.score

    def _select(self, units: list[Unit], vecs: np.ndarray) -> list[Unit]:
        """MMR over sentences above the floor: relevant, but not saying the same thing twice.

        With a multi-part question each part gets its own share, so one well-covered part cannot crowd out another.
        """
        limit = 14 if self.detailed else 8
        pool = [i for i, u in enumerate(units) if u.relevance >= self.min_relevance]
        buckets: dict[int, list[int]] = {}
        for i in pool:
            buckets.setdefault(units[i].part, []).append(i)
        share = limit if len(buckets) <= 1 else max(3, limit // len(buckets))
        chosen: list[int] = []
        for bucket in buckets.values():
            self._mmr(bucket, units, vecs, chosen, share)
        return [units[i] for i in chosen]

    def _mmr(self, pool: list[int], units: list[Unit], vecs: np.ndarray, chosen: list[int], limit: int) -> None:
        taken = 0
        pool = list(pool)
        while pool and taken < limit:
            def score(i: int) -> float:
                redundancy = max((float(vecs[i] @ vecs[j]) for j in chosen), default=0.0)
                return self.mmr_lambda * units[i].relevance - (1 - self.mmr_lambda) * redundancy
            best = max(pool, key=score)
            pool.remove(best)
            twins = [j for j in chosen if float(vecs[best] @ vecs[j]) >= 0.9]
            if twins and not any(compare(units[best].text, units[j].text) for j in twins):
                continue  # a restatement adds nothing; a near-twin that disagrees is exactly what to show
            chosen.append(best)
            taken += 1

    def _findings(self, selected: list[Unit], parts: list[str], gap_parts: set[int]) -> list[Finding]:
        """Sentences grouped by question part (or by section), best group first; parts that are gaps go last."""
        groups: dict[str, list[Unit]] = {}
        labels: dict[str, str] = {}
        for u in selected:
            if parts and u.part >= 0:
                key, label = f"part:{u.part}", _topic_from_part(parts[u.part])
            else:
                section = u.passage.section.split(">")[-1].strip()
                informative = section.lower() not in GENERIC_SECTIONS and len(section) > 5  # "P–Z" says nothing
                label = section if informative else (u.passage.title or _keywords_label(u.text))
                key = f"topic:{label.lower()}"
            groups.setdefault(key, []).append(u)
            labels.setdefault(key, label)
        per_finding = 5 if self.detailed else 3
        findings: list[tuple[float, Finding]] = []
        for key, members in groups.items():
            members = sorted(members, key=lambda u: (not u.pinned, -u.relevance))[:per_finding]
            ordered = sorted(members, key=lambda u: (u.source, u.position))  # read in document order
            content = " ".join(f"{_sentence(u.text)} [{u.source}]" for u in ordered)
            citations = sorted({u.source for u in members})
            best = max(u.relevance for u in members)
            is_gap = key.startswith("part:") and int(key[5:]) in gap_parts
            confidence = "low" if is_gap else _confidence(best, len(citations))
            findings.append((best - (1.0 if is_gap else 0.0), Finding(topic=labels[key], content=content,
                                                                     citations=citations, confidence=confidence)))
        findings.sort(key=lambda item: -item[0])
        return [f for _, f in findings[:7 if self.detailed else 4]]

    def _contradictions(self, units: list[Unit], vecs: np.ndarray) -> list[ClaimConflict]:
        """Conflicts among the question-relevant sentences (a wider pool than the selection, so none is missed)."""
        floor = self.min_relevance * 0.85
        ranked = sorted((i for i, u in enumerate(units) if u.relevance >= floor), key=lambda i: -units[i].relevance)[:40]
        claims = [Claim(units[i].text, units[i].source, units[i].passage.doc_id, vecs[i]) for i in ranked]
        claims_meta = {c.source: units[i].passage for c, i in zip(claims, ranked)}
        self._passages_by_source = claims_meta
        return find_contradictions(claims, limit=3)

    def _contradiction(self, c: ClaimConflict) -> Contradiction:
        pa = self._passages_by_source.get(c.a.source)
        pb = self._passages_by_source.get(c.b.source)
        return Contradiction(description=describe(c), citations=sorted({c.a.source, c.b.source}),
                             suggestion=suggest(pa, c.a.source, pb, c.b.source))

    def _summary(self, findings: list[Finding], selected: list[Unit], conflicts: list[ClaimConflict]) -> str:
        if not findings:
            return ""
        by_text = {f"{_sentence(u.text)} [{u.source}]": u for u in selected}
        lead: list[str] = []
        for f in [f for f in findings if f.confidence != "low"][:2] or findings[:1]:  # best sentence of the best two
            first = _summary_sentence([u for s, u in by_text.items() if s in f.content])
            if first and first not in lead:
                lead.append(first)
        if conflicts:
            c = conflicts[0]
            if c.conflict.kind == "number":
                lead.append(f"Note that the sources disagree: {c.conflict.a_value} [{c.a.source}] vs "
                            f"{c.conflict.b_value} [{c.b.source}].")
            else:
                lead.append(f"Note that the sources disagree on this [{c.a.source}][{c.b.source}].")
        return " ".join(lead[:3])

    def _quality(self, findings: list[Finding], selected: list[Unit], parts: list[str], gaps: list[str]) -> Quality:
        cited = sum(1 for f in findings if f.citations)
        citation_rate = cited / len(findings) if findings else 0.0
        coherence = float(np.mean([u.dense for u in selected])) if selected else 0.0
        aspects = max(1, len(parts) or 1)
        completeness = max(0.0, 1.0 - len(gaps) / aspects) if findings else 0.0
        coherence = max(0.0, min(1.0, coherence / 0.6))  # 0.6 cosine ≈ squarely on topic for MiniLM
        overall = round(0.4 * citation_rate + 0.3 * coherence + 0.3 * completeness, 3)
        return Quality(citation_rate=round(citation_rate, 3), coherence=round(coherence, 3),
                       completeness=round(completeness, 3), overall=overall)


def _summary_sentence(units: list[Unit]) -> str | None:
    """The best sentence that stands alone; else the best list item quoted after its lead-in; else None."""
    ranked = sorted(units, key=lambda u: -u.relevance)
    whole = next((u for u in ranked if not u.fragment), None)
    if whole is not None:
        return f"{_sentence(whole.text)} [{whole.source}]"
    item = next((u for u in ranked if u.lead_in), None)
    if item is None:
        return None
    return f"{item.lead_in.rstrip().rstrip(':')}: {_sentence(item.text.rstrip(' ;:,'))} [{item.source}]"


def _section(p: Passage) -> str:
    """The passage's own heading when it says something (what a list at the top of a chunk hangs off)."""
    section = p.section.split(">")[-1].strip()
    return section if section.lower() not in GENERIC_SECTIONS else ""


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text[-1:] in ".!?:;" else text + "."


def _confidence(best: float, support: int) -> str:
    if best >= 0.6 or (best >= 0.5 and support >= 2):
        return "high"
    return "medium" if best >= 0.42 else "low"


def _topic_from_part(part: str) -> str:
    text = part.strip().rstrip("?").strip()
    return text[:1].upper() + text[1:]


def _keywords_label(text: str) -> str:
    phrases = key_phrases(text)
    return phrases[0] if phrases else "Other"


_AUTHORITY = {"policy": 3, "runbook": 2, "guide": 2, "reference": 2, "doc": 1, "notes": 0, "meeting": 0, "wiki": 0}
_LEGACY = re.compile(r"\b(old|legacy|deprecated|archived?|outdated|superseded)\b", re.I)


def _authority(p: Passage | None) -> tuple[int, str]:
    if p is None:
        return 0, ""
    score = _AUTHORITY.get(p.source_type.lower(), 1)
    tags = str(p.metadata.get("tags", ""))
    if _LEGACY.search(f"{p.title} {tags}"):
        score -= 2
    return score, str(p.metadata.get("updated") or p.metadata.get("last_reviewed") or p.metadata.get("date") or "")


def suggest(pa: Passage | None, na: int, pb: Passage | None, nb: int) -> str:
    """Which source looks current (newer date, policy over wiki, not marked legacy), else who to ask."""
    (auth_a, date_a), (auth_b, date_b) = _authority(pa), _authority(pb)
    title_a = pa.title if pa and pa.title else f"source {na}"
    title_b = pb.title if pb and pb.title else f"source {nb}"
    if date_a and date_b and date_a != date_b:
        newer, n, older = (title_a, na, title_b) if date_a > date_b else (title_b, nb, title_a)
        return f'"{newer}" [{n}] is the more recently updated; follow it and ask the owner of "{older}" to fix theirs.'
    if auth_a != auth_b:
        current, n, other = (title_a, na, title_b) if auth_a > auth_b else (title_b, nb, title_a)
        return (f'"{current}" [{n}] looks authoritative (its document type outranks the other, or the other is marked '
                f'old); follow it and ask the owner of "{other}" to update or archive it.')
    return f'Confirm with the owners of "{title_a}" [{na}] and "{title_b}" [{nb}] which one is current.'

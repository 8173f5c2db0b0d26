"""The offline synthesizer: sentence selection (embeddings + lexical overlap, MMR), findings, summary,
contradictions and gaps, all extracted verbatim from the numbered context."""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass

import numpy as np
import structlog

from ..citations import cite, protect
from ..embedding import Embedder
from ..models import Contradiction, Finding, Passage, Quality, Source, Synthesis
from ..sentences import (content_stems, is_pointer, key_phrases, keyword_query, leans_on_context, overlap,
                         sentence_units)
from ..verify import Gap, as_clause, gap_clause, overall_quality, part_gaps
from .base import Context, SynthesisOutcome
from .contradictions import Claim, ClaimConflict, Verdict, compare, describe, find_contradictions, judge, resolution

log = structlog.get_logger(__name__)

MAX_SENTENCES_PER_SOURCE = 60  # long passages: the first sentences carry the section's point
POINTER = re.compile(r"^(see|read|refer to|more in|details in)\b", re.I)
# Relevance kept by a sentence that only points elsewhere ("… are in the rollback policy."): it names the topic, so it
# matches the question well, and answers nothing. And by one that hangs on a pronoun whose referent it lacks.
POINTER_FACTOR = 0.6
PRONOUN_FACTOR = 0.85
SIDE_COSINE = 0.7  # a sentence this close to one side of a disagreement (from another document) restates that side
LEAD_MARGIN = 0.05  # a one-part question's disagreement leads unless a safe sentence answers clearly better
BROAD_HOW = re.compile(r"how (?!quickly|fast|long|soon|often|many|much|far)\b", re.I)
GENERIC_SECTIONS = {"", "overview", "introduction", "intro", "summary", "background", "notes", "general", "details"}


@dataclass(eq=False)  # identity: two sentences with the same text in one passage are still two units
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
    vector: np.ndarray | None = None


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
        for u, vec in zip(units, svecs):
            u.vector = vec
        self._score(units, sims, question, parts)
        selected = self._select(units, svecs)
        conflicts = self._contradictions(units, svecs)
        gaps = part_gaps(question, parts, units, sims)
        unsupported = {g.part for g in gaps if g.unsupported}
        by_claim = {(u.source, u.text): u for u in units}
        if unsupported:  # a part nothing comes close to answering is a gap, never a finding quoting off-topic text
            selected = [u for u in selected if max(u.part, 0) not in unsupported]
            conflicts = [c for c in conflicts
                         if not all(max(by_claim[(x.source, x.text)].part, 0) in unsupported for x in (c.a, c.b))]
        for c in conflicts:  # both sides of a disagreement belong in the answer, not just the higher-scoring one
            for claim in (c.a, c.b):
                unit = by_claim.get((claim.source, claim.text))
                if unit is not None:
                    unit.pinned = True
                    if unit not in selected:
                        selected.append(unit)
        gap_parts = {g.part for g in gaps} if parts else set()
        findings = self._findings(selected, parts, gap_parts)
        passages = {s.number: s.passage for s in context.sources}
        related = list(passages.values())
        verdicts = [judge(passages.get(c.a.source), c.a.source, passages.get(c.b.source), c.b.source, related=related)
                    for c in conflicts]
        summary = self._summary(question, findings, selected, list(zip(conflicts, verdicts)), parts, gaps, by_claim,
                                {n: p.title for n, p in passages.items()})
        quality = self._quality(findings, selected, parts, [g.text for g in gaps])
        contradictions = [Contradiction(description=describe(c), citations=sorted({c.a.source, c.b.source}),
                                        suggestion=v.suggestion) for c, v in zip(conflicts, verdicts)]
        return Synthesis(summary=summary, findings=findings, contradictions=contradictions,
                         gaps=[g.text for g in gaps], sources=source_list(context), quality=quality)

    def _units(self, context: Context) -> list[Unit]:
        units: list[Unit] = []
        for src in context.sources:
            for pos, sentence in enumerate(sentence_units(src.passage.content)[:MAX_SENTENCES_PER_SOURCE]):
                text = protect(sentence.text)  # the document's own [4] never reads as our citation
                if POINTER.match(text) and len(text.split()) <= 8:
                    continue  # "See Database migrations." points elsewhere; it answers nothing itself
                lead_in = protect(sentence.lead_in or (_section(src.passage) if sentence.listed else ""))
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
            if is_pointer(u.text, u.passage.section):  # names where the answer is instead of giving it
                u.relevance *= POINTER_FACTOR
            elif leans_on_context(u.text):  # "Anyone can declare one": quoted alone, the reader cannot tell what
                u.relevance *= PRONOUN_FACTOR

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
            content = " ".join(cite(_sentence(u.text), [u.source]) for u in ordered)
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
        return find_contradictions(claims, limit=3)

    def _summary(self, question: str, findings: list[Finding], selected: list[Unit],
                 conflicts: list[tuple[ClaimConflict, Verdict]], parts: list[str], gaps: list[Gap],
                 by_claim: dict[tuple[int, str], Unit], titles: dict[int, str]) -> str:
        """1–3 cited sentences: per part its best sentence, or how its disagreement resolves; gaps in one clause.

        A sentence that is (or restates) one side of a detected disagreement is never stated as plain fact.
        """
        if not findings:
            return ""
        sides = {id(u): u for c, _ in conflicts for u in (by_claim[(c.a.source, c.a.text)],
                                                           by_claim[(c.b.source, c.b.text)])}.values()
        in_findings = {u for u in selected if any(cite(_sentence(u.text), [u.source]) in f.content for f in findings)}
        subjects = [set(c.conflict.shared) for c, _ in conflicts if len(c.conflict.shared) >= 2]

        def plain(u: Unit) -> bool:
            """Safe to state as fact: not a side of a disagreement, not restating one (by meaning or by subject)."""
            if u not in in_findings or u.pinned or is_pointer(u.text, u.passage.section) or leans_on_context(u.text):
                return False
            stems = content_stems(u.text)
            return not any(float(u.vector @ s.vector) >= SIDE_COSINE for s in sides) and not any(
                shared <= stems for shared in subjects)

        def side_relevance(cv: tuple[ClaimConflict, Verdict]) -> float:
            return max(by_claim[(x.source, x.text)].relevance for x in (cv[0].a, cv[0].b))

        def disagreement(cv: tuple[ClaimConflict, Verdict], subject: str) -> str:
            verb, clause = as_clause(subject) if subject else ("", "")
            narrow = verb == "explain" and not BROAD_HOW.match(clause)  # "how we deploy" is wider than the dispute
            return resolution(cv[0], cv[1], titles=titles, subject=clause if narrow else "")

        gap_parts = {g.part for g in gaps}
        ranked = sorted(conflicts, key=lambda cv: -side_relevance(cv))  # the disagreement closest to the question first
        answers: list[tuple[bool, int, str]] = []  # (plain statement, order, sentence)
        if parts:
            disputed: dict[int, tuple[ClaimConflict, Verdict]] = {}
            for cv in ranked:
                part = max((by_claim[(x.source, x.text)] for x in (cv[0].a, cv[0].b)), key=lambda u: u.relevance).part
                disputed.setdefault(part, cv)
            for j in range(len(parts)):
                if j in disputed:
                    answers.append((False, j, disagreement(disputed[j], parts[j])))
                elif j not in gap_parts and (first := _summary_sentence([u for u in selected
                                                                         if u.part == j and plain(u)])):
                    answers.append((True, j, first))
        elif 0 not in gap_parts or ranked:  # one question: a disagreement about its point leads, a side issue follows
            leads = [u for f in ([f for f in findings if f.confidence != "low"] or findings[:1])
                     if (u := _summary_unit([u for u in selected
                                             if plain(u) and cite(_sentence(u.text), [u.source]) in f.content]))]
            leads = [] if 0 in gap_parts else leads
            if ranked and (not leads or side_relevance(ranked[0]) + LEAD_MARGIN > leads[0].relevance):
                answers.append((False, 0, disagreement(ranked[0], question)))
            else:
                answers += [(True, 2 * i, _summary_sentence([u])) for i, u in enumerate(leads[:1 if ranked else 2])]
                if ranked:
                    answers.append((False, 1, disagreement(ranked[0], "")))
        room = 2 if gaps else 3
        kept = sorted(answers, key=lambda a: (a[0], a[1]))[:room]  # disagreements first when space is short
        lines = [text for _, _, text in sorted(kept, key=lambda a: a[1])]
        if not lines and not gaps:  # only pointers and dangling pronouns were found: the best of them, not nothing
            lines = [x for x in [_summary_sentence([u for u in selected if u in in_findings and not u.pinned])] if x]
        if gaps:
            lines.append(gap_clause(gaps))
        return " ".join(lines)

    def _quality(self, findings: list[Finding], selected: list[Unit], parts: list[str], gaps: list[str]) -> Quality:
        cited = sum(1 for f in findings if f.citations)
        citation_rate = cited / len(findings) if findings else 0.0
        coherence = float(np.mean([u.dense for u in selected])) if selected else 0.0
        aspects = max(1, len(parts) or 1)
        completeness = max(0.0, 1.0 - len(gaps) / aspects) if findings else 0.0
        coherence = max(0.0, min(1.0, coherence / 0.6))  # 0.6 cosine ≈ squarely on topic for MiniLM
        overall = round(overall_quality(citation_rate, coherence, completeness), 3)
        return Quality(citation_rate=round(citation_rate, 3), coherence=round(coherence, 3),
                       completeness=round(completeness, 3), overall=overall)


def _summary_sentence(units: list[Unit]) -> str | None:
    """The best sentence that stands alone; else the best list item quoted after its lead-in; else None."""
    best = _summary_unit(units)
    if best is None:
        return None
    if not best.fragment:
        return cite(_sentence(best.text), [best.source])
    return cite(f"{best.lead_in.rstrip().rstrip(':')}: {_sentence(best.text.rstrip(' ;:,'))}", [best.source])


def _summary_unit(units: list[Unit]) -> Unit | None:
    """Whole sentences before list items, and a pointer or a dangling pronoun only when nothing else is left."""
    ranked = sorted(units, key=lambda u: (is_pointer(u.text, u.passage.section) or leans_on_context(u.text),
                                          -u.relevance))
    return next((u for u in ranked if not u.fragment), None) or next((u for u in ranked if u.lead_in), None)


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

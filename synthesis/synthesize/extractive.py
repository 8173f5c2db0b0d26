"""The offline synthesizer: every sentence it writes is quoted from a numbered source.

The question-answering itself (which sentences answer which part, whether the context answers at all) lives in
`synthesis.qa`; this module turns its reading into a Synthesis: a summary that leads with the answer, findings
grouped by part or section, contradictions, gaps and a calibrated quality.
"""

from __future__ import annotations

import asyncio
import math
import re
import time

import numpy as np
import structlog

from ..citations import cite, protect
from ..embedding import ANSWER, Embedder, RecentEmbeddings
from ..planner import main_noun_phrase
from ..models import Contradiction, Finding, Passage, Quality, Source, Synthesis, headings
from ..qa import Candidate, Expect, Frame, Reader, analyze, pick_answers, support
from ..qa.answerability import RELATED_SUPPORT, Support
from ..qa.kinds import holds
from ..qa.reader import asked_case, field_line, same_case
from ..qa.selection import parallel
from ..qa.values import asks_date
from ..sentences import (announces_next, content_stems, introduces_list, is_pointer, key_phrases, lead_joint,
                         lead_text, leans_on_context, points_back, sentence_units, split_sentences)
from ..verify import PLACEHOLDER, UNDOCUMENTED, Gap, as_clause, gap_clause, gap_text, overall_quality
from .base import Context, SynthesisOutcome
from .contradictions import (REPLACING, Claim, ClaimConflict, Verdict, compare, describe, find_contradictions, judge,
                             replaces, resolution)
from .quotes import (MAX_STEPS, continued_by, items_under, join_items, list_below, list_for, quote,
                     quote_all, same_list, step_list)
from .quotes import sentence as full_sentence

log = structlog.get_logger(__name__)

Unit = Candidate  # the name the rest of the synthesizer (and its tests) use for a candidate sentence
MAX_SENTENCES_PER_SOURCE = 60  # long passages: the first sentences carry the section's point
MAX_CANDIDATES = 150  # sentences read per question (every one is embedded): the answer time is bounded by it
ONE_LEAD = True  # the summary quotes a lead-in once: a later item under it reads without it
PARAGRAPH_NEXT_WORDS = 20  # the next sentence of a quoted line's paragraph is quoted with it when this short
JOIN_WORDS = 40  # a sentence pointing back is joined to the one before it when that one is at most this long
POINTER = re.compile(r"^(see|read|refer to|more in|details in|back to)\b", re.I)
TWIN_COSINE = 0.9  # sentences this similar say the same thing — unless they differ in a word the question uses
CONFLICT_SHARE = 0.5  # both sides of a reported disagreement score at least this share of their part's best answer
DISPUTE_MARGIN = 0.08  # a disagreement leads a part's answer only when a side is (nearly) the best answer to it
GENERIC_SECTIONS = {"", "overview", "introduction", "intro", "summary", "background", "notes", "general", "details"}
# Confidence: the weakest answered part's score maps to a support level (calibrated on handbook-qa dev questions;
# docs/ANSWERS.md). 'high' needs every part answered, the expected kind of answer, and no disagreement on the point.
HIGH_SUPPORT, MEDIUM_SUPPORT = 0.62, 0.45
# A "how do I" part's steps in full, as a finding of their own: the list that one of the part's STEP_LIST_RANKS
# best sentences belongs to, when it has at least 3 items (limits in quotes.py).
STEP_LIST_RANKS = 3
# Only answers whose kind can be seen in the quoted sentence (a number, a role, a place) can be 'high': an extract
# can show "240 hours" or "the first line supervisor", but not that a quoted rule settles a yes/no question, nor
# that a year is the year of what was asked ("In 2020, the CoE was codified into law" for "when did it get started").
CHECKABLE = {Expect.QUANTITY, Expect.WHO, Expect.WHERE}
SUPERSEDED = 0.8  # share of its relevance a sentence keeps when another retrieved page says it replaces its page


def source_list(context: Context) -> list[Source]:
    return [Source(number=s.number, passage_id=s.passage.id, doc_id=s.passage.doc_id, title=s.passage.title,
                   section=s.passage.section, url=s.passage.source_url) for s in context.sources]


def decomposition(question: str, sub_queries: list[str] | None = None) -> list[str]:
    """The question's parts (or comparison sides) as the reader sees them; [] for a one-part question.

    `sub_queries` (the planner's retrieval queries) is accepted for the callers' sake and not used: the reader
    splits the question itself, so verification and synthesis always agree on the parts."""
    frame = analyze(question)
    return [p.text for p in frame.parts] if len(frame.parts) > 1 else []


class ExtractiveSynthesizer:
    """Implements the Synthesizer seam without an LLM: every sentence it writes is quoted from a source.

    Args:
        embedder: the store's embedder (sentences are embedded in one batch per question).
        min_relevance: sentence floor for findings, on the reader's 0-1 relevance.
        detailed: more findings and sentences per finding.
    """

    name = "extractive"

    def __init__(self, embedder: Embedder, *, min_relevance: float = 0.33, detailed: bool = False,
                 mmr_lambda: float = 0.7, embed: RecentEmbeddings | None = None) -> None:
        self.embedder = embedder
        self.min_relevance = min_relevance
        self.detailed = detailed
        self.mmr_lambda = mmr_lambda
        # a second reading of a context (the agent looking again before refusing) embeds only its new sentences
        self.embed = embed or RecentEmbeddings(embedder.embed)
        self.reader = Reader(self.embed)

    def configured(self, *, detailed: bool) -> "ExtractiveSynthesizer":
        return ExtractiveSynthesizer(self.embedder, min_relevance=self.min_relevance, detailed=detailed,
                                     mmr_lambda=self.mmr_lambda, embed=self.embed)

    async def synthesize(self, question: str, context: Context, *, sub_queries: list[str] | None = None) -> SynthesisOutcome:
        started = time.perf_counter()
        synthesis, missing = await asyncio.to_thread(self._read, question, context)
        log.info("synthesize.extractive", sources=len(context.sources), findings=len(synthesis.findings),
                 contradictions=len(synthesis.contradictions), gaps=len(synthesis.gaps),
                 seconds=round(time.perf_counter() - started, 4))
        return SynthesisOutcome(synthesis=synthesis, synthesizer=self.name, missing=missing)

    # --- the pipeline (CPU-bound; runs in a worker thread) -------------------------------------------
    def _read(self, question: str, context: Context) -> tuple[Synthesis, list[str]]:
        if (answer := ANSWER.get()) is None:  # not inside an agent's answer: nothing to share with
            return self._synthesize(question, context)
        with self.embed.within(f"{answer}\n{question}"):  # a second reading in this answer embeds only what is new
            return self._synthesize(question, context)

    def _synthesize(self, question: str, context: Context) -> tuple[Synthesis, list[str]]:
        """The synthesis, and the question's terms that no source covers when that is why nothing answers."""
        frame = analyze(question)
        units = self._units(context)
        if not units:
            return Synthesis(summary="", sources=source_list(context)), []
        self.reader.score(frame, units)
        checked = support(frame, units, self.embed)
        if not checked.answerable:  # a neighbouring topic, not an answer: the agent says what is nearby instead
            log.info("synthesize.unanswerable", missing=checked.missing, unstated=checked.unstated,
                     per_part=[round(s, 3) for s in checked.per_part])
            return (Synthesis(summary="", gaps=[gap_text(question)], sources=source_list(context)),
                    checked.missing + checked.unstated)
        parts = [p.text for p in frame.parts] if len(frame.parts) > 1 else []
        gaps = self._gaps(frame, units, checked)
        gap_parts = {g.part for g in gaps}
        answerable = [u for u in units if u.part not in gap_parts]
        conflicts = self._contradictions(answerable)
        # a replaced page yields to the current one, except where they disagree: that is reported, current side first
        _demote_superseded(units, keep={(x.source, x.text) for c in conflicts for x in (c.a, c.b)})
        by_claim = {(u.source, u.text): u for u in units}
        passages = {s.number: s.passage for s in context.sources}
        verdicts = [judge(passages.get(c.a.source), c.a.source, passages.get(c.b.source), c.b.source,
                          related=list(passages.values())) for c in conflicts]
        disputes = list(zip(conflicts, verdicts))
        lines, answers, disputed = self._answer_lines(frame, answerable, disputes, by_claim, gap_parts,
                                                      {n: p.title for n, p in passages.items()})
        selected = self._select(answerable)
        for u in [*answers, *(by_claim[(x.source, x.text)] for c in conflicts for x in (c.a, c.b))]:
            u.pinned = True  # the summary's sentences and both sides of a disagreement are always in the findings
            if u not in selected:
                selected.append(u)
        # the side a verdict sets aside (a replaced page, an older one, a less authoritative one) comes after the
        # side it follows, in a finding as in the summary: the demo's rollback finding quoted the old wiki's 30
        # minutes first
        superseded = {(x.source, x.text) for c, v in disputes if v.winner is not None and v.loser is not None
                      for x in (c.a, c.b) if x.source == v.loser}
        findings = self._findings(selected, parts, gap_parts, frame, units, superseded=superseded)
        for steps in self._step_lists(frame, answerable, gap_parts, " ".join(lines)):
            findings.insert(min(1, len(findings)), steps)  # over the cap: the steps complete the best finding
        if gaps:
            lines.append(gap_clause(gaps))
        summary = " ".join(lines)
        quality = self._quality(frame, findings, answers, checked, gaps, disputed)
        contradictions = [Contradiction(description=describe(c), citations=sorted({c.a.source, c.b.source}),
                                        suggestion=v.suggestion) for c, v in disputes]
        return Synthesis(summary=summary, findings=findings, contradictions=contradictions,
                         gaps=[g.text for g in gaps], sources=source_list(context), quality=quality), []

    def _units(self, context: Context) -> list[Unit]:
        units: list[Unit] = []
        for src in context.sources:  # best source first: a long context stops at the cap, not at its best sentences
            if len(units) >= MAX_CANDIDATES:
                break
            for pos, sentence in enumerate(sentence_units(src.passage.content)[:MAX_SENTENCES_PER_SOURCE]):
                text = protect(sentence.text)  # the document's own [4] never reads as our citation
                if POINTER.match(text) and len(text.split()) <= 8:
                    continue  # "See Database migrations." points elsewhere; it answers nothing itself
                lead_in = protect(sentence.lead_in or (_section(src.passage) if sentence.listed else ""))
                subject = protect(_subject(text, src.passage))
                units.append(Unit(text=text, source=src.number, position=pos, passage=src.passage,
                                  fragment=sentence.fragment, lead_in=lead_in, subject=subject, code=sentence.code,
                                  goes_on=sentence.goes_on, row=sentence.row, paragraph=sentence.paragraph))
        return _join_back(_rejoin_lists(units))

    def _gaps(self, frame: Frame, units: list[Unit], checked: Support) -> list[Gap]:
        """Parts nothing answers, and parts the sources themselves say are not written down."""
        gaps: list[Gap] = []
        multi = len(frame.parts) > 1
        for j, part in enumerate(frame.parts):
            aspect = part.text if multi else frame.question
            concept = content_stems(main_noun_phrase(aspect))
            need = max(1, math.ceil(len(concept) * 2 / 3))
            # a sentence saying the concept is not written down, and about this part: "to-satisfy-only (undocumented,
            # please avoid) - packages are not upgraded …" shares "install packages" but is about an option
            mentions = [u for u in units if concept and len(concept & content_stems(u.text)) >= need
                        and u.support and u.support[j] >= RELATED_SUPPORT]
            # … or the part's best answer is an editor's placeholder, whatever its words ("FY24 FEVS results for TTSC
            # TK." for "how did TTSC score on the Federal Employee Viewpoint Survey")
            best = max((u for u in units if u.scores), key=lambda u: u.scores[j], default=None)
            flagged = next((u.source for u in mentions if UNDOCUMENTED.search(u.text)), None)
            if flagged is None and best is not None and not best.code and PLACEHOLDER.search(best.text):
                flagged = best.source
            if flagged is not None:
                gaps.append(Gap(j, aspect, gap_text(aspect, evidence=flagged), flagged, checked.per_part[j]))
            elif j in checked.unsupported and multi:
                gaps.append(Gap(j, aspect, gap_text(aspect), None, checked.per_part[j]))
        return gaps

    def _answer_lines(self, frame: Frame, units: list[Unit], disputes: list[tuple[ClaimConflict, Verdict]],
                      by_claim: dict[tuple[int, str], Unit], gap_parts: set[int],
                      titles: dict[int, str]) -> tuple[list[str], list[Unit], bool]:
        """The summary's answer sentences, one or two per part, in the question's order.

        A part whose best answer is (nearly) one side of a disagreement is answered with how the disagreement
        resolves; a disagreement about something else never leads the summary.
        """
        candidates = [u for u in units if not leans_on_context(u.text) or u.fragment] or units
        picked = pick_answers(frame, candidates, exclude=gap_parts)
        picked_ids = {id(u) for chosen in picked for u in chosen}  # quoted in their own turn, as answers
        lines: list[str] = []
        answers: list[Unit] = []
        disputed = False
        stated: set[int] = set()
        quoted: set[str] = set()  # sentences already in the summary, alone or as items of a quoted list
        led: set[tuple] = set()  # (document, lead-in) of the items quoted after their lead-in (ONE_LEAD)
        said_in_leads: set[tuple] = set()  # (document, sentence) of the sentences of those lead-ins
        case = asked_case(frame.question)
        for j, chosen in enumerate(picked):
            if not chosen:
                continue
            best = max(chosen, key=lambda u: u.scores[j])  # a side's section is in its order, not best first
            # a line that states the rule for the asker's own case answers it, whatever the general rule's dispute
            own_case = same_case(case, best.text)
            dispute = self._dispute_for(j, frame.parts[j].stems, best, disputes, by_claim, subject=not own_case)
            if dispute is not None and id(dispute[0]) not in stated:
                stated.add(id(dispute[0]))
                disputed = True
                part = frame.parts[j].text
                lines.append(_disagreement(dispute, part if len(frame.parts) > 1 else frame.question, titles))
                continue
            quotes: list[str] = []
            for u in chosen:
                if u.text in quoted or (u.lead_in and u.lead_in in quoted):  # already said, alone or in its list (or
                    continue  # the same line on another page)
                if ONE_LEAD and (u.document, u.text) in said_in_leads:
                    continue  # said as (part of) a lead-in already: "… and resubmit it. For example: …"
                if u.fragment and u.lead_in and any(
                        x is not u and x.text == u.lead_in and same_list(u, x) and x.text not in quoted
                        and u in items_under(x.text, x, units)[:MAX_STEPS] for x in chosen):
                    continue  # its lead-in is chosen too: quoted with its list, from the top, this item among them

                items, more = list_for(u, units, frame.parts[j].expect)
                lead = None if items else continued_by(u, units)
                if lead is not None and lead.text not in quoted:  # "… named Support me. This link may be: A; B."
                    items, more = list_for(lead, units, frame.parts[j].expect)  # -- the list is the answer
                if lead is not None and (lead.text in quoted or not items):
                    lead = None
                quoted.update(x.text for x in [u, *([lead] if lead else []), *items])
                if items:
                    quoted.add(items[0].lead_in)  # the list: a later item of it would quote it again
                then = None if items or lead else _next_in_paragraph(u, units, quoted, picked_ids)
                # an item whose lead-in the summary has quoted already reads without it ("You will need to make
                # manual adjustments … For example:" once, not before each example step)
                bare = ONE_LEAD and not items and u.fragment and (u.document, u.lead_in) in led
                alone = cite(full_sentence(u.text), [u.source]) if bare else quote(u)
                # the lead-in this quote prints: the item's own, its list's, or the sentence it continues
                printed = (lead.text if lead is not None else items[0].lead_in if items
                           else u.lead_in if u.fragment and not bare else "")
                if printed:
                    led.add((u.document, printed))
                    said_in_leads.update((u.document, x) for x in split_sentences(printed))
                if then is not None:
                    quoted.add(then.text)
                    quotes.append(f"{alone} {cite(full_sentence(then.text), [then.source])}")
                else:
                    quotes.append(f"{alone} {quote(lead, items, more)}" if lead else
                                  (quote(u, items, more) if items else alone))
                answers.extend(x for x in [u, *([lead] if lead else []), *items] if x not in answers)
                below = list_below([u, *([lead] if lead else []), *items], units)
                if below is not None and below[0].text not in quoted:  # "… the platforms listed below": the list
                    quoted.update(x.text for x in [below[0], *below[1]])
                    quotes.append(quote(*below))
                    answers.extend(x for x in [below[0], *below[1]] if x not in answers)
            if quotes:
                lines.append(" ".join(quotes))
        return lines, answers, disputed

    @staticmethod
    def _dispute_for(j: int, stems: set[str], best: Unit, disputes: list[tuple[ClaimConflict, Verdict]],
                     by_claim: dict[tuple[int, str], Unit], *, subject: bool = True,
                     ) -> tuple[ClaimConflict, Verdict] | None:
        """The disagreement this part asks about: a side is (nearly) its best answer, or (with `subject`) the
        disputed subject is the part's own subject (two or more of its words, e.g. "approve" and "hotfix" for "who
        approves a hotfix")."""
        for c, v in disputes:
            sides = [by_claim[(x.source, x.text)] for x in (c.a, c.b)]
            if not all(s.part == j for s in sides):
                continue
            close = any(s is best or s.scores[j] + DISPUTE_MARGIN >= best.scores[j] for s in sides)
            if close or (subject and len(set(c.conflict.shared) & stems) >= 2):
                return c, v
        return None

    def _select(self, units: list[Unit]) -> list[Unit]:
        """MMR over sentences above the floor, each part its own share, so one part cannot crowd out another."""
        limit = 14 if self.detailed else 8
        pool = [u for u in units if u.relevance >= self.min_relevance]
        buckets: dict[int, list[Unit]] = {}
        for u in pool:
            buckets.setdefault(u.part, []).append(u)
        share = limit if len(buckets) <= 1 else max(3, limit // len(buckets))
        chosen: list[Unit] = []
        for bucket in buckets.values():
            self._mmr(bucket, chosen, share)
        return chosen

    def _mmr(self, pool: list[Unit], chosen: list[Unit], limit: int) -> None:
        taken = 0
        pool = list(pool)
        while pool and taken < limit:
            def score(u: Unit) -> float:
                redundancy = max((float(u.vector @ c.vector) for c in chosen), default=0.0)
                return self.mmr_lambda * u.relevance - (1 - self.mmr_lambda) * redundancy
            best = max(pool, key=score)
            pool.remove(best)
            twins = [c for c in chosen if float(best.vector @ c.vector) >= TWIN_COSINE]
            if twins and not any(_differs(best, t) for t in twins):
                continue  # a restatement adds nothing; a near-twin that differs in substance is what to show
            chosen.append(best)
            taken += 1

    def _findings(self, selected: list[Unit], parts: list[str], gap_parts: set[int], frame: Frame,
                  units: list[Unit], *, superseded: frozenset[tuple[int, str]] | set[tuple[int, str]] = frozenset(),
                  ) -> list[Finding]:
        """Sentences grouped by question part (or by section), best group first; parts that are gaps go last."""
        groups: dict[str, list[Unit]] = {}
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
        per_finding = 5 if self.detailed else 3
        findings: list[tuple[float, Finding]] = []
        for key, members in groups.items():
            members = sorted(members, key=lambda u: (not u.pinned, -u.relevance))[:per_finding]
            # read in document order, a side set aside by a disagreement's verdict after the rest
            ordered = sorted(members, key=lambda u: ((u.source, u.text) in superseded, u.source, u.position))
            content = quote_all(ordered, units)
            citations = sorted({u.source for u in members})
            best = max(u.relevance for u in members)
            is_gap = key.startswith("part:") and int(key[5:]) in gap_parts
            fits = any(holds(frame.parts[min(u.part, len(frame.parts) - 1)], u) for u in members)
            confidence = "low" if is_gap else _confidence(best, len(citations), fits)
            pinned = any(u.pinned for u in members)
            findings.append((best + (0.5 if pinned else 0.0) - (1.0 if is_gap else 0.0),
                             Finding(topic=labels[key], content=content, citations=citations, confidence=confidence)))
        findings.sort(key=lambda item: -item[0])
        return [f for _, f in findings[:7 if self.detailed else 4]]

    @staticmethod
    def _step_lists(frame: Frame, units: list[Unit], gap_parts: set[int], summary: str) -> list[Finding]:
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

    def _contradictions(self, units: list[Unit]) -> list[ClaimConflict]:
        """Conflicts among the sentences that answer the question: each side scores close to the best answer of its
        part, so a disagreement about a side topic of the retrieved pages is not reported as the question's."""
        best = {}
        for u in units:
            best[u.part] = max(best.get(u.part, 0.0), u.relevance)
        # a line of a sample config or command states no policy: two examples with other values do not disagree
        ranked = sorted((u for u in units if not u.code
                         and u.relevance >= max(self.min_relevance, CONFLICT_SHARE * best[u.part])),
                        key=lambda u: -u.relevance)[:30]
        claims = [Claim(u.text, u.source, u.passage.doc_id, u.vector, u.passage.content) for u in ranked]
        return find_contradictions(claims, limit=3)

    def _quality(self, frame: Frame, findings: list[Finding], answers: list[Unit], checked: Support,
                 gaps: list[Gap], disputed: bool) -> Quality:
        """Citation rate, coherence and completeness as before, plus `support`: how strongly the weakest answered
        part is answered, which caps the overall score (so 'high' means the evidence answers every part)."""
        cited = sum(1 for f in findings if f.citations)
        citation_rate = cited / len(findings) if findings else 0.0
        coherence = float(np.mean([u.dense for u in answers])) if answers else 0.0
        coherence = max(0.0, min(1.0, coherence / 0.6))  # 0.6 cosine ≈ squarely on topic for MiniLM
        completeness = max(0.0, 1.0 - len(gaps) / len(frame.parts)) if findings else 0.0
        answered = [s for j, s in enumerate(checked.per_part) if j not in {g.part for g in gaps}]
        weakest = min(answered, default=0.0)
        fits = all(any(holds(frame.parts[j], u) for u in answers if u.part == j or len(frame.parts) == 1)
                   for j in range(len(frame.parts)) if j not in {g.part for g in gaps})
        strength = 0.9 if weakest >= HIGH_SUPPORT else 0.6 if weakest >= MEDIUM_SUPPORT else 0.3
        checkable = all(p.expect in CHECKABLE and not asks_date(p.text) for p in frame.parts)
        if not fits or not checkable or disputed or gaps:
            strength = min(strength, 0.6)
        overall = round(min(overall_quality(citation_rate, coherence, completeness), strength), 3)
        return Quality(citation_rate=round(citation_rate, 3), coherence=round(coherence, 3),
                       completeness=round(completeness, 3), overall=overall, support=strength)


def _demote_superseded(units: list[Unit], *, keep: set[tuple[int, str]]) -> None:
    """A page another retrieved page says it replaces ("… replaces the rollback section of the old incident wiki
    page") answers only where the current one does not: its sentences keep SUPERSEDED of their scores. Without this
    "How do I roll back a deploy?" led with the old wiki's "Use shipit rollback <app> …" although the policy that
    replaces it was retrieved too. Sentences in `keep` (sides of a disagreement, by source and text) keep their
    scores: the disagreement leads its part with the current side and marks the other outdated. Answerability has
    read the scores already: an old page still shows the topic is covered. Limits: the whole replaced document
    yields, also sections the replacing page does not name ("replaces the rollback section of …" demotes all of the
    old wiki), and only pages with sentences among the candidates are compared (`judge` reads the whole context)."""
    passages = list({id(u.passage): u.passage for u in units}.values())
    if not any(REPLACING.search(p.content) for p in passages):
        return  # the common case: no page says it replaces anything
    old = {lo.doc_id for lo in passages for w in passages
           if w.doc_id != lo.doc_id and replaces(w, lo, passages) and not replaces(lo, w, passages)}
    for u in units:
        if u.passage.doc_id in old and u.scores and (u.source, u.text) not in keep:
            u.scores = [x * SUPERSEDED for x in u.scores]
            u.relevance = u.scores[u.part]  # the same factor for every part: the part it answers best is unchanged


def _differs(a: Unit, b: Unit) -> bool:
    """Near-twins worth keeping both: different numbers, a different question word, or an outright conflict."""
    nums_a, nums_b = set(re.findall(r"\d+(?:\.\d+)?", a.text)), set(re.findall(r"\d+(?:\.\d+)?", b.text))
    if nums_a != nums_b:
        return True
    sa, sb = content_stems(a.text), content_stems(b.text)
    return bool(sa ^ sb) and compare(a.text, b.text) is not None or bool((sa - sb) or (sb - sa)) and len(sa ^ sb) <= 2


def _disagreement(dispute: tuple[ClaimConflict, Verdict], subject: str, titles: dict[int, str]) -> str:
    verb, clause = as_clause(subject) if subject else ("", "")
    narrow = verb == "explain" and not re.match(r"how (?!quickly|fast|long|soon|often|many|much|far)\b", clause, re.I)
    return resolution(dispute[0], dispute[1], titles=titles, subject=clause if narrow else "")


# "This option tells CTest to write …": the sentence names its subject only by its kind; the heading names it.
_THIS_KIND = re.compile(r"^(?:this|that|such an?)\s+(?:option|flag|switch|setting|variable|environment variable|"
                        r"command|subcommand|property|field|value|key|parameter|argument|directive|function|method|"
                        r"module|policy|preset|mode|generator|keyword|entry|member|config|configuration)\b", re.I)
# A heading that names one thing of a reference: an option, an identifier ("--output-junit <file>", "cmakeExecutable",
# "loglevel", "CMAKE_BUILD_TYPE"), not a prose heading ("Run Tests", "Description").
_IDENTIFIER = re.compile(r"^-|[_.()<>$=]|[a-z][A-Z]|^[A-Z0-9_]{2,}$|^[a-z][a-z0-9-]*$")


def _subject(text: str, p: Passage) -> str:
    """The innermost heading when `text` names its subject only as "this option", or is a short field line of it
    ("Default: 3" under "net.retry"), and the heading is an identifier."""
    heading = headings(p.section)[-1]
    if not heading or len(heading) > 60 or not (field_line(text) or _THIS_KIND.match(text)) or (
            heading.lower() in GENERIC_SECTIONS):
        return ""
    return heading if _IDENTIFIER.search(heading) else ""


def _section(p) -> str:
    """The passage's own heading when it says something (what a list at the top of a chunk hangs off)."""
    section = headings(p.section)[-1]
    return section if section.lower() not in GENERIC_SECTIONS else ""


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


def _next_in_paragraph(u: Unit, units: list[Unit], quoted: set[str], picked: set[int]) -> Unit | None:
    """The short sentence right after `u` in the same paragraph, not yet quoted: what a paragraph's answer goes on
    to say ("If you only use GitHub from the web interface, you do not need to configure signing." → "The web
    interface automatically signs your work for you."). None after a lead-in ending in ':' or a question (a line
    announcing a list none of whose items was retrieved does go on: "… choose one of the following compilation
    targets." then "For the STM32F3DISCOVERY board …, use the thumbv7em-none-eabihf target."), and for a sentence
    that is a lead-in (ending in ':' or announcing a list), a question or a pointer itself, one picked as an answer
    (its own turn quotes it), or one that states the same rule for another case (`parallel`: "A secondary
    caregiver receives up to 6 weeks …" after the primary caregiver's 16). Code lines and table rows have no
    paragraph."""
    if u.paragraph < 0 or u.text.rstrip().endswith((":", "?")):
        return None
    for v in units:
        if (v.passage is u.passage and v.position == u.position + 1 and v.paragraph == u.paragraph
                and id(v) not in picked and v.text not in quoted and len(v.text.split()) <= PARAGRAPH_NEXT_WORDS
                and not v.text.rstrip().endswith((":", "?")) and not introduces_list(v.text)
                and not is_pointer(v.text, v.passage.section) and not parallel(v, u)):
            return v
    return None


REJOIN_LISTS = True


def _rejoin_lists(units: list[Unit]) -> list[Unit]:
    """A list whose lead-in closed the chunk before it ("… follow the steps and guidelines below." then, in the next
    chunk, "1. Make a local copy of the Outside Speaker Checklist."), read under that lead-in again when both chunks
    of the document (same collection, same version) are in the context: its opening items hang off the section
    heading, and the lead-in quoted alone says nothing."""
    if not REJOIN_LISTS:
        return units
    by_chunk: dict[tuple, list[Unit]] = {}
    for u in units:
        by_chunk.setdefault((*u.document, u.passage.chunk_index), []).append(u)
    for (*doc, index), chunk in by_chunk.items():
        last = max(chunk, key=lambda u: u.position)
        nxt = sorted(by_chunk.get((*doc, index + 1), []), key=lambda u: u.position)
        announced = announces_next(last.passage.content)
        if not nxt or nxt[0].position != 0 or not announced or last.text != protect(announced):
            continue  # (the lead-in must be the passage's own last sentence, and the list must open the next chunk)
        opening = nxt[0].lead_in
        led: set[str] = set()  # the items re-led so far: an item nested under one of them stays under it
        for u in nxt:
            if u.fragment and u.lead_in in led:
                led.add(u.text)  # (and an item nested under that one)
                continue
            if not u.fragment or not u.lead_in or u.lead_in != opening or u.code:
                break
            led.add(u.text)
            u.lead_in = last.text
    return units


def _join_back(units: list[Unit]) -> list[Unit]:
    """A sentence that points back ("This request will require approval from your supervisor and the head of your
    division.", "It must be longer than 14 characters.") is one unit with the sentence just before it: read alone
    its subject is missing, so it neither scores for it nor makes sense quoted. Sentences of prose, or a list item's
    later sentence with the item's first ("Change the phone's passcode. It must be longer …"); never code; one join
    per unit, and only after a sentence of at most JOIN_WORDS words. Positions close up behind a
    join, so the unit after the pair is still the next one (a "why" answer reads on from a restated premise)."""
    joined: list[Unit] = []
    closed: dict[int, int] = {}  # per passage: sentences folded into the one before them so far
    for u in units:
        prev = joined[-1] if joined else None
        key = id(u.passage)
        if (prev is not None and prev.passage is u.passage and prev.position == u.position - closed.get(key, 0) - 1
                and (u.goes_on or (not prev.fragment and not u.fragment))  # (a code line is listed: a fragment)
                and not prev.joined
                and len(prev.text.split()) <= JOIN_WORDS and points_back(u.text)):
            prev.text = f"{prev.text} {u.text}"
            prev.joined = True
            closed[key] = closed.get(key, 0) + 1
            continue
        u.position -= closed.get(key, 0)
        joined.append(u)
    return joined


__all__ = ["ExtractiveSynthesizer", "Unit", "decomposition", "source_list"]

"""The offline synthesizer: every sentence it writes is quoted from a numbered source.

The question-answering itself (which sentences answer which part, whether the context answers at all) lives in
`synthesis.qa`; this module turns its reading into a Synthesis: a summary that leads with the answer (summary.py),
findings grouped by part or section (findings.py), contradictions, gaps and a calibrated quality. The candidates it
reads are the context's sentences (candidates.py).
"""

from __future__ import annotations

import asyncio
import math
import re
import time

import numpy as np
import structlog

from ..embedding import ANSWER, Embedder, RecentEmbeddings, batch_invariant
from ..models import Contradiction, Finding, Quality, Source, Synthesis
from ..planner import main_noun_phrase
from ..qa import Candidate, Expect, Frame, Reader, analyze, kinds, support
from ..qa.question import Part
from ..qa.answerability import Support
from ..qa.asker import asks_each, case_numbers, opposite_kinds, same_number, words_of
from ..qa.kinds import asks_holder, holds
from ..qa.reader import RELATED_SUPPORT
from ..qa.values import DURATION, PRICE, WAIT, asked_value, asks_date, states_value
from ..stems import content_stems
from ..verify import PLACEHOLDER, UNDOCUMENTED, Gap, gap_clause, gap_text, overall_quality
from .base import Context, SynthesisOutcome
from .candidates import authored, candidates
from .contradictions import REPLACING, Claim, ClaimConflict, describe, find_contradictions, judge, replaces
from .findings import findings, select, step_lists
from .summary import answer_lines

log = structlog.get_logger(__name__)

CONFLICT_SHARE = 0.5  # both sides of a reported disagreement score at least this share of their part's best answer
# Confidence: the weakest answered part's score maps to a support level (calibrated on handbook-qa dev questions;
# docs/ANSWERS.md). 'high' needs every part answered, the expected kind of answer, and no disagreement on the point.
HIGH_SUPPORT, MEDIUM_SUPPORT = 0.62, 0.45
# Only answers whose kind can be seen in the quoted sentence (a number, a role, a place) can be 'high': an extract
# can show "240 hours" or "the first line supervisor", but not that a quoted rule settles a yes/no question, nor
# that a year is the year of what was asked ("In 2020, the CoE was codified into law" for "when did it get started"),
# nor that a name is the holder of the role a question names ("Who is the current director of …?": kinds.asks_holder).
CHECKABLE = {Expect.QUANTITY, Expect.WHO, Expect.WHERE}
# vectors kept across answers when the embedder's do not depend on their batch (~1.5 kB each at 384 dimensions: ~50 MB);
# a workspace's questions keep reading the same pages
SHARED_VECTORS = 32768
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
        # a second reading of a context (the agent looking again before refusing) embeds only its new sentences, and
        # with an embedder whose vectors do not depend on their batch, neither does a later answer's reading
        if embed is None:
            shared = batch_invariant(embedder)
            embed = RecentEmbeddings(embedder.embed, SHARED_VECTORS if shared else 4096, shared=shared)
        self.embed = embed
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
        units = candidates(context)
        if kinds.asks_author(question):  # "Who wrote the New Supervisor Playbook?"
            units += authored(context, question)
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
        lines, answers, disputed = answer_lines(frame, answerable, disputes, by_claim, gap_parts,
                                                {n: p.title for n, p in passages.items()})
        selected = select(answerable, floor=self.min_relevance, limit=14 if self.detailed else 8,
                          mmr_lambda=self.mmr_lambda)
        for u in [*answers, *(by_claim[(x.source, x.text)] for c in conflicts for x in (c.a, c.b))]:
            u.pinned = True  # the summary's sentences and both sides of a disagreement are always in the findings
            if u not in selected:
                selected.append(u)
        # the side a verdict sets aside (a replaced page, an older one, a less authoritative one) comes after the
        # side it follows, in a finding as in the summary: the demo's rollback finding quoted the old wiki's 30
        # minutes first
        superseded = {(x.source, x.text) for c, v in disputes if v.winner is not None and v.loser is not None
                      for x in (c.a, c.b) if x.source == v.loser}
        found = findings(selected, parts, gap_parts, frame, units, detailed=self.detailed, superseded=superseded)
        for steps in step_lists(frame, answerable, gap_parts, " ".join(lines)):
            found.insert(min(1, len(found)), steps)  # over the cap: the steps complete the best finding
        if gaps:
            lines.append(gap_clause(gaps))
        summary = " ".join(lines)
        quality = self._quality(frame, found, answers, checked, gaps, disputed)
        contradictions = [Contradiction(description=describe(c), citations=sorted({c.a.source, c.b.source}),
                                        suggestion=v.suggestion) for c, v in disputes]
        return Synthesis(summary=summary, findings=found, contradictions=contradictions,
                         gaps=[g.text for g in gaps], sources=source_list(context), quality=quality), []

    def _gaps(self, frame: Frame, units: list[Candidate], checked: Support) -> list[Gap]:
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

    def _contradictions(self, units: list[Candidate]) -> list[ClaimConflict]:
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

    def _quality(self, frame: Frame, found: list[Finding], answers: list[Candidate], checked: Support,
                 gaps: list[Gap], disputed: bool) -> Quality:
        """Citation rate, coherence and completeness as before, plus `support`: how strongly the weakest answered
        part is answered, which caps the overall score (so 'high' means the evidence answers every part)."""
        cited = sum(1 for f in found if f.citations)
        citation_rate = cited / len(found) if found else 0.0
        coherence = float(np.mean([u.dense for u in answers])) if answers else 0.0
        coherence = max(0.0, min(1.0, coherence / 0.6))  # 0.6 cosine ≈ squarely on topic for MiniLM
        completeness = max(0.0, 1.0 - len(gaps) / len(frame.parts)) if found else 0.0
        answered = [s for j, s in enumerate(checked.per_part) if j not in {g.part for g in gaps}]
        weakest = min(answered, default=0.0)
        fits = all(any(holds(frame.parts[j], u) and _states_own(frame.parts[j], u)
                       for u in answers if u.part == j or len(frame.parts) == 1)
                   for j in range(len(frame.parts)) if j not in {g.part for g in gaps})
        strength = 0.9 if weakest >= HIGH_SUPPORT else 0.6 if weakest >= MEDIUM_SUPPORT else 0.3
        checkable = all(p.expect in CHECKABLE and not asks_date(p.text) and not asks_holder(p.text)
                        for p in frame.parts)
        asked_kind, opposite = opposite_kinds(frame.question)
        other_case = any(opposite & words_of(u.text) and not asked_kind & words_of(u.text) for u in answers)
        # a where-part answered only by lines naming the question's own places ("… in Docusign", "the form")
        other_case = other_case or (kinds.PLACES_TOLD and any(
            p.expect is Expect.WHERE and (mine := [u for u in answers if u.part == j])
            and all(kinds.places_told_only(p, u.text) for u in mine) for j, p in enumerate(frame.parts)))
        # a number part whose asking sets its case by a number ("If I go on … with nine-hour days, how many of those
        # days …") answered by lines that state no such number: about another case, or about none (TOLD_CASE)
        told = case_numbers(frame.question) if TOLD_CASE else {}
        other_case = other_case or (bool(told) and any(
            p.expect is Expect.QUANTITY and (mine := [u for u in answers if u.part == j or len(frame.parts) == 1])
            and not any(same_number(told, f"{u.lead_in} {u.text}") for u in mine)
            for j, p in enumerate(frame.parts) if j not in {g.part for g in gaps}))
        other_case = other_case or (len(frame.parts) == 1 and asks_each(frame.question))  # (asker.EACH_ASKED)
        # a who-part answered only by lines naming whom by "this program" (THIS_WHO)
        other_case = other_case or (THIS_WHO and any(
            p.expect is Expect.WHO and (mine := [u for u in answers if u.part == j or len(frame.parts) == 1])
            and all(_names_by_this(u.text) for u in mine)
            for j, p in enumerate(frame.parts) if j not in {g.part for g in gaps}))
        if not fits or not checkable or disputed or gaps or other_case:  # (a quoted rule of the opposite kind,
            strength = min(strength, 0.6)  # "… a public GitHub repo" for a private one: never 'high')
        overall = round(min(overall_quality(citation_rate, coherence, completeness), strength), 3)
        return Quality(citation_rate=round(citation_rate, 3), coherence=round(coherence, 3),
                       completeness=round(completeness, 3), overall=overall, support=strength)


# "If I go on an alternative work schedule with nine-hour days, how many of those days do I work in a pay period?"
# was a wrong 'high' quoting "you do not have to work the full 10 days in a pay period" (hp34-11): a case the asker
# sets by a number is answered only where a quoted line states that number
TOLD_CASE = True

# "Who do I talk to about getting assistive tech through the DoD Computer Accommodation Program?" was a wrong 'high'
# quoting "Work with this program within the Office of Civil Rights to get assistive technology solutions …" (hp63): a
# line that names whom by a demonstrative ("this program", "that team") leans on a heading or a line the answer does
# not quote, and a who-part answered only so is never 'high' (THIS_WHO; only a group or a person so named: "these
# requests", "the team that owns the repository" name whom plainly)
THIS_WHO = True
_THIS_THING = re.compile(r"\b(?:this|that|these|those)\s+(?P<noun>program|office|team|group|division|branch|unit|"
                         r"center|service|person|contact|coordinator|specialist|staff|committee|board|desk)s?\b", re.I)


def _names_by_this(text: str) -> bool:
    """The line names a group or person by a demonstrative whose noun it has not named before ("Work with this program
    …"; not "The Outreach Team determines editorial strategy; that team also oversees …")."""
    return any(not re.search(rf"\b{re.escape(m.group('noun'))}", text[:m.start()], re.I)
               for m in _THIS_THING.finditer(text))


# A value asked ("How long does the 18F Team Coffee meeting run?") is 'high' only where the quoted line states it
# itself: "Within the first two weeks: (For 18F) reach out … to welcome the new employee at Team Coffee." holds a
# duration in its lead-in only, which dates the step, not the meeting (hp32-06 had been a wrong 'high'; OWN_VALUE)
OWN_VALUE = True
# … and, for a duration or a price, outside an aside in brackets that opens a clause of its own: "While you wait for the
# ID number to be generated and sent to you via email (which can take up to 1 business day), you can get started on
# applying for the GSA travel card." times the ID number, not the card (hp44-22 had been a wrong 'high' for "How long
# until I can actually use it?"; ASIDE_VALUE). Not "Ride a MARC train ($7) to Union Station.", whose brackets give the
# train's price, nor a line that is all one bracket.
ASIDE_VALUE = True
_ASIDE = re.compile(r"(?<=\S)\s*\((?:which|that|who|whose|where|when|while)\b[^()]*\)", re.I)


def _states_own(part: Part, u: Candidate) -> bool:
    """The line itself, not its lead-in alone nor a clause in brackets, states the value the part asks for (when it
    asks one)."""
    asked = asked_value(part.text) if OWN_VALUE and part.expect is Expect.QUANTITY else None
    if asked is None:
        return True
    aside = ASIDE_VALUE and asked[0] in (DURATION, WAIT, PRICE)  # (a wait: a duration or a date)
    return states_value(_ASIDE.sub(" ", u.text) if aside else u.text, asked[0])


def _demote_superseded(units: list[Candidate], *, keep: set[tuple[int, str]]) -> None:
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


__all__ = ["ExtractiveSynthesizer", "decomposition", "source_list"]

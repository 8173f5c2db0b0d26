"""The agent loop: plan → parallel subagents → aggregate → bounded context → synthesize → verify (→ refine once).

With a Researcher (Claude) the LLM drives retrieval through the same subagents; if it fails, the offline path
answers and the result says so.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import structlog

from . import citations
from .aggregate import aggregate, closest_topics
from .config import Settings
from .embedding import ANSWER
from .errors import (ClaudeRefused, InvalidQuery, KnowledgeBaseMissing, ModelMismatch, StoreUnavailable,
                     SynthesisError)
from .lists import bullets_go_on, ends_in_steps, has_list, last_bullets, numbered_items, steps_go_on
from .models import (AggregatedResults, AnswerResult, AskOptions, Passage, Plan, SearchMode, Step, SubagentResult,
                     Synthesis, Turn)
from .planner import plan as make_plan
from .qa.answerability import LOOKED_FOR, covering
from .qa.kinds import mostly_instructions
from .retrieval import CONTINUES, PRECEDES
from .sentences import announces_next
from .stems import as_written, keyword_query
from .store import KnowledgeStore
from .subagents import SearchBackend, as_passage, run_subagents
from .synthesize.base import Context, Researcher, Synthesizer
from .synthesize.context import TokenCounter, build_context, default_counter
from .synthesize.extractive import ExtractiveSynthesizer, decomposition, source_list
from .verify import Verification, verify

log = structlog.get_logger(__name__)

NO_ANSWER = "I couldn't find this in the knowledge base."
LOW_CONFIDENCE_PREFIX = "Based on limited information, "
REFINE_BELOW = 0.67  # completeness under this (e.g. one of two parts unanswered) earns one refinement round
LOW_SCORE_MARGIN = 0.08  # best passage within this of the floor: the knowledge base barely touches the question
STANDALONE_DEADLINE = 15.0  # one short call; past this the offline rewrite is good enough and the answer waits less
OFFLINE_RESERVE = 20.0  # seconds of a question's deadline kept for the offline fallback when Claude fails or hangs
RESERVE_SHARE = 0.25  # ... but never more than this share of a short deadline, so Claude still gets most of it
LOOK_FOR_WORDS = 3  # missing words searched for again before a refusal
LOOK_K = 4  # passages per missing word: enough to show the knowledge base uses it, few enough not to crowd the rest
# A passage among the best CONTINUE_TOP that ends announcing what follows is read with the next chunk of its document
# (`Agent._continued`).
CONTINUE_CUT = True
CONTINUE_TOP = 8
# … and when that chunk holds no list (a section's opening prose), with the one after it too, up to this many chunks
CONTINUE_HOPS = 2
# … and so is one that ends inside a numbered list: a procedure cut by chunking, its later steps in the next chunk
CONTINUE_STEPS = True
# … and one that ends inside a bulleted list of instructions this long ("- Make your changes." … "- On the pull request
# page, give your PR a short title …", then "- Click the `Create pull request` button." in the next chunk)
CONTINUE_BULLETS, BULLET_STEPS = True, 3
# A passage among the best LEAD_TOP that is a later chunk of its section is read after the chunk before it when that
# chunk is in the same section (`Agent._led`): "The Federal IT Acquisition Reform Act, or FITARA, is U.S. legislation
# enacted on December 19, 2014 …" opens "What is FITARA", whose second chunk ranks second.
LEAD_TOP = 3
FINISH_MARGIN = 3.0  # seconds the offline path keeps after its searches to synthesize (a quarter of a short reserve)
Progress = Callable[[str], Awaitable[None]]


def _cut_steps(p: Passage) -> bool:
    """The passage ends inside a numbered list of instructions (CONTINUE_STEPS), or a bulleted one of at least
    BULLET_STEPS items (CONTINUE_BULLETS): its next chunk is read with it when it goes on with the list in the same
    section (`lists.steps_go_on`, `lists.bullets_go_on`), and no further."""
    if CONTINUE_STEPS and ends_in_steps(p.content) and mostly_instructions(numbered_items(p.content)):
        return True
    bullets = last_bullets(p.content) if CONTINUE_BULLETS else []
    return len(bullets) >= BULLET_STEPS and mostly_instructions(bullets)


def _goes_on(end: Passage, nxt: Passage) -> bool:
    """`nxt` goes on with the list of instructions `end` was cut inside."""
    if ends_in_steps(end.content):
        return steps_go_on(end.content, nxt.content)
    return bullets_go_on(nxt.content)


class Budget:
    """One question's deadline, passed down: Claude's research and the follow-up rewrite get what is left after a
    reserve for the offline fallback, so a failing or hanging Claude still leaves time to answer offline."""

    def __init__(self, seconds: float | None) -> None:
        self.total = seconds
        self.end = None if seconds is None else time.monotonic() + seconds
        self.reserve = 0.0 if seconds is None else min(OFFLINE_RESERVE, RESERVE_SHARE * seconds)

    def left(self) -> float | None:
        return None if self.end is None else max(0.0, self.end - time.monotonic())

    def for_claude(self, cap: float) -> float:
        """Seconds an LLM step may take: its own cap, within what is left after the offline reserve."""
        left = self.left()
        return cap if left is None else max(0.0, min(cap, left - self.reserve))

    def for_search(self, cap: float) -> float:
        """A subagent timeout that leaves FINISH_MARGIN for synthesis before the deadline."""
        left = self.left()
        return cap if left is None else max(0.5, min(cap, max(0.75 * left, left - FINISH_MARGIN)))


class _Run:
    """Per-question bookkeeping: steps with durations, notices, subagents."""

    def __init__(self, progress: Progress | None, budget: Budget | None = None) -> None:
        self.budget = budget or Budget(None)
        self.started = time.perf_counter()
        self.steps: list[Step] = []
        self.notices: list[str] = []
        self.subagents: list[SubagentResult] = []
        self._progress = progress
        self._t = time.perf_counter()

    async def say(self, message: str) -> None:
        if self._progress is not None:
            try:
                await self._progress(message)
            except Exception as exc:  # a broken progress callback must not break the answer
                log.warning("agent.progress_failed", error=str(exc))

    def step(self, name: str, **detail: Any) -> None:
        now = time.perf_counter()
        self.steps.append(Step(name=name, duration=round(now - self._t, 4), detail=detail))
        log.info("agent.step", step=name, seconds=round(now - self._t, 4), **detail)
        self._t = now


class Agent:
    """Answers questions from one knowledge base.

    Args:
        settings: thresholds, budgets, timeouts.
        retriever: anything with `Retriever.search`'s signature (synchronous; run in the executor).
        synthesizer: the offline synthesizer (or any Synthesizer).
        researcher: an LLM that drives retrieval itself; None for offline only.

    Example:
        >>> agent = build_agent(settings, open_store(settings))
        >>> result = asyncio.run(agent.answer("How do we roll back a deploy?"))
        >>> result.synthesis.summary, result.synthesis.findings[0].citations
    """

    def __init__(self, settings: Settings, retriever: SearchBackend, synthesizer: Synthesizer, *,
                 researcher: Researcher | None = None, counter: TokenCounter | None = None,
                 executor: ThreadPoolExecutor | None = None) -> None:
        self.settings = settings
        self.retriever = retriever
        self.synthesizer = synthesizer
        self.researcher = researcher
        self.counter = counter or default_counter()
        self.executor = executor or ThreadPoolExecutor(max_workers=settings.max_workers, thread_name_prefix="subagent")

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)

    def over(self, retriever: SearchBackend) -> "Agent":
        """This agent over another search backend (a channel's scope), sharing its synthesizers and thread pool."""
        return Agent(self.settings, retriever, self.synthesizer, researcher=self.researcher, counter=self.counter,
                     executor=self.executor)

    async def answer(self, question: str, *, history: Sequence[Turn] = (), options: AskOptions | None = None,
                     progress: Progress | None = None, deadline: float | None = None, channel=None) -> AnswerResult:
        """One verified answer. Raises InvalidQuery (empty), KnowledgeBaseMissing; never raises for 'not found'.

        `channel` is not used here: this agent searches its one backend; under channel rules synthesis.scoped
        picks the backend for the channel before it gets here.

        `deadline` (seconds; default SYNTHBOT_ANSWER_TIMEOUT, which also bounds the Slack edge's wait) is one budget
        for the whole answer: Claude's rewrite and research get what is left after OFFLINE_RESERVE, so the offline
        fallback still answers in time when Claude fails or hangs.
        """
        if not question or not question.strip():
            raise InvalidQuery("the question is empty — ask something, e.g. `synthbot ask \"How do we deploy?\"`")
        options = options or AskOptions()
        run = _Run(progress, Budget(self.settings.answer_timeout if deadline is None else deadline))
        token = ANSWER.set(uuid.uuid4().hex)  # this answer's readings share embeddings (a second reading is cheap)
        try:
            await run.say("Planning the question…")
            plan, rewriter = await self._plan(question.strip(), history, run.budget)
            run.step("plan", question_type=plan.question_type.value, sub_queries=len(plan.sub_queries),
                     rewritten=plan.standalone != question.strip(), rewriter=rewriter)
            if self.researcher is not None and not options.sources_only:
                result = await self._research(question, plan, history, options, run)
                if result is not None:
                    return result
            return await self._offline(question, plan, options, run)
        finally:
            ANSWER.reset(token)

    async def _plan(self, question: str, history: Sequence[Turn], budget: Budget) -> tuple[Plan, str]:
        """The plan, from Claude's standalone rewrite of a follow-up when a researcher is configured."""
        rewrite = getattr(self.researcher, "standalone", None)
        if not history or rewrite is None:
            return make_plan(question, history), "heuristic" if history else "none"
        timeout = budget.for_claude(min(STANDALONE_DEADLINE, self.settings.claude_deadline))
        if timeout <= 0:
            log.warning("agent.standalone_skipped", reason="deadline")
            return make_plan(question, history), "heuristic"
        try:
            standalone = await asyncio.wait_for(rewrite(question, history), timeout=timeout)
        except (SynthesisError, TimeoutError) as exc:  # the offline heuristic still resolves most follow-ups
            log.warning("agent.standalone_failed", error=f"{type(exc).__name__}: {exc}"[:300])
            return make_plan(question, history), "heuristic"
        if not standalone.strip():
            return make_plan(question, history), "heuristic"
        return make_plan(standalone.strip()), "claude"

    # --- the LLM-driven path ---------------------------------------------------------------------------
    async def _research(self, question: str, plan: Plan, history: Sequence[Turn], options: AskOptions,
                        run: _Run) -> AnswerResult | None:
        k = options.k or self.settings.top_k

        async def search(queries: list[str]) -> list[SubagentResult]:
            await run.say(f"Searching {len(queries)} angle{'s' if len(queries) != 1 else ''} in parallel…")
            results = await self._search(queries, k, options, prefix="claude", budget=run.budget)
            run.subagents.extend(results)
            _raise_if_all_failed(results)
            return results

        timeout = run.budget.for_claude(self.settings.claude_deadline)
        if timeout <= 0:  # the rewrite or the queue used up Claude's share: the reserve is for the offline path
            run.step("research", ok=False, error="no time left before the deadline")
            run.notices.append("Claude unavailable, offline synthesis used.")
            return None
        await run.say("Researching with Claude…")
        try:
            # The researcher bounds itself by `deadline` (and says so); wait_for guards one that does not.
            outcome = await asyncio.wait_for(
                self.researcher.research(plan.standalone, history=history, search=search,
                                         context_budget=self.settings.context_tokens, deadline=timeout),
                timeout=timeout + 0.5)
        except (KnowledgeBaseMissing, ModelMismatch, StoreUnavailable):
            raise
        except Exception as exc:  # any LLM failure: answer offline and say so
            log.warning("agent.researcher_failed", error=f"{type(exc).__name__}: {exc}")
            run.step("research", ok=False, error=f"{type(exc).__name__}: {exc}"[:300])
            run.notices.append("Claude declined to answer this question, offline synthesis used."
                               if isinstance(exc, ClaudeRefused) else "Claude unavailable, offline synthesis used.")
            run.subagents.clear()
            return None
        run.step("research", ok=True, rounds=outcome.rounds, searches=len(outcome.subagents))
        run.notices.extend(outcome.notices)
        checked = await asyncio.to_thread(self._verify, outcome.synthesis, outcome.context, plan, run)
        synthesizer = getattr(self.researcher, "name", "claude")
        if not checked.synthesis.findings:  # nothing verifiable: the same "not found" answer as the offline path
            return self._no_answer(question, plan, run, synthesizer=synthesizer, usage=outcome.usage)
        return self._finish(question, plan, checked.synthesis, outcome.context, run, synthesizer=synthesizer,
                            sub_queries=outcome.sub_queries or plan.sub_queries,
                            subagents=outcome.subagents or run.subagents, usage=outcome.usage)

    # --- the offline path ------------------------------------------------------------------------------
    async def _offline(self, question: str, plan: Plan, options: AskOptions, run: _Run) -> AnswerResult:
        k = options.k or self.settings.top_k
        n = len(plan.sub_queries)
        await run.say(f"Searching {n} angle{'s' if n != 1 else ''} in parallel…")
        results = await self._search(plan.sub_queries, k, options, budget=run.budget)
        run.subagents.extend(results)
        failed = [r for r in results if not r.success]
        run.step("retrieve", subagents=len(results), failed=len(failed))
        _raise_if_all_failed(results)
        if failed:
            run.notices.append(f"{len(failed)} of {len(results)} searches failed; answered from the rest.")
        aggregated = self._aggregate(run.subagents)
        run.step("aggregate", **aggregated.metrics.model_dump())
        if not aggregated.results:
            return self._no_answer(question, plan, run)
        aggregated = await self._read_on(aggregated, run)
        context = await self._context(aggregated)
        if options.sources_only:
            run.step("context", sources=len(context.sources), tokens=context.tokens)
            synthesis = Synthesis(summary="", sources=source_list(context))
            return self._finish(question, plan, synthesis, context, run, metrics=aggregated)

        await run.say(f"Reading {len(context.sources)} sources…")
        synthesizer = self._offline_synthesizer(options)
        outcome = await synthesizer.synthesize(plan.standalone, context, sub_queries=plan.sub_queries)
        run.step("synthesize", synthesizer=outcome.synthesizer, sources=len(context.sources), tokens=context.tokens)
        missing = outcome.missing
        if not outcome.synthesis.findings and outcome.missing:
            again = await self._look_for_words(plan, options, outcome.missing, aggregated, synthesizer, run)
            if again is not None:
                outcome, context, aggregated = again
        checked = await asyncio.to_thread(self._verify, outcome.synthesis, context, plan, run)

        if checked.uncovered and checked.completeness < REFINE_BELOW:
            refined = await self._refine(plan, options, checked, synthesizer, run)
            if refined is not None:
                checked, context, aggregated = refined
        if not checked.synthesis.findings:  # (the words that were missing, even when a second reading answered)
            return self._no_answer(question, plan, run, missing=outcome.missing or missing)
        return self._finish(question, plan, checked.synthesis, context, run, metrics=aggregated,
                            synthesizer=outcome.synthesizer)

    async def _refine(self, plan: Plan, options: AskOptions, before: Verification, synthesizer: Synthesizer,
                      run: _Run) -> tuple[Verification, Context, AggregatedResults] | None:
        """One round aimed at the uncovered parts; kept only if it covers more, or as much with fewer gaps."""
        queries: list[str] = []
        for part in before.uncovered:
            for q in (part, keyword_query(part)):
                if q and q not in queries and q not in plan.sub_queries:
                    queries.append(q)
        if not queries:
            return None
        await run.say("Looking again for the parts still missing…")
        results = await self._search(queries[:4], options.k or self.settings.top_k, options, prefix="refine",
                                     budget=run.budget)
        run.subagents.extend(results)
        aggregated = await self._read_on(self._aggregate(run.subagents), run)
        context = await self._context(aggregated)
        outcome = await synthesizer.synthesize(plan.standalone, context, sub_queries=plan.sub_queries)
        checked = await asyncio.to_thread(self._verify, outcome.synthesis, context, plan, run, step="verify-refined")
        # an answer where there was none; else better by the keyword test, or as good with fewer parts a gap names.
        # A tie keeps the first reading: the refined context is wider, and its reading of an answered part can be
        # worse ("Interviewing for TTS 101" for "how many interviews")
        better = checked.synthesis.findings and (not before.synthesis.findings or (
            (checked.completeness, checked.answered) > (before.completeness, before.answered)))
        run.step("refine", queries=queries[:4], completeness_before=round(before.completeness, 3),
                 completeness_after=round(checked.completeness, 3), answered_before=round(before.answered, 3),
                 answered_after=round(checked.answered, 3), adopted=bool(better))
        return (checked, context, aggregated) if better else None

    async def _look_for_words(self, plan: Plan, options: AskOptions, missing: Sequence[str],
                              aggregated: AggregatedResults, synthesizer: Synthesizer, run: _Run):
        """Before refusing for a word no retrieved passage uses, search for that word itself (lexically) once.

        The passages of a well-ranked neighbouring topic can lack a word the knowledge base does use about the
        question on another page. Found passages are cut to the sentences that could cover the word (`covering`:
        it, with another of the question's words), added after the retrieved ones, and the question is read again;
        the synthesizer's own rules still decide whether the word is covered (such a sentence must also be about the
        question). Kept only when it answers; a word no chunk uses costs one cheap lexical lookup, and a found
        passage that could not cover it costs no second reading. The lookups stay out of `run.subagents`: a later
        refinement aggregates those afresh, and a passage that merely uses the word would rank first there (a
        one-word lexical query scores its hits near 1)."""
        words = [m for m in missing if " " not in m][:LOOK_FOR_WORDS]  # words, not a threshold ("longer than 14 h")
        have = {p.id for p in aggregated.results}
        room = self.settings.max_passages - len(have)
        left = run.budget.left()
        if not words or room <= 0 or (left is not None and left < 2 * FINISH_MARGIN):  # the refusal is ready
            return None
        results = await self._search(words, LOOK_K, options, prefix="word", budget=run.budget, mode="lexical")
        found = [p.model_copy(update={"metadata": {**p.metadata, LOOKED_FOR: True}})
                 for p in self._aggregate(results).results if p.id not in have][:room]
        # only the sentences that could cover a word (none: a second reading would refuse again)
        added = covering(plan.standalone, words, found, aggregated.results + found) if found else []
        run.step("look-for-words", words=words, found=len(found), added=len(added))
        if not added:
            return None
        merged = aggregated.model_copy(update={"results": [*aggregated.results, *added]})
        context = await self._context(merged)
        if not any(s.passage.metadata.get(LOOKED_FOR) for s in context.sources):  # the token budget left them out
            return None
        outcome = await synthesizer.synthesize(plan.standalone, context, sub_queries=plan.sub_queries)
        run.step("synthesize-again", answered=bool(outcome.synthesis.findings), sources=len(context.sources))
        return (outcome, context, merged) if outcome.synthesis.findings else None

    # --- shared pieces -------------------------------------------------------------------------------
    async def _search(self, queries: Sequence[str], k: int, options: AskOptions, *, prefix: str = "subagent",
                      budget: Budget | None = None, mode: SearchMode = "hybrid") -> list[SubagentResult]:
        filters = None if options.filters.is_empty() else options.filters
        timeout = (budget or Budget(None)).for_search(self.settings.subagent_timeout)
        return await run_subagents(self.retriever, list(queries), k=k, filters=filters, executor=self.executor,
                                   timeout=timeout, prefix=prefix, mode=mode)

    async def _context(self, aggregated: AggregatedResults) -> Context:
        """build_context off the event loop: token counting and truncation are CPU work."""
        return await asyncio.to_thread(build_context, aggregated.results, budget=self.settings.context_tokens,
                                       counter=self.counter)

    def _aggregate(self, results: Sequence[SubagentResult]) -> AggregatedResults:
        return aggregate(results, min_relevance=self.settings.min_relevance, max_passages=self.settings.max_passages)

    async def _read_on(self, aggregated: AggregatedResults, run: _Run) -> AggregatedResults:
        """The aggregated passages with the chunks chunking cut from them: what a cut passage announces or goes on
        with (`_continued`), and the opening of a section a best passage is a later chunk of (`_led`)."""
        return await self._led(await self._continued(aggregated, run), run)

    async def _continued(self, aggregated: AggregatedResults, run: _Run) -> AggregatedResults:
        """Each of the best passages that ends on a sentence announcing what follows ("… follow the steps and
        guidelines below."), followed by the next chunk of its document (same collection, same version), and by the
        one after that while the chunk added holds no list, table or code (a section's opening prose), up to
        CONTINUE_HOPS chunks: chunking cut the list from its lead-in, and the lead-in alone answers nothing; and each
        that ends inside numbered instructions, by the next chunk when that goes on with them (`_cut_steps`). A chunk
        not already retrieved is placed right after the passage it continues, at its score; it is past
        aggregation's cap, floor and duplicate removal (it is read with the passage, not ranked), and tags are a
        document's, so a channel's rules see the same document. One store read per hop, off the event loop; if one
        fails, the answer goes on with the chunks already read."""
        following = getattr(self.retriever, "following", None)  # optional on a SearchBackend
        if following is None or not CONTINUE_CUT:
            return aggregated
        cut = [p for p in aggregated.results[:CONTINUE_TOP] if announces_next(p.content) or _cut_steps(p)]
        if not cut:
            return aggregated
        started = time.perf_counter()
        have = {p.id for p in aggregated.results}
        chains: dict[str, list[Passage]] = {}  # a cut passage's id -> the chunks that continue it, in order
        ends = {p.id: p for p in cut}  # the last chunk of each chain, by the cut passage's id
        for _ in range(CONTINUE_HOPS):
            try:
                found = await asyncio.to_thread(following, list(ends.values()))
            except (KnowledgeBaseMissing, StoreUnavailable) as exc:
                log.warning("continue.failed", error=str(exc))
                break
            by_parent = {r.metadata.get(CONTINUES): as_passage(r) for r in found}
            reached, ends = ends, {}
            for origin, end in reached.items():
                # (one already retrieved is in the context on its own merit, and so is what the search found after
                # it: reading on past it cost a measured answer, hp5-03, and gained none)
                if (nxt := by_parent.get(end.id)) is None or nxt.id in have:
                    continue
                steps = _cut_steps(end) and not announces_next(end.content)
                if steps and (nxt.section != end.section or not _goes_on(end, nxt)):
                    continue  # (the steps did not go on there: another section, or another list)
                have.add(nxt.id)
                chains.setdefault(origin, []).append(nxt)
                if not has_list(nxt.content) and not steps:  # the list the lead-in announced is still ahead
                    ends[origin] = nxt  # ("… the process below." then a section's opening prose, then its steps)
            if not ends:
                break
        run.step("continue", cut=len(cut), added=sum(map(len, chains.values())),
                 ms=round((time.perf_counter() - started) * 1000, 1))
        if not chains:
            return aggregated
        results: list[Passage] = []
        for p in aggregated.results:
            results.append(p)
            results += [x.model_copy(update={"score": p.score}) for x in chains.get(p.id, [])]
        return aggregated.model_copy(update={"results": results})

    async def _led(self, aggregated: AggregatedResults, run: _Run) -> AggregatedResults:
        """Each of the best LEAD_TOP passages that is a later chunk of a section, preceded by the chunk before it
        when that chunk is in the same section and was not retrieved: chunking cut the section's opening (its subject
        named, what it is, when it began) from the part that ranked."""
        preceding = getattr(self.retriever, "preceding", None)
        if preceding is None or not LEAD_TOP:
            return aggregated
        # (the best as retrieved: a chunk `_continued` added is read with its passage, not ranked)
        best = [p for p in aggregated.results if CONTINUES not in p.metadata][:LEAD_TOP]
        top = [p for p in best if p.chunk_index > 0 and p.section]
        if not top:
            return aggregated
        try:
            found = await asyncio.to_thread(preceding, top)
        except (KnowledgeBaseMissing, StoreUnavailable) as exc:
            log.warning("lead.failed", error=str(exc))
            return aggregated
        have = {p.id for p in aggregated.results}
        by_child = {}
        for r in found:
            prev = as_passage(r)
            child = next(p for p in top if p.id == r.metadata.get(PRECEDES))
            if prev.id not in have and prev.section == child.section:
                by_child[child.id] = prev
                have.add(prev.id)
        if not by_child:  # (a step only when the context grew: most questions' best chunks open their sections)
            return aggregated
        run.step("lead", top=len(top), added=len(by_child))
        results: list[Passage] = []
        for p in aggregated.results:
            if (prev := by_child.get(p.id)) is not None:
                results.append(prev.model_copy(update={"score": p.score}))
            results.append(p)
        return aggregated.model_copy(update={"results": results})

    def _offline_synthesizer(self, options: AskOptions) -> Synthesizer:
        if isinstance(self.synthesizer, ExtractiveSynthesizer) and options.detailed != self.synthesizer.detailed:
            return self.synthesizer.configured(detailed=options.detailed)
        return self.synthesizer

    def _verify(self, synthesis: Synthesis, context: Context, plan: Plan, run: _Run, *,
                step: str = "verify") -> Verification:
        aspects = decomposition(plan.standalone, plan.sub_queries) or [plan.standalone]
        checked = verify(synthesis, context, question=plan.standalone, aspects=aspects)
        run.step(step, **checked.detail())
        if checked.invalid_citations:
            n = checked.invalid_citations
            run.notices.append(f"Removed {n} citation{'s' if n != 1 else ''} that pointed at no source.")
        if checked.dropped_findings:
            n = checked.dropped_findings
            run.notices.append(f"Dropped {n} finding{'s' if n != 1 else ''} without a citation.")
        return checked

    def _no_answer(self, question: str, plan: Plan, run: _Run, *, synthesizer: str | None = None,
                   usage=None, missing: Sequence[str] = ()) -> AnswerResult:
        topics = closest_topics(run.subagents)
        listed = "; ".join(topics)
        summary = NO_ANSWER
        if missing:  # what the nearby pages lack: "sabbatical", "longer than 14 hours", "Denver" (as the asker wrote)
            terms = ", ".join(f"“{as_written(m, question)}”" for m in missing[:3])
            summary += f" No retrieved page mentions {terms}."
        summary += f" The closest related topics are: {listed}." if topics else ""
        synthesis = Synthesis(summary=summary)
        result = self._finish(question, plan, synthesis, Context(budget=self.settings.context_tokens,
                                                                 tokenizer=self.counter.name), run,
                              synthesizer=synthesizer, usage=usage)
        result.no_answer = True
        result.low_confidence = True
        result.closest_topics = topics
        return result

    def _finish(self, question: str, plan: Plan, synthesis: Synthesis, context: Context, run: _Run, *,
                metrics: AggregatedResults | None = None, synthesizer: str | None = None,
                sub_queries: list[str] | None = None, subagents: list[SubagentResult] | None = None,
                usage=None) -> AnswerResult:
        low = False
        if synthesis.findings:
            best = max((s.passage.score for s in context.sources), default=0.0)
            weak = all(f.confidence == "low" for f in synthesis.findings)
            low = weak or best < self.settings.min_relevance + LOW_SCORE_MARGIN
            if low and not synthesis.summary.startswith(LOW_CONFIDENCE_PREFIX):
                summary = synthesis.summary or synthesis.findings[0].content
                synthesis = synthesis.model_copy(
                    update={"summary": LOW_CONFIDENCE_PREFIX + summary[:1].lower() + summary[1:]})
        synthesis, context = renumber(synthesis, context)
        result = AnswerResult(
            question=question, standalone_question=plan.standalone, question_type=plan.question_type,
            sub_queries=sub_queries or plan.sub_queries, passages=[s.passage for s in context.sources],
            synthesis=synthesis, subagents=subagents if subagents is not None else run.subagents,
            metrics=metrics.metrics if metrics else self._aggregate(run.subagents).metrics, steps=run.steps,
            context_tokens=context.tokens, tokenizer=context.tokenizer or self.counter.name,
            synthesizer=synthesizer or getattr(self.synthesizer, "name", "extractive"), llm_usage=usage,
            low_confidence=low, notices=run.notices, duration=round(time.perf_counter() - run.started, 4),
        )
        log.info("agent.answered", question_type=plan.question_type.value, findings=len(synthesis.findings),
                 sources=len(context.sources), seconds=result.duration, synthesizer=result.synthesizer)
        return result


def _raise_if_all_failed(results: Sequence[SubagentResult]) -> None:
    """Nothing could be searched: a store failure, never the "not in the knowledge base" answer."""
    if results and not any(r.success for r in results):
        raise StoreUnavailable(f"every search of the knowledge base failed ({results[0].error}) — check the "
                               "Chroma store (SYNTHBOT_HOME or SYNTHBOT_CHROMA_URL), then ask again")


def renumber(synthesis: Synthesis, context: Context) -> tuple[Synthesis, Context]:
    """Cited sources become [1]..[n] in order of first citation (summary, findings, contradictions, gaps), the
    uncited context follows; every citation is rewritten, so readers never see [1] [2] [5] [8].

    Runs after verification, when every citation is a plain [n] that points into the context. A document's own
    markers in quoted text are protected and keep their numbers (synthesis/citations.py).
    """
    texts = [synthesis.summary, *(f.content for f in synthesis.findings),
             *(t for c in synthesis.contradictions for t in (c.description, c.suggestion)), *synthesis.gaps]
    known = {s.number for s in context.sources}
    order = [n for t in texts for n in citations.find(t) if n in known]
    order += [n for f in synthesis.findings for n in f.citations] + [n for c in synthesis.contradictions
                                                                    for n in c.citations]
    order += [s.number for s in synthesis.sources] + [s.number for s in context.sources]
    mapping = {old: new for new, old in enumerate(dict.fromkeys(n for n in order if n in known), start=1)}
    if all(old == new for old, new in mapping.items()):
        return synthesis, context

    def text(t: str) -> str:
        return citations.renumber(t, mapping)

    def numbers(ns: list[int]) -> list[int]:
        return sorted(mapping.get(n, n) for n in ns)

    renumbered = synthesis.model_copy(update={
        "summary": text(synthesis.summary),
        "findings": [f.model_copy(update={"content": text(f.content), "citations": numbers(f.citations)})
                     for f in synthesis.findings],
        "contradictions": [c.model_copy(update={"description": text(c.description), "suggestion": text(c.suggestion),
                                                 "citations": numbers(c.citations)})
                           for c in synthesis.contradictions],
        "gaps": [text(g) for g in synthesis.gaps],
        "sources": sorted((s.model_copy(update={"number": mapping.get(s.number, s.number)}) for s in synthesis.sources),
                          key=lambda s: s.number),
    })
    sources = sorted((s.model_copy(update={"number": mapping[s.number]}) for s in context.sources),
                     key=lambda s: s.number)
    return renumbered, context.model_copy(update={"sources": sources})


def build_agent(settings: Settings, store: KnowledgeStore, *, anthropic_client=None) -> Agent:
    """The Agent the entry points use: Retriever + extractive synthesizer, plus Claude when configured."""
    from .retrieval import make_retriever

    counter = default_counter(store.embedder)
    synthesizer = ExtractiveSynthesizer(store.embedder)
    researcher = None
    if anthropic_client is not None or settings.claude_enabled:
        try:
            from .synthesize.claude import ClaudeResearcher, make_client
        except ImportError as exc:  # the Claude path is optional; offline still answers
            log.warning("agent.claude_unavailable", error=str(exc))
        else:
            client = anthropic_client if anthropic_client is not None else make_client(settings)
            researcher = ClaudeResearcher.from_settings(settings, client, counter=counter)
    return Agent(settings, make_retriever(settings, store), synthesizer, researcher=researcher, counter=counter)

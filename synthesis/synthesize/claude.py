"""Claude: the Researcher that drives retrieval through tool use, then writes the synthesis.

It delivers the answer through the forced `record_synthesis` tool, validated with pydantic; malformed output
gets one corrective round, then SynthesisError, which the Agent turns into offline synthesis plus a notice.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import anthropic
import structlog
from pydantic import ValidationError

from ..config import Settings
from ..errors import SynthesisError
from ..models import LLMUsage, Passage, Source, SubagentResult, Synthesis, Turn
from . import prompts
from .base import Context, ContextSource, ResearchOutcome, SearchFn
from .claude_api import (DEFAULT_MAX_TOKENS, DEFAULT_TEMPERATURE, ClaudeCaller, assistant_turn, describe_failure,
                         make_client, tool_result)
from .context import MIN_TRUNCATED_TOKENS, PREAMBLE, TokenCounter, default_counter, render_source

__all__ = ["ClaudeResearcher", "make_client"]

log = structlog.get_logger(__name__)

MAX_ROUNDS = 3
FORCE_RECORD = {"type": "tool", "name": prompts.RECORD_SYNTHESIS}


def attach_sources(synthesis: Synthesis, context: Context) -> Synthesis:
    """Fill `sources` with the context sources the synthesis cites, in number order."""
    cited = {n for f in synthesis.findings for n in f.citations}
    cited |= {n for c in synthesis.contradictions for n in c.citations}
    cited |= set(prompts.inline_citations(synthesis.summary))
    sources = [Source(number=s.number, passage_id=s.passage.id, doc_id=s.passage.doc_id, title=s.passage.title,
                      section=s.passage.section, url=s.passage.source_url)
               for s in context.sources if s.number in cited]
    return synthesis.model_copy(update={"sources": sources})


def _validation_summary(exc: ValidationError) -> str:
    return "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'input'}: {e['msg']}" for e in exc.errors()[:8])


def _result_for(results: list[SubagentResult], position: int, query: str, *, aligned: bool) -> SubagentResult | None:
    """The subagent result of one query: by position when `search` answered every query, else by query text."""
    if aligned:
        return results[position]
    return next((r for r in results if r.query == query), None)


class _ClaudeBase:
    """The caller, the deadline, and reading `record_synthesis` with one correction."""

    def __init__(self, client: anthropic.AsyncAnthropic, *, model: str, deadline: float = 90.0,
                 temperature: float | None = DEFAULT_TEMPERATURE, max_tokens: int = DEFAULT_MAX_TOKENS) -> None:
        self.caller = ClaudeCaller(client, model=model, temperature=temperature, max_tokens=max_tokens)
        self.model = model
        self.deadline = deadline

    @property
    def name(self) -> str:
        return f"claude:{self.model}"

    async def _bounded(self, coro, deadline: float | None = None):
        """Run under the deadline (ours, or the caller's if shorter); every failure becomes a SynthesisError."""
        timeout = self.deadline if deadline is None else min(self.deadline, deadline)
        try:
            return await asyncio.wait_for(coro, timeout=timeout)
        except (TimeoutError, anthropic.APIError) as exc:
            raise describe_failure(exc, model=self.model, deadline=timeout) from exc

    async def _record(self, message: anthropic.types.Message, *, system: str, messages: list[dict[str, Any]],
                      tools: list[dict[str, Any]], usage: LLMUsage) -> Synthesis:
        """Parse the `record_synthesis` call in `message`; if it is missing or malformed, ask once more."""
        for attempt in (1, 2):
            uses = [b for b in message.content if b.type == "tool_use"]
            record = next((b for b in uses if b.name == prompts.RECORD_SYNTHESIS), None)
            problem = "no record_synthesis call"
            if record is not None:
                try:
                    return prompts.to_synthesis(prompts.SynthesisOut.model_validate(record.input))
                except ValidationError as exc:
                    problem = _validation_summary(exc)
            if message.stop_reason == "max_tokens":  # the caller already doubled the limit up to its ceiling
                raise SynthesisError(f"Claude's answer was cut off at {self.caller.max_tokens_ceiling} output "
                                     "tokens — ask a narrower question, or raise SYNTHBOT_CLAUDE_MAX_TOKENS")
            log.warning("claude.malformed", model=self.model, attempt=attempt, problem=problem[:300])
            if attempt == 2:
                raise SynthesisError(f"Claude's answer did not match the synthesis schema twice ({problem[:200]}) — "
                                     "ask again; the offline synthesizer answers meanwhile")
            fix = (f"The answer was not valid: {problem}. Call `{prompts.RECORD_SYNTHESIS}` again with input that "
                   "matches its schema exactly.")
            messages.append(assistant_turn(message))
            results = [tool_result(b.id, fix if b is record else "Not run: record the answer now.", is_error=True)
                       for b in uses]
            messages.append({"role": "user", "content": results or fix})
            message = await self.caller.create(purpose="correct", usage=usage, system=system, messages=messages,
                                               tools=tools, tool_choice=FORCE_RECORD)
        raise AssertionError("unreachable")


class _Numbering:
    """Sources found during research: stable numbers [n] across rounds, within the token budget."""

    def __init__(self, budget: int, counter: TokenCounter) -> None:
        self.budget = budget
        self.counter = counter
        self.sources: list[ContextSource] = []
        self.numbers: dict[str, int] = {}
        self.used = 0
        self.left_out = 0
        self.exhausted = False

    def render(self, passages: Sequence[Passage]) -> str:
        """The tool_result text for one search: new sources in full, known ones by number, what did not fit."""
        blocks: list[str] = []
        known: list[int] = []
        skipped = 0
        for passage in passages:
            if passage.id in self.numbers:
                known.append(self.numbers[passage.id])
                continue
            if self.exhausted or not passage.content.strip():
                skipped += bool(passage.content.strip())
                continue
            if not self.sources and not self.used:
                self.used = self.counter.count(PREAMBLE)  # the preamble goes out once, with the first sources
            number = len(self.sources) + 1
            block = render_source(number, passage)
            tokens = self.counter.count(block) + 2
            if self.used + tokens > self.budget:
                skipped += 1
                self.exhausted = self.budget - self.used < MIN_TRUNCATED_TOKENS
                continue
            self.sources.append(ContextSource(number=number, passage=passage))
            self.numbers[passage.id] = number
            self.used += tokens
            blocks.append(block)
        self.left_out += skipped
        lines = [f"{len(blocks)} new source(s)." if blocks else "No new sources."]
        if known:
            lines.append("Already numbered above: " + ", ".join(f"[{n}]" for n in sorted(set(known))) + ".")
        if skipped:
            lines.append(f"Context budget reached: {skipped} passage(s) were left out. Answer with the sources "
                         "you have.")
        if not passages:
            lines.append("Nothing matched. Try other words, or answer with what you have.")
        first = blocks and len(self.sources) == len(blocks)
        return "\n\n".join([" ".join(lines), *([PREAMBLE] if first else []), *blocks])

    def context(self) -> Context:
        return Context(sources=list(self.sources), tokens=self.used, budget=self.budget,
                       tokenizer=self.counter.name, dropped=self.left_out)


class ClaudeResearcher(_ClaudeBase):
    """The Researcher seam: Claude searches (parallel calls per turn, ≤ 3 rounds, token-bounded), then answers.

    Example:
        >>> researcher = ClaudeResearcher.from_settings(settings, make_client(settings),
        ...                                             counter=default_counter(store.embedder))
        >>> outcome = await researcher.research(question, history=[], search=run_subagents, context_budget=8000)
    """

    def __init__(self, client: anthropic.AsyncAnthropic, *, model: str, deadline: float = 90.0,
                 counter: TokenCounter | None = None, max_rounds: int = MAX_ROUNDS,
                 temperature: float | None = DEFAULT_TEMPERATURE, max_tokens: int = DEFAULT_MAX_TOKENS) -> None:
        super().__init__(client, model=model, deadline=deadline, temperature=temperature, max_tokens=max_tokens)
        self.counter = counter or default_counter()
        self.max_rounds = max_rounds

    @classmethod
    def from_settings(cls, settings: Settings, client: anthropic.AsyncAnthropic, **kwargs: Any) -> ClaudeResearcher:
        kwargs.setdefault("deadline", settings.claude_deadline)
        kwargs.setdefault("temperature", settings.claude_temperature)
        kwargs.setdefault("max_tokens", settings.claude_max_tokens)
        return cls(client, model=settings.claude_model, **kwargs)

    async def research(self, question: str, *, history: Sequence[Turn], search: SearchFn,
                       context_budget: int, deadline: float | None = None) -> ResearchOutcome:
        return await self._bounded(self._research(question, history, search, context_budget), deadline)

    async def standalone(self, question: str, history: Sequence[Turn]) -> str:
        """Claude's standalone rewrite of a follow-up (the question itself when there is no history)."""
        if not history:
            return question
        return await self._bounded(self._standalone(question, history))

    async def _standalone(self, question: str, history: Sequence[Turn]) -> str:
        usage = LLMUsage(model=self.model)
        message = await self.caller.create(
            purpose="standalone", usage=usage, system="You rewrite follow-up questions; you never answer them.",
            messages=[{"role": "user", "content": prompts.standalone_message(question, history)}],
            tools=[prompts.STANDALONE_TOOL], tool_choice={"type": "tool", "name": prompts.STANDALONE}, max_tokens=300)
        use = next((b for b in message.content if b.type == "tool_use"), None)
        try:
            return prompts.StandaloneOut.model_validate(use.input if use else {}).standalone.strip() or question
        except ValidationError as exc:  # the Agent then rewrites the follow-up with its offline heuristic
            raise SynthesisError(f"Claude's standalone rewrite did not match its schema ({_validation_summary(exc)})"
                                 " — the offline rewrite is used; ask again if it misread the follow-up") from exc

    async def _research(self, question: str, history: Sequence[Turn], search: SearchFn,
                        budget: int) -> ResearchOutcome:
        usage = LLMUsage(model=self.model)
        numbering = _Numbering(budget, self.counter)
        system = prompts.SYSTEM_PROMPT + "\n" + prompts.RESEARCH_PROMPT.format(rounds=self.max_rounds)
        tools = [prompts.SEARCH_TOOL, prompts.RECORD_SYNTHESIS_TOOL]
        messages: list[dict[str, Any]] = [{"role": "user", "content": prompts.research_message(question, history)}]
        sub_queries: list[str] = []
        subagents: list[SubagentResult] = []
        rounds, answer_now = 0, False
        while True:
            final = answer_now or rounds >= self.max_rounds or numbering.exhausted
            # The first turn must search: an answer with no sources cannot cite anything.
            choice = FORCE_RECORD if final else {"type": "tool", "name": prompts.SEARCH_KB} if rounds == 0 else {
                "type": "any"}
            message = await self.caller.create(purpose="final" if final else f"round{rounds + 1}", usage=usage,
                                               system=system, messages=messages, tools=tools, tool_choice=choice,
                                               cache=True)
            uses = [b for b in message.content if b.type == "tool_use"]
            searches = [b for b in uses if b.name == prompts.SEARCH_KB]
            if final or any(b.name == prompts.RECORD_SYNTHESIS for b in uses) or not searches:
                if not final and not uses:  # plain text instead of a tool call: ask for the record once
                    messages += [assistant_turn(message), {"role": "user", "content": "Record the answer now."}]
                    answer_now = True
                    continue
                synthesis = await self._record(message, system=system, messages=messages, tools=tools, usage=usage)
                break
            messages.append(assistant_turn(message))
            messages.append({"role": "user", "content": await self._run_searches(
                uses, search, numbering, sub_queries, subagents, rounds_left=self.max_rounds - rounds - 1)})
            rounds += 1
        context = numbering.context()
        log.info("claude.research", model=self.model, rounds=rounds, queries=len(sub_queries),
                 sources=len(context.sources), context_tokens=context.tokens, calls=usage.calls,
                 input_tokens=usage.input_tokens, output_tokens=usage.output_tokens)
        notices = [f"{context.dropped} passage(s) did not fit the context budget of {budget} tokens"] \
            if context.dropped else []
        return ResearchOutcome(synthesis=attach_sources(synthesis, context), context=context, sub_queries=sub_queries,
                               subagents=subagents, usage=usage, rounds=rounds, notices=notices)

    async def _run_searches(self, uses: list, search: SearchFn, numbering: _Numbering, sub_queries: list[str],
                            subagents: list[SubagentResult], *, rounds_left: int) -> list[dict[str, Any]]:
        """Run every search of one turn in one `search` call (parallel subagents); one tool_result per call."""
        parsed: list[tuple[Any, prompts.SearchIn | None, str]] = []
        for block in uses:
            if block.name != prompts.SEARCH_KB:
                parsed.append((block, None, f"Unknown tool {block.name!r}."))
                continue
            try:
                parsed.append((block, prompts.SearchIn.model_validate(block.input), ""))
            except ValidationError as exc:
                parsed.append((block, None, f"Invalid search input: {_validation_summary(exc)}."))
        queries = [args.query for _, args, _ in parsed if args is not None]
        results = await search(queries) if queries else []
        sub_queries += queries
        subagents += results
        out: list[dict[str, Any]] = []
        position = 0
        for block, args, error in parsed:
            if args is None:
                out.append(tool_result(block.id, error, is_error=True))
                continue
            result = _result_for(results, position, args.query, aligned=len(results) == len(queries))
            position += 1
            if result is None or not result.success:
                reason = result.error if result is not None else "no result"
                out.append(tool_result(block.id, f"Search failed ({reason}). Try again or answer with what you "
                                                 "have.", is_error=True))
                continue
            ranked = sorted(result.passages, key=lambda p: p.score, reverse=True)[:args.k]
            out.append(tool_result(block.id, f'Results for "{args.query}": ' + numbering.render(ranked)))
        if rounds_left <= 0 or numbering.exhausted:
            out.append({"type": "text", "text": f"No more searches. Answer now with `{prompts.RECORD_SYNTHESIS}`."})
        return out

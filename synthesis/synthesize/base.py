"""The Synthesizer seam and the bounded, numbered context it reads from."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol, runtime_checkable

from pydantic import BaseModel, Field

from ..models import LLMUsage, Passage, SubagentResult, Synthesis, Turn


class ContextSource(BaseModel):
    """Source `[number]` in the context: one passage, with what the reader needs to cite it."""

    number: int
    passage: Passage


class Context(BaseModel):
    """Passages numbered [1]..[n] that fit the token budget, most relevant first."""

    sources: list[ContextSource] = Field(default_factory=list)
    tokens: int = 0
    budget: int = 0
    tokenizer: str = ""
    dropped: int = 0

    def passage(self, number: int) -> Passage | None:
        return next((s.passage for s in self.sources if s.number == number), None)


class SynthesisOutcome(BaseModel):
    """What a synthesizer returns: the synthesis, plus usage and notices when an LLM was involved."""

    synthesis: Synthesis
    synthesizer: str
    usage: LLMUsage | None = None
    notices: list[str] = Field(default_factory=list)
    missing: list[str] = Field(default_factory=list)  # question terms no source covers (why nothing was answered)


@runtime_checkable
class Synthesizer(Protocol):
    """Writes a cited synthesis from a numbered context.

    Example:
        >>> outcome = await synthesizer.synthesize("How do deploys work?", context)
        >>> outcome.synthesis.findings[0].citations
        [1, 3]
    """

    async def synthesize(self, question: str, context: Context, *, sub_queries: list[str] | None = None) -> SynthesisOutcome: ...


SearchFn = Callable[[list[str]], Awaitable[list[SubagentResult]]]  # runs each query as one parallel subagent


class ResearchOutcome(BaseModel):
    """What an LLM-driven research loop returns: the synthesis and the numbered context it was written from."""

    synthesis: Synthesis
    context: Context
    sub_queries: list[str] = Field(default_factory=list)
    subagents: list[SubagentResult] = Field(default_factory=list)
    usage: LLMUsage | None = None
    rounds: int = 0
    notices: list[str] = Field(default_factory=list)


@runtime_checkable
class Researcher(Protocol):
    """An LLM that drives retrieval itself through a `search_knowledge_base` tool, then writes the synthesis.

    `search(queries)` runs every query as a parallel retrieval subagent and returns their results.
    It may also offer `async standalone(question, history) -> str` (a follow-up rewritten to stand alone); the Agent
    uses it when present, and its offline heuristic without it or on SynthesisError/timeout.
    """

    async def research(self, question: str, *, history: Sequence[Turn], search: SearchFn,
                       context_budget: int, deadline: float | None = None) -> ResearchOutcome:
        """`deadline`: seconds this research may take (the Agent's budget minus the offline reserve)."""
        ...

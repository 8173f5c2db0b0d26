"""The data: chunks, passages, search responses, subagent results, aggregates, synthesis, answers."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, Field, computed_field

SearchMode = Literal["hybrid", "dense", "lexical"]
Confidence = Literal["high", "medium", "low"]


# --- knowledge base ----------------------------------------------------------------------------------
class Chunk(BaseModel):
    """One stored unit of text with everything needed to cite it."""

    id: str
    doc_id: str
    text: str
    title: str = ""
    source_url: str = ""
    section: str = ""
    chunk_index: int = 0
    chunk_count: int = 1
    char_start: int = 0
    char_end: int = 0
    tags: list[str] = Field(default_factory=list)
    type: str = "doc"
    source_file: str = ""
    doc_hash: str = ""
    links: list[str] = Field(default_factory=list)  # link targets in the chunk's text (its Markdown shows only the text)
    author: str = ""  # who wrote the document, where it says so (front matter, a sign-off: `ingest.authors`)
    # the header row (and its rule) of the table the chunk opens inside, when an earlier chunk holds it (TABLE_HEADER)
    table_header: str = ""
    embedding: list[float] | None = Field(default=None, exclude=True, repr=False)


TABLE_HEADER = "table_header"  # chunk metadata: the header row of the table the chunk opens inside (Chunk.table_header)
SECTION_SEP = " > "  # joins a section path ("Deploys > Rollback"); a heading may hold ">" itself ("--out <file>")


def headings(section: str) -> list[str]:
    """A section path's headings, outermost first ("" gives [""])."""
    return [h.strip() for h in section.split(SECTION_SEP)]


class SearchFilters(BaseModel):
    """Metadata filters, applied to dense and lexical search alike."""

    source_url: str | None = None
    tags: list[str] = Field(default_factory=list)  # every one of these tags
    where: dict[str, str | int | float | bool] = Field(default_factory=dict)
    any_tags: list[str] = Field(default_factory=list)  # at least one of these (a channel rule's tags)

    def is_empty(self) -> bool:
        return not (self.source_url or self.tags or self.where or self.any_tags)

    def narrowed(self, any_tags: Sequence[str]) -> "SearchFilters | None":
        """These filters and, when given, "at least one of `any_tags`" (None when nothing filters)."""
        out = self.model_copy(update={"any_tags": sorted(set(any_tags))}) if any_tags else self
        return None if out.is_empty() else out


class Passage(BaseModel):
    """A retrieved chunk with its 0-1 score (see docs/RETRIEVAL.md for what the score means per mode)."""

    id: str
    doc_id: str
    content: str
    score: float
    title: str = ""
    source_url: str = ""
    section: str = ""
    chunk_index: int = 0
    chunk_count: int = 1
    metadata: dict[str, Any] = Field(default_factory=dict)
    debug: dict[str, Any] | None = None
    embedding: list[float] | None = Field(default=None, exclude=True, repr=False)

    @property
    def source_type(self) -> str:
        return str(self.metadata.get("type") or "doc")

    @property
    def readable(self) -> str:
        """The text as a reader needs it: a chunk that opens on the rows of a table cut by chunking is read under
        the table's header row, which the chunk before holds ("| Tock | GitHub: 18F/tock | 18F Director of
        Engineering |" says nothing of a point of contact without "| Resource | … | Point of contact |")."""
        header = str(self.metadata.get(TABLE_HEADER) or "")
        if header and self.content.lstrip().startswith("|"):
            return f"{header}\n{self.content.lstrip()}"
        return self.content


class SearchResult(Passage):
    """A passage as printed by `synthbot search --json`."""

    rank: int


class SearchResponse(BaseModel):
    """The `synthbot search --json` document; later issues rely on these names."""

    query: str
    mode: SearchMode
    k: int
    results: list[SearchResult] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    debug: dict[str, Any] = Field(default_factory=dict)


# --- agent -------------------------------------------------------------------------------------------
class QuestionType(StrEnum):
    FACTUAL = "factual"
    COMPARATIVE = "comparative"
    EXPLORATORY = "exploratory"
    RELATIONAL = "relational"
    GAP_FINDING = "gap-finding"
    META = "meta"


class Turn(BaseModel):
    """One past exchange in a conversation (what a follow-up may refer to)."""

    question: str
    standalone: str = ""
    summary: str = ""
    cited_ids: list[str] = Field(default_factory=list)
    answer_id: str = ""
    scope: list[str] = Field(default_factory=list)  # what the answer could see (channel rules); [] = not recorded


class AskOptions(BaseModel):
    """Per-question options shared by the CLI and Slack."""

    k: int | None = None
    sources_only: bool = False
    detailed: bool = False
    debug: bool = False
    filters: SearchFilters = Field(default_factory=SearchFilters)


class Plan(BaseModel):
    question_type: QuestionType
    standalone: str
    sub_queries: list[str]


class SubagentResult(BaseModel):
    subagent: str
    query: str = ""
    success: bool
    passages: list[Passage] = Field(default_factory=list)
    error: str | None = None
    duration: float = 0.0


class AggregationMetrics(BaseModel):
    total_input_results: int = 0
    filtered_results: int = 0
    deduplicated_count: int = 0
    average_relevance: float = 0.0
    source_type_distribution: dict[str, int] = Field(default_factory=dict)


class AggregatedResults(BaseModel):
    results: list[Passage] = Field(default_factory=list)
    sources_by_type: dict[str, list[Passage]] = Field(default_factory=dict)
    metrics: AggregationMetrics = Field(default_factory=AggregationMetrics)


class Finding(BaseModel):
    topic: str
    content: str
    citations: list[int] = Field(default_factory=list)
    confidence: Confidence = "medium"


class Contradiction(BaseModel):
    description: str
    citations: list[int] = Field(default_factory=list)
    suggestion: str = ""


class Source(BaseModel):
    """A numbered source `[n]` as shown to the reader."""

    number: int
    passage_id: str
    doc_id: str
    title: str = ""
    section: str = ""
    url: str = ""


class Quality(BaseModel):
    citation_rate: float = 0.0
    coherence: float = 0.0
    completeness: float = 0.0
    overall: float = 0.0
    support: float | None = None  # the synthesizer's own reading of how well the evidence answers; caps `overall`


class Synthesis(BaseModel):
    summary: str
    findings: list[Finding] = Field(default_factory=list)
    contradictions: list[Contradiction] = Field(default_factory=list)
    gaps: list[str] = Field(default_factory=list)
    sources: list[Source] = Field(default_factory=list)
    quality: Quality = Field(default_factory=Quality)


class Step(BaseModel):
    name: str
    duration: float
    detail: dict[str, Any] = Field(default_factory=dict)


class LLMUsage(BaseModel):
    model: str
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0


class RelatedPage(BaseModel):
    """A page the answer did not cite but the reader might want next ("You might also explore")."""

    doc_id: str
    title: str = ""
    section: str = ""
    url: str = ""
    reason: str = ""  # "linked", "related" (retrieved, not cited) or "same tag or section"


class AnswerResult(BaseModel):
    """Everything about one answered question: what the CLI prints with --json and Slack renders."""

    id: str = Field(default_factory=lambda: uuid.uuid4().hex[:12])
    question: str
    standalone_question: str
    question_type: QuestionType
    sub_queries: list[str] = Field(default_factory=list)
    passages: list[Passage] = Field(default_factory=list)
    synthesis: Synthesis
    subagents: list[SubagentResult] = Field(default_factory=list)
    metrics: AggregationMetrics = Field(default_factory=AggregationMetrics)
    steps: list[Step] = Field(default_factory=list)
    context_tokens: int = 0
    tokenizer: str = ""
    synthesizer: str = "extractive"
    llm_usage: LLMUsage | None = None
    no_answer: bool = False
    closest_topics: list[str] = Field(default_factory=list)  # with no_answer: what the knowledge base does cover
    low_confidence: bool = False
    explore: list[RelatedPage] = Field(default_factory=list)  # 2-3 related uncited pages; empty when none
    notices: list[str] = Field(default_factory=list)
    duration: float = 0.0
    scope: list[str] = Field(default_factory=list)  # the collections (and tags) the channel rules let it see

    @computed_field  # serialised, so `--json` and stored results carry it
    @property
    def confidence(self) -> Confidence:
        if self.no_answer:
            return "low"
        q = self.synthesis.quality.overall
        return "high" if q >= 0.75 and not self.low_confidence else "medium" if q >= 0.5 else "low"

"""Coverage and gap analysis: inventory, retrieval coverage from the retrieval log, gap signals, topic facets.

Two headline definitions, each stated in the report it heads:
- whole knowledge base: the share of documents that at least one logged question or search retrieved;
- a topic: the share of the topic's facets (the tags, sources and types of the passages related to it) that have at
  least MIN_SUPPORT passages scoring at or above the threshold.

Every figure and page name is computed inside a `Scope` (collections, document ids, channels): under channel rules
(synthesis/scoping.py) the store is the channel's view of its visible collections and the scope keeps only the
questions asked in that channel, so no figure, page name or question text crosses channels.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import structlog
from pydantic import BaseModel, Field

from .models import headings
from .usage import GapSignals, UsageEvent, gap_signals

log = structlog.get_logger(__name__)

FacetKind = Literal["source", "tag", "type"]
Status = Literal["covered", "thin", "gap"]
TOPIC_THRESHOLD = 0.45  # hybrid 0-1 score a passage needs to support a topic (aggregator floor is 0.30)
MIN_SUPPORT = 2  # passages a facet needs to count as covered
TOPIC_POOL = 60  # passages considered per topic
RELATED_FLOOR = 0.30  # a passage below this is unrelated: its facets are not the topic's facets
MIN_TAG_DOCS = 2  # a tag on one document is a keyword of that page, not a facet of the knowledge base


@dataclass(frozen=True)
class Scope:
    """What a report may look at. None means everything; a channel filter narrows documents and channels."""

    collections: frozenset[str] | None = None
    doc_ids: frozenset[str] | None = None
    channels: frozenset[str] | None = None

    def allows_doc(self, doc_id: str) -> bool:
        return self.doc_ids is None or doc_id in self.doc_ids

    def allows_event(self, event: UsageEvent) -> bool:
        # A question answered over several collections is logged as "a+b": all of them must be in scope.
        names = set(filter(None, event.collection.split("+")))
        return ((self.collections is None or names <= self.collections)
                and (self.channels is None or event.channel in self.channels))


@dataclass(frozen=True)
class ChunkInfo:
    id: str
    doc_id: str
    title: str
    url: str
    section: str
    type: str
    tags: tuple[str, ...]
    source: str


def source_of(meta: dict[str, Any], root: Sequence[str] = ()) -> str:
    """The part of the knowledge base a chunk comes from: a URL's host and first folder, else the first folder of
    its path below `root` (the folders every document shares, which say nothing)."""
    url = str(meta.get("source_url") or "")
    if "://" in url:
        host, _, path = url.split("://", 1)[1].partition("/")
        folders = [p for p in path.split("/") if p][:-1]
        return f"{host}/{folders[0]}" if folders else host or url
    folders = _folders(meta)
    if tuple(folders[:len(root)]) == tuple(root):
        folders = folders[len(root):]
    return folders[0] if folders else "(top level)"


def _folders(meta: dict[str, Any]) -> list[str]:
    path = str(meta.get("doc_id") or meta.get("source_file") or "").replace("\\", "/")
    return [p for p in path.split("/") if p and p not in (".", "..")][:-1]


def common_root(metas: Sequence[dict[str, Any]]) -> list[str]:
    """The folders shared by every path-identified document (URL-identified ones do not count)."""
    paths = [_folders(m) for m in metas if "://" not in str(m.get("source_url") or "")]
    if not paths:
        return []
    root = paths[0]
    for p in paths[1:]:
        n = 0
        while n < min(len(root), len(p)) and root[n] == p[n]:
            n += 1
        root = root[:n]
    return root


class Inventory:
    """The chunks of one collection (metadata only), within a scope."""

    def __init__(self, chunks: list[ChunkInfo], collection: str = "") -> None:
        self.collection = collection
        self.chunks = chunks
        self.by_id = {c.id: c for c in chunks}
        self.docs: dict[str, list[ChunkInfo]] = defaultdict(list)
        for c in chunks:
            self.docs[c.doc_id].append(c)

    @classmethod
    def load(cls, store, scope: Scope = Scope()) -> "Inventory":
        rows = [(cid, m or {}) for ids, _docs, metas in store.scan(include_documents=False)
                for cid, m in zip(ids, metas) if scope.allows_doc(str((m or {}).get("doc_id", "")))]
        root = common_root([m for _, m in rows])
        chunks = [ChunkInfo(cid, str(m.get("doc_id", "")), str(m.get("title") or ""), str(m.get("source_url") or ""),
                            str(m.get("section") or ""), str(m.get("type") or "doc"),
                            tuple(t for t in str(m.get("tags") or "").split(",") if t), source_of(m, root))
                  for cid, m in rows]
        return cls(chunks, store.name)

    def facets_of(self, chunk: ChunkInfo) -> list[tuple[FacetKind, str]]:
        return [("source", chunk.source), ("type", chunk.type), *(("tag", t) for t in chunk.tags)]

    def counts(self) -> dict[str, Any]:
        by: dict[str, dict[str, dict[str, set | int]]] = {k: defaultdict(lambda: {"documents": set(), "chunks": 0})
                                                          for k in ("source", "type", "tag", "section")}
        for c in self.chunks:
            top_section = headings(c.section)[0] or "(none)"
            for kind, name in [*self.facets_of(c), ("section", top_section)]:
                row = by[kind][name]
                row["documents"].add(c.doc_id)
                row["chunks"] += 1
        out: dict[str, Any] = {"documents": len(self.docs), "chunks": len(self.chunks)}
        for kind, rows in by.items():
            ordered = sorted(rows.items(), key=lambda kv: (-kv[1]["chunks"], kv[0]))
            out[f"by_{kind}"] = {name: {"documents": len(r["documents"]), "chunks": r["chunks"]} for name, r in ordered}
        return out

    def page(self, doc_id: str) -> dict[str, str]:
        first = min(self.docs[doc_id], key=lambda c: c.id) if self.docs.get(doc_id) else None
        return {"doc_id": doc_id, "title": first.title if first else "", "url": first.url if first else ""}


class Facet(BaseModel):
    kind: FacetKind
    name: str
    documents: int = 0
    chunks: int = 0
    supporting: int = 0  # topic mode: passages ≥ threshold; whole mode: documents retrieved at least once
    coverage: float = 0.0  # 0-1, what the chart shows
    status: Status = "gap"


class RetrievalCoverage(BaseModel):
    events: int = 0
    questions: int = 0
    chunks: int = 0
    retrieved_chunks: int = 0
    chunk_rate: float = 0.0
    documents: int = 0
    retrieved_documents: int = 0
    document_rate: float = 0.0
    never_retrieved_documents: list[dict[str, str]] = Field(default_factory=list)
    never_retrieved_chunks: list[str] = Field(default_factory=list)


class TopicPassage(BaseModel):
    id: str
    doc_id: str
    title: str = ""
    section: str = ""
    url: str = ""
    score: float
    content: str = ""
    facets: list[str] = Field(default_factory=list)  # "tag:oncall", "source:deploys", "type:policy"


class CoverageReport(BaseModel):
    """What `synthbot coverage --json` prints and Slack renders."""

    collection: str
    topic: str | None = None
    headline: float = 0.0
    definition: str = ""
    threshold: float | None = None
    inventory: dict[str, Any] = Field(default_factory=dict)
    retrieval: RetrievalCoverage = Field(default_factory=RetrievalCoverage)
    facets: list[Facet] = Field(default_factory=list)
    gaps: list[str] = Field(default_factory=list)
    signals: GapSignals = Field(default_factory=GapSignals)
    passages: list[TopicPassage] = Field(default_factory=list)
    seconds: float = 0.0

    @property
    def headline_text(self) -> str:
        about = f" of “{self.topic}”" if self.topic else ""
        return f"Overall: {round(self.headline * 100)} % coverage{about}"


def retrieval_coverage(inventory: Inventory, events: Sequence[UsageEvent]) -> RetrievalCoverage:
    """Which chunks and documents of the inventory any logged retrieval returned (ids no longer stored are ignored)."""
    retrieved = {cid for e in events for cid in e.retrieved if cid in inventory.by_id}
    docs = {inventory.by_id[cid].doc_id for cid in retrieved}
    never_docs = sorted(d for d in inventory.docs if d not in docs)
    n_chunks, n_docs = len(inventory.chunks), len(inventory.docs)
    return RetrievalCoverage(
        events=len(events), questions=sum(1 for e in events if e.answered), chunks=n_chunks,
        retrieved_chunks=len(retrieved), chunk_rate=round(len(retrieved) / n_chunks, 4) if n_chunks else 0.0,
        documents=n_docs, retrieved_documents=len(docs), document_rate=round(len(docs) / n_docs, 4) if n_docs else 0.0,
        never_retrieved_documents=[inventory.page(d) for d in never_docs],
        never_retrieved_chunks=sorted(c.id for c in inventory.chunks if c.id not in retrieved),
    )


def _status(supporting: int) -> Status:
    return "covered" if supporting >= MIN_SUPPORT else "thin" if supporting else "gap"


def _facet_sizes(inventory: Inventory) -> tuple[dict[tuple[FacetKind, str], set[str]],
                                                 Counter[tuple[FacetKind, str]]]:
    """Every facet's documents and its number of chunks: all it holds, whatever a report then counts of it."""
    docs: dict[tuple[FacetKind, str], set[str]] = defaultdict(set)
    chunks: Counter[tuple[FacetKind, str]] = Counter()
    for c in inventory.chunks:
        for key in inventory.facets_of(c):
            docs[key].add(c.doc_id)
            chunks[key] += 1
    return docs, chunks


def _whole_facets(inventory: Inventory, retrieved_docs: set[str]) -> list[Facet]:
    docs, chunks = _facet_sizes(inventory)
    out = []
    for (kind, name), ds in docs.items():
        hit = len(ds & retrieved_docs)
        out.append(Facet(kind=kind, name=name, documents=len(ds), chunks=chunks[(kind, name)], supporting=hit,
                         coverage=round(hit / len(ds), 4), status=_status(hit) if len(ds) > 1 else
                         ("covered" if hit else "gap")))
    return sorted(out, key=lambda f: (f.kind != "source", -f.documents, f.name))


def analyze(store, events: Sequence[UsageEvent], topic: str | None = None, *, retriever=None,
            threshold: float = TOPIC_THRESHOLD, scope: Scope = Scope(), inventory: Inventory | None = None,
            signal_limit: int = 10) -> CoverageReport:
    """The coverage report for the whole knowledge base, or for `topic` (needs `retriever`).

    Example:
        >>> report = analyze(store, usage_log.events(), "on-call", retriever=make_retriever(settings, store))
        >>> report.headline_text, [f.name for f in report.facets if f.status != "covered"]
    """
    started = time.perf_counter()
    inventory = inventory or Inventory.load(store, scope)
    scoped = [e for e in events if scope.allows_event(e)
              and (scope.collections is not None or not e.collection or e.collection == inventory.collection)]
    retrieval = retrieval_coverage(inventory, scoped)
    report = CoverageReport(collection=inventory.collection, inventory=inventory.counts(), retrieval=retrieval,
                            signals=gap_signals(scoped, limit=signal_limit))
    if topic and topic.strip():
        # A scope hides part of the collection from the report: search deeper so the pool is still mostly in scope.
        pool = TOPIC_POOL if scope.doc_ids is None else TOPIC_POOL * 5
        _topic(report, inventory, retriever, topic.strip(), threshold, pool)
    else:
        retrieved_docs = set(inventory.docs) - {p["doc_id"] for p in retrieval.never_retrieved_documents}
        report.facets = _whole_facets(inventory, retrieved_docs)
        report.headline = retrieval.document_rate
        report.definition = (f"the share of documents retrieved at least once by the {retrieval.events} logged "
                              f"question{'s' if retrieval.events != 1 else ''} and searches "
                              f"({retrieval.retrieved_documents} of {retrieval.documents}); chunks: "
                              f"{retrieval.retrieved_chunks} of {retrieval.chunks} ({retrieval.chunk_rate:.0%})")
        never = [f"{f.kind} “{f.name}”" for f in report.facets if f.status == "gap"]
        if not retrieval.events:
            report.gaps.append("No questions logged yet: retrieval coverage fills in as people ask.")
        if retrieval.events and never:
            report.gaps.append("Never retrieved: " + ", ".join(never[:12]) + (" …" if len(never) > 12 else ""))
    for row in report.signals.poorly_supported:
        report.gaps.append(f"Asked often, poorly supported: “{row.topic}” ({row.asked} questions, "
                           f"{row.weak} without a good answer)")
    for row in report.signals.weak_questions[:5]:
        report.gaps.append(f"Unanswered ({row['reason']}): “{row['question']}”")
    report.seconds = round(time.perf_counter() - started, 4)
    log.info("coverage.report", topic=topic, chunks=retrieval.chunks, seconds=report.seconds)
    return report


def _topic(report: CoverageReport, inventory: Inventory, retriever, topic: str, threshold: float,
           pool: int = TOPIC_POOL) -> None:
    if retriever is None:
        raise ValueError("topic coverage needs a retriever")
    response = retriever.search(topic, k=pool)
    floor = min(threshold, max(RELATED_FLOOR, threshold - 0.1))  # related, if not supporting
    related = [r for r in response.results if r.id in inventory.by_id and r.score >= floor][:TOPIC_POOL]
    support: Counter[tuple[FacetKind, str]] = Counter()
    seen: set[tuple[FacetKind, str]] = set()  # the facets of the related passages
    best: dict[tuple[FacetKind, str], float] = {}
    for r in related:
        chunk = inventory.by_id[r.id]
        for key in inventory.facets_of(chunk):
            seen.add(key)
            support[key] += r.score >= threshold
            best[key] = max(best.get(key, 0.0), r.score)
    # a facet's documents, like its chunks, are all it has (the related ones had read as "documents 1, chunks 14"
    # for a source of two pages, against the whole-inventory report's 2); `supporting` counts the topic's passages
    members, sizes = _facet_sizes(inventory)
    tag_docs = Counter(t for chunks in inventory.docs.values() for t in {t for c in chunks for t in c.tags})
    seen = {key for key in seen if key[0] != "tag" or tag_docs[key[1]] >= MIN_TAG_DOCS}
    facets = [Facet(kind=k, name=n, documents=len(members[(k, n)]), chunks=sizes[(k, n)], supporting=support[(k, n)],
                    coverage=round(min(1.0, support[(k, n)] / MIN_SUPPORT), 4), status=_status(support[(k, n)]))
              for (k, n) in seen]
    report.facets = sorted(facets, key=lambda f: (-f.supporting, f.kind, f.name))
    covered = sum(1 for f in facets if f.status == "covered")
    report.headline = round(covered / len(facets), 4) if facets else 0.0
    report.threshold = threshold
    report.topic = topic
    report.passages = [TopicPassage(id=r.id, doc_id=r.doc_id, title=r.title, section=r.section, url=r.source_url,
                                    score=r.score, content=r.content[:400],
                                    facets=[f"{k}:{n}" for k, n in inventory.facets_of(inventory.by_id[r.id])])
                       for r in related if r.score >= threshold]
    report.definition = (f"the share of this topic's facets (sources, types, and tags shared by {MIN_TAG_DOCS}+ "
                         f"documents, of the {len(related)} related passages) with at least {MIN_SUPPORT} passages scoring ≥ {threshold:.2f} "
                         f"({covered} of {len(facets)})")
    if not facets:
        report.gaps.append(f"Nothing in the knowledge base relates to “{topic}”: this might be a gap worth filling.")
    for f in sorted(report.facets, key=lambda f: -best[(f.kind, f.name)]):  # the closest thin facets first
        if f.status != "covered":
            count = "no passage" if not f.supporting else f"only {f.supporting} passage"
            report.gaps.append(f"{f.kind} “{f.name}”: {count} above {threshold:.2f}")

"""Fakes that implement our seams (never patches of our own code)."""

from __future__ import annotations

import threading
import time

from synthesis.errors import KnowledgeBaseMissing
from synthesis.models import SearchResponse, SearchResult


def result(i: int, text: str, score: float, *, doc: str | None = None, vec: list[float] | None = None,
           type_: str = "doc") -> SearchResult:
    return SearchResult(rank=1, id=f"c{i}", doc_id=doc or f"d{i}", content=text, score=score, title=f"Doc {i}",
                        section="Intro", source_url=f"https://kb/{i}", metadata={"type": type_}, embedding=vec)


class ScriptedBackend:
    """The search seam: per-query behaviour — results, an exception to raise, seconds to sleep, or an Event to hang on."""

    def __init__(self, script: dict[str, object], *, barrier: threading.Barrier | None = None) -> None:
        self.script = script
        self.barrier = barrier
        self.calls: list[dict] = []
        self._lock = threading.Lock()

    def search(self, query, *, k=5, mode="hybrid", threshold=0.0, diversity=0.0, filters=None, length_weight=0.0,
               with_embeddings=False, debug=False) -> SearchResponse:
        with self._lock:
            self.calls.append({"query": query, "k": k, "filters": filters, "with_embeddings": with_embeddings})
        if self.barrier is not None:
            self.barrier.wait(timeout=5)  # only passes when the subagents really run at the same time
        action = self.script.get(query, [])
        if isinstance(action, BaseException):
            raise action
        if isinstance(action, (int, float)):
            time.sleep(action)
            return SearchResponse(query=query, mode=mode, k=k)
        if isinstance(action, threading.Event):  # hangs until the test releases it
            action.wait(timeout=10)
            return SearchResponse(query=query, mode=mode, k=k)
        return SearchResponse(query=query, mode=mode, k=k, results=list(action)[:k])


MISSING = KnowledgeBaseMissing("no knowledge base 'x' — run `synthbot ingest PATH` first")

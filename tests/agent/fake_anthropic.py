"""A scripted fake of the Anthropic Messages API behind an httpx2.MockTransport, for the real SDK to talk to.

It records every request the SDK sends (retries included) and answers from a script, in order:

    fake = FakeMessagesAPI()
    fake.reply(tool_use("search_knowledge_base", {"query": "deploys"}))
    fake.fail(529).reply(record({...}))
    client = fake.client(settings)        # a real AsyncAnthropic whose http_client is the MockTransport
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections import deque
from collections.abc import Callable
from typing import Any

import anthropic
import httpx2
from pydantic import SecretStr

from synthesis.synthesize.claude_api import make_client

_ids = itertools.count(1)
ERROR_TYPES = {400: "invalid_request_error", 401: "authentication_error", 404: "not_found_error",
               429: "rate_limit_error", 500: "api_error", 529: "overloaded_error"}


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def tool_use(name: str, input: dict[str, Any], *, id: str | None = None) -> dict[str, Any]:
    return {"type": "tool_use", "id": id or f"toolu_{next(_ids):04d}", "name": name, "input": input}


def record(summary: str, findings: list[dict] = (), contradictions: list[dict] = (), gaps: list[str] = (),
           **kwargs) -> dict[str, Any]:
    """A `record_synthesis` tool_use block."""
    return tool_use("record_synthesis", {"summary": summary, "findings": list(findings),
                                         "contradictions": list(contradictions), "gaps": list(gaps)}, **kwargs)


def finding(content: str, citations: list[int], *, topic: str = "topic", confidence: str = "high") -> dict:
    return {"topic": topic, "content": content, "citations": citations, "confidence": confidence}


class _Hang:
    def __init__(self, seconds: float) -> None:
        self.seconds = seconds


Step = dict[str, Any] | httpx2.Response | Callable[[dict[str, Any]], "dict[str, Any] | httpx2.Response"]


class FakeMessagesAPI:
    """Records requests; replays scripted messages and errors; `requests` holds each decoded JSON body."""

    def __init__(self, *, model: str = "claude-sonnet-5-5") -> None:
        self.model = model
        self.script: deque[Step] = deque()
        self.requests: list[dict[str, Any]] = []
        self.headers: list[httpx2.Headers] = []
        self.exhausted = False
        self.hung = 0  # requests that hung

    # --- scripting --------------------------------------------------------------------------------
    def reply(self, *blocks: dict[str, Any], stop_reason: str | None = None, input_tokens: int = 120,
              output_tokens: int = 40, cache_read_tokens: int = 0,
              stop_details: dict[str, Any] | None = None) -> FakeMessagesAPI:
        reason = stop_reason or ("tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn")
        self.script.append({"id": f"msg_{next(_ids):04d}", "type": "message", "role": "assistant",
                            "model": self.model, "content": list(blocks), "stop_reason": reason,
                            "stop_sequence": None, "stop_details": stop_details,
                            "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens,
                                      "cache_read_input_tokens": cache_read_tokens}})
        return self

    def refuse(self, *, category: str | None = "cyber", explanation: str | None = None) -> FakeMessagesAPI:
        """A reply the API's safety classifiers stopped (stop_reason "refusal")."""
        details = {"type": "refusal", "category": category, "explanation": explanation}
        return self.reply(text("I can't help with that."), stop_reason="refusal", stop_details=details)

    def hang(self, seconds: float = 3600.0, *, times: int = 1) -> FakeMessagesAPI:
        """Accept the next `times` requests and answer none of them for `seconds` (a stuck connection)."""
        for _ in range(times):
            self.script.append(_Hang(seconds))
        return self

    def fail(self, status: int, *, times: int = 1, message: str | None = None,
             retry_after_ms: str | None = "1") -> FakeMessagesAPI:
        """Answer `times` requests with an API error; `retry-after-ms` keeps the SDK's backoff short in tests."""
        body = {"type": "error", "error": {"type": ERROR_TYPES.get(status, "api_error"),
                                           "message": message or f"fake {status}"}}
        headers = {"retry-after-ms": retry_after_ms} if retry_after_ms else {}
        for _ in range(times):
            self.script.append(httpx2.Response(status, json=body, headers=headers))
        return self

    def then(self, fn: Callable[[dict[str, Any]], dict[str, Any] | httpx2.Response]) -> FakeMessagesAPI:
        """Answer the next request by calling `fn(request_body)` (for replies that depend on what was sent)."""
        self.script.append(fn)
        return self

    # --- the transport ----------------------------------------------------------------------------
    def handler(self, request: httpx2.Request) -> httpx2.Response:
        body = json.loads(request.content or b"{}")
        self.requests.append(body)
        self.headers.append(request.headers)
        if request.url.path != "/v1/messages":
            return httpx2.Response(404, json={"type": "error", "error": {"type": "not_found_error",
                                                                        "message": request.url.path}})
        if not self.script:
            self.exhausted = True
            return httpx2.Response(400, json={"type": "error", "error": {
                "type": "invalid_request_error", "message": "fake script exhausted: the test sent more requests"}})
        step = self.script.popleft()
        if isinstance(step, _Hang):
            return step
        if callable(step):
            step = step(body)
        if isinstance(step, httpx2.Response):
            return step
        return httpx2.Response(200, json=step)

    async def async_handler(self, request: httpx2.Request) -> httpx2.Response:
        """The transport the SDK talks to: `handler`, plus hanging steps that only a timeout ends."""
        response = self.handler(request)
        if isinstance(response, _Hang):
            self.hung += 1
            await asyncio.sleep(response.seconds)
            return httpx2.Response(529, json={"type": "error", "error": {"type": "overloaded_error",
                                                                        "message": "fake hang ended"}})
        return response

    def client(self, settings, *, max_retries: int = 4) -> anthropic.AsyncAnthropic:
        """A real AsyncAnthropic built by our make_client, sending through this fake."""
        configured = settings.model_copy(update={"anthropic_api_key": SecretStr("sk-ant-test-key"),
                                                 "claude_model": self.model})
        return make_client(configured, max_retries=max_retries,
                           http_client=httpx2.AsyncClient(transport=httpx2.MockTransport(self.async_handler)))

    # --- reading what was sent --------------------------------------------------------------------
    def message(self, reply_blocks: list[dict[str, Any]], **kwargs) -> dict[str, Any]:
        """A message body (for `then` callbacks)."""
        self.reply(*reply_blocks, **kwargs)
        return self.script.pop()

    @staticmethod
    def tool_results(body: dict[str, Any]) -> list[dict[str, Any]]:
        """The tool_result blocks of the last user message of a request."""
        content = body["messages"][-1]["content"]
        return [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"] \
            if isinstance(content, list) else []


# --- a small real knowledge base for the Claude tests (HashEmbedder, real Chroma in the test's data dir) ---------
KB_DOCS = {
    "deploys": ("Deploy policy", "Deploys happen on Tuesdays and Thursdays. Friday deploys are forbidden since the "
                                 "2023 outage. Every deploy needs a rollback plan approved by the on-call engineer."),
    "oncall": ("On-call handbook", "The on-call rotation is weekly and hands over on Monday at 10:00. Page the "
                                   "on-call engineer through PagerDuty; escalate to the team lead after 15 minutes."),
    "staging": ("Staging environment", "Staging mirrors production and is reset every night at 02:00. Deploy to "
                                       "staging first and run the smoke tests before any production deploy."),
    "budget": ("Cloud budget", "The monthly cloud budget is 40,000 EUR. Finance reviews the spend every quarter "
                               "and alerts fire at 80 percent of the budget."),
}


def make_kb(settings, docs: dict[str, tuple[str, str]] | None = None, *, embedder=None):
    """A real Chroma store in the settings' data dir holding one chunk per document."""
    from synthesis.embedding import HashEmbedder
    from synthesis.models import Chunk
    from synthesis.store import KnowledgeStore

    embedder = embedder or HashEmbedder()
    store = KnowledgeStore.open(settings, embedder)
    chunks = [Chunk(id=f"{doc_id}#0", doc_id=doc_id, text=body, title=title, source_url=f"kb/{doc_id}.md",
                    section=title) for doc_id, (title, body) in (docs or KB_DOCS).items()]
    store.upsert(chunks, embedder.embed([c.text for c in chunks]))
    return store


class RecordingSearch:
    """A SearchFn over the real Retriever and subagents that records each call (one call = one parallel batch)."""

    def __init__(self, store, *, k: int = 5) -> None:
        from synthesis.retrieval import Retriever

        self.retriever = Retriever(store)
        self.k = k
        self.calls: list[list[str]] = []

    async def __call__(self, queries: list[str]):
        from synthesis.subagents import run_subagents

        self.calls.append(list(queries))
        return await run_subagents(self.retriever, queries, k=self.k)


def researcher(fake: FakeMessagesAPI, settings, **kwargs):
    """A ClaudeResearcher on `fake`, through the real SDK (an approximate token counter unless one is given)."""
    from synthesis.synthesize.claude import ClaudeResearcher
    from synthesis.synthesize.context import ApproxCounter

    kwargs.setdefault("counter", ApproxCounter())
    return ClaudeResearcher.from_settings(settings.model_copy(update={"claude_model": fake.model}),
                                          fake.client(settings), **kwargs)

"""The Messages API edge: client construction, one logged call at a time, usage accounting, errors we can act on.

Retries: the SDK retries by itself (anthropic 2.x `_base_client._should_retry`): 408, 409, 429 and every status
>= 500 — so 529 "overloaded" too — plus connection errors and timeouts, with exponential backoff (0.5 s doubling,
capped at 8 s, jittered) or the server's `retry-after`/`retry-after-ms`. We set `max_retries` and bound the whole
answer with `asyncio.wait_for(deadline)` in the callers; what still fails becomes a `SynthesisError`.
"""

from __future__ import annotations

import time
from typing import Any

import anthropic
import httpx2
import structlog

from ..config import Settings
from ..errors import ClaudeRefused, ConfigError, SynthesisError
from ..models import LLMUsage

log = structlog.get_logger(__name__)

DEFAULT_MAX_RETRIES = 4  # 0.5+1+2+4 s of backoff worst case: well inside the default 90 s deadline
DEFAULT_TEMPERATURE = None  # opt-in (SYNTHBOT_CLAUDE_TEMPERATURE): current models take no sampling parameters
DEFAULT_MAX_TOKENS = 4096
MAX_TOKENS_GROWTH = 4  # a cut-off reply is asked again with twice the limit, up to 4x the configured one
PER_REQUEST_TIMEOUT = 60.0


def make_client(settings: Settings, *, max_retries: int = DEFAULT_MAX_RETRIES,
                http_client: httpx2.AsyncClient | None = None) -> anthropic.AsyncAnthropic:
    """Build the AsyncAnthropic client the entry point passes down (key and base URL from settings).

    Example:
        >>> client = make_client(settings)          # once, at the entry point
        >>> researcher = ClaudeResearcher.from_settings(settings, client)
    """
    if not settings.claude_enabled:
        raise ConfigError("ANTHROPIC_API_KEY is not set — export it to use Claude, or leave it unset for the "
                          "offline synthesizer")
    per_request = max(5.0, min(PER_REQUEST_TIMEOUT, settings.claude_deadline))
    return anthropic.AsyncAnthropic(
        api_key=settings.anthropic_api_key.get_secret_value(),
        base_url=settings.anthropic_base_url,
        max_retries=max_retries,
        timeout=httpx2.Timeout(per_request, connect=5.0),
        http_client=http_client,
    )


def describe_failure(exc: BaseException, *, model: str, deadline: float | None = None) -> SynthesisError:
    """Turn an SDK failure (after its own retries) into a SynthesisError that says what to do next."""
    if isinstance(exc, TimeoutError):
        return SynthesisError(f"Claude did not finish within {deadline:g} s — try again, or raise "
                              "SYNTHBOT_CLAUDE_DEADLINE")
    if isinstance(exc, anthropic.AuthenticationError | anthropic.PermissionDeniedError):
        return SynthesisError(f"Claude rejected the API key ({exc.status_code}) — check ANTHROPIC_API_KEY, or unset "
                              "it to use the offline synthesizer")
    if isinstance(exc, anthropic.NotFoundError):
        return SynthesisError(f"Claude has no model '{model}' (404) — set SYNTHBOT_CLAUDE_MODEL to a current model id")
    if isinstance(exc, anthropic.RateLimitError):
        return SynthesisError("Claude kept answering 429 (rate limited) after retries — wait a minute and ask again")
    if isinstance(exc, anthropic.APIStatusError) and exc.status_code == 529:
        return SynthesisError("Claude kept answering 529 (overloaded) after retries — try again in a few minutes")
    if isinstance(exc, anthropic.APIStatusError) and exc.status_code >= 500:
        return SynthesisError(f"Claude kept failing with {exc.status_code} after retries — try again later")
    if isinstance(exc, anthropic.APIStatusError):
        return SynthesisError(f"Claude rejected the request ({exc.status_code}: {_api_message(exc)}) — check "
                              "SYNTHBOT_CLAUDE_MODEL; this is likely a bug worth reporting")
    if isinstance(exc, anthropic.APITimeoutError):
        return SynthesisError("Claude requests kept timing out after retries — try again, or raise "
                              "SYNTHBOT_CLAUDE_DEADLINE")
    if isinstance(exc, anthropic.APIConnectionError):
        return SynthesisError("cannot reach the Claude API after retries — check the network or ANTHROPIC_BASE_URL")
    return SynthesisError(f"Claude call failed ({exc.__class__.__name__}: {exc}) — try again")


def _api_message(exc: anthropic.APIStatusError) -> str:
    body = exc.body if isinstance(exc.body, dict) else {}
    err = body.get("error") if isinstance(body.get("error"), dict) else {}
    return str(err.get("message") or exc.message)[:200]


def _rejects_sampling(exc: anthropic.APIStatusError) -> bool:
    return exc.status_code == 400 and "temperature" in _api_message(exc).lower()


class ClaudeCaller:
    """Sends Messages requests for one model; logs one event per call and adds its tokens to an LLMUsage.

    Temperature: none by default. anthropic 2.x dropped `temperature` from `messages.create` (current models take
    no sampling parameters), so an opted-in value travels in `extra_body`; if the API rejects it (400 naming
    `temperature`), the call is repeated once without it and it is left out from then on.

    Truncation: a reply cut off at `max_tokens` (its last tool call may be incomplete) is asked again with twice
    the limit, up to MAX_TOKENS_GROWTH times the configured one; never again with the same limit.
    Refusal: a reply with stop_reason "refusal" raises ClaudeRefused at once (asking again would not help).
    """

    def __init__(self, client: anthropic.AsyncAnthropic, *, model: str, temperature: float | None = DEFAULT_TEMPERATURE,
                 max_tokens: int = DEFAULT_MAX_TOKENS) -> None:
        self.client = client
        self.model = model
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.max_tokens_ceiling = max_tokens * MAX_TOKENS_GROWTH

    async def create(self, *, purpose: str, usage: LLMUsage, system: str, messages: list[dict[str, Any]],
                     tools: list[dict[str, Any]], tool_choice: dict[str, Any], max_tokens: int | None = None,
                     cache: bool = False) -> anthropic.types.Message:
        params: dict[str, Any] = dict(model=self.model, max_tokens=max_tokens or self.max_tokens, system=system,
                                      messages=messages, tools=tools, tool_choice=tool_choice)
        if cache:  # research rounds resend the whole conversation so far: let the API cache that prefix
            params["cache_control"] = {"type": "ephemeral"}
        ceiling = params["max_tokens"] * MAX_TOKENS_GROWTH
        while True:
            message = await self._sampled(purpose, usage, params)
            if message.stop_reason == "refusal":
                details = message.stop_details
                why = ", ".join(str(x) for x in (getattr(details, "category", None),
                                                getattr(details, "explanation", None)) if x)
                log.warning("claude.refused", purpose=purpose, model=self.model, details=why or None)
                raise ClaudeRefused(f"Claude declined to answer{f' ({why})' if why else ''} — the offline "
                                    "synthesizer answers instead; rephrase the question to try Claude again")
            limit = params["max_tokens"]
            if message.stop_reason != "max_tokens" or limit >= ceiling:
                return message  # a reply cut off at the ceiling is the caller's to judge (see ClaudeResearcher)
            params["max_tokens"] = min(limit * 2, ceiling)
            log.warning("claude.truncated", purpose=purpose, model=self.model, max_tokens=limit,
                        retry_max_tokens=params["max_tokens"])

    async def _sampled(self, purpose: str, usage: LLMUsage, params: dict[str, Any]) -> anthropic.types.Message:
        """One call, with the opted-in temperature unless the API has rejected it."""
        if self.temperature is not None:
            params["extra_body"] = {"temperature": self.temperature}
        else:
            params.pop("extra_body", None)
        try:
            return await self._send(purpose, usage, params)
        except anthropic.BadRequestError as exc:
            if "extra_body" not in params or not _rejects_sampling(exc):
                raise
            log.warning("claude.temperature_rejected", model=self.model, temperature=self.temperature,
                        error=_api_message(exc))
            self.temperature = None
            params.pop("extra_body")
            return await self._send(purpose, usage, params)

    async def _send(self, purpose: str, usage: LLMUsage, params: dict[str, Any]) -> anthropic.types.Message:
        started = time.perf_counter()
        try:
            raw = await self.client.messages.with_raw_response.create(**params)
            message = await raw.parse()
        except anthropic.APIError as exc:
            log.warning("claude.call_failed", purpose=purpose, model=self.model,
                        seconds=round(time.perf_counter() - started, 3),
                        status=getattr(exc, "status_code", None), error=exc.__class__.__name__)
            raise
        cached = (message.usage.cache_read_input_tokens or 0) + (message.usage.cache_creation_input_tokens or 0)
        usage.calls += 1
        usage.input_tokens += message.usage.input_tokens + cached  # the API counts cached input separately
        usage.output_tokens += message.usage.output_tokens
        log.info("claude.call", purpose=purpose, model=self.model, seconds=round(time.perf_counter() - started, 3),
                 input_tokens=message.usage.input_tokens, output_tokens=message.usage.output_tokens,
                 cache_read_tokens=message.usage.cache_read_input_tokens or 0, stop_reason=message.stop_reason,
                 retries=raw.retries_taken, request_id=raw.request_id)
        return message


def assistant_turn(message: anthropic.types.Message) -> dict[str, Any]:
    """The response as the next request's assistant message (only the block types we asked for)."""
    content: list[dict[str, Any]] = []
    for block in message.content:
        if block.type == "text" and block.text:
            content.append({"type": "text", "text": block.text})
        elif block.type == "tool_use":
            content.append({"type": "tool_use", "id": block.id, "name": block.name, "input": block.input})
    return {"role": "assistant", "content": content or [{"type": "text", "text": "(no content)"}]}


def tool_result(tool_use_id: str, text: str, *, is_error: bool = False) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": tool_use_id, "content": text}
    if is_error:
        block["is_error"] = True
    return block

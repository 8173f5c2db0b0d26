"""Answers and coverage within what the asking channel may see (the channel rules, synthesis/scoping.py).

`ScopedAgent` has `InstrumentedAgent.answer`'s signature plus the channel. Per question it resolves the channel's
rule (the rules file is re-read when it changes), and answers with an agent whose search backend, inventory and
coverage only reach the visible collections and tags. One agent per distinct visibility is kept; all of them share
the model, the synthesizers and the thread pool. A follow-up's earlier turns that were answered under a scope the
channel no longer covers keep only the asker's question: their summary and cited passages are not reused.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import structlog

from .config import Settings
from .coverage import CoverageReport, Scope, analyze
from .explore import InstrumentedAgent
from .library import Library, ScopedSearch
from .models import AnswerResult, AskOptions, Turn
from .scoping import Channel, Grant, RulesSource, Visibility, refusal
from .usage import UsageLog

log = structlog.get_logger(__name__)


def visible_history(history: Sequence[Turn], visibility: Visibility) -> list[Turn]:
    """The thread's turns as this question may use them: a turn answered under a scope that is not covered now
    (or not recorded) keeps the question and drops its summary, rewrite and cited passages."""
    out = []
    for turn in history:
        if visibility.covers_keys(turn.scope):
            out.append(turn)
        else:
            out.append(turn.model_copy(update={"summary": "", "standalone": "", "cited_ids": []}))
    return out


def channel_scope(visibility: Visibility, channel: Channel | None) -> Scope:
    """Coverage inside a channel: its visible collections, and only the questions asked in it."""
    return Scope(collections=frozenset(visibility.collections),
                 channels=frozenset({channel.id}) if channel is not None else None)


class ScopedAgent:
    """The agent under channel rules.

    Args:
        base: a synthesis.agent.Agent (its synthesizer, researcher and thread pool are shared by every scope).
        library: the collections, opened once.
        rules: the rules file.
        usage: the retrieval log; surface: recorded with each event.
        owns_usage: close `usage` in close() (the entry point opened it for this agent alone).

    Example:
        >>> agent = ScopedAgent(build_agent(settings, library.store("handbook")), library, RulesSource(path))
        >>> await agent.answer("Who approves a hotfix?", channel=Channel(id="C1", name="eng-oncall"))
    """

    def __init__(self, base, library: Library, rules: RulesSource, *, usage: UsageLog | None = None,
                 surface: str = "slack", owns_usage: bool = False) -> None:
        self.base, self.library, self.rules, self.usage, self.surface = base, library, rules, usage, surface
        self._owns_usage = owns_usage
        self.settings = base.settings
        self._agents: dict[tuple[str, ...], InstrumentedAgent] = {}
        self._lock = threading.Lock()

    def visibility(self, channel: Channel | None) -> Visibility:
        return self.rules.resolve(channel)

    def agent_for(self, visibility: Visibility) -> InstrumentedAgent:
        key = tuple(visibility.keys)
        with self._lock:
            agent = self._agents.get(key)
            if agent is None:
                search = self.library.search(visibility)
                agent = InstrumentedAgent(self.base.over(search), self.library.view(visibility), usage=self.usage,
                                          surface=self.surface, retriever=search)
                self._agents[key] = agent
            return agent

    async def answer(self, question: str, *, history: Sequence[Turn] = (), options: AskOptions | None = None,
                     progress=None, channel: Channel | None = None) -> AnswerResult:
        """One answer from what `channel` may see; OutOfScope when it may see nothing."""
        visibility = self.visibility(channel)
        log.info("scope.resolved", channel=channel.id if channel else None, rule=visibility.rule,
                 collections=visibility.keys)
        if not visibility.grants:
            raise refusal(visibility, channel)
        agent = self.agent_for(visibility)
        result = await agent.answer(question, history=visible_history(history, visibility), options=options,
                                    progress=progress, scope=channel_scope(visibility, channel))
        result.scope = visibility.keys
        return result

    def coverage(self, topic: str | None, channel: Channel | None, events) -> CoverageReport:
        """The coverage report as `channel` may see it (synchronous: run it in a thread)."""
        visibility = self.visibility(channel)
        if not visibility.grants:
            raise refusal(visibility, channel)
        agent = self.agent_for(visibility)
        return analyze(agent.store, events, topic, retriever=agent.retriever, inventory=agent.inventory(),
                       scope=channel_scope(visibility, channel))

    def _all_named(self) -> Visibility:
        return Visibility(tuple(Grant(collection=n) for n in self.rules.named_collections()), "all rules")

    def health_view(self):
        """What /healthz reads: every collection some rule names (KnowledgeBaseMissing when none exists yet)."""
        return self.library.view(self._all_named())

    @property
    def retriever(self) -> ScopedSearch:
        """A search over every collection some rule names (serve warms these up)."""
        return self.library.search(self._all_named())

    def close(self) -> None:
        self.base.close()
        self.library.close()
        if self._owns_usage and self.usage is not None:
            self.usage.close()


def open_scoped(settings: Settings, rules: RulesSource, *, usage: UsageLog | None = None, surface: str = "slack",
                anthropic_client=None, owns_usage: bool = False) -> tuple[ScopedAgent, Library]:
    """The entry point's ScopedAgent: the model loaded once, collections opened on first use (none need exist yet)."""
    from .agent import build_agent
    from .embedding import load_embedder

    embedder = load_embedder(settings.embedding_model, batch_size=settings.embedding_batch_size,
                             backend=settings.embedding_backend, cache_dir=settings.model_cache)
    library = Library(settings, embedder)
    named = rules.named_collections()
    base = build_agent(settings, library.store(named[0] if named else settings.collection),
                       anthropic_client=anthropic_client)
    return ScopedAgent(base, library, rules, usage=usage, surface=surface, owns_usage=owns_usage), library


def open_channel_agent(settings: Settings, *, usage: UsageLog | None = None, surface: str = "slack",
                       owns_usage: bool = False):
    """(agent, health) for `serve` and `console` when SYNTHBOT_CHANNEL_RULES is set: the ScopedAgent, and the view
    /healthz checks. With `owns_usage`, closing the agent closes `usage`."""
    from .scoping import open_rules

    rules = open_rules(settings)
    assert rules is not None, "open_channel_agent needs SYNTHBOT_CHANNEL_RULES"
    agent, _library = open_scoped(settings, rules, usage=usage, surface=surface, owns_usage=owns_usage)
    return agent, agent.health_view()


def open_visibility(settings: Settings, visibility: Visibility, *, usage: UsageLog | None = None,
                    surface: str = "cli") -> InstrumentedAgent:
    """The agent over one fixed visibility (the CLI's `--collection a --collection b` or `--channel NAME`).

    Raises KnowledgeBaseMissing at once when none of the collections exists.
    """
    from .agent import build_agent
    from .embedding import load_embedder
    from .library import missing_error
    from .store import _names, make_client

    client = make_client(settings)
    if not set(visibility.collections) & _names(client):  # said before the model loads
        raise missing_error(visibility.collections)
    embedder = load_embedder(settings.embedding_model, batch_size=settings.embedding_batch_size,
                             backend=settings.embedding_backend, cache_dir=settings.model_cache)
    library = Library(settings, embedder, client=client)
    search = library.search(visibility)
    base = build_agent(settings, library.store(visibility.collections[0]))
    return InstrumentedAgent(base.over(search), library.view(visibility), usage=usage, surface=surface,
                             retriever=search)

"""What the bot opens, it closes: the scoped agent's retrieval log, coverage's own scoped agent."""

from __future__ import annotations

import sqlite3

import pytest

from bot.coverage_view import CoverageService
from bot.knowledge import _open_agent

RULES = "default:\n  collections: [handbook]\n"


@pytest.mark.slow
def test_the_scoped_agent_closes_the_retrieval_log_it_was_opened_with(settings, tmp_path):
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    agent, _health = _open_agent(settings.model_copy(update={"channel_rules": rules}))
    agent.usage.events()  # open
    agent.close()
    with pytest.raises(sqlite3.ProgrammingError):
        agent.usage.events()


@pytest.mark.slow
async def test_coverage_closes_the_scoped_agent_it_opened(settings, tmp_path):
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    service = CoverageService(settings.model_copy(update={"channel_rules": rules}))
    own = await service._scoped_agent()
    pool = own.library.pool
    service.close()
    assert pool._shutdown  # the collections' search threads are gone

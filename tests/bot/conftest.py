"""Fixtures for the Slack app: a loopback fake Web API and the real app built over it."""

from __future__ import annotations

import pytest

from bot.fake_slack import FakeSlack
from tests.bot.fakes import FakeAgent, Harness, assert_slack_would_accept


@pytest.fixture
async def fake_slack():
    async with FakeSlack() as fake:
        yield fake


@pytest.fixture
def slack_settings(settings, fake_slack):
    return settings.model_copy(update={"slack_api_url": fake_slack.base_url})


@pytest.fixture
async def harness_factory(fake_slack, slack_settings):
    """Build harnesses (several share the same data dir: a restart); all close and are checked at teardown."""
    made: list[Harness] = []

    async def make(agent=None, *, settings=None, **deps_kwargs) -> Harness:
        h = await Harness(fake_slack, settings or slack_settings, agent or FakeAgent(), **deps_kwargs).start()
        made.append(h)
        return h

    yield make
    for h in made:
        await h.close()
    assert_slack_would_accept(fake_slack)


@pytest.fixture
async def harness(harness_factory):
    return await harness_factory()

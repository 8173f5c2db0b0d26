"""`/ask` text parsing: every option, bad values, Slack's wrapped URLs and typographic quotes/dashes."""

from __future__ import annotations

import pytest

from bot.commands import USAGE, AskRequest, UsageError, parse_ask, unwrap_slack_text


def ask(text: str) -> AskRequest:
    parsed = parse_ask(text)
    assert isinstance(parsed, AskRequest), parsed
    return parsed


def usage_error(text: str) -> UsageError:
    parsed = parse_ask(text)
    assert isinstance(parsed, UsageError), parsed
    return parsed


@pytest.mark.parametrize("text", ["", "   ", "help", "HELP", "--help", "-h", " help "])
def test_empty_or_help_asks_for_usage(text):
    assert ask(text).help is True


def test_plain_question_has_default_options():
    req = ask("how do we roll back a deploy?")
    assert req.question == "how do we roll back a deploy?"
    assert not req.help and not req.coverage
    assert req.options.k is None and not req.options.sources_only and not req.options.detailed
    assert req.options.filters.is_empty()


def test_a_question_that_starts_with_help_is_a_question():
    assert ask("help me find the on-call rota").question == "help me find the on-call rota"


def test_every_option_together():
    req = ask("how do deploys work? --sources-only --detailed --k 7 --source https://wiki.example.com/deploy "
              "--tag ops --tag infra --debug")
    assert req.question == "how do deploys work?"
    o = req.options
    assert (o.sources_only, o.detailed, o.debug, o.k) == (True, True, True, 7)
    assert o.filters.source_url == "https://wiki.example.com/deploy"
    assert o.filters.tags == ["ops", "infra"]


def test_options_may_come_first_and_use_equals():
    req = ask("--k=3 --tag=ops,db what changed?")
    assert req.question == "what changed?"
    assert req.options.k == 3 and req.options.filters.tags == ["ops", "db"]


def test_tag_values_are_unescaped():
    assert ask("q --tag R&amp;D").options.filters.tags == ["R&D"]


def test_duplicate_tags_are_kept_once():
    assert ask("q --tag ops --tag ops").options.filters.tags == ["ops"]


@pytest.mark.parametrize("wrapped, url", [
    ("<https://wiki.example.com/a?b=1&amp;c=2>", "https://wiki.example.com/a?b=1&c=2"),
    ("<https://wiki.example.com/deploy|wiki.example.com/deploy>", "https://wiki.example.com/deploy"),
    ("<https://wiki.example.com/x|the deploy guide>", "https://wiki.example.com/x"),
    ("docs/runbooks/deploy.md", "docs/runbooks/deploy.md"),
])
def test_source_urls_are_unwrapped(wrapped, url):
    req = ask(f"what is the rollback plan? --source {wrapped}")
    assert req.options.filters.source_url == url
    assert req.question == "what is the rollback plan?"


def test_smart_quotes_and_em_dash_options():
    req = ask("—sources-only –k 4 what’s the “rollback plan”? —tag ‘on call’")
    assert req.options.sources_only and req.options.k == 4
    assert req.options.filters.tags == ["on call"]
    assert req.question == "what's the \"rollback plan\"?"


def test_apostrophes_do_not_break_parsing():
    assert ask("what's the team's deploy window? --k 2").question == "what's the team's deploy window?"


def test_a_lone_em_dash_in_a_question_is_text():
    assert ask("deploys — how long do they take?").question == "deploys — how long do they take?"


def test_double_dash_ends_options():
    req = ask("--k 2 -- what does --force do in git?")
    assert req.options.k == 2
    assert req.question == "what does --force do in git?"


def test_slack_mentions_and_entities_in_the_question_become_plain_text():
    req = ask("does <@U123ABC|maria> own <#C0001|ops>? <!here> a &lt; b &amp;&amp; c &gt; d")
    assert req.question == "does @maria own #ops? @here a < b && c > d"


def test_coverage_with_and_without_topic():
    bare = ask("--coverage")
    assert bare.coverage and bare.coverage_topic is None
    topic = ask("--coverage deployment safety --tag ops")
    assert topic.coverage and topic.coverage_topic == "deployment safety"
    assert topic.options.filters.tags == ["ops"]


@pytest.mark.parametrize("text, fragment", [
    ("q --frobnicate", "Unknown option `--frobnicate`"),
    ("q —verbose", "Unknown option"),
    ("q --k", "`--k` needs a value"),
    ("q --k --debug", "`--k` needs a value"),
    ("q --k 0", "from 1 to 50"),
    ("q --k 51", "from 1 to 50"),
    ("q --k many", "whole number"),
    ("q --k 2.5", "whole number"),
    ("q --tag", "`--tag` needs a value"),
    ("q --source", "`--source` needs a value"),
    ("q --source a --source b", "once"),
    ("q --debug=yes", "takes no value"),
    ("--k 3", "Ask a question"),
])
def test_bad_input_is_a_usage_error_with_the_usage_text(text, fragment):
    err = usage_error(text)
    assert fragment in err.message
    assert err.text.startswith(err.message) and USAGE in err.text


def test_usage_mentions_every_option():
    for option in ("--sources-only", "--detailed", "--k N", "--source URL", "--tag T", "--debug", "--coverage"):
        assert option in USAGE


def test_unwrap_slack_text_keeps_plain_text():
    assert unwrap_slack_text("plain text, no markup") == "plain text, no markup"
    assert unwrap_slack_text("<mailto:a@b.io|a@b.io> <!subteam^S1|@oncall>") == "a@b.io @oncall"

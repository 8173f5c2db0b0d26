"""The channel rules file: validation with clear errors, which rule applies, reloading, failing closed."""

from __future__ import annotations

import os
import time

import pytest

from synthesis.config import Settings
from synthesis.errors import ChannelRulesInvalid, OutOfScope
from synthesis.scoping import (Channel, Grant, RulesSource, Visibility, everything, grant_of, load_rules, open_rules,
                               parse_rules, refusal, resolve)

RULES = """
default:
  collections: [public]
dm:
  collections:
    - public
    - collection: finance
      tags: [public]
channels:
  - name: "#Eng-Oncall"
    collections: [eng, public]
  - id: C0FINANCE
    collections: [finance]
  - name: locked
    collections: []
"""


def test_each_kind_of_channel_gets_its_rule_in_order_id_name_dm_default():
    rules = parse_rules(RULES)
    eng = resolve(rules, Channel(id="C0ENG", name="eng-oncall"))
    assert eng.collections == ("eng", "public") and eng.rule == "channel #eng-oncall"
    # An id rule wins over the name rule of the same channel.
    assert resolve(rules, Channel(id="C0FINANCE", name="eng-oncall")).collections == ("finance",)
    dm = resolve(rules, Channel(id="D0DM", kind="im"))
    assert dm.keys == ["finance[public]", "public"] and dm.rule == "dm"
    assert resolve(rules, Channel(id="G0GROUP", kind="mpim")).rule == "dm"
    assert resolve(rules, Channel(id="C0OTHER", name="random")).collections == ("public",)
    assert resolve(rules, Channel(id="C0LOCK", name="locked")).grants == ()  # an explicit "nothing"


def test_a_channel_with_no_rule_sees_nothing_without_a_default():
    rules = parse_rules("channels:\n  - id: C1\n    collections: [eng]\n")
    none = resolve(rules, Channel(id="C2", name="random"))
    assert none.grants == () and none.rule == "no rule"
    assert resolve(rules, Channel(id="D1", kind="im")).grants == ()  # no dm rule: DMs see nothing either
    assert "there is no `default` rule" in str(refusal(none, Channel(id="C2", name="random")))


def test_an_unknown_name_is_never_given_the_default_when_rules_name_channels():
    rules = parse_rules(RULES)
    unknown = resolve(rules, Channel(id="C0NONAME"))
    assert unknown.grants == () and unknown.rule == "unknown channel name"
    assert "channels:read" in str(refusal(unknown, Channel(id="C0NONAME")))
    # With id rules only, a name is not needed and the default applies.
    by_id = parse_rules("default: {collections: [public]}\nchannels:\n  - id: C1\n    collections: [eng]\n")
    assert resolve(by_id, Channel(id="C0NONAME")).collections == ("public",)


def test_no_rules_file_keeps_one_collection_visible_everywhere(tmp_path):
    settings = Settings(_env_file=None, home=tmp_path)
    assert open_rules(settings) is None
    assert everything(settings.collection).collections == ("synthbot",)
    assert open_rules(Settings(_env_file=None, home=tmp_path, channel_rules="")) is None  # empty env var: unset


@pytest.mark.parametrize("text, expected", [
    ("default:\n  collections: [public]\n  colections: [x]\n", "default.colections: unknown key"),
    ("defualt:\n  collections: [public]\n", "defualt: unknown key"),
    ("channels:\n  - name: eng\n    collections: [a-b]\n  - name: '#ENG'\n    collections: [c-d]\n",
     "channel name #eng is listed twice"),
    ("channels:\n  - id: C1\n    collections: [abc]\n  - id: C1\n    collections: [xyz]\n", "channel id C1 is listed twice"),
    ("default:\n  collections: [a]\n", "invalid collection name 'a'"),
    ("default:\n  collections: ['bad name!']\n", "invalid collection name 'bad name!'"),
    ("dm:\n  collections:\n    - collection: x..y\n", "invalid collection name 'x..y'"),
    ("default:\n  collections: public\n", "write collections as a list"),
    ("channels:\n  - id: C1\n    name: eng\n    collections: [abc]\n", "either `id`"),
    ("channels:\n  - collections: [abc]\n", "either `id`"),
    ("channels:\n  - id: eng-oncall\n    collections: [abc]\n", "'eng-oncall' is not a Slack channel id"),
    ("default:\n  collections: [abc, abc]\n", "collection 'abc' is listed twice"),
    ("default: [unclosed\n", "not valid YAML"),
    ("dm:\n  collections:\n    - collection: finance\n      tags: ['a,b']\n", "tag 'a,b' contains ','"),
    ("dm:\n  collections:\n    - collection: finance\n      tags: ['pub]lic']\n", "tags may not contain"),
    ("default:\n  collections: [public]\n  tags: ['[x']\n", "tag '[x' contains '['"),
    ("- just\n- a list\n", "must be a mapping"),
])
def test_bad_files_say_what_and_where(text, expected):
    with pytest.raises(ChannelRulesInvalid) as info:
        parse_rules(text, source="rules.yaml")
    assert expected in str(info.value), str(info.value)
    assert "rules.yaml" in str(info.value)


def test_a_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(ChannelRulesInvalid, match="SYNTHBOT_CHANNEL_RULES"):
        load_rules(tmp_path / "nope.yaml")


def test_the_file_is_read_again_when_it_changes_and_a_bad_edit_fails_closed(tmp_path):
    path = tmp_path / "rules.yaml"
    path.write_text("default: {collections: [public]}\n")
    source = RulesSource(path, check_every=0)
    chan = Channel(id="C1", name="eng")
    assert source.resolve(chan).collections == ("public",)
    path.write_text("default: {collections: [public]}\nchannels:\n  - name: eng\n    collections: [eng]\n")
    _touch_later(path)
    assert source.resolve(chan).collections == ("eng",)
    path.write_text("default: {collections: [public]}\nchannels:\n  - name: eng\n    colections: [eng]\n")
    _touch_later(path)
    with pytest.raises(ChannelRulesInvalid):  # never the older, wider rules
        source.resolve(chan)
    path.unlink()
    with pytest.raises(ChannelRulesInvalid, match="cannot read"):
        source.resolve(chan)


def test_a_file_moved_away_and_back_unchanged_is_read_again(tmp_path):
    path, aside = tmp_path / "rules.yaml", tmp_path / "rules.yaml.bak"
    path.write_text("default: {collections: [public]}\n")
    source = RulesSource(path, check_every=0)
    path.rename(aside)  # same mtime and size when it comes back
    with pytest.raises(ChannelRulesInvalid, match="cannot read"):
        source.current()
    aside.rename(path)
    assert source.resolve(Channel(id="C1", name="eng")).collections == ("public",)


def test_grant_keys_round_trip_and_coverage_of_past_scopes():
    vis = Visibility((Grant(collection="eng"), Grant(collection="finance", tags=("public",))), "x")
    assert vis.keys == ["eng", "finance[public]"]
    assert grant_of("finance[payroll,public]") == Grant(collection="finance", tags=("payroll", "public"))
    assert vis.covers_keys(["eng"]) and vis.covers_keys(["finance[public]"])
    assert not vis.covers_keys(["finance"])  # all of finance is more than its public part
    assert not vis.covers_keys(["finance[payroll]"]) and not vis.covers_keys(["public"])
    assert not vis.covers_keys([])  # a turn that recorded no scope is not trusted under rules


def test_out_of_scope_is_the_error_family_with_a_fix():
    err = refusal(Visibility((), "no rule"), Channel(id="C9", name="random"))
    assert isinstance(err, OutOfScope) and "#random" in str(err) and "SYNTHBOT_CHANNEL_RULES" in str(err)


def _touch_later(path) -> None:
    """Make sure the new content has a new (mtime, size) stamp even on a coarse clock."""
    st = os.stat(path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    time.sleep(0)

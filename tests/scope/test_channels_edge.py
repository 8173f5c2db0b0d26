"""The edge's part of scoping: which kind of channel a request came from, and its name looked up only when needed."""

from __future__ import annotations

from bot.channels import UNKNOWN_KIND, ChannelDirectory, channel_kind, event_kind
from bot.deps import make_web_client


def test_the_kind_comes_from_what_slack_sent():
    assert channel_kind("C1", channel_type="channel") == "channel"
    assert channel_kind("G1", channel_type="group") == "channel"  # a private channel is a channel
    assert channel_kind("D1") == "im" and channel_kind("C1", channel_type="im") == "im"
    assert channel_kind("G2", channel_type="mpim") == "mpim"
    assert channel_kind("D9", channel_name="directmessage") == "im"  # a slash command in a DM
    assert channel_kind("G3", channel_name="mpdm-ann--bob-1") == "mpim"  # a slash command in a group DM


async def test_names_are_learned_from_commands_and_looked_up_only_when_rules_need_them(fake_slack, slack_settings):
    client = make_web_client(slack_settings, fake_slack.bot_token)
    fake_slack.channels["C0OPS"] = {"name": "ops"}
    needed = {"now": False}
    directory = ChannelDirectory(client, names_needed=lambda: needed["now"])
    assert (await directory.channel("C0OPS")).name == ""  # no rule names channels: no Web API call
    assert not fake_slack.calls_to("conversations.info")
    needed["now"] = True
    assert (await directory.channel("C0OPS")).name == "ops"
    assert (await directory.channel("C0OPS")).name == "ops"  # remembered
    assert len(fake_slack.calls_to("conversations.info")) == 1
    assert (await directory.channel("D0DM", kind="im")).name == ""  # a DM is never looked up
    directory.learn("C0NEW", "launch")  # a slash command carried it
    assert (await directory.channel("C0NEW")).name == "launch"
    assert (await directory.channel("C0GONE")).name == ""  # channel_not_found: unnamed, and not asked again soon
    assert (await directory.channel("C0GONE")).name == ""
    assert len(fake_slack.calls_to("conversations.info")) == 2


async def test_a_mention_without_channel_type_gets_its_kind_from_conversations_info(fake_slack, slack_settings):
    """app_mention events carry no channel_type and a group DM's id starts with G or C: Slack says which it is."""
    assert event_kind({"channel": "G0MPIM"}) == UNKNOWN_KIND and event_kind({"channel": "D0DM"}) == "im"
    assert event_kind({"channel": "G0MPIM", "channel_type": "mpim"}) == "mpim"
    client = make_web_client(slack_settings, fake_slack.bot_token)
    fake_slack.channels["G0MPIM"] = {"name": "mpdm-ann--bob-1", "is_mpim": True, "is_group": False}
    fake_slack.channels["C0PRIV"] = {"name": "launch", "is_channel": True, "is_private": True}
    directory = ChannelDirectory(client, names_needed=lambda: True)
    group = await directory.channel("G0MPIM", kind=UNKNOWN_KIND)
    assert (group.kind, group.name) == ("mpim", "")
    assert (await directory.channel("G0MPIM", kind=UNKNOWN_KIND)).kind == "mpim"  # remembered
    private = await directory.channel("C0PRIV", kind=UNKNOWN_KIND)
    assert (private.kind, private.name) == ("channel", "launch")  # one call gave the kind and the name
    assert len(fake_slack.calls_to("conversations.info")) == 2
    gone = await directory.channel("C0GONE", kind=UNKNOWN_KIND)
    assert (gone.kind, gone.name) == ("channel", "")  # channel_not_found: a channel without a name
    assert len(fake_slack.calls_to("conversations.info")) == 3


async def test_a_looked_up_name_expires_so_a_renamed_channel_gets_its_new_rule(fake_slack, slack_settings):
    from bot.channels import NAME_TTL

    now = {"t": 1000.0}
    client = make_web_client(slack_settings, fake_slack.bot_token)
    fake_slack.channels["C0OPS"] = {"name": "ops", "is_channel": True}
    directory = ChannelDirectory(client, names_needed=lambda: True, clock=lambda: now["t"])
    assert (await directory.channel("C0OPS")).name == "ops"
    fake_slack.channels["C0OPS"] = {"name": "ops-archive", "is_channel": True}  # renamed in Slack
    now["t"] += NAME_TTL - 1
    assert (await directory.channel("C0OPS")).name == "ops"  # still trusted: no call
    assert len(fake_slack.calls_to("conversations.info")) == 1
    now["t"] += 2
    assert (await directory.channel("C0OPS")).name == "ops-archive"
    assert len(fake_slack.calls_to("conversations.info")) == 2
    directory.learn("C0OPS", "ops-new")  # a slash command carries the current name at once
    assert (await directory.channel("C0OPS")).name == "ops-new"
    del fake_slack.channels["C0OPS"]
    now["t"] += NAME_TTL
    assert (await directory.channel("C0OPS")).name == "ops-new"  # the lookup failed: the last name known is kept
    assert len(fake_slack.calls_to("conversations.info")) == 3

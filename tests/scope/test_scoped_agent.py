"""The scoped agent's follow-up rule: earlier turns answered under a scope not covered now keep only the question."""

from __future__ import annotations

from synthesis.models import Turn
from synthesis.scoped import channel_scope, visible_history
from synthesis.scoping import Channel, Grant, Visibility


def test_turns_from_a_scope_no_longer_covered_keep_only_the_question():
    now = Visibility((Grant(collection="public"),), "channel #eng")
    history = [
        Turn(question="how do we roll back?", standalone="How do we roll back a deploy?", summary="Within 15 minutes [1].",
             cited_ids=["eng-chunk"], scope=["eng", "public"]),
        Turn(question="and leave?", standalone="How much annual leave?", summary="25 days [1].",
             cited_ids=["public-chunk"], scope=["public"]),
        Turn(question="before rules", summary="old answer", cited_ids=["x"]),  # recorded no scope: not trusted
    ]
    seen = visible_history(history, now)
    assert [t.question for t in seen] == ["how do we roll back?", "and leave?", "before rules"]
    assert (seen[0].summary, seen[0].standalone, seen[0].cited_ids) == ("", "", [])
    assert seen[1] == history[1]
    assert (seen[2].summary, seen[2].cited_ids) == ("", [])


def test_coverage_inside_a_channel_counts_its_own_questions_in_its_collections():
    scope = channel_scope(Visibility((Grant(collection="eng"), Grant(collection="public")), "x"),
                          Channel(id="C1", name="eng"))
    from synthesis.usage import UsageEvent

    assert scope.allows_event(UsageEvent(collection="eng+public", channel="C1"))
    assert not scope.allows_event(UsageEvent(collection="eng+finance", channel="C1"))  # finance is not visible
    assert not scope.allows_event(UsageEvent(collection="eng", channel="C2"))  # another channel's question

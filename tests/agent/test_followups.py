"""Follow-ups as people type them in a thread: "and what about X?", "what about for Y?", "same for Z?", "how about X?"
become the previous question asked about X; proposals, questions to the bot and full questions stay as they are."""

from __future__ import annotations

import pytest

from synthesis.models import Turn
from synthesis.planner import plan, rewrite_followup


def thread(*questions: str) -> list[Turn]:
    """Earlier turns, each already made standalone (what the agent stores)."""
    turns: list[Turn] = []
    for q in questions:
        turns.append(Turn(question=q, standalone=rewrite_followup(q, turns)))
    return turns


@pytest.mark.parametrize("previous, follow_up, expected", [
    # a group of people asks the same thing for them: they replace the asker ...
    ("How many days of annual leave can I carry over?", "and what about part-timers?",
     "How many days of annual leave can part-timers carry over?"),
    ("How many days of annual leave can I carry over?", "what about for part-timers?",
     "How many days of annual leave can part-timers carry over?"),
    ("Do I need approval to travel?", "same for contractors?", "Do contractors need approval to travel?"),
    ("Am I eligible for the transit subsidy?", "what about interns?", "Are interns eligible for the transit subsidy?"),
    # ... or replace the people the question was about
    ("How many vacation days do full-time employees get?", "and what about part-timers?",
     "How many vacation days do part-timers get?"),
    ("How long is parental leave for a primary caregiver?", "same for a secondary caregiver?",
     "How long is parental leave for the secondary caregiver?"),
    # ... or, with no asker, the question is asked for them
    ("How much is the home office stipend?", "Same for contractors?", "How much is the home office stipend for contractors?"),
    ("How much does the company contribute to my 401k?", "what about for contractors?",
     "How much does the company contribute to their 401k for contractors?"),
    # a preposition phrase replaces the same preposition's phrase, or is added
    ("How long is parental leave for the primary caregiver?", "and what about for the secondary caregiver?",
     "How long is parental leave for the secondary caregiver?"),
    ("What is the per diem rate in New York?", "what about in Boston?", "What is the per diem rate in Boston?"),
    ("Which holidays do we get off?", "how about in Puerto Rico?", "Which holidays do we get off in Puerto Rico?"),
    # anything else replaces the phrase it parallels
    ("How many days of annual leave can I carry over?", "What about sick leave?",
     "How many days of sick leave can I carry over?"),
    ("How do I deploy to production?", "what about staging?", "How do I deploy to staging?"),
    ("What is the per diem rate for New York?", "how about Boston?", "What is the per diem rate for Boston?"),
    ("Who approves a production hotfix?", "And what about a rollback?", "Who approves the rollback?"),
    # a thing replaces a thing, never the people asked about, and "how many" stays the question's
    ("How many vacation days do full-time employees get?", "how about sick leave?",
     "How many days of sick leave do full-time employees get?"),
    # a role the question asks about is not a group to swap; a unit is kept only for a quantity
    ("Who is the manager of the platform team?", "what about the design team?",
     "Who is the manager of the design team?"),
])
def test_what_about_follow_ups_keep_the_topic(previous, follow_up, expected):
    assert rewrite_followup(follow_up, thread(previous)) == expected


@pytest.mark.parametrize("follow_up", [
    "How about we schedule a call with the travel team?",  # a proposal
    "what about you?",  # a question to the bot
    "What about the process for rolling back a failed database migration in production?",  # a question of its own
    "How many sick days do I get?",  # a full question
    "What is the per diem rate for Boston?",
])
def test_questions_that_are_not_what_about_follow_ups_are_left_alone(follow_up):
    assert rewrite_followup(follow_up, thread("How many days of annual leave can I carry over?")) == follow_up


def test_no_history_no_rewrite():
    assert rewrite_followup("and what about part-timers?", []) == "and what about part-timers?"


def test_a_thread_of_follow_ups_builds_on_the_last_standalone_question():
    turns = thread("How many days of annual leave can I carry over?", "and what about part-timers?")
    assert turns[-1].standalone == "How many days of annual leave can part-timers carry over?"
    got = plan("what about sick leave?", turns)
    assert got.standalone == "How many days of sick leave can part-timers carry over?"
    assert "sick leave" in got.sub_queries[-1] and "part-timers" in got.sub_queries[-1]


def test_a_unit_is_kept_only_for_a_quantity():
    assert "days of" not in rewrite_followup("what about weekends?", thread("What are the blackout days?"))


def test_a_shared_word_alone_does_not_swap_a_phrase():
    """'new hires' shares only 'new' with 'the new laptop policy': it is asked for them, never put in its place."""
    assert "policy" in rewrite_followup("What about new hires?", thread("What is the new laptop policy?"))
    assert rewrite_followup("what about sick leave?", thread("What is the deadline for vacation days?")) == (
        "What is the deadline for sick leave?")  # a unit is kept only after "how many/much"


def test_a_family_member_is_no_group_of_staff_to_swap():
    from synthesis.planner import _is_group, _is_people

    assert _is_group("full-time employees") and _is_group("part-timers")
    assert not _is_group("family member") and not _is_group("the manager") and _is_people("team members")


@pytest.mark.parametrize(("previous", "follow_up", "expected"), [
    # a new user's console thread: "they" had become the hotfix ("What if the production hotfix are unreachable?")
    ("Who approves a production hotfix?", "and what if they are unreachable?",
     "What if the person who approves a production hotfix is unreachable?"),
    ("Who approves a production hotfix?", "how do I reach them?",
     "How do I reach the person who approves a production hotfix?"),
    ("Who is the on-call lead this week?", "what if she is sick?", "What if the on-call lead this week is sick?"),
])
def test_a_person_after_a_who_question_is_whoever_answers_it(previous, follow_up, expected):
    assert rewrite_followup(follow_up, thread(previous)) == expected


def test_a_possessive_her_is_not_the_person_who_answers():
    rewritten = rewrite_followup("can her manager do it?", thread("Who approves a production hotfix?"))
    assert "the person who" not in rewritten  # not "the person who approves a production hotfix manager"

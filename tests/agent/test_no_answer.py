"""A question the knowledge base cannot answer: the agent names the closest topics and Slack shows them."""

from __future__ import annotations

from bot.render import render_answer


async def test_not_found_names_the_closest_topics_in_the_result_and_in_slack(handbook_agent):
    r = await handbook_agent.answer("What is the capital of France?")
    assert r.no_answer and r.passages == []
    assert r.closest_topics and all(isinstance(t, str) and t for t in r.closest_topics)
    assert all(t in r.synthesis.summary for t in r.closest_topics)
    assert "closest_topics" in r.model_dump(mode="json")

    body = "\n".join(str(b) for m in render_answer(r) for b in m.blocks)
    assert "*Closest topics:*" in body
    assert all(t.split(" — ")[0] in body for t in r.closest_topics)


async def test_not_found_says_which_term_no_page_mentions(handbook_agent):
    r = await handbook_agent.answer("Am I eligible for a paid sabbatical after five years, and how long can it be?")
    assert r.no_answer
    assert "No retrieved page mentions “sabbatical”" in r.synthesis.summary, r.synthesis.summary
    assert r.synthesis.summary.startswith("I couldn't find this in the knowledge base.")


async def test_a_missing_word_is_named_as_the_question_writes_it(handbook_agent):
    from synthesis.stems import as_written

    r = await handbook_agent.answer("Am I eligible for a paid Sabbatical after five years?")
    assert r.no_answer and "No retrieved page mentions “Sabbatical”" in r.synthesis.summary, r.synthesis.summary

    question = "I'm going to a conference in Denver next month. What's the daily meals and incidentals rate there?"
    assert as_written("denver", question) == "Denver"
    assert as_written("a number of hours", question) == "a number of hours"  # a phrase of the refusal's own
    assert as_written("pto", "Can I roll over PTO-like hours?") == "pto"  # only a whole word is taken

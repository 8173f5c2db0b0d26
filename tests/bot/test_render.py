"""Slack rendering: valid Block Kit, Slack's limits on huge answers, no pings from documents, mrkdwn conversion."""

from __future__ import annotations

import json
import re

import pytest
from slack_sdk.models.blocks import Block

from bot.commands import USAGE
from bot.render import (
    BLOCKS_PER_MESSAGE,
    MESSAGE_CHAR_BUDGET,
    SECTION_LIMIT,
    SlackMessage,
    escape_mrkdwn,
    markdown_to_mrkdwn,
    render_anchor,
    render_answer,
    render_error,
    render_progress,
    render_queued,
    split_text,
)
from synthesis.models import (
    AnswerResult,
    AskOptions,
    Contradiction,
    Finding,
    LLMUsage,
    Passage,
    Source,
    SubagentResult,
    Synthesis,
)

WIKI = "https://wiki.example.com/deploy?team=ops&v=2"


def make_result(**overrides) -> AnswerResult:
    synthesis = Synthesis(
        summary="Deploys are **blue-green** and take about ten minutes [1]. Rollbacks are manual [2, 3].",
        findings=[Finding(topic="Rollback", content="Rollback is `make rollback` [1]", citations=[1]),
                  Finding(topic="Windows", content="No deploys on Fridays", citations=[2, 3])],
        contradictions=[Contradiction(description="The timeout is 30s in one doc and 60s in another",
                                      citations=[1, 3], suggestion="Ask **ops** which one is current")],
        gaps=["Nothing about canary releases"],
        sources=[Source(number=1, passage_id="p1", doc_id="deploy", title="Deploy guide", section="Rollback", url=WIKI),
                 Source(number=2, passage_id="p2", doc_id="docs/ops.md", title="Ops notes", url="docs/ops.md"),
                 Source(number=3, passage_id="p3", doc_id="t", title="Timeouts", section="HTTP",
                        url="https://wiki.example.com/timeouts")],
    )
    fields = dict(question="How do deploys work?", standalone_question="How do deploys work?", question_type="factual",
                  synthesis=synthesis, duration=2.5,
                  subagents=[SubagentResult(subagent="a", success=True), SubagentResult(subagent="b", success=False)],
                  passages=[Passage(id="p1", doc_id="deploy", content="x", score=0.9, title="Deploy guide",
                                    source_url=WIKI)])
    fields.update(overrides)
    return AnswerResult(**fields)


def texts(obj) -> list[str]:
    """Every `text` string in a block tree."""
    if isinstance(obj, dict):
        return [v for k, v in obj.items() if k == "text" and isinstance(v, str)] + \
            [t for v in obj.values() for t in texts(v)]
    if isinstance(obj, list):
        return [t for v in obj for t in texts(v)]
    return []


def everything(messages: list[SlackMessage]) -> str:
    return "\n".join([m.text for m in messages] + [t for m in messages for t in texts(m.blocks)])


def assert_valid(message: SlackMessage) -> None:
    assert message.text.strip(), "every message needs a non-empty text fallback"
    assert 0 < len(message.blocks) <= BLOCKS_PER_MESSAGE
    assert len(json.dumps(message.blocks, ensure_ascii=False)) <= MESSAGE_CHAR_BUDGET + 2000
    for block in message.blocks:
        Block.parse(block).validate_json()  # slack_sdk's own validators (raises on a violation)
        if block["type"] == "section":
            assert 0 < len(block["text"]["text"]) <= SECTION_LIMIT


def buttons(message: SlackMessage) -> list[dict]:
    return [e for b in message.blocks if b["type"] == "actions" for e in b["elements"]]


def test_answer_has_summary_findings_contradictions_gaps_sources_footer_and_buttons():
    result = make_result(notices=["Claude was unavailable, so this is the offline answer."])
    [message] = render_answer(result)
    assert_valid(message)
    body = everything([message])
    assert "*blue-green*" in body
    assert "*Findings*" in body and "*Rollback*" in body
    assert "⚠️" in body and "Ask *ops* which one is current" in body
    assert "Nothing about canary releases" in body
    assert "*Sources*" in body
    assert "Claude was unavailable" in body
    assert "Confidence:" in body and "1/2 searches" in body and "extractive" in body and "2.5s" in body
    assert {(b["action_id"], b["value"]) for b in buttons(message)} == {("feedback_up", result.id),
                                                                       ("feedback_down", result.id)}
    assert "Deploys are blue-green" in message.text and "**" not in message.text


def test_citations_link_to_http_sources_and_file_paths_stay_plain():
    body = everything(render_answer(make_result()))
    assert "<https://wiki.example.com/deploy?team=ops&amp;v=2|[1]>" in body
    assert "<https://wiki.example.com/timeouts|[3]>" in body
    assert "[2]<https://wiki.example.com/timeouts|[3]>" in body  # "[2, 3]": the file-path source stays plain
    assert "<https://wiki.example.com/deploy?team=ops&amp;v=2|[1] Deploy guide — Rollback>" in body
    assert "[2] Ops notes `docs/ops.md`" in body
    assert "<docs/ops.md" not in body and "|[2]>" not in body


def test_findings_without_markers_get_their_citations_appended():
    body = everything(render_answer(make_result()))
    assert re.search(r"No deploys on Fridays \[2\]<https://wiki\.example\.com/timeouts\|\[3\]>", body)


@pytest.mark.parametrize("url", ["javascript:alert(1)", "file:///etc/passwd", "/srv/kb/deploy.md", "!channel",
                                 "https://"])
def test_non_http_source_urls_are_never_links(url):
    result = make_result(synthesis=Synthesis(summary="See [1].", sources=[
        Source(number=1, passage_id="p", doc_id="d", title="Doc", url=url)]))
    body = everything(render_answer(result))
    assert f"<{url}" not in body and "|[1]>" not in body
    assert "[1] Doc" in body


def test_labels_cannot_break_links():
    result = make_result(synthesis=Synthesis(summary="s [1]", sources=[
        Source(number=1, passage_id="p", doc_id="d", title="A | B > C", section="x|y", url="https://e.io/a|b>c")]))
    body = everything(render_answer(result))
    link = re.search(r"<https://e\.io/[^>]*\|\[1\] [^>]*>", body)
    assert link, body
    assert link.group(0) == "<https://e.io/a%7Cb%3Ec|[1] A ∣ B &gt; C — x∣y>"


DANGEROUS = "Ping <!channel> and <!here|here> and <!everyone>, <@U123ABC>, <#C42|general>, <!subteam^S1|@ops>, " \
            "&lt;!channel&gt;, @channel @here @everyone & friends"


def test_document_text_cannot_ping_anyone():
    syn = Synthesis(summary=DANGEROUS, findings=[Finding(topic=DANGEROUS, content=DANGEROUS, citations=[1])],
                    contradictions=[Contradiction(description=DANGEROUS, suggestion=DANGEROUS)], gaps=[DANGEROUS],
                    sources=[Source(number=1, passage_id="p", doc_id="d", title=DANGEROUS, section=DANGEROUS,
                                    url="https://e.io/x")])
    results = [make_result(synthesis=syn, notices=[DANGEROUS], question=DANGEROUS),
               make_result(synthesis=syn, no_answer=True, question=DANGEROUS,
                           passages=[Passage(id="p", doc_id="d", content="c", score=0.1, title=DANGEROUS)])]
    for result in results:
        for options in (None, AskOptions(sources_only=True), AskOptions(debug=True)):
            messages = render_answer(result, options=options)
            for m in messages:
                assert_valid(m)
            body = everything(messages)
            assert not re.search(r"<[!@#]", body), body
            assert not re.search(r"@(channel|here|everyone)", body), body
            assert not re.search(r"&(?!amp;|lt;|gt;)", body), "a bare & must be escaped"
            assert "&amp; friends" in body


def test_escape_mrkdwn_cases():
    assert escape_mrkdwn("a & b < c > d") == "a &amp; b &lt; c &gt; d"
    assert escape_mrkdwn("<@U123>") == "&lt;\u200b@U123&gt;"
    assert escape_mrkdwn("&lt;!here&gt;") == escape_mrkdwn("<!here>") == "&lt;\u200b!here&gt;"
    assert escape_mrkdwn("hey @Channel") == "hey @\u200bChannel"
    assert escape_mrkdwn("mail me@here.io") == "mail me@here.io"  # an address, not a broadcast


@pytest.mark.parametrize("markdown, mrkdwn", [
    ("**bold** and __also bold__", "*bold* and *also bold*"),
    ("*italic* and _italic_", "_italic_ and _italic_"),
    ("~~gone~~", "~gone~"),
    ("# Heading\n## Sub **heading** ##", "*Heading*\n*Sub heading*"),
    ("- one\n* two\n+ three\n  - nested", "• one\n• two\n• three\n  • nested"),
    ("1. first\n2. second", "1. first\n2. second"),
    ("[the guide](https://e.io/guide)", "<https://e.io/guide|the guide>"),
    ("[a|b](https://e.io/x?a=1&b=2)", "<https://e.io/x?a=1&amp;b=2|a∣b>"),
    ("[local](docs/a.md)", "local (docs/a.md)"),
    ("[bad](javascript:alert(1))", "bad (javascript:alert(1))"),
    ("see <https://e.io/x>", "see <https://e.io/x>"),
    ("`**not bold**` and `a < b`", "`**not bold**` and `a &lt; b`"),
    ("```python\nx = **y** # [link](https://e.io)\n- not a bullet\n```", "```x = **y** # [link](https://e.io)\n- not a bullet```"),
    ("> quoted & kept", "> quoted &amp; kept"),
    ("snake_case_name and 2*3*4", "snake_case_name and 2*3*4"),
    ("a <b> & c", "a &lt;b&gt; &amp; c"),
    ("---", "──────────"),
])
def test_markdown_to_mrkdwn(markdown, mrkdwn):
    assert markdown_to_mrkdwn(markdown) == mrkdwn


def test_markdown_links_survive_escaping_and_pings_do_not():
    out = markdown_to_mrkdwn("**Note** <!channel> see [doc](https://e.io/a_b__c__) `<@U1>`")
    assert out == "*Note* &lt;\u200b!channel&gt; see <https://e.io/a_b__c__|doc> `&lt;\u200b@U1&gt;`"


def test_citations_inside_code_are_not_linked():
    out = markdown_to_mrkdwn("a [1] and `arr[1]`", citation_urls={1: "https://e.io"})
    assert out == "a <https://e.io|[1]> and `arr[1]`"


def test_huge_answer_splits_across_messages_within_limits():
    long_sentence = "The deploy pipeline runs the integration suite against staging before promotion. " * 20
    syn = Synthesis(summary=long_sentence * 3,
                    findings=[Finding(topic=f"Topic {i}", content=f"{long_sentence} marker-{i} [{i % 40 + 1}]",
                                      citations=[i % 40 + 1]) for i in range(60)],
                    gaps=[f"gap {i}" for i in range(30)],
                    sources=[Source(number=n, passage_id=f"p{n}", doc_id=f"d{n}", title=f"Doc {n}" * 10,
                                    section="Section" * 5, url=f"https://wiki.example.com/{n}")
                             for n in range(1, 41)])
    result = make_result(synthesis=syn)
    messages = render_answer(result)
    assert len(messages) > 3
    for m in messages:
        assert_valid(m)
    assert all(not buttons(m) for m in messages[:-1]) and len(buttons(messages[-1])) == 2
    body = everything(messages)
    assert all(f"marker-{i}" in body for i in range(60)), "nothing may be lost in the split"
    assert all(f"wiki.example.com/{n}|[{n}] Doc {n}" in body for n in range(1, 41))
    assert messages[1].text.startswith("(continued 2/")


def test_one_enormous_paragraph_and_code_block_are_split_safely():
    code = "\n".join(f"line {i}: value = {i * 7}" for i in range(600))
    syn = Synthesis(summary="x" * 9000 + " " + "word " * 2000 + "\n```\n" + code + "\n```")
    messages = render_answer(make_result(synthesis=syn))
    for m in messages:
        assert_valid(m)
    sections = [b["text"]["text"] for m in messages for b in m.blocks if b["type"] == "section"]
    assert all(s.count("```") % 2 == 0 for s in sections), "a split code block is closed and reopened"
    assert "line 599: value = 4193" in everything(messages)


def test_split_text_keeps_links_whole():
    links = " ".join(f"<https://e.io/{i}|link number {i}>" for i in range(400))
    pieces = split_text(links, limit=500)
    assert all(len(p) <= 500 for p in pieces)
    assert all(p.count("<") == p.count(">") for p in pieces)
    assert sum(p.count("<https://") for p in pieces) == 400


def test_no_answer_shows_couldnt_find_and_closest_topics():
    result = make_result(no_answer=True, synthesis=Synthesis(summary=""), passages=[
        Passage(id="a", doc_id="d1", content="c", score=0.2, title="Kubernetes notes", source_url="https://e.io/k"),
        Passage(id="b", doc_id="d1", content="c", score=0.1, title="Kubernetes notes", source_url="https://e.io/k"),
        Passage(id="c", doc_id="d2", content="c", score=0.1, title="Local file", source_url="notes/local.md")])
    messages = render_answer(result)
    [message] = messages
    assert_valid(message)
    body = everything(messages)
    assert "couldn't find an answer" in body and "How do deploys work?" in body
    assert "*Closest topics:*" in body and body.count("<https://e.io/k|Kubernetes notes>") == 1
    assert "Local file `notes/local.md`" in body
    assert "Confidence: *low*" in body and buttons(message)
    assert message.text.startswith("No answer found")


def test_no_answer_renders_the_agents_closest_topics():
    result = make_result(no_answer=True, passages=[], closest_topics=["Deploy policy — Fridays", "On-call <!here>"],
                         synthesis=Synthesis(summary="I couldn't find this in the knowledge base. The closest ..."))
    [message] = render_answer(result)
    assert_valid(message)
    body = everything([message])
    assert "*Closest topics:*\n• Deploy policy — Fridays\n• On-call" in body
    assert "<!here>" not in body  # topic titles come from documents: escaped like any document text
    assert "The closest ..." not in body  # the topics are listed, not repeated from the summary


def test_no_answer_without_topics_falls_back_to_the_summary():
    result = make_result(no_answer=True, passages=[], synthesis=Synthesis(
        summary="I couldn't find this in the knowledge base. Nearby: **deploy windows**."))
    body = everything(render_answer(result))
    assert "Nearby: *deploy windows*." in body and "*Closest topics:*" not in body
    assert body.count("couldn't find") == 1  # the header already says it


def test_sources_only_renders_just_the_sources():
    [message] = render_answer(make_result(), options=AskOptions(sources_only=True))
    assert_valid(message)
    body = everything([message])
    assert "*Sources for* “How do deploys work?”" in body
    assert "[1] Deploy guide — Rollback" in body
    assert "*Findings*" not in body and "blue-green" not in "\n".join(texts(message.blocks))


def test_sources_only_falls_back_to_passages():
    result = make_result(synthesis=Synthesis(summary=""), passages=[
        Passage(id="p", doc_id="d", content="c", score=0.5, title="Runbook", section="Deploy",
                source_url="https://e.io/r")])
    body = everything(render_answer(result, options=AskOptions(sources_only=True)))
    assert "<https://e.io/r|[1] Runbook — Deploy>" in body


def test_low_confidence_notice_and_debug_block():
    result = make_result(low_confidence=True, sub_queries=["deploy steps"],
                         llm_usage=LLMUsage(model="claude-sonnet-4-5"), synthesizer="claude")
    [message] = render_answer(result, options=AskOptions(debug=True))
    body = everything([message])
    assert message.blocks[0]["type"] == "context" and "Low confidence" in body
    assert "*Debug*" in body and "sub-query: deploy steps" in body
    assert "claude (claude-sonnet-4-5)" in body


@pytest.mark.parametrize("kind", ["no_kb", "nothing_found", "timeout", "internal", "usage", "busy", "invalid",
                                  "unheard-of"])
def test_every_error_kind_renders_an_actionable_valid_message(kind):
    message = render_error(kind, "details <!channel> & more", error_id="e-1234")
    assert_valid(message)
    body = everything([message])
    assert "e-1234" in body and "e-1234" in message.text
    assert "<!channel" not in body
    if kind == "usage":
        assert USAGE in body
    if kind == "no_kb":
        assert "synthbot ingest" in body
    if kind in ("invalid", "timeout", "busy", "nothing_found"):
        assert "went wrong on my side" not in body  # only internal errors (and unknown kinds) blame the bot


def test_anchor_progress_and_queue_messages():
    anchor = render_anchor("U123ABC", "is <!here> allowed? & why")
    assert_valid(anchor)
    body = everything([anchor])
    assert "<@U123ABC> asked:" in body and "> is &lt;\u200b!here&gt; allowed? &amp; why" in body
    assert "<!here" not in body
    assert "<@" not in everything([render_anchor("not-a-user-id <!channel>", "q")])

    progress = render_progress("search", "q?", user_id="U123ABC")
    assert_valid(progress)
    assert "Searching the knowledge base" in everything([progress]) and "<@U123ABC>" in everything([progress])
    bare = render_progress("some custom stage")
    assert_valid(bare)
    assert [b["type"] for b in bare.blocks] == ["context"]

    queued = render_queued(3)
    assert_valid(queued)
    assert "number 3 in line" in queued.text
    assert "next in line" in render_queued(1).text


def test_as_kwargs_is_ready_for_chat_post_message():
    message = render_queued(2)
    assert message.as_kwargs() == {"text": message.text, "blocks": message.blocks}


def test_control_escape_and_bidi_characters_never_reach_slack():
    from bot.render import render_answer
    from tests.bot.fakes import make_result

    nasty = "Deploy\x00 at \x1b[31mnoon\x1b[0m\u202e1 ,txt.exe\u2066 now\x07\r"
    result = make_result(nasty, summary=nasty)
    for message in [*render_answer(result), render_anchor("U1", nasty), render_progress(nasty, nasty)]:
        dumped = json.dumps(message.as_kwargs(), ensure_ascii=False)
        for bad in ("\x00", "\x1b", "\u202e", "\u2066", "\x07", "\r", "\\u0000", "\\u001b", "\\u0007"):
            assert bad not in dumped, (bad, dumped[:200])
        assert "noon" in dumped  # the text stays, only the invisible controls go

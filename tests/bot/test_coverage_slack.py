"""`/ask --coverage [topic]` through the real app: the compact report in the thread and the chart uploaded with the
real `files_upload_v2` against the fake Web API's upload endpoints."""

from __future__ import annotations

import pytest

from bot.coverage_view import CoverageService, render_coverage
from bot.deps import make_web_client
from bot.fake_slack import FakeSlack
from synthesis.config import Settings
from synthesis.usage import SQLiteUsageLog, UsageEvent
from tests.bot.fakes import block_text


@pytest.fixture(scope="module")
def demo(demo_store):
    from synthesis.retrieval import make_retriever

    settings = Settings(_env_file=None, home=demo_store.home)
    return demo_store, make_retriever(settings, demo_store)


async def test_coverage_topic_report_and_chart_in_the_thread(harness_factory, demo, tmp_path):
    store, retriever = demo
    usage = SQLiteUsageLog(tmp_path / "log.sqlite3")
    svc = CoverageService(Settings(_env_file=None, home=tmp_path), usage=usage, store=store, retriever=retriever)
    h = await harness_factory(coverage=svc)
    response = await h.ask("--coverage on-call")
    assert response.status == 200 and not response.body  # acked at once, like /ask
    await h.settle()
    anchor = h.anchor_ts()
    channel = next(c.args["channel"] for c in h.fake.calls_to("chat.postMessage"))
    replies = [m for m in h.fake.thread(channel, anchor) if m["ts"] != anchor]
    report_text = block_text(replies[0])
    assert "Overall:" in report_text and "coverage of “on-call”" in report_text
    assert "Definition:" in report_text and "*Facets*" in report_text and "Gaps identified" in report_text
    assert "✅ tag *on-call*" in report_text
    # the chart: the three steps of files_upload_v2, and a PNG shared into the same thread
    assert [c.method for c in h.fake.calls if c.method.startswith("file")] == [
        "files.getUploadURLExternal", "file.upload", "files.completeUploadExternal"]
    (entry,) = h.fake.files.values()
    assert entry["completed"] and entry["data"].startswith(b"\x89PNG") and entry["mimetype"] == "image/png"
    assert entry["channel"] == channel and entry["thread_ts"] == anchor
    assert entry["title"].startswith("Overall:") and entry["name"] == "coverage-on-call.png"
    shared = [m for m in replies if m.get("files")]
    assert shared and shared[0]["files"][0]["id"] == entry["id"] and shared[0]["text"] == "📊 Coverage per facet"
    final = h.fake.message(channel, anchor)
    assert "Answered in the thread" in block_text(final)
    usage.close()


async def test_whole_knowledge_base_report_names_never_retrieved_pages(harness_factory, demo, tmp_path):
    store, retriever = demo
    usage = SQLiteUsageLog(tmp_path / "log.sqlite3")
    first = next(store.scan(include_documents=False))
    usage.record(UsageEvent(question="How do rollbacks work?", retrieved=first[0][:3], collection=store.name,
                            confidence="high"))
    usage.record(UsageEvent(question="Where is the payroll calendar?", no_answer=True, confidence="low",
                            collection=store.name))
    svc = CoverageService(Settings(_env_file=None, home=tmp_path), usage=usage, store=store, retriever=retriever)
    report = await svc(None)
    assert report.retrieval.events == 2 and report.retrieval.retrieved_chunks == 3
    (message,) = render_coverage(report)
    text = block_text(message.model_dump())
    assert f"Overall: {round(report.headline * 100)} % coverage" in text
    assert "Never retrieved" in text and "Where is the payroll calendar?" in text
    h = await harness_factory(coverage=svc)
    await h.ask("--coverage")
    await h.settle()
    assert len(h.fake.calls_to("files.completeUploadExternal")) == 1
    usage.close()


async def test_a_refused_chart_keeps_the_report(harness_factory, demo, tmp_path):
    store, retriever = demo
    svc = CoverageService(Settings(_env_file=None, home=tmp_path), store=store, retriever=retriever)
    h = await harness_factory(coverage=svc)
    h.fake.fail_next("files.getUploadURLExternal", error="not_allowed_token_type")
    await h.ask("--coverage deploys")
    await h.settle()
    channel = next(c.args["channel"] for c in h.fake.calls_to("chat.postMessage"))
    anchor = h.anchor_ts()
    replies = [m for m in h.fake.thread(channel, anchor) if m["ts"] != anchor]
    assert "Overall:" in block_text(replies[0]) and not h.fake.files
    assert "Answered in the thread" in block_text(h.fake.message(channel, anchor))


async def test_no_knowledge_base_says_how_to_build_one(harness_factory, tmp_path):
    svc = CoverageService(Settings(_env_file=None, home=tmp_path / "empty"))
    h = await harness_factory(coverage=svc)
    await h.ask("--coverage")
    await h.settle()
    texts = [block_text(c.args) for c in h.fake.calls_to("chat.postMessage") if c.args.get("thread_ts")]
    assert any("synthbot ingest" in t for t in texts)


async def test_fake_upload_endpoints_refuse_what_slack_refuses():
    from slack_sdk.errors import SlackApiError

    async with FakeSlack() as fake:
        settings = Settings(_env_file=None, slack_api_url=fake.base_url)
        client = make_web_client(settings, fake.bot_token)
        with pytest.raises(SlackApiError, match="invalid_arguments"):
            await client.files_getUploadURLExternal(filename="x.png", length=0)
        got = await client.files_getUploadURLExternal(filename="x.png", length=4)
        with pytest.raises(SlackApiError, match="file_upload_not_complete"):
            await client.files_completeUploadExternal(files=[{"id": got["file_id"], "title": "x"}], channel_id="C1")
        resp = await client.files_upload_v2(channel="C1", file=b"\x89PNG\r\n\x1a\n....", filename="c.png", title="c")
        assert resp["file"]["mimetype"] == "image/png" and fake.files[resp["file"]["id"]]["length"] == 12
        assert (await client.files_info(file=resp["file"]["id"]))["file"]["title"] == "c"

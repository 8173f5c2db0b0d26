"""0 leaks across channels, end to end: signed Slack requests through the real app, the fake Web API, the real
ScopedAgent over real Chroma and the bundled model.

Every collection's documents carry markers (a canary code, title, URL, doc id and every sentence). For each channel,
everything the bot sent there (posts, updates, ephemerals, uploads), the retrieval log and the feedback log are
searched for the markers of every document the channel may not see. Each test also asks where the document *is*
visible and finds it, so a scoping that hid everything could not pass.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from bot.coverage_view import CoverageService
from synthesis.config import Settings
from synthesis.scoped import open_scoped
from synthesis.scoping import RulesSource
from synthesis.usage import SQLiteUsageLog
from tests.scope.conftest import ingest_into, write_docs

pytestmark = pytest.mark.slow

DOCS = {
    "public": {
        "public/holidays.md": ("Holidays and leave", "people",
                               "# Leave\n\nEveryone gets 25 days of annual leave a year. Up to five unused days carry "
                               "over to the next year. PUBCANARYLEAVE is the leave policy code.\n"),
        "public/office.md": ("Office hours", "people",
                             "# Office\n\nThe office opens at 8 am and closes at 7 pm. Visitors sign in at the front "
                             "desk. Deploy parties happen in the kitchen on Fridays. PUBCANARYOFFICE is the visitor badge code.\n"),
    },
    "eng": {
        "eng/deploys.md": ("Deploy runbook", "ops",
                           "# Rollback\n\nA failed deploy must be rolled back within 15 minutes using the ferry "
                           "rollback command. ENGCANARYROLLBACK is the rollback checklist id.\n\n# Approval\n\nThe "
                           "release captain approves every production hotfix. Check the "
                           "[payroll calendar](https://wiki.example.com/finance/payroll) before deploying on payroll "
                           "day.\n"),
        "eng/incidents.md": ("Incident response", "ops",
                             "# Incidents\n\nThe incident commander pages the database team when replication lag "
                             "exceeds 30 seconds. ENGCANARYINCIDENT marks the incident template.\n"),
    },
    "finance": {
        "finance/payroll.md": ("Payroll calendar", "payroll",
                               "# Payroll\n\nPayroll runs on the 25th of each month. Salary bands are reviewed every "
                               "April. FINCANARYPAYROLL is the payroll ledger code.\n"),
        "finance/expenses.md": ("Expense claims", "public",
                                "# Expenses\n\nExpense claims are reimbursed within ten days. Keep every receipt for "
                                "seven years. FINCANARYEXPENSES is the claims form code.\n"),
    },
    "orphan": {  # no rule names it: visible nowhere
        "orphan/nightjar.md": ("Project Nightjar", "ops",
                               "# Nightjar\n\nThe acquisition of Initech closes in March. Failed deploys during the "
                               "integration are rolled back within 5 minutes. Payroll for acquired staff runs on the "
                               "first day of the month. Annual leave for acquired staff is 30 days. ORPHANCANARY is "
                               "the deal code.\n"),
    },
}
RULES = """
default:
  collections: [public]
dm:
  collections:
    - public
    - collection: finance
      tags: [public]
channels:
  - name: eng-oncall
    collections: [eng, public]
  - id: C0FINANCE
    collections: [finance]
  - name: locked
    collections: []
"""
GENERAL, ENG, FINANCE, LOCKED, DM = "C0GENERAL", "C0ENG", "C0FINANCE", "C0LOCKED", "D0DM"
VISIBLE = {  # channel -> doc ids it may see
    GENERAL: {"public/holidays.md", "public/office.md"},
    ENG: {"public/holidays.md", "public/office.md", "eng/deploys.md", "eng/incidents.md"},
    FINANCE: {"finance/payroll.md", "finance/expenses.md"},
    DM: {"public/holidays.md", "public/office.md", "finance/expenses.md"},
    LOCKED: set(),
}
ALL_DOCS = {doc: (coll, *meta) for coll, docs in DOCS.items() for doc, meta in docs.items()}
CHUNK_DOC: dict[str, str] = {}  # chunk id -> doc id, filled when the collections are ingested
_URL = re.compile(r"wiki\.example\.com/(\w+)/(\w+)")


def url_of(doc_id: str) -> str:
    return "https://wiki.example.com/" + doc_id.removesuffix(".md")


def markers(doc_id: str) -> list[str]:
    """What would show that a document reached a channel: its code, title, URL, id and every sentence."""
    _coll, title, _tag, body = ALL_DOCS[doc_id]
    text = re.sub(r"\[([^\]]+)\]\([^)]+\)", r"\1", body)
    sentences = [s.strip() for line in text.splitlines() if line and not line.startswith("#")
                 for s in re.split(r"(?<=\.)\s+", line) if len(s.strip()) > 20]
    code = re.search(r"\b[A-Z]*CANARY[A-Z]*\b", body).group(0)
    return [code, title, url_of(doc_id).split("://")[1], doc_id] + [s.rstrip(".") for s in sentences]


def forbidden(channel: str) -> dict[str, list[str]]:
    return {doc: markers(doc) for doc in ALL_DOCS if doc not in VISIBLE[channel]}


def assert_no_leak(text: str, channel: str, where: str) -> None:
    flat = " ".join(text.replace("\\n", " ").split())
    for doc, marks in forbidden(channel).items():
        for mark in marks:
            assert mark not in flat, f"{where} in {channel} leaks {doc}: {mark!r}"
    for coll, page in _URL.findall(flat):  # any page URL shown at all must be one the channel may see
        assert f"{coll}/{page}.md" in VISIBLE[channel], f"{where} in {channel} names {coll}/{page}"


def sent_to(fake, channel: str) -> str:
    """Everything the bot sent to `channel`: posts, updates, ephemerals, uploads' titles and comments."""
    calls = [c for c in fake.calls if c.args.get("channel") == channel or c.args.get("channel_id") == channel
             or c.args.get("channels") == channel]
    return "\n".join(json.dumps(c.args, ensure_ascii=False, default=str) for c in calls)


@pytest.fixture(scope="module")
def scoped_kb(tmp_path_factory, minilm):
    """The four collections ingested once; tests link their own data dir's `chroma` to it."""
    root = tmp_path_factory.mktemp("scoped-kb")
    settings = Settings(_env_file=None, home=root / "home")
    cwd = os.getcwd()
    os.chdir(root)  # doc ids are paths relative to where ingest runs: "eng/deploys.md"
    try:
        for coll, docs in DOCS.items():
            texts = {doc: f"---\ntitle: {title}\nurl: {url_of(doc)}\ntags: [{tag}]\n---\n{body}"
                     for doc, (title, tag, body) in docs.items()}
            store = ingest_into(settings, minilm, coll, write_docs(root, texts))
            for ids, _docs, metas in store.scan(include_documents=False):
                CHUNK_DOC.update({cid: m["doc_id"] for cid, m in zip(ids, metas)})
    finally:
        os.chdir(cwd)
    assert set(CHUNK_DOC.values()) == set(ALL_DOCS)
    return settings.chroma_path


@pytest.fixture
def scoped(scoped_kb, tmp_path, slack_settings, harness_factory):
    """(make_harness, rules_path, usage): the app over a ScopedAgent with this test's rules and logs."""
    home = tmp_path / "bot-home"
    home.mkdir()
    (home / "chroma").symlink_to(scoped_kb, target_is_directory=True)
    rules_path = tmp_path / "channel-rules.yaml"
    rules_path.write_text(RULES)
    settings = slack_settings.model_copy(update={"home": home, "channel_rules": rules_path})
    rules = RulesSource(rules_path, check_every=0)  # an edit applies to the very next question
    usage = SQLiteUsageLog(tmp_path / "usage.sqlite3")
    agent, _library = open_scoped(settings, rules, usage=usage)

    async def opened():
        return agent

    async def make():
        coverage = CoverageService(settings, usage=usage, scoped=opened)
        return await harness_factory(agent, settings=settings, coverage=coverage, rules=rules)

    yield make, rules_path, usage
    agent.close()
    usage.close()


async def ask(h, text: str, channel: str, name: str):
    await h.ask(text, channel=channel, channel_name=name)
    await h.settle()
    anchors = [c for c in h.fake.calls_to("chat.postMessage")
               if not c.args.get("thread_ts") and c.args.get("channel") == channel]
    ts = anchors[-1].response["ts"]
    return ts, "\n".join(h.thread_texts(channel, ts))


async def test_passages_citations_sources_and_explore_stay_in_their_channel(scoped):
    make, _rules, usage = scoped
    h = await make()
    question = "How fast must a failed deploy be rolled back, and when does payroll run?"
    _, eng = await ask(h, question, ENG, "eng-oncall")
    assert "15 minutes" in eng and "wiki.example.com/eng/deploys" in eng  # eng sees its runbook...
    assert "You might also explore" in eng
    _, fin = await ask(h, question, FINANCE, "finance")
    assert "25th of each month" in fin  # ...finance its calendar...
    _, gen = await ask(h, question, GENERAL, "general")  # ...and #general neither
    for channel in (ENG, FINANCE, GENERAL):
        assert_no_leak(sent_to(h.fake, channel), channel, "the answer")
    # The linked payroll page is "You might also explore" material only where finance is visible.
    assert "Payroll calendar" not in eng
    events = usage.events()
    assert {e.channel for e in events} == {ENG, FINANCE, GENERAL} and all(e.retrieved for e in events)
    for event in events:
        for kind, ids in (("retrieved", event.retrieved), ("cited", event.cited)):
            assert all(_doc_of_chunk(cid) in VISIBLE[event.channel] for cid in ids), (event.channel, kind)


async def test_a_dm_sees_its_rule_and_only_the_tagged_part_of_a_collection(scoped):
    make, _rules, _usage = scoped
    h = await make()
    await h.event(h.requests.message("How quickly are expense claims reimbursed and when does payroll run?",
                                     channel=DM, channel_type="im"))
    await h.settle()
    dm = sent_to(h.fake, DM)
    assert "within ten days" in dm  # finance's `public` page...
    assert_no_leak(dm, DM, "the DM answer")  # ...never its payroll page, eng or orphan
    _, report = await ask(h, "--coverage", DM, "directmessage")  # /ask in a DM: the same rule
    assert "3 documents" in report
    _, topic = await ask(h, "--coverage payroll", DM, "directmessage")
    assert_no_leak(sent_to(h.fake, DM), DM, "the DM's coverage")


async def test_no_answer_and_its_closest_topics_stay_in_the_channel(scoped):
    make, _rules, _usage = scoped
    h = await make()
    _, gen = await ask(h, "When does the acquisition of Initech close?", GENERAL, "general")
    assert "couldn't find" in gen
    assert_no_leak(sent_to(h.fake, GENERAL), GENERAL, "the no-answer and its closest topics")
    _, meta = await ask(h, "How complete is our deploy documentation?", GENERAL, "general")
    assert "coverage" in meta.lower()
    assert_no_leak(sent_to(h.fake, GENERAL), GENERAL, "a meta answer")


async def test_channels_without_a_rule_a_locked_channel_and_an_unknown_name_see_nothing(scoped):
    make, rules_path, _usage = scoped
    h = await make()
    _, locked = await ask(h, "How fast must a failed deploy be rolled back?", LOCKED, "locked")
    assert "may not see any" in locked and "its rule (channel #locked) lists no collection" in locked
    # A mention carries no channel name: the name is looked up (conversations.info) and its rule applies.
    h.fake.channels["C0ENG2"] = {"name": "eng-oncall", "is_channel": True}
    await h.event(h.requests.app_mention("How fast must a failed deploy be rolled back?", channel="C0ENG2"))
    await h.settle()
    assert "15 minutes" in sent_to(h.fake, "C0ENG2")
    # A mention in a group DM (its id does not start with D, and app_mention has no channel_type) gets the dm rule.
    h.fake.channels["G0MPIM"] = {"name": "mpdm-ann--bob-1", "is_mpim": True}
    await h.event(h.requests.app_mention("How quickly are expense claims reimbursed?", channel="G0MPIM"))
    await h.settle()
    assert "ten days" in sent_to(h.fake, "G0MPIM")  # finance[public] is visible in DMs only
    # A name that cannot be looked up never falls through to the default: nothing is shown.
    await h.event(h.requests.app_mention("When does payroll run?", channel="C0SECRET"))
    await h.settle()
    secret = sent_to(h.fake, "C0SECRET")
    assert "may not see any" in secret and "channels:read" in secret
    # Without a default rule, a channel that no rule names sees nothing either.
    rules_path.write_text(RULES.replace("default:\n  collections: [public]\n", ""))
    _, random = await ask(h, "How many days of annual leave do we get?", "C0RANDOM", "random")
    assert "may not see any" in random and "25 days" not in random
    # A broken edit stops every answer (never the older rules), and the reply does not spell out the file.
    rules_path.write_text(RULES.replace("collections: [eng, public]", "colections: [eng, public]"))
    _, broken = await ask(h, "How many days of annual leave do we get?", GENERAL, "general")
    assert "channel rules file is invalid" in broken and "Error id" in broken
    assert "25 days" not in broken and "eng-oncall" not in broken and "colections" not in broken


async def test_a_followup_obeys_the_rule_in_force_when_it_is_asked(scoped):
    """Rules change between a question and its follow-up: the follow-up sees only what the channel may see now,
    and the earlier turn's summary and cited passages (from a collection it can no longer see) are not reused."""
    make, rules_path, usage = scoped
    h = await make()
    anchor, first = await ask(h, "How fast must a failed deploy be rolled back?", ENG, "eng-oncall")
    assert "15 minutes" in first
    rules_path.write_text(RULES.replace("collections: [eng, public]", "collections: [public]"))
    await h.event(h.requests.message("and who approves a production hotfix?", channel=ENG, thread_ts=anchor))
    await h.settle()
    replies = h.thread_texts(ENG, anchor)
    assert len(replies) >= 2
    followup = replies[-1]
    for doc in ("eng/deploys.md", "eng/incidents.md"):
        for mark in markers(doc):
            assert mark not in followup, mark
    assert "release captain" not in followup
    turns = await h.deps.conversations.load(team=h.fake.team_id, channel=ENG, thread=anchor)
    assert [t.scope for t in turns] == [["eng", "public"], ["public"]]
    assert all(_doc_of_chunk(c).startswith("public/") for c in turns[-1].cited_ids)
    last = usage.events()[-1]
    assert last.followup and all(_doc_of_chunk(c).startswith("public/") for c in last.retrieved)


async def test_coverage_figures_page_names_and_questions_stay_in_the_channel(scoped):
    make, _rules, _usage = scoped
    h = await make()
    eng_question = "Which vendor supplies the ENGSECRET quantum pager hardware?"
    general_question = "Which vendor supplies the GENSECRET espresso machine?"
    for question in (eng_question, "How fast must a failed deploy be rolled back?"):
        await ask(h, question, ENG, "eng-oncall")
    for question in (general_question, "How many days of annual leave do we get?"):
        await ask(h, question, GENERAL, "general")
    _, whole = await ask(h, "--coverage", GENERAL, "general")
    assert "2 documents" in whole  # #general's figures count its 2 pages, not the 7 stored
    assert "GENSECRET" in whole  # its own unanswered question is a gap signal...
    assert "ENGSECRET" not in whole  # ...another channel's never is
    _, eng_whole = await ask(h, "--coverage", ENG, "eng-oncall")
    assert "4 documents" in eng_whole and "ENGSECRET" in eng_whole and "GENSECRET" not in eng_whole
    await ask(h, "--coverage deploys", GENERAL, "general")
    _, eng_topic = await ask(h, "--coverage deploys", ENG, "eng-oncall")
    assert "Deploy runbook" in eng_topic  # eng's report names its page
    for channel in (GENERAL, ENG):
        assert_no_leak(sent_to(h.fake, channel), channel, "coverage")
    uploads = [c for c in h.fake.calls_to("files.completeUploadExternal") if c.args.get("channel_id") == GENERAL]
    assert uploads  # the chart was drawn from the scoped report (its titles are checked with the channel's calls)


async def test_feedback_records_only_their_own_channel(scoped):
    make, _rules, _usage = scoped
    h = await make()
    anchor, _ = await ask(h, "How fast must a failed deploy be rolled back?", ENG, "eng-oncall")
    answer = next(m for m in h.fake.thread(ENG, anchor) if any(b.get("type") == "actions" for b in m["blocks"]))
    value = next(e["value"] for b in answer["blocks"] if b["type"] == "actions" for e in b["elements"])
    await h.dispatch(h.requests.block_action("feedback_up", value, channel=ENG, message_ts=answer["ts"],
                                             thread_ts=anchor))
    # The same answer id voted on from another channel (a forged or replayed payload).
    await h.dispatch(h.requests.block_action("feedback_down", value, channel=GENERAL, message_ts=answer["ts"],
                                             thread_ts=anchor))
    await h.settle()
    records = await h.deps.feedback.list(answer_id=value)
    by_channel = {r.channel: r for r in records}
    assert by_channel[ENG].question == "How fast must a failed deploy be rolled back?"
    assert by_channel[GENERAL].question == ""  # #general's record never carries #eng-oncall's question
    assert_no_leak(json.dumps([r.model_dump() for r in records if r.channel == GENERAL]), GENERAL, "feedback")


def _doc_of_chunk(chunk_id: str) -> str:
    return CHUNK_DOC[chunk_id]


async def _console(settings, channel, *lines: str) -> str:
    import io

    from rich.console import Console

    from bot.console import run_console

    async def feed():
        for line in lines:
            yield line

    buffer = io.StringIO()
    await run_console(settings, out=Console(file=buffer, width=160, color_system=None), lines=feed(), channel=channel)
    return buffer.getvalue()


async def test_the_console_acts_as_a_channel_and_shows_its_rule(scoped_kb, tmp_path, settings):
    from bot.console import ConsoleChannel

    home = tmp_path / "console-home"
    home.mkdir()
    (home / "chroma").symlink_to(scoped_kb, target_is_directory=True)
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    settings = settings.model_copy(update={"home": home, "channel_rules": rules})
    question = "/ask How fast must a failed deploy be rolled back?"
    eng = await _console(settings, ConsoleChannel.of(name="#eng-oncall"), question, "quit")
    assert "Channel rule: channel #eng-oncall → sees eng, public" in " ".join(eng.split())
    assert "15 minutes" in eng
    general = await _console(settings, ConsoleChannel.of(name="general"), question, "quit")
    assert "Channel rule: default → sees public" in " ".join(general.split())
    assert_no_leak(general, GENERAL, "the console")
    dm = await _console(settings, ConsoleChannel.of(dm=True), "/ask How quickly are expense claims reimbursed?", "quit")
    assert "Channel rule: dm → sees finance[public], public" in " ".join(dm.split()) and "ten days" in dm
    locked = await _console(settings, ConsoleChannel.of(name="locked"), question, "quit")
    assert "sees nothing" in locked and "may not see any" in " ".join(locked.split())


def test_serve_opens_and_warms_the_scoped_agent(scoped_kb, tmp_path, settings):
    """`serve`'s warm-up path under channel rules: every collection a rule names is loaded before it is healthy."""
    from bot.warmup import open_warm_agent
    from synthesis.scoped import ScopedAgent

    home = tmp_path / "serve-home"
    home.mkdir()
    (home / "chroma").symlink_to(scoped_kb, target_is_directory=True)
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    agent, health = open_warm_agent(settings.model_copy(update={"home": home, "channel_rules": rules}))
    try:
        assert isinstance(agent, ScopedAgent)
        assert [g.collection for g in agent.retriever.grants] == ["eng", "finance", "public"]  # never "orphan"
        assert {name.split("=")[0] for name in health.revision().split("|")} == {"eng", "finance", "public"}
    finally:
        agent.close()


async def test_with_claude_a_followup_sends_nothing_the_channel_lost(scoped_kb, tmp_path, settings):
    """Claude sees a thread's earlier answers (its rewrite and research prompts quote them). After the channel lost
    a collection, the earlier answer from it must not reach Claude, and its searches reach only what is visible."""
    from synthesis.models import Turn
    from synthesis.scoping import Channel
    from synthesis.synthesize import prompts
    from tests.agent.fake_anthropic import FakeMessagesAPI, finding, record, tool_use

    home = tmp_path / "claude-home"
    home.mkdir()
    (home / "chroma").symlink_to(scoped_kb, target_is_directory=True)
    rules_path = tmp_path / "rules.yaml"
    rules_path.write_text(RULES)
    settings = settings.model_copy(update={"home": home, "channel_rules": rules_path, "claude_deadline": 20.0})
    fake = FakeMessagesAPI()
    agent, _ = open_scoped(settings, RulesSource(rules_path, check_every=0),
                           anthropic_client=fake.client(settings))
    eng = Channel(id=ENG, name="eng-oncall")
    earlier = Turn(question="How fast must a failed deploy be rolled back?",
                   standalone="How fast must a failed deploy be rolled back?",
                   summary="A failed deploy must be rolled back within 15 minutes using the ferry rollback command "
                           "(ENGCANARYROLLBACK) [1].", cited_ids=[c for c, d in CHUNK_DOC.items() if d.startswith("eng/")],
                   scope=["eng", "public"])
    try:
        rules_path.write_text(RULES.replace("collections: [eng, public]", "collections: [public]"))
        fake.reply(tool_use(prompts.STANDALONE, {"standalone": "Who approves a production hotfix?"}))
        fake.reply(tool_use("search_knowledge_base", {"query": "production hotfix approval ferry rollback"}))
        fake.reply(record("Nothing in the sources says who approves a hotfix.", [], gaps=["hotfix approval"]))
        result = await agent.answer("and who approves a production hotfix?", history=[earlier], channel=eng)
    finally:
        agent.close()
    assert len(fake.requests) == 3 and not fake.exhausted
    sent = json.dumps(fake.requests, ensure_ascii=False)
    assert "How fast must a failed deploy be rolled back?" in sent  # the asker's own earlier question is kept...
    assert "ENGCANARYROLLBACK" not in sent and "within 15 minutes" not in sent  # ...the answer from eng is not
    assert_no_leak(sent, GENERAL, "what was sent to Claude")  # #eng-oncall now sees what #general sees
    assert result.scope == ["public"]


async def test_before_any_collection_exists_a_channel_hears_only_of_its_own(tmp_path, settings, minilm):
    """serve warms up before anything is ingested: the warm-up's "none of … exists" names every rule's collection
    and must not become every channel's answer."""
    from bot.warmup import WarmingAgent
    from synthesis.errors import KnowledgeBaseMissing, OutOfScope
    from synthesis.scoping import Channel

    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    agent = WarmingAgent(settings.model_copy(update={"home": tmp_path / "empty-home", "channel_rules": rules}))
    await agent.warm()
    try:
        with pytest.raises(OutOfScope) as locked:
            await agent.answer("How fast must a failed deploy be rolled back?", channel=Channel(id=LOCKED, name="locked"))
        assert not re.search(r"\b(eng|finance|public)\b", str(locked.value)), str(locked.value)
        with pytest.raises(KnowledgeBaseMissing) as fin:
            await agent.answer("When does payroll run?", channel=Channel(id=FINANCE, name="finance"))
        assert "'finance'" in str(fin.value) and "eng" not in str(fin.value) and "public" not in str(fin.value)
    finally:
        agent.close()

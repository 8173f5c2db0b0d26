"""Issue 8 targets: coverage speed on handbook-qa, the Slack coverage view, and an inquiry of 20 SciFact claims.

    python -m benchmarks.coverage                 # all three parts
    python -m benchmarks.coverage --part coverage|slack|inquiry [--docs 1000]

- coverage: `analyze()` over handbook-qa (~3k chunks) with a warm model, whole knowledge base and topic mode, after
  a retrieval log is filled by the 40 handbook-qa questions; plus the `synthbot coverage` command end to end.
- slack: `/ask --coverage TOPIC` through the real Bolt app against the fake Web API: ack time (vs a plain `/ask`)
  and time until the report and the chart upload have arrived.
- inquiry: 20 SciFact test claims phrased as questions ("Is it true that …?"), k=7: context tokens vs full context,
  hit rate of a relevant document among the retrieved paragraphs, precision@k, wall time. The corpus is a slice:
  every document judged relevant for the 20 claims plus the first `--docs` others, so the build fits in minutes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ._common import CACHE, REPO, SCIFACT_DIR, bench_settings, build_lock, rich_progress, setup_logging, write_result

HANDBOOK = Path(os.environ.get("SYNTHBOT_HANDBOOK_QA_DIR", REPO.parent / "shared" / "eval" / "handbook-qa"))
HANDBOOK_CACHE = CACHE / "handbook-qa-minilm"
TOPICS = ("leave", "travel", "security incidents", "hiring")


def _store(home: Path, collection: str, paths: list[Path], label: str):
    from synthesis.embedding import load_embedder
    from synthesis.ingest import ingest
    from synthesis.store import KnowledgeStore

    with build_lock(home.name):
        store = KnowledgeStore.open(bench_settings(home, collection), load_embedder(), collection=collection)
        started = time.perf_counter()
        bar, update = rich_progress(f"ingest {label}")
        with bar:
            report = ingest(store, paths, progress=update)
        print(f"{label}: {report.documents} documents, {report.chunks} chunks "
                  f"({time.perf_counter() - started:.0f}s)", file=sys.stderr)
    return store


def handbook_store():
    return _store(HANDBOOK_CACHE, "handbook-qa", [HANDBOOK / "corpus"], "handbook-qa")


# --- part 1: coverage speed ------------------------------------------------------------------------------
def bench_coverage() -> dict:
    from synthesis.coverage import Inventory, analyze
    from synthesis.retrieval import make_retriever
    from synthesis.usage import SQLiteUsageLog, search_event

    store = handbook_store()
    settings = bench_settings(HANDBOOK_CACHE, "handbook-qa")
    retriever = make_retriever(settings, store)
    questions = [json.loads(line)["question"] for line in (HANDBOOK / "questions.jsonl").read_text().splitlines()
                 if line.strip()]
    with tempfile.TemporaryDirectory() as tmp:
        log = SQLiteUsageLog(Path(tmp) / "conversations.sqlite3")
        for q in questions:  # a realistic log: what each question retrieved
            log.record(search_event(retriever.search(q, k=8), surface="bench", collection=store.name))
        retriever.search("warm up", k=5)  # the model, the lexical index and Chroma are warm from here on

        def once(topic):
            started = time.perf_counter()
            report = analyze(store, log.events(), topic, retriever=retriever)
            return report, time.perf_counter() - started

        whole = [once(None) for _ in range(5)]
        topics = {t: [once(t) for _ in range(3)] for t in TOPICS}
        log.close()
    report = whole[0][0]
    out = {
        "chunks": report.retrieval.chunks, "documents": report.retrieval.documents, "logged": len(questions),
        "whole_seconds": [round(s, 3) for _, s in whole],
        "whole_median": round(statistics.median(s for _, s in whole), 3),
        "headline": report.headline_text, "definition": report.definition,
        "chunk_rate": report.retrieval.chunk_rate,
        "topic_seconds": {t: round(statistics.median(s for _, s in runs), 3) for t, runs in topics.items()},
        "topic_headlines": {t: runs[0][0].headline_text for t, runs in topics.items()},
        "inventory_seconds": round(_time(lambda: Inventory.load(store)), 3),
    }
    env = {**os.environ, "SYNTHBOT_HOME": str(HANDBOOK_CACHE), "SYNTHBOT_COLLECTION": "handbook-qa"}
    cli = [str(Path(sys.executable).parent / "synthbot"), "coverage", "--json"]
    out["cli_whole_seconds"] = round(_time(lambda: subprocess.run(cli, env=env, capture_output=True, check=True)), 2)
    out["cli_topic_seconds"] = round(_time(lambda: subprocess.run(cli + ["leave"], env=env, capture_output=True,
                                                                  check=True)), 2)
    out["target_met"] = out["whole_median"] <= 3.0 and max(out["topic_seconds"].values()) <= 3.0
    return out


def _time(fn) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


# --- part 2: the Slack coverage view -----------------------------------------------------------------------
def bench_slack() -> dict:
    return asyncio.run(_slack())


async def _slack() -> dict:
    from bot.app import build_app
    from bot.coverage_view import CoverageService
    from bot.deps import BotIdentity, Deps, make_web_client
    from bot.fake_slack import FakeSlack, SlackRequests
    from bot.feedback import FeedbackLog
    from bot.threads import SQLiteConversationStore
    from synthesis.agent import build_agent
    from synthesis.retrieval import make_retriever
    from synthesis.usage import SQLiteUsageLog

    store = handbook_store()
    settings = bench_settings(HANDBOOK_CACHE, "handbook-qa")
    retriever = make_retriever(settings, store)
    retriever.search("warm up", k=5)
    agent = build_agent(settings, store)
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        usage = SQLiteUsageLog(Path(tmp) / "conversations.sqlite3")
        async with FakeSlack() as fake:
            local = settings.model_copy(update={"slack_api_url": fake.base_url, "home": Path(tmp)})
            deps = Deps(settings=local, agent=agent, client=make_web_client(local, fake.bot_token),
                        conversations=SQLiteConversationStore(Path(tmp) / "c.sqlite3", ttl_seconds=3600),
                        feedback=FeedbackLog(Path(tmp) / "f.sqlite3"),
                        identity=BotIdentity(team_id=fake.team_id, bot_user_id=fake.bot_user_id, bot_id=fake.bot_id),
                        coverage=CoverageService(local, usage=usage, store=store, retriever=retriever))
            app = build_app(deps, signing_secret="bench-secret")
            requests = SlackRequests("bench-secret", team_id=fake.team_id, bot_user_id=fake.bot_user_id,
                                     response_url=fake.response_url)
            for text in ("--coverage", "--coverage leave", "--coverage security incidents", "--coverage hiring"):
                uploads = len(fake.calls_to("files.completeUploadExternal"))
                started = time.perf_counter()
                await app.async_dispatch(requests.slash_command(text).to_bolt())
                acked = time.perf_counter() - started
                await fake.wait_for(lambda: len(fake.calls_to("files.completeUploadExternal")) > uploads, timeout=60)
                done = time.perf_counter() - started
                report_at = next(c.at for c in fake.calls if c.method == "chat.postMessage" and c.args.get("thread_ts")
                                 and c.at >= started) - started
                runs.append({"command": f"/ask {text}", "ack_ms": round(acked * 1000, 1),
                             "report_seconds": round(report_at, 2), "chart_seconds": round(done, 2)})
            started = time.perf_counter()
            await app.async_dispatch(requests.slash_command("How many vacation hours roll over?").to_bolt())
            ask_ack = time.perf_counter() - started
            await deps.background.drain(120)
            await deps.aclose()
        usage.close()
    return {"runs": runs, "ask_ack_ms": round(ask_ack * 1000, 1),
            "target_met": all(r["chart_seconds"] <= 10 for r in runs)}


# --- part 3: inquiry over SciFact claims -------------------------------------------------------------------
def as_question(claim: str) -> str:
    """A claim as a yes/no question, the same way for every claim."""
    claim = claim.strip().rstrip(".")
    return f"Is it true that {claim[:1].lower() + claim[1:] if not claim[:2].isupper() else claim}?"


def bench_inquiry(docs: int) -> dict:
    from synthesis.agent import build_agent
    from synthesis.inquiry import InquiryRunner
    from synthesis.questions import Question, QuestionSet

    qrels: dict[str, set[str]] = {}
    for line in (SCIFACT_DIR / "qrels" / "test.tsv").read_text().splitlines()[1:]:
        qid, did, score = line.split("\t")
        if int(score) > 0:
            qrels.setdefault(qid, set()).add(did)
    claims = {}
    for line in (SCIFACT_DIR / "queries.jsonl").read_text().splitlines():
        q = json.loads(line)
        if q["_id"] in qrels:
            claims[q["_id"]] = q["text"]
    chosen = sorted(claims, key=int)[:20]
    relevant = set().union(*(qrels[q] for q in chosen))
    home = CACHE / f"scifact-slice-{docs}"
    corpus = home / "corpus.jsonl"
    home.mkdir(parents=True, exist_ok=True)
    if not corpus.exists():
        kept, others = [], 0
        for line in (SCIFACT_DIR / "corpus.jsonl").read_text().splitlines():
            d = json.loads(line)
            if d["_id"] in relevant or others < docs:
                kept.append(line)
                others += d["_id"] not in relevant
        corpus.write_text("\n".join(kept) + "\n")
    store = _store(home, "scifact-slice", [corpus], f"SciFact slice ({docs} + relevant)")
    settings = bench_settings(home, "scifact-slice")
    agent = build_agent(settings, store)
    questions = QuestionSet(questions=[Question(id=f"Q{n}", text=as_question(claims[q]), metadata={"claim": q})
                                       for n, q in enumerate(chosen, start=1)])
    runner = InquiryRunner(settings, store, agent)
    runner.retriever.search("warm up", k=5)
    started = time.perf_counter()
    result = runner.run(questions, inquiry_id="BENCH-SCIFACT", k=7)
    wall = time.perf_counter() - started
    counter = agent.counter
    # full context: every paragraph in the knowledge base (what a prompt without retrieval would carry), counted
    # with the same tokenizer; and the whole documents the retrieved paragraphs come from
    total_tokens, doc_tokens = 0, {}
    for _ids, texts, metas in store.scan():
        for text, meta in zip(texts, metas):
            n = counter.count(text or "")
            total_tokens += n
            doc_tokens[meta["doc_id"]] = doc_tokens.get(meta["doc_id"], 0) + n
    rows = []
    for q, cid in zip(result.questions, chosen):
        docs_hit = [p.source_file for p in q.retrieved_paragraphs]
        rel = qrels[cid]
        whole_docs = sum(doc_tokens.get(d, 0) for d in dict.fromkeys(docs_hit))
        rows.append({"claim": cid, "hit": any(d in rel for d in docs_hit),
                     "precision_at_k": sum(d in rel for d in docs_hit) / 7, "context_tokens": q.context_tokens,
                     "whole_documents_tokens": whole_docs, "needs_review": q.needs_review,
                     "best_similarity": max((p.similarity_score for p in q.retrieved_paragraphs), default=0.0)})
    runner.close()
    agent.close()
    mean_ctx = statistics.mean(r["context_tokens"] for r in rows)
    return {
        "questions": len(rows), "corpus_documents": store.collection().count() and len(doc_tokens),
        "corpus_chunks": store.collection().count(), "corpus_tokens": total_tokens,
        "mean_context_tokens": round(mean_ctx, 1),
        "reduction_vs_corpus": round(1 - mean_ctx / total_tokens, 4),
        "reduction_vs_whole_documents": round(1 - sum(r["context_tokens"] for r in rows)
                                              / max(1, sum(r["whole_documents_tokens"] for r in rows)), 4),
        "hit_rate": round(sum(r["hit"] for r in rows) / len(rows), 3),
        "precision_at_7": round(statistics.mean(r["precision_at_k"] for r in rows), 3),
        "needs_review": sum(r["needs_review"] for r in rows), "warnings": len(result.warnings),
        "wall_seconds": round(wall, 1), "per_question_seconds": round(wall / len(rows), 2),
        "coverage_retrieval_rate": result.coverage.retrieval_rate, "rows": rows,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--part", choices=("coverage", "slack", "inquiry", "all"), default="all")
    parser.add_argument("--docs", type=int, default=1000, help="SciFact documents besides the relevant ones")
    args = parser.parse_args(argv)
    setup_logging()
    results = {}
    if args.part in ("coverage", "all"):
        results["coverage"] = bench_coverage()
        print(json.dumps(results["coverage"], indent=2))
    if args.part in ("slack", "all"):
        results["slack"] = bench_slack()
        print(json.dumps(results["slack"], indent=2))
    if args.part in ("inquiry", "all"):
        results["inquiry"] = bench_inquiry(args.docs)
        print(json.dumps({k: v for k, v in results["inquiry"].items() if k != "rows"}, indent=2))
    path = write_result("coverage" if args.part == "all" else f"coverage-{args.part}", results)
    print(f"wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

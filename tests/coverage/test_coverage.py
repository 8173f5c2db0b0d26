"""Coverage on a store with a known retrieval log: exact never-retrieved ids, rates, facets, gaps and scope."""

from __future__ import annotations

import pytest

from synthesis.coverage import Inventory, Scope, analyze, common_root, source_of
from synthesis.usage import UsageEvent


def test_known_log_gives_exact_never_retrieved_ids_and_rates(small_kb):
    _, store, chunks = small_kb
    assert set(chunks) == {"ops/deploys.md", "ops/oncall.md", "people/hiring.md", "people/laptops.md"}
    all_ids = sorted(i for ids in chunks.values() for i in ids)
    deploy, oncall = chunks["ops/deploys.md"], chunks["ops/oncall.md"]
    events = [
        UsageEvent(kind="ask", question="How do deploys work?", retrieved=[deploy[0], oncall[0]],
                   collection=store.name, confidence="high", cited=[deploy[0]]),
        UsageEvent(kind="search", question="rollback", retrieved=[deploy[0], "gone-chunk#9"], collection=store.name),
        UsageEvent(kind="ask", question="Where is payroll?", retrieved=[], no_answer=True, confidence="low",
                   collection=store.name),
        UsageEvent(kind="ask", question="other collection", retrieved=list(all_ids), collection="elsewhere"),
    ]
    report = analyze(store, events)
    r = report.retrieval
    assert r.events == 3 and r.questions == 2  # the other collection's event is out of scope
    assert r.chunks == len(all_ids) and r.retrieved_chunks == 2
    assert r.never_retrieved_chunks == sorted(set(all_ids) - {deploy[0], oncall[0]})
    assert [p["doc_id"] for p in r.never_retrieved_documents] == ["people/hiring.md", "people/laptops.md"]
    assert r.documents == 4 and r.retrieved_documents == 2
    assert r.document_rate == 0.5 and r.chunk_rate == round(2 / len(all_ids), 4)
    assert report.headline == 0.5 and report.headline_text == "Overall: 50 % coverage"
    assert "share of documents retrieved at least once" in report.definition
    facets = {(f.kind, f.name): f for f in report.facets}
    assert facets[("tag", "ops")].supporting == 2 and facets[("tag", "ops")].coverage == 1.0
    assert facets[("tag", "hiring")].status == "gap" and facets[("source", "people")].coverage == 0.0
    assert report.signals.weak_count == 1 and report.signals.weak_questions[0]["question"] == "Where is payroll?"
    assert any("Where is payroll?" in g for g in report.gaps)
    assert any(g.startswith("Never retrieved:") and "tag “hiring”" in g for g in report.gaps)


def test_inventory_counts_per_source_type_tag_and_section(small_kb):
    _, store, chunks = small_kb
    counts = Inventory.load(store).counts()
    assert counts["documents"] == 4 and counts["chunks"] == sum(len(v) for v in chunks.values())
    assert counts["by_source"]["ops"] == {"documents": 2, "chunks": len(chunks["ops/deploys.md"]) + len(chunks["ops/oncall.md"])}
    assert counts["by_type"]["policy"]["documents"] == 2 and counts["by_type"]["doc"]["documents"] == 1
    assert counts["by_tag"]["ops"]["documents"] == 2 and "hiring" in counts["by_tag"]
    assert "Deploys" in counts["by_section"]


def test_scope_restricts_every_figure_and_page(small_kb):
    _, store, chunks = small_kb
    events = [UsageEvent(retrieved=[chunks["ops/deploys.md"][0]], collection=store.name, channel="C1",
                         confidence="high"),
              UsageEvent(retrieved=[chunks["people/hiring.md"][0]], collection=store.name, channel="C2",
                         no_answer=True, question="hiring?", confidence="low")]
    scope = Scope(doc_ids=frozenset({"ops/deploys.md", "ops/oncall.md"}), channels=frozenset({"C1"}))
    report = analyze(store, events, scope=scope)
    r = report.retrieval
    assert r.documents == 2 and r.retrieved_documents == 1 and r.events == 1
    assert [p["doc_id"] for p in r.never_retrieved_documents] == ["ops/oncall.md"]
    assert all(not c.startswith(tuple(chunks["people/hiring.md"])) for c in r.never_retrieved_chunks)
    assert report.inventory["documents"] == 2 and "hiring" not in report.inventory["by_tag"]
    assert report.signals.weak_count == 0  # C2's unanswered question is outside the scope
    assert {f.name for f in report.facets} >= {"ops", "policy", "deploys"} and "hiring" not in {f.name for f in report.facets}


@pytest.mark.parametrize("meta,root,expected", [
    ({"source_url": "https://wiki.example.com/ops/deploys"}, [], "wiki.example.com/ops"),
    ({"source_url": "https://wiki.example.com/deploys"}, [], "wiki.example.com"),
    ({"doc_id": "examples/handbook/deploys/rollback.md"}, ["examples", "handbook"], "deploys"),
    ({"doc_id": "/data/eval/corpus/travel-and-leave/leave.md"}, ["data", "eval", "corpus"], "travel-and-leave"),
    ({"doc_id": "rollback.md"}, [], "(top level)"),
    ({"doc_id": "scifact-123"}, [], "(top level)"),
])
def test_source_of(meta, root, expected):
    assert source_of(meta, root) == expected


def test_common_root_ignores_url_documents():
    metas = [{"doc_id": "/a/corpus/x/1.md"}, {"doc_id": "/a/corpus/y/z/2.md"},
             {"doc_id": "w", "source_url": "https://w.example/p"}]
    assert common_root(metas) == ["a", "corpus"]


def test_topic_mode_on_the_demo_handbook(handbook):
    from synthesis.retrieval import make_retriever

    settings, store = handbook
    retriever = make_retriever(settings, store)
    report = analyze(store, [], "on-call", retriever=retriever)
    facets = {(f.kind, f.name): f for f in report.facets}
    assert facets[("tag", "on-call")].status == "covered" and facets[("tag", "on-call")].supporting >= 3
    covered = sum(f.status == "covered" for f in report.facets)
    assert report.headline == round(covered / len(report.facets), 4) and 0 < report.headline < 1
    assert f"({covered} of {len(report.facets)})" in report.definition and "≥ 0.45" in report.definition
    assert all(p.score >= 0.45 for p in report.passages) and report.passages
    assert any(f"“{f.name}”" in g for g in report.gaps for f in report.facets if f.status != "covered")
    # a facet's documents and chunks are all it has, as the whole-inventory report counts them (a new user saw
    # "source: …/deploys | 2 docs | 14 chunks" there and "documents 1, chunks 14" here)
    whole = {(f.kind, f.name): (f.documents, f.chunks) for f in analyze(store, [], None).facets}
    shared = [f for f in report.facets if (f.kind, f.name) in whole]
    assert shared and all((f.documents, f.chunks) == whole[(f.kind, f.name)] for f in shared)
    nothing = analyze(store, [], "quarterly payroll tax withholding", retriever=retriever, threshold=0.6)
    assert nothing.headline == 0.0 and nothing.facets == []
    assert any("gap worth filling" in g for g in nothing.gaps)


def test_topic_mode_names_only_pages_in_scope(handbook):
    from synthesis.retrieval import make_retriever

    settings, store = handbook
    docs = {m["doc_id"] for _ids, _d, metas in store.scan(include_documents=False) for m in metas}
    allowed = frozenset(d for d in docs if "/deploys/" in d or "/releases/" in d)
    report = analyze(store, [], "on-call", retriever=make_retriever(settings, store), scope=Scope(doc_ids=allowed))
    assert report.passages and {p.doc_id for p in report.passages} <= allowed
    assert report.inventory["documents"] == len(allowed)
    assert all(f.name != "handbook.example.com/oncall" for f in report.facets)

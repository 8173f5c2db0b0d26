"""The CLI's scope options in process, with the real bundled model: ingest into named collections, then search,
ask and coverage over several at once or as a channel under the rules."""

from __future__ import annotations

import json

import pytest

from bot.cli import main

pytestmark = pytest.mark.slow


@pytest.fixture
def two_collections(tmp_path, monkeypatch, minilm):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SYNTHBOT_HOME", str(tmp_path / "home"))
    for name, text in {"eng/deploys.md": "---\ntitle: Deploys\n---\n# Rollback\n\nA failed deploy is rolled back "
                                          "within 15 minutes.\n",
                       "people/leave.md": "---\ntitle: Leave\n---\n# Leave\n\nEveryone gets 25 days of annual leave.\n"
                       }.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert main(["ingest", "eng", "--collection", "eng"]) == 0
    assert main(["ingest", "people", "--collection", "people"]) == 0
    rules = tmp_path / "rules.yaml"
    rules.write_text("default: {collections: [people]}\nchannels:\n  - name: eng\n    collections: [eng, people]\n")
    return rules


def search(capsys, *args) -> list[dict]:
    assert main(["search", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)["results"]


def test_search_several_collections_or_as_a_channel(two_collections, capsys, monkeypatch):
    capsys.readouterr()
    both = search(capsys, "how fast is a rollback and how much leave", "--collection", "eng", "--collection", "people")
    assert {r["metadata"]["collection"] for r in both} == {"eng", "people"}
    assert [r["metadata"]["collection"] for r in search(capsys, "rollback", "--collection", "eng")] == ["eng"]
    monkeypatch.setenv("SYNTHBOT_CHANNEL_RULES", str(two_collections))
    general = search(capsys, "how fast is a rollback", "--channel", "general")
    assert general and {r["metadata"]["collection"] for r in general} == {"people"}
    eng = search(capsys, "how fast is a rollback", "--channel", "#eng")
    assert eng[0]["metadata"]["collection"] == "eng"


def test_ask_and_coverage_as_a_channel(two_collections, capsys, monkeypatch):
    monkeypatch.setenv("SYNTHBOT_CHANNEL_RULES", str(two_collections))
    capsys.readouterr()
    assert main(["ask", "How fast is a failed deploy rolled back?", "--channel", "eng", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert "15 minutes" in result["synthesis"]["summary"]
    assert main(["ask", "How fast is a failed deploy rolled back?", "--channel", "general", "--json"]) == 0
    assert "15 minutes" not in capsys.readouterr().out
    assert main(["coverage", "--channel", "general", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["collection"] == "people" and report["inventory"]["documents"] == 1


def test_scope_options_say_what_is_wrong(two_collections, capsys, monkeypatch):
    assert main(["search", "x", "--channel", "eng"]) == 1
    assert "set SYNTHBOT_CHANNEL_RULES" in capsys.readouterr().err
    assert main(["search", "x", "--collection", "eng", "--collection", "nope-missing"]) == 0  # one exists: searched
    assert main(["search", "x", "--collection", "gone-1", "--collection", "gone-2"]) == 1
    assert "none of the collections 'gone-1', 'gone-2' exists yet" in " ".join(capsys.readouterr().err.split())
    monkeypatch.setenv("SYNTHBOT_CHANNEL_RULES", str(two_collections))
    two_collections.write_text("default: {collections: [people]}\nchanels: []\n")
    assert main(["ask", "x", "--channel", "general"]) == 1
    assert "chanels: unknown key" in capsys.readouterr().err


def test_rules_command_shows_who_sees_what_and_what_nobody_sees(two_collections, capsys, tmp_path):
    (tmp_path / "secret").mkdir()
    (tmp_path / "secret" / "m.md").write_text("# Merger\n\nThe merger closes in March.\n")
    assert main(["ingest", "secret", "--collection", "secret"]) == 0
    two_collections.write_text(two_collections.read_text() + "dm:\n  collections: [people, not-yet]\n")
    capsys.readouterr()
    assert main(["rules", str(two_collections), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert {r["rule"]: r["sees"] for r in report["rules"]} == {
        "default": ["people"], "dm": ["not-yet", "people"], "#eng": ["eng", "people"]}
    assert report["visible_nowhere"] == ["secret"] and report["not_ingested"] == ["not-yet"]
    assert main(["rules", str(two_collections)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Visible nowhere (no rule names them): secret" in out and "not ingested yet: not-yet" in out
    two_collections.write_text("channels:\n  - id: C1\n    collections: [eng]\n  - id: C1\n    collections: [eng]\n")
    assert main(["rules", str(two_collections)]) == 1
    assert "channel id C1 is listed twice" in capsys.readouterr().err
    # a file named on the command line is blamed there, not on the setting the command did not read
    assert main(["rules", str(tmp_path / "missing.yaml")]) == 1
    err = " ".join(capsys.readouterr().err.split())
    assert "missing.yaml" in err and "check the path given" in err and "SYNTHBOT_CHANNEL_RULES" not in err

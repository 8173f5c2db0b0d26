"""Static checks on what ships beside the code: the Slack app manifest, the Dockerfile and .dockerignore."""

from __future__ import annotations

import re

import yaml

from tests.conftest import ROOT


def load_manifest() -> dict:
    return yaml.safe_load((ROOT / "manifest.yml").read_text(encoding="utf-8"))


def test_manifest_scopes_events_and_settings():
    m = load_manifest()
    assert set(m["oauth_config"]["scopes"]["bot"]) == {
        "commands", "chat:write", "app_mentions:read", "channels:history", "groups:history", "im:history",
        "reactions:write", "files:write", "channels:read", "groups:read", "mpim:read"}
    settings = m["settings"]
    assert set(settings["event_subscriptions"]["bot_events"]) == {
        "app_mention", "message.channels", "message.groups", "message.im"}
    assert settings["interactivity"]["is_enabled"] is True
    assert settings["socket_mode_enabled"] is True
    for url in (settings["event_subscriptions"]["request_url"], settings["interactivity"]["request_url"]):
        assert url.endswith("/slack/events")
    bot = m["features"]["bot_user"]
    assert bot["always_online"] is True and 1 <= len(bot["display_name"]) <= 80
    assert m["features"]["app_home"]["messages_tab_enabled"] is True  # DMs need the messages tab


def test_manifest_ask_command():
    [ask] = m = load_manifest()["features"]["slash_commands"]
    assert m and ask["command"] == "/ask"
    assert ask["url"].endswith("/slack/events") and ask["url"].startswith("https://")
    assert ask["description"] and 1 <= len(ask["usage_hint"]) <= 1000
    for option in ("--sources-only", "--detailed", "--k", "--source", "--tag", "--coverage"):
        assert option in ask["usage_hint"]


def test_manifest_display_information_fits_slacks_schema():
    d = load_manifest()["display_information"]
    assert 1 <= len(d["name"]) <= 35
    assert 1 <= len(d["description"]) <= 140
    assert 175 <= len(d["long_description"]) <= 4000  # Slack rejects a shorter long_description
    assert re.fullmatch(r"#[0-9a-fA-F]{6}", d["background_color"])


def dockerfile_instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments), with `${NAME}` replaced by the value of `ARG NAME=value`."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]
    args = dict(re.findall(r"^ARG\s+(\w+)=(\S+)", "\n".join(lines), re.M))
    lines = [re.sub(r"\$\{(\w+)\}", lambda m: args.get(m.group(1), m.group(0)), line) for line in lines]
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1] if " " in line else "") for line in lines]


def test_dockerfile_is_slim_pins_cpu_torch_and_installs_the_project():
    ins = dockerfile_instructions()
    assert ins[0] == ("FROM", "python:3.11-slim")
    runs = [arg for op, arg in ins if op == "RUN"]
    torch = next(i for i, r in enumerate(runs) if "torch" in r)
    assert re.search(r"torch==2\.13\.0\b", runs[torch])
    assert "--index-url https://download.pytorch.org/whl/cpu" in runs[torch]
    project = next(i for i, r in enumerate(runs) if re.search(r"pip install (--no-deps )?\.(\s|$)", r))
    assert torch < project, "torch must be installed before the project so pip keeps the CPU build"
    env = " ".join(arg for op, arg in ins if op == "ENV")
    assert "ANONYMIZED_TELEMETRY=False" in env and "HF_HUB_OFFLINE=1" in env and "SYNTHBOT_HOME=/data" in env


def test_dockerfile_runs_as_non_root_with_a_data_volume_healthcheck_and_serve():
    ins = dockerfile_instructions()
    users = [arg for op, arg in ins if op == "USER"]
    assert users and users[-1] not in ("root", "0", "0:0")
    user_at = max(i for i, (op, _) in enumerate(ins) if op == "USER")
    assert all(op != "RUN" for op, _ in ins[user_at:]), "nothing runs as root after USER"
    assert any(op == "VOLUME" and "/data" in arg for op, arg in ins)
    health = [arg for op, arg in ins if op == "HEALTHCHECK"]
    assert health and "/healthz" in health[0]
    assert ins[-1] == ("CMD", '["synthbot", "serve"]')


def test_dockerignore_keeps_secrets_and_local_state_out():
    ignored = {line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
               if line.strip() and not line.startswith("#")}
    assert {".git", ".venv", ".env", ".synthbot"} <= ignored

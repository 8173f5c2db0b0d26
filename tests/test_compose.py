"""docker-compose.yml and the Dockerfile, checked without a Docker engine: every cross-reference they make.

No engine exists where this is developed, so the image is never built here. What can be checked is: the services
name each other correctly, the environment names are settings synthbot reads, the grace period covers the drain,
the health checks run commands the images have against endpoints that answer (the bot's and Chroma's are run for
real below), the Chroma image matches our client, and the Dockerfile caches its dependency layer.
"""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml

from bot.cli.serve import REQUEST_GRACE
from synthesis.config import Settings
from tests.bot.test_commands_manifest import dockerfile_instructions
from tests.conftest import ROOT, stop_process

COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
DOCKERFILE = (ROOT / "Dockerfile").read_text()
DOCKER_STOP_TIMEOUT = 10.0  # `docker stop` / `docker run` default, when no stop_grace_period is given
# Variables the image or libraries read that are not synthbot settings.
NOT_SETTINGS = {"HF_HUB_OFFLINE", "ANONYMIZED_TELEMETRY", "PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED",
                "PIP_NO_CACHE_DIR", "PIP_DISABLE_PIP_VERSION_CHECK"}


def setting_env_names() -> dict[str, str]:
    """Every environment name Settings reads → its field."""
    prefix = Settings.model_config["env_prefix"]
    names = {}
    for name, field in Settings.model_fields.items():
        alias = field.validation_alias
        choices = getattr(alias, "choices", None)
        for env in ([*choices] if choices else [f"{prefix}{name}"]):
            names[str(env).upper()] = name
    return names


def seconds(duration: str) -> float:
    """A compose duration ("15s", "1m30s", "500ms") in seconds."""
    parts = re.findall(r"(\d+(?:\.\d+)?)(ms|h|m|s)", duration)
    assert parts and "".join(a + b for a, b in parts) == duration, duration
    return sum(float(n) * {"h": 3600, "m": 60, "s": 1, "ms": 0.001}[unit] for n, unit in parts)


def bot_env() -> dict[str, str]:
    return {k: str(v) for k, v in SERVICES["bot"]["environment"].items()}


def test_the_stack_has_the_bot_a_chroma_server_and_redis_with_volumes():
    assert set(SERVICES) == {"bot", "chroma", "redis"}
    named = set(COMPOSE["volumes"])
    for service, target in (("bot", "/data"), ("chroma", "/data"), ("redis", "/data")):
        mounts = dict(reversed(v.split(":")[:2]) for v in SERVICES[service]["volumes"])
        assert mounts.get(target) in named, (service, mounts)  # a named volume, declared at the top level
    assert SERVICES["bot"]["depends_on"] == {"chroma": {"condition": "service_healthy"},
                                             "redis": {"condition": "service_healthy"}}


def test_the_chroma_image_matches_our_client():
    image, tag = SERVICES["chroma"]["image"].split(":")
    assert image == "chromadb/chroma"  # the official image
    client = importlib.metadata.version("chromadb")
    assert tag.split(".")[:2] == client.split(".")[:2], f"server {tag} vs client {client}: bump the image tag"
    assert re.fullmatch(r"\d+\.\d+\.\d+", tag), "pin an exact version, never latest"


def test_redis_persists_with_appendonly_into_its_volume():
    command = SERVICES["redis"]["command"]
    assert command[0] == "redis-server" and command[command.index("--appendonly") + 1] == "yes"
    assert command[command.index("--dir") + 1] == "/data"
    assert SERVICES["redis"]["healthcheck"]["test"] == ["CMD", "redis-cli", "ping"]


def test_bot_environment_names_are_settings_and_point_at_the_services():
    names = setting_env_names()
    env = bot_env()
    unknown = [k for k in env if k not in names and k not in NOT_SETTINGS]
    assert not unknown, f"not read by synthesis.config.Settings: {unknown}"
    mentioned = set(re.findall(r"\b(SYNTHBOT_\w+)", (ROOT / "docker-compose.yml").read_text()))  # comments too
    assert mentioned - set(env) and mentioned <= set(names), mentioned - set(names)
    settings = Settings(_env_file=None, **{names[k]: v for k, v in env.items() if k in names})
    chroma = urlsplit(settings.chroma_url)
    chroma_ports = [p.split(":")[-1] for p in SERVICES["chroma"]["ports"]]
    assert chroma.hostname == "chroma" and str(chroma.port) in chroma_ports
    redis = urlsplit(settings.redis_url)
    assert redis.hostname == "redis" and redis.port == 6379
    for key in re.findall(r"^ENV\s+(.*?)(?=^\S)", DOCKERFILE, re.M | re.S):  # the image's own ENV lines
        for name in re.findall(r"(\w+)=", key):
            assert name in names or name in NOT_SETTINGS, name


def test_the_grace_period_covers_the_drain_and_the_default_drain_fits_dockers_timeout():
    settings = Settings(_env_file=None, drain_seconds=float(bot_env()["SYNTHBOT_DRAIN_SECONDS"]))
    grace = seconds(SERVICES["bot"]["stop_grace_period"])
    assert grace >= settings.drain_seconds + REQUEST_GRACE + 1, (grace, settings.drain_seconds)
    default = Settings(_env_file=None).drain_seconds
    assert default + REQUEST_GRACE < DOCKER_STOP_TIMEOUT  # `docker run` without compose stops in time too
    assert default < Settings(_env_file=None).answer_timeout  # the drain no longer waits for the answer deadline


def test_the_bot_health_check_is_the_images_and_probes_the_published_port():
    test = SERVICES["bot"]["healthcheck"]["test"]
    assert test[:4] == ["CMD", "python", "-m", "bot.healthcheck"]
    (health_cmd,) = [args for op, args in dockerfile_instructions() if op == "HEALTHCHECK"]
    assert health_cmd.endswith(str(test[1:]).replace("'", '"'))  # the same command as `docker run` uses
    url = urlsplit(test[4])
    assert url.hostname == "127.0.0.1" and url.path == "/healthz"
    (expose,) = [args for op, args in dockerfile_instructions() if op == "EXPOSE"]
    published = [p.split(":")[-1] for p in SERVICES["bot"]["ports"]]
    assert str(url.port) == expose == published[0] == "3000"  # serve's default --port, which CMD uses
    assert (ROOT / "bot" / "healthcheck.py").is_file() and "COPY bot ./bot" in DOCKERFILE
    start_period = seconds(SERVICES["bot"]["healthcheck"]["start_period"])
    assert start_period >= 60  # model and index load: /healthz says "starting" (503) meanwhile


def test_the_dockerfile_caches_dependencies_before_the_code_and_pins_cpu_torch():
    ops = dockerfile_instructions()
    makefile_pin = re.search(r"torch==([\d.]+)", (ROOT / "Makefile").read_text()).group(1)
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert f"torch=={makefile_pin}" in pyproject["project"]["dependencies"]
    assert ("ARG", f"TORCH_VERSION={makefile_pin}") in ops
    index = {op + " " + args: n for n, (op, args) in enumerate(ops)}

    def where(fragment: str) -> int:
        (n,) = [n for key, n in index.items() if fragment in key]
        return n

    torch = where("download.pytorch.org/whl/cpu")
    deps = where("pip install -r /tmp/requirements.txt")
    assert torch < where("COPY pyproject.toml") < deps < where("COPY synthesis") < where("COPY bot")
    assert where("COPY bot") < where("pip install --no-deps .") < where("python -m synthesis.onnx_export")
    assert "-c /tmp/constraints.txt" in ops[deps][1]  # torch stays the CPU build


def chroma_probe(port: int) -> subprocess.CompletedProcess:
    """The compose file's Chroma health check, run here by bash against `port` instead of 8000."""
    test = SERVICES["chroma"]["healthcheck"]["test"]
    assert test[:3] == ["CMD", "bash", "-c"]  # the image has bash (debian-slim), and no curl is relied on
    assert "/dev/tcp/127.0.0.1/8000" in test[3] and SERVICES["chroma"]["ports"][0].endswith(":8000")
    command = test[3].replace("/dev/tcp/127.0.0.1/8000", f"/dev/tcp/127.0.0.1/{port}")
    return subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=30)


@pytest.mark.slow
def test_chromas_health_check_passes_on_a_real_chroma_run(tmp_path):
    """The Rust server behind `chroma run` is the image's server: the compose health check must pass against it."""
    from tests.kb.test_retrieval_server import start_chroma

    proc, base = start_chroma(tmp_path / "chroma")
    try:
        result = chroma_probe(urlsplit(base).port)
        assert result.returncode == 0, result.stderr
    finally:
        stop_process(proc)


def test_chromas_health_check_fails_when_nothing_answers():
    from tests.conftest import free_port

    result = chroma_probe(free_port())
    assert result.returncode != 0


def test_the_health_probe_fails_when_nothing_answers():
    from tests.conftest import free_port

    result = subprocess.run([sys.executable, "-m", "bot.healthcheck", f"http://127.0.0.1:{free_port()}/healthz"],
                            capture_output=True, text=True, timeout=30, cwd=ROOT)
    assert result.returncode == 1 and "no answer" in result.stdout

"""Settings, read once at the entry point (environment plus `.env`) and passed down."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

BUNDLED_MODEL = "all-MiniLM-L6-v2"


class Settings(BaseSettings):
    """Every knob in one place. Env names are `SYNTHBOT_<FIELD>` unless an alias says otherwise."""

    model_config = SettingsConfigDict(env_prefix="SYNTHBOT_", env_file=".env", extra="ignore", populate_by_name=True)

    # --- knowledge base -------------------------------------------------------------------------------
    home: Path = Field(Path(".synthbot"), description="Data directory (Chroma, SQLite, caches).")
    collection: str = Field("synthbot", description="Chroma collection name (3-512 chars of [a-zA-Z0-9._-]).")
    embedding_model: str = Field(
        BUNDLED_MODEL,
        description="'all-MiniLM-L6-v2' (bundled, hash-checked) or any sentence-transformers name or path.",
    )
    embedding_batch_size: int = 64
    embedding_backend: Literal["auto", "onnx", "sentence-transformers"] = Field(
        "auto", description="auto: the bundled model on ONNX Runtime, falling back to sentence-transformers (saying "
                            "why); onnx: ONNX or an error; sentence-transformers: never ONNX. Other models: always ST.",
    )
    model_cache: Path | None = Field(None, description="Where the ONNX export is kept (default ~/.cache/synthbot).")
    chroma_url: str | None = Field(None, description="Chroma server URL, e.g. http://127.0.0.1:8000; embedded if unset.")
    channel_rules: Path | None = Field(
        None, description="YAML file mapping channels (ids, names, a default, DMs) to the collections they may see; "
                          "unset: every channel sees `collection`. See README, \"Channel rules\".")
    max_file_mb: float = Field(20.0, gt=0, description="Ingest skips files larger than this (with the reason).")

    # --- retrieval / agent ----------------------------------------------------------------------------
    top_k: int = 8
    min_relevance: float = Field(0.25, description="Aggregator floor on the hybrid 0-1 score.")
    max_passages: int = 20
    context_tokens: int = 8000
    subagent_timeout: float = 20.0
    max_workers: int = 4

    # --- Claude ---------------------------------------------------------------------------------------
    anthropic_api_key: SecretStr | None = Field(None, validation_alias=AliasChoices("ANTHROPIC_API_KEY"))
    anthropic_base_url: str | None = Field(None, validation_alias=AliasChoices("ANTHROPIC_BASE_URL"))
    claude_model: str = "claude-sonnet-5-5"  # newest Sonnet the pinned SDK lists; 4-5 is deprecated there
    claude_deadline: float = 90.0
    claude_temperature: float | None = Field(
        None, ge=0.0, le=1.0, description="Opt-in sampling temperature; unset sends none (current models take none).")
    claude_max_tokens: int = Field(4096, ge=256, description="Output tokens per Claude call; doubled once a reply is "
                                                            "cut off, up to 4x.")

    # --- Slack ----------------------------------------------------------------------------------------
    slack_bot_token: SecretStr | None = Field(None, validation_alias=AliasChoices("SLACK_BOT_TOKEN"))
    slack_signing_secret: SecretStr | None = Field(None, validation_alias=AliasChoices("SLACK_SIGNING_SECRET"))
    slack_app_token: SecretStr | None = Field(None, validation_alias=AliasChoices("SLACK_APP_TOKEN"))
    slack_api_url: str = Field("https://slack.com/api/", validation_alias=AliasChoices("SLACK_API_URL"))
    redis_url: str | None = Field(None, validation_alias=AliasChoices("REDIS_URL"))
    thread_ttl_seconds: int = 7 * 24 * 3600
    max_concurrent_runs: int = 4
    answer_timeout: float = Field(120.0, description="Overall per-question deadline in Slack, in seconds.")
    drain_seconds: float = Field(
        7.0, ge=0, description="On SIGTERM, how long answers already started may finish before the process exits. "
                               "Keep it under the stop timeout (Docker's default is 10 s; compose's "
                               "stop_grace_period).")
    host: str | None = Field(
        None, description="serve's bind address (--host wins). Unset: 0.0.0.0 in HTTP mode (Slack must reach it); "
                          "127.0.0.1 in Socket Mode, where only /healthz is served (a container probes it from inside).")
    slack_check_seconds: float = Field(
        30.0, ge=0, description="/healthz re-checks Slack (auth.test) at most this often after a success.")

    # --- logging --------------------------------------------------------------------------------------
    log_level: str = "WARNING"
    log_format: Literal["console", "json"] = "console"

    @field_validator("channel_rules", mode="before")
    @classmethod
    def _unset_if_empty(cls, value):
        return None if isinstance(value, str) and not value.strip() else value

    @property
    def chroma_path(self) -> Path:
        return self.home / "chroma"

    @property
    def claude_enabled(self) -> bool:
        return self.anthropic_api_key is not None and bool(self.anthropic_api_key.get_secret_value())

"""One exception family. Each error says what to do next."""

from __future__ import annotations


class SynthbotError(Exception):
    """Base class: every message ends with the action that fixes it."""

    exit_code = 1


class ConfigError(SynthbotError):
    """A setting is missing or invalid."""


class ChannelRulesInvalid(ConfigError):
    """The channel rules file cannot be read or is invalid (every scoped question fails until it is fixed)."""


class ModelIntegrityError(SynthbotError):
    """The bundled model's weights do not match the pinned hash."""


class ModelLoadError(SynthbotError):
    """An embedding model could not be loaded (offline, not installed, bad path)."""


class KnowledgeBaseMissing(SynthbotError):
    """The collection does not exist yet."""


class OutOfScope(SynthbotError):
    """The channel rules let this channel see no collection (SYNTHBOT_CHANNEL_RULES)."""


class ModelMismatch(SynthbotError):
    """The query model differs from the model the collection was built with."""


class StoreUnavailable(SynthbotError):
    """The Chroma server or data directory cannot be reached, or reads keep failing: never shown as "not found"."""

    exit_code = 3  # distinct from 1 (no knowledge base): a failure, never "not found"


class StoreFull(StoreUnavailable):
    """The disk holding the store is full."""


class InvalidQuery(SynthbotError):
    """The query text or options are not usable."""

    exit_code = 2


class OutputNotWritten(SynthbotError):
    """A result file could not be written after the work was done (the result went to standard output instead)."""


class IngestError(SynthbotError):
    """A path given to ingest cannot be read at all."""


class SynthesisError(SynthbotError):
    """The synthesizer failed and no fallback was possible."""


class ClaudeRefused(SynthesisError):
    """Claude declined to answer (stop_reason "refusal"): not a malformed answer, so it is not asked again."""


class QuestionFileError(SynthbotError):
    """A QUESTION.md file cannot be parsed."""


class EvaluationError(SynthbotError):
    """An evaluation dataset or known-queries file is missing or malformed."""

    exit_code = 2

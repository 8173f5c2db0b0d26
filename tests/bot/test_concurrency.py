"""The bot runs several agents at once: the shared embedder must survive encoding and token counting in parallel."""

from __future__ import annotations

import threading
import time


def test_embedding_and_token_counting_from_several_threads(minilm):
    # Found by benchmarks/slack_load --real: counting tokens while another run encoded a batch corrupted the batch.
    # A race: without the lock this fails about one run in three here, and never with it.
    texts = [("word " * (n % 12 + 1)).strip() for n in range(256)]
    errors: list[str] = []
    stop = time.monotonic() + 3

    def encode() -> None:
        while time.monotonic() < stop:
            try:
                assert minilm.embed(texts).shape == (256, minilm.dimension)
            except Exception as exc:  # collected: a thread's exception would otherwise be lost
                errors.append(repr(exc)[:120])

    def count() -> None:
        while time.monotonic() < stop:
            try:
                assert minilm.count_tokens("hello world " * 2000) == 4000
            except Exception as exc:
                errors.append(repr(exc)[:120])

    threads = [threading.Thread(target=encode), *(threading.Thread(target=count) for _ in range(4))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []

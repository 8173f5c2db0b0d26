"""Markup left in stored chunks: ingest a real handbook and count chunks that still hold template or link syntax.

    .venv/bin/python -m benchmarks.clean_text [--corpus ../shared/eval/handbook-qa/corpus]

Target (issue 7, item 6): no `{%`, `{{`, `](` or `<!--` in any chunk's prose. Syntax inside code (a fenced block or
an inline `code` span) is counted separately: a page that documents the template language shows it literally, as
the built site does (`{% raw %}`), and that is content, not leftover markup.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

from benchmarks._common import REPO, bench_settings, setup_logging, write_result

HANDBOOK_DIR = Path(os.environ.get("SYNTHBOT_HANDBOOK_DIR", REPO.parent / "shared" / "eval" / "handbook-qa"))
PATTERNS = ("{%", "{{", "](", "<!--")
_CODE = re.compile(r"```.*?(?:```|\Z)|`[^`\n]+`", re.S)


def count(texts: list[str]) -> dict[str, dict[str, int]]:
    """Per pattern: chunks holding it in prose, and chunks holding it only inside code."""
    out = {p: {"prose": 0, "code_only": 0} for p in PATTERNS}
    for text in texts:
        prose = _CODE.sub(" ", text)
        for p in PATTERNS:
            if p in prose:
                out[p]["prose"] += 1
            elif p in text:
                out[p]["code_only"] += 1
    return out


def run(corpus: Path) -> dict:
    from synthesis.embedding import load_embedder
    from synthesis.ingest import ingest
    from synthesis.store import KnowledgeStore

    work = Path(tempfile.mkdtemp(prefix="synthbot-clean-text-"))
    try:
        store = KnowledgeStore.open(bench_settings(work, "clean-text"), load_embedder(), collection="clean-text")
        report = ingest(store, [corpus])
        texts = [d for _, docs, _ in store.scan() for d in docs]
        linked = sum(1 for _, _, metas in store.scan(include_documents=False) for m in metas if m.get("links"))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    found = count(texts)
    prose = sum(v["prose"] for v in found.values())
    data = {
        "command": "python -m benchmarks.clean_text", "corpus": str(corpus), "files": report.files,
        "documents": report.documents, "chunks": len(texts), "skipped": len(report.skipped),
        "chunks_with_link_targets": linked, "found": found, "prose_total": prose, "target": 0, "met": prose == 0,
    }
    path = write_result("clean_text", data)
    print(f"{report.documents} documents → {len(texts)} chunks ({linked} carry link targets)")
    for p, v in found.items():
        print(f"  {p!r:8} in prose: {v['prose']:3}   only inside code: {v['code_only']:3}")
    print(f"chunks with markup in prose: {prose} (target 0): {'met' if prose == 0 else 'MISSED'}\nwrote {path}")
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.clean_text", description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=HANDBOOK_DIR / "corpus")
    args = parser.parse_args(argv)
    if not args.corpus.is_dir():
        print(f"no corpus at {args.corpus} — pass --corpus DIR or set SYNTHBOT_HANDBOOK_DIR", file=sys.stderr)
        return 2
    setup_logging()
    return 0 if run(args.corpus)["met"] else 1


if __name__ == "__main__":
    sys.exit(main())

"""Markup left in rendered reStructuredText: load every .rst under real Sphinx manuals and count prose lines that
still hold role syntax, directive lines or title underlines, and time the rendering.

    .venv/bin/python -m benchmarks.clean_rst [DIR ...]

Defaults to CMake's manual and pip's HTML docs sources as Debian installs them (`cmake-data`, `python3-pip`).
Target: no `:role:`` ` and no line starting ".. " in any document's prose; inside a fenced code block such lines are
content (a manual that documents reStructuredText shows it), counted separately.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

from benchmarks._common import setup_logging, write_result

DEFAULT_DIRS = [Path("/usr/share/cmake-3.25/Help/manual"), Path("/usr/share/doc/python3-pip/html")]
ROLE = re.compile(r":[a-z]+:`")
UNDERLINE = re.compile(r"^\s*([=\-~^*+#\"'`])\1{3,}\s*$")


def leftovers(text: str) -> tuple[list[str], int]:
    """(prose lines that still look like reStructuredText markup, such lines inside code fences)."""
    prose, in_code, fenced = [], 0, False
    for line in text.split("\n"):
        if line.startswith("```"):
            fenced = not fenced
            continue
        if ROLE.search(line) or line.lstrip().startswith(".. ") or UNDERLINE.match(line):
            if fenced:
                in_code += 1
            else:
                prose.append(line.strip())
    return prose, in_code


def run(dirs: list[Path]) -> dict:
    from synthesis.ingest.loaders import RST, load_file

    files = sorted(p for d in dirs for p in d.rglob("*") if p.suffix.lower() in RST and p.is_file())
    found: list[tuple[str, str]] = []
    in_code = documents = 0
    skipped: list[str] = []
    times: list[tuple[float, str]] = []
    started = time.perf_counter()
    for path in files:
        t = time.perf_counter()
        loaded = load_file(path, model="none", dimension=0)
        times.append((time.perf_counter() - t, str(path)))
        skipped += [f"{s.path}: {s.reason}" for s in loaded.skipped]
        for doc in loaded.documents:
            documents += 1
            prose, code = leftovers(doc.text)
            found += [(str(path), line) for line in prose]
            in_code += code
    seconds = time.perf_counter() - started
    slowest = max(times, default=(0.0, ""))
    data = {
        "command": "python -m benchmarks.clean_rst", "dirs": [str(d) for d in dirs], "files": len(files),
        "documents": documents, "skipped": skipped, "prose_lines_with_markup": len(found), "examples": found[:20],
        "lines_inside_code": in_code, "seconds": round(seconds, 2), "slowest_file_seconds": round(slowest[0], 3),
        "slowest_file": slowest[1], "target": 0, "met": not found,
    }
    path = write_result("clean_rst", data)
    for where, line in found[:20]:
        print(f"  {where}: {line[:120]}")
    for reason in skipped:
        print(f"  skipped {reason}")
    print(f"{len(files)} files → {documents} documents in {seconds:.2f} s (slowest {slowest[0]:.3f} s: "
          f"{Path(slowest[1]).name})\nprose lines with markup: {len(found)} (target 0): "
          f"{'met' if not found else 'MISSED'}; such lines inside code: {in_code}\nwrote {path}")
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.clean_rst", description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="*", type=Path, default=DEFAULT_DIRS)
    args = parser.parse_args(argv)
    missing = [d for d in args.dirs if not d.is_dir()]
    if missing:
        print(f"no directory {missing[0]} — pass DIR arguments (or install cmake-data and python3-pip)",
              file=sys.stderr)
        return 2
    setup_logging()
    return 0 if run(args.dirs)["met"] else 1


if __name__ == "__main__":
    sys.exit(main())

"""Find files under the given paths and turn each into documents; bad files become SkippedFile, never exceptions."""

from __future__ import annotations

import json
import math
import os
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from ..embedding import canonical_model_name
from ..errors import IngestError
from .authors import front_matter_author, sign_off
from .documents import Block, Document, SkippedFile, as_tags, display_path, paragraphs
from .markup import MarkdownError, parse_html, parse_markdown, text_blocks
from .rst import parse_rst

MARKDOWN = {".md", ".markdown", ".mdx"}
RST = {".rst", ".rest"}
TEXT = {".txt", ".text"}
HTML = {".html", ".htm"}
JSONL = {".jsonl", ".ndjson"}
JSON = {".json"}
SUPPORTED = MARKDOWN | RST | TEXT | HTML | JSONL | JSON
_MODEL_KEYS = ("embedding_model", "model", "model_name")
_DIM_KEYS = ("embedding_dimension", "dimension", "dimensions")


@dataclass
class Loaded:
    """One file's documents; `complete` is False when part of it could not be read (its stored docs are kept)."""

    path: Path
    documents: list[Document] = field(default_factory=list)
    skipped: list[SkippedFile] = field(default_factory=list)
    complete: bool = True


def resolve_roots(paths: Sequence[str | Path]) -> list[Path]:
    """Absolute paths; a missing one is an error before anything is read or written."""
    if not paths:
        raise IngestError("no PATH given — pass files or directories, e.g. `synthbot ingest docs/`")
    roots = []
    for p in paths:
        path = Path(os.path.abspath(os.path.expanduser(str(p))))
        if not os.path.lexists(path):
            raise IngestError(f"{p}: no such file or directory — check the path (nothing was ingested)")
        roots.append(path)
    return roots


def discover(roots: Sequence[Path]) -> tuple[list[Path], list[SkippedFile]]:
    """Files to load, in a stable order. Directories are walked recursively; hidden files and dirs are skipped."""
    files: dict[Path, None] = {}
    skipped: list[SkippedFile] = []
    def unreadable(exc: OSError) -> None:  # os.walk would skip a directory it cannot list, silently
        skipped.append(SkippedFile(path=display_path(Path(exc.filename or "?")),
                                   reason=f"unreadable directory: {exc.strerror or exc} — nothing under it was read"))

    for root in roots:
        if os.path.isdir(root):
            for dirpath, dirnames, filenames in os.walk(root, onerror=unreadable):
                dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
                for name in sorted(filenames):
                    if name.startswith("."):
                        continue
                    path = Path(dirpath) / name
                    if path.suffix.lower() in SUPPORTED:
                        files.setdefault(path, None)
                    else:
                        skipped.append(SkippedFile(path=display_path(path), reason=f"unsupported file type "
                                                   f"'{path.suffix or name}' (supported: {', '.join(sorted(SUPPORTED))})"))
        else:
            files.setdefault(root, None)  # named explicitly: unknown suffixes are read as plain text
    return list(files), skipped


def read_text(path: Path) -> str:
    """Decoded UTF-8 text; raises ValueError with a human reason for anything we should skip."""
    try:
        st = os.stat(path)
    except FileNotFoundError as exc:
        raise ValueError("unreadable: broken symlink or file vanished") from exc
    except OSError as exc:
        raise ValueError(f"unreadable: {exc.strerror or exc}") from exc
    if stat.S_ISDIR(st.st_mode):
        raise ValueError("is a directory")
    if not stat.S_ISREG(st.st_mode):
        raise ValueError("not a regular file")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ValueError(f"unreadable: {exc.strerror or exc}") from exc
    if b"\x00" in data:
        raise ValueError("binary file (contains NUL bytes)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8 text (undecodable byte at offset {exc.start}); binary or another encoding") from exc
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        raise ValueError("empty file")
    return text


def load_file(path: Path, *, model: str, dimension: int) -> Loaded:
    """Dispatch on the suffix. `model`/`dimension` decide whether paragraph-JSON embeddings can be reused."""
    out = Loaded(path)
    shown = display_path(path)
    try:
        text = read_text(path)
        suffix = path.suffix.lower()
        if suffix in JSONL:
            _load_jsonl(text, path, out)
        elif suffix in JSON:
            _load_paragraph_json(text, path, out, model=model, dimension=dimension)
        else:
            doc = _load_single(text, path, suffix)
            if doc is None:
                raise ValueError("no text (only front matter, headings or markup)")
            out.documents.append(doc)
    except (ValueError, MarkdownError) as exc:
        out.skipped.append(SkippedFile(path=shown, reason=str(exc)))
        out.complete = False
    if not out.documents and out.complete:
        out.skipped.append(SkippedFile(path=shown, reason="no documents with text"))
        out.complete = False
    return out


def _load_single(text: str, path: Path, suffix: str) -> Document | None:
    shown, source_file = display_path(path), str(path)
    meta: dict[str, Any] = {}
    if suffix in MARKDOWN:
        meta, text, blocks, h1 = parse_markdown(text)
        title = meta.get("title") or h1
        text, blocks = _with_summary(meta, text, blocks)
    elif suffix in HTML:
        title, text, blocks = parse_html(text)
    elif suffix in RST:
        title, text, blocks = parse_rst(text)
    else:
        blocks, title = text_blocks(text), ""
    if not blocks:
        return None
    return Document(
        doc_id=str(meta.get("id") or shown), text=text, title=str(title or path.stem.replace("_", " ")),
        source_url=str(meta.get("url") or shown), source_file=source_file, blocks=blocks,
        tags=as_tags(meta.get("tags")), type=str(meta.get("type") or "doc"),
        author=(front_matter_author(meta) or sign_off(text, blocks)) if AUTHORS else "",
    )


# A page's author, where it says so: its front matter's author, or a section signed with a name (`authors`)
AUTHORS = True
SUMMARY_FIELDS = ("description", "summary")  # front matter a page's author wrote as its one-line summary


def _with_summary(meta: dict[str, Any], text: str, blocks: list[Block]) -> tuple[str, list[Block]]:
    """The page's front-matter summary ("description: Clean install a project") as its first paragraph, rendered
    like the body (no link or template syntax), unless the body already says it anywhere: documentation sites keep
    what a page is for there. A page with no body text stays without one (a stub is still skipped)."""
    raw = next((v for k in SUMMARY_FIELDS if isinstance(v := meta.get(k), str) and v.strip()), "")
    if not raw or not blocks:
        return text, blocks
    try:
        summary = " ".join(parse_markdown(raw)[1].split())
    except MarkdownError:  # a summary that is not Markdown of its own ("---" on a line) is no reason to lose the page
        summary = " ".join(raw.split())
    if len(summary.split()) < 2 or summary.lower().rstrip(".") in " ".join(text.split()).lower():
        return text, blocks
    shift = len(summary) + 2
    moved = [replace(b, start=b.start + shift, end=b.end + shift) for b in blocks]
    return f"{summary}\n\n{text}", [Block(0, len(summary)), *moved]


def _json_lines(text: str) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(text.split("\n"), 1):
        if line.strip():
            yield number, line


def _load_jsonl(text: str, path: Path, out: Loaded) -> None:
    """BEIR corpus lines: {"_id", "title", "text", "metadata"?}; one document per line, bad lines skipped."""
    shown = display_path(path)
    for number, line in _json_lines(text):
        where = f"{shown}:{number}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            out.skipped.append(SkippedFile(path=where, reason=f"invalid JSON ({exc.msg})"))
            out.complete = False
            continue
        doc_id = row.get("_id", row.get("id")) if isinstance(row, dict) else None
        body = row.get("text") if isinstance(row, dict) else None
        if doc_id in (None, "") or not isinstance(body, str):
            out.skipped.append(SkippedFile(path=where, reason="not a BEIR corpus line (needs '_id' and 'text')"))
            out.complete = False
            continue
        body = body.replace("\r\n", "\n")
        blocks = [Block(s, e) for s, e in paragraphs(body)]
        if not blocks:
            out.skipped.append(SkippedFile(path=where, reason=f"document '{doc_id}' has empty text"))
            out.complete = False
            continue
        meta = row.get("metadata") if isinstance(row.get("metadata"), dict) else {}
        out.documents.append(Document(
            doc_id=str(doc_id), text=body, title=str(row.get("title") or meta.get("title") or ""),
            source_url=str(row.get("url") or meta.get("url") or f"{shown}#{doc_id}"), source_file=str(path),
            blocks=blocks, tags=as_tags(meta.get("tags")), type=str(meta.get("type") or "doc"),
        ))


def _first(mapping: dict, keys: Sequence[str]):
    return next((mapping[k] for k in keys if mapping.get(k) not in (None, "")), None)


def _reusable(vector: Any, named_model: Any, named_dim: Any, *, model: str, dimension: int) -> np.ndarray | None:
    """The vector, unit-normalised, when the file says it came from our model with our dimension; else None."""
    if not named_model or canonical_model_name(str(named_model)) != canonical_model_name(model):
        return None
    if named_dim not in (None, "") and str(named_dim) != str(dimension):
        return None
    if not isinstance(vector, list) or len(vector) != dimension:
        return None
    try:
        arr = np.asarray(vector, dtype=np.float32)
    except (TypeError, ValueError):
        return None
    norm = float(np.linalg.norm(arr))
    if not math.isfinite(norm) or norm == 0.0:
        return None
    return arr / norm


def _load_paragraph_json(text: str, path: Path, out: Loaded, *, model: str, dimension: int) -> None:
    """{"paragraphs": [{"index", "source_file", "content", "embedding", "metadata"}]} grouped into documents by
    source_file. Embeddings are reused only when the file or paragraph names our model and dimension."""
    shown = display_path(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"invalid JSON ({exc.msg} at line {exc.lineno})") from exc
    if not isinstance(data, dict) or not isinstance(data.get("paragraphs"), list):
        raise ValueError('unsupported JSON: expected the paragraph-embeddings form {"paragraphs": [...]}')
    top_model, top_dim = _first(data, _MODEL_KEYS), _first(data, _DIM_KEYS)
    groups: dict[str, list[tuple[float, int, dict, dict]]] = {}
    for pos, para in enumerate(data["paragraphs"]):
        content = para.get("content") if isinstance(para, dict) else None
        if not isinstance(content, str) or not content.strip():
            out.skipped.append(SkippedFile(path=f"{shown}#paragraphs[{pos}]", reason="paragraph without 'content'"))
            continue
        meta = para.get("metadata") if isinstance(para.get("metadata"), dict) else {}
        source = str(para.get("source_file") or meta.get("source_file") or shown)
        index = para.get("index", pos)
        groups.setdefault(source, []).append((index if isinstance(index, int | float) else pos, pos, para, meta))
    for source, items in groups.items():
        items.sort(key=lambda item: (item[0], item[1]))
        parts: list[str] = []
        blocks: list[Block] = []
        size = 0
        for _, _, para, meta in items:
            content = para["content"].strip().replace("\r\n", "\n")
            if parts:
                parts.append("\n\n")
                size += 2
            vector = _reusable(para.get("embedding"), _first(meta, _MODEL_KEYS) or top_model,
                               _first(meta, _DIM_KEYS) or top_dim, model=model, dimension=dimension)
            section = str(meta.get("section") or meta.get("heading") or "")
            blocks.append(Block(size, size + len(content), section, vector))
            parts.append(content)
            size += len(content)
        first = items[0][3]
        out.documents.append(Document(
            doc_id=str(first.get("doc_id") or first.get("id") or source), text="".join(parts),
            title=str(first.get("title") or Path(source).stem.replace("_", " ")),
            source_url=str(first.get("url") or first.get("source_url") or source), source_file=str(path),
            blocks=blocks, tags=as_tags(first.get("tags")), type=str(first.get("type") or "doc"), pack=False,
        ))

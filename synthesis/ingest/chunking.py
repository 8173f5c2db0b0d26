"""Chunks that follow paragraphs and fit the model's token window, with overlap only inside a split paragraph.

What is embedded is "title > section" + a blank line + the chunk text (the prefix is counted against the window);
what is stored is the chunk text alone, an exact slice `document.text[char_start:char_end]`.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..embedding import Embedder
from ..models import SECTION_SEP, Chunk
from ..sentences import table_rule
from .documents import Block, Document, chunk_id, trim

SPECIAL_TOKENS = 2  # [CLS] and [SEP]: the model's max_seq_length counts them
MAX_OVERLAP = 32  # tokens repeated between the pieces of a split paragraph
_SENTENCE_END = re.compile(r"[.!?][\"'\u201d\u2019)\]]*\s+|\n\s*")
_WORD = re.compile(r"\S+")
_LEADS_IN = re.compile(r":\s*$")  # a paragraph ending in ":" introduces what follows


@dataclass
class Planned:
    """A chunk ready to store, with what to embed (or the vector the input file supplied)."""

    chunk: Chunk
    embed_text: str
    tokens: int
    vector: np.ndarray | None = None


class TokenCounts:
    """The token start offsets of one text, so the tokens of any span cost two bisects."""

    def __init__(self, starts: Sequence[int]) -> None:
        self.starts = starts

    def count(self, a: int, b: int) -> int:
        return bisect_left(self.starts, b) - bisect_left(self.starts, a)

    def cut(self, a: int, b: int, limit: int) -> int:
        """The offset where the first token past `limit` (counting from `a`) starts, or `b` if all fit."""
        i = bisect_left(self.starts, a) + limit
        return b if i >= bisect_left(self.starts, b) else self.starts[i]

    def after(self, a: int, b: int) -> int:
        """The first token start after offset `a` (or `b`): where a word too long to cut at a token ends."""
        i = bisect_right(self.starts, a)
        return min(self.starts[i], b) if i < len(self.starts) else b

    def back(self, a: int, e: int, n: int) -> int:
        """The start of the token `n` tokens before `e`, not before `a`."""
        i = max(bisect_left(self.starts, e) - n, bisect_left(self.starts, a))
        return self.starts[i] if i < len(self.starts) else e


def token_starts(embedder: Embedder, texts: Sequence[str]) -> list[list[int]]:
    """Token start offsets per text: one batched call to a fast tokenizer, else word-by-word `count_tokens`."""
    tok = getattr(embedder, "tokenizer", None)
    if tok is not None and getattr(tok, "is_fast", False):
        enc = tok(list(texts), add_special_tokens=False, return_offsets_mapping=True, return_attention_mask=False,
                  return_token_type_ids=False, truncation=False, verbose=False)
        return [[s for s, _ in offsets] for offsets in enc["offset_mapping"]]
    cache: dict[str, int] = {}  # words repeat a lot; the seam only counts whole strings
    out = []
    for text in texts:
        starts: list[int] = []
        for m in _WORD.finditer(text):
            word = m.group()
            n = cache.get(word)
            if n is None:
                n = cache[word] = embedder.count_tokens(word)
            starts.extend([m.start()] * n)
        out.append(starts)
    return out


def count_tokens_many(embedder: Embedder, texts: Sequence[str]) -> list[int]:
    """Token counts (no special tokens) of many short texts, batched through a fast tokenizer when there is one."""
    tok = getattr(embedder, "tokenizer", None)
    if texts and tok is not None and getattr(tok, "is_fast", False):
        ids = tok(list(texts), add_special_tokens=False, return_attention_mask=False, return_token_type_ids=False,
                  truncation=False, verbose=False)["input_ids"]
        return [len(x) for x in ids]
    return [embedder.count_tokens(t) if t else 0 for t in texts]


class Chunker:
    """Packs a document's paragraphs into chunks of at most `max_tokens - 2` tokens including the embedded prefix."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self.window = max(16, int(embedder.max_tokens) - SPECIAL_TOKENS)
        self._prefixes: dict[tuple[str, str], tuple[str, int]] = {}

    @staticmethod
    def _line(title: str, section: str) -> str:
        title = title.strip()
        if title and (section == title or section.startswith(title + SECTION_SEP)):
            section = section[len(title):].lstrip(" >")  # the H1 usually repeats the title
        return SECTION_SEP.join(p for p in (title, section) if p)

    def warm(self, docs: Sequence[Document]) -> None:
        """Count the prefixes of many documents in one tokenizer call (one call per title is slow on big corpora)."""
        keys = list(dict.fromkeys((d.title, b.section) for d in docs for b in d.blocks))
        keys = [k for k in keys if k not in self._prefixes]
        lines = [self._line(*k) for k in keys]
        for key, line, n in zip(keys, lines, count_tokens_many(self.embedder, lines)):
            self._prefixes[key] = (f"{line}\n\n", n) if line and n <= self.window // 4 else ("", 0)

    def prefix(self, title: str, section: str) -> tuple[str, int]:
        """The context line embedded before the text, and its token count (dropped if it would eat the window)."""
        if (title, section) not in self._prefixes:
            line = self._line(title, section)
            n = self.embedder.count_tokens(line) if line else 0
            self._prefixes[(title, section)] = (f"{line}\n\n", n) if line and n <= self.window // 4 else ("", 0)
        return self._prefixes[(title, section)]

    def chunk(self, doc: Document, counts: TokenCounts) -> list[Planned]:
        spans: list[tuple[int, int, str, np.ndarray | None]] = []
        if doc.pack:
            run: list[Block] = []
            for block in doc.blocks:
                if run and block.section != run[0].section:
                    spans += self._pack(doc, counts, run)
                    run = []
                run.append(block)
            if run:
                spans += self._pack(doc, counts, run)
        else:
            for block in doc.blocks:
                if block.embedding is not None:
                    spans.append((block.start, block.end, block.section, block.embedding))
                else:
                    spans += self._pack(doc, counts, [block])
        planned = []
        headers = table_headers(doc.text) if TABLE_HEADERS and "|" in doc.text else {}
        linked = [b for b in doc.blocks if b.links]
        starts = [b.start for b in linked]
        for index, (start, end, section, vector) in enumerate(spans):
            text = doc.text[start:end]
            prefix, prefix_tokens = self.prefix(doc.title, section)
            header = headers.get(start, "")
            chunk = Chunk(
                id=chunk_id(doc.doc_id, doc.doc_hash, index), doc_id=doc.doc_id, text=text, title=doc.title,
                source_url=doc.source_url, section=section, chunk_index=index, chunk_count=len(spans),
                char_start=start, char_end=end, tags=doc.tags, type=doc.type, source_file=doc.source_file,
                doc_hash=doc.doc_hash, links=_links(linked, starts, start, end), author=doc.author,
                table_header=header,
            )
            tokens = counts.count(start, end)
            embed = prefix + text
            # (the header is embedded with the rows when the window has room: "Point of contact" is what a
            # who-question asks; the cut is not moved for it, and a truncated embedding would lose the last rows)
            if header and prefix_tokens + tokens + self.embedder.count_tokens(header) + 1 <= self.window:
                embed = f"{prefix}{header}\n{text}"
            planned.append(Planned(chunk, embed, tokens, vector))
        return planned

    def _pack(self, doc: Document, counts: TokenCounts, run: list[Block]) -> list[tuple]:
        """Greedy packing of one section's paragraphs; a paragraph over budget is split with a small overlap."""
        section = run[0].section
        budget = self.window - self.prefix(doc.title, section)[1]
        out: list[tuple] = []
        cur: list[int] = []  # [start, end, tokens]
        # The chunk's last block when it introduces a list: (its start, its tokens, where the chunk ended before it).
        lead: tuple[int, int, int] | None = None
        for block in run:
            n = counts.count(block.start, block.end)
            if cur and cur[2] + n <= budget:
                before = cur[1]
                cur[1], cur[2] = block.end, cur[2] + n
                lead = (block.start, n, before) if _LEADS_IN.search(doc.text, block.start, block.end) else None
                continue
            if cur and lead is not None and lead[1] + n <= budget:
                # "… follow these steps:" stays with its steps: quoted without them it says nothing.
                out.append((cur[0], lead[2], section, None))
                cur = [lead[0], block.end, lead[1] + n]
                lead = None
                continue
            start = block.start
            if cur and lead is not None and n > budget:
                # a list too long for one chunk: its lead-in opens the first piece ("To fill out your PSLF
                # application and obtain employer verification:" had closed a chunk, its 20 steps in the next ones)
                if lead[2] > cur[0]:
                    out.append((cur[0], lead[2], section, None))
                start, cur = lead[0], []
            lead = None
            if cur:
                out.append((cur[0], cur[1], section, None))
                cur = []
            if n <= budget:
                cur = [block.start, block.end, n]
                lead = (block.start, n, block.start) if _LEADS_IN.search(doc.text, block.start, block.end) else None
                continue
            pieces = self._split(doc.text, counts, start, block.end, budget)
            out += [(s, e, section, None) for s, e in pieces[:-1]]
            s, e = pieces[-1]
            cur = [s, e, counts.count(s, e)]
        if cur:
            out.append((cur[0], cur[1], section, None))
        return out

    def _split(self, text: str, counts: TokenCounts, a: int, b: int, budget: int) -> list[tuple[int, int]]:
        """Pieces of at most `budget` tokens, cut at sentence ends where possible, else between words."""
        overlap = min(MAX_OVERLAP, budget // 8)
        bounds = [m.end() for m in _SENTENCE_END.finditer(text, a, b) if m.end() < b]
        pieces: list[tuple[int, int]] = []
        s = a
        while True:
            if counts.count(s, b) <= budget:
                pieces.append(trim(text, s, b))
                return pieces
            hard = counts.cut(s, b, budget)
            i = bisect_right(bounds, hard) - 1
            if i >= 0 and bounds[i] > s and counts.count(s, bounds[i]) >= budget // 2:
                e = bounds[i]
            else:
                ws = max(text.rfind(" ", s + 1, hard + 1), text.rfind("\n", s + 1, hard + 1))
                e = ws if ws > s else hard
            if e <= s:  # one word longer than the budget, counted word by word (all its tokens start where it
                e = counts.after(s, b)  # does): it is a piece of its own, or the loop would never move on
            pieces.append(trim(text, s, e))
            # Start the next piece `overlap` tokens back, at a sentence start if one is there, else a word start.
            back = counts.back(s, e, overlap)
            j = bisect_left(bounds, back)
            if j < len(bounds) and bounds[j] < e:
                ns = bounds[j]
            elif text[s:e].rstrip(" \t").endswith("\n"):
                ns = e  # cut at a line's end (a table row, a list item): the next piece starts at the next line, a
                # part of the line before is noise, not context (an overlap stays for a paragraph cut in prose)
            else:
                ns = back
                while ns < e and ns > 0 and not text[ns - 1].isspace():
                    ns += 1
            if ns <= s or ns >= e:
                ns = e
            while ns < b and text[ns].isspace():
                ns += 1
            s = ns


# A table too long for one chunk is split between rows; each later piece opens on rows without the header that names
# their columns ("| Tock; … | GitHub: 18F/tock | 18F Director of Engineering |" under "| Resource | Where we manage
# and maintain it | Point of contact |" three chunks back). Such a chunk keeps the header row and its rule in
# metadata (`Chunk.table_header`), reads under it (`Passage.readable`) and is embedded with it (TABLE_HEADERS).
TABLE_HEADERS = True


def table_headers(text: str) -> dict[int, str]:
    """The header row (and its rule, if written) of each Markdown table whose later rows a chunk can open on, keyed by
    where each such row starts (its first '|'): one pass over the text. None for the header itself, prose, a rule,
    a row repeating the header, or a chunk cut inside a row (that row's tail reads as prose: `sentences.CUT_ROWS`)."""
    out: dict[int, str] = {}
    first = header = ""  # the open table's first line, and the header kept for its rows ("" between tables)
    pos = 0
    for line in text.split("\n"):
        row = line.strip()
        if not row.startswith("|"):
            first = header = ""  # (a blank line or prose ends a table)
        elif not first:
            first = header = row  # (rendered Markdown keeps no rule: a table's first line is its header, as
            # `sentence_units` reads it)
        elif table_rule(row) and header == first:
            header = f"{first}\n{row}"  # a rule written under it is kept with it
        elif row.endswith("|") and row != first:
            out[pos + line.index("|")] = header
        pos += len(line) + 1
    return out


def _links(linked: list[Block], starts: list[int], start: int, end: int) -> list[str]:
    """Link targets of the blocks that overlap `[start, end)` (`linked` sorted by start, each with links)."""
    i = max(0, bisect_right(starts, start) - 1)
    found: dict[str, None] = {}
    while i < len(linked) and linked[i].start < end:
        if linked[i].end > start:
            found.update(dict.fromkeys(linked[i].links))
        i += 1
    return list(found)

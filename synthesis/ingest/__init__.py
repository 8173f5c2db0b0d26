"""Ingestion: loaders (Markdown, reStructuredText, text, HTML, BEIR JSONL, paragraph-embeddings JSON), chunking, the
pipeline.

Character offsets (`char_start`/`char_end`) index the document text: the rendered text for Markdown (no front matter,
link syntax, template tags or comments; see ingest/markup.py) and for reStructuredText (no roles, directives or title
underlines; see ingest/rst.py), the whole decoded file for plain text (newlines
normalised to "\\n"), the extracted text for HTML, the `text` field for BEIR JSONL,
and the paragraphs joined by blank lines for paragraph JSON.
"""

from .documents import Document, SkippedFile
from .pipeline import IngestReport, ingest

__all__ = ["Document", "IngestReport", "SkippedFile", "ingest"]

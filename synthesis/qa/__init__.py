"""Extractive question answering over retrieved sentences: what the question asks (`analyze`), which sentences
answer it (`Reader`), and whether the knowledge base answers it at all (`answerability`)."""

from .answerability import Support, support
from .question import Expect, Frame, Part, analyze
from .reader import Candidate, Reader, answer_kinds

__all__ = ["Candidate", "Expect", "Frame", "Part", "Reader", "Support", "analyze", "answer_kinds", "support"]

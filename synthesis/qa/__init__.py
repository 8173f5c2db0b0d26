"""Extractive question answering over retrieved sentences: what the question asks (`analyze`), how well each
sentence answers each part (`Reader`), which sentences the answer quotes (`pick_answers`), and whether the
knowledge base answers it at all (`answerability`)."""

from .answerability import Support, support
from .candidate import Candidate
from .kinds import answer_kinds
from .question import Expect, Frame, Part, analyze
from .reader import Reader
from .selection import pick_answers

__all__ = ["Candidate", "Expect", "Frame", "Part", "Reader", "Support", "analyze", "answer_kinds", "pick_answers",
           "support"]

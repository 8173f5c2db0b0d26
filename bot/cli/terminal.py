"""What the CLI prints comes from documents: terminal escapes and control characters in them never reach the tty."""

from __future__ import annotations

import re

from synthesis.errors import InvalidQuery

# ANSI/VT escapes: CSI (ESC [ … final), OSC (ESC ] … BEL or ST), other two-byte ESC sequences, and 8-bit CSI.
_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]?|\x9b[0-?]*[ -/]*[@-~]")
# C0 controls but tab and newline, DEL, C1 controls, and the bidi overrides/isolates that reorder what is shown.
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """`text` with terminal escape sequences and control characters removed (tabs and newlines kept)."""
    return _CONTROLS.sub("", _ESCAPES.sub("", text))


def utf8_argument(value: str, what: str) -> str:
    """Refuse an argument that was not valid UTF-8 (Python keeps such bytes as lone surrogates)."""
    for i, ch in enumerate(value):
        if "\udc80" <= ch <= "\udcff":
            raise InvalidQuery(f"the {what} is not valid UTF-8 (byte 0x{ord(ch) - 0xdc00:02x} at character {i + 1}) — "
                               "check the terminal's encoding, or retype the text")
    return value

"""Formatting through the canonical formatter (what ``rulecraft fmt`` writes).

A buffer with syntax errors is left alone (the diagnostics already say why), exactly as
``rulecraft fmt`` never rewrites such a file.
"""

from __future__ import annotations

from lsprotocol import types as lsp

from rulecraft.language.formatter import FormatError, format_source
from rulecraft.language.parser import ParseFailed
from rulecraft.lsp.positions import utf16_column


def format_edits(text: str, file: str) -> list[lsp.TextEdit] | None:
    """One edit replacing the whole buffer with its canonical form; [] when already so;
    None when the buffer cannot be formatted (syntax errors)."""
    try:
        formatted = format_source(text, file)
    except (ParseFailed, FormatError):
        return None
    if formatted == text:
        return []
    lines = text.split("\n")
    end = lsp.Position(line=len(lines) - 1, character=utf16_column(lines[-1], len(lines[-1])))
    whole = lsp.Range(start=lsp.Position(line=0, character=0), end=end)
    return [lsp.TextEdit(range=whole, new_text=formatted)]

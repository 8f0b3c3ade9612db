"""Positions between rulecraft's spans and the Language Server Protocol.

rulecraft's :class:`~rulecraft.diagnostics.Span` counts lines and columns from 1 in Unicode
code points; LSP counts from 0 in UTF-16 code units (its default encoding; a client may
negotiate UTF-8 or UTF-32 instead).  UTF-16 and code points differ only after a character
outside the Basic Multilingual Plane (an emoji in a card text), but a wrong column there
would put every later squiggle of the line in the wrong place.  The server talks to exactly
one client over stdio, so the negotiated encoding is a process-wide setting
(:func:`set_encoding`).

>>> utf16_column("a😀b", 2)
3
>>> code_point_column("a😀b", 3)
2
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlparse

from lsprotocol import types as lsp

from rulecraft.diagnostics import Span

_ENCODING = {"name": "utf-16"}


def set_encoding(name: str) -> None:
    """Use the position encoding the client and server agreed on (``utf-8|16|32``)."""
    _ENCODING["name"] = name if name in ("utf-8", "utf-16", "utf-32") else "utf-16"


def _units(ch: str) -> int:
    encoding = _ENCODING["name"]
    if encoding == "utf-32":
        return 1
    if encoding == "utf-8":
        return len(ch.encode("utf-8"))
    return 2 if ord(ch) > 0xFFFF else 1


def utf16_column(line: str, column: int) -> int:
    """The client's offset (UTF-16 units by default) of code point ``column`` in ``line``."""
    return sum(_units(ch) for ch in line[:column])


def code_point_column(line: str, client: int) -> int:
    """The code point index (0-based) of the client's offset ``client`` in ``line``."""
    units = 0
    for index, ch in enumerate(line):
        if units >= client:
            return index
        units += _units(ch)
    return len(line)


def line_of(lines: list[str], number: int) -> str:
    """Line ``number`` (0-based) of ``lines``, or an empty string past the end."""
    return lines[number] if 0 <= number < len(lines) else ""


def make_range(lines: list[str], line: int, start: int, end: int) -> lsp.Range:
    """An LSP range on one line from code point columns ``start``..``end`` (0-based)."""
    text = line_of(lines, line)
    return lsp.Range(
        start=lsp.Position(line=line, character=utf16_column(text, start)),
        end=lsp.Position(line=line, character=utf16_column(text, end)),
    )


def span_range(lines: list[str], span: Span) -> lsp.Range:
    """The LSP range of a rulecraft span; a span without an end covers the word it starts.

    >>> r = span_range(["gain 1 glod"], Span("f.rcl", 1, 8, 1, 11))
    >>> (r.start.character, r.end.character)
    (7, 11)
    """
    line = max(span.line - 1, 0)
    start = max(span.column - 1, 0)
    text = line_of(lines, line)
    if span.end_line is not None and span.end_column is not None and span.end_line == span.line:
        end = max(span.end_column, start + 1)  # the span's end column is inclusive
    else:
        end = start
        while end < len(text) and (text[end].isalnum() or text[end] == "_"):
            end += 1
        if end == start:
            end = min(start + 1, max(len(text), start + 1))
    return make_range(lines, line, start, end)


def uri_to_path(uri: str) -> Path:
    """The file system path of a ``file:`` URI."""
    parsed = urlparse(uri)
    return Path(unquote(parsed.path))


def path_to_uri(path: Path) -> str:
    """The ``file:`` URI of a path (absolute)."""
    return path.resolve().as_uri()

"""Load YAML into plain data plus the position of every node, turning every failure into
located diagnostics.

Only ruamel.yaml's round-trip mode keeps positions, so the document is loaded round-trip
and then converted to plain JSON-like data (``dict``/``list``/``str``/``int``/``float``/
``bool``/``None``) while a :class:`PositionMap` records where each node came from.
Nothing here raises on bad input: syntax errors, duplicate keys, impossible dates,
non-UTF-8 bytes, binary junk, empty files, alias bombs, excessive nesting and integers
too large for 64 bits all become :class:`~rulecraft.diagnostics.Diagnostic` records.

>>> data, positions, problems = load_yaml("name: demo\\nplayers:\\n  min: 2\\n", "m.yaml")
>>> data
{'name': 'demo', 'players': {'min': 2}}
>>> str(positions.value_span(("players", "min")))
'm.yaml:3:8'
>>> problems
[]
>>> _, _, problems = load_yaml("a: 1\\na: 2\\n", "m.yaml")
>>> str(problems[0])  # doctest: +ELLIPSIS
'm.yaml:2:1: error RC002: duplicate key "a"...'
"""

from __future__ import annotations

import datetime as dt
import re
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeAlias

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedOrderedMap, CommentedSeq
from ruamel.yaml.constructor import DuplicateKeyError
from ruamel.yaml.error import MarkedYAMLError
from ruamel.yaml.reader import ReaderError

from rulecraft.diagnostics import Diagnostic, Severity, Span

JsonValue: TypeAlias = "bool | int | float | str | list[JsonValue] | dict[str, JsonValue] | None"
JsonPath: TypeAlias = tuple[str | int, ...]

# A manifest is a few hundred lines; these bounds are orders of magnitude above any real
# one and far below what would exhaust memory or Python's recursion limit (ruamel itself
# overflows the stack at about 250 levels).
DEFAULT_MAX_NODES = 200_000
DEFAULT_MAX_DEPTH = 100
INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1

SYNTAX = "RC001"
DUPLICATE_KEY = "RC002"
BAD_DATE = "RC003"
NOT_UTF8 = "RC004"
BINARY = "RC005"
EMPTY = "RC006"
ALIAS_LIMIT = "RC007"
TOO_DEEP = "RC008"
NUMBER_RANGE = "RC009"
UNSUPPORTED_VALUE = "RC020"
UNREADABLE = "RC021"
REUSED_ANCHOR = "RC022"


@dataclass(frozen=True, slots=True)
class NodePosition:
    """Where a node sits: its key (or, for a list item, the item itself) and its value."""

    key: Span
    value: Span


@dataclass(frozen=True, slots=True)
class PositionMap:
    """Source spans of the nodes of a loaded document, addressed by JSON path.

    A path is a tuple of mapping keys and list indices, as in jsonschema's
    ``error.absolute_path``; ``()`` is the document itself.  Lookups never fail: an unknown
    path (a key that came from a YAML merge, say) falls back to its nearest known ancestor.

    >>> positions = PositionMap("f.yaml", {(): NodePosition(Span("f.yaml"), Span("f.yaml"))})
    >>> str(positions.value_span(("missing", 3)))
    'f.yaml:1:1'
    """

    file: str
    entries: Mapping[JsonPath, NodePosition] = field(default_factory=dict)

    def _nearest(self, path: JsonPath) -> NodePosition | None:
        for length in range(len(path), -1, -1):
            found = self.entries.get(tuple(path[:length]))
            if found is not None:
                return found
        return None

    def key_span(self, path: JsonPath) -> Span:
        """Span of the key that introduces ``path`` (the item itself for list items)."""
        found = self._nearest(tuple(path))
        return found.key if found else Span(self.file)

    def value_span(self, path: JsonPath) -> Span:
        """Span of the value at ``path``."""
        found = self._nearest(tuple(path))
        return found.value if found else Span(self.file)

    def __contains__(self, path: object) -> bool:
        return path in self.entries


def load_yaml(
    source: Path | str | bytes,
    file_name: str | None = None,
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    max_depth: int = DEFAULT_MAX_DEPTH,
) -> tuple[JsonValue | None, PositionMap, list[Diagnostic]]:
    """Load one YAML document from a path, text or bytes.

    Returns ``(data, positions, diagnostics)``.  ``data`` is None whenever an error
    diagnostic was produced (warnings alone keep the data).  ``file_name`` names the file in
    diagnostics; it defaults to the path, or ``<string>``.
    """
    if isinstance(source, Path):
        name = file_name if file_name is not None else str(source)
        try:
            raw: str | bytes = source.read_bytes()
        except OSError as error:
            reason = error.strerror or type(error).__name__
            problem = Diagnostic(UNREADABLE, f"cannot read file: {reason}", Span(name))
            return None, PositionMap(name), [problem]
    else:
        name = file_name if file_name is not None else "<string>"
        raw = source
    text, problems = _decode(raw, name)
    if text is None:
        return None, PositionMap(name), problems
    return _load_text(text, name, max_nodes=max_nodes, max_depth=max_depth)


def _decode(raw: str | bytes, name: str) -> tuple[str | None, list[Diagnostic]]:
    if isinstance(raw, str):
        text = raw
    else:
        if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
            hint = "save the file as UTF-8"
            msg = "file is UTF-16 or UTF-32 encoded; rulecraft reads UTF-8 only"
            return None, [Diagnostic(NOT_UTF8, msg, Span(name), hint=hint)]
        nul = raw.find(b"\x00")
        if nul >= 0:
            line, column = _byte_offset_to_line_col(raw, nul)
            msg = "file contains NUL bytes: this looks like a binary file, not YAML"
            return None, [Diagnostic(BINARY, msg, Span(name, line, column))]
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            line, column = _byte_offset_to_line_col(raw, error.start)
            msg = f"file is not valid UTF-8 (byte 0x{raw[error.start]:02x})"
            hint = "save the file as UTF-8"
            return None, [Diagnostic(NOT_UTF8, msg, Span(name, line, column), hint=hint)]
    nul = text.find("\x00")
    if nul >= 0:
        line, column = _offset_to_line_col(text, nul)
        msg = "file contains NUL characters: this looks like a binary file, not YAML"
        return None, [Diagnostic(BINARY, msg, Span(name, line, column))]
    return text, []


def _byte_offset_to_line_col(raw: bytes, offset: int) -> tuple[int, int]:
    line_start = raw.rfind(b"\n", 0, offset) + 1
    prefix = raw[line_start:offset].decode("utf-8", errors="replace")
    return raw.count(b"\n", 0, offset) + 1, len(prefix) + 1


def _offset_to_line_col(text: str, offset: int) -> tuple[int, int]:
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - line_start + 1


def _is_blank_document(text: str) -> bool:
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#") and stripped not in ("---", "..."):
            return False
    return True


def _load_text(
    text: str, name: str, *, max_nodes: int, max_depth: int
) -> tuple[JsonValue | None, PositionMap, list[Diagnostic]]:
    empty_positions = PositionMap(name)
    if _is_blank_document(text):
        hint = "a ruleset manifest needs at least a name"
        return None, empty_positions, [Diagnostic(EMPTY, "file is empty", Span(name), hint=hint)]
    too_deep = _find_excessive_nesting(text, max_depth)
    if too_deep is not None:
        line, column = too_deep
        return None, empty_positions, [_too_deep(Span(name, line, column), max_depth)]

    problems: list[Diagnostic] = []
    yaml = YAML(typ="rt")
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            document = yaml.load(text)
    except MarkedYAMLError as error:
        return None, empty_positions, [_marked_error(error, name)]
    except ReaderError as error:
        line, column = _offset_to_line_col(text, max(0, min(error.position, len(text))))
        msg = f"character U+{error.character:04X} is not allowed in YAML"
        hint = "remove control characters; is this a binary file?"
        return None, empty_positions, [Diagnostic(BINARY, msg, Span(name, line, column), hint=hint)]
    except RecursionError:
        return None, empty_positions, [_too_deep(Span(name), max_depth)]
    except ValueError as error:
        # ruamel raises a bare ValueError without position for impossible dates.
        return None, empty_positions, [_value_error(error, text, name)]
    except Exception as error:  # ruamel has crashed on odd inputs (reused anchors...)
        msg = f"cannot parse YAML ({type(error).__name__}: {error})"
        return None, empty_positions, [Diagnostic(SYNTAX, msg, Span(name))]
    for warning in caught:
        problems.append(_warning_diagnostic(warning.message, name))

    bomb = _find_alias_bomb(
        document, name, max_nodes=max_nodes, max_depth=max_depth, anchored="&" in text
    )
    if bomb is not None:
        return None, empty_positions, [*problems, bomb]
    converter = _Converter(name, text, max_depth=max_depth)
    try:
        data = converter.convert_document(document)
    except _ConversionAborted:
        data = None
    problems.extend(converter.problems)
    positions = PositionMap(name, converter.entries)
    if any(p.severity is Severity.ERROR for p in problems):
        return None, positions, problems
    return data, positions, problems


def _too_deep(span: Span, max_depth: int) -> Diagnostic:
    msg = f"nesting deeper than {max_depth} levels"
    return Diagnostic(TOO_DEEP, msg, span, hint="flatten the structure")


def _hint_for_syntax(problem: str) -> str | None:
    if "'\\t'" in problem or "\\t" in problem:
        return "indent with spaces, not tabs"
    if "mapping values are not allowed" in problem:
        return "quote values that contain ': ' or check the indentation"
    if "could not find expected ':'" in problem:
        return "each mapping entry needs 'key: value'; check the indentation"
    if "cannot start any token" in problem:
        return "quote values that start with @ or `"
    if "expected a single document" in problem or "another document" in problem:
        return "a manifest holds one YAML document: remove the extra '---'"
    if "undefined alias" in problem:
        return "define the anchor (&name) before using the alias (*name)"
    return None


def _marked_error(error: MarkedYAMLError, name: str) -> Diagnostic:
    mark = error.problem_mark or error.context_mark
    if error.context_mark is not None and "end of stream" in (error.problem or ""):
        # An unclosed quote or bracket runs to the end of the file: point at its start.
        mark = error.context_mark
    line, column = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    problem = error.problem or str(error).strip().splitlines()[0]
    context = error.context
    if isinstance(error, DuplicateKeyError):
        key_match = re.match(r'found duplicate key "(.*)" with value', problem)
        key = key_match.group(1) if key_match else "?"
        first = error.context_mark
        where = f" (the mapping starts at line {first.line + 1})" if first is not None else ""
        msg = f'duplicate key "{key}"{where}'
        hint = "each key may appear only once in a mapping: remove or rename one"
        return Diagnostic(DUPLICATE_KEY, msg, Span(name, line, column), hint=hint)
    msg = f"{problem} ({context})" if context else problem
    if "another document" in msg:
        msg = "expected a single document but found another one"
    return Diagnostic(SYNTAX, msg, Span(name, line, column), hint=_hint_for_syntax(msg))


# YAML 1.1 timestamp as ruamel resolves it, preceded and followed by what ends a plain scalar.
_TIMESTAMP = re.compile(
    r"(?:(?<=^)|(?<=[\s\[{,:-]))"
    r"(\d{4})-(\d{1,2})-(\d{1,2})"
    r"(?:(?:[Tt]|[ \t]+)(\d{1,2}):(\d{2}):(\d{2})(?:\.\d*)?"
    r"(?:[ \t]*(?:Z|[-+]\d{1,2}(?::\d{2})?))?)?"
    r"(?=\s*(?:$|[,\]}#]))"
)


_LONG_NUMBER = re.compile(r"(?<![\w.])[-+]?\d{4000,}")


def _value_error(error: ValueError, text: str, name: str) -> Diagnostic:
    if "integer string conversion" in str(error):
        # Python refuses to convert more than 4,300 digits; ruamel raises that without a place.
        found = _LONG_NUMBER.search(text)
        at = _offset_to_line_col(text, found.start()) if found else (1, 1)
        digits = len(found.group(0).lstrip("+-")) if found else 0
        msg = f"an integer of {digits:,} digits does not fit in 64 bits"
        return Diagnostic(NUMBER_RANGE, msg, Span(name, *at), hint="quote it if it is text")
    for line_number, line in enumerate(text.splitlines(), start=1):
        content = line.split(" #", 1)[0]
        for match in _TIMESTAMP.finditer(content):
            if _quoted_at(content, match.start()):
                continue
            year, month, day, hour, minute, second = match.groups()
            try:
                dt.date(int(year), int(month), int(day))
                if hour is not None:
                    dt.time(int(hour), int(minute), int(second))
            except ValueError as impossible:
                msg = f"impossible date {match.group(0)!r}: {impossible}"
                hint = "fix the date, or quote it if it is meant as text"
                span = Span(name, line_number, match.start() + 1, line_number, match.end())
                return Diagnostic(BAD_DATE, msg, span, hint=hint)
    return Diagnostic(SYNTAX, f"cannot parse YAML value: {error}", Span(name))


def _quoted_at(line: str, index: int) -> bool:
    before = line[:index]
    return before.count('"') % 2 == 1 or before.count("'") % 2 == 1


def _warning_diagnostic(message: Warning | str, name: str) -> Diagnostic:
    text = str(message)
    positions = re.findall(r"line (\d+), column (\d+)", text)
    line, column = (int(positions[-1][0]), int(positions[-1][1])) if positions else (1, 1)
    first_line = next((part.strip() for part in text.splitlines() if part.strip()), text)
    if "duplicate anchor" in text:
        hint = "give each anchor (&name) a different name"
        return Diagnostic(
            REUSED_ANCHOR, first_line, Span(name, line, column), Severity.WARNING, hint
        )
    return Diagnostic(SYNTAX, first_line, Span(name, line, column), Severity.WARNING)


_SEQUENCE_PREFIX = re.compile(r"(?:-(?:[ \t]+|$))*")
_BLOCK_SCALAR = re.compile(r"(?:^|[\s:-])[|>][-+0-9]*\s*(?:#.*)?$")


def _find_excessive_nesting(text: str, max_depth: int) -> tuple[int, int] | None:
    """Find where nesting first exceeds ``max_depth``, cheaply and before parsing.

    ruamel composes recursively: a few hundred levels overflow the stack, and even that
    takes seconds, so refuse such documents up front.  This is an approximation (flow
    brackets outside quotes and comments, plus block indentation levels); the converter
    enforces the exact limit afterwards.
    """
    flow_depth = 0
    indents: list[int] = []
    block_scalar_indent: int | None = None
    for line_number, line in enumerate(text.splitlines(), start=1):
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        if block_scalar_indent is not None:
            if not stripped or indent > block_scalar_indent:
                continue
            block_scalar_indent = None
        if not stripped or stripped.startswith("#"):
            continue
        if flow_depth == 0:
            while indents and indents[-1] >= indent:
                indents.pop()
            indents.append(indent)
            sequence_prefix = _SEQUENCE_PREFIX.match(stripped)
            dashes = sequence_prefix.group(0).count("-") if sequence_prefix else 0
            if len(indents) + dashes > max_depth:
                return line_number, indent + 1
            if _BLOCK_SCALAR.search(stripped):
                block_scalar_indent = indent
        quote: str | None = None
        previous = " "
        for column, char in enumerate(line, start=1):
            if quote is not None:
                if char == quote and not (quote == '"' and previous == "\\"):
                    quote = None
            elif char in "'\"" and previous in " \t[{,:":
                quote = char
            elif char == "#" and previous in " \t":
                break
            elif char in "[{":
                flow_depth += 1
                if len(indents) + flow_depth > max_depth:
                    return line_number, column
            elif char in "]}":
                flow_depth = max(0, flow_depth - 1)
            previous = char
    return None


# A plain scalar on one line: words separated by single spaces, ending at ": ", " #", a flow
# indicator or the end of the line (approximate: only used to underline the value).
_PLAIN_WORD = r"(?:[^\s,\[\]{}#:]|:(?=[^\s,\[\]{}]))+"
_PLAIN_TOKEN = re.compile(rf"{_PLAIN_WORD}(?: {_PLAIN_WORD})*")


def _children(node: object) -> list[tuple[object, object]]:
    """(key or index, child) pairs of a round-trip container; nothing for scalars."""
    if isinstance(node, CommentedMap):
        return list(node.items())
    if isinstance(node, CommentedSeq):
        return list(enumerate(node))
    return []


def _expanded_size(node: object, memo: dict[int, int], cap: int, depth: int, max_depth: int) -> int:
    """Number of nodes ``node`` becomes once aliases are expanded (capped at ``cap``).

    Shared (aliased) containers are counted once each and memoised, so this takes time
    proportional to the document as written, not as expanded.
    """
    if not isinstance(node, CommentedMap | CommentedSeq) or depth > max_depth:
        return 1  # too deep is the converter's RC008, not an alias problem
    known = memo.get(id(node))
    if known is not None:
        return known
    memo[id(node)] = cap  # provisional: a container that contains itself is unbounded
    size = 1
    for _, child in _children(node):
        size = min(cap, size + _expanded_size(child, memo, cap, depth + 1, max_depth))
    memo[id(node)] = size
    return size


def _find_alias_bomb(
    document: object, name: str, *, max_nodes: int, max_depth: int, anchored: bool = True
) -> Diagnostic | None:
    """RC007 at the top-level entry whose expansion crosses ``max_nodes``, if one does.

    Converting an alias bomb node by node until the budget runs out takes about a second
    for 200,000 nodes; sizing it first takes milliseconds.
    """
    memo: dict[int, int] = {}
    cap = max_nodes + 1
    if _expanded_size(document, memo, cap, 0, max_depth) <= max_nodes:
        return None
    total = 1
    span = Span(name)
    positions: dict[object, list[int]] = getattr(getattr(document, "lc", None), "data", {})
    for key, child in _children(document):
        total += _expanded_size(child, memo, cap, 1, max_depth)
        if total > max_nodes:
            where = positions.get(key)
            if where is not None:
                span = Span(name, where[0] + 1, where[1] + 1)
            break
    if not anchored:
        # No anchor, so no alias: the file itself is that large (a manifest listing
        # hundreds of thousands of components one by one).
        message = f"the document has more than {max_nodes:,} values"
        hint = "place components by kind (- {kind: card, zone: deck}) and keep cards in .rcl files"
        return Diagnostic(ALIAS_LIMIT, message, span, hint=hint)
    message = f"document expands to more than {max_nodes} nodes through aliases"
    hint = "an alias (*name) repeats its anchor's whole content; do not nest aliases"
    return Diagnostic(ALIAS_LIMIT, message, span, hint=hint)


class _ConversionAborted(Exception):
    """Raised inside the converter once a limit is hit; its diagnostic is already recorded."""


class _Converter:
    """Walks a round-trip document once, building plain data and the position map."""

    def __init__(self, name: str, text: str, *, max_depth: int) -> None:
        self.name = name
        self.lines = text.splitlines()
        self.max_depth = max_depth
        self.entries: dict[JsonPath, NodePosition] = {}
        self.problems: list[Diagnostic] = []
        self.open_containers: set[int] = set()

    def span(self, line0: int, column0: int, value: object = None) -> Span:
        """A span from ruamel's 0-based position, ending after the scalar when it can tell."""
        line, column = line0 + 1, column0 + 1
        end = self._scalar_end(line0, column0, value)
        if end is None:
            return Span(self.name, line, column)
        return Span(self.name, line, column, line, end)

    def _scalar_end(self, line0: int, column0: int, value: object) -> int | None:
        if isinstance(value, CommentedMap | CommentedSeq) or not 0 <= line0 < len(self.lines):
            return None
        rest = self.lines[line0][column0:]
        if not rest:
            return None
        if rest[0] in "'\"":
            closing = rest.find(rest[0], 1)
            while closing > 0 and rest[0] == "'" and rest[closing + 1 : closing + 2] == "'":
                closing = rest.find("'", closing + 2)
            return column0 + closing + 1 if closing > 0 else None
        token = _PLAIN_TOKEN.match(rest)
        return column0 + len(token.group(0)) if token else None

    def fail(self, code: str, message: str, span: Span, hint: str | None = None) -> None:
        self.problems.append(Diagnostic(code, message, span, hint=hint))

    def convert_document(self, document: object) -> JsonValue:
        line0 = getattr(getattr(document, "lc", None), "line", 0) or 0
        column0 = getattr(getattr(document, "lc", None), "col", 0) or 0
        root = self.span(line0, column0, document)
        return self.convert(document, (), root, root, depth=0)

    def convert(
        self, node: object, path: JsonPath, key_span: Span, value_span: Span, depth: int
    ) -> JsonValue:
        # The size of the expansion was bounded beforehand (_find_alias_bomb).
        if depth > self.max_depth:
            self.problems.append(_too_deep(value_span, self.max_depth))
            raise _ConversionAborted
        self.entries.setdefault(path, NodePosition(key_span, value_span))
        if isinstance(node, CommentedMap | CommentedSeq):
            tag = getattr(getattr(node, "tag", None), "value", None)
            if tag is not None or isinstance(node, CommentedOrderedMap):
                # A tagged collection (!!python/object/apply:..., !thing [..]) or an ordered
                # map (!!omap) is not plain data.
                shown = tag if tag is not None else "!!omap"
                hint = "remove the tag; plain values are enough"
                self.fail(UNSUPPORTED_VALUE, f"unsupported YAML tag {shown}", value_span, hint)
                return None
            if id(node) in self.open_containers:
                self.fail(ALIAS_LIMIT, "alias refers to its own anchor (recursive)", value_span)
                raise _ConversionAborted
            self.open_containers.add(id(node))
            try:
                if isinstance(node, CommentedMap):
                    return self.convert_mapping(node, path, value_span, depth)
                return self.convert_sequence(node, path, depth)
            finally:
                self.open_containers.discard(id(node))
        return self.convert_scalar(node, path, value_span)

    def convert_mapping(
        self, node: CommentedMap, path: JsonPath, span: Span, depth: int
    ) -> dict[str, JsonValue]:
        result: dict[str, JsonValue] = {}
        own_positions: dict[object, list[int]] = node.lc.data or {}
        for raw_key, raw_value in node.items():
            position = own_positions.get(raw_key)
            if position is not None:
                key_span = self.span(position[0], position[1], raw_key)
                value_span = self.span(position[2], position[3], raw_value)
                if raw_value is None and position[2] != position[0]:
                    value_span = key_span  # "key:" with nothing after: ruamel points past it
            else:  # a key merged in with "<<": point at the mapping that received it
                key_span = value_span = span
            key = self.convert_key(raw_key, key_span)
            if key is None:
                continue
            child = (*path, key)
            result[key] = self.convert(raw_value, child, key_span, value_span, depth + 1)
        return result

    def convert_sequence(self, node: CommentedSeq, path: JsonPath, depth: int) -> list[JsonValue]:
        result: list[JsonValue] = []
        positions: dict[int, list[int]] = node.lc.data or {}
        for index, raw_item in enumerate(node):
            line0, column0 = positions.get(index, [node.lc.line, node.lc.col])[:2]
            item_span = self.span(line0, column0, raw_item)
            result.append(self.convert(raw_item, (*path, index), item_span, item_span, depth + 1))
        return result

    def convert_key(self, raw_key: object, span: Span) -> str | None:
        if isinstance(raw_key, str):
            return self.checked_text(str.__str__(raw_key), span)
        if isinstance(raw_key, int) and not isinstance(raw_key, bool):
            return str(int(raw_key))  # "1: miss" in a table means the text "1"
        if isinstance(raw_key, dt.date):
            return raw_key.isoformat()
        if raw_key is None or isinstance(raw_key, bool):
            shown = {None: "null", True: "true", False: "false"}[raw_key]
        else:
            shown = str(raw_key)
        hint = f'quote the key: "{shown}"' if not isinstance(raw_key, tuple) else None
        self.fail(UNSUPPORTED_VALUE, f"mapping key {shown} is not a string", span, hint)
        return None

    def checked_text(self, text: str, span: Span) -> str | None:
        """The text itself, or None (with RC004) if it holds a lone surrogate such as
        ``"\\ud800"``: half of a UTF-16 pair is no character, and printing it fails later."""
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as error:
            code = ord(text[error.start])
            msg = f"the text holds U+{code:04X}, half of a UTF-16 pair, which is not a character"
            hint = "write the character itself, or its whole code point as \\UXXXXXXXX"
            self.fail(NOT_UTF8, msg, span, hint)
            return None
        return text

    def convert_scalar(self, node: object, path: JsonPath, span: Span) -> JsonValue:
        if node is None or isinstance(node, bool):
            return node
        if isinstance(node, str):
            return self.checked_text(str.__str__(node), span)
        if isinstance(node, int):
            value = int(node)
            if not INT64_MIN <= value <= INT64_MAX:
                msg = f"integer {value} does not fit in 64 bits"
                self.fail(NUMBER_RANGE, msg, span, "quote it if it is meant as text")
                return None
            return value
        if isinstance(node, float):
            return float(node)
        if isinstance(node, dt.date):
            # Unquoted dates load as date objects; the schema decides whether text is fine.
            return node.isoformat()
        tag = getattr(getattr(node, "tag", None), "value", None)
        if tag is not None:
            msg = f"unsupported YAML tag {tag}"
            self.fail(UNSUPPORTED_VALUE, msg, span, "remove the tag; plain values are enough")
            return None
        kind = "binary data" if isinstance(node, bytes) else type(node).__name__
        self.fail(UNSUPPORTED_VALUE, f"unsupported YAML value ({kind})", span)
        return None

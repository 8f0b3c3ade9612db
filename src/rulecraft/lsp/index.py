"""The document index: what a ruleset defines, where, and where each name is used.

The index is rebuilt from the editor's open buffers (falling back to the files on disk) with
the project's own parser (:func:`~rulecraft.language.parser.parse_source`) for definitions and
the grammar's own lexer (``rulecraft.lark`` with Lark's basic lexer) for the words of a file,
so strings and comments never count as uses of a name.  Parsed files are cached by content.

Definitions come from two places: the ``.rcl`` items (components, entries, defines, effects,
actions, rules) and the manifest (kinds, zones, resources, counters, dice, flags, symbols).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters

from rulecraft.diagnostics import Diagnostic
from rulecraft.language import ast
from rulecraft.language.parser import grammar_cache_file, grammar_text, parse_source
from rulecraft.language.yaml_source import PositionMap, load_yaml

MANIFEST = "ruleset.yaml"
_WORD = re.compile(r"[^\W\d]\w*")
# Manifest sections whose keys (mappings) or items (lists) are names the language can use.
_MANIFEST_NAMES = {
    "kinds": "kind",
    "zones": "zone",
    "resources": "resource",
    "dice": "die",
    "flags": "flag",
    "symbols": "symbol",
}


@dataclass(frozen=True, slots=True)
class Symbol:
    """A definition: a name, what it is, and where it is written (0-based line/columns)."""

    name: str
    kind: str
    path: Path
    line: int
    start: int
    end: int
    item: ast.Item | None = None


@dataclass(frozen=True, slots=True)
class Occurrence:
    """One use of a word (or, for ``go to N``, an entry number) in a source file."""

    name: str
    path: Path
    line: int
    start: int
    end: int
    entry_ref: bool = False


@dataclass(slots=True)
class SourceFile:
    """One parsed ``.rcl`` file: its text, syntax tree, syntax problems and words."""

    path: Path
    text: str
    lines: list[str]
    unit: ast.Unit
    syntax: list[Diagnostic]
    words: list[Occurrence]

    def item_at(self, line: int) -> ast.Item | None:
        """The top-level item whose lines include ``line`` (0-based)."""
        found: ast.Item | None = None
        for item in self.unit.items:
            if item.span.line - 1 <= line:
                found = item
            else:
                break
        if found is None:
            return None
        start, end = self.item_lines(found)
        return found if start <= line <= end else None

    def item_lines(self, item: ast.Item) -> tuple[int, int]:
        """First and last line (0-based) of ``item``: up to the next top-level line.

        A top-level line is one that starts at column 0 (items do); an item the parser
        dropped for a syntax error still ends the one before it."""
        start = item.span.line - 1
        end = len(self.lines) - 1
        for number in range(start + 1, len(self.lines)):
            text = self.lines[number]
            if text[:1] not in ("", " ", "\t", "#"):
                end = number - 1
                break
        # Trailing blank and comment lines belong to the next item (its doc comment).
        while end > start and (
            not self.lines[end].strip() or self.lines[end].lstrip().startswith("#")
        ):
            end -= 1
        return start, max(end, start)

    def header_at(self, line: int) -> str:
        """The nearest top-level line at or above ``line``: the header of the item being
        written, even when a syntax error keeps the parser from building it."""
        for number in range(min(line, len(self.lines) - 1), -1, -1):
            text = self.lines[number]
            if text[:1] not in ("", " ", "\t", "#"):
                return text
        return ""

    def word_at(self, line: int, column: int) -> Occurrence | None:
        """The word (or entry number) under a cursor at ``line``/``column`` (code points)."""
        for word in self.words:
            if word.line == line and word.start <= column <= word.end:
                return word
        return None


@lru_cache(maxsize=1)
def _lexer() -> Lark:
    # The grammar's own terminals with Lark's basic lexer: a standalone token stream,
    # kept between processes like the parser (0.9 s to build on 4 December).
    cache = grammar_cache_file("lsp-lexer") or False
    return Lark(grammar_text(), parser="lalr", lexer="basic", cache=cache)


def _tokens(text: str) -> list[Token]:
    """Every token of ``text``; a line the lexer cannot read is blanked and lexing retried."""
    lines = text.split("\n")
    for _attempt in range(50):
        try:
            return list(_lexer().lex("\n".join(lines) + "\n"))
        except UnexpectedCharacters as err:
            bad = err.line - 1
            if not 0 <= bad < len(lines) or not lines[bad].strip():
                return []
            lines[bad] = " " * len(lines[bad])
    return []


def scan_words(path: Path, text: str) -> list[Occurrence]:
    """The words of a file (names, keywords) and the numbers after ``go to``."""
    out: list[Occurrence] = []
    tokens = _tokens(text)
    for index, tok in enumerate(tokens):
        line = (tok.line or 1) - 1
        start = (tok.column or 1) - 1
        value = str(tok)
        if tok.type == "INT":
            after_goto = index >= 2 and tokens[index - 1].type == "TO"
            after_goto = after_goto and tokens[index - 2].type == "GO"
            out.append(Occurrence(value, path, line, start, start + len(value), after_goto))
        elif _WORD.fullmatch(value):
            out.append(Occurrence(value, path, line, start, start + len(value)))
    return out


def parse_file(path: Path, text: str) -> SourceFile:
    """Parse one file for the index."""
    unit, syntax = parse_source(text, str(path))
    return SourceFile(path, text, text.splitlines(), unit, syntax, scan_words(path, text))


def find_root(path: Path) -> Path | None:
    """The ruleset folder (the nearest one holding ``ruleset.yaml``) of a file or folder."""
    here = path if path.is_dir() else path.parent
    for folder in (here, *here.parents):
        if (folder / MANIFEST).is_file():
            return folder
    return None


def _name_span(lines: list[str], item: ast.Item, name: str) -> tuple[int, int, int]:
    """Where ``name`` is written on the first line of ``item`` (line, start, end)."""
    line = item.span.line - 1
    text = lines[line] if 0 <= line < len(lines) else ""
    start = max(item.span.column - 1, 0)
    found = re.compile(rf"(?<![\w]){re.escape(name)}(?![\w])").search(text, start)
    if found is None:
        return line, start, start
    return line, found.start(), found.end()


def item_name(item: ast.Item) -> tuple[str, str] | None:
    """The name an item defines and what kind of thing it is, or None (an include)."""
    if isinstance(item, ast.Component):
        return item.id, "component"
    if isinstance(item, ast.Entry):
        return str(item.number), "entry"
    if isinstance(item, ast.Define):
        return item.name, "define"
    if isinstance(item, ast.EffectDef):
        return item.name, "effect"
    if isinstance(item, ast.ActionDef):
        return item.name, "action"
    if isinstance(item, ast.Rule):
        return item.name, "rule"
    return None


@dataclass
class RulesetIndex:
    """What one ruleset (or a lone file) defines and uses."""

    root: Path | None
    files: dict[Path, SourceFile]
    manifest: dict[str, Any] | None = None
    manifest_path: Path | None = None
    manifest_lines: list[str] = field(default_factory=list)
    symbols: dict[str, list[Symbol]] = field(default_factory=dict)

    def add(self, symbol: Symbol) -> None:
        """Record a definition (a name may have several: the checker reports duplicates)."""
        self.symbols.setdefault(symbol.name, []).append(symbol)

    @property
    def languages(self) -> list[str]:
        """The ruleset's languages, the default first (``en`` when the manifest has none)."""
        langs = (self.manifest or {}).get("languages")
        return [str(x) for x in langs] if isinstance(langs, list) and langs else ["en"]

    def lines_of(self, path: Path) -> list[str]:
        """The lines of an indexed file or of the manifest ([] for any other file)."""
        if path in self.files:
            return self.files[path].lines
        if path == self.manifest_path:
            return self.manifest_lines
        return []

    def kind_attributes(self, kind: str) -> dict[str, str]:
        """Declared attributes of a component kind (name -> type)."""
        kinds = (self.manifest or {}).get("kinds")
        spec = kinds.get(kind) if isinstance(kinds, dict) else None
        attributes = spec.get("attributes") if isinstance(spec, dict) else None
        return (
            {str(k): str(v) for k, v in attributes.items()} if isinstance(attributes, dict) else {}
        )

    def kind_counters(self, kind: str) -> list[str]:
        """The counters a component kind declares."""
        kinds = (self.manifest or {}).get("kinds")
        spec = kinds.get(kind) if isinstance(kinds, dict) else None
        counters = spec.get("counters") if isinstance(spec, dict) else None
        return [str(c) for c in counters] if isinstance(counters, list) else []

    def definitions(self, name: str, *, entry: bool = False) -> list[Symbol]:
        """Where ``name`` is defined (``entry``: the entry of that number)."""
        found = self.symbols.get(name, [])
        return [s for s in found if (s.kind == "entry") == entry]

    def references(self, name: str, *, entry: bool = False) -> list[Occurrence]:
        """Every word ``name`` in the ruleset's files (``entry``: every ``go to name``)."""
        out: list[Occurrence] = []
        for source in self.files.values():
            out.extend(w for w in source.words if w.name == name and w.entry_ref == entry)
        return out


class IndexBuilder:
    """Builds :class:`RulesetIndex` values, re-parsing only files whose text changed."""

    def __init__(self) -> None:
        self._cache: dict[Path, SourceFile] = {}
        self._manifests: dict[Path, tuple[str, Any, PositionMap]] = {}

    def source(self, path: Path, text: str) -> SourceFile:
        """The parsed file, from the cache when its text is unchanged."""
        cached = self._cache.get(path)
        if cached is None or cached.text != text:
            cached = parse_file(path, text)
            self._cache[path] = cached
        return cached

    def build(self, path: Path, overlays: dict[Path, str]) -> RulesetIndex:
        """The index of the ruleset holding ``path`` (or of ``path`` alone)."""
        root = find_root(path)
        files = sorted(root.rglob("*.rcl")) if root is not None else [path]
        if path.suffix == ".rcl" and path not in files:
            files.append(path)
        index = RulesetIndex(root, {})
        for file in files:
            text = overlays.get(file)
            if text is None:
                try:
                    text = file.read_text("utf-8")
                except (OSError, UnicodeDecodeError):
                    continue
            source = self.source(file, text)
            index.files[file] = source
            for item in source.unit.items:
                named = item_name(item)
                if named is not None:
                    line, start, end = _name_span(source.lines, item, named[0])
                    index.add(Symbol(named[0], named[1], file, line, start, end, item))
        if root is not None:
            manifest = self.manifest(root / MANIFEST, overlays.get(root / MANIFEST))
            if manifest is not None:
                _add_manifest(index, root / MANIFEST, *manifest)
        return index

    def manifest(self, path: Path, text: str | None) -> tuple[str, Any, PositionMap] | None:
        """The manifest's text, data and positions; loaded again only when its text changed
        (a round-trip YAML load of a large manifest takes a good part of a second)."""
        try:
            raw = text if text is not None else path.read_text("utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        cached = self._manifests.get(path)
        if cached is None or cached[0] != raw:
            data, positions, _problems = load_yaml(raw, str(path))
            cached = (raw, data, positions)
            self._manifests[path] = cached
        return cached


def _add_manifest(
    index: RulesetIndex, path: Path, raw: str, data: Any, positions: PositionMap
) -> None:
    """Put the manifest's names (kinds, zones, ...) into the index, with their places."""
    index.manifest_path = path
    index.manifest_lines = raw.splitlines()
    if not isinstance(data, dict):
        return
    index.manifest = data
    for section, what in _MANIFEST_NAMES.items():
        value = data.get(section)
        if isinstance(value, dict):
            for key in value:
                _add_manifest_name(index, positions, str(key), what, (section, key), key=True)
        elif isinstance(value, list):
            for i, name in enumerate(value):
                _add_manifest_name(index, positions, str(name), what, (section, i), key=False)
    kinds = data.get("kinds")
    for kind, spec in (kinds or {}).items() if isinstance(kinds, dict) else ():
        counters = spec.get("counters") if isinstance(spec, dict) else None
        for i, name in enumerate(counters if isinstance(counters, list) else []):
            where = ("kinds", kind, "counters", i)
            _add_manifest_name(index, positions, str(name), "counter", where, key=False)


def _add_manifest_name(
    index: RulesetIndex,
    positions: PositionMap,
    name: str,
    what: str,
    where: tuple[Any, ...],
    *,
    key: bool,
) -> None:
    span = positions.key_span(where) if key else positions.value_span(where)
    assert index.manifest_path is not None
    line = max(span.line - 1, 0)
    text = index.manifest_lines[line] if line < len(index.manifest_lines) else ""
    start = text.find(name, max(span.column - 1, 0))
    if start < 0:
        start = max(span.column - 1, 0)
    index.add(Symbol(name, what, index.manifest_path, line, start, start + len(name)))

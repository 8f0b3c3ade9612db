"""Go to definition and find references: cards, defines, effects, zones, resources, entries.

A cursor on a word finds the definitions of that name in the ruleset (the ``.rcl`` items
and the manifest's names); a cursor on the number of ``go to 12`` finds entry 12.  Uses are
the words the grammar's lexer reads, so a name inside a string or a comment is no use.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rulecraft.lsp.index import Occurrence, RulesetIndex, Symbol


@dataclass(frozen=True, slots=True)
class Target:
    """What a cursor points at: a name, or an entry number."""

    name: str
    entry: bool


def target_at(index: RulesetIndex, path: Path, line: int, column: int) -> Target | None:
    """The name or entry number under the cursor (the definition's own name included)."""
    source = index.files.get(path)
    if source is not None:
        word = source.word_at(line, column)
        if word is None:
            return None
        if word.name.isdigit():
            if word.entry_ref or _is_entry_header(index, path, line, word):
                return Target(word.name, True)
            return None
        return Target(word.name, False)
    if path == index.manifest_path:
        for symbols in index.symbols.values():
            for symbol in symbols:
                here = symbol.path == path and symbol.line == line
                if here and symbol.start <= column <= symbol.end:
                    return Target(symbol.name, False)
    return None


def _is_entry_header(index: RulesetIndex, path: Path, line: int, word: Occurrence) -> bool:
    return any(
        s.path == path and s.line == line and s.start == word.start
        for s in index.definitions(word.name, entry=True)
    )


def definitions(index: RulesetIndex, target: Target) -> list[Symbol]:
    """Where the target is defined (several places when a name is defined twice)."""
    return index.definitions(target.name, entry=target.entry)


def references(
    index: RulesetIndex, target: Target, *, include_declaration: bool
) -> list[tuple[Path, int, int, int]]:
    """Every use of the target as ``(path, line, start, end)``, definitions optionally."""
    out: list[tuple[Path, int, int, int]] = []
    declared = {(s.path, s.line, s.start) for s in definitions(index, target)}
    for use in index.references(target.name, entry=target.entry):
        if (use.path, use.line, use.start) in declared:
            continue
        out.append((use.path, use.line, use.start, use.end))
    if include_declaration:
        out = [(s.path, s.line, s.start, s.end) for s in definitions(index, target)] + out
    return out

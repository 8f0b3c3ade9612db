"""The glyphs a ruleset declares for its pieces (the manifest's ``glyphs:``).

``glyphs`` maps a kind or a component definition to one glyph, or to one glyph per seat
(seat 1 first)::

    glyphs:
      mark: [X, O]      # seat 1's marks are X, seat 2's are O
      tower: "#"        # any owner

A definition's own entry wins over its kind's.  Pieces without a glyph get a short code
from their name when the map is drawn (:mod:`rulecraft.repl.mapdraw`).

>>> table = GlyphTable({"mark": ("X", "O"), "king": ("K",)}, {"mark": "mark", "k1": "king"})
>>> table.for_piece("mark#3", 1), table.for_piece("k1#1", 0), table.for_piece("mark#1", None)
('O', 'K', None)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulecraft.runtime.ids import component_def


@dataclass(frozen=True)
class GlyphTable:
    """``glyphs``: kind or definition id -> glyphs (one, or one per seat);
    ``kinds``: definition id -> its kind."""

    glyphs: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    kinds: Mapping[str, str] = field(default_factory=dict)

    def for_piece(self, piece_id: str, owner: int | None) -> str | None:
        """The glyph of the piece ``piece_id`` (ids are ``<definition>#<n>``), if declared.

        A per-seat list needs an owner: an unowned piece of such a kind has no glyph.
        """
        definition = component_def(piece_id)
        declared = self.glyphs.get(definition) or self.glyphs.get(
            self.kinds.get(definition, ""), ()
        )
        if len(declared) == 1:
            return declared[0]
        if declared and owner is not None and 0 <= owner < len(declared):
            return declared[owner]
        return None


def glyphs_from_manifest(raw: object) -> dict[str, tuple[str, ...]]:
    """The ``glyphs:`` section of a decoded manifest as ``name -> glyphs``.

    >>> glyphs_from_manifest({"glyphs": {"mark": ["X", "O"], "tower": "#"}})
    {'mark': ('X', 'O'), 'tower': ('#',)}
    """
    section = raw.get("glyphs") if isinstance(raw, dict) else None
    if not isinstance(section, dict):
        return {}
    table: dict[str, tuple[str, ...]] = {}
    for name, value in section.items():
        if isinstance(value, str):
            table[str(name)] = (value,)
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            table[str(name)] = tuple(value)
    return table


def load_glyph_table(manifest: Path, kinds: Mapping[str, str]) -> GlyphTable:
    """The glyphs declared in the manifest file ``manifest`` (none if it cannot be read:
    the ruleset was validated when it was loaded, and a map without glyphs still draws)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    try:
        raw: Any = YAML(typ="safe", pure=True).load(manifest.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, YAMLError):
        return GlyphTable({}, kinds)
    return GlyphTable(glyphs_from_manifest(raw), kinds)

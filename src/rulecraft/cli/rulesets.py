"""How every command finds a ruleset: a path, or the name of a bundled ruleset.

``rulecraft validate NAME`` and ``rulecraft dice ... --ruleset NAME`` mean the bundled
ruleset NAME, exactly as ``rulecraft play NAME`` does; a path that exists always wins over a
bundled name, so a local folder called NAME is the one checked.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from rulecraft.compile.load import bundled_names, bundled_root, default_ruleset

MANIFEST = "ruleset.yaml"


def bundled_rulesets() -> list[str]:
    """The names of the rulesets shipped with rulecraft, sorted."""
    return bundled_names()


def bundled_listing() -> str:
    """``bundled rulesets: a, b, c`` (or a note that there are none), for error messages."""
    names = bundled_rulesets()
    return f"bundled rulesets: {', '.join(names)}" if names else "no bundled rulesets found"


def resolve_path(text: str) -> Path | None:
    """``text`` as given when it exists, else the bundled ruleset of that name, else None."""
    path = Path(text)
    if path.exists():
        return path
    if text and os.sep not in text and "/" not in text:
        candidate = bundled_root() / text
        if (candidate / MANIFEST).is_file():
            return candidate
    return None


def resolve_ruleset(text: str) -> Path | None:
    """The ruleset folder ``text`` names (a folder with a manifest, or a bundled name)."""
    path = Path(text)
    if (path / MANIFEST).is_file():
        return path
    found = resolve_path(text)
    if found is not None and (found / MANIFEST).is_file():
        return found
    return None


@dataclass(frozen=True, slots=True)
class BundledRuleset:
    """One line of ``rulecraft list``."""

    name: str
    title: str
    players: str
    languages: tuple[str, ...]
    folder: Path
    default: bool


def describe_bundled() -> list[BundledRuleset]:
    """Every bundled ruleset with its title, player count and languages, from its manifest."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    default = default_ruleset()
    out = []
    for name in bundled_rulesets():
        folder = bundled_root() / name
        try:
            data = YAML(typ="safe", pure=True).load((folder / MANIFEST).read_text("utf-8"))
        except (OSError, UnicodeDecodeError, YAMLError, ValueError):
            data = None
        manifest = data if isinstance(data, dict) else {}
        title = manifest.get("title")
        if isinstance(title, dict):
            title = title.get("en") or next(iter(title.values()), name)
        players = manifest.get("players") or {}
        low, high = (
            (players.get("min"), players.get("max")) if isinstance(players, dict) else ("", "")
        )
        count = f"{low}" if low == high else f"{low}-{high}"
        languages = manifest.get("languages") or []
        out.append(
            BundledRuleset(
                name,
                str(title or name),
                count,
                tuple(str(x) for x in languages) if isinstance(languages, list) else (),
                folder,
                name == default,
            )
        )
    return out

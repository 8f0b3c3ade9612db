"""Small rulesets for the hostile-input tests, built in a temporary folder.

:data:`BASE_MANIFEST` and :data:`BASE_RULES` form a valid two-player ruleset with one
action, ``go``; a case replaces parts of them or writes the action's body.  Line numbers in
the expectations count from the files as written here.
"""

from __future__ import annotations

from pathlib import Path

BASE_MANIFEST = """\
rulecraft: 1
name: hostile
title: "Hostile"
players: {min: 2, max: 2}
files: [rules.rcl]
kinds:
  card:
    attributes: {cost: number}
    counters: [damage]
zones:
  deck: {per: player, visibility: hidden, order: ordered}
  hand: {per: player, visibility: owner}
  board: {per: player, visibility: public, capacity: 1}
resources:
  gold: {per: player, start: 3}
components:
  - {kind: card, zone: deck}
flow:
  phases:
    - name: main
      actions: [play]
      max: 1
"""

BASE_RULES = """\
card alpha "Alpha":
    copies: 3
    cost: 1

action play "Play":
"""

#: The line of the action's first statement in ``rules.rcl``.
BODY_LINE = BASE_RULES.count("\n") + 1


def write_ruleset(
    folder: Path,
    *,
    manifest: str = BASE_MANIFEST,
    rules: str | bytes | None = None,
    body: str = "gain 1 gold",
    extra_files: dict[str, str | bytes] | None = None,
) -> Path:
    """Write a ruleset into ``folder``: the base files, or the given ``manifest`` and
    ``rules``; ``body`` (indented four spaces per line) is the action ``play``'s body."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "ruleset.yaml").write_text(manifest, encoding="utf-8", errors="surrogatepass")
    if rules is None:
        rules = BASE_RULES + "".join(f"    {line}\n" for line in body.splitlines())
    if isinstance(rules, bytes):
        (folder / "rules.rcl").write_bytes(rules)
    else:
        (folder / "rules.rcl").write_text(rules, encoding="utf-8")
    for name, content in (extra_files or {}).items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return folder

"""A tiny ruleset for the environment tests, written into a folder."""

from __future__ import annotations

from pathlib import Path


def write_bidding(folder: Path) -> Path:
    """A two-seat ruleset that never ends: each seat bids 0 to 8 in turn, for ever, until
    its 4-decision limit."""
    (folder / "ruleset.yaml").write_text(
        "rulecraft: 1\nname: bidding\ntitle: {en: Bidding}\nversion: '1.0'\n"
        "players: {min: 2, max: 2}\nfiles: [rules.rcl]\n"
        "flow:\n  phases:\n    - name: bid\n      actions: [bid]\n      max: 1\n"
        "      mandatory: true\nlimits: {max_decisions: 4}\n",
        encoding="utf-8",
    )
    (folder / "rules.rcl").write_text(
        'action bid "Bid {n}" for n in range(0, 8):\n    say "{you} bids {n}."\n',
        encoding="utf-8",
    )
    return folder

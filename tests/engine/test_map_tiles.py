"""Map tiles (docs/manifest.md, "Map tiles"): a modular board whose tiles, each with its own
spaces, are shuffled into slots at setup with the game's seed.

The ruleset below is the docs' example: two slots side by side, an inn between them, and two
tiles of different sizes (the moor: two spaces; the pass: one).  Which tile lies west decides
what touches what: the moor's east space ``b`` and the pass touch across the slots' border,
and the inn touches the space of each tile at the port that faces it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rulecraft
from rulecraft.errors import RulesetError

MANIFEST = """rulecraft: 1
name: tiles_demo
players: {min: 2, max: 2}
kinds:
  pawn: {}
zones:
  stable: {per: player}
components:
  - {kind: pawn, zone: stable}
map:
  kind: graph
  ports: [e, w]
  spaces:
    - {id: inn, x: 2, y: 0, adjacent: [west.e, east.w]}
  slots:
    - {id: west, x: 0, y: 0, joins: {e: east.w}}
    - {id: east, x: 4, y: 0}
  tiles:
    - id: moor
      spaces:
        - {id: a, x: 0, y: 0, terrain: bog, adjacent: [b], ports: [w]}
        - {id: b, x: 1, y: 0, ports: [e]}
    - id: pass
      spaces:
        - {id: a, x: 0, y: 0, ports: [e, w]}
  costs: {bog: 2}
setup: |
  for each p in players: move first(p.stable) to space_at(2, 0)
flow:
  phases:
    - name: move
      actions: [walk]
      max: 1
      mandatory: true
limits: {max_decisions: 12}
"""

RULES = """pawn pawn "Pawn":
    copies: 1

define here(p) = first(spaces where any(it.pieces where it.owner == p))

action walk "Walk to {s}" for s in here(you).neighbors:
    move first(here(you).pieces where it.owner == you) to s
"""


def make(tmp_path: Path, manifest: str = MANIFEST, rules: str = RULES) -> rulecraft.Ruleset:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "ruleset.yaml").write_text(manifest, encoding="utf-8")
    (tmp_path / "rules.rcl").write_text(rules, encoding="utf-8")
    return rulecraft.load(tmp_path)


def placement(game: rulecraft.Game) -> list[str]:
    tiles = game.state["tiles"]
    assert isinstance(tiles, list)
    return [str(t) for t in tiles]


def seed_with(ruleset: rulecraft.Ruleset, west: str) -> int:
    """The first seed whose shuffle puts tile ``west`` in the west slot."""
    return next(s for s in range(50) if placement(ruleset.new_game(seed=s))[0] == west)


def test_the_seed_places_the_tiles_and_both_placements_occur(tmp_path: Path) -> None:
    ruleset = make(tmp_path)
    seen = {tuple(placement(ruleset.new_game(seed=s))) for s in range(20)}
    assert seen == {("moor", "pass"), ("pass", "moor")}
    for seed in range(5):
        assert placement(ruleset.new_game(seed=seed)) == placement(ruleset.new_game(seed=seed))


def test_spaces_of_both_tiles_are_on_the_map_whatever_the_placement(tmp_path: Path) -> None:
    game = make(tmp_path).new_game(seed=0)
    ids = game.evaluate_expr("spaces.id")
    assert sorted(ids) == ["inn", "moor_a", "moor_b", "pass_a"]
    assert game.evaluate_expr("count(spaces where it.terrain == bog)") == 1


def test_adjacency_follows_the_placement_across_the_tile_border(tmp_path: Path) -> None:
    ruleset = make(tmp_path)
    moor_west = ruleset.new_game(seed=seed_with(ruleset, "moor"))
    # west: moor (a at x 0, b at x 1; b touches port e); east: pass at x 4
    assert moor_west.evaluate_expr("space_at(1, 0).id") == "moor_b"
    assert moor_west.evaluate_expr("space_at(4, 0).id") == "pass_a"
    assert sorted(moor_west.evaluate_expr("space_at(4, 0).neighbors.id")) == ["inn", "moor_b"]
    assert moor_west.evaluate_expr("adjacent(space_at(1, 0), space_at(4, 0))") is True
    assert moor_west.evaluate_expr("adjacent(space_at(0, 0), space_at(4, 0))") is False
    assert moor_west.evaluate_expr("distance(space_at(0, 0), space_at(4, 0))") == 2
    pass_west = ruleset.new_game(seed=seed_with(ruleset, "pass"))
    # west: pass at x 0; east: moor (a at x 4 on port w, b at x 5)
    assert pass_west.evaluate_expr("space_at(4, 0).id") == "moor_a"
    assert sorted(pass_west.evaluate_expr("space_at(0, 0).neighbors.id")) == ["inn", "moor_a"]
    assert sorted(pass_west.evaluate_expr("space_at(2, 0).neighbors.id")) == ["moor_a", "pass_a"]
    assert pass_west.evaluate_expr("space_at(1, 0)") is None
    # entering the moor's bog costs 2 (terrain travels with its tile)
    assert pass_west.evaluate_expr("path_cost(space_at(0, 0), space_at(5, 0))") == 3
    assert pass_west.evaluate_expr("path(space_at(5, 0), space_at(0, 0)).id") == [
        "moor_b",
        "moor_a",
        "pass_a",
    ]


def test_the_options_offered_follow_the_placement(tmp_path: Path) -> None:
    ruleset = make(tmp_path)
    moor_west = ruleset.new_game(seed=seed_with(ruleset, "moor"))
    pass_west = ruleset.new_game(seed=seed_with(ruleset, "pass"))
    assert "moor_b" in " ".join(moor_west.legal_ids())
    assert "moor_a" in " ".join(pass_west.legal_ids())
    assert "moor_a" not in " ".join(moor_west.legal_ids())


def test_the_view_shows_which_tile_lies_in_each_slot(tmp_path: Path) -> None:
    ruleset = make(tmp_path)
    game = ruleset.new_game(seed=seed_with(ruleset, "pass"))
    board = game.view(0)["map"]
    assert board["tiles"] == {"west": "pass", "east": "moor"}
    where = {s["id"]: (s["x"], s["y"]) for s in board["spaces"]}
    assert where["moor_b"] == (5, 0) and where["pass_a"] == (0, 0)


def test_save_load_and_clone_keep_the_placement(tmp_path: Path) -> None:
    ruleset = make(tmp_path)
    for west in ("moor", "pass"):
        game = ruleset.new_game(seed=seed_with(ruleset, west))
        game.choose(game.legal_ids()[0])
        data = json.loads(json.dumps(game.to_json()))
        loaded = rulecraft.Game.from_json(ruleset, data)
        assert placement(loaded) == placement(game)
        assert loaded.state_hash() == game.state_hash()
        assert loaded.legal_ids() == game.legal_ids()
        twin = game.clone()
        assert placement(twin) == placement(game)
        assert twin.evaluate_expr("space_at(4, 0).neighbors.id") == game.evaluate_expr(
            "space_at(4, 0).neighbors.id"
        )


def test_a_save_whose_tiles_are_not_the_rulesets_is_refused(tmp_path: Path) -> None:
    ruleset = make(tmp_path)
    data = json.loads(json.dumps(ruleset.new_game(seed=1).to_json()))
    data["state"]["tiles"] = ["moor", "moor"]
    with pytest.raises(ValueError, match="map tiles"):
        rulecraft.Game.from_json(ruleset, data)


def test_listed_places_the_tiles_in_order_whatever_the_seed(tmp_path: Path) -> None:
    shuffled = make(tmp_path / "shuffle")
    listed = make(
        tmp_path / "listed", MANIFEST.replace("  costs:", "  place_tiles: listed\n  costs:")
    )
    assert {tuple(placement(listed.new_game(seed=s))) for s in range(10)} == {("moor", "pass")}
    # the tiles are dealt from a stream of their own: the game's random stream is untouched
    for seed in range(5):
        assert shuffled.new_game(seed=seed).state["rng"] == [seed, 0]
        assert listed.new_game(seed=seed).state["rng"] == [seed, 0]


def test_pawns_walk_the_placed_board(tmp_path: Path) -> None:
    ruleset = make(tmp_path)
    for seed in range(6):
        game = ruleset.new_game(seed=seed)
        for _ in range(30):
            game.choose(game.legal_ids()[-1])
            # both pawns are always somewhere on the map, on a space next to the last
            assert game.evaluate_expr("count(flatten(spaces.pieces))") == 2


BAD = [
    # (what is wrong, the manifest edit, the code, words of the message)
    ("unknown port on a tile space", ("ports: [e, w]}", "ports: [e, west]}"), "RC262", "west"),
    ("join to no slot", ("joins: {e: east.w}", "joins: {e: eats.w}"), "RC262", "eats"),
    ("join of an undeclared port", ("joins: {e: east.w}", "joins: {n: east.w}"), "RC262", "'n'"),
    ("board link to no port", ("[west.e, east.w]", "[west.e, east.x]"), "RC262", "east.x"),
    ("board link to a tile space", ("[west.e, east.w]", "[west.e, moor_a]"), "RC262", "moor_a"),
    ("link to no space of the tile", ("adjacent: [b]", "adjacent: [c]"), "RC260", "'c'"),
    ("a tile twice", ("id: pass\n", "id: moor\n"), "RC260", "twice"),
    ("more tiles than slots", ("    - {id: east, x: 4, y: 0}\n", ""), "RC261", "2 tiles for 1"),
    (
        "tiles on a square map",
        ("kind: graph", "kind: square\n  width: 2\n  height: 1"),
        "RC261",
        "graph",
    ),
]


@pytest.mark.parametrize(("what", "edit", "code", "words"), BAD, ids=[b[0] for b in BAD])
def test_a_bad_tile_slot_or_port_is_a_located_diagnostic(
    tmp_path: Path, what: str, edit: tuple[str, str], code: str, words: str
) -> None:
    assert edit[0] in MANIFEST, what
    manifest = MANIFEST.replace(edit[0], edit[1], 1)
    with pytest.raises(RulesetError) as caught:
        make(tmp_path, manifest)
    found = [d for d in caught.value.diagnostics if d.code == code]
    assert found, [str(d) for d in caught.value.diagnostics]
    diag = found[0]
    assert words in diag.message
    assert diag.span.file.endswith("ruleset.yaml")
    # the span points at the line of the edit (a removed slot: at the list of slots)
    where = (
        manifest.index(edit[1], MANIFEST.index(edit[0]))
        if edit[1]
        else manifest.index("- {id: west")
    )
    assert diag.span.line == manifest.count("\n", 0, where) + 1, diag


def test_an_arrangement_puts_a_tile_in_a_slot_and_its_pieces_go_with_it(tmp_path: Path) -> None:
    ruleset = make(tmp_path)
    game = ruleset.new_game(seed=seed_with(ruleset, "moor"))
    game.arrange(zones={"moor_a": ["pawn#1"]})
    assert game.evaluate_expr("space_at(0, 0).id") == "moor_a"
    game.arrange(tiles={"west": "pass"})
    assert placement(game) == ["pass", "moor"]
    # the pawn stays on the moor's space, which now lies at (4, 0) next to the pass
    assert game.evaluate_expr("space_at(4, 0).id") == "moor_a"
    assert game.evaluate_expr("count(space_at(4, 0).pieces)") == 1
    assert sorted(game.evaluate_expr("space_at(4, 0).neighbors.id")) == [
        "inn",
        "moor_b",
        "pass_a",
    ]
    with pytest.raises(ValueError, match="no slot 'north'"):
        game.arrange(tiles={"north": "pass"})
    with pytest.raises(ValueError, match="no tile 'fen'"):
        game.arrange(tiles={"west": "fen"})
    with pytest.raises(ValueError, match="wanted in two slots"):
        game.arrange(tiles={"west": "pass", "east": "pass"})
    assert placement(game) == ["pass", "moor"]


def test_what_a_placement_worked_out_is_not_read_by_the_other(tmp_path: Path) -> None:
    # Routes, neighbours and lines are worked out once per placed map: the other placement,
    # asked the same questions after it, must get its own answers (one placement's routes
    # from the inn were once handed to the other's map).
    questions = [
        "path_cost(space_at(2, 0), space_at(0, 0))",
        "path_cost(space_at(2, 0), space_at(4, 0))",
        "space_at(0, 0).neighbors.id",
        "space_at(4, 0).neighbors.id",
        "space_at(0, 0).cost + 10 * space_at(4, 0).cost",
    ]

    def answers(game: rulecraft.Game) -> list[object]:
        return [sorted(v) if isinstance(v, list) else v for v in map(game.evaluate_expr, questions)]

    fresh = make(tmp_path / "fresh")
    # pass west: the inn touches the pass (cost 1) and the moor's bog space a (cost 2)
    expected = [1, 2, ["inn", "moor_a"], ["inn", "moor_b", "pass_a"], 21]
    assert answers(fresh.new_game(seed=seed_with(fresh, "pass"))) == expected
    ruleset = make(tmp_path / "both")
    # moor west: the inn touches b (1), then a's bog (2): 3; the pass east (1)
    moor_west = ruleset.new_game(seed=seed_with(ruleset, "moor"))
    assert answers(moor_west) == [3, 1, ["moor_b"], ["inn", "moor_b"], 12]
    assert answers(ruleset.new_game(seed=seed_with(ruleset, "pass"))) == expected

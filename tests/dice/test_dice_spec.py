"""Reading die types from manifest data."""

from __future__ import annotations

import pytest

from rulecraft.dice import VALUE_SYMBOL, DiceSet, DiceSpecError, DieType


def test_every_face_form_reads_to_the_same_counts() -> None:
    dice = DiceSet.from_spec(
        {"x": {"faces": [["hit", "hit"], {"hit": 2}, 3, [], "blank", None, "hit", {"hit": 0}]}}
    )
    faces = [dice["x"].face_counts(i) for i in range(8)]
    assert faces == [{"hit": 2}, {"hit": 2}, {VALUE_SYMBOL: 3}, {}, {}, {}, {"hit": 1}, {}]


def test_label_order_and_ranking(knights: DiceSet) -> None:
    assert knights.ranked() == ["white", "green", "blue", "red"]
    assert knights["red"].label == "Red"
    assert knights.symbols == {"success", "fate", "botch"}


def test_plain_dice_are_known_without_declaration() -> None:
    dice = DiceSet.from_spec(None)
    assert "d6" in dice and "d0" not in dice and "white" not in dice
    assert [dice["d6"].face_counts(i)[VALUE_SYMBOL] for i in range(6)] == [1, 2, 3, 4, 5, 6]


def test_negative_values_are_allowed_for_fudge_like_dice() -> None:
    dice = DiceSet.from_spec({"fudge": [-1, -1, 0, 0, 1, 1]})
    assert dice["fudge"].face_counts(0) == {VALUE_SYMBOL: -1}
    assert dice["fudge"].face_counts(2) == {}


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"w": {"faces": [[], ["ok"], [3]]}}, "die 'w', face 2: symbol names are identifiers"),
        ({"w": {"faces": [[], {"hit": "2"}]}}, "die 'w', face 1: count for 'hit' must be an int"),
        ({"w": {"faces": [True]}}, "die 'w', face 0: a face cannot be True"),
        ({"w": {"faces": []}}, "die 'w': 'faces' must be a non-empty list"),
        ({"w": {"faces": [1], "colour": "red"}}, "die 'w': unknown keys ['colour']"),
        ({"w": {"faces": [1], "order": "high"}}, "die 'w': 'order' must be an integer"),
        ({"w w": {"faces": [1]}}, "die 'w w': die names are identifiers"),
        ({"w": 5}, "die 'w': expected a mapping"),
        ({"w": {"faces": [1.5]}}, "die 'w', face 0: a face is a list, mapping or integer"),
    ],
)
def test_bad_specs_name_the_die_and_face(spec: dict[str, object], message: str) -> None:
    with pytest.raises(DiceSpecError) as info:
        DiceSet.from_spec(spec)
    assert str(info.value).startswith(message)


def test_unknown_die_lookup_is_a_clear_key_error(knights: DiceSet) -> None:
    with pytest.raises(KeyError, match="unknown die 'purple'"):
        knights["purple"]


def test_rerolling_once_weights() -> None:
    die = DieType.plain(6)
    rerolled = die.rerolling_once([0, 1])
    assert rerolled.faces == die.faces
    # faces 1, 2 are rerolled: each face ends at 2/36 via the reroll, 3..6 also 6/36 directly
    assert rerolled.weights == (2, 2, 8, 8, 8, 8)
    with pytest.raises(DiceSpecError):
        die.rerolling_once([6])

"""Exact distributions against brute-force enumeration and against icepool."""

from __future__ import annotations

import itertools
from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulecraft.dice import (
    DiceSet,
    DieType,
    Pool,
    PoolError,
    best_reroll,
    distribution,
    odds_text,
    opposed,
)
from rulecraft.dice.exact import SymbolCounts

from .dice_helpers import enumerate_pool

SYMBOLS = ["hit", "block", "star"]
faces = st.lists(
    st.dictionaries(st.sampled_from(SYMBOLS), st.integers(-1, 3), max_size=3),
    min_size=1,
    max_size=5,
)
dice_specs = st.dictionaries(st.sampled_from(["a", "b", "c"]), faces, min_size=1, max_size=3)


@st.composite
def small_pools(draw: st.DrawFn) -> Pool:
    dice = DiceSet.from_spec(draw(dice_specs))
    counts = {dice[name]: draw(st.integers(0, 2)) for name in dice}
    counts[dice[next(iter(dice))]] += 1
    auto = draw(st.dictionaries(st.sampled_from(SYMBOLS), st.integers(-2, 2), max_size=2))
    return Pool.of(counts, auto)


@settings(max_examples=60, deadline=None)
@given(small_pools())
def test_exact_equals_enumeration_on_random_small_pools(pool: Pool) -> None:
    assert distribution(pool).outcomes() == enumerate_pool(pool)


@pytest.mark.parametrize(
    ("game", "expr"),
    [
        ("knights", "1 white + 1 green + 1 blue + 1 red + 1 fate"),
        ("knights", "2 red + 2 blue + 1 white"),
        ("express", "3 combat + 1 raider_check"),
        ("waylanders", "2 forest + 1 plain + 2 auxiliary + 1 bonus"),
    ],
)
def test_exact_equals_enumeration_on_seed_pools(
    game: str, expr: str, request: pytest.FixtureRequest
) -> None:
    pool = Pool.parse(expr, request.getfixturevalue(game))
    assert distribution(pool).outcomes() == enumerate_pool(pool)


def test_reroll_once_die_equals_enumeration_of_the_procedure(knights: DiceSet) -> None:
    white = knights["white"]
    blanks = [i for i, face in enumerate(white.faces) if not face]
    rerolled = white.rerolling_once(blanks)
    expected: dict[int, Fraction] = {}
    for first, second in itertools.product(range(6), range(6)):
        final = second if first in blanks else first
        successes = white.face_counts(final).get("success", 0)
        expected[successes] = expected.get(successes, Fraction(0)) + Fraction(1, 36)
    pool = Pool.of({rerolled: 1})
    assert distribution(pool).marginal("success") == expected


def _icepool_die(die: DieType, symbols: tuple[str, ...]) -> icepool.Die:
    outcomes = [
        icepool.Vector(tuple(die.face_counts(f).get(s, 0) for s in symbols))
        for f, w in enumerate(die.weights)
        for _ in range(w)
    ]
    return icepool.Die(outcomes)


def _icepool_joint(pool: Pool) -> dict[tuple[int, ...], Fraction]:
    symbols = pool.symbols
    auto = dict(pool.auto)
    total: icepool.Die = icepool.Die([icepool.Vector(tuple(auto.get(s, 0) for s in symbols))])
    for die in pool.each_die():
        total = total + _icepool_die(die, symbols)
    denominator = total.denominator()
    return {tuple(k): Fraction(q, denominator) for k, q in total.items()}


@pytest.mark.parametrize(
    ("game", "expr"),
    [
        ("knights", "3 white + 3 green + 3 blue + 3 red"),
        ("knights", "2 red + 1 green + 1 fate"),
        ("express", "5 combat + 1 rad_check"),
        ("waylanders", "2 forest + 2 mountain + 2 auxiliary"),
    ],
)
def test_joint_distribution_equals_icepool(
    game: str, expr: str, request: pytest.FixtureRequest
) -> None:
    pool = Pool.parse(expr, request.getfixturevalue(game))
    assert distribution(pool).outcomes() == _icepool_joint(pool)


def test_marginals_and_thresholds_equal_icepool(express: DiceSet) -> None:
    combat = icepool.Die([0, 0, 1, 1, 2, 3])
    for n in (1, 2, 4, 10):
        dist = distribution(Pool.parse(f"{n} combat + 2 hit", express))
        ice = n @ combat + 2
        assert dist.marginal("hit") == {k: Fraction(q, ice.denominator()) for k, q in ice.items()}
        for k in range(0, 3 * n + 4):
            assert dist.at_least("hit", k) == ice.probability(">=", k)
        assert dist.mean("hit") == ice.mean()


def test_net_with_floor_equals_icepool(knights: DiceSet) -> None:
    pool = Pool.parse("2 red + 2 white", knights)
    symbols = pool.symbols
    si, bi = symbols.index("success"), symbols.index("botch")
    joint = sum(
        (_icepool_die(d, symbols) for d in pool.each_die()),
        start=icepool.Die([icepool.Vector((0,) * 3)]),
    )
    net = joint.map(lambda v: max(0, v[si] - v[bi]))
    expected = {k: Fraction(q, net.denominator()) for k, q in net.items()}
    assert distribution(pool).net("success", "botch") == expected
    unfloored = distribution(pool).net("success", "botch", floor=None)
    assert min(unfloored) == -4 and sum(unfloored.values()) == 1


def test_opposed_equals_icepool_and_enumeration(waylanders: DiceSet) -> None:
    attack = Pool.parse("2 forest + 1 auxiliary + 1 bonus", waylanders)
    defence = Pool.parse("2 auxiliary", waylanders)
    result = opposed(attack, defence, ["arrow", "bonus"], ["arrow", "bonus"])

    def hits(die: DieType) -> icepool.Die:
        return icepool.Die(
            [
                die.face_counts(f).get("arrow", 0) + die.face_counts(f).get("bonus", 0)
                for f in range(6)
            ]
        )

    a = hits(waylanders["forest"]) + hits(waylanders["forest"]) + hits(waylanders["auxiliary"]) + 1
    b = hits(waylanders["auxiliary"]) + hits(waylanders["auxiliary"])
    margin = a - b
    assert result.margin == {k: Fraction(q, margin.denominator()) for k, q in margin.items()}
    assert result.win + result.tie + result.loss == 1
    assert result.tie == margin.probability("==", 0)


def test_opposed_plain_dice_by_hand() -> None:
    r = opposed(Pool.parse("1d6"), Pool.parse("1d6"), "value", "value")
    assert (r.win, r.tie, r.loss) == (Fraction(15, 36), Fraction(6, 36), Fraction(15, 36))


def test_probability_of_a_joint_predicate(knights: DiceSet) -> None:
    pool = Pool.parse("1 white + 1 red", knights)
    expected = sum(
        (p for k, p in enumerate_pool(pool).items() if k[2] >= 1 and k[0] == 0), Fraction(0)
    )
    dist = distribution(pool)
    assert dist.symbols == ("botch", "fate", "success")
    assert dist.probability(lambda c: c["success"] >= 1 and c["botch"] == 0) == expected
    assert dist.probability(lambda c: c["no_such_symbol"] == 0) == 1
    assert dist.at_least("no_such_symbol", 1) == 0 and dist.marginal("nothing") == {0: 1}


def test_distribution_is_cached_per_pool_signature(knights: DiceSet) -> None:
    a = distribution(Pool.parse("2 white + 1 red", knights))
    b = distribution(Pool.parse("1 red + 2 white", knights))
    assert a is b
    assert not a.counts.flags.writeable


def test_huge_pools_stay_exact() -> None:
    dist = distribution(Pool.parse("30d6"))  # 6**30 outcomes overflow int64
    assert dist.total == 6**30
    assert dist.at_least("value", 180) == Fraction(1, 6**30)
    assert sum(dist.marginal("value").values()) == 1


def _brute_best(pool: Pool, faces: list[tuple[str, int]], goal: object, max_dice: int) -> Fraction:
    dice = {d.name: d for d, _ in pool.dice}
    best = Fraction(-1)
    for r in range(max_dice + 1):
        for chosen in itertools.combinations(range(len(faces)), r):
            kept = [dice[n].face_counts(f) for i, (n, f) in enumerate(faces) if i not in chosen]
            options = [
                [dice[faces[i][0]].face_counts(f) for f in range(len(dice[faces[i][0]].faces))]
                for i in chosen
            ]
            ways = 0
            combos = list(itertools.product(*options))
            for combo in combos:
                counts = SymbolCounts()
                for face in [*kept, *combo, dict(pool.auto)]:
                    for s, n in face.items():
                        counts[s] += n
                ways += bool(goal(counts))  # type: ignore[operator]
            best = max(best, Fraction(ways, len(combos)))
    return best


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 5), min_size=4, max_size=4), st.integers(1, 6), st.integers(0, 4))
def test_best_reroll_equals_brute_force(rolled: list[int], need: int, max_dice: int) -> None:
    dice = DiceSet.from_spec(
        {
            "white": [[], [], ["fate"], ["success"], ["success"], ["botch"]],
            "red": [
                ["fate"],
                ["success"],
                ["success", "success"],
                [],
                ["botch"],
                ["success", "botch"],
            ],
        }
    )
    pool = Pool.parse("2 red + 2 white + 1 fate", dice)
    faces = [("red", rolled[0]), ("red", rolled[1]), ("white", rolled[2]), ("white", rolled[3])]

    def goal(c: object) -> bool:
        return c["success"] - c["botch"] >= need  # type: ignore[index,no-any-return]

    advice = best_reroll(pool, faces, goal, max_dice=max_dice)
    assert advice.probability == _brute_best(pool, faces, goal, max_dice)
    assert len(advice.reroll) <= max_dice
    assert advice.keep in (0, 1)
    if advice.keep == 1:
        assert advice.reroll == ()


def test_best_reroll_respects_allowed_positions_and_validates() -> None:
    pool = Pool.parse("2d6")
    low = [("d6", 0), ("d6", 1)]
    advice = best_reroll(pool, low, lambda c: c["value"] >= 7, allowed=[1])
    assert advice.reroll == (1,) and advice.probability == Fraction(1, 6)
    advice = best_reroll(pool, low, lambda c: c["value"] >= 7)
    assert advice.reroll == (0, 1) and advice.probability == Fraction(7, 12)
    advice = best_reroll(pool, low, lambda c: c["value"] >= 13)
    assert advice.reroll == () and advice.probability == 0  # ties go to fewer dice
    advice = best_reroll(pool, [("d6", 5), ("d6", 1)], lambda c: c["value"] >= 9)
    assert advice.reroll == (1,) and advice.probability == Fraction(2, 3)
    with pytest.raises(PoolError):
        best_reroll(pool, [("d6", 0)], lambda c: True)
    with pytest.raises(PoolError):
        best_reroll(pool, [("d6", 0), ("d8", 0)], lambda c: True)


def test_odds_text_for_a_pending_test(knights: DiceSet) -> None:
    text = odds_text(Pool.parse("2 green", knights), "success", 1)
    assert text == "P(success >= 1) = 3/4 (75.0%) with 2 green"

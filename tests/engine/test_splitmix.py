"""rng.shuffled's machine-integer loop (rulecraft.splitmix, compiled builds) deals what
the Python loop deals.  `make compiled-check` runs this file on the compiled build, where
rng takes the machine-integer loop; `make test` runs it on the pure package, where the
same assertions hold the Python loop to the reference."""

from __future__ import annotations

import random

import pytest

from rulecraft import rng as rng_module
from rulecraft import splitmix
from rulecraft.rng import Rng, randbelow, shuffled


def reference_shuffle(rng: Rng, items: list[int]) -> tuple[list[int], Rng]:
    """Fisher-Yates from the last place down, each place's partner drawn by randbelow
    (what rng.shuffled's docstring says it draws)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j, rng = randbelow(rng, i + 1)
        out[i], out[j] = out[j], out[i]
    return out, rng


@pytest.mark.parametrize("size", [0, 1, 2, 3, 7, 38, 81, 1000])
def test_shuffled_deals_what_randbelow_deals(size: int) -> None:
    draw = random.Random(size)
    items = list(range(size))
    for _ in range(60):
        # seeds and counters of every size a game or a search makes (64-bit seeds)
        rng = Rng(draw.getrandbits(64), draw.getrandbits(draw.choice((0, 8, 40))))
        assert shuffled(rng, items) == reference_shuffle(rng, items)


def test_a_compiled_build_takes_the_machine_integer_loop_a_pure_one_never_does() -> None:
    assert rng_module._NATIVE == splitmix.NATIVE
    assert rng_module._native_agrees()


def test_a_machine_loop_that_deals_otherwise_is_not_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check made when rng loads (a C compiler that did not wrap 64-bit products
    would deal other cards): a loop that draws the same numbers but swaps otherwise, or
    that fails, is refused."""

    original = splitmix.shuffle

    def swaps_otherwise(out: list[int], w: int) -> int:
        drawn = original(out, w)
        out.reverse()
        return drawn

    def overflows(out: list[int], w: int) -> int:
        raise OverflowError("Python int too large to convert to C int64_t")

    for broken in (swaps_otherwise, overflows):
        monkeypatch.setattr(splitmix, "shuffle", broken)
        assert not rng_module._native_agrees()


def test_the_python_loop_deals_alike_where_the_machine_one_is_taken(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On the compiled build the first test checked the machine-integer loop: the Python
    loop, which a pure install runs, still deals the same there (and on the pure package
    this is the first test again)."""
    monkeypatch.setattr(rng_module, "_NATIVE", False)
    draw = random.Random(7)
    items = list(range(83))
    for _ in range(40):
        rng = Rng(draw.getrandbits(64), draw.getrandbits(16))
        assert shuffled(rng, items) == reference_shuffle(rng, items)

"""rng.shuffled's machine-integer loop (rulecraft.splitmix, compiled builds) deals what
the Python loop deals.  `make compiled-check` runs this file on the compiled build, where
``splitmix.NATIVE`` holds and rng.shuffled takes the machine-integer loop; `make test` runs
it on the pure package, where the same assertions hold the Python loop to the reference."""

from __future__ import annotations

import random

import pytest

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


def test_the_python_loop_deals_alike_where_the_machine_one_is_taken(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On the compiled build the test above checked the machine-integer loop: the Python
    loop, which a pure install runs, still deals the same there (and on the pure package
    this is the test above again)."""
    was_native = splitmix.NATIVE
    monkeypatch.setattr(splitmix, "NATIVE", False)
    draw = random.Random(7)
    items = list(range(83))
    for _ in range(40):
        rng = Rng(draw.getrandbits(64), draw.getrandbits(16))
        assert shuffled(rng, items) == reference_shuffle(rng, items)
    monkeypatch.setattr(splitmix, "NATIVE", was_native)

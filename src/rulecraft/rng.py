"""The game's random stream, stored in the state as two integers.

Every random event in a game (shuffles, draws from bags, dice) takes numbers from one
:class:`Rng`.  It is a counter-based SplitMix64 stream: the whole generator state is the
pair ``(seed, counter)``, so it serialises to JSON, clones for free, and the same seed
with the same choices replays bit for bit.

>>> r = Rng(42)
>>> a, r = randbelow(r, 6)
>>> b, r = randbelow(r, 6)
>>> (a, b) == (randbelow(Rng(42), 6)[0], randbelow(Rng(42, 1), 6)[0])
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from rulecraft import splitmix

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


@dataclass(frozen=True, slots=True)
class Rng:
    """An immutable position in a SplitMix64 stream."""

    seed: int
    counter: int = 0


def mix64(z: int) -> int:
    """The SplitMix64 finaliser: a bijective scramble of a 64-bit integer."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def u64_at(seed: int, counter: int) -> int:
    """The 64-bit number at position ``counter`` of the stream for ``seed``."""
    return mix64((seed * _GOLDEN + (counter + 1) * _GOLDEN) & _MASK)


def next_u64(rng: Rng) -> tuple[int, Rng]:
    """The next 64-bit number and the advanced stream."""
    return u64_at(rng.seed, rng.counter), Rng(rng.seed, rng.counter + 1)


def randbelow(rng: Rng, n: int) -> tuple[int, Rng]:
    """A uniform integer in ``range(n)`` (Lemire's method, unbiased by rejection)."""
    if n <= 0:
        raise ValueError("randbelow needs n >= 1")
    seed, counter = rng.seed, rng.counter
    threshold = (-n & _MASK) % n
    while True:
        x = u64_at(seed, counter)
        counter += 1
        m = x * n
        if (m & _MASK) >= threshold:
            return m >> 64, Rng(seed, counter)


def shuffled(rng: Rng, items: Sequence[T]) -> tuple[list[T], Rng]:
    """A Fisher-Yates shuffled copy of ``items`` and the advanced stream.

    It draws the same numbers as calling :func:`randbelow` for each step, written out in
    one loop (no call and no ``Rng`` per step): bots re-deal every hidden card of a game at
    each search iteration (``Game.determinize``), a shuffle of every deck each time.

    >>> items = list(range(10))
    >>> out, rng = shuffled(Rng(7), items)
    >>> expected, step = list(items), Rng(7)
    >>> for i in range(9, 0, -1):
    ...     j, step = randbelow(step, i + 1)
    ...     expected[i], expected[j] = expected[j], expected[i]
    >>> (out, rng) == (expected, step)
    True
    """
    out = list(items)
    seed, counter = rng.seed, rng.counter
    # u64_at's argument, kept up to date: each step of the counter adds _GOLDEN to it
    w = (seed * _GOLDEN + counter * _GOLDEN) & _MASK
    if _NATIVE and len(out) <= splitmix.MAX_ITEMS:
        # the same steps in machine integers (compiled builds): 5-10x faster
        return out, Rng(seed, counter + splitmix.shuffle(out, _signed(w)))
    return out, Rng(seed, counter + _shuffle_python(out, w))


def _signed(w: int) -> int:
    """The signed 64-bit number with the bits of the unsigned ``w``."""
    return w - (1 << 64) if w >> 63 else w


def _shuffle_python(out: list[T], w: int) -> int:
    """:func:`shuffled`'s loop on Python integers: ``out`` shuffled in place from the
    stream position whose ``u64_at`` argument is ``w + _GOLDEN``; how many numbers it
    drew."""
    drawn = 0
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        while True:
            w = (w + _GOLDEN) & _MASK
            z = ((w ^ (w >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            m = (z ^ (z >> 31)) * n
            drawn += 1
            # randbelow's rejection test; its threshold is below n, so it is only worked
            # out for the rare low part under n
            low = m & _MASK
            if low >= n or low >= (-n & _MASK) % n:
                break
        j = m >> 64
        out[i], out[j] = out[j], out[i]
    return drawn


def _native_agrees() -> bool:
    """Does the compiled :func:`splitmix.shuffle` deal what :func:`_shuffle_python` deals?
    Checked once, when this module loads: a C compiler that did not wrap 64-bit products
    (CPython's builds pass ``-fwrapv``) would make a compiled build deal other cards, so
    it keeps the Python loop instead."""
    for seed in (0, 7, _MASK, 0x9E3779B97F4A7C15 ^ 12345):
        w = (seed * _GOLDEN) & _MASK
        native, python = list(range(97)), list(range(97))
        try:
            drawn = splitmix.shuffle(native, _signed(w))
        except (IndexError, OverflowError):  # (run as Python: numbers past 64 bits)
            return False
        if drawn != _shuffle_python(python, w) or native != python:
            return False
    return True


#: Does :func:`shuffled` run in machine integers (:mod:`rulecraft.splitmix`, compiled
#: builds, where it deals what the Python loop deals)?
_NATIVE = splitmix.NATIVE and _native_agrees()

"""The shuffle of :func:`rulecraft.rng.shuffled` in machine integers, for the compiled build.

:func:`rulecraft.rng.shuffled` works on Python integers: each step of its Fisher-Yates loop
multiplies 64-bit numbers into 128-bit ones, about fifteen operations on integer objects.
A search deals every hidden card again at each of its iterations (``Game.determinize``),
and a card game's three piles of hidden cards (about 80) took 51 us a deal that way, more
than cloning the whole game (27 us).  Compiled with mypyc (``make compiled``, a wheel),
:func:`shuffle` does the same steps on C's 64-bit integers, which wrap as the stream's
arithmetic modulo 2**64 needs (CPython's extensions build with ``-fwrapv``).

The same numbers are drawn and the same cards swapped as by :func:`rulecraft.rng.shuffled`
(a test compares the two on the compiled build, and :mod:`rulecraft.rng` checks it once
when it loads).  Run as Python, ``i64`` is a Python integer that never wraps: every bit
the loop reads below the 64th comes out the same, but the rejection test reads the sign
of a whole product, and the loop is slower than rng's own, so :data:`NATIVE` is false and
:mod:`rulecraft.rng` keeps its own loop.

Unsigned 64-bit values are held in ``i64`` (signed) variables with the same bits: a
logical right shift is an arithmetic one with the copies of the sign bit masked off, and
an unsigned comparison with a small non-negative ``n`` is "negative or at least ``n``".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:  # mypyc's machine integer; Python never needs the name at run time
    from mypy_extensions import i64

#: Does this module run compiled (``make compiled``, a wheel)?  Only then is :func:`shuffle`
#: the stream's arithmetic.
NATIVE: Final = not __file__.endswith(".py")

#: SplitMix64's constants, as the signed 64-bit numbers with their bits.
GOLDEN: Final = 0x9E3779B97F4A7C15 - (1 << 64)
_MIX1: Final = 0xBF58476D1CE4E5B9 - (1 << 64)
_MIX2: Final = 0x94D049BB133111EB - (1 << 64)
#: Masks that drop the copies of the sign bit an arithmetic right shift by 30, 27, 31
#: or 32 brings in.
_LOW34: Final = (1 << 34) - 1
_LOW37: Final = (1 << 37) - 1
_LOW33: Final = (1 << 33) - 1
_LOW32: Final = (1 << 32) - 1
#: 2**62, from which 2**64 modulo n is worked out without a number past 63 bits.
_TWO62: Final = 1 << 62
#: The most items :func:`shuffle` takes: each step's bound times a 32-bit half of a draw,
#: plus the bound, stays below 2**63.
MAX_ITEMS: Final = (1 << 31) - 1


def shuffle(out: list[Any], w: i64) -> i64:
    """Shuffle ``out`` in place as :func:`rulecraft.rng.shuffled` does from the stream
    position whose ``u64_at`` argument is ``w + GOLDEN`` (``w``: the signed 64-bit number
    with the bits of ``(seed + counter) * GOLDEN mod 2**64``); how many numbers it drew.
    Compiled only (:data:`NATIVE`); at most :data:`MAX_ITEMS` items."""
    drawn: i64 = 0
    i: i64 = len(out) - 1
    while i > 0:
        n: i64 = i + 1
        # randbelow's rejection threshold, 2**64 mod n, from 2**62 (a machine integer)
        threshold: i64 = ((_TWO62 % n) * 4) % n
        while True:
            w = w + GOLDEN
            z: i64 = (w ^ ((w >> 30) & _LOW34)) * _MIX1
            z = (z ^ ((z >> 27) & _LOW37)) * _MIX2
            z = z ^ ((z >> 31) & _LOW33)
            drawn += 1
            low: i64 = z * n  # the low 64 bits of the 128-bit product
            if low < 0 or low >= threshold:
                break
        # the high 64 bits of z * n (unsigned), from z's two 32-bit halves
        high: i64 = ((z >> 32) & _LOW32) * n + ((((z & _LOW32) * n) >> 32) & _LOW32)
        j: i64 = (high >> 32) & _LOW32
        out[i], out[j] = out[j], out[i]
        i -= 1
    return drawn

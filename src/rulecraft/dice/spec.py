"""Die types as data: faces that carry numbers or multisets of symbols.

A ruleset declares its dice as plain data (already parsed YAML/JSON).  A face is one of

- a list of symbol names, read as a multiset (``[hit, hit]`` is two hits);
- a mapping from symbol to count (``{hit: 2}``);
- an integer ``n``: the symbol ``value`` counted ``n`` times, so sums of plain dice are
  symbol counts too (negative values are allowed, for dice such as -1/0/+1);
- ``[]``, ``"blank"`` or ``null``: a blank face;
- a single symbol name as a string (``success`` is ``[success]``).

>>> dice = DiceSet.from_spec({
...     "white": {"faces": [[], [], ["success"], ["success"], ["fate"], ["botch"]], "order": 1},
...     "d6": {"faces": [1, 2, 3, 4, 5, 6]},
... })
>>> dice["white"].symbols
('botch', 'fate', 'success')
>>> dice["d6"].face_counts(4)
{'value': 5}
>>> DiceSet.from_spec({"bad": {"faces": [["ok"], {"hit": -1.5}]}})
Traceback (most recent call last):
...
rulecraft.dice.spec.DiceSpecError: die 'bad', face 1: count for 'hit' must be an integer, got -1.5
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

VALUE_SYMBOL = "value"
"""The symbol an integer face counts: a plain d6 showing 4 carries ``value`` four times."""

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]*$")
_PLAIN = re.compile(r"^d([1-9][0-9]*)$")

Face = tuple[tuple[str, int], ...]
"""One face: sorted ``(symbol, count)`` pairs with non-zero counts; ``()`` is a blank."""


class DiceSpecError(ValueError):
    """A die declaration that cannot be read; the message names the die and the face."""

    def __init__(self, die: str, message: str, face: int | None = None) -> None:
        where = f"die {die!r}" + (f", face {face}" if face is not None else "")
        super().__init__(f"{where}: {message}")
        self.die = die
        self.face = face


@dataclass(frozen=True, slots=True)
class DieType:
    """One kind of die: its faces (with optional integer weights) and presentation data.

    ``weights`` default to 1 per face; a weighted die stands for a procedure such as
    "roll, and reroll a blank once" (see :meth:`rerolling_once`).
    """

    name: str
    faces: tuple[Face, ...]
    weights: tuple[int, ...] = ()
    label: str = ""
    order: int | None = None
    symbols: tuple[str, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.faces:
            raise DiceSpecError(self.name, "a die needs at least one face")
        if not self.weights:
            object.__setattr__(self, "weights", (1,) * len(self.faces))
        if len(self.weights) != len(self.faces) or any(w <= 0 for w in self.weights):
            raise DiceSpecError(self.name, "weights must be positive, one per face")
        names = sorted({s for face in self.faces for s, _ in face})
        object.__setattr__(self, "symbols", tuple(names))

    @property
    def outcomes(self) -> int:
        """The number of equally likely outcomes (the sum of the weights)."""
        return sum(self.weights)

    def face_counts(self, index: int) -> dict[str, int]:
        """The symbols on face ``index`` as a dict (``{}`` for a blank)."""
        return dict(self.faces[index])

    @classmethod
    def plain(cls, sides: int) -> DieType:
        """A plain ``d<sides>`` numbered 1..sides.

        >>> DieType.plain(4).faces[3]
        (('value', 4),)
        """
        if sides < 1:
            raise DiceSpecError(f"d{sides}", "a plain die needs at least one side")
        return cls(f"d{sides}", tuple(((VALUE_SYMBOL, n),) for n in range(1, sides + 1)))

    def rerolling_once(self, reroll: Sequence[int]) -> DieType:
        """This die rolled once more when it first shows a face in ``reroll``.

        The result is a weighted die with the same faces: face ``f`` ends up with weight
        ``n*[f not rerolled] + len(reroll)`` out of ``n*n``.  Use it for exact odds of
        "reroll blanks once"; the faces rolled stay the real faces.

        >>> coin = DieType("coin", (((("head", 1),)), ()))
        >>> coin.rerolling_once([1]).weights
        (3, 1)
        """
        chosen = set(reroll)
        n = len(self.faces)
        if not chosen <= set(range(n)):
            raise DiceSpecError(self.name, f"reroll faces {sorted(chosen)} out of range")
        total = self.outcomes
        chosen_weight = sum(self.weights[i] for i in chosen)
        weights = tuple(
            (0 if i in chosen else w * total) + chosen_weight * w
            for i, w in enumerate(self.weights)
        )
        return DieType(
            f"{self.name}/reroll-once",
            self.faces,
            weights,
            label=f"{self.label or self.name} (reroll once)",
            order=self.order,
        )


def _count(die: str, index: int, symbol: str, raw: object) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise DiceSpecError(die, f"count for {symbol!r} must be an integer, got {raw!r}", index)
    return raw


def _symbol(die: str, index: int, raw: object) -> str:
    if not isinstance(raw, str) or not _NAME.match(raw):
        raise DiceSpecError(die, f"symbol names are identifiers, got {raw!r}", index)
    return raw


def parse_face(die: str, index: int, raw: object) -> Face:
    """Read one face of die ``die`` (see the module docstring for the forms)."""
    counts: dict[str, int] = {}
    if raw is None or raw == "blank":
        pass
    elif isinstance(raw, bool):
        raise DiceSpecError(die, f"a face cannot be {raw!r}", index)
    elif isinstance(raw, int):
        counts[VALUE_SYMBOL] = raw
    elif isinstance(raw, str):
        counts[_symbol(die, index, raw)] = 1
    elif isinstance(raw, Mapping):
        for key, value in raw.items():
            name = _symbol(die, index, key)
            counts[name] = counts.get(name, 0) + _count(die, index, name, value)
    elif isinstance(raw, Sequence):
        for item in raw:
            if item == "blank":
                continue
            name = _symbol(die, index, item)
            counts[name] = counts.get(name, 0) + 1
    else:
        raise DiceSpecError(die, f"a face is a list, mapping or integer, got {raw!r}", index)
    return tuple(sorted((s, n) for s, n in counts.items() if n != 0))


def parse_die(name: str, raw: object) -> DieType:
    """Read one die declaration ``{faces: [...], label: ..., order: ...}``."""
    if not isinstance(name, str) or not _NAME.match(name):
        raise DiceSpecError(str(name), "die names are identifiers")
    if isinstance(raw, Sequence) and not isinstance(raw, str):
        raw = {"faces": raw}
    if not isinstance(raw, Mapping):
        raise DiceSpecError(name, f"expected a mapping with 'faces', got {raw!r}")
    unknown = set(raw) - {"faces", "label", "order"}
    if unknown:
        raise DiceSpecError(name, f"unknown keys {sorted(map(str, unknown))}")
    faces = raw.get("faces")
    if not isinstance(faces, Sequence) or isinstance(faces, str) or not faces:
        raise DiceSpecError(name, "'faces' must be a non-empty list")
    label = raw.get("label", "")
    if not isinstance(label, str):
        raise DiceSpecError(name, "'label' must be a string")
    order = raw.get("order")
    if order is not None and (isinstance(order, bool) or not isinstance(order, int)):
        raise DiceSpecError(name, "'order' must be an integer")
    parsed = tuple(parse_face(name, i, face) for i, face in enumerate(faces))
    return DieType(name, parsed, label=label, order=order)


@dataclass(frozen=True, slots=True)
class DiceSet:
    """The die types a ruleset declares, by name.

    Plain ``dN`` dice are always known, declared or not.
    """

    dice: Mapping[str, DieType]

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any] | None) -> DiceSet:
        """Read the ``dice:`` mapping of a ruleset manifest."""
        if spec is None:
            return cls({})
        if not isinstance(spec, Mapping):
            raise DiceSpecError("<dice>", "the dice section must be a mapping of die names")
        return cls({str(name): parse_die(name, raw) for name, raw in spec.items()})

    def __getitem__(self, name: str) -> DieType:
        die = self.get(name)
        if die is None:
            known = ", ".join(sorted(self.dice)) or "only plain dice such as d6"
            raise KeyError(f"unknown die {name!r} (known: {known})")
        return die

    def get(self, name: str) -> DieType | None:
        """The die called ``name``, a plain ``dN`` if undeclared, or ``None``."""
        die = self.dice.get(name)
        if die is None and (m := _PLAIN.match(name)):
            die = DieType.plain(int(m.group(1)))
        return die

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.get(name) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self.dice)

    def __len__(self) -> int:
        return len(self.dice)

    @property
    def symbols(self) -> frozenset[str]:
        """Every symbol on any declared die."""
        return frozenset(s for die in self.dice.values() for s in die.symbols)

    def ranked(self) -> list[str]:
        """Declared die names from weakest to strongest by ``order`` (unordered ones last)."""
        return sorted(
            self.dice,
            key=lambda n: (self.dice[n].order is None, self.dice[n].order or 0, n),
        )

"""A fixed action space for a ruleset: every option id maps to one stable integer.

Environments for learning agents (PettingZoo, OpenSpiel) need a fixed set of action numbers
per game, while a ruleset's decisions offer option ids (``act:place:b2``, ``ab:scout#1:0``,
``pass``).  :class:`ActionIndex` numbers them in two parts:

1. **The vocabulary**, enumerated from the compiled ruleset and its components at the
   ruleset's largest player count, in this order: the fixed words (``pass``, ``done``,
   ``yes``, ``no``, ``roll``), the seats (``@0`` ...), the numbered choices (``opt1`` ...
   ``opt{MAX_CHOICES}``), every map space, every component, every action without a target
   (``act:NAME``), every action over a collection crossed with every component, space,
   seat and the numbers ``0`` .. ``NUMBER_TARGETS - 1`` (``act:NAME:X``: ``act:bid:3`` for
   ``action bid for n in range(0, 8)``), every ability of every component (``ab:ID:I``),
   and the first :data:`SLOTS_PER_ZONE` positions of every zone (``z:hand@1[3]``: how an
   option names a card its seat may not see).  An id in the vocabulary has the number of
   its place in that list.
2. **The hashed tail** of :data:`HASHED_SLOTS` numbers: any other id (a de-duplicated
   ``x~1``, a number a rule offers, a deep position ``z:deck[40]``) gets
   ``len(vocabulary) + h`` where ``h`` is the first 8 bytes of its BLAKE2b digest modulo
   :data:`HASHED_SLOTS`.  If an earlier option of the same decision already holds that
   number, the id takes the next free one of the tail (linear probing, in the decision's
   option order), so a decision's numbers never collide; only a decision with more than
   :data:`HASHED_SLOTS` ids outside the vocabulary raises :class:`ActionCollision`.

Both parts depend only on the ruleset's text and the decision, so the numbers are the same
in every process and every run.  Every id of the vocabulary, and every hashed id that did
not have to probe, has one number in every decision.

>>> import rulecraft
>>> index = ActionIndex.for_ruleset(rulecraft.load("tictactoe"))
>>> index.index("act:place:b2") == index.index("act:place:b2")
True
>>> index.size > len(index.vocabulary)
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from rulecraft.runtime import ids

#: Size of the hashed tail of every action space.
HASHED_SLOTS = 1024
#: Positions per zone the vocabulary holds (hidden cards are offered by position).
SLOTS_PER_ZONE = 16
#: The numbered choices (``opt1`` ...) the vocabulary holds; later ones are hashed.
MAX_CHOICES = 16
#: The numbers an action over a collection may target in the vocabulary (``act:bid:0`` ..
#: ``act:bid:15``); an action over other numbers gets hashed ids.
NUMBER_TARGETS = 16
FIXED_WORDS = (ids.PASS, ids.DONE, ids.YES, ids.NO, ids.ROLL)


class ActionCollision(ValueError):
    """Two legal options of one decision were given the same action number."""


@dataclass(frozen=True)
class ActionIndex:
    """Option ids <-> action numbers for one ruleset (see the module docstring)."""

    ruleset: str
    vocabulary: tuple[str, ...]
    hashed_slots: int = HASHED_SLOTS
    _numbers: dict[str, int] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self._numbers:
            self._numbers.update((word, i) for i, word in enumerate(self.vocabulary))
        if len(self._numbers) != len(self.vocabulary):
            raise ValueError("the vocabulary holds an id twice")

    @classmethod
    def for_ruleset(cls, ruleset: Any) -> ActionIndex:
        """The index of a loaded :class:`~rulecraft.runtime.game.Ruleset`."""
        prog = ruleset.program
        state = ruleset.new_game(players=prog.max_players, seed=0).state
        components = {cid: state["comps"][cid]["d"] for cid in sorted(state["comps"])}
        zones = [key for key in state["zones"] if ids.is_zone(key)]
        return cls(prog.name, tuple(_vocabulary(prog, components, zones)))

    @property
    def size(self) -> int:
        """How many action numbers there are."""
        return len(self.vocabulary) + self.hashed_slots

    def index(self, option_id: str) -> int:
        """The action number of ``option_id`` when no other option of its decision holds
        it (see :meth:`legal` for a whole decision)."""
        number = self._numbers.get(option_id)
        if number is not None:
            return number
        digest = hashlib.blake2b(option_id.encode("utf-8"), digest_size=8).digest()
        return len(self.vocabulary) + int.from_bytes(digest, "big") % self.hashed_slots

    def legal(self, option_ids: Sequence[str]) -> dict[int, str]:
        """Action number -> option id for one decision's options, in option order: a
        hashed id whose number is taken probes to the next free one of the tail."""
        out: dict[int, str] = {}
        base = len(self.vocabulary)
        for option_id in option_ids:
            number = self.index(option_id)
            if number in out and number < base:
                raise ActionCollision(f"{self.ruleset}: option {option_id!r} offered twice")
            probes = 0
            while number in out:
                probes += 1
                if probes >= self.hashed_slots:
                    raise ActionCollision(
                        f"{self.ruleset}: a decision offers more than {self.hashed_slots} "
                        f"options outside the vocabulary (at {option_id!r})"
                    )
                number = base + (number - base + 1) % self.hashed_slots
            out[number] = option_id
        return out

    def mask(self, legal: Iterable[int]) -> npt.NDArray[np.int8]:
        """An ``int8`` vector of :attr:`size` with 1 at every legal action number."""
        vector = np.zeros(self.size, dtype=np.int8)
        for number in legal:
            vector[number] = 1
        return vector


def _vocabulary(prog: Any, components: dict[str, str], zones: Sequence[str]) -> list[str]:
    """The enumerated ids, in the documented order (no duplicates)."""
    spaces = list(prog.map.spaces) if prog.map is not None else []
    seats = [ids.player_id(s) for s in range(prog.max_players)]
    words: list[str] = [*FIXED_WORDS, *seats]
    words += [ids.choice_option(i) for i in range(MAX_CHOICES)]
    words += spaces + list(components)
    targets = [*components, *spaces, *seats, *(str(n) for n in range(NUMBER_TARGETS))]
    for name, action in prog.actions.items():
        if action.for_collection is None:
            words.append(ids.action_option(name))
        else:
            words += [ids.action_option(name, target) for target in targets]
    for cid, definition in components.items():
        abilities = prog.abilities.get(definition, ())
        words += [ids.ability_option(cid, ability.index) for ability in abilities]
    words += [ids.position_id(key, i) for key in zones for i in range(SLOTS_PER_ZONE)]
    seen: set[str] = set()
    unique = []
    for word in words:
        if word not in seen:
            seen.add(word)
            unique.append(word)
    return unique

"""A fixed-size numeric observation of one seat's view.

:class:`ObservationEncoder` turns :meth:`Game.view(seat) <rulecraft.runtime.game.Game.view>`
(the same view the REPL shows that seat, so it holds nothing the seat may not see) into a
``float32`` vector whose length and layout depend only on the ruleset.  The layout, in order
(``P`` is the ruleset's largest player count):

============================  =====================================================
section                        floats
============================  =====================================================
``seat``                       ``P``: one-hot of the observing seat
``to_move``                    ``P``: one-hot of the seat that decides (all 0 at the end)
``clock``                      2: turn and round
``phase``                      one per phase: one-hot of the current phase
``resources``                  ``P`` x one per resource name (sorted): each seat's amount
``globals``                    one per game variable of a new game (sorted): its value
``zone_counts``                one per zone of a ``P``-player game: how many cards lie there
``components``                 5 per component (sorted ids): visible (1/0), place (1 +
                               index of its zone among the zones above, then the map's
                               spaces; 0 when not visible), position in that place,
                               exhausted (1/0), sum of its counters
============================  =====================================================

A card the seat cannot see contributes zeros to ``components`` and only to its zone's
count, so two games that differ in what the seat cannot see give the same vector.  Values
are clipped to ``[-LIMIT, LIMIT]`` (:data:`LIMIT`), the bounds of the observation space.
:meth:`ObservationEncoder.sections` names the slices, for agents that want to cut them.

>>> import rulecraft
>>> game = rulecraft.load("tictactoe").new_game(seed=1)
>>> encoder = ObservationEncoder.for_ruleset(game.ruleset)
>>> encoder.encode(game.view(0), to_move=0).shape == (encoder.size,)
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from rulecraft.runtime import ids

#: Every observed value is clipped to [-LIMIT, LIMIT].
LIMIT = 1_000_000.0
COMPONENT_FEATURES = 5


@dataclass(frozen=True)
class ObservationEncoder:
    """The fixed layout of one ruleset's observations (see the module docstring)."""

    max_players: int
    phases: tuple[str, ...]
    resources: tuple[str, ...]
    globals: tuple[str, ...]
    zones: tuple[str, ...]
    spaces: tuple[str, ...]
    components: tuple[str, ...]
    _places: dict[str, int] = field(default_factory=dict, repr=False, compare=False)
    _components: dict[str, int] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        places = [*self.zones, *(ids.space_id(space) for space in self.spaces)]
        self._places.update((key, i + 1) for i, key in enumerate(places))
        self._components.update((cid, i) for i, cid in enumerate(self.components))

    @classmethod
    def for_ruleset(cls, ruleset: Any) -> ObservationEncoder:
        """The layout of a loaded ruleset, read from a new game at its largest player
        count."""
        prog = ruleset.program
        state = ruleset.new_game(players=prog.max_players, seed=0).state
        return cls(
            max_players=prog.max_players,
            phases=tuple(phase.name for phase in prog.phases),
            resources=tuple(sorted({name for res in state["res"] for name in res})),
            globals=tuple(sorted(state["gvars"])),
            zones=tuple(key for key in state["zones"] if ids.is_zone(key)),
            spaces=tuple(prog.map.spaces) if prog.map is not None else (),
            components=tuple(sorted(state["comps"])),
        )

    def sections(self) -> dict[str, slice]:
        """Name -> slice of the vector, in layout order."""
        p = self.max_players
        sizes = {
            "seat": p,
            "to_move": p,
            "clock": 2,
            "phase": len(self.phases),
            "resources": p * len(self.resources),
            "globals": len(self.globals),
            "zone_counts": len(self.zones),
            "components": COMPONENT_FEATURES * len(self.components),
        }
        out: dict[str, slice] = {}
        start = 0
        for name, size in sizes.items():
            out[name] = slice(start, start + size)
            start += size
        return out

    @property
    def size(self) -> int:
        """The length of every observation vector."""
        return int(self.sections()["components"].stop)

    def encode(self, view: dict[str, Any], to_move: int | None) -> npt.NDArray[np.float32]:
        """The vector of ``view`` (a seat's view), ``to_move`` being the deciding seat."""
        out = np.zeros(self.size, dtype=np.float32)
        cut = self.sections()
        out[cut["seat"].start + int(view["seat"])] = 1.0
        if to_move is not None:
            out[cut["to_move"].start + to_move] = 1.0
        out[cut["clock"]] = (float(view["turn"]), float(view["round"]))
        if view["phase"] in self.phases:
            out[cut["phase"].start + self.phases.index(view["phase"])] = 1.0
        self._encode_numbers(view, out, cut)
        self._encode_places(view, out, cut)
        np.clip(out, -LIMIT, LIMIT, out=out)
        return out

    def _encode_numbers(
        self, view: dict[str, Any], out: npt.NDArray[np.float32], cut: dict[str, slice]
    ) -> None:
        width = len(self.resources)
        for player in view["players"]:
            base = cut["resources"].start + int(player["seat"]) * width
            for i, name in enumerate(self.resources):
                out[base + i] = _number(player["resources"].get(name))
        for i, name in enumerate(self.globals):
            out[cut["globals"].start + i] = _number(view["globals"].get(name))

    def _encode_places(
        self, view: dict[str, Any], out: npt.NDArray[np.float32], cut: dict[str, slice]
    ) -> None:
        counts = cut["zone_counts"].start
        for zone in view["zones"]:
            place = self._places.get(zone["key"])
            if place is None:
                continue
            out[counts + place - 1] = float(zone["count"])
            for position, card in enumerate(zone["cards"]):
                self._encode_card(card, place, position, out, cut)
        if view.get("map") is not None:
            for space in view["map"]["spaces"]:
                place = self._places.get(ids.space_id(space["id"]))
                for position, piece in enumerate(space["pieces"]):
                    if place is not None:
                        self._encode_card(piece, place, position, out, cut)

    def _encode_card(
        self,
        card: dict[str, Any],
        place: int,
        position: int,
        out: npt.NDArray[np.float32],
        cut: dict[str, slice],
    ) -> None:
        index = self._components.get(str(card.get("id")))
        if card.get("hidden") or index is None:
            return  # the seat does not know which card this is: only the count tells
        base = cut["components"].start + COMPONENT_FEATURES * index
        counters = card.get("counters") or {}
        out[base : base + COMPONENT_FEATURES] = (
            1.0,
            float(place),
            float(position),
            1.0 if card.get("exhausted") else 0.0,
            float(sum(_number(v) for v in counters.values())),
        )


def _number(value: Any) -> float:
    """A view value as a number: numbers and flags as they are, anything else 0."""
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int | float):
        return float(value)
    return 0.0

"""A small fake game honouring the ``Game`` contract, for the REPL's tests.

"Stash and score": each seat holds a hidden hand dealt from its own hidden deck.  On its
turn a seat plays a numbered card to the public table (score += value), stashes any hand
card face down in its hidden vault (coins += 1), draws, gambles (a d6 roll: 4+ gives
score 2; the roll is a second decision so ``odds()`` has something pending), or passes.
After ``rounds`` rounds, or once a score reaches ``target``, the highest score wins.

Each seat's deck holds two ``SECRET-P<n>-<k>`` cards that can only ever be stashed, so
another seat can never legitimately see their names: the tests' hidden-card sentinel.
The state is replayed from the seed and the choices, which makes undo, clone, to_json and
from_json exact by construction.
"""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass
from typing import Any

from rulecraft.repl.glyphs import GlyphTable
from rulecraft.rng import Rng, randbelow, shuffled
from rulecraft.runtime.decision import Decision, Option, Result

COLOURS = ("Ember", "Frost", "Moss", "Slate")
SECRET_PREFIX = "SECRET-P"
SECRET_TEXT = "SECRET-TEXT"


@dataclass(frozen=True)
class CardDef:
    id: str
    name: str
    kind: str
    value: int
    text: str


def _cards_for(seat: int) -> list[CardDef]:
    colour = COLOURS[seat % len(COLOURS)]
    cards = [
        CardDef(f"c{seat + 1}{v}", f"{colour} {v}", "number", v, f"Scores {v}.")
        for v in range(1, 5)
    ]
    cards += [
        CardDef(
            f"c{seat + 1}s{k}",
            f"{SECRET_PREFIX}{seat + 1}-{k}",
            "secret",
            0,
            f"{SECRET_TEXT} {seat + 1}-{k}",
        )
        for k in (1, 2)
    ]
    return cards


class FakeGame:
    """The fake game; ``map_kind`` picks the map drawn in the view."""

    def __init__(
        self,
        players: int = 2,
        seed: int = 0,
        lang: str = "en",
        *,
        rounds: int = 3,
        target: int = 8,
        map_kind: str | None = "square",
        choices: list[str] | None = None,
    ) -> None:
        self.players, self.seed, self.lang = players, seed, lang
        self.rounds, self.target, self.map_kind = rounds, target, map_kind
        self.catalog = {c.id: c for s in range(players) for c in _cards_for(s)}
        self._reset()
        for choice in choices or []:
            self.choose(choice)

    # -- state -------------------------------------------------------------------------

    def _reset(self) -> None:
        rng = Rng(self.seed)
        self.decks: list[list[str]] = []
        self.hands: list[list[str]] = []
        for seat in range(self.players):
            deck, rng = shuffled(rng, [c.id for c in _cards_for(seat)])
            self.hands.append(deck[:3])
            self.decks.append(deck[3:])
        self.rng = rng
        self.table: list[str] = []
        self.vaults: list[list[str]] = [[] for _ in range(self.players)]
        self.coins = [0] * self.players
        self.score = [0] * self.players
        self.active = 0
        self._turn, self._round = 1, 1
        self.gambling = False
        self.choices: list[str] = []
        # (audience, text): -1 for everyone; a seat's private line is followed by its
        # public twin, as in the engine ("draws Ember 2" / "draws a card").
        self._log: list[tuple[int, str]] = []
        self._result: Result | None = None

    @property
    def num_players(self) -> int:
        return self.players

    @property
    def seat_names(self) -> list[str]:
        word = "Spieler" if self.lang == "de" else "Player"
        return [f"{word} {s + 1}" for s in range(self.players)]

    @property
    def turn(self) -> int:
        return self._turn

    @property
    def round(self) -> int:
        return self._round

    @property
    def max_decisions(self) -> int:
        return self.rounds * self.players * 40

    @property
    def log(self) -> list[str]:
        """Every line, private ones included: the all-seeing log (never for a seat)."""
        return [text for _, text in self._log]

    def log_for(self, seat: int) -> list[str]:
        out: list[str] = []
        skip_twin = False
        for audience, text in self._log:
            if audience == -1:
                if not skip_twin:
                    out.append(text)
                skip_twin = False
            elif audience == seat:
                out.append(text)
                skip_twin = True
        return out

    def _say(self, text: str, private: tuple[int, str] | None = None) -> None:
        if private is not None:
            self._log.append(private)
        self._log.append((-1, text))

    @property
    def result(self) -> Result | None:
        return self._result

    @property
    def decision(self) -> Decision | None:
        if self._result is not None:
            return None
        seat = self.active
        if self.gambling:
            return Decision(
                seat,
                "Roll the die?" if self.lang == "en" else "Würfeln?",
                (Option("roll", "Roll"), Option("back", "Back off")),
            )
        opts: list[Option] = []
        for cid in self.hands[seat]:
            card = self.catalog[cid]
            if card.kind == "number":
                opts.append(Option(f"play:{cid}", f"Play {card.name}"))
        for cid in self.hands[seat]:
            opts.append(Option(f"stash:{cid}", f"Stash {self.catalog[cid].name}"))
        if self.decks[seat]:
            opts.append(Option("draw", "Draw a card"))
        opts.append(Option("gamble", "Gamble (roll a d6)"))
        opts.append(Option("pass", "Pass"))
        prompt = "Choose an action" if self.lang == "en" else "Wähle eine Aktion"
        return Decision(seat, prompt, tuple(opts))

    # -- moves -------------------------------------------------------------------------

    def choose(self, option_id: str) -> None:
        decision = self.decision
        if decision is None or option_id not in decision.ids:
            raise ValueError(f"illegal choice {option_id!r}")
        self.choices.append(option_id)
        seat, who = self.active, f"Seat {self.active + 1}"
        verb, _, cid = option_id.partition(":")
        if verb == "play":
            self.hands[seat].remove(cid)
            self.table.append(cid)
            self.score[seat] += self.catalog[cid].value
            self._say(f"{who} plays {self.catalog[cid].name}.")
        elif verb == "stash":
            self.hands[seat].remove(cid)
            self.vaults[seat].append(cid)
            self.coins[seat] += 1
            self._say(f"{who} stashes a card.", (seat, f"{who} stashes {self.catalog[cid].name}."))
        elif verb == "draw":
            drawn = self.decks[seat].pop(0)
            self.hands[seat].append(drawn)
            self._say(f"{who} draws a card.", (seat, f"{who} draws {self.catalog[drawn].name}."))
        elif verb == "gamble":
            self.gambling = True
            self._say(f"{who} considers a gamble.")
            return
        elif verb == "back":
            self.gambling = False
            return
        elif verb == "roll":
            self.gambling = False
            die, self.rng = randbelow(self.rng, 6)
            gain = 2 if die + 1 >= 4 else 0
            self.score[seat] += gain
            self._say(f"{who} rolls {die + 1}: +{gain} score.")
        else:
            self._say(f"{who} passes.")
        self._end_turn()

    def _end_turn(self) -> None:
        if max(self.score) >= self.target or (
            self.active == self.players - 1 and self._round >= self.rounds
        ):
            best = max(self.score)
            winners = tuple(s for s in range(self.players) if self.score[s] == best)
            reason = "target reached" if best >= self.target else "last round played"
            self._result = Result(winners, draw=len(winners) > 1, reason=reason)
            self._say("The game ends.")
            return
        self.active = (self.active + 1) % self.players
        self._turn += 1
        if self.active == 0:
            self._round += 1

    @property
    def can_undo(self) -> bool:
        return bool(self.choices)

    def undo(self, steps: int = 1) -> None:
        if steps < 1 or steps > len(self.choices):
            raise ValueError(f"cannot undo {steps} decisions")
        kept = self.choices[:-steps]
        self._reset()
        for choice in kept:
            self.choose(choice)

    def clone(self) -> FakeGame:
        return copy.deepcopy(self)

    def determinize(self, seat: int, seed: int) -> FakeGame:
        return self.clone()

    def evaluate(self, seat: int) -> float:
        return float(self.score[seat] - max(self.score))

    def odds(self) -> str | None:
        return "d6 roll of 4+: 1/2 (50.0%)" if self.gambling else None

    def option_odds(self) -> list[Any]:
        return []  # the fake's roll is a decision of its own: odds() tells it

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": "fakegame",
            "players": self.players,
            "seed": self.seed,
            "lang": self.lang,
            "rounds": self.rounds,
            "target": self.target,
            "map_kind": self.map_kind,
            "choices": list(self.choices),
        }

    @classmethod
    def from_json(cls, ruleset: object, data: dict[str, Any]) -> FakeGame:
        try:
            if data["ruleset"] != "fakegame":
                raise ValueError("not a fakegame state")
            choices = data["choices"]
            if not isinstance(choices, list) or not all(isinstance(c, str) for c in choices):
                raise ValueError("choices must be a list of strings")
            return cls(
                int(data["players"]),
                int(data["seed"]),
                str(data["lang"]),
                rounds=int(data["rounds"]),
                target=int(data["target"]),
                map_kind=data["map_kind"],
                choices=choices,
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"bad fakegame state: {exc!r}") from exc

    def state_hash(self) -> str:
        return hashlib.sha256(json.dumps(self.to_json()).encode()).hexdigest()

    # -- what a seat sees ----------------------------------------------------------------

    def _card_json(self, cid: str) -> dict[str, Any]:
        card = self.catalog[cid]
        return {
            "id": card.id,
            "name": card.name,
            "kind": card.kind,
            "side": None,
            "exhausted": False,
            "counters": {},
            "flags": [],
            "text": card.text,
            "props": {"value": card.value, "dice": ""} if card.kind == "number" else {},
        }

    def _zone(
        self, key: str, name: str, owner: int | None, visibility: str, cards: list[str], seat: int
    ) -> dict[str, Any]:
        visible = visibility == "public" or (visibility == "owner" and owner == seat)
        return {
            "key": key,
            "name": name,
            "owner": owner,
            "visibility": visibility,
            "count": len(cards),
            "cards": [self._card_json(c) if visible else {"hidden": True} for c in cards],
        }

    def _visible_ids(self, seat: int) -> list[str]:
        return list(self.hands[seat]) + list(self.table)

    def describe(self, name_or_id: str, seat: int) -> str | None:
        wanted = name_or_id.strip().lower()
        for cid in self._visible_ids(seat):
            card = self.catalog[cid]
            if wanted in (card.id.lower(), card.name.lower()):
                return f"{card.name} ({card.kind}): {card.text}"
        return None

    def _map(self) -> dict[str, Any] | None:
        if self.map_kind is None:
            return None
        width, height = 4, 2
        spaces = []
        for y in range(height):
            for x in range(width):
                pos = y * width + x
                pieces = [
                    {"id": f"pawn{s + 1}", "name": "P", "owner": s}
                    for s in range(self.players)
                    if min(self.score[s], width * height - 1) == pos
                ]
                space: dict[str, Any] = {
                    "id": f"s{pos}",
                    "terrain": "hill" if pos == 5 else None,
                    "pieces": pieces,
                }
                if self.map_kind == "graph":
                    space["adjacent"] = [f"s{p}" for p in (pos - 1, pos + 1) if 0 <= p < 8]
                else:
                    space.update(x=x, y=y)
                spaces.append(space)
        board: dict[str, Any] = {"kind": self.map_kind, "spaces": spaces}
        if self.map_kind != "graph":
            board.update(width=width, height=height)
        return board

    def view(self, seat: int) -> dict[str, Any]:
        zones = []
        for s in range(self.players):
            zones.append(self._zone(f"deck:{s}", f"Deck {s + 1}", s, "hidden", self.decks[s], seat))
            zones.append(self._zone(f"hand:{s}", f"Hand {s + 1}", s, "owner", self.hands[s], seat))
            zones.append(
                self._zone(f"vault:{s}", f"Vault {s + 1}", s, "hidden", self.vaults[s], seat)
            )
        zones.append(self._zone("table", "Table", None, "public", self.table, seat))
        result = self._result
        return {
            "ruleset": "fakegame",
            "title": "Stash and Score",
            "seat": seat,
            "turn": self._turn,
            "round": self._round,
            "active": None if result else self.active,
            "phase": "gamble" if self.gambling else "main",
            "players": [
                {
                    "seat": s,
                    "name": self.seat_names[s],
                    "resources": {"coins": self.coins[s], "score": self.score[s]},
                    "flags": ["active"] if s == self.active and not result else [],
                }
                for s in range(self.players)
            ],
            "zones": zones,
            "map": self._map(),
            "globals": {"target": self.target, "rounds": self.rounds},
            "result": None
            if result is None
            else {"winners": list(result.winners), "draw": result.draw, "reason": result.reason},
        }


class FakeSource:
    """The fake ruleset: starts and restores :class:`FakeGame` s."""

    def __init__(self, **options: Any) -> None:
        self.options = options

    @property
    def name(self) -> str:
        return "fakegame"

    def new_game(self, players: int | None, seed: int, lang: str | None) -> FakeGame:
        return FakeGame(players or 2, seed, lang or "en", **self.options)

    def restore(self, data: dict[str, Any]) -> FakeGame:
        return FakeGame.from_json(None, data)

    def glyph_table(self) -> GlyphTable:
        # Seat 1's pawn is drawn as "A", seat 2's as "B"; other seats get a code.
        return GlyphTable({"pawn": ("A", "B")}, {"pawn1": "pawn", "pawn2": "pawn"})

    def default_lang(self) -> str | None:
        return "en"

    def pool_fields(self, game: Any, card_id: str) -> dict[str, dict[str, int]]:
        # The fake view writes a number card's "dice" as "" (as the engine's view writes a
        # pool): the real pool comes from here.
        card = game.catalog.get(card_id)
        return {"dice": {"green": card.value}} if card and card.kind == "number" else {}


def make_source(ruleset: str | None) -> FakeSource:
    """The ``--game-factory`` entry the CLI tests use (``repl.fakegame:make_source``)."""
    return FakeSource()


class FirstOptionAgent:
    """A deterministic bot: always the first option (which, for a seat holding a secret
    card, is often "Stash SECRET-..." on later turns: its label must never be printed)."""

    def __init__(self, spec: str = "first", seed: int = 0) -> None:
        self.name = spec

    def choose(self, game: Any) -> str:
        decision = game.decision
        assert decision is not None
        option_id: str = decision.options[0].id
        return option_id


class LastSecretStashAgent:
    """A bot that stashes a secret card when it can (so the vault holds hidden names),
    else draws (to find one), else passes."""

    def __init__(self, spec: str = "stasher", seed: int = 0) -> None:
        self.name = spec

    def choose(self, game: Any) -> str:
        decision = game.decision
        assert decision is not None
        for option in decision.options:
            if option.id.startswith("stash:") and "s" in option.id.partition(":")[2][2:]:
                return str(option.id)
        for wanted in ("draw", "pass"):
            if wanted in decision.ids:
                return wanted
        return str(decision.options[0].id)

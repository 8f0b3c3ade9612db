"""Any ruleset as an OpenSpiel Python game (``rulecraft.openspiel``).

>>> import pyspiel
>>> from rulecraft.openspiel import register
>>> register("tictactoe")
'rulecraft_tictactoe'
>>> game = pyspiel.load_game("rulecraft_tictactoe")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 16)

:func:`register` registers a ruleset under the short name ``rulecraft_<name>`` with the
parameters ``players`` (default: the ruleset's default) and ``seeds`` (default 16).

**Chance.** A rulecraft game draws every random number (shuffles, dice, random picks) from
one seeded stream in its state, and the engine does not stop at each draw.  So chance
comes where a step draws: the game begins with a chance node whose ``seeds`` outcomes,
equally likely, pick the seed of the setup (its shuffles and deals); and every decision
whose answer draws random numbers (a roll, a shuffle, a random pick: found by playing it
on a copy and comparing the stream's position) is followed by a chance node whose
``seeds`` outcomes pick the stream that step draws from, before the answer is played.  No
state holds the randomness of a later step, so a search from a state (OpenSpiel's MCTS,
expectimax) cannot see the next roll.  Each chance node is exact for "the step's stream
is one of ``seeds`` equally likely streams": a die's faces come with probabilities that
are multiples of ``1/seeds``, not exactly uniform (a larger ``seeds`` comes closer).

**Imperfect information.** ``information_state_string(p)`` is seat ``p``'s log (what it was
told, hidden cards unnamed) and its current view as JSON; ``observation_string(p)`` is the
view alone; ``observation_tensor(p)`` is the fixed-size encoding of
:mod:`rulecraft.envs.encoding`.  Actions are numbered by :mod:`rulecraft.envs.actions`.

**Returns.** +1 for each winner (every winner of a co-op win), -1 for each seat that did not
win, 0 for all in a draw or when the game reaches ``max_decisions`` (the game's length
bound: it then ends as a draw).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from rulecraft.envs.actions import ActionIndex
from rulecraft.envs.aec import _ruleset_layout
from rulecraft.envs.encoding import ObservationEncoder
from rulecraft.rng import mix64
from rulecraft.runtime.game import Game

DEFAULT_SEEDS = 16
_STREAM_BASE = 0x5EED_0000_0000
_FACTORIES: dict[str, type[RulecraftSpielGame]] = {}


def short_name(ruleset: str) -> str:
    """The OpenSpiel name of a ruleset: ``rulecraft_<name>``."""
    return f"rulecraft_{ruleset}"


def register(name: str) -> str:
    """Register the ruleset ``name`` (bundled name or path) with OpenSpiel (once per
    process) and return its short name for ``pyspiel.load_game``."""
    ruleset = _ruleset_layout(name)[0]
    prog = ruleset.program
    short = short_name(prog.name)
    if short in pyspiel.registered_names():
        return short
    game_type = pyspiel.GameType(
        short_name=short,
        long_name=f"rulecraft {ruleset.title()}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=prog.max_players,
        min_num_players=prog.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": prog.default_players, "seeds": DEFAULT_SEEDS},
    )

    # A class, not a closure, is registered: OpenSpiel keeps the factory in a C++ static
    # that is destroyed after the interpreter, and freeing a closure there aborts the
    # process; a class lives until then (measured: a closure made every exit abort).
    factory = type(
        f"RulecraftSpielGame_{prog.name}",
        (RulecraftSpielGame,),
        {"ruleset_name": name, "game_type": game_type},
    )
    _FACTORIES[short] = factory
    pyspiel.register_game(game_type, factory)
    return short


class RulecraftSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A ruleset as an OpenSpiel game (see the module docstring)."""

    ruleset_name: str = ""
    game_type: Any = None

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        # Only plain values live on the object: OpenSpiel pickles games and states, and
        # a compiled ruleset (closures) does not pickle; it comes from a per-process cache.
        params = params or {}
        self.name = self.ruleset_name
        prog = self.ruleset.program
        self.players = int(params.get("players", prog.default_players))
        self.seeds = int(params.get("seeds", DEFAULT_SEEDS))
        if not prog.min_players <= self.players <= prog.max_players:
            raise ValueError(
                f"{prog.name} is for {prog.min_players}-{prog.max_players} players, "
                f"not {self.players}"
            )
        if self.seeds < 1:
            raise ValueError("seeds must be >= 1")
        info = pyspiel.GameInfo(
            num_distinct_actions=self.action_index.size,
            max_chance_outcomes=self.seeds,
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            # every decision may be followed by its chance node, and the setup has one
            max_game_length=2 * prog.max_decisions + 1,
        )
        super().__init__(self.game_type, info, {"players": self.players, "seeds": self.seeds})

    @property
    def ruleset(self) -> Any:
        return _ruleset_layout(self.name)[0]

    @property
    def action_index(self) -> ActionIndex:
        return _ruleset_layout(self.name)[1]

    @property
    def encoder(self) -> ObservationEncoder:
        return _ruleset_layout(self.name)[2]

    def new_initial_state(self) -> RulecraftSpielState:
        return RulecraftSpielState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> ViewObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return ViewObserver(self.encoder.size, perfect_recall)


def stream_seed(outcome: int) -> int:
    """The seed of the random stream a mid-game chance outcome picks (64 bits, apart from
    the small seeds of the setup's chance node)."""
    return mix64(_STREAM_BASE + outcome)


class _Play:
    """The rulecraft game inside a state: copied cheaply (state, log and choices are plain
    data; the compiled ruleset is shared) and pickled as plain data."""

    def __init__(self, name: str, game: Game) -> None:
        self.name = name
        self.game = game

    def _data(self) -> dict[str, Any]:
        saved = self.game.to_json()  # a copy: state, log and choices as plain data
        return {
            "name": self.name,
            "state": saved["state"],
            "log": [(int(audience), str(text)) for audience, text in saved["log"] or []],
            "choices": list(saved["choices"]),
        }

    def choose_unless_random(self, option_id: str) -> bool:
        """Play ``option_id`` and return True, unless playing it draws random numbers:
        then leave the game as it was and return False."""
        before = self._data()
        self.game.choose(option_id)
        if self.game.state["rng"] == before["state"]["rng"]:
            return True
        self.__setstate__(before)
        return False

    def choose_with_stream(self, option_id: str, outcome: int) -> None:
        """Play ``option_id`` with its random draws taken from the stream ``outcome``."""
        self.game.state["rng"] = [stream_seed(outcome), 0]
        self.game.choose(option_id)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Play:
        copy = _Play.__new__(_Play)
        copy.__setstate__(self._data())
        return copy

    def __getstate__(self) -> dict[str, Any]:
        return self._data()

    def __setstate__(self, data: dict[str, Any]) -> None:
        ruleset = _ruleset_layout(data["name"])[0]
        self.name = data["name"]
        self.game = Game(ruleset, data["state"], None, data["log"], data["choices"])


class RulecraftSpielState(pyspiel.State):  # type: ignore[misc]
    """One position: before the setup's seed is drawn (a chance node), a rulecraft game
    waiting for a decision, or a chosen action waiting for its random stream (a chance
    node)."""

    def __init__(self, game: RulecraftSpielGame) -> None:
        super().__init__(game)
        # plain values only (see RulecraftSpielGame.__init__)
        self._name = game.name
        self._players = game.players
        self._seeds = game.seeds
        self._play: _Play | None = None
        self._decisions = 0
        #: (seat, action number) chosen and not played yet: it draws random numbers
        self._waiting: tuple[int, int] | None = None
        #: (decisions before it, outcome) of every mid-game chance node so far
        self._streams: list[tuple[int, int]] = []

    # ------------------------------------------------------------------ the game tree
    def current_player(self) -> int:
        if self._play is None or self._waiting is not None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        pending = self._play.game.pending_ids()
        assert pending is not None
        return int(pending[0])

    def is_terminal(self) -> bool:
        if self._play is None or self._waiting is not None:
            return False
        game = self._play.game
        return bool(
            game.result is not None
            or game.pending_ids() is None
            or self._decisions >= game.max_decisions
        )

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self._play is None or self._waiting is not None
        p = 1.0 / self._seeds
        return [(seed, p) for seed in range(self._seeds)]

    def _legal_actions(self, player: int) -> list[int]:
        if self.is_chance_node() or self.is_terminal() or player != self.current_player():
            return []
        return sorted(self._legal_now())

    def _legal_now(self) -> dict[int, str]:
        assert self._play is not None
        pending = self._play.game.pending_ids()
        return {} if pending is None else _ruleset_layout(self._name)[1].legal(pending[1])

    def _apply_action(self, action: int) -> None:
        if self._play is None:
            game = _ruleset_layout(self._name)[0].new_game(players=self._players, seed=int(action))
            self._play = _Play(self._name, game)
            return
        if self._waiting is not None:
            chosen = self._legal_now()[self._waiting[1]]
            self._streams.append((self._decisions, int(action)))
            self._play.choose_with_stream(chosen, int(action))
            self._waiting = None
            self._decisions += 1
            return
        legal = self._legal_now()
        if action not in legal:
            raise ValueError(f"action {action} is not legal here")
        if self._play.choose_unless_random(legal[action]):
            self._decisions += 1
        else:
            self._waiting = (self.current_player(), int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed:{action}" if self._play is None else f"stream:{action}"
        if self._play is not None and not self.is_terminal() and self._waiting is None:
            legal = self._legal_now()
            if action in legal:
                return legal[action]
        return f"action:{action}"

    def returns(self) -> list[float]:
        players = self._players
        if self._play is None or not self.is_terminal():
            return [0.0] * players
        result = self._play.game.result
        if result is None or result.draw:
            return [0.0] * players
        return [1.0 if seat in result.winners else -1.0 for seat in range(players)]

    # ------------------------------------------------------------------ what a seat knows
    def information_state_string(self, player: int) -> str:
        if self._play is None:
            return f"seat {player + 1}: before the deal"
        log = "\n".join(self._play.game.log_for(player))
        return f"{log}\n{self.observation_string(player)}{self._waiting_line(player)}"

    def _waiting_line(self, player: int) -> str:
        """What a seat knows of an answer waiting for its chance node: the seat that
        chose knows its choice, the others only that a choice was made."""
        if self._waiting is None:
            return ""
        seat, action = self._waiting
        if seat == player:
            return f"\nyou chose {self._legal_now()[action]}; chance decides"
        return f"\nseat {seat + 1} chose; chance decides"

    def observation_string(self, player: int) -> str:
        if self._play is None:
            return f"seat {player + 1}: before the deal"
        return json.dumps(self._play.game.view(player), sort_keys=True, ensure_ascii=False)

    def observation_vector(self, player: int) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The fixed-size encoding of ``player``'s view (zeros before the deal)."""
        encoder = _ruleset_layout(self._name)[2]
        if self._play is None:
            return np.zeros(encoder.size, dtype=np.float32)
        pending = self._play.game.pending_ids()
        return encoder.encode(self._play.game.view(player), None if pending is None else pending[0])

    def __str__(self) -> str:
        if self._play is None:
            return "before the deal"
        record = self._play.game.record.to_json()
        record["streams"] = self._streams
        record["waiting"] = self._waiting
        return json.dumps(record, sort_keys=True)


class ViewObserver:
    """OpenSpiel's observer interface over a seat's view: the tensor is the fixed-size
    encoding; the string is the view (with the seat's log when ``perfect_recall``)."""

    def __init__(self, size: int, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(size, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: RulecraftSpielState, player: int) -> None:
        self.tensor[:] = state.observation_vector(player)

    def string_from(self, state: RulecraftSpielState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state_string(player)
        return state.observation_string(player)

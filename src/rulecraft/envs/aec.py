"""Any ruleset as a PettingZoo AEC environment (``rulecraft.pettingzoo.env``).

>>> from rulecraft.pettingzoo import env
>>> e = env("tictactoe", seed=1)
>>> e.reset()
>>> e.agents
['player_1', 'player_2']
>>> observation, reward, terminated, truncated, info = e.last()
>>> int(observation["action_mask"].sum()), info["option_ids"][0]
(9, 'act:place:a1')

Agents are named ``player_1`` ... ``player_N`` (seat ``s`` is ``player_{s+1}``, as the REPL
numbers seats).  The agent to act is the seat of the pending decision.  Each observation is
``{"observation": float32 vector, "action_mask": int8 vector}``: the vector encodes the
seat's own view (:mod:`rulecraft.envs.encoding`), the mask marks the legal action numbers
(:mod:`rulecraft.envs.actions`); ``info["option_ids"]`` lists the acting seat's legal option
ids and ``info["actions"]`` maps their numbers back.  At the end every seat gets its reward
once: +1 for a winner (every winner of a co-op win), -1 for a seat that did not win, 0 for
all in a draw.  A game that reaches the ruleset's ``max_decisions`` is truncated.
"""

from __future__ import annotations

import functools
from io import StringIO
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from rulecraft.envs.actions import ActionIndex
from rulecraft.envs.encoding import LIMIT, ObservationEncoder


def agent_name(seat: int) -> str:
    """The PettingZoo name of a seat: ``player_1`` for seat 0."""
    return f"player_{seat + 1}"


@functools.cache
def _ruleset_layout(name: str) -> tuple[Any, ActionIndex, ObservationEncoder]:
    # one load and one layout per ruleset and process: both are read-only
    from rulecraft.compile.load import load

    ruleset = load(name)
    return ruleset, ActionIndex.for_ruleset(ruleset), ObservationEncoder.for_ruleset(ruleset)


class RulecraftAECEnv(AECEnv[str, dict[str, npt.NDArray[Any]], int]):  # type: ignore[misc]
    """A PettingZoo AEC environment playing one ruleset (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "rulecraft_v0",
        "render_modes": ["human", "ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        name: str,
        players: int | None = None,
        seed: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.ruleset, self.action_index, self.encoder = _ruleset_layout(name)
        prog = self.ruleset.program
        self.players = prog.default_players if players is None else players
        if not prog.min_players <= self.players <= prog.max_players:
            raise ValueError(
                f"{prog.name} is for {prog.min_players}-{prog.max_players} players, "
                f"not {self.players}"
            )
        self.render_mode = render_mode
        self.possible_agents = [agent_name(s) for s in range(self.players)]
        box = spaces.Box(-LIMIT, LIMIT, shape=(self.encoder.size,), dtype=np.float32)
        mask = spaces.Box(0, 1, shape=(self.action_index.size,), dtype=np.int8)
        observation_space = spaces.Dict({"observation": box, "action_mask": mask})
        action_space = spaces.Discrete(self.action_index.size)
        self.observation_spaces = {a: observation_space for a in self.possible_agents}
        self.action_spaces = {a: action_space for a in self.possible_agents}
        self._seed = seed
        self._rng = np.random.default_rng(seed)
        self.game: Any = None
        self._legal: dict[int, str] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: seeded by ``seed``, else by the environment's seed stream."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            game_seed = seed
        else:
            game_seed = int(self._rng.integers(0, 2**31 - 1))
        self.game = self.ruleset.new_game(players=self.players, seed=game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._decisions = 0
        self.agent_selection = self.possible_agents[0]  # until a decision names a seat
        self._after_move()

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        seat = self.possible_agents.index(agent)
        pending = self.game.pending_ids()
        to_move = pending[0] if pending is not None else None
        acting = to_move == seat and agent == self.agent_selection
        legal = self._legal if acting else {}
        return {
            "observation": self.encoder.encode(self.game.view(seat), to_move),
            "action_mask": self.action_index.mask(legal),
        }

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or int(action) not in self._legal:
            raise ValueError(f"action {action!r} is not legal for {agent} now")
        self._cumulative_rewards[agent] = 0.0
        self.game.choose(self._legal[int(action)])
        self._decisions += 1
        self._after_move()
        if self.render_mode == "human":
            self.render()

    def _after_move(self) -> None:
        """Point at the next seat to decide, or end the game and hand out rewards."""
        self._clear_rewards()
        result = self.game.result
        pending = self.game.pending_ids()
        if result is not None or pending is None:
            winners = set(result.winners) if result is not None else set()
            draw = result is None or result.draw
            for seat, agent in enumerate(self.possible_agents):
                self.rewards[agent] = 0.0 if draw else (1.0 if seat in winners else -1.0)
                self.terminations[agent] = True
            self._legal = {}
        elif self._decisions >= self.game.max_decisions:
            for agent in self.agents:
                self.truncations[agent] = True
            self._legal = {}
        else:
            seat, ids = pending
            self._legal = self.action_index.legal(ids)
            self.agent_selection = agent_name(seat)
        for agent in self.agents:
            self.infos[agent] = {}
        if self._legal:
            self.infos[self.agent_selection] = {
                "option_ids": list(self._legal.values()),
                "actions": dict(self._legal),
            }
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The deciding seat's view and options as text (``ansi``: returned; ``human``:
        printed)."""
        if self.render_mode is None or self.game is None:
            return None
        from rich.console import Console

        from rulecraft.repl.render import render_decision, render_view

        buffer = StringIO()
        console = Console(file=buffer, width=100, color_system=None)
        seat = self.possible_agents.index(self.agent_selection)
        render_view(console, self.game.view(seat))
        decision = self.game.decision
        if decision is not None:
            render_decision(console, decision)
        text = buffer.getvalue()
        if self.render_mode == "human":
            print(text, end="")
            return None
        return text

    def close(self) -> None:
        self.game = None


def env(
    name: str,
    players: int | None = None,
    seed: int | None = None,
    render_mode: str | None = None,
) -> RulecraftAECEnv:
    """A PettingZoo AEC environment for the ruleset ``name`` (a bundled name or a path)."""
    return RulecraftAECEnv(name, players=players, seed=seed, render_mode=render_mode)

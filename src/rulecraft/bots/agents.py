"""Bots that play any game through the decision door.

Every agent implements :class:`rulecraft.runtime.protocols.Agent`: it has a ``name``
and answers ``choose(game)`` with the id of one option of ``game.decision``.  Agents only
use :class:`~rulecraft.runtime.protocols.GameLike`, so they play every ruleset, and they
own a private ``random.Random(seed)``: the same seed, asked the same questions, gives the
same answers.  Agents are not game state; their randomness never touches the game's stream.

- :class:`RandomAgent` picks uniformly among the legal options.
- :class:`GreedyAgent` looks one decision ahead with ``clone()`` and ``evaluate``.
- :class:`MCTSAgent` is information-set Monte Carlo tree search: it only ever searches
  ``determinize(seat, ...)`` copies, so it never reads what its seat cannot see.

>>> agent = make_agent("mcts:50/d20", seed=1)
>>> (agent.name, agent.iterations, agent.rollout_depth)
('mcts:50/d20', 50, 20)
>>> make_agent("mcts:50/d4/g", seed=1).rollout_epsilon  # rollouts guided by the evaluation
0.1
"""

from __future__ import annotations

import inspect
import math
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulecraft.runtime.decision import Decision, Result
from rulecraft.runtime.protocols import Agent, GameLike

#: Score :class:`GreedyAgent` gives a finished game its seat won (and minus it for a loss).
WIN_SCORE = 1e9

#: Decision bound for games that declare none (``game.max_decisions``).
DEFAULT_MAX_DECISIONS = 100_000

#: Random decisions a rollout plays before it stops and scores the position with
#: ``evaluate``.  Long card games (hundreds of decisions) never finish a search that plays
#: every rollout to the end; a short horizon scored by the ruleset's evaluation is both
#: faster and, measured on the bundled card games, stronger (see docs/bots.md).
DEFAULT_ROLLOUT_DEPTH = 30

#: Iterations of :class:`MCTSAgent` when a spec gives neither iterations nor seconds.
DEFAULT_ITERATIONS = 200

#: Share of uniformly random moves in a rollout guided by the evaluation (``/g`` without a
#: number): the other moves are the evaluation's favourite (epsilon-greedy).
DEFAULT_ROLLOUT_EPSILON = 0.1

#: Options a guided rollout step plays and scores at most; beyond it, a random sample of
#: this many (each costs a clone, a move and an ``evaluate``).
GUIDED_ROLLOUT_SAMPLE = 8

KNOWN_SPECS = (
    "random",
    "greedy",
    "mcts",
    "mcts:<iterations>",
    "mcts:<seconds>s",
    "mcts:<budget>/d<rollout depth>",
    "mcts:<budget>/w<iterations per determinization>",
    "mcts:<budget>/p<processes>",
    "mcts:<budget>/g[<epsilon>]",
    "mcts:<budget>/r",
    "mcts:<budget>/h<prior visits>",
    "mcts:<budget>/c<exploration>",
    "mcts:<budget>/e",
    "mcts:<budget>/q[<extra decisions>]",
    "mcts:<budget>/a<iterations at a menu of actions>",
    "mcts:<budget>/t",
)

#: The kind of decision a quiet cut-off waits for: a phase's menu of actions (docs/api.md).
QUIET_KIND = "action"

#: Extra random decisions a rollout may play past its depth to reach a quiet position
#: (``/q`` without a number).
DEFAULT_QUIET_LIMIT = 40

#: UCB1's exploration constant when a spec gives none (``/cX`` sets another).
DEFAULT_EXPLORATION = math.sqrt(2.0)


class DecisionLimitExceeded(RuntimeError):
    """A game was still running after its declared bound on decisions."""


def decision_limit(game: GameLike, override: int | None = None) -> int:
    """The bound on decisions for ``game``: ``override``, else ``game.max_decisions``, else
    :data:`DEFAULT_MAX_DECISIONS`."""
    if override is not None:
        return override
    declared = getattr(game, "max_decisions", None)
    return declared if isinstance(declared, int) and declared > 0 else DEFAULT_MAX_DECISIONS


def pending_decision(game: GameLike) -> Decision:
    """``game.decision``, or ``ValueError`` when nobody has to decide."""
    decision = game.decision
    if decision is None:
        raise ValueError("the game has no pending decision")
    if not decision.options:
        raise ValueError(f"the decision {decision.prompt!r} has no options")
    return decision


def pending_ids(game: GameLike) -> tuple[int, Sequence[str]]:
    """``(seat, option ids)`` of ``game``'s pending decision, through the game's cheap
    ``pending_ids()`` when it has one (a :class:`~rulecraft.runtime.game.Game` does:
    it skips building labels), else through ``game.decision``; ``ValueError`` when nobody
    has to decide or there are no options."""
    fast = getattr(game, "pending_ids", None)
    if fast is not None:
        found: tuple[int, Sequence[str]] | None = fast()
        if found is None or not found[1]:
            raise ValueError("a running game has no decision with options")
        return found
    decision = game.decision
    if decision is None or not decision.options:
        raise ValueError("a running game has no decision with options")
    return decision.seat, decision.ids


def seat_reward(result: Result, seat: int) -> float:
    """A finished game's reward for ``seat`` in ``[0, 1]``: 1 for a win (every winner of a
    co-op win gets 1), 0.5 for a draw, 0 for a loss.

    >>> seat_reward(Result(winners=(0, 1)), 1), seat_reward(Result((), draw=True), 0)
    (1.0, 0.5)
    """
    if seat in result.winners:
        return 1.0
    return 0.5 if result.draw else 0.0


def terminal_score(result: Result, seat: int) -> float:
    """A finished game's score for ``seat`` on the ``evaluate`` scale: +/- :data:`WIN_SCORE`
    for a win or a loss, 0 for a draw."""
    if seat in result.winners:
        return WIN_SCORE
    return 0.0 if result.draw else -WIN_SCORE


def squash(value: float) -> float:
    """Map an unbounded evaluation into ``(0, 1)`` (0 maps to 0.5), so a rollout cut off
    before the end scores like a partial win.

    >>> squash(0.0), squash(1e12) > 0.99, squash(-1e12) < 0.01
    (0.5, True, True)
    """
    return 0.5 + 0.5 * value / (1.0 + abs(value))


class RandomAgent:
    """Picks uniformly at random among the legal options.

    >>> from rulecraft.runtime.decision import Option
    >>> class OneDecision:
    ...     decision = Decision(0, "pick", (Option("a", "A"), Option("b", "B")))
    >>> RandomAgent(3).choose(OneDecision()) == RandomAgent(3).choose(OneDecision())
    True
    """

    def __init__(self, seed: int = 0) -> None:
        self.name = "random"
        self.rng = random.Random(seed)

    def choose(self, game: GameLike) -> str:
        return self.rng.choice(pending_ids(game)[1])


class GreedyAgent:
    """One-step lookahead: try each option on a copy and keep the one whose resulting
    position ``evaluate`` scores best for the deciding seat (a finished game scores
    :data:`WIN_SCORE` / ``-WIN_SCORE`` / 0); ties are broken by the seeded rng.

    The copy is ``determinize(seat, s)`` rather than ``clone()``, with one ``s`` for all
    options of a decision: in a perfect-information game that is a clone, and with hidden
    cards the bot cannot see the card its move would draw, and every option is scored in
    the same dealt world (common random numbers, so the comparison is not noise)."""

    def __init__(self, seed: int = 0) -> None:
        self.name = "greedy"
        self.rng = random.Random(seed)

    def choose(self, game: GameLike) -> str:
        decision = pending_decision(game)
        if len(decision.options) == 1:
            return decision.options[0].id
        seat = decision.seat
        world_seed = self.rng.getrandbits(62)
        best = best_by_evaluation(decision.ids, seat, lambda: game.determinize(seat, world_seed))
        return self.rng.choice(best)


def best_by_evaluation(
    option_ids: Iterable[str], seat: int, copy: Callable[[], GameLike]
) -> list[str]:
    """The options after which ``evaluate(seat)`` is highest, in their order, each played on
    a fresh ``copy()`` of the position (a finished game scores :func:`terminal_score`):
    the greedy bot's move and a guided rollout's step."""
    best: list[str] = []
    best_score = -math.inf
    for option_id in option_ids:
        after = copy()
        after.choose(option_id)
        result = after.result
        score = terminal_score(result, seat) if result is not None else after.evaluate(seat)
        if score > best_score:
            best, best_score = [option_id], score
        elif score == best_score:
            best.append(option_id)
    return best


@dataclass(slots=True)
class _Node:
    """One node of the search tree: the position after a path of option ids.

    ``children`` edges carry the stats of "the seat deciding here picked this option":
    ``reward`` is summed from that seat's point of view, and ``available`` counts the
    iterations in which the option was legal (information sets: not every determinization
    offers the same options, so UCB uses availability instead of the parent's visits)."""

    visits: int = 0
    reward: float = 0.0
    available: int = 0
    #: With priors (``prior_visits``): the reward of the position one step after this
    #: option, counted as that many visits already made (set when the option is first seen).
    prior: float = 0.0
    children: dict[str, _Node] = field(default_factory=dict)


class MCTSAgent:
    """Information-set Monte Carlo tree search (single observer, UCT with UCB1).

    Each iteration searches a ``determinize(seat, seed_i)`` copy of the root, so the tree
    is built only from positions consistent with what the deciding seat can see; it
    descends by UCB1 (``c = sqrt(2)``) over the option ids legal in that determinization,
    expands one untried option, plays random moves until the game ends or
    ``rollout_depth`` decisions pass (a cut-off scores
    ``squash(evaluate(seat) / evaluation_scale)`` per seat)
    and backs the per-seat rewards up the path (win 1, draw 0.5, loss 0).

    With ``rollout_epsilon`` set, rollouts are guided by the evaluation (epsilon-greedy):
    at each rollout decision with a choice, a uniformly random move with probability
    ``rollout_epsilon``, otherwise the move after which ``evaluate`` scores best for the
    deciding seat (:meth:`_guided_step`).  ``None`` (the default) plays uniformly random
    rollouts.  With ``relative``, a cut-off rollout scores the change of the evaluation
    since the iteration's start, ``squash((evaluate(leaf) - evaluate(start)) / scale)``,
    so positions far from 0 keep squash's resolution (:meth:`_rollout`).

    With ``prior_visits = n`` (``/hN``), every option of a tree node starts with a prior:
    the reward of the position one step after it (played on a clone of the iteration's
    world and scored like a cut-off rollout), counted as ``n`` visits already made
    ("equivalent experience", Gelly and Silver 2007, *Combining online and offline knowledge
    in UCT*).  UCB then ranks options by ``(reward + n * prior) / (visits + n)`` with
    ``sqrt(ln(available + n) / (visits + n))`` as the exploration term, so a small budget
    starts with the best-looking options instead of trying every option once in random
    order, and rollouts overrule the prior as visits accumulate.  It costs one clone, one
    move and one ``evaluate`` per option of each node the first time the search reaches it.
    ``exploration`` is UCB1's constant (``/cX``; default ``sqrt(2)``); rewards are in
    ``[0, 1]``, so a smaller one trusts the means of few visits sooner.  With
    ``early_stop`` (``/e``) a search with an iteration budget stops as soon as the most
    visited root option leads the second by more than the iterations left: the rest could
    not change the most visited option, so the time is saved where one option stands out
    (a step along the route) and the full budget is spent where several compete.

    With ``quiet_limit = n`` (``/qN``), a rollout that reaches its depth inside an action's
    resolution (a Move of many route steps, a fight) plays on, uniformly at random, until a
    phase's menu of actions is pending (a decision of kind ``action``), at most ``n`` more
    decisions: positions are scored only between actions, as a quiescence search does, so
    an option cannot look better just because its risk (the card drawn when a Move ends)
    or its cost (the turn that ends after it) lies past the depth.

    ``action_iterations`` (``/aN``) is the iteration budget at a phase's menu of actions
    (a decision of kind ``action``), where a turn's course is chosen, in place of
    ``iterations``; the many small decisions inside an action (each space of a route, each
    die to re-roll) keep ``iterations``.  With ``round_end`` (``/t``) a rollout also stops
    when the round after the searched position's begins (for games that count rounds):
    every leaf of the search is then scored at the same moment of the game, whatever
    options led there and however many decisions they took, so a term of the evaluation
    that changes when a round begins (a clock) weighs alike on all of them; the depth
    stays a cap.

    A game with ``play_random(randbits, limit)`` (a :class:`~rulecraft.runtime.game.Game`
    has it) plays an unguided rollout's moves in one call, drawing from this agent's
    generator exactly as ``rng.choice`` would: the same search, without a round of Python
    calls per decision.

    Decisions with a single option are played through without a tree node and without
    spending an iteration.  ``worlds_per_determinization = k`` deals one determinization
    and searches ``k`` clones of it before dealing the next (a clone is cheaper than a
    deal, but fewer distinct deals see less of the hidden cards' spread).

    The budget is ``iterations``, or ``time_budget`` seconds, or both (whichever runs out
    first when both are given); at least one iteration always runs.  It answers the most
    visited root option.
    """

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = DEFAULT_ITERATIONS,
        time_budget: float | None = None,
        rollout_depth: int = DEFAULT_ROLLOUT_DEPTH,
        worlds_per_determinization: int = 1,
        rollout_epsilon: float | None = None,
        relative: bool = False,
        prior_visits: int = 0,
        exploration: float = DEFAULT_EXPLORATION,
        early_stop: bool = False,
        quiet_limit: int = 0,
        action_iterations: int | None = None,
        round_end: bool = False,
    ) -> None:
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be >= 1")
        if time_budget is not None and time_budget <= 0:
            raise ValueError("time_budget must be > 0 seconds")
        if iterations is None and time_budget is None:
            raise ValueError("give iterations, a time budget or both")
        if rollout_depth < 0:
            raise ValueError("rollout_depth must be >= 0")
        if worlds_per_determinization < 1:
            raise ValueError("worlds_per_determinization must be >= 1")
        if rollout_epsilon is not None and not 0.0 <= rollout_epsilon <= 1.0:
            raise ValueError("rollout_epsilon must be between 0 and 1")
        if action_iterations is not None and action_iterations < 1:
            raise ValueError("action_iterations must be >= 1")
        if quiet_limit < 0:
            raise ValueError("quiet_limit must be >= 0")
        if prior_visits < 0:
            raise ValueError("prior_visits must be >= 0")
        if not exploration >= 0.0:
            raise ValueError("exploration must be >= 0")
        self.iterations = iterations
        self.time_budget = time_budget
        self.rollout_depth = rollout_depth
        self.worlds_per_determinization = worlds_per_determinization
        self.rollout_epsilon = rollout_epsilon
        self.relative = relative
        self.prior_visits = prior_visits
        self.exploration = exploration
        self.early_stop = early_stop
        self.quiet_limit = quiet_limit
        self.action_iterations = action_iterations
        self.round_end = round_end
        self.rng = random.Random(seed)
        self.name = mcts_spec(self.settings())
        #: Iterations run by the last ``choose`` and its tree (for benchmarks and tests).
        self.last_iterations = 0
        self.last_root: _Node | None = None

    def settings(self) -> dict[str, Any]:
        """The search's configuration as keyword arguments of this class (all but the
        seed): ``MCTSAgent(seed, **agent.settings())`` searches the same way, and
        :func:`mcts_spec` names it."""
        return {
            "iterations": self.iterations,
            "time_budget": self.time_budget,
            "rollout_depth": self.rollout_depth,
            "worlds_per_determinization": self.worlds_per_determinization,
            "rollout_epsilon": self.rollout_epsilon,
            "relative": self.relative,
            "prior_visits": self.prior_visits,
            "exploration": self.exploration,
            "early_stop": self.early_stop,
            "quiet_limit": self.quiet_limit,
            "action_iterations": self.action_iterations,
            "round_end": self.round_end,
        }

    def choose(self, game: GameLike) -> str:
        decision = pending_decision(game)
        if len(decision.options) == 1:
            return decision.options[0].id
        visits = self.root_visits(game)
        means = self.root_means() if self.prior_visits else None
        return self.pick(decision.ids, visits, means)

    def pick(
        self,
        legal: Sequence[str],
        visits: Mapping[str, int],
        means: Mapping[str, float] | None = None,
    ) -> str:
        """The most visited legal option; ties go to the higher of ``means`` when given,
        then to this agent's random stream (no visits at all: any legal option)."""
        ranked = [(count, oid) for oid, count in visits.items() if oid in set(legal)]
        if not ranked:  # every determinization offered other options: nothing to learn
            return self.rng.choice(list(legal))
        most = max(count for count, _ in ranked)
        tied = sorted(oid for count, oid in ranked if count == most)
        if means is not None and len(tied) > 1:
            best = max(means[oid] for oid in tied)
            tied = [oid for oid in tied if means[oid] == best]
        return self.rng.choice(tied)

    def root_means(self) -> dict[str, float]:
        """Each root option's mean reward in the last search, its prior counted as
        ``prior_visits`` visits (how UCB saw it last); with priors, :meth:`choose` breaks
        ties in visits with it, which a budget of a few visits an option makes common."""
        root = self.last_root
        assert root is not None, "root_means needs a search first"
        virtual = self.prior_visits
        return {
            oid: (child.reward + virtual * child.prior) / max(child.visits + virtual, 1)
            for oid, child in root.children.items()
        }

    def root_visits(self, game: GameLike) -> dict[str, int]:
        """Search from ``game``'s pending decision and give how often each root option
        was visited (a single legal option is answered without searching)."""
        decision = pending_decision(game)
        if len(decision.options) == 1:
            return {decision.options[0].id: 1}
        seat, ids = decision.seat, decision.ids
        budget = self.iterations
        if self.action_iterations is not None and decision.kind == QUIET_KIND:
            budget = self.action_iterations
        root = _Node()
        deadline = None if self.time_budget is None else time.perf_counter() + self.time_budget
        done = 0
        dealt: GameLike | None = None
        while True:
            if budget is not None and done >= budget:
                break
            if deadline is not None and done > 0 and time.perf_counter() >= deadline:
                break
            if done % self.worlds_per_determinization == 0:
                dealt = game.determinize(seat, self.rng.getrandbits(62))
                world = dealt
                if self.worlds_per_determinization > 1:
                    world = dealt.clone()  # keep the deal pristine for the next clones
            else:
                assert dealt is not None
                world = dealt.clone()
            self._iterate(root, world)
            done += 1
            left = None if budget is None else budget - done
            if self.early_stop and left is not None and _settled(root, len(ids), left):
                break
        self.last_iterations = done
        self.last_root = root
        return {oid: child.visits for oid, child in root.children.items()}

    def _iterate(self, root: _Node, world: GameLike) -> None:
        """One selection / expansion / rollout / backup pass through ``world`` (mutated)."""
        path: list[tuple[_Node, int]] = []  # (edge taken, seat that took it)
        node = root
        start = self._start_scores(world)
        now = game_rounds(world) if self.round_end else None
        end_round = None if now is None else now + 1
        while world.result is None:
            seat, ids = pending_ids(world)
            if len(ids) == 1:
                # forced: nothing to learn, so no node (the next real choice hangs off
                # the same node) and no iteration spent on it
                world.choose(ids[0])
                continue
            children = node.children
            if self.prior_visits:
                self._add_priors(children, world, seat, ids, start)
            for oid in ids:
                child = children.get(oid)
                if child is not None:
                    child.available += 1
            untried = [oid for oid in ids if oid not in children]
            if untried:
                oid = self.rng.choice(untried)
                child = _Node(available=1)
                children[oid] = child
                path.append((child, seat))
                world.choose(oid)
                break
            oid = self._select(node, ids)
            node = children[oid]
            path.append((node, seat))
            world.choose(oid)
            if node.visits == 0:  # with priors, the first visit of an option expands it
                break
        rewards = self._rollout(world, start, end_round)
        for edge, chooser in path:
            edge.visits += 1
            edge.reward += rewards[chooser]

    def _select(self, node: _Node, ids: Sequence[str]) -> str:
        """The option of ``ids`` with the highest UCB1 value (an unvisited one first when
        there are no priors; with priors, their visits count as made)."""
        best: list[str] = []
        best_value = -math.inf
        virtual = self.prior_visits
        for oid in ids:
            child = node.children[oid]
            seen = child.visits + virtual
            if seen == 0:
                value = math.inf
            else:
                mean = (child.reward + virtual * child.prior) / seen
                value = mean + self.exploration * math.sqrt(
                    math.log(child.available + virtual) / seen
                )
            if value > best_value:
                best, best_value = [oid], value
            elif value == best_value:
                best.append(oid)
        return best[0] if len(best) == 1 else self.rng.choice(best)

    def _add_priors(
        self,
        children: dict[str, _Node],
        world: GameLike,
        seat: int,
        ids: Sequence[str],
        start: Sequence[float] | None,
    ) -> None:
        """A child with its prior for each option of ``ids`` the node has not seen: the
        reward for ``seat`` one step after the option, on a clone of ``world`` (already a
        determinization, so it reads nothing the searching seat cannot see)."""
        for oid in ids:
            if oid not in children:
                after = world.clone()
                after.choose(oid)
                children[oid] = _Node(prior=self._leaf_rewards(after, start)[seat])

    def _start_scores(self, world: GameLike) -> list[float] | None:
        """Each seat's scaled evaluation of the iteration's starting world, which a
        ``relative`` search measures cut-off rollouts from (``None`` otherwise)."""
        if not self.relative or world.result is not None:
            return None
        scale = float(getattr(world, "evaluation_scale", 1.0))
        return [world.evaluate(s) / scale for s in range(world.num_players)]

    def _rollout(
        self,
        world: GameLike,
        start: Sequence[float] | None = None,
        end_round: int | None = None,
    ) -> list[float]:
        """Random (or evaluation-guided) moves to the end, the depth cap (then, with a
        ``quiet_limit``, random moves to the next menu of actions) or the start of round
        ``end_round``; the reward of every seat (a cut-off one measured from ``start`` when
        given)."""
        steps = 0
        rng = self.rng
        epsilon = self.rollout_epsilon
        play_random = getattr(world, "play_random", None)
        if epsilon is None and end_round is None and play_random is not None:
            # the same random moves as the loop below makes, in one call of the engine
            steps = play_random(rng.getrandbits, self.rollout_depth)
        while world.result is None:
            if end_round is not None and (game_rounds(world) or 0) >= end_round:
                break
            if steps >= self.rollout_depth:
                if steps >= self.rollout_depth + self.quiet_limit or _quiet(world):
                    break
                world.choose(rng.choice(pending_ids(world)[1]))  # finishing an action
                steps += 1
                continue
            seat, ids = pending_ids(world)
            # the random stream is drawn exactly as before when rollouts are not guided
            if epsilon is not None and len(ids) > 1 and rng.random() >= epsilon:
                world.choose(self._guided_step(world, seat, ids))
            else:
                world.choose(rng.choice(ids))
            steps += 1
        return self._leaf_rewards(world, start)

    @staticmethod
    def _leaf_rewards(world: GameLike, start: Sequence[float] | None) -> list[float]:
        """Every seat's reward for ``world`` where a rollout stops: the result when the
        game is over, else the squashed evaluation (its change since ``start`` when given)."""
        result = world.result
        seats = range(world.num_players)
        if result is not None:
            return [seat_reward(result, s) for s in seats]
        scale = float(getattr(world, "evaluation_scale", 1.0))
        if start is not None:
            return [squash(world.evaluate(s) / scale - start[s]) for s in seats]
        return [squash(world.evaluate(s) / scale) for s in seats]

    def _guided_step(self, world: GameLike, seat: int, ids: Sequence[str]) -> str:
        """The option of ``ids`` after which ``evaluate(seat)`` is highest (a finished game
        scores :func:`terminal_score`), each played on a clone of ``world``; at most
        :data:`GUIDED_ROLLOUT_SAMPLE` of them, sampled at random when there are more; ties
        broken at random.  ``world`` is already a determinization, so this reads nothing
        the searching seat cannot see."""
        candidates = (
            list(ids)
            if len(ids) <= GUIDED_ROLLOUT_SAMPLE
            else self.rng.sample(list(ids), GUIDED_ROLLOUT_SAMPLE)
        )
        best = best_by_evaluation(candidates, seat, world.clone)
        return best[0] if len(best) == 1 else self.rng.choice(best)


def _quiet(world: GameLike) -> bool:
    """Whether ``world`` waits for a phase's menu of actions (a decision of kind
    ``action``), not for a step inside an action's resolution."""
    decision = world.decision
    return decision is None or decision.kind == QUIET_KIND


def _settled(root: _Node, options: int, remaining: int) -> bool:
    """Whether the most visited of ``options`` root options leads the second by more than
    ``remaining`` iterations (an option not tried yet has 0 visits): no outcome of the
    rest of the budget can change which option is the most visited."""
    visits = sorted((child.visits for child in root.children.values()), reverse=True)
    visits += [0] * max(0, options - len(visits))
    return len(visits) > 1 and visits[0] - visits[1] > remaining


def mcts_spec(settings: Mapping[str, Any]) -> str:
    """The canonical spec of an MCTS configuration (:meth:`MCTSAgent.settings`; a setting
    left out, or at the default of :class:`MCTSAgent`, is not written), which
    :func:`make_agent` reads back.  The parts are written by the tables that read them.

    >>> mcts_spec({"iterations": 200}), mcts_spec({"time_budget": 1.0, "rollout_depth": 40})
    ('mcts:200', 'mcts:1s/d40')
    >>> mcts_spec({"iterations": 500, "time_budget": 2.0, "worlds_per_determinization": 4})
    'mcts:500/2s/w4'
    >>> mcts_spec({"iterations": 50, "rollout_depth": 4, "rollout_epsilon": 0.1})
    'mcts:50/d4/g0.1'
    >>> mcts_spec(dict(iterations=16, rollout_depth=4, rollout_epsilon=0.1, relative=True,
    ...                prior_visits=3, exploration=0.5, early_stop=True))
    'mcts:16/d4/g0.1/r/h3/c0.5/e'
    >>> mcts_spec(dict(iterations=16, rollout_depth=40, quiet_limit=40, action_iterations=48,
    ...                round_end=True))
    'mcts:16/d40/q40/a48/t'
    """
    parts = []
    if settings.get("iterations") is not None:
        parts.append(str(settings["iterations"]))
    if settings.get("time_budget") is not None:
        parts.append(f"{settings['time_budget']:g}s")
    for letter in _SPEC_ORDER:
        name = _SPEC_SETTING[letter]
        value = settings.get(name, _AGENT_DEFAULTS[name])
        if value == _AGENT_DEFAULTS[name]:
            continue
        if letter in _SWITCH_PARTS:
            parts.append(letter)
        else:
            parts.append(f"{letter}{value:g}" if isinstance(value, float) else f"{letter}{value}")
    return "mcts:" + "/".join(parts)


def parse_mcts_spec(spec: str, seed: int) -> Agent:
    """``mcts`` or ``mcts:PART/PART/...`` where a part is ``N`` (iterations), ``Ns`` or
    ``N.Ns`` (seconds per decision), ``dN`` (rollout depth), ``wN`` (iterations per
    determinization), ``pN`` (N searches in N processes, their root visits summed:
    :mod:`rulecraft.bots.root_parallel`) or ``g`` / ``gE`` (rollouts guided by the
    ruleset's evaluation, epsilon-greedy with ``E`` random moves, default
    :data:`DEFAULT_ROLLOUT_EPSILON`) or ``r`` (a cut-off rollout scores the change of the
    evaluation since the iteration's start) or ``hN`` (each option of a tree node starts
    with the reward one step after it, worth ``N`` visits) or ``cX`` (UCB1's exploration
    constant, default ``sqrt(2)``) or ``e`` (stop once the most visited option cannot be
    overtaken by the iterations left) or ``q`` / ``qN`` (a rollout past its depth plays on
    at random to the next menu of actions, at most ``N`` decisions, default
    :data:`DEFAULT_QUIET_LIMIT`) or ``aN`` (``N`` iterations at a menu of actions) or
    ``t`` (a rollout stops where the next round begins).
    Iterations and seconds together stop at
    whichever comes first; seconds alone mean no iteration cap; neither means
    :data:`DEFAULT_ITERATIONS`.

    >>> a = parse_mcts_spec("mcts:1s/d40", 0)
    >>> (a.iterations, a.time_budget, a.rollout_depth, a.worlds_per_determinization)
    (None, 1.0, 40, 1)
    >>> parse_mcts_spec("mcts:d10", 0).name
    'mcts:200/d10'
    >>> g = parse_mcts_spec("mcts:50/d4/g0.25", 0)
    >>> (g.rollout_epsilon, g.name, parse_mcts_spec("mcts:50/g", 0).name)
    (0.25, 'mcts:50/d4/g0.25', 'mcts:50/g0.1')
    >>> parse_mcts_spec("mcts:r/40/d4", 0).name
    'mcts:40/d4/r'
    >>> h = parse_mcts_spec("mcts:16/d4/g/r/h3/c0.5/e", 0)
    >>> (h.prior_visits, h.exploration, h.early_stop, h.name)
    (3, 0.5, True, 'mcts:16/d4/g0.1/r/h3/c0.5/e')
    """
    text = spec.strip().lower()
    if text != "mcts" and not text.startswith("mcts:"):
        raise ValueError(f"not an mcts spec: {spec!r}")
    body = text[len("mcts:") :] if text.startswith("mcts:") else ""
    if text.startswith("mcts:") and not body:
        raise ValueError(f"bad agent budget in {spec!r}: nothing after 'mcts:'")
    settings: dict[str, Any] = {}
    try:
        for part in body.split("/") if body else []:
            _read_spec_part(part, settings)
        processes = settings.pop("processes", 1)
        # seconds alone mean no iteration cap
        settings.setdefault("iterations", None if "time_budget" in settings else DEFAULT_ITERATIONS)
        agent = MCTSAgent(seed, **settings)
        if processes == 1:
            return agent
        from rulecraft.bots.root_parallel import RootParallelMCTS

        return RootParallelMCTS(agent, processes)
    except ValueError as exc:
        raise ValueError(f"bad agent budget in {spec!r}: {exc}") from None


#: Spec parts that are a letter and a number: what the number sets (an argument of
#: :class:`MCTSAgent`, or the processes of :class:`RootParallelMCTS`) and its type.
_NUMBERED_PARTS: dict[str, tuple[str, Callable[[str], Any]]] = {
    "d": ("rollout_depth", int),
    "w": ("worlds_per_determinization", int),
    "p": ("processes", int),
    "a": ("action_iterations", int),
    "h": ("prior_visits", int),
    "c": ("exploration", float),
}

#: Spec parts whose number may be left out: what they set, its type and the default.
_OPTIONAL_NUMBER_PARTS: dict[str, tuple[str, Callable[[str], Any], Any]] = {
    "g": ("rollout_epsilon", float, DEFAULT_ROLLOUT_EPSILON),
    "q": ("quiet_limit", int, DEFAULT_QUIET_LIMIT),
}

#: Spec parts that are a letter alone: the switch of :class:`MCTSAgent` they turn on.
_SWITCH_PARTS = {"r": "relative", "e": "early_stop", "t": "round_end"}

#: The order of the lettered parts in a canonical spec (:func:`mcts_spec`), and the
#: setting of each (``p``, the processes, belongs to :class:`RootParallelMCTS`'s name).
_SPEC_ORDER = "dwgrhceqat"
_SPEC_SETTING: dict[str, str] = {
    **{letter: name for letter, (name, _) in _NUMBERED_PARTS.items()},
    **{letter: name for letter, (name, _, _) in _OPTIONAL_NUMBER_PARTS.items()},
    **_SWITCH_PARTS,
}
#: The defaults of :class:`MCTSAgent`'s settings, read off its constructor (one list of
#: them: a spec leaves out what is at its default).
_AGENT_DEFAULTS: dict[str, Any] = {
    name: parameter.default
    for name, parameter in inspect.signature(MCTSAgent.__init__).parameters.items()
    if parameter.default is not inspect.Parameter.empty
}


def _read_spec_part(part: str, settings: dict[str, Any]) -> None:
    """Put what one ``/``-separated part of an mcts spec sets into ``settings``
    (``ValueError`` when it is not a number where one is due)."""
    letter, number = part[:1], part[1:]
    if part in _SWITCH_PARTS:
        settings[_SWITCH_PARTS[part]] = True
    elif letter in _NUMBERED_PARTS:
        name, kind = _NUMBERED_PARTS[letter]
        settings[name] = kind(number)
    elif letter in _OPTIONAL_NUMBER_PARTS:
        name, kind, default = _OPTIONAL_NUMBER_PARTS[letter]
        settings[name] = kind(number) if number else default
    elif part.endswith("s"):
        settings["time_budget"] = float(part[:-1])
    else:
        settings["iterations"] = int(part)


def make_agent(spec: str, seed: int) -> Agent:
    """The agent a spec names: ``random``, ``greedy``, ``mcts`` (200 iterations),
    ``mcts:500`` (iterations), ``mcts:2s`` / ``mcts:0.5s`` (seconds per decision), with
    optional ``/dN`` (rollout depth, default 30), ``/wN`` (iterations per
    determinization), ``/pN`` (processes), ``/g`` (rollouts guided by the evaluation),
    ``/r`` (relative rewards), ``/hN`` (priors from the evaluation), ``/cX`` (exploration)
    ``/e`` (early stop), ``/qN`` (quiet cut-offs), ``/aN`` (iterations at a menu of
    actions) and ``/t`` (rollouts to the round's end),
    e.g. ``mcts:200/d40`` or ``mcts:400/1s`` (whichever comes first); see
    :func:`parse_mcts_spec`.

    >>> make_agent("mcts:2s", 0).name
    'mcts:2s'
    >>> make_agent("minimax", 0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown agent 'minimax'; known: random, greedy, mcts, ...
    """
    text = spec.strip().lower()
    if text == "random":
        return RandomAgent(seed)
    if text == "greedy":
        return GreedyAgent(seed)
    if text == "mcts" or text.startswith("mcts:"):
        return parse_mcts_spec(text, seed)
    raise ValueError(f"unknown agent {spec!r}; known: {', '.join(KNOWN_SPECS)}")


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A game played to its end by :func:`play_game`."""

    result: Result
    decisions: int
    choices: tuple[str, ...]
    rounds: int | None = None


def seat_agents(agents: Mapping[int, Agent] | Sequence[Agent], players: int) -> dict[int, Agent]:
    """Agents by seat; ``KeyError`` naming a seat nobody plays."""
    by_seat = dict(agents) if isinstance(agents, Mapping) else dict(enumerate(agents))
    missing = [s for s in range(players) if s not in by_seat]
    if missing:
        raise KeyError(f"no agent for seat(s) {missing}")
    return by_seat


def game_rounds(game: Any) -> int | None:
    """``game.round`` when the game counts rounds (an ``int``), else ``None``."""
    rounds = getattr(game, "round", None)
    return rounds if isinstance(rounds, int) and not isinstance(rounds, bool) else None


def play_game(
    game: GameLike,
    agents: Mapping[int, Agent] | Sequence[Agent],
    max_decisions: int | None = None,
    choices: list[str] | None = None,
) -> PlayedGame:
    """Let ``agents`` (by seat) play ``game`` (mutated) to the end.

    Raises :class:`DecisionLimitExceeded` past ``max_decisions`` (default: the game's
    declared bound, see :func:`decision_limit`).  Each chosen id is appended to ``choices``
    (when given) before it is played, so a caller still has the history after an error.
    """
    by_seat = seat_agents(agents, game.num_players)
    limit = decision_limit(game, max_decisions)
    chosen = choices if choices is not None else []
    start = len(chosen)
    while (result := game.result) is None:
        played = len(chosen) - start
        if played >= limit:
            raise DecisionLimitExceeded(f"game still running after {limit} decisions")
        decision = pending_decision(game)
        option_id = by_seat[decision.seat].choose(game)
        chosen.append(option_id)
        game.choose(option_id)
    return PlayedGame(
        result=result,
        decisions=len(chosen) - start,
        choices=tuple(chosen[start:]),
        rounds=game_rounds(game),
    )

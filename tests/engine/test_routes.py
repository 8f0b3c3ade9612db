"""Routes on a map are worked out once per start (``runtime.map.routes_from``).

The answers must be those of a search that stops at its goal or keeps to its budget, as
``path_cost``, ``path`` and ``reach`` ran before the routes were kept: same costs, same
route when two are equally cheap, same spaces in reach.  Terrain costs of 0 and impassable
spaces (a negative cost) are included.
"""

from __future__ import annotations

import heapq

from hypothesis import given, settings
from hypothesis import strategies as st

from rulecraft.runtime.map import routes_from
from rulecraft.runtime.program import MapSpec


def _stopping_search(
    mp: MapSpec, start: str, goal: str | None = None, budget: int | None = None
) -> tuple[dict[str, int], dict[str, str]]:
    """The search as it ran at every call before: stops at ``goal``, keeps to ``budget``."""
    best = {start: 0}
    previous: dict[str, str] = {}
    heap = [(0, start)]
    while heap:
        cost, cur = heapq.heappop(heap)
        if cur == goal:
            break
        if cost > best.get(cur, 1 << 30):
            continue
        for nxt in mp.adjacency.get(cur, ()):
            step = mp.costs.get(mp.terrain.get(nxt, ""), 1)
            if step < 0:
                continue
            nc = cost + step
            if (budget is None or nc <= budget) and nc < best.get(nxt, 1 << 30):
                best[nxt] = nc
                previous[nxt] = cur
                heapq.heappush(heap, (nc, nxt))
    return best, previous


def _route(previous: dict[str, str], start: str, goal: str) -> list[str]:
    route = [goal]
    while route[-1] != start:
        route.append(previous[route[-1]])
    return route


@st.composite
def _maps(draw: st.DrawFn) -> MapSpec:
    n = draw(st.integers(2, 9))
    spaces = tuple(f"s{i}" for i in range(n))
    links = draw(st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=30))
    adjacency: dict[str, list[str]] = {s: [] for s in spaces}
    for a, b in sorted(links):
        if a != b and spaces[b] not in adjacency[spaces[a]]:
            adjacency[spaces[a]].append(spaces[b])
    terrain = {s: draw(st.sampled_from(["", "road", "hill", "wall"])) for s in spaces}
    costs = {"road": 0, "hill": draw(st.integers(1, 3)), "wall": -1}
    return MapSpec(
        "graph",
        0,
        0,
        spaces,
        {},
        terrain,
        {k: tuple(v) for k, v in adjacency.items()},
        costs,
        frozenset(),
    )


@settings(max_examples=300, deadline=None)
@given(_maps(), st.data())
def test_kept_routes_answer_as_the_stopping_search(mp: MapSpec, data: st.DataObject) -> None:
    start = data.draw(st.sampled_from(mp.spaces))
    goal = data.draw(st.sampled_from(mp.spaces))
    budget = data.draw(st.integers(-1, 8))
    best, previous = routes_from(mp, start)
    to_goal, to_goal_previous = _stopping_search(mp, start, goal=goal)
    assert best.get(goal, -1) == to_goal.get(goal, -1)
    if goal in to_goal:
        assert _route(previous, start, goal) == _route(to_goal_previous, start, goal)
    within, _ = _stopping_search(mp, start, budget=budget)
    # reach leaves the start out, whatever the budget
    assert {s for s, c in best.items() if c <= budget} - {start} == set(within) - {start}
    # worked out once: the same dictionaries (compiled, mypyc boxes the pair anew)
    again = routes_from(mp, start)
    assert again[0] is best and again[1] is previous


def test_a_hill_costs_more_and_a_wall_stops_the_route() -> None:
    # a - b - c, and a - d - c where d is a hill of 3: the route goes through b; a wall
    # on b sends it over the hill; a wall on both leaves c out of reach
    links: dict[str, tuple[str, ...]] = {
        "a": ("b", "d"),
        "b": ("a", "c"),
        "c": ("b", "d"),
        "d": ("a", "c"),
    }

    def on(terrain: dict[str, str]) -> MapSpec:
        return MapSpec(
            "graph",
            0,
            0,
            ("a", "b", "c", "d"),
            {},
            terrain,
            links,
            {"hill": 3, "wall": -1},
            frozenset(),
        )

    # two routes of 2: the one whose first step left the heap first (b before d) is kept,
    # as the stopping search kept it
    best, previous = routes_from(on({}), "a")
    assert (best["c"], _route(previous, "a", "c")) == (2, ["c", "b", "a"])
    best, previous = routes_from(on({"d": "hill"}), "a")
    assert (best["c"], _route(previous, "a", "c")) == (2, ["c", "b", "a"])
    best, previous = routes_from(on({"d": "hill", "b": "wall"}), "a")
    assert (best["c"], _route(previous, "a", "c")) == (4, ["c", "d", "a"])
    assert "c" not in routes_from(on({"d": "wall", "b": "wall"}), "a")[0]

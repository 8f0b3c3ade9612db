"""Simulation batches as Ray tasks: ``rulecraft simulate ... --backend ray``.

:func:`run_on_ray` sends each batch of games (a list of seeds) to Ray as one task, keeps
a bounded number of tasks in flight (twice the cluster's CPUs, so a 10,000-game run does
not queue 300 tasks' arguments at once), and hands every finished batch to ``collect`` as
it arrives, which drives the progress bar.  Batches finish in any order; the simulator
sorts outcomes by seed, and every game's seed and its agents' seeds depend only on the
game's number, so the report equals the local backend's.

Needs the ``ray`` extra (``pip install 'rulecraft[ray]'``).  With ``address=None`` it
starts a local Ray instance with ``num_cpus`` CPUs (and stops it afterwards); with an
address (``ray://head:10001`` or ``auto``) it joins that cluster, whose nodes must have
the same rulecraft and rulesets installed.  A Ray instance the caller started already
(``ray.init(...)`` before) is used as it is and left running.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

TaskT = TypeVar("TaskT")
ResultT = TypeVar("ResultT")


def run_on_ray(
    function: Callable[[TaskT], ResultT],
    tasks: Sequence[TaskT],
    collect: Callable[[ResultT], None],
    address: str | None = None,
    num_cpus: int | None = None,
) -> None:
    """Run ``function(task)`` for every task as Ray tasks; ``collect`` each result in the
    order they finish."""
    try:
        import ray
    except ImportError as err:  # the extra is optional: say how to get it
        raise RuntimeError("the ray backend needs Ray: pip install 'rulecraft[ray]'") from err
    started_here = not ray.is_initialized()
    if started_here:
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address is None:
            options["num_cpus"] = num_cpus
        ray.init(address=address, **options)
    try:
        remote = ray.remote(function)
        cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call,unused-ignore]
        window = max(2, 2 * int(cpus))
        queue = list(tasks)
        queue.reverse()  # pop() from the end submits the batches in order
        in_flight: list[Any] = []
        while queue or in_flight:
            while queue and len(in_flight) < window:
                in_flight.append(remote.remote(queue.pop()))
            ready, in_flight = ray.wait(in_flight, num_returns=1)
            for ref in ready:
                collect(ray.get(ref))
    finally:
        if started_here:
            ray.shutdown()

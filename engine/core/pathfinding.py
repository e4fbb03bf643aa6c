"""Cheapest paths over any graph whose steps have costs and blocking rules.

Nodes are any hashable value, so a game can search over plain cells or over richer states
such as (square, facing) when turning costs movement.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Collection, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

N = TypeVar("N", bound=Hashable)


@dataclass
class Reach(Generic[N]):
    """Every node reachable within a budget, with its cheapest cost and predecessor."""

    start: N
    cost: dict[N, int] = field(default_factory=dict)
    previous: dict[N, N | None] = field(default_factory=dict)

    def __contains__(self, node: object) -> bool:
        return node in self.cost

    def path(self, goal: N) -> list[N]:
        """Start to goal inclusive; KeyError if the goal was not reached."""
        if goal not in self.cost:
            raise KeyError(goal)
        out = [goal]
        while (back := self.previous[out[-1]]) is not None:
            out.append(back)
        return out[::-1]


def reachable(
    start: N,
    steps: Callable[[N], Iterable[tuple[N, int]]],
    budget: int | None = None,
    can_stop: Callable[[N], bool] | None = None,
    until: Collection[N] | None = None,
    nearest: Callable[[N], bool] | None = None,
) -> Reach[N]:
    """Dijkstra from `start`.

    `steps(node)` yields `(next_node, cost)` for each legal step; a blocked step is simply not
    yielded. `budget` caps the total cost. `can_stop` filters which nodes may end a move, without
    preventing paths from passing through the others. Ties are broken by discovery order, so the
    result is deterministic for a deterministic `steps`.

    `until`: the caller only needs these nodes. The search stops once each is settled (or
    the graph is exhausted), and the result holds only the nodes settled by then, each with
    the same cost and path as a full search would give.

    `nearest`: the caller only needs the cheapest nodes for which this holds. Once the first
    such node is settled, the search settles the rest that cost no more and stops, with the
    same guarantee as `until`. Either stop may end the search.
    """
    tick = itertools.count(1).__next__
    push, pop = heapq.heappush, heapq.heappop
    limit = budget if budget is not None else float("inf")
    best: dict[N, int] = {start: 0}
    previous: dict[N, N | None] = {start: None}
    queue: list[tuple[int, int, N]] = [(0, 0, start)]
    done: set[N] = set()
    wanted = set(until) if until is not None else None
    cap: float = float("inf")  # the cost of the first `nearest` node, once settled
    while queue:
        cost, _, node = pop(queue)
        if node in done:
            continue
        if cost > cap:
            break
        done.add(node)
        if wanted is not None:
            wanted.discard(node)
            if not wanted:
                break
        if nearest is not None and cap == float("inf") and nearest(node):
            cap = cost
        for nxt, step_cost in steps(node):
            if step_cost < 0:
                raise ValueError("step costs must not be negative")
            total = cost + step_cost
            if total > limit:
                continue
            known = best.get(nxt)
            if known is None or total < known:
                best[nxt] = total
                previous[nxt] = node
                push(queue, (total, tick(), nxt))
    partial = wanted is not None or nearest is not None
    reach: Reach[N] = Reach(start)
    for node, cost in best.items():
        if partial and node not in done:
            continue
        if can_stop is None or node == start or can_stop(node):
            reach.cost[node] = cost
    reach.previous = {n: previous[n] for n in done} if partial else previous
    return reach


def cheapest_path(
    start: N,
    goal: Callable[[N], bool],
    steps: Callable[[N], Iterable[tuple[N, int]]],
    budget: int | None = None,
) -> tuple[int, list[N]] | None:
    """The cheapest path to the first node satisfying `goal`, or None."""
    found = reachable(start, steps, budget)
    goals = [(cost, node) for node, cost in found.cost.items() if goal(node)]
    if not goals:
        return None
    cost, node = min(goals, key=lambda item: item[0])
    return cost, found.path(node)

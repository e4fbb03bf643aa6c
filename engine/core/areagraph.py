"""Boards made of Areas joined by borders, with distance counted in borders crossed."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping


class AreaGraph:
    """An undirected graph of Areas. Borders may be closed (a wall, a shut door) per query."""

    def __init__(self, borders: Iterable[tuple[str, str]] = (), areas: Iterable[str] = ()) -> None:
        self._adjacent: dict[str, set[str]] = {a: set() for a in areas}
        for a, b in borders:
            self.connect(a, b)

    def connect(self, a: str, b: str) -> None:
        if a == b:
            raise ValueError(f"an Area cannot border itself: {a}")
        self._adjacent.setdefault(a, set()).add(b)
        self._adjacent.setdefault(b, set()).add(a)

    @property
    def areas(self) -> list[str]:
        return sorted(self._adjacent)

    def __contains__(self, area: object) -> bool:
        return area in self._adjacent

    def adjacent(self, area: str) -> list[str]:
        return sorted(self._adjacent.get(area, ()))

    def are_adjacent(self, a: str, b: str) -> bool:
        return b in self._adjacent.get(a, ())

    def distances(
        self, start: str, passable: Callable[[str, str], bool] | None = None
    ) -> Mapping[str, int]:
        """Borders crossed from `start` to every reachable Area (breadth first)."""
        seen = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in self.adjacent(here):
                if there not in seen and (passable is None or passable(here, there)):
                    seen[there] = seen[here] + 1
                    queue.append(there)
        return seen

    def distance(
        self, a: str, b: str, passable: Callable[[str, str], bool] | None = None
    ) -> int | None:
        return self.distances(a, passable).get(b)

    def shortest_path(
        self, a: str, b: str, passable: Callable[[str, str], bool] | None = None
    ) -> list[str] | None:
        """One shortest path from `a` to `b` inclusive; ties broken by Area name order."""
        previous: dict[str, str | None] = {a: None}
        queue = deque([a])
        while queue:
            here = queue.popleft()
            if here == b:
                path = [b]
                while (back := previous[path[-1]]) is not None:
                    path.append(back)
                return path[::-1]
            for there in self.adjacent(here):
                if there not in previous and (passable is None or passable(here, there)):
                    previous[there] = here
                    queue.append(there)
        return None

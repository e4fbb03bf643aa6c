"""Rules geometry that depends on where the units stand: sight, adjacency, grappling."""

from __future__ import annotations

from functools import lru_cache

from engine.core.squaregrid import Facing, Square, in_front_arc, neighbours
from engine.forlorn.board import Board, clear_line, crossed_labels, label, load_board, parse_label
from engine.forlorn.content import units
from engine.forlorn.state import ForlornState, Unit


def board_of(state: ForlornState) -> Board:
    return load_board(state.map)


def sq(text: str | None) -> Square:
    if text is None:
        raise ValueError("unit is not on the map")
    found = parse_label(text)
    if found is None:
        raise ValueError(f"bad square {text}")
    return found


def open_doors(state: ForlornState) -> frozenset[str]:
    return frozenset(state.open_doors)


def blockers_for(state: ForlornState, side: str | None) -> set[str]:
    """Squares that block sight for a unit of `side`: enemy units and Eggs (8.1).

    `side=None`: only Eggs block.
    """
    out: set[str] = set()
    for u in state.active():
        if u.at is None:
            continue
        if u.kind == "egg" or (side is not None and u.side != side):
            out.add(u.at)
    return out


def has_los(
    state: ForlornState,
    a: Square,
    b: Square,
    side: str | None,
    blockers: set[str] | None = None,
) -> bool:
    """8.1: walls, closed doors and door frames block when merely touched; a unit's square
    blocks when the line passes through it (grazing its corner point does not: this is the
    reading under which the rulebook's Fox/Drone/Warrior example works).

    `blockers`: `blockers_for(state, side)`, when the caller asks many lines of one state."""
    board = board_of(state)
    if a == b:
        return True
    if not clear_line(board, a, b, open_doors(state)):
        return False
    blocked = blockers_for(state, side) if blockers is None else blockers
    return all(s not in blocked for s in crossed_labels(a, b))


def toss_squares(state: ForlornState) -> frozenset[str]:
    """8.5: the squares a Plasma Grenade may be placed on: any square within line of sight of
    any Marine on the map, whatever its facing, at any range. The line is traced as in 8.1
    (walls, closed doors and door frames block) but ignores enemy units, Eggs among them (they
    are Xeno unit counters, 1.3), and friendly units never block (8.1)."""
    marines = tuple(sorted(m.at for m in state.active("marines") if m.at))
    return _toss_squares(state.map, open_doors(state), marines)


@lru_cache(maxsize=1024)
def _toss_squares(map_key: str, doors: frozenset[str], marines: tuple[str, ...]) -> frozenset[str]:
    board = load_board(map_key)
    out: set[str] = set()
    for at in marines:
        here = sq(at)
        out.update(label(s) for s in board.floor if s != here and clear_line(board, here, s, doors))
    return frozenset(out)


def adjacent(state: ForlornState, a: Unit, b: Unit) -> bool:
    """Adjacent means one of the eight neighbours *and* in sight of each other."""
    if a.at is None or b.at is None or a.at == b.at:
        return False
    sa, sb = sq(a.at), sq(b.at)
    if sb not in neighbours(sa):
        return False
    return has_los(state, sa, sb, a.side)


def grappled(state: ForlornState, marine: Unit) -> bool:
    """7.3: a Marine next to a non-Egg Xeno cannot leave its square or work doors."""
    return any(
        x.kind != "egg" and adjacent(state, marine, x) for x in state.active("xenos") if x.at
    )


def attack_range(a: Square, b: Square) -> int:
    """8.2: squares counted without diagonals."""
    return abs(a.x - b.x) + abs(a.y - b.y)


def in_arc(marine: Unit, target: Square) -> bool:
    if marine.at is None or marine.facing is None:
        return False
    return in_front_arc(sq(marine.at), Facing(marine.facing), target)


def marine_profile(u: Unit) -> tuple[int, int, int]:
    """(movement points, attack dice, defence bonus) with Body Armor applied."""
    p = units().marines[u.kind]
    armour = 1 if "body-armor" in u.items else 0
    return p.mp, p.attack, p.defence + armour


def max_hits(u: Unit) -> int:
    if u.side == "marines":
        return 2 if u.heroic else 1
    if u.kind == "egg":
        return 1
    return units().xenos[u.kind].hits


def occupied(state: ForlornState, where: str) -> list[Unit]:
    return state.at(where)

"""Who a Close Encounter card activates under the expansion (11.1, 11.5, 11.9.1).

"Activate X aliens" (X = 1, 2, 3 or the number of agents in play): take the Alpha Agent's
aliens first, then the next player's in table order, until X are chosen. A Paralyzed alien is
never chosen while any other alien is in play. Within one player's aliens the highest rank
goes first (Purple, Red, Blue, Green); a tie that still remains at the cut is the Alpha
Agent's choice, so it is returned as a choice rather than decided here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

RANK = {"purple": 0, "red": 1, "blue": 2, "green": 3}


@dataclass(frozen=True)
class Candidate:
    id: str
    controller: str
    color: str
    paralyzed: bool = False


@dataclass
class Selection:
    chosen: list[str] = field(default_factory=list)
    choose_from: list[str] = field(default_factory=list)  # the Alpha Agent picks `picks` of these
    picks: int = 0


def select_x(x: int, aliens: list[Candidate], table_from_alpha: list[str]) -> Selection:
    """Pick X aliens to activate (see the module docstring)."""
    pool = [a for a in aliens if not a.paralyzed] or list(aliens)
    out = Selection()
    need = x
    for seat in table_from_alpha:
        if need <= 0:
            break
        mine = sorted((a for a in pool if a.controller == seat), key=lambda a: RANK[a.color])
        if len(mine) <= need:
            out.chosen += [a.id for a in mine]
            need -= len(mine)
            continue
        cut = RANK[mine[need - 1].color]
        above = [a.id for a in mine if RANK[a.color] < cut]
        tied = [a.id for a in mine if RANK[a.color] == cut]
        out.chosen += above
        out.choose_from, out.picks = tied, need - len(above)
        if out.picks == len(tied):
            out.chosen += tied
            out.choose_from, out.picks = [], 0
        need = 0
    return out

"""Who a Close Encounter card activates under the expansion (11.1, 11.5, 11.9.1).

"Activate X aliens" (X = 1, 2, 3 or the number of agents in play): take the Alpha Agent's
aliens first, then the next player's in table order, until X are chosen. A Paralyzed alien is
never chosen while any other alien is in play. Within one player's aliens the highest rank
goes first (Purple, Red, Blue, Green); a tie that still remains at the cut is the Alpha
Agent's choice, so it is returned as a choice rather than decided here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core.events import Event, Note
from engine.core.words import counted
from engine.galaxy.lifecycle import clockwise_from_alpha
from engine.galaxy.state import AlienState, GalaxyState, Pending
from engine.galaxy.strikeback import swarm
from engine.galaxy.strikeback.status import Activating, sb_state_or_none
from engine.galaxy.world import (
    alien_adjacent,
    alien_name,
    card,
    figures_on_map,
    find_alien,
    operative,
)

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


KIND = "sb-activate"  # the Pending kind of the Alpha Agent's tie-break


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


# -- in play -----------------------------------------------------------------------------------


def fits_card(state: GalaxyState, alien: AlienState, match: dict[str, object]) -> bool:
    """The expansion's own matches: `healthy` (no wound) and `position` (engaged / lurking)."""

    if match.get("healthy") and alien.wounds:
        return False
    position = match.get("position")
    if position is not None:
        near = any(
            a.hex is not None and alien_adjacent(state, alien, a.hex) for a in figures_on_map(state)
        )
        return near if position == "engaged" else not near
    return True


def select(state: GalaxyState, card_id: str, match: dict[str, object], events: list[Event]) -> bool:
    """Choose the aliens of an "activate X" or "the Alpha Agent's aliens" card (11.5). Stores
    them in `StrikebackState.activating`; False when the Alpha Agent must break a tie first
    (a pending `sb-activate` choice, one alien at a time)."""

    sb = sb_state_or_none(state)
    assert sb is not None
    if "alpha" in match:
        chosen = [a.id for a in state.aliens if a.controller == state.alpha]
        sb.activating = Activating(card=card_id, chosen=chosen)
        return True
    count = match["count"]
    x = (
        len([a for a in operative(state) if a.hex is not None])
        if count == "agents"
        else int(str(count))
    )
    pool = [
        Candidate(a.id, a.controller, card(a).rank, "paralyze" in a.conditions)
        for a in swarm.units(state, state.aliens)  # a Prime Swarm counts once (11.6)
    ]
    picked = select_x(x, pool, clockwise_from_alpha(state))
    sb.activating = Activating(
        card=card_id, chosen=picked.chosen, choose_from=picked.choose_from, picks=picked.picks
    )
    events.append(Note(text=f"Activate {counted(x, 'alien')}, from the Alpha Agent's aliens on."))
    return ask(state)


def ask(state: GalaxyState) -> bool:
    """Open the Alpha Agent's tie-break choice if one is owed; True when none is."""
    sb = sb_state_or_none(state)
    assert sb is not None and sb.activating is not None
    waiting = sb.activating
    if waiting.picks <= 0:
        return True
    state.pending = Pending(
        kind=KIND,
        seat=state.alpha,
        options=list(waiting.choose_from),
        data={"picks": waiting.picks},
    )
    return False


def finish_choice(state: GalaxyState, option: str, events: list[Event]) -> None:
    """The Alpha Agent names one of the tied aliens to activate."""

    sb = sb_state_or_none(state)
    assert sb is not None and sb.activating is not None
    waiting = sb.activating
    state.pending = None
    waiting.chosen.append(option)
    waiting.choose_from.remove(option)
    waiting.picks -= 1
    events.append(Note(text=f"The Alpha Agent activates {alien_name(find_alien(state, option))}."))
    ask(state)

"""Signals: the Reserve, teleporting, moving Area by Area, and revealing on line of sight."""

from __future__ import annotations

from engine.core.dice import Dice, shuffle
from engine.core.events import Event, Moved, Note, Revealed
from engine.core.hexgrid import Hex
from engine.galaxy.attack import guard_react
from engine.galaxy.board import label
from engine.galaxy.content import alien_card
from engine.galaxy.expansion import hooks
from engine.galaxy.lifecycle import free_hex_in_area, nearest_free, place_alien, roll_teleport_point
from engine.galaxy.state import GalaxyState, SignalState
from engine.galaxy.world import (
    area_of,
    board_of,
    co,
    figures_on_map,
    hx,
    locked,
    on_map_agents,
    sees,
)

# Where a Signal heads, as players read it (the key stays in the rules).
GOAL_WORDS = {
    "toward-tp": "toward a Teleport Point",
    "toward-agent": "toward the agents",
    "away": "away from the agents",
}


def seen_by_agent(state: GalaxyState, h: Hex) -> bool:
    return any(
        a.hex is not None and a.id != "hologram" and sees(state, a.hex, co(h))
        for a in figures_on_map(state)
    )  # an Operation Strikeback Hologram is a projection: it sees nothing


def reveal_in_sight(state: GalaxyState, dice: Dice, events: list[Event]) -> None:
    """Reveal every Signal any agent can see (the highest priority in any phase)."""
    for signal in list(state.signals):
        if signal in state.signals and seen_by_agent(state, hx(signal.hex)):
            reveal(state, signal, dice, events)


def reveal(state: GalaxyState, signal: SignalState, dice: Dice, events: list[Event]) -> None:
    state.signals.remove(signal)
    state.signal_discard.append(signal.token)
    where = label(hx(signal.hex))
    if signal.token.startswith("human"):
        events.append(
            Revealed(
                figure=signal.id,
                at=where,
                text=f"Signal {signal.id} at {where} is human: a false positive, removed.",
            )
        )
        return
    if signal.token.startswith("npc"):  # Operation Strikeback 11.10.1
        events.append(Revealed(figure=signal.id, at=where, text=f"Signal {signal.id} is an ally!"))
        hooks().npc_arrive(state, hx(signal.hex), dice, events, f"NPC Signal at {where}")
        return
    if not state.alien_deck.draw_pile and not state.alien_deck.discard_pile:
        events.append(
            Revealed(
                figure=signal.id,
                at=where,
                text=f"Signal {signal.id} at {where} is alien, "
                "but every Alien card is already in play: no effect.",
            )
        )
        return
    card_id = state.alien_deck.draw(dice)
    events.append(
        Revealed(figure=signal.id, at=where, text=f"Signal {signal.id} at {where} is alien!")
    )
    alien = place_alien(state, card_id, hx(signal.hex), events, "is revealed")
    guard_react(state, alien, dice, events)


def draw_signal(state: GalaxyState, dice: Dice) -> str | None:
    if not state.signal_reserve:
        state.signal_reserve = shuffle(dice, state.signal_discard)
        state.signal_discard = []
    return state.signal_reserve.pop() if state.signal_reserve else None


def teleport_signal(state: GalaxyState, dice: Dice, events: list[Event]) -> None:
    point = roll_teleport_point(state, dice, events)
    if point is None:
        events.append(Note(text="No Teleport Point is left: no Signal arrives."))
        return
    signal_at(state, point, dice, events)


def signal_at(state: GalaxyState, point: Hex, dice: Dice, events: list[Event]) -> None:
    """A Signal from the Reserve arrives on this Teleport Point (or the closest free hex)."""
    spot = nearest_free(state, point)
    token = draw_signal(state, dice) if spot is not None else None
    if spot is None or token is None:
        events.append(Note(text="The Signal Reserve is empty: no Signal arrives."))
        return
    signal = SignalState(id=f"s{state.next_signal}", token=token, hex=co(spot))
    state.next_signal += 1
    state.signals.append(signal)
    events.append(Note(text=f"Signal {signal.id} teleports in at {label(spot)}."))
    reveal_in_sight(state, dice, events)


def teleport_alien(
    state: GalaxyState, spec: dict[str, str], dice: Dice, events: list[Event], why: str
) -> None:
    """Teleport the matching Alien card's figure (searched in the deck, then its discards)."""

    def matches(card_id: str) -> bool:
        c = alien_card(card_id)
        return all(getattr(c, k) == v for k, v in spec.items())

    pool = [*state.alien_deck.draw_pile, *state.alien_deck.discard_pile]
    if not any(matches(c) for c in pool):
        events.append(Note(text=f"{why}: no matching Alien card is left in the deck."))
        return
    point = roll_teleport_point(state, dice, events)
    spot = nearest_free(state, point) if point is not None else None
    if spot is None:
        events.append(Note(text=f"{why}: no Teleport Point or free hex."))
        return
    card_id = state.alien_deck.search_and_take(matches, include_discards=True)
    place_alien(state, card_id, spot, events, f"teleports in ({why})")


def move_signals(
    state: GalaxyState, goal: str, areas: int, dice: Dice, events: list[Event]
) -> None:
    """Move every Signal `areas` Areas, one Area at a time, revealing as soon as seen."""
    for signal in sorted(state.signals, key=lambda s: int(s.id[1:])):
        for _ in range(areas):
            if signal not in state.signals or not step_signal(state, signal, goal, events):
                break
            reveal_in_sight(state, dice, events)


def goal_areas(state: GalaxyState, signal: SignalState, goal: str) -> list[str]:
    board = board_of(state)
    if goal == "toward-tp":
        return [
            board.area_of[h] for s, h in board.teleports.items() if s not in state.destroyed_tps
        ]
    # Battle drones count as agents for most purposes but never for Event cards: a Signal an
    # Event moves toward (or away from) agents ignores them (they still reveal what they see).
    return [area_of(state, a.hex) for a in on_map_agents(state) if a.hex is not None]


def step_signal(state: GalaxyState, signal: SignalState, goal: str, events: list[Event]) -> bool:
    """One Area step; prefers a destination where the Signal will be revealed."""
    board = board_of(state)
    graph = board.walk_graph(locked(state))
    here = area_of(state, signal.hex)
    targets = goal_areas(state, signal, goal)
    if not targets:
        return False
    dist = {t: graph.distances(t) for t in targets}

    def to_goal(area: str) -> int:
        return min((d.get(area, 999) for d in dist.values()), default=999)

    options = graph.adjacent(here)
    if goal == "away":
        if signal.came_from in options:
            choices = [signal.came_from]
        else:
            best = max((to_goal(a) for a in options), default=-1)
            choices = [a for a in options if to_goal(a) == best and best > to_goal(here)]
    else:
        if to_goal(here) == 0:
            return False
        best = min((to_goal(a) for a in options), default=999)
        choices = [a for a in options if to_goal(a) == best and best < to_goal(here)]
    placed: list[tuple[bool, str, Hex]] = []
    for area in sorted(choices):
        spot = free_hex_in_area(state, area)
        if spot is not None:
            placed.append((not seen_by_agent(state, spot), area, spot))
    if not placed:
        return False
    _, area, spot = min(placed)
    start = signal.hex
    signal.came_from = here
    signal.hex = co(spot)
    events.append(
        Moved(
            figure=signal.id,
            path=[label(hx(start)), label(spot)],
            text=f"Signal {signal.id} moves {label(hx(start))} -> {label(spot)} "
            f"({GOAL_WORDS.get(goal, goal.replace('-', ' '))}).",
        )
    )
    return True

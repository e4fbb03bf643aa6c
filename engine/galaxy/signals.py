"""Signals: the Reserve, teleporting, moving Area by Area, and revealing on line of sight."""

from __future__ import annotations

from engine.core.dice import Dice, shuffle
from engine.core.events import Event, Moved, Note, Revealed
from engine.core.hexgrid import Hex
from engine.galaxy.attack import guard_react
from engine.galaxy.board import label, parse_label
from engine.galaxy.content import alien_card
from engine.galaxy.expansion import expanded, hooks
from engine.galaxy.lifecycle import (
    closest_free,
    free_hex_in_area,
    nearest_free,
    place_alien,
    roll_teleport_point,
)
from engine.galaxy.state import GalaxyState, Pending, SignalState
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


Resume = dict[str, str | int | list[str]]
"""Where the resolution carries on after the Alpha Agent picks a teleport hex (phases.py)."""


def teleport_signal(
    state: GalaxyState, dice: Dice, events: list[Event], resume: Resume | None = None
) -> bool:
    """Roll for the Point and place a Signal from the Reserve there. When the Point is taken
    and several free hexes are equally close, the Alpha Agent picks one (a `teleport` prompt;
    `resume` names where the resolution carries on after his answer); a caller that cannot
    wait (no `resume`) takes the first of them in board order. True when the Alpha Agent is
    asked (the caller stops and his answer resumes it)."""
    point = roll_teleport_point(state, dice, events)
    if point is None:
        events.append(Note(text="No Teleport Point is left: no Signal arrives."))
        return False
    has_token = bool(state.signal_reserve or state.signal_discard)
    if resume is not None and has_token and ask_spot(state, point, {"what": "signal", **resume}):
        events.append(Note(text=teleport_question(state, point, "A Signal")))
        return True
    signal_at(state, point, dice, events)
    return False


def ask_spot(state: GalaxyState, point: Hex, data: Resume) -> bool:
    """Ask the Alpha Agent which of the equally close free hexes the newcomer takes (the
    rulebook: the Alpha Agent decides); False when there is nothing to choose. An expansion
    game is not asked yet: its own resolutions around a teleport cannot wait for an answer, so
    it keeps the first hex in board order (the expansion's helpers own that layer)."""
    if expanded(state):
        return False
    options = closest_free(state, point)
    if len(options) < 2:
        return False
    state.pending = Pending(
        kind="teleport",
        seat=state.alpha,
        options=[label(h) for h in options],
        data={**data, "point": label(point)},
    )
    return True


def teleport_question(state: GalaxyState, point: Hex, who: str) -> str:
    return (
        f"{who} teleports to the Point at {label(point)}, which is taken: the Alpha Agent "
        f"picks one of the closest free hexes ({', '.join(state.pending.options)})."
        if state.pending is not None
        else ""
    )


def signal_at(state: GalaxyState, point: Hex, dice: Dice, events: list[Event]) -> None:
    """A Signal from the Reserve arrives on this Teleport Point (or the closest free hex)."""
    land_signal(state, nearest_free(state, point), dice, events)


def land_signal(state: GalaxyState, spot: Hex | None, dice: Dice, events: list[Event]) -> None:
    """A Signal from the Reserve arrives on this hex (revealed at once if an agent sees it)."""
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
    state: GalaxyState,
    spec: dict[str, str],
    dice: Dice,
    events: list[Event],
    why: str,
    resume: Resume | None = None,
) -> bool:
    """Teleport the matching Alien card's figure (searched in the deck, then its discards);
    the Alpha Agent picks among equally close hexes as for a Signal (`teleport_signal`; True
    when he is asked)."""
    pool = [*state.alien_deck.draw_pile, *state.alien_deck.discard_pile]
    if not any(spec_matches(spec, c) for c in pool):
        events.append(Note(text=f"{why}: no matching Alien card is left in the deck."))
        return False
    point = roll_teleport_point(state, dice, events)
    if point is not None and resume is not None:
        wanted = [f"{k}={v}" for k, v in spec.items()]
        if ask_spot(state, point, {"what": "alien", "spec": wanted, "why": why, **resume}):
            events.append(Note(text=teleport_question(state, point, f"{why}: an alien")))
            return True
    land_alien(state, spec, nearest_free(state, point) if point is not None else None, events, why)
    return False


def spec_matches(spec: dict[str, str], card_id: str) -> bool:
    c = alien_card(card_id)
    return all(getattr(c, k) == v for k, v in spec.items())


def land_alien(
    state: GalaxyState, spec: dict[str, str], spot: Hex | None, events: list[Event], why: str
) -> None:
    if spot is None:
        events.append(Note(text=f"{why}: no Teleport Point or free hex."))
        return
    card_id = state.alien_deck.search_and_take(
        lambda c: spec_matches(spec, c), include_discards=True
    )
    place_alien(state, card_id, spot, events, f"teleports in ({why})")


def land_teleport(state: GalaxyState, option: str, dice: Dice, events: list[Event]) -> Resume:
    """The Alpha Agent's answer to a `teleport` prompt: the newcomer lands on the hex he picked;
    returns the prompt's data so the caller resumes the resolution it interrupted."""
    pending = state.pending
    assert pending is not None and pending.kind == "teleport"
    state.pending = None
    spot = parse_label(option)
    data = pending.data
    events.append(Note(text=f"The Alpha Agent picks {option} for the newcomer."))
    if data.get("what") == "alien":
        raw = data.get("spec", [])
        pairs = [str(item).partition("=") for item in (raw if isinstance(raw, list) else [])]
        spec = {k: v for k, _, v in pairs}
        land_alien(state, spec, spot, events, str(data.get("why", "")))
    else:
        land_signal(state, spot, dice, events)
    return data


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

"""The human Xeno player's placement choices: starting forces (2.0) and spawns (11.0).

Placements wait in `state.placements`; the Xeno seat answers them one at a time with
`choose option:<square>` (or `choose option:auto` to let the documented policy place the rest).
"""

from __future__ import annotations

from engine.core.dice import Dice, pick
from engine.core.errors import RuleError
from engine.core.events import Event, Note
from engine.core.game import Action
from engine.core.squaregrid import Square
from engine.forlorn.board import label, parse_label
from engine.forlorn.content import xeno_word
from engine.forlorn.setup import lay_egg, sc_of
from engine.forlorn.spawn import (
    count_spawn,
    from_pool,
    place,
    special_choice,
    special_kinds,
    spill_squares,
)
from engine.forlorn.state import ForlornState, Placement
from engine.forlorn.world import attack_range, board_of, sq


def options(state: ForlornState, placement: Placement) -> list[Square]:
    board = board_of(state)
    taken = {u.at for u in state.active()}
    setup = set(board.setup)
    free = [
        s
        for s in sorted(board.floor)
        if label(s) not in taken and board.vent_at(s) is None and s not in setup
    ]
    if placement.zone == "vent":
        return [
            v
            for n, v in sorted(board.vents.items())
            if n not in state.blocked_vents and label(v) not in taken
        ]
    if placement.zone == "overflow":
        return sorted(spill_squares(state))
    if placement.zone.startswith("room:"):
        room = board.rooms[placement.zone[5:]]
        return [s for s in free if s in room]
    if placement.zone.startswith("drop:"):  # 2.0: an Egg goes on a square it touched
        touched = [parse_label(x) for x in placement.zone[5:].split("+")]
        return [s for s in free if s in touched]
    if placement.zone == "far":
        marines = [sq(m.at) for m in state.active("marines") if m.at]
        return [s for s in free if all(attack_range(s, m) >= 4 for m in [*setup, *marines])]
    return []


AUTO = Action(verb="choose", args={"option": "auto"}, label="Place the rest by policy")
MARINE_AUTO = Action(
    verb="choose", args={"option": "auto"}, label="Let the game place them (away from the Marines)"
)


def marine_placing(state: ForlornState) -> bool:
    """Whether the next placement is an overflow spawn, the Marine player's choice (11.0)."""
    return bool(state.placements) and state.placements[0].zone == "overflow"


def specials(state: ForlornState) -> list[str]:
    return special_kinds(state, sc_of(state))


def legal(state: ForlornState) -> list[Action]:
    if not state.placements:
        return []
    first = state.placements[0]
    if first.kind == "special":  # 8.3.3 / Op 04: a Warrior or a Blaster, her choice
        return [
            Action(
                verb="choose",
                args={"option": kind},
                label=f"Spawn a {xeno_word(kind)} (Warrior or Blaster, your choice)",
            )
            for kind in specials(state)
        ] + [Action(verb="choose", args={"option": "auto"}, label="Place the rest by policy")]
    if first.zone == "overflow":  # 11.0: the Marine player places the spawns beside full vents
        return [
            Action(
                verb="choose",
                args={"option": label(s)},
                label=f"Put the spawning {xeno_word(first.kind)} on {label(s)} "
                "(next to a full vent)",
            )
            for s in options(state, first)
        ] + [MARINE_AUTO]
    if first.kind == "egg":
        return [
            Action(
                verb="choose",
                args={"option": label(s)},
                label=f"Put the dropped Egg on {label(s)} (a square it touched)",
            )
            for s in options(state, first)
        ] + [AUTO]
    zone = "a free Access Vent" if first.zone == "vent" else first.zone.replace("room:", "room ")
    out = [
        Action(
            verb="choose",
            args={"option": label(s)},
            label=f"Place the {xeno_word(first.kind)} on {label(s)} ({zone})",
        )
        for s in options(state, first)
    ]
    out.append(Action(verb="choose", args={"option": "auto"}, label="Place the rest by policy"))
    return out


def resolve_forced(state: ForlornState, dice: Dice, events: list[Event]) -> None:
    """Placements with no square to choose are handled by policy (11.0 overflow, lost units)."""
    while state.placements:
        first = state.placements[0]
        if first.kind == "special":
            kinds = specials(state)
            if len(kinds) > 1:
                return  # her choice
            if not kinds:
                state.placements.pop(0)
                events.append(Note(text="No Warrior or Blaster is left in the pool."))
                continue
            first.kind = kinds[0]
        if options(state, first):
            return
        if first.zone == "vent" and spill_squares(state):
            first.zone = "overflow"  # 11.0: every vent is taken, the Marine player chooses
            continue
        state.placements.pop(0)
        if first.zone in ("vent", "overflow"):
            count_spawn(state, [first.kind], dice, events)
        elif first.kind == "egg":
            events.append(
                Note(text="Every square a dropped Egg touched is taken: it is set aside (2.0).")
            )
        else:
            events.append(
                Note(
                    text=f"No square is left for the {xeno_word(first.kind)}; it stays in the pool."
                )
            )


def apply(state: ForlornState, action: Action, dice: Dice) -> list[Event]:
    events = _apply(state, action, dice)
    if not state.placements and state.place_resume == "deploy":
        state.phase = "deploy"  # 2.0: the Eggs are down; the Marines set up next
    return events


def _apply(state: ForlornState, action: Action, dice: Dice) -> list[Event]:
    if action.verb != "choose" or not state.placements:
        raise RuleError("Place your Xenos first: choose a square (or auto).")
    events: list[Event] = []
    option = (action.args.get("option") or "").strip().upper()
    if option == "AUTO" and marine_placing(state):
        while marine_placing(state):  # the policy spot for each overflow spawn, as before
            count_spawn(state, [state.placements.pop(0).kind], dice, events)
        resolve_forced(state, dice, events)
        return events
    if option == "AUTO":
        while state.placements:
            first = state.placements.pop(0)
            auto_place(state, first, dice, events)
        return events
    first = state.placements[0]
    if first.kind == "special":
        kinds = specials(state)
        if option.lower() not in kinds:
            raise RuleError(f"Choose the Special to spawn: {' or '.join(kinds)} (or auto).")
        first.kind = option.lower()
        events.append(
            Note(text=f"The Xeno player chooses a {xeno_word(first.kind)} for the Special spawn.")
        )
        resolve_forced(state, dice, events)
        return events
    target = parse_label(option)
    allowed = options(state, first)
    if target is None or target not in allowed:
        names = ", ".join(label(s) for s in allowed[:12])
        raise RuleError(f"The {xeno_word(first.kind)} must go on one of: {names}.")
    state.placements.pop(0)
    if first.kind == "egg":
        lay_egg(state, target)
        events.append(Note(text=f"The Xeno player puts a dropped Egg on {label(target)}."))
        resolve_forced(state, dice, events)
        return events
    unit = from_pool(state, first.kind)
    if unit is None:
        events.append(Note(text=f"No {xeno_word(first.kind)} is left in the pool."))
    else:
        who = "Marine" if first.zone == "overflow" else "Xeno"
        place(state, unit, target, events, f" (the {who} player's choice)")
    resolve_forced(state, dice, events)
    return events


def auto_place(state: ForlornState, placement: Placement, dice: Dice, events: list[Event]) -> None:
    """Policy: spawns go like the automatic Xenos' (nearest the Marines); set-up squares are
    the first free ones in board order."""
    if placement.kind == "special":
        placement.kind = special_choice(state, sc_of(state))
    if placement.zone in ("vent", "overflow"):
        count_spawn(state, [placement.kind], dice, events)
        return
    spots = options(state, placement)
    if placement.kind == "egg":  # the automatic Xenos' drop: one touched square by dice
        if spots:
            where = pick(dice, spots)
            lay_egg(state, where)
            events.append(Note(text=f"A dropped Egg is put on {label(where)}."))
        else:
            events.append(Note(text="Every square a dropped Egg touched is taken: set aside."))
        return
    unit = from_pool(state, placement.kind)
    if not spots or unit is None:
        events.append(Note(text=f"No room or no counter for the {xeno_word(placement.kind)}."))
        return
    place(state, unit, spots[0], events, " (placed by policy)")

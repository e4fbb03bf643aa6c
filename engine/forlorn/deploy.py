"""Marine set-up (2.0): before turn 1 the Marine seats pick squares and facings themselves."""

from __future__ import annotations

from engine.core.errors import RuleError
from engine.core.events import Event, Moved, Note, Turned
from engine.core.game import Action
from engine.core.squaregrid import Square, neighbours
from engine.forlorn.board import label, parse_label
from engine.forlorn.setup import sc_of
from engine.forlorn.state import ForlornState, Unit, seat_name
from engine.forlorn.turn import waiting_marine_seats
from engine.forlorn.world import board_of, sq

FACINGS = ("N", "E", "S", "W")


def deploy_squares(state: ForlornState, unit: Unit) -> list[Square]:
    """Where this Marine may set up: the green circles, the ring round A (Solo A), or its room."""
    board = board_of(state)
    sc = sc_of(state)
    trapped: dict[str, list[str]] = sc.trapped
    if any(unit.id in ids for ids in trapped.values()):
        # Solo B: two Marines in each sealed room, the Marine player's choice of who goes where.
        here = board.room_of(sq(unit.at))
        out: list[Square] = []
        for room, ids in trapped.items():
            inside = [
                u
                for u in state.active("marines")
                if u.id != unit.id and u.at and board.room_of(sq(u.at)) == room
            ]
            if room == here or len(inside) < len(ids):
                out += [s for s in board.rooms[room] if board.vent_at(s) is None]
            else:  # the other room is full: trade places with one of the Marines there
                out += [sq(u.at) for u in inside]
        return sorted(out)
    if sc.setup == "around-A":
        return sorted(n for n in neighbours(board.letters["A"]) if board.on_board(n))
    return sorted(board.setup)


def swap_partner(state: ForlornState, unit: Unit, target: Square) -> Unit | None:
    """Solo B set-up: the trapped Marine in the other sealed room whose square `unit` may take
    (the two trade places, so each room keeps two)."""
    board = board_of(state)
    trapped: dict[str, list[str]] = sc_of(state).trapped
    if not any(unit.id in ids for ids in trapped.values()):
        return None
    here = board.room_of(sq(unit.at))
    other = next((u for u in state.at(label(target)) if u.side == "marines"), None)
    if other is None or not any(other.id in ids for ids in trapped.values()):
        return None
    there = board.room_of(target)
    return other if there is not None and there != here else None


def pending_cut(state: ForlornState) -> list[str]:
    """Solo A Veteran: the Marine player still has to send home the Flamethrower or Gunner."""
    options = sc_of(state).cut_one_of
    alive = [uid for uid in options if (u := state.unit(uid)) is not None and u.status == "active"]
    return alive if len(alive) == len(options) and len(options) > 1 else []


def legal(state: ForlornState, seat: str) -> list[Action]:
    if seat not in waiting_marine_seats(state):
        return []
    cut = pending_cut(state)
    if cut:
        return [
            Action(verb="choose", args={"option": f"cut:{uid}"}, label=f"Leave {uid} behind")
            for uid in cut
        ]
    out: list[Action] = []
    taken = {u.at for u in state.active()}
    for u in state.active("marines"):
        if u.seat not in (None, seat):
            continue
        for s in deploy_squares(state, u):
            if label(s) not in taken or swap_partner(state, u, s) is not None:
                out.append(
                    Action(
                        verb="move",
                        args={"unit": u.id, "to": label(s)},
                        label=f"set up {u.name} on {label(s)}",
                    )
                )
        for f in FACINGS:
            if f != u.facing:
                out.append(
                    Action(verb="move", args={"unit": u.id, "to": f}, label=f"{u.name} faces {f}")
                )
    if state.bot_vent is not None and seat == waiting_marine_seats(state)[0]:
        for n in sorted(board_of(state).vents):
            if n not in state.blocked_vents:
                out.append(
                    Action(
                        verb="act",
                        args={"what": "bot", "to": str(n)},
                        label=f"Put the Maintenance Bot on Access Vent {n} instead",
                    )
                )
    out.append(Action(verb="end-turn", label="Set-up done: start the operation"))
    return out


def place_bot(state: ForlornState, vent: str | None) -> list[Event]:
    """Op 04: the Marine player picks the Access Vent the Maintenance Bot blocks."""
    if state.bot_vent is None:
        raise RuleError("There is no Maintenance Bot to place during this set-up.")
    if not vent or not vent.strip().isdigit() or int(vent) not in board_of(state).vents:
        raise RuleError("Name the Access Vent (1-6) for the Maintenance Bot.")
    n = int(vent)
    if n in state.blocked_vents:
        raise RuleError(f"Access Vent {n} is already blocked.")
    state.blocked_vents.remove(state.bot_vent)
    state.blocked_vents.append(n)
    state.bot_vent = n
    return [Note(text=f"The Maintenance Bot will block Access Vent {n}.")]


def apply(state: ForlornState, seat: str, action: Action) -> list[Event]:
    if seat not in waiting_marine_seats(state):
        raise RuleError(f"The {seat_name(seat)} seat has already finished setting up.")
    cut = pending_cut(state)
    if cut:
        option = (action.args.get("option") or "").lower()
        if action.verb != "choose" or option[4:] not in cut or not option.startswith("cut:"):
            raise RuleError(f"Veteran: first choose who stays behind: {', '.join(cut)}.")
        unit = state.unit(option[4:])
        assert unit is not None
        unit.status, unit.at = "removed", None
        return [Note(text=f"Veteran: {unit.name} stays behind on the ship.")]
    if action.verb == "end-turn":
        state.ended.append(seat)
        return [Note(text=f"The {seat_name(seat)} seat has set up.")]
    if action.verb == "act" and (action.args.get("what") or "").strip().lower() == "bot":
        return place_bot(state, action.args.get("to"))
    if action.verb != "move":
        raise RuleError("During set-up, place Marines (move unit to a square or a facing).")
    unit = state.unit(action.args.get("unit", ""))
    if unit is None or unit.side != "marines" or unit.status != "active":
        raise RuleError(f"There is no Marine '{action.args.get('unit')}' to set up.")
    if unit.seat not in (None, seat):
        raise RuleError(f"{unit.name} takes orders from the {unit.seat} seat.")
    to = action.args.get("to", "").upper()
    if to in FACINGS:
        unit.facing = to
        return [Turned(figure=unit.id, facing=to, text=f"{unit.name} will start facing {to}.")]
    target = parse_label(to)
    allowed = deploy_squares(state, unit)
    if target is None or target not in allowed:
        raise RuleError(f"{unit.name} must set up on one of: {', '.join(map(label, allowed))}.")
    partner = swap_partner(state, unit, target)
    if state.at(label(target)) and partner is None:
        raise RuleError(f"{label(target)} is already taken.")
    old = sq(unit.at)
    unit.at = label(target)
    events: list[Event] = [
        Moved(figure=unit.id, path=[label(old), unit.at], text=f"{unit.name} sets up on {unit.at}.")
    ]
    if partner is not None:
        partner.at = label(old)
        events.append(
            Moved(
                figure=partner.id,
                path=[unit.at, partner.at],
                text=f"{partner.name} trades places with {unit.name} and sets up on {partner.at}.",
            )
        )
    return events

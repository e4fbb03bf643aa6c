"""Marine seats that lose their last Marine, and the shared AP pool in words.

With several Marine seats the squad is dealt among them, so a seat can lose every Marine it
commands (dead, or out through an airlock) while the operation goes on. Nobody drops out
silently: the seat is told (a public line, and a word to its player alone, `SeatTold`), and
it may ask another Marine seat to hand over one of its Marines, which that seat's player
grants or refuses, or watch. The rulebook is written for one Marine player, so how the squad
is shared among several is ours; the Marines and the AP pool stay one squad's.

Answers (`choose`, any time, in or out of turn):
- the seat with no Marine: `ask:<unit>` (one standing ask; a new one replaces it), `watch`;
- the Marine's commander, while asked: `hand:<unit>` or `refuse:<unit>`.
"""

from __future__ import annotations

from engine.core.errors import RuleError
from engine.core.events import Event, Note, SeatTold
from engine.core.game import Action
from engine.forlorn.setup import MARINE_SEATS
from engine.forlorn.state import ForlornState, Unit, seat_name

ASK, GIVE, KEEP, WATCH = "ask:", "hand:", "refuse:", "watch"
HOW = "press Pick an action under the campaign's latest post"


def _marine_seats(state: ForlornState) -> list[str]:
    return [s for s in MARINE_SEATS if s in state.seats] or ["marines"]


def commands(state: ForlornState, seat: str) -> list[Unit]:
    """The Marines a seat commands now (on the map)."""
    return [u for u in state.active("marines") if u.seat in (None, seat)]


def out_seats(state: ForlornState) -> list[str]:
    """Marine seats left with no Marine while another Marine seat still has some (with one
    Marine seat, losing the last Marine ends the operation)."""
    seats = _marine_seats(state)
    if len(seats) < 2 or state.phase == "over":
        return []
    out = [s for s in seats if not commands(state, s)]
    return out if len(out) < len(seats) else []


def _owner(unit: Unit) -> str:
    return unit.seat or "marines"


def legal(state: ForlornState, seat: str) -> list[Action]:
    """The hand-over answers a Marine seat has now (none for most seats most of the time)."""
    if seat not in _marine_seats(state) or state.phase == "over":
        return []
    out: list[Action] = []
    if seat in out_seats(state):
        asked = state.asks.get(seat)
        for unit in state.active("marines"):
            if unit.seat and unit.seat != seat and unit.id != asked:
                label = f"Ask {seat_name(unit.seat)} to hand you {unit.name}"
                out.append(_choose(ASK + unit.id, label))
        if seat not in state.watching:
            out.append(_choose(WATCH, "Watch the rest of the operation"))
    for asker, uid in sorted(state.asks.items()):
        wanted = state.unit(uid)
        if wanted is None or wanted.status != "active" or _owner(wanted) != seat:
            continue
        if asker not in out_seats(state) or any(a.args["option"] == GIVE + uid for a in out):
            continue  # two seats asking for one Marine: the first ask is answered first
        out.append(_choose(GIVE + uid, f"Hand {wanted.name} to {seat_name(asker)}"))
        out.append(_choose(KEEP + uid, f"Keep {wanted.name} ({seat_name(asker)} asked)"))
    return out


def _choose(option: str, label: str) -> Action:
    return Action(verb="choose", args={"option": option}, label=label)


def is_answer(action: Action) -> bool:
    """Whether the action is a hand-over answer (routed here, not to the phase's rules)."""
    option = action.args.get("option", "").strip().lower()
    return action.verb == "choose" and (option == WATCH or option.startswith((ASK, GIVE, KEEP)))


def _refusal(state: ForlornState, seat: str, option: str) -> str:
    """Why a hand-over answer is not the seat's to give now, in words."""
    who = seat_name(seat)
    unit = state.unit(option.partition(":")[2])
    if option == WATCH or option.startswith(ASK):
        if seat not in out_seats(state):
            return f"{who} still commands a Marine: only a seat with none left asks or watches."
        if option == WATCH:
            return f"{who} is already watching."
        if unit is None or unit.status != "active":
            return "That Marine is not on the map."
        return f"{unit.name} is not another seat's Marine, or is already asked for."
    if unit is None or unit.status != "active":
        return "That Marine is not on the map."
    owner = seat_name(_owner(unit))
    if not any(u == unit.id for u in state.asks.values()):
        return f"Nobody has asked for {unit.name}."
    return f"Only {owner} answers for {unit.name}."


def apply(state: ForlornState, seat: str, action: Action) -> list[Event]:
    option = action.args.get("option", "").strip().lower()
    if seat not in _marine_seats(state) or state.phase == "over":
        raise RuleError("Only a Marine seat hands Marines over, while the operation goes on.")
    if not any(a.args["option"] == option for a in legal(state, seat)):
        raise RuleError(_refusal(state, seat, option))
    who = seat_name(seat)
    if option == WATCH:
        state.watching.append(seat)
        state.asks.pop(seat, None)
        return [Note(text=f"{who} has no Marine left and watches the rest of the operation.")]
    kind, _, uid = option.partition(":")
    unit = state.unit(uid)
    assert unit is not None
    if kind + ":" == ASK:
        state.asks[seat] = uid
        owner = _owner(unit)
        return [
            Note(text=f"{who} has no Marine left and asks {seat_name(owner)} for {unit.name}."),
            SeatTold(
                seat=owner,
                message=f"{who} has no Marine left and asks you to hand over {unit.name}. "
                f"To answer (hand over or keep), {HOW}.",
            ),
        ]
    asker = next(a for a, u in state.asks.items() if u == uid and a in out_seats(state))
    del state.asks[asker]
    if kind + ":" == KEEP:
        return [
            Note(text=f"{who} keeps {unit.name}."),
            SeatTold(seat=asker, message=f"{who} keeps {unit.name}; you may ask again."),
        ]
    unit.seat = asker
    for order in state.orders:
        if order.unit == uid:
            order.seat = asker
    if asker in state.watching:
        state.watching.remove(asker)
    return [
        Note(text=f"{who} hands {unit.name} to {seat_name(asker)}."),
        SeatTold(seat=asker, message=f"{who} agreed: {unit.name} is yours to command now."),
    ]


def newly_out(before: list[str], state: ForlornState) -> list[Event]:
    """A seat that has just lost its last Marine is told, in public and to its player."""
    events: list[Event] = []
    for seat in out_seats(state):
        if seat in before:
            continue
        who = seat_name(seat)
        events.append(
            Note(
                text=f"{who} has no Marine left: they may ask another Marine seat to hand one "
                "over, or watch."
            )
        )
        events.append(
            SeatTold(
                seat=seat,
                message=f"Your last Marine is gone ({who}). You may ask another Marine seat to "
                f"hand you one of its Marines (its player must agree), or watch: {HOW}.",
            )
        )
    return events


def pool_words(state: ForlornState) -> str:
    """The shared AP pool in words: what is left, and who spent what this turn."""
    shared = " shared" if len(_marine_seats(state)) > 1 else ""
    left = f"{state.ap} AP left in the{shared} pool"
    spent = [f"{seat_name(s)} {n}" for s, n in state.ap_spent.items() if n]
    return f"{left}; spent this turn: {', '.join(spent)}" if spent else left


def seat_lines(state: ForlornState) -> list[str]:
    """The seats with no Marine, for `/campaign status`."""
    lines = []
    for seat in out_seats(state):
        doing = "watching" if seat in state.watching else "may ask another seat for a Marine"
        asked = state.unit(state.asks[seat]) if seat in state.asks else None
        if asked is not None:
            doing = f"asked {seat_name(_owner(asked))} for {asked.name}"
        lines.append(f"{seat_name(seat)}: no Marine left ({doing})")
    return lines

"""The seven phases of a turn (3.0) and everything automatic between player decisions."""

from __future__ import annotations

from engine.core.dice import Dice, roll_many
from engine.core.events import Event, MissionEnded, Note, PhaseChanged, Rolled
from engine.core.squaregrid import neighbours
from engine.core.words import counted
from engine.forlorn.board import label
from engine.forlorn.content import Scenario, units
from engine.forlorn.placement import resolve_forced
from engine.forlorn.setup import MARINE_SEATS, make_marine, place_starting_forces, sc_of
from engine.forlorn.spawn import from_pool, place, spawn_phase
from engine.forlorn.state import ForlornState, Unit
from engine.forlorn.world import attack_range, board_of, has_los, sq
from engine.forlorn.xenos import egg_burst, run_ai_phase

PRIVATES = ("bates", "ortiz", "novak", "reyes", "lund")
VP_EXIT = {"fox": 4, "krauss": 4, "bates": 4, "ortiz": 4, "novak": 4, "reyes": 4, "lund": 4}


def marine_seats(state: ForlornState) -> list[str]:
    return [s for s in MARINE_SEATS if s in state.seats] or ["marines"]


def waiting_marine_seats(state: ForlornState) -> list[str]:
    """Marine seats still to end the Marine phase that command a Marine on the map."""
    return [
        s
        for s in marine_seats(state)
        if s not in state.ended and any(u.seat in (None, s) for u in state.active("marines"))
    ]


def action_points(state: ForlornState, rolls: list[int]) -> tuple[int, list[str]]:
    """4.0-4.2: higher die, +1 doubles, + Leadership, + Bio-Scanner; at least one per Marine."""
    high = max(rolls)
    parts = [f"high die {high}"]
    total = high
    if rolls[0] == rolls[1]:
        total += 1
        parts.append("+1 doubles")
    for m in state.active("marines"):
        lead = units().marines[m.kind].leadership
        if lead and m.at is not None:
            total += lead
            parts.append(f"+{lead} {m.name}")
    if any("bio-scanner" in m.items for m in state.active("marines")):
        total += 2
        parts.append("+2 Bio-Scanner")
    if state.mutation.ap_drain:
        total -= state.mutation.ap_drain
        parts.append(f"-{state.mutation.ap_drain} Mutation")
        state.mutation.ap_drain = 0
    minimum = len(state.active("marines"))
    if total < minimum:
        parts.append(f"raised to the minimum of {minimum} (one per Marine)")
        total = minimum
    return total, parts


def ap_phase(state: ForlornState, dice: Dice, events: list[Event]) -> None:
    for u in state.units:
        u.fresh = False
        u.activated = False
    reinforcements = sc_of(state).reinforcements
    if reinforcements is not None and state.turn == reinforcements.turn:
        reinforce(state, events)
    rolls = roll_many(dice, 2)
    state.ap_roll = rolls
    total, parts = action_points(state, rolls)
    state.ap = total
    state.ap_spent = {}
    state.ap_untouched = True
    events.append(
        Rolled(
            purpose="action points",
            faces=[str(r) for r in rolls],
            text=f"Turn {state.turn}: Action Points {total} ({', '.join(parts)}).",
        )
    )
    state.ended = []
    state.mover, state.mp_left = None, 0
    state.phase = "marine"
    events.append(
        PhaseChanged(
            round=state.turn,
            phase="marine",
            active=marine_seats(state),
            text=f"Turn {state.turn}: Marine phase.",
        )
    )


def reinforce(state: ForlornState, events: list[Event]) -> None:
    """Op 04: a SGT, the Flamethrower and up to two Privates whose counters were freed by
    casualties arrive on the set-up squares; Xenos there are pushed to the closest empty square."""
    board = board_of(state)
    seats = marine_seats(state)
    arriving: list[Unit] = []
    for i, uid in enumerate(("krauss", "berns")):
        if state.unit(uid) is None:
            unit = make_marine(uid, seats[i % len(seats)] if len(seats) > 1 else None, True)
            unit.heroic = uid == "krauss"
            unit.status = "dead"
            state.units.append(unit)
            arriving.append(unit)
    fallen = [u for u in state.units if u.status == "dead" and u.kind in PRIVATES]
    for unit in fallen[:2]:
        state.corpses = [c for c in state.corpses if c.unit != unit.id]
        arriving.append(unit)
    for unit in arriving:
        spot = next(
            (s for s in board.setup if not any(u.side == "marines" for u in state.at(label(s)))),
            None,
        )
        if spot is None:
            events.append(Note(text=f"No free set-up square: {unit.name} cannot arrive."))
            continue
        for x in state.at(label(spot)):
            free = [
                n
                for n in sorted(board.floor, key=lambda n: (attack_range(n, spot), label(n)))
                if board.vent_at(n) is None and not state.at(label(n)) and n != spot
            ]
            if free:
                x.at = label(free[0])
                events.append(Note(text=f"{x.name} is shoved aside to {x.at}."))
        unit.status, unit.at, unit.hits, unit.items = "active", label(spot), 0, []
        unit.facing = "S"
        if unit.kind == "berns":
            state.flame_supply = max(state.flame_supply, 5)
        events.append(Note(text=f"Reinforcement: {unit.name} arrives at {unit.at}."))


def start_xeno_phase(state: ForlornState, events: list[Event]) -> None:
    state.phase = "xeno"
    state.mover, state.mp_left = None, 0
    for o in state.orders:
        o.spent = 0
    state.xeno_active, state.xeno_mp = None, 0
    active = ["xeno"] if state.xeno_human else []
    events.append(
        PhaseChanged(
            round=state.turn, phase="xeno", active=active, text=f"Turn {state.turn}: Xeno phase."
        )
    )


def goal_met(state: ForlornState, sc: Scenario) -> bool:
    goal = sc.goal
    kind = goal.kind
    if kind == "vp":
        return state.vp >= int(goal.target)
    if kind == "mcgfn-exit":
        return any(u.status == "exited" and "mcgfn" in u.items for u in state.units)
    if kind == "clear-rooms":
        board = board_of(state)
        return not any(board.room_of(sq(x.at)) in goal.rooms for x in state.active("xenos") if x.at)
    if kind == "mcgfn-activate":
        return state.mcgfn_progress >= int(goal.aps)
    if kind == "exit":
        return sum(1 for u in state.units if u.exited_via == goal.airlock) >= int(goal.count)
    return False


def solo_b_vp(state: ForlornState) -> int:
    vp = 0
    for u in state.units:
        if u.side == "marines" and u.status == "exited" and u.exited_via == "C":
            vp += VP_EXIT.get(u.kind, 8)
    vp += sum(1 for k in state.kills if k in ("warrior", "blaster", "egg"))
    return vp


def victory_phase(state: ForlornState, sc: Scenario, events: list[Event]) -> bool:
    board = board_of(state)
    if state.scenario == "solo-a":
        a = board.letters["A"]
        gained = 0
        if any(u.kind == "lt" for u in state.active("marines")):
            gained += 1
        for m in state.active("marines"):
            s = sq(m.at)
            if s == a or (s in neighbours(a) and has_los(state, s, a, "marines")):
                gained += 1
        state.vp += gained
        events.append(Note(text=f"Victory phase: {gained} VP this turn, {state.vp} in all."))
    elif state.scenario == "solo-b":
        state.vp = solo_b_vp(state)
        events.append(Note(text=f"Victory phase: {state.vp} VP so far."))
    if goal_met(state, sc):
        finish(state, "victory", events, "The Marines achieve their goal.")
        return True
    if not state.active("marines"):
        finish(state, "defeat", events, "No Marine is left on the station: the Xenos win.")
        return True
    return False


def finish(state: ForlornState, outcome: str, events: list[Event], why: str) -> None:
    state.phase = "over"
    state.outcome = outcome
    events.append(MissionEnded(outcome=outcome, text=f"{why} Outcome: {outcome}."))


def end_of_turn(state: ForlornState, dice: Dice, events: list[Event]) -> None:
    sc = sc_of(state)
    if victory_phase(state, sc, events):
        return
    # Countdown.
    if state.turn >= state.turns_total:
        finish(
            state, "defeat", events, "The last turn is over and the goal is not met: the Xenos win."
        )
        return
    # Housekeeping.
    closed = len(state.open_doors)
    state.open_doors = []
    state.flame_spent += len(state.flames)
    state.flames = []
    for u in state.units:
        u.surge = False
    state.mutation.frenzy = {}
    state.mutation.shielded = []
    events.append(
        Note(
            text=f"Housekeeping: {counted(closed, 'open door')} swing shut, flames die down, "
            "surges fade."
        )
    )
    # Spawn.
    if state.scenario == "op-04" and state.turn == 1:
        flood(state, dice, events)
    else:
        if state.scenario == "op-03" and state.turn == 4 and sc.turn4_blasters:
            turn4_blasters(state, dice, events)
        spawn_phase(state, sc, dice, events)
        if state.spawn_roll is not None:  # the Xeno player decides on the roll first
            state.phase = "xeno-spawn"
            events.append(
                PhaseChanged(
                    round=state.turn,
                    phase="xeno-spawn",
                    active=["xeno"],
                    text="The Xeno player decides on the spawn roll.",
                )
            )
            return
    after_spawn(state, dice, events)


def after_spawn(state: ForlornState, dice: Dice, events: list[Event]) -> None:
    """The end of the Spawn phase: the Xeno player's placements, then the next turn."""
    if state.placements:
        resolve_forced(state, dice, events)
    if state.placements:
        state.phase, state.place_resume = "xeno-place", "next-turn"
        overflow = state.placements[0].zone == "overflow"
        events.append(
            PhaseChanged(
                round=state.turn,
                phase="xeno-place",
                active=marine_seats(state)[:1] if overflow else ["xeno"],
                text="Every Access Vent is taken: the Marine player places the rest beside them."
                if overflow
                else "The Xeno player places the new spawns.",
            )
        )
        return
    state.turn += 1
    state.phase = "start"


def flood(state: ForlornState, dice: Dice, events: list[Event]) -> None:
    """Op 04: after turn 1, two Drones at each open vent instead of the normal spawn."""
    board = board_of(state)
    for n, v in sorted(board.vents.items()):
        if n in state.blocked_vents:
            continue
        for _ in range(2):
            unit = from_pool(state, "drone")
            if unit is not None:
                place(state, unit, v, events, f" (vent {n}, the first-turn flood)")


def turn4_blasters(state: ForlornState, dice: Dice, events: list[Event]) -> None:
    """Op 03 special rule 1: two dice name the vents; a blocked vent (the Maintenance Bot, or
    any unit on it, 11.0, the first Blaster included) gets no Blaster."""
    board = board_of(state)
    for _ in range(2):
        roll = dice.roll()
        unit = from_pool(state, "blaster")
        vent = board.vents[roll]
        if roll in state.blocked_vents or state.at(label(vent)):
            events.append(Note(text=f"Blaster roll {roll}: vent {roll} is blocked, no Blaster."))
            continue
        if unit is None:
            events.append(Note(text=f"Blaster roll {roll}: no Blaster left in the pool."))
            continue
        place(state, unit, vent, events, f" (turn 4 Blasters, vent {roll})")


def run(state: ForlornState, dice: Dice) -> list[Event]:
    """Run automatic phases until a seat must act or the mission ends."""
    events: list[Event] = []
    for _ in range(1000):
        if state.phase == "over" or state.phase == "mulligan":
            break
        if state.phase == "deploy":
            if waiting_marine_seats(state):
                break
            events.append(Note(text="The Marines are in position."))
            events += place_starting_forces(state, dice)
            state.phase = "xeno-place" if state.placements else "start"
            state.place_resume = "start"
        elif state.phase == "xeno-place":
            if state.placements:
                resolve_forced(state, dice, events)
            if state.placements:
                break
            if state.place_resume == "next-turn":
                state.turn += 1
            state.phase = "deploy" if state.place_resume == "deploy" else "start"
        elif state.phase == "start":
            ap_phase(state, dice, events)
        elif state.phase == "marine":
            if waiting_marine_seats(state):
                break
            start_xeno_phase(state, events)
        elif state.phase == "xeno":
            if state.xeno_human:
                break
            run_ai_phase(state, dice, events)
            state.phase = "eggs"
        elif state.phase == "eggs":
            egg_burst(state, events)
            state.phase = "end"
        elif state.phase == "end":
            end_of_turn(state, dice, events)
        elif state.phase == "xeno-spawn":
            break
    return events

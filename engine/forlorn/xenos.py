"""Xeno activations (6.x), the solitaire A.I. (13.2), interrupts (5.7) and egg bursts (6.6)."""

from __future__ import annotations

from collections.abc import Callable

from engine.core.dice import Dice, pick
from engine.core.events import Event, Moved, Note, Revealed
from engine.core.pathfinding import Reach
from engine.core.squaregrid import Facing, Square, neighbours
from engine.forlorn import combat
from engine.forlorn.board import label
from engine.forlorn.content import scenarios, units
from engine.forlorn.marines import can_shoot, pay, refuel, spin_facing
from engine.forlorn.movement import doors_on_path, xeno_reach
from engine.forlorn.state import ForlornState, Order, Unit
from engine.forlorn.world import (
    adjacent,
    attack_range,
    blockers_for,
    board_of,
    has_los,
    marine_profile,
    sq,
    toss_squares,
)


def xeno_mp(state: ForlornState, xeno: Unit) -> int:
    return units().xenos[xeno.kind].mp + state.mutation.frenzy.get(xeno.id, 0)


def can_activate(xeno: Unit) -> bool:
    return (
        xeno.status == "active"
        and xeno.at is not None
        and xeno.kind != "egg"
        and not xeno.fresh
        and not xeno.activated
    )


# --- interrupts (standing orders) ----------------------------------------------------------


def resolve_interrupt(state: ForlornState, xeno: Unit, dice: Dice, events: list[Event]) -> None:
    """5.7: after a square of Xeno movement, the first standing order that can fire does.
    An order given with `surge:yes` pays with its Marine's Surge marker first (5.8)."""
    if xeno.status != "active" or xeno.at is None:
        return
    try:
        _resolve_interrupt(state, xeno, dice, events)
    finally:
        state.surge_for = None


def _resolve_interrupt(state: ForlornState, xeno: Unit, dice: Dice, events: list[Event]) -> None:
    where = xeno.at or ""
    xsq = sq(where)
    for order in state.orders:
        marine = state.unit(order.unit)
        if marine is None or marine.status != "active" or marine.at is None:
            continue
        if order.spent >= order.aps or not (state.ap > 0 or marine.surge):
            continue
        if attack_range(sq(marine.at), xsq) > order.range:
            continue
        state.surge_for = marine.id if order.surge and marine.surge else None
        if order.grenade:
            if grenade_interrupt(state, marine, xeno, dice, events):
                order.spent += 1
                return
            continue
        if marine.jammed and marine.kind == "zac":
            continue
        if _refuel_first(state, order, marine, xeno):
            order.spent += 1
            pay(state, marine, events)
            events.append(
                Note(text=f"{marine.name}'s standing order: the tank is empty, he refuels first.")
            )
            refuel(state, marine, events)
        flame = marine.kind == "berns" and state.flame_supply > 0 and _flame_front(marine, xsq)
        dice_left = 1 if flame else interrupt_dice(marine, spin=False)
        if can_shoot(state, marine, xeno) and dice_left > 0:
            order.spent += 1
            pay(state, marine, events)
            events.append(
                Note(
                    text=f"Interrupt! {marine.name}'s standing order triggers on "
                    f"{xeno.name} at {xeno.at}."
                )
            )
            if flame:
                state.flame_supply -= 1
                state.flames.append(where)
                rolls, killed = combat.flame_square(state, where, dice, events, marine)
                combat.award_surge(marine, rolls, killed, events)
            else:
                combat.marine_attack(
                    state, marine, xeno, dice, events, interrupt=True, pistol=marine.kind == "berns"
                )
            return
        if (
            order.spin
            and interrupt_dice(marine, spin=True) > 0
            and has_los(state, sq(marine.at), xsq, "marines")
            and spin_facing(marine, xsq) is not None
        ):
            order.spent += 1
            pay(state, marine, events)
            facing = spin_facing(marine, xsq)
            assert facing is not None
            marine.facing = facing.value
            events.append(
                Note(text=f"Interrupt! {marine.name} spins to face {facing.value} at {xeno.name}.")
            )
            combat.marine_attack(
                state,
                marine,
                xeno,
                dice,
                events,
                spin=True,
                interrupt=True,
                pistol=marine.kind == "berns",
            )
            return


def _refuel_first(state: ForlornState, order: Order, marine: Unit, xeno: Unit) -> bool:
    """5.5 "at any time", in the Xeno phase through a standing order (`refuel:yes`): when a
    Xeno steps into the flamethrower's three front squares and the tank is empty, it refuels
    (1 AP) and sprays (1 AP), if the order's budget and the pool pay for both. Without fuel
    its interrupt would be the pistol, one die less: none."""
    if not order.refuel or marine.kind != "berns" or state.refuelled or state.flame_supply > 0:
        return False
    if state.flame_spent <= 0 or order.spent + 2 > order.aps:
        return False
    if state.ap + (1 if marine.surge else 0) < 2 or xeno.at is None:
        return False
    return _flame_front(marine, sq(xeno.at)) and can_shoot(state, marine, xeno)


def grenade_interrupt(
    state: ForlornState, marine: Unit, xeno: Unit, dice: Dice, events: list[Event]
) -> bool:
    """A standing grenade order lobs one at the Xeno's square, never with a Marine in the
    blast (documented policy); the blast dice are not reduced (8.5 has no interrupt penalty).
    The square must be one a grenade may go to (8.5: in sight of any Marine, any facing)."""
    xsq = sq(xeno.at)
    if state.grenades <= 0 or label(xsq) not in toss_squares(state):
        return False
    blast = {label(s) for s, _ in combat.blast_squares(state, xsq)}
    if any(m.at in blast for m in state.active("marines")):
        return False
    pay(state, marine, events)
    events.append(
        Note(text=f"Interrupt! {marine.name}'s standing order: a grenade at {xeno.name}.")
    )
    combat.grenade(state, marine, xsq, dice, events)
    return True


def interrupt_dice(marine: Unit, spin: bool) -> int:
    """Dice an interrupt would roll (8.3.1: one fewer; a spin costs one more)."""
    attack = 1 if marine.kind == "berns" else marine_profile(marine)[1]
    return attack - 1 - (1 if spin else 0)


def _flame_front(marine: Unit, target: Square) -> bool:
    here = sq(marine.at)
    f = Facing(marine.facing or "N")
    fwd, left, right = f.delta, f.left.delta, f.right.delta
    return target in [
        Square(here.x + fwd[0] + d[0], here.y + fwd[1] + d[1]) for d in ((0, 0), left, right)
    ]


# --- walking --------------------------------------------------------------------------------


def walk(
    state: ForlornState, xeno: Unit, path: list[Square], dice: Dice, events: list[Event]
) -> list[str]:
    """Move square by square: doors open, flames burn, interrupts fire, corpses may be eaten."""
    for door in doors_on_path(state, path):
        if door not in state.open_doors:
            state.open_doors.append(door)
    walked = [label(path[0])]
    for s in path[1:]:
        xeno.at = label(s)
        walked.append(xeno.at)
        if xeno.at in state.flames:
            combat.flame_unit(state, xeno, dice, events)
        if xeno.status == "active":
            resolve_interrupt(state, xeno, dice, events)
        if xeno.status != "active":
            break
    return walked


def moved_event(xeno: Unit, walked: list[str], why: str) -> Moved:
    return Moved(
        figure=xeno.id,
        path=walked,
        text=f"{xeno.name} moves {walked[0]} to {walked[-1]}: {why}.",
    )


# --- the solitaire A.I. (13.2) ------------------------------------------------------------


def marine_distances(
    state: ForlornState, xeno: Unit, reach: Reach[Square]
) -> dict[str, tuple[int, Square]]:
    """For each Marine: the cheapest MP cost to a free square adjacent to it (in sight)."""
    blockers = blockers_for(state, "xenos")
    out: dict[str, tuple[int, Square]] = {}
    here = sq(xeno.at)
    for m in state.active("marines"):
        if m.at is None:
            continue
        msq = sq(m.at)
        best: tuple[int, int, int, str, Square] | None = None
        for n in neighbours(msq):
            if n not in reach.cost or not _attack_square(state, xeno, here, n, msq, blockers):
                continue
            diagonal = 1 if (n.x != msq.x and n.y != msq.y) else 0
            rear = 0 if combat.rear_attack(m, n) else 1
            key = (reach.cost[n], diagonal, rear, label(n), n)
            if best is None or key[:4] < best[:4]:
                best = key
        if best is not None:
            out[m.id] = (best[0], best[4])
        elif here in neighbours(msq) and has_los(state, here, msq, "xenos", blockers):
            out[m.id] = (0, here)
    return out


def _attack_square(
    state: ForlornState, xeno: Unit, here: Square, n: Square, marine: Square, blockers: set[str]
) -> bool:
    """May the Xeno standing at `here` end its move on `n` to attack the Marine at `marine`
    (a neighbour of it): on the board, free (or where it stands), and in sight?"""
    return (
        board_of(state).on_board(n)
        and (n == here or _free(state, xeno, n))
        and has_los(state, n, marine, "xenos", blockers)
    )


def reaches_a_marine(state: ForlornState, xeno: Unit) -> Callable[[Square], bool]:
    """Is a square one the Xeno could attack some Marine from (`_attack_square`)? The A.I.
    targets the Marine it reaches most cheaply, so its search may stop at the nearest."""
    here = sq(xeno.at)
    blockers = blockers_for(state, "xenos")
    beside: dict[Square, list[Square]] = {}
    for m in state.active("marines"):
        if m.at is not None:
            msq = sq(m.at)
            for n in neighbours(msq):
                beside.setdefault(n, []).append(msq)

    def check(s: Square) -> bool:
        marines = beside.get(s)
        if marines is None:
            return False
        return any(_attack_square(state, xeno, here, s, m, blockers) for m in marines)

    return check


def choose_target(
    state: ForlornState, xeno: Unit, dice: Dice, reach: Reach[Square]
) -> tuple[Unit, int, Square] | None:
    return nearest_of(state, marine_distances(state, xeno, reach), dice)


def nearest_of(
    state: ForlornState, dist: dict[str, tuple[int, Square]], dice: Dice
) -> tuple[Unit, int, Square] | None:
    """The Marine with the lowest MP cost (13.2: ties at random), its cost and square."""
    if not dist:
        return None
    low = min(d for d, _ in dist.values())
    tied = sorted(uid for uid, (d, _) in dist.items() if d == low)
    uid = tied[0] if len(tied) == 1 else pick(dice, tied)
    target = state.unit(uid)
    assert target is not None
    return target, low, dist[uid][1]


def closest_crowded(
    state: ForlornState, xeno: Unit, dice: Dice, reach: Reach[Square]
) -> tuple[Unit, int, Square] | None:
    """The closest Marine by MP to a square next to it (in sight) even when another Xeno
    stands there, and that square: the goal of a Xeno that cannot reach a free one."""
    blockers = blockers_for(state, "xenos")
    board = board_of(state)
    best: dict[str, tuple[int, Square]] = {}
    for m in state.active("marines"):
        if m.at is None:
            continue
        msq = sq(m.at)
        for n in sorted(neighbours(msq), key=label):
            if n not in reach.cost or not board.on_board(n):
                continue
            if not has_los(state, n, msq, "xenos", blockers):
                continue
            if m.id not in best or reach.cost[n] < best[m.id][0]:
                best[m.id] = (reach.cost[n], n)
    return nearest_of(state, best, dice)


def flee_flames(state: ForlornState, xeno: Unit, dice: Dice, events: list[Event]) -> int:
    """13.2: a Xeno in flames first heads for the nearest square free of fire and units."""
    reach = xeno_reach(state, xeno, None, avoid_flames=False)
    safe = [s for s, c in reach.cost.items() if label(s) not in state.flames and s != sq(xeno.at)]
    if not safe:
        return 0
    low = min(reach.cost[s] for s in safe)
    nearest = [s for s in safe if reach.cost[s] == low]
    marines = [sq(m.at) for m in state.active("marines") if m.at]

    def to_marine(s: Square) -> int:
        return min((attack_range(s, m) for m in marines), default=0)

    best = min(to_marine(s) for s in nearest)
    choices = sorted((s for s in nearest if to_marine(s) == best), key=label)
    goal = choices[0] if len(choices) == 1 else pick(dice, choices)
    index = len(events)
    full = xeno_reach(state, xeno, None, avoid_flames=False, stop_filter=False)
    walked = walk(state, xeno, full.path(goal), dice, events)
    events.insert(
        index, moved_event(xeno, walked, "escaping the flames to the nearest clear square")
    )
    return low


def eat_corpse(state: ForlornState, xeno: Unit, events: list[Event]) -> bool:
    """6.3: a Drone or Hatchling on a corpse grows into a Special (A.I.: Warrior, else Blaster)."""
    if xeno.kind not in ("drone", "hatchling"):
        return False
    corpse = next((c for c in state.corpses if c.at == xeno.at), None)
    if corpse is None:
        return False
    banned = scenarios()[state.scenario].no_warriors
    for kind in ("warrior", "blaster"):
        if kind == "warrior" and banned:
            continue
        spare = next((u for u in state.units if u.status == "pool" and u.kind == kind), None)
        if spare is None:
            continue
        grow(state, xeno, spare, events)
        return True
    return False


def grow(state: ForlornState, xeno: Unit, spare: Unit, events: list[Event]) -> None:
    where = xeno.at
    state.corpses = [c for c in state.corpses if c.at != where]
    xeno.status, xeno.at = "pool", None
    xeno.hits = 0
    spare.status, spare.at, spare.fresh, spare.activated = "active", where, True, True
    spare.placed = max(u.placed for u in state.units) + 1
    events.append(
        Note(text=f"{xeno.name} devours the corpse at {where} and grows into {spare.name}.")
    )


def ai_activate(state: ForlornState, xeno: Unit, dice: Dice, events: list[Event]) -> None:
    xeno.activated = True
    mp = xeno_mp(state, xeno)
    if xeno.at in state.flames:
        mp -= flee_flames(state, xeno, dice, events)
        if xeno.status != "active":
            return
        if mp <= 0:
            return
    # The search may stop once every square next to a Marine is settled, or once the squares
    # as cheap as the nearest one to attack from are: the target choice (`marine_distances`)
    # keeps only the cheapest, and the walk follows a path to one of them.
    near_marines = {n for m in state.active("marines") if m.at for n in neighbours(sq(m.at))}
    reach = xeno_reach(
        state,
        xeno,
        None,
        stop_filter=False,
        until=near_marines,
        nearest=reaches_a_marine(state, xeno),
    )
    chosen = choose_target(state, xeno, dice, reach)
    if chosen is None:
        # 13.2: every square next to the reachable Marines is taken (by other Xenos): it still
        # moves towards the closest Marine, through its fellows, as far as a free square lets.
        reach = xeno_reach(state, xeno, None, stop_filter=False)
        chosen = closest_crowded(state, xeno, dice, reach)
    if chosen is None:
        events.append(Note(text=f"{xeno.name} finds no path to any Marine and lurks."))
        return
    target, cost, goal = chosen
    blaster = xeno.kind == "blaster"
    if blaster and has_los(state, sq(xeno.at), sq(target.at), "xenos"):
        events.append(
            Note(text=f"{xeno.name} has {target.name} in sight ({cost} MP away) and fires.")
        )
        combat.xeno_attack(state, xeno, target, dice, events, ranged=True)
        return
    here = sq(xeno.at)
    if goal != here:
        path = reach.path(goal)
        # Only walk the part of the path this activation can pay for, ending on a free square.
        stop = 0
        for i, s in enumerate(path):
            if reach.cost[s] > mp:
                break
            if i == 0 or _free(state, xeno, s):
                stop = i
        path = path[: stop + 1]
        if len(path) > 1:
            why = f"closest Marine is {target.name}, {cost} MP away"
            index = len(events)
            walked: list[str] = [label(path[0])]
            for s in path[1:]:
                walked += walk(state, xeno, [sq(xeno.at), s], dice, events)[1:]
                if xeno.status != "active":
                    break
                if (
                    blaster
                    and target.status == "active"
                    and _free(state, xeno, sq(xeno.at))
                    and has_los(state, sq(xeno.at), sq(target.at), "xenos")
                ):
                    # Stop to shoot only where it may end its move: never on another unit.
                    break
                if _free(state, xeno, sq(xeno.at)) and eat_corpse(state, xeno, events):
                    events.insert(index, moved_event(xeno, walked, why))
                    return
            events.insert(index, moved_event(xeno, walked, why))
            if xeno.status != "active":
                return
    if target.status != "active":
        return
    if blaster and has_los(state, sq(xeno.at), sq(target.at), "xenos"):
        combat.xeno_attack(state, xeno, target, dice, events, ranged=True)
        return
    foes = [m for m in state.active("marines") if adjacent(state, xeno, m)]
    if target in foes:
        combat.xeno_attack(state, xeno, target, dice, events)
    elif foes:
        victim = sorted(foes, key=lambda m: m.id)[0]
        events.append(
            Note(text=f"{xeno.name} cannot reach {target.name} and turns on {victim.name}.")
        )
        combat.xeno_attack(state, xeno, victim, dice, events)


def _free(state: ForlornState, xeno: Unit, s: Square) -> bool:
    where = label(s)
    if board_of(state).vent_at(s) is not None:
        return False
    return not any(u.id != xeno.id for u in state.at(where))


def activation_order(state: ForlornState) -> list[Unit]:
    """13.2 'in any order the player chooses': the Marine player's standing choice, the
    table option `activation` (`nearest` Xenos first, the default, or `farthest` first); a
    stack always moves top first."""
    marines = [sq(m.at) for m in state.active("marines") if m.at]
    sign = -1 if state.options.get("activation", "nearest") == "farthest" else 1

    def key(x: Unit) -> tuple[int, int, str]:
        near = min((attack_range(sq(x.at), m) for m in marines), default=99)
        return sign * near, -x.placed, x.id

    return sorted((x for x in state.active("xenos") if can_activate(x)), key=key)


def run_ai_phase(state: ForlornState, dice: Dice, events: list[Event]) -> None:
    while state.active("marines"):
        ready = activation_order(state)
        if not ready:
            break
        ai_activate(state, ready[0], dice, events)


# --- egg burst (6.6) ------------------------------------------------------------------------


def egg_burst(state: ForlornState, events: list[Event]) -> None:
    marines = [sq(m.at) for m in state.active("marines") if m.at]
    for egg in [u for u in state.active("xenos") if u.kind == "egg"]:
        esq = sq(egg.at)
        if any(has_los(state, esq, m, "xenos") for m in marines):
            egg.kind = "hatchling"
            egg.name = f"Hatchling {egg.id.upper()}"
            egg.fresh = True
            events.append(
                Revealed(
                    figure=egg.id,
                    at=egg.at or "",
                    text=f"The Egg at {egg.at} senses a Marine and splits: a Hatchling emerges.",
                )
            )

"""Marine actions in the Marine phase (5.x): moving, doors, items, attacks and the rest."""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.errors import RuleError
from engine.core.events import Event, Moved, Note, Turned
from engine.core.game import Action
from engine.core.squaregrid import Facing, Square, ahead, in_front_arc, neighbours
from engine.forlorn import combat
from engine.forlorn.board import DOOR, SECURITY, door_id, label, parse_label
from engine.forlorn.content import ITEMS, scenarios
from engine.forlorn.movement import Node, marine_reach
from engine.forlorn.state import ForlornState, Order, Unit
from engine.forlorn.world import (
    adjacent,
    board_of,
    grappled,
    has_los,
    in_arc,
    marine_profile,
    sq,
    toss_squares,
)

FACINGS = ("N", "E", "S", "W")


# --- paying ---------------------------------------------------------------------------------


def can_pay(state: ForlornState, marine: Unit, aps: int = 1) -> bool:
    if aps == 1 and marine.surge:
        return True
    return state.ap >= aps


def pay(state: ForlornState, marine: Unit, events: list[Event], aps: int = 1) -> None:
    """Spend APs (5.8): the Surge marker pays for a 1-AP action only when the player asks for
    it (`surge:yes`, recorded in `state.surge_for`) or when the pool is empty, since then it
    is the only way to pay; otherwise the pool pays and the marker is kept."""
    wanted = state.surge_for == marine.id
    if aps == 1 and marine.surge and (wanted or state.ap < 1):
        marine.surge = False
        state.surge_for = None
        events.append(Note(text=f"{marine.name} spends a Surge marker instead of an AP."))
        return
    if wanted:
        raise RuleError(f"{marine.name} has no Surge marker to spend on that.")
    if state.ap < aps:
        raise RuleError(f"{marine.name} needs {aps} AP but only {state.ap} remain.")
    spend_pool(state, marine, aps)


def spend_pool(state: ForlornState, marine: Unit, aps: int) -> None:
    """Take APs from the shared pool, booked to the seat commanding the Marine (the pool's
    account in words: who spent what)."""
    state.ap -= aps
    seat = marine.seat or "marines"
    state.ap_spent[seat] = state.ap_spent.get(seat, 0) + aps


def end_movement(state: ForlornState) -> None:
    state.mover, state.mp_left = None, 0


def spend_mp(state: ForlornState, marine: Unit, cost: int, events: list[Event]) -> None:
    """Movement Points come from the unit's current move, or a fresh AP if it runs short."""
    avail = state.mp_left if state.mover == marine.id else 0
    if cost > avail:
        if not can_pay(state, marine):
            raise RuleError(f"{marine.name} has {avail} MP left and no AP to move again.")
        mp = marine_profile(marine)[0]
        if cost > avail + mp:
            raise RuleError(f"{marine.name} cannot afford {cost} MP even with another AP.")
        pay(state, marine, events)
        avail += mp
    state.mover, state.mp_left = marine.id, avail - cost


def mp_budget(state: ForlornState, marine: Unit) -> int:
    avail = state.mp_left if state.mover == marine.id else 0
    if can_pay(state, marine):
        avail += marine_profile(marine)[0]
    return avail


# --- finding things -------------------------------------------------------------------------


def my_marine(state: ForlornState, seat: str, uid: str | None) -> Unit:
    if not uid:
        raise RuleError("Name the Marine (unit:...).")
    u = state.unit(uid)
    if u is None or u.side != "marines":
        raise RuleError(f"There is no Marine called '{uid}'.")
    if u.status != "active" or u.at is None:
        raise RuleError(f"{u.name} is no longer on the map.")
    if u.seat is not None and u.seat != seat:
        raise RuleError(f"{u.name} takes orders from the {u.seat} seat, not {seat}.")
    return u


def xeno_target(state: ForlornState, tid: str | None) -> Unit:
    if not tid:
        raise RuleError("Name the target Xeno (target:...).")
    t = state.unit(tid)
    if t is None or t.side != "xenos" or t.status != "active" or t.at is None:
        raise RuleError(f"There is no Xeno '{tid}' on the map.")
    return t


def square_arg(text: str | None) -> Square:
    found = parse_label(text or "")
    if found is None:
        raise RuleError(f"'{text}' is not a square (use a label such as J7).")
    return found


# --- movement -------------------------------------------------------------------------------


def facing_key(node: Node, kept: str | None) -> tuple[bool, int]:
    """Tie-break between equally cheap ends of a move: the Marine's own facing first (5.1: a
    sidestep, a step back or a sideslip keeps it), then N, E, S, W."""
    return (node[1].value != kept, FACINGS.index(node[1].value))


def best_node(
    reach_cost: dict[Node, int], target: Square, facing: Facing | None, kept: str | None
) -> Node | None:
    """The cheapest way to end on `target` (facing `facing` if given, else `kept` on a tie)."""
    options = [
        (cost, facing_key(node, kept), node)
        for node, cost in reach_cost.items()
        if node[0] == target and (facing is None or node[1] == facing)
    ]
    return min(options)[2] if options else None


def do_move(
    state: ForlornState, marine: Unit, to: str, facing: str | None, dice: Dice
) -> list[Event]:
    events: list[Event] = []
    here = sq(marine.at)
    want_facing = Facing(facing.upper()) if facing and facing.upper() in FACINGS else None
    if facing and want_facing is None:
        raise RuleError(f"'{facing}' is not a facing (N, E, S or W).")
    if to.upper() in FACINGS:
        target, want_facing = here, Facing(to.upper())
    else:
        target = square_arg(to)
    budget = mp_budget(state, marine)
    reach = marine_reach(state, marine, budget)
    node = best_node(reach.cost, target, want_facing, marine.facing)
    if node is None and state.flames:  # 8.7: through the flames when there is no way round
        reach = marine_reach(state, marine, budget, through_flames=True)
        node = best_node(reach.cost, target, want_facing, marine.facing)
    if node is None or node == (here, Facing(marine.facing or "N")):
        why = "it is grappled by an adjacent Xeno" if grappled(state, marine) else "no path fits"
        raise RuleError(
            f"{marine.name} cannot reach {to.upper()} with {budget} MP available ({why})."
        )
    cost = reach.cost[node]
    spend_mp(state, marine, cost, events)
    path = reach.path(node)
    squares = [label(n[0]) for n in path]
    route: list[str] = [squares[0]]
    for s in squares[1:]:
        if s != route[-1]:
            route.append(s)
    marine.facing = node[1].value
    if len(route) == 1:
        events.append(
            Turned(
                figure=marine.id,
                facing=marine.facing,
                text=f"{marine.name} turns to face "
                f"{marine.facing} ({cost} MP, {state.mp_left} MP left).",
            )
        )
        return events
    for s in route[1:]:
        marine.at = s
        if s in state.flames:
            combat.flame_unit(state, marine, dice, events)
            if marine.status != "active":
                break
    events.insert(
        0,
        Moved(
            figure=marine.id,
            path=route,
            text=f"{marine.name} moves {route[0]} to {route[-1]} facing {marine.facing} "
            f"({cost} MP, {state.mp_left} MP left).",
        ),
    )
    return events


def move_actions(
    state: ForlornState,
    marine: Unit,
    grapple: set[Square] | None = None,
    blocked: set[Square] | None = None,
) -> list[Action]:
    budget = mp_budget(state, marine)
    if budget <= 0:
        return []
    reach = marine_reach(state, marine, budget, grapple, blocked)
    costs = dict(reach.cost)
    burnt: set[Square] = set()
    if state.flames:  # squares only a path through the flames reaches (8.7)
        hot = marine_reach(state, marine, budget, grapple, blocked, through_flames=True)
        reached = {n[0] for n in costs}
        for node, cost in hot.cost.items():
            if node[0] not in reached:
                costs[node] = cost
                burnt.add(node[0])
    here = sq(marine.at)
    out: list[Action] = []
    best: dict[Square, tuple[int, Node]] = {}
    for node, cost in costs.items():
        if node[0] == here:
            if node[1].value != marine.facing:
                out.append(
                    Action(
                        verb="move",
                        args={"unit": marine.id, "to": node[1].value},
                        label=f"{marine.name}: turn to face {node[1].value} - {cost} MP",
                    )
                )
            continue
        key = (cost, facing_key(node, marine.facing))
        old = best.get(node[0])
        if old is None or key < (old[0], facing_key(old[1], marine.facing)):
            best[node[0]] = (cost, node)
    for target, (cost, node) in sorted(best.items()):
        out.append(
            Action(
                verb="move",
                args={"unit": marine.id, "to": label(target)},
                label=f"{marine.name}: {label(target)} facing {node[1].value} - {cost} MP"
                + (" through flames" if target in burnt else ""),
            )
        )
    carried = state.mp_left if state.mover == marine.id else 0
    if marine.surge:
        out += [surge_variant(a) for a in out if _move_cost(a.label or "") > carried]
    return out


def _move_cost(text: str) -> int:
    return int(text.rsplit(" - ", 1)[1].split(" ")[0])


def surge_variant(action: Action) -> Action:
    """The same action paid with the Marine's Surge marker instead of an AP (5.8)."""
    return Action(
        verb=action.verb,
        args={**action.args, "surge": "yes"},
        label=f"{action.label} (spend the Surge marker)",
    )


# --- doors and items ------------------------------------------------------------------------


def door_between(state: ForlornState, marine: Unit, other: str | None) -> tuple[str, str]:
    board = board_of(state)
    here = sq(marine.at)
    there = square_arg(other)
    kind = board.edge(here, there)
    if kind not in (DOOR, SECURITY) or abs(here.x - there.x) + abs(here.y - there.y) != 1:
        raise RuleError(
            f"There is no door between {marine.name} at {marine.at} and {label(there)}."
        )
    return door_id(here, there), kind


def do_door(state: ForlornState, marine: Unit, what: str, other: str | None) -> list[Event]:
    events: list[Event] = []
    name, kind = door_between(state, marine, other)
    opening = what == "open"
    if name in state.sealed_doors:
        raise RuleError(f"The door {name} is sealed; unseal it from outside the room first.")
    if opening == (name in state.open_doors):
        raise RuleError(f"The door {name} is already {'open' if opening else 'closed'}.")
    if grappled(state, marine):
        raise RuleError(f"{marine.name} is grappled by an adjacent Xeno and cannot work doors.")
    if kind == DOOR:
        spend_mp(state, marine, 1, events)
        cost = "1 MP"
    else:
        if not can_pay(state, marine):
            raise RuleError("No AP left to work a Security Door.")
        end_movement(state)
        pay(state, marine, events)
        cost = "1 AP"
    if opening:
        state.open_doors.append(name)
    else:
        state.open_doors.remove(name)
    events.append(
        Note(text=f"{marine.name} {'opens' if opening else 'closes'} the door {name} ({cost}).")
    )
    return events


def do_unseal(state: ForlornState, marine: Unit, other: str | None) -> list[Event]:
    events: list[Event] = []
    name, _ = door_between(state, marine, other)
    if name not in state.sealed_doors:
        raise RuleError(f"The door {name} is not sealed.")
    if board_of(state).room_of(sq(marine.at)) in ("A", "B"):
        raise RuleError(f"{marine.name} must stand outside the room to cut the seal.")
    if grappled(state, marine):  # 7.3: cutting the seal opens a Security Door
        raise RuleError(f"{marine.name} is grappled by an adjacent Xeno and cannot cut the seal.")
    if not can_pay(state, marine):
        raise RuleError("No AP left to cut the seal.")
    end_movement(state)
    pay(state, marine, events)
    state.sealed_doors.remove(name)
    state.open_doors.append(name)
    events.append(
        Note(text=f"{marine.name} cuts the seal on {name}; the Security Door opens (1 AP).")
    )
    return events


def do_pickup(state: ForlornState, marine: Unit, item: str | None) -> list[Event]:
    events: list[Event] = []
    here = marine.at or ""
    lying = state.floor_items.get(here, [])
    if not item or item not in lying:
        raise RuleError(f"There is no {item or 'item'} on {here} for {marine.name} to pick up.")
    if len(marine.items) >= 2:
        raise RuleError(f"{marine.name} already carries two Items.")
    if grappled(state, marine):
        raise RuleError(f"{marine.name} is grappled by an adjacent Xeno and cannot pick things up.")
    if item == "mcgfn" and state.mcgfn_plugged:
        if not can_pay(state, marine):
            raise RuleError("Unplugging the MCGFN costs 1 AP and none is left.")
        end_movement(state)
        pay(state, marine, events)
        state.mcgfn_plugged = False
        cost = "1 AP to unplug"
    else:
        spend_mp(state, marine, 1, events)
        cost = "1 MP"
    lying.remove(item)
    if not lying:
        state.floor_items.pop(here, None)
    marine.items.append(item)
    events.append(Note(text=f"{marine.name} picks up the {ITEMS[item]} at {here} ({cost})."))
    return events


def do_drop(state: ForlornState, marine: Unit, item: str | None) -> list[Event]:
    if not item or item not in marine.items:
        raise RuleError(f"{marine.name} does not carry {item or 'that item'}.")
    marine.items.remove(item)
    state.floor_items.setdefault(marine.at or "", []).append(item)
    return [Note(text=f"{marine.name} drops the {ITEMS[item]} at {marine.at}.")]


def do_give(state: ForlornState, marine: Unit, item: str | None, to: str | None) -> list[Event]:
    events: list[Event] = []
    other = state.unit(to or "")
    if other is None or other.side != "marines" or other.status != "active":
        raise RuleError(f"There is no Marine '{to}' to take the item.")
    if not item or item not in marine.items:
        raise RuleError(f"{marine.name} does not carry {item or 'that item'}.")
    if not adjacent(state, marine, other):
        raise RuleError(f"{other.name} is not adjacent to {marine.name}.")
    if len(other.items) >= 2:
        raise RuleError(f"{other.name} already carries two Items.")
    if grappled(state, marine):
        raise RuleError(f"{marine.name} is grappled by an adjacent Xeno.")
    spend_mp(state, marine, 1, events)
    marine.items.remove(item)
    other.items.append(item)
    events.append(Note(text=f"{marine.name} hands the {ITEMS[item]} to {other.name} (1 MP)."))
    return events


def do_take(state: ForlornState, marine: Unit, item: str | None) -> list[Event]:
    """9.1: the receiver pays the transfer's 1 MP and takes the Item from an adjacent Marine."""
    events: list[Event] = []
    carrier = next(
        (
            o
            for o in state.active("marines")
            if o.id != marine.id and item in o.items and adjacent(state, marine, o)
        ),
        None,
    )
    if not item or carrier is None:
        raise RuleError(f"No Marine next to {marine.name} carries {item or 'that item'}.")
    if len(marine.items) >= 2:
        raise RuleError(f"{marine.name} already carries two Items.")
    if grappled(state, marine):
        raise RuleError(f"{marine.name} is grappled by an adjacent Xeno.")
    spend_mp(state, marine, 1, events)
    carrier.items.remove(item)
    marine.items.append(item)
    events.append(Note(text=f"{marine.name} takes the {ITEMS[item]} from {carrier.name} (1 MP)."))
    return events


# --- attacks --------------------------------------------------------------------------------


def can_shoot(
    state: ForlornState, marine: Unit, target: Unit, blockers: set[str] | None = None
) -> bool:
    """In the front arc and in sight (`blockers`: see `has_los`)."""
    if target.at is None or marine.at is None:
        return False
    t = sq(target.at)
    return in_arc(marine, t) and has_los(state, sq(marine.at), t, "marines", blockers)


def do_attack(
    state: ForlornState, marine: Unit, target: Unit, weapon: str | None, dice: Dice
) -> list[Event]:
    events: list[Event] = []
    if marine.jammed:
        raise RuleError(
            f"{marine.name}'s minigun is jammed (8.6): clear the jam (act what:clear-jam, 1 AP) "
            "or throw a grenade."
        )
    if weapon not in (None, "", "pistol" if marine.kind == "berns" else "gun"):
        raise RuleError(f"{marine.name} cannot attack with '{weapon}' here.")
    if not can_shoot(state, marine, target):
        raise RuleError(f"{marine.name} has no line of sight to {target.name} in its front arc.")
    if not can_pay(state, marine):
        raise RuleError("No AP left to attack.")
    end_movement(state)
    pay(state, marine, events)
    pistol = marine.kind == "berns"
    combat.marine_attack(state, marine, target, dice, events, pistol=pistol)
    return events


def spin_facing(marine: Unit, target: Square) -> Facing | None:
    """The facing a Spin Attack turns to: fewest quarter turns, then most squarely ahead."""
    here, current = sq(marine.at), Facing(marine.facing or "N")
    options = []
    for turns, f in ((0, current), (1, current.left), (1, current.right), (2, current.back)):
        if in_front_arc(here, f, target):
            options.append((turns, -ahead(here, f, target), FACINGS.index(f.value), f))
    return min(options)[3] if options else None


def do_spin(
    state: ForlornState, marine: Unit, target: Unit, dice: Dice, interrupt: bool = False
) -> list[Event]:
    events: list[Event] = []
    if marine.jammed and marine.kind == "zac":
        raise RuleError(f"{marine.name}'s minigun is jammed.")
    t = sq(target.at)
    facing = spin_facing(marine, t)
    if facing is None or not has_los(state, sq(marine.at), t, "marines"):
        raise RuleError(f"{marine.name} cannot see {target.name} even after spinning.")
    if not can_pay(state, marine):
        raise RuleError("No AP left for a Spin Attack.")
    end_movement(state)
    pay(state, marine, events)
    marine.facing = facing.value
    events.append(
        Turned(
            figure=marine.id,
            facing=facing.value,
            text=f"{marine.name} spins to face {facing.value}.",
        )
    )
    combat.marine_attack(
        state,
        marine,
        target,
        dice,
        events,
        spin=True,
        interrupt=interrupt,
        pistol=marine.kind == "berns",
    )
    return events


def flame_chains(state: ForlornState, marine: Unit) -> list[list[Square]]:
    """8.7: first marker in one of the three squares in front, then up to two more adjacent."""
    board = board_of(state)
    here = sq(marine.at)
    f = Facing(marine.facing or "N")
    fwd, left, right = f.delta, f.left.delta, f.right.delta
    firsts = [Square(here.x + fwd[0] + d[0], here.y + fwd[1] + d[1]) for d in ((0, 0), left, right)]
    doors = frozenset(state.open_doors)

    def ok(a: Square, b: Square) -> bool:
        return b != here and board.on_board(b) and board.passable(a, b, doors)

    limit = min(3, state.flame_supply)
    chains: list[list[Square]] = []
    for first in firsts:
        if not ok(here, first):
            continue
        chains.append([first])
        if limit < 2:
            continue
        for second in neighbours(first):
            if second in (first,) or not ok(first, second):
                continue
            chains.append([first, second])
            if limit < 3:
                continue
            for third in neighbours(second):
                if third in (first, second) or not ok(second, third):
                    continue
                chains.append([first, second, third])
    return chains


def do_flame(state: ForlornState, marine: Unit, chain_text: str | None, dice: Dice) -> list[Event]:
    events: list[Event] = []
    if marine.kind != "berns":
        raise RuleError(f"{marine.name} carries no flamethrower.")
    if state.flame_supply <= 0:
        raise RuleError("No Flame markers are left: refuel (1 AP, once) or use the pistol.")
    parts = [square_arg(p) for p in (chain_text or "").replace(",", "+").split("+") if p]
    if parts not in flame_chains(state, marine):
        raise RuleError(
            "Flame markers go first in one of the three squares in front, then each next to the "
            "previous one, on open floor (at most three)."
        )
    if not can_pay(state, marine):
        raise RuleError("No AP left to attack.")
    end_movement(state)
    pay(state, marine, events)
    events.append(
        Note(text=f"{marine.name} sprays fire over {', '.join(label(p) for p in parts)}.")
    )
    rolls: list[int] = []
    killed = False
    for p in parts:
        state.flame_supply -= 1
        state.flames.append(label(p))
        r, k = combat.flame_square(state, label(p), dice, events, marine)
        rolls += r
        killed = killed or k
    combat.award_surge(marine, rolls, killed, events)
    return events


def do_grenade(state: ForlornState, marine: Unit, to: str | None, dice: Dice) -> list[Event]:
    events: list[Event] = []
    if state.grenades <= 0:
        raise RuleError("No Plasma Grenades are left.")
    target = square_arg(to)
    if label(target) not in toss_squares(state):
        raise RuleError(
            f"No Marine has a line of sight to {label(target)}: a grenade goes only where one "
            "of them can see."
        )
    if not can_pay(state, marine):
        raise RuleError("No AP left to throw a grenade.")
    end_movement(state)
    pay(state, marine, events)
    combat.grenade(state, marine, target, dice, events)
    return events


# --- other actions --------------------------------------------------------------------------


def simple_ap(state: ForlornState, marine: Unit, what: str, aps: int = 1) -> list[Event]:
    events: list[Event] = []
    if not can_pay(state, marine, aps):
        raise RuleError(f"{marine.name} needs {aps} AP for that and the pool has {state.ap}.")
    end_movement(state)
    pay(state, marine, events, aps)
    return events


def do_refuel(state: ForlornState, marine: Unit) -> list[Event]:
    if marine.kind != "berns":
        raise RuleError(f"{marine.name} carries no flamethrower.")
    if state.refuelled:
        raise RuleError("The flamethrower has already been refuelled this Operation.")
    events = simple_ap(state, marine, "refuel")
    refuel(state, marine, events)
    return events


def refuel(state: ForlornState, marine: Unit, events: list[Event]) -> None:
    """5.5: the used Flame markers come back, once per Operation (paid by the caller)."""
    state.flame_supply += state.flame_spent
    state.flame_spent = 0
    state.refuelled = True
    events.append(Note(text=f"{marine.name} refuels: {state.flame_supply} Flame markers ready."))


def do_clear_jam(state: ForlornState, marine: Unit) -> list[Event]:
    if not marine.jammed:
        raise RuleError(f"{marine.name}'s weapon is not jammed.")
    events = simple_ap(state, marine, "clear")
    marine.jammed = False
    events.append(Note(text=f"{marine.name} clears the minigun jam (1 AP)."))
    return events


def exit_allowed(state: ForlornState) -> bool:
    sc = scenarios()[state.scenario]
    return sc.goal.kind in ("mcgfn-exit", "exit") or state.scenario == "solo-b"


def do_exit(state: ForlornState, marine: Unit) -> list[Event]:
    board = board_of(state)
    if not exit_allowed(state):
        raise RuleError("Nobody leaves through the airlocks in this Operation.")
    locks = board.airlocks_of(sq(marine.at))
    if not locks:
        raise RuleError(f"{marine.name} is not next to an airlock.")
    if grappled(state, marine):
        raise RuleError(
            f"{marine.name} is grappled by an adjacent Xeno and cannot cycle the airlock."
        )
    if state.ap < 2:
        raise RuleError(f"Exiting costs 2 AP and only {state.ap} remain.")
    end_movement(state)
    spend_pool(state, marine, 2)
    named = next((n for n, k in board.airlock_names.items() if k == locks[0]), None)
    marine.status = "exited"
    marine.exited_via = named
    carried = f" carrying {', '.join(ITEMS[i] for i in marine.items)}" if marine.items else ""
    lock = f" {named}" if named else ""
    text = f"{marine.name} cycles the airlock{lock} at {marine.at} and leaves{carried} (2 AP)."
    marine.at = None
    state.orders = [o for o in state.orders if o.unit != marine.id]
    return [Note(text=text)]


def do_bot(state: ForlornState, marine: Unit, vent: str | None) -> list[Event]:
    if "maintenance-bot" not in marine.items:
        raise RuleError(f"{marine.name} does not carry the Maintenance Bot.")
    if not vent or not vent.isdigit() or not 1 <= int(vent) <= 6:
        raise RuleError("Name the Access Vent (1-6) for the Maintenance Bot.")
    if int(vent) in state.blocked_vents:
        raise RuleError(f"Access Vent {vent} is already blocked.")
    events = simple_ap(state, marine, "bot")
    marine.items.remove("maintenance-bot")
    state.blocked_vents.append(int(vent))
    events.append(
        Note(text=f"The Maintenance Bot seals Access Vent {vent} for the rest of the Operation.")
    )
    return events


def do_activate(state: ForlornState, marine: Unit) -> list[Event]:
    sc = scenarios()[state.scenario]
    goal = sc.goal
    if goal.kind != "mcgfn-activate":
        raise RuleError("There is nothing to activate in this Operation.")
    if "mcgfn" not in marine.items or marine.at != label(board_of(state).letters[goal.square]):
        raise RuleError(f"{marine.name} must carry the MCGFN on square {goal.square}.")
    if state.mcgfn_turn == state.turn:
        raise RuleError("The MCGFN already took its 1 AP this turn.")
    events = simple_ap(state, marine, "activate")
    state.mcgfn_progress += 1
    state.mcgfn_turn = state.turn
    events.append(
        Note(text=f"{marine.name} feeds the MCGFN: {state.mcgfn_progress}/{goal.aps} AP.")
    )
    return events


def do_orders(state: ForlornState, seat: str, marine: Unit, args: dict[str, str]) -> list[Event]:
    order = args.get("order", "interrupt")
    if order == "cancel":
        before = len(state.orders)
        state.orders = [o for o in state.orders if o.unit != marine.id]
        if len(state.orders) == before:
            raise RuleError(f"{marine.name} has no standing order to cancel.")
        return [Note(text=f"{marine.name}'s standing interrupt order is cancelled.")]
    if order != "interrupt":
        raise RuleError("Orders are 'interrupt' or 'cancel'.")
    try:
        aps = int(args.get("aps", "1"))
        rng = int(args.get("range", "6"))
    except ValueError as bad:
        raise RuleError("aps and range must be whole numbers.") from bad
    if not 1 <= aps <= 12 or not 1 <= rng <= 30:
        raise RuleError("aps must be 1-12 and range 1-30.")
    spin = args.get("spin", "no").lower() in ("yes", "true", "1")
    grenade = args.get("weapon", "").lower() == "grenade"
    if args.get("weapon", "").lower() not in ("", "grenade"):
        raise RuleError("An order's weapon is 'grenade', or left out for the unit's own weapon.")
    if grenade and spin:
        raise RuleError("A grenade order cannot also spin: choose one.")
    surge = args.get("surge", "no").lower()
    if surge not in ("yes", "no"):
        raise RuleError("surge is 'yes' (its Surge marker pays first) or 'no' (the pool first).")
    refuel_first = args.get("refuel", "no").lower()
    if refuel_first not in ("yes", "no"):
        raise RuleError("refuel is 'yes' (refuel first when the tank is empty) or 'no'.")
    if refuel_first == "yes" and marine.kind != "berns":
        raise RuleError(f"{marine.name} carries no flamethrower to refuel.")
    if refuel_first == "yes" and state.refuelled:
        raise RuleError("The flamethrower has already been refuelled this Operation.")
    if refuel_first == "yes" and (grenade or aps < 2):
        raise RuleError("A refuelling order fires the flamethrower: it needs aps 2 or more.")
    state.orders = [o for o in state.orders if o.unit != marine.id]
    state.orders.append(
        Order(
            unit=marine.id,
            aps=aps,
            range=rng,
            spin=spin,
            grenade=grenade,
            seat=seat,
            surge=surge == "yes",
            refuel=refuel_first == "yes",
        )
    )
    what = "spin-attack or attack" if spin else "attack"
    if refuel_first == "yes":
        what = "refuel first if the tank is empty (1 AP), then attack"
    if grenade:
        what = "lob a Plasma Grenade at"
    return [
        Note(
            text=f"{marine.name} stands ready: will {what} the first Xeno moving within range "
            f"{rng} in sight, up to {aps} AP this Xeno phase."
        )
    ]

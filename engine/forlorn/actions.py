"""Marine seats: enumerating legal actions and dispatching them to the rules."""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.errors import RuleError
from engine.core.events import Event, Note, Rolled
from engine.core.game import Action
from engine.core.squaregrid import Square
from engine.forlorn import deploy
from engine.forlorn import marines as m
from engine.forlorn.board import SECURITY, door_id, label, parse_label
from engine.forlorn.content import ITEMS, scenarios
from engine.forlorn.movement import grapple_squares, marine_blocked
from engine.forlorn.state import ForlornState, Unit, seat_name
from engine.forlorn.turn import action_points, waiting_marine_seats
from engine.forlorn.world import adjacent, blockers_for, board_of, has_los, sq, toss_squares
from engine.forlorn.xenos import interrupt_dice


def commanded(state: ForlornState, seat: str) -> list[Unit]:
    return [u for u in state.active("marines") if u.at and u.seat in (None, seat)]


def legal(state: ForlornState, seat: str, only: str | None = None) -> list[Action]:
    """The seat's legal actions; with `only`, just those of that Marine and the seat's own
    (what `apply` needs to check one command against the list, at a fraction of the cost)."""
    if state.phase == "deploy":
        return deploy.legal(state, seat)
    if state.phase != "marine" or seat not in waiting_marine_seats(state):
        return []
    out: list[Action] = []
    grapple, blocked = grapple_squares(state), marine_blocked(state)
    for u in commanded(state, seat):
        if only is None or u.id == only:
            out += unit_actions(state, u, grapple, blocked)
    if state.marine_reroll and state.ap_untouched:
        out.append(
            Action(verb="act", args={"what": "reroll-ap"}, label="Re-roll both AP dice (once)")
        )
    mover = state.unit(state.mover or "")
    if mover is not None and mover in commanded(state, seat):
        out.append(
            Action(
                verb="end-turn",
                args={"unit": mover.id},
                label=f"{mover.name}: stop here (drop its {state.mp_left} MP left)",
            )
        )
    out.append(Action(verb="end-turn", label="End the Marine phase for your Marines"))
    return out


def reroll_ap(state: ForlornState, dice: Dice) -> list[Event]:
    """Op 02: once per game, before spending any AP, the Marines may re-roll both AP dice."""
    if not state.marine_reroll:
        raise RuleError("The Marines have no AP re-roll (Op 02 only, once per game).")
    if not state.ap_untouched:
        raise RuleError("Re-roll the AP dice before spending any Action Point this turn.")
    rolls = [dice.roll(), dice.roll()]
    state.ap_roll = rolls
    total, parts = action_points(state, rolls)
    state.ap = total
    state.marine_reroll = False
    return [
        Rolled(
            purpose="action points",
            faces=[str(r) for r in rolls],
            text=f"AP re-roll: {total} Action Points ({', '.join(parts)}).",
        )
    ]


def _board_order(text: str) -> tuple[int, int]:
    s = parse_label(text)
    return (s.y, s.x) if s is not None else (0, 0)


def unit_actions(
    state: ForlornState, u: Unit, grapple: set[Square], blocked: set[Square]
) -> list[Action]:
    out = m.move_actions(state, u, grapple, blocked)
    pay = m.can_pay(state, u)
    board = board_of(state)
    here = sq(u.at)
    held = sq(u.at) in grapple
    xenos = [x for x in state.active("xenos") if x.at]
    if pay:
        blockers = blockers_for(state, "marines")
        for x in xenos:
            if m.can_shoot(state, u, x, blockers):
                if not (u.jammed and u.kind == "zac"):
                    out.append(
                        Action(
                            verb="attack",
                            args={"unit": u.id, "target": x.id},
                            label=f"{u.name} shoots {x.name} at {x.at}",
                        )
                    )
            elif (
                has_los(state, here, sq(x.at), "marines", blockers)
                and m.spin_facing(u, sq(x.at))
                and not (u.jammed and u.kind == "zac")
            ):
                out.append(
                    Action(
                        verb="act",
                        args={"unit": u.id, "what": "spin", "target": x.id},
                        label=f"{u.name} spin-attacks {x.name} at {x.at}",
                    )
                )
        if u.kind == "berns" and state.flame_supply > 0:
            for chain in m.flame_chains(state, u):
                text = "+".join(label(s) for s in chain)
                out.append(
                    Action(
                        verb="attack",
                        args={"unit": u.id, "target": text, "weapon": "flame"},
                        label=f"{u.name} flames {text}",
                    )
                )
        if state.grenades > 0:
            # 8.5: any square within sight of any Marine, empty or not, whatever the thrower's
            # facing (`toss_squares`); the named Marine makes the attack and spends the AP.
            for to in sorted(toss_squares(state), key=_board_order):
                out.append(
                    Action(
                        verb="act",
                        args={"unit": u.id, "what": "grenade", "to": to},
                        label=f"{u.name} lobs a grenade at {to}",
                    )
                )
        if u.kind == "berns" and not state.refuelled and state.flame_spent > 0:
            out.append(
                Action(
                    verb="act",
                    args={"unit": u.id, "what": "refuel"},
                    label=f"{u.name}: refuel the flamethrower (1 AP)",
                )
            )
        if u.jammed:
            out.append(
                Action(
                    verb="act",
                    args={"unit": u.id, "what": "clear-jam"},
                    label=f"{u.name}: clear the jam (1 AP)",
                )
            )
        if "maintenance-bot" in u.items:
            for n in range(1, 7):
                if n not in state.blocked_vents:
                    out.append(
                        Action(
                            verb="act",
                            args={"unit": u.id, "what": "bot", "to": str(n)},
                            label=f"{u.name}: Maintenance Bot onto vent {n}",
                        )
                    )
        goal = scenarios()[state.scenario].goal
        if (
            goal.kind == "mcgfn-activate"
            and "mcgfn" in u.items
            and u.at == label(board.letters[goal.square])
            and state.mcgfn_turn != state.turn
        ):
            out.append(
                Action(
                    verb="act",
                    args={"unit": u.id, "what": "activate"},
                    label=f"{u.name}: feed the MCGFN (1 AP)",
                )
            )
    budget = m.mp_budget(state, u)
    for key in board.door_edges_of(here):
        other = key[1] if key[0] == here else key[0]
        name = door_id(*key)
        kind = board.edges[key]
        if name in state.sealed_doors:
            if pay and not held and board.room_of(here) not in ("A", "B"):
                out.append(
                    Action(
                        verb="act",
                        args={"unit": u.id, "what": "unseal", "to": label(other)},
                        label=f"{u.name}: cut the seal on {name} (1 AP)",
                    )
                )
            continue
        if held:
            continue
        afford = pay if kind == SECURITY else budget >= 1
        if afford:
            what = "close" if name in state.open_doors else "open"
            cost = "1 AP" if kind == SECURITY else "1 MP"
            out.append(
                Action(
                    verb="act",
                    args={"unit": u.id, "what": what, "to": label(other)},
                    label=f"{u.name}: {what} the door {name} ({cost})",
                )
            )
    lying = state.floor_items.get(u.at or "", [])
    if not held and len(u.items) < 2:
        for item in sorted(set(lying)):
            if item == "mcgfn" and state.mcgfn_plugged:
                if not pay:
                    continue
            elif budget < 1:
                continue
            out.append(
                Action(
                    verb="act",
                    args={"unit": u.id, "what": "pickup", "target": item},
                    label=f"{u.name}: pick up the {ITEMS[item]}",
                )
            )
    for item in u.items:
        out.append(
            Action(
                verb="act",
                args={"unit": u.id, "what": "drop", "target": item},
                label=f"{u.name}: drop the {ITEMS[item]}",
            )
        )
        if not held and budget >= 1:
            for o in state.active("marines"):
                if o.id != u.id and len(o.items) < 2 and adjacent(state, u, o):
                    out.append(
                        Action(
                            verb="act",
                            args={"unit": u.id, "what": "give", "target": item, "to": o.id},
                            label=f"{u.name}: hand the {ITEMS[item]} to {o.name}",
                        )
                    )
    if not held and budget >= 1 and len(u.items) < 2:
        # 9.1: either Marine may pay the transfer's MP, so the receiver may take it over.
        for o in state.active("marines"):
            if o.id != u.id and adjacent(state, u, o):
                for item in sorted(set(o.items) - set(u.items)):
                    out.append(
                        Action(
                            verb="act",
                            args={"unit": u.id, "what": "take", "target": item},
                            label=f"{u.name}: take the {ITEMS[item]} from {o.name}",
                        )
                    )
    if u.surge:
        out += [m.surge_variant(a) for a in out if a.verb != "move" and pays_ap(state, u, a)]
    if m.exit_allowed(state) and board.airlocks_of(here) and not held and state.ap >= 2:
        out.append(
            Action(
                verb="act",
                args={"unit": u.id, "what": "exit"},
                label=f"{u.name}: leave through the airlock (2 AP)",
            )
        )
    orders: list[Action] = []
    if state.grenades > 0:
        orders.append(
            Action(
                verb="orders",
                args={
                    "unit": u.id,
                    "order": "interrupt",
                    "aps": "1",
                    "range": "6",
                    "weapon": "grenade",
                },
                label=f"{u.name}: grenade interrupt, 1 AP, range 6",
            )
        )
    for aps, rng in ((1, 3), (1, 6), (2, 6)):
        orders.append(
            Action(
                verb="orders",
                args={"unit": u.id, "order": "interrupt", "aps": str(aps), "range": str(rng)},
                label=f"{u.name}: interrupt up to {aps} AP at range {rng}",
            )
        )
    if interrupt_dice(u, spin=True) > 0:
        # 5.7 / 8.4: an interrupt may be a Spin Attack (one die fewer again), for a Marine
        # left with a die to roll.
        for aps in (1, 2):
            orders.append(
                Action(
                    verb="orders",
                    args={
                        "unit": u.id,
                        "order": "interrupt",
                        "aps": str(aps),
                        "range": "6",
                        "spin": "yes",
                    },
                    label=f"{u.name}: interrupt or spin-attack up to {aps} AP at range 6",
                )
            )
    if u.kind == "berns" and not state.refuelled:
        # 5.5: refuel "at any time", in the Xeno phase through the order (refuel first when
        # the tank is empty, then spray).
        orders.append(
            Action(
                verb="orders",
                args={
                    "unit": u.id,
                    "order": "interrupt",
                    "aps": "2",
                    "range": "3",
                    "refuel": "yes",
                },
                label=f"{u.name}: interrupt up to 2 AP at range 3, refuelling first if empty",
            )
        )
    if u.surge:
        # 5.8: a Surge marker may pay for an interrupt; the order says it pays first.
        orders += [m.surge_variant(a) for a in orders]
    out += orders
    if any(o.unit == u.id for o in state.orders):
        out.append(
            Action(
                verb="orders",
                args={"unit": u.id, "order": "cancel"},
                label=f"{u.name}: cancel the standing order",
            )
        )
    return out


MP_ACTS = ("open", "close", "pickup", "give", "take")
FREE_ACTS = ("drop",)


def pays_ap(state: ForlornState, u: Unit, action: Action) -> bool:
    """Whether a listed non-move action of `u` spends one AP (so a Surge marker may pay it)."""
    what = action.args.get("what", "")
    if action.verb == "attack":
        return True
    if action.verb != "act" or what in FREE_ACTS or what in ("exit", "reroll-ap"):
        return False
    if what == "pickup" and action.args.get("target") == "mcgfn" and state.mcgfn_plugged:
        return True  # unplugging costs 1 AP
    if what in ("open", "close") and "(1 AP)" in (action.label or ""):
        return True  # a Security Door
    if what in MP_ACTS:
        return not (state.mover == u.id and state.mp_left >= 1)
    return True


def apply(state: ForlornState, seat: str, action: Action, dice: Dice) -> list[Event]:
    """Dispatch a Marine command; `surge:yes` makes the Surge marker pay its AP (5.8)."""
    surge = (action.args.get("surge") or "no").strip().lower()
    if action.verb == "orders":
        surge = "no"  # an order's surge option says how its interrupts pay (do_orders)
    if surge not in ("yes", "no"):
        raise RuleError("surge is 'yes' (spend the Marine's Surge marker) or 'no'.")
    if surge == "yes":
        uid = (action.args.get("unit") or "").strip().lower()
        unit = state.unit(uid)
        if unit is None or not unit.surge:
            raise RuleError(f"'{uid}' has no Surge marker to spend.")
        state.surge_for = unit.id
    try:
        events = _apply(state, seat, action, dice)
        if state.surge_for is not None:
            raise RuleError("That action spends no AP, so there is no Surge marker to spend on it.")
        return events
    finally:
        state.surge_for = None


def _apply(state: ForlornState, seat: str, action: Action, dice: Dice) -> list[Event]:
    if state.phase == "deploy":
        return deploy.apply(state, seat, action)
    if state.phase != "marine":
        raise RuleError(
            "Marines act in the Marine phase; during the Xeno phase use standing orders."
        )
    if seat not in waiting_marine_seats(state):
        raise RuleError(f"The {seat_name(seat)} seat has already ended this Marine phase.")
    a = {
        k: (v.lower() if k in ("target", "what", "weapon") and "+" not in v else v)
        for k, v in action.args.items()
    }
    if action.verb == "end-turn" and a.get("unit"):
        u = m.my_marine(state, seat, a.get("unit"))
        m.end_movement(state)
        return [Note(text=f"{u.name} stops; the Marine phase goes on (end-turn alone ends it).")]
    if action.verb == "end-turn":
        state.ended.append(seat)
        m.end_movement(state)
        return [
            Note(
                text=f"The {seat_name(seat)} seat ends its Marine phase "
                f"({state.ap} AP left in the pool for interrupts)."
            )
        ]
    if action.verb == "act" and a.get("what") == "reroll-ap":
        return reroll_ap(state, dice)
    if action.verb != "orders":
        state.ap_untouched = False
    u = m.my_marine(state, seat, a.get("unit"))
    if action.verb == "move":
        return m.do_move(state, u, a.get("to") or "", a.get("facing"), dice)
    if action.verb == "attack":
        if a.get("weapon") == "flame":
            return m.do_flame(state, u, a.get("target"), dice)
        return m.do_attack(state, u, m.xeno_target(state, a.get("target")), a.get("weapon"), dice)
    if action.verb == "orders":
        return m.do_orders(state, seat, u, a)
    if action.verb != "act":
        raise RuleError(f"Unknown command '{action.verb}'.")
    what = (a.get("what") or "").lower()
    if what in ("open", "close"):
        return m.do_door(state, u, what, a.get("to"))
    if what == "unseal":
        return m.do_unseal(state, u, a.get("to"))
    if what == "spin":
        return m.do_spin(state, u, m.xeno_target(state, a.get("target")), dice)
    if what == "grenade":
        return m.do_grenade(state, u, a.get("to"), dice)
    if what == "pickup":
        return m.do_pickup(state, u, a.get("target"))
    if what == "drop":
        return m.do_drop(state, u, a.get("target"))
    if what == "give":
        return m.do_give(state, u, a.get("target"), a.get("to"))
    if what == "take":
        return m.do_take(state, u, a.get("target"))
    if what == "refuel":
        return m.do_refuel(state, u)
    if what == "clear-jam":
        return m.do_clear_jam(state, u)
    if what == "exit":
        return m.do_exit(state, u)
    if what == "bot":
        return m.do_bot(state, u, a.get("to"))
    if what == "activate":
        return m.do_activate(state, u)
    raise RuleError(
        f"Unknown action '{what}'. Try open, close, spin, grenade, pickup, drop, give, "
        "take, refuel, clear-jam, exit, bot, activate or unseal."
    )

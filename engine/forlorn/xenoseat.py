"""The human Xeno seat: activations one Xeno at a time, corpses, and Mutation cards (10.0)."""

from __future__ import annotations

from itertools import combinations

from engine.core.dice import Dice, pick
from engine.core.errors import RuleError
from engine.core.events import CardDrawn, Event, Note
from engine.core.game import Action
from engine.core.squaregrid import Square
from engine.core.words import counted
from engine.forlorn import combat
from engine.forlorn.board import DOOR, door_id, label, parse_label
from engine.forlorn.content import cards, scenarios
from engine.forlorn.movement import xeno_reach
from engine.forlorn.spawn import from_pool, place
from engine.forlorn.state import ForlornState, Unit
from engine.forlorn.world import adjacent, board_of, has_los, sq
from engine.forlorn.xenos import can_activate, grow, moved_event, walk, xeno_mp

# --- mulligan (2.0) -------------------------------------------------------------------------


def target_name(state: ForlornState, target: str) -> str:
    """A card's target as players read it: a unit by name, a square as it is labelled."""
    unit = state.unit(target)
    return unit.name if unit is not None else target


def mulligan_options(state: ForlornState) -> list[Action]:
    hand = state.mutation.hand
    out = [Action(verb="choose", args={"option": "keep"}, label="Keep this hand")]
    for n in (1, 2):
        for combo in combinations(hand, n):
            names = ", ".join(cards()[c].title for c in combo)
            out.append(
                Action(
                    verb="choose", args={"option": "swap:" + "+".join(combo)}, label=f"Swap {names}"
                )
            )
    return out


def do_mulligan(state: ForlornState, option: str, dice: Dice) -> list[Event]:
    if not any(a.args["option"] == option for a in mulligan_options(state)):
        raise RuleError("Choose 'keep' or swap one or two of your own cards (swap:m01+m02).")
    # 2.0: the Eggs dropped after the swap are put down next, then the Marines set up.
    state.phase = "xeno-place" if state.placements else "deploy"
    state.place_resume = "deploy"
    state.mutation.mulligan_done = True
    if option == "keep":
        return [Note(text="The Xeno player keeps the Mutation hand.")]
    out = option[5:].split("+")
    events: list[Event] = []
    for card in out:
        state.mutation.hand.remove(card)
        state.mutation.set_aside.append(card)  # out of this operation, never revealed
        new = state.mutation.draw_pile.pop(dice.randrange(len(state.mutation.draw_pile)))
        state.mutation.hand.append(new)
        events.append(
            CardDrawn(
                deck="mutation",
                card=new,
                visible_to=["xeno"],
                text=f"Drew {cards()[new].title} for {cards()[card].title}.",
            )
        )
    events.append(Note(text=f"The Xeno player swaps {counted(len(out), 'Mutation card')} once."))
    return events


# --- activation -----------------------------------------------------------------------------


def xeno_unit(state: ForlornState, uid: str | None) -> Unit:
    u = state.unit(uid or "")
    if u is None or u.side != "xenos" or u.status != "active" or u.at is None:
        raise RuleError(f"There is no Xeno '{uid}' on the map.")
    return u


def begin(state: ForlornState, xeno: Unit, events: list[Event]) -> None:
    """Switching to another Xeno finishes the one that was acting (6.0)."""
    if state.xeno_active == xeno.id:
        return
    if xeno.kind == "egg":
        raise RuleError(f"{xeno.name} is an Egg and cannot act.")
    if xeno.fresh:
        raise RuleError(f"{xeno.name} is newly born and cannot act this turn.")
    if xeno.activated:
        raise RuleError(f"{xeno.name} has already been activated this phase.")
    finish_active(state, events)
    state.xeno_active = xeno.id
    state.xeno_mp = xeno_mp(state, xeno)


def finish_active(state: ForlornState, events: list[Event]) -> None:
    if state.xeno_active:
        done = state.unit(state.xeno_active)
        if done is not None:
            done.activated = True
    state.xeno_active, state.xeno_mp = None, 0


def do_move(state: ForlornState, xeno: Unit, to: str | None, dice: Dice) -> list[Event]:
    events: list[Event] = []
    begin(state, xeno, events)
    target = parse_label(to or "")
    reach = xeno_reach(state, xeno, state.xeno_mp, avoid_flames=False)
    if target is None or target not in reach.cost or target == sq(xeno.at):
        raise RuleError(f"{xeno.name} cannot reach {to} with {state.xeno_mp} MP left.")
    cost = reach.cost[target]
    full = xeno_reach(state, xeno, state.xeno_mp, avoid_flames=False, stop_filter=False)
    path = full.path(target)
    state.xeno_mp -= cost
    index = len(events)
    walked = walk(state, xeno, path, dice, events)
    events.insert(index, moved_event(xeno, walked, f"{cost} MP, {state.xeno_mp} MP left"))
    if xeno.status != "active":
        state.xeno_active, state.xeno_mp = None, 0
    return events


def closable_doors(state: ForlornState, xeno: Unit) -> list[tuple[str, str]]:
    """Open normal doors on the Xeno's square border: (door name, square across)."""
    board = board_of(state)
    here = sq(xeno.at)
    out = []
    for key in board.door_edges_of(here):
        name = door_id(*key)
        if board.edges[key] == DOOR and name in state.open_doors:
            other = key[1] if key[0] == here else key[0]
            out.append((name, label(other)))
    return out


def do_close(state: ForlornState, xeno: Unit, to: str | None) -> list[Event]:
    """6.2: a Xeno spends 2 MP to close a normal door."""
    events: list[Event] = []
    match = [d for d in closable_doors(state, xeno) if d[1] == (to or "").upper()]
    if not match:
        raise RuleError(f"{xeno.name} has no open normal door towards {to} to close.")
    begin(state, xeno, events)
    if state.xeno_mp < 2:
        raise RuleError(f"{xeno.name} needs 2 MP to close a door and has {state.xeno_mp}.")
    state.xeno_mp -= 2
    state.open_doors.remove(match[0][0])
    events.append(Note(text=f"{xeno.name} drags the door {match[0][0]} shut (2 MP)."))
    return events


def do_attack(
    state: ForlornState, xeno: Unit, tid: str | None, dice: Dice, weapon: str = ""
) -> list[Event]:
    """A Blaster uses its energy beam (8.10) unless told `weapon:claws` when adjacent."""
    events: list[Event] = []
    target = state.unit(tid or "")
    if target is None or target.side != "marines" or target.status != "active":
        raise RuleError(f"There is no Marine '{tid}' to attack.")
    ranged = False
    if not adjacent(state, xeno, target):
        if xeno.kind != "blaster" or not has_los(state, sq(xeno.at), sq(target.at), "xenos"):
            raise RuleError(f"{xeno.name} is not adjacent to {target.name} (and cannot shoot it).")
        ranged = True
    elif xeno.kind == "blaster":
        ranged = weapon.lower() != "claws"
    begin(state, xeno, events)
    combat.xeno_attack(state, xeno, target, dice, events, ranged=ranged)
    finish_active(state, events)
    xeno.activated = True
    return events


def do_burst(state: ForlornState, where: str | None) -> list[Event]:
    """6.1: a corpse becomes a Hatchling from the pool (it cannot act this turn)."""
    corpse = next((c for c in state.corpses if c.at == (where or "").upper()), None)
    if corpse is None:
        raise RuleError(f"There is no corpse at {where}.")
    if state.at(corpse.at):
        raise RuleError(f"Something already stands on the corpse at {corpse.at}.")
    spare = from_pool(state, "hatchling")
    if spare is None:
        raise RuleError("No Hatchling is left in the Xeno pool.")
    events: list[Event] = []
    state.corpses.remove(corpse)
    place(state, spare, sq(corpse.at), events, " (bursting from a corpse)")
    spare.fresh = True
    return events


def do_grow(state: ForlornState, xeno: Unit, into: str | None) -> list[Event]:
    if state.xeno_active != xeno.id or xeno.kind not in ("drone", "hatchling"):
        raise RuleError("Only the Drone or Hatchling now moving can eat a corpse it moved onto.")
    if not any(c.at == xeno.at for c in state.corpses):
        raise RuleError(f"There is no corpse under {xeno.name}.")
    if into not in ("warrior", "blaster"):
        raise RuleError("Grow into a warrior or a blaster.")
    if into == "warrior" and scenarios()[state.scenario].no_warriors:
        raise RuleError("No Warriors may be spawned in this Operation.")
    spare = from_pool(state, into)
    if spare is None:
        raise RuleError(f"No {into} is left in the Xeno pool.")
    events: list[Event] = []
    state.xeno_active, state.xeno_mp = None, 0
    grow(state, xeno, spare, events)
    return events


def end_phase(state: ForlornState) -> list[Event]:
    events: list[Event] = []
    finish_active(state, events)
    state.phase = "eggs"
    events.append(Note(text="The Xeno player ends the Xeno phase."))
    return events


# --- Mutation cards -------------------------------------------------------------------------

ANY_TIME = ("marine-phase",)  # the moment of a Marine phase outside a reaction window
WHEN_TEXT = {
    "xeno-phase": "in the Xeno phase",
    "marine-phase": "any time in the Marine phase",
    "marine-sighted": "right after a Marine moves into sight of a Xeno",
    "marine-attack": "right after a Marine attack",
}


def card_targets(state: ForlornState, card: str) -> list[str]:
    effect = cards()[card].effect
    if effect == "frenzy":
        return [
            x.id for x in state.active("xenos") if can_activate(x) and state.xeno_active != x.id
        ]
    if effect == "shield":
        return [
            x.id
            for x in state.active("xenos")
            if x.kind != "egg" and x.id not in state.mutation.shielded
        ]
    if effect == "hatch":
        return [x.id for x in state.active("xenos") if x.kind == "egg"]
    return [""]


def timing_text(card: str) -> str:
    return " or ".join(WHEN_TEXT[m] for m in cards()[card].when)


def fits(card: str, moments: list[str]) -> bool:
    """Whether the card's stated timing allows it at a moment described by `moments`."""
    return any(m in cards()[card].when for m in moments)


def card_actions(state: ForlornState, moments: list[str]) -> list[Action]:
    """Every card in hand that may be played now, with each legal target, and for a card
    with a boost (10.0) each other held card it may discard for the stronger effect."""
    out: list[Action] = []
    for card in state.mutation.hand:
        if not fits(card, moments):
            continue
        data = cards()[card]
        extras = [""] + ([c for c in state.mutation.hand if c != card] if data.boost else [])
        for t in card_targets(state, card):
            for extra in extras:
                args = {"what": "card", "card": card}
                if t:
                    args["target"] = t
                if extra:
                    args["discard"] = extra
                more = f", discarding {cards()[extra].title} (+{data.boost})" if extra else ""
                on = f" on {target_name(state, t)}" if t else ""
                out.append(
                    Action(
                        verb="act",
                        args=args,
                        label=f"Play {data.title}{on}{more}",
                    )
                )
    return out


def play_card(
    state: ForlornState,
    card: str | None,
    target: str | None,
    dice: Dice,
    moments: tuple[str, ...] | list[str] = ("xeno-phase",),
    discard: str | None = None,
) -> list[Event]:
    if card not in state.mutation.hand:
        raise RuleError(f"'{card}' is not a Mutation card in your hand.")
    data = cards()[card]
    if not fits(card, list(moments)):
        raise RuleError(f"{data.title} cannot be played now, only {timing_text(card)}.")
    options = card_targets(state, card)
    chosen = (target or "").lower()
    if options != [""] and chosen not in options:
        raise RuleError(f"{data.title} needs a target: one of {', '.join(options) or 'none now'}.")
    if options == [""] and chosen:
        raise RuleError(f"{data.title} takes no target.")
    extra = (discard or "").strip().lower()
    if extra and not data.boost:
        raise RuleError(f"{data.title} has no stronger effect to discard a card for.")
    if extra and (extra == card or extra not in state.mutation.hand):
        raise RuleError(f"'{extra}' is not another Mutation card in your hand to discard.")
    value = data.value + (data.boost if extra else 0)
    state.mutation.hand.remove(card)
    state.mutation.played.append(card)
    events: list[Event] = [
        Note(text=f"The Xeno player reveals the Mutation card {data.title}: {data.text}")
    ]
    if extra:
        state.mutation.hand.remove(extra)
        state.mutation.discarded.append(extra)
        events.append(
            Note(
                text=f"The Xeno player discards one more Mutation card, unseen, for the stronger "
                f"effect (+{data.boost})."
            )
        )
        events.append(
            CardDrawn(
                deck="mutation-discard",
                card=extra,
                visible_to=["xeno"],
                text=f"You discarded {cards()[extra].title} to strengthen {data.title}.",
            )
        )
    if data.effect == "frenzy":
        state.mutation.frenzy[chosen] = state.mutation.frenzy.get(chosen, 0) + value
    elif data.effect == "shield":
        state.mutation.shielded.append(chosen)
    elif data.effect == "drain":
        state.mutation.ap_drain += value
    elif data.effect == "sap":
        lost = min(state.ap, value)
        state.ap -= lost
        events.append(
            Note(text=f"The Marines lose {counted(lost, 'Action Point')}: {state.ap} left.")
        )
    elif data.effect == "swarm":
        state.mutation.extra_spawn += value
    elif data.effect == "ambush":
        board = board_of(state)
        taken = {u.at for u in state.active()}
        for _ in range(value):
            free = [
                v
                for n, v in sorted(board.vents.items())
                if n not in state.blocked_vents and label(v) not in taken
            ]
            unit = from_pool(state, "drone")
            if not free or unit is None:
                events.append(Note(text="No free vent or no Drone left: the ambush fizzles."))
                break
            where: Square = pick(dice, free)
            place(state, unit, where, events, " (ambush)")
            unit.fresh = True
            taken.add(label(where))
    elif data.effect == "hatch":
        egg = state.unit(chosen)
        assert egg is not None
        egg.kind, egg.name, egg.fresh = "hatchling", f"Hatchling {egg.id.upper()}", True
        events.append(Note(text=f"The Egg at {egg.at} splits open early."))
    return events


def legal(state: ForlornState) -> list[Action]:
    out: list[Action] = []
    for x in state.active("xenos"):
        if x.at is None or x.kind == "egg":
            continue
        current = state.xeno_active == x.id
        if not current and not can_activate(x):
            continue
        mp = state.xeno_mp if current else xeno_mp(state, x)
        if mp > 0:
            reach = xeno_reach(state, x, mp, avoid_flames=False)
            for s, cost in sorted(reach.cost.items()):
                if s != sq(x.at):
                    out.append(
                        Action(
                            verb="move",
                            args={"unit": x.id, "to": label(s)},
                            label=f"{x.name}: {label(s)} - {cost} MP",
                        )
                    )
        for m in state.active("marines"):
            if adjacent(state, x, m) or (
                x.kind == "blaster" and has_los(state, sq(x.at), sq(m.at), "xenos")
            ):
                if x.kind == "blaster" and adjacent(state, x, m):
                    out.append(
                        Action(
                            verb="attack",
                            args={"unit": x.id, "target": m.id, "weapon": "claws"},
                            label=f"{x.name} claws {m.name}",
                        )
                    )
                out.append(
                    Action(
                        verb="attack",
                        args={"unit": x.id, "target": m.id},
                        label=f"{x.name} attacks {m.name}",
                    )
                )
        if mp >= 2:
            for name, other in closable_doors(state, x):
                out.append(
                    Action(
                        verb="act",
                        args={"unit": x.id, "what": "close", "to": other},
                        label=f"{x.name}: close the door {name} (2 MP)",
                    )
                )
        if current:
            out.append(
                Action(verb="end-turn", args={"unit": x.id}, label=f"{x.name}: end its activation")
            )
            if x.kind in ("drone", "hatchling") and any(c.at == x.at for c in state.corpses):
                for into in ("warrior", "blaster"):
                    if from_pool(state, into) is not None and not (
                        into == "warrior" and scenarios()[state.scenario].no_warriors
                    ):
                        out.append(
                            Action(
                                verb="act",
                                args={"unit": x.id, "what": "grow", "to": into},
                                label=f"{x.name} eats the corpse and grows into a {into}",
                            )
                        )
    for c in state.corpses:
        if not state.at(c.at) and from_pool(state, "hatchling") is not None:
            out.append(
                Action(
                    verb="act",
                    args={"what": "burst", "target": c.at},
                    label=f"A Hatchling bursts from the corpse at {c.at}",
                )
            )
    out += card_actions(state, ["xeno-phase"])
    out.append(Action(verb="end-turn", label="End the Xeno phase"))
    return out


def apply(state: ForlornState, action: Action, dice: Dice) -> list[Event]:
    a = action.args
    if state.phase == "mulligan":
        if action.verb != "choose":
            raise RuleError("First keep your Mutation hand or swap one or two cards (choose).")
        return do_mulligan(state, a.get("option", ""), dice)
    if state.phase != "xeno":
        card = (a.get("card") or "").lower()
        if action.verb == "act" and a.get("what") == "card" and card in state.mutation.hand:
            if state.phase == "marine":  # 10.0: any-time cards, outside a reaction window
                return play_card(state, card, a.get("target"), dice, ANY_TIME, a.get("discard"))
            data = cards()[card]
            raise RuleError(f"{data.title} cannot be played now, only {timing_text(card)}.")
        raise RuleError("It is not the Xeno phase.")
    if action.verb == "end-turn":
        if a.get("unit"):
            x = xeno_unit(state, a["unit"])
            if state.xeno_active != x.id:
                raise RuleError(f"{x.name} is not the Xeno acting now.")
            events: list[Event] = []
            finish_active(state, events)
            return [Note(text=f"{x.name} ends its activation.")]
        return end_phase(state)
    if action.verb == "move":
        return do_move(state, xeno_unit(state, a.get("unit")), a.get("to"), dice)
    if action.verb == "attack":
        return do_attack(
            state, xeno_unit(state, a.get("unit")), a.get("target"), dice, a.get("weapon", "")
        )
    if action.verb == "act":
        what = a.get("what", "")
        if what == "burst":
            return do_burst(state, a.get("target"))
        if what == "grow":
            return do_grow(state, xeno_unit(state, a.get("unit")), (a.get("to") or "").lower())
        if what == "card":
            card = (a.get("card") or "").lower()
            return play_card(state, card, a.get("target"), dice, discard=a.get("discard"))
        if what == "close":
            return do_close(state, xeno_unit(state, a.get("unit")), a.get("to"))
        raise RuleError(f"Unknown Xeno action '{what}' (burst, grow, card).")
    raise RuleError(f"The Xeno seat cannot '{action.verb}' now.")

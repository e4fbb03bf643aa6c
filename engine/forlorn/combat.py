"""Combat 8.x: hits, death, Marine and Xeno attacks, grenades and flame."""

from __future__ import annotations

from engine.core.dice import Dice, roll_many
from engine.core.events import Attacked, Event, Killed, Note, Wounded
from engine.core.squaregrid import Facing, Square, ahead, neighbours
from engine.forlorn.board import clear_line, label
from engine.forlorn.content import ITEMS, scenarios, units
from engine.forlorn.state import Corpse, ForlornState, Unit
from engine.forlorn.world import (
    attack_range,
    board_of,
    marine_profile,
    max_hits,
    open_doors,
    sq,
)


def faces(rolls: list[int]) -> list[str]:
    return [str(r) for r in rolls]


def hit(state: ForlornState, target: Unit, dice: Dice, events: list[Event]) -> bool:
    """Apply one Hit; returns True when the target dies."""
    if target.side == "marines" and "medkit" in target.items:
        target.items.remove("medkit")
        events.append(Note(text=f"{target.name}'s Medical Kit soaks up the Hit (kit used up)."))
        return False
    if target.id in state.mutation.shielded:
        state.mutation.shielded.remove(target.id)
        events.append(Note(text=f"{target.name} shrugs off the Hit (Mutation card)."))
        return False
    target.hits += 1
    if target.hits >= max_hits(target):
        kill(state, target, dice, events)
        return True
    events.append(
        Wounded(
            figure=target.id,
            amount=1,
            remaining=max_hits(target) - target.hits,
            text=f"{target.name} is wounded.",
        )
    )
    return False


def kill(state: ForlornState, target: Unit, dice: Dice, events: list[Event]) -> None:
    where = target.at or ""
    if target.side == "marines":
        target.status = "dead"
        state.corpses.append(Corpse(at=where, unit=target.id))
        if target.items:
            state.floor_items.setdefault(where, []).extend(target.items)
            dropped = ", ".join(ITEMS[i] for i in target.items)
            events.append(Note(text=f"{target.name} drops {dropped} at {where}."))
            target.items = []
        state.orders = [o for o in state.orders if o.unit != target.id]
        if state.mover == target.id:
            state.mover, state.mp_left = None, 0
        events.append(
            Killed(figure=target.id, at=where, text=f"{target.name} is killed at {where}.")
        )
        if state.grenades > 0:
            roll = dice.roll()
            if roll == 6:
                state.grenades -= 1
                events.append(
                    Note(
                        text=f"Grenade check rolled 6: a Plasma Grenade is lost with {target.name}."
                    )
                )
            else:
                events.append(Note(text=f"Grenade check rolled {roll}: the grenades are safe."))
    else:
        kind = "hatchling" if target.kind == "egg" else target.kind
        state.kills.append(target.kind)
        no_respawn = scenarios()[state.scenario].no_respawn
        target.status = "removed" if kind in no_respawn else "pool"
        events.append(
            Killed(figure=target.id, at=where, text=f"{target.name} is slain at {where}.")
        )
        target.kind = kind
        target.name = f"{units().xenos[kind].name} {target.id.upper()}"
        target.hits = 0
        target.activated = False
        target.fresh = False
        state.mutation.shielded = [s for s in state.mutation.shielded if s != target.id]
        if state.xeno_active == target.id:
            state.xeno_active, state.xeno_mp = None, 0
    target.at = None
    target.surge = False


def xeno_melee_dv(marine: Unit, attacker_sq: Square) -> int:
    _, _, defence = marine_profile(marine)
    return attack_range(attacker_sq, sq(marine.at)) + defence


def marine_attack(
    state: ForlornState,
    attacker: Unit,
    target: Unit,
    dice: Dice,
    events: list[Event],
    *,
    spin: bool = False,
    interrupt: bool = False,
    pistol: bool = False,
) -> None:
    """8.3: roll attack dice, each result above the Defence Value is a Hit."""
    _, attack, _ = marine_profile(attacker)
    weapon = "pistol" if attacker.kind == "berns" else "gun"
    if attacker.kind == "zac":
        weapon = "minigun"
    if pistol:
        attack = 1
    count = attack - (1 if spin else 0) - (1 if interrupt else 0)
    rng = attack_range(sq(attacker.at), sq(target.at)) + (1 if spin else 0)
    dv = rng  # Xenos have no Defence Bonus
    if count <= 0:
        events.append(
            Attacked(
                attacker=attacker.id,
                target=target.id,
                weapon=weapon,
                text=f"{attacker.name} has no dice left for that attack and misses.",
            )
        )
        return
    rolls = roll_many(dice, count)
    hits = sum(1 for r in rolls if r > dv)
    how = ("interrupt " if interrupt else "") + ("spin " if spin else "")
    where = target.at
    text = (
        f"{attacker.name} {how}fires at {target.name} ({where}, range {rng}, needs "
        f"{dv + 1}+): {' '.join(faces(rolls))} - {hits} hit{'s' if hits != 1 else ''}."
    )
    events.append(
        Attacked(
            attacker=attacker.id,
            target=target.id,
            weapon=weapon,
            faces=faces(rolls),
            hits=hits,
            result="hit" if hits else "miss",
            text=text,
        )
    )
    killed = False
    if target.kind == "egg":
        if hits >= 2:
            kill(state, target, dice, events)
            killed = True
        elif hits == 1:
            events.append(Note(text=f"One hit is not enough to crack {target.name}."))
    else:
        for _ in range(hits):
            if target.status != "active":
                break
            killed = hit(state, target, dice, events) or killed
    if attacker.kind == "zac" and not pistol:
        counts = {r: rolls.count(r) for r in rolls}
        if count >= 3 and max(counts.values()) >= 3:
            attacker.jammed = True
            events.append(Note(text=f"{attacker.name}'s minigun jams (three of a kind)."))
    award_surge(attacker, rolls, killed, events)


def award_surge(attacker: Unit, rolls: list[int], killed: bool, events: list[Event]) -> None:
    """8.3.2: a natural 6 in an attack that kills earns a Surge marker (one at most)."""
    if killed and 6 in rolls and attacker.status == "active" and not attacker.surge:
        attacker.surge = True
        events.append(Note(text=f"Adrenaline Surge: {attacker.name} gains a Surge marker."))


def rear_attack(marine: Unit, attacker_sq: Square) -> bool:
    if marine.facing is None:
        return False
    return ahead(sq(marine.at), Facing(marine.facing), attacker_sq) < 0


def xeno_attack(
    state: ForlornState,
    xeno: Unit,
    target: Unit,
    dice: Dice,
    events: list[Event],
    *,
    ranged: bool = False,
) -> None:
    """8.9/8.10: a melee (or Blaster sniper) attack, with counterattack and Xeno Rush."""
    profile = units().xenos[xeno.kind]
    xsq = sq(xeno.at)
    count = profile.ranged if ranged else profile.attack
    rolls = roll_many(dice, count)
    rear = rear_attack(target, xsq)
    if ranged:
        hits = sum(1 for r in rolls if r >= 5)
        need = "5+ (sniper)"
    else:
        dv = xeno_melee_dv(target, xsq)
        hits = sum(1 for r in rolls if r > dv and not (rear and r == 1))
        need = f"{dv + 1}+"
    side = "from behind" if rear else "from the front or side"
    kind = "blasts" if ranged else "claws"
    text = (
        f"{xeno.name} {kind} {target.name} {side} (needs {need}): "
        f"{' '.join(faces(rolls))} - {hits} hit{'s' if hits != 1 else ''}."
    )
    events.append(
        Attacked(
            attacker=xeno.id,
            target=target.id,
            weapon="energy beam" if ranged else "claws",
            faces=faces(rolls),
            hits=hits,
            result="hit" if hits else "miss",
            text=text,
        )
    )
    killed = False
    for _ in range(hits):
        if target.status != "active":
            break
        killed = hit(state, target, dice, events) or killed
    if killed and 6 in rolls and not state.rush:
        state.rush = True
        events.append(Note(text="Xeno Rush: a natural 6 killed a Marine; an extra Special spawns."))
    if not ranged and not rear and 1 in rolls and xeno.status == "active":
        events.append(Note(text=f"{target.name} counterattacks: {xeno.name} rolled a 1."))
        hit(state, xeno, dice, events)


def blast_squares(state: ForlornState, centre: Square) -> list[tuple[Square, int]]:
    """8.5: the target square and the eight around it, not through walls or closed doors."""
    board = board_of(state)
    doors = open_doors(state)
    out = [(centre, 3)]
    for n in neighbours(centre):
        if board.on_board(n) and clear_line(board, centre, n, doors):
            diagonal = n.x != centre.x and n.y != centre.y
            out.append((n, 5 if diagonal else 4))
    return out


def destroy_eggs_and_corpses(
    state: ForlornState, where: str, dice: Dice, events: list[Event]
) -> bool:
    killed = False
    for u in state.at(where):
        if u.kind == "egg":
            kill(state, u, dice, events)
            killed = True
    before = len(state.corpses)
    state.corpses = [c for c in state.corpses if c.at != where]
    if len(state.corpses) != before:
        events.append(Note(text=f"The corpse at {where} is burnt away."))
    return killed


def grenade(
    state: ForlornState, thrower: Unit, centre: Square, dice: Dice, events: list[Event]
) -> None:
    state.grenades -= 1
    events.append(Note(text=f"{thrower.name} throws a Plasma Grenade at {label(centre)}."))
    all_rolls: list[int] = []
    killed = False
    for where, need in blast_squares(state, centre):
        killed = destroy_eggs_and_corpses(state, label(where), dice, events) or killed
        for u in list(state.at(label(where))):
            rolls = roll_many(dice, 2)
            all_rolls += rolls
            hits = sum(1 for r in rolls if r >= need)
            events.append(
                Attacked(
                    attacker=thrower.id,
                    target=u.id,
                    weapon="plasma grenade",
                    faces=faces(rolls),
                    hits=hits,
                    result="hit" if hits else "miss",
                    text=f"Blast on {u.name} at {label(where)} (hits on {need}+): "
                    f"{' '.join(faces(rolls))} - {hits} hit{'s' if hits != 1 else ''}.",
                )
            )
            for _ in range(hits):
                if u.status != "active":
                    break
                killed = hit(state, u, dice, events) or killed
    award_surge(thrower, all_rolls, killed, events)


def flame_square(
    state: ForlornState, where: str, dice: Dice, events: list[Event], source: Unit | None
) -> tuple[list[int], bool]:
    """8.7: burn Eggs and corpses, then every other unit is Hit on 2 + Defence Bonus."""
    killed = destroy_eggs_and_corpses(state, where, dice, events)
    rolls: list[int] = []
    for u in list(state.at(where)):
        roll, died = flame_unit(state, u, dice, events)
        rolls.append(roll)
        killed = killed or died
    return rolls, killed


def flame_unit(state: ForlornState, u: Unit, dice: Dice, events: list[Event]) -> tuple[int, bool]:
    defence = marine_profile(u)[2] if u.side == "marines" else 0
    roll = dice.roll()
    need = 2 + defence
    hit_it = roll >= need
    events.append(
        Attacked(
            attacker="flame",
            target=u.id,
            weapon="flame",
            faces=[str(roll)],
            hits=1 if hit_it else 0,
            result="hit" if hit_it else "miss",
            text=f"Flames engulf {u.name} at {u.at} (hits on {need}+): {roll}"
            f" - {'hit' if hit_it else 'no harm'}.",
        )
    )
    return roll, (hit(state, u, dice, events) if hit_it else False)

"""The Enemies' Turn: Surveillance, Move, Attack by Mission card order, then Reinforcements.

Deterministic policies where the rulebook leaves the choice to the players or the enemy:
- Target Hero ties: Operational before Down, most permanent Wounds, fewest cards in hand,
  then the commando's seating order.
- A Ranged Enemy sharing an Area with a Hero steps into the free adjacent Area closest to the
  mission's objective or exit Areas (alphabetical on ties).
- Paths: cheapest in Move Points (opening a closed door costs 1), ties by Area name.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from engine.core.dice import Dice
from engine.core.events import CardDrawn, Moved, Note, PhaseChanged
from engine.core.pathfinding import Reach, reachable
from engine.core.words import counted, listed
from engine.reich import rules
from engine.reich.content import load_content
from engine.reich.defense import defend
from engine.reich.reactions import reactions
from engine.reich.rules import Events
from engine.reich.state import EnemyProgress, EnemyState, HeroState, ReichState


def activation_order(state: ReichState) -> list[str]:
    order: list[str] = []
    for line in rules.mission(state).card:
        if line.enemy not in order:
            order.append(line.enemy)
    return order


def _tiebreak(state: ReichState, hero: HeroState) -> tuple[int, int, int, int, int]:
    """Operational first, most Wounds, fewest cards; then the players' choice, made in advance
    with the `decoy:on` standing order; then commando order."""
    return (
        1 if hero.down else 0,
        -len(hero.wounds),
        len(hero.hand),
        0 if hero.orders.get("decoy") == "on" else 1,
        state.hero_order.index(hero.key),
    )


def pick_hero(state: ReichState, heroes: Iterable[HeroState]) -> HeroState | None:
    pool = list(heroes)
    return min(pool, key=lambda h: _tiebreak(state, h)) if pool else None


def in_fire(state: ReichState, enemy: EnemyState, here: str, there: str, rng: int) -> bool:
    """A Hero in `there` can be shot from `here` (sight, and Range between 1 and `rng`)."""
    relentless = "relentless" in rules.keywords(enemy)
    if not rules.enemy_sight(state, here, there, relentless):
        return False
    return 1 <= rules.sight_range(state, here, there, False, through_smoke=relentless) <= rng


def _pinned(state: ReichState, enemy: EnemyState) -> bool:
    return enemy.area in state.suppress and "relentless" not in rules.keywords(enemy)


def _steps(state: ReichState, enemy: EnemyState, flat: bool = False) -> object:
    board = rules.board(state)
    kws = rules.keywords(enemy)
    hero_areas = {h.area for h in rules.heroes_on_board(state)}

    def steps(area: str) -> Iterable[tuple[str, int]]:
        # In Area-name order: path ties go by Area name (a set's order would vary by run).
        out = [(other, 1) for other in board.across_borders(area)]
        for door in board.doors_of(area):
            other = door.areas[1] if door.areas[0] == area else door.areas[0]
            if door.id in state.open_doors:
                out.append((other, 1))
            elif (door.lock is None or door.id in state.unlocked) and "armless" not in kws:
                out.append((other, 1 if flat else 2))
        out.sort(key=lambda step: step[0])
        if "cautious" in kws:
            out = [(other, cost) for other, cost in out if other not in hero_areas]
        return out

    return steps


def _reach(state: ReichState, enemy: EnemyState, flat: bool = False) -> Reach[str]:
    """Where the Enemy can go: cost in Move Points, or in borders crossed when `flat`."""
    return reachable(enemy.area, _steps(state, enemy, flat))  # type: ignore[arg-type]


def _walk(state: ReichState, enemy: EnemyState, path: list[str], ev: Events, why: str) -> None:
    """Follow `path` as far as the Move Value allows, opening closed doors on the way."""
    points = rules.move_value(enemy)
    board = rules.board(state)
    walked = [enemy.area]
    for here, there in itertools.pairwise(path):
        door = board.door_between(here, there)
        cost = 1
        if (
            door
            and door.id not in state.open_doors
            and frozenset((here, there)) not in board.borders
        ):
            cost = 2
        if cost > points:
            if door and cost == 2 and points == 1:
                state.open_doors.append(door.id)
                ev.append(Note(text=f"{enemy.name} opens door {door.id}."))
            break
        if door and door.id not in state.open_doors and cost == 2:
            state.open_doors.append(door.id)
            ev.append(Note(text=f"{enemy.name} opens door {door.id}."))
        points -= cost
        walked.append(there)
    while len(walked) > 1 and not rules.has_room(state, walked[-1]):
        walked.pop()
    if walked[-1] != enemy.area:
        enemy.area = walked[-1]
        ev.append(
            Moved(figure=enemy.id, path=walked, text=f"{enemy.name} moves to {enemy.area}: {why}.")
        )


def plan_and_move(state: ReichState, enemy: EnemyState, dice: Dice, ev: Events) -> str | None:
    """Choose the Target Hero, move towards it; return the target's key."""
    if _pinned(state, enemy):
        ev.append(Note(text=f"{enemy.name} is pinned by Suppressing Fire."))
        return None
    base = rules.profile(enemy)
    here = rules.heroes_in(state, enemy.area)
    ranged = rules.ranged_profile(enemy)
    if here:
        target = pick_hero(state, here)
        assert target is not None
        if base.main == "ranged" and ranged and rules.move_value(enemy) > 0:
            near = _reach(state, enemy).cost
            free = [
                a
                for a in near
                if near[a] == 1 and not rules.heroes_in(state, a) and rules.has_room(state, a)
            ]
            if free:
                goal = _objective_areas(state)
                dist = {a: _nearest(state, a, goal) for a in free}
                dest = min(free, key=lambda a: (dist[a], a))
                _walk(state, enemy, [enemy.area, dest], ev, f"backs off to shoot {target.name}")
        return target.key
    heroes = rules.heroes_on_board(state)
    if not heroes:
        return None
    reach = _reach(state, enemy)
    borders = _reach(state, enemy, flat=True)
    if base.main == "ranged" and ranged:
        rng = ranged[1]
        seen = [h for h in heroes if in_fire(state, enemy, enemy.area, h.area or "", rng)]
        if seen:
            target = pick_hero(state, seen)
            return target.key if target else None
        spots: dict[str, list[HeroState]] = {}
        for area in borders.cost:
            if area in reach.cost and not rules.heroes_in(state, area):
                visible = [h for h in heroes if in_fire(state, enemy, area, h.area or "", rng)]
                if visible:
                    spots[area] = visible
        if spots:
            low = min(borders.cost[a] for a in spots)
            nearest = [a for a in spots if borders.cost[a] == low]
            target = pick_hero(state, [h for a in nearest for h in spots[a]])
            assert target is not None
            dest = min((a for a in nearest if target in spots[a]), key=lambda a: (reach.cost[a], a))
            why = f"seeking a line of fire on {target.name}"
            _walk(state, enemy, reach.path(dest), ev, why)
            return target.key
    reachable_heroes = [h for h in heroes if h.area in borders.cost and h.area in reach.cost]
    if not reachable_heroes:
        return None
    low = min(borders.cost[h.area or ""] for h in reachable_heroes)
    target = pick_hero(state, [h for h in reachable_heroes if borders.cost[h.area or ""] == low])
    assert target is not None
    why = f"closing on {target.name}, {counted(low, 'border')} away"
    _walk(state, enemy, reach.path(target.area or ""), ev, why)
    return target.key


def _objective_areas(state: ReichState) -> list[str]:
    areas = [g.area for g in state.ground if g.kind and not g.done]
    return areas + list(rules.mission(state).exits)


def _nearest(state: ReichState, area: str, goals: list[str]) -> int:
    dist = rules.graph_distances(state, area)
    return min((dist.get(g, 99) for g in goals), default=99)


def attack_choice(
    state: ReichState, enemy: EnemyState, target: str | None
) -> tuple[str, str] | None:
    """(hero key, "melee" or "ranged") this Enemy attacks now, or None."""
    if _pinned(state, enemy):
        return None
    if rules.profile(enemy).key in ("dog", "exp6xx", "wolff") and any(
        "dog_biscuits" in h.buffs for h in rules.heroes_in(state, enemy.area)
    ):
        return None
    here = rules.heroes_in(state, enemy.area)
    melee = rules.melee_profile(enemy)
    ranged = rules.ranged_profile(enemy)
    if here:
        if melee is None:
            return None
        chosen = next((h for h in here if h.key == target), None) or pick_hero(state, here)
        return (chosen.key, "melee") if chosen else None
    if ranged is None:
        return None
    shootable = [
        h
        for h in rules.heroes_on_board(state)
        if in_fire(state, enemy, enemy.area, h.area or "", ranged[1])
    ]
    chosen = next((h for h in shootable if h.key == target), None) or pick_hero(state, shootable)
    return (chosen.key, "ranged") if chosen else None


def resolve_attacks(
    state: ReichState, plans: list[tuple[EnemyState, str, str]], dice: Dice, ev: Events
) -> None:
    """Combine the Attacks aimed at the same Hero with the same kind, then Defense Tests."""
    groups: dict[tuple[str, str], list[EnemyState]] = {}
    for enemy, hero_key, kind in plans:
        groups.setdefault((hero_key, kind), []).append(enemy)
    for (hero_key, kind), attackers in groups.items():
        hero = state.heroes[hero_key]
        if hero.area is None or state.phase == "ended":
            continue

        def values(e: EnemyState, kind: str = kind) -> tuple[int, int]:
            melee, ranged = rules.melee_profile(e), rules.ranged_profile(e)
            if kind == "melee" and melee:
                return melee
            return (ranged[0], ranged[2]) if ranged else (0, 0)

        main = max(attackers, key=lambda e: (values(e)[0], e.id))
        value = values(main)[0] + sum(values(e)[1] for e in attackers if e is not main)
        value += attack_bonus(state, main)
        who = listed([e.name for e in attackers])
        ev.append(
            Note(text=f"{kind.title()} Attack on {hero.name} by {who}: Attack Value {value}.")
        )
        strike(state, main, hero, kind, value, who, dice, ev)
        rules.check_end(state, ev)


def attack_bonus(state: ReichState, main: EnemyState) -> int:
    """Attack Value the main attacker gains from other Enemies (Subtitle Keywords)."""
    bonus = 0
    subtitles = rules.profile(main).subtitles
    if "experiment" in subtitles and rules.helped_by(state, main, "turn_up_the_heat"):
        bonus += rules.HEAT_BONUS
    if rules.dominated(state, main):
        bonus += rules.DOMINATION_BONUS
    if "bodyguard" in rules.keywords(main):
        bonus += sum(
            1
            for o in state.enemies
            if o.active
            and "offizier" in rules.profile(o).subtitles
            and rules.enemy_sight(state, main.area, o.area)
        )
    return bonus


def strike(
    state: ReichState,
    main: EnemyState,
    hero: HeroState,
    kind: str,
    value: int,
    who: str,
    dice: Dice,
    ev: Events,
) -> None:
    """One Attack of `value` on `hero`: Defense Tests, Wounds and the attacker's Keywords."""
    victims = [hero]
    if "area_attack" in rules.keywords(main):
        victims = rules.heroes_in(state, hero.area or "")
    for victim in victims:
        if victim.down:
            # A Down Hero makes no Defense Test: the Wound card is simply kept.
            rules.wound_hero(state, victim, None, dice, ev)
            continue
        ok, score = defend(state, victim, value, dice, ev, who)
        if not ok:
            rules.wound_hero(state, victim, value - score, dice, ev)
            if kind == "melee" and "brutal" in rules.keywords(main):
                victim.brutal = True
            if "knocked_back" in rules.keywords(main):
                _knock_back(state, victim, main, dice, ev)
        _elusive(state, victim, main, ev)


def berserk_attacks(
    state: ReichState, enemy: EnemyState, target: str | None, dice: Dice, ev: Events
) -> None:
    """Berserk: two Attacks per turn with each Active limb, each limb with its own profile.

    Each Attack is made alone (never combined with other Enemies); a limb with a melee profile
    strikes a Hero in its Area, a limb with only a ranged profile shoots when no Hero shares
    the Area. The Target Hero is kept while it can be reached, else the tie-breakers pick.
    """
    if _pinned(state, enemy):
        return
    for limb in rules.active_limbs(enemy):
        for count in (1, 2):
            if state.phase == "ended" or enemy not in state.enemies:
                return
            here = [h for h in rules.heroes_in(state, enemy.area)]
            kind, value, pool = "melee", 0, here
            if here and limb.melee:
                value = limb.melee[0]
            elif not here and limb.ranged:
                kind, value = "ranged", limb.ranged[0]
                rng = limb.ranged[1]
                pool = [
                    h
                    for h in rules.heroes_on_board(state)
                    if in_fire(state, enemy, enemy.area, h.area or "", rng)
                ]
            else:
                pool = []
            hero = next((h for h in pool if h.key == target), None) or pick_hero(state, pool)
            if hero is None:
                continue
            value += attack_bonus(state, enemy)
            ev.append(
                Note(
                    text=f"{enemy.name} goes Berserk with its {limb.name} ({count} of 2): "
                    f"{kind} Attack on {hero.name}, Attack Value {value}."
                )
            )
            strike(state, enemy, hero, kind, value, enemy.id, dice, ev)
            rules.check_end(state, ev)


def _away(state: ReichState, hero: HeroState, enemy: EnemyState) -> list[str]:
    dist = rules.graph_distances(state, enemy.area)
    here = dist.get(hero.area or "", 0)
    return [
        a
        for a in rules.adjacent(state, hero.area or "")
        if dist.get(a, 99) > here and rules.has_room(state, a)
    ]


def _knock_back(
    state: ReichState, hero: HeroState, enemy: EnemyState, dice: Dice, ev: Events
) -> None:
    options = _away(state, hero, enemy)
    if options and not hero.down:
        hero.area = options[0]
        ev.append(
            Moved(
                figure=hero.key,
                path=[options[0]],
                text=f"{hero.name} is knocked back into {options[0]}.",
            )
        )
    elif not hero.down:
        ev.append(Note(text=f"{hero.name} cannot be knocked back: a second Wound (2 damage)."))
        rules.wound_hero(state, hero, 2, dice, ev)


def _elusive(state: ReichState, hero: HeroState, enemy: EnemyState, ev: Events) -> None:
    if hero.down or load_content().heroes[hero.key].skill != "elusive":
        return
    if hero.orders.get("elusive", "on") != "on":
        return
    options = [a for a in _away(state, hero, enemy) if not rules.enemies_in(state, a)]
    if options:
        hero.area = options[0]
        ev.append(
            Moved(
                figure=hero.key,
                path=[options[0]],
                text=f"{hero.name} slips away into {options[0]} (Elusive).",
            )
        )


def activate_one(state: ReichState, enemy: EnemyState, dice: Dice, ev: Events, why: str) -> None:
    """Move then Attack with one Enemy (Awareness during the Heroes' Turn)."""
    ev.append(Note(text=f"{enemy.name} reacts at once ({why})."))
    target = plan_and_move(state, enemy, dice, ev)
    if rules.active_limbs(enemy):
        berserk_attacks(state, enemy, target, dice, ev)
        return
    choice = attack_choice(state, enemy, target)
    if choice:
        resolve_attacks(state, [(enemy, choice[0], choice[1])], dice, ev)


def enemy_turn(state: ReichState, dice: Dice, ev: Events) -> None:
    """Run (or resume) the Enemies' Turn: each type in Mission card order moves, then attacks.

    Between a type's Move and Attack steps Heroes may fire Reactions; a Hero whose orders say
    `react:ask` pauses the turn (`state.reaction` set) and the next call resumes it from
    `state.enemy_progress`, which remembers the type, the stage and each Enemy's Target Hero.
    """
    if state.enemy_progress is None:
        state.reacted = []
        ev.append(
            PhaseChanged(
                round=state.round, phase="enemies", text=f"Round {state.round}: the Enemies' Turn."
            )
        )
        state.enemy_progress = EnemyProgress(order=activation_order(state))
    prog = state.enemy_progress
    while prog.index < len(prog.order):
        if state.phase == "ended":
            state.enemy_progress = None
            return
        etype = prog.order[prog.index]
        if prog.stage == "move":
            if not [e for e in state.enemies if e.type == etype and e.active]:
                prog.index += 1
                continue
            prog.targets = _move_step(state, etype, dice, ev)
            prog.asked = []
            prog.stage = "react"
        if prog.stage == "react":
            reactions(state, dice, ev)
            if state.reaction is not None:
                return  # a player decides; the turn resumes here
            if state.phase == "ended":
                state.enemy_progress = None
                return
            prog.stage = "attack"
        _attack_step(state, etype, prog.targets, dice, ev)
        prog.index += 1
        prog.stage = "move"
        prog.targets = {}
    state.enemy_progress = None
    if state.alarm and state.phase != "ended":
        reinforcements(state, dice, ev)


def _move_step(state: ReichState, etype: str, dice: Dice, ev: Events) -> dict[str, str | None]:
    """Surveillance (before the alarm), then every Active Enemy of the type moves."""
    group = [e for e in state.enemies if e.type == etype and e.active]
    if not state.alarm:
        for enemy in group:
            if any(
                rules.enemy_sight(state, enemy.area, h.area or "")
                for h in rules.heroes_on_board(state)
            ):
                ev.append(Note(text=f"Surveillance: {enemy.name} spots a Hero."))
                rules.trigger_alarm(state, dice, ev)
                break
    targets: dict[str, str | None] = {}
    for enemy in [e for e in state.enemies if e.type == etype and e.active]:
        if "ruthless" in rules.keywords(enemy):
            first = attack_choice(state, enemy, None)
            if first:
                ev.append(Note(text=f"{enemy.name} is Ruthless: it fires instead of moving."))
                if rules.active_limbs(enemy):
                    berserk_attacks(state, enemy, first[0], dice, ev)
                else:
                    resolve_attacks(state, [(enemy, first[0], first[1])], dice, ev)
                targets[enemy.id] = first[0]
                continue
        targets[enemy.id] = plan_and_move(state, enemy, dice, ev)
        rules.wake(state, dice, ev)
    return targets


def _attack_step(
    state: ReichState, etype: str, targets: dict[str, str | None], dice: Dice, ev: Events
) -> None:
    """The type's combined Attacks, then each Berserk Enemy's limb Attacks one by one."""
    plans: list[tuple[EnemyState, str, str]] = []
    berserkers: list[EnemyState] = []
    for enemy in [e for e in state.enemies if e.type == etype and e.active]:
        if rules.active_limbs(enemy):
            berserkers.append(enemy)
            continue
        choice = attack_choice(state, enemy, targets.get(enemy.id))
        if choice:
            plans.append((enemy, choice[0], choice[1]))
    resolve_attacks(state, plans, dice, ev)
    for enemy in berserkers:
        if enemy.active and enemy in state.enemies:
            berserk_attacks(state, enemy, targets.get(enemy.id), dice, ev)


def reinforcements(state: ReichState, dice: Dice, ev: Events) -> None:
    card_id = state.reinforcement_deck.draw(dice)
    number = card_id.removeprefix("r").lstrip("0") or card_id
    ev.append(CardDrawn(deck="reinforcements", card=card_id, text=f"Reinforcement card {number}."))
    card = next(c for c in load_content().reinforcements if c.id == card_id)
    for barracks in ("A", "B", "C"):
        area = rules.mission(state).barracks.get(barracks)
        if area and card.letters(barracks):
            rules.spawn_letters(state, card.letters(barracks), area, ev, f"Barracks {barracks}")
    state.reinforcement_deck.discard(card_id)
    rules.wake(state, dice, ev)

"""Hero Attack Tests: build the Dice Pool, roll, spend Special Results, resolve.

An Attack Test is a small state machine kept in `state.pending` so the attacking Hero can
choose, one `choose` at a time, which cards to add and how to spend each Special Result.
Support from other Heroes follows their standing orders and is applied at resolution.
"""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.errors import RuleError
from engine.core.events import Attacked, Killed, Note, Rolled
from engine.core.words import counted
from engine.reich import rules
from engine.reich.content import Weapon, load_content
from engine.reich.dice import roll_die, show, total
from engine.reich.rules import Events
from engine.reich.state import Die, EnemyState, HeroState, PendingTest, ReichState
from engine.reich.words import card_name, modifier_words

HANDS = Weapon(
    id="hands", name="Bare Hands", range=0, black=1, vril={"black": 1, "red": 0, "keywords": []}
)


def weapons_of(hero: HeroState) -> list[Weapon]:
    return [*load_content().heroes[hero.key].weapons, HANDS]


def weapon_name(hero: HeroState, key: str) -> str:
    """A Hero's weapon as players read it ("MP 40"); the key stays in commands."""
    found = next((w for w in weapons_of(hero) if w.id == key), None)
    return found.name if found is not None else key


def weapon_stats(hero: HeroState, weapon: Weapon) -> tuple[int, int, list[str]]:
    """Black dice, red dice and keywords of a weapon in its current (Vril or not) version."""
    if weapon.id != "hands" and hero.weapons[weapon.id].vril:
        return weapon.vril.black, weapon.vril.red, list(weapon.vril.keywords)
    return weapon.black, 0, list(weapon.keywords)


def can_target(
    state: ReichState, hero: HeroState, enemy: EnemyState, weapon: Weapon, kws: list[str]
) -> str | None:
    """None if `enemy` is a legal target for this weapon, else the reason it is not."""
    if hero.area is None:
        return "is off the board"
    if not enemy.active:
        return f"{enemy.name} has not been spotted yet"
    accurate = "accurate" in kws
    if weapon.range == 0:
        if enemy.area != hero.area:
            return f"{enemy.name} is not in the same Area for a Melee Attack"
    else:
        if enemy.area == hero.area:
            return f"{enemy.name} is in the same Area: a Ranged Attack needs another Area"
        if rules.enemies_in(state, hero.area):
            return "a Ranged Attack needs an Area with no Enemies"
        if not rules.hero_sight(state, hero.area, enemy.area, accurate):
            return f"there is no Line of Sight to {enemy.name}"
        distance = rules.sight_range(state, hero.area, enemy.area, True, accurate)
        if distance > weapon.range:
            return f"{enemy.name} is {distance} Areas away, beyond the {weapon.name}'s Range"
        if not accurate and any(
            "meatshield" in rules.keywords(o)
            for o in rules.enemies_in(state, enemy.area)
            if o.id != enemy.id
        ):
            return f"a Zombie in {enemy.area} shields {enemy.name} (Meatshield)"
    if (
        not accurate
        and "offizier" in rules.profile(enemy).subtitles
        and any(
            "bodyguard" in rules.keywords(o)
            for o in rules.enemies_in(state, enemy.area)
            if o.id != enemy.id
        )
    ):
        return f"{enemy.name} is covered by a Bodyguard in its Area"
    return None


def start_attack(
    state: ReichState,
    hero: HeroState,
    targets: list[EnemyState],
    weapon: Weapon,
    extra_dice: int,
    extra_kws: list[str],
) -> None:
    black, red, kws = weapon_stats(hero, weapon)
    if weapon.id != "hands" and hero.weapons[weapon.id].jammed:
        raise RuleError(f"{hero.name}'s {weapon.name} is Jammed: Unjam it first.")
    kws = [*kws, *extra_kws]
    for target in targets:
        reason = can_target(state, hero, target, weapon, kws)
        if reason:
            raise RuleError(f"{hero.name} cannot attack {target.name}: {reason}.")
    if "shaky" in [load_content().wounds[w].permanent for w in hero.wounds]:
        extra_dice -= 1
    if "vril_injection" in hero.buffs:
        extra_dice += 1
        kws.append("reroll")
    if "teamwork" in kws and hero.area:
        tile = rules.board(state).tile_name(hero.area)
        extra_dice += sum(
            1
            for h in rules.heroes_on_board(state)
            if h.key != hero.key
            and not h.down
            and h.area
            and rules.board(state).tile_name(h.area) == tile
        )
    bonus = 0
    if "precise" in kws:
        bonus += 1
    if weapon.range > 0 and "scope" in hero.loot:
        bonus += 1
    if (
        load_content().heroes[hero.key].skill == "vengeance"
        and hero.area
        and any(h.down for h in rules.heroes_in(state, hero.area))
    ):
        bonus += 1
    state.pending = PendingTest(
        hero=hero.key,
        targets=[t.id for t in targets],
        weapon=weapon.id,
        ranged=weapon.range > 0,
        threshold=sum(rules.defense_in(state, t) for t in targets),
        black=max(1, black + extra_dice),
        red=red,
        bonus=bonus,
        keywords=kws,
        noise=weapon.noise,
    )
    hero.last_target = targets[0].id


def options(state: ReichState) -> list[tuple[str, str]]:
    """The `choose` options of the pending Attack Test, with labels."""
    test = state.pending
    if test is None:
        return []
    hero = state.heroes[test.hero]
    content = load_content()
    out: list[tuple[str, str]] = []
    playable = rules.can_play_cards(hero)
    if test.stage == "build":
        if playable:
            for card in dict.fromkeys(hero.hand):
                mod = _modifier(card)
                if mod and mod.startswith("dice:"):
                    shown = f"play {card_name(card)} for {modifier_words(mod)}"
                    out.append((f"card:{card}", shown))
        for loot in dict.fromkeys(hero.loot):
            if content.loot[loot].when == "test" and content.loot[loot].effect.startswith("dice:"):
                out.append((f"loot:{loot}", f"use {content.loot[loot].name}"))
        out.append(("roll", f"roll {test.black} black and {test.red} red dice"))
        return out
    stars = [d for d in test.dice if d.face == "star" and d.spent is None]
    if stars:
        out.append(("extra", "spend a Special Result: roll one more die"))
        overloads = sum(1 for d in test.dice if d.face == "overload" and d.spent is None)
        if overloads and any(d.color == "red" for d in stars):
            out.append(("cancel", "spend a red Special Result to cancel an Overload"))
        if any(rules.profile(e).loot for e in _targets(state)) and "loot" not in test.spends:
            out.append(("loot", "spend a Special Result: a killed Enemy drops Loot"))
        for kw, label in (
            ("quick_attack", "Quick Attack: attack another Enemy in that Area"),
            ("double_impact", "Double Impact: one more Wound on a Success"),
        ):
            if kw in test.keywords and kw not in test.spends:
                out.append((kw, f"spend a Special Result: {label}"))
        if "burst" in test.keywords and test.burst is None:
            for other in burst_candidates(state):
                label = f"Burst: on a Success {other.name} in the target's Area is Wounded too"
                out.append((f"burst:{other.id}", f"spend a Special Result: {label}"))
        skill = content.heroes[hero.key].skill
        if skill == "crowd_control" and "crowd_control" not in test.spends:
            out.append(("crowd_control", "Crowd Control: push the Enemies in your Area away"))
        if skill == "rage" and not test.ranged and "rage" not in test.spends:
            out.append(("rage", "Rage: spend it to roll one more Attack die"))
    if playable:
        for card in dict.fromkeys(hero.hand):
            mod = _modifier(card)
            if mod and mod.split(":")[0] in ("succ", "special", "reroll", "dice"):
                out.append((f"card:{card}", f"play {card_name(card)}: {modifier_words(mod)}"))
    for loot in dict.fromkeys(hero.loot):
        if content.loot[loot].when == "test":
            out.append((f"loot:{loot}", f"use {content.loot[loot].name}"))
    if not stars:
        out.append(("done", f"resolve: {total(test.dice, test.bonus)} vs {test.threshold}"))
    return out


def _named(state: ReichState, eid: str) -> str:
    found = rules.find_enemy(state, eid)
    return found.name if found is not None else eid


def _modifier(card: str) -> str | None:
    return load_content().cards[card.rsplit("-", 1)[0]].modifier


def _targets(state: ReichState) -> list[EnemyState]:
    assert state.pending is not None
    found = [rules.find_enemy(state, t) for t in state.pending.targets]
    return [e for e in found if e is not None]


def _roll(test: PendingTest, color: str, count: int, dice: Dice) -> list[Die]:
    new = [roll_die(dice, color) for _ in range(count)]
    test.dice.extend(new)
    return new


def _reroll_blanks(test: PendingTest, dice: Dice, ev: Events, why: str) -> None:
    for index, die in enumerate(test.dice):
        if die.face == "blank":
            test.dice[index] = roll_die(dice, die.color)
    ev.append(Rolled(figure=test.hero, purpose=why, faces=show(test.dice), text=f"Re-roll: {why}."))


def choose(state: ReichState, option: str, dice: Dice, ev: Events) -> None:
    test = state.pending
    if test is None:
        raise RuleError("There is no Test waiting for a choice.")
    valid = {key for key, _ in options(state)}
    option = option.strip().lower()
    if option not in valid:
        raise RuleError(f"'{option}' is not possible now. Options: {', '.join(sorted(valid))}.")
    hero = state.heroes[test.hero]
    content = load_content()
    if option.startswith("card:"):
        card = option[5:]
        rules.discard_card(hero, card)
        test.cards.append(card)
        who = f"{hero.name} plays {card_name(card)}"
        _apply_modifier(test, _modifier(card) or "", dice, ev, who)
        return
    if option.startswith("loot:"):
        loot = option[5:]
        hero.loot.remove(loot)
        if content.loot[loot].duration != "consumable":
            state.loot_deck.discard(loot)
        who = f"{hero.name} uses {content.loot[loot].name}"
        _apply_modifier(test, content.loot[loot].effect, dice, ev, who)
        return
    if option == "roll":
        _roll(test, "black", test.black, dice)
        _roll(test, "red", test.red, dice)
        test.stage = "rolled"
        ev.append(
            Rolled(
                figure=hero.key,
                purpose="attack",
                faces=show(test.dice),
                text=f"{hero.name} rolls {', '.join(show(test.dice))}.",
            )
        )
        if {"lethal", "reroll"} & set(test.keywords) and not test.rerolled:
            test.rerolled = True
            _reroll_blanks(test, dice, ev, "blank results re-rolled once")
        return
    if option == "done":
        _support(state, dice, ev)
        if any(d.face == "star" and d.spent is None for d in test.dice):
            return  # a supporter's Special Result: the attacker spends it, then is done again
        resolve(state, dice, ev)
        return
    if option == "cancel":
        star = next(
            d for d in test.dice if d.face == "star" and d.spent is None and d.color == "red"
        )
        star.spent = "cancel"
        overload = next(d for d in test.dice if d.face == "overload" and d.spent is None)
        overload.spent = "cancelled"
        ev.append(Note(text=f"{hero.name} cancels an Overload with a red Special Result."))
        return
    star = _first_star(test)
    star.spent = option
    if option.startswith("burst:"):
        test.burst = option[6:]
        star.spent = "burst"
        at = _named(state, test.burst)
        ev.append(Note(text=f"{hero.name} spends a Special Result on Burst at {at}."))
        return
    if option == "extra":
        color = "black" if star.color == "card" else star.color
        new = _roll(test, color, 1, dice)
        ev.append(
            Rolled(
                figure=hero.key,
                purpose="extra die",
                faces=show(new),
                text=f"{hero.name} rolls one more die: {show(new)[0]}.",
            )
        )
    elif option == "rage":
        new = _roll(test, "black", 1, dice)  # Rage: one extra Attack die, once per Melee Test
        test.spends.append("rage")
        ev.append(
            Rolled(
                figure=hero.key,
                purpose="rage",
                faces=show(new),
                text=f"Rage! {hero.name} rolls one more die: {show(new)[0]}.",
            )
        )
    else:
        test.spends.append(option)
        ev.append(Note(text=f"{hero.name} spends a Special Result on {option.replace('_', ' ')}."))


def _first_star(test: PendingTest) -> Die:
    stars = [d for d in test.dice if d.face == "star" and d.spent is None]
    stars.sort(key=lambda d: d.color == "red")  # keep red stars for cancelling Overloads
    return stars[0]


def _apply_modifier(test: PendingTest, mod: str, dice: Dice, ev: Events, who: str) -> None:
    kind, _, arg = mod.partition(":")
    if kind == "dice":
        if test.stage == "build":
            test.black += int(arg)
            ev.append(Note(text=f"{who}: +{arg} Attack dice."))
        else:
            new = _roll(test, "black", int(arg), dice)
            ev.append(
                Rolled(
                    figure=test.hero,
                    purpose="modifier",
                    faces=show(new),
                    text=f"{who}: rolls {', '.join(show(new))}.",
                )
            )
    elif kind == "succ":
        test.bonus += int(arg)
        ev.append(Note(text=f"{who}: +{arg} Successes."))
    elif kind == "special":
        test.dice.append(Die(color="card", face="star"))
        ev.append(Note(text=f"{who}: adds a Special Result."))
    elif kind == "reroll":
        _reroll_blanks(test, dice, ev, who)


def _support(state: ReichState, dice: Dice, ev: Events) -> None:
    """Other Operational Heroes in the Area follow their support orders (one card each)."""
    test = state.pending
    assert test is not None
    hero = state.heroes[test.hero]
    content = load_content()
    for other in rules.heroes_in(state, hero.area or ""):
        if other.key == hero.key or other.down or other.key in test.supported:
            continue
        test.supported.append(other.key)  # one card each, even when the Test comes back
        if content.heroes[other.key].skill == "cover_me":
            test.bonus += 1
            ev.append(Note(text=f"{other.name} covers {hero.name}: +1 Success (Cover Me)."))
        now = total(test.dice, test.bonus)
        if now >= test.threshold:
            return
        policy = other.orders.get("support", "if-it-succeeds")
        if policy == "never" or not rules.can_play_cards(other):
            continue
        best = _best_support_card(other, test.threshold - now)
        if best is None:
            continue
        card, gain = best
        if policy == "if-it-succeeds" and now + gain < test.threshold:
            continue
        rules.discard_card(other, card)
        who = f"{other.name} supports with {card_name(card)}"
        _apply_modifier(test, _modifier(card) or "", dice, ev, who)


def _best_support_card(hero: HeroState, need: int) -> tuple[str, int] | None:
    best: tuple[str, int] | None = None
    for card in hero.hand:
        mod = _modifier(card) or ""
        kind, _, arg = mod.partition(":")
        gain = {"succ": int(arg or 0), "special": 2, "dice": int(arg or 0), "reroll": 1}.get(
            kind, 0
        )
        if gain and (best is None or gain > best[1]):
            best = (card, gain)
    return best


def resolve(state: ReichState, dice: Dice, ev: Events) -> None:
    test = state.pending
    assert test is not None
    hero = state.heroes[test.hero]
    score = total(test.dice, test.bonus)
    success = score >= test.threshold
    targets = _targets(state)
    names = " and ".join(t.name for t in targets)
    ev.append(
        Attacked(
            attacker=hero.key,
            target=" and ".join(t.id for t in targets),
            weapon=test.weapon,
            faces=show(test.dice),
            hits=score,
            result="success" if success else "fail",
            text=f"{hero.name} attacks {names} with the {weapon_name(hero, test.weapon)}: "
            f"{counted(score, 'Success')} against "
            f"{test.threshold}, {'a Success' if success else 'a Fail'}.",
        )
    )
    state.pending = None
    if success:
        burst = rules.find_enemy(state, test.burst) if test.burst else None
        for target in targets:
            wounds = wounds_dealt(target, test.keywords, test.red > 0, ev)
            if wounds and "double_impact" in test.spends:
                wounds += 1
            if wounds:
                wound_enemy(state, target, wounds, "loot" in test.spends, dice, ev)
        if burst is not None and burst in state.enemies:
            wounds = wounds_dealt(burst, test.keywords, test.red > 0, ev)
            if wounds:
                ev.append(Note(text=f"Burst: the spray also hits {burst.name}."))
                wound_enemy(state, burst, wounds, False, dice, ev)
    if "crowd_control" in test.spends and hero.area:
        _crowd_control(state, hero, ev)
    if "quick_attack" in test.spends:
        hero.grants.insert(0, f"quick:{test.weapon}")
    if success and "repeat" in test.keywords and test.grant:
        hero.grants.insert(0, test.grant)
        ev.append(Note(text=f"{hero.name} keeps firing (Repeatable): another Attack is ready."))
    overloads = sum(1 for d in test.dice if d.face == "overload" and d.spent is None)
    for _ in range(overloads):
        ev.append(Note(text=f"Overload! {hero.name}'s Vril weapon turns on its bearer."))
        rules.wound_hero(state, hero, None, dice, ev, permanent=True)
    blanks = sum(1 for d in test.dice if d.color == "black" and d.face == "blank")
    if "shoddy" in test.keywords and blanks >= 2 and test.weapon in hero.weapons:
        hero.weapons[test.weapon].jammed = True
        shown = weapon_name(hero, test.weapon)
        ev.append(Note(text=f"{hero.name}'s {shown} jams (Shoddy Kit, {blanks} blanks)."))
    rules.make_noise(state, test.noise, test.explosion, dice, ev)


def burst_candidates(state: ReichState) -> list[EnemyState]:
    """Burst: the other Active Enemies in the first target's Area (never a target itself)."""
    test = state.pending
    assert test is not None
    targets = _targets(state)
    if not targets:
        return []
    return [e for e in rules.enemies_in(state, targets[0].area, True) if e.id not in test.targets]


def wounds_dealt(enemy: EnemyState, kws: list[str], vril: bool, ev: Events) -> int:
    """Wounds a successful Attack deals `enemy`: Armor, Armor-Piercing and Ablative Shield.

    ARMOR: only an Attack with Armor-Piercing Wounds it (one Wound); Armor-Piercing deals two
    Wounds to anything else; an Ablative Shield takes no Wound from a Vril weapon or card.
    """
    own = rules.keywords(enemy)
    if vril and "ablative_shield" in own:
        ev.append(Note(text=f"{enemy.name}'s Ablative Shield shrugs off the Vril weapon."))
        return 0
    armored = bool({"armored", "armor"} & set(own))
    if "ap" in kws:
        return 1 if armored else 2
    if armored:
        ev.append(Note(text=f"{enemy.name} is Armored: only Armor-Piercing hurts it."))
        return 0
    return 1


def _crowd_control(state: ReichState, hero: HeroState, ev: Events) -> None:
    area = hero.area or ""
    pushed = rules.enemies_in(state, area, True)
    free = [
        a
        for a in rules.adjacent(state, area)
        if not rules.heroes_in(state, a) and rules.has_room(state, a, len(pushed))
    ]
    if not free:
        return
    for enemy in pushed:
        enemy.area = free[0]
    ev.append(Note(text=f"{hero.name} drives the Enemies in {area} back into {free[0]}."))


def wound_enemy(
    state: ReichState, enemy: EnemyState, wounds: int, loot: bool, dice: Dice, ev: Events
) -> None:
    """Apply Wounds; kill at Life, or turn a Vrilmeister to its next Behaviour."""
    enemy.wounds += wounds
    if enemy.wounds < rules.life(enemy):
        ev.append(Note(text=f"{enemy.name} is wounded ({enemy.wounds}/{rules.life(enemy)})."))
        return
    base = rules.profile(enemy)
    if base.behaviors and enemy.behavior + 1 < len(base.behaviors):
        enemy.behavior += 1
        enemy.wounds = 0
        ev.append(Note(text=f"{enemy.name} staggers and turns to its next Behaviour card."))
        return
    state.enemies.remove(enemy)
    state.kills[enemy.type] = state.kills.get(enemy.type, 0) + 1
    ev.append(
        Killed(
            figure=enemy.id,
            at=enemy.area,
            name=enemy.name,
            text=f"{enemy.name} is killed in {enemy.area}.",
        )
    )
    if loot and base.loot and (state.loot_deck.draw_pile or state.loot_deck.discard_pile):
        rules.drop_loot(state, enemy.area, state.loot_deck.draw(dice), ev)

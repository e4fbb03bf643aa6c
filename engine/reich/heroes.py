"""The Heroes' Turn: Basic Actions, Action and Loot cards, and the effects they grant.

Playing an Action section queues its effects on the Hero (`grants`), in card order. Effects that
need no choice (draw, regain a token) happen at once; the others wait for the Hero's next
command (`move`, `attack`, or `act what:smoke|suppress|grenade|open|heal`), and `act what:skip`
drops the next one. While effects are queued, that Hero does nothing else.
"""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.errors import RuleError
from engine.core.events import Moved, Note
from engine.core.game import Action
from engine.reich import attack as atk
from engine.reich import consent, rules
from engine.reich.content import load_content
from engine.reich.enemies import activate_one
from engine.reich.rules import Events
from engine.reich.state import GroundItem, HeroState, ReichState
from engine.reich.words import card_name, effect_words, wound_name

ATTACK_GRANTS = ("melee", "ranged", "attack", "quick")


def card_template(card: str) -> str:
    return card.rsplit("-", 1)[0]


def front(hero: HeroState) -> str | None:
    return hero.grants[0] if hero.grants else None


def _use_basic(hero: HeroState, what: str) -> None:
    if hero.tokens <= 0:
        raise RuleError(f"{hero.name} has no Basic Action token left for {what}.")
    hero.tokens -= 1


def move_targets(state: ReichState, hero: HeroState) -> list[str]:
    if hero.area is None:
        return []
    out = [a for a in rules.adjacent(state, hero.area) if rules.has_room(state, a)]
    if hero.area in rules.mission(state).exits:
        out.append("EXIT")
    return out


def can_basic_move(hero: HeroState) -> bool:
    slow = any(load_content().wounds[w].permanent == "slow" for w in hero.wounds)
    return hero.tokens > 0 and not hero.used_move and not slow


def attack_actions(state: ReichState, hero: HeroState, grant: str | None) -> list[Action]:
    out: list[Action] = []
    kind = grant.split(":")[0] if grant else "attack"
    extra_kws = grant.split(":")[2:] if grant and kind != "quick" else []
    for weapon in atk.weapons_of(hero):
        if weapon.id != "hands" and hero.weapons[weapon.id].jammed:
            continue
        if (kind == "melee" and weapon.range > 0) or (kind == "ranged" and weapon.range == 0):
            continue
        if kind == "quick" and weapon.id != grant.split(":")[1]:  # type: ignore[union-attr]
            continue
        kws = [*atk.weapon_stats(hero, weapon)[2], *extra_kws]
        valid = [e for e in state.enemies if atk.can_target(state, hero, e, weapon, kws) is None]
        if ("distinct" in extra_kws or kind == "quick") and hero.last_target:
            valid = [e for e in valid if e.id != hero.last_target]
        for enemy in valid:
            out.append(
                Action(
                    verb="attack",
                    args={"unit": hero.key, "target": enemy.id, "weapon": weapon.id},
                    label=f"{hero.name}: {weapon.name} at {enemy.name} "
                    f"(Def {rules.defense_in(state, enemy)})",
                )
            )
        if load_content().heroes[hero.key].skill == "dual_wielding":
            for i, a in enumerate(valid[:3]):
                for b in valid[i + 1 : 4]:
                    out.append(
                        Action(
                            verb="attack",
                            args={
                                "unit": hero.key,
                                "target": a.id,
                                "target2": b.id,
                                "weapon": weapon.id,
                            },
                            label=f"{hero.name}: {weapon.name} at {a.name} and {b.name} "
                            "(Dual Wielding)",
                        )
                    )
    return out


def _act(hero: HeroState, what: str, label: str, **more: str) -> Action:
    return Action(verb="act", args={"unit": hero.key, "what": what, **more}, label=label)


def hero_actions(state: ReichState, hero: HeroState) -> list[Action]:
    """Every legal action of one Hero right now."""
    if hero.area is None:
        return []
    content = load_content()
    out: list[Action] = []
    if hero.down:
        if hero.grants:
            for card in dict.fromkeys(hero.hand):
                out.append(
                    _act(
                        hero,
                        "remove",
                        f"{hero.name}: remove {card_name(card)} from the game",
                        target=card,
                    )
                )
        elif hero.tokens >= 2:
            out.extend(_recover_actions(hero))
        return out
    grant = front(hero)
    if grant is not None:
        head = grant.split(":")[0]
        if head == "move":
            if hero.pinned_area != hero.area:
                for to in move_targets(state, hero):
                    out.append(
                        Action(
                            verb="move",
                            args={"unit": hero.key, "to": to},
                            label=f"{hero.name} to {to} (card)",
                        )
                    )
            if content.heroes[hero.key].skill == "focused" and not hero.skill_used:
                for door in _doors_here(state, hero):
                    out.append(
                        _act(hero, "open", f"{hero.name}: open {door} (Focused)", target=door)
                    )
        elif head in ("discard", "lose"):
            for card in dict.fromkeys(hero.hand):
                shown = f"{hero.name}: discard {card_name(card)}"
                out.append(_act(hero, "discard", shown, target=card))
            if head == "lose":
                for loot in dict.fromkeys(hero.loot):
                    out.append(_act(hero, "drop", f"{hero.name}: drop {loot}", target=loot))
            if not out:  # nothing left to discard or drop: the effect cannot apply, skip it
                out.append(_act(hero, "skip", f"{hero.name}: nothing left to discard"))
            return out
        elif head in ATTACK_GRANTS:
            out.extend(attack_actions(state, hero, grant))
        elif head in ("smoke", "grenade"):
            areas = rules.adjacent(state, hero.area)
            if head == "smoke":
                areas = [hero.area, *areas]
            for to in areas:
                out.append(_act(hero, head, f"{hero.name}: {head} into {to}", to=to))
        elif head == "suppress":
            for to in rules.board(state).areas:
                if (
                    to != hero.area
                    and rules.hero_sight(state, hero.area, to)
                    and rules.sight_range(state, hero.area, to, True) <= 2
                ):
                    out.append(
                        _act(hero, "suppress", f"{hero.name}: Suppressing Fire on {to}", to=to)
                    )
        elif head == "open":
            for door in _doors_here(state, hero):
                out.append(_act(hero, "open", f"{hero.name}: open {door}", target=door))
        elif head == "heal":
            for other in rules.heroes_in(state, hero.area):
                if other.wounds:
                    out.append(
                        _act(hero, "heal", f"{hero.name}: treat {other.name}", target=other.key)
                    )
        out.append(_act(hero, "skip", f"{hero.name}: skip {effect_words(grant)}"))
        return out
    if can_basic_move(hero):
        for to in move_targets(state, hero):
            out.append(
                Action(
                    verb="move",
                    args={"unit": hero.key, "to": to},
                    label=f"{hero.name} to {to} (Basic Move)",
                )
            )
    if hero.tokens > 0 and not hero.used_attack:
        out.extend(attack_actions(state, hero, None))
    if hero.tokens > 0:
        if hero.deck.draw_pile or hero.deck.discard_pile:
            out.append(_act(hero, "draw", f"{hero.name}: draw two Action cards"))
        for door in _doors_here(state, hero):
            out.append(_act(hero, "open", f"{hero.name}: open/unlock {door}", target=door))
        if not rules.enemies_in(state, hero.area):
            for item in _items_here(state, hero):
                if item.kind == "objective":
                    out.append(
                        _act(
                            hero,
                            "sabotage",
                            f"{hero.name}: complete objective {item.id}",
                            target=item.id,
                        )
                    )
                elif item.card is None or len(hero.loot) < 3:
                    out.append(
                        _act(hero, "pickup", f"{hero.name}: pick up {item.id}", target=item.id)
                    )
                else:
                    for old in dict.fromkeys(hero.loot):
                        label = f"{hero.name}: pick up {item.id}, leaving {old} here"
                        out.append(_act(hero, "pickup", label, target=item.id, drop=old))
            if hero.area in [a for a, c in state.accessories_up.items() if c == "blueprints"]:
                for wid, ws in hero.weapons.items():
                    if not ws.vril:
                        out.append(_act(hero, "vril", f"{hero.name}: Vril the {wid}", target=wid))
        for wid, ws in hero.weapons.items():
            if ws.jammed:
                out.append(_act(hero, "unjam", f"{hero.name}: unjam {wid}", target=wid))
        for other in rules.heroes_in(state, hero.area):
            if other.key == hero.key:
                continue  # a Down Hero can still hand over or receive (same Area, accepts)
            out.extend(_give_take_actions(hero, other))
    if hero.tokens >= 2 and hero.wounds:
        out.extend(_recover_actions(hero))
    if rules.can_play_cards(hero):
        out.extend(react_actions(state, hero))
        for card in dict.fromkeys(hero.hand):
            tpl = content.cards[card_template(card)]
            if tpl.effects and tpl.effects[0].startswith("react_"):
                continue  # a Reaction: played only at its moment (react_actions, reactions.py)
            out.append(_act(hero, "play", f"{hero.name}: play {tpl.name}", target=card))
    for loot in dict.fromkeys(hero.loot):
        ldef = content.loot[loot]
        if ldef.when == "turn":
            out.append(_act(hero, "loot", f"{hero.name}: use {ldef.name}", target=loot))
        out.append(_act(hero, "drop", f"{hero.name}: drop {ldef.name}", target=loot))
    return out


def react_actions(state: ReichState, hero: HeroState) -> list[Action]:
    """Heroes'-Turn Reactions: a shot at an Enemy that showed up or acted in the last action."""
    cards = load_content().cards
    held = [
        c
        for c in dict.fromkeys(hero.hand)
        if cards[card_template(c)].effects[:1]
        and cards[card_template(c)].effects[0].startswith("react_spotted")
    ]
    out: list[Action] = []
    for card in held:
        for eid in state.spotted:
            enemy = rules.find_enemy(state, eid)
            if enemy is None:
                continue
            for weapon in atk.weapons_of(hero):
                if weapon.range == 0 or (weapon.id != "hands" and hero.weapons[weapon.id].jammed):
                    continue
                if atk.can_target(state, hero, enemy, weapon, atk.weapon_stats(hero, weapon)[2]):
                    continue
                label = f"{hero.name}: react with {cards[card_template(card)].name} at {enemy.name}"
                out.append(
                    _act(
                        hero,
                        "react",
                        f"{label} ({weapon.name})",
                        target=card,
                        to=eid,
                        weapon=weapon.id,
                    )
                )
    return out


def spotted_now(
    state: ReichState, existing: set[str], inactive: set[str], used: list[str]
) -> list[str]:
    """Enemies that appeared, woke up or acted (Awareness) since the ids were noted."""
    on_board = {e.id: e for e in state.enemies}
    new = {eid for eid in on_board if eid not in existing}
    woke = {eid for eid in inactive if eid in on_board and on_board[eid].active}
    acted = {eid for eid in state.awareness_used if eid not in used and eid in on_board}
    return sorted(new | woke | acted)


def _recover_actions(hero: HeroState) -> list[Action]:
    """Recover: one action per pair of Wound cards to discard (the player's choice)."""
    names = sorted(hero.wounds)
    if len(names) == 1:
        shown = f"{hero.name}: Recover from {wound_name(names[0])}"
        return [_act(hero, "recover", shown, target=names[0])]
    pairs = sorted({f"{a}+{b}" for i, a in enumerate(names) for b in names[i + 1 :]})
    return [
        _act(
            hero,
            "recover",
            f"{hero.name}: Recover, discarding "
            + " and ".join(wound_name(w) for w in p.split("+")),
            target=p,
        )
        for p in pairs
    ]


def _doors_here(state: ReichState, hero: HeroState) -> list[str]:
    return [
        d.id
        for d in rules.board(state).doors_of(hero.area or "")
        if d.id not in state.open_doors
        and (
            d.lock is None
            or d.id in state.unlocked
            or (d.lock == "key" and "keys" in hero.carried)
            or (d.lock == "code" and "code" in hero.carried)
        )
    ]


def _items_here(state: ReichState, hero: HeroState) -> list[GroundItem]:
    return [g for g in state.ground if g.area == hero.area and not g.done]


def _hero(state: ReichState, action: Action, seat: str) -> HeroState:
    key = action.args.get("unit", "").lower()
    hero = state.heroes.get(key)
    if hero is None:
        raise RuleError(f"There is no Hero called '{key}' in this mission.")
    if hero.seat != seat:
        raise RuleError(f"{hero.name} is not yours to command.")
    if hero.area is None:
        raise RuleError(f"{hero.name} has left the board.")
    return hero


def apply_hero(state: ReichState, seat: str, action: Action, dice: Dice, ev: Events) -> None:
    hero = _hero(state, action, seat)
    legal = hero_actions(state, hero)
    wanted = _normalise(action)
    folded = {k: v.lower() for k, v in wanted.args.items()}
    match = next(
        (
            a
            for a in legal
            if a.verb == wanted.verb and {k: v.lower() for k, v in a.args.items()} == folded
        ),
        None,
    )
    if match is None:
        raise RuleError(_why_not(state, hero, wanted))
    wanted = match
    before = aware_pairs(state)
    existing = {e.id for e in state.enemies}
    inactive = {e.id for e in state.enemies if not e.active}
    used = list(state.awareness_used)
    if wanted.args.get("what") != "react":
        state.spotted = []  # a Reaction answers the last action only
    _perform(state, hero, wanted, dice, ev)
    awareness(state, before, existing, dice, ev)
    state.spotted += [
        e for e in spotted_now(state, existing, inactive, used) if e not in state.spotted
    ]


def _perform(state: ReichState, hero: HeroState, wanted: Action, dice: Dice, ev: Events) -> None:
    grant = front(hero)
    if grant is not None and wanted.args.get("what") != "skip":
        hero.grants.pop(0)
    verb, args = wanted.verb, wanted.args
    if verb == "move":
        if grant is None:
            _use_basic(hero, "Move")
            hero.used_move = True
        do_move(state, hero, args["to"], dice, ev)
        if grant is not None and hero.area and rules.enemies_in(state, hero.area, True):
            hero.pinned_area = hero.area  # cannot enter and leave in the same Action
    elif verb == "attack":
        if grant is None:
            _use_basic(hero, "Attack")
            hero.used_attack = True
        weapon = next(w for w in atk.weapons_of(hero) if w.id == args["weapon"])
        targets = [rules.find_enemy(state, args["target"])]
        if "target2" in args:
            targets.append(rules.find_enemy(state, args["target2"]))
        bonus, kws = 0, []
        if grant and not grant.startswith("quick"):
            parts = grant.split(":")
            bonus, kws = int(parts[1]), parts[2:]
        atk.start_attack(state, hero, [t for t in targets if t], weapon, bonus, kws)
        if state.pending is not None:
            state.pending.grant = grant
    else:
        _act_apply(state, hero, args, grant, dice, ev)
    after_grant(state, hero, dice, ev)


def _give_take_actions(hero: HeroState, other: HeroState) -> list[Action]:
    """Give/Take with a Hero in the Area. A Loot card goes into a free slot or in place of one
    of the receiver's cards, left face up in the Area: the receiver's player picks which. When
    the acting Hero receives (a Take) or both Heroes are one player's, the action names the card
    (`drop:`); another player picks it when accepting (`consent.py`)."""
    asks = "" if other.seat == hero.seat else f" (asks {other.name}'s player)"
    out: list[Action] = []

    def offer(what: str, loot: str, receiver: HeroState, label: str) -> None:
        if len(receiver.loot) < 3 or (what == "give" and other.seat != hero.seat):
            out.append(_act(hero, what, label, target=loot, to=other.key))
            return
        for old in dict.fromkeys(receiver.loot):
            leave = f"{label}, {receiver.name} leaving {consent.item_name(old)} here"
            out.append(_act(hero, what, leave, target=loot, to=other.key, drop=old))

    for loot in dict.fromkeys(hero.loot):
        named = consent.item_name(loot)
        offer("give", loot, other, f"{hero.name}: give {named} to {other.name}{asks}")
    for loot in dict.fromkeys(other.loot):
        named = consent.item_name(loot)
        offer("take", loot, hero, f"{hero.name}: take {named} from {other.name}{asks}")
    for tok in dict.fromkeys(other.carried):
        label = f"{hero.name}: take the {tok} token from {other.name}{asks}"
        out.append(_act(hero, "take", label, target=tok, to=other.key))
    for tok in dict.fromkeys(hero.carried):
        label = f"{hero.name}: give the {tok} token to {other.name}{asks}"
        out.append(_act(hero, "give", label, target=tok, to=other.key))
    return out


def _normalise(action: Action) -> Action:
    args = {k: v for k, v in action.args.items()}
    if "unit" in args:
        args["unit"] = args["unit"].lower()
    for key in ("to", "target", "target2"):
        if key in args and args[key].upper() in ("EXIT",):
            args[key] = "EXIT"
    return Action(verb=action.verb, args=args)


def _why_not(state: ReichState, hero: HeroState, action: Action) -> str:
    if hero.down:
        if hero.grants:
            return f"{hero.name} is Down: first choose two Action cards to remove from the game."
        return f"{hero.name} is Down and can only Recover (with both Basic Action tokens)."
    if state.pending is not None:
        return "An Attack Test is waiting: finish it with /choose first."
    if hero.grants:
        return (
            f"{hero.name} must first use or skip the card effect: {effect_words(hero.grants[0])}."
        )
    if action.args.get("what") == "react":
        return (
            f"{hero.name} can react only right after Enemies show up or act where they can shoot "
            "them (a Heroes'-Turn Reaction card in hand, and nothing else done since)."
        )
    if action.verb == "move":
        if hero.used_move:
            return f"{hero.name} already made a Basic Move this turn; play a card to move again."
        if hero.tokens <= 0:
            return f"{hero.name} has no Basic Action token left."
        to = action.args.get("to")
        return f"{hero.name} cannot move from {hero.area} to {to}: not adjacent or full."
    if action.verb == "attack":
        if hero.used_attack:
            return f"{hero.name} already made a Basic Attack this turn."
        target = rules.find_enemy(state, action.args.get("target", ""))
        weapon = next((w for w in atk.weapons_of(hero) if w.id == action.args.get("weapon")), None)
        if target is None:
            return f"There is no Enemy '{action.args.get('target')}' on the board."
        if weapon is None:
            return f"{hero.key} has no weapon '{action.args.get('weapon')}'."
        reason = atk.can_target(state, hero, target, weapon, atk.weapon_stats(hero, weapon)[2])
        return f"{hero.name} cannot attack {target.name}: {reason or 'not allowed now'}."
    return f"{hero.key} cannot do that now ({action.args.get('what', action.verb)})."


def do_move(state: ReichState, hero: HeroState, to: str, dice: Dice, ev: Events) -> None:
    if to == "EXIT":
        ev.append(
            Moved(
                figure=hero.key,
                path=[hero.area or "", "EXIT"],
                text=f"{hero.name} leaves the board through the exit.",
            )
        )
        hero.area = None
        hero.exited = True
        hero.grants = []
        return
    ev.append(
        Moved(figure=hero.key, path=[hero.area or "", to], text=f"{hero.name} moves to {to}.")
    )
    hero.area = to
    for enemy in rules.enemies_in(state, to, True):
        if "cautious" in rules.keywords(enemy):
            free = [
                a
                for a in rules.adjacent(state, to)
                if not rules.heroes_in(state, a) and rules.has_room(state, a)
            ]
            if free:
                enemy.area = free[0]
                ev.append(
                    Moved(
                        figure=enemy.id,
                        path=[to, free[0]],
                        text=f"{enemy.name} is Cautious and steps back into {free[0]}.",
                    )
                )
    rules.wake(state, dice, ev)


def aware_pairs(state: ReichState) -> set[tuple[str, str]]:
    """(Enemy, Hero) pairs where an Active Enemy with Awareness sees the Hero."""
    return {
        (e.id, h.key)
        for e in state.enemies
        if e.active and rules.profile(e).awareness
        for h in rules.heroes_on_board(state)
        if rules.enemy_sight(state, e.area, h.area or "")
    }


def awareness(
    state: ReichState, before: set[tuple[str, str]], existing: set[str], dice: Dice, ev: Events
) -> None:
    """Awareness: an Enemy reacts the first time a Hero comes into its sight.

    Once per Heroes' Turn per Enemy, and never twice for the same Enemy and Hero; Enemies that
    appeared during the action do not react (they act on the next Enemies' Turn).
    """
    for eid, hkey in sorted(aware_pairs(state) - before):
        pair = f"{eid}:{hkey}"
        if eid not in existing or eid in state.awareness_used or pair in state.awareness_seen:
            continue
        found = rules.find_enemy(state, eid)
        if found is None or state.phase == "ended":
            continue
        state.awareness_used.append(eid)
        state.awareness_seen.append(pair)
        activate_one(
            state, found, dice, ev, f"Awareness: {state.heroes[hkey].name} came into sight"
        )


def _act_apply(
    state: ReichState,
    hero: HeroState,
    args: dict[str, str],
    grant: str | None,
    dice: Dice,
    ev: Events,
) -> None:
    content = load_content()
    what = args["what"]
    target = args.get("target", "")
    basic = grant is None
    if what == "skip":
        dropped = hero.grants.pop(0)
        ev.append(Note(text=f"{hero.name} skips the effect: {effect_words(dropped)}."))
    elif what == "draw":
        _use_basic(hero, "Draw")
        if content.heroes[hero.key].skill == "genius":
            rules.draw_actions(hero, 3, dice, ev)
            if hero.hand:
                hero.grants = ["discard"]
                hero.grant_card = None
            rules.enforce_hand_limit(state, hero, ev)
        else:
            rules.draw_actions(hero, 2, dice, ev, state)
    elif what == "remove":
        hero.hand.remove(target)
        hero.removed.append(target)
        rules.hand_note(
            ev,
            hero,
            f"{hero.name} removes a card from the game (Down).",
            f"{hero.name} removes {card_name(target)} from the game (Down).",
        )
    elif what == "discard":
        rules.discard_card(hero, target)
        rules.hand_note(
            ev, hero, f"{hero.name} discards a card.", f"{hero.name} discards {card_name(target)}."
        )
    elif what == "open":
        if basic:
            _use_basic(hero, "Open/Unlock")
        elif grant == "move":
            hero.skill_used = True
            ev.append(Note(text=f"{hero.name} uses a Move effect to open a door (Focused)."))
        door = rules.board(state).doors[target]
        if door.lock and target not in state.unlocked:
            state.unlocked.append(target)
            ev.append(Note(text=f"{hero.name} unlocks door {target}; it is now Closed."))
        else:
            state.open_doors.append(target)
            ev.append(
                Note(text=f"{hero.name} opens door {target} ({door.areas[0]}-{door.areas[1]}).")
            )
    elif what == "pickup":
        if basic and not (content.heroes[hero.key].skill == "resourceful" and not hero.skill_used):
            _use_basic(hero, "Pick Up")
        elif basic:
            hero.skill_used = True
        if "drop" in args:
            hero.loot.remove(args["drop"])
            rules.drop_loot(state, hero.area or "", args["drop"], ev)
        pick_up(state, hero, target, ev)
    elif what == "take":
        other = state.heroes[args["to"]]
        if other.seat != hero.seat:
            consent.ask(state, hero, other, target, False, ev, args.get("drop"))
            return
        _use_basic(hero, "Give/Take")
        consent.hand_over(state, other, hero, target, args.get("drop"), ev)
        ev.append(Note(text=f"{hero.name} takes {consent.item_name(target)} from {other.name}."))
    elif what == "sabotage":
        _use_basic(hero, "objective")
        item = next(g for g in state.ground if g.id == target)
        item.done = True
        state.sabotaged += 1
        ev.append(Note(text=f"{hero.name} completes the objective at {item.area} ({item.id})."))
    elif what == "give":
        other = state.heroes[args["to"]]
        if other.seat != hero.seat:
            consent.ask(state, hero, other, target, True, ev)
            return
        _use_basic(hero, "Give/Take")
        consent.hand_over(state, hero, other, target, args.get("drop"), ev)
        ev.append(Note(text=f"{hero.name} hands {consent.item_name(target)} to {other.name}."))
    elif what == "drop":
        hero.loot.remove(target)
        rules.drop_loot(state, hero.area or "", target, ev)
    elif what == "unjam":
        _use_basic(hero, "Unjam")
        hero.weapons[target].jammed = False
        ev.append(Note(text=f"{hero.name} clears the jam in the {target}."))
    elif what == "vril":
        _use_basic(hero, "Vril a Weapon")
        hero.weapons[target].vril = True
        hero.weapons[target].jammed = False
        ev.append(Note(text=f"{hero.name} turns the {target} into a Vril weapon."))
    elif what == "recover":
        hero.tokens -= 2
        for card in target.split("+"):
            hero.wounds.remove(card)
            state.wound_deck.discard(card)
        if hero.down and len(hero.wounds) < 4:
            hero.down = False
            ev.append(Note(text=f"{hero.name} gets back up and is Operational again."))
            rules.enforce_hand_limit(state, hero, ev)  # a kept hand-limit Wound holds again
        else:
            ev.append(Note(text=f"{hero.name} recovers from two Wounds."))
    elif what == "play":
        play_card(state, hero, target, dice, ev)
    elif what == "react":
        tpl = content.cards[card_template(target)]
        weapon = next(w for w in atk.weapons_of(hero) if w.id == args["weapon"])
        enemy = rules.find_enemy(state, args["to"])
        assert enemy is not None
        rules.discard_card(hero, target)
        state.spotted.remove(enemy.id)
        ev.append(Note(text=f"{hero.name} reacts with {tpl.name}: a shot at {enemy.name}."))
        atk.start_attack(state, hero, [enemy], weapon, int(tpl.effects[0].split(":")[1]), [])
    elif what == "loot":
        use_loot(state, hero, target, dice, ev)
    elif what in ("smoke", "suppress"):
        pile = state.smoke if what == "smoke" else state.suppress
        if args["to"] not in pile:
            pile.append(args["to"])
        ev.append(Note(text=f"{hero.name} puts a {what.title()} token in {args['to']}."))
    elif what == "grenade":
        area = args["to"]
        ev.append(Note(text=f"{hero.name} throws a grenade into {area}!"))
        for enemy in list(rules.enemies_in(state, area)):
            enemy.active = True
            if atk.wounds_dealt(enemy, [], False, ev):  # no Armor-Piercing: Armor holds
                atk.wound_enemy(state, enemy, 1, False, dice, ev)
        for victim in rules.heroes_in(state, area):
            rules.wound_hero(state, victim, None, dice, ev, permanent=True)
    elif what == "heal":
        other = state.heroes[target]
        card = other.wounds.pop()
        state.wound_deck.discard(card)
        ev.append(Note(text=f"{hero.name} treats {other.name}: one permanent Wound is discarded."))


def pick_up(state: ReichState, hero: HeroState, gid: str, ev: Events) -> None:
    item = next(g for g in state.ground if g.id == gid)
    state.ground.remove(item)
    if item.card:
        hero.loot.append(item.card)
        ev.append(Note(text=f"{hero.name} picks up {load_content().loot[item.card].name}."))
    else:
        hero.carried.append(item.kind or "")
        ev.append(Note(text=f"{hero.name} picks up the {item.kind} token."))


def play_card(state: ReichState, hero: HeroState, card: str, dice: Dice, ev: Events) -> None:
    tpl = load_content().cards[card_template(card)]
    hero.hand.remove(card)
    if tpl.duration == "consumable":
        hero.removed.append(card)
    elif tpl.duration == "round":
        hero.in_play.append(card)
    else:
        hero.deck.discard(card)
    hero.grants = list(tpl.effects)
    hero.grant_card = card
    hero.grant_noise = tpl.noise
    ev.append(Note(text=f"{hero.name} plays {tpl.name}: {tpl.text.split(';')[0].rstrip('.')}."))
    if tpl.explosion:
        rules.make_noise(state, 0, True, dice, ev)


def use_loot(state: ReichState, hero: HeroState, loot: str, dice: Dice, ev: Events) -> None:
    ldef = load_content().loot[loot]
    hero.loot.remove(loot)
    if ldef.duration != "consumable":
        state.loot_deck.discard(loot)
    ev.append(Note(text=f"{hero.name} uses {ldef.name}."))
    head, _, arg = ldef.effect.partition(":")
    if head == "buff":
        hero.buffs.append(arg)
    elif head == "draw":
        rules.draw_actions(hero, int(arg), dice, ev, state)
    elif head == "unjam":
        for ws in hero.weapons.values():
            if ws.jammed:
                ws.jammed = False
                break
    elif head == "token":
        hero.tokens = min(2, hero.tokens + 1)
    elif head == "heal":
        if hero.wounds:
            state.wound_deck.discard(hero.wounds.pop())
    else:
        hero.grants = [ldef.effect]
        hero.grant_card = None
        hero.grant_noise = 0
    if ldef.noise == "X":
        rules.make_noise(state, 0, True, dice, ev)
    elif isinstance(ldef.noise, int) and ldef.noise:
        hero.grant_noise += ldef.noise


def after_grant(state: ReichState, hero: HeroState, dice: Dice, ev: Events) -> None:
    """Run the immediate effects at the head of the queue; make the card's Noise when done."""
    while hero.grants:
        head, _, arg = hero.grants[0].partition(":")
        if head == "draw":
            hero.grants.pop(0)
            rules.draw_actions(hero, int(arg), dice, ev, state)
        elif head == "token":
            hero.grants.pop(0)
            hero.tokens = min(2, hero.tokens + 1)
            ev.append(Note(text=f"{hero.name} regains a Basic Action token."))
        else:
            break
    if not hero.grants and state.pending is None and hero.grant_noise:
        noise, hero.grant_noise = hero.grant_noise, 0
        rules.make_noise(state, noise, False, dice, ev)
    if not hero.grants:
        hero.grant_card = None
        hero.pinned_area = None
    rules.wake(state, dice, ev)

"""Reaction cards fired during the Enemies' Turn, by standing orders.

A card whose Action section is a Reaction (`react_ranged`) cannot be played in the Heroes'
Turn. When a type of Enemy has finished its Move step, each Operational Hero whose orders say
`react:fire` and who holds such a card plays it (once per Enemies' Turn) and shoots the
Enemy in sight with the lowest Defense Value (ties by id), using the ranged weapon with the
most dice. The Test runs on its own: Special Results cancel Overloads first, then buy dice.
"""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.events import Note
from engine.reich import attack as atk
from engine.reich import rules
from engine.reich.content import load_content
from engine.reich.rules import Events
from engine.reich.state import HeroState, ReichState


def reaction_cards(hero: HeroState) -> list[str]:
    cards = load_content().cards
    return [c for c in hero.hand if cards[c.rsplit("-", 1)[0]].effects[0].startswith("react_")]


def _fire(state: ReichState, hero: HeroState, card: str, dice: Dice, ev: Events) -> bool:
    tpl = load_content().cards[card.rsplit("-", 1)[0]]
    bonus = int(tpl.effects[0].split(":")[1])
    options = []
    for index, weapon in enumerate(atk.weapons_of(hero)):
        if weapon.range == 0 or (weapon.id != "hands" and hero.weapons[weapon.id].jammed):
            continue
        black, red, kws = atk.weapon_stats(hero, weapon)
        for enemy in state.enemies:
            if atk.can_target(state, hero, enemy, weapon, kws) is None:
                value = rules.defense_in(state, enemy)
                options.append((value, enemy.id, -black - red, index, weapon))
    if not options:
        return False
    _, eid, _, _, weapon = min(options, key=lambda o: (o[0], o[1], o[2], o[3]))
    target = rules.find_enemy(state, eid)
    assert target is not None
    rules.discard_card(hero, card)
    ev.append(Note(text=f"{hero.key} reacts with {tpl.name}: a shot at {eid} ({weapon.name})."))
    atk.start_attack(state, hero, [target], weapon, bonus, [])
    atk.choose(state, "roll", dice, ev)
    while state.pending is not None:
        keys = [k for k, _ in atk.options(state)]
        pick = next((k for k in ("cancel", "extra", "done") if k in keys), "done")
        atk.choose(state, pick, dice, ev)
    hero.grants = []
    return True


def reactions(state: ReichState, dice: Dice, ev: Events) -> None:
    """Give every Hero with orders to fire its one Reaction of this Enemies' Turn."""
    for key in state.hero_order:
        hero = state.heroes[key]
        if (
            hero.area is None
            or hero.down
            or key in state.reacted
            or hero.orders.get("react", "fire") != "fire"
            or not rules.can_play_cards(hero)
            or state.phase == "ended"
        ):
            continue
        for card in reaction_cards(hero):
            if _fire(state, hero, card, dice, ev):
                state.reacted.append(key)
                rules.wake(state, dice, ev)
                rules.check_end(state, ev)
                break

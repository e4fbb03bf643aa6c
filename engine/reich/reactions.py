"""Reaction cards fired during the Enemies' Turn, by standing orders or on demand.

A card whose Action section is a Reaction (`react_ranged`) is played when Enemies finish a
Move step, never as a Heroes' Turn action. When a type of Enemy has finished its Move step,
each Operational Hero holding such a card, with an Enemy in sight to shoot, may play one
(once per Enemies' Turn), as its standing order says:

- `react:fire` plays it at once at the Enemy in sight with the lowest Defense Value (ties by
  id), with the ranged weapon that rolls the most dice;
- `react:ask` pauses the Enemies' Turn and asks the player (`/choose option:fire:<enemy>` or
  `option:hold`); the default, applied when the campaign's answer window closes, is `hold`.
  A Hero who holds may be asked again at a later Move step of the same turn;
- `react:hold` keeps the card.

The Test runs on its own: Special Results cancel Overloads first, then buy dice.
"""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.errors import RuleError
from engine.core.events import Note
from engine.core.game import Action, Prompt
from engine.reich import attack as atk
from engine.reich import rules
from engine.reich.content import Weapon, load_content
from engine.reich.rules import Events
from engine.reich.state import HeroState, ReactionAsk, ReichState

HOLD = Action(verb="choose", args={"option": "hold"}, label="Hold the Reaction card")


def enemy_named(state: ReichState, eid: str) -> str:
    """An Enemy as players read it ("Soldier 3": numbered per type)."""
    found = rules.find_enemy(state, eid)
    return found.name if found is not None else eid


def is_reaction(card: str) -> bool:
    """A Reaction for the Enemies' Turn (Heroes'-Turn ones are `react_spotted`, in heroes.py)."""
    effects = load_content().cards[card.rsplit("-", 1)[0]].effects
    return bool(effects) and effects[0].startswith("react_ranged")


def reaction_cards(hero: HeroState) -> list[str]:
    return [c for c in hero.hand if is_reaction(c)]


def _shots(state: ReichState, hero: HeroState) -> list[tuple[int, str, int, int, Weapon]]:
    """Every (Defense, Enemy, -dice, weapon index, weapon) the Hero could shoot now, best first."""
    options = []
    for index, weapon in enumerate(atk.weapons_of(hero)):
        if weapon.range == 0 or (weapon.id != "hands" and hero.weapons[weapon.id].jammed):
            continue
        black, red, kws = atk.weapon_stats(hero, weapon)
        for enemy in state.enemies:
            if atk.can_target(state, hero, enemy, weapon, kws) is None:
                value = rules.defense_in(state, enemy)
                options.append((value, enemy.id, -black - red, index, weapon))
    return sorted(options, key=lambda o: (o[0], o[1], o[2], o[3]))


def _shoot(
    state: ReichState, hero: HeroState, card: str, eid: str, weapon: Weapon, dice: Dice, ev: Events
) -> None:
    tpl = load_content().cards[card.rsplit("-", 1)[0]]
    bonus = int(tpl.effects[0].split(":")[1])
    target = rules.find_enemy(state, eid)
    assert target is not None
    rules.discard_card(hero, card)
    ev.append(
        Note(text=f"{hero.name} reacts with {tpl.name}: a shot at {target.name} ({weapon.name}).")
    )
    atk.start_attack(state, hero, [target], weapon, bonus, [])
    atk.choose(state, "roll", dice, ev)
    while state.pending is not None:
        keys = [k for k, _ in atk.options(state)]
        pick = next((k for k in ("cancel", "extra", "done") if k in keys), "done")
        atk.choose(state, pick, dice, ev)
    hero.grants = []
    state.reacted.append(hero.key)
    rules.wake(state, dice, ev)
    rules.check_end(state, ev)
    if state.phase == "ended":
        state.enemy_progress = None


def _may_react(state: ReichState, hero: HeroState) -> bool:
    return (
        hero.area is not None
        and not hero.down
        and hero.key not in state.reacted
        and rules.can_play_cards(hero)
        and state.phase != "ended"
        and bool(reaction_cards(hero))
    )


def reactions(state: ReichState, dice: Dice, ev: Events) -> None:
    """Fire (or ask about) the Reactions Heroes may play after a Move step.

    Stops with `state.reaction` set when a player must answer; calling it again after the
    answer goes on with the Heroes not yet asked at this step.
    """
    asked = state.enemy_progress.asked if state.enemy_progress else []
    for key in state.hero_order:
        hero = state.heroes[key]
        order = hero.orders.get("react", "fire")
        if order == "hold" or key in asked or not _may_react(state, hero):
            continue
        shots = _shots(state, hero)
        if not shots:
            continue
        card = reaction_cards(hero)[0]
        if order == "ask":
            asked.append(key)
            state.reaction = ReactionAsk(hero=key, card=card)
            name = load_content().cards[card.rsplit("-", 1)[0]].name
            ev.append(
                Note(
                    text=f"{hero.name} could react with {name} (fire at an Enemy in sight, "
                    "or hold)."
                )
            )
            return
        _, eid, _, _, weapon = shots[0]
        _shoot(state, hero, card, eid, weapon, dice, ev)


def prompt(state: ReichState) -> Prompt:
    ask = state.reaction
    assert ask is not None
    hero = state.heroes[ask.hero]
    name = load_content().cards[ask.card.rsplit("-", 1)[0]].name
    return Prompt(
        seats=[hero.seat],
        kind="choice",
        text=f"{ask.hero} may fire {name} now that Enemies have moved: pick a target or hold.",
        default=HOLD,
    )


def actions(state: ReichState) -> list[Action]:
    ask = state.reaction
    assert ask is not None
    hero = state.heroes[ask.hero]
    out: list[Action] = []
    for value, eid, _, _, weapon in _shots(state, hero):
        option = f"fire:{eid}"
        if any(a.args["option"] == option for a in out):
            continue
        out.append(
            Action(
                verb="choose",
                args={"option": option},
                label=f"{hero.name}: react, {weapon.name} at {enemy_named(state, eid)} "
                f"(Def {value})",
            )
        )
    return [*out, HOLD]


def answer(state: ReichState, option: str, dice: Dice, ev: Events) -> None:
    """Apply `fire:<enemy>` or `hold`; RuleError (nothing changed) for anything else."""
    ask = state.reaction
    assert ask is not None
    hero = state.heroes[ask.hero]
    option = option.strip()
    if option.lower() == "hold":
        state.reaction = None
        ev.append(Note(text=f"{ask.hero} holds the Reaction card."))
        return
    head, _, eid = option.partition(":")
    shots = [s for s in _shots(state, hero) if s[1].lower() == eid.lower()]
    if head.lower() != "fire" or not shots:
        targets = ", ".join(dict.fromkeys(s[1] for s in _shots(state, hero))) or "none"
        raise RuleError(
            f"Answer /choose option:fire:<enemy> (in sight: {targets}) or /choose option:hold."
        )
    state.reaction = None
    _, found, _, _, weapon = shots[0]
    _shoot(state, hero, ask.card, found, weapon, dice, ev)

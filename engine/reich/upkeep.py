"""The Upkeep Turn, with each Hero's free Pick Up left to its player.

Steps 1-3 (discard Game-round effects, draw at four cards or less, Basic Action tokens back)
run at once. Step 4 lets every Hero make a free Pick Up of a face-up Loot card or a mission
token in an Area with no Enemies; which one, or none, is the player's choice, so the game asks
the Heroes one by one (in commando order) through a `choose` question with a default, the
table applying the default when the answer window closes. A mission token takes no Loot slot,
so a Hero carrying three Loot cards may still take one; a Loot card then goes in only in place
of a carried card, which is left in the Area. Step 5 moves the Mission Tracker once nobody is
left to ask.
"""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.errors import RuleError
from engine.core.events import Event, Note, PhaseChanged
from engine.core.game import Action, Prompt
from engine.reich import heroes as hero_rules
from engine.reich import rules
from engine.reich.content import load_content
from engine.reich.state import GroundItem, HeroState, ReichState

LEAVE = "leave"
SLOTS = 3  # Loot cards a Hero may carry


def begin(state: ReichState, dice: Dice, ev: list[Event]) -> None:
    """Steps 1-3, then line up the Heroes who may make the free Pick Up (step 4)."""
    ev.append(PhaseChanged(round=state.round, phase="upkeep", text="Upkeep Turn."))
    state.phase = "upkeep"
    state.suppress = []
    for hero in state.heroes.values():
        for card in hero.in_play:
            hero.deck.discard(card)
        hero.in_play = []
        hero.buffs = []
        if hero.area is None:
            continue
        if len(hero.hand) <= 4:
            rules.draw_actions(hero, 1, dice, ev, state)
        hero.tokens = max(0, (1 if hero.brutal else 2) - hero.token_debt)
        hero.brutal = False
        hero.token_debt = 0
    state.pickup_left = list(state.hero_order)


def items(state: ReichState, hero: HeroState) -> list[GroundItem]:
    """What the Hero could take with the free Pick Up (none in an Area with Enemies)."""
    if hero.area is None or hero.down or rules.enemies_in(state, hero.area):
        return []
    return [
        g
        for g in state.ground
        if g.area == hero.area
        and g.face_up
        and not g.done
        and (g.card is not None or (g.kind is not None and g.kind != "objective"))
    ]


def _name(item: GroundItem) -> str:
    if item.card is not None:
        return load_content().loot[item.card].name
    return f"the {item.kind} token"


def choices(state: ReichState, hero: HeroState) -> list[Action]:
    """The answers for this Hero: each item it may take (a Loot card with a full Dashboard in
    place of one of its cards), then taking nothing. Empty when there is nothing to take."""
    found = items(state, hero)
    if not found:
        return []
    loot = load_content().loot
    out = []
    for item in found:
        if item.card is None or len(hero.loot) < SLOTS:
            out.append(_choose(f"take:{item.id}", f"{hero.name} picks up {_name(item)}"))
        else:
            for old in dict.fromkeys(hero.loot):
                label = f"{hero.name} picks up {_name(item)}, leaving {loot[old].name} here"
                out.append(_choose(f"swap:{item.id}:{old}", label))
    out.append(_choose(LEAVE, f"{hero.name} takes nothing"))
    return out


def _choose(option: str, label: str) -> Action:
    return Action(verb="choose", args={"option": option}, label=label)


def asked(state: ReichState) -> HeroState | None:
    """The Hero whose free Pick Up is being asked now: the first one left with a choice."""
    if state.phase != "upkeep":
        return None
    for key in state.pickup_left:
        if choices(state, state.heroes[key]):
            return state.heroes[key]
    return None


def default(state: ReichState, hero: HeroState) -> Action:
    """What happens without an answer: a mission token (the objectives' business, and it
    takes no slot), else a Loot card into a free slot, else nothing (no card is swapped away)."""
    options = choices(state, hero)
    ground = {g.id: g for g in state.ground}
    for action in options:
        option = action.args["option"]
        if option.startswith("take:") and ground[option[5:]].card is None:
            return action
    return next((a for a in options if a.args["option"].startswith("take:")), options[-1])


def prompt(state: ReichState) -> Prompt:
    hero = asked(state)
    if hero is None:
        return Prompt(seats=[], kind="none", text="Upkeep Turn.")
    offered = ", ".join(_name(g) for g in items(state, hero))
    return Prompt(
        seats=[hero.seat],
        kind="choice",
        text=f"Upkeep: {hero.name} may pick up one thing for free ({offered}), or nothing.",
        default=default(state, hero),
    )


def answer(state: ReichState, option: str, ev: list[Event]) -> None:
    """Apply the asked Hero's answer; the next Hero is asked on the next call to `asked`."""
    hero = asked(state)
    if hero is None:
        raise RuleError("Nobody is choosing a free Pick Up now.")
    valid = {a.args["option"].lower(): a.args["option"] for a in choices(state, hero)}
    if option.strip().lower() not in valid:
        raise RuleError(f"'{option}' is not possible now. Options: {', '.join(valid.values())}.")
    option = valid[option.strip().lower()]
    state.pickup_left = state.pickup_left[state.pickup_left.index(hero.key) + 1 :]
    if option == LEAVE:
        ev.append(Note(text=f"{hero.name} leaves everything where it lies."))
        return
    kind, _, rest = option.partition(":")
    gid, _, old = rest.partition(":")
    if kind == "swap":
        hero.loot.remove(old)
        rules.drop_loot(state, hero.area or "", old, ev)
    hero_rules.pick_up(state, hero, gid, ev)


def finish(state: ReichState, dice: Dice, ev: list[Event]) -> None:
    """Step 5 (once every free Pick Up is settled): the Tracker moves, the alarm, the end."""
    state.pickup_left = []
    rules.check_end(state, ev)  # an objective met by the free Pick Up ends it at once
    if state.phase == "ended":
        return
    state.tracker += 1
    ev.append(Note(text=f"The Mission Tracker moves to {state.tracker}."))
    if not state.alarm and state.tracker >= state.discretion:
        ev.append(Note(text="Time has run out on stealth: the Heroes are spotted."))
        rules.trigger_alarm(state, dice, ev)
    rules.check_end(state, ev, upkeep=True)
    if state.phase == "ended":
        return
    state.round += 1
    state.phase = "heroes"
    state.ended_seats = []
    state.awareness_used = []
    state.spotted = []
    for hero in state.heroes.values():
        hero.used_move = hero.used_attack = hero.skill_used = False
    ev.append(
        PhaseChanged(
            round=state.round,
            phase="heroes",
            active=list(state.seats),
            text=f"Round {state.round}: the Heroes' Turn.",
        )
    )
    rules.delayed_wounds(state, dice, ev)

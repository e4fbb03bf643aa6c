"""Give/Take with consent: a Give or Take with another player's Hero waits for their answer.

The rulebook lets a Hero Give or Take a Loot card or mission token with a Hero in the same
Area only if the other Hero accepts. The action records a request and the game waits on the
other Hero's seat alone (nobody else acts meanwhile, so the request cannot go stale) with a
default of `decline`, which the table applies when the campaign's answer window closes.
Accepting performs the transfer and spends the acting Hero's Basic Action token then;
declining changes nothing. Between Heroes of the same seat nobody is asked.
"""

from __future__ import annotations

from engine.core.errors import RuleError
from engine.core.events import Note
from engine.core.game import Action, Prompt
from engine.reich.content import load_content
from engine.reich.rules import Events
from engine.reich.state import HeroState, ReichState, TakeRequest

DECLINE = Action(verb="choose", args={"option": "decline"}, label="Decline")


def item_name(item: str) -> str:
    loot = load_content().loot.get(item)
    return loot.name if loot else f"the {item} token"


def hero_named(key: str) -> str:
    """A Hero as players read it ("Sarge")."""
    found = load_content().heroes.get(key)
    return found.name if found else key


def _what(req: TakeRequest) -> str:
    taker, owner = hero_named(req.taker), hero_named(req.owner)
    if req.give:
        return f"{taker} offers {owner} {item_name(req.item)}"
    return f"{taker} asks {owner} for {item_name(req.item)}"


def ask(
    state: ReichState, hero: HeroState, other: HeroState, item: str, give: bool, ev: Events
) -> None:
    """Record the request; no token is spent until the other Hero accepts."""
    state.request = TakeRequest(taker=hero.key, owner=other.key, item=item, give=give)
    ev.append(Note(text=f"{_what(state.request)} ({other.name} accepts or declines)."))


def prompt(state: ReichState) -> Prompt:
    req = state.request
    assert req is not None
    return Prompt(
        seats=[state.heroes[req.owner].seat],
        kind="choice",
        text=f"{_what(req)}: accept or decline?",
        default=DECLINE,
    )


def actions(state: ReichState) -> list[Action]:
    req = state.request
    assert req is not None
    if req.give:
        label = f"Accept: {req.owner} receives {item_name(req.item)} from {req.taker}"
    else:
        label = f"Accept: {req.owner} hands {item_name(req.item)} to {req.taker}"
    return [Action(verb="choose", args={"option": "accept"}, label=label), DECLINE]


def answer(state: ReichState, option: str, ev: Events) -> None:
    """Apply the other player's answer (`accept` or `decline`); RuleError for anything else."""
    req = state.request
    assert req is not None
    option = option.strip().lower()
    if option not in ("accept", "decline"):
        raise RuleError(f"{_what(req)}: {hero_named(req.owner)} accepts or declines.")
    hero, other = state.heroes[req.taker], state.heroes[req.owner]
    if option == "decline":
        state.request = None
        if req.give:
            text = (
                f"{hero_named(req.owner)} declines: {hero_named(req.taker)} keeps "
                f"{item_name(req.item)}."
            )
        else:
            text = (
                f"{hero_named(req.owner)} declines: {hero_named(req.taker)} does not get "
                f"{item_name(req.item)}."
            )
        ev.append(Note(text=text))
        return
    giver, receiver = (hero, other) if req.give else (other, hero)
    _check(hero, giver, receiver, req.item)
    state.request = None
    hero.tokens -= 1
    hand_over(giver, receiver, req.item)
    ev.append(
        Note(
            text=f"{hero_named(req.owner)} agrees: {receiver.name} takes "
            f"{item_name(req.item)} from {giver.name}."
        )
    )


def _check(hero: HeroState, giver: HeroState, receiver: HeroState, item: str) -> None:
    """The transfer must still be possible (nothing changes meanwhile, but never trust that)."""
    if hero.tokens <= 0:
        raise RuleError(f"{hero.name} has no Basic Action token left for Give/Take.")
    if giver.area is None or giver.area != receiver.area or hero.down:
        raise RuleError(f"{giver.name} and {receiver.name} are no longer in the same Area.")
    if item in giver.loot:
        if len(receiver.loot) >= 3:
            raise RuleError(f"{receiver.name} already carries three Loot cards.")
    elif item not in giver.carried:
        raise RuleError(f"{giver.name} no longer carries {item_name(item)}.")


def hand_over(giver: HeroState, receiver: HeroState, item: str) -> None:
    """Move a Loot card, or else a carried mission token, from one Hero to another."""
    if item in giver.loot:
        giver.loot.remove(item)
        receiver.loot.append(item)
    else:
        giver.carried.remove(item)
        receiver.carried.append(item)

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
from engine.reich import rules
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
    state: ReichState,
    hero: HeroState,
    other: HeroState,
    item: str,
    give: bool,
    ev: Events,
    drop: str | None = None,
) -> None:
    """Record the request; no token is spent until the other Hero accepts. `drop` is the Loot
    card a taking Hero with three leaves in the Area for it (its own player's choice)."""
    state.request = TakeRequest(taker=hero.key, owner=other.key, item=item, give=give, drop=drop)
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
    """Accept or decline; a receiver with three Loot cards accepts by naming the card it leaves
    face up in the Area for the new one (Give/Take: "or replace one of your Loot cards")."""
    req = state.request
    assert req is not None
    owner, taker, item = hero_named(req.owner), hero_named(req.taker), item_name(req.item)
    if not req.give:
        label = f"Accept: {owner} hands {item} to {taker}"
        return [Action(verb="choose", args={"option": "accept"}, label=label), DECLINE]
    receiver = state.heroes[req.owner]
    if req.item not in state.heroes[req.taker].loot or len(receiver.loot) < 3:
        label = f"Accept: {owner} receives {item} from {taker}"
        return [Action(verb="choose", args={"option": "accept"}, label=label), DECLINE]
    out = [
        Action(
            verb="choose",
            args={"option": f"accept:{old}"},
            label=f"Accept: {owner} receives {item} from {taker}, leaving {item_name(old)} here",
        )
        for old in dict.fromkeys(receiver.loot)
    ]
    return [*out, DECLINE]


def answer(state: ReichState, option: str, ev: Events) -> None:
    """Apply the other player's answer (`accept` or `decline`); RuleError for anything else."""
    req = state.request
    assert req is not None
    option = option.strip().lower()
    if option not in [a.args["option"] for a in actions(state)]:
        raise RuleError(
            f"{_what(req)}: {hero_named(req.owner)} accepts or declines"
            + (" (naming the Loot card to leave here)." if option.startswith("accept") else ".")
        )
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
    drop = option.partition(":")[2] or req.drop
    _check(hero, giver, receiver, req.item, drop)
    state.request = None
    hero.tokens -= 1
    hand_over(state, giver, receiver, req.item, drop, ev)
    ev.append(
        Note(
            text=f"{hero_named(req.owner)} agrees: {receiver.name} takes "
            f"{item_name(req.item)} from {giver.name}."
        )
    )


def _check(
    hero: HeroState, giver: HeroState, receiver: HeroState, item: str, drop: str | None
) -> None:
    """The transfer must still be possible (nothing changes meanwhile, but never trust that)."""
    if hero.tokens <= 0:
        raise RuleError(f"{hero.name} has no Basic Action token left for Give/Take.")
    if giver.area is None or giver.area != receiver.area or hero.down:
        raise RuleError(f"{giver.name} and {receiver.name} are no longer in the same Area.")
    if item in giver.loot:
        if len(receiver.loot) >= 3 and (drop is None or drop not in receiver.loot):
            raise RuleError(
                f"{receiver.name} already carries three Loot cards: name the one left here."
            )
    elif item not in giver.carried:
        raise RuleError(f"{giver.name} no longer carries {item_name(item)}.")


def hand_over(
    state: ReichState,
    giver: HeroState,
    receiver: HeroState,
    item: str,
    drop: str | None,
    ev: Events,
) -> None:
    """Move a Loot card, or else a carried mission token, from one Hero to another. A receiver
    with three Loot cards leaves `drop` face up in the Area for it."""
    if item in giver.loot:
        giver.loot.remove(item)
        if len(receiver.loot) >= 3 and drop in receiver.loot:
            receiver.loot.remove(drop)
            rules.drop_loot(state, receiver.area or "", drop, ev)
        receiver.loot.append(item)
    else:
        giver.carried.remove(item)
        receiver.carried.append(item)

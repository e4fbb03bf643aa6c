"""Give/Take with consent: taking from another player's Hero waits for that player's answer.

The rulebook lets a Hero Take a Loot card or mission token from a Hero in the same Area only if
the other Hero accepts. The take records a request and the game waits on the owner's seat alone
(nobody else acts meanwhile, so the request cannot go stale) with a default of `decline`, which
the table applies when the campaign's answer window closes. Accepting performs the transfer and
spends the taker's Basic Action token then; declining changes nothing.
"""

from __future__ import annotations

from engine.core.errors import RuleError
from engine.core.events import Note
from engine.core.game import Action, Prompt
from engine.reich.content import load_content
from engine.reich.rules import Events
from engine.reich.state import HeroState, ReichState, TakeRequest

DECLINE = Action(verb="choose", args={"option": "decline"}, label="Decline: keep it")


def item_name(item: str) -> str:
    loot = load_content().loot.get(item)
    return loot.name if loot else f"the {item} token"


def ask(state: ReichState, taker: HeroState, owner: HeroState, item: str, ev: Events) -> None:
    """Record the request; no token is spent until the owner accepts."""
    state.request = TakeRequest(taker=taker.key, owner=owner.key, item=item)
    ev.append(
        Note(
            text=f"{taker.key} asks {owner.key} ({owner.seat}) for {item_name(item)}: "
            "/choose option:accept or option:decline."
        )
    )


def prompt(state: ReichState) -> Prompt:
    req = state.request
    assert req is not None
    owner = state.heroes[req.owner]
    return Prompt(
        seats=[owner.seat],
        kind="choice",
        text=f"{req.taker} asks {req.owner} for {item_name(req.item)}: accept or decline?",
        default=DECLINE,
    )


def actions(state: ReichState) -> list[Action]:
    req = state.request
    assert req is not None
    accept = Action(
        verb="choose",
        args={"option": "accept"},
        label=f"Accept: {req.owner} hands {item_name(req.item)} to {req.taker}",
    )
    return [accept, DECLINE]


def answer(state: ReichState, option: str, ev: Events) -> None:
    """Apply the owner's answer (`accept` or `decline`); RuleError for anything else."""
    req = state.request
    assert req is not None
    option = option.strip().lower()
    if option not in ("accept", "decline"):
        raise RuleError(
            f"{req.taker} asked {req.owner} for {item_name(req.item)}: answer with "
            "/choose option:accept or /choose option:decline."
        )
    taker, owner = state.heroes[req.taker], state.heroes[req.owner]
    if option == "decline":
        state.request = None
        ev.append(
            Note(text=f"{req.owner} declines: {req.taker} does not get {item_name(req.item)}.")
        )
        return
    _check(taker, owner, req.item)
    state.request = None
    taker.tokens -= 1
    if req.item in owner.loot:
        owner.loot.remove(req.item)
        taker.loot.append(req.item)
    else:
        owner.carried.remove(req.item)
        taker.carried.append(req.item)
    ev.append(Note(text=f"{req.owner} agrees: {req.taker} takes {item_name(req.item)}."))


def _check(taker: HeroState, owner: HeroState, item: str) -> None:
    """The take must still be possible (it cannot change meanwhile, but never trust that)."""
    if taker.tokens <= 0:
        raise RuleError(f"{taker.key} has no Basic Action token left for Give/Take.")
    if taker.area is None or taker.area != owner.area or taker.down:
        raise RuleError(f"{taker.key} is no longer in {owner.key}'s Area.")
    if item in owner.loot:
        if len(taker.loot) >= 3:
            raise RuleError(f"{taker.key} already carries three Loot cards.")
    elif item not in owner.carried:
        raise RuleError(f"{owner.key} no longer carries {item_name(item)}.")

"""Shared set-up helpers for the Reichbusters tests: a bare board with chosen figures."""

from __future__ import annotations

from collections.abc import Callable

from engine.core.dice import Dice, SeededDice, derive_seed
from engine.core.events import Event
from engine.core.game import Action
from engine.reich import upkeep
from engine.reich.game import ReichGame
from engine.reich.state import EnemyState, ReichState
from engine.selfplay import choose_action

GAME = ReichGame()


def bare(seats: list[str], mission: str = "radio-silence", area: str = "EN") -> ReichState:
    """A fresh mission with no Enemy tokens, no accessories, empty hands, heroes in `area`."""
    state = GAME.new(mission, seats, {"difficulty": "cadet"}, SeededDice(1))
    state.enemy_tokens = []
    state.enemies = []
    state.accessories = {}
    state.ground = []
    for hero in state.heroes.values():
        hero.area = area
        hero.deck.discard_pile.extend(hero.hand)
        hero.hand = []
    return state


def put(state: ReichState, etype: str, area: str, eid: str | None = None) -> EnemyState:
    enemy = EnemyState(id=eid or f"{etype}{state.next_id}", type=etype, area=area)
    state.next_id += 1
    state.enemies.append(enemy)
    return enemy


def give_card(state: ReichState, hero: str, card: str) -> None:
    """Move a card from anywhere in the Hero's deck into their hand."""
    h = state.heroes[hero]
    for pile in (h.deck.draw_pile, h.deck.discard_pile):
        if card in pile:
            pile.remove(card)
    h.hand.append(card)


def act(
    state: ReichState, seat: str, verb: str, dice: object, **args: str
) -> tuple[ReichState, list[Event]]:
    step = GAME.apply(state, seat, Action(verb=verb, args=args), dice)  # type: ignore[arg-type]
    return step.state, step.events


def texts(events: list[Event]) -> str:
    return "\n".join(e.text for e in events)


def play_to(
    mission: str,
    seed: int,
    players: int,
    steps: int,
    advised: bool = False,
    each: Callable[[ReichState], None] | None = None,
) -> ReichState:
    """Self-play up to `steps` actions (random, or the advisor's), calling `each` on every state."""
    seats = ["sarge", "hans", "claudine", "tane"][:players]
    state = GAME.new(mission, seats, {"difficulty": "cadet"}, SeededDice(derive_seed(seed, "s")))
    policy = SeededDice(derive_seed(seed, "p"))
    patience = 0
    for step in range(steps):
        dice = SeededDice(derive_seed(seed, step))
        state = GAME.advance(state, dice).state
        if each:
            each(state)
        prompt = GAME.waiting_on(state)
        if prompt.finished:
            break
        actions = GAME.legal_actions(state, prompt.seats[0])
        advice = GAME.advise(state, prompt.seats[0], actions) if advised else None
        action = advice or choose_action(actions, policy, patience)
        patience = 0 if action.verb == "end-turn" else patience + 1
        state = GAME.apply(state, prompt.seats[0], action, dice).state
        if each:
            each(state)
    return state


def run_upkeep(state: ReichState, dice: Dice, ev: list[Event]) -> None:
    """The whole Upkeep Turn in place, every free Pick Up answered with its default."""
    upkeep.begin(state, dice, ev)
    while (hero := upkeep.asked(state)) is not None:
        upkeep.answer(state, upkeep.default(state, hero).args["option"], ev)
    upkeep.finish(state, dice, ev)

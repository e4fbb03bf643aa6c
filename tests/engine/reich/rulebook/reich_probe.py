"""Set-up helpers for the Reichbusters rulebook probes: a quiet board, then the Game protocol.

The probes only arrange the board (figures, tokens, items) and then play through `new`,
`legal_actions`, `apply`, `advance` and `view` with scripted dice.
"""

from __future__ import annotations

from engine.core.dice import Dice, ScriptedDice, SeededDice
from engine.core.events import Event
from engine.core.game import Action
from engine.reich.game import ReichGame
from engine.reich.state import EnemyState, ReichState

GAME = ReichGame()


def quiet(
    seats: list[str], mission: str = "radio-silence", area: str = "EN", difficulty: str = "cadet"
) -> ReichState:
    """A new mission emptied of Enemies, tokens, accessories, items and hands; the seated
    Heroes in `area`, the Heroes that complete the commando at the Entrance."""
    state = GAME.new(mission, seats, {"difficulty": difficulty}, SeededDice(1))
    state.enemy_tokens = []
    state.enemies = []
    state.accessories = {}
    state.ground = []
    for hero in state.heroes.values():
        hero.area = area if hero.key in seats else "EN"
        hero.deck.discard_pile.extend(hero.hand)
        hero.hand = []
    return state


def put(state: ReichState, etype: str, area: str, eid: str) -> EnemyState:
    enemy = EnemyState(id=eid, type=etype, area=area)
    state.enemies.append(enemy)
    return enemy


def act(
    state: ReichState, seat: str, verb: str, dice: Dice, **args: str
) -> tuple[ReichState, list[Event]]:
    step = GAME.apply(state, seat, Action(verb=verb, args=args), dice)
    return step.state, step.events


def end_round(state: ReichState, dice: Dice | None = None) -> tuple[ReichState, list[Event]]:
    """Every seat ends the Heroes' Turn; the game then runs until someone must decide."""
    dice = dice or ScriptedDice([1] * 60)
    events: list[Event] = []
    for seat in state.seats:
        state, ev = act(state, seat, "end-turn", dice)
        events += ev
    step = GAME.advance(state, dice)
    return step.state, events + step.events


def options(state: ReichState, seat: str) -> dict[str, str]:
    """The `choose` options offered to `seat`, with their labels."""
    return {
        a.args["option"]: a.label for a in GAME.legal_actions(state, seat) if a.verb == "choose"
    }

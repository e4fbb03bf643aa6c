"""Black-box helpers for the Galaxy Defenders (core) rulebook probes.

Everything goes through the Game protocol (`new`, `waiting_on`, `legal_actions`, `apply`,
`advance`, `view`, `dump`, `load`). The probes never import engine.galaxy: positions that play
cannot reach in a few actions are made by editing the dumped JSON (`edit`) and loading it back,
and results are read through `view`, `legal_actions` and events (the dump only for counters the
view does not show).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from typing import Any

from engine.core.dice import ScriptedDice, SeededDice
from engine.core.events import Event
from engine.core.game import Action, Game, Prompt, Step
from engine.core.view import FigureView, View
from engine.registry import get_game

GAME: Game[Any] = get_game("galaxy-defenders")


def dice(*rolls: int, picks: Iterable[int] | None = None) -> ScriptedDice:
    return ScriptedDice(rolls, picks)


def new(scenario: str = "m1", seats: Iterable[str] = ("marine",), **options: str) -> Any:
    """A fresh mission; set-up rolls come from a fixed seed."""
    return GAME.new(scenario, list(seats), dict(options), SeededDice(7))


def waiting(state: Any) -> Prompt:
    return GAME.waiting_on(state)


def legal(state: Any, seat: str = "marine") -> list[Action]:
    return GAME.legal_actions(state, seat)


def can(state: Any, verb: str, seat: str = "marine", **args: str) -> bool:
    """Whether `legal_actions` lists exactly this verb and these arguments."""
    want = Action(verb=verb, args=args)
    return any(a.matches(want) for a in legal(state, seat))


def find(state: Any, seat: str = "marine", **args: str) -> list[Action]:
    """The legal actions whose arguments include all of `args`."""
    return [a for a in legal(state, seat) if all(a.args.get(k) == v for k, v in args.items())]


def verbs(state: Any, seat: str = "marine") -> set[str]:
    return {a.verb for a in legal(state, seat)}


def acts(state: Any, seat: str = "marine") -> set[str]:
    """The `what` of every `act` action on offer."""
    return {a.args.get("what", "") for a in legal(state, seat) if a.verb == "act"}


def act(
    state: Any,
    verb: str,
    rolls: Iterable[int] = (),
    seat: str = "marine",
    **args: str,
) -> Step[Any]:
    return GAME.apply(state, seat, Action(verb=verb, args=args), ScriptedDice(list(rolls)))


def do(
    state: Any,
    action: Action,
    rolls: Iterable[int] = (),
    seat: str = "marine",
    picks: Iterable[int] | None = None,
) -> Step[Any]:
    """Apply an Action (typically one taken from `legal_actions`)."""
    return GAME.apply(state, seat, action, ScriptedDice(list(rolls), picks))


def elect(state: Any, agent: str, rolls: Iterable[int] = ()) -> Step[Any]:
    """Alpha Agent Promotion: the first waiting player proposes `agent`, the others agree
    (every one answers `agent` until the vote closes); the step that closed it."""
    step = None
    while waiting(state).kind == "vote":
        seat = waiting(state).seats[0]
        step = do(state, Action(verb="choose", args={"option": agent}), rolls, seat=seat)
        state = step.state
    assert step is not None, "no Alpha Agent vote open"
    return step


def advance(state: Any, rolls: Iterable[int] = (), picks: Iterable[int] | None = None) -> Step[Any]:
    return GAME.advance(state, ScriptedDice(list(rolls), picks))


def view(state: Any, seat: str | None = "marine") -> View:
    return GAME.view(state, seat)


def fig(state: Any, uid: str) -> FigureView | None:
    return next((f for f in view(state).figures if f.id == uid), None)


def at(state: Any, coord: str) -> FigureView | None:
    return next((f for f in view(state).figures if f.coord == coord), None)


def header(state: Any) -> dict[str, str]:
    return view(state).header


def texts(events: Iterable[Event]) -> str:
    return "\n".join(e.text for e in events)


def dump(state: Any) -> dict[str, Any]:
    return GAME.dump(state)


def edit(state: Any, change: Callable[[dict[str, Any]], object]) -> Any:
    """A copy of `state` with `change` applied to its dumped JSON, loaded back."""
    data = copy.deepcopy(GAME.dump(state))
    change(data)
    return GAME.load(data)


def hexes(state: Any) -> dict[str, tuple[int, int]]:
    """Board label -> (q, r), read from the view's cells."""
    return {c.coord: (c.col, c.row) for c in view(state).cells}


def label(state: Any, q: int, r: int) -> str:
    return next(c.coord for c in view(state).cells if (c.col, c.row) == (q, r))


def area(state: Any, coord: str) -> str | None:
    return next(c.area for c in view(state).cells if c.coord == coord)


def marks(state: Any, coord: str) -> list[str]:
    return next(c.marks for c in view(state).cells if c.coord == coord)


def to_agent_turn(state: Any, alpha: str = "marine", seed: int = 5) -> Any:
    """Advance through set-up, Refresh and Strategy (naming `alpha`) to the first Agent turn."""
    for _ in range(12):
        prompt = waiting(state)
        if prompt.kind == "turn":
            return state
        if prompt.seats:
            seat = prompt.seats[0]
            choice = next(a for a in legal(state, seat) if a.verb == "choose")
            if any(a.args.get("option") == alpha for a in legal(state, seat)):
                choice = Action(verb="choose", args={"option": alpha})
            state = GAME.apply(state, seat, choice, SeededDice(seed)).state
        else:
            state = GAME.advance(state, SeededDice(seed)).state
    raise AssertionError("no Agent turn reached")


def clear(data: dict[str, Any]) -> None:
    """Remove every alien and Signal from a dumped state."""
    data["aliens"] = []
    data["signals"] = []


def put_agent(
    data: dict[str, Any], seat: str, qr: tuple[int, int], facing: int | None = None
) -> None:
    data["agents"][seat]["hex"] = list(qr)
    if facing is not None:
        data["agents"][seat]["facing"] = facing


def put_alien(
    data: dict[str, Any], uid: str, card: str, qr: tuple[int, int], controller: str = "marine"
) -> None:
    data["aliens"].append(
        {
            "id": uid,
            "card": card,
            "hex": list(qr),
            "wounds": 0,
            "controller": controller,
            "energy": 0,
            "came_from": None,
            "conditions": [],
        }
    )


def put_signal(data: dict[str, Any], uid: str, token: str, qr: tuple[int, int]) -> None:
    data["signals"].append({"id": uid, "token": token, "hex": list(qr), "came_from": None})


def stage(
    seats: Iterable[str] = ("marine",),
    scenario: str = "m1",
    agents: dict[str, str] | None = None,
    aliens: Iterable[tuple[str, str, str]] = (),
    signals: Iterable[tuple[str, str, str]] = (),
    facing: dict[str, int] | None = None,
    options: dict[str, str] | None = None,
    prep: Callable[[dict[str, Any]], None] | None = None,
) -> Any:
    """The first Agent turn of `scenario` with the board cleared and figures placed by label.

    `agents` maps seat -> coord; `aliens` are (id, card, coord); `signals` (id, token, coord).
    `prep` edits the dump of the fresh mission before any phase runs (wounds, conditions), so
    whatever the turn start derives from them (movement, Bleeding) is derived by the engine.
    Staging by dump edit keeps each probe to one position instead of many rounds of play.
    """
    seats = tuple(seats)
    state = new(scenario, seats, **(options or {}))
    if prep is not None:
        state = edit(state, prep)
    state = to_agent_turn(state, alpha=seats[0])
    grid = hexes(state)
    first = waiting(state).seats[0]

    def change(data: dict[str, Any]) -> None:
        clear(data)
        for seat, coord in (agents or {}).items():
            put_agent(data, seat, grid[coord], (facing or {}).get(seat))
        for uid, card, coord in aliens:
            put_alien(data, uid, card, grid[coord], controller=first)
            # A card in play is not in the Alien deck (one figure per card).
            deck = data["alien_deck"]
            deck["draw_pile"] = [c for c in deck["draw_pile"] if c != card]
            deck["discard_pile"] = [c for c in deck["discard_pile"] if c != card]
        for uid, token, coord in signals:
            put_signal(data, uid, token, grid[coord])
        # Staged ids (x1.., s9) must not collide with the ids the engine hands out next.
        data["next_alien"] = max(int(data.get("next_alien", 1)), 50)
        data["next_signal"] = max(int(data.get("next_signal", 1)), 50)

    return edit(state, change)


def on_top(state: Any, deck: str, card: str) -> Any:
    """`card` becomes the next draw of `deck` ("ce_deck", "event_deck", "alien_deck").

    Learnt black-box: a deck draws from the end of its dumped `draw_pile`.
    """

    def change(data: dict[str, Any]) -> None:
        pile = [c for c in data[deck]["draw_pile"] if c != card]
        data[deck]["draw_pile"] = [*pile, card]
        data[deck]["discard_pile"] = [c for c in data[deck]["discard_pile"] if c != card]

    return edit(state, change)


def aliens_turn(state: Any, card: str, rolls: Iterable[int], seat: str = "marine") -> Step[Any]:
    """End `seat`'s Agent turn and run the Aliens turn with Close Encounter `card` on top."""
    ended = act(state, "end-turn", seat=seat, unit=seat).state
    return advance(on_top(ended, "ce_deck", card), rolls)

"""Black-box probing helpers for the Reichbusters rulebook audit (issue #30).

Everything here goes through the public `Game` protocol only: `new`, `waiting_on`,
`legal_actions`, `apply`, `advance`, `view`, `dump` and `load`. Positions that would take many
rounds to reach are made by editing the dumped JSON and loading it back; the edits only touch
fields the dump itself shows (a Hero's `area`, the `enemies` list, counters on the tracker).

Die faces as observed through the protocol with scripted rolls (see the `rolled` events):
black Attack die 1-2 blank, 3-4 one Success, 5 two Successes, 6 Special Result; green Defense
die 1 blank, 2-3 one, 4 two, 5 three, 6 Special Result.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from engine.core.dice import ScriptedDice, SeededDice
from engine.core.events import Event
from engine.core.game import Action, Game, Prompt
from engine.core.view import View
from engine.registry import get_game

GAME: Game[Any] = get_game("reichbusters")
TEAM = ["sarge", "hans", "claudine", "tane"]

# Scripted faces (values fed to ScriptedDice.roll).
B_BLANK, B_ONE, B_TWO, B_STAR = 1, 3, 5, 6
G_BLANK, G_ONE, G_TWO, G_THREE, G_STAR = 1, 2, 4, 5, 6

Data = dict[str, Any]


def fresh(
    scenario: str = "radio-silence",
    seats: list[str] | None = None,
    seed: int = 1,
    options: dict[str, str] | None = None,
) -> Any:
    """A new mission for the four-team commando (Sarge, Hans, Claudine, Tane)."""
    return GAME.new(scenario, list(seats or TEAM), dict(options or {}), SeededDice(seed))


def dump(state: Any) -> Data:
    return GAME.dump(state)


def patch(state: Any, edit: Callable[[Data], None]) -> Any:
    """Dump, edit the JSON, load: for positions that are too long to play towards."""
    data = GAME.dump(state)
    edit(data)
    return GAME.load(data)


def hero(state: Any, key: str) -> Data:
    heroes: dict[str, Data] = GAME.dump(state)["heroes"]
    return heroes[key]


def enemies(state: Any) -> list[Data]:
    found: list[Data] = GAME.dump(state)["enemies"]
    return found


def place(state: Any, **areas: str) -> Any:
    """Move Heroes (by key) to Areas without playing the moves."""

    def edit(data: Data) -> None:
        for key, area in areas.items():
            data["heroes"][key]["area"] = area

    return patch(state, edit)


def add_enemy(state: Any, kind: str, area: str, eid: str | None = None) -> Any:
    """Put one Active Enemy miniature of `kind` in `area`."""

    def edit(data: Data) -> None:
        data["enemies"].append(
            {
                "id": eid or f"{kind}{90 + len(data['enemies'])}",
                "type": kind,
                "area": area,
                "wounds": 0,
                "behavior": 0,
                "active": True,
            }
        )

    return patch(state, edit)


def clear_tokens(state: Any) -> Any:
    """Take every Inactive Enemy token off the board (a quiet board for one rule)."""
    return patch(state, lambda d: d.__setitem__("enemy_tokens", []))


def action(verb: str, **args: str) -> Action:
    return Action(verb=verb, args=args)


def legal(state: Any, seat: str) -> list[Action]:
    return GAME.legal_actions(state, seat)


def offered(state: Any, seat: str, verb: str, **args: str) -> bool:
    """Whether `legal_actions` lists exactly this action for the seat."""
    want = action(verb, **args)
    return any(a.matches(want) for a in GAME.legal_actions(state, seat))


def offered_like(state: Any, seat: str, verb: str, **args: str) -> list[Action]:
    """Listed actions of `verb` whose args include all of `args`."""
    return [
        a
        for a in GAME.legal_actions(state, seat)
        if a.verb == verb and all(a.args.get(k) == v for k, v in args.items())
    ]


def run(
    state: Any, seat: str, verb: str, rolls: Iterable[int] = (), **args: str
) -> tuple[Any, list[Event]]:
    """Apply one action with scripted dice; every scripted die must be used up."""
    dice = ScriptedDice(list(rolls))
    step = GAME.apply(state, seat, action(verb, **args), dice)
    return step.state, step.events


def act(state: Any, seat: str, verb: str, rolls: Iterable[int] = (), **args: str) -> Any:
    return run(state, seat, verb, rolls, **args)[0]


def advance(
    state: Any, rolls: Iterable[int] = (), seed: int | None = None
) -> tuple[Any, list[Event]]:
    """Run the automatic part; seeded dice when `seed` is given, else the scripted rolls."""
    dice: Any = SeededDice(seed) if seed is not None else ScriptedDice(list(rolls))
    step = GAME.advance(state, dice)
    return step.state, step.events


def end_heroes_turn(state: Any) -> Any:
    """Every seat still acting announces the end of the Heroes' Turn."""
    for seat in list(GAME.waiting_on(state).seats):
        if offered(state, seat, "end-turn"):
            state = act(state, seat, "end-turn")
    return state


def waiting(state: Any) -> Prompt:
    return GAME.waiting_on(state)


def view(state: Any, seat: str | None = None) -> View:
    return GAME.view(state, seat)


def texts(events: list[Event]) -> list[str]:
    return [e.text for e in events]


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def attack(state: Any, seat: str, target: str, weapon: str, rolls: Iterable[int]) -> Any:
    """A whole Basic Attack with no cards or spends: declare, roll, resolve."""
    state = act(state, seat, "attack", unit=seat, target=target, weapon=weapon)
    state = act(state, seat, "choose", rolls, option="roll")
    return act(state, seat, "choose", option="done")


def soldier_beside_sarge(alarm: bool = False) -> Any:
    """A quiet board: Sarge in 1D, one Active Soldier in the adjacent 1B (Line of Sight)."""

    def edit(d: Data) -> None:
        d["enemy_tokens"] = []
        d["alarm"] = alarm
        d["heroes"]["sarge"]["area"] = "1D"
        d["enemies"].append(
            {
                "id": "s1",
                "type": "soldier",
                "area": "1B",
                "wounds": 0,
                "behavior": 0,
                "active": True,
            }
        )

    return patch(fresh(), edit)


def perform(state: Any, seat: str, chosen: Action, rolls: Iterable[int] = ()) -> Any:
    """Apply an action exactly as `legal_actions` listed it."""
    return GAME.apply(state, seat, chosen, ScriptedDice(list(rolls))).state

"""Black-box helpers for the Forlorn: Hope rulebook probes.

Everything goes through the Game protocol (`new`, `waiting_on`, `legal_actions`, `apply`,
`advance`, `view`, `dump`, `load`). Positions that play cannot reach in a few actions are made
by editing the dumped JSON state (`edit`/`put`), which the protocol offers; the probes then act
through `apply` and read the result through `view` (or the dump, for counters the view lacks).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from typing import Any

from engine.core.dice import ScriptedDice, SeededDice
from engine.core.game import Action, Game, Prompt, Step
from engine.core.view import FigureView, View
from engine.registry import get_game

GAME: Game[Any] = get_game("forlorn-hope")


def dice(*rolls: int, picks: Iterable[int] | None = None) -> ScriptedDice:
    return ScriptedDice(rolls, picks)


def new(scenario: str = "solo-a", seats: Iterable[str] = ("marines",), **options: str) -> Any:
    """A fresh operation; set-up rolls (egg drop, random vents) come from a fixed seed."""
    return GAME.new(scenario, list(seats), dict(options), SeededDice(7))


def waiting(state: Any) -> Prompt:
    return GAME.waiting_on(state)


def legal(state: Any, seat: str = "marines") -> list[Action]:
    return GAME.legal_actions(state, seat)


def can(state: Any, verb: str, seat: str = "marines", **args: str) -> bool:
    """Whether `legal_actions` lists exactly this verb and these arguments."""
    want = Action(verb=verb, args=args)
    return any(a.matches(want) for a in legal(state, seat))


def find(state: Any, seat: str = "marines", **args: str) -> list[Action]:
    """The legal actions whose arguments include all of `args`."""
    return [a for a in legal(state, seat) if all(a.args.get(k) == v for k, v in args.items())]


def act(
    state: Any, verb: str, rolls: Iterable[int] = (), seat: str = "marines", **args: str
) -> Step[Any]:
    return GAME.apply(state, seat, Action(verb=verb, args=args), ScriptedDice(list(rolls)))


def do(state: Any, action: Action, rolls: Iterable[int] = (), seat: str = "marines") -> Step[Any]:
    """Apply an Action taken from `legal_actions`."""
    return GAME.apply(state, seat, action, ScriptedDice(list(rolls)))


def advance(state: Any, rolls: Iterable[int] = (), picks: Iterable[int] | None = None) -> Step[Any]:
    return GAME.advance(state, ScriptedDice(list(rolls), picks))


def view(state: Any, seat: str | None = "marines") -> View:
    return GAME.view(state, seat)


def fig(state: Any, uid: str) -> FigureView | None:
    return next((f for f in view(state).figures if f.id == uid), None)


def at(state: Any, coord: str) -> FigureView | None:
    return next((f for f in view(state).figures if f.coord == coord), None)


def header(state: Any) -> dict[str, str]:
    return view(state).header


def ap(state: Any) -> int:
    return int(header(state)["ap"])


def texts(step: Step[Any]) -> str:
    return "\n".join(e.text for e in step.events)


def dump(state: Any) -> dict[str, Any]:
    return copy.deepcopy(GAME.dump(state))


def edit(state: Any, change: Callable[[dict[str, Any]], None]) -> Any:
    """Dump, let `change` edit the JSON, load it back (for positions play cannot reach fast)."""
    data = dump(state)
    change(data)
    return GAME.load(data)


def unit(data: dict[str, Any], uid: str) -> dict[str, Any]:
    return next(u for u in data["units"] if u["id"] == uid)


def put(state: Any, **where: str | None) -> Any:
    """Move units by id: `put(s, fox="C4:E", d1="C6")` (coord, optional ':facing');
    None takes a unit off the board (Marines become exited, Xenos return to the pool)."""

    def change(data: dict[str, Any]) -> None:
        for uid, spot in where.items():
            u = unit(data, uid)
            if spot is None:
                u["at"] = None
                u["status"] = "pool" if u["side"] == "xenos" else "exited"
                continue
            coord, _, facing = spot.partition(":")
            u["at"] = coord
            u["status"] = "active"
            if facing:
                u["facing"] = facing

    return edit(state, change)


def clear_xenos(state: Any) -> Any:
    """Every Xeno (and Egg) back to the pool: an empty station to stage a probe in."""

    def change(data: dict[str, Any]) -> None:
        for u in data["units"]:
            if u["side"] == "xenos":
                u["at"] = None
                u["status"] = "pool"
                if u["id"].startswith("h"):
                    u["kind"] = "hatchling"

    return edit(state, change)


def set_ap(state: Any, value: int) -> Any:
    return edit(state, lambda d: d.__setitem__("ap", value))


def bench(state: Any, *uids: str) -> Any:
    """Take Marines off the board (exited), to thin the squad for a probe."""
    return put(state, **{u: None for u in uids})


def marine_phase(
    scenario: str = "solo-a",
    seats: Iterable[str] = ("marines",),
    ap_roll: tuple[int, int] = (3, 5),
    opts: dict[str, str] | None = None,
    **options: str,
) -> Any:
    """Play set-up with the default placements and stop at the first Marine phase. The starting
    Xenos are placed after the Marines' set-up (2.0): Op 01 rolls its two vent Drones then
    (vents 1 and 2 here), just before the first AP dice."""
    state = new(scenario, seats, **(opts or {}), **options)
    vents = [1, 2] if scenario == "op-01" else []
    rolls = ScriptedDice([*vents, *ap_roll])
    for _ in range(40):
        prompt = waiting(state)
        if prompt.seats == ["marines"] and view(state).phase == "marine":
            assert rolls.remaining == 0, "the AP dice were not rolled"
            return state
        if not prompt.seats:
            state = GAME.advance(state, rolls).state
            continue
        seat = prompt.seats[0]
        actions = legal(state, seat)
        pick = next(
            (a for a in actions if a.verb == "end-turn" or a.args.get("option") == "keep"),
            actions[0],
        )
        state = GAME.apply(state, seat, pick, SeededDice(3)).state
    raise AssertionError("never reached the Marine phase")


def figures(state: Any, side: str) -> list[FigureView]:
    return [f for f in view(state).figures if f.side == side]


def run_automatic(state: Any, rolls: Iterable[int], picks: Iterable[int] | None = None) -> Any:
    """Advance through automatic phases on one scripted dice stream until a seat must act."""
    script = ScriptedDice(list(rolls), picks)
    for _ in range(20):
        if waiting(state).seats or waiting(state).finished:
            return state
        state = GAME.advance(state, script).state
    raise AssertionError("the game never stopped for a seat")


def next_turn(
    state: Any,
    spawn: Iterable[int] = (1, 1, 1, 1, 2, 2),
    ap_roll: tuple[int, int] = (3, 5),
    clear: bool = True,
) -> Any:
    """Solo A: end the Marine phase, let the automatic Xenos spawn (`spawn` faces, 4 Drones then
    2 Warriors by default) and roll `ap_roll` for the next turn's Action Points. With `clear`,
    the Xenos on the map go back to the pool first, so the Xeno phase rolls nothing."""
    if clear:
        state = clear_xenos(state)
    state = act(state, "end-turn").state
    return run_automatic(state, [*spawn, *ap_roll])


def xeno_phase(state: Any, rolls: Iterable[int] = ()) -> Any:
    """From a Marine phase with a human Xeno seat: end the Marines' phase and stop when the
    Xeno player must act."""
    state = act(state, "end-turn").state
    return run_automatic(state, rolls)


def op01() -> Any:
    """Operation 01 at its first Marine phase, with a human Xeno seat and no reaction windows,
    every Xeno and Egg cleared from the map."""
    state = marine_phase("op-01", ("marines", "xeno"), ap_roll=(3, 5), reactions="off")
    return clear_xenos(state)


def exact(
    state: Any, verb: str, rolls: Iterable[int], seat: str = "marines", **args: str
) -> Step[Any]:
    """Apply with a dice script that must be used up exactly: a probe of how many dice an
    attack rolls (too few rolled leaves dice over; too many exhausts the script)."""
    script = ScriptedDice(list(rolls))
    step = GAME.apply(state, seat, Action(verb=verb, args=args), script)
    assert script.remaining == 0, f"{script.remaining} scripted dice were not rolled"
    return step


def squad(scenario_state: Any, keep: Iterable[str], **where: str) -> Any:
    """Keep only the named Marines (placed by `where`), every Xeno cleared, then place Xenos."""
    state = clear_xenos(scenario_state)
    marines = [f.id for f in view(state).figures if f.side == "player"]
    state = bench(state, *[m for m in marines if m not in set(keep)])
    return put(state, **where)


def egg(state: Any, uid: str, coord: str) -> Any:
    """Turn hatchling counter `uid` into an Egg on `coord`."""

    def change(data: dict[str, Any]) -> None:
        unit(data, uid).update(kind="egg", at=coord, status="active")

    return edit(state, change)

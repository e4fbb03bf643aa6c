"""Black-box helpers for the Operation Strikeback rulebook probes.

Written from the rulebook and the Game protocol only (`new`, `waiting_on`, `legal_actions`,
`apply`, `advance`, `view`, `dump`, `load`); nothing here imports engine.galaxy. The core
auditor's helpers (`galaxy_probe`) are reused; positions play cannot reach in a few actions
are made by editing the dumped JSON and loading it back, as there.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "galaxy" / "rulebook"))

from galaxy_probe import (
    GAME,
    act,
    advance,
    dump,
    edit,
    fig,
    hexes,
    label,
    legal,
    on_top,
    put_agent,
    put_alien,
    put_signal,
    texts,
    verbs,
    view,
    waiting,
)

from engine.core.dice import SeededDice
from engine.core.game import Action

__all__ = [
    "GAME",
    "act",
    "advance",
    "dump",
    "edit",
    "fig",
    "hexes",
    "label",
    "legal",
    "on_top",
    "put_agent",
    "put_alien",
    "put_signal",
    "texts",
    "verbs",
    "view",
    "waiting",
]


def new(scenario: str = "os1", seats: Iterable[str] = ("marine",), **options: str) -> Any:
    """A fresh mission; set-up rolls come from a fixed seed."""
    return GAME.new(scenario, list(seats), dict(options), SeededDice(7))


def settle(state: Any, alpha: str | None = None, seed: int = 5, until: str = "turn") -> Any:
    """Answer every prompt with its first offer (the vote goes to `alpha`) and advance until
    a prompt of kind `until` waits."""
    for _ in range(80):
        prompt = waiting(state)
        if prompt.kind == until or prompt.finished:
            return state
        if prompt.seats:
            seat = prompt.seats[0]
            offers = legal(state, seat)
            choice = offers[0]
            if alpha is not None:
                pick = [a for a in offers if a.args.get("option") == alpha]
                if pick:
                    choice = pick[0]
            state = GAME.apply(state, seat, choice, SeededDice(seed)).state
        else:
            state = GAME.advance(state, SeededDice(seed)).state
    raise AssertionError(f"no {until} prompt reached")


def to_turn(scenario: str, seats: Iterable[str] = ("marine",), **options: str) -> Any:
    seats = tuple(seats)
    return settle(new(scenario, seats, **options), alpha=seats[0])


def stage(
    scenario: str = "os1",
    seats: Iterable[str] = ("marine",),
    agents: dict[str, str] | None = None,
    aliens: Iterable[tuple[str, str, str]] = (),
    options: dict[str, str] | None = None,
    keep: bool = False,
    npcs: bool = False,
) -> Any:
    """The first Agent turn of `scenario` with aliens and Signals cleared (unless `keep`) and
    figures placed by board label; `aliens` are (id, card, coord). NPCs already in play are
    removed unless `npcs`."""
    seats = tuple(seats)
    state = to_turn(scenario, seats, **(options or {}))
    grid = hexes(state)
    first = waiting(state).seats[0]

    def change(data: dict[str, Any]) -> None:
        if not keep:
            data["aliens"] = []
            data["signals"] = []
            for key in ("stacks", "bodies", "swarms", "figures"):
                data["strikeback"][key] = {}
        if not npcs:
            # NPCs sit among the agents in the dump; a probe that does not name them wants none.
            for uid in list(data["strikeback"]["npcs"]):
                data["agents"].pop(uid, None)
                data["turn_order"] = [u for u in data["turn_order"] if u != uid]
            data["strikeback"]["npcs"] = {}
        for seat, coord in (agents or {}).items():
            put_agent(data, seat, grid[coord])
        for uid, card, coord in aliens:
            put_alien(data, uid, card, grid[coord], controller=first)
            deck = data["alien_deck"]
            deck["draw_pile"] = [c for c in deck["draw_pile"] if c != card]
            deck["discard_pile"] = [c for c in deck["discard_pile"] if c != card]
        data["next_alien"] = max(int(data.get("next_alien", 1)), 50)
        data["next_signal"] = max(int(data.get("next_signal", 1)), 50)

    return edit(state, change)


def find(state: Any, verb: str, seat: str = "marine", **args: str) -> list[Action]:
    return [
        a
        for a in legal(state, seat)
        if a.verb == verb and all(a.args.get(k) == v for k, v in args.items())
    ]


def quiet_round(state: Any, card: str = "os-04", seat: str = "marine") -> Any:
    """End every Agent turn still to come this round (each followed by an Aliens turn on Close
    Encounter `card`), run the Event phase, and stop at the next round's first waiting prompt.
    `seat` is kept for the callers' readability: whoever is waiting ends his turn."""
    del seat
    start = int(dump(state)["round"])
    for _ in range(40):
        prompt = waiting(state)
        if prompt.finished:
            return state
        if prompt.seats and int(dump(state)["round"]) > start:
            return state
        if prompt.kind == "turn":
            who = prompt.seats[0]
            state = act(state, "end-turn", [6] * 30, seat=who, unit=who).state
        elif prompt.seats:
            return state
        else:
            state = advance(on_top(state, "ce_deck", card), [6] * 60, [0] * 60).state
    raise AssertionError("the round did not end")


def body(state: Any, uid: str) -> dict[str, Any]:
    """The expansion's per-figure record (Mark, Poison, Criticals) as dumped."""
    record: dict[str, Any] = dump(state)["strikeback"]["figures"].get(uid, {})
    return record


CRITICAL_EFFECTS = ["atk", "move", "hp", "paralyze", "shields", "nobolt", "dmg-a", "dmg-b"]
CRITICAL_EFFECTS += ["dmg-c", "def"]


def set_body(state: Any, uid: str, **values: Any) -> Any:
    """Stage Mark/Poison/Criticals on a figure; staged Critical tokens are taken out of fresh
    Critical 1 and 2 piles (ten tokens each, their keys learnt from a first draw)."""

    def change(data: dict[str, Any]) -> None:
        rec = data["strikeback"]["figures"].setdefault(
            uid, {"mark": 0, "poison": 0, "criticals": []}
        )
        rec.update(values)
        held = set(values.get("criticals", []))
        if held:
            piles = data["strikeback"]["piles"]
            for level in ("1", "2"):
                if level not in piles:
                    keys = [f"c{level}-{e}" for e in CRITICAL_EFFECTS]
                    piles[level] = {
                        "level": int(level),
                        "draw": [k for k in keys if k not in held],
                        "discard": [],
                    }

    return edit(state, change)


def wounds(state: Any, seat: str) -> int:
    value: int = dump(state)["agents"][seat]["wounds"]
    return value


def adjacent(state: Any, a: str | None, b: str | None) -> bool:
    """Whether two board labels are neighbouring hexes (the view's cells are axial q, r)."""
    grid = hexes(state)
    if a is None or b is None:
        return False
    (qa, ra), (qb, rb) = grid[a], grid[b]
    return (qb - qa, rb - ra) in {(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)}


def setup_log(scenario: str, seats: Iterable[str] = ("marine",), **options: str) -> str:
    """Everything narrated from `new` until the first Refresh (the mission's set-up, the
    standalone rank build-up included), answering prompts with their first offer."""
    state = new(scenario, seats, **options)
    lines: list[str] = []
    for _ in range(80):
        prompt = waiting(state)
        if prompt.seats:
            seat = prompt.seats[0]
            step = GAME.apply(state, seat, legal(state, seat)[0], SeededDice(5))
        else:
            step = GAME.advance(state, SeededDice(5))
        state = step.state
        for event in step.events:
            if event.text.startswith("Round 1: Refresh"):
                return "\n".join(lines)
            lines.append(event.text)
    raise AssertionError("no Refresh reached")


def areas_within_one(state: Any, coord: str) -> set[str]:
    """The Area of `coord` and every Area sharing a hex side with it that is not a wall."""
    v = view(state)
    cells = {c.coord: c for c in v.cells}
    walls = {frozenset((e.a, e.b)) for e in v.edges if e.kind == "wall"}
    own = cells[coord].area
    near: set[str] = {own} if own else set()
    for c in cells.values():
        if c.area != own:
            continue
        for d in cells.values():
            if (
                d.area
                and d.area != own
                and adjacent(state, c.coord, d.coord)
                and frozenset((c.coord, d.coord)) not in walls
            ):
                near.add(d.area)
    return near

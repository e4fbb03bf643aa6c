"""Chapter 2 (Set Up), with the operation lists of chapters 12-13 for the numbers: turn track,
AP track, Mutation hand and its one-time swap, the Egg drop, Marine and Xeno placement, items,
grenades and Flame markers."""

from __future__ import annotations

from typing import Any

import pytest
from forlorn_probe import GAME, act, do, header, legal, new, view, waiting

from engine.core.dice import SeededDice

OPS = {  # scenario: (turns, mutation cards, eggs, flamethrower in the squad)
    "op-01": (7, 3, 4, False),
    "op-02": (6, 4, 8, True),
    "op-03": (9, 4, 6, False),
    "op-04": (9, 5, 4, False),
    "solo-a": (6, 0, 0, True),
    "solo-b": (10, 0, 10, True),  # the trapped Marines include the Flamethrower
}


def fresh(scenario: str, seed: int = 7) -> Any:
    seats = ["marines", "xeno"] if scenario.startswith("op") else ["marines"]
    return GAME.new(scenario, seats, {}, SeededDice(seed))


@pytest.mark.parametrize("scenario", sorted(OPS))
def test_turn_track_and_ap_track_start(scenario: str) -> None:
    """2.0: the Turn marker starts on the operation's number of turns, the AP marker on 0."""
    state = fresh(scenario)
    assert int(header(state)["turns left"]) == OPS[scenario][0]
    assert header(state)["ap"] == "0"


@pytest.mark.parametrize("scenario", ["op-01", "op-02", "op-03", "op-04"])
def test_mutation_hand_size_and_secrecy(scenario: str) -> None:
    """2.0 / 1.5: the Xeno player draws the listed number of cards, hidden from the Marines."""
    state = fresh(scenario)
    held = [line for line in view(state, "xeno").private if not line.startswith("Standing ")]
    assert len(held) == OPS[scenario][1]
    assert view(state, "marines").private == []
    assert view(state, None).private == []


def test_mulligan_swaps_one_or_two_cards_once() -> None:
    """2.0: once during set-up the Xeno player may swap one or two cards for new draws."""
    state = fresh("op-01")
    options = [a.args["option"] for a in legal(state, "xeno") if a.verb == "choose"]
    assert "keep" in options
    swaps = [o for o in options if o.startswith("swap:")]
    assert {len(o.removeprefix("swap:").split("+")) for o in swaps} == {1, 2}
    hand = view(state, "xeno").private
    swapped = act(state, "choose", [], seat="xeno", option=swaps[0]).state
    new_hand = view(swapped, "xeno").private
    assert len(new_hand) == len(hand)
    assert new_hand != hand
    assert not [a for a in legal(swapped, "xeno") if a.args.get("option", "").startswith("swap")]


@pytest.mark.parametrize("scenario", sorted(OPS))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_egg_drop(scenario: str, seed: int) -> None:
    """2.0: at most the listed number of Eggs, one per square, never on an Access Vent or a
    Marine set-up square (Eggs that miss the map are lost)."""
    state = fresh(scenario, seed)
    cells = {c.coord: c for c in view(state).cells}
    eggs = [f.coord for f in view(state).figures if f.kind == "egg"]
    assert len(eggs) <= OPS[scenario][2]
    assert len(eggs) == len(set(eggs))
    for coord in eggs:
        assert cells[coord].terrain != "vent"
        assert "setup" not in cells[coord].marks


def test_egg_drop_places_most_eggs() -> None:
    """2.0: the drop is a real drop on the map: over a few seeds most Eggs land."""
    landed = sum(
        len([f for f in view(fresh("solo-b", seed)).figures if f.kind == "egg"])
        for seed in range(5)
    )
    assert landed >= 25


def setup_moves(state: Any) -> list[str]:
    return [
        a.args["to"]
        for a in legal(state, "marines")
        if a.verb == "move" and len(a.args.get("to", "")) > 1
    ]


def to_marine_setup(scenario: str) -> Any:
    state = fresh(scenario)
    while waiting(state).seats == ["xeno"]:
        keep = next(a for a in legal(state, "xeno") if a.args.get("option") in ("keep", "auto"))
        state = do(state, keep, seat="xeno").state
    return state


@pytest.mark.parametrize("scenario", ["op-01", "op-02"])
def test_marines_set_up_only_on_green_circles(scenario: str) -> None:
    """2.0: Marines set up only on the set-up squares, one per square, facing as chosen."""
    state = to_marine_setup(scenario)
    cells = {c.coord: c for c in view(state).cells}
    targets = setup_moves(state)
    assert targets
    occupied = {f.coord for f in view(state).figures if f.side == "player"}
    for coord in targets:
        assert "setup" in cells[coord].marks
        assert coord not in occupied
    facings = {
        a.args["to"]
        for a in legal(state, "marines")
        if a.args.get("to", "") in ("N", "E", "S", "W")
    }
    assert facings == {"N", "E", "S", "W"}


def test_set_up_move_and_facing_are_applied() -> None:
    """2.0: the Marine player chooses each Marine's starting square and facing."""
    state = to_marine_setup("op-01")
    move = next(a for a in legal(state, "marines") if a.verb == "move" and len(a.args["to"]) > 1)
    moved = do(state, move).state
    who = move.args["unit"]
    assert next(f.coord for f in view(moved).figures if f.id == who) == move.args["to"]
    turn = next(
        a
        for a in legal(moved, "marines")
        if a.args.get("unit") == who and a.args.get("to") in ("N", "E", "S", "W")
    )
    turned = do(moved, turn).state
    assert next(f.facing for f in view(turned).figures if f.id == who) == turn.args["to"]


def test_xenos_placed_after_the_marines() -> None:
    """2.0: the Xeno player places starting Xenos once the Marines are set up (Op 01: two
    Drones in room A, chosen by the Xeno player)."""
    state = to_marine_setup("op-01")
    ended = act(state, "end-turn").state
    while not waiting(ended).seats:
        ended = GAME.advance(ended, SeededDice(1)).state
    assert waiting(ended).seats == ["xeno"]
    choices = [a for a in legal(ended, "xeno") if a.verb == "choose"]
    assert choices
    room = {c.coord for c in view(ended).cells if c.room == "A"}
    assert {a.args["option"] for a in choices} - {"auto"} <= room


@pytest.mark.parametrize(
    ("scenario", "items"),
    [
        ("op-01", {"item:mcgfn", "item:medkit"}),
        ("op-02", {"item:bio-scanner", "item:body-armor"}),
        ("op-03", {"item:maintenance-bot", "item:medkit"}),
        ("op-04", {"item:body-armor", "item:medkit"}),
        ("solo-a", {"item:body-armor", "item:bio-scanner", "item:medkit"}),
        ("solo-b", {"item:medkit", "item:body-armor"}),
    ],
)
def test_operation_items_on_caches(scenario: str, items: set[str]) -> None:
    """2.0: the operation's items are placed on Cache Locations (the MCGFN on A)."""
    state = fresh(scenario)
    cells = {c.coord: c for c in view(state).cells}
    tokens = [t for t in view(state).tokens if t.kind.startswith("item:")]
    assert {t.kind for t in tokens} == items
    for token in tokens:
        wanted = "letter:A" if token.kind == "item:mcgfn" else "cache"
        assert wanted in cells[token.coord].marks


@pytest.mark.parametrize("scenario", sorted(OPS))
def test_three_grenades_and_flames_with_the_flamethrower(scenario: str) -> None:
    """2.0: three Plasma Grenades in the pool; Flame markers only when the Flamethrower is in
    the squad (5 of them, per the Flamethrower ability)."""
    state = fresh(scenario)
    assert header(state)["grenades"] == "3"
    flames = header(state).get("flames")
    if OPS[scenario][3]:
        assert flames is not None and flames.startswith("5 ready")
    else:
        assert flames is None


def test_new_is_deterministic_per_dice() -> None:
    """2.0 (engine contract): the same dice give the same set-up."""
    assert GAME.dump(new("op-02", ("marines", "xeno"))) == GAME.dump(
        new("op-02", ("marines", "xeno"))
    )


def test_solo_b_trapped_marines_start_in_rooms_a_and_b() -> None:
    """Solo B special rule 1: the LT, Flamethrower, Gunner and a Private set up inside rooms A
    and B; the rest of the squad uses the set-up squares."""
    state = to_marine_setup("solo-b")
    cells = {c.coord: c for c in view(state).cells}
    for f in view(state).figures:
        if f.side != "player":
            continue
        room = cells[f.coord].room
        if f.id in ("lt", "berns", "zac"):
            assert room in ("A", "B"), f"{f.name} starts outside rooms A/B"
        elif f.rank == "SGT":
            assert "setup" in cells[f.coord].marks


def test_one_xeno_per_square_at_set_up() -> None:
    """2.0: the Xeno player places at most one Xeno per square."""
    state = to_marine_setup("op-01")
    ended = act(state, "end-turn").state
    while not waiting(ended).seats:
        ended = GAME.advance(ended, SeededDice(1)).state
    first = next(a for a in legal(ended, "xeno") if a.args.get("option") not in (None, "auto"))
    placed = do(ended, first, seat="xeno").state
    again = {a.args.get("option") for a in legal(placed, "xeno")}
    assert first.args["option"] not in again

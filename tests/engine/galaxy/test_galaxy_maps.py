"""Every authored map tile loads and is sound; the late-campaign missions set up and play."""

from __future__ import annotations

import pytest
from galaxy_helpers import blank, put_agent

from engine.core.dice import ScriptedDice, SeededDice
from engine.core.game import Action
from engine.core.hexgrid import Hex, neighbours
from engine.galaxy import GAME
from engine.galaxy.board import MAP_DIR, Board, label, load_map
from engine.galaxy.content import content
from engine.galaxy.objectives import mission_status
from engine.galaxy.state import GalaxyState

MAPS = sorted(p.stem for p in MAP_DIR.glob("*.map"))
NO_DICE = ScriptedDice([])
SEATS = ["marine", "biotech", "infiltrator", "sniper", "hulk"]


FIVE = ["marine", "biotech", "infiltrator", "sniper", "hulk"]


def reachable(board: Board, walker: str) -> set[Hex]:
    """Hexes a walker reaches from the first Start Hex with the locked doors still shut."""
    start = board.starts[0]
    seen, todo = {start}, [start]
    while todo:
        h = todo.pop()
        for n in neighbours(h):
            if n not in seen and board.step_ok(h, n, set(board.locked_doors), walker):
                seen.add(n)
                todo.append(n)
    return seen


def test_at_least_six_maps_and_every_one_is_used() -> None:
    assert len(MAPS) >= 6
    assert {m.map for m in content().missions.values()} == set(MAPS)


@pytest.mark.parametrize("name", MAPS)
def test_map_loads_and_is_sound(name: str) -> None:
    board = load_map(name)
    assert len(board.areas) >= 10
    for area in board.areas:  # every Area is a centre and its six neighbours
        assert all(board.area_of[h] == area for h in board.area_hexes(area))
    assert len(set(board.starts)) == 5 and all(board.on_map(h) for h in board.starts)
    assert set(board.teleports) <= {"hit", "shield", "alien"} and board.teleports
    for feature in (board.doors, board.windows, board.walls):
        for pair in feature:  # every feature lies on a side between two map hexes
            a, b = tuple(pair)
            assert board.on_map(a) and board.on_map(b) and b in neighbours(a)
    assert board.locked_doors <= board.doors
    for areas in board.rooms.values():
        assert areas <= set(board.areas)
    # nobody is walled in: every hex is reachable without opening a locked door
    assert reachable(board, "alien") == set(board.area_of)
    assert reachable(board, "agent") == set(board.area_of)


def test_derelict_freighter_is_a_corridor_complex() -> None:
    board = load_map("derelict-freighter")
    assert len(board.doors) >= 10 and len(board.locked_doors) == 3
    assert len(board.windows) >= 6 and len(board.rooms) == 6
    assert sum(1 for m in board.marks.values() if m == "civilian") == 3
    assert board.exit_areas == {"g", "o"}


def test_crater_field_is_open_ground() -> None:
    board = load_map("crater-field")
    assert len(board.areas) == 24 and len(board.teleports) == 3
    sides = sum(1 for h in board.area_of for n in neighbours(h) if board.on_map(n)) // 2
    assert len(board.walls) * 8 < sides  # few blocked sides


def setup(scenario: str, seats: list[str]) -> GalaxyState:
    state = GAME.new(scenario, seats, {}, SeededDice(3))
    return GAME.advance(state, SeededDice(4)).state


@pytest.mark.parametrize("scenario", ["m5", "m6"])
@pytest.mark.parametrize("players", [1, 5])
def test_late_missions_set_up(scenario: str, players: int) -> None:
    mission = content().missions[scenario]
    seats = SEATS[:players]
    state = setup(scenario, seats)
    board = load_map(mission.map)
    prompt = GAME.waiting_on(state)
    assert not prompt.finished and prompt.seats
    assert all(Hex(*a.hex) in board.starts for a in state.agents.values() if a.hex)
    assert len(state.signals) + len(state.aliens) >= 1
    assert GAME.load(GAME.dump(state)) == state
    for seat in seats:  # issued weapons reach their classes
        keys = [w.key for w in state.agents[seat].weapons]
        assert all(k in keys for k in mission.issued.get(seat, []))


def test_late_missions_get_harder() -> None:
    ms = content().missions
    assert ms["m4"].next == "m5" and ms["m5"].next == "m6" and ms["m6"].next is None
    for early, late in (("m4", "m5"), ("m5", "m6")):
        assert ms[late].rounds >= ms[early].rounds
        assert ms[late].start_signals >= ms[early].start_signals
        assert len(ms[late].alien_deck) >= len(ms[early].alien_deck)


def test_missions_use_the_box_counts_of_signals_and_event_cards() -> None:
    """The core box: 9 Alien and 6 Human Signals, 22 Event cards (Special Events included)."""
    ms = content().missions
    for mission in ms.values():
        assert mission.signals["alien"] <= 9 and mission.signals["human"] <= 6, mission.key
        deck = mission.event_deck(list(content().events))
        assert len(deck) == 22 and len(set(deck)) == 22, mission.key
        assert all(s.id in deck for s in mission.special_events)


@pytest.mark.parametrize("name", MAPS)
def test_rooms_are_enclosed(name: str) -> None:
    """A Room is closed off by walls, doors and windows from the Areas outside it."""
    board = load_map(name)
    for room, areas in board.rooms.items():
        for h in board.area_of:
            if board.area_of[h] not in areas:
                continue
            for n in neighbours(h):
                if board.on_map(n) and board.area_of[n] not in areas:
                    kind = board.side_kind(h, n, set())
                    assert kind != "open", f"{name}: room {room} is open at {label(h)}-{label(n)}"


def test_m5_crew_point_and_docking_bay() -> None:
    state = blank(["marine"], "m5")
    put_agent(state, "marine", "K4")  # next to the stranded crew member at L3
    step = GAME.apply(
        state, "marine", Action(verb="act", args={"unit": "marine", "what": "rescue"}), NO_DICE
    )
    assert step.state.rescued == 1
    state = step.state  # one agent: 1 crew member and 1.75 -> 1 kill
    state.kills = 0
    assert not mission_status(state, [])
    state.kills = 1  # wherever the team stands (balance: no extraction)
    assert mission_status(state, []) and state.outcome == "accomplished"
    late = blank(["marine"], "m5")
    put_agent(late, "marine", "B6")
    late.round, late.rescued = 13, 1
    assert mission_status(late, []) and late.outcome == "partial"


def test_m5_a_full_team_must_reach_all_three() -> None:
    state = blank(FIVE, "m5")
    put_agent(state, "marine", "B6")
    state.rescued, state.kills = 2, 8  # 1 + 2.5 -> 3 crew, 5 x 1.75 -> 8 kills
    assert not mission_status(state, [])
    state.rescued = 3
    assert mission_status(state, []) and state.outcome == "accomplished"


def test_m5_bash_opens_a_sealed_hatch() -> None:
    state = blank(["hulk"], "m5")
    put_agent(state, "hulk", "L4")  # at the locked bridge hatch L4|M4
    whats = {a.args.get("what") for a in GAME.legal_actions(state, "hulk")}
    assert "bash" in whats
    step = GAME.apply(
        state, "hulk", Action(verb="act", args={"unit": "hulk", "what": "bash"}), NO_DICE
    )
    assert len(step.state.locked) == len(state.locked) - 1


@pytest.mark.parametrize(
    ("rnd", "destroyed", "kills", "outcome"),
    [
        (5, 3, 10, "accomplished"),  # five agents: 2 + 1.7 -> 3 Points, 5 x 2 -> 10 kills
        (5, 3, 9, None),
        (5, 2, 10, None),
        (17, 1, 0, "partial"),  # time up: a Point wrecked,
        (17, 0, 6, "partial"),  # or 1 + 5 kills
        (17, 0, 5, "failed"),
    ],
)
def test_m6_objectives(rnd: int, destroyed: int, kills: int, outcome: str | None) -> None:
    state = blank(FIVE, "m6")
    put_agent(state, "sniper", "B6")
    state.round, state.kills = rnd, kills
    state.destroyed_tps = ["hit", "shield", "alien"][:destroyed]
    assert mission_status(state, []) == (outcome is not None)
    assert state.outcome == outcome

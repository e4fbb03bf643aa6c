"""Rules once marked "simplified" in the fidelity table, now built as the rulebook says:
2.0 the Egg drop (the Xeno player puts each Egg on a square it touched), 5.5 refuelling at
any time (in the Xeno phase through a standing order) and 11.0 spawns beside full vents
placed by the Marine player with the automatic Xenos too."""

from __future__ import annotations

import pytest
from conftest import bare, put, unit

from engine.core.dice import ScriptedDice, SeededDice
from engine.core.errors import RuleError
from engine.core.events import Event
from engine.core.game import Action
from engine.core.squaregrid import Square
from engine.forlorn import GAME
from engine.forlorn.board import label, load_board
from engine.forlorn.setup import egg_drop_squares
from engine.forlorn.spawn import count_spawn
from engine.forlorn.state import ForlornState
from engine.forlorn.xenos import resolve_interrupt


def choose(state: ForlornState, seat: str, option: str, dice: object = None) -> ForlornState:
    action = Action(verb="choose", args={"option": option})
    return GAME.apply(state, seat, action, dice or SeededDice(1)).state  # type: ignore[arg-type]


# 2.0 The Egg drop ---------------------------------------------------------------------------


def test_an_egg_touches_the_block_round_its_corner_and_only_where_it_may_go() -> None:
    """2.0: a counter is placed on a square it touched, never a vent or a set-up square, one
    per square; a counter that touched no such square is set aside."""
    state = bare("op-02", ["marines"])
    board = load_board("B")
    vent = board.vents[4]  # A1, in the corner of the map
    corner = (vent.x + 1, vent.y + 1)  # touches A1 (vent), B1, A2, B2
    spots = egg_drop_squares(state, board, corner)
    assert vent not in spots
    assert set(spots) == {
        Square(vent.x + 1, vent.y),
        Square(vent.x, vent.y + 1),
        Square(vent.x + 1, vent.y + 1),
    }
    setup = board.setup[0]
    near_setup = egg_drop_squares(state, board, (setup.x, setup.y))
    assert setup not in near_setup
    # Off the map (the top-left corner of the rectangle): only A1 is on it, and A1 is a vent.
    assert egg_drop_squares(state, board, (0, 0)) == []
    # A square already holding a unit is not offered.
    put(state, "bates", label(Square(vent.x + 1, vent.y)), "N")
    assert Square(vent.x + 1, vent.y) not in egg_drop_squares(state, board, corner)


def test_the_xeno_player_puts_each_dropped_egg_on_a_square_it_touched() -> None:
    """2.0: after her card swap, the Xeno player places each Egg on one of the squares its drop
    touched (a prompt with `auto` as default); then the Marines set up."""
    for seed in range(1, 30):
        state = GAME.new("op-02", ["marines", "xeno"], {}, SeededDice(seed))
        state = choose(state, "xeno", "keep")
        if state.phase == "xeno-place":
            break
    else:
        pytest.fail("no seed left an Egg with a choice of squares")
    prompt = GAME.waiting_on(state)
    assert prompt.seats == ["xeno"] and "Egg" in prompt.text
    assert prompt.default is not None and prompt.default.args == {"option": "auto"}
    first = state.placements[0]
    touched = first.zone[5:].split("+")
    # (her standing reaction orders are offered in every phase besides)
    options = [a.args["option"] for a in GAME.legal_actions(state, "xeno") if a.verb == "choose"]
    assert [o for o in options if o != "auto"] == [
        t for t in touched if not any(u.at == t for u in state.active())
    ]
    assert GAME.legal_actions(state, "marines") == []
    with pytest.raises(RuleError):
        choose(state, "xeno", "A1")  # a vent, never touched as a place for an Egg
    eggs_before = len([u for u in state.active("xenos") if u.kind == "egg"])
    target = next(o for o in options if o != "auto")
    placed = choose(state, "xeno", target)
    assert any(u.at == target and u.kind == "egg" for u in placed.active("xenos"))
    assert len([u for u in placed.active("xenos") if u.kind == "egg"]) == eggs_before + 1
    done = choose(placed, "xeno", "auto") if placed.placements else placed
    assert done.phase == "deploy" and not done.placements
    assert GAME.waiting_on(done).seats == ["marines"]


def test_the_automatic_xenos_drop_at_most_the_listed_eggs_each_on_its_own_square() -> None:
    """2.0 with no Xeno player: the eggs land, one per square, never more than listed; over a
    few seeds some fall where they cannot be placed."""
    landed = []
    for seed in range(20):
        state = GAME.new("solo-b", ["marines"], {}, SeededDice(seed))
        eggs = [u.at for u in state.active("xenos") if u.kind == "egg"]
        assert len(eggs) == len(set(eggs)) <= 10
        landed.append(len(eggs))
    assert sum(landed) >= 150 and min(landed) < 10


# 5.5 Refuel at any time ---------------------------------------------------------------------


def refuel_ready(aps: str = "2") -> ForlornState:
    """Berns on H9 facing E with an empty tank (five markers used in earlier turns), an
    order with `refuel:yes`, a Drone stepping into his front squares in the Xeno phase."""
    state = bare("solo-a")
    for m in state.active("marines"):
        m.status = "pool"
    berns = put(state, "berns", "H9", "E")
    berns.status = "active"
    state.flame_supply, state.flame_spent = 0, 5
    state.phase, state.ap = "marine", 3
    action = Action(
        verb="orders",
        args={"unit": "berns", "order": "interrupt", "aps": aps, "range": "3", "refuel": "yes"},
    )
    return GAME.apply(state, "marines", action, ScriptedDice()).state


def test_a_standing_order_refuels_an_empty_flamethrower_then_sprays() -> None:
    """5.5 "any time": in the Xeno phase the order refuels (1 AP) and the flame goes on (1 AP)."""
    state = refuel_ready()
    assert "refuel first" in " ".join(
        c for f in GAME.view(state, "marines").figures if f.id == "berns" for c in f.conditions
    )
    d1 = put(state, "d1", "I9")
    events: list[Event] = []
    resolve_interrupt(state, d1, ScriptedDice([6]), events)
    assert state.refuelled
    assert state.ap == 1
    assert state.flame_supply == 4 and state.flames == ["I9"]
    assert unit(state, "d1").status != "active"


def test_the_refuelling_order_needs_two_aps_and_refuels_only_once() -> None:
    """5.5: once per Operation; an order of one AP cannot refuel and spray, so it is refused."""
    state = refuel_ready()
    with pytest.raises(RuleError, match="aps 2"):
        GAME.apply(
            state,
            "marines",
            Action(
                verb="orders",
                args={
                    "unit": "berns",
                    "order": "interrupt",
                    "aps": "1",
                    "range": "3",
                    "refuel": "yes",
                },
            ),
            ScriptedDice(),
        )
    state.refuelled = True
    listed = GAME.legal_actions(state, "marines")
    assert not [a for a in listed if a.args.get("refuel") == "yes"]
    with pytest.raises(RuleError, match="already been refuelled"):
        GAME.apply(
            state,
            "marines",
            Action(
                verb="orders",
                args={
                    "unit": "berns",
                    "order": "interrupt",
                    "aps": "2",
                    "range": "3",
                    "refuel": "yes",
                },
            ),
            ScriptedDice(),
        )


def test_a_marine_without_a_flamethrower_cannot_order_a_refuel() -> None:
    state = refuel_ready()
    put(state, "bates", "H11", "E").status = "active"
    with pytest.raises(RuleError, match="no flamethrower"):
        GAME.apply(
            state,
            "marines",
            Action(
                verb="orders",
                args={
                    "unit": "bates",
                    "order": "interrupt",
                    "aps": "2",
                    "range": "3",
                    "refuel": "yes",
                },
            ),
            ScriptedDice(),
        )


# 11.0 Spawns beside full vents, automatic Xenos -----------------------------------------------


def test_with_automatic_xenos_the_marine_player_places_spawns_beside_full_vents() -> None:
    """11.0: once every vent is taken the Marine player chooses the squares next to them, the
    automatic Xenos' spawn included; the prompt's default is the policy (`auto`)."""
    state = bare("op-01", ["marines"])
    board = load_board("A")
    drones = [u for u in state.units if u.kind == "drone" and u.status == "pool"]
    for n, v in sorted(board.vents.items()):
        drones[n - 1].status, drones[n - 1].at = "active", label(v)
    events: list[Event] = []
    count_spawn(state, ["drone", "drone"], SeededDice(1), events, ask=True)
    assert [p.zone for p in state.placements] == ["overflow", "overflow"]
    state.phase, state.place_resume = "xeno-place", "next-turn"
    prompt = GAME.waiting_on(state)
    assert prompt.seats == ["marines"]
    options = [a.args["option"] for a in GAME.legal_actions(state, "marines")]
    square = next(o for o in options if o != "auto")
    placed = choose(state, "marines", square)
    assert any(u.at == square and u.kind == "drone" for u in placed.active("xenos"))
    rest = choose(placed, "marines", "auto")
    assert not rest.placements

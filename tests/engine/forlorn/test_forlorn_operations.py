"""Scenario tests: whole turns and each operation's goal and special rules."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from conftest import put, unit

from engine.core.dice import Dice, ScriptedDice, SeededDice
from engine.core.errors import RuleError
from engine.core.events import Event
from engine.core.game import Action
from engine.forlorn import GAME
from engine.forlorn.content import scenarios
from engine.forlorn.setup import xeno_walkable
from engine.forlorn.state import ForlornState
from engine.forlorn.turn import end_of_turn
from engine.forlorn.world import attack_range, board_of, sq

Fresh = Callable[..., ForlornState]


def act(state: ForlornState, verb: str, dice: Dice | None = None, **args: str) -> ForlornState:
    return GAME.apply(state, "marines", Action(verb=verb, args=args), dice or ScriptedDice()).state


def test_solo_a_scores_for_the_lt_and_the_ring_round_a(fresh: Fresh) -> None:
    state = fresh("solo-a")
    put(state, "lt", "J6", "N")
    put(state, "fox", "J7", "N")  # on A itself
    put(state, "bates", "K8", "E")
    put(state, "ortiz", "B2", "E")  # far away
    state.phase = "end"
    events: list[Event] = []
    end_of_turn(state, ScriptedDice([6, 6, 6, 6, 6, 6]), events)
    assert state.vp == 1 + 3
    assert state.turn == 2 and state.phase == "start"
    assert len(state.at("A14")) == 4 + 2  # 4d Drones and 2d Warriors, every die a 6: vent 6


def test_solo_a_victory_at_25_vp_and_defeat_when_time_runs_out(fresh: Fresh) -> None:
    state = fresh("solo-a")
    put(state, "lt", "J6", "N")
    state.vp = 23
    state.phase = "end"
    events: list[Event] = []
    end_of_turn(state, ScriptedDice(), events)
    assert state.phase == "over" and state.outcome == "victory"
    state = fresh("solo-a")
    put(state, "bates", "B2", "N")
    state.turn = 6
    state.phase = "end"
    end_of_turn(state, ScriptedDice(), [])
    assert state.outcome == "defeat"


def test_all_marines_dead_is_a_defeat(fresh: Fresh) -> None:
    state = fresh("solo-a")
    state.phase = "end"
    end_of_turn(state, ScriptedDice(), [])
    assert state.outcome == "defeat"


def test_op01_unplug_mcgfn_and_leave_through_an_airlock(fresh: Fresh) -> None:
    state = fresh("op-01")
    state.floor_items = {"J7": ["mcgfn"]}
    state.mcgfn_plugged = True
    put(state, "fox", "J7", "N")
    after = act(state, "act", unit="fox", what="pickup", target="mcgfn")
    assert after.ap == state.ap - 1 and "mcgfn" in after.unit("fox").items  # type: ignore[union-attr]
    fox = after.unit("fox")
    assert fox is not None
    fox.at = "A2"  # next to the docking airlock
    out = act(after, "act", unit="fox", what="exit")
    assert out.ap == after.ap - 2
    out.phase = "end"
    end_of_turn(out, ScriptedDice(), [])
    assert out.outcome == "victory"


def test_op01_dropped_mcgfn_costs_one_mp(fresh: Fresh) -> None:
    state = fresh("op-01")
    state.floor_items = {"J7": ["mcgfn"]}
    state.mcgfn_plugged = False  # dropped by a fallen Marine
    put(state, "bates", "J7", "N")
    after = act(state, "act", unit="bates", what="pickup", target="mcgfn")
    assert after.mp_left == 5


def test_op03_feed_the_mcgfn_once_per_turn(fresh: Fresh) -> None:
    state = fresh("op-03")
    lt = put(state, "lt", "R2", "W")
    lt.items = ["mcgfn"]
    after = act(state, "act", unit="lt", what="activate")
    assert after.mcgfn_progress == 1
    with pytest.raises(RuleError, match="this turn"):
        act(after, "act", unit="lt", what="activate")


def test_solo_b_seal_is_cut_from_outside_and_exits_at_c_score(fresh: Fresh) -> None:
    state = GAME.new("solo-b", ["marines"], {"difficulty": "standard"}, SeededDice(3))
    assert "C9-C10" in state.sealed_doors and "I11-I12" in state.sealed_doors
    lt = state.unit("lt")
    assert lt is not None and lt.at is not None and lt.at[0] in "ABCDE"
    state = act(state, "end-turn")
    state = GAME.advance(state, SeededDice(4)).state
    for u in state.active("marines"):
        u.at = None
        u.status = "dead"
    fox = put(state, "fox", "C10", "N")
    state.ap = 5
    after = act(state, "act", unit="fox", what="unseal", to="C9")
    assert "C9-C10" in after.open_doors and "C9-C10" not in after.sealed_doors
    f2 = after.unit("fox")
    assert f2 is not None
    f2.at = "A7"  # Solo B's own Map B layout: airlock C on the west corridor
    gone = act(after, "act", unit="fox", what="exit")
    assert gone.unit("fox").exited_via == "C"  # type: ignore[union-attr]
    assert fox.status == "active"


def test_solo_a_veteran_sends_a_private_home_and_lets_the_player_pick_a_heavy() -> None:
    state = GAME.new("solo-a", ["marines"], {"difficulty": "veteran"}, SeededDice(5))
    assert state.grenades == 1 and state.unit("ortiz") is None
    choices = GAME.legal_actions(state, "marines")
    assert {a.args["option"] for a in choices} == {"cut:berns", "cut:zac"}
    with pytest.raises(RuleError, match="first choose"):
        GAME.apply(state, "marines", Action(verb="end-turn"), ScriptedDice())
    after = GAME.apply(state, "marines", choices[1], ScriptedDice()).state
    assert unit(after, "zac").status == "removed"
    assert unit(after, "berns").status == "active"
    assert any(a.verb == "end-turn" for a in GAME.legal_actions(after, "marines"))


def test_trainee_solo_a_spawns_fewer() -> None:
    state = GAME.new("solo-a", ["marines"], {"difficulty": "trainee"}, SeededDice(5))
    from engine.forlorn.setup import sc_of

    assert sc_of(state).spawn.dice == {"drone": 3, "warrior": 1}


def test_solo_b_trapped_marines_may_swap_rooms_two_per_room() -> None:
    state = GAME.new("solo-b", ["marines"], {"difficulty": "standard"}, SeededDice(3))
    moves = {
        a.args["to"] for a in GAME.legal_actions(state, "marines") if a.args.get("unit") == "lt"
    }
    in_b = {m for m in moves if len(m) > 1 and m[0] in "GHIJKL" and int(m[1:]) >= 12}
    # Room B is full (2 there): the LT may only trade places with one of them.
    assert in_b == {unit(state, "berns").at, unit(state, "reyes").at}
    lt = state.unit("lt")
    assert lt is not None and lt.at is not None
    assert any(m[0] in "BCDE" and m != lt.at for m in moves if len(m) > 1)  # own room is fine
    where_lt, where_berns = lt.at, unit(state, "berns").at
    after = GAME.apply(
        state, "marines", Action(verb="move", args={"unit": "lt", "to": where_berns}), SeededDice(1)
    ).state
    assert unit(after, "lt").at == where_berns and unit(after, "berns").at == where_lt
    # Still two in each room; a free square of the full room is refused.
    free_b = next(f"{c}{r}" for c in "GHIJKL" for r in (12, 13, 14) if not after.at(f"{c}{r}"))
    with pytest.raises(RuleError):
        GAME.apply(
            after,
            "marines",
            Action(verb="move", args={"unit": "berns", "to": free_b}),
            SeededDice(1),
        )


def test_op03_automatic_xenos_set_up_round_c_and_a_human_places_hers_anywhere() -> None:
    forces = [f for f in scenarios()["op-03"].xeno_forces if f.near == "C"]
    within = forces[0].within
    for seed in range(1, 16):
        dice = SeededDice(seed)
        state = GAME.new("op-03", ["marines"], {"difficulty": "standard"}, dice)
        state = GAME.advance(act(state, "end-turn", dice), dice).state  # set-up done (2.0)
        board = board_of(state)
        c = board.letters["C"]
        xenos = [sq(x.at) for x in state.active("xenos") if x.at and x.kind != "egg"]
        assert len(xenos) == 6, seed  # 3 Drones and 3 Warriors (12.0)
        walkable = xeno_walkable(board, c)  # never locked behind a security door
        for s in xenos:
            assert attack_range(s, c) <= within, (seed, s)
            assert all(attack_range(s, m) >= 4 for m in board.setup), (seed, s)
            assert s in walkable, (seed, s)
    # The guard is the automatic Xenos' set-up policy: a Xeno player chooses her own squares.
    dice = SeededDice(1)
    human = GAME.new(
        "op-03", ["marines", "xeno"], {"difficulty": "standard", "xeno": "human"}, dice
    )
    human = GAME.apply(human, "xeno", Action(verb="choose", args={"option": "keep"}), dice).state
    if human.phase == "xeno-place":  # 2.0: the dropped Eggs go down before the set-up
        auto = Action(verb="choose", args={"option": "auto"})
        human = GAME.apply(human, "xeno", auto, dice).state
    human = GAME.advance(act(human, "end-turn", dice), dice).state
    assert human.phase == "xeno-place"
    assert {p.zone for p in human.placements} == {"far"}


def test_xenos_walk_through_normal_doors_but_not_security_doors() -> None:
    """The guard's squares (policy): a Xeno opens normal doors (6.2), never a security door
    (1.6), so the rooms behind security doors (A and B of Map B) are not walkable from C."""
    state = GAME.new("op-03", ["marines"], {"difficulty": "standard"}, SeededDice(1))
    board = board_of(state)
    walkable = xeno_walkable(board, board.letters["C"])
    assert not walkable & (board.rooms["A"] | board.rooms["B"])
    assert board.rooms["west-store"] <= walkable | set(board.vents.values())

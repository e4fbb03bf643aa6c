"""Rulebook, The Upkeep Turn, step 4 (with Pick Up a Loot Card or Token): each Hero may make a
free Pick Up of a face-up Loot card or a mission token in an Area without Enemies.

A token takes no Loot slot, so three Loot cards do not stop it; what to take (or nothing) is
the player's choice, asked through `legal_actions` with a default.
"""

from __future__ import annotations

from reich_probe import GAME, act, end_round, options, put, quiet

from engine.core.dice import ScriptedDice
from engine.reich.state import GroundItem


def test_a_hero_with_three_loot_cards_still_takes_a_mission_token() -> None:
    state = quiet(["sarge"], area="2C")
    state.heroes["sarge"].loot = ["helmet", "medkit", "schnapps"]
    state.ground = [GroundItem(id="M1", area="2C", kind="keys")]
    state, _ = end_round(state)
    prompt = GAME.waiting_on(state)
    assert prompt.seats == ["sarge"] and prompt.kind == "choice"
    assert prompt.default is not None and prompt.default.args["option"] == "take:M1"
    state, _ = act(state, "sarge", "choose", ScriptedDice([]), option="take:M1")
    state = GAME.advance(state, ScriptedDice([1] * 20)).state
    assert state.heroes["sarge"].carried == ["keys"]
    assert state.heroes["sarge"].loot == ["helmet", "medkit", "schnapps"]
    assert state.phase == "heroes" and state.round == 2


def test_the_objective_token_is_the_default_before_a_loot_card() -> None:
    """Wolff's Lair at Veteran, on the Endgame space: Wolff is dead, his plans and a Loot card
    lie in the Hero's Area. Taking the plans wins; the Loot card would leave only Cadet."""
    state = quiet(["sarge"], mission="wolffs-lair", area="3B", difficulty="veteran")
    state.kills = {"wolff": 1}
    state.tracker = state.endgame
    state.ground = [
        GroundItem(id="L1", area="3B", card="helmet"),
        GroundItem(id="M2", area="3B", kind="documents"),
    ]
    state, _ = end_round(state)
    offered = options(state, "sarge")
    assert set(offered) == {"take:L1", "take:M2", "leave"}
    default = GAME.waiting_on(state).default
    assert default is not None and default.args["option"] == "take:M2"
    state, _ = act(state, "sarge", "choose", ScriptedDice([]), option="take:M2")
    state = GAME.advance(state, ScriptedDice([1] * 20)).state
    assert state.outcome == "victory"


def test_the_player_may_take_the_loot_card_instead_or_nothing() -> None:
    state = quiet(["sarge"], area="2C")
    state.ground = [
        GroundItem(id="L1", area="2C", card="helmet"),
        GroundItem(id="M1", area="2C", kind="keys"),
    ]
    state, _ = end_round(state)
    state, _ = act(state, "sarge", "choose", ScriptedDice([]), option="take:L1")
    state = GAME.advance(state, ScriptedDice([1] * 20)).state
    assert state.heroes["sarge"].loot == ["helmet"] and state.heroes["sarge"].carried == []
    assert [g.id for g in state.ground] == ["M1"]  # one free Pick Up, not two
    state, _ = end_round(state)
    state, _ = act(state, "sarge", "choose", ScriptedDice([]), option="leave")
    state = GAME.advance(state, ScriptedDice([1] * 20)).state
    assert [g.id for g in state.ground] == ["M1"] and state.round == 3


def test_a_full_dashboard_swaps_a_loot_card_only_when_the_player_says_so() -> None:
    state = quiet(["sarge"], area="2C")
    state.heroes["sarge"].loot = ["helmet", "medkit", "schnapps"]
    state.ground = [GroundItem(id="L1", area="2C", card="stick_grenade")]
    state, _ = end_round(state)
    offered = options(state, "sarge")
    assert "take:L1" not in offered and "swap:L1:medkit" in offered
    assert GAME.waiting_on(state).default.args["option"] == "leave"  # type: ignore[union-attr]
    state, _ = act(state, "sarge", "choose", ScriptedDice([]), option="swap:L1:medkit")
    state = GAME.advance(state, ScriptedDice([1] * 20)).state
    assert sorted(state.heroes["sarge"].loot) == ["helmet", "schnapps", "stick_grenade"]
    assert [g.card for g in state.ground] == ["medkit"]


def test_no_free_pick_up_in_an_area_with_enemies() -> None:
    state = quiet(["sarge"], area="2C")
    put(state, "zombie", "2C", "z1")  # a melee Enemy: it stays to fight
    state.ground = [GroundItem(id="M1", area="2C", kind="keys")]
    state, _ = end_round(state)
    assert GAME.waiting_on(state).kind != "choice"
    assert state.heroes["sarge"].carried == []

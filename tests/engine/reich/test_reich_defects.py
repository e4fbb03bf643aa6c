"""The defects of issue 20, one scene each: each test failed before its fix."""

from __future__ import annotations

import pytest
from reich_helpers import GAME, act, bare, give_card, put, run_upkeep, texts

from engine.core.dice import ScriptedDice
from engine.core.errors import RuleError
from engine.core.events import Event
from engine.reich import rules
from engine.reich.state import GroundItem


def _options(state: object) -> set[str]:
    return {a.args["option"] for a in GAME.legal_actions(state, "hans")}  # type: ignore[arg-type]


def test_burst_never_offers_the_target_itself() -> None:
    """Hans's Vril HMG at General Wolff alone: no Burst can wound Wolff a second time."""
    state = bare(["hans"], mission="wolffs-lair", area="EN")
    state.heroes["hans"].weapons["hmg"].vril = True
    wolff = put(state, "wolff", "8C", "wolff1")
    d = ScriptedDice([6, 6, 5, 5, 3, 1, 1])
    state, _ = act(state, "hans", "attack", d, unit="hans", target=wolff.id, weapon="hmg")
    state, _ = act(state, "hans", "choose", d, option="roll")
    assert not any(o.startswith("burst") for o in _options(state))
    state, _ = act(state, "hans", "choose", d, option="extra")
    state, _ = act(state, "hans", "choose", d, option="extra")
    state, _ = act(state, "hans", "choose", d, option="done")
    found = rules.find_enemy(state, "wolff1")
    assert found is not None and found.behavior == 1  # one Behaviour down, not killed


def test_burst_chooses_another_enemy_and_respects_armored() -> None:
    state = bare(["sarge"], area="EN")
    put(state, "soldier", "1C", "s1")
    put(state, "ubersoldat", "1C", "u1")
    put(state, "soldier", "1C", "s2")
    d = ScriptedDice([6, 5, 5])
    state, _ = act(state, "sarge", "attack", d, unit="sarge", target="s1", weapon="mg")
    state, _ = act(state, "sarge", "choose", d, option="roll")
    opts = {a.args["option"] for a in GAME.legal_actions(state, "sarge")}
    assert {"burst:u1", "burst:s2"} <= opts and "burst:s1" not in opts
    state, _ = act(state, "sarge", "choose", d, option="burst:u1")
    state, ev = act(state, "sarge", "choose", d, option="done")
    u1 = rules.find_enemy(state, "u1")
    assert u1 is not None and u1.wounds == 0 and "Armored" in texts(ev)
    assert rules.find_enemy(state, "s1") is None and rules.find_enemy(state, "s2") is not None


def test_burst_hits_the_chosen_enemy() -> None:
    state = bare(["sarge"], area="EN")
    put(state, "soldier", "1C", "s1")
    put(state, "soldier", "1C", "s2")
    d = ScriptedDice([6, 5, 5])
    state, _ = act(state, "sarge", "attack", d, unit="sarge", target="s1", weapon="mg")
    state, _ = act(state, "sarge", "choose", d, option="roll")
    state, _ = act(state, "sarge", "choose", d, option="burst:s2")
    state, _ = act(state, "sarge", "choose", d, option="done")
    assert [e.id for e in state.enemies] == []


def test_grenade_cannot_wound_an_armored_enemy() -> None:
    state = bare(["sarge"], area="EN")
    put(state, "ubersoldat", "1C", "u1")
    put(state, "soldier", "1C", "s1")
    state.heroes["sarge"].loot = ["stick_grenade"]
    d = ScriptedDice([])
    state, _ = act(state, "sarge", "act", d, unit="sarge", what="loot", target="stick_grenade")
    state, ev = act(state, "sarge", "act", d, unit="sarge", what="grenade", to="1C")
    u1 = rules.find_enemy(state, "u1")
    assert u1 is not None and u1.wounds == 0 and "Armored" in texts(ev)
    assert rules.find_enemy(state, "s1") is None


def test_objective_met_by_the_upkeep_pick_up_ends_before_the_tracker_moves() -> None:
    state = bare(["sarge"], area="1B")
    state.options["difficulty"] = "veteran"
    state.sabotaged = 1  # Cadet done; the codebook is the Veteran objective
    state.ground.append(GroundItem(id="M3", area="1B", kind="documents"))
    state.tracker = state.endgame
    state, _ = act(state, "sarge", "end-turn", ScriptedDice([]))
    state = GAME.advance(state, ScriptedDice([1] * 40)).state
    default = GAME.waiting_on(state).default  # the free Pick Up: the codebook by default
    assert default is not None and default.args["option"] == "take:M3"
    state, _ = act(state, "sarge", "choose", ScriptedDice([]), option="take:M3")
    assert state.outcome == "victory" and state.tracker == state.endgame


def test_wound_hand_limit_holds_for_later_draws() -> None:
    state = bare(["sarge"], area="EN")
    sarge = state.heroes["sarge"]
    sarge.wounds = ["bloody_arm"]
    for card in list(sarge.deck.discard_pile + sarge.deck.draw_pile)[:5]:
        give_card(state, "sarge", card)
    d = ScriptedDice([1] * 10)
    state, ev = act(state, "sarge", "act", d, unit="sarge", what="draw")
    sarge = state.heroes["sarge"]
    assert len(sarge.hand) == 7 and sarge.grants == ["discard", "discard"]
    assert not rules.can_play_cards(sarge)
    with pytest.raises(RuleError):
        act(state, "sarge", "end-turn", d)
    for _ in range(2):
        state, ev = act(
            state, "sarge", "act", d, unit="sarge", what="discard", target=sarge.hand[0]
        )
        sarge = state.heroes["sarge"]
    assert len(sarge.hand) == 5 and not sarge.grants
    # the card names are private to the seat
    assert all(c not in e.text for e in ev if e.visible_to is None for c in sarge.deck.discard_pile)


def test_lose_a_token_in_the_enemies_turn_counts_at_upkeep() -> None:
    state = bare(["sarge"], area="EN")
    sarge = state.heroes["sarge"]
    sarge.tokens = 0
    state.phase = "enemies"
    state.wound_deck.draw_pile.append("winded")  # top effect: lose a Basic Action token
    ev: list[Event] = []
    rules.wound_hero(state, sarge, 0, ScriptedDice([]), ev)
    assert sarge.token_debt == 1
    run_upkeep(state, ScriptedDice([1] * 10), ev)
    assert state.heroes["sarge"].tokens == 1 and state.heroes["sarge"].token_debt == 0


def test_lose_a_token_in_the_heroes_turn_is_immediate() -> None:
    state = bare(["sarge"], area="EN")
    state.wound_deck.draw_pile.append("winded")
    rules.wound_hero(state, state.heroes["sarge"], 0, ScriptedDice([]), [])
    assert state.heroes["sarge"].tokens == 1 and state.heroes["sarge"].token_debt == 0


def test_give_and_take_with_a_down_hero() -> None:
    state = bare(["sarge", "hans"], area="EN")
    hans = state.heroes["hans"]
    hans.down = True
    hans.loot = ["stick_grenade"]
    hans.carried = ["keys"]
    legal = GAME.legal_actions(state, "sarge")
    takes = [a for a in legal if a.args.get("what") == "take" and a.args.get("to") == "hans"]
    assert {a.args["target"] for a in takes} == {"stick_grenade", "keys"}
    d = ScriptedDice([])
    state, _ = act(state, "sarge", "act", d, unit="sarge", what="take", target="keys", to="hans")
    assert GAME.waiting_on(state).seats == ["hans"]  # the Down Hero's player still answers
    state, _ = act(state, "hans", "choose", d, option="accept")
    assert state.heroes["sarge"].carried == ["keys"] and state.heroes["hans"].carried == []
    state.heroes["sarge"].tokens = 2
    state.heroes["sarge"].loot = ["smoke_grenade"]
    state, _ = act(
        state, "sarge", "act", d, unit="sarge", what="give", target="smoke_grenade", to="hans"
    )
    state, _ = act(state, "hans", "choose", d, option="accept")
    assert "smoke_grenade" in state.heroes["hans"].loot

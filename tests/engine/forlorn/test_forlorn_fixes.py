"""The defects of issue 19, each shown by a position that went wrong before the fix."""

from __future__ import annotations

import pytest
from conftest import bare, put, unit, xeno_plays

from engine.core.dice import ScriptedDice, SeededDice
from engine.core.errors import RuleError
from engine.core.events import Attacked, Event
from engine.core.game import Action
from engine.forlorn import GAME
from engine.forlorn.setup import sc_of
from engine.forlorn.spawn import spawn_phase
from engine.forlorn.state import ForlornState
from engine.forlorn.xenos import ai_activate


def marines(
    state: ForlornState, verb: str, dice: ScriptedDice | None = None, **args: str
) -> ForlornState:
    return GAME.apply(state, "marines", Action(verb=verb, args=args), dice or ScriptedDice()).state


def xeno(
    state: ForlornState, verb: str, dice: ScriptedDice | None = None, **args: str
) -> ForlornState:
    return GAME.apply(state, "xeno", Action(verb=verb, args=args), dice or ScriptedDice()).state


# 1. A jammed minigun only throws grenades (8.6), whatever the command says.


def test_jammed_minigun_cannot_fire_under_any_weapon_name() -> None:
    state = bare()
    zac = put(state, "zac", "H9", "N")
    put(state, "d1", "H8")
    zac.jammed = True
    for weapon in ("pistol", "gun", ""):
        with pytest.raises(RuleError, match="jammed"):
            marines(
                state, "attack", ScriptedDice([6, 6, 6, 6]), unit="zac", target="d1", weapon=weapon
            )
    with pytest.raises(RuleError, match="jammed"):
        marines(state, "act", ScriptedDice([6, 6, 6]), unit="zac", what="spin", target="d1")
    listed = GAME.legal_actions(state, "marines")
    mine = [a for a in listed if a.args.get("unit") == "zac"]
    assert not any(a.verb == "attack" or a.args.get("what") == "spin" for a in mine)
    assert any(a.args.get("what") == "grenade" for a in mine)
    assert any(a.args.get("what") == "clear-jam" for a in mine)


def test_apply_refuses_an_unlisted_argument() -> None:
    state = bare()
    put(state, "bates", "H9", "N")
    put(state, "d1", "H8")
    with pytest.raises(RuleError):
        marines(state, "attack", ScriptedDice([6, 6]), unit="bates", target="d1", weapon="flame")
    with pytest.raises(RuleError, match="cannot attack with 'laser'"):
        marines(state, "attack", ScriptedDice([6, 6]), unit="bates", target="d1", weapon="laser")


# 2. 13.2: A.I. Xenos move towards the closest Marine even when every square next to it is taken.


def test_ai_xeno_behind_a_crowd_still_closes_in() -> None:
    state = bare()
    put(state, "bates", "A10", "N")
    put(state, "d1", "A9")  # the two squares next to Bates the Xenos can attack from
    put(state, "d2", "B10")
    d3 = put(state, "d3", "A7")  # behind them in the one-wide corridor
    events: list[Event] = []
    ai_activate(state, d3, SeededDice(1), events)
    assert d3.at == "A8"
    assert not any("lurks" in e.text for e in events)


# 3. 8.7: Marines may walk through flames, attacked once in each burning square entered.


def test_marine_walks_through_a_flame_square_and_is_attacked_there() -> None:
    state = bare()
    put(state, "bates", "A6", "S")  # the one-wide west corridor, A6-A9
    state.flames = ["A7"]
    listed = [a for a in GAME.legal_actions(state, "marines") if a.args.get("to") == "A8"]
    assert listed and "through flames" in (listed[0].label or "")
    step = GAME.apply(
        state, "marines", Action(verb="move", args={"unit": "bates", "to": "A8"}), ScriptedDice([1])
    )
    assert unit(step.state, "bates").at == "A8"
    burns = [e for e in step.events if isinstance(e, Attacked) and e.weapon == "flame"]
    assert len(burns) == 1 and burns[0].faces == ["1"] and "A7" in burns[0].text


def test_a_move_goes_round_the_flames_when_it_can() -> None:
    state = bare()
    put(state, "bates", "H6", "S")  # room A is open floor
    state.flames = ["H7"]
    step = GAME.apply(
        state, "marines", Action(verb="move", args={"unit": "bates", "to": "H8"}), ScriptedDice()
    )
    assert unit(step.state, "bates").at == "H8"
    assert not any(isinstance(e, Attacked) for e in step.events)


# 4. The human Xeno player's own choices are prompts with defaults.


def human(scenario: str, **options: str) -> ForlornState:
    state = bare(scenario, ["marines", "xeno"], xeno="human", **options)
    state.placements = []  # the set-up placements of the starting forces
    return state


def test_xeno_rush_special_is_her_choice() -> None:
    state = human("op-01")
    put(state, "bates", "H9", "N")
    state.rush = True
    state.phase = "end"
    events: list[Event] = []
    spawn_phase(state, sc_of(state), ScriptedDice([6]), events)  # d3+1 = 4 Drones
    state.phase = "xeno-place"
    assert state.placements[0].kind == "special"
    prompt = GAME.waiting_on(state)
    assert prompt.seats == ["xeno"] and prompt.default is not None
    options = [a.args["option"] for a in xeno_plays(state)]
    assert options == ["warrior", "blaster", "auto"]
    after = xeno(state, "choose", option="blaster")
    assert after.placements[0].kind == "blaster"


def test_op04_special_trooper_is_her_choice() -> None:
    state = human("op-04")
    put(state, "bates", "H9", "N")
    state.turn = 2
    spawn_phase(state, sc_of(state), ScriptedDice([1]), [])
    assert [p.kind for p in state.placements] == ["special", "drone", "drone", "drone"]


def spawn_prompt(scenario: str, rolls: list[int], **options: str) -> ForlornState:
    state = human(scenario, **options)
    put(state, "bates", "H9", "N")
    state.phase = "end"
    spawn_phase(state, sc_of(state), ScriptedDice(rolls), [])
    state.phase = "xeno-spawn"
    return state


def test_op02_spawn_reroll_is_her_prompt_with_keep_as_default() -> None:
    state = spawn_prompt("op-02", [1])  # d3+1 = 2 Drones
    assert state.spawn_roll == {"drone": 2}
    prompt = GAME.waiting_on(state)
    assert prompt.seats == ["xeno"] and prompt.default is not None
    assert prompt.default.args == {"option": "keep"}
    assert [a.args["option"] for a in xeno_plays(state)] == ["keep", "reroll"]
    kept = xeno(state, "choose", option="keep")
    assert [p.kind for p in kept.placements] == ["drone", "drone"] and kept.xeno_reroll
    rerolled = xeno(state, "choose", ScriptedDice([6]), option="reroll")
    assert [p.kind for p in rerolled.placements] == ["drone"] * 4 and not rerolled.xeno_reroll


def test_op02_veteran_blaster_swap_is_her_choice() -> None:
    state = spawn_prompt("op-02", [3], difficulty="veteran")  # d6+1 = 4 Drones
    assert [a.args["option"] for a in xeno_plays(state)] == [
        "keep",
        "reroll",
        "blaster",
    ]
    swapped = xeno(state, "choose", option="blaster")
    assert sorted(p.kind for p in swapped.placements) == ["blaster", "drone", "drone"]
    again = xeno(state, "choose", ScriptedDice([5]), option="reroll")  # 6 Drones, swap still open
    assert again.phase == "xeno-spawn"
    assert [a.args["option"] for a in xeno_plays(again)] == ["keep", "blaster"]


def test_automatic_xenos_keep_the_reroll_policy() -> None:
    state = bare("op-02")
    put(state, "bates", "H9", "N")
    events: list[Event] = []
    spawn_phase(state, sc_of(state), ScriptedDice([1, 6]), events)  # minimum, so re-rolled
    assert not state.xeno_reroll and state.spawn_roll is None
    assert sum(1 for u in state.active("xenos")) == 4


# 5. 5.8: an Adrenaline Surge is spent only when the player says so (see also the mechanics
# test); a standing order may say so for its interrupts.


def test_surge_variants_are_listed_and_orders_may_spend_it() -> None:
    state = bare()
    bates = put(state, "bates", "H9", "N")
    put(state, "d1", "H6")
    bates.surge = True
    bates.items = ["medkit"]
    listed = GAME.legal_actions(state, "marines")
    assert any(a.verb == "attack" and a.args.get("surge") == "yes" for a in listed)
    plain = marines(state, "attack", ScriptedDice([1, 1]), unit="bates", target="d1")
    assert plain.ap == state.ap - 1 and plain.unit("bates").surge  # type: ignore[union-attr]
    paid = marines(state, "attack", ScriptedDice([1, 1]), unit="bates", target="d1", surge="yes")
    assert paid.ap == state.ap and not paid.unit("bates").surge  # type: ignore[union-attr]
    with pytest.raises(RuleError, match="no AP"):
        marines(state, "act", unit="bates", what="drop", target="medkit", surge="yes")
    ordered = marines(
        state, "orders", unit="bates", order="interrupt", aps="1", range="6", surge="yes"
    )
    assert ordered.orders[0].surge


# 6. 10.0: discarding one more card for a stronger effect.


def test_discard_an_extra_card_for_a_stronger_effect() -> None:
    state = human("op-01")
    put(state, "bates", "H9", "N")
    d1 = put(state, "d1", "H5")
    state.phase = "xeno"
    state.mutation.hand = ["m01", "m13"]
    listed = GAME.legal_actions(state, "xeno")
    boosted = [a for a in listed if a.args.get("discard") == "m13"]
    assert boosted and boosted[0].args["card"] == "m01"
    step = GAME.apply(state, "xeno", boosted[0], ScriptedDice())
    after = step.state
    assert after.mutation.frenzy == {d1.id: 4}  # 2, +2 for the discard
    assert after.mutation.hand == [] and after.mutation.discarded == ["m13"]
    public = [e.text for e in step.events if e.visible_to is None]
    assert not any("Nest Stirring" in t or "m13" in t for t in public)
    assert any(e.visible_to == ["xeno"] and "Nest Stirring" in e.text for e in step.events)
    with pytest.raises(RuleError, match="no stronger effect"):
        xeno(state, "act", what="card", card="m13", discard="m01")


# Found in the audit: choices the rulebook gives the Marine player.


def test_op04_marine_player_chooses_the_maintenance_bot_vent() -> None:
    state = GAME.new("op-04", ["marines"], {"difficulty": "standard"}, SeededDice(3))
    assert state.phase == "deploy" and state.bot_vent in state.blocked_vents
    default = state.bot_vent
    choices = [a for a in GAME.legal_actions(state, "marines") if a.args.get("what") == "bot"]
    assert len(choices) == 5 and all(a.args["to"] != str(default) for a in choices)
    after = GAME.apply(state, "marines", choices[0], ScriptedDice()).state
    assert after.blocked_vents == [int(choices[0].args["to"])] and after.bot_vent == int(
        choices[0].args["to"]
    )
    with pytest.raises(RuleError, match="already blocked"):
        marines(after, "act", what="bot", to=choices[0].args["to"])


def test_solo_player_sets_the_automatic_xenos_activation_order() -> None:
    from engine.forlorn.xenos import activation_order

    state = bare()
    put(state, "bates", "H9", "N")
    put(state, "d1", "H7")
    put(state, "d2", "H3")
    assert [x.id for x in activation_order(state)] == ["d1", "d2"]
    state.options["activation"] = "farthest"
    assert [x.id for x in activation_order(state)] == ["d2", "d1"]
    keys = [o.key for o in next(i for i in GAME.scenarios() if i.key == "solo-a").options]
    assert "activation" in keys


def test_grenades_may_target_eggs_and_corpses() -> None:
    from engine.forlorn.state import Corpse

    state = bare()
    put(state, "bates", "H9", "N")
    put(state, "h1", "H6", kind="egg")
    state.corpses = [Corpse(at="I7", unit="ortiz")]
    targets = {
        a.args["to"]
        for a in GAME.legal_actions(state, "marines")
        if a.args.get("what") == "grenade"
    }
    assert {"H6", "I7"} <= targets


def test_d3_reading_of_one_die() -> None:
    from engine.forlorn.spawn import d3

    assert [d3(r) for r in range(1, 7)] == [1, 1, 2, 2, 3, 3]

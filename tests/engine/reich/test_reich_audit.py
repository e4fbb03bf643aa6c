"""Rules found wrong or left to a policy in the rulebook audit of issue 20, one scene each."""

from __future__ import annotations

from reich_helpers import GAME, act, bare, give_card, put

from engine.core.dice import ScriptedDice
from engine.core.events import Event
from engine.reich import enemies as enemy_ai
from engine.reich import rules
from engine.reich.words import card_name


def test_wound_discard_or_drop_is_the_players_choice() -> None:
    """'Discard a card OR drop a Loot card': both are offered; cards wait until it is done."""
    state = bare(["sarge"], area="EN")
    give_card(state, "sarge", "sprint-sarge1")
    state.heroes["sarge"].loot = ["stick_grenade"]
    state.wound_deck.draw_pile.append("bloody_arm")  # top: discard a card or drop Loot
    rules.wound_hero(state, state.heroes["sarge"], 0, ScriptedDice([]), [])
    sarge = state.heroes["sarge"]
    assert sarge.grants == ["lose"] and not rules.can_play_cards(sarge)
    legal = {
        (a.args.get("what"), a.args.get("target"))
        for a in GAME.legal_actions(state, "sarge")
        if a.verb == "act" and a.args.get("unit") == "sarge"
    }
    assert legal == {("discard", "sprint-sarge1"), ("drop", "stick_grenade")}
    state, _ = act(
        state, "sarge", "act", ScriptedDice([]), unit="sarge", what="drop", target="stick_grenade"
    )
    sarge = state.heroes["sarge"]
    assert sarge.hand == ["sprint-sarge1"] and not sarge.loot and not sarge.grants
    assert any(g.card == "stick_grenade" and g.area == "EN" for g in state.ground)


def test_wound_discard_with_nothing_to_lose_is_ignored() -> None:
    state = bare(["sarge"], area="EN")
    state.wound_deck.draw_pile.append("bloody_arm")
    rules.wound_hero(state, state.heroes["sarge"], 0, ScriptedDice([]), [])
    assert state.heroes["sarge"].grants == []


def test_decoy_order_settles_the_last_target_tie() -> None:
    """The rulebook's last tie-breaker is the players' choice: `decoy:on` makes it in advance."""
    state = bare(["sarge", "hans"], area="1C")
    zombie = put(state, "zombie", "1C", "z1")
    first = enemy_ai.pick_hero(state, [state.heroes["sarge"], state.heroes["hans"]])
    assert first is not None and first.key == "sarge"
    state, _ = act(state, "hans", "orders", ScriptedDice([]), unit="hans", order="decoy:on")
    target = enemy_ai.plan_and_move(state, zombie, ScriptedDice([]), [])
    assert target == "hans"


def test_wounded_hero_still_beats_a_decoy() -> None:
    state = bare(["sarge", "hans"], area="1C")
    state.heroes["hans"].orders["decoy"] = "on"
    state.heroes["sarge"].wounds = ["flesh_wound"]
    chosen = enemy_ai.pick_hero(state, [state.heroes["sarge"], state.heroes["hans"]])
    assert chosen is not None and chosen.key == "sarge"


def test_events_never_name_a_discarded_hand_card_publicly() -> None:
    state = bare(["prof"], area="EN")
    d = ScriptedDice([1] * 10)
    state, _ = act(state, "prof", "act", d, unit="prof", what="draw")
    card = state.heroes["prof"].hand[0]
    state, ev = act(state, "prof", "act", d, unit="prof", what="discard", target=card)
    public: list[Event] = [e for e in ev if e.visible_to is None]
    name = card_name(card)  # the narration names cards, privately here
    assert public and all(card not in e.text and name not in e.text for e in public)
    assert any(name in e.text for e in ev if e.visible_to == ["prof"])


def test_a_discard_with_nothing_left_is_skipped() -> None:
    state = bare(["sarge"], area="EN")
    state.heroes["sarge"].grants = ["lose"]
    legal = GAME.legal_actions(state, "sarge")
    assert [a.args["what"] for a in legal if a.args.get("unit") == "sarge" and a.verb == "act"] == [
        "skip"
    ]
    state, _ = act(state, "sarge", "act", ScriptedDice([]), unit="sarge", what="skip")
    assert state.heroes["sarge"].grants == []


def test_a_hero_back_on_his_feet_keeps_a_hand_limit_wound() -> None:
    state = bare(["sarge"], area="EN")
    sarge = state.heroes["sarge"]
    sarge.down = True
    sarge.wounds = ["bloody_arm", "flesh_wound", "scratch", "winded"]
    for card in list(sarge.deck.discard_pile + sarge.deck.draw_pile)[:7]:
        give_card(state, "sarge", card)
    state, _ = act(
        state,
        "sarge",
        "act",
        ScriptedDice([]),
        unit="sarge",
        what="recover",
        target="flesh_wound+scratch",
    )
    sarge = state.heroes["sarge"]
    assert not sarge.down and sarge.grants == ["discard", "discard"]

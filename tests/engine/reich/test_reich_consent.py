"""Give/Take with consent: taking from another player's Hero waits for that player's answer."""

from __future__ import annotations

import pytest
from reich_helpers import GAME, act, bare, put, texts

from engine.core.dice import ScriptedDice
from engine.core.errors import RuleError
from engine.reich.state import ReichState

NO_DICE = ScriptedDice([])


def asked() -> ReichState:
    """Sarge (seat sarge) asks Hans (seat hans) for his Helmet."""
    state = bare(["sarge", "hans"], area="1C")
    state.heroes["hans"].loot = ["helmet"]
    state, ev = act(
        state, "sarge", "act", NO_DICE, unit="sarge", what="take", target="helmet", to="hans"
    )
    assert "Sarge asks Hans for Helmet (Hans accepts or declines)" in texts(ev)
    return state


def test_a_take_from_another_player_asks_and_waits_on_the_owner_alone() -> None:
    state = asked()
    prompt = GAME.waiting_on(state)
    assert prompt.seats == ["hans"] and prompt.kind == "choice"
    assert prompt.default is not None and prompt.default.args == {"option": "decline"}
    assert [a.args["option"] for a in GAME.legal_actions(state, "hans")] == ["accept", "decline"]
    assert GAME.legal_actions(state, "sarge") == []
    assert state.heroes["sarge"].tokens == 2 and state.heroes["hans"].loot == ["helmet"]
    with pytest.raises(RuleError, match="Waiting for hans"):
        act(state, "sarge", "move", NO_DICE, unit="sarge", to="1D")
    assert GAME.advance(state, NO_DICE).state is state  # nothing runs while it is pending


def test_accepting_hands_the_card_over_and_spends_the_takers_token() -> None:
    state, ev = act(asked(), "hans", "choose", NO_DICE, option="accept")
    assert state.request is None and "Hans agrees: Sarge takes Helmet" in texts(ev)
    assert state.heroes["sarge"].loot == ["helmet"] and state.heroes["hans"].loot == []
    assert state.heroes["sarge"].tokens == 1 and state.heroes["hans"].tokens == 2
    assert GAME.waiting_on(state).seats == ["sarge", "hans"]


def test_declining_changes_nothing_and_tells_the_taker() -> None:
    state, ev = act(asked(), "hans", "choose", NO_DICE, option="decline")
    assert "Hans declines: Sarge does not get Helmet" in texts(ev)
    assert state.request is None and state.heroes["hans"].loot == ["helmet"]
    assert state.heroes["sarge"].loot == [] and state.heroes["sarge"].tokens == 2


def test_the_default_answer_is_decline() -> None:
    state = asked()
    default = GAME.waiting_on(state).default
    assert default is not None
    state = GAME.apply(state, "hans", default, NO_DICE).state
    assert state.heroes["hans"].loot == ["helmet"] and state.request is None


def test_bad_answers_change_nothing() -> None:
    state = asked()
    before = state.model_dump()
    with pytest.raises(RuleError, match="Hans accepts or declines"):
        act(state, "hans", "choose", NO_DICE, option="maybe")
    with pytest.raises(RuleError, match="First answer the request"):
        act(state, "hans", "move", NO_DICE, unit="hans", to="1D")
    assert state.model_dump() == before


def test_accept_still_checks_the_loot_limit() -> None:
    state = asked()
    state.heroes["sarge"].loot = ["medkit", "ammo", "scope"]  # filled meanwhile (never in play)
    with pytest.raises(RuleError, match="three Loot cards"):
        act(state, "hans", "choose", NO_DICE, option="accept")


def test_a_full_taker_names_the_loot_card_it_leaves_and_needs_a_token() -> None:
    """Give/Take: a receiver with three Loot cards takes one "in place of" a card it carries,
    which is left face up in the Area; the taker's player names it (`drop:`)."""
    state = bare(["sarge", "hans"], area="1C")
    state.heroes["hans"].loot = ["helmet"]
    state.heroes["sarge"].loot = ["medkit", "ammo", "scope"]
    takes = [a for a in GAME.legal_actions(state, "sarge") if a.args.get("target") == "helmet"]
    assert sorted(a.args.get("drop", "") for a in takes if a.args["unit"] == "sarge") == [
        "ammo",
        "medkit",
        "scope",
    ]
    with pytest.raises(RuleError):  # without naming the card it leaves
        act(state, "sarge", "act", NO_DICE, unit="sarge", what="take", target="helmet", to="hans")
    taken, _ = act(
        state,
        "sarge",
        "act",
        NO_DICE,
        unit="sarge",
        what="take",
        target="helmet",
        to="hans",
        drop="ammo",
    )
    taken, _ = act(taken, "hans", "choose", NO_DICE, option="accept")
    assert sorted(taken.heroes["sarge"].loot) == ["helmet", "medkit", "scope"]
    assert [(g.card, g.area, g.face_up) for g in taken.ground] == [("ammo", "1C", True)]
    state.heroes["sarge"].loot = []
    state.heroes["sarge"].tokens = 0
    with pytest.raises(RuleError):
        act(state, "sarge", "act", NO_DICE, unit="sarge", what="take", target="helmet", to="hans")


def test_a_full_receiver_of_a_give_names_the_card_it_leaves_when_accepting() -> None:
    state = bare(["sarge", "hans"], area="1C")
    state.heroes["sarge"].loot = ["helmet"]
    state.heroes["hans"].loot = ["medkit", "ammo", "scope"]
    state, _ = act(
        state, "sarge", "act", NO_DICE, unit="sarge", what="give", target="helmet", to="hans"
    )
    offered = [a.args["option"] for a in GAME.legal_actions(state, "hans")]
    assert sorted(offered) == ["accept:ammo", "accept:medkit", "accept:scope", "decline"]
    assert GAME.waiting_on(state).default.args["option"] == "decline"  # type: ignore[union-attr]
    with pytest.raises(RuleError, match="naming the Loot card"):
        act(state, "hans", "choose", NO_DICE, option="accept")
    state, _ = act(state, "hans", "choose", NO_DICE, option="accept:medkit")
    assert sorted(state.heroes["hans"].loot) == ["ammo", "helmet", "scope"]
    assert state.heroes["sarge"].loot == [] and state.heroes["sarge"].tokens == 1
    assert [(g.card, g.area) for g in state.ground] == [("medkit", "1C")]


def test_mission_tokens_can_be_taken_with_consent_too() -> None:
    state = bare(["sarge", "hans"], area="1C")
    state.heroes["hans"].carried = ["documents"]
    state, _ = act(
        state, "sarge", "act", NO_DICE, unit="sarge", what="take", target="documents", to="hans"
    )
    state, _ = act(state, "hans", "choose", NO_DICE, option="accept")
    assert state.heroes["sarge"].carried == ["documents"] and state.heroes["hans"].carried == []


def test_taking_from_your_own_hero_needs_no_answer() -> None:
    state = bare(["sarge"], area="1C")  # one seat commands the whole commando
    other = next(k for k in state.hero_order if k != "sarge")
    state.heroes[other].loot = ["helmet"]
    state, _ = act(
        state, "sarge", "act", NO_DICE, unit="sarge", what="take", target="helmet", to=other
    )
    assert state.request is None and state.heroes["sarge"].loot == ["helmet"]
    assert state.heroes["sarge"].tokens == 1


def test_a_take_needs_the_other_hero_in_the_same_area() -> None:
    state = bare(["sarge", "hans"], area="1C")
    state.heroes["hans"].loot = ["helmet"]
    state.heroes["hans"].area = "1D"
    put(state, "soldier", "7D", "s1")
    with pytest.raises(RuleError):
        act(state, "sarge", "act", NO_DICE, unit="sarge", what="take", target="helmet", to="hans")


def test_a_give_to_another_players_hero_asks_them_too() -> None:
    state = bare(["sarge", "hans"], area="1C")
    state.heroes["sarge"].loot = ["helmet"]
    state, ev = act(
        state, "sarge", "act", NO_DICE, unit="sarge", what="give", target="helmet", to="hans"
    )
    assert "Sarge offers Hans Helmet" in texts(ev) and GAME.waiting_on(state).seats == ["hans"]
    declined, ev = act(state, "hans", "choose", NO_DICE, option="decline")
    assert "Hans declines: Sarge keeps Helmet" in texts(ev)
    assert declined.heroes["sarge"].loot == ["helmet"] and declined.heroes["sarge"].tokens == 2
    state, _ = act(state, "hans", "choose", NO_DICE, option="accept")
    assert state.heroes["hans"].loot == ["helmet"] and state.heroes["sarge"].loot == []
    assert state.heroes["sarge"].tokens == 1 and state.heroes["hans"].tokens == 2

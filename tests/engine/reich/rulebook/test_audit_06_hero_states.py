"""Rulebook audit, chapters Hero States (Operational, Down) and Recover."""

from __future__ import annotations

from typing import Any

from reich_audit_probe import (
    G_BLANK,
    Data,
    act,
    advance,
    dump,
    end_heroes_turn,
    fresh,
    hero,
    legal,
    offered,
    patch,
    texts,
    view,
    waiting,
)

SIX = ["winded", "scratch", "cracked_rib", "nasty_hit", "winded", "bloody_arm"]


def _sarge(**fields: Any) -> Any:
    def edit(d: Data) -> None:
        d["enemy_tokens"] = []
        d["heroes"]["sarge"].update(fields)

    return patch(fresh(), edit)


def _verbs(state: Any, seat: str) -> set[tuple[str, str]]:
    """(verb, what) pairs on offer, leaving out standing orders and the end of the turn."""
    return {
        (a.verb, a.args.get("what", ""))
        for a in legal(state, seat)
        if a.verb not in {"orders", "end-turn"}
    }


def test_three_permanent_wounds_still_operational() -> None:
    """Operational: up to three permanent Wounds, a Hero still acts freely."""
    state = _sarge(wounds=SIX[:3])
    assert offered(state, "sarge", "move", unit="sarge", to="1C")
    assert offered(state, "sarge", "act", unit="sarge", what="draw")
    assert "down" not in next(f for f in view(state).figures if f.id == "sarge").conditions


def test_down_hero_can_only_recover() -> None:
    """Down: a Down Hero may take the Recover Action and nothing else."""
    state = _sarge(down=True, wounds=SIX[:4])
    assert _verbs(state, "sarge") == {("act", "recover")}


def test_down_hero_is_shown_lying_down() -> None:
    """Down: the miniature is laid down in its Area."""
    state = _sarge(down=True, wounds=SIX[:4])
    assert "down" in next(f for f in view(state).figures if f.id == "sarge").conditions


def _fourth_wound() -> Any:
    """Sarge (three permanent Wounds) alone with a Zombie; the Wound pile tops Shaky Hands."""

    def edit(d: Data) -> None:
        d["enemy_tokens"] = []
        d["alarm"] = True
        d["heroes"]["sarge"].update(area="1C", wounds=SIX[:3])
        d["heroes"]["sarge"]["orders"]["defend"] = "no-cards"
        d["wound_deck"]["draw_pile"].insert(0, "shaky_hands")
        d["enemies"].append(
            {"id": "z", "type": "zombie", "area": "1C", "wounds": 0, "behavior": 0, "active": True}
        )

    state = end_heroes_turn(patch(fresh(), edit))
    state, _ = advance(state, rolls=[G_BLANK, G_BLANK])
    return state


def test_fourth_permanent_wound_puts_the_hero_down_and_draws_two() -> None:
    """Down (fourth permanent Wound): the Hero is Down and draws two Action cards."""
    state = _fourth_wound()
    h = hero(state, "sarge")
    assert h["down"] is True
    assert len(h["wounds"]) == 4
    assert len(h["hand"]) == 6


def test_hero_going_down_removes_two_cards_of_their_choice() -> None:
    """Down: the player picks two cards from hand and removes them from the game."""
    state = _fourth_wound()
    hand = hero(state, "sarge")["hand"]
    offers = {a.args["target"] for a in legal(state, "sarge") if a.args.get("what") == "remove"}
    assert offers == set(hand)
    state = act(state, "sarge", "act", unit="sarge", what="remove", target=hand[-1])
    state = act(state, "sarge", "act", unit="sarge", what="remove", target=hand[0])
    h = hero(state, "sarge")
    assert sorted(h["removed"]) == sorted([hand[-1], hand[0]])
    assert len(h["hand"]) == 4
    assert not [a for a in legal(state, "sarge") if a.args.get("what") == "remove"]


def test_attack_on_a_down_hero_adds_a_permanent_wound_without_a_test() -> None:
    """Down: an Attack on a Down Hero slides a Wound card under the Dashboard (permanent);
    no Defense Test, no cards drawn or removed."""

    def edit(d: Data) -> None:
        d["enemy_tokens"] = []
        d["alarm"] = True
        d["heroes"]["sarge"].update(area="1C", down=True, wounds=SIX[:4])
        # A fifth card in hand, so the Upkeep draw (four cards or less) does not blur the count.
        sarge = d["heroes"]["sarge"]
        sarge["hand"].append(sarge["deck"]["draw_pile"].pop(0))
        d["enemies"].append(
            {"id": "z", "type": "zombie", "area": "1C", "wounds": 0, "behavior": 0, "active": True}
        )

    state = end_heroes_turn(patch(fresh(), edit))
    hand = len(hero(state, "sarge")["hand"])
    state, _ = advance(state, rolls=[])
    h = hero(state, "sarge")
    assert len(h["wounds"]) == 5
    assert len(h["hand"]) == hand
    assert h["removed"] == []


def test_recover_spends_both_tokens_and_discards_two_chosen_wounds() -> None:
    """Recover: both Basic Action tokens; discard two Wound cards of the player's choice;
    under four left: the Hero stands up Operational."""
    state = _sarge(down=True, wounds=SIX[:4])
    state = act(state, "sarge", "act", unit="sarge", what="recover", target="cracked_rib+scratch")
    h = hero(state, "sarge")
    assert sorted(h["wounds"]) == ["nasty_hit", "winded"]
    assert h["tokens"] == 0
    assert h["down"] is False
    assert {"cracked_rib", "scratch"} <= set(dump(state)["wound_deck"]["discard_pile"])


def test_recover_leaving_four_wounds_stays_down() -> None:
    """Recover: four or more Wound cards still under the Dashboard: the Hero stays Down."""
    state = _sarge(down=True, wounds=SIX)
    state = act(state, "sarge", "act", unit="sarge", what="recover", target="winded+winded")
    h = hero(state, "sarge")
    assert len(h["wounds"]) == 4
    assert h["down"] is True


def test_recover_needs_both_basic_action_tokens() -> None:
    """Recover: it takes both Basic Action tokens; with one left it is not possible."""
    state = _sarge(down=True, wounds=SIX[:4], tokens=1)
    assert ("act", "recover") not in _verbs(state, "sarge")


def test_operational_hero_may_recover_too() -> None:
    """Recover: an Operational Hero may also spend both tokens to discard two Wounds."""
    state = _sarge(wounds=SIX[:2])
    assert any(a.args.get("what") == "recover" for a in legal(state, "sarge"))


def _scratched() -> tuple[Any, list[str]]:
    """Sarge, unwounded, fails his Defense against a Zombie; the Wound pile tops "It's Just a
    Scratch!" (threshold 1), then Winded. Played on to the next Heroes' Turn."""

    def edit(d: Data) -> None:
        d["enemy_tokens"] = []
        d["alarm"] = True
        d["heroes"]["sarge"].update(area="1C", wounds=[])
        d["heroes"]["sarge"]["orders"]["defend"] = "no-cards"
        d["wound_deck"]["draw_pile"] += ["winded", "only_scratch"]
        d["enemies"].append(
            {"id": "z", "type": "zombie", "area": "1C", "wounds": 0, "behavior": 0, "active": True}
        )

    state = end_heroes_turn(patch(fresh(), edit))
    lines: list[str] = []
    for _ in range(6):
        if waiting(state).seats:
            return state, lines
        state, events = advance(state, rolls=[G_BLANK] * 4)
        lines += texts(events)
    raise AssertionError("no Heroes' Turn reached")


def test_just_a_scratch_draws_a_wound_at_the_next_heroes_turn_and_applies_its_top() -> None:
    """Wound card examples, "It's Just a Scratch!": at the start of the next Heroes' Turn the
    Hero draws a Wound card and applies its top effect (Winded: a Basic Action token fewer)."""
    state, lines = _scratched()
    turn = lines.index(next(x for x in lines if "Round 2" in x and "Heroes" in x))
    assert any("Winded" in x for x in lines[turn:])
    assert hero(state, "sarge")["tokens"] == 1


def test_just_a_scratch_discards_the_wound_it_draws() -> None:
    """Wound card examples, "It's Just a Scratch!": the card drawn at the Heroes' Turn is
    discarded once applied, not slid under the Dashboard."""
    state, _ = _scratched()
    assert "winded" not in hero(state, "sarge")["wounds"]
    assert "winded" in dump(state)["wound_deck"]["discard_pile"]

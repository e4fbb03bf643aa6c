"""Rulebook audit, chapters Tests, Special Results, Support, Defending Yourself and Wounds."""

from __future__ import annotations

from typing import Any

from reich_audit_probe import (
    B_BLANK,
    B_ONE,
    B_STAR,
    B_TWO,
    G_BLANK,
    G_ONE,
    G_STAR,
    G_THREE,
    G_TWO,
    Data,
    act,
    advance,
    dump,
    end_heroes_turn,
    enemies,
    fresh,
    hero,
    legal,
    offered,
    patch,
    run,
    waiting,
)


def _hans_vs_soldier(**extra: str) -> Any:
    """Hans (Heavy Machine Gun, 4 black dice) in 1D; an Active Soldier (Defense 4) in 1B."""

    def edit(d: Data) -> None:
        d["enemy_tokens"] = []
        d["heroes"]["hans"]["area"] = "1D"
        for key, area in extra.items():
            d["heroes"][key]["area"] = area
        d["enemies"].append(
            {"id": "s", "type": "soldier", "area": "1B", "wounds": 0, "behavior": 0, "active": True}
        )

    return patch(fresh(), edit)


def _rolled(state: Any, rolls: list[int]) -> Any:
    state = act(state, "hans", "attack", unit="hans", target="s", weapon="hmg")
    return act(state, "hans", "choose", rolls, option="roll")


def test_attack_test_rolls_the_weapons_dice() -> None:
    """Tests 2: the Attack pool is the dice printed on the weapon (4 black for Hans's HMG)."""
    state = act(_hans_vs_soldier(), "hans", "attack", unit="hans", target="s", weapon="hmg")
    # Exactly four scripted dice: a fifth roll would raise, a third would leave one unused.
    state, events = run(state, "hans", "choose", [B_ONE, B_ONE, B_BLANK, B_BLANK], option="roll")
    assert len(dump(state)["pending"]["dice"]) == 4
    assert [e.kind for e in events] == ["rolled"]


def test_attack_success_when_total_equals_defense() -> None:
    """Tests 5: a total equal to the Defense Value is a Success (the Soldier, Life 1, dies)."""
    state = _rolled(_hans_vs_soldier(), [B_ONE, B_ONE, B_ONE, B_ONE])
    state = act(state, "hans", "choose", option="done")
    assert enemies(state) == []


def test_attack_fail_when_total_is_below_defense() -> None:
    """Tests 5: one Success short of the Defense Value is a Fail; the target is unharmed."""
    state = _rolled(_hans_vs_soldier(), [B_ONE, B_ONE, B_ONE, B_BLANK])
    state = act(state, "hans", "choose", option="done")
    assert [e["id"] for e in enemies(state)] == ["s"]
    assert enemies(state)[0]["wounds"] == 0


def test_modifier_card_adds_a_die_to_the_pool() -> None:
    """Tests 2: cards played while building the pool add their dice to it."""
    state = act(_hans_vs_soldier(), "hans", "attack", unit="hans", target="s", weapon="hmg")
    assert offered(state, "hans", "choose", option="card:pin_down-hans4")
    state = act(state, "hans", "choose", option="card:pin_down-hans4")
    state = act(state, "hans", "choose", [B_BLANK] * 5, option="roll")
    assert len(dump(state)["pending"]["dice"]) == 5
    assert "pin_down-hans4" not in hero(state, "hans")["hand"]


def test_special_result_counts_two_and_must_be_spent_before_resolving() -> None:
    """Tests 4 / Special Results 1: a star adds two Successes and is spent before the total."""
    state = _rolled(_hans_vs_soldier(), [B_STAR, B_BLANK, B_BLANK, B_BLANK])
    assert "2 Successes" in waiting(state).text
    assert not offered(state, "hans", "choose", option="done")
    assert offered(state, "hans", "choose", option="extra")


def test_special_result_extra_die_adds_its_successes() -> None:
    """Special Results 2: spend a star to roll one more die of that colour and add it."""
    state = _rolled(_hans_vs_soldier(), [B_STAR, B_BLANK, B_BLANK, B_BLANK])
    state = act(state, "hans", "choose", [B_TWO], option="extra")
    assert "4 Successes" in waiting(state).text
    state = act(state, "hans", "choose", option="done")
    assert enemies(state) == []


def test_successive_special_results_chain() -> None:
    """Special Results 2: a star on the extra die adds two more and is spent again."""
    state = _rolled(_hans_vs_soldier(), [B_STAR, B_BLANK, B_BLANK, B_BLANK])
    state = act(state, "hans", "choose", [B_STAR], option="extra")
    assert "4 Successes" in waiting(state).text
    assert not offered(state, "hans", "choose", option="done")
    state = act(state, "hans", "choose", [B_BLANK], option="extra")
    assert offered(state, "hans", "choose", option="done")


def test_special_result_can_make_a_killed_enemy_drop_loot() -> None:
    """Special Results 2 (Drop Loot): a Loot card is drawn and laid face up where it died."""
    state = _rolled(_hans_vs_soldier(), [B_STAR, B_TWO, B_BLANK, B_BLANK])
    assert offered(state, "hans", "choose", option="loot")
    pile = len(dump(state)["loot_deck"]["draw_pile"])
    state = act(state, "hans", "choose", option="loot")
    state = act(state, "hans", "choose", option="done")
    data = dump(state)
    assert data["enemies"] == []
    assert len(data["loot_deck"]["draw_pile"]) == pile - 1
    assert [g for g in data["ground"] if g["area"] == "1B" and g["card"] and g["face_up"]]


def test_support_each_hero_in_the_area_plays_one_card() -> None:
    """Support: other Operational Heroes in the attacker's Area may add one card each."""
    state = _hans_vs_soldier(sarge="1D", tane="1D", claudine="EN")

    def orders(d: Data) -> None:
        for key in ("sarge", "tane", "claudine"):
            d["heroes"][key]["orders"]["support"] = "always"

    state = patch(state, orders)
    hands = {k: len(hero(state, k)["hand"]) for k in ("sarge", "tane", "claudine")}
    state = _rolled(state, [B_BLANK, B_ONE, B_ONE, B_BLANK])
    state = act(state, "hans", "choose", [B_BLANK, B_BLANK], option="done")
    assert len(hero(state, "sarge")["hand"]) == hands["sarge"] - 1
    assert len(hero(state, "tane")["hand"]) == hands["tane"] - 1
    assert len(hero(state, "claudine")["hand"]) == hands["claudine"]


def test_down_hero_gives_no_support() -> None:
    """Support: only Operational Heroes can Support."""
    state = _hans_vs_soldier(sarge="1D")

    def edit(d: Data) -> None:
        d["heroes"]["sarge"]["orders"]["support"] = "always"
        d["heroes"]["sarge"].update(down=True, wounds=["winded"] * 4)

    state = patch(state, edit)
    hand = len(hero(state, "sarge")["hand"])
    state = _rolled(state, [B_BLANK, B_ONE, B_ONE, B_BLANK])
    state = act(state, "hans", "choose", option="done")
    assert len(hero(state, "sarge")["hand"]) == hand


def _zombie_on_sarge() -> Any:
    """Sarge alone in 1C with an Active Zombie (Melee, Attack Value 5); he plays no cards."""

    def edit(d: Data) -> None:
        d["enemy_tokens"] = []
        d["heroes"]["sarge"]["area"] = "1C"
        d["heroes"]["sarge"]["orders"]["defend"] = "no-cards"
        d["wound_deck"]["draw_pile"].insert(0, "shaky_hands")
        d["enemies"].append(
            {"id": "z", "type": "zombie", "area": "1C", "wounds": 0, "behavior": 0, "active": True}
        )

    return end_heroes_turn(patch(fresh(), edit))


def test_defense_test_uses_two_green_dice_and_succeeds_on_equal() -> None:
    """Defending Yourself: two green dice; reaching the Attack Value means no Wound card."""
    state = _zombie_on_sarge()
    pile = len(dump(state)["wound_deck"]["draw_pile"])
    state, _ = advance(state, rolls=[G_THREE, G_TWO])
    data = dump(state)
    assert data["heroes"]["sarge"]["wounds"] == []
    assert len(data["wound_deck"]["draw_pile"]) == pile


def test_failed_defense_below_threshold_discards_the_wound_card() -> None:
    """Defending Yourself: damage under the card's threshold: the Wound card is discarded."""
    state = _zombie_on_sarge()
    state, _ = advance(state, rolls=[G_THREE, G_ONE])
    data = dump(state)
    assert data["heroes"]["sarge"]["wounds"] == []
    assert "shaky_hands" in data["wound_deck"]["discard_pile"]


def test_failed_defense_at_threshold_is_a_permanent_wound() -> None:
    """Defending Yourself: damage equal to the card's threshold keeps it as a permanent Wound."""
    state = _zombie_on_sarge()
    # A star (2) then its extra die blank: 2 against 5 is 3 damage; Shaky Hands needs 3.
    state, _ = advance(state, rolls=[G_STAR, G_BLANK, G_BLANK])
    assert dump(state)["heroes"]["sarge"]["wounds"] == ["shaky_hands"]


def test_drop_loot_needs_a_kill() -> None:
    """Special Results (Drop Loot): only an Enemy killed in this Test drops Loot; on a Fail
    the spent star draws nothing."""
    state = _rolled(_hans_vs_soldier(), [B_STAR, B_BLANK, B_BLANK, B_BLANK])
    pile = len(dump(state)["loot_deck"]["draw_pile"])
    state = act(state, "hans", "choose", option="loot")
    state = act(state, "hans", "choose", option="done")
    data = dump(state)
    assert [e["id"] for e in data["enemies"]] == ["s"]
    assert len(data["loot_deck"]["draw_pile"]) == pile
    assert not [g for g in data["ground"] if g["area"] == "1B"]


def test_empty_wound_pile_is_rebuilt_from_its_discards() -> None:
    """Discarding and Shuffling: with the Wound pile empty, the discards form a new pile."""
    state = _zombie_on_sarge()

    def empty(d: Data) -> None:
        deck = d["wound_deck"]
        deck["discard_pile"] = deck["draw_pile"]
        deck["draw_pile"] = []

    state = patch(state, empty)
    total = len(dump(state)["wound_deck"]["discard_pile"])
    state, _ = advance(state, rolls=[G_THREE, G_ONE])
    deck = dump(state)["wound_deck"]
    assert len(deck["draw_pile"]) == total - 1


def test_feat_cards_have_no_modifier_section() -> None:
    """Play an Action Card: Feat cards only have an Action section, so they never modify a
    Test."""
    state = act(_hans_vs_soldier(), "hans", "attack", unit="hans", target="s", weapon="hmg")
    options = [a.args["option"] for a in legal(state, "hans") if a.verb == "choose"]
    assert "card:pin_down-hans4" in options
    assert not [o for o in options if o.startswith("card:f_")]

"""Rulebook probes (issue #30): the choices the rulebook gives a player are the player's, and
the rules the fidelity table once called "simplified" hold as written.

Give/Take: "If you receive a Loot card, place it in a free slot on your Dashboard, or replace
one of your Loot cards with it and place the former face up in your Area." Support: a
supporter's card is applied to the attacker's Test, and "All Special Results are applied in the
same way, regardless of where they are from", so its Special Result is the attacker's to spend.
Heavy Infantry (Hans): "Once per Defense Test, you may spend a Special Result to add Successes"
(the player's choice, given in advance by the standing order `heavy:`). Area occupation: "A
miniature must appear or end its move in an Area that can accommodate it."

Only the Game protocol is used (`reich_audit_probe`); positions are staged through the dump.
"""

from __future__ import annotations

from typing import Any

from reich_audit_probe import (
    B_BLANK,
    B_TWO,
    G_BLANK,
    G_ONE,
    G_STAR,
    G_TWO,
    Data,
    act,
    advance,
    dump,
    end_heroes_turn,
    fresh,
    hero,
    legal,
    offered,
    offered_like,
    patch,
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


def test_a_supporters_special_result_is_spent_by_the_attacker() -> None:
    """Claudine supports Hans with Breach (a Special Result): the Test does not resolve on
    `done`; Hans spends the star (one more die) and then resolves, Claudine's one card used."""

    def edit(d: Data) -> None:
        d["heroes"]["claudine"]["hand"] = ["breach-claudine10"]
        d["heroes"]["claudine"]["orders"]["support"] = "always"

    state = patch(_hans_vs_soldier(claudine="1D"), edit)
    state = act(state, "hans", "attack", unit="hans", target="s", weapon="hmg")
    state = act(state, "hans", "choose", [B_BLANK] * 4, option="roll")
    state = act(state, "hans", "choose", option="done")
    assert hero(state, "claudine")["hand"] == []
    assert dump(state)["pending"] is not None  # the Test waits for Hans to spend the star
    assert offered(state, "hans", "choose", option="extra")
    assert not offered(state, "hans", "choose", option="done")
    state = act(state, "hans", "choose", [B_TWO], option="extra")
    state = act(state, "hans", "choose", option="done")
    assert dump(state)["pending"] is None
    assert [e["id"] for e in dump(state)["enemies"]] == []  # 2 + 2 against 4: a Success


def _zombie_on_hans(order: str | None) -> Any:
    """Hans alone in 1C with an Active Zombie (Melee, Attack Value 5); he plays no cards."""

    def edit(d: Data) -> None:
        d["enemy_tokens"] = []
        d["heroes"]["hans"]["area"] = "1C"
        d["heroes"]["hans"]["orders"]["defend"] = "no-cards"
        d["enemies"].append(
            {"id": "z", "type": "zombie", "area": "1C", "wounds": 0, "behavior": 0, "active": True}
        )

    state = patch(fresh(), edit)
    if order is not None:
        state = act(state, "hans", "orders", unit="hans", order=order)
    return end_heroes_turn(state)


def test_heavy_infantry_takes_its_successes_unless_hans_orders_dice() -> None:
    """Heavy Infantry is a choice: by default the star's +2 and the skill's +2 Successes with
    a one (5 against 5, no Wound card); ordered `heavy:dice`, the star buys one more die."""
    state = _zombie_on_hans(None)
    pile = len(dump(state)["wound_deck"]["draw_pile"])
    state, _ = advance(state, rolls=[G_STAR, G_ONE])
    assert len(dump(state)["wound_deck"]["draw_pile"]) == pile  # defended

    state = _zombie_on_hans("heavy:dice")
    pile = len(dump(state)["wound_deck"]["draw_pile"])
    state, _ = advance(state, rolls=[G_STAR, G_ONE, G_BLANK])  # 2 + 1 + 0 against 5
    assert len(dump(state)["wound_deck"]["draw_pile"]) == pile - 1  # a Wound card drawn


def test_only_hans_is_given_the_heavy_infantry_order() -> None:
    state = fresh()
    assert offered_like(state, "hans", "orders", unit="hans", order="heavy:dice")
    assert not [a for a in legal(state, "sarge") if a.args.get("order", "").startswith("heavy")]


def _loot(d: Data, **carried: list[str]) -> None:
    d["enemy_tokens"] = []
    for key, cards in carried.items():
        d["heroes"][key]["loot"] = cards
        d["heroes"][key]["area"] = "1C"


def test_a_receiver_with_three_loot_cards_swaps_one_out_by_its_players_choice() -> None:
    """Sarge gives Hans (another player's Hero, three Loot cards) a Helmet: Hans's player
    accepts by naming the card he leaves face up in the Area."""
    state = patch(fresh(), lambda d: _loot(d, sarge=["helmet"], hans=["medkit", "ammo", "scope"]))
    assert offered(state, "sarge", "act", unit="sarge", what="give", target="helmet", to="hans")
    state = act(state, "sarge", "act", unit="sarge", what="give", target="helmet", to="hans")
    assert waiting(state).seats == ["hans"]
    assert offered(state, "hans", "choose", option="accept:ammo")
    assert not offered(state, "hans", "choose", option="accept")
    state = act(state, "hans", "choose", option="accept:ammo")
    assert sorted(hero(state, "hans")["loot"]) == ["helmet", "medkit", "scope"]
    here = [(g["card"], g["face_up"]) for g in dump(state)["ground"] if g["area"] == "1C"]
    assert here == [("ammo", True)]


def test_a_taker_with_three_loot_cards_names_the_card_it_leaves() -> None:
    state = patch(fresh(), lambda d: _loot(d, hans=["helmet"], sarge=["medkit", "ammo", "scope"]))
    takes = offered_like(state, "sarge", "act", unit="sarge", what="take", target="helmet")
    assert sorted(a.args["drop"] for a in takes) == ["ammo", "medkit", "scope"]
    state = act(
        state, "sarge", "act", unit="sarge", what="take", target="helmet", to="hans", drop="scope"
    )
    state = act(state, "hans", "choose", option="accept")
    assert sorted(hero(state, "sarge")["loot"]) == ["ammo", "helmet", "medkit"]
    assert [g["card"] for g in dump(state)["ground"] if g["area"] == "1C"] == ["scope"]


def test_a_hero_cannot_end_a_move_in_an_area_with_no_room() -> None:
    """Area occupation: one Enemy leaves room in 1C; forty fill it, and the Move into 1C is
    neither offered nor accepted, while another neighbouring Area still is."""

    def crowd(count: int) -> Any:
        def edit(d: Data) -> None:
            d["enemy_tokens"] = []
            d["heroes"]["sarge"]["area"] = "1D"
            d["enemies"] = [
                {"id": f"z{i}", "type": "zombie", "area": "1C", "wounds": 0, "active": False}
                for i in range(count)
            ]

        return patch(fresh(), edit)

    assert offered(crowd(1), "sarge", "move", unit="sarge", to="1C")
    full = crowd(40)
    assert not offered(full, "sarge", "move", unit="sarge", to="1C")
    assert offered_like(full, "sarge", "move", unit="sarge")  # elsewhere still
    try:
        act(full, "sarge", "move", unit="sarge", to="1C")
    except Exception as refused:  # a RuleError naming the rule
        assert "1C" in str(refused)
    else:
        raise AssertionError("a Move into a full Area was accepted")


def _zombie_on_sarge(order: str) -> Any:
    """Sarge alone in 1C with an Active Zombie (Attack Value 5), holding Take Cover only."""

    def edit(d: Data) -> None:
        d["enemy_tokens"] = []
        d["heroes"]["sarge"]["area"] = "1C"
        d["heroes"]["sarge"]["hand"] = ["take_cover-hans8"]
        d["enemies"].append(
            {"id": "z", "type": "zombie", "area": "1C", "wounds": 0, "behavior": 0, "active": True}
        )

    state = patch(fresh(), edit)
    if order != "defend:cards":  # the default
        state = act(state, "sarge", "orders", unit="sarge", order=order)
    return end_heroes_turn(state)


def test_defense_cards_are_played_by_the_players_standing_order() -> None:
    """Defending Yourself: the Hero "applies any card Effects" he wishes: ordered
    `defend:cards` (the default) Sarge plays Take Cover on a failing Test and is not hurt;
    ordered `defend:no-cards` he keeps it and draws a Wound card."""
    state = _zombie_on_sarge("defend:cards")
    pile = len(dump(state)["wound_deck"]["draw_pile"])
    state, _ = advance(state, rolls=[G_TWO, G_ONE])  # 3 against 5, and the card's two
    assert "take_cover-hans8" not in hero(state, "sarge")["hand"]
    assert len(dump(state)["wound_deck"]["draw_pile"]) == pile

    state = _zombie_on_sarge("defend:no-cards")
    pile = len(dump(state)["wound_deck"]["draw_pile"])
    state, _ = advance(state, rolls=[G_TWO, G_ONE])
    assert "take_cover-hans8" in hero(state, "sarge")["hand"]
    assert len(dump(state)["wound_deck"]["draw_pile"]) == pile - 1

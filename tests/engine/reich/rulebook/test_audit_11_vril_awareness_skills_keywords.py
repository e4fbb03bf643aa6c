"""Rulebook audit, chapters Vril a Weapon and Overload, Awareness, Hero Skills, Enemy
Subtitles and Keywords, Enemy Wounds."""

from __future__ import annotations

from typing import Any

from reich_audit_probe import (
    B_BLANK,
    B_ONE,
    B_STAR,
    B_TWO,
    G_BLANK,
    Data,
    act,
    advance,
    dump,
    end_heroes_turn,
    enemies,
    fresh,
    hero,
    offered,
    offered_like,
    patch,
    perform,
    run,
    view,
    waiting,
)

# Red Vril die faces as observed through the protocol: 1 Overload, 2 blank, 3 one, 4-5 two,
# 6 Special Result.
R_OVERLOAD, R_BLANK, R_STAR = 1, 2, 6


def _board(
    seats: list[str] | None = None,
    heroes: dict[str, str] | None = None,
    foes: list[tuple[str, str, str]] | None = None,
    edit: Any = None,
    scenario: str = "radio-silence",
) -> Any:
    """No Enemy tokens; Heroes placed; Active Enemies (id, type, Area)."""

    def change(d: Data) -> None:
        d["enemy_tokens"] = []
        for key, area in (heroes or {}).items():
            d["heroes"][key]["area"] = area
        for eid, kind, area in foes or []:
            d["enemies"].append(
                {
                    "id": eid,
                    "type": kind,
                    "area": area,
                    "wounds": 0,
                    "behavior": 0,
                    "active": True,
                    "number": 0,
                }
            )
        if edit is not None:
            edit(d)

    return patch(fresh(scenario, seats=seats), change)


def _blueprints(foes: list[tuple[str, str, str]] | None = None) -> Any:
    """Sarge walks into 3A, whose face-down Area Accessory is the Vril Device Blueprints."""

    def edit(d: Data) -> None:
        d["accessories"] = {"3A": "blueprints"}
        d["open_doors"] = ["D10"]
        d["heroes"]["sarge"]["weapons"]["mg"]["jammed"] = True

    state = _board(heroes={"sarge": "1A"}, foes=foes, edit=edit)
    return act(state, "sarge", "move", unit="sarge", to="3A")


def test_vril_a_weapon_on_the_blueprints() -> None:
    """Vril a Weapon: on a Blueprints Area the token moves to the Vril side, Functioning."""
    state = _blueprints()
    assert offered(state, "sarge", "act", unit="sarge", what="vril", target="mg")
    assert hero(state, "sarge")["tokens"] == 1  # the walk in was the Basic Move
    state = act(state, "sarge", "act", unit="sarge", what="vril", target="mg")
    mg = hero(state, "sarge")["weapons"]["mg"]
    assert mg == {"vril": True, "jammed": False}
    assert hero(state, "sarge")["tokens"] == 0
    assert not offered(state, "sarge", "act", unit="sarge", what="vril", target="mg")


def test_no_vril_with_an_enemy_in_the_area() -> None:
    """Vril a Weapon: the Hero's Area must hold no Enemies."""
    state = _blueprints(foes=[("s", "soldier", "3A")])
    assert not offered_like(state, "sarge", "act", what="vril")


def test_no_vril_away_from_the_blueprints() -> None:
    """Vril a Weapon: only in an Area whose Accessory allows it."""
    state = _board(heroes={"sarge": "1A"})
    assert not offered_like(state, "sarge", "act", what="vril")


def _vril_shot(seat: str, weapon: str, vril_weapons: list[str]) -> Any:
    """`seat` in 1D with `vril_weapons` Vrilled, shooting an Active Soldier in 1B."""

    def edit(d: Data) -> None:
        for w in vril_weapons:
            d["heroes"][seat]["weapons"][w]["vril"] = True

    seats = ["sarge", "claudine", "quentin", "tane"]
    state = _board(seats, {seat: "1D"}, [("s", "soldier", "1B")], edit)
    return act(state, seat, "attack", unit=seat, target="s", weapon=weapon)


def test_vril_weapon_adds_its_red_dice() -> None:
    """Vril a Weapon: a Vril weapon adds its red Vril dice to the Attack pool."""
    state = _vril_shot("sarge", "revolver", ["revolver"])
    state = act(state, "sarge", "choose", [B_ONE, B_ONE, 3], option="roll")
    dice = dump(state)["pending"]["dice"]
    assert [d["color"] for d in dice].count("red") == 1
    assert "3 Successes" in waiting(state).text


def test_remaining_overload_is_a_permanent_wound() -> None:
    """Overload: after the Test, each Overload left gives the Hero a permanent Wound card."""
    state = _vril_shot("sarge", "revolver", ["revolver"])
    state = act(state, "sarge", "choose", [B_BLANK, B_BLANK, R_OVERLOAD], option="roll")
    state = act(state, "sarge", "choose", option="done")
    assert len(hero(state, "sarge")["wounds"]) == 1


def test_only_a_red_special_result_cancels_an_overload() -> None:
    """Special Results (Cancel Overload): a star on a red die may cancel an Overload; a star
    on a black die may not."""
    state = _vril_shot("quentin", "bow", ["bow"])
    black = act(state, "quentin", "choose", [B_STAR, R_OVERLOAD, R_BLANK], option="roll")
    assert not [a for a in offered_like(black, "quentin", "choose") if "cancel" in a.args["option"]]
    red = act(state, "quentin", "choose", [B_BLANK, R_OVERLOAD, R_STAR], option="roll")
    cancels = [a for a in offered_like(red, "quentin", "choose") if "cancel" in a.args["option"]]
    assert cancels
    red = perform(red, "quentin", cancels[0])
    red = act(red, "quentin", "choose", option="done")
    assert hero(red, "quentin")["wounds"] == []


def _dog_watch(**extra: str) -> Any:
    return _board(heroes={"hans": "1C", **extra}, foes=[("d", "dog", "1B")])


def test_awareness_enemy_acts_when_a_hero_comes_into_sight() -> None:
    """Awareness: the first time a Hero enters its sight, the Dog Moves and Attacks at once,
    without raising the alarm."""
    state, events = run(_dog_watch(), "hans", "move", [G_BLANK, G_BLANK], unit="hans", to="1D")
    assert next(e["area"] for e in enemies(state) if e["id"] == "d") == "1D"
    assert any(e.kind == "rolled" and "defends" in e.text for e in events)
    assert dump(state)["alarm"] is False


def test_awareness_fires_once_per_turn_per_enemy() -> None:
    """Awareness: not again when another Hero enters the same Enemy's sight that turn."""
    state = _dog_watch(claudine="EN")
    state = act(state, "hans", "move", [G_BLANK, G_BLANK], unit="hans", to="1D")
    # Claudine's move would be answered with dice; none are scripted.
    state = act(state, "claudine", "move", unit="claudine", to="1C")
    state = patch(state, lambda d: d["heroes"]["claudine"].update(used_move=False))
    state, events = run(state, "claudine", "move", unit="claudine", to="1D")
    assert not any(e.kind == "rolled" for e in events)


def test_enemy_without_awareness_waits_for_its_turn() -> None:
    """Awareness: only Enemies with the icon react during the Heroes' Turn (not a Soldier)."""
    state = _board(heroes={"hans": "1C"}, foes=[("s", "soldier", "1B")])
    state, events = run(state, "hans", "move", unit="hans", to="1D")
    assert next(e["area"] for e in enemies(state) if e["id"] == "s") == "1B"
    assert not any(e.kind == "rolled" for e in events)


def test_genius_draws_three_then_discards_one() -> None:
    """Hero Skills (Genius, Prof.): the Draw Action draws three, then one card is discarded."""
    state = _board(["prof", "hans", "claudine", "tane"])
    state = act(state, "prof", "act", unit="prof", what="draw")
    assert len(hero(state, "prof")["hand"]) == 7
    discard = offered_like(state, "prof", "act", what="discard")
    assert discard
    state = perform(state, "prof", discard[0])
    assert len(hero(state, "prof")["hand"]) == 6
    assert hero(state, "prof")["deck"]["discard_pile"] == [discard[0].args["target"]]


def test_cover_me_adds_a_success_to_a_friends_attack() -> None:
    """Hero Skills (Cover Me, Brad): +1 Success to another Hero's Attack Test in his Area."""
    seats = ["brad", "hans", "claudine", "tane"]
    results = {}
    for brad_at in ("1D", "EN"):
        state = _board(seats, {"hans": "1D", "brad": brad_at}, [("s", "soldier", "1B")])
        state = act(state, "hans", "attack", unit="hans", target="s", weapon="hmg")
        state = act(state, "hans", "choose", [B_ONE, B_ONE, B_ONE, B_BLANK], option="roll")
        state = act(state, "hans", "choose", option="done")
        results[brad_at] = [e["id"] for e in enemies(state)]
    assert results == {"1D": [], "EN": ["s"]}


def test_bodyguard_soldier_shields_an_officer_in_its_area() -> None:
    """Keywords (Bodyguard): an Offizier sharing an Area with a Soldier cannot be targeted."""
    state = _board(heroes={"sarge": "1D"}, foes=[("o", "officer", "1B"), ("s", "soldier", "1B")])
    targets = {a.args["target"] for a in offered_like(state, "sarge", "attack")}
    assert targets == {"s"}
    alone = _board(heroes={"sarge": "1D"}, foes=[("o", "officer", "1B")])
    assert {a.args["target"] for a in offered_like(alone, "sarge", "attack")} == {"o"}


def test_meatshield_zombie_blocks_ranged_attacks_on_its_area_mates() -> None:
    """Keywords (Meatshield): no Ranged Attack on another miniature in a Zombie's Area."""
    state = _board(heroes={"sarge": "1D"}, foes=[("z", "zombie", "1B"), ("s", "soldier", "1B")])
    assert {a.args["target"] for a in offered_like(state, "sarge", "attack")} == {"z"}


def test_burst_spends_a_star_to_wound_a_second_enemy() -> None:
    """Keywords (Burst): a star spent on Burst also Wounds another Enemy in the target's Area
    on a Success."""
    state = _board(heroes={"hans": "1D"}, foes=[("d1", "dog", "1B"), ("d2", "dog", "1B")])
    state = act(state, "hans", "attack", unit="hans", target="d1", weapon="hmg")
    state = act(state, "hans", "choose", [B_STAR, B_TWO, B_ONE, B_BLANK], option="roll")
    state = act(state, "hans", "choose", option="burst:d2")
    state = act(state, "hans", "choose", option="done")
    assert enemies(state) == []


def test_enemy_with_two_life_takes_a_wound_token_first() -> None:
    """Enemy Wounds: a Success adds a Wound token; the miniature goes at its Life Value."""
    state = _board(heroes={"hans": "2A"}, foes=[("x", "exp601", "2B")], scenario="lab-rats")
    hit = [a for a in offered_like(state, "hans", "attack", target="x")]
    assert hit
    state = perform(state, "hans", hit[0])
    state = act(state, "hans", "choose", [B_TWO] * 4, option="roll")
    state = act(state, "hans", "choose", option="done")
    assert [e["wounds"] for e in enemies(state) if e["id"] == "x"] == [1]


def test_armor_piercing_deals_two_wounds_to_unarmored_enemies() -> None:
    """Keywords (Armor-Piercing): a Success Wounds an unarmored miniature twice (an
    Experiment 601, Life 2, dies in one hit)."""
    state = _board(
        ["sarge", "claudine", "quentin", "tane"],
        {"quentin": "2A"},
        [("x", "exp601", "2B")],
        scenario="lab-rats",
    )
    state = act(state, "quentin", "attack", unit="quentin", target="x", weapon="bow")
    state = act(state, "quentin", "choose", [B_TWO, B_STAR], option="roll")
    state = act(state, "quentin", "choose", [B_TWO], option="extra")
    state = act(state, "quentin", "choose", option="done")
    assert not [e for e in enemies(state) if e["id"] == "x"]


def _wolff(shooter: str) -> Any:
    """General Wolff alone in 8B (Mission 4), `shooter` alone in the adjacent 8A."""

    def edit(d: Data) -> None:
        d["enemies"] = [
            {
                "id": "w",
                "type": "wolff",
                "area": "8B",
                "wounds": 0,
                "behavior": 0,
                "active": True,
                "number": 0,
            }
        ]

    return _board(
        ["sarge", "claudine", "quentin", "tane"], {shooter: "8A"}, None, edit, "wolffs-lair"
    )


def test_armored_enemy_ignores_hits_without_armor_piercing() -> None:
    """Keywords (Armor / Armored): only Armor-Piercing Attacks can Wound General Wolff."""
    state = _wolff("sarge")
    state = act(state, "sarge", "attack", unit="sarge", target="w", weapon="revolver")
    state = act(state, "sarge", "choose", [B_TWO, B_STAR], option="roll")
    state = act(state, "sarge", "choose", [B_TWO], option="extra")
    assert "6 Successes against 6" in waiting(state).text
    state = act(state, "sarge", "choose", option="done")
    assert enemies(state) == [
        {
            "id": "w",
            "type": "wolff",
            "area": "8B",
            "wounds": 0,
            "behavior": 0,
            "active": True,
            "number": 0,
        }
    ]


def test_vrilmeister_changes_behaviour_instead_of_dying() -> None:
    """Enemy Wounds / Vrilmeister: Wounds reaching Life turn to the next Behaviour card; the
    miniature stays until the skull."""
    state = _wolff("quentin")
    state = act(state, "quentin", "attack", unit="quentin", target="w", weapon="bow")
    state = act(state, "quentin", "choose", [B_TWO, B_STAR], option="roll")
    state = act(state, "quentin", "choose", [B_ONE], option="extra")
    state = act(state, "quentin", "choose", option="done")
    left = enemies(state)
    assert [e["id"] for e in left] == ["w"]
    assert left[0]["behavior"] != 0
    assert left[0]["wounds"] == 0


def test_vril_sten_loses_shoddy_kit() -> None:
    """Vril a Weapon (worked example): the Vril Sten has more dice and no Shoddy Kit."""

    def edit(d: Data) -> None:
        d["heroes"]["claudine"]["weapons"]["sten"]["vril"] = True

    plain = next(p for p in view(fresh()).panels if p.seat == "claudine")
    state = patch(fresh(), edit)
    vril = next(p for p in view(state).panels if p.seat == "claudine")
    plain_line = next(line for line in plain.lines if line.startswith("sten:"))
    vril_line = next(line for line in vril.lines if line.startswith("sten:"))
    assert "shoddy" in plain_line
    assert "shoddy" not in vril_line
    assert "red" in vril_line


def test_awareness_not_again_for_the_same_hero_in_a_later_turn() -> None:
    """Awareness: the same Hero coming back into sight in a later turn does not set the Dog
    off again; another Hero, in a new Heroes' Turn, does."""

    def edit(d: Data) -> None:
        d["alarm"] = True
        for key, h in d["heroes"].items():
            h["area"] = {"hans": "1C", "claudine": "EN"}.get(key, "7B")
            h["orders"].update(defend="no-cards", elusive="off")

    state = _board(foes=[("d", "dog", "1B")], edit=edit)
    state = act(state, "hans", "move", [G_BLANK, G_BLANK], unit="hans", to="1D")

    def reset(d: Data) -> None:
        # Put both back where they stood, and pin the Dog for this Enemies' Turn.
        d["enemies"][0]["area"] = "1B"
        d["heroes"]["hans"]["area"] = "1C"
        d["suppress"] = ["1B"]

    state = end_heroes_turn(patch(state, reset))
    state, _ = advance(state, rolls=[])
    assert dump(state)["round"] == 2
    state, events = run(state, "hans", "move", unit="hans", to="1D")
    assert not any(e.kind == "rolled" or "Awareness" in e.text for e in events)
    state = act(state, "claudine", "move", unit="claudine", to="1C")
    state = patch(state, lambda d: d["heroes"]["claudine"].update(used_move=False))
    state, events = run(state, "claudine", "move", [G_BLANK, G_BLANK], unit="claudine", to="1D")
    # The Dog reacts to Claudine; its Target Hero then follows the usual rules (Hans here).
    assert any("Awareness" in e.text and "Claudine" in e.text for e in events)
    assert any(e.kind == "rolled" for e in events)

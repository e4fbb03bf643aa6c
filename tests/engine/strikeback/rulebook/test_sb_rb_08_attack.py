"""Strikeback rulebook chapter 8, Special Attack Powers: Lethal (8.1), Critical (8.2) and the
Mark Locking System (8.3).

Aliens attack through a staged Aliens turn with the expansion's Close Encounter #1 (All
aliens, "os-01") on top. Dice faces learnt from the narration: RED 6 = hit+bolt, 5 =
hit+hit+bolt, 4 = hit+jam; BLUE 6 = hit+shield, 5 = shield+bolt, 4 = bolt+ammo+jam (no shield).
The Marine starts os6 at Moon rank (Elite: one Energy Shield).
"""

from __future__ import annotations

from typing import Any

from sb_probe import (
    act,
    advance,
    areas_within_one,
    body,
    dump,
    edit,
    on_top,
    quiet_round,
    set_body,
    stage,
    texts,
    view,
    wounds,
)

HV_OFF = {"human-view": "off"}


def alien_attack(card: str, rolls: list[int], **marine: Any) -> tuple[Any, str]:
    state = stage("os6", agents={"marine": "E7"}, aliens=[("a1", card, "F7")], options=HV_OFF)
    if marine:
        state = set_body(state, "marine", **marine)
    ended = act(state, "end-turn", unit="marine").state
    step = advance(on_top(ended, "ce_deck", "os-01"), [*rolls, *[6] * 60], [0] * 60)
    return step.state, texts(step.events)


def test_lethal_skips_the_defend_roll_and_shield_absorbs() -> None:
    """8.1 (the Crimson Nightmare example): 4 Lethal hits, the Energy Shield absorbs one, no
    Blue dice are rolled, the agent suffers 3 wounds."""
    state, log = alien_attack("crimson-nightmare-green", [6, 5, 4])
    bite = log.split("\n")
    defence = next(line for line in bite if line.startswith("Chromium (Marine) Energy Shield"))
    assert "defends with" not in defence
    assert wounds(state, "marine") == 3


def test_critical_drawn_when_the_attack_wounds() -> None:
    """8.2: an attack with a Critical effect that deals at least one wound draws a Critical
    token onto the target (Xeno-Delta's lock-on against a marked agent: Critical 1)."""
    state, _ = alien_attack("xeno-delta-green", [6, 6, 6, 4, 4], mark=1)
    assert wounds(state, "marine") == 1
    assert len(body(state, "marine")["criticals"]) == 1


def test_no_critical_when_the_attack_is_fully_defended() -> None:
    """8.2: if the attack is entirely avoided no Critical token is drawn."""
    state, _ = alien_attack("xeno-delta-green", [6, 6, 6, 6, 6], mark=1)
    assert wounds(state, "marine") == 0
    assert body(state, "marine")["criticals"] == []


def test_no_critical_from_a_bolt_critical_weapon_fully_defended() -> None:
    """8.2: the Xeno-Gamma's Energy Axe (Bolt: Critical 1) wholly parried draws nothing."""
    state, log = alien_attack("xeno-gamma-green", [6, 6, 6, 6, 4])
    assert "Bolt: Critical 1" in log
    assert wounds(state, "marine") == 0
    assert body(state, "marine")["criticals"] == []


def test_same_critical_effect_twice_newest_discarded() -> None:
    """8.2.3: a target cannot hold the same Critical effect twice: holding "-2 ATK" and drawing
    "-1 ATK", the newcomer goes to the discard pile and nothing else changes."""
    state, _ = alien_attack("xeno-delta-green", [6, 6, 6, 4, 4], mark=1, criticals=["c2-atk"])
    assert body(state, "marine")["criticals"] == ["c2-atk"]
    assert "c1-atk" in dump(state)["strikeback"]["piles"]["1"]["discard"]


def test_mark_2_placed_by_a_bolt() -> None:
    """8.3: the Mark 2 power places a Mark 2 token on the target (Xeno-Delta Wrist Gun Bolt).
    One quiet Refresh later it reads Mark 1, so it was placed at 2."""
    state, log = alien_attack("xeno-delta-green", [5, 5, 5])
    assert "Bolt: Mark 2" in log
    assert body(state, "marine")["mark"] == 1  # flipped once in the Refresh that followed


def test_mark_2_on_a_mark_1_flips_it_to_2() -> None:
    """8.3: a Mark 2 used on a target already holding Mark 1 flips the token to Mark 2 (seen
    as Mark 1 after the next Refresh instead of none)."""
    state, _ = alien_attack("xeno-delta-green", [5, 5, 5], mark=1)
    assert body(state, "marine")["mark"] == 1


def test_greater_critical_replaces_the_lesser_which_is_discarded() -> None:
    """8.2.3: a greater effect replaces a lesser one of the same type, and the lesser token
    goes to its discard pile (holding "-1 ATK", the Blue Xeno-Gamma's Critical 2 brings
    "-2 ATK")."""
    state, log = alien_attack("xeno-gamma-blue", [6, 6, 6, 6, 4, 4, 4], criticals=["c1-atk"])
    assert "Bolt: Critical 2" in log
    assert body(state, "marine")["criticals"] == ["c2-atk"]
    assert "c1-atk" in dump(state)["strikeback"]["piles"]["1"]["discard"]


def test_temporary_critical_ends_in_the_next_refresh() -> None:
    """8.2.2: a temporary (blue) Critical lasts until the next Refresh and is then discarded
    (Paralyzed is temporary)."""
    state = set_body(
        stage("os6", agents={"marine": "E7"}, options=HV_OFF), "marine", criticals=["c1-paralyze"]
    )
    after = quiet_round(state)
    assert body(after, "marine")["criticals"] == []


def test_permanent_critical_stays_after_the_refresh() -> None:
    """8.2.2: a permanent (red) Critical stays until the end of the mission (-X ATK dice)."""
    state = set_body(
        stage("os6", agents={"marine": "E7"}, options=HV_OFF), "marine", criticals=["c1-atk"]
    )
    after = quiet_round(state)
    assert body(after, "marine")["criticals"] == ["c1-atk"]


def test_explosion_hits_the_area_and_the_areas_one_away() -> None:
    """8.4: an Explosion hits the target, every target in its Area and every target within
    one Area (by a legal walking path) with the same Hits; farther ones are untouched (the
    Nova Launcher, the issue's 3-ammo weapon, at G7: H8 shares its Area, F5 is one Area away,
    I3 two)."""
    state = stage(
        "os1",
        ("marine", "biotech"),
        agents={"marine": "E7", "biotech": "B9"},
        aliens=[
            ("a1", "xeno-beta-green-1", "G7"),
            ("a2", "xeno-beta-green-2", "H8"),
            ("a3", "spine-critter-green-1", "F5"),
            ("a4", "aracnos-green-1", "I3"),
        ],
        options=HV_OFF,
    )
    near = areas_within_one(state, "G7")
    areas = {c.coord: c.area for c in view(state).cells}
    assert areas["H8"] == areas["G7"] and areas["F5"] in near and areas["I3"] not in near
    state = edit(
        state,
        lambda d: d["agents"]["marine"].update(
            weapons=[{"key": "nova-launcher", "ammo": 3, "jammed": False}]
        ),
    )
    step = act(
        state, "attack", [6, 6, 6, *[4] * 30], unit="marine", target="a1", weapon="nova-launcher"
    )
    log = texts(step.events)
    for uid in ("a1", "a2", "a3"):
        assert f" {uid} defends with" in log or f" {uid} takes" in log
    assert " a4 " not in log


def area_heal() -> tuple[Any, str]:
    """The Biotech (Regen Field Projector, our Area Healing weapon) heals the Marine at E8;
    the Biotech (D8) and the Infiltrator (E7) share that Area, the Sniper (F8) stands in the
    next one. Everyone starts with 3 wounds."""
    state = stage(
        "os1",
        ("biotech", "marine", "infiltrator", "sniper"),
        agents={"biotech": "D8", "marine": "E8", "infiltrator": "E7", "sniper": "F8"},
        options=HV_OFF,
    )
    areas = {c.coord: c.area for c in view(state).cells}
    assert areas["D8"] == areas["E8"] == areas["E7"] != areas["F8"]

    def change(data: dict[str, Any]) -> None:
        data["agents"]["biotech"]["weapons"][1] = {
            "key": "regen-projector",
            "ammo": 3,
            "jammed": False,
        }
        for seat in ("biotech", "marine", "infiltrator", "sniper"):
            data["agents"][seat]["wounds"] = 3

    step = act(
        edit(state, change),
        "attack",
        [6] * 10,
        seat="biotech",
        unit="biotech",
        target="marine",
        weapon="regen-projector",
    )
    return step.state, texts(step.events)


def test_area_healing_heals_every_other_agent_in_the_targets_area() -> None:
    """8.5: the healing applies to the target and to every other agent in the same Area (the
    healer included, as he stands there): all three lose the same wounds."""
    state, log = area_heal()
    assert "Chromium (Marine) heals 3" in log
    assert wounds(state, "marine") == wounds(state, "infiltrator") == wounds(state, "biotech") == 0


def test_area_healing_stops_at_the_edge_of_the_targets_area() -> None:
    """8.5: only the target's Area is healed; an agent in the next Area keeps his wounds."""
    state, log = area_heal()
    assert "(Sniper) heals" not in log
    assert wounds(state, "sniper") == 3

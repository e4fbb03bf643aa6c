"""Rulebook chapter "The Agents" - Combat, weapons, Ammo, Jam, Energy Shield and Alien Death.

Die faces are learnt black-box from the attack narration: a BLUE die reads 1 alien,
2 hit+hit+shield, 3 hit+hit+shield, 4 bolt+ammo+jam, 5 shield+bolt, 6 hit+shield; a RED die
1 alien, 2 hit+hit+bolt, 3 hit+ammo+gd, 4 hit+jam, 5 hit+hit+bolt, 6 hit+bolt+gd. The first
probe checks those counts against the rulebook's symbol table. Targets stand in open ground
north-east of Mission 1's shuttle (I3 and the Areas around it), Human View off.
"""

from __future__ import annotations

from typing import Any

import pytest
from galaxy_probe import (
    act,
    aliens_turn,
    can,
    do,
    dump,
    edit,
    fig,
    header,
    legal,
    stage,
    texts,
    view,
    waiting,
)

from engine.core.errors import RuleError
from engine.core.game import Action

HV_OFF = {"human-view": "off"}
BLUE = {
    1: "alien",
    2: "hit+hit+shield",
    3: "hit+hit+shield",
    4: "bolt+ammo+jam",
    5: "shield+bolt",
    6: "hit+shield",
}
RED = {
    1: "alien",
    2: "hit+hit+bolt",
    3: "hit+ammo+gd",
    4: "hit+jam",
    5: "hit+hit+bolt",
    6: "hit+bolt+gd",
}
# What the narration says of two BLUE dice, or three RED ones, all showing that face.
TWO_BLUE = {
    1: "2 Aliens",
    2: "4 Hits and 2 Shields",
    3: "4 Hits and 2 Shields",
    4: "2 Bolts, 2 Ammo and 2 Jams",
    5: "2 Shields and 2 Bolts",
    6: "2 Hits and 2 Shields",
}
THREE_RED = {
    1: "3 Aliens",
    2: "6 Hits and 3 Bolts",
    3: "3 Hits, 3 GDs and 3 Ammo",
    4: "3 Hits and 3 Jams",
    5: "6 Hits and 3 Bolts",
    6: "3 Hits, 3 Bolts and 3 GDs",
}


def lines(state: Any, seat: str = "marine") -> list[str]:
    return next(p.lines for p in view(state, seat).panels if p.seat == seat)


def weapon_line(state: Any, name: str, seat: str = "marine") -> str:
    return next(x for x in lines(state, seat) if x.startswith(name))


def shoot(
    state: Any, rolls: list[int], weapon: str = "assault-rifle", seat: str = "marine", **more: str
) -> Any:
    args = {"unit": seat, "target": "x1", "weapon": weapon, **more}
    return do(state, Action(verb="attack", args=args), rolls, seat=seat)


def health(state: Any, uid: str = "x1") -> int | None:
    f = fig(state, uid)
    return None if f is None else f.health


def test_dice_symbol_counts_match_the_table() -> None:
    """Combat, dice table: BLUE has Hit x5, Shield x4, Bolt x2, Ammo/Jam/Alien x1; RED has Hit x7,
    Bolt x3, GD x2, Ammo/Jam/Alien x1 and no Shield."""
    # The faces are read from the engine's narration of a pistol (BLUE) and rifle (RED) attack.
    state = stage(agents={"marine": "I3"}, aliens=[("x1", "nexus-red-1", "I6")], options=HV_OFF)
    for face, want in TWO_BLUE.items():
        step = shoot(state, [face, face] + [1] * 12, weapon="service-pistol")
        assert f"Service Pistol: {want} - " in texts(step.events)
    for face, want in THREE_RED.items():
        step = shoot(state, [face] * 3 + [1] * 12)
        assert f"Assault Rifle: {want} - " in texts(step.events)

    def count(table: dict[int, str], symbol: str) -> int:
        return sum(f.split("+").count(symbol) for f in table.values())

    assert [count(BLUE, s) for s in ("hit", "shield", "bolt", "ammo", "jam", "alien", "gd")] == [
        5,
        4,
        2,
        1,
        1,
        1,
        0,
    ]
    assert [count(RED, s) for s in ("hit", "shield", "bolt", "ammo", "jam", "alien", "gd")] == [
        7,
        0,
        3,
        1,
        1,
        1,
        2,
    ]


def test_combat_example_1_marine_vs_blue_aracnos() -> None:
    """Combat example 1: 4 Hits with one Ammo and a Bolt (Def -1): the Aracnos rolls 3 dice, one
    Shield plus one from its armor Bolt (once for two Bolts) cancel 2, 2 Wounds land."""
    state = stage(agents={"marine": "I3"}, aliens=[("x1", "aracnos-blue-1", "I6")], options=HV_OFF)
    before = health(state)
    step = shoot(state, [2, 3, 6, 6, 4, 4])
    assert "- 4 Hits" in texts(step.events)
    assert "defends with 3 dice: a Hit, a Shield, 2 Bolts, 2 Ammo and 2 Jams;" in texts(step.events)
    assert before is not None and health(step.state) == before - 2
    assert "ammo 3/4" in weapon_line(step.state, "Assault Rifle")


def test_combat_example_2_hulk_vs_blue_xeno_beta() -> None:
    """Combat example 2: Improved Vulcan, 3 Hits and a Jam; the Ammo face is ignored (the Vulcan
    spends Ammo itself); 3 more Ammo make 6 Hits; the Xeno-Beta's Shield token takes the first Hit,
    one rolled Shield another, 4 Wounds kill it although its Regenerate Bolt came up."""
    # Staged: the Hulk carries the Improved Vulcan (6 Ammo) and the BLUE Xeno-Beta has its
    # Energy Shield token up (the dump edit that places it cannot know its card's value).
    state = stage(
        seats=("hulk",),
        agents={"hulk": "I3"},
        aliens=[("x1", "xeno-beta-blue-1", "I4")],
        options=HV_OFF,
    )

    def arm(data: dict[str, Any]) -> None:
        data["agents"]["hulk"]["weapons"][0] = {
            "key": "improved-vulcan",
            "ammo": 6,
            "jammed": False,
        }
        data["aliens"][0]["energy"] = 1

    state = edit(state, arm)
    step = shoot(state, [4, 3, 3, 1], weapon="improved-vulcan", seat="hulk")
    assert "- 3 Hits" in texts(step.events)
    assert waiting(step.state).kind == "choice"
    final = act(step.state, "choose", [6, 4, 1, 1, 1], seat="hulk", option="3")
    said = texts(final.events)
    assert "6 Hits" in said
    # 6 Hits, the Shield token removes one before rolling: 5 dice.
    assert "defends with 5 dice: a Hit, a Shield, a Bolt, an Ammo, a Jam and 3 Aliens;" in said
    assert fig(final.state, "x1") is None
    assert "ammo 2/8" in weapon_line(final.state, "Improved Vulcan", seat="hulk")
    assert "JAMMED" in weapon_line(final.state, "Improved Vulcan", seat="hulk")


def test_defender_rolls_one_die_per_hit() -> None:
    """Defend: one BLUE die per successful Hit; no Hits means no Defend roll."""
    state = stage(agents={"marine": "I3"}, aliens=[("x1", "nexus-red-1", "I6")], options=HV_OFF)
    miss = shoot(state, [1, 1, 1])
    assert "defends with no dice" in texts(miss.events)
    two = shoot(state, [3, 4, 1, 1, 1])
    assert "defends with 2 dice: 2 Aliens." in texts(two.events)


def test_each_shield_cancels_one_hit() -> None:
    """Defend: each Shield cancels one Hit; each remaining Hit is one Wound."""
    state = stage(agents={"marine": "I3"}, aliens=[("x1", "nexus-red-1", "I6")], options=HV_OFF)
    before = health(state)
    step = shoot(state, [3, 4, 1, 6, 1])  # 2 Hits (no Bolt); one Shield
    assert before is not None and health(step.state) == before - 1


def test_only_one_ammo_per_hit_roll() -> None:
    """Ammo: an Ammo result discards one token, at most one per Hit roll."""
    state = stage(agents={"marine": "I3"}, aliens=[("x1", "nexus-red-1", "I6")], options=HV_OFF)
    step = shoot(state, [3, 3, 3, 1, 1, 1])
    assert "ammo 3/4" in weapon_line(step.state, "Assault Rifle")


def test_bolt_effect_applies_once() -> None:
    """Combat: a Bolt effect applies once however many Bolts are rolled (Rifle: Def -1)."""
    state = stage(agents={"marine": "I3"}, aliens=[("x1", "nexus-red-1", "I6")], options=HV_OFF)
    step = shoot(state, [2, 2, 2] + [1] * 6)  # 6 Hits, 3 Bolts
    assert "defends with 5 dice: 5 Aliens." in texts(step.events)


def test_jam_stops_the_weapon_until_unjammed() -> None:
    """Jam: a jammed ranged weapon cannot attack again until an Unjam action clears it."""
    state = stage(agents={"marine": "I3"}, aliens=[("x1", "nexus-red-1", "I6")], options=HV_OFF)
    jammed = edit(state, lambda d: d["agents"]["marine"]["weapons"][0].update(jammed=True))
    assert not [
        a for a in legal(jammed) if a.verb == "attack" and a.args.get("weapon") == "assault-rifle"
    ]
    assert [
        a for a in legal(jammed) if a.verb == "attack" and a.args.get("weapon") == "service-pistol"
    ]
    assert [a for a in legal(jammed) if a.verb == "act" and "unjam" in a.args.get("what", "")]


def test_jam_result_jams_after_the_attack() -> None:
    """Jam: the attack with a Jam result still resolves, then the weapon is jammed."""
    state = stage(agents={"marine": "I3"}, aliens=[("x1", "nexus-red-1", "I6")], options=HV_OFF)
    step = shoot(state, [4, 1, 1, 1])
    assert "- 1 Hit " in texts(step.events)
    assert "JAMMED" in weapon_line(step.state, "Assault Rifle")


def test_no_ammo_no_shot() -> None:
    """Ammo: a weapon with ammunition needs at least one Ammo token to shoot."""
    state = stage(agents={"marine": "I3"}, aliens=[("x1", "nexus-red-1", "I6")], options=HV_OFF)
    empty = edit(state, lambda d: d["agents"]["marine"]["weapons"][0].update(ammo=0))
    assert not [
        a for a in legal(empty) if a.verb == "attack" and a.args.get("weapon") == "assault-rifle"
    ]


def test_melee_ignores_ammo_and_jam() -> None:
    """Melee weapons: no ammo and never jam; Ammo and Jam results are ignored."""
    state = stage(
        seats=("infiltrator",),
        agents={"infiltrator": "I3"},
        aliens=[("x1", "nexus-red-1", "I4")],
        options=HV_OFF,
    )
    step = shoot(state, [3, 4, 1, 1, 1], weapon="mono-blades", seat="infiltrator")
    assert "- 2 Hits" in texts(step.events)
    assert "JAMMED" not in weapon_line(step.state, "Mono Blades", seat="infiltrator")
    assert can(edit(step.state, lambda d: None), "end-turn", seat="infiltrator", unit="infiltrator")


def test_ranged_weapon_range_counts_areas() -> None:
    """Weapons: Range is the maximum distance in Areas (Pistol 1, Rifle 2)."""
    near = stage(agents={"marine": "I3"}, aliens=[("x1", "nexus-red-1", "I6")], options=HV_OFF)
    far = stage(agents={"marine": "I3"}, aliens=[("x1", "nexus-red-1", "J9")], options=HV_OFF)

    def offered(state: Any) -> set[str]:
        return {a.args["weapon"] for a in legal(state) if a.verb == "attack"}

    assert offered(near) == {"assault-rifle", "service-pistol"}
    assert offered(far) == {"assault-rifle"}


def test_no_friendly_fire_by_default() -> None:
    """Friendly Fire (default off): an agent can never target another agent with a weapon."""
    state = stage(
        seats=("marine", "biotech"), agents={"marine": "I3", "biotech": "I6"}, options=HV_OFF
    )
    assert not [a for a in legal(state) if a.verb == "attack" and a.args.get("target") == "biotech"]


def test_friendly_fire_option_allows_targeting_agents() -> None:
    """Friendly Fire (optional): with it on, any agent may be targeted by other agents."""
    state = stage(
        seats=("marine", "biotech"),
        agents={"marine": "I3", "biotech": "I6"},
        options={"human-view": "off", "friendly-fire": "on"},
    )
    assert [a for a in legal(state) if a.verb == "attack" and a.args.get("target") == "biotech"]


def test_healing_weapon_targets_agents() -> None:
    """Healing weapons: the only weapons that target agents (others or the healer himself)."""
    state = stage(
        seats=("biotech", "marine"), agents={"biotech": "I3", "marine": "I4"}, options=HV_OFF
    )
    state = edit(state, lambda d: d["agents"]["marine"].update(wounds=2))
    heals = [
        a
        for a in legal(state, "biotech")
        if a.verb == "attack" and a.args.get("weapon") == "nano-injector"
    ]
    assert {a.args["target"] for a in heals} >= {"marine"}


def test_area_damage_hits_every_alien_in_the_area() -> None:
    """Area Damage: every target in the Area defends separately against the rolled Hits."""
    state = stage(
        agents={"marine": "I3"},
        aliens=[("x1", "aracnos-green-1", "I6"), ("x2", "aracnos-green-2", "J6")],
        options=HV_OFF,
    )
    b1, b2 = health(state, "x1"), health(state, "x2")
    step = shoot(state, [3, 4, 1] + [1] * 4, mode="area")
    assert b1 is not None and b2 is not None
    assert health(step.state, "x1") == b1 - 2
    assert health(step.state, "x2") == b2 - 2


def test_first_kill_of_round_gives_one_alien_tech() -> None:
    """Alien Death / Alien Tech: the first alien killed in a round gives one fragment, only one."""
    state = stage(
        agents={"marine": "I3"},
        aliens=[("x1", "xeno-beta-green-1", "I6"), ("x2", "xeno-beta-green-2", "J6")],
        options=HV_OFF,
    )
    assert header(state)["alien tech"] == "0/4"
    step = shoot(state, [2, 2, 1] + [1] * 6, mode="area")  # 4 Hits, Def -1: 3 dice each
    assert fig(step.state, "x1") is None and fig(step.state, "x2") is None
    assert header(step.state)["alien tech"] == "1/4"
    assert header(step.state)["kills"] == "2 of 2"  # against m1's target for one agent


def test_alien_dies_when_wounds_equal_health() -> None:
    """Alien Death: wounds equal to its Health Points kill the alien and remove its figure."""
    state = stage(
        agents={"marine": "I3"}, aliens=[("x1", "xeno-beta-green-1", "I6")], options=HV_OFF
    )
    hp = health(state)
    assert hp == 3
    step = shoot(state, [3, 4, 1, 1, 1])  # 2 Hits, no Shields: 2 Wounds
    assert health(step.state) == 1
    assert dump(step.state)["aliens"][0]["wounds"] == 2
    dead = shoot(edit(state, lambda d: d["aliens"][0].update(wounds=2)), [3, 1, 1, 1])
    assert fig(dead.state, "x1") is None
    assert "dies" in texts(dead.events)


@pytest.mark.parametrize("face", [1, 3])
def test_grenade_uses_action_not_combat(face: int) -> None:
    """Grenades: a grenade is a device, thrown with the Action; Combat stays available."""
    state = stage(agents={"marine": "I3"}, aliens=[("x1", "nexus-red-1", "I6")], options=HV_OFF)
    grenade = next(
        a for a in legal(state) if a.verb == "act" and a.args.get("what") == "frag-grenade"
    )
    step = do(state, grenade, [face] * 3 + [1] * 6)
    assert [a for a in legal(step.state) if a.verb == "attack"]
    assert "Action used" in " ".join(lines(step.state)) or not [
        a for a in legal(step.state) if a.verb == "act" and a.args.get("what") == "frag-grenade"
    ]


def test_melee_weapon_only_at_distance_zero() -> None:
    """Melee weapons: range 0, so only against an adjacent target."""
    far = stage(
        seats=("infiltrator",),
        agents={"infiltrator": "I3"},
        aliens=[("x1", "nexus-red-1", "I6")],
        options=HV_OFF,
    )
    assert {a.args["weapon"] for a in legal(far, "infiltrator") if a.verb == "attack"} == {
        "silenced-smg"
    }
    near = stage(
        seats=("infiltrator",),
        agents={"infiltrator": "I3"},
        aliens=[("x1", "nexus-red-1", "I4")],
        options=HV_OFF,
    )
    assert "mono-blades" in {
        a.args["weapon"] for a in legal(near, "infiltrator") if a.verb == "attack"
    }


def test_healing_weapon_heals_one_wound_per_hit() -> None:
    """Healing weapons: one Wound healed for each Hit rolled."""
    state = stage(
        seats=("biotech", "marine"), agents={"biotech": "I3", "marine": "I4"}, options=HV_OFF
    )
    state = edit(state, lambda d: d["agents"]["marine"].update(wounds=4))
    heal = next(
        a
        for a in legal(state, "biotech")
        if a.verb == "attack" and a.args.get("target") == "marine"
    )
    step = do(state, heal, [6, 1], seat="biotech")  # one Hit
    assert fig(step.state, "marine").health == 3  # type: ignore[union-attr]
    step = do(state, heal, [6, 6], seat="biotech")  # two Hits
    assert fig(step.state, "marine").health == 4  # type: ignore[union-attr]


def test_ranged_weapon_at_adjacent_target() -> None:
    """Ranged Weapons: a ranged weapon may shoot an adjacent target (still a ranged attack)."""
    state = stage(agents={"marine": "I3"}, aliens=[("x1", "nexus-red-1", "I4")], options=HV_OFF)
    assert {a.args["weapon"] for a in legal(state) if a.verb == "attack"} >= {
        "assault-rifle",
        "service-pistol",
    }


def test_titanium_armor_counts_every_bolt() -> None:
    """Combat: a Bolt effect applies once unless noted; Titanium's armor counts each Bolt."""
    state = stage(
        seats=("hulk",),
        agents={"hulk": "I3"},
        aliens=[("x1", "xeno-beta-green-1", "I6")],
        options=HV_OFF,
    )
    state = edit(state, lambda d: d["agents"]["hulk"].update(guard=False))
    step = aliens_turn(state, "ce01", [2, 2, 4, 4, 1, 1] + [6] * 20, seat="hulk")  # 4 Hits; 2 Bolts
    assert fig(step.state, "hulk").health == 6  # type: ignore[union-attr]


def test_mercury_armor_bolt_against_melee() -> None:
    """Damage and Special Effects: Agent Mercury's armor Bolt protects her against melee attacks."""
    state = stage(
        seats=("infiltrator",),
        agents={"infiltrator": "I3"},
        aliens=[("x2", "aracnos-green-1", "I4")],
        options=HV_OFF,
    )
    state = edit(state, lambda d: d["agents"]["infiltrator"].update(guard=False))
    step = aliens_turn(
        state, "ce05", [4, 1, 4] + [6] * 20, seat="infiltrator"
    )  # 1 melee Hit; she rolls a Bolt
    assert "with Mandibles" in texts(step.events)
    assert fig(step.state, "infiltrator").health == 5  # type: ignore[union-attr]


def test_acid_poison_is_basic_damage_without_armor_bolt() -> None:
    """Damage and Special Effects example: the Spine Critter's Acid Poison is Basic damage, so
    Mercury's armor Bolt does not trigger; only Shields count."""
    state = stage(
        seats=("infiltrator",),
        agents={"infiltrator": "I3"},
        aliens=[("x1", "spine-critter-green-1", "I4")],
        options=HV_OFF,
    )
    state = edit(state, lambda d: d["aliens"][0].update(wounds=1))
    step = shoot(state, [3, 1, 1, 1, 4, 4, 4], weapon="mono-blades", seat="infiltrator")
    said = texts(step.events)
    assert "Spine Critter 1 dies" in said
    assert "Acid" in said or "acid" in said
    assert fig(step.state, "infiltrator").health == 4  # type: ignore[union-attr]


def test_healer_may_target_himself() -> None:
    """Healing weapons: they may target the healer himself."""
    state = stage(seats=("biotech",), agents={"biotech": "I3"}, options=HV_OFF)
    state = edit(state, lambda d: d["agents"]["biotech"].update(wounds=2))
    heals = [
        a
        for a in legal(state, "biotech")
        if a.verb == "attack" and a.args.get("weapon") == "nano-injector"
    ]
    assert [a.args["target"] for a in heals] == ["biotech"]


def test_area_damage_spares_agents_without_friendly_fire() -> None:
    """Combat: no friendly fire by default, not even with Area Damage on an agent's Area."""
    state = stage(
        seats=("marine", "biotech"),
        agents={"marine": "I5", "biotech": "J6"},
        aliens=[("x1", "nexus-red-1", "I6")],
        options=HV_OFF,
    )
    step = shoot(state, [3, 4, 1] + [1] * 8, mode="area")
    assert "Thorium (Biotech) defends" not in texts(step.events)
    assert fig(step.state, "biotech").health == 5  # type: ignore[union-attr]


def test_area_attack_without_a_target_says_so_in_words() -> None:
    """Area Damage aims at one target and strikes its Area: an Area attack naming no alien is
    refused in words (not an empty alien name)."""
    state = stage(
        agents={"marine": "I3"},
        aliens=[("x1", "aracnos-green-1", "I6")],
        options=HV_OFF,
    )
    with pytest.raises(RuleError) as refused:
        shoot(state, [3, 4, 1], target="", mode="area")
    assert "''" not in str(refused.value)
    assert "name the alien" in str(refused.value) and "Area" in str(refused.value)

"""Hero selection: a mission's needs order the role list, explain it, and fill the commando."""

from __future__ import annotations

import pytest
from reich_helpers import GAME, act, bare, put

from engine.core.dice import ScriptedDice, SeededDice
from engine.core.errors import ContentError
from engine.reich import rules
from engine.reich.commando import commando, fit, role_order
from engine.reich.content import MissionDef, _validate, load_content


def test_wolffs_lair_lists_the_best_piercing_hero_of_each_team_first() -> None:
    mission = load_content().missions["wolffs-lair"]
    assert mission.needs == ["armor_piercing"]
    assert role_order(mission)[:4] == ["brad", "quentin", "irena", "bjorn"]
    info = next(s for s in GAME.scenarios() if s.key == "wolffs-lair")
    described = {r.key: r.description for r in info.roles}
    assert "Bow is Armor-Piercing" in described["quentin"]
    assert "suits this mission" not in described["sarge"]
    assert "Armor-Piercing" in info.summary


def test_missions_without_needs_keep_the_plain_order() -> None:
    mission = load_content().missions["radio-silence"]
    assert role_order(mission)[:4] == ["sarge", "hans", "claudine", "tane"]


def test_commando_completion_prefers_heroes_that_meet_the_need() -> None:
    mission = load_content().missions["wolffs-lair"]
    team = commando(["sarge"], mission)
    assert [h for h, _ in team] == ["sarge", "quentin", "irena", "bjorn"]
    assert {seat for _, seat in team} == {"sarge"}


def test_fit_reasons() -> None:
    heroes = load_content().heroes
    assert fit(heroes["quentin"], "armor_piercing")[0] == 3
    assert fit(heroes["brad"], "armor_piercing")[0] == 2
    assert fit(heroes["irena"], "armor_piercing")[0] == 1
    assert fit(heroes["sarge"], "armor_piercing") == (0, "")


def test_panzerfaust_lies_in_wolffs_lair_and_pierces_armor() -> None:
    state = GAME.new("wolffs-lair", ["sarge"], {"difficulty": "cadet"}, SeededDice(3))
    assert any(g.card == "panzerfaust" and g.area == "8E" for g in state.ground)
    state = bare(["sarge"], mission="wolffs-lair", area="EN")
    state.heroes["sarge"].loot = ["panzerfaust"]
    put(state, "ubersoldat", "8C", "u1")
    d = ScriptedDice([5, 5, 5, 1])
    state, _ = act(state, "sarge", "act", d, unit="sarge", what="loot", target="panzerfaust")
    state, _ = act(state, "sarge", "attack", d, unit="sarge", target="u1", weapon="revolver")
    state, _ = act(state, "sarge", "choose", d, option="roll")
    state, _ = act(state, "sarge", "choose", d, option="done")
    u1 = rules.find_enemy(state, "u1")
    assert u1 is not None and u1.wounds == 1  # 6 Successes, Armor-Piercing: one Wound


def test_unknown_mission_need_is_rejected() -> None:
    content = load_content().model_copy(deep=True)
    mission = content.missions["radio-silence"]
    content.missions["radio-silence"] = MissionDef.model_validate(
        {**mission.model_dump(), "needs": ["flying"]}
    )
    with pytest.raises(ContentError, match="needs"):
        _validate(content)

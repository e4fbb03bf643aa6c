"""The authored token counts, and the effect kinds behind devices, tactics and skills."""

from __future__ import annotations

import pytest
from galaxy_helpers import blank, put_agent, put_alien

from engine.core.dice import ScriptedDice, SeededDice
from engine.core.events import Event
from engine.core.game import Action
from engine.galaxy import GAME
from engine.galaxy.content import Device, Power, content
from engine.galaxy.effects import effect_problem
from engine.galaxy.notation import EFFECT_KINDS, is_known
from engine.galaxy.phases import refresh
from engine.galaxy.state import GalaxyState


def act(state: GalaxyState, seat: str, rolls: list[int] | None = None, **args: str) -> GalaxyState:
    action = Action(verb="act", args={"unit": seat, **args})
    return GAME.apply(state, seat, action, ScriptedDice(rolls or [])).state


def whats(state: GalaxyState, seat: str) -> set[str]:
    return {a.args.get("what", "") for a in GAME.legal_actions(state, seat)}


def test_device_tokens_add_up_to_the_box() -> None:
    assert sum(d.count for d in content().devices.values()) == 23


def test_every_card_names_an_implemented_effect() -> None:
    cards: list[Device | Power] = [*content().devices.values(), *content().powers.values()]
    for card in cards:
        assert is_known(card.effect), card.key
    assert "grenade" in EFFECT_KINDS


def test_trauma_kit_heals_three_on_an_adjacent_agent() -> None:
    state = blank(["marine", "hulk"])
    put_agent(state, "marine", "D4")
    put_agent(state, "hulk", "C4", wounds=4)
    state.agents["marine"].devices = ["trauma-kit"]
    legal = [a for a in GAME.legal_actions(state, "marine") if a.args.get("what") == "trauma-kit"]
    assert [a.args["target"] for a in legal] == ["hulk"]
    state = act(state, "marine", what="trauma-kit", target="hulk")
    assert state.agents["hulk"].wounds == 1 and state.agents["marine"].devices == []


def test_ammo_belt_reloads_every_weapon() -> None:
    state = blank(["marine"])
    put_agent(state, "marine", "D4")
    marine = state.agents["marine"]
    marine.devices = ["ammo-belt"]
    for ws in marine.weapons:
        ws.ammo = 0
    state = act(state, "marine", what="ammo-belt")
    assert [ws.ammo for ws in state.agents["marine"].weapons] == [2, 2]


def test_shield_cell_gives_energy_until_refresh() -> None:
    state = blank(["marine"])
    put_agent(state, "marine", "D4")
    state.agents["marine"].devices = ["shield-cell"]
    state = act(state, "marine", what="shield-cell")
    assert state.agents["marine"].energy == 2
    events: list[Event] = []
    refresh(state, events)
    assert state.agents["marine"].energy == 0


def test_solvent_spray_needs_a_jam_and_clears_it() -> None:
    state = blank(["sniper"])
    put_agent(state, "sniper", "D4")
    sniper = state.agents["sniper"]
    sniper.devices = ["solvent-spray"]
    assert "solvent-spray" not in whats(state, "sniper")
    assert effect_problem(state, sniper, "unjam") == "has no jammed weapon"
    sniper.weapons[0].jammed = True
    state = act(state, "sniper", what="solvent-spray")
    assert not any(ws.jammed for ws in state.agents["sniper"].weapons)


def test_smoke_canister_breaks_off_melee() -> None:
    state = blank(["sniper"])
    put_agent(state, "sniper", "D4")
    state.agents["sniper"].devices = ["smoke-canister"]
    assert "smoke-canister" not in whats(state, "sniper")  # not Engaged
    put_alien(state, "xeno-beta-green-1", "C4")
    state = act(state, "sniper", what="smoke-canister")
    assert state.agents["sniper"].evaded
    assert any(a.verb == "move" for a in GAME.legal_actions(state, "sniper"))


def test_stun_grenade_paralyzes_on_a_hit() -> None:
    state = blank(["marine"])
    put_agent(state, "marine", "D4")
    state.agents["marine"].devices = ["stun-grenade"]
    beta = put_alien(state, "xeno-beta-green-1", "B3")
    # BLUE 2 dice: face 2 (2 Hits) and face 4 (the Bolt); the Xeno-Beta rolls two blanks
    state = act(state, "marine", [2, 4, 1, 1], what="stun-grenade", target=beta.id)
    assert state.aliens[0].wounds == 2 and "paralyze" in state.aliens[0].conditions


def test_grenadier_is_asked_and_defaults_to_the_dice_without_a_hit() -> None:
    state = blank(["marine"])
    put_agent(state, "marine", "D4")
    marine = state.agents["marine"]
    marine.devices = ["frag-grenade"]
    marine.skills = ["grenadier"]
    beta = put_alien(state, "xeno-beta-green-1", "B3")
    # RED 2 dice: an Alien and 2 Hits; the Grenadier is asked, the default re-rolls the die
    # without a Hit (to 2 Hits); defence 4 Alien faces
    state = act(state, "marine", [1, 5], what="frag-grenade", target=beta.id)
    assert state.pending is not None and state.pending.kind == "grenadier"
    default = GAME.waiting_on(state).default
    assert default is not None and default.args == {"option": "dice-1"}
    state = GAME.apply(state, "marine", default, ScriptedDice([2, 1, 1, 1, 1])).state
    assert not state.aliens  # 4 Wounds kill the green Xeno-Beta


def test_gaining_grenadier_hands_out_three_grenades() -> None:
    state = GAME.new("m1", ["marine"], {"start-rank": "silver"}, ScriptedDice([]))
    from engine.galaxy.phases import grant_grenades

    events: list[Event] = []
    grant_grenades(state, state.agents["marine"], events)
    # his kit already holds one of the 3 Frag Grenades: two more and a Flash-Bang
    assert state.agents["marine"].devices == ["frag-grenade"] * 3 + ["flash-bang"]


def test_new_tactics_and_skills_are_offered_and_work() -> None:
    from engine.galaxy.ranks import promotion_options

    state = blank(["hulk"])
    hulk = state.agents["hulk"]
    assert {"charge", "grenadier", "self-repair"} <= set(promotion_options(hulk, 2))
    assert {"berserk", "bulwark"} <= set(promotion_options(hulk, 3))
    assert {"brace", "break-contact"} <= set(promotion_options(hulk, 1))
    put_agent(state, "hulk", "D4")
    hulk = state.agents["hulk"]
    hulk.tactics = ["bulwark"]
    hulk.skills = ["charge"]
    assert "charge" not in whats(state, "hulk")
    put_alien(state, "xeno-beta-green-1", "C4")
    state = act(state, "hulk", what="charge")
    assert state.agents["hulk"].evaded and state.agents["hulk"].used_skills == ["charge"]


def test_weapon_tokens_match_the_box() -> None:
    tiers = [w.tier for w in content().weapons.values()]
    assert tiers.count("improved") == 10 and tiers.count("alien") == 10
    for w in content().weapons.values():
        if w.tier == "alien":
            assert w.ammo == 0  # self-recharging: no Ammo, never Jam


def test_alien_armory_delivers_a_random_alien_weapon() -> None:
    state = blank(["marine", "hulk"], "m4")
    put_agent(state, "marine", "D4")
    put_agent(state, "hulk", "C4")
    state.phase = "strategy"
    state.alien_tech = 4
    state.strategy_step = 1
    state = GAME.advance(state, ScriptedDice([])).state
    assert state.pending is not None and "alien-weapon" in state.pending.options
    state = GAME.apply(
        state,
        "marine",
        Action(verb="choose", args={"option": "alien-weapon"}),
        ScriptedDice([], picks=[0]),
    ).state
    # m4 issues the Ion Lance and Plasma Cannon; the rest of the marine + hulk alien pool,
    # sorted: crusher-gauntlets, lasergun, stun-whip. The Hulk picks what it replaces.
    assert state.pending is not None and state.pending.kind == "accept"
    assert state.pending.seat == "hulk"
    assert state.pending.options == ["replace-plasma-cannon", "replace-power-fists", "refuse"]
    refused = GAME.apply(
        state, "hulk", Action(verb="choose", args={"option": "refuse"}), ScriptedDice([])
    ).state
    assert [ws.key for ws in refused.agents["hulk"].weapons] == ["plasma-cannon", "power-fists"]
    take = Action(verb="choose", args={"option": "replace-power-fists"})
    state = GAME.apply(state, "hulk", take, ScriptedDice([])).state
    hulk = state.agents["hulk"]
    assert [ws.key for ws in hulk.weapons] == ["plasma-cannon", "crusher-gauntlets"]
    assert state.alien_tech == 0


def test_no_alien_weapons_without_the_armory() -> None:
    state = blank(["marine"], "m1")
    put_agent(state, "marine", "D4")
    state.phase = "strategy"
    state.alien_tech = 4
    state.strategy_step = 1
    state = GAME.advance(state, ScriptedDice([])).state
    assert state.pending is not None and "alien-weapon" not in state.pending.options


def test_alien_weapon_without_alien_knowledge_fails_on_an_alien_face() -> None:
    state = blank(["hulk"])
    put_agent(state, "hulk", "D4")
    hulk = state.agents["hulk"]
    from engine.galaxy.state import WeaponState

    hulk.weapons[0] = WeaponState(key="plasma-cannon", ammo=0)
    beta = put_alien(state, "xeno-beta-green-1", "B3")
    attack = Action(
        verb="attack", args={"unit": "hulk", "target": beta.id, "weapon": "plasma-cannon"}
    )
    # RED 5 dice with one Alien face: the whole attack fails
    step = GAME.apply(state, "hulk", attack, ScriptedDice([2, 2, 2, 2, 1]))
    assert step.state.aliens[0].wounds == 0
    hulk.skills = ["alien-knowledge"]
    # with Alien Knowledge the same roll is 8 Hits (+1 Bolt): defended by 9 blank dice
    step = GAME.apply(state, "hulk", attack, ScriptedDice([2, 2, 2, 2, 1] + [1] * 9))
    assert not step.state.aliens


def test_missions_issue_researched_weapons_at_the_briefing() -> None:
    state = GAME.new("m4", ["marine", "biotech"], {}, SeededDice(3))
    assert state.agents["marine"].weapons[0].key == "ion-lance"
    assert "spore-thrower" in [ws.key for ws in state.agents["biotech"].weapons]


@pytest.mark.parametrize(
    "key", sorted(k for k, w in content().weapons.items() if w.tier != "standard")
)
def test_every_improved_and_alien_weapon_fires(key: str) -> None:
    from engine.galaxy.supply import issue_weapon

    w = content().weapons[key]
    role = w.classes[0] if w.classes else "marine"
    state = blank([role, "hulk"] if role != "hulk" else ["hulk", "marine"])
    put_agent(state, role, "D4")
    agent = state.agents[role]
    agent.skills = ["alien-knowledge"]
    issue_weapon(agent, key)
    if w.kind == "healing":
        put_agent(state, "hulk" if role != "hulk" else "marine", "C4", wounds=2)
        target = "hulk" if role != "hulk" else "marine"
    else:
        target = put_alien(state, "xeno-beta-green-1", "C4").id
    legal = [
        a
        for a in GAME.legal_actions(state, role)
        if a.verb == "attack" and a.args.get("weapon") == key and a.args["target"] == target
    ]
    assert legal, key
    step = GAME.apply(state, role, legal[0], ScriptedDice([2] * w.dice + [1] * 12))
    if w.kind == "healing":
        assert step.state.agents[target].wounds == 0
    else:
        assert not step.state.aliens or step.state.pending is not None  # Vulcan: boost first


def test_every_active_effect_in_the_data_applies() -> None:
    from engine.galaxy.effects import apply_effect
    from engine.galaxy.notation import ACTIVE_EFFECTS

    cards: list[Device | Power] = [*content().devices.values(), *content().powers.values()]
    kinds = sorted({c.effect for c in cards if c.effect.startswith(ACTIVE_EFFECTS)})
    assert len(kinds) >= 12
    for effect in kinds:
        state = blank(["marine", "hulk"])
        put_agent(state, "marine", "D4", wounds=2)
        put_agent(state, "hulk", "E4", wounds=2)
        put_alien(state, "xeno-beta-green-1", "C4")
        marine = state.agents["marine"]
        for ws in marine.weapons:
            ws.ammo, ws.jammed = 0, True
        assert effect_problem(state, marine, effect) is None, effect
        events: list[Event] = []
        target = "hulk" if effect.startswith("heal-other") else ""
        apply_effect(state, marine, effect, target, "test card", events)
        assert events, effect

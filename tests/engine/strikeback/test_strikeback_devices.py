"""The expansion's devices (9.7.4: Hologram, Vigil, GD-5 and the other tokens), the device
hand-outs of the missions' setups, and Alien Tech with its Special Tokens (9.9, storybook 3)."""

from __future__ import annotations

import pytest

from engine.core.dice import ScriptedDice, SeededDice
from engine.core.errors import RuleError
from engine.core.events import Event
from engine.core.game import Action
from engine.core.hexgrid import neighbours
from engine.galaxy import GAME, phases
from engine.galaxy.agent import start_turn
from engine.galaxy.board import label
from engine.galaxy.lifecycle import place_alien
from engine.galaxy.state import AgentState, GalaxyState
from engine.galaxy.strikeback import alientech, devices, handouts, play
from engine.galaxy.strikeback.combat import alien_attack
from engine.galaxy.strikeback.lookups import status
from engine.galaxy.strikeback.missions import missions
from engine.galaxy.strikeback.status import StrikebackState, sb_state
from engine.galaxy.world import alien_name, board_of, co, hx
from engine.galaxy.world import free as hex_free


def mission(seats: list[str]) -> GalaxyState:
    state = GAME.new("os1", seats, {"human-view": "off"}, SeededDice(7))
    state.signals, state.aliens, state.pending = [], [], None
    state.phase, state.alpha = "agent", seats[0]
    state.turn_order, state.turn_index = list(seats), 0
    for i, agent in enumerate(state.agents.values()):
        agent.hex = co(board_of(state).starts[i])
    start_turn(state, state.agents[seats[0]])
    return state


def do(state: GalaxyState, seat: str, verb: str, dice: object = None, **args: str) -> GalaxyState:
    step = GAME.apply(
        state,
        seat,
        Action(verb=verb, args={"unit": seat, **args}),
        dice if dice is not None else SeededDice(3),  # type: ignore[arg-type]
    )
    assert isinstance(step.state, GalaxyState)
    return step.state


def choose(state: GalaxyState, option: str) -> GalaxyState:
    assert state.pending is not None
    step = GAME.apply(
        state, state.pending.seat, Action(verb="choose", args={"option": option}), SeededDice(3)
    )
    assert isinstance(step.state, GalaxyState)
    return step.state


def hold(state: GalaxyState, agent: str, *keys: str) -> None:
    assert state.expansion is not None
    sb_state(state).devices.setdefault(agent, []).extend(keys)


def alien_near(state: GalaxyState, agent: AgentState, card: str = "xeno-beta-green-1") -> str:
    assert agent.hex is not None
    spot = next(h for h in neighbours(hx(agent.hex)) if hex_free(state, h))
    place_alien(state, card, spot, [], "lands")
    return state.aliens[-1].id


def acts(state: GalaxyState, seat: str, what: str) -> list[dict[str, str]]:
    return [
        a.args
        for a in GAME.legal_actions(state, seat)
        if a.verb == "act" and a.args.get("what") == what
    ]


def test_sixteen_device_tokens_and_the_three_the_rulebook_describes() -> None:
    tokens = devices.catalogue()
    assert sum(d.count for d in tokens.values()) == 16
    assert {"hologram", "vigil", "gd-5", "harpoon", "jet-boots"} <= set(tokens)
    assert tokens["jet-boots"].count == 2  # mission 3 hands two agents a pair each
    assert tokens["gd-5"].classes == ["biotech"]
    assert devices.drone_profile("vigil") is not None and devices.drone_profile("gd-5")


def test_hologram_is_taken_for_an_agent_and_vanishes_when_attacked() -> None:
    state = mission(["marine"])
    hold(state, "marine", "hologram")
    listed = acts(state, "marine", "hologram")
    spots = devices.hologram_spots(state, state.agents["marine"])
    assert [a["to"] for a in listed] == [label(h) for h in spots]  # empty hexes within 1 Area
    spot = listed[-1]["to"]
    state = do(state, "marine", "act", what="hologram", to=spot)
    holo = state.agents["hologram"]
    assert holo.hex is not None and label(hx(holo.hex)) == spot and holo.drone_of == "marine"
    assert state.expansion is not None and "hologram" not in sb_state(state).devices["marine"]
    assert state.agents["marine"].action_used
    alien = state.aliens[0] if state.aliens else None
    if alien is None:
        alien_near(state, holo)
        alien = state.aliens[-1]
    events: list[Event] = []
    alien_attack(state, alien, holo, "melee", ScriptedDice([]), events, "test")  # no dice
    assert "hologram" not in state.agents
    assert "hologram" in devices.in_warehouse(state)


def test_vigil_deploys_next_to_the_agent_and_from_his_next_turn_moves_and_fires() -> None:
    state = mission(["sniper"])
    hold(state, "sniper", "vigil")
    spot = acts(state, "sniper", "vigil")[0]["to"]
    state = do(state, "sniper", "act", what="vigil", to=spot)
    vigil = state.agents["vigil"]
    assert vigil.drone_of == "sniper" and not vigil.ready
    assert acts(state, "sniper", "vigil") == []  # Action used, and not ready yet
    start_turn(state, state.agents["sniper"])
    alien_near(state, state.agents["vigil"])
    state = do(state, "sniper", "act", what="vigil")
    assert state.pending is not None and state.pending.kind == "drone-move"
    assert state.pending.data == {"drone": "vigil"}
    state = choose(state, "stay")
    assert state.pending is not None and state.pending.kind == "drone-attack"
    target = state.pending.options[0]
    state = choose(state, target)
    assert state.pending is None


def test_gd5_is_the_biotechs_and_every_attack_deals_area_damage_without_ammo() -> None:
    state = mission(["biotech", "marine"])
    assert "gd-5" in handouts.options(state, "biotech")
    assert "gd-5" not in handouts.options(state, "marine")
    hold(state, "biotech", "gd-5")
    spot = acts(state, "biotech", "gd-5")[0]["to"]
    state = do(state, "biotech", "act", what="gd-5", to=spot)
    gd5 = state.agents["gd-5"]
    start_turn(state, state.agents["biotech"])
    first = alien_near(state, gd5)
    assert gd5.hex is not None
    # a second alien in the first one's Area
    area_mate = next(
        h
        for h in board_of(state).area_hexes(board_of(state).area_of[hx(state.aliens[-1].hex)])
        if hex_free(state, h)
    )
    place_alien(state, "xeno-beta-green-2", area_mate, [], "lands")
    second = state.aliens[-1].id
    ammo = gd5.weapons[0].ammo
    state = do(state, "biotech", "act", what="gd-5")
    state = choose(state, "stay")
    assert state.pending is not None
    # RED 2, 2 (4 Hits, no Ammo face); both aliens in the Area defend with Alien faces
    step = GAME.apply(
        state,
        "biotech",
        Action(verb="choose", args={"option": first}),
        ScriptedDice([2, 2] + [1] * 20),
    )
    texts = " ".join(getattr(e, "text", "") for e in step.events)
    names = {a.id: alien_name(a) for a in state.aliens}
    assert f"{names[first]} defends" in texts and f"{names[second]} defends" in texts  # Area Dmg
    after = step.state.agents["gd-5"]
    assert after.weapons[0].ammo == ammo  # Area Damage costs the GD-5 no Ammo


def test_grenades_and_simple_devices_are_discarded_unless_kept() -> None:
    state = mission(["hulk"])
    hulk = state.agents["hulk"]
    hold(state, "hulk", "acid-bomb", "field-recharger")
    target = alien_near(state, hulk)
    # 2 RED dice: 4 (Hit, Jam) and 1 (Alien): one Hit; the alien's defence die shows Alien
    state = do(
        state, "hulk", "act", ScriptedDice([4, 1, 1] + [1] * 10), what="acid-bomb", target=target
    )
    assert [a.wounds for a in state.aliens if a.id == target] == [1]
    assert status(state, target).poison == 1  # an On Hit Effect on every alien still standing
    assert state.expansion is not None and "acid-bomb" not in sb_state(state).devices["hulk"]
    start_turn(state, state.agents["hulk"])
    state = do(state, "hulk", "act", what="field-recharger")
    assert state.agents["hulk"].energy >= 1
    assert state.expansion is not None
    assert "field-recharger" in sb_state(state).devices["hulk"]  # do not discard after use


def test_device_needs_a_legal_target() -> None:
    state = mission(["marine"])
    hold(state, "marine", "graviton-grenade")
    with pytest.raises(RuleError, match="alien"):
        do(state, "marine", "act", what="graviton-grenade", target="x9")


# -- hand-outs ---------------------------------------------------------------------------------


def test_each_agent_selects_devices_one_prompt_at_a_time_with_a_default() -> None:
    state = mission(["marine", "biotech"])
    handouts.select_each(state, 2)
    play.ask_next(state)
    assert state.pending is not None and state.pending.kind == "sb-pick"
    assert state.pending.seat == "marine"
    assert "gd-5" not in state.pending.options and "jet-boots" in state.pending.options
    assert "frag-grenade" in state.pending.options  # the core box's devices are mixed in
    assert play.default_choice(state) == state.pending.options[0]
    state = choose(state, "jet-boots")
    state = choose(state, "frag-grenade")
    assert state.pending is not None and state.pending.seat == "biotech"
    state = choose(state, "gd-5")
    state = choose(state, "jet-boots")  # the second pair
    assert state.pending is None
    assert state.expansion is not None
    assert sb_state(state).devices == {"marine": ["jet-boots"], "biotech": ["gd-5", "jet-boots"]}
    assert state.agents["marine"].devices == ["frag-grenade", "frag-grenade"]  # kit + pick
    assert "jet-boots" not in handouts.options(state, "marine")  # both pairs are taken


def test_random_device_is_redrawn_when_it_does_not_fit() -> None:
    state = mission(["marine"])
    state.agents["marine"].devices = []
    pool = handouts.warehouse(state)
    gd5 = pool.index("gd-5")
    fits_next = next(i for i, k in enumerate(pool) if i != gd5 and handouts.fits(k, "marine"))
    events: list[Event] = []
    # first draw the GD-5 (Biotech only): discarded; then the next pick from the 15 left
    handouts.random_each(state, ScriptedDice(picks=[gd5, fits_next - (fits_next > gd5)]), events)
    got = [
        *state.agents["marine"].devices,
        *(sb_state(state).devices.get("marine", []) if state.expansion else []),
    ]
    assert got == [pool[fits_next]]
    assert any("does not fit" in getattr(e, "text", "") for e in events)


# -- 9.9 Alien Tech ----------------------------------------------------------------------------


def test_alien_tech_tokens_give_fragments_up_to_four() -> None:
    state = mission(["marine"])
    marine = state.agents["marine"]
    assert marine.hex is not None
    here = hx(marine.hex)
    steps = [h for h in neighbours(here) if hex_free(state, h)]
    alientech.place(state, steps[0], "alien-tech")
    state.alien_tech = 1
    view = GAME.view(state, None)
    assert any(t.kind == "alien-tech" and t.label == "AT" for t in view.tokens)
    state = do(state, "marine", "move", to=label(steps[0]))
    assert state.alien_tech == 2 and alientech.tokens(state) == []
    events: list[Event] = []
    state.alien_tech = 3
    assert alientech.gain(state, 2, events) == 1 and state.alien_tech == 4  # the rest ignored
    assert alientech.gain(state, 1, events) == 0


def test_armory_tokens_send_a_weapon_at_the_next_reinforcements() -> None:
    state = mission(["marine"])
    marine = state.agents["marine"]
    assert marine.hex is not None
    spot = next(h for h in neighbours(hx(marine.hex)) if hex_free(state, h))
    alientech.place(state, spot, "red-armory")
    state = do(state, "marine", "move", to=label(spot))
    assert state.expansion is not None and sb_state(state).gear.armory == ["alien"]
    events: list[Event] = []
    state.phase, state.strategy_step, state.pending = "strategy", 3, None
    phases.strategy(state, SeededDice(2), events)
    assert state.pending is not None and state.pending.kind == "accept"  # which weapon it replaces
    assert sb_state(state).gear.armory == []
    offered = str(state.pending.data["weapon"])
    from engine.galaxy.world import weapon

    assert weapon(offered).tier == "alien"


def test_a_briefing_with_device_picks_asks_each_agent_at_setup() -> None:
    state = GAME.new("os1", ["marine", "sniper"], {"human-view": "off"}, SeededDice(7))
    assert state.pending is None  # mission 1's devices come from its kit, one per agent
    assert [len(a.devices) for a in state.agents.values()] == [1, 1]
    mission = missions()["os1"].model_copy(update={"device_picks": 2})
    state.expansion = StrikebackState()
    play.begin_mission(state, mission, SeededDice(7))
    assert state.pending is not None and state.pending.kind == "sb-pick"
    assert state.expansion is not None
    assert sb_state(state).asks.count("pick:marine") == 2
    assert sb_state(state).asks.count("pick:sniper") == 2
    state = choose(state, state.pending.options[0])
    assert state.pending is not None and state.pending.seat == "marine"


def test_every_new_word_has_a_help_term() -> None:
    from engine.galaxy.strikeback import powers, terms, wings

    keys = {key for key, _, _ in terms.entries()}
    words = {*devices.catalogue(), *powers.psionics(), *powers.skills(), *alientech.KINDS}
    words |= {wings.PSIONIC, "vigil-stinger", "gd-5-mortar", "earth-rank", "free-action"}
    assert words <= keys, sorted(words - keys)


def test_expansion_devices_join_the_box_for_search_and_reinforcements() -> None:
    from engine.galaxy import actions, supply

    state = mission(["marine"])
    pool = actions.warehouse_devices(state)
    assert "hologram" in pool and "gd-5" not in pool  # Generic ones only, as in the core box
    core = GAME.new("m1", ["marine"], {}, SeededDice(7))
    assert "hologram" not in actions.warehouse_devices(core)
    # Reinforcements: 4 fragments buy a chosen device, an expansion one too
    state.alien_tech = 4
    events: list[Event] = []
    assert supply.offer_reinforcements(state, events)
    assert state.pending is not None and "vigil" in state.pending.options
    state.phase = "strategy"
    supply.finish_reinforcements(state, "vigil", SeededDice(1), events)
    assert state.expansion is not None and sb_state(state).devices["marine"] == ["vigil"]
    assert state.alien_tech == 0
    panel = next(p for p in GAME.view(state, None).panels if p.seat == "marine")
    assert "devices: Frag Grenade, Vigil" in panel.lines  # the kit's and the expansion's
    # a Search that turns up a device can find one of the expansion's
    state.pending = None
    state.agents["marine"].devices = []
    index = actions.warehouse_devices(state).index("hologram")
    from engine.galaxy.state import Pending

    state.pending = Pending(kind="search", seat="marine", options=["device", "nothing"])
    actions.finish_search(state, "device", ScriptedDice(picks=[index]), events)
    assert sb_state(state).devices["marine"] == ["vigil", "hologram"]


def test_reinforcements_hand_the_nano_injector_device_to_any_agent() -> None:
    """Self-play os6 seed 165, one Marine, random policy: 4 Alien Tech bought the expansion's
    Nano Injector, whose key is also the Biotech's Nano Injector weapon; the takers were read
    as the weapon's (the Biotech only), so the Alpha Agent was asked to hand it to nobody."""
    from engine.galaxy.supply import delivery_takers, finish_reinforcements

    state = mission(["marine"])
    assert devices.is_device("nano-injector")
    assert delivery_takers(state, "nano-injector") == ["marine"]
    state.alien_tech = 4
    events: list[Event] = []
    finish_reinforcements(state, "nano-injector", SeededDice(1), events)
    assert state.pending is None  # the only taker gets it at once
    assert "nano-injector" in devices.held(state, "marine")


def test_missions_4_to_6_ask_each_agent_to_select_two_devices_at_setup() -> None:
    """Their briefings read "Devices: 2 per agent": two selections per agent, one prompt at a
    time to his own player (`device_picks`)."""
    for key in ("os4", "os5", "os6"):
        state = GAME.new(key, ["marine", "sniper"], {"human-view": "off"}, SeededDice(7))
        assert state.pending is not None and state.pending.kind == "sb-pick", key
        assert state.expansion is not None
        asks = sb_state(state).asks
        assert asks.count("pick:marine") == asks.count("pick:sniper") == 2, key
        assert state.pending.seat in ("marine", "sniper")

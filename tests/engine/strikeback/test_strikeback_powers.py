"""Powers & Items (9.7) and GD-Wings (9.8) on an Operation Strikeback mission: the five
power types, the Alien Knowledge skills, the Psionic Powers, Tactics as Free Actions from the
Earth rank, and the expansion's rank table with its standalone starting ranks."""

from __future__ import annotations

import pytest

from engine.core.dice import ScriptedDice, SeededDice
from engine.core.errors import RuleError
from engine.core.events import Attacked, Event
from engine.core.game import Action
from engine.core.hexgrid import neighbours
from engine.galaxy import GAME, phases, ranks
from engine.galaxy.agent import reach, start_turn
from engine.galaxy.attack import agent_attack
from engine.galaxy.board import label
from engine.galaxy.content import content
from engine.galaxy.lifecycle import place_alien
from engine.galaxy.state import AgentState, GalaxyState, Pending
from engine.galaxy.strikeback import free, powers, wings
from engine.galaxy.strikeback.missions import missions
from engine.galaxy.strikeback.status import sb_state
from engine.galaxy.supply import issue_weapon
from engine.galaxy.world import board_of, co, hx, rank_name
from engine.galaxy.world import free as hex_free


def mission(seats: list[str], rank: int = wings.GOLD, key: str = "os1") -> GalaxyState:
    """An Operation Strikeback mission in its first Agent turn, no Signals, no aliens."""
    state = GAME.new(key, seats, {"human-view": "off"}, SeededDice(7))
    state.signals, state.aliens, state.pending = [], [], None
    state.phase, state.alpha = "agent", seats[0]
    state.turn_order, state.turn_index = list(seats), 0
    for i, agent in enumerate(state.agents.values()):
        agent.hex = co(board_of(state).starts[i])
        agent.rank = rank
        agent.elite = rank >= wings.EARTH
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


def acts(state: GalaxyState, seat: str) -> list[dict[str, str]]:
    return [a.args for a in GAME.legal_actions(state, seat) if a.verb == "act"]


def give_psionic(state: GalaxyState, agent: AgentState, key: str) -> None:
    assert state.expansion is not None
    sb_state(state).gear.psionics.setdefault(agent.id, []).append(key)


def alien_next_to(state: GalaxyState, agent: AgentState, card: str = "xeno-beta-green-1") -> str:
    assert agent.hex is not None
    spot = next(h for h in neighbours(hx(agent.hex)) if hex_free(state, h))
    place_alien(state, card, spot, [], "lands")
    return state.aliens[-1].id


# -- 9.7 the five types ------------------------------------------------------------------------


def test_power_types_sort_core_and_expansion_powers_into_the_five_kinds() -> None:
    assert powers.TYPES == ("standard", "movement", "combat", "passive", "reaction")
    assert powers.power_type("adrenaline") == "standard"  # core tactics are Standard
    assert powers.power_type("alien-knowledge") == "passive"
    assert powers.power_type("guard") == "reaction"
    assert powers.power_type("mind-spike") == "combat"
    assert powers.power_type("levitation") == "movement"
    assert powers.power_type("regeneration") == "passive"
    assert powers.power_type("kinetic-barrier") == "standard"
    assert len(powers.psionics()) == 10 and len(powers.skills()) == 3


# -- 9.8 GD-Wings ------------------------------------------------------------------------------


def test_standalone_missions_start_at_the_briefing_rank_and_owe_its_powers() -> None:
    state = GAME.new("os1", ["marine"], {"human-view": "off"}, SeededDice(2))
    events: list[Event] = []
    phases.place_start_signals(state, SeededDice(2), events)
    marine = state.agents["marine"]
    assert marine.rank == wings.GOLD and rank_name(state, marine.rank) == "Gold"
    # Gold: a basic tactic, the first skill and an improved tactic, picked by the player
    assert state.promotions == ["marine:1", "marine:2", "marine:3"]
    assert missions()["os1"].rank == "gold"  # the briefing's "Standalone GD-Wings rank"


def test_gd_wings_roll_uses_the_expansion_numbers_earth_1_moon_2_galaxy_3() -> None:
    state = mission(["marine"])
    marine = state.agents["marine"]
    events: list[Event] = []
    # Gold -> Earth needs 1 GD: RED faces 3 (Hit, Ammo, GD), 1, 1
    phases.gd_wings(state, marine, ScriptedDice([3, 1, 1]), events)
    assert marine.rank == wings.EARTH and marine.elite
    assert rank_name(state, marine.rank) == "Earth"
    assert any("Free Actions" in getattr(e, "text", "") for e in events)
    # Earth -> Moon needs 2: one GD is not enough, two are
    phases.gd_wings(state, marine, ScriptedDice([6, 2, 2]), events)
    assert marine.rank == wings.EARTH
    phases.gd_wings(state, marine, ScriptedDice([6, 3, 2]), events)
    assert marine.rank == wings.MOON
    # Moon -> Galaxy needs 3, and Galaxy is the top of the table
    phases.gd_wings(state, marine, ScriptedDice([6, 3, 1]), events)
    assert marine.rank == wings.MOON
    phases.gd_wings(state, marine, ScriptedDice([6, 3, 6]), events)
    assert marine.rank == wings.GALAXY and rank_name(state, marine.rank) == "Galaxy"
    phases.gd_wings(state, marine, ScriptedDice([]), events)  # no roll beyond Galaxy
    assert marine.rank == wings.GALAXY


def test_a_core_mission_with_the_layer_keeps_the_core_table() -> None:
    state = GAME.new("m1", ["marine"], {"high-impact": "on"}, SeededDice(1))
    assert state.expansion is not None and not wings.uses_table(state)
    marine = state.agents["marine"]
    marine.rank = 4
    assert rank_name(state, 4) == "Palladium" and wings.top_rank(state) == 5
    assert not free.becomes_free(state, marine, "adrenaline")


def test_moon_promotion_offers_skills_or_a_random_psionic_power_and_death_returns_it() -> None:
    state = mission(["biotech"], rank=wings.EARTH)
    bio = state.agents["biotech"]
    options = ranks.promotion_options(bio, wings.MOON, state)
    assert wings.PSIONIC in options
    assert "alien-resonance" in options and "xeno-ballistics" in options  # 9.7.1 skills
    assert "xeno-blade-lore" not in options  # not a Biotech skill
    state.pending = Pending(
        kind="promote", seat="biotech", options=options, data={"rank": wings.MOON}
    )
    bio.rank = wings.MOON
    events: list[Event] = []
    phases.finish_promotion(state, wings.PSIONIC, events, ScriptedDice(picks=[2]))
    drawn = list(powers.psionics())[2]  # the third of the pool, as the draw picked
    assert powers.held(state, "biotech") == [drawn]
    assert bio.rank_powers[str(wings.MOON)] == drawn
    ranks.lose_rank(state, bio, events)  # a death takes the Moon rank and its power
    assert bio.rank == wings.EARTH and powers.held(state, "biotech") == []
    assert drawn in powers.pool(state, bio)


# -- 9.7.3 Tactics as Free Actions -------------------------------------------------------------


def test_from_earth_tactics_are_free_actions_and_still_flip_face_down() -> None:
    state = mission(["marine"], rank=wings.EARTH)
    marine = state.agents["marine"]
    marine.tactics = ["adrenaline", "second-wind"]
    marine.wounds = 2
    state = do(state, "marine", "act", what="adrenaline")
    marine = state.agents["marine"]
    assert not marine.action_used and marine.mp_left == 4 + 2
    assert "adrenaline" in marine.used_tactics  # face down until the mission ends
    state = do(state, "marine", "act", what="second-wind")
    assert not state.agents["marine"].action_used and state.agents["marine"].wounds == 0
    with pytest.raises(RuleError, match="already used"):
        do(state, "marine", "act", what="adrenaline")


def test_after_the_action_only_free_actions_are_listed_and_accepted() -> None:
    state = mission(["marine"], rank=wings.EARTH)
    marine = state.agents["marine"]
    marine.tactics = ["focus-fire"]
    marine.devices = ["stim-pack"]
    state = do(state, "marine", "act", what="stim-pack")  # a device: the Action
    assert state.agents["marine"].action_used
    listed = [a["what"] for a in acts(state, "marine")]
    assert listed == ["focus-fire"]
    state = do(state, "marine", "act", what="focus-fire")
    assert state.agents["marine"].bonus_dice == {"any": 1}


def test_below_earth_a_tactic_is_the_action() -> None:
    state = mission(["marine"], rank=wings.GOLD)
    state.agents["marine"].tactics = ["adrenaline", "focus-fire"]
    state = do(state, "marine", "act", what="adrenaline")
    assert state.agents["marine"].action_used
    assert acts(state, "marine") == []
    with pytest.raises(RuleError, match="already used his Action"):
        do(state, "marine", "act", what="focus-fire")


# -- 9.7.1 Alien Knowledge skills --------------------------------------------------------------


def test_xeno_ballistics_is_alien_knowledge_and_adds_a_die_to_alien_ranged_weapons() -> None:
    state = mission(["sniper"])
    sniper = state.agents["sniper"]
    issue_weapon(sniper, "lasergun")
    index = next(i for i, w in enumerate(sniper.weapons) if w.key == "lasergun")
    alien_next_to(state, sniper)
    assert not powers.knows_alien_tech(sniper)
    sniper.skills = ["xeno-ballistics"]
    assert powers.knows_alien_tech(sniper)
    count = content().weapons["lasergun"].dice
    # one die more than the weapon's; the Alien face rolled first does not fail the attack
    dice = ScriptedDice([1] + [2] * count + [1] * 20)
    events: list[Event] = []
    agent_attack(state, sniper, index, state.aliens[-1], False, dice, events)
    attacked = next(e for e in events if isinstance(e, Attacked))
    assert len(attacked.faces) == count + 1
    assert attacked.hits == 2 * count


def test_alien_resonance_rolls_alien_faces_again() -> None:
    state = mission(["marine"])
    marine = state.agents["marine"]
    issue_weapon(marine, "lasergun")
    index = next(i for i, w in enumerate(marine.weapons) if w.key == "lasergun")
    alien_next_to(state, marine)
    marine.skills = ["alien-resonance"]
    count = content().weapons["lasergun"].dice
    dice = ScriptedDice([1] + [4] * (count - 1) + [2] + [1] * 20)  # the Alien face is re-rolled
    events: list[Event] = []
    agent_attack(state, marine, index, state.aliens[-1], False, dice, events)
    attacked = next(e for e in events if isinstance(e, Attacked))
    assert attacked.hits == (count - 1) + 2


# -- 9.7.2 Psionic Powers ----------------------------------------------------------------------


def test_mind_spike_uses_the_combat_activity_and_flips_until_the_refresh() -> None:
    state = mission(["marine"], rank=wings.MOON)
    marine = state.agents["marine"]
    give_psionic(state, marine, "mind-spike")
    target = alien_next_to(state, marine)
    listed = [a for a in acts(state, "marine") if a["what"] == "mind-spike"]
    assert listed == [{"unit": "marine", "what": "mind-spike", "target": target}]
    # 3 RED dice: 2 (Hit Hit Bolt), 5 (Hit Hit Bolt), 4 (Hit Jam) = 5 Hits, then the defence
    state = do(
        state, "marine", "act", ScriptedDice([2, 5, 4] + [1] * 10), what="mind-spike", target=target
    )
    marine = state.agents["marine"]
    assert marine.combat_used and not marine.action_used
    assert not any(a.verb == "attack" for a in GAME.legal_actions(state, "marine"))
    assert state.expansion is not None
    assert sb_state(state).gear.used == {"marine": ["mind-spike"]}
    with pytest.raises(RuleError, match="face down"):
        do(state, "marine", "act", what="mind-spike", target=target)
    phases.refresh(state, [], SeededDice(1))
    assert sb_state(state).gear.used == {}


def test_once_per_mission_powers_stay_rotated_after_the_refresh() -> None:
    state = mission(["hulk"], rank=wings.MOON)
    hulk = state.agents["hulk"]
    hulk.wounds = 3
    give_psionic(state, hulk, "mind-over-body")
    state = do(state, "hulk", "act", what="mind-over-body")
    assert state.agents["hulk"].wounds == 1 and state.agents["hulk"].action_used
    phases.refresh(state, [], SeededDice(1))
    assert state.expansion is not None
    assert sb_state(state).gear.spent == {"hulk": ["mind-over-body"]}
    state.phase, state.pending = "agent", None
    start_turn(state, state.agents["hulk"])
    with pytest.raises(RuleError, match="once per mission"):
        do(state, "hulk", "act", what="mind-over-body")


def test_levitation_lets_the_movement_cross_barrier_sides() -> None:
    state = mission(["infiltrator"], rank=wings.MOON)
    agent = state.agents["infiltrator"]
    board = board_of(state)
    # stand next to a Barrier side
    a, b = next(
        (h, n)
        for h in board.area_of
        for n in neighbours(h)
        if n in board.area_of
        and hex_free(state, h)
        and hex_free(state, n)
        and not board.step_ok(h, n, set(), "agent")
        and board.step_ok(h, n, set(), "flyer")
    )
    agent.hex = co(a)
    assert reach(state, agent).cost.get(b, 99) > 1  # walkers go round the Barrier side
    give_psionic(state, agent, "levitation")
    state = do(state, "infiltrator", "act", what="levitation")
    agent = state.agents["infiltrator"]
    assert powers.flies(state, agent) and agent.movement == "unused"
    assert reach(state, agent).cost[b] == 1  # straight over it
    state = do(state, "infiltrator", "move", to=label(b))
    assert state.agents["infiltrator"].hex == co(b)


def test_phase_step_is_the_whole_movement_to_a_seen_free_hex() -> None:
    state = mission(["sniper"], rank=wings.MOON)
    sniper = state.agents["sniper"]
    give_psionic(state, sniper, "phase-step")
    spots = powers.blink_spots(state, sniper, 3)
    assert spots
    dest = spots[-1]
    state = do(state, "sniper", "act", what="phase-step", to=label(dest))
    sniper = state.agents["sniper"]
    assert sniper.hex == co(dest) and sniper.movement == "closed" and sniper.mp_left == 0
    assert not sniper.action_used and not sniper.combat_used


def test_regeneration_heals_at_the_refresh_and_foresight_adds_a_defend_die() -> None:
    state = mission(["marine"], rank=wings.MOON)
    marine = state.agents["marine"]
    marine.wounds = 2
    give_psionic(state, marine, "regeneration")
    give_psionic(state, marine, "foresight")
    events: list[Event] = []
    phases.refresh(state, events, SeededDice(1))
    assert marine.wounds == 1
    assert powers.defend_bonus(state, marine) == 1
    assert not any(a.get("what") in ("regeneration", "foresight") for a in acts(state, "marine"))


def test_mind_lock_paralyzes_an_alien_in_sight() -> None:
    state = mission(["marine"], rank=wings.MOON)
    marine = state.agents["marine"]
    give_psionic(state, marine, "mind-lock")
    target = alien_next_to(state, marine)
    state = do(state, "marine", "act", what="mind-lock", target=target)
    assert "paralyze" in state.aliens[-1].conditions
    assert state.agents["marine"].action_used


def test_psionic_powers_stay_with_their_agent_into_the_next_mission() -> None:
    state = mission(["marine"], rank=wings.MOON)
    marine = state.agents["marine"]
    give_psionic(state, marine, "mind-lock")
    assert state.expansion is not None
    sb_state(state).gear.spent = {"marine": ["mind-lock"]}
    phases.begin_mission(state, "os1", 0, SeededDice(4))
    assert sb_state(state).gear.psionics == {"marine": ["mind-lock"]}
    assert sb_state(state).gear.spent == {}


@pytest.mark.parametrize("seed", [1, 2])
def test_legal_actions_contract_holds_with_powers_and_devices(seed: int) -> None:
    """Agents holding every Psionic Power and several expansion devices, at the Earth rank
    (free Tactics): apply accepts exactly what legal_actions lists, along a random game."""
    from galaxy_contract import check_contract

    state = GAME.new(
        "os1", ["marine", "biotech", "sniper"], {"human-view": "off"}, SeededDice(seed)
    )
    keys = list(powers.psionics())
    assert state.expansion is not None
    for i, seat in enumerate(state.seats):
        sb_state(state).gear.psionics[seat] = keys[i::3]
        sb_state(state).devices[seat] = ["hologram", "vigil", "acid-bomb", "nano-injector"][i:]
    sb_state(state).devices["biotech"].append("gd-5")
    policy = SeededDice(seed + 100)
    checked = 0
    for n in range(120):
        dice = SeededDice(seed * 1000 + n)
        state = GAME.advance(state, dice).state
        prompt = GAME.waiting_on(state)
        if prompt.finished:
            break
        seat = prompt.seats[0]
        if state.pending is None and n % 8 == 0:
            agent = state.agents[seat]
            agent.rank, agent.elite = max(agent.rank, wings.EARTH), True
            agent.tactics = agent.tactics or ["adrenaline", "second-wind"]
            check_contract(state)
            checked += 1
        actions = GAME.legal_actions(state, seat)
        acts_first = [a for a in actions if a.verb == "act"]
        pool = acts_first if acts_first and policy.randrange(2) else actions
        state = GAME.apply(state, seat, pool[policy.randrange(len(pool))], dice).state
    assert checked >= 4


def test_a_free_tactic_in_the_middle_of_the_movement_leaves_it_open() -> None:
    state = mission(["marine"], rank=wings.EARTH)
    state.agents["marine"].tactics = ["focus-fire"]
    step = next(a for a in GAME.legal_actions(state, "marine") if a.verb == "move")
    state = do(state, "marine", "move", to=step.args["to"])
    assert state.agents["marine"].movement == "open"
    state = do(state, "marine", "act", what="focus-fire")
    marine = state.agents["marine"]
    assert marine.movement == "open" and not marine.action_used
    assert any(a.verb == "move" for a in GAME.legal_actions(state, "marine"))

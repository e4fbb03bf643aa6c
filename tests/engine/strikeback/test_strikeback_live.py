"""The expansion rules inside real Galaxy play: a core mission state with the Operation
Strikeback layer switched on, expansion Alien cards on the map and the engine's own attack,
defence and Refresh code, with scripted dice."""

from __future__ import annotations

from engine.core.dice import ScriptedDice, SeededDice
from engine.core.events import Event
from engine.core.hexgrid import neighbours
from engine.galaxy import GAME, attack, lifecycle, phases
from engine.galaxy.agent import start_turn
from engine.galaxy.state import AlienState, GalaxyState
from engine.galaxy.strikeback.status import CriticalPile, FigureStatus, StrikebackState, sb_state
from engine.galaxy.world import board_of, co, hx, max_hp


def layered(seats: list[str]) -> GalaxyState:
    state = GAME.new("m1", seats, {"human-view": "off"}, SeededDice(7))
    state.expansion = StrikebackState()
    state.signals, state.aliens, state.pending = [], [], None
    state.phase, state.alpha = "agent", seats[0]
    state.turn_order, state.turn_index = list(seats), 0
    start = board_of(state).starts[0]
    for i, agent in enumerate(state.agents.values()):
        agent.hex = co(board_of(state).starts[i])
    assert start is not None
    return state


def put(state: GalaxyState, card_id: str) -> AlienState:
    """An expansion alien next to the first agent."""
    taken = {a.hex for a in state.agents.values()} | {a.hex for a in state.aliens}
    first = next(iter(state.agents.values()))
    assert first.hex is not None
    spot = next(co(h) for h in neighbours(hx(first.hex)) if co(h) not in taken)
    events: list[Event] = []
    alien = lifecycle.place_alien(state, card_id, hx(spot), events, "is placed")
    return alien


def test_live_mark_example_xeno_delta_wrist_gun_on_the_biotech() -> None:
    state = layered(["biotech"])
    delta = put(state, "xeno-delta-green")
    biotech = state.agents["biotech"]
    assert state.expansion is not None
    sb_state(state).piles["1"] = CriticalPile(level=1, draw=["c1-paralyze", "c1-def"])
    events: list[Event] = []
    # Wrist Gun 3 BLUE: hit+hit+shield, hit+shield, bolt+ammo+jam = 3 Hits and a Bolt (Mark 2).
    # The Biotech rolls 3 BLUE: one Shield (face 2) and two blanks: 2 wounds.
    attack.alien_attack(
        state, delta, biotech, "ranged", ScriptedDice([2, 6, 4, 2, 1, 1]), events, "test"
    )
    mine = sb_state(state).figures["biotech"]
    assert mine.mark == 2
    assert biotech.wounds == 2
    assert mine.criticals == ["c1-def"]  # lock-on: Critical 1; the alien-only token skipped
    assert sb_state(state).piles["1"].discard == ["c1-paralyze"]
    assert any("Lock-on" in e.text for e in events)


def test_live_multiple_shields_example_2_right_stack_then_a_shield() -> None:
    state = layered(["marine"])
    delta = put(state, "xeno-delta-blue")
    assert state.expansion is not None
    sb_state(state).stacks[delta.id] = [0, 1]  # the left stack was spent earlier this round
    events: list[Event] = []
    marine = state.agents["marine"]
    attack.resolve_defence(
        state, marine, [delta.id], 2, 0, "ranged", "", ScriptedDice([6]), events, "rifle"
    )
    assert delta in state.aliens and delta.wounds == 0
    assert sb_state(state).stacks[delta.id] == [0, 0]


def test_live_stacks_start_from_the_card_and_refill_after_a_kill_shot() -> None:
    """Example 1's numbers on a BLUE Xeno-Delta in play: its stacks come from its card (2, 1)
    and an attack through the engine spends only the selected (left) stack."""
    from engine.galaxy.strikeback import combat as expansion

    state = layered(["marine"])
    delta = put(state, "xeno-delta-blue")  # stacks [2, 1], 5 HP
    delta.wounds = 4
    assert expansion.stacks_of(state, delta) == [2, 1]
    events: list[Event] = []
    marine = state.agents["marine"]
    # 3 Hits: the left stack absorbs 2, the last Hit is defended by one BLUE die that shows
    # no Shield (face 1): the fifth wound kills it.
    attack.resolve_defence(
        state, marine, [delta.id], 3, 0, "ranged", "", ScriptedDice([1]), events, "rifle"
    )
    assert delta not in state.aliens
    assert any("stack 1 cancels 2" in e.text for e in events)


def test_live_lethal_example_crimson_nightmare_bites_the_hulk() -> None:
    state = layered(["hulk"])
    nightmare = put(state, "crimson-nightmare-green")
    hulk = state.agents["hulk"]
    hulk.energy = 1
    events: list[Event] = []
    # Bite 3 RED: hit+hit+bolt, hit+jam, hit+bolt+gd = 4 Hits and a Bolt (Lethal). No
    # Defend die is scripted: rolling one would fail the test.
    attack.alien_attack(state, nightmare, hulk, "melee", ScriptedDice([2, 4, 6]), events, "test")
    assert hulk.energy == 0 and hulk.wounds == 3


def test_live_refresh_poison_wounds_marks_fade_and_stacks_refill() -> None:
    state = layered(["marine"])
    delta = put(state, "xeno-delta-blue")
    assert state.expansion is not None
    sb_state(state).stacks[delta.id] = [0, 0]
    delta.energy = 0
    sb_state(state).figures["marine"] = FigureStatus(mark=2, poison=1)
    events: list[Event] = []
    phases.refresh(state, events, SeededDice(1))
    mine = sb_state(state).figures["marine"]
    assert (mine.mark, mine.poison) == (1, 0)
    assert state.agents["marine"].wounds == 1
    assert delta.energy == 3


def test_poison_at_refresh_killing_the_last_agent_fails_the_mission() -> None:
    """Self-play os6 seed 37, 4 agents: the last Operative agent died of Poison at the
    Refresh, and the Strategy phase then asked a dead player to name an Alpha Agent among
    nobody. Core rules (Death): all players Inoperative -> the mission fails at once."""
    state = layered(["marine", "hulk"])
    state.agents["hulk"].dead, state.agents["hulk"].hex = True, None
    marine = state.agents["marine"]
    marine.wounds, marine.bleeding = max_hp(marine), True  # at 0 HP: a further wound kills
    assert state.expansion is not None
    sb_state(state).figures["marine"] = FigureStatus(poison=1)
    events: list[Event] = []
    phases.refresh(state, events, SeededDice(1))
    assert marine.dead and state.pending is None
    assert state.outcome == "failed" and state.phase == "ended"
    assert GAME.waiting_on(state).finished


def test_live_critical_movement_and_health_penalties() -> None:
    state = layered(["marine"])
    marine = state.agents["marine"]
    start_turn(state, marine)
    full = marine.mp_left
    assert state.expansion is not None
    sb_state(state).figures["marine"] = FigureStatus(criticals=["c2-move", "c1-hp"])
    start_turn(state, marine)
    assert marine.mp_left == full - 2
    from engine.galaxy import combat
    from engine.galaxy.world import max_hp

    combat.wound_agent(state, marine, max_hp(marine) - 1, [], "test")
    assert marine.bleeding  # one Health point fewer: he bleeds one wound earlier


def test_a_core_game_saves_without_the_expansion() -> None:
    state = GAME.new("m1", ["marine"], {}, SeededDice(1))
    assert state.expansion is None
    assert "strikeback" not in GAME.dump(state)
    layered_state = layered(["marine"])
    loaded = GAME.load(GAME.dump(layered_state))
    # the core types the slot as its ExpansionState base: the registered type comes back
    assert isinstance(loaded.expansion, StrikebackState)
    assert GAME.dump(loaded) == GAME.dump(layered_state)
    assert "stacks" in GAME.dump(layered_state)["strikeback"]  # saved with all its fields


def _core_and_layered(hits_faces: list[int], defend_faces: list[int]) -> tuple[int, int]:
    """The same core Xeno-Beta shot at the Marine with the same dice, without and with the
    expansion layer: the Marine's wounds each way."""
    results = []
    for layer_on in (False, True):
        state = layered(["marine"])
        if not layer_on:
            state.expansion = None
        taken = {a.hex for a in state.agents.values()}
        marine = state.agents["marine"]
        assert marine.hex is not None
        spot = next(h for h in neighbours(hx(marine.hex)) if co(h) not in taken)
        beta = lifecycle.place_alien(state, "xeno-beta-blue-1", spot, [], "is placed")
        dice = ScriptedDice([*hits_faces, *defend_faces])
        attack.alien_attack(state, beta, marine, "ranged", dice, [], "test")
        assert dice.remaining == 0
        results.append(marine.wounds)
    return results[0], results[1]


def test_layer_plays_a_core_alien_exactly_like_the_core_rules_below_five_hits() -> None:
    # Blaster 2 RED: hit+hit+bolt, hit+jam = 3 Hits; 3 BLUE defend dice: shield, alien, hit.
    core, layered_wounds = _core_and_layered([2, 4], [5, 1, 4])
    assert core == layered_wounds


def test_high_impact_in_play_caps_the_marines_defend_roll_at_five_dice() -> None:
    state = layered(["marine"])
    gamma = put(state, "xeno-gamma-blue")
    assert state.expansion is not None
    sb_state(state).piles["2"] = CriticalPile(level=2, draw=["c2-def"])
    marine = state.agents["marine"]
    # Energy Axe 4 RED, all hit+hit+bolt: 8 Hits and a Bolt (Critical 2). High Impact: the
    # Marine rolls only 5 BLUE dice (all Shields), so 3 Hits wound him.
    dice = ScriptedDice([2, 2, 2, 2, 2, 2, 2, 2, 2])
    attack.alien_attack(state, gamma, marine, "melee", dice, [], "test")
    assert dice.remaining == 0
    assert marine.wounds == 3
    assert sb_state(state).figures["marine"].criticals == ["c2-def"]


def test_high_impact_option_switches_the_layer_on_for_a_core_mission() -> None:
    on = GAME.new("m1", ["marine"], {"high-impact": "on"}, SeededDice(1))
    assert on.expansion is not None and sb_state(on).high_impact
    assert on.options["high-impact"] == "on"
    off = GAME.new("m1", ["marine"], {}, SeededDice(1))
    assert off.expansion is None and "high-impact" not in off.options


def test_a_greater_critical_sends_the_replaced_lesser_token_back_to_its_own_discards() -> None:
    """8.2: -2 DEF replaces -1 DEF, and the -1 DEF token is discarded to the Critical 1 pile
    (it used to vanish: 19 of 20 tokens left in circulation)."""
    state = layered(["marine"])
    gamma = put(state, "xeno-gamma-blue")
    sb = sb_state(state)
    sb.piles["1"] = CriticalPile(level=1, draw=["c1-atk"])
    sb.piles["2"] = CriticalPile(level=2, draw=["c2-def"])
    sb.figures["marine"] = FigureStatus(criticals=["c1-def"])
    # the same Energy Axe roll as above: 3 wounds and a Bolt (Critical 2)
    attack.alien_attack(
        state, gamma, state.agents["marine"], "melee", ScriptedDice([2] * 9), [], "t"
    )
    assert sb.figures["marine"].criticals == ["c2-def"]
    assert sb.piles["1"].discard == ["c1-def"] and sb.piles["2"].discard == []


def test_a_dead_aliens_critical_tokens_go_to_their_discard_piles() -> None:
    """11.1: the tokens on an alien's card are discarded when it dies."""
    state = layered(["marine"])
    gamma = put(state, "xeno-gamma-blue")
    sb = sb_state(state)
    sb.piles["1"] = CriticalPile(level=1)
    sb.piles["2"] = CriticalPile(level=2)
    sb.figures[gamma.id] = FigureStatus(criticals=["c1-move", "c2-hp"])
    lifecycle.kill_alien(state, gamma, [])
    assert sb.figures[gamma.id].criticals == []
    assert sb.piles["1"].discard == ["c1-move"] and sb.piles["2"].discard == ["c2-hp"]


def test_high_impact_is_on_by_default_in_the_expansions_missions_and_campaign() -> None:
    """Storybook 5.5.1 prints High Impact as "Default = On": every Strikeback mission and the
    Strikeback campaign start with it unless the table switches it off; core play keeps it off."""
    for key in ("os1", "os2", "os3", "os4", "os5", "os6"):
        state = GAME.new(key, ["marine", "biotech"], {}, SeededDice(1))
        assert sb_state(state).high_impact, key
        assert state.options["high-impact"] == "on"
    camp = GAME.new("campaign", ["marine", "biotech"], {"expansion": "strikeback"}, SeededDice(1))
    assert sb_state(camp).high_impact
    off = GAME.new("os1", ["marine"], {"high-impact": "off"}, SeededDice(1))
    assert not sb_state(off).high_impact
    assert GAME.new("campaign", ["marine"], {}, SeededDice(1)).expansion is None

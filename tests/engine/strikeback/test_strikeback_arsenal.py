"""The expansion's weapons in play (9.2 fixed-Hit and RED+BLUE, 8.4 Explosion, 8.5 Area
Healing, 8.1 Lethal and 8.2 Critical on agents' weapons, 11.12 alien fixed-Hit weapons), with
scripted dice through `/attack`.

Die faces (engine/galaxy/dice.py): BLUE 1 Alien, 2 hit+hit+shield, 3 hit+hit+shield,
4 bolt+ammo+jam, 5 shield+bolt, 6 hit+shield; RED 1 Alien, 2 hit+hit+bolt, 3 hit+ammo+gd,
4 hit+jam, 5 hit+hit+bolt, 6 hit+bolt+gd.
"""

from __future__ import annotations

import pytest

from engine.core.dice import ScriptedDice, SeededDice
from engine.core.events import Event
from engine.core.game import Action
from engine.core.hexgrid import Hex, neighbours
from engine.galaxy import GAME, attack, lifecycle, supply
from engine.galaxy.agent import start_turn
from engine.galaxy.state import AlienState, GalaxyState, WeaponState
from engine.galaxy.strikeback import arsenal, criticals
from engine.galaxy.strikeback.combat import effect_name
from engine.galaxy.strikeback.status import CriticalPile, FigureStatus, sb_state
from engine.galaxy.world import area_of, board_of, co, free, hx, locked
from engine.galaxy.world import card as world_card


def armed(seat: str, weapon: str, others: list[str] | None = None) -> GalaxyState:
    state = GAME.new(
        "m1", [seat, *(others or [])], {"human-view": "off", "fighting-poses": "on"}, SeededDice(7)
    )
    state.signals, state.aliens, state.pending = [], [], None
    state.phase, state.alpha = "agent", seat
    state.turn_order, state.turn_index = [seat, *(others or [])], 0
    for i, agent in enumerate(state.agents.values()):
        agent.hex = co(board_of(state).starts[i])
    state.agents[seat].weapons[0] = WeaponState(key=weapon, ammo=arsenal.weapons()[weapon].ammo)
    state.agents[seat].skills.append("alien-knowledge")
    start_turn(state, state.agents[seat])
    return state


def beside(state: GalaxyState, seat: str, card: str = "aracnos-green-1") -> AlienState:
    agent = state.agents[seat]
    assert agent.hex is not None
    spot = next(h for h in neighbours(hx(agent.hex)) if free(state, h))
    return lifecycle.place_alien(state, card, spot, [], "is placed")


def fire(
    state: GalaxyState, seat: str, target: str, weapon: str, rolls: list[int], **more: str
) -> GalaxyState:
    action = Action(verb="attack", args={"unit": seat, "target": target, "weapon": weapon, **more})
    assert any(a.matches(action) for a in GAME.legal_actions(state, seat)), action
    new = GAME.apply(state, seat, action, ScriptedDice(rolls)).state
    assert isinstance(new, GalaxyState)
    return new


def test_expansion_weapons_are_ours_and_valid() -> None:
    assert len([w for w in arsenal.weapons().values() if w.tier == "improved"]) == 2
    assert len([w for w in arsenal.weapons().values() if w.tier == "alien"]) == 5
    assert {w.key for w in arsenal.suit_weapons().values()} == {
        "suit-autocannon",
        "suit-plasma-array",
    }


def test_a_fixed_hit_weapon_rolls_nothing_and_ignores_the_atk_critical() -> None:
    state = armed("marine", "fusion-lance")
    alien = beside(state, "marine")
    assert state.expansion is not None
    # a Critical -2 ATK dice on the marine does not touch a fixed-Hit weapon (8.2.3)
    sb_state(state).figures["marine"] = FigureStatus(criticals=["c2-atk"])
    # No Hit roll: 3 Hits; the Aracnos rolls 3 BLUE (Alien faces): 3 wounds, dead (3 HP).
    state = fire(state, "marine", alien.id, "fusion-lance", [1, 1, 1])
    assert not state.aliens


def test_added_dice_on_a_fixed_weapon_are_added_hits() -> None:
    state = armed("marine", "fusion-lance")
    alien = beside(state, "marine", "xeno-alpha-green-1")
    state.agents["marine"].bonus_dice["ranged"] = 1
    # 4 Hits: the Xeno-Alpha's 1 Energy Shield absorbs one, 3 BLUE dice (Alien faces): 3 wounds
    state = fire(state, "marine", alien.id, "fusion-lance", [1, 1, 1])
    assert state.aliens[0].wounds == 3


def test_red_and_blue_dice_with_gd_results_as_bolts_and_the_colour_of_added_dice() -> None:
    state = armed("hulk", "gravity-maul")
    alien = beside(state, "hulk", "xeno-alpha-red-1")  # 7 HP, 2 shields
    state.agents["hulk"].bonus_dice["melee"] = 1
    actions = GAME.legal_actions(state, "hulk")
    assert any(a.args.get("mode") == arsenal.BLUE_DICE for a in actions)
    # Added die BLUE: RED 2 dice (hit+ammo+gd, Alien), BLUE 3 dice (hit+shield, Alien, Alien):
    # 2 Hits and a GD that acts as a Bolt (Immobilize); the alien's 2 shields absorb both.
    state = fire(state, "hulk", alien.id, "gravity-maul", [3, 1, 6, 1, 1], mode=arsenal.BLUE_DICE)
    xeno = state.aliens[0]
    assert xeno.wounds == 0 and "immobilize" in xeno.conditions


def test_the_blue_dice_choice_is_offered_only_when_dice_are_added() -> None:
    state = armed("hulk", "gravity-maul")
    alien = beside(state, "hulk")
    assert not any(
        a.args.get("mode") == arsenal.BLUE_DICE for a in GAME.legal_actions(state, "hulk")
    )
    with pytest.raises(Exception, match="BLUE"):
        GAME.apply(
            state,
            "hulk",
            Action(
                verb="attack",
                args={
                    "unit": "hulk",
                    "target": alien.id,
                    "weapon": "gravity-maul",
                    "mode": "blue-dice",
                },
            ),
            SeededDice(1),
        )


def test_a_mixed_alien_weapon_fails_without_alien_knowledge() -> None:
    state = armed("hulk", "gravity-maul")
    state.agents["hulk"].skills.remove("alien-knowledge")
    alien = beside(state, "hulk")
    # an Alien face on a BLUE die fails the whole attack
    state = fire(state, "hulk", alien.id, "gravity-maul", [2, 2, 6, 1])
    assert state.aliens[0].wounds == 0


def _areas(state: GalaxyState, alien: AlienState) -> tuple[str, str, str]:
    """The alien's Area, one Area a walking border away, and one farther."""
    graph = board_of(state).walk_graph(locked(state), "agent")
    here = area_of(state, alien.hex)
    near = sorted(graph.adjacent(here))[0]
    far = next(a for a in sorted(graph.areas) if a != here and a not in graph.adjacent(here))
    return here, near, far


def _free_in(state: GalaxyState, area: str) -> Hex:
    return next(h for h in board_of(state).area_hexes(area) if free(state, h))


def test_explosion_hits_the_area_and_the_areas_one_walking_border_away() -> None:
    state = armed("marine", "nova-launcher")
    target = beside(state, "marine", "spine-critter-green-1")
    here, near, far = _areas(state, target)
    events: list[Event] = []
    second = lifecycle.place_alien(state, "aracnos-green-1", _free_in(state, here), events, "x")
    third = lifecycle.place_alien(state, "aracnos-green-2", _free_in(state, near), events, "x")
    fourth = lifecycle.place_alien(state, "aracnos-blue-1", _free_in(state, far), events, "x")
    ids = arsenal.explosion_targets(state, target, state.agents["marine"])
    assert ids[0] == target.id
    assert second.id in ids and third.id in ids and fourth.id not in ids


def test_explosion_in_play_every_figure_defends_the_same_hits() -> None:
    state = armed("marine", "nova-launcher")
    target = beside(state, "marine", "aracnos-green-1")
    _, near, _ = _areas(state, target)
    other = lifecycle.place_alien(state, "aracnos-green-2", _free_in(state, near), [], "x")
    # RED 3 dice: hit+hit+bolt, Alien, Alien = 2 Hits, Bolt -1 Def die: each rolls 1 BLUE.
    state = fire(state, "marine", target.id, "nova-launcher", [2, 1, 1, 1, 1])
    wounds = {a.id: a.wounds for a in state.aliens}
    assert wounds == {target.id: 2, other.id: 2}


def test_area_healing_reaches_every_other_agent_in_the_area() -> None:
    state = armed("biotech", "regen-projector", others=["marine", "sniper"])
    bio, marine, sniper = (state.agents[k] for k in ("biotech", "marine", "sniper"))
    assert bio.hex is not None
    here = area_of(state, bio.hex)
    spots = [h for h in board_of(state).area_hexes(here) if free(state, h)]
    marine.hex = co(spots[0])
    sniper.hex = co(
        next(
            h
            for h in board_of(state).hexes()
            if free(state, h) and board_of(state).area_of[h] != here
        )
    )
    bio.wounds, marine.wounds, sniper.wounds = 2, 3, 3
    # BLUE 3 dice: hit+shield, Alien, Alien = 1 Hit: 1 Wound healed on each agent in the Area
    state = fire(state, "biotech", "marine", "regen-projector", [6, 1, 1])
    assert state.agents["marine"].wounds == 2
    assert state.agents["biotech"].wounds == 1
    assert state.agents["sniper"].wounds == 3


def test_a_lethal_bolt_leaves_the_alien_no_defend_roll() -> None:
    state = armed("infiltrator", "phase-scythe")
    alien = beside(state, "infiltrator", "xeno-alpha-green-1")  # 5 HP, 1 shield
    # RED 4: hit+hit+bolt, hit+jam, Alien, Alien = 3 Hits, Lethal: the shield absorbs 1, 2
    # wounds and no BLUE die is rolled (the script has none).
    state = fire(state, "infiltrator", alien.id, "phase-scythe", [2, 4, 1, 1])
    assert state.aliens[0].wounds == 2


def test_a_critical_bolt_draws_a_critical_on_the_wounded_alien() -> None:
    state = armed("sniper", "xeno-needler")
    alien = beside(state, "sniper", "xeno-alpha-red-1")  # 7 HP, 2 shields, rerolls Alien
    assert state.expansion is not None
    sb_state(state).piles["1"] = CriticalPile(level=1, draw=["c1-move", "c1-def"])
    # RED 3: hit+hit+bolt x3 = 6 Hits and a Bolt (Critical 1); its 2 shields absorb 2, it
    # rolls 4 BLUE: Alien faces, each rolled once more (its power) into Alien faces: 4 wounds.
    state = fire(state, "sniper", alien.id, "xeno-needler", [2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1])
    xeno = state.aliens[0]
    assert xeno.wounds == 4
    assert state.expansion is not None
    held = sb_state(state).figures[xeno.id].criticals
    assert held == ["c1-def"]  # the agents-only Movement token is skipped (8.2.1)


def test_an_alien_fixed_hit_weapon_rolls_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    state = armed("marine", "fusion-lance")
    alien = beside(state, "marine", "xeno-delta-green")
    from engine.galaxy.strikeback import combat as expansion

    card = world_card(alien).model_copy(deep=True)
    assert card.ranged is not None
    card.ranged.fixed = 2
    monkeypatch.setattr(expansion, "card", lambda a: card)
    marine = state.agents["marine"]
    marine.energy = 0
    # no Hit roll: 2 Hits; the marine rolls 2 BLUE (Alien faces): 2 wounds
    attack.alien_attack(state, alien, marine, "ranged", ScriptedDice([1, 1]), [], "test")
    assert marine.wounds == 2


def test_expansion_weapons_join_the_warehouse_only_with_the_layer() -> None:
    state = armed("marine", "nova-launcher")
    assert "fusion-lance" in supply.weapon_pool(state, "alien")
    assert "suit-autocannon" not in supply.weapon_pool(state, "improved")
    core = GAME.new("m1", ["marine"], {}, SeededDice(7))
    assert "fusion-lance" not in supply.weapon_pool(core, "alien")


def test_a_class_weapon_of_the_expansion_goes_only_to_its_class() -> None:
    state = armed("marine", "nova-launcher", others=["sniper"])
    assert supply.delivery_takers(state, "xeno-needler") == ["sniper"]
    assert set(supply.delivery_takers(state, "fusion-lance")) == {"marine", "sniper"}


@pytest.mark.parametrize("seed", [4])
def test_the_contract_holds_in_random_play_with_the_expansion_weapons(seed: int) -> None:
    """Every agent starts with an expansion weapon (Friendly Fire on, so Explosions reach
    agents too); random play, the legal-actions contract checked every few decisions."""
    from galaxy_contract import check_contract

    from engine.core.dice import derive_seed, pick

    seats = ["marine", "biotech", "infiltrator", "sniper", "hulk"]
    kit = {
        "marine": "nova-launcher",
        "biotech": "regen-projector",
        "infiltrator": "phase-scythe",
        "sniper": "xeno-needler",
        "hulk": "gravity-maul",
    }
    state = GAME.new("m2", seats, {"fighting-poses": "on", "friendly-fire": "on"}, SeededDice(seed))
    for seat, key in kit.items():
        agent = state.agents[seat]
        agent.weapons[-1] = WeaponState(key=key, ammo=arsenal.weapons()[key].ammo)
        agent.weapons[0] = WeaponState(
            key="fusion-lance" if seat != "biotech" else agent.weapons[0].key, ammo=0
        )
        agent.skills.append("alien-knowledge")
    policy = SeededDice(derive_seed(seed, "policy"))
    checked = 0
    for n in range(160):
        dice = SeededDice(derive_seed(seed, n))
        state = GAME.advance(state, dice).state
        prompt = GAME.waiting_on(state)
        if prompt.finished:
            break
        if n % 12 == 5:
            check_contract(state)
            checked += 1
        seat = prompt.seats[0]
        actions = GAME.legal_actions(state, seat)
        attacks = [a for a in actions if a.verb == "attack"]
        others = [a for a in actions if a.verb != "end-turn"]
        if attacks and policy.randrange(2):
            chosen = pick(policy, attacks)
        elif others and policy.randrange(4):
            chosen = pick(policy, others)
        else:
            chosen = actions[-1]
        state = GAME.apply(state, seat, chosen, dice).state
    assert checked >= 3


def test_friendly_fire_with_a_lethal_bolt_gives_the_agent_no_defend_roll() -> None:
    state = GAME.new(
        "m1",
        ["infiltrator", "marine"],
        {"human-view": "off", "fighting-poses": "on", "friendly-fire": "on"},
        SeededDice(7),
    )
    state.signals, state.aliens, state.pending = [], [], None
    state.phase, state.alpha = "agent", "infiltrator"
    state.turn_order, state.turn_index = ["infiltrator", "marine"], 0
    infiltrator, marine = state.agents["infiltrator"], state.agents["marine"]
    infiltrator.hex = co(board_of(state).starts[0])
    marine.hex = co(next(h for h in neighbours(hx(infiltrator.hex)) if free(state, h)))
    infiltrator.weapons[0] = WeaponState(key="phase-scythe", ammo=0)
    infiltrator.skills.append("alien-knowledge")
    start_turn(state, infiltrator)
    # RED 4: hit+hit+bolt, hit+jam, Alien, Alien = 3 Lethal Hits: no BLUE die, 3 wounds
    state = fire(state, "infiltrator", "marine", "phase-scythe", [2, 4, 1, 1])
    assert state.agents["marine"].wounds == 3


def test_managing_weapons_an_unlimited_ammo_weapon_gives_way_only_to_another() -> None:
    """9.2.1: the 3-Ammo Nova Launcher may replace the Marine's Assault Rifle (limited Ammo)
    but not his Lasergun (unlimited); he chooses, and the default takes the legal slot. An
    Alien weapon (unlimited) may replace either."""
    state = armed("marine", "fusion-lance")
    marine = state.agents["marine"]
    marine.weapons = [WeaponState(key="lasergun", ammo=0), WeaponState(key="assault-rifle", ammo=4)]
    events: list[Event] = []
    supply.offer_weapon(state, marine, "nova-launcher", "reinforce", events, "a weapon")
    assert state.pending is not None
    assert state.pending.options == ["replace-assault-rifle", "refuse"]
    assert supply.default_replacement(state) == "replace-assault-rifle"
    listed = {a.args.get("option") for a in GAME.legal_actions(state, "marine")}
    assert "replace-lasergun" not in listed and "replace-assault-rifle" in listed
    state.pending = None
    supply.offer_weapon(state, marine, "singularity-mortar", "reinforce", [], "a weapon")
    assert state.pending is not None
    assert state.pending.options == ["replace-lasergun", "replace-assault-rifle", "refuse"]


def test_managing_weapons_no_slot_to_give_means_the_weapon_is_not_taken() -> None:
    """9.2.1: with two unlimited-Ammo weapons, a limited-Ammo one cannot be taken at all."""
    state = armed("infiltrator", "phase-scythe")
    agent = state.agents["infiltrator"]
    agent.weapons = [WeaponState(key="lasergun", ammo=0), WeaponState(key="mono-blades", ammo=0)]
    events: list[Event] = []
    supply.offer_weapon(state, agent, "nova-launcher", "reinforce", events, "a weapon")
    assert state.pending is None
    assert [w.key for w in agent.weapons] == ["lasergun", "mono-blades"]
    assert any("cannot take the Nova Launcher" in e.text for e in events)


def test_core_play_keeps_the_core_choice_of_either_weapon() -> None:
    state = GAME.new("m1", ["marine"], {}, SeededDice(7))
    marine = state.agents["marine"]
    marine.weapons = [WeaponState(key="lasergun", ammo=0), WeaponState(key="assault-rifle", ammo=4)]
    supply.offer_weapon(state, marine, "combat-carbine", "reinforce", [], "a weapon")
    assert state.pending is not None
    assert state.pending.options == ["replace-lasergun", "replace-assault-rifle", "refuse"]


def test_an_alien_bolt_effect_is_told_by_its_token_name() -> None:
    """The attack line says "Bolt: Mark 2", not the content key "mark-2"."""
    told = [effect_name(e) for e in ("mark-2", "poison-1", "lethal", "critical-1")]
    assert told == ["Mark 2", "Poison 1", "Lethal", "Critical 1"]


def test_a_critical_token_is_told_in_words_counted() -> None:
    """The narration says what the token does, not its key ("no-bolt 1", "def 1")."""
    assert criticals.effect_words("def", 1) == "rolls 1 fewer Defend die"
    assert criticals.effect_words("damage", 2) == "takes 2 more wounds at once"
    assert criticals.effect_words("no-bolt", 1) == "cannot use Bolt effects until the Refresh"

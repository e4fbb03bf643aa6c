"""The rulebook's two combat examples, die by die, through the public engine contract."""

from __future__ import annotations

from galaxy_helpers import blank, put_agent, put_alien

from engine.core.dice import ScriptedDice
from engine.core.events import Attacked, Killed
from engine.core.game import Action
from engine.galaxy import GAME
from engine.galaxy.combat import defend_roll, hit_roll
from engine.galaxy.state import WeaponState

# RED faces: 1 alien | 2 hit,hit,bolt | 3 hit,ammo,gd | 4 hit,jam | 5 hit,hit,bolt | 6 hit,bolt,gd
# BLUE faces: 1 alien | 2 hit,shield,ammo | 3 hit,shield,jam | 4 hit,hit,bolt | 5 shield,bolt
#             | 6 hit,shield


def test_example_1_marine_rifle_against_blue_aracnos() -> None:
    state = blank(["marine"])
    put_agent(state, "marine", "D4")
    aracnos = put_alien(state, "aracnos-blue-1", "B3")
    # Hit roll: 3 RED dice show 4 Hits, one Ammo, Bolts (rifle Bolt: -1 Def die).
    # Defend: 3 BLUE dice instead of 4: one Shield, two Bolts (armor Bolt once: +1 Shield).
    dice = ScriptedDice([2, 3, 6, 4, 5, 1])
    action = Action(
        verb="attack", args={"unit": "marine", "target": aracnos.id, "weapon": "assault-rifle"}
    )
    step = GAME.apply(state, "marine", action, dice)
    assert dice.remaining == 0
    attacked = next(e for e in step.events if isinstance(e, Attacked))
    assert attacked.hits == 4
    rifle = step.state.agents["marine"].weapons[0]
    assert rifle.ammo == 3 and not rifle.jammed
    hurt = step.state.aliens[0]
    assert hurt.wounds == 2  # two Hits cancelled, two Wounds inflicted
    assert state.aliens[0].wounds == 0  # the given state is untouched


def test_example_1_numbers_directly() -> None:
    roll = hit_roll(ScriptedDice([2, 3, 6]), "red", 3)
    assert (roll.hits, roll.ammo, roll.bolt, roll.jam) == (4, True, True, False)
    defend = defend_roll(ScriptedDice([4, 5, 1]), 4, def_minus=1, armor="shield+1")
    assert len(defend.faces) == 3
    assert defend.shields == 2 and defend.wounds == 2


def test_example_2_hulk_improved_vulcan_against_blue_xeno_beta() -> None:
    state = blank(["hulk"])
    put_agent(state, "hulk", "D4")
    state.agents["hulk"].weapons[0] = WeaponState(key="improved-vulcan", ammo=8)
    beta = put_alien(state, "xeno-beta-blue-1", "B3")
    # 4 RED dice: three Hits, a Jam, an Ammo result (ignored: the Vulcan spends Ammo itself).
    dice = ScriptedDice([3, 4, 3, 1])
    action = Action(
        verb="attack", args={"unit": "hulk", "target": beta.id, "weapon": "improved-vulcan"}
    )
    step = GAME.apply(state, "hulk", action, dice)
    attacked = next(e for e in step.events if isinstance(e, Attacked))
    assert attacked.hits == 3
    vulcan = step.state.agents["hulk"].weapons[0]
    assert vulcan.jammed and vulcan.ammo == 7
    prompt = GAME.waiting_on(step.state)
    assert prompt.kind == "choice" and prompt.seats == ["hulk"]
    assert "3" in [a.args["option"] for a in GAME.legal_actions(step.state, "hulk")]
    # Spend 3 more Ammo for 3 more Hits: 6. The Energy Shield cancels the first; 5 BLUE dice
    # show a single Shield and a Bolt (Regenerate, applied before the Wounds): 4 Wounds.
    dice = ScriptedDice([4, 4, 1, 1, 6])
    step = GAME.apply(step.state, "hulk", Action(verb="choose", args={"option": "3"}), dice)
    assert dice.remaining == 0
    assert step.state.agents["hulk"].weapons[0].ammo == 4
    assert not step.state.aliens  # the Xeno-Beta dies
    assert any(isinstance(e, Killed) and e.figure == beta.id for e in step.events)
    assert step.state.kills == 1 and step.state.alien_tech == 1


def test_example_2_numbers_directly() -> None:
    defend = defend_roll(ScriptedDice([4, 4, 1, 1, 6]), 6, energy=1, armor="regenerate")
    assert defend.energy_used == 1 and len(defend.faces) == 5
    assert defend.shields == 1 and defend.regenerate and defend.wounds == 4


def test_melee_weapon_ignores_ammo_and_jam() -> None:
    state = blank(["infiltrator"])
    put_agent(state, "infiltrator", "C4")
    critter = put_alien(state, "spine-critter-red-1", "D4")
    dice = ScriptedDice([3, 4, 1, 1, 1])  # hit+ammo, hit+jam, alien ; defend 2 dice: aliens
    step = GAME.apply(
        state,
        "infiltrator",
        Action(
            verb="attack",
            args={"unit": "infiltrator", "target": critter.id, "weapon": "mono-blades"},
        ),
        dice,
    )
    blades = step.state.agents["infiltrator"].weapons[0]
    assert not blades.jammed
    assert step.state.aliens[0].wounds == 2


def test_bleeding_then_death() -> None:
    from engine.galaxy.combat import wound_agent

    state = blank(["sniper"])
    put_agent(state, "sniper", "D4")
    sniper = state.agents["sniper"]
    wound_agent(state, sniper, 9, [], "test")
    assert sniper.bleeding and sniper.wounds == 5 and not sniper.dead
    wound_agent(state, sniper, 1, [], "test")
    assert sniper.dead and sniper.hex is None


def test_acid_poison_example_is_basic_damage_for_mercury() -> None:
    """Rulebook (Damage and Special Effects): a Spine Critter dying next to Agent Mercury
    splashes her with Basic damage; she defends, counting only Shields, so her armor Bolt
    (+1 Shield against melee) does not help."""
    from galaxy_helpers import at

    state = blank(["infiltrator"])
    put_agent(state, "infiltrator", "D4")
    critter = put_alien(state, "spine-critter-green-1", "C4", wounds=0)
    critter.wounds = content_hp(critter.card) - 1
    # Mono Blades, 3 RED: 4, 1, 1 = one Hit (melee ignores the Jam); the critter (1 HP left)
    # rolls BLUE 1 and dies; the acid: 1 Hit, Mercury rolls BLUE 4 (Hit, Hit, Bolt): no Shield,
    # and the Bolt is ignored against Basic damage.
    assert weapon_dice("mono-blades") == 3
    dice = ScriptedDice([4, 1, 1, 1, 4])
    action = Action(
        verb="attack", args={"unit": "infiltrator", "target": critter.id, "weapon": "mono-blades"}
    )
    step = GAME.apply(state, "infiltrator", action, dice)
    assert dice.remaining == 0
    assert not step.state.aliens and any(isinstance(e, Killed) for e in step.events)
    assert step.state.agents["infiltrator"].wounds == 1
    assert step.state.agents["infiltrator"].hex == at("D4")


def content_hp(card_id: str) -> int:
    from engine.galaxy.content import content

    return content().aliens[card_id].hp


def weapon_dice(key: str) -> int:
    from engine.galaxy.content import content

    return content().weapons[key].dice

"""Determinism oracle for performance work: optimisations must not change behaviour.

Each case self-plays a mission with the random policy and fingerprints everything the engine
produced along the way: every `legal_actions` list (for each seat asked), every event of
`advance` and `apply`, and the final `dump`. The pinned values were recorded before the
path-finding and line-of-sight caches went in (issue #10) and must stay equal. They must not
depend on PYTHONHASHSEED either: breaking a tie by a set's iteration order is a bug.

A deliberate rules change does change them: re-pin with the `actual` value the failure shows,
and say so in the commit message. An optimisation never should.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from engine.core.dice import SeededDice, derive_seed
from engine.core.game import Game, scenario_info
from engine.registry import games
from engine.selfplay import choose_action, default_seats

# (game, scenario, seed, players) -> (sha256 of the final dump, sha256 of the whole trace), 16
# hex digits; players 0 is the scenario's default (its required roles).
# Forlorn was re-pinned after the rules fixes of issue #19 (Surge, flames, Xeno choices), and
# Solo B's trace (only) when its trapped Marines could trade rooms at set-up (issue #19), and
# its dump (only: the map key) when it moved onto its own Map B layout, "B-solo" (issue #19);
# all four again for the rules fixes of issue #30: the starting Xenos placed after the Marines'
# set-up (2.0; Op 01's vent dice rolled then) and grenades listed on every square in sight of
# any Marine (8.5; every legal list with a grenade in the pool changes).
# Solo B and Op 04 once more (issue #30, 5.1) when a Marine's move kept its facing on a tie of
# MP (a sidestep no longer ends facing the way of travel), so moves end facing otherwise.
# Op 02 with a Xeno seat once more (issue #30, 11.0): spawns beside full vents are now the
# Marine seat's choice, so self-play asks the Marine seat and places them otherwise.
# All four once more (issue #30, 5.7/5.8): standing orders that spin-attack and orders paid by
# the Surge marker are now listed, so every Marine legal list changes.
# All four once more (issue #30, rules built as written): the Eggs are dropped by dice onto a
# grid corner and put on a touched square (2.0: other rolls, some Eggs set aside, a Xeno seat
# asked), the Flamethrower's refuelling order is listed (5.5), and spawns beside full vents
# ask the Marine seat against the automatic Xenos too (11.0).
# Galaxy m4/m6 were re-pinned after the mission balance of issue #4 changed their content and
# again after the rules fixes and balance of issue #18 (engagement, revival and delivery
# choices, box Signal counts) and once more when #18 retuned every mission's objective rows
# and round limits for rising difficulty, and for the BLUE die's new face layout (issue #30:
# every Teleport Point symbol on a face), and m4 (dump and trace) and m6 (trace: its round
# limit shows in the briefing) once more for the #30 retune of round limits and kill rows;
# Galaxy m4 and m6 once more (issue #30, player choices): the Alpha Agent picks the hex of a
# teleported newcomer on a taken Point, a Grenadier picks his re-rolls (prompts), and standing
# orders for the aliens' activation order and the Guard (which aliens, extra Ammo) are listed.
# Reichbusters after its Enemy steps stopped depending on set order, again after the rules
# and balance work of issues #5 and #20, and (trace only)
# when a revealed Enemy token's text began naming each letter's Enemy type (issue #17), and
# after the rules fixes of issue #30 (the Upkeep's free Pick Up asked of the player, its
# `pickup_left` in the dump; the Alarm's order; Rage; one Hero per team): the same 609
# actions and outcome, a changed dump and trace. Every trace once more for wording alone (issue
# #32: the narration names agents, seats, Heroes, Enemies, cards, dice and effects instead of
# their keys): same actions, same dumps.
# Forlorn's operations once more for the Xeno's standing reactions (issue #32 item 7): the
# `reactions` option's new default `standing` is in every operation's dump (op-01, op-04:
# dump only); op-02 with a Xeno seat also lists her reaction rules and asks her only after
# attacks and sightings (dump and trace). Solo B is unchanged.
# Issue #32 items 6 and 8: Forlorn's dumps (only) when the shared AP pool began to book what each
# Marine seat spends (`ap_spent`, with `asks` and `watching` for seats with no Marine left):
# same actions and traces; Galaxy m6's trace (only) when the Alpha Agent became the players'
# choice (every Operative player answers the vote; the Strategy note's words changed).
# their keys): same actions, same dumps. Reichbusters once more for issues #30 and #32: Enemies
# numbered per type (`number` and `appeared` in the dump, "Soldier 3" in the narration), Give/Take
# offering a swap to a receiver with three Loot cards (legal lists change), a supporter's
# Special Result spent by the attacker, and Hans's `heavy` standing order listed.
# Re-pinned at the merge of this session's branches (issues #30, #32): the branches' pins above
# each moved on their own code, and together Forlorn's four (the Egg drop and the refuel order
# with the reaction rules and the AP book in the dump), Galaxy m4 and m6 (the teleport, Grenadier,
# aliens-order and Guard choices with the players' vote, and the narration of a stacked-shield
# defence and a bonus on any attack) changed again; Reichbusters as reich4 pinned it.
# Every trace once more (only) for narration in plain words (issue #32's leftovers: counted
# nouns, dice said as results, aliens named "Green Xeno-Beta 1"): same actions, same dumps.
# Galaxy m6 (trace: its briefing) when its kill row became two per agent (issue #30's holdout after
# the one-token-per-power rule: four agents accomplished m6 in 5 % of games).
# Galaxy m4 and m6 (trace only) when the Close Encounter line says "X's Aliens turn".
# Galaxy m4 (trace: its briefing) when its kill row asked four agents for 6 kills, not 7.
PINNED: dict[tuple[str, str, int, int], tuple[str, str]] = {
    ("forlorn-hope", "solo-b", 1, 0): ("e858c8d4fe2fa50b", "f911f5fba6ab8645"),
    ("forlorn-hope", "op-04", 1, 0): ("25c423c50b666df0", "027d552a88db3d11"),
    ("forlorn-hope", "op-01", 2, 0): ("d727a9512b9dc6fb", "9eddcd3909a9b060"),
    ("forlorn-hope", "op-02", 1, 2): ("b7e49bee83876ee7", "7937a0620f43eb20"),  # a Xeno seat
    ("galaxy-defenders", "m6", 1, 0): ("b9319ce04a7e8414", "b1a4328967ee116e"),
    ("galaxy-defenders", "m4", 2, 0): ("4b6933692dd32343", "1e6879e0f8cde84b"),
    ("reichbusters", "lab-rats", 1, 0): ("0aec120390f52a3f", "e9a3923b7e27bae1"),
}


def fingerprint(game: Game[Any], scenario: str, seed: int, players: int) -> tuple[str, str]:
    trace = hashlib.sha256()

    def record(items: list[Any]) -> None:
        for item in items:
            trace.update(json.dumps(item, sort_keys=True, default=str).encode())

    seats = default_seats(game, scenario, players or None)
    options = scenario_info(game, scenario).resolve_options({})
    state = game.new(scenario, seats, options, SeededDice(derive_seed(seed, "setup")))
    policy = SeededDice(derive_seed(seed, "policy"))
    patience = 0
    for step_no in range(5_000):
        dice = SeededDice(derive_seed(seed, step_no))
        step = game.advance(state, dice)
        record([e.model_dump() for e in step.events])
        state = step.state
        prompt = game.waiting_on(state)
        if prompt.finished:
            break
        by_seat = {seat: game.legal_actions(state, seat) for seat in prompt.seats}
        for seat in prompt.seats:
            record([a.command() for a in by_seat[seat]])
        seat = prompt.seats[0]
        action = choose_action(by_seat[seat], policy, patience)
        patience = 0 if action.verb == "end-turn" else patience + 1
        step = game.apply(state, seat, action, dice)
        record([e.model_dump() for e in step.events])
        state = step.state
    else:
        raise AssertionError(f"{scenario} seed {seed} did not finish")
    dump = json.dumps(game.dump(state), sort_keys=True, default=str)
    return hashlib.sha256(dump.encode()).hexdigest()[:16], trace.hexdigest()[:16]


@pytest.mark.parametrize(("game_key", "scenario", "seed", "players"), sorted(PINNED))
def test_selfplay_fingerprint_is_unchanged(
    game_key: str, scenario: str, seed: int, players: int
) -> None:
    actual = fingerprint(games()[game_key], scenario, seed, players)
    assert actual == PINNED[(game_key, scenario, seed, players)], f"actual = {actual}"

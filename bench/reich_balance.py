"""Reichbusters balance: advisor win rates per mission, commando and difficulty.

    python -m bench.reich_balance --missions radio-silence --players 2,3,4 --seeds 1-100 \
        --difficulty cadet --commando default,random

`default` is self-play's commando (the first seats of the role list, the others completed by
the engine); `random` draws one legal Hero per team from the seed (a Hero the mission makes
unavailable is never drawn), seats the first P of them and lets the seats share the rest, as
`ReichGame.new` does. Prints one JSON line per cell: wins, partials, defeats, errors, rounds.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter

from engine.core.dice import SeededDice, derive_seed, pick
from engine.reich.commando import TEAMS
from engine.reich.content import load_content
from engine.reich.game import ReichGame
from engine.reich.state import ReichState
from engine.selfplay import choose_action, default_seats

GAME = ReichGame()


def random_commando(mission: str, seed: int) -> list[str]:
    """One available Hero per team, drawn from the seed, in a seed-drawn order."""
    content = load_content()
    rng = SeededDice(derive_seed(seed, "commando"))
    out = []
    for team in TEAMS:
        pool = sorted(
            k
            for k, h in content.heroes.items()
            if h.team == team and k not in content.missions[mission].unavailable
        )
        out.append(pick(rng, pool))
    order = []
    while out:
        order.append(out.pop(rng.randrange(len(out))))
    return order


def setup(mission: str, seed: int, players: int, difficulty: str, commando: str) -> ReichState:
    dice = SeededDice(derive_seed(seed, "setup"))
    options = {"difficulty": difficulty}
    if commando == "default":
        return GAME.new(mission, default_seats(GAME, mission, players), options, dice)
    heroes = random_commando(mission, seed)
    state = GAME.new(mission, heroes, options, dice)
    seats = heroes[:players]
    for index, key in enumerate(heroes):
        state.heroes[key].seat = seats[index % players]
    state.seats = seats
    return state


def play(mission: str, seed: int, players: int, difficulty: str, commando: str) -> tuple[str, int]:
    """(outcome or 'error: ...', rounds) of one advisor game."""
    try:
        state = setup(mission, seed, players, difficulty, commando)
        policy = SeededDice(derive_seed(seed, "policy"))
        patience = 0
        for step_no in range(20_000):
            dice = SeededDice(derive_seed(seed, step_no))
            state = GAME.advance(state, dice).state
            prompt = GAME.waiting_on(state)
            if prompt.finished:
                return prompt.outcome or "none", state.round
            seat = prompt.seats[0]
            actions = GAME.legal_actions(state, seat)
            action = GAME.advise(state, seat, actions) or choose_action(actions, policy, patience)
            patience = 0 if action.verb == "end-turn" else patience + 1
            state = GAME.apply(state, seat, action, dice).state
        return "error: no outcome", state.round
    except Exception as error:  # balance runs report failures as data
        return f"error: {type(error).__name__}: {error}", 0


def _seeds(text: str) -> range:
    low, _, high = text.partition("-")
    return range(int(low), int(high or low) + 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--missions", default=",".join(sorted(load_content().missions)))
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--seeds", default="1-100")
    parser.add_argument("--difficulty", default="cadet")
    parser.add_argument("--commando", default="default,random")
    args = parser.parse_args(argv)
    for mission in args.missions.split(","):
        for difficulty in args.difficulty.split(","):
            for commando in args.commando.split(","):
                for players in [int(p) for p in args.players.split(",")]:
                    tally: Counter[str] = Counter()
                    rounds = 0
                    errors: list[str] = []
                    seeds = _seeds(args.seeds)
                    for seed in seeds:
                        outcome, played = play(mission, seed, players, difficulty, commando)
                        if outcome.startswith("error"):
                            errors.append(f"{seed}: {outcome}")
                            outcome = "error"
                        tally[outcome] += 1
                        rounds += played
                    line = {
                        "mission": mission,
                        "difficulty": difficulty,
                        "commando": commando,
                        "players": players,
                        "games": len(seeds),
                        "wins": tally["victory"],
                        "partial": tally["partial"],
                        "defeat": tally["defeat"],
                        "errors": errors[:3],
                        "mean_rounds": round(rounds / max(1, len(seeds)), 1),
                    }
                    print(json.dumps(line), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

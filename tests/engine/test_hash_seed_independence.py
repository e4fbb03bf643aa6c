"""Every game plays the same from the same seed in any process.

Python randomises string hashing per process (PYTHONHASHSEED), so anything that iterates a
set or picks from one can differ between the process that played a step and the one that
replays it (`python -m bot verify`, a restarted bot). Each scenario is played a little in two
interpreters with different hash seeds; the final states must be identical.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from engine.registry import SHIPPED, games

GAMES = [
    key
    for key, game in games().items()
    if any(game.__class__.__module__.startswith(m) for m in SHIPPED)
]

PLAY = """
import hashlib, json, sys
from engine.core.dice import SeededDice, derive_seed
from engine.core.game import scenario_info
from engine.registry import get_game
from engine.selfplay import choose_action, default_seats

game = get_game(sys.argv[1])
digests = {}
for scenario, seed in ((info.key, seed) for info in game.scenarios() for seed in (1, 2)):
    seats = default_seats(game, scenario, None)
    options = scenario_info(game, scenario).resolve_options({})
    state = game.new(scenario, seats, options, SeededDice(derive_seed(seed, "setup")))
    policy = SeededDice(derive_seed(seed, "policy"))
    for n in range(int(sys.argv[2])):
        state = game.advance(state, SeededDice(derive_seed(seed, n))).state
        prompt = game.waiting_on(state)
        if prompt.finished:
            break
        seat = prompt.seats[0]
        action = choose_action(game.legal_actions(state, seat), policy, n % 7)
        state = game.apply(state, seat, action, SeededDice(derive_seed(seed, n))).state
    dump = json.dumps(game.dump(state), sort_keys=True)
    digests[f"{scenario} seed {seed}"] = hashlib.sha256(dump.encode()).hexdigest()
print(json.dumps(digests))
"""


def play_in_process(game: str, hash_seed: str, steps: int) -> dict[str, str]:
    """The final state's digest for each scenario and seed, played in a fresh interpreter."""
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(
        [sys.executable, "-c", PLAY, game, str(steps)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    digests: dict[str, str] = json.loads(done.stdout)
    return digests


@pytest.mark.parametrize("game", GAMES)
def test_same_seed_same_game_in_any_process(game: str) -> None:
    first = play_in_process(game, "1", 150)
    second = play_in_process(game, "4242", 150)
    differ = sorted(k for k in first if first[k] != second.get(k))
    assert not differ, f"{game} depends on the process's string hashing: {differ}"

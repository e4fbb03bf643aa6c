"""Simulated players for the service benchmarks, kept out of the server's process.

A real player's client runs elsewhere: deciding what to type costs the bot nothing. So the
throughput benchmark asks a separate process to read the campaign (straight from the SQLite
file, as any reader may while the bot writes in WAL mode) and pick a legal action; the bot's
process only does the bot's work. With PostgreSQL the choice is made in-process instead.
"""

from __future__ import annotations

import json
import multiprocessing
import sqlite3
from concurrent.futures import Executor, ProcessPoolExecutor

from engine.core.dice import SeededDice, derive_seed
from engine.registry import games
from engine.selfplay import choose_action

_connection: sqlite3.Connection | None = None


def choose_from_row(game_key: str, status: str, state_json: str | None, seed: int) -> str | None:
    """The command a player types next, or None when the campaign waits on nobody."""
    if status != "active" or not state_json:
        return None
    game = games()[game_key]
    state = game.load(json.loads(state_json))
    prompt = game.waiting_on(state)
    if prompt.finished or not prompt.seats:
        return None
    actions = game.legal_actions(state, prompt.seats[0])
    return choose_action(actions, SeededDice(seed), 0).command()


def choose_in_file(db_path: str, channel: str, seed: int) -> str | None:
    """In the players' process: read the channel's live campaign from the SQLite file."""
    global _connection
    if _connection is None:
        _connection = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=10)
    row = _connection.execute(
        "SELECT game, status, state_json FROM campaign WHERE live_channel = ?", (channel,)
    ).fetchone()
    _connection.commit()  # end the read transaction so the next read sees new steps
    if row is None:
        return None
    return choose_from_row(row[0], row[1], row[2], seed)


def players_process() -> Executor:
    """One process for every simulated player (forkserver: no inherited loop or locks)."""
    return ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("forkserver"))


def player_seed(player: int, turn: int) -> int:
    return derive_seed(player, f"turn-{turn}")

"""Every argument the games' legal actions use can be typed in the Discord commands."""

from __future__ import annotations

from collections import defaultdict

from bot.discord.client import command_tree_json
from bot.schema import PLAY_VERBS, spec_of
from engine.core.dice import SeededDice, derive_seed
from engine.registry import SHIPPED, games
from engine.selfplay import choose_action, default_seats

# Arguments some rules take that random play rarely reaches.
KNOWN_RARE = {"move": {"facing"}, "attack": {"target2"}, "act": {"card", "drop"}}


def used_arguments() -> dict[str, set[str]]:
    found: dict[str, set[str]] = defaultdict(set)
    for game in games().values():
        if not any(game.__class__.__module__.startswith(m) for m in SHIPPED):
            continue
        for info in game.scenarios():
            seats = default_seats(game, info.key, info.max_seats)
            state = game.new(info.key, seats, info.resolve_options({}), SeededDice(1))
            policy, patience = SeededDice(derive_seed(info.key, "policy")), 0
            for step in range(150):
                dice = SeededDice(derive_seed(info.key, step))
                state = game.advance(state, dice).state
                prompt = game.waiting_on(state)
                if prompt.finished:
                    break
                for seat in prompt.seats:
                    for action in game.legal_actions(state, seat):
                        found[action.verb].update(action.args)
                action = choose_action(game.legal_actions(state, prompt.seats[0]), policy, patience)
                patience = 0 if action.verb == "end-turn" else patience + 1
                state = game.apply(state, prompt.seats[0], action, dice).state
    return found


PLAY_OPTIONS = {
    verb: tuple(o.name for o in spec.options if o.complete == "table")
    for verb in PLAY_VERBS
    if (spec := spec_of(verb)) is not None
}


async def test_every_argument_has_a_discord_option() -> None:
    tree = {c["name"]: c for c in await command_tree_json()}
    options = {verb: {o["name"] for o in tree[verb].get("options") or []} for verb in PLAY_OPTIONS}
    for verb, args in used_arguments().items():
        assert verb in options, verb
        missing = args - options[verb]
        assert not missing, f"/{verb} lacks options {sorted(missing)}"
        assert args <= set(PLAY_OPTIONS[verb])  # and they autocomplete from legal actions
    for verb, args in KNOWN_RARE.items():
        assert args <= options[verb], verb

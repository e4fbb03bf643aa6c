"""Half-actions: a command missing an option the action needs is refused by naming that option
and offering its legal values, never with the engine's puzzled message about an empty value."""

from __future__ import annotations

from typing import Any

import pytest
from offered import NoPictures
from support import caller, text

from bot.storage.db import Database
from bot.table import TableService
from bot.table.guidance import NOTHING, WHO, extending, missing_options, refusal_text, why_empty
from engine.core.dice import SeededDice
from engine.core.errors import RuleError
from engine.core.game import Action
from engine.registry import get_game
from engine.selfplay import choose_action, default_seats

ANN = caller("ann")

# What the engines said before the table named the missing option (issue #17).
PUZZLES = ("is not a square", "There is no alien ''", "cannot do that now", "There is no item")


def shortened(action: Action) -> Action | None:
    """The action without the options after `unit` and its first choice (`what`, `order`)."""
    keep = [k for k in action.args if k in WHO][:1]
    keep += [k for k in action.args if k not in WHO][:1]
    if len(keep) == len(action.args):
        return None
    return Action(verb=action.verb, args={k: action.args[k] for k in keep})


@pytest.mark.parametrize(
    ("game_key", "scenario", "steps"),
    [
        ("forlorn-hope", "solo-a", 120),
        ("forlorn-hope", "op-01", 120),
        ("galaxy-defenders", "m1", 200),
        ("reichbusters", "radio-silence", 300),
    ],
)
def test_every_half_action_is_refused_by_naming_what_it_lacks(
    game_key: str, scenario: str, steps: int
) -> None:
    game: Any = get_game(game_key)
    dice, policy = SeededDice(5), SeededDice(2)
    state = game.advance(game.new(scenario, default_seats(game, scenario, None), {}, dice), dice)
    state = state.state
    checked: set[tuple[str, str]] = set()
    patience = 0
    for _ in range(steps):
        prompt = game.waiting_on(state)
        if prompt.finished:
            break
        seat = prompt.seats[0]
        legal = game.legal_actions(state, seat)
        for action in legal:
            short = shortened(action)
            kind = (action.verb, action.args.get("what") or action.args.get("order") or "")
            if short is None or kind in checked or any(a.matches(short) for a in legal):
                continue
            checked.add(kind)
            try:
                game.apply(state, seat, short, SeededDice(1))
                continue  # the engine completes it by itself (a default the rules give)
            except RuleError as refused:
                said = refusal_text(short, legal, str(refused), game.view(state, None))
            missing = missing_options(short, legal)
            assert missing, (short.command(), said)
            assert f"needs the option {missing[0]}" in said, said
            assert not any(p in said for p in PUZZLES), said
            value = extending(short, legal)[0].args[missing[0]]
            assert value in said or "more)" in said, said
        action = choose_action(legal, policy, patience)
        patience = 0 if action.verb == "end-turn" else patience + 1
        state = game.advance(game.apply(state, seat, action, dice).state, dice).state
    assert checked, "no action with options to leave out came up"


# A Galaxy seed whose opening asks no question: on most seeds an opening Signal's Teleport Point
# is taken and the Alpha Agent first picks among the closest hexes.
CALM_GALAXY = 8


async def begin(
    db: Database, game_key: str, scenario: str, roles: list[str], seed: int = 7
) -> TableService:
    table = TableService(db, new_seed=lambda: seed, limits=None, pictures=NoPictures())
    for command in (
        f"/campaign create game:{game_key} scenario:{scenario}",
        *(f"/campaign join role:{role}" for role in roles),
        "/campaign begin",
    ):
        replies = await table.handle(ANN, command)
        assert not any(r.error for r in replies), text(replies)
    return table


async def test_forlorn_open_without_a_square_names_the_square(db: Database) -> None:
    """`/act unit:ortiz what:open` answered "'None' is not a square"."""
    table = await begin(db, "forlorn-hope", "solo-a", ["marines"])
    policy, patience = SeededDice(2), 0
    for _ in range(60):
        loaded = await table.parts.loader.active(ANN)
        legal = table.parts.legal.of(loaded, "marines")
        opening = [a for a in legal if a.args.get("what") == "open"]
        if opening:
            break
        action = choose_action(legal, policy, patience)
        patience = 0 if action.verb == "end-turn" else patience + 1
        assert not any(r.error for r in await table.handle(ANN, action.command()))
    else:
        raise AssertionError("no door to open came up")
    unit = opening[0].args["unit"]
    said = text(await table.handle(ANN, f"/act unit:{unit} what:open"))
    assert "is not a square" not in said
    assert "open needs the option to" in said and opening[0].args["to"] in said, said
    # Autocomplete says so too: `open` leads on to a square.
    shown = await table.autocomplete(ANN, f"/act unit:{unit} what:op")
    assert any(s.value == "open" and "then choose to" in s.name for s in shown), shown
    # And every square it then offers is accepted.
    squares = await table.autocomplete(ANN, f"/act unit:{unit} what:open to:")
    assert {s.value for s in squares} == {a.args["to"] for a in opening if a.args["unit"] == unit}


async def test_unit_suggestions_name_the_figure_not_a_move(db: Database) -> None:
    """`/move unit:` offered "marine — F4 - 1 MP": a label of one move, for the figure."""
    table = await begin(db, "galaxy-defenders", "m1", ["marine"], CALM_GALAXY)
    shown = await table.autocomplete(ANN, "/move unit:")
    assert [s.value for s in shown] == ["marine"]
    assert shown[0].name.startswith("Chromium (Marine) at ") and "MP" not in shown[0].name


async def test_an_empty_list_says_why(db: Database) -> None:
    table = await begin(db, "galaxy-defenders", "m1", ["marine"], CALM_GALAXY)
    loaded = await table.parts.loader.active(ANN)
    legal = table.parts.legal.of(loaded, "marine")
    if any(a.verb == "attack" for a in legal):
        pytest.skip("an alien is in sight at the start of this seed")
    (shown,) = await table.autocomplete(ANN, "/attack unit:marine target:")
    assert shown.value == NOTHING and shown.name.startswith("Chromium (Marine) at ")
    assert "cannot attack now" in shown.name
    assert "facing" in shown.name and len(shown.name) <= 100
    said = text(await table.handle(ANN, f"/attack unit:marine target:{NOTHING}"))
    assert "Chromium (Marine) at" in said and "cannot attack now" in said, said
    assert "Still possible: move" in said and "/attack" not in said, said
    assert why_empty("attack", "marine", [], None).startswith("marine has nothing left")
    ending = why_empty("end-turn", None, [Action(verb="act", args={"what": "draw"})], None)
    assert ending.startswith("You cannot end the turn now:") and "/end-turn" not in ending


async def test_the_alpha_vote_has_a_button_for_every_agent(db: Database) -> None:
    """The vote read "alpha: marine, sniper" with no buttons; End turn was offered though
    ending the turn is not what the vote asks."""
    table = TableService(db, new_seed=lambda: CALM_GALAXY, limits=None, pictures=NoPictures())
    for command in (
        "/campaign create game:galaxy-defenders scenario:m1",
        "/campaign join role:marine",
        "/campaign join role:sniper",
    ):
        assert not any(r.error for r in await table.handle(ANN, command))
    post = (await table.handle(ANN, "/campaign begin"))[-1]
    labels = {b.label: b.command for b in post.buttons}
    answers = {c: label for label, c in labels.items() if c.startswith("/choose")}
    # every Operative agent's player answers the vote: one button per answer for both seats
    assert set(answers) == {
        "/choose option:marine",
        "/choose option:sniper",
        "/choose option:no-agreement",
    }
    both = " · Chromium (Marine), Iridium (Sniper)"
    assert all(label.endswith(both) for label in answers.values()), answers
    assert labels[f"Pick an action{both}"] == "/pick"
    assert not any(label.startswith("End turn") for label in labels)
    for command in labels.values():
        if command.startswith("/choose") or command == "/undo":
            continue  # (Undo is the last actor's, and says when there is nothing to undo)
        replies = await table.handle(ANN, command)
        assert not any(r.error for r in replies), (command, text(replies))
    await table.handle(ANN, "/choose option:sniper")  # proposed (as the Marine's player)
    chosen = await table.handle(ANN, "/choose option:sniper")  # agreed (as the Sniper's)
    after = {b.label: b.command for b in chosen[-1].buttons}
    assert after["End turn · Iridium (Sniper)"] == "/end-turn unit:sniper"

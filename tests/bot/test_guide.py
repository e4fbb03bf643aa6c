"""Players always know the mission and what each choice means (issue #17, content side).

Every scenario of every game has a briefing whose numbers are the ones the engine enforces,
`/rules topic:<scenario>` shows it, `/campaign begin` posts it; every term a player meets on
the board or as a choice has a description of at most 100 characters and a `/rules` topic;
`/campaign status` and `/campaign settings` speak in words.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from support import caller, text

from bot import rules
from bot.guide import briefing, describe
from bot.guide.glossary import MAX_DESCRIPTION, is_coordinate, lookup, terms_in_view
from bot.table import TableService
from engine.core.dice import SeededDice, derive_seed
from engine.core.game import Game, scenario_info
from engine.registry import get_game
from engine.selfplay import choose_action, default_seats

GAMES = ("galaxy-defenders", "forlorn-hope", "reichbusters")
SCENARIOS = [
    pytest.param(game, info.key, id=f"{game}-{info.key}")
    for game in GAMES
    for info in get_game(game).scenarios()
]
ANN, BOB = caller("ann"), caller("bob")
CHOICE_ARGS = ("what", "option", "order", "weapon")
# Arguments that name things on the board (squares, figures) rather than rules terms.
NOT_TERMS = {"none", "hands", "all", "yes", "no"}


def _new(game: Game[Any], scenario: str, options: dict[str, str] | None = None) -> Any:
    seats = default_seats(game, scenario, None)
    chosen = scenario_info(game, scenario).resolve_options(options or {})
    return game.new(scenario, seats, chosen, SeededDice(derive_seed(1, "setup")))


@pytest.mark.parametrize(("game_key", "scenario"), SCENARIOS)
def test_every_scenario_has_a_briefing_with_the_engines_numbers(
    game_key: str, scenario: str
) -> None:
    game = get_game(game_key)
    told = briefing(game, scenario)
    assert len(told.situation) > 80 and told.objectives and told.limit
    assert told.figures or told.notes
    shown = told.text()
    assert len(shown) <= 1900
    view = game.view(_new(game, scenario), None)
    if game_key == "galaxy-defenders":
        rounds = view.header["round"].split("/")[1]
        assert f"{rounds} rounds" in told.limit
    elif game_key == "forlorn-hope":
        turns = view.header["turn"].split("/")[1]
        assert told.limit == f"{turns} turns."
    else:
        assert f"Endgame is space {view.header['endgame']}" in told.limit
        assert f"({view.header['discretion']})" in shown
    topic = rules.find(game_key, scenario)
    assert topic is not None and told.objectives[0] in topic.text


def test_difficulty_changes_the_numbers_it_changes() -> None:
    game = get_game("forlorn-hope")
    veteran = briefing(game, "op-03", {"difficulty": "veteran"})
    state = _new(game, "op-03", {"difficulty": "veteran"})
    assert veteran.limit == f"{state.turns_total} turns." == "8 turns."
    assert briefing(game, "op-03").limit == "9 turns."
    reich = briefing(get_game("reichbusters"), "jailbreak", {"difficulty": "veteran"})
    played = [line for line in reich.objectives if "you play for this" in line]
    assert len(played) == 1 and played[0].startswith("**Veteran**")
    assert "kill Offizier" in played[0] or "kill" in played[0]


def test_galaxy_objectives_count_for_the_team() -> None:
    game = get_game("galaxy-defenders")
    state = game.new("m1", ["marine", "sniper"], {}, SeededDice(1))
    told = briefing(game, "m1", {}, state)
    # m1 asks 2.25 kills per agent (rounded down): four for a team of two.
    assert any("needs 4 aliens killed" in line for line in told.objectives)
    general = briefing(game, "m1")
    assert any("2/4/6/9/11 aliens killed" in line for line in general.objectives)


def test_a_team_too_small_for_a_row_is_told_so_in_its_briefing() -> None:
    """Strikeback mission 5 is accomplished only with three agents alive: a team of two reads
    that the row is out of its reach (its best is Partial); a team of three does not."""
    game = get_game("galaxy-defenders")
    two = briefing(game, "os5", {}, game.new("os5", ["marine", "sniper"], {}, SeededDice(1)))
    accomplished = next(line for line in two.objectives if line.startswith("**Accomplished"))
    assert "out of reach for a team of 2" in accomplished
    assert not any("out of reach" in line for line in two.objectives if "Partial" in line)
    seats = ["marine", "sniper", "hulk"]
    three = briefing(game, "os5", {}, game.new("os5", seats, {}, SeededDice(1)))
    assert not any("out of reach" in line for line in three.objectives)


@pytest.mark.parametrize("key", ["os4", "os5"])
def test_a_row_that_reads_as_one_above_it_is_briefed_once(key: str) -> None:
    """Missions 4 and 5 end failed the same way when the Event deck is spent and when the
    rounds run out: two rows of the table, one line of the briefing."""
    from engine.galaxy.strikeback.missions import missions

    rows = [(r.result, r.text) for r in missions()[key].objectives]
    assert len(set(rows)) < len(rows)
    lines = briefing(get_game("galaxy-defenders"), key).objectives
    assert len(lines) == len(set(lines)) == len(set(rows))


async def test_rules_topic_answers_every_scenario(table: TableService) -> None:
    for game_key in GAMES:
        for n, info in enumerate(get_game(game_key).scenarios()):
            # one reader per scenario: more scenarios than one user's rate-limit burst
            reader = caller(f"reader-{n}")
            replies = await table.handle(reader, f"/rules game:{game_key} topic:{info.key}")
            assert not replies[0].error, (game_key, info.key, replies[0].content)
            assert "Objectives" in replies[0].content and "Limit" in replies[0].content
            assert len(replies[0].content) <= 2000


async def _begin(table: TableService, game: str, scenario: str, roles: list[str]) -> str:
    await table.handle(ANN, f"/campaign create game:{game} scenario:{scenario}")
    joined = []
    for who, role in zip((ANN, BOB), roles, strict=False):
        joined.append(text(await table.handle(who, f"/campaign join role:{role}")))
    return "\n".join(joined) + "\n" + text(await table.handle(ANN, "/campaign begin"))


async def test_a_seat_that_is_its_one_figure_is_named_once(table: TableService) -> None:
    """Galaxy: the seat is the agent; "Chromium (Marine) (ann): Chromium (Marine)" said it
    twice."""
    await table.handle(ANN, "/campaign create game:galaxy-defenders scenario:m1")
    joined = text(await table.handle(ANN, "/campaign join role:marine"))
    assert "If the mission began now: Chromium (Marine) (ann)." in joined, joined
    assert "(ann): Chromium (Marine)" not in joined


async def test_begin_posts_the_briefing_and_who_plays_what(table: TableService) -> None:
    shown = await _begin(table, "reichbusters", "radio-silence", ["sarge", "hans"])
    # Joining already says who would command the heroes that fill the missing teams.
    assert "If the mission began now: Sarge (ann): Sarge, Hans, Claudine, Tane." in shown
    assert "**Briefing — Mission 1: Radio Silence**" in shown
    assert "Sarge (ann): Sarge, Claudine" in shown and "Hans (bob): Hans, Tane" in shown
    assert "A Officer, B Dog, C/D Soldier, E Zombie" in shown


async def test_forlorn_marine_seats_share_the_squad(table: TableService) -> None:
    shown = await _begin(table, "forlorn-hope", "solo-a", ["marines", "marines-2"])
    assert "same pool of Action Points" in shown
    assert re.search(r"Marines \(ann\): [^\n]+", shown)
    assert re.search(r"Marines \(2\) \(bob\): [^\n]+", shown)


async def test_campaign_status_shows_progress_health_and_seats(table: TableService) -> None:
    await _begin(table, "reichbusters", "radio-silence", ["sarge", "hans"])
    shown = text(await table.handle(BOB, "/campaign status"))
    for needed in (
        "Round 1; Mission Tracker 1, Endgame 10; Discretion 6 (alarm off)",
        "○ Cadet (played for): sabotage the objective token (0/1)",
        "- Sarge (ann): Sarge 4/4, Claudine 4/4",
        "- Hans (bob): Hans 4/4, Tane 4/4",
        "Waiting on",
        "The briefing: /rules (topic: Reichbusters: Radio Silence).",
    ):
        assert needed in shown, needed


async def test_galaxy_status_counts_kills_against_the_target(table: TableService) -> None:
    await _begin(table, "galaxy-defenders", "m1", ["marine", "sniper"])
    shown = text(await table.handle(ANN, "/campaign status"))
    assert "Round 1 of 8" in shown and "aliens killed: 0 of 4" in shown
    assert "Chromium (Marine) (ann): Chromium (Marine) 6/6" in shown
    # The Alpha Agent vote has a default answer: the prompt names its window.
    assert "decided by default in 10 minutes" in shown


async def test_settings_are_shown_in_words(table: TableService) -> None:
    await table.handle(ANN, "/campaign create game:galaxy-defenders scenario:m1")
    shown = text(await table.handle(ANN, "/campaign settings"))
    assert "=" not in shown
    assert "a reminder after 24 hours of waiting" in shown
    assert "no deadline" in shown and "waits 10 minutes, then its default applies" in shown
    changed = text(await table.handle(ANN, "/campaign settings window_minutes:0 deadline_hours:48"))
    assert "takes its default at once" in changed
    assert "a deadline of 48 hours; when it passes, a note is posted" in changed


def test_play_by_post_topic_agrees_with_the_answer_window() -> None:
    for game_key in GAMES:
        topic = rules.find(game_key, "play-by-post")
        assert topic is not None
        assert "There is no clock" not in topic.text
        assert "window_minutes" in topic.text and "default applies" in topic.text


def _terms_met(
    game_key: str, scenario: str, seed: int, steps: int, options: dict[str, str] | None = None
) -> set[str]:
    """Terms a player meets in a short random game: board words and offered choices."""
    game = get_game(game_key)
    state = _new(game, scenario, options)
    policy, patience = SeededDice(derive_seed(seed, "policy")), 0
    met: set[str] = set()
    for n in range(steps):
        dice = SeededDice(derive_seed(seed, n))
        state = game.advance(state, dice).state
        prompt = game.waiting_on(state)
        if prompt.finished:
            break
        met |= terms_in_view(game.view(state, None))
        actions = game.legal_actions(state, prompt.seats[0])
        for action in actions:
            met |= {action.args[k] for k in CHOICE_ARGS if k in action.args}
            if action.args.get("what") == "play" and "target" in action.args:
                met.add(action.args["target"])
        action = choose_action(actions, policy, patience)
        patience = 0 if action.verb == "end-turn" else patience + 1
        state = game.apply(state, prompt.seats[0], action, dice).state
    return met


def _parts(term: str) -> list[str]:
    head, sep, rest = term.partition(":")
    return [head, *rest.split("+")] if sep else [term]


# The Galaxy campaign opens with m1, which is covered on its own; the Strikeback campaign opens
# with GD Headquarters' weapon picks, which no standalone mission shows.
MISSIONS = [
    pytest.param(*param.values, {}, id=param.id)
    for param in SCENARIOS
    if param.values[1] != "campaign"
] + [
    pytest.param(
        "galaxy-defenders",
        "campaign",
        {"expansion": "strikeback"},
        id="galaxy-defenders-campaign-strikeback",
    )
]


@pytest.mark.parametrize(("game_key", "scenario", "options"), MISSIONS)
def test_every_term_met_has_a_description_and_a_topic(
    game_key: str, scenario: str, options: dict[str, str]
) -> None:
    missing: list[str] = []
    for term in sorted(_terms_met(game_key, scenario, seed=1, steps=250, options=options)):
        if is_coordinate(term) or term in NOT_TERMS:
            continue
        short = describe(game_key, term)
        if short is None or not 0 < len(short) <= MAX_DESCRIPTION:
            missing.append(f"{term}: no description")
            continue
        whole = lookup(game_key, term)
        for part in [whole.key] if whole is not None and ":" in term else _parts(term):
            if is_coordinate(part):
                continue
            entry = lookup(game_key, part)
            if entry is None or rules.find(game_key, entry.key) is None:
                missing.append(f"{term}: no /rules topic for {part}")
    assert not missing, missing


def test_descriptions_fit_discord() -> None:
    for game_key in GAMES:
        for term in ("clear-the-breech", "gd-209", "sarge", "f_overwatch-sarge", "m01"):
            found = describe(game_key, term)
            assert found is None or len(found) <= MAX_DESCRIPTION
    assert describe("galaxy-defenders", "clear-the-breech") == (
        "Tactic: Action: clear every jammed weapon you carry."
    )
    assert describe("reichbusters", "card:sprint-sarge1") is not None
    heroes = [r.key for r in scenario_info(get_game("reichbusters"), "radio-silence").roles]
    assert len(heroes) == 16
    for hero in heroes:
        found = describe("reichbusters", hero)
        assert found and found.startswith("Team ") and len(found) <= MAX_DESCRIPTION


def test_forlorn_spawns_are_counted_in_words() -> None:
    """A spawn count shows no dice key and no '1 drones': the range a roll gives, then how."""
    game = get_game("forlorn-hope")
    boarding = briefing(game, "op-01").special
    assert "Spawn each turn: 2 to 4 Drones (a roll of 1 to 3, plus 1)." in boarding, boarding
    court = briefing(game, "op-03").special
    assert "Spawn each turn: 1 Warrior, 1 to 3 Drones (a roll of 1 to 3)." in court, court
    retreat = briefing(game, "op-04").special
    told = "1 Special Trooper (a Warrior or a Blaster each), 3 to 5 Drones (a roll of 1 to 3, "
    assert any(line.startswith(f"Spawn each turn: {told}") for line in retreat), retreat

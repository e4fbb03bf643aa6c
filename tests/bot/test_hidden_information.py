"""Hidden information stays hidden (issue #14), checked over every public surface.

Whole games of every shipped scenario with hidden information (Forlorn: Hope operations with a
human Xeno seat, Reichbusters hands and decks) are self-played through the table service with
reaction windows, mulligan swaps, Modifier plays, gives and a seat hand-over; every public
artefact is checked against the secrets of that moment as it is made (see tests/hidden_info.py).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hidden_info import (
    CHANNEL,
    MIRROR,
    Artefact,
    Chooser,
    Secrets,
    SecretTracker,
    Table,
    check_web,
    fast_renderer,
    self_play,
    who,
)

import bot.pictures as worker_pictures
from bot.archive import export_campaign
from bot.clock import ManualClock
from bot.replay import run_action
from bot.replies import Reply
from bot.scheduler import Scheduler
from bot.storage.db import Database
from bot.table import TableService
from bot.web.timeline import Timeline
from engine.core.dice import SeededDice, derive_seed
from engine.core.game import Action

FORLORN_OPS = ["op-01", "op-02", "op-03", "op-04"]
REICH_MISSIONS = ["radio-silence", "jailbreak", "lab-rats", "wolffs-lair", "hive-breach"]
WHOLE_GAME = 4000


class Outbox:
    """The scheduler's channel posts and direct messages, kept for checking."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, Reply]] = []

    async def post(self, channel_id: str, reply: Reply) -> None:
        self.sent.append((channel_id, reply))

    async def dm(self, user_id: str, reply: Reply) -> bool:
        self.sent.append((f"dm:{user_id}", reply))
        return True


@pytest.fixture(autouse=True)
def still_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    """Phase animations are drawn from the same public view and events as the still image."""

    async def no_animation(*_: Any) -> None:
        return None

    monkeypatch.setattr(worker_pictures, "phase_images", no_animation)


@pytest.fixture
async def sqlite(tmp_path: Path) -> AsyncIterator[Database]:
    database = Database(f"sqlite+aiosqlite:///{tmp_path / 'hidden.db'}")
    await database.init()
    yield database
    await database.close()


def big_seed(n: int) -> int:
    """A campaign seed as long as real ones (62 bits), so finding it in a text is no accident."""
    return random.Random(n).getrandbits(62) | (1 << 61)


def service_for(db: Database, seed: int, clock: ManualClock | None = None) -> TableService:
    return TableService(
        db, renderer=fast_renderer, new_seed=lambda: seed, clock=clock or ManualClock(), limits=None
    )


async def open_table(
    db: Database, game_key: str, scenario: str, roles: dict[str, str], seed: int, extra: str = ""
) -> Table:
    """Create, seat, mirror, ask for digests and begin; every reply is checked."""
    clock = ManualClock()
    table = Table(service_for(db, seed, clock), game_key, seed)
    owner = next(iter(roles.values()))
    created = await table.say(
        owner, f"/campaign create game:{game_key} scenario:{scenario} {extra}"
    )
    assert not created[0].error, created[0].content
    for role, user in roles.items():
        joined = await table.say(user, f"/campaign join role:{role}")
        assert not joined[0].error, joined[0].content
    await table.say(owner, f"/campaign mirror channel:{MIRROR}")
    await table.say(owner, "/campaign settings digest:on")
    begun = await table.say(owner, "/campaign begin")
    assert not any(r.error for r in begun), begun[0].content
    return table


async def scheduler_posts(table: Table) -> None:
    """A day later: the digest and the reminders, as the scheduler posts them."""
    outbox = Outbox()
    clock = table.service.clock
    assert isinstance(clock, ManualClock)
    clock.advance(timedelta(days=1, minutes=1))
    await Scheduler(table.service, outbox, clock).scan()
    assert any("Daily digest" in reply.content for _, reply in outbox.sent)
    found = [Artefact(f"scheduler post to {where}", r.content) for where, r in outbox.sent]
    await table.check(found)


async def live_export(table: Table, owner: str) -> dict[str, Any]:
    exported = await table.say(owner, "/campaign export")
    data = exported[0].images[0].data
    await table.check([Artefact("live export", data.decode())])
    document: dict[str, Any] = json.loads(data)
    return document


def assert_no_leaks(table: Table, at_least: int = 20) -> None:
    assert table.checked >= at_least
    assert table.leaks == [], "\n".join(table.leaks[:20])


# ---------------------------------------------------------------------- whole games


@pytest.mark.slow
@pytest.mark.parametrize("scenario", FORLORN_OPS)
async def test_a_whole_forlorn_operation_against_a_human_xeno_leaks_nothing(
    sqlite: Database, scenario: str
) -> None:
    seed = big_seed(FORLORN_OPS.index(scenario))
    players = {"marines": "ann", "xeno": "bob"}
    table = await open_table(sqlite, "forlorn-hope", scenario, players, seed, "xeno:human")
    # The checker can see a secret: the Xeno's own hand names her cards.
    hand = "\n".join(r.content for r in await table.say("bob", "/hand"))
    secrets = table.tracker.now(await table.state())
    assert secrets.ids and secrets.found_in(hand)
    await self_play(table, players, policy_seed=seed % 1000, max_steps=60)
    # The Xeno player hands her seat to a newcomer: allowed, and the Marine player can still
    # never take it.
    handed = await table.say("bob", "/campaign seat role:xeno to:<@id-cy>")
    assert "hands **xeno** to <@id-cy>" in handed[0].content
    players["xeno"] = "cy"
    await live_export(table, "ann")
    await scheduler_posts(table)
    steps = await self_play(table, players, policy_seed=seed % 997, max_steps=WHOLE_GAME)
    assert table.game.waiting_on(await table.state()).finished and steps < WHOLE_GAME
    await table.look("eve", "/log last:50")
    assert await check_web(table) > 50  # the shortest operation (op-03) now checks 68
    assert_no_leaks(table, at_least=500)


@pytest.mark.slow
@pytest.mark.parametrize("scenario", REICH_MISSIONS)
async def test_a_whole_reichbusters_mission_leaks_no_hand(sqlite: Database, scenario: str) -> None:
    seed = big_seed(100 + REICH_MISSIONS.index(scenario))
    players = {"sarge": "ann", "hans": "bob"}
    table = await open_table(sqlite, "reichbusters", scenario, players, seed)
    hand = "\n".join(r.content for r in await table.say("ann", "/hand"))
    assert table.tracker.now(await table.state()).found_in(hand)
    await self_play(table, players, policy_seed=seed % 1000, max_steps=80)
    await live_export(table, "ann")
    await scheduler_posts(table)
    steps = await self_play(table, players, policy_seed=seed % 997, max_steps=WHOLE_GAME)
    assert table.game.waiting_on(await table.state()).finished and steps < WHOLE_GAME
    assert await check_web(table) > 100
    assert_no_leaks(table, at_least=500)


@pytest.mark.parametrize(
    ("game_key", "scenario", "roles", "extra"),
    [
        ("forlorn-hope", "op-01", ["marines", "xeno"], "xeno:human"),
        ("forlorn-hope", "op-03", ["marines", "marines-2", "xeno"], "xeno:human"),
        ("reichbusters", "lab-rats", ["sarge", "hans", "claudine"], ""),
        ("galaxy-defenders", "m1", ["marine", "sniper"], ""),  # deck order and seed only
    ],
)
@pytest.mark.parametrize("n", range(2))
async def test_openings_on_random_seeds_leak_nothing(
    sqlite: Database, game_key: str, scenario: str, roles: list[str], extra: str, n: int
) -> None:
    """The first steps of many differently seeded games: other hands, other windows."""
    seed = big_seed(1000 + n * 7 + len(scenario))
    players = {role: f"p{i}" for i, role in enumerate(roles)}
    table = await open_table(sqlite, game_key, scenario, players, seed, extra)
    await self_play(table, players, policy_seed=seed % 10_007, max_steps=40, look_every=10)
    document = await live_export(table, "p0")
    assert "seed" not in document and "state" not in document
    assert await check_web(table) > 10
    assert_no_leaks(table)


async def test_the_web_check_catches_a_page_drawn_from_a_seat_view(
    sqlite: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The web view's leak check can fail: pages drawn from the Xeno's own view (her hand in
    it) are caught, step by step."""
    seed = big_seed(11)
    players = {"marines": "ann", "xeno": "bob"}
    table = await open_table(sqlite, "forlorn-hope", "op-01", players, seed, "xeno:human")
    await self_play(table, players, policy_seed=5, max_steps=15)
    assert_no_leaks(table)

    def xeno_view(self: Timeline, seq: int) -> Any:
        return self.game.view(self.state_at(seq), "xeno")

    monkeypatch.setattr(Timeline, "view_at", xeno_view)
    await check_web(table)
    assert any(leak.startswith("web view of step") for leak in table.leaks), table.leaks[:3]


# ---------------------------------------------------------------------- particular surfaces


async def test_the_xeno_hand_is_offered_in_private_only(sqlite: Database) -> None:
    """op-01 with a human Xeno: the begin post used to carry "Swap <card>" buttons."""
    seed = big_seed(7)
    players = {"marines": "ann", "xeno": "bob"}
    table = await open_table(sqlite, "forlorn-hope", "op-01", players, seed, "xeno:human")
    state = await table.state()
    prompt = table.game.waiting_on(state)
    assert prompt.seats == ["xeno"] and prompt.kind == "choice"
    begun = await table.service.handle(who("eve"), "/board share:yes")
    assert not begun[0].ephemeral
    # The last public post offers the Xeno a private panel, not her cards.
    last = await table.look("eve", "/log last:5")
    assert "swap" not in last[0].content.lower()
    panel = await table.say("bob", "/hand")
    assert panel[0].ephemeral and any(
        b.command.startswith("/choose option:swap:") for b in panel[0].buttons
    )
    assert any(b.label.startswith("Swap ") for b in panel[0].buttons)
    swap = next(b.command for b in panel[0].buttons if b.command.startswith("/choose option:swap:"))
    card = swap.split("swap:")[1].split("+")[0]
    replies = await table.say("bob", swap)
    public = "\n".join(r.content for r in replies if not r.ephemeral)
    assert "swaps 1 Mutation card" in public and card not in public
    logged = (await table.look("eve", "/log last:3"))[0].content
    assert "Xeno: The Xeno player swaps" in logged and card not in logged
    assert_no_leaks(table)


async def test_a_seat_never_lets_one_player_see_both_sides(sqlite: Database) -> None:
    seed = big_seed(8)
    players = {"marines": "ann", "xeno": "bob"}
    table = await open_table(sqlite, "forlorn-hope", "op-01", players, seed, "xeno:human")
    say = table.say
    # The owner (Marines) may not take the Xeno seat, nor hand it to herself.
    refused = await say("ann", "/campaign seat role:xeno to:<@id-ann>")
    assert refused[0].error and "Only xeno's player or a server admin" in refused[0].content
    # The Xeno player may not hand it to the Marine player either.
    refused = await say("bob", "/campaign seat role:xeno to:<@id-ann>")
    assert refused[0].error and "plays against **xeno**" in refused[0].content
    # A server admin may hand it over: announced in public, but never to the other side.
    refused = await say("mod", "/campaign seat role:xeno to:<@id-ann>", admin=True)
    assert refused[0].error and "one player may not see both sides" in refused[0].content
    handed = await say("mod", "/campaign seat role:xeno to:<@id-cy>", admin=True)
    assert not handed[0].ephemeral and "Server admin mod hands **xeno**" in handed[0].content
    assert "<@id-bob>" in handed[0].content
    # cy leaves: the free Xeno seat still cannot go to the Marine player, nor to bob once he
    # has taken a Marine seat... and a former Xeno holder never takes a Marine seat.
    await say("cy", "/campaign leave")
    for command in ("/campaign seat role:xeno", "/campaign join role:xeno"):
        refused = await say("ann", command)
        assert refused[0].error and "holds **marines**" in refused[0].content
    await say("ann", "/campaign leave")
    refused = await say("cy", "/campaign join role:marines")
    assert refused[0].error and "has held **xeno**" in refused[0].content
    refused = await say("ann", "/campaign join role:xeno")
    assert refused[0].error and "has held **marines**" in refused[0].content
    taken = await say("dan", "/campaign join role:xeno")
    assert not taken[0].error


async def test_a_seat_before_the_mission_begins(sqlite: Database) -> None:
    table = Table(service_for(sqlite, big_seed(9)), "forlorn-hope", big_seed(9))
    await table.say("ann", "/campaign create game:forlorn-hope scenario:op-01 xeno:human")
    await table.say("ann", "/campaign join role:marines")
    refused = await table.say("ann", "/campaign join role:xeno")
    assert refused[0].error and "holds **marines**" in refused[0].content
    assert not (await table.say("ann", "/campaign join role:marines-2"))[0].error


async def test_a_stand_in_never_names_a_secret_command(sqlite: Database) -> None:
    """When the table answers for the Xeno (a closed window), the public note is generic."""
    from bot.disclosure import stand_in_events
    from engine.registry import get_game

    game = get_game("forlorn-hope")
    table = await open_table(
        sqlite, "forlorn-hope", "op-01", {"marines": "ann", "xeno": "bob"}, 5, "xeno:human"
    )
    state = await table.state()
    swap = next(
        a for a in game.legal_actions(state, "xeno") if a.args["option"].startswith("swap:")
    )
    events = stand_in_events(game, state, "Autopilot", "xeno", swap)
    assert [e.text for e in events if e.visible_to is None] == ["Autopilot plays for Xeno."]
    # the seat itself is told what was played, in words (the swap's label, never the command)
    assert any(swap.label and swap.label in e.text for e in events if e.visible_to == ["xeno"])
    end = stand_in_events(game, state, "Autopilot", "marines", Action(verb="end-turn"))
    assert end[0].text == "Autopilot plays for Marines: ends the turn"


# ---------------------------------------------------------------------- no dice ahead


def numbers_in(texts: list[str]) -> set[int]:
    """Every whole number in anything a player has seen (decimal and long hex)."""
    found = set()
    for text in texts:
        found |= {int(n) for n in re.findall(r"\d{1,20}", text)}
        found |= {int(h, 16) for h in re.findall(r"\b[0-9a-fA-F]{12,16}\b", text)}
    return found


async def test_nothing_a_player_can_obtain_predicts_the_next_dice(sqlite: Database) -> None:
    """The owner collects everything she can obtain (public posts, her own private replies,
    her hand, her own seat's board, the live export, the log) and tries every number in it as
    the campaign seed or as the next step's dice seed: none predicts the next roll, while the
    real seed (which the operator's backup holds) does."""
    seed = big_seed(42)
    players = {"sarge": "ann", "hans": "bob"}
    table = await open_table(sqlite, "reichbusters", "radio-silence", players, seed)
    await self_play(table, players, policy_seed=3, max_steps=30)
    campaign = await table.service.repo.live_in_channel(CHANNEL)
    assert campaign is not None
    obtained = list(table.private_seen)
    for command in ("/hand", "/board for:me view:text", "/log last:50", "/campaign status"):
        obtained += [r.content for r in await table.service.handle(who("ann"), command)]
    export = await table.service.handle(who("ann"), "/campaign export")
    obtained.append(export[0].images[0].data.decode())
    obtained.append(table.game.view(await table.state(), "sarge").model_dump_json())
    candidates = numbers_in(obtained)
    assert len(candidates) > 20

    # The next steps that roll dice, as the owner would take them.
    tried, chooser = 0, Chooser(11)
    for _ in range(400):
        state = await table.state()
        chosen = chooser.next(table.game, state)
        assert chosen is not None
        seat, action = chosen
        campaign = await table.service.repo.live_in_channel(CHANNEL)
        assert campaign is not None
        seq = campaign.step + 1
        with_seed = run_action(table.game, state, seed, seq, seat, action)
        await table.say(players[seat], action.command())
        if not with_seed.random_used:
            continue
        tried += 1
        # With the seed the step is foreseen exactly (the operator's backup holds it)...
        assert outcome(table.game, with_seed.step.state) == outcome(table.game, await table.state())
        # ...and with nothing a player holds are its dice.
        truth = draws(SeededDice(derive_seed(seed, seq)))
        for guess in candidates:
            assert draws(SeededDice(derive_seed(guess, seq))) != truth, guess
            assert draws(SeededDice(guess)) != truth, guess
        if tried >= 3:
            break
    assert tried >= 3
    campaign = await table.service.repo.live_in_channel(CHANNEL)
    assert campaign is not None
    full = json.loads(
        export_campaign(
            campaign,
            await table.service.repo.seats(campaign.id or 0),
            await table.service.repo.log(campaign.id or 0),
        )
    )
    assert full["seed"] == seed and seed not in candidates


def draws(dice: SeededDice) -> list[int]:
    return [dice.randrange(1 << 30) for _ in range(4)]


def outcome(game: Any, state: Any) -> str:
    return json.dumps(game.dump(state), sort_keys=True)


async def test_the_xeno_standing_reactions_never_appear_in_a_public_text(
    sqlite: Database,
) -> None:
    """Issue #32: her standing reaction rules are hidden like her hand. She sets every rule
    she may (each one is answered to her alone), then the game goes on; every public artefact
    is checked for the rules' words (the tracker counts them as secrets)."""
    seed = big_seed(32)
    players = {"marines": "ann", "xeno": "bob"}
    table = await open_table(sqlite, "forlorn-hope", "op-01", players, seed, "xeno:human")
    state = await table.state()
    rules = [a for a in table.game.legal_actions(state, "xeno") if a.verb == "orders"]
    assert rules
    for rule in rules:
        replies = await table.say("bob", rule.command())
        # Told to her alone (a public reply, if any, is the open post shown again).
        assert any(r.ephemeral and "standing reactions now" in r.content for r in replies), rule
    secrets = table.tracker.now(await table.state())
    told = "\n".join(r.content for r in await table.say("bob", "/hand"))
    assert "Standing reactions" in secrets.texts and secrets.found_in(told)
    await self_play(table, players, policy_seed=seed % 1000, max_steps=80)
    await table.look("eve", "/log last:50")
    assert await check_web(table) > 10
    assert_no_leaks(table)


# ---------------------------------------------------------------------- the checker itself


def test_the_checker_finds_what_it_looks_for() -> None:
    secrets = Secrets(ids={"m06", "sprint-2"}, names={"Hardened Shell"}, texts={"a long text"})
    secrets.seed = 123456789012345
    assert secrets.found_in("play m06 now") and secrets.found_in("Swap Hardened Shell")
    assert secrets.found_in("id sprint-2.") and secrets.found_in("... a long text ...")
    assert secrets.found_in("seed 123456789012345")
    assert not secrets.found_in("M06 m066 sprint-21 Hardened")
    tracker = SecretTracker("galaxy-defenders", 5)
    assert tracker.now(None).ids == set()


async def test_the_leak_test_catches_public_answer_buttons(
    sqlite: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the old behaviour (every answer a public button) the same harness finds the Xeno's
    cards on the buttons of the first post: the leak test can fail."""
    import bot.disclosure

    monkeypatch.setattr(bot.disclosure, "holds_secrets", lambda *_: False)
    monkeypatch.setattr(bot.disclosure, "MAX_INLINE_ANSWERS", 10_000)  # no select for long lists
    players = {"marines": "ann", "xeno": "bob"}
    table = await open_table(sqlite, "forlorn-hope", "op-01", players, big_seed(3), "xeno:human")
    where = {leak.split(":")[0] for leak in table.leaks}
    assert {"button label", "button command"} <= where


# ---------------------------------------------------------------------- the playground


@pytest.mark.parametrize(
    ("game_key", "scenario", "roles", "extra"),
    [
        ("forlorn-hope", "op-02", ["marines", "xeno"], "xeno:human"),
        ("reichbusters", "jailbreak", ["sarge", "hans"], ""),
    ],
)
async def test_a_spectator_reading_the_playground_api_sees_no_card(
    sqlite: Database, game_key: str, scenario: str, roles: list[str], extra: str
) -> None:
    """Players play through `POST /api/command`; a spectator polls the channel and its mirror
    (`GET /api/channels/<c>/messages`, with and without a user) after every command."""
    from aiohttp.test_utils import TestClient, TestServer

    from bot.playground.server import create_app

    seed = big_seed(77)
    service = service_for(sqlite, seed)
    table = Table(service, game_key, seed)  # for the secrets and the state
    players = {role: f"p{i}" for i, role in enumerate(roles)}
    last: dict[str, int] = {CHANNEL: 0, MIRROR: 0}
    checked = 0
    async with TestClient(TestServer(create_app(service))) as client:

        async def send(user: str, text: str) -> dict[str, Any]:
            body = {"channel": CHANNEL, "user": user, "text": text}
            response = await client.post("/api/command", json=body)
            result: dict[str, Any] = await response.json()
            return result

        async def spectate() -> None:
            nonlocal checked
            found: list[Artefact] = []
            for channel in last:
                for viewer in (None, "eve"):
                    params = {"after": str(last[channel])} | ({"user": viewer} if viewer else {})
                    response = await client.get(f"/api/channels/{channel}/messages", params=params)
                    messages = (await response.json())["messages"]
                    for message in messages:
                        found.append(Artefact(f"{channel} {message['kind']}", message["content"]))
                        found += [Artefact("button", json.dumps(b)) for b in message["buttons"]]
                        found += [Artefact("alt text", a) for a in message["image_alts"]]
                        for url in message["images"]:
                            image = await client.get(url)
                            assert (
                                "public" not in image.headers["Cache-Control"]
                                or not (message["ephemeral"])
                            )
                    if viewer == "eve" and messages:
                        last[channel] = max(m["id"] for m in messages)
            checked += len(found)
            await table.check(found)

        await send("p0", f"/campaign create game:{game_key} scenario:{scenario} {extra}")
        for role, user in players.items():
            assert (await send(user, f"/campaign join role:{role}"))["ok"]
        await send("p0", f"/campaign mirror channel:{MIRROR}")
        assert (await send("p0", "/campaign begin"))["ok"]
        await spectate()
        chooser = Chooser(seed % 101)
        for _ in range(60):
            chosen = chooser.next(table.game, await table.state())
            if chosen is None:
                break
            seat, action = chosen
            result = await send(players[seat], action.command())
            assert result["ok"], result
            await spectate()
        # The owner's export reached only her, and is never cached in public.
        exported = await send("p0", "/campaign export")
        url = exported["replies"][0]["images"][0]
        response = await client.get(url)
        assert response.headers["Cache-Control"] == "private, no-store"
        assert response.headers["Content-Type"].startswith("application/json")
        await table.check([Artefact("live export", await response.text())])
        await spectate()
    assert checked > 100
    assert table.leaks == [], "\n".join(table.leaks[:20])


# ------------------------------------------------------------ where the playground listens


def test_the_playground_listens_on_this_machine_unless_told_otherwise() -> None:
    from bot.config import Settings, playground_refusal, playground_warning

    settings = Settings(_env_file=None)
    assert settings.playground_host == "127.0.0.1" and settings.playground_enabled
    assert playground_refusal(settings) is None and playground_warning(settings) is None
    wide = Settings(_env_file=None, playground_host="0.0.0.0")
    warning = playground_warning(wide)
    assert warning and "no login" in warning
    off = Settings(_env_file=None, playground_enabled=False)
    refusal = playground_refusal(off)
    assert refusal and "DISCORD_TOKEN" in refusal and "127.0.0.1:8765:8765" in refusal


async def test_without_a_token_a_switched_off_playground_says_what_to_set(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import bot.__main__ as main
    from bot.config import Settings

    off = Settings(_env_file=None, playground_enabled=False)
    monkeypatch.setattr(main, "get_settings", lambda: off)

    async def never(*_: Any) -> None:
        raise AssertionError("no service may start")

    monkeypatch.setattr(main, "build_service", never)
    assert await main.run() == 2
    assert "set DISCORD_TOKEN" in capsys.readouterr().err


def test_the_docker_image_never_opens_the_playground_on_its_own() -> None:
    dockerfile = (Path(__file__).parents[2] / "Dockerfile").read_text()
    assert "0.0.0.0" not in dockerfile and "PLAYGROUND_HOST" not in dockerfile
    assert "PLAYGROUND_ENABLED=false" in dockerfile


async def test_against_a_human_xeno_only_an_admin_rolls_back(sqlite: Database) -> None:
    """A rollback would show the Marines the Xeno's hidden plays and then take them back."""
    players = {"marines": "ann", "xeno": "bob"}
    table = await open_table(sqlite, "forlorn-hope", "op-01", players, big_seed(11), "xeno:human")
    await self_play(table, players, policy_seed=4, max_steps=6)
    refused = await table.say("ann", "/campaign rollback to:2 confirm:yes")
    assert refused[0].error and "only a server admin" in refused[0].content
    done = await table.say("mod", "/campaign rollback to:2 confirm:yes", admin=True)
    assert not done[0].error and "rolls the campaign back to step 2" in done[0].content

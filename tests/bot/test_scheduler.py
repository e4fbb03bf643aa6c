"""Reminders, escalation, quiet hours, deadlines, away mode and catch-up, on a manual clock."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from support import caller, text

from bot.clock import ManualClock
from bot.replies import Reply
from bot.scheduler import Scheduler
from bot.storage.db import Database
from bot.table import TableService

ANN, BOB, CAT = caller("ann"), caller("bob"), caller("cat")
HOUR = timedelta(hours=1)


class RecordingOutbox:
    def __init__(self) -> None:
        self.posts: list[tuple[str, Reply]] = []
        self.dms: list[tuple[str, Reply]] = []

    async def post(self, channel_id: str, reply: Reply) -> None:
        self.posts.append((channel_id, reply))

    async def dm(self, user_id: str, reply: Reply) -> bool:
        self.dms.append((user_id, reply))
        return True

    def texts(self) -> list[str]:
        return [reply.content for _, reply in self.posts]


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def service(db: Database, clock: ManualClock) -> TableService:
    return TableService(db, new_seed=lambda: 4242, clock=clock)


async def begin(service: TableService, *settings: str) -> None:
    await service.handle(ANN, "/campaign create game:dash scenario:sprint")
    if settings:
        await service.handle(ANN, "/campaign settings " + " ".join(settings))
    await service.handle(ANN, "/campaign join role:red")
    await service.handle(BOB, "/campaign join role:blue")
    await service.handle(ANN, "/campaign begin")


async def test_reminder_after_the_quiet_period_once_then_escalates(
    service: TableService, clock: ManualClock
) -> None:
    outbox = RecordingOutbox()
    scheduler = Scheduler(service, outbox, clock)
    await begin(service)
    await service.handle(BOB, "/prefs dm:on")
    clock.advance(23 * HOUR)
    assert await scheduler.scan() == 0
    clock.advance(HOUR)
    assert await scheduler.scan() == 2
    assert all("waiting on you for 24 hours" in t for t in outbox.texts())
    assert sorted(r.mentions[0] for _, r in outbox.posts) == ["id-ann", "id-bob"]
    assert await scheduler.scan() == 0  # nothing twice
    clock.advance(24 * HOUR)
    assert await scheduler.scan() == 2
    assert [u for u, _ in outbox.dms] == ["id-bob"]  # Bob allowed DMs
    assert "waiting on <@id-ann> for 2 days" in outbox.texts()[-1]  # Ann did not: the table
    clock.advance(24 * HOUR)
    assert await scheduler.scan() == 1  # Bob's table notice; Ann's reminders have stopped
    clock.advance(72 * HOUR)
    assert await scheduler.scan() == 0


async def test_acting_resets_your_own_timer_and_drops_a_stale_reminder(
    service: TableService, clock: ManualClock
) -> None:
    outbox = RecordingOutbox()
    scheduler = Scheduler(service, outbox, clock)
    await begin(service)
    clock.advance(24 * HOUR)
    due = await service.repo.due_nudges(clock.now())
    assert len(due) == 2
    await service.handle(ANN, "/act what:peek")  # Ann acts between the read and the claim
    stale = next(row for row in due if row.user_id == "id-ann")
    assert not await service.repo.claim(stale, sent_count=1)
    assert await scheduler.scan() == 1
    assert outbox.posts[0][1].mentions == ["id-bob"]


async def test_player_mutes_or_sets_their_own_interval(
    service: TableService, clock: ManualClock
) -> None:
    outbox = RecordingOutbox()
    await service.handle(ANN, "/prefs reminders:off")
    await service.handle(BOB, "/prefs reminders:6")
    await begin(service)
    clock.advance(6 * HOUR)
    assert await Scheduler(service, outbox, clock).scan() == 1
    assert outbox.posts[0][1].mentions == ["id-bob"]
    clock.advance(200 * HOUR)
    await Scheduler(service, outbox, clock).scan()
    assert all(r.mentions != ["id-ann"] for _, r in outbox.posts)


async def test_quiet_hours_in_the_players_time_zone(
    service: TableService, clock: ManualClock
) -> None:
    # The clock starts at 12:00 UTC: 21:00 in Tokyo. Quiet hours there are 22-7.
    outbox = RecordingOutbox()
    scheduler = Scheduler(service, outbox, clock)
    reply = await service.handle(ANN, "/prefs timezone:Asia/Tokyo quiet:22-7")
    assert "Asia/Tokyo" in text(reply) and "22-7" in text(reply)
    await service.handle(BOB, "/prefs reminders:1")
    await service.handle(ANN, "/prefs reminders:1")
    await begin(service)
    clock.advance(HOUR)  # 22:00 in Tokyo: Ann is in quiet hours, Bob is not
    assert await scheduler.scan() == 1
    assert outbox.posts[-1][1].mentions == ["id-bob"]
    clock.advance(8 * HOUR)  # 06:00 in Tokyo: still quiet
    await scheduler.scan()
    assert all(r.mentions != ["id-ann"] for _, r in outbox.posts)
    clock.advance(HOUR)  # 07:00 in Tokyo: delivered
    await scheduler.scan()
    assert any(r.mentions == ["id-ann"] for _, r in outbox.posts)


async def test_bad_preferences_are_explained(service: TableService) -> None:
    assert "not a time zone" in text(await service.handle(ANN, "/prefs timezone:Mars/Olympus"))
    assert "Quiet hours look like" in text(await service.handle(ANN, "/prefs quiet:late"))
    assert "reminders must be one of" in text(await service.handle(ANN, "/prefs reminders:5"))
    unknown = text(await service.handle(ANN, "/prefs colour:red"))
    assert "/prefs has no option 'colour'. Its options: timezone, quiet, reminders, dm." in unknown


async def test_deadline_wait_policy_only_tells_the_table(
    service: TableService, clock: ManualClock
) -> None:
    outbox = RecordingOutbox()
    await begin(service, "deadline_hours:12", "nudge_hours:0")
    clock.advance(12 * HOUR)
    assert await Scheduler(service, outbox, clock).scan() == 2
    assert all("has passed; the table keeps waiting" in t for t in outbox.texts())


async def test_deadline_autopilot_plays_the_safe_action_until_the_player_returns(
    service: TableService, clock: ManualClock
) -> None:
    outbox = RecordingOutbox()
    await begin(service, "deadline_hours:12", "deadline_policy:autopilot", "nudge_hours:0")
    await service.handle(ANN, "/end-turn")
    clock.advance(12 * HOUR)
    await Scheduler(service, outbox, clock).scan()
    posted = "\n".join(outbox.texts())
    assert "Autopilot plays for Blue runner: end your turn" in posted and "Round 2" in posted
    campaign = await service.repo.live_in_channel("chan-1")
    assert campaign is not None
    seats = {s.role: s for s in await service.repo.seats(campaign.id or 0)}
    assert seats["blue"].autopilot
    # Ann's next end of turn is followed at once by the autopilot's.
    assert "Autopilot plays for Blue runner" in text(await service.handle(ANN, "/end-turn"))
    # Bob trying to play again takes his seat back (autopilot already ended this turn).
    back = await service.handle(BOB, "/act what:peek")
    assert "Welcome back" in text(back)
    seats = {s.role: s for s in await service.repo.seats(campaign.id or 0)}
    assert not seats["blue"].autopilot
    assert all(ok for _, ok, _ in await service.verify())


async def test_deadline_vote_policy(service: TableService, clock: ManualClock) -> None:
    outbox = RecordingOutbox()
    await service.handle(ANN, "/campaign create game:dash scenario:sprint")
    await service.handle(ANN, "/campaign settings deadline_hours:12 deadline_policy:vote")
    await service.handle(ANN, "/campaign join role:red")
    await service.handle(BOB, "/campaign join role:blue")
    await service.handle(ANN, "/campaign begin")
    assert "has not passed the deadline" in text(await service.handle(ANN, "/vote skip:blue"))
    await service.handle(ANN, "/end-turn")
    clock.advance(12 * HOUR)
    await Scheduler(service, outbox, clock).scan()
    posted = outbox.posts[-1][1]
    assert "vote to skip" in posted.content and "/vote" not in posted.content
    assert [b.command for b in posted.buttons] == ["/vote skip:blue"]
    assert "Only the other players" in text(await service.handle(BOB, "/vote skip:blue"))
    passed = await service.handle(ANN, "/vote skip:blue")
    assert "The vote passes" in text(passed) and "Round 2" in text(passed)


async def test_away_mode_and_automatic_return(service: TableService, clock: ManualClock) -> None:
    await begin(service)
    assert "Say how long" in text(await service.handle(BOB, "/away for:soon"))
    away = await service.handle(BOB, "/away for:2d")
    assert "away until" in text(away) and "Autopilot plays for Blue runner" in text(away)
    replies = await service.handle(ANN, "/end-turn")
    assert "Round 2" in text(replies) and "Autopilot plays for Blue runner" in text(replies)
    clock.advance(49 * HOUR)  # back automatically: Bob's seat waits for him again
    replies = await service.handle(ANN, "/end-turn")
    assert "Autopilot" not in replies[-1].content and "as Blue runner" in replies[-1].content


async def test_catch_up_digest_after_others_acted(service: TableService) -> None:
    await begin(service)
    await service.handle(ANN, "/act what:peek")
    await service.handle(ANN, "/end-turn")
    moves = await service.autocomplete(BOB, "/move to:")
    await service.handle(BOB, f"/move to:{moves[0].value}")
    await service.handle(BOB, "/end-turn")
    replies = await service.handle(ANN, "/board")
    assert replies[0].ephemeral and "Since your last turn" in replies[0].content
    assert "blue runs to" in replies[0].content and replies[0].images  # with the board
    # worth keeping: Discord puts it in the player's private thread where the server allows
    assert replies[0].keep and not any(r.keep for r in replies[1:])
    again = await service.handle(ANN, "/board")
    assert "Since your last turn" not in text(again)


async def test_catch_up_counts_one_step_in_the_singular(service: TableService) -> None:
    await begin(service)
    await service.handle(ANN, "/end-turn")
    moves = await service.autocomplete(BOB, "/move to:")
    await service.handle(BOB, f"/move to:{moves[0].value}")
    replies = await service.handle(ANN, "/board")
    assert "**Since your last turn** (1 step):" in replies[0].content, replies[0].content


async def test_restart_with_a_pending_reminder_and_two_scanners(
    db: Database, clock: ManualClock
) -> None:
    first = TableService(db, new_seed=lambda: 1, clock=clock)
    await begin(first)
    clock.advance(24 * HOUR)
    # "Restart": brand-new service and schedulers over the same database; two processes scan.
    outbox = RecordingOutbox()
    a = Scheduler(TableService(db, clock=clock), outbox, clock)
    b = Scheduler(TableService(db, clock=clock), outbox, clock)
    counts = await asyncio.gather(a.scan(), b.scan(), a.scan())
    assert sum(counts) == 2 and len(outbox.posts) == 2
    assert sorted(r.mentions[0] for _, r in outbox.posts) == ["id-ann", "id-bob"]


async def test_daily_digest_for_spectators(service: TableService, clock: ManualClock) -> None:
    outbox = RecordingOutbox()
    await begin(service, "digest:on", "nudge_hours:0")
    await service.handle(ANN, "/act what:peek")
    await service.handle(ANN, "/end-turn")
    clock.advance(24 * HOUR)
    assert await Scheduler(service, outbox, clock).scan() == 1
    digest = outbox.texts()[0]
    assert "Daily digest" in digest and "red ends the turn" in digest and "peeks" not in digest
    # The digest names whom the table waits on, but pings nobody: no user is allowed a ping.
    assert [reply.mentions for _, reply in outbox.posts] == [[]]


class GoneOutbox(RecordingOutbox):
    async def post(self, channel_id: str, reply: Reply) -> None:
        from bot.delivery import ChannelUnavailable

        raise ChannelUnavailable("Missing Access: the bot was removed from the channel")


async def test_a_channel_the_bot_cannot_post_in_pauses_its_campaign(
    service: TableService, clock: ManualClock
) -> None:
    await begin(service)
    clock.advance(24 * HOUR)
    assert await Scheduler(service, GoneOutbox(), clock).scan() == 0
    campaign = await service.repo.live_in_channel("chan-1")
    assert campaign is not None and campaign.status == "paused"
    assert await service.repo.nudges(campaign.id or 0) == []  # reminders stop while paused
    rows = await service.repo.log(campaign.id or 0)
    assert rows[-1].kind == "pause" and "removed from the channel" in rows[-1].action_json
    # Someone plays in the channel again: it resumes, logged, and reminders come back.
    assert not (await service.handle(ANN, "/act what:peek"))[0].error
    campaign = await service.repo.live_in_channel("chan-1")
    assert campaign is not None and campaign.status == "active"
    kinds = [r.kind for r in await service.repo.log(campaign.id or 0)]
    assert kinds[-3:] == ["pause", "resume", "action"]
    assert {n.user_id for n in await service.repo.nudges(campaign.id or 0)} == {"id-bob", "id-ann"}
    assert all(ok for _, ok, _ in await service.verify())


async def test_an_unanswered_question_takes_its_default_when_the_window_closes(
    service: TableService, clock: ManualClock
) -> None:
    outbox = RecordingOutbox()
    await begin(service, "window_minutes:5", "nudge_hours:0")
    asked = await service.handle(ANN, "/act what:ask")
    assert "red asks blue" in text(asked) and asked[-1].mentions == ["id-bob"]
    clock.advance(timedelta(minutes=4))
    assert await Scheduler(service, outbox, clock).scan() == 0
    clock.advance(timedelta(minutes=1))
    assert await Scheduler(service, outbox, clock).scan() == 1
    posted = outbox.texts()[-1]
    assert "No answer from blue in time" in posted and "blue answers no" in posted
    assert await Scheduler(service, outbox, clock).scan() == 0  # applied once
    assert all(ok for _, ok, _ in await service.verify())


async def test_an_answer_in_time_closes_the_window(
    service: TableService, clock: ManualClock
) -> None:
    outbox = RecordingOutbox()
    await begin(service, "window_minutes:5", "nudge_hours:0")
    await service.handle(ANN, "/act what:ask")
    assert "blue answers yes" in text(await service.handle(BOB, "/choose option:yes"))
    clock.advance(timedelta(minutes=10))
    assert await Scheduler(service, outbox, clock).scan() == 0
    assert outbox.posts == []


async def test_a_zero_window_applies_the_default_at_once(service: TableService) -> None:
    await begin(service, "window_minutes:0")
    asked = await service.handle(ANN, "/act what:ask")
    assert "The default answer plays for Blue runner: answers" in text(asked)
    assert "blue answers no" in text(asked) and "Run!" in text(asked)

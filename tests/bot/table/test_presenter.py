"""The presenter: a committed step to replies, with every picture asked of `Pictures`."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from fixture_game import DashGame
from memory_posts import MemoryTurnPosts

from bot.replies import Attachment
from bot.storage.models import ActionLog, Campaign, Seat
from bot.table.context import Caller, Loaded
from bot.table.presenter import Presenter
from bot.table.steps import NewStep, StepOutcome, undoable_by
from bot.table.turnposts import TurnPosts
from engine.core.dice import SeededDice
from engine.core.events import Event, Moved, Note
from engine.core.view import View


def presenting(pictures: CountingPictures) -> Presenter:
    return Presenter(pictures, TurnPosts(MemoryTurnPosts()))  # type: ignore[arg-type]


class CountingPictures:
    def __init__(self, animate: bool = False) -> None:
        self.calls: list[str] = []
        self.animate = animate

    async def step(
        self, view: View, events: list[Event], deadline: datetime | None = None
    ) -> Attachment:
        self.calls.append(f"step {len(events)}" + (" with deadline" if deadline else ""))
        self.events = events
        return Attachment("step.png", b"png")

    async def phase(self, view: View, events: list[Event]) -> list[Attachment] | None:
        self.calls.append(f"phase {len(events)}")
        return [Attachment("phase.gif", b"gif")] if self.animate and events else None

    async def board(self, view: View, mode: str) -> list[Attachment]:
        raise AssertionError("a step shows no full board")

    async def sheet(self, view: View, figure_id: str) -> Attachment:
        raise AssertionError("a step shows no sheet")

    async def summary(self, view: View) -> Attachment:
        self.calls.append("summary")
        return Attachment("summary.png", b"png")


ANN = Caller("id-ann", "ann", "chan-1", "guild-1")


def outcome(
    events: list[Event],
    automatic: list[Event] | None = None,
    mentions: tuple[str, ...] = ("id-bob",),
    version: int = 3,
    headline: str = "A headline.",
) -> StepOutcome:
    game = DashGame()
    state = game.new("sprint", ["red", "blue"], {"pace": "2"}, SeededDice(1))
    campaign = Campaign(
        id=7,
        channel_id="chan-1",
        guild_id="guild-1",
        game="dash",
        scenario="sprint",
        seed=1,
        owner_id="id-ann",
        settings_json='{"mirrors": "stands"}',
        version=version,
    )
    seats = [
        Seat(campaign_id=7, role="red", user_id="id-ann", user_name="ann"),
        Seat(campaign_id=7, role="blue", user_id="id-bob", user_name="bob"),
    ]
    table = Loaded(campaign, game, state)
    return StepOutcome(
        caller=ANN,
        table=table,
        prompt=table.prompt(),
        events=events,
        seats=seats,
        headline=headline,
        automatic=automatic or [],
        mentions=list(mentions),
        seat="red",
        version_before=version - 1,
    )


async def test_a_step_is_narrated_pictured_and_mirrored() -> None:
    pictures = CountingPictures()
    moved = Moved(figure="red", path=["A1", "A2"], text="red runs to A2")
    replies = await presenting(pictures).present(outcome([moved]))
    (post,) = replies
    assert post.content.splitlines()[:2] == ["A headline.", "red runs to A2"]
    assert "Waiting on <@id-ann> as Red runner" in post.content
    assert post.mentions == ["id-bob"] and post.version == 3 and post.game == "dash"
    # The seat-only buttons say whose they are.
    assert [b.label for b in post.buttons] == [
        "Pick an action · Red runner, Blue runner",
        "End turn · Red runner, Blue runner",
        "Board",
    ]
    assert post.mirror_to == ["stands"] and [i.filename for i in post.images] == ["step.png"]
    assert pictures.calls == ["step 1"]


async def test_an_automatic_phase_is_animated_instead_of_a_close_up() -> None:
    pictures = CountingPictures(animate=True)
    drone = Moved(figure="drone", path=["C3", "C4"], text="the drone drifts")
    replies = await presenting(pictures).present(outcome([drone], automatic=[drone]))
    assert [i.filename for i in replies[-1].images] == ["phase.gif"]
    assert pictures.calls == ["phase 1"]


async def test_what_only_the_actor_may_see_is_a_private_reply() -> None:
    secret = Note(text="you rolled a 6", visible_to=["red"])
    hidden_from_ann = Note(text="blue rolled a 2", visible_to=["blue"])
    replies = await presenting(CountingPictures()).present(outcome([secret, hidden_from_ann]))
    public, private = replies
    assert "rolled" not in public.content
    assert private.ephemeral and private.content == "Only you see this:\nyou rolled a 6"
    assert not private.mirror_to


async def test_a_players_steps_edit_one_turn_post_and_only_a_new_post_pings() -> None:
    presenter = presenting(CountingPictures())
    first = Moved(figure="red", path=["A1", "A2"], text="red runs to A2")
    (opened,) = await presenter.present(outcome([first], version=3))
    second = Moved(figure="red", path=["A2", "A3"], text="red runs on to A3")
    (edited,) = await presenter.present(outcome([second], mentions=(), version=4))
    assert opened.post_key and edited.post_key == opened.post_key
    assert edited.mentions == [] and opened.mentions == ["id-bob"]
    # The running log keeps the turn's earlier lines.
    assert "red runs to A2" in edited.content and "red runs on to A3" in edited.content
    # Another step in between (version 6 after 4): the next step opens a new post.
    third = Moved(figure="red", path=["A3", "A4"], text="red reaches A4")
    (later,) = await presenter.present(outcome([third], mentions=(), version=7))
    assert later.post_key != opened.post_key
    # Someone's input newly needed: never an edit, since an edit pings nobody.
    (pinged,) = await presenter.present(outcome([first], mentions=("id-bob",), version=8))
    assert pinged.post_key != later.post_key and pinged.mentions == ["id-bob"]


async def test_an_automatic_phase_is_a_post_of_its_own_that_nobody_edits() -> None:
    presenter = presenting(CountingPictures(animate=True))
    drone = Moved(figure="drone", path=["C3", "C4"], text="the drone drifts")
    (phase,) = await presenter.present(outcome([drone], automatic=[drone], version=3))
    step = Moved(figure="red", path=["A1", "A2"], text="red runs to A2")
    (after,) = await presenter.present(outcome([step], mentions=(), version=4))
    assert after.post_key != phase.post_key and "the drone drifts" not in after.content


async def test_a_step_with_nothing_public_posts_nothing() -> None:
    presenter = presenting(CountingPictures())
    secret = Note(text="you draw a card", visible_to=["red"])
    replies = await presenter.present(outcome([secret], mentions=(), version=3, headline=""))
    assert all(r.ephemeral for r in replies)
    assert replies[0].content == "Only you see this:\nyou draw a card"


async def test_the_deadline_reaches_the_close_up() -> None:
    pictures = CountingPictures()
    step = outcome([Moved(figure="red", path=["A1", "A2"], text="red runs to A2")])
    step.deadline = datetime(2026, 12, 3, 18, 0, tzinfo=UTC)
    await presenting(pictures).present(step)
    assert pictures.calls == ["step 1 with deadline"]


async def test_the_close_up_is_about_the_enemy_that_acted_last() -> None:
    """A single enemy activation after the player's step: no animation, and the close-up's
    events end with the enemy's move, so it centres on that enemy (`renders.story`)."""
    from renders.story import last_actor

    pictures = CountingPictures()
    mine = Moved(figure="red", path=["A1", "A2"], text="red runs to A2")
    drone = Moved(figure="drone", path=["C3", "C4"], text="the drone drifts")
    await presenting(pictures).present(outcome([mine, drone], automatic=[drone]))
    assert pictures.calls == ["phase 1", "step 2"] and last_actor(pictures.events) == "drone"


async def test_undo_is_offered_only_after_a_step_it_can_take_back() -> None:
    moved = Moved(figure="red", path=["A1", "A2"], text="red runs to A2")
    step = outcome([moved])
    step.undo_seat = "red"
    (post,) = await presenting(CountingPictures()).present(step)
    assert "Undo · Red runner" in [b.label for b in post.buttons]


def test_a_step_can_be_undone_only_when_it_rolled_and_revealed_nothing() -> None:
    moved = Moved(figure="red", path=["A1", "A2"], text="red runs to A2")
    secret = Note(text="a card only red sees", visible_to=["red"])

    def step(events: list[Event], random_used: bool = False, kind: str = "action") -> NewStep:
        log = ActionLog(campaign_id=7, seq=2, kind=kind, seat="red", random_used=random_used)
        return NewStep(events=events, log=log)

    assert undoable_by(step([moved]), []) == "red"
    assert undoable_by(step([moved], random_used=True), []) is None
    assert undoable_by(step([moved, secret]), []) is None
    assert undoable_by(step([moved]), [moved]) is None  # a stand-in acted after it
    assert undoable_by(step([moved], kind="undo"), []) is None


async def test_a_quiet_step_that_changes_who_is_awaited_refreshes_the_buttons() -> None:
    """A step with nothing public, after an automatic phase closed its post (so no turn post
    is open), that changes the seats the game waits on: the older post's buttons would offer
    the seats awaited before their End turn, so a post with fresh buttons follows."""
    presenter = presenting(CountingPictures(animate=True))
    drone = Moved(figure="drone", path=["C3", "C4"], text="the drone drifts")
    (phase,) = await presenter.present(outcome([drone], automatic=[drone], version=3))
    secret = Note(text="you draw a card", visible_to=["red"])
    step = outcome([secret], mentions=(), version=4, headline="")
    awaited = step.prompt.seats
    same = await presenter.present(replace(step, seats_before=frozenset(awaited)))
    assert all(r.ephemeral for r in same)  # the same seats awaited: still nothing public
    step = outcome([secret], mentions=(), version=5, headline="")
    quiet = await presenter.present(replace(step, seats_before=frozenset(awaited[:1])))
    public = [r for r in quiet if not r.ephemeral]
    assert len(public) == 1 and public[0].post_key != phase.post_key
    assert public[0].buttons and public[0].mentions == []


async def test_a_quiet_step_by_another_awaited_seat_restamps_the_open_post() -> None:
    """Two seats act at once (Reichbusters' Heroes' turn): red's move opened the post, then
    blue sets a standing order (nothing public, the same seats awaited). The open post's
    buttons would be an earlier board's; the step edits it with the new version, and red
    keeps it (his next move edits it again)."""
    presenter = presenting(CountingPictures())
    moved = Moved(figure="red", path=["A1", "A2"], text="red runs to A2")
    opened = outcome([moved], mentions=(), version=3)
    both = opened.prompt.model_copy(update={"seats": ["red", "blue"]})
    (post,) = await presenter.present(replace(opened, prompt=both))
    secret = Note(text="blue's standing order: hold", visible_to=["blue"])
    quiet = replace(outcome([secret], mentions=(), version=4, headline=""), prompt=both)
    quiet = replace(quiet, seat="blue", seats_before=frozenset(both.seats))
    public = [r for r in await presenter.present(quiet) if not r.ephemeral]
    assert [(r.post_key, r.version) for r in public] == [(post.post_key, 4)]
    assert public[0].buttons and public[0].mentions == []
    again = outcome([moved], mentions=(), version=5)
    (edited,) = await presenter.present(replace(again, prompt=both))
    assert edited.post_key == post.post_key

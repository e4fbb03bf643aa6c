"""The presenter: a committed step to replies, with every picture asked of `Pictures`."""

from __future__ import annotations

from fixture_game import DashGame

from bot.replies import Attachment
from bot.storage.models import Campaign, Seat
from bot.table.context import Caller, Loaded
from bot.table.presenter import Presenter
from bot.table.steps import StepOutcome
from engine.core.dice import SeededDice
from engine.core.events import Event, Moved, Note
from engine.core.view import View


class CountingPictures:
    def __init__(self, animate: bool = False) -> None:
        self.calls: list[str] = []
        self.animate = animate

    async def step(self, view: View, events: list[Event]) -> Attachment:
        self.calls.append(f"step {len(events)}")
        return Attachment("step.png", b"png")

    async def phase(self, view: View, events: list[Event]) -> list[Attachment] | None:
        self.calls.append(f"phase {len(events)}")
        return [Attachment("phase.gif", b"gif")] if self.animate and events else None

    async def board(self, view: View, mode: str) -> Attachment:
        raise AssertionError("a step shows no full board")

    async def sheet(self, view: View, figure_id: str) -> Attachment:
        raise AssertionError("a step shows no sheet")


ANN = Caller("id-ann", "ann", "chan-1", "guild-1")


def outcome(events: list[Event], automatic: list[Event] | None = None) -> StepOutcome:
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
        version=3,
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
        headline="A headline.",
        automatic=automatic or [],
        mentions=["id-bob"],
    )


async def test_a_step_is_narrated_pictured_and_mirrored() -> None:
    pictures = CountingPictures()
    moved = Moved(figure="red", path=["A1", "A2"], text="red runs to A2")
    replies = await Presenter(pictures).present(outcome([moved]))
    (post,) = replies
    assert post.content.splitlines()[:2] == ["A headline.", "red runs to A2"]
    assert "Waiting on <@id-ann> (red)" in post.content
    assert post.mentions == ["id-bob"] and post.version == 3 and post.game == "dash"
    # The seat-only buttons say whose they are.
    assert [b.label for b in post.buttons] == [
        "Pick an action (red, blue)",
        "End turn (red, blue)",
        "Undo",
        "Board",
    ]
    assert post.mirror_to == ["stands"] and [i.filename for i in post.images] == ["step.png"]
    assert pictures.calls == ["phase 0", "step 1"]


async def test_an_automatic_phase_is_animated_instead_of_a_close_up() -> None:
    pictures = CountingPictures(animate=True)
    drone = Moved(figure="drone", path=["C3", "C4"], text="the drone drifts")
    replies = await Presenter(pictures).present(outcome([drone], automatic=[drone]))
    assert [i.filename for i in replies[-1].images] == ["phase.gif"]
    assert pictures.calls == ["phase 1"]


async def test_what_only_the_actor_may_see_is_a_private_reply() -> None:
    secret = Note(text="you rolled a 6", visible_to=["red"])
    hidden_from_ann = Note(text="blue rolled a 2", visible_to=["blue"])
    replies = await Presenter(CountingPictures()).present(outcome([secret, hidden_from_ann]))
    public, private = replies
    assert "rolled" not in public.content
    assert private.ephemeral and private.content == "Only you see this:\nyou rolled a 6"
    assert not private.mirror_to

"""Per-channel locks serialise a channel's commands and are forgotten once idle."""

from __future__ import annotations

import asyncio

from bot.locks import ChannelLocks


async def test_one_channel_is_serialised_and_others_are_not() -> None:
    locks = ChannelLocks()
    order: list[str] = []

    async def command(channel: str, name: str, pause: float) -> None:
        async with locks.hold(channel):
            order.append(f"{name} in")
            await asyncio.sleep(pause)
            order.append(f"{name} out")

    await asyncio.gather(
        command("a", "first", 0.02), command("a", "second", 0), command("b", "other", 0)
    )
    assert order.index("first out") < order.index("second in")
    assert order.index("other in") < order.index("first out")  # another channel did not wait


async def test_idle_channels_keep_no_lock() -> None:
    locks = ChannelLocks()
    for n in range(1000):
        async with locks.hold(f"channel-{n}"):
            assert len(locks) == 1
    assert len(locks) == 0


async def test_a_failing_command_releases_its_lock() -> None:
    locks = ChannelLocks()
    try:
        async with locks.hold("a"):
            raise RuntimeError("boom")
    except RuntimeError:
        pass
    assert len(locks) == 0
    async with locks.hold("a"):
        pass

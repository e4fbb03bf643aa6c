"""Turn buttons: custom ids that survive a restart and always fit Discord's limits."""

from __future__ import annotations

from bot.discord.buttons import KEYS, TEMPLATE, command_for, custom_id, key_for, turn_view
from bot.replies import Button

CHANNEL = 1_234_567_890_123_456_789


def test_known_commands_use_short_keys_and_round_trip() -> None:
    for key, command in KEYS.items():
        assert key_for(command) == key and command_for(key) == command


def test_other_commands_are_carried_whole_when_they_fit() -> None:
    command = "/choose option:b3"
    key = key_for(command)
    assert key is not None and command_for(key) == command
    match = TEMPLATE.fullmatch(custom_id(CHANNEL, 41, key))
    assert match and int(match["channel"]) == CHANNEL and int(match["version"]) == 41
    assert key_for("/choose option:a~b") is None and key_for("no slash") is None
    assert command_for("unknown") is None


def test_views_keep_within_discord_limits() -> None:
    buttons = [Button(f"Option {i}", f"/choose option:o{i}") for i in range(30)]
    buttons.append(Button("Too long", "/choose option:" + "x" * 120))
    view = turn_view(buttons, CHANNEL, 7)
    assert view is not None
    items = view.to_components()
    ids = [c["custom_id"] for row in items for c in row["components"]]
    assert len(items) <= 5 and len(ids) == 25 and all(len(i) <= 100 for i in ids)
    assert turn_view([Button("Too long", "/act what:" + "y" * 120)], CHANNEL, 7) is None

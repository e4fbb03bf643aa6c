"""The command tree Discord receives conforms to Discord's own API description, and a channel
option offers only channels a post can go to (issue #33, item 9)."""

from __future__ import annotations

from typing import Any

from openapi_check import errors, load

from bot.discord.client import command_tree_json
from bot.discord.tree import POSTABLE_CHANNELS

TAKES_POSTS = {0, 5, 10, 11, 12}  # text, announcement, announcement/public/private thread


def channel_options(node: dict[str, Any]) -> list[dict[str, Any]]:
    found = []
    for option in node.get("options") or []:
        if option["type"] == 7:
            found.append(option)
        found += channel_options(option)
    return found


async def test_every_command_validates_against_discords_openapi() -> None:
    api = load()
    schema = api["components"]["schemas"]["ApplicationCommandUpdateRequest"]
    tree = await command_tree_json()
    assert tree
    assert {c["name"]: errors(c, schema, api, f"/{c['name']}") for c in tree} == {
        c["name"]: [] for c in tree
    }


async def test_the_mirror_option_offers_only_channels_that_take_posts() -> None:
    options = [o for c in await command_tree_json() for o in channel_options(c)]
    assert options, "the tree has no channel option"
    for option in options:
        assert set(option["channel_types"]) == TAKES_POSTS
    assert {int(t.value) for t in POSTABLE_CHANNELS} == TAKES_POSTS


def test_the_checker_refuses_what_discord_refuses() -> None:
    """Discord's description has no channel type 16 (media), nor a nameless command."""
    api = load()
    schema = api["components"]["schemas"]["ApplicationCommandUpdateRequest"]
    option = {"type": 7, "name": "channel", "description": "d", "channel_types": [0, 16]}
    assert errors({"name": "x", "description": "d", "options": [option]}, schema, api)
    assert errors({"description": "d"}, schema, api)
    option["channel_types"] = [0, 5]
    assert errors({"name": "x", "description": "d", "options": [option]}, schema, api) == []

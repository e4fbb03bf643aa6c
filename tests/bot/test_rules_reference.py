"""The /rules reference: data validity, limits, search ranking, and our-own-words check."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest

from bot import rules
from bot.rules import GAME_KEYS, RulesDataError, Topic

SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
RULEBOOKS = {
    "galaxy-defenders": "galaxy-defenders-core.txt",
    "forlorn-hope": "forlorn-hope.txt",
    "reichbusters": "reichbusters-reloaded.txt",
}
RUN = 12  # consecutive words a topic may never share with its rulebook
SLASH_COMMANDS = {
    "/act",
    "/attack",
    "/away",
    "/board",
    "/campaign",
    "/choose",
    "/end-turn",
    "/hand",
    "/help",
    "/log",
    "/move",
    "/orders",
    "/prefs",
    "/rules",
    "/undo",
    "/vote",
}


def test_every_file_loads() -> None:
    shipped = {p.name for p in resources.files("bot.rules").iterdir() if p.name.endswith(".json")}
    assert shipped == {f"{g}.json" for g in GAME_KEYS} | {"sortie.json"}
    for name in [*GAME_KEYS, "sortie"]:
        assert rules._read(name), name


@pytest.mark.parametrize("game", GAME_KEYS)
def test_topic_counts_and_unique_keys(game: str) -> None:
    own = rules._read(game)
    assert 15 <= len(own) <= 30
    keys = [t.key for t in rules.topics(game)]
    assert len(keys) == len(set(keys))
    assert len(keys) == len(own) + len(rules._read("sortie"))


@pytest.mark.parametrize("game", GAME_KEYS)
def test_game_covers_the_essentials(game: str) -> None:
    keys = {t.key for t in rules.topics(game)}
    for needed in ("commands", "line-of-sight", "range", "movement", "victory", "not-supported"):
        assert needed in keys, needed
    for needed in ("undo", "autocomplete", "reminders", "away", "deadlines", "standing-orders"):
        assert needed in keys, needed


@pytest.mark.parametrize("game", GAME_KEYS)
def test_texts_within_limits(game: str) -> None:
    for topic in rules.topics(game):
        assert 0 < len(topic.text) <= rules.MAX_TEXT, topic.key
        shown = rules.render(topic)
        assert len(shown) <= rules.MAX_RENDER, topic.key
        assert shown.startswith(f"**{topic.title}**\n")
        assert topic.text in shown
        assert topic.tags, topic.key


@pytest.mark.parametrize("game", GAME_KEYS)
def test_only_real_commands_are_mentioned(game: str) -> None:
    for topic in rules.topics(game):
        for command in re.findall(r"`(/[a-z-]+)", topic.text):
            assert command in SLASH_COMMANDS, (topic.key, command)


@pytest.mark.parametrize("game", GAME_KEYS)
@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("los", "line-of-sight"),
        ("LOS", "line-of-sight"),
        ("line of sight", "line-of-sight"),
        ("line-of-sight", "line-of-sight"),
        ("sight", "line-of-sight"),
        ("range", "range"),
        ("undo", "undo"),
        ("away", "away"),
        ("commands", "commands"),
        ("victory", "victory"),
    ],
)
def test_search_finds_the_obvious_topic(game: str, query: str, expected: str) -> None:
    assert rules.search(game, query)[0].key == expected


@pytest.mark.parametrize("game", GAME_KEYS)
def test_search_never_returns_more_than_25(game: str) -> None:
    assert len(rules.topics(game)) > 25
    assert len(rules.search(game, "")) == 25
    assert len(rules.search(game, "", limit=100)) == 25
    assert len(rules.search(game, "e", limit=100)) <= 25
    assert len(rules.search(game, "a", limit=3)) <= 3
    assert rules.search(game, "no such thing whatsoever") == []


@pytest.mark.parametrize("game", GAME_KEYS)
def test_empty_query_lists_featured_first(game: str) -> None:
    listed = rules.search(game, "   ")
    featured = [t for t in rules.topics(game) if t.featured]
    assert featured and listed[: len(featured)] == featured
    assert listed[0].key in {t.key for t in rules._read(game)}


def test_find() -> None:
    topic = rules.find("reichbusters", " Line-Of-Sight ")
    assert topic is not None and topic.key == "line-of-sight"
    assert rules.find("forlorn-hope", "undo") is not None
    assert rules.find("galaxy-defenders", "nope") is None


@pytest.mark.parametrize(
    "call",
    [
        lambda: rules.topics("chess"),
        lambda: rules.search("chess", "los"),
        lambda: rules.find("chess", "los"),
    ],
)
def test_unknown_game_raises_a_clear_value_error(call: object) -> None:
    with pytest.raises(ValueError, match=r"chess.*galaxy-defenders, forlorn-hope, reichbusters"):
        call()  # type: ignore[operator]


def topic(key: str, title: str, tags: tuple[str, ...] = (), text: str = "x") -> Topic:
    return Topic(key=key, title=title, tags=tags, text=text)


def test_ranking_order(monkeypatch: pytest.MonkeyPatch) -> None:
    entries = (
        topic("other", "Other", text="mentions grenade somewhere"),
        topic("tagged", "Tagged", tags=("grenade",)),
        topic("explosives", "Grenades and blasts"),
        topic("grenade-throw", "Throwing"),
        topic("grenade", "Exact"),
    )
    monkeypatch.setattr(rules, "_library", lambda: {"test": entries})
    assert [t.key for t in rules.search("test", "Grenade")] == [
        "grenade",
        "grenade-throw",
        "explosives",
        "tagged",
        "other",
    ]
    assert [t.key for t in rules.search("test", "grenade", limit=2)] == ["grenade", "grenade-throw"]


def test_bad_data_gives_a_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(resources, "files", lambda _package: tmp_path)
    (tmp_path / "broken.json").write_text("[{", encoding="utf-8")
    with pytest.raises(RulesDataError, match=r"broken\.json is not valid JSON"):
        rules._read("broken")
    (tmp_path / "long.json").write_text(
        '[{"key": "a", "title": "A", "tags": [], "text": "' + "x" * 901 + '"}]', encoding="utf-8"
    )
    with pytest.raises(RulesDataError, match=r"long\.json has bad data"):
        rules._read("long")
    (tmp_path / "twice.json").write_text(
        '[{"key": "a", "title": "A", "text": "t"}, {"key": "a", "title": "B", "text": "u"}]',
        encoding="utf-8",
    )
    with pytest.raises(RulesDataError, match=r"twice\.json repeats the key 'a'"):
        rules._read("twice")
    with pytest.raises(RulesDataError, match=r"absent\.json is missing"):
        rules._read("absent")


def test_topic_schema_rejects_bad_keys_and_tags() -> None:
    for bad in ({"key": "Bad Key"}, {"tags": ("LOS",)}, {"title": " "}, {"extra": 1}):
        with pytest.raises(ValueError):
            Topic.model_validate({"key": "ok", "title": "T", "text": "t", **bad})


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def runs(text: str) -> set[tuple[str, ...]]:
    w = words(text)
    return {tuple(w[i : i + RUN]) for i in range(len(w) - RUN + 1)}


@pytest.mark.skipif(not SEEDS.is_dir(), reason=f"rulebook seeds not found at {SEEDS}")
@pytest.mark.parametrize("game", GAME_KEYS)
def test_no_long_runs_copied_from_the_rulebook(game: str) -> None:
    book = runs((SEEDS / RULEBOOKS[game]).read_text(encoding="utf-8"))
    for entry in rules._read(game):
        shared = runs(f"{entry.title} {entry.text}") & book
        assert not shared, (entry.key, " ".join(sorted(shared)[0]))


@pytest.mark.skipif(not SEEDS.is_dir(), reason=f"rulebook seeds not found at {SEEDS}")
def test_sortie_topics_share_no_long_runs_with_any_rulebook() -> None:
    books: set[tuple[str, ...]] = set()
    for name in RULEBOOKS.values():
        books |= runs((SEEDS / name).read_text(encoding="utf-8"))
    for entry in rules._read("sortie"):
        assert not runs(entry.text) & books, entry.key

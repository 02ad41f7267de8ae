"""Games keep the name their edition has in the reader's language (issue 18) wherever the table
names them: /status, /help's command list, /games, /new's list, /stats, the replay's frames."""

from __future__ import annotations

import pytest

from bot.cards import ending
from bot.i18n import LANGUAGES, tr, translator
from bot.records import Finished, aggregate, format_stats
from bot.store import Store
from bot.table import Table
from engine.registry import games
from tests.bot.botgames import bot_game
from tests.bot.helpers import Chat, FakeClock

pg = pytest.importorskip("engine.powergrid")

TARGETS = [lang for lang in LANGUAGES if lang != "en"]
# The name the game's own document gives it in that language, which is the English one:
# IEC's Polish draft (seeds/004) is titled "Interplanetary Exploitation Companies".
ORIGINAL_TITLE = {("pl", "iec")}


@pytest.mark.parametrize("lang", TARGETS)
@pytest.mark.parametrize("game_id", sorted(games()))
def test_every_game_has_a_name_in_every_language(game_id: str, lang: str) -> None:
    """Found playing: IEC was "Interplanetary Exploitation Companies" in every catalog, and
    Hexania "Hexania" for a Chinese reader."""
    name = games()[game_id].name
    assert (tr(lang, name) != name) == ((lang, game_id) not in ORIGINAL_TITLE)


def test_the_names_the_originals_use() -> None:
    """Hexania's Russian original is «Гексания» (seeds/003); IEC's Polish draft keeps its
    English title; the others are translated for their readers."""
    hexania, iec = games()["hexania"].name, games()["iec"].name
    assert tr("ru", hexania) == "Гексания"
    assert tr("zh_Hant", hexania) == "六角國"
    assert tr("pl", iec) == iec
    assert tr("ru", iec) == "Межпланетные добывающие компании"
    assert tr("zh_Hant", iec) == "星際開採公司"


@pytest.mark.parametrize("lang", TARGETS)
@pytest.mark.parametrize("game_id", ["powergrid", "hexania", "iec"])
async def test_status_and_help_name_the_game_as_its_edition_is_called(
    store: Store, clock: FakeClock, lang: str, game_id: str
) -> None:
    game = games()[game_id]
    table = Table(store, games={game_id: game}, clock=clock, render=False)
    chat = Chat(table)
    await chat.say("alice", f"/lang {lang}")
    await chat.say("alice", f"/new {game_id}")
    await chat.say("bob", f"/lang {lang}")
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    local = tr(lang, game.name)
    status = await chat.text("alice", "/status")
    help_text = await chat.text("alice", "/help")
    for text in (status, help_text):
        assert local in text
        assert (lang, game_id) in ORIGINAL_TITLE or game.name not in text


@pytest.mark.parametrize("lang", TARGETS)
async def test_new_without_a_game_lists_the_ids_with_their_names(
    store: Store, clock: FakeClock, lang: str
) -> None:
    """/new alone listed the ids only ("hexania, iec, powergrid"); they come with the names
    the reader knows the games by, as /help's list has them."""
    table = Table(store, games=games(), clock=clock, render=False)
    chat = Chat(table)
    await chat.say("alice", f"/lang {lang}")
    for line in ("/new", "/new chess"):
        text = await chat.text("alice", line)
        for game_id, game in games().items():
            assert f"{game_id} ({tr(lang, game.name)})" in text


@pytest.mark.parametrize("lang", TARGETS)
def test_stats_per_game_name_the_game_in_the_readers_language(lang: str) -> None:
    """/stats <player> listed his record per game under the English names."""
    stats = aggregate([Finished("powergrid", [["alice"], ["bob"]])])
    names = {g.id: g.name for g in games().values()}
    text = format_stats(stats, translator(lang), who="alice", game_names=names)
    assert tr(lang, pg.GAME.name) in text
    assert pg.GAME.name not in text


def test_replay_frames_are_captioned_with_the_readers_name_of_the_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The replay's frames read "Interplanetary Exploitation Companies · Ход 3" in a Russian
    chat: the caption took the game's English name."""
    captions: list[str] = []
    real = ending.frame

    def framed(png: bytes, caption: str, width: int = 720) -> object:
        captions.append(caption)
        return real(png, caption, width)

    monkeypatch.setattr(ending, "frame", framed)
    played = bot_game("iec")
    few = [(r.player, r.action) for r in played.rows[:40]]
    ending.replay_pictures(
        played.game, played.players, played.options, played.seed, few, translator("ru")
    )
    assert captions
    assert all(c.startswith("Межпланетные добывающие компании · ") for c in captions)

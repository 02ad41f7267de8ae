"""Pictures in the reader's language through the table service, for every game (issue 18).

Four players who read four languages sit at one table; the chat's language is switched
through each of them (`/lang chat <code>`, the creator) and `/board` asked each time. The
picture the table sends is the one the renderer drew with that language's catalog; the four
pictures differ, and no label of a translated picture is an English one (the label list the
renderer used, compared with the English picture's: names, numbers and cell ids are the same
in every language, words are not)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.i18n import translator
from bot.messages import Outbound
from bot.store import Store
from bot.table import Table
from engine.registry import games
from tests.bot.helpers import Chat, FakeClock
from tests.bot.test_languages import CHAT_LANG, check

# who reads what (as tests/bot/test_languages.py): bob opens the table, so the chat starts in
# Russian
READS = {"bob": "ru", "alice": "en", "carol": "zh_Hant", "dave": "pl"}
# words a language shares with English on purpose (tests/engine/core/test_render.py): the
# Polish edition's currency, "TP", and the names a map or a game keeps in every language
SAME_AS_ENGLISH = {"ru": set(), "zh_Hant": {"TP"}, "pl": {"Elektro", "TP"}, "en": set()}


class Recording:
    """A game whose `render_set` calls are recorded: (translator, pictures)."""

    def __init__(self, game: Any) -> None:
        self._game = game
        self.calls: list[tuple[Any, list[Any]]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def render_set(
        self, state: Any, viewer: str | None, t: Any = None, previous: Any = None
    ) -> list[Any]:
        pictures = list(self._game.render_set(state, viewer, t, previous))
        self.calls.append((t, pictures))
        return pictures


def words(labels: set[str]) -> set[str]:
    """The words of `labels`, less codes typed as they are (regions "NE", IEC's "I-SW")."""
    found = {w for text in labels for w in re.findall(r"[^\W\d_]{2,}", text)}
    return {w for w in found if not (w.isupper() and len(w) <= 3)}


@pytest.mark.timeout(300)
@pytest.mark.parametrize("game_id", sorted(games()))
async def test_board_pictures_in_each_language_of_a_four_language_table(
    store: Store, clock: FakeClock, game_id: str
) -> None:
    game = Recording(games()[game_id])
    table = Table(store, games={game_id: game}, clock=clock, render=True, seeder=lambda: 7)
    chat = Chat(table)
    said: list[tuple[str, Outbound]] = []
    for name, lang in READS.items():
        said += [(name, o) for o in await chat.say(name, f"/lang {lang}")]
    # Power Grid's regions drawn: the board of its region choice (the default, PG-D-3) says
    # "region", a word Polish shares with English ("wybierz region").
    opened = f"/new {game_id}" + (" regions=random" if game_id == "powergrid" else "")
    said += [(name, o) for o in await chat.say("bob", opened)]
    for name in ("alice", "carol", "dave"):
        said += [(name, o) for o in await chat.say(name, "/join")]
    said += [("bob", o) for o in await chat.say("bob", "/start")]
    row = await store.open_game(chat.chat_key)
    assert row is not None and row.status == "active"
    # every message so far in its reader's language: group posts in the chat's (Russian), an
    # @prompt line in its player's, a reply only the sender needs in the sender's
    identified = 0
    for name, out in said:
        reader = out.private_to.removeprefix("local:") if out.private_to else None
        expected = READS[reader or name] if out.sender_only or reader else CHAT_LANG
        identified += check(out.text, expected)
    assert identified >= 5, said

    labels: dict[str, set[str]] = {}
    pngs: dict[str, bytes] = {}
    for lang in ("en", "ru", "zh_Hant", "pl"):
        await chat.say("bob", f"/lang chat {lang}")
        game.calls.clear()
        outs: list[Outbound] = await chat.say("alice", "/board")
        pictures = [o for o in outs if o.png]
        assert len(pictures) == 1, (lang, [o.text for o in outs])
        (t, drawn), *_ = game.calls
        assert t is translator(lang), lang  # drawn with the chat's language
        assert pictures[0].png == drawn[0].png and pictures[0].lang == lang
        pngs[lang] = b"".join(p.png for p in drawn)
        labels[lang] = {lab.text for p in drawn for lab in p.labels}
        assert labels[lang], lang

    assert len(set(pngs.values())) == 4  # each language its own picture
    english = labels["en"]
    data = english.intersection(*labels.values())  # names, numbers, cell ids
    for lang in ("ru", "zh_Hant", "pl"):
        leftovers = words((labels[lang] & english) - data) - SAME_AS_ENGLISH[lang]
        assert not leftovers, (game_id, lang, sorted(leftovers))
        # and no English word of the English picture's own labels either
        english_only = words(english - data) - words(data) - set(READS)
        assert not (words(labels[lang]) & english_only) - SAME_AS_ENGLISH[lang], (
            game_id,
            lang,
            sorted(words(labels[lang]) & english_only),
        )

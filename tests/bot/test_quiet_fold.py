"""A player's acknowledgements of his own moves fold into one private message (issue 17): the
sender loop edits his previous acknowledgement instead of posting a new message, but only
while nobody moved between, nothing else reached him since, within `FOLD_WINDOW`, on a
platform that edits private messages (Telegram, Discord); a gone message or a text too long
is posted afresh.
At the table, the acknowledgement of a run of one's own moves is marked for folding and a
line caused by someone else's move is not."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from bot.grammar import MAX_TEXT
from bot.messages import Outbound
from bot.outbox import MessageGone, OutboxSender, row_of
from bot.quiet import FOLD_WINDOW
from bot.store import Store
from bot.table import Table
from engine.core import N_, ParseError
from engine.core.protocol import Capabilities, CommandSpec, Translator
from tests.bot.chatgame import ChatDicePile
from tests.bot.helpers import Chat, FakeClock

GROUP = "tg:-1005"
ANN, BOB = "tg:7", "tg:8"


class Recorder:
    """The platform: new messages get ids 1, 2, ...; edits keep theirs. `gone`: message ids
    the platform no longer has (an edit of one raises MessageGone)."""

    def __init__(self) -> None:
        self.calls: list[Outbound] = []
        self.gone: set[str] = set()
        self.texts: dict[str, str] = {}

    async def __call__(self, out: Outbound) -> str:
        if out.edit_of is not None and out.edit_of in self.gone:
            raise MessageGone("message to edit not found")
        self.calls.append(out)
        message_id = out.edit_of or str(len([c for c in self.calls if c.edit_of is None]))
        self.texts[message_id] = out.text
        return message_id

    def posts(self, user: str) -> list[Outbound]:
        return [c for c in self.calls if c.private_to == user and c.edit_of is None]

    def edits(self, user: str) -> list[Outbound]:
        return [c for c in self.calls if c.private_to == user and c.edit_of is not None]


def ack(text: str, first: int, last: int | None = None, to: str = ANN, game: int = 1) -> Outbound:
    return Outbound(GROUP, text, private_to=to, silent=True, fold_of=(game, first, last or first))


async def send(store: Store, sender: OutboxSender, *outs: Outbound) -> None:
    await store.outbox_add([row_of(out, "en") for out in outs])
    await sender.run_due()


async def test_acknowledgements_of_moves_in_a_row_are_one_message_edited(
    store: Store, clock: FakeClock
) -> None:
    platform = Recorder()
    sender = OutboxSender(store, "telegram", platform, clock=clock)
    await send(store, sender, ack("Standing order saved.", 3))
    await send(store, sender, ack("Standing order saved.", 4, 5))  # a run of two moves
    clock.advance(60)
    await send(store, sender, ack("You plan to buy 3 oil.", 6))
    assert len(platform.posts(ANN)) == 1
    edits = platform.edits(ANN)
    assert [e.edit_of for e in edits] == ["1", "1"]
    assert platform.texts["1"] == (
        "Standing order saved.\nStanding order saved.\nYou plan to buy 3 oil."
    )
    assert all(c.silent for c in platform.calls)  # an acknowledgement never makes a sound
    # the rows are sent (none is left to deliver again)
    assert not await store.outbox(status="pending")


async def test_a_fold_stops_at_another_move_another_message_a_gap_in_time_or_another_game(
    store: Store, clock: FakeClock
) -> None:
    platform = Recorder()
    sender = OutboxSender(store, "telegram", platform, clock=clock)
    await send(store, sender, ack("one", 3))
    await send(store, sender, ack("two", 5))  # version 4 was somebody else's move
    await send(store, sender, ack("three", 6))  # follows "two": folded
    assert len(platform.posts(ANN)) == 2 and len(platform.edits(ANN)) == 1
    # anything else private to her (a reminder) ends the run
    await send(store, sender, Outbound(GROUP, "Your move", private_to=ANN), ack("four", 7))
    assert [p.text for p in platform.posts(ANN)][-2:] == ["Your move", "four"]
    # another reader's acknowledgement (of a move in another game) neither folds into hers
    # nor ends her run
    await send(store, sender, ack("bob's", 8, to=BOB, game=2), ack("five", 8))
    assert platform.posts(BOB)[-1].text == "bob's"
    assert platform.edits(ANN)[-1].text == "four\nfive"
    # too long ago
    clock.advance(FOLD_WINDOW + 1)
    await send(store, sender, ack("six", 10))
    assert platform.posts(ANN)[-1].text == "six"
    # another game's, even with the same version numbers
    await send(store, sender, ack("other game", 11, game=2))
    assert platform.posts(ANN)[-1].text == "other game"


async def test_a_gone_or_full_message_is_posted_afresh_and_discord_folds_too(
    store: Store, clock: FakeClock
) -> None:
    platform = Recorder()
    sender = OutboxSender(store, "telegram", platform, clock=clock)
    await send(store, sender, ack("one", 3))
    platform.gone.add("1")  # the player deleted it
    await send(store, sender, ack("two", 4))
    assert [p.text for p in platform.posts(ANN)] == ["one", "two"]
    await send(store, sender, ack("x" * (MAX_TEXT - 2), 5))
    assert platform.posts(ANN)[-1].text.startswith("xxx")  # "two\n" + it is too long
    posts = len(platform.posts(ANN))

    discord = Recorder()
    dc = OutboxSender(store, "discord", discord, clock=clock)
    outs = [
        Outbound("dc:1", "one", private_to="dc:7", silent=True, fold_of=(1, 3, 3)),
        Outbound("dc:1", "two", private_to="dc:7", silent=True, fold_of=(1, 4, 4)),
    ]
    for out in outs:
        await store.outbox_add([row_of(out, "en")])
        await dc.run_due()
    # Discord edits a DM the bot sent too (through the DM channel: the adapter's test is
    # tests/bot/platforms/test_discord_fold.py)
    assert [p.text for p in discord.posts("dc:7")] == ["one"]
    [edit] = discord.edits("dc:7")
    assert edit.edit_of == "1" and edit.text == "one\ntwo"
    assert len(platform.posts(ANN)) == posts


async def test_the_closing_words_acknowledgements_share_stand_once_at_the_end(
    store: Store, clock: FakeClock
) -> None:
    """A move sent privately ends its acknowledgement with a confirmation (bot/confirm.py);
    folded, the same confirmation closes the joined message once (found play-testing IEC:
    five standing orders, five "Done in ..." lines), and a different one is kept."""
    platform = Recorder()
    sender = OutboxSender(store, "telegram", platform, clock=clock)
    done = " Done in IEC (Game night); the others are not told of it."
    told = " Done in IEC; announced in Game night."

    def closed(text: str, version: int, tail: str) -> Outbound:
        return replace(ack(text + tail, version), fold_tail=tail)

    await send(store, sender, closed("Order one.", 3, done), closed("Order two.", 4, done))
    await send(store, sender, closed("Order three.", 5, done), closed("Mine laid.", 6, told))
    assert len(platform.posts(ANN)) == 1
    assert platform.texts["1"] == (
        "Order one.\nOrder two.\nOrder three." + done + "\nMine laid." + told
    )


class Noted(ChatDicePile):
    """The dice pile where each take is also acknowledged privately to the taker ("You took
    n."), and /again n takes without ending the turn (several moves in a row)."""

    capabilities = Capabilities(rules_index=True, private_events=True)
    commands = (*ChatDicePile.commands, CommandSpec("again", N_("Take and go on")))

    def apply(self, state: dict[str, Any], player: str, action: dict[str, Any]) -> Any:
        state, events = super().apply(state, player, action)
        if events and events[0].get("type") == "took":
            events.append({"type": "noted", "player": player, "n": action["take"], "private": 1})
        return state, events

    def parse(
        self,
        state: dict[str, Any],
        player: str,
        name: str,
        args: list[str],
        t: Translator | None = None,
    ) -> Any:
        if name == "again":
            if len(args) != 1 or not args[0].isdigit():
                raise ParseError(N_("One number: /take 2"))
            return {"take": int(args[0]), "again": True}
        return super().parse(state, player, name, args, t)

    def describe_event(self, state: dict[str, Any], event: dict[str, Any], t: Translator) -> Any:
        return None if event["type"] == "noted" else super().describe_event(state, event, t)

    def describe_private_event(
        self, state: dict[str, Any], event: dict[str, Any], t: Translator
    ) -> str | None:
        return f"You took {event['n']}." if event["type"] == "noted" else None


async def test_the_table_marks_a_players_own_acknowledgements_for_folding(
    store: Store, clock: FakeClock
) -> None:
    table = Table(
        store,
        games={"dicepile": Noted()},
        clock=clock,
        render=False,
        seeder=lambda: 5,
        durable=("telegram",),
    )
    chat = Chat(table, chat_key=GROUP, platform="telegram")
    await chat.say("ann", "/new dicepile start=20")
    await chat.say("bob", "/join")
    await chat.say("ann", "/start")
    row = await store.open_game(GROUP)
    assert row is not None and row.state_json is not None
    who = Noted().current_players(json.loads(row.state_json))[0]
    mark = len(await store.outbox(GROUP))
    await chat.say(who, "/again 1")
    await chat.say(who, "/again 1")
    acks = [r for r in (await store.outbox(GROUP))[mark:] if r.audience != "chat"]
    assert [r.body["text"] for r in acks] == ["You took 1.", "You took 1."]
    first, second = (r.body["fold_of"] for r in acks)
    assert first[0] == second[0] == row.id
    assert second[1] == first[2] + 1  # the second follows the first: nobody moved between
    assert all(r.silent for r in acks)
    await table.close()

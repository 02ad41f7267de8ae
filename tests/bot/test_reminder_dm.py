"""Act from the reminder (issue 17): a private reminder carries the prompt's buttons and a
recap of what happened since the player's last move (with the latest picture when a phase
ended meanwhile); a move made from those buttons is applied once and announced in the group."""

from __future__ import annotations

import json
from typing import Any

from bot.buttons import public_mark
from bot.messages import Inbound
from bot.recap import recap
from bot.scheduler import Scheduler
from bot.store import Store
from bot.table import Table
from tests.bot.chatgame import ChatDicePile
from tests.bot.helpers import Chat, FakeClock, Outbox, payloads, present
from tests.bot.test_reminders import started

DM = "local:dm-alice"


def in_private(user: str, payload: str, update_id: str) -> Inbound:
    return Inbound(
        platform="local",
        chat_key=f"local:dm-{user}",
        user_key=f"local:{user}",
        display_name=user,
        update_id=update_id,
        payload=payload,
        is_private=True,
    )


async def test_a_move_from_the_dm_buttons_is_applied_once_and_announced_in_the_group(
    chat: Chat, table: Table, clock: FakeClock
) -> None:
    sent = Outbox(table)
    await table.store.set_user("local:alice", dm_ok=True)
    pk = await started(chat, "bob")
    await chat.say("alice", "/take 1")
    await chat.say("bob", "/take 2")
    await Scheduler(table, clock=clock).run_due()
    [reminder] = [o for o in sent.take() if o.private_to == "local:alice"]
    assert reminder.text.startswith("Since your last move (1 move):\n#2 bob takes 2.")
    assert "Your move in Dice pile" in reminder.text
    row = await table.store.game(pk)
    assert row is not None
    # the public moment, as the group's buttons (the version counts private moves too)
    mark = public_mark(table.games[row.game_id], json.loads(row.state_json or "{}"))
    assert payloads([reminder]) == [f"{pk}:{mark}:/take {n}" for n in (1, 2, 3)]

    answer = await table.handle(in_private("alice", f"{pk}:{mark}:/take 3", "dm1"))
    assert [o.text for o in answer] == ["Done in Dice pile; announced in a chat."]
    assert answer[0].chat_key == DM
    group = [o for o in sent.take() if o.chat_key == chat.chat_key and o.private_to is None]
    assert any("alice takes 3." in o.text for o in group)  # announced like any move
    assert any("@bob" in o.text for o in group)  # and the next player prompted
    after = await table.store.game(pk)
    assert after is not None and after.version == row.version + 1
    pile = json.loads(row.state_json or "{}")["pile"]
    assert json.loads(after.state_json or "{}")["pile"] in (pile - 3, pile - 2)  # (+ a die)

    # The same update again (a platform's redelivery), then a second press: nothing more.
    assert await table.handle(in_private("alice", f"{pk}:{mark}:/take 3", "dm1")) == []
    again = await table.handle(in_private("alice", f"{pk}:{mark}:/take 3", "dm2"))
    assert [o.text for o in again] == ["This button is out of date; nothing was changed."]
    final = await table.store.game(pk)
    assert final is not None and final.version == after.version
    assert len(await table.store.actions(pk)) == 3


async def test_a_private_button_of_another_persons_game_or_a_bad_payload_changes_nothing(
    chat: Chat, table: Table
) -> None:
    pk = await started(chat, "bob")
    row = await table.store.game(pk)
    assert row is not None
    for user, payload in (
        ("carol", f"{pk}:{row.version}:/take 1"),  # not seated there
        ("alice", f"{pk}:{row.version}:/start"),  # a table command, not a move
        ("alice", f"{pk + 9}:{row.version}:/take 1"),  # no such game
        ("alice", "junk"),
    ):
        out = await table.handle(in_private(user, payload, f"x-{user}-{payload}"))
        assert [o.text for o in out] == ["This button is out of date; nothing was changed."]
    assert await table.store.actions(pk) == []


class PictureEveryTake(ChatDicePile):
    """Every take ends a "phase": the board picture follows (as Power Grid's phases do)."""

    def is_picture_event(self, event: dict[str, Any]) -> bool:
        return event["type"] in ("took", "bonus", "game_over")


async def test_a_private_reminder_brings_the_latest_picture_when_a_phase_ended(
    store: Store, clock: FakeClock
) -> None:
    table = Table(
        store,
        games={"dicepile": PictureEveryTake()},
        clock=clock,
        seeder=lambda: 12345,
        durable=("local",),
    )
    chat = Chat(table)
    await store.set_user("local:alice", dm_ok=True)
    pk = await started(chat, "bob")
    await chat.say("alice", "/take 1")
    await chat.say("bob", "/take 1")
    await Scheduler(table, clock=clock).run_due()
    mine = [r for r in await store.outbox() if r.audience == "local:alice"]
    picture = next(r for r in mine if r.kind == "picture")
    row = await store.game(pk)
    assert row is not None
    assert picture.body["picture"] == {
        "game": pk,
        "version": row.version,
        "viewer": "alice",
        "lang": "en",
        "mode": "phase",
    }
    text = next(r for r in mine if r.kind == "post" and "Your move" in r.body["text"])
    assert text.id > picture.id and text.body["buttons"]  # the picture first, then the buttons


def test_the_recap_fits_one_screen_and_keeps_the_newest_lines() -> None:
    game = ChatDicePile()
    state = game.setup(["ann", "bob"], {"start": "20"}, 1)

    class Entry:
        def __init__(self, seq: int, player: str, n: int) -> None:
            self.seq, self.player, self.action = seq, player, {"take": n}
            self.events = [{"type": "took", "player": player, "n": n}]

    entries = [Entry(1, "ann", 1)] + [Entry(i, "bob", 1) for i in range(2, 40)]
    summary = recap(game, state, entries, "ann", "en", max_lines=5)
    lines = summary.text.splitlines()
    assert lines[0] == "Since your last move (38 moves):"
    assert lines[1] == "… 34 earlier moves: /log" and lines[-1] == "#39 bob takes 1."
    assert len(lines) == 6 and not summary.phase_ended
    assert recap(game, state, entries, "bob", "en").text == ""  # bob moved last
    ru = recap(game, state, entries[:3], "ann", "ru").text
    assert ru.splitlines()[0] != "Since your last move (2 moves):"


async def test_a_game_played_in_a_private_chat_keeps_its_own_buttons(table: Table) -> None:
    def solo(text: str | None = None, payload: str | None = None, n: int = 0) -> Inbound:
        return Inbound(
            platform="local",
            chat_key="local:dm-alice",
            user_key="local:alice",
            display_name="alice",
            update_id=f"solo{n}",
            text=text,
            payload=payload,
            is_private=True,
        )

    for n, line in enumerate(("/new dicepile", "/addbot", "/start"), start=1):
        outs = await table.handle(solo(line, n=n))
    pk = present(await table.store.open_game("local:dm-alice")).id
    [take_one, *_] = payloads(outs)
    assert take_one.startswith(f"{pk}:")
    pressed = await table.handle(solo(payload=take_one, n=9))
    assert "alice takes 1." in "\n".join(o.text for o in pressed)
    assert len(await table.store.actions(pk)) >= 1

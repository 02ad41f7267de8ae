"""An /undo tells only those whose situation changed (found through Telegram, 2026-12-05): the
group its one notice, the undoer his prompt where he sent it; a player still asked the same
thing is not sent his private prompt, recap and picture again, neither after the undo nor after
the move played again, and the table does not ping him twice for one ask."""

from __future__ import annotations

import json

from bot.messages import Inbound
from bot.scheduler import Scheduler
from bot.store import Store
from bot.store_outbox import OutboxItem
from tests.bot.helpers import Chat, FakeClock, present
from tests.bot.test_quiet_table import TG, mentioned, quiet_table, start


def private(rows: list[OutboxItem], user: str) -> list[OutboxItem]:
    return [r for r in rows if r.audience == f"local:{user}"]


async def rows_after(store: Store, mark: int) -> list[OutboxItem]:
    return (await store.outbox())[mark:]


async def test_undo_and_the_move_again_reach_nobody_still_asked_the_same_thing(
    store: Store, clock: FakeClock
) -> None:
    table = quiet_table(store, clock)
    sched = Scheduler(table, clock=clock)
    chat = Chat(table, chat_key=TG, platform="telegram")
    for name in ("ann", "bob", "cyd"):
        await store.set_user(f"local:{name}", dm_ok=True)
    await start(chat, "ann", "bob", "cyd")
    await sched.run_due()
    clock.advance(60)
    await chat.say("ann", "/take 1")
    await sched.run_due()  # bob's turn: the group asks him, his private prompt follows
    rows = await store.outbox()
    assert [mentioned(r) for r in rows if not r.silent][-1] == ["bob"]
    assert [r.body["text"] for r in private(rows, "bob")][-1].startswith("Since your last move")
    pk = present(await store.open_game(TG)).id
    deadline = present(await store.reminder(pk)).due_at

    clock.advance(60)
    mark = len(await store.outbox())
    await chat.say("ann", "/undo")
    await sched.run_due()
    rows = await rows_after(store, mark)
    assert private(rows, "bob") == [] and private(rows, "cyd") == []
    assert private(rows, "ann") == []  # she asked for it; the group's status tells her turn
    assert all(r.silent for r in rows)  # the group's one notice: its status message
    assert any(
        "ann takes back their last move." in "\n".join(r.body.get("status_lines", []))
        for r in rows
        if r.kind == "edit"
    )
    kept = present(await store.reminder(pk))
    assert kept.due_at == deadline  # the turn goes on: an undo buys no time

    clock.advance(60)
    mark = len(await store.outbox())
    await chat.say("ann", "/take 1")  # the same move again: bob is asked the same thing
    await sched.run_due()
    rows = await rows_after(store, mark)
    assert private(rows, "bob") == []  # no second prompt, recap or picture
    assert [r for r in rows if not r.silent] == []  # and no second ping in the group
    assert present(await store.reminder(pk)).players == ["bob"]

    # the turn's later reminders still come, with his buttons
    clock.advance(13 * 3600)
    await sched.run_due()
    later = private(await store.outbox(), "bob")[-1]
    assert "bob" in later.body["text"] and later.body.get("buttons")


async def test_an_undo_sent_privately_gives_the_undoer_his_prompt_there(
    store: Store, clock: FakeClock
) -> None:
    table = quiet_table(store, clock)
    chat = Chat(table, chat_key=TG, platform="telegram")
    await start(chat, "ann", "bob")
    await chat.say("ann", "/take 1")
    dm = Inbound(
        platform="telegram",
        chat_key="tg:501",
        user_key="local:ann",
        display_name="ann",
        update_id="dm-undo",
        text="/undo",
        is_private=True,
    )
    outs = await table.handle(dm)
    prompt = [o for o in outs if o.chat_key == "tg:501" and o.buttons]
    assert prompt and prompt[0].silent and "/take" in json.dumps(prompt[0].buttons, default=str)

"""Integration fixes between the table and the real games: refusals only the sender needs,
private events, moves sent in a private chat, each player's language, translated quotes and
buttons, and /rules <id>."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest

from bot.grammar import MAX_TEXT
from bot.i18n import tr, translator
from bot.messages import Inbound, Outbound
from bot.store import Store
from bot.table import Table, _fit, discover_games
from engine.core import Reply, Rng
from engine.core.rng import new_rng_state
from tests.bot.helpers import FakeClock, joined

GROUP = "tg:-1001"
GAMES = discover_games()
PG = GAMES["powergrid"]
IEC = GAMES["iec"]


@pytest.fixture
async def table(db_path: str, clock: FakeClock) -> AsyncIterator[Table]:
    store = await Store.open(db_path, clock=clock)
    yield Table(store, games=GAMES, clock=clock, render=False, seeder=lambda: 7)
    await store.close()


class Pushed:
    """A platform sender that records what the table pushes."""

    def __init__(self) -> None:
        self.outs: list[Outbound] = []

    async def __call__(self, out: Outbound) -> None:
        self.outs.append(out)


def inbound(
    user: str,
    text: str,
    *,
    chat: str = GROUP,
    lang: str | None = None,
    private: bool = False,
) -> Inbound:
    return Inbound(
        platform="telegram",
        chat_key=chat,
        user_key=f"tg:{user}",
        display_name=user,
        lang=lang,
        update_id=None,
        text=text,
        is_private=private,
    )


async def say(table: Table, user: str, text: str, **kw: object) -> list[Outbound]:
    return await table.handle(inbound(user, text, **kw))  # type: ignore[arg-type]


async def open_game(table: Table, game: str, players: list[str], chat: str = GROUP) -> int:
    await say(table, players[0], f"/new {game}", chat=chat)
    for name in players[1:]:
        await say(table, name, "/join", chat=chat)
    outs = await say(table, players[0], "/start", chat=chat)
    assert "begins" in joined(outs), joined(outs)
    row = await table.store.open_game(chat)
    assert row is not None
    return row.id


async def state_of(table: Table, chat: str = GROUP) -> dict:
    row = await table.store.open_game(chat)
    assert row is not None and row.state_json is not None
    return json.loads(row.state_json)


# ------------------------------------------------------------------ 2. refusals
async def test_refusals_are_for_the_sender_only(table: Table) -> None:
    # bob chooses first, in round 1's auction (regions drawn, not chosen: PG-D-3's default)
    await open_game(table, "powergrid regions=random", ["alice", "bob", "carol"])
    for user, text in [
        ("alice", "/bid 3 3"),  # not your turn
        ("bob", "/bid 99 3"),  # not in the market
        ("bob", "/frobnicate"),  # unknown command
        ("bob", "/bid"),  # usage
        ("bob", "/log x"),  # usage of a table command
        ("dave", "/bid 3 3"),  # not playing
    ]:
        outs = await say(table, user, text)
        assert outs and all(o.sender_only for o in outs), (text, outs)
    opened = await say(table, "bob", "/bid 3 3")
    assert "bob puts plant 3" in joined(opened) and not any(o.sender_only for o in opened)


def test_fit_keeps_who_a_split_message_is_for() -> None:
    text = "\n".join(f"@alice line {i} " + "x" * 60 for i in range(100))
    (out,) = [
        Outbound(
            "c",
            text,
            mentions=[("tg:1", "alice")],
            private_to="tg:1",
            toast="short",
            sender_only=True,
        )
    ]
    pieces = _fit([out])
    assert len(pieces) > 2 and all(len(p.text) <= MAX_TEXT for p in pieces)
    assert all(p.sender_only and p.private_to == "tg:1" for p in pieces)
    assert all(p.mentions == [("tg:1", "alice")] for p in pieces)
    assert pieces[0].toast == "short" and all(p.toast is None for p in pieces[1:])


# ------------------------------------------------------------------ 3. private events
async def test_power_grid_orders_are_announced_without_their_content(table: Table) -> None:
    await open_game(table, "powergrid regions=random", ["alice", "bob", "carol"])
    await say(table, "bob", "/bid 3 3")  # carol is to bid next
    outs = await say(table, "alice", "/bid 3 4 max=30")  # off turn: a standing order
    public = [o for o in outs if o.private_to is None]
    mine = [o for o in outs if o.private_to == "tg:alice"]
    # Issue 20: the group does not even learn that a hidden maximum exists.
    assert "standing order" not in joined(public) and "30" not in joined(public)
    assert mine and all(o.chat_key == GROUP for o in mine)
    assert not [o for o in outs if o.private_to not in (None, "tg:alice")]


async def test_iec_private_events_reach_their_owner_only(table: Table) -> None:
    await open_game(table, "iec", ["alice", "bob"])
    rng = Rng(new_rng_state(3))
    for _ in range(40):
        state = await state_of(table)
        player = IEC.current_players(state)[0]
        action = IEC.bots["economic"](json.loads(json.dumps(state)), player, rng)
        probe = json.loads(json.dumps(state))
        _, events = IEC.apply(probe, player, action)
        owned = [e for e in events if e.get("private_to")]
        outs = await table.act(inbound(player, ""), action)
        if not owned:
            assert not [o for o in outs if o.private_to]
            continue
        t = translator("en")
        public = joined([o for o in outs if o.private_to is None])
        private = [o for o in outs if o.private_to is not None]
        for event in owned:
            line = IEC.describe_private_event(probe, event, t)
            assert line and any(
                o.private_to == f"tg:{event['private_to']}" and line in o.text for o in private
            )
            assert line not in public
            said = IEC.describe_event(probe, event, t)
            assert (said in public) if said else True
        assert all(o.private_to == f"tg:{player}" for o in private)
        return
    pytest.fail("no private event in 40 moves")


# ------------------------------------------------------------------ 4. private commands
async def test_a_move_sent_privately_plays_in_the_group(table: Table) -> None:
    pushed = Pushed()
    table.register_sender("telegram", pushed)
    pk = await open_game(table, "powergrid regions=random", ["alice", "bob", "carol"])
    await say(table, "bob", "/bid 3 3")
    dm = "tg:dm-alice"
    outs = await say(table, "alice", "/bid 3 4 max=30", chat=dm, private=True)
    # The group hears nothing of the order, let alone its limit (issue 20).
    group = [o for o in pushed.outs if o.chat_key == GROUP and o.private_to is None]
    assert "standing order" not in joined(group) and "30" not in joined(group)
    # The sender hears back privately.
    assert outs and all(o.chat_key == dm or o.private_to == "tg:alice" for o in outs)
    assert "Done in Power Grid" in joined(outs) and f"g{pk}" not in joined(outs)
    orders = await say(table, "alice", "/orders", chat=dm, private=True)
    assert "30" in joined(orders) and all(o.chat_key == dm for o in orders)
    assert not [o for o in pushed.outs if "30" in o.text and o.private_to is None]
    # A refusal sent privately stays private.
    pushed.outs.clear()
    refused = await say(table, "alice", "/build Berlin", chat=dm, private=True)
    assert refused and all(o.chat_key == dm and o.sender_only for o in refused)
    assert pushed.outs == []


async def test_a_private_move_names_its_game_when_the_player_has_several(table: Table) -> None:
    pushed = Pushed()
    table.register_sender("telegram", pushed)
    first = await open_game(table, "powergrid regions=random", ["alice", "bob", "carol"])
    second = await open_game(
        table, "powergrid regions=random", ["alice", "bob", "carol"], chat="tg:-1002"
    )
    dm = "tg:dm-bob"
    outs = await say(table, "bob", "/bid 3 3", chat=dm, private=True)
    text = joined(outs)
    assert f"g{first}" in text and f"g{second}" in text and "/bid g" in text
    assert all(o.sender_only for o in outs) and pushed.outs == []
    outs = await say(table, "bob", f"/bid g{second} 3 3", chat=dm, private=True)
    assert "Done in Power Grid" in joined(outs)  # named by its chat, not "g2"
    assert "bob puts plant 3" in joined([o for o in pushed.outs if o.chat_key == "tg:-1002"])
    assert (await state_of(table, GROUP)) != (await state_of(table, "tg:-1002"))
    outs = await say(table, "bob", "/bid g999 3 3", chat=dm, private=True)
    assert "g999" in joined(outs)


# ------------------------------------------------------------------ 5, 6. languages
async def test_each_player_is_answered_in_their_own_language(table: Table) -> None:
    await open_game(table, "powergrid", ["alice", "bob", "carol"])
    ru = translator("ru")
    # The same refusal in one chat: alice's platform says Russian, carol's English.
    turn = "Not your turn — waiting for {who}."
    unknown = "Unknown command /{name}. /help lists the commands."
    a = joined(await say(table, "alice", "/bid 3 3", lang="ru"))
    c = joined(await say(table, "carol", "/bid 3 3", lang="en"))
    assert a == tr("ru", turn, who="bob") and c == tr("en", turn, who="bob") and a != c
    d = joined(await say(table, "dave", "/xyz", lang="ru"))  # not seated: the table's answer
    e = joined(await say(table, "erin", "/xyz", lang="en"))
    assert d == tr("ru", unknown, name="xyz") and e == tr("en", unknown, name="xyz") and d != e
    # /status is a group post in the chat's language, its buttons too; an asker who reads
    # another language also gets it in hers, to her alone (issue 18, "Who reads what").
    state = await state_of(table)
    group_t = translator((await table.store.chat(GROUP)).lang)
    outs_ru = await say(table, "alice", "/status", lang="ru")
    outs_en = await say(table, "carol", "/status", lang="en")
    posted_ru = [o for o in outs_ru if o.private_to is None]
    posted_en = [o for o in outs_en if o.private_to is None]
    mine_ru = [o for o in outs_ru if o.private_to == "tg:alice"]
    assert joined(posted_ru) == joined(posted_en)
    assert PG.describe_turn(state, None, group_t).strip() in joined(posted_ru)
    assert PG.describe_turn(state, None, ru).strip() in joined(mine_ru)
    assert all(not o.buttons for o in mine_ru)
    labels = [b.label for o in posted_ru for row in o.buttons for b in row]
    assert labels == [label for label, _ in PG.buttons(state, "bob", t=group_t)][: len(labels)]
    assert labels and labels == [b.label for o in posted_en for row in o.buttons for b in row]
    # A user's own /lang beats their platform's language and the chat's; it is personal:
    # the chat keeps its language (issue 18).
    chat_lang = (await table.store.chat(GROUP)).lang
    await say(table, "carol", "/lang pl", lang="en")
    assert (await table.store.chat(GROUP)).lang == chat_lang != "pl"
    assert joined(await say(table, "carol", "/bid 3 3", lang="en")) == tr("pl", turn, who="bob")
    assert joined(await say(table, "alice", "/bid 3 3", lang="ru")) == a  # her platform's
    assert joined(await say(table, "frank", "/xyz")) == tr(chat_lang, unknown, name="xyz")


async def test_game_quotes_are_posted_in_the_chat_s_language_with_the_sender_s_copy(
    table: Table,
) -> None:
    """A public quote typed in the group is a group post in the chat's language (English
    here); a sender who reads another gets his copy privately (found play-testing,
    2026-12-03: a Polish player's /market came to a Russian chat in Polish)."""
    await open_game(table, "powergrid", ["alice", "bob", "carol"])
    state = await state_of(table)

    def quote(lang: str) -> str:
        reply = PG.parse(json.loads(json.dumps(state)), "alice", "income", [], t=translator(lang))
        assert isinstance(reply, Reply)
        return reply.text.strip()

    for lang in ("ru", "en"):
        outs = await say(table, "alice", "/income", lang=lang)
        assert [o.text for o in outs if o.private_to is None] == [quote("en")]
        own = [o.text for o in outs if o.private_to == "tg:alice"]
        assert own == ([quote("ru")] if lang == "ru" else [])
    assert quote("ru") != quote("en")


def test_every_game_s_parse_takes_a_translator() -> None:
    import inspect

    for game in GAMES.values():
        assert "t" in inspect.signature(game.parse).parameters, game.id


# ------------------------------------------------------------------ 7. /rules
async def test_rules_name_the_rule_and_its_commands(table: Table) -> None:
    await open_game(table, "powergrid", ["alice", "bob"])
    text = joined(await say(table, "alice", "/rules PG-21"))
    assert text.startswith("PG-21 · Bidding") and "/bid" in text and "/raise" in text
    text = joined(await say(table, "alice", "/rules pg-46a"))
    assert text.startswith("PG-46a: End-of-Phase-4 order")
    assert "PG-53 · Winner" in joined(await say(table, "alice", "/rules PG-53"))
    assert "PG-99" in joined(await say(table, "alice", "/rules PG-99"))


def test_power_grid_rules_index_titles_are_marked_for_translation() -> None:
    from engine.powergrid.rules_index import RULES_COMMANDS, RULES_INDEX, TITLES

    assert RULES_INDEX["PG-1"] == "Map" and RULES_INDEX["PG-53"] == "Winner"
    assert all(f"PG-{n}" in RULES_INDEX for n in range(1, 54))
    assert set(RULES_INDEX.values()) == set(TITLES)
    names = {c.name for c in PG.commands}
    assert all(set(cmds) <= names for cmds in RULES_COMMANDS.values())

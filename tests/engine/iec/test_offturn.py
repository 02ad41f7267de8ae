"""A company not asked to act, in a phase declared at once (rules version 2, issue 17; IEC-S-10.4
as the engine changes it there), and the buttons posted in the group for several companies.

Found playing: in phase 5 a company with nothing to decide heard "Not your turn" for any
phase command; now the table asks the game why (`off_turn_reason`), which says that he has
nothing left to decide there, whom the table waits for and, for a command of another phase, in which
phase it is played (IEC-27). And the group's buttons of a phase declared at once mixed every
asked company's buildings ("Transmit G3", "Transmit R14"): a button naming a building now
names its owner too.
"""

from __future__ import annotations

import copy
import json
import sqlite3
from pathlib import Path
from typing import Any

from bot.store import Store
from bot.table import Table
from engine.core import EnglishTranslator, IllegalAction, Reply, canonical_json
from engine.iec import GAME, offturn
from tests.bot.helpers import Chat, FakeClock, joined
from tests.engine.iec.helpers import add, empty
from tests.engine.iec.test_simultaneous import _open, _transmitters

T = EnglishTranslator()
State = dict[str, Any]


def _laying(version: str = "2") -> tuple[State, str, str]:
    """Phase 5: P1 may lay a mine (a developer and AC near it), P2 has nothing to decide."""
    st, (p1, p2) = empty(rules_version=version)
    add(st, p1, "reactor", "B7")
    add(st, p2, "reactor", "W10")
    add(st, p1, "developer", "E5")
    add(st, p1, "storage", "E3", goods={"AC": 1})
    return _open(st, 5), p1, p2


def _refused(st: State, player: str, name: str, *words: str, t: Any = T) -> IllegalAction:
    """The game's reason for refusing `/name` from `player` off turn (its words don't matter:
    the table refuses before reading them)."""
    why = GAME.off_turn_reason(st, player, name, t)
    assert why is not None
    return why


def test_iec_s10_4_nothing_left_to_decide_in_a_phase_declared_at_once() -> None:
    st, p1, p2 = _laying()
    assert GAME.current_players(st) == [p1]
    for name, words in (("lay", ["H7"]), ("done", []), ("pass", []), ("relocate", ["H7", "H8"])):
        err = _refused(st, p2, name, *words)
        assert err.english() == (
            f"You have nothing left to decide in phase 5 (mine laying); waiting for {p1}."
        ), name


def test_iec_27_a_command_of_another_phase_says_in_which_phase_it_is_played() -> None:
    st, p1, p2 = _laying()
    assert _refused(st, p2, "transmit").english() == (
        f"You have nothing left to decide in phase 5 (mine laying); waiting for {p1}. "
        "/transmit is played in phase 10 (transmission)."
    )
    assert _refused(st, p2, "build", "G6", "mine").params["later"] == 7
    st, p1, p2 = _transmitters()  # phase 10: /lay comes back in the next turn's phase 5
    GAME.apply(st, p2, {"type": "done"})
    assert _refused(st, p2, "lay", "H7").params["later"] == 5
    assert _refused(st, p2, "transmit", "R14").message_key == offturn.NOTHING_LEFT


def test_iec_27_the_phase_names_are_in_the_reader_s_words() -> None:
    class Upper(EnglishTranslator):
        def gettext(self, message: str) -> str:
            return message.upper()

    st, _p1, p2 = _laying()
    err = _refused(st, p2, "research", t=Upper())
    assert (err.params["name"], err.params["later_name"]) == ("MINE LAYING", "SCIENCE")


def test_iec_s10_4_one_company_at_a_time_keeps_the_table_s_not_your_turn() -> None:
    st, _p1, p2 = _laying("1")
    assert GAME.off_turn_reason(st, p2, "lay", T) is None


def test_iec_s26_the_refusal_does_not_tell_his_declaration() -> None:
    """Read in the group: the same whether P2 declared a transmission or stopped."""
    a, _p1, p2 = _transmitters()
    b = copy.deepcopy(a)
    GAME.apply(a, p2, {"type": "transmit", "building": "R14"})
    GAME.apply(b, p2, {"type": "done"})
    assert _refused(a, p2, "transmit", "R14").english() == (
        _refused(b, p2, "transmit", "R14").english()
    )


def test_iec_s10_5_standing_orders_and_the_list_still_answer_off_turn() -> None:
    st, p1, p2 = _laying()
    for command in ("power", "mix"):  # standing orders, accepted off turn: nothing to say
        assert command in GAME.capabilities.off_turn_commands
        assert GAME.off_turn_reason(st, p2, command, T) is None
    assert isinstance(GAME.parse(st, p2, "tech", []), Reply)  # the list, anytime
    assert _refused(st, p2, "tech").params["later"] == 14  # /tech N: phase 14's
    assert GAME.off_turn_reason(st, p1, "lay", T) is None  # he is asked
    assert GAME.capabilities.off_turn_reasons


def test_iec_7_buttons_of_several_companies_name_their_owner() -> None:
    """IEC-7 (every building belongs to one player): posted together in the group, a button
    naming a building says whose it is; with one company left, it needs no name."""
    st, p1, p2 = _transmitters()
    assert GAME.buttons(st, p1, T) == [(f"Transmit G3 ({p1})", "/transmit G3"), ("Done", "/done")]
    assert GAME.buttons(st, p2, T)[0] == (f"Transmit R14 ({p2})", "/transmit R14")
    GAME.apply(st, p2, {"type": "done"})
    assert GAME.buttons(st, p1, T)[0] == ("Transmit G3", "/transmit G3")


# ------------------------------------------------------------------ through the table


async def _table_at(tmp_path: Path, make: Any) -> tuple[Store, Chat]:
    """A started two-company table (rules version 2) whose state is then `make(state)`."""
    clock = FakeClock()
    db = str(tmp_path / "t.sqlite3")
    store = await Store.open(db, clock=clock)
    chat = Chat(Table(store, games={"iec": GAME}, clock=clock, render=False, seeder=lambda: 7))
    await chat.say("alice", "/new iec rules_version=2")
    await chat.say("bob", "/join")
    await chat.say("alice", "/start")
    row = await store.open_game(chat.chat_key)
    assert row is not None and row.state_json is not None
    state = make(json.loads(row.state_json))
    await store.close()
    with sqlite3.connect(db) as conn:
        conn.execute(
            "UPDATE games SET state_json = ? WHERE id = ?", (canonical_json(state), row.id)
        )
    store = await Store.open(db, clock=clock)
    return store, Chat(
        Table(store, games={"iec": GAME}, clock=clock, render=False, seeder=lambda: 7)
    )


def _seat(state: State, ph: int, build: Any) -> State:
    """`state` at phase `ph` just begun, with alice's and bob's buildings from `build`."""
    state["buildings"], state["tokens"] = {}, []
    build(state)
    state["order"] = ["alice", "bob"]
    state["phase_order"] = {str(p): ["alice", "bob"] for p in range(3, 15)}
    return _open(state, ph)


def _alice_lays(st: State) -> None:
    add(st, "alice", "reactor", "B7")
    add(st, "bob", "reactor", "W10")
    add(st, "alice", "developer", "E5")
    add(st, "alice", "storage", "E3", goods={"AC": 1})


def _both_transmit(st: State) -> None:
    add(st, "alice", "reactor", "B7")
    add(st, "bob", "reactor", "W10")
    add(st, "alice", "transmitter", "G3")
    add(st, "alice", "storage", "E3", goods={"BC": 2})
    add(st, "bob", "transmitter", "R14")
    add(st, "bob", "storage", "T14", goods={"BC": 2})


async def test_iec_s10_4_table_tells_an_idle_company_why_in_phase_5(tmp_path: Path) -> None:
    store, chat = await _table_at(tmp_path, lambda s: _seat(s, 5, _alice_lays))
    try:
        for line in ("/lay H7", "/done"):
            text = joined(await chat.say("bob", line))
            assert "Not your turn" not in text
            assert "nothing left to decide in phase 5 (mine laying); waiting for alice" in text
        text = joined(await chat.say("bob", "/transmit"))
        assert "/transmit is played in phase 10 (transmission)" in text
        row = await store.open_game(chat.chat_key)
        assert row is not None and row.state_json is not None
        assert GAME.current_players(json.loads(row.state_json)) == ["alice"]
    finally:
        await store.close()


async def test_iec_7_the_group_s_buttons_name_whose_building(tmp_path: Path) -> None:
    store, chat = await _table_at(tmp_path, lambda s: _seat(s, 10, _both_transmit))
    try:
        outs = await chat.say("alice", "/status")
        labels = {b.payload.split(":", 2)[2]: b.label for o in outs for r in o.buttons for b in r}
        assert labels["/transmit G3"] == "Transmit G3 (alice)"
        assert labels["/transmit R14"] == "Transmit R14 (bob)"
        assert labels["/done"] == "Done"
    finally:
        await store.close()

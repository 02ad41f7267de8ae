"""IEC-S-23 / IEC-S-26, corrections 1.1 ("No side channel"): a technology is its owner's secret
until he uses it, so a refusal whose words or mere occurrence depend on the technologies he
owns (or has not revealed) is `secret`: the table tells him alone, never the group. Every
other refusal of the same command reads alike with or without the technology, and comes
first (found playing: `/flex 9 last` in the group answered "You need Flexible Order", while
`/antimissile on` without Anti-missile Defence was quietly taken as a private order)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.core import IllegalAction
from engine.iec import GAME, actions
from engine.iec.legal import legal_actions
from tests.engine.iec.helpers import add, at, do, empty, two

Action = dict[str, Any]


def _refusal(st: dict[str, Any], player: str, action: Action, turn: bool = True) -> IllegalAction:
    """The refusal of `action`: a phase action in his turn (`do`), else through `apply`."""
    with pytest.raises(IllegalAction) as err:
        if turn:
            do(st, player, action)
        else:
            actions.apply(st, player, action)
    return err.value


def _alike(a: IllegalAction, b: IllegalAction) -> None:
    """The same public refusal, with or without the technology."""
    assert (a.rule_id, a.english(), a.secret) == (b.rule_id, b.english(), b.secret)
    assert not a.secret


# ---------------------------------------------------------------- private orders


@pytest.mark.parametrize(
    "action, tech",
    [
        ({"type": "flex", "phase": 9, "position": "last"}, 3),
        ({"type": "sweep", "cell": "S5"}, 19),
        ({"type": "peek", "area": "II-N"}, 1),
        ({"type": "subsidy", "kind": "transmitter", "cell": "J13"}, 16),
        ({"type": "use", "tech": 13, "mode": "now"}, 13),
        ({"type": "use", "tech": 11, "mode": "off"}, 11),
    ],
)
def test_iec_s23_an_order_of_a_technology_he_lacks_is_refused_to_him_alone(
    action: Action, tech: int
) -> None:
    st, (p1, _) = empty(mine_war="on")
    err = _refusal(st, p1, action, turn=False)
    assert err.rule_id == f"IEC-TECH-{tech}" and err.secret
    st["players"][p1]["techs"] = [tech]  # with it, the order is taken
    add(st, p1, "developer", "S3")  # a sweep within reach (IEC-S-22)
    actions.apply(st, p1, action)


def test_iec_s22_a_sweep_beyond_every_developers_reach_is_refused_and_not_saved() -> None:
    """IEC-S-22: Minesweepers clears a cell within 12 cm of one of his developers; an order
    for a cell beyond them all would be kept and never act, so it is refused to him alone,
    after the technology check (a rival without it learns nothing)."""
    st, (p1, _) = empty(mine_war="on")
    st["players"][p1]["techs"] = [19]
    add(st, p1, "developer", "E5")
    err = _refusal(st, p1, {"type": "sweep", "cell": "S5"}, turn=False)
    assert err.rule_id == "IEC-S-22" and "12 cm" in err.english()
    assert st["players"][p1]["orders"].get("sweep") is None
    actions.apply(st, p1, {"type": "sweep", "cell": "H7"})  # 6 columns over: within 12 cm
    assert st["players"][p1]["orders"]["sweep"] == "H7"


@pytest.mark.parametrize(
    "action, tech",
    [
        ({"type": "flex", "phase": 2, "position": "last"}, 3),
        ({"type": "flex", "phase": 9, "position": "middle"}, 3),
        ({"type": "sweep", "cell": "Z99"}, 19),
        ({"type": "peek", "area": "I"}, 1),
        ({"type": "subsidy", "kind": "castle", "cell": "J13"}, 16),
        ({"type": "subsidy", "kind": "transmitter", "cell": "Z99"}, 16),
    ],
)
def test_iec_s23_an_orders_wrong_words_are_refused_alike_with_or_without_the_technology(
    action: Action, tech: int
) -> None:
    st, (p1, _) = empty(mine_war="on")
    without = _refusal(st, p1, action, turn=False)
    st["players"][p1]["techs"] = [tech]
    _alike(without, _refusal(st, p1, action, turn=False))


# ---------------------------------------------------------------- phase 5: Total Mine War


def _lay_state() -> tuple[dict[str, Any], str]:
    st, p1, _ = two()
    add(st, p1, "developer", "E5")
    add(st, p1, "storage", "E3", goods={"AC": 2})
    return at(st, 5, p1), p1


def test_iec_tech18_two_real_mines_or_the_limit_without_total_mine_war_told_him_alone() -> None:
    st, p1 = _lay_state()
    two_real = {"type": "lay", "real": ["H7", "H8"], "fake": []}
    err = _refusal(st, p1, two_real)
    assert err.rule_id == "IEC-D-3" and err.secret
    st["players"][p1]["mines_used"] = 4  # M = 4 (IEC-S-8.4); 6 with Total Mine War
    err = _refusal(st, p1, {"type": "lay", "real": ["H7"], "fake": []})
    assert err.rule_id == "IEC-S-8.4" and err.secret and err.params["m"] == 4
    # revealed, the limit is public: 6 used of 6
    st["players"][p1].update(techs=[18], revealed=[18], mines_used=6)
    err = _refusal(st, p1, {"type": "lay", "real": ["H7"], "fake": []})
    assert err.rule_id == "IEC-S-8.4" and not err.secret and err.params["m"] == 6


@pytest.mark.parametrize(
    "real, fake, used",
    [
        (["H7", "L5"], [], 0),  # two real mines, one 14 cm from the developer (IEC-S-21)
        (["L5"], [], 4),  # the base limit reached, and a cell too far (IEC-S-21)
        (["H7"], ["H7"], 4),  # one cell twice (IEC-19)
        (["H7"], ["H8", "H6", "G6"], 0),  # three fakes (IEC-19)
    ],
)
def test_iec_tech18_a_wrong_placement_is_refused_alike_with_or_without_total_mine_war(
    real: list[str], fake: list[str], used: int
) -> None:
    lay = {"type": "lay", "real": real, "fake": fake}
    st, p1 = _lay_state()
    st["players"][p1]["mines_used"] = used
    without = _refusal(st, p1, lay)
    st["players"][p1]["techs"] = [18]
    _alike(without, _refusal(st, p1, lay))


# ------------------------------------------------------ phase 7: Remote Drilling, Recycling


def _dev_state() -> tuple[dict[str, Any], str]:
    st, p1, p2 = two()
    add(st, p1, "developer", "E5")
    add(st, p1, "storage", "E3", goods={"AB": 4})
    add(st, p2, "storage", "G7")
    st["sites"]["G6"] = p1
    return at(st, 7, p1), p1


def test_iec_tech1_a_deposit_choice_without_remote_drilling_is_told_him_alone() -> None:
    choose = {"type": "build", "developer": "E5", "cell": "G6", "kind": "mine", "deposit": 1}
    st, p1 = _dev_state()
    err = _refusal(st, p1, choose)
    assert err.rule_id == "IEC-TECH-1" and err.secret
    # no AB for the module: refused alike, with or without Remote Drilling
    st["buildings"]["E3"]["goods"]["AB"] = 0
    without = _refusal(st, p1, choose)
    st["players"][p1]["techs"] = [1]
    _alike(without, _refusal(st, p1, choose))
    assert without.rule_id == "IEC-S-18.2"


def test_iec_tech14_recycling_he_lacks_is_told_him_alone_after_the_public_checks() -> None:
    recycle = {"type": "recycle", "developer": "E5", "target": "G7"}
    st, p1 = _dev_state()
    err = _refusal(st, p1, recycle)
    assert err.rule_id == "IEC-TECH-14" and err.secret
    for used, target in ((["prepare"], "G7"), ([], "X16")):  # IEC-S-18.5: a used developer,
        st, p1 = _dev_state()  # a target out of its range
        st["buildings"]["E5"]["used"] = used
        act = dict(recycle, target=target)
        without = _refusal(st, p1, act)
        st["players"][p1]["techs"] = [14]
        _alike(without, _refusal(st, p1, act))
        assert without.rule_id == "IEC-S-18.5"


@pytest.mark.parametrize("mode", ["auto", "off"])
def test_iec_tech14_unrevealed_recycling_neither_keeps_him_from_being_passed_nor_shows(
    mode: str,
) -> None:
    """Phase 7 with no AB for a module: the table passes him (forced /done) and posts the same
    buttons whether or not he holds an unrevealed Recycling (found by `make fuzz`, 2026-12-04:
    the public legal moves listed recycling, so a secret Recycling kept him from being
    passed); he may still recycle himself, which reveals it."""
    st, p1 = _dev_state()
    st["buildings"]["E3"]["goods"]["AB"] = 0
    passed, buttons = GAME.forced_action(st, p1), GAME.buttons(st, p1)
    assert passed == {"type": "done"}
    st["players"][p1]["techs"] = [14]
    st["players"][p1]["orders"]["use"] = {"14": mode}
    assert (GAME.forced_action(st, p1), GAME.buttons(st, p1)) == (passed, buttons)
    own_moves = GAME.legal_actions(st, p1)
    assert {"type": "recycle", "developer": "E5", "target": "G7"} in own_moves
    st["players"][p1]["revealed"] = [14]  # revealed: public, so offered and not passed
    assert GAME.forced_action(st, p1) is None
    assert {"type": "recycle", "developer": "E5", "target": "G7"} in legal_actions(
        st, p1, public=True
    )


# ---------------------------------------------------------------- phase 9: Salvo, Multiple Targets


def _fire_state(modules: int = 3, ac: int = 3) -> tuple[dict[str, Any], str]:
    st, p1, p2 = two()
    add(st, p1, "launcher", "I5", modules=modules)
    add(st, p1, "storage", "I7", goods={"AC": ac})
    add(st, p2, "storage", "R3")
    add(st, p2, "storage", "M3")
    st["radiation"] = 8
    return at(st, 9, p1), p1


def test_iec_tech9_tech10_a_third_missile_or_second_target_is_told_him_alone() -> None:
    st, p1 = _fire_state()
    err = _refusal(st, p1, {"type": "fire", "launcher": "I5", "targets": {"R3": 3}})
    assert err.rule_id == "IEC-S-19.2" and err.secret and err.params["n"] == 2
    err = _refusal(st, p1, {"type": "fire", "launcher": "I5", "targets": {"R3": 1, "M3": 1}})
    assert err.rule_id == "IEC-16.5" and err.secret
    # revealed, Missile Salvo's third shot is public: a fourth is refused in the group
    st["players"][p1].update(techs=[9], revealed=[9])
    st["buildings"]["I7"]["goods"]["AC"] = 4
    err = _refusal(st, p1, {"type": "fire", "launcher": "I5", "targets": {"R3": 4}})
    assert err.rule_id == "IEC-S-19.2" and not err.secret and err.params["n"] == 3


def test_iec_s19_2_a_damaged_launcher_or_missing_ac_is_refused_alike_with_any_technology() -> None:
    cases: list[tuple[int, int, dict[str, int], str]] = [
        (1, 3, {"R3": 3}, "IEC-S-19.2"),  # damaged: 2 shots whatever he owns (IEC-S-19.2)
        (1, 3, {"R3": 1, "M3": 1}, "IEC-16.5"),  # damaged: one target (IEC-TECH-10)
        (3, 2, {"R3": 3}, "IEC-16.3"),  # 3 missiles, 2 AC (IEC-16.3)
        (3, 3, {"R3": 1, "M3": 1, "I9": 1}, "IEC-16.5"),  # three targets: never
    ]
    for modules, ac, targets, rule in cases:
        st, p1 = _fire_state(modules, ac)
        fire = {"type": "fire", "launcher": "I5", "targets": targets}
        without = _refusal(st, p1, fire)
        st["players"][p1]["techs"] = [9, 10]
        _alike(without, _refusal(st, p1, fire))
        assert without.rule_id == rule, (targets, without)


# ---------------------------------------------------------------- phase 14: technologies


def test_iec_s23_a_technology_he_owns_or_a_cost_super_computer_lowers_is_told_him_alone() -> None:
    st, (p1, _) = empty()
    at(st, 14, p1)
    pl = st["players"][p1]
    pl.update(techs=[5], science=5)
    err = _refusal(st, p1, {"type": "tech", "tech": 5})
    assert err.rule_id == "IEC-24" and err.secret
    # k = 2 technologies (public): 3 + 2*2 = 7 points, or 3 with an unrevealed Super Computer
    pl.update(techs=[2, 5], science=1)
    err = _refusal(st, p1, {"type": "tech", "tech": 6})
    assert err.rule_id == "IEC-23" and err.secret and err.params["cost"] == 3
    pl.update(techs=[5, 6])
    err = _refusal(st, p1, {"type": "tech", "tech": 7})
    assert err.secret and err.params["cost"] == 7  # alike, so the secret flag tells nothing
    pl.update(techs=[2, 5], revealed=[2])
    assert not _refusal(st, p1, {"type": "tech", "tech": 6}).secret  # public: revealed
    pl.update(techs=[], revealed=[], science=1)
    assert not _refusal(st, p1, {"type": "tech", "tech": 6}).secret  # public: T, nothing owned


# ---------------------------------------------------------------- through the table


async def test_iec_s23_the_group_never_reads_whether_a_company_owns_a_technology(
    tmp_path: Path,
) -> None:
    """The repro: commands of technologies bob lacks, sent in the group, answer bob alone,
    as the orders `/antimissile on` and `/give` (taken whatever he owns) always did."""
    from bot.store import Store
    from bot.table import Table
    from tests.bot.helpers import Chat, FakeClock

    clock = FakeClock()
    store = await Store.open(str(tmp_path / "t.sqlite3"), clock=clock)
    chat = Chat(Table(store, games={"iec": GAME}, clock=clock, seeder=lambda: 7))
    try:
        await chat.say("ann", "/new iec")
        await chat.say("bo", "/join")
        await chat.say("ann", "/start")
        row = await store.open_game(chat.chat_key)
        assert row is not None and row.state_json is not None
        assert json.loads(row.state_json)["players"]["bo"]["techs"] == []
        for line in (
            "/flex 9 last",
            "/sweep S5",
            "/peek II-N",
            "/subsidy transmitter J13",
            "/use 13",
            "/antimissile on",
            "/give ann 2",
        ):
            outs = await chat.say("bo", line)
            assert outs, line
            public = [o.text for o in outs if o.private_to is None]
            assert public == [], (line, public)
    finally:
        await store.close()

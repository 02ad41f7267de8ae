"""The strong bot's own policy (engine/iec/defence.py, issue 24): recipes for what waits,
the transmitter repaired first, no laboratory, and a whole game against the rush."""

from __future__ import annotations

from typing import Any

from engine.core import Rng
from engine.iec import GAME, defence, orders, rules
from tests.engine.iec.helpers import add, at, by_seat, new


def _p1(st: dict[str, Any]) -> str:
    return by_seat(st, "P1")


def test_iec_s17_mixers_make_bc_when_no_build_waits() -> None:
    st = new(2)
    p = _p1(st)
    st["turn"] = 18  # too late for growth: only transmissions count now
    # AB last: a fallback, so the mixer never stalls on a storage full of A and B.
    assert defence.mix_wants(st, p) == ["BC", "AB"]


def test_iec_s18_ab_first_while_a_build_waits_for_it() -> None:
    st = new(2)
    p = _p1(st)
    st["buildings"]["E3"]["goods"]["AB"] = 0  # less than a module's worth (2 AB)
    # Turn 1 of 20 with free power places: a growth project waits for AB.
    assert defence.mix_wants(st, p)[:2] == ["AB", "BC"]
    st["buildings"]["E3"]["goods"]["AB"] = 2  # a module's worth is stored: BC again
    assert defence.mix_wants(st, p) == ["BC", "AB"]


def test_iec_16_3_ac_first_only_for_a_launcher_facing_a_rival_launcher() -> None:
    st = new(2)
    p = _p1(st)
    rival = next(q for q in st["seats"] if q != p)
    st["turn"] = 18
    add(st, p, "launcher", "G5", modules=1)
    assert "AC" not in defence.mix_wants(st, p)  # nothing to answer
    add(st, rival, "launcher", "R12", modules=1)
    assert defence.mix_wants(st, p)[0] == "AC"
    st["buildings"]["E3"]["goods"]["AC"] = 2  # two missiles in stock (IEC-S-19.2)
    assert "AC" not in defence.mix_wants(st, p)


def test_iec_s18_2_a_damaged_transmitter_is_rebuilt_before_any_project() -> None:
    st = new(2)
    p = _p1(st)
    st["buildings"]["G3"]["modules"] = 1  # one missile hit (IEC-S-20)
    st["sites"]["G5"] = p  # a prepared site the economic bot would build a storage on
    at(st, 7, p)
    rng = Rng({"s": 1})
    action = defence.guarded_bot(st, p, rng)
    while action["type"] in rules.STANDING:  # standing orders kept in step first
        orders.standing(st, p, action, [])
        action = defence.guarded_bot(st, p, rng)
    assert action == {"type": "build", "developer": "E5", "cell": "G3"}


def test_iec_s16_no_laboratory_and_no_research_in_a_whole_game_against_the_rush() -> None:
    """Two companies, the strong policy against the launcher rush: it never builds a
    laboratory, researches or lays a Mine War token, yet builds, and the game ends
    normally."""
    st = GAME.setup(["a", "b"], {}, 3)
    rng = Rng({"s": 3})
    kinds = {"a": defence.guarded_bot, "b": GAME.bots["rush"]}
    built: set[str] = set()
    laid = 0
    while not GAME.is_over(st):
        p = GAME.current_players(st)[0]
        action = kinds[p](st, p, rng)
        if p == "a" and action["type"] == "build" and action["cell"] not in st["buildings"]:
            built.add(action["kind"])
        laid += p == "a" and action["type"] == "lay"
        st, _events = GAME.apply(st, p, action)
    assert "laboratory" not in built and laid == 0
    assert st["players"]["a"]["science"] == 0
    assert rules.result(st) and st["turn"] == rules.param(st, "turns")
    assert built  # it grew its network (or answered with a launcher)


def test_iec_s18_2_the_raid_fires_at_a_home_mine_its_owner_cannot_rebuild() -> None:
    """Four companies: a launcher beside the NW storage E3 (1 AC there) picks a rival's home
    mine (one module, IEC-14, beyond his developer's 6 cm, IEC-S-18.2) over his transmitter
    or mixer, which his developer would rebuild."""
    st = new(4)
    p = _p1(st)
    add(st, p, "launcher", "G5", modules=1)
    at(st, 9, p)
    assert defence.raiding(st)
    action = defence.raid_fire(st, p)
    assert action is not None and action["launcher"] == "G5"
    ((cell, shots),) = action["targets"].items()
    target = st["buildings"][cell]
    assert target["kind"] == "mine" and target["owner"] != p
    assert not defence._repairable(st, target)
    assert shots == 1  # one AC in the linked storage, one missile (IEC-16.3)


def test_iec_s19_no_raid_in_a_duel_and_missiles_only_after_bc() -> None:
    two = new(2)
    assert not defence.raiding(two)  # two companies: the duel rules of the rush apply
    st = new(4)
    p = _p1(st)
    st["turn"] = 15
    st["buildings"]["E3"]["goods"]["AB"] = 2  # no build waits for AB
    assert "AC" not in defence.mix_wants(st, p)  # no launcher yet
    add(st, p, "launcher", "G5", modules=1)
    # AC only when the mixer cannot make BC (made first, it cost more VP than it took).
    assert defence.mix_wants(st, p) == ["BC", "AC", "AB"]


def _phase_move(st: dict[str, Any], p: str) -> dict[str, Any]:
    """The policy's move after keeping its standing orders in step."""
    rng = Rng({"s": 1})
    action = defence.guarded_bot(st, p, rng)
    while action["type"] in rules.STANDING:
        orders.standing(st, p, action, [])
        action = defence.guarded_bot(st, p, rng)
    return action


def test_iec_s19_in_a_duel_spare_ac_raids_a_home_mine_once_no_rival_launcher_is_in_reach() -> None:
    """Two companies (no raid of three+, `raiding`): a launcher beside the NW storage E3
    (1 AC there, IEC-S-7) with no rival launcher to answer fires that AC at a rival home mine
    (one module, IEC-14; beyond his developer's 6 cm, IEC-S-18.2) in extended range
    (IEC-S-19.3); with a rival launcher in reach it answers that launcher first."""
    st = new(2)
    p = _p1(st)
    rival = next(q for q in st["seats"] if q != p)
    add(st, p, "launcher", "G5", modules=1)
    at(st, 9, p)
    assert defence.duel(st) and not defence.raiding(st)
    action = _phase_move(st, p)
    assert action["type"] == "fire" and action["launcher"] == "G5"
    ((cell, shots),) = action["targets"].items()
    target = st["buildings"][cell]
    assert target["kind"] == "mine" and target["owner"] == rival and shots == 1
    assert not defence._repairable(st, target)
    add(st, rival, "launcher", "R12", modules=1)  # about 26 cm away: in reach
    assert defence.rival_launchers(st, p)
    action = _phase_move(st, p)
    assert action["type"] == "fire" and action["targets"] == {"R12": 1}


def test_iec_s17_a_lone_bc_waits_out_high_radiation() -> None:
    st = new(2)
    p = _p1(st)
    at(st, 10, p)
    launch = {"type": "transmit", "building": "G3"}
    assert st["buildings"]["E3"]["goods"]["BC"] == 1  # the start stock (IEC-S-7)
    st["radiation"] = 10  # success 4+ (IEC-S-17)
    assert defence.transmit(st, p) is None
    st["radiation"] = 7  # success 3+
    assert defence.transmit(st, p) == launch
    st["radiation"] = 10
    st["buildings"]["E3"]["goods"]["BC"] = 2  # a second BC: launch anyway
    assert defence.transmit(st, p) == launch
    st["buildings"]["E3"]["goods"]["BC"] = 1
    st["turn"] = rules.param(st, "turns")  # the last turn: nothing left to wait for
    assert defence.transmit(st, p) == launch


def test_iec_four_companies_a_whole_game_with_a_raiding_launcher() -> None:
    """The strong policy against three economic bots: every move legal (`apply` validates),
    a launcher built and fired, no laboratory, and the game ends normally."""
    st = GAME.setup(["a", "b", "c", "d"], {}, 24_001)
    rng = Rng({"s": 5})
    built: set[str] = set()
    fired = 0
    while not GAME.is_over(st):
        p = GAME.current_players(st)[0]
        bot = defence.guarded_bot if p == "a" else GAME.bots["economic"]
        action = bot(st, p, rng)
        if p == "a" and action["type"] == "build" and action["cell"] not in st["buildings"]:
            built.add(action["kind"])
        fired += p == "a" and action["type"] == "fire"
        st, _events = GAME.apply(st, p, action)
    assert "launcher" in built and "laboratory" not in built
    assert fired >= 1
    assert rules.result(st) and st["turn"] == rules.param(st, "turns")


def test_iec_s17_a_transmitter_the_rush_removed_is_built_again() -> None:
    """IEC-S-20: every module of the transmitter lost, so no BC can score (IEC-S-17): the
    mixers make AB first, the developer prepares a site linked to the storage holding the
    BC (IEC-S-18.1) and builds a new transmitter's first module there (IEC-S-18.2 a)."""
    st = new(2)
    p = _p1(st)
    del st["buildings"]["G3"]  # the rush's last hit (IEC-S-20: removed)
    st["buildings"]["E3"]["goods"].update(AB=0, BC=1)
    assert defence.mix_wants(st, p)[0] == "AB"
    at(st, 6, p)
    prepare = _phase_move(st, p)
    assert prepare["type"] == "prepare" and prepare["developer"] == "E5"
    site = prepare["cell"]
    assert rules.scen(st).within(site, "E3", 6)  # linked to the storage holding the BC
    st["sites"][site] = p
    st["buildings"]["E3"]["goods"]["AB"] = 2
    at(st, 7, p)
    build = {"type": "build", "developer": "E5", "cell": site, "kind": "transmitter"}
    assert _phase_move(st, p) == build
    st["buildings"]["E3"]["goods"].update(AB=2, BC=1)
    add(st, p, "transmitter", "G3", modules=2)  # standing again: no more of this
    assert defence.mix_wants(st, p)[0] == "BC"


def test_iec_s19_no_counter_launcher_in_a_duel_but_one_among_three() -> None:
    """A rival launcher reaches the player's buildings (IEC-16.1) and an own site beside the
    storage E3 is ready with 2 AB (IEC-S-18.2 a). Two companies: no launcher on it (the
    rush's few shots cost less than a counter launcher's AB and AC, measured); three: the
    launcher, as before."""
    for players, launcher in ((2, False), (3, True)):
        st = new(players)
        p = _p1(st)
        rival = next(q for q in st["seats"] if q != p)
        add(st, rival, "launcher", "K8", modules=1)
        assert defence.rival_launchers(st, p)
        st["sites"]["G5"] = p
        st["buildings"]["E3"]["goods"]["AB"] = 2
        at(st, 7, p)
        move = _phase_move(st, p)
        assert (move.get("kind") == "launcher") == launcher


def test_iec_s17_in_a_duel_a_second_transmitter_takes_the_rush_missiles() -> None:
    """Two companies: on turn 1 the start stock's 2 AB (IEC-S-7) wait (no growth build),
    since the rival's launcher, if any, shows only afterwards. Once a rival launcher stands
    (public, IEC-S-26), the developer prepares a site linked to the storage holding the BC
    (IEC-S-18.1, IEC-S-10.5) and builds a second transmitter's first module there (IEC-S-18.2
    a; one module operates, IEC-S-20): the rush fires at the transmitter with the fewest
    modules (rush.py), so that one takes the missiles while the first keeps launching.
    Without a rival launcher, no second transmitter; four companies: the raid launcher."""
    st = new(2)
    p = _p1(st)
    rival = next(q for q in st["seats"] if q != p)
    st["sites"]["G5"] = p
    at(st, 7, p)
    assert _phase_move(st, p) == {"type": "done"}  # turn 1: the AB waits
    del st["sites"]["G5"]
    st["turn"] = 2
    assert not defence._wants_transmitter(st, p)  # no rival launcher: no second one
    add(st, rival, "launcher", "R12", modules=1)
    assert defence._wants_transmitter(st, p)
    at(st, 6, p)
    prepare = _phase_move(st, p)
    assert prepare["type"] == "prepare" and prepare["developer"] == "E5"
    site = prepare["cell"]
    assert rules.scen(st).within(site, "E3", 6)
    st["sites"][site] = p
    at(st, 7, p)
    build = {"type": "build", "developer": "E5", "cell": site, "kind": "transmitter"}
    assert _phase_move(st, p) == build
    add(st, p, "transmitter", site, modules=1)
    del st["sites"][site]
    assert not defence._wants_transmitter(st, p)  # two: enough
    st["turn"] = rules.param(st, "turns") - defence.SECOND_TRANSMITTER_TURNS + 1
    del st["buildings"][site]  # removed by the rush, too late to pay for a new one
    assert not defence._wants_transmitter(st, p)
    four = new(4)
    q = _p1(four)
    assert not defence._wants_transmitter(four, q)
    at(four, 6, q)
    move = _phase_move(four, q)
    assert move["type"] == "prepare"
    at(four, 7, q)
    four["sites"][move["cell"]] = q
    assert _phase_move(four, q).get("kind") == "launcher"

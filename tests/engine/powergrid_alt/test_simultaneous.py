"""Rules version 2 (issue 17): Phase 3 purchases and Phase 5 power declared by everybody at
once, secret until carried out in the rules' order (ALT-10 + PG-15/PG-31/PG-32; ALT-30)."""

from __future__ import annotations

import copy
import json

import pytest

from bot.i18n import translator
from engine.core import EnglishTranslator, canonical_json, worded
from engine.powergrid_alt import GAME, purchase
from tests.engine.powergrid_alt.helpers import (
    act,
    give_plant,
    give_tp,
    illegal,
    money,
    new_game,
    set_phase,
)

V2 = {"rules_version": "2"}


def _purchase(version: str) -> dict:
    """Phase 3 of a 3-player game: a, b and c each own a coal plant; c buys first (last in
    player order, PG-15)."""
    state = new_game(3, rules_version=version)
    set_phase(state, "resources", order=["a", "b", "c"])
    give_plant(state, "a", 4, "Kiel")
    give_plant(state, "b", 10, "Hamburg")
    give_plant(state, "c", 8, "Berlin")
    return state


def test_option_default_is_version_2_and_missing_value_replays_as_version_1() -> None:
    assert {o.key: o.default for o in GAME.options}["rules_version"] == "2"
    assert new_game(3)["rules_version"] == 1  # a game stored before the option existed
    assert new_game(3, rules_version="2")["rules_version"] == 2


def test_alt10_pg15_version2_everybody_buys_at_once_in_reverse_order_listed() -> None:
    state = _purchase("2")
    assert GAME.current_players(state) == ["c", "b", "a"]
    act(state, "a", {"type": "buy", "resource": "coal", "count": 2, "plant": 4})
    assert GAME.current_players(state) == ["c", "b", "a"]  # a may still buy more
    act(state, "a", {"type": "done"})
    assert GAME.current_players(state) == ["c", "b"]


def test_pg31_pg32_version2_declarations_cost_what_the_sequential_rules_charge() -> None:
    """The same purchases cost the same as in turn: resolved in reverse player order (PG-31),
    each at the prices the earlier buyers left (PG-32), whatever order they were sent in."""
    buys = {
        "a": {"type": "buy", "resource": "coal", "count": 3, "plant": 4},
        "b": {"type": "buy", "resource": "coal", "count": 4, "plant": 10},
        "c": {"type": "buy", "resource": "coal", "count": 3, "plant": 8},
    }
    seq = _purchase("1")
    for name in ("c", "b", "a"):  # in turn: reverse player order
        act(seq, name, buys[name])
        act(seq, name, {"type": "done"})
    sim = _purchase("2")
    for name in ("a", "b", "c"):  # declared in any order
        act(sim, name, buys[name])
        act(sim, name, {"type": "done"})
    for name in ("a", "b", "c"):
        assert sim["players"][name]["money"] == seq["players"][name]["money"]
    assert sim["rm"] == seq["rm"]
    assert sim["built"] == seq["built"]
    assert sim["phase"] == seq["phase"] == "build"
    assert "declared_buys" not in sim


def test_pg32_alt12_version2_a_declaration_the_market_or_money_no_longer_covers_is_cut() -> None:
    state = _purchase("2")
    money(state, "a", 100)
    # c (first to resolve) declares the whole market but one token; a then gets only that one.
    act(state, "c", {"type": "buy", "resource": "coal", "count": 4, "plant": 8})
    state["rm"]["coal"] = 5
    act(state, "a", {"type": "buy", "resource": "coal", "count": 3, "plant": 4})
    for name in ("a", "b", "c"):
        act(state, name, {"type": "done"})
    assert state["built"]["8"]["res"]["coal"] == 4
    assert state["built"]["4"]["res"]["coal"] == 1
    line = [e for e in state["log"] if e["type"] == "resources_bought" and e["player"] == "a"]
    assert line[-1]["count"] == 1 and line[-1]["wanted"] == 3


def test_alt10_version2_checks_own_earlier_declarations() -> None:
    state = _purchase("2")
    act(state, "a", {"type": "buy", "resource": "coal", "count": 3, "plant": 4})  # plant 4 holds 4
    illegal(state, "a", {"type": "buy", "resource": "coal", "count": 2, "plant": 4}, "ALT-10")
    act(state, "a", {"type": "buy", "resource": "coal", "count": 1, "plant": 4})
    assert purchase.declared(state, "a") == [
        {"resource": "coal", "count": 3, "plant": 4},
        {"resource": "coal", "count": 1, "plant": 4},
    ]


def test_alt10_version2_a_refusal_only_his_declarations_cause_is_told_him_alone() -> None:
    """A refusal the table could judge (no room on plant 4 even before any declaration) reads
    alike whatever he declared and is public; one that only his secret declarations cause is
    `secret`, so the group never learns what he declared (found by `make fuzz`, 2026-12-04)."""
    state = _purchase("2")
    five = {"type": "buy", "resource": "coal", "count": 5, "plant": 4}  # plant 4 holds 4
    public = illegal(state, "a", five, "ALT-10")
    assert not public.secret
    act(state, "a", {"type": "buy", "resource": "coal", "count": 3, "plant": 4})
    again = illegal(state, "a", five, "ALT-10")
    assert (again.english(), again.secret) == (public.english(), False)
    two = illegal(state, "a", {"type": "buy", "resource": "coal", "count": 2, "plant": 4}, "ALT-10")
    assert two.secret and "only 1 more" in two.english()


def test_version2_a_declared_purchase_is_secret_until_carried_out() -> None:
    """Noninterference: what b and c see does not depend on a's declaration."""
    one, two = _purchase("2"), _purchase("2")
    act(one, "a", {"type": "buy", "resource": "coal", "count": 2, "plant": 4})
    act(two, "a", {"type": "buy", "resource": "coal", "count": 4, "plant": 4})
    for viewer in ("b", "c", None):
        assert canonical_json(GAME.view(one, viewer)) == canonical_json(GAME.view(two, viewer))
    for viewer in ("b", "c"):
        assert GAME.describe_turn(one, viewer, _EN) == GAME.describe_turn(two, viewer, _EN)
        assert GAME.legal_actions(one, viewer) == GAME.legal_actions(two, viewer)
    assert GAME.current_players(one) == GAME.current_players(two)
    # The owner sees his own.
    assert GAME.view(one, "a")["my_declared_buys"] == [{"resource": "coal", "count": 2, "plant": 4}]
    _, events = GAME.apply(copy.deepcopy(one), "a", {"type": "done"})
    assert [e["type"] for e in events] == ["purchase_declared"]


def test_version2_the_declaration_event_is_private_to_its_owner() -> None:
    state = _purchase("2")
    events = act(state, "a", {"type": "buy", "resource": "coal", "count": 2, "plant": 4})
    (declared,) = events
    assert declared["type"] == "buy_declared" and declared["private"] is True
    assert GAME.describe_event(state, declared, _EN) is None
    line = GAME.describe_private_event(state, declared, _EN)
    assert line is not None and "plant 4" in line


def _power(version: str) -> dict:
    state = new_game(3, rules_version=version)
    set_phase(state, "bureaucracy", order=["a", "b", "c"])
    give_plant(state, "a", 4, "Kiel", coal=2)
    give_tp(state, "a", "Hamburg")
    give_plant(state, "b", 10, "Berlin", coal=2)
    give_plant(state, "c", 8, "Bremen")
    return state


def test_alt30_version2_power_declared_at_once_resolves_as_in_player_order() -> None:
    seq, sim = _power("1"), _power("2")
    choice = {"a": [4], "b": [10], "c": []}
    for name in ("a", "b", "c"):
        act(seq, name, {"type": "power", "plants": choice[name]})
    assert GAME.current_players(sim) == ["a", "b", "c"]
    for name in ("c", "a", "b"):
        events = act(sim, name, {"type": "power", "plants": choice[name]})
        if name != "b":
            assert [e["type"] for e in events] == ["power_declared", "power_planned"]
            planned = events[1]
            assert planned["private"] and planned["plants"] == choice[name]
            # the group reads that he chose; he alone reads what (found play-testing through
            # Telegram, 2026-12-05: "Done" alone, nothing of what he declared)
            assert GAME.describe_event(sim, planned, _EN) is None
            assert GAME.describe_private_event(sim, planned, _EN) == (
                "You plan to run plant 4 (carried out when everybody is done)."
                if name == "a"
                else "You plan to run no plant (carried out when everybody is done)."
            )
    assert {n: p["money"] for n, p in sim["players"].items()} == {
        n: p["money"] for n, p in seq["players"].items()
    }
    assert sim["round"] == seq["round"] and sim["phase"] == seq["phase"]
    assert "power_declared" not in sim


def test_alt31_version2_power_declaration_is_checked_when_made_and_hidden() -> None:
    state = _power("2")
    illegal(state, "c", {"type": "power", "plants": [8]}, "ALT-D-14")
    one, two = _power("2"), _power("2")
    act(one, "a", {"type": "power", "plants": [4]})
    act(two, "a", {"type": "power", "plants": []})
    for viewer in ("b", "c", None):
        assert canonical_json(GAME.view(one, viewer)) == canonical_json(GAME.view(two, viewer))


@pytest.mark.parametrize("version", ["1", "2"])
def test_replay_law_with_simultaneous_phases(version: str) -> None:
    from engine.core import Rng
    from engine.core.rng import new_rng_state

    options = {"rules_version": version}
    state = GAME.setup(["a", "b", "c"], options, 5)
    rng = Rng(new_rng_state(5))
    log = []
    for _ in range(400):
        if GAME.is_over(state):
            break
        acting = GAME.current_players(state)
        player = acting[rng.below(len(acting))]
        action = GAME.forced_action(state, player) or GAME.bots["heuristic"](state, player, rng)
        GAME.apply(state, player, action)
        log.append((player, json.loads(json.dumps(action))))
    again = GAME.setup(["a", "b", "c"], options, 5)
    for player, action in log:
        GAME.apply(again, player, action)
    assert canonical_json(again) == canonical_json(state)


_EN = EnglishTranslator()


@pytest.mark.parametrize("version", ["1", "2"])
def test_alt32_default_power_for_a_player_out_of_time_powers_the_most_cities(
    version: str,
) -> None:
    state = _power(version)
    assert GAME.default_action(state, "a") == {"type": "power", "plants": [4]}


def test_alt30_version2_a_second_declaration_is_told_his_choice_is_in() -> None:
    """A player who has declared his power (ALT-30, version 2) and sends /power again reads
    that his choice is in, whom the table waits for and that /undo takes it back, not only
    "Not your turn" (found playing, 2026-12-04). The words are the same whatever he declared
    (they may be read in the group); version 1 and other commands keep the table's words."""
    t = translator("en")
    one, two = _power("2"), _power("2")
    act(one, "a", {"type": "power", "plants": [4]})
    act(two, "a", {"type": "power", "plants": []})
    why = GAME.off_turn_reason(one, "a", "power", t)
    assert why is not None and why.rule_id == "ALT-30"
    text = worded(t, why.message_key, why.params)
    assert text == (
        "You have made your choice for bureaucracy (phase 5); waiting for b, c. /undo takes it "
        "back if nobody has moved since."
    )
    other = GAME.off_turn_reason(two, "a", "power", t)
    assert other is not None and worded(t, other.message_key, other.params) == text
    assert GAME.off_turn_reason(one, "a", "build", t) is None
    assert GAME.off_turn_reason(one, "b", "power", t) is None  # still deciding
    seq = _power("1")
    act(seq, "a", {"type": "power", "plants": [4]})
    assert GAME.off_turn_reason(seq, "a", "power", t) is None


def test_alt10_version2_a_buy_after_done_is_told_his_choice_is_in() -> None:
    state = _purchase("2")
    act(state, "c", {"type": "done"})
    why = GAME.off_turn_reason(state, "c", "buy", EnglishTranslator())
    assert why is not None and why.rule_id == "ALT-10"
    assert why.english().startswith("You have made your choice for buying resources (phase 3)")


def test_alt10_alt30_version2_declarations_are_secret_commands_done_is_not() -> None:
    """Typed in a group, a declaration is refused alike for everyone (bot/moves.py); /done
    is public. Version 1's moves are public."""
    buy, power = _purchase("2"), _power("2")
    assert GAME.secret_command(buy, "a", "buy", ["coal", "2"])
    assert not GAME.secret_command(buy, "a", "done", [])
    assert GAME.secret_command(power, "a", "power", ["4"])
    assert not GAME.secret_command(_purchase("1"), "c", "buy", ["coal", "2"])
    assert not GAME.secret_command(_power("1"), "a", "power", ["4"])

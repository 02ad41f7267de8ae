"""ALT-11..ALT-29: building plants, pollution, upgrades, transport, lines and TPs."""

from __future__ import annotations

from typing import Any

from engine.core import EnglishTranslator
from engine.powergrid_alt import GAME
from engine.powergrid_alt import rules as r

from .helpers import (
    act,
    build_turn,
    give_hand,
    give_line,
    give_plant,
    give_tp,
    illegal,
    money,
    new_game,
    set_phase,
)


def _game(step: int = 1) -> dict[str, Any]:
    state = new_game(4)
    return build_turn(state, "a", ["b", "c", "d"], step=step)


# ------------------------------------------------------------------ plants (ALT-13..16)


def test_alt13_building_any_plant_costs_10() -> None:
    state = _game()
    give_hand(state, "a", 44)
    act(state, "a", {"type": "build_plant", "plant": 44, "city": "Kiel"})
    assert state["players"]["a"]["money"] == 65
    assert state["built"]["44"]["city"] == "Kiel" and "Kiel" in state["players"]["a"]["cities"]
    assert r.hand(state, "a") == []


def test_alt14_no_network_needed_but_one_plant_per_city() -> None:
    state = _game()
    give_hand(state, "a", 13, 18)
    give_plant(state, "b", 22, "Berlin")
    act(state, "a", {"type": "build_plant", "plant": 13, "city": "München"})
    illegal(state, "a", {"type": "build_plant", "plant": 18, "city": "Berlin"}, "ALT-14")


def test_alt14_not_in_own_tp_city() -> None:
    state = _game()
    give_hand(state, "a", 13)
    give_tp(state, "a", "Kiel")
    illegal(state, "a", {"type": "build_plant", "plant": 13, "city": "Kiel"}, "ALT-14")


def test_alt14_alt41_no_displacement_in_step_1() -> None:
    state = _game(step=1)
    give_hand(state, "a", 13)
    give_tp(state, "b", "Kiel")
    illegal(state, "a", {"type": "build_plant", "plant": 13, "city": "Kiel"}, "ALT-41")


def test_alt12_cannot_spend_more_than_owned() -> None:
    state = _game()
    give_hand(state, "a", 13)
    money(state, "a", 9)
    illegal(state, "a", {"type": "build_plant", "plant": 13, "city": "Kiel"}, "ALT-13")


def test_alt14_hand_plant_required() -> None:
    state = _game()
    illegal(state, "a", {"type": "build_plant", "plant": 13, "city": "Kiel"}, "ALT-8")


def test_alt15_ex_alt7_displacement_returns_tps_and_lines_hang() -> None:
    state = _game(step=2)
    give_plant(state, "b", 4, "Freiburg")
    line = give_line(state, "b", "Freiburg", "Stuttgart")
    give_tp(state, "b", "Stuttgart")
    give_tp(state, "c", "Stuttgart")
    give_hand(state, "a", 13)
    events = act(state, "a", {"type": "build_plant", "plant": 13, "city": "Stuttgart"})
    assert "Stuttgart" not in state["tps"]
    assert "Stuttgart" not in state["players"]["b"]["cities"]
    assert "Stuttgart" not in state["players"]["c"]["cities"]
    assert r.is_hanging_at(state, line, "Stuttgart")
    assert state["displacer"]["Stuttgart"] == "a"
    assert events[0]["displaced"] == ["b", "c"]


def test_alt15_lines_passing_through_are_unaffected() -> None:
    state = _game(step=2)
    give_plant(state, "b", 4, "Freiburg")
    give_tp(state, "b", "Würzburg")
    line = give_line(state, "b", "Freiburg", "Stuttgart", "Würzburg")
    give_tp(state, "c", "Stuttgart")
    give_hand(state, "a", 13)
    act(state, "a", {"type": "build_plant", "plant": 13, "city": "Stuttgart"})
    assert not r.is_hanging(state, line)


def test_alt16_own_line_through_the_city_splits() -> None:
    state = _game()
    give_plant(state, "a", 4, "Freiburg")
    give_tp(state, "a", "Würzburg")
    give_line(state, "a", "Freiburg", "Stuttgart", "Würzburg")
    give_hand(state, "a", 13)
    act(state, "a", {"type": "build_plant", "plant": 13, "city": "Stuttgart"})
    routes = sorted(ln["nodes"] for ln in state["lines"])
    assert routes == [["Freiburg", "Stuttgart"], ["Stuttgart", "Würzburg"]]


# ------------------------------------------------------------------ pollution (ALT-17..19)


def test_alt18_ex_alt4_pollution_limit_five_per_region() -> None:
    state = _game()
    give_plant(state, "b", 32, "Kiel")  # NW, 3 oil -> pollution 3
    give_hand(state, "a", 4, 8, 13)
    illegal(state, "a", {"type": "build_plant", "plant": 8, "city": "Hamburg"}, "ALT-18")
    act(state, "a", {"type": "build_plant", "plant": 4, "city": "Hamburg"})
    assert r.pollution(state, "NW") == 5
    # eco plants are clean: always pollution-legal
    act(state, "a", {"type": "build_plant", "plant": 13, "city": "Bremen"})
    assert r.pollution(state, "NW") == 5


def test_alt18_hand_plants_do_not_pollute() -> None:
    state = _game()
    give_hand(state, "b", 31, 36)
    assert r.pollution(state, "NW") == 0


def test_alt19_ex_alt4_one_nuclear_plant_per_region() -> None:
    state = _game()
    give_plant(state, "b", 32, "Kiel")
    give_hand(state, "a", 11, 17)
    act(state, "a", {"type": "build_plant", "plant": 11, "city": "Hamburg"})
    illegal(state, "a", {"type": "build_plant", "plant": 17, "city": "Bremen"}, "ALT-19")
    act(state, "a", {"type": "build_plant", "plant": 17, "city": "München"})  # other region


def test_alt_d6_fusion_is_not_nuclear() -> None:
    state = _game()
    give_plant(state, "b", 11, "Kiel")
    give_hand(state, "a", 50)
    act(state, "a", {"type": "build_plant", "plant": 50, "city": "Hamburg"})


# ------------------------------------------------------------------ upgrade (ALT-20)


def test_alt20_ex_alt9_upgrade_same_type_keeps_tokens_and_city_for_free() -> None:
    state = _game()
    give_plant(state, "a", 10, "Kiel", coal=2)
    give_hand(state, "a", 25, 12, 50)
    illegal(state, "a", {"type": "upgrade", "old": 10, "new": 12}, "ALT-20")  # ALT-D-7
    act(state, "a", {"type": "upgrade", "old": 10, "new": 25})
    assert state["players"]["a"]["money"] == 75
    assert state["built"]["25"] == {
        "owner": "a",
        "city": "Kiel",
        "res": {"coal": 2, "oil": 0, "garbage": 0, "uranium": 0},
    }
    assert "10" not in state["built"] and 10 not in state["players"]["a"]["plants"]


def test_alt20_ex_alt9_fusion_replaces_any_type_tokens_return_and_pollution_drops() -> None:
    state = _game()
    give_plant(state, "a", 10, "Kiel", coal=2)
    give_hand(state, "a", 50)
    supply = state["supply"]["coal"]
    assert r.pollution(state, "NW") == 2
    act(state, "a", {"type": "upgrade", "old": 10, "new": 50})
    assert state["supply"]["coal"] == supply + 2
    assert r.pollution(state, "NW") == 0
    assert r.conserved(state)


def test_alt20_upgrade_moves_tokens_onto_other_plants_free_only_the_rest_returns() -> None:
    state = _game()
    give_plant(state, "a", 10, "Kiel", coal=4)
    give_plant(state, "a", 8, "Hamburg", coal=5)  # room for 1 more coal
    give_plant(state, "a", 12, "Lübeck", oil=3)  # hybrid: room for 1 coal or oil
    give_plant(state, "a", 29, "Flensburg")  # hybrid, room 2
    give_hand(state, "a", 50)
    supply = state["supply"]["coal"]
    events = act(state, "a", {"type": "upgrade", "old": 10, "new": 50})
    # fusion stores nothing: 1 onto 8, 1 onto 12, 2 onto 29 (lowest number first), free
    assert state["players"]["a"]["money"] == 75
    assert state["built"]["8"]["res"]["coal"] == 6
    assert state["built"]["12"]["res"] == {"coal": 1, "oil": 3, "garbage": 0, "uranium": 0}
    assert state["built"]["29"]["res"]["coal"] == 2
    assert state["supply"]["coal"] == supply and r.conserved(state)
    upgraded = next(e for e in events if e["type"] == "plant_upgraded")
    assert upgraded["moved"] == {"8": {"coal": 1}, "12": {"coal": 1}, "29": {"coal": 2}}
    assert upgraded["returned"] == {}
    line = GAME.describe_event(state, upgraded, EnglishTranslator())
    assert line == (
        "a replaces plant 10 by 50 in Kiel. 1 coal onto plant 8. 1 coal onto plant 12. "
        "2 coal onto plant 29."
    )


def test_alt20_tokens_that_fit_nowhere_return_and_the_line_names_them() -> None:
    state = _game()
    give_plant(state, "a", 10, "Kiel", coal=4)
    give_plant(state, "a", 4, "Hamburg", coal=3)  # room 1
    give_hand(state, "a", 50)
    supply = state["supply"]["coal"]
    events = act(state, "a", {"type": "upgrade", "old": 10, "new": 50})
    upgraded = next(e for e in events if e["type"] == "plant_upgraded")
    assert upgraded["moved"] == {"4": {"coal": 1}} and upgraded["returned"] == {"coal": 3}
    assert state["supply"]["coal"] == supply + 3 and r.conserved(state)
    text = GAME.describe_event(state, upgraded, EnglishTranslator())
    assert text is not None and text.endswith("1 coal onto plant 4. 3 coal back to the supply.")
    # where a language names the resource first, no sentence starts in lower case (found
    # play-testing through Telegram, 2026-12-05: "… Wiesbaden. уголь × 2 — на станцию 10.")
    from bot.i18n import translator

    for lang in ("ru", "pl"):  # Chinese has no letter case
        line = GAME.describe_event(state, upgraded, translator(lang))
        assert line is not None
        starts = [part[:1] for part in line.split(". ")[1:]]
        assert starts and all(not c.islower() for c in starts), (lang, line)


def test_alt20_the_player_names_where_the_tokens_go() -> None:
    state = _game()
    give_plant(state, "a", 10, "Kiel", coal=4)
    give_plant(state, "a", 4, "Hamburg")
    give_plant(state, "a", 8, "Lübeck")
    give_hand(state, "a", 25, 50)
    action = GAME.parse(state, "a", "upgrade", ["10", "50", "8"])
    assert action == {"type": "upgrade", "old": 10, "new": 50, "into": [8]}
    illegal(state, "a", {"type": "upgrade", "old": 10, "new": 50, "into": [10]}, "ALT-20")
    illegal(state, "a", {"type": "upgrade", "old": 10, "new": 50, "into": [8, 8]}, "ALT-20")
    act(state, "a", action)
    assert state["built"]["8"]["res"]["coal"] == 4 and state["built"]["4"]["res"]["coal"] == 0
    # the new plant itself is filled first
    give_plant(state, "a", 5, "Flensburg", coal=2)
    give_hand(state, "a", 29)
    events = act(state, "a", {"type": "upgrade", "old": 5, "new": 29, "into": [8]})
    upgraded = next(e for e in events if e["type"] == "plant_upgraded")
    assert upgraded["moved"] == {"29": {"coal": 2}}


def test_alt_d7_lower_number_of_same_type_is_allowed() -> None:
    state = _game()
    give_plant(state, "a", 25, "Kiel")
    give_hand(state, "a", 4)
    act(state, "a", {"type": "upgrade", "old": 25, "new": 4})


def test_alt20_upgrade_must_respect_pollution() -> None:
    state = _game()
    give_plant(state, "a", 4, "Kiel")
    give_plant(state, "b", 15, "Hamburg")  # 2 + 2 = 4
    give_hand(state, "a", 8)  # coal 3 -> 5: fine
    give_hand(state, "b", 31)  # coal 3 -> 2 + 3 + ... checked below
    act(state, "a", {"type": "upgrade", "old": 4, "new": 8})
    assert r.pollution(state, "NW") == 5
    state["turn"] = 0
    state["order"] = ["c", "d", "a", "b"]
    illegal(state, "b", {"type": "upgrade", "old": 15, "new": 31}, "ALT-18")


# ------------------------------------------------------------------ transport (ALT-21)


def test_alt21_ex_alt8_fee_per_started_ten_once_per_transfer() -> None:
    state = _game()
    # Freiburg-Würzburg: cheapest route 28 -> 3 E for the whole transfer (ALT-D-9)
    give_plant(state, "a", 10, "Freiburg", coal=4)
    give_plant(state, "a", 15, "Würzburg")
    act(state, "a", {"type": "move", "from": 10, "to": 15, "tokens": {"coal": 2}})
    assert state["players"]["a"]["money"] == 72
    assert state["built"]["15"]["res"]["coal"] == 2
    assert r.transport_fee(state, "Mannheim", "Würzburg") == 1  # route cost 10 -> 1 E


def test_alt21_destination_storage_and_type() -> None:
    state = _game()
    give_plant(state, "a", 10, "Freiburg", coal=4)
    give_plant(state, "a", 4, "Stuttgart", coal=3)
    give_plant(state, "a", 3, "Mannheim")
    illegal(state, "a", {"type": "move", "from": 10, "to": 4, "tokens": {"coal": 2}}, "PG-33")
    illegal(state, "a", {"type": "move", "from": 10, "to": 3, "tokens": {"coal": 1}}, "ALT-21")


def test_alt_d10_no_moving_outside_phase_4() -> None:
    state = _game()
    give_plant(state, "a", 10, "Freiburg", coal=4)
    give_plant(state, "a", 15, "Würzburg")
    set_phase(state, "bureaucracy", order=["a", "b", "c", "d"])
    err = illegal(
        state, "a", {"type": "move", "from": 10, "to": 15, "tokens": {"coal": 1}}, "PG-14"
    )
    assert err.english() == "You cannot do that now; the game expects /power."  # commands, PG-14


# ------------------------------------------------------------------ lines and TPs


def test_alt22_alt23_alt24_line_costs_segments_plus_tp_and_is_owned() -> None:
    state = _game()
    give_plant(state, "a", 13, "Freiburg")
    act(state, "a", {"type": "line", "cities": ["Freiburg", "Stuttgart"]})
    assert state["players"]["a"]["money"] == 75 - 16 - 5
    assert state["tps"]["Stuttgart"] == ["a"]
    assert r.owned_segments(state) == {"Freiburg|Stuttgart": "a"}


def test_alt22_an_owned_segment_is_blocked_for_everyone() -> None:
    state = _game()
    give_plant(state, "b", 13, "Freiburg")
    give_line(state, "b", "Freiburg", "Stuttgart")
    give_tp(state, "b", "Stuttgart")
    give_plant(state, "a", 18, "Konstanz")
    give_tp(state, "a", "Würzburg")
    illegal(state, "a", {"type": "line", "cities": ["Konstanz", "Freiburg", "Stuttgart"]}, "ALT-22")


def test_alt_d27_line_cannot_start_at_a_foreign_plant() -> None:
    state = _game()
    give_plant(state, "b", 13, "Freiburg")
    illegal(state, "a", {"type": "line", "cities": ["Freiburg", "Stuttgart"]}, "ALT-22")


def test_alt24_ex_alt10_tp_limits() -> None:
    state = _game()
    give_plant(state, "a", 13, "Freiburg")
    give_tp(state, "b", "Stuttgart")
    give_tp(state, "c", "Stuttgart")
    act(state, "a", {"type": "line", "cities": ["Freiburg", "Stuttgart"]})  # the third TP
    assert state["tps"]["Stuttgart"] == ["b", "c", "a"]
    give_plant(state, "a", 18, "Mannheim")
    give_tp(state, "b", "Würzburg")
    give_tp(state, "c", "Würzburg")
    give_tp(state, "d", "Würzburg")
    illegal(state, "a", {"type": "line", "cities": ["Mannheim", "Würzburg"]}, "ALT-24")
    give_plant(state, "b", 22, "Saarbrücken")
    illegal(state, "a", {"type": "line", "cities": ["Mannheim", "Saarbrücken"]}, "ALT-24")


def test_alt27_no_second_tp_in_a_city() -> None:
    state = _game()
    give_plant(state, "a", 13, "Freiburg")
    give_tp(state, "a", "Konstanz")
    give_tp(state, "a", "Würzburg")
    give_line(state, "a", "Konstanz", "Stuttgart", "Würzburg")
    # his own TP there: ALT-27 (was refused as ALT-D-11, "a TP must end a line")
    illegal(
        state, "a", {"type": "tp", "city": "Konstanz"}, "ALT-27"
    )  # his own TP there: ALT-27, not "needs a line"


def test_alt_d11_tp_needs_a_line() -> None:
    state = _game()
    give_plant(state, "a", 13, "Freiburg")
    illegal(state, "a", {"type": "tp", "city": "Stuttgart"}, "ALT-D-11")


def test_alt25_tp_in_a_passed_through_city_splits_the_line() -> None:
    state = _game()
    give_plant(state, "a", 13, "Freiburg")
    give_tp(state, "a", "Würzburg")
    give_line(state, "a", "Freiburg", "Stuttgart", "Würzburg")
    act(state, "a", {"type": "tp", "city": "Stuttgart"})
    assert state["players"]["a"]["money"] == 70
    assert sorted(ln["nodes"] for ln in state["lines"]) == [
        ["Freiburg", "Stuttgart"],
        ["Stuttgart", "Würzburg"],
    ]


def test_alt26_pass_through_cities_with_foreign_plants_or_tps() -> None:
    state = _game()
    give_plant(state, "a", 13, "Freiburg")
    give_plant(state, "b", 18, "Stuttgart")
    act(state, "a", {"type": "line", "cities": ["Freiburg", "Stuttgart", "Würzburg"]})
    assert state["players"]["a"]["money"] == 75 - 28 - 5
    assert state["lines"][-1]["nodes"] == ["Freiburg", "Stuttgart", "Würzburg"]


def test_alt_d12_no_passing_through_own_city() -> None:
    state = _game()
    give_plant(state, "a", 13, "Freiburg")
    give_tp(state, "a", "Stuttgart")
    illegal(
        state, "a", {"type": "line", "cities": ["Freiburg", "Stuttgart", "Würzburg"]}, "ALT-D-12"
    )


def test_alt22_neighbours_only() -> None:
    state = _game()
    give_plant(state, "a", 13, "Freiburg")
    illegal(state, "a", {"type": "line", "cities": ["Freiburg", "Würzburg"]}, "ALT-22")


def test_alt28_hanging_line_extended_becomes_one_line() -> None:
    state = _game(step=2)
    give_plant(state, "a", 13, "Freiburg")
    line = give_line(state, "a", "Freiburg", "Stuttgart")
    give_plant(state, "b", 18, "Stuttgart")  # a's TP there was displaced earlier
    state["displacer"]["Stuttgart"] = "b"
    assert r.is_hanging(state, line)
    act(state, "a", {"type": "line", "cities": ["Stuttgart", "Würzburg"]})
    assert line["nodes"] == ["Freiburg", "Stuttgart", "Würzburg"]
    assert not r.is_hanging(state, line)
    assert len(state["lines"]) == 1


def test_alt_d13a_hanging_lines_do_not_join_without_new_segments() -> None:
    state = _game(step=2)
    give_plant(state, "a", 13, "Freiburg")
    give_plant(state, "a", 22, "Würzburg")
    give_line(state, "a", "Freiburg", "Stuttgart")
    give_line(state, "a", "Würzburg", "Stuttgart")
    give_plant(state, "b", 18, "Stuttgart")
    assert len(r.networks(state, "a")) == 2
    # a cannot place a TP in Stuttgart to join them: a plant is there (ALT-24, said first)
    illegal(state, "a", {"type": "tp", "city": "Stuttgart"}, "ALT-24")


def test_alt29_hanging_lines_split_networks() -> None:
    state = _game(step=2)
    give_plant(state, "a", 13, "Freiburg")
    give_tp(state, "a", "Stuttgart")
    give_tp(state, "a", "Würzburg")
    give_line(state, "a", "Freiburg", "Stuttgart")
    give_line(state, "a", "Stuttgart", "Würzburg")
    assert r.networks(state, "a") == [["Freiburg", "Stuttgart", "Würzburg"]]
    give_hand(state, "b", 18)
    build_turn(state, "b", ["a", "c", "d"], step=2)
    act(state, "b", {"type": "build_plant", "plant": 18, "city": "Stuttgart"})
    assert r.networks(state, "a") == [["Freiburg"], ["Würzburg"]]

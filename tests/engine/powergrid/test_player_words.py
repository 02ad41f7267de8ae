"""Playtest findings on the words players read (2026-12): regions and resources in the
reader's language, counted nouns in their plural forms, the money a /build of several cities
has left, and /income as one sentence each language orders itself.

The tests at the end ("the catalogs' words") read messages that are new with this change:
they pass once the catalogs hold their translations."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import explain, translator
from engine.core import EnglishTranslator, IllegalAction, ParseError
from engine.powergrid import GAME, logtext
from engine.powergrid.chat_view import region_text, regions_of
from engine.powergrid.data import MAPS
from engine.powergrid.quote_text import income_text
from engine.powergrid.quotes import connection_quote
from engine.powergrid_alt import GAME as ALT
from engine.powergrid_alt.texts import board_text
from tests.engine.marking import Marking
from tests.engine.powergrid.helpers import (
    all_regions,
    give,
    illegal,
    new_game,
    set_market,
    set_phase,
)

PL, RU, ZH = translator("pl"), translator("ru"), translator("zh_Hant")
EN = EnglishTranslator()
ENGINE = Path(__file__).parents[3] / "engine"


def usa_regions(seed: int = 3) -> dict[str, Any]:
    """A 3-player game on the USA map (region ids are English colours), regions chosen."""
    return GAME.setup(["a", "b", "c"], {"map": "usa", "regions": "choose"}, seed)


def chose_purple() -> tuple[dict[str, Any], str, list[dict[str, Any]]]:
    """`usa_regions` after its first picker chose purple: (state, picker, events)."""
    state = usa_regions()
    picker = GAME.current_players(state)[0]
    _, events = GAME.apply(state, picker, {"type": "choose_region", "region": "purple"})
    return state, picker, events


def one_action(state: dict[str, Any], player: str, name: str, words: list[str]) -> dict[str, Any]:
    """The single action the Polish words `/name words` read as."""
    action = GAME.parse(state, player, name, words, PL)
    assert isinstance(action, dict)
    return action


def nesting(text: str) -> int:
    """The deepest bracket nesting in `text` (ASCII and full-width)."""
    depth = deepest = 0
    for ch in text:
        if ch in "(（":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in ")）":
            depth -= 1
    return deepest


# ------------------------------------------------------------------------ PG-8: regions


def test_pg8_region_ids_are_one_map_each() -> None:
    """Event lines name a region from its id alone (events carry no map): no two maps may
    share an id."""
    ids = [r["id"] for m in MAPS for r in regions_of({"map": m})]
    assert len(ids) == len(set(ids))


def test_pg8_chosen_regions_in_the_turn_are_the_readers_words() -> None:
    """Found playing in Polish: "Wybrane: purple, red" (the ids, English colours)."""
    state, _, _ = chose_purple()
    text = GAME.describe_turn(state, None, PL)
    assert "Wybrane: Fioletowy (północny zachód)." in text
    assert "purple" not in text


@pytest.mark.parametrize("map_id", MAPS)
def test_pg8_region_prompt_nests_no_brackets(map_id: str) -> None:
    """Found playing: "/region <region> (NW (North-West), …)", and on the USA map in Polish
    "purple (Fioletowy (północny zachód))" inside them."""
    state = GAME.setup(["a", "b", "c"], {"map": map_id, "regions": "choose"}, 3)
    for t in (Marking(), PL, ZH):
        text = GAME.describe_turn(state, None, t)
        assert nesting(text) <= 1, text
    assert "Fioletowy (północny zachód)" in GAME.describe_turn(usa_regions(), None, PL)


def test_pg8_region_choice_lines_and_log_name_the_region_in_the_readers_words() -> None:
    state, picker, events = chose_purple()
    lines = [GAME.describe_event(state, e, PL) or "" for e in events]
    assert any("Fioletowy (północny zachód)" in line for line in lines), lines
    assert not any("purple" in line for line in lines), lines
    # the log's phrase was never used (its key was "region", the action's type is
    # "choose_region"): "b makes a move."
    logged = logtext.describe_action(
        state, picker, {"type": "choose_region", "region": "purple"}, PL
    )
    assert logged == f"{picker} wybiera region Fioletowy (północny zachód)."
    assert region_text("NW", PL) == "NW (Północny zachód)"


def test_pg8_region_refusals_name_the_region_in_the_readers_words() -> None:
    state, _, _ = chose_purple()
    nxt = GAME.current_players(state)[0]
    again = illegal(state, nxt, "PG-8", type="choose_region", region="purple")
    assert "Fioletowy (północny zachód)" in explain("pl", again)
    apart = illegal(state, nxt, "PG-8", type="choose_region", region="green")
    assert "Zielony (południowy wschód)" in explain("pl", apart)
    assert "green" not in explain("pl", apart) and "purple" not in explain("pl", apart)


def test_pg8_unknown_region_lists_the_regions_as_the_prompt_does() -> None:
    """The list is the reader's words (it was the ids: "purple, cyan, …" in Polish), each
    of which /region reads back, as it still reads the id."""
    state = usa_regions()
    picker = GAME.current_players(state)[0]
    with pytest.raises(ParseError) as err:
        GAME.parse(state, picker, "region", ["atlantis"], PL)
    listed = err.value.params["candidates"]
    assert "Fioletowy (północny zachód)" in listed and "purple" not in listed
    for name in listed.split(", "):
        assert one_action(state, picker, "region", name.split())["type"] == "choose_region"
    assert one_action(state, picker, "region", ["purple"])["region"] == "purple"
    assert one_action(state, picker, "region", ["fioletowy"])["region"] == "purple"


def test_alt4_pollution_on_the_board_names_regions_in_the_readers_words() -> None:
    """The variant's /board listed each region's pollution under its id ("purple 0/5")."""
    state = ALT.setup(["a", "b", "c"], {"map": "usa"}, 5)
    line = board_text(state, PL).splitlines()[-1]
    assert "Fioletowy (północny zachód) 0/5" in line and "purple" not in line


# ------------------------------------------------------------------------ PG-3: resources


@pytest.mark.parametrize(("lang", "coal"), [("pl", "węgiel"), ("ru", "уголь"), ("zh_Hant", "燃煤")])
def test_pg3_unknown_resource_lists_the_resources_in_the_readers_words(
    lang: str, coal: str
) -> None:
    """Found playing: `/buy wood 2` answered "use coal (c), oil (o), …" in every language."""
    state = set_phase(all_regions(new_game(3, 1)), "resources", order=["a", "b", "c"])
    buyer = GAME.current_players(state)[0]
    with pytest.raises(ParseError) as err:
        GAME.parse(state, buyer, "buy", ["wood", "2"], translator(lang))
    assert coal in explain(lang, err.value) and "coal" not in explain(lang, err.value)
    refused = illegal(state, buyer, "PG-3", type="buy", resource="wood", count=1)
    assert coal in explain(lang, refused) and "coal" not in explain(lang, refused)


def test_pg3_a_resource_prefix_of_two_names_both_in_the_readers_words() -> None:
    state = new_game(3, 1)
    with pytest.raises(ParseError) as err:
        GAME.parse(state, "a", "price", ["w", "2"], PL)  # węgiel or waste (garbage)
    assert err.value.params["candidates"] == "węgiel, śmieci"


# ------------------------------------------------------------------------ plural forms


def _marked_messages() -> list[tuple[Path, str]]:
    """Every English text marked for the catalogs in the Power Grid engines (N_, NP_,
    t.gettext, t.ngettext)."""
    found: list[tuple[Path, str]] = []
    for path in [*ENGINE.glob("powergrid/**/*.py"), *ENGINE.glob("powergrid_alt/**/*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name in ("N_", "NP_", "gettext", "ngettext"):
                found += [
                    (path, arg.value)
                    for arg in node.args
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                ]
    return found


def test_no_message_writes_a_plural_as_word_s() -> None:
    """Found playing: "a city holds {slots} house(s)", which no catalog could decline."""
    bad = [(p.name, m) for p, m in _marked_messages() if re.search(r"\w\((?:s|es)\)", m)]
    assert not bad


@pytest.mark.parametrize(("step", "words"), [(1, "only one house"), (2, "two houses")])
def test_pg38_a_full_city_counts_its_houses_in_words(step: int, words: str) -> None:
    state = set_phase(all_regions(new_game(3, 1)), "build", order=["a", "b", "c"])
    state["step"] = step
    for owner in ("a", "b")[:step]:
        give(state, owner, cities=["Berlin"])
    err = illegal(state, "c", "PG-38", type="build", city="Berlin")
    assert err.english() == f"Berlin is full: in Step {step} a city holds {words}."
    quote = connection_quote(state, "c", ["Berlin"])
    assert quote["reason"] == err.english()


def test_pg26_the_turn_names_one_plant_in_the_singular() -> None:
    """Found playing: "You have 50 E, 1 city and plants 3." (n = the plants he owns)."""
    state = set_phase(all_regions(new_game(3, 1)), "resources", order=["a", "b", "c"])
    give(state, "a", plants=[3], money=50, cities=["Berlin"])
    give(state, "b", plants=[4, 7], money=40, cities=[])
    assert "You have 50 E, 1 city and plant 3." in GAME.describe_turn(state, "a", EN)
    assert "You have 40 E, 0 cities and plants 4, 7." in GAME.describe_turn(state, "b", EN)
    assert "«You have «50 E», «1 city» and plant 3.»" in GAME.describe_turn(state, "a", Marking())


def test_pg42_pg26_refusals_name_one_plant_in_the_singular() -> None:
    """A refusal has no plural forms: one plant and several are two messages (as PG-38's
    full city), for /power (PG-42) and a plant the player does not own."""
    state = set_phase(all_regions(new_game(3, 1)), "bureaucracy", order=["a", "b", "c"])
    give(state, "a", plants=[4], cities=["Berlin"], res={})
    give(state, "b", plants=[5, 7], cities=["Kiel"], res={})
    one = illegal(state, "a", "PG-42", type="power", plants=[4], cities=["Berlin"])
    assert one.english() == "You do not have the resources to run plant 4."
    two = illegal(state, "b", "PG-42", type="power", plants=[7, 5], cities=["Kiel"])
    assert two.english() == "You do not have the resources to run plants 7, 5."
    with pytest.raises(ParseError) as err:
        GAME.parse(state, "a", "power", ["7"])
    assert err.value.english() == "You do not own plant 7; your only plant is 4."
    with pytest.raises(ParseError) as err:
        GAME.parse(state, "b", "power", ["4"])
    assert err.value.english() == "You do not own plant 4. Your plants: 5, 7"


# ------------------------------------------------------------------------ PG-37: /build


def build_turn(money: int) -> dict[str, Any]:
    """c builds (reverse order, PG-35) from Flensburg: Kiel 14, then Hamburg 18, then Bremen
    21 (routes 4, 8, 11 and a first slot of 10)."""
    state = set_phase(all_regions(new_game(3, 1)), "build", order=["a", "b", "c"])
    give(state, "c", cities=["Flensburg"], money=money)
    return state


def test_pg37_build_of_several_cities_says_the_money_is_what_the_earlier_leave() -> None:
    """Found playing: "/build Kiel Hamburg Bremen" answered "Bremen costs 21 E …; you have
    8 E", though he had 40: 8 is what Kiel and Hamburg leave."""
    state = build_turn(40)
    with pytest.raises(IllegalAction) as err:
        GAME.parse(state, "c", "build", ["kiel", "hamburg", "bremen"])
    assert err.value.rule_id == "PG-37"
    assert err.value.english() == (
        "Bremen costs 21 E, but after Kiel and Hamburg you would have 8 E left."
    )
    with pytest.raises(IllegalAction) as err:
        GAME.parse(state, "c", "build", ["hamburg", "bremen"])
    assert err.value.english() == "Bremen costs 21 E, but after Hamburg you would have 18 E left."


def test_pg37_the_build_refusal_agrees_with_the_rules() -> None:
    """The figures are the rules' own: building the cities one by one stops at the same
    city with the same money."""
    state = build_turn(40)
    with pytest.raises(IllegalAction) as err:
        GAME.parse(state, "c", "build", ["kiel", "hamburg", "bremen"])
    GAME.apply(state, "c", {"type": "build", "city": "Kiel"})
    GAME.apply(state, "c", {"type": "build", "city": "Hamburg"})
    rules = illegal(state, "c", "PG-37", type="build", city="Bremen")
    assert (rules.params["cost"], rules.params["money"]) == (
        err.value.params["cost"],
        err.value.params["money"],
    )


def test_pg37_build_refusal_is_the_rules_own_for_a_first_city_or_another_reason() -> None:
    state = build_turn(10)  # Kiel alone is too dear: the rules say what it costs
    assert GAME.parse(state, "c", "build", ["kiel", "hamburg"]) == [
        {"type": "build", "city": "Kiel"},
        {"type": "build", "city": "Hamburg"},
    ]
    state = build_turn(40)
    give(state, "a", cities=["Kiel"])  # full in Step 1: the rules refuse that first (PG-38)
    parsed = GAME.parse(state, "c", "build", ["kiel", "hamburg", "bremen"])
    assert isinstance(parsed, list) and len(parsed) == 3


def test_pg9_build_refusal_under_hidden_money_is_secret() -> None:
    state = build_turn(40)
    state["hidden_money"] = True
    with pytest.raises(IllegalAction) as err:
        GAME.parse(state, "c", "build", ["kiel", "hamburg", "bremen"])
    assert err.value.secret


# ------------------------------------------------------------------------ PG-42: /income


@pytest.mark.parametrize("plants", [[], [4], [4, 7]], ids=["no plant", "one plant", "two plants"])
def test_pg42_income_is_one_sentence_to_translate(plants: list[int]) -> None:
    """/income glued three translated pieces in English order ("你可以供電給 3 座城市
    使用發電廠 4, 7: 收入 …"): now one message, which each language orders."""
    quote = {"powered": len(plants), "plants": plants, "income": 22}
    text = income_text(quote, Marking())
    assert text.startswith("«") and text.endswith("»")
    # the sentence, the money in it, and the separator between two plants
    assert text.count("«") == 2 + max(len(plants) - 1, 0)
    assert "(s)" not in text


# ------------------------------------------------------------------------ the catalogs' words


def test_catalogs_pg8_region_prompt_in_polish() -> None:
    text = GAME.describe_turn(usa_regions(), None, PL)
    assert "wybierz region — /region <region>. Do wyboru: Fioletowy (północny zachód)," in text


def test_catalogs_pg3_unknown_resource_in_polish() -> None:
    with pytest.raises(ParseError) as err:
        GAME.parse(new_game(3, 1), "a", "price", ["wood", "2"], PL)
    assert explain("pl", err.value) == (
        "Nieznany surowiec „wood”; do wyboru: węgiel, ropa, śmieci albo uran."
    )


def test_catalogs_pg38_full_city_in_russian() -> None:
    state = set_phase(all_regions(new_game(3, 1)), "build", order=["a", "b", "c"])
    state["step"] = 2
    give(state, "a", cities=["Berlin"])
    give(state, "b", cities=["Berlin"])
    err = illegal(state, "c", "PG-38", type="build", city="Berlin")
    assert explain("ru", err).startswith(
        "Город Berlin заполнен: на этапе 2 в городе помещается два дома."
    )


def test_catalogs_pg37_build_shortfall_in_polish() -> None:
    with pytest.raises(IllegalAction) as err:
        GAME.parse(build_turn(40), "c", "build", ["kiel", "hamburg", "bremen"])
    assert explain("pl", err.value).startswith(
        "Miasto Bremen kosztuje 21 E, ale po budowie w miastach Kiel i Hamburg zostałoby ci 8 E."
    )


def test_catalogs_pg_o_the_owners_order_line_in_polish() -> None:
    state = set_phase(all_regions(new_game(3, 1)), "auction", order=["a", "b", "c"])
    set_market(state, [10, 11, 12, 13, 20, 21, 22, 23], [30, 31, 32])
    GAME.apply(state, "a", {"type": "open", "plant": 13, "bid": 13})
    _, events = GAME.apply(
        state, "c", {"type": "order", "kind": "maxbid", "plant": 13, "limit": 20}
    )
    assert GAME.describe_private_event(state, events[0], PL) == (
        "Twoje stałe zlecenie: licytuj elektrownię 13 do 20 E. /orders pokaże twoje zlecenia, "
        "/cancel anuluje zlecenie."
    )
    _, events = GAME.apply(state, "c", {"type": "cancel", "kinds": []})
    assert GAME.describe_private_event(state, events[0], RU) == (
        "Вы отменяете постоянный приказ: ставка на станцию 13 до 20 Э."
    )


def test_catalogs_pg42_one_plant_in_russian() -> None:
    state = set_phase(all_regions(new_game(3, 1)), "bureaucracy", order=["a", "b", "c"])
    give(state, "a", plants=[4], money=50, cities=["Berlin"], res={})
    assert "У вас 50 Э, 1 город и станция 4." in GAME.describe_turn(state, "a", RU)
    refused = illegal(state, "a", "PG-42", type="power", plants=[4], cities=["Berlin"])
    assert explain("ru", refused).startswith(
        "У вас не хватает ресурсов, чтобы запустить станцию 4."
    )


def test_catalogs_pg42_income_in_chinese_order() -> None:
    text = income_text({"powered": 3, "plants": [4, 7], "income": 44}, ZH)
    assert text == "使用發電廠 4、7，你可以為 3 座城市供電：收入 44 元。"

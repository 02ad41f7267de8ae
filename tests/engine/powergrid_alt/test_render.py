"""The variant's pictures: lines, plants and TPs in player colours, names over lines, marks."""

from __future__ import annotations

import copy
import io

import pytest
from PIL import Image

from bot.i18n import LANGUAGES, translator
from engine.core.picture import CHANGE, WIDTH, Words
from engine.powergrid import render as pg
from engine.powergrid.render import words as W
from engine.powergrid.render.layout import segment_hits
from engine.powergrid.render.panel import CARD_H, CARD_W, TEXT_X, Panel
from engine.powergrid_alt import GAME
from engine.powergrid_alt.render import FINAL_ROUND, TEXT_H, AltPanel

from .helpers import give_hand, give_line, give_plant, give_tp, new_game


def _rgb(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _near(px: object, colour: tuple[int, int, int], tol: int = 40) -> bool:
    assert isinstance(px, tuple), px  # an RGB pixel
    return sum(abs(p - q) for p, q in zip(px, colour, strict=True)) < tol


def _map_part(pics: list, city: str, g: pg.Geometry) -> tuple[Image.Image, int]:
    """The map part that shows `city`, and the y offset of that part."""
    top = 0
    for pic in pics[:-1]:
        if top <= g.pos[city][1] < top + pic.height - 40:
            return _rgb(pic.png), top
        top += pic.height - 80  # parts overlap by 80 px
    raise AssertionError(city)


def test_render_draws_owned_lines_plants_and_tps_in_player_colours() -> None:
    state = new_game(3)
    give_plant(state, "a", 13, "Freiburg")
    give_tp(state, "a", "Würzburg")
    give_line(state, "a", "Freiburg", "Stuttgart", "Würzburg")
    give_plant(state, "b", 18, "Kiel")
    give_line(state, "b", "Kiel", "Hamburg")  # hanging: no TP in Hamburg
    pics = GAME.render_set(state, None)
    g = pg.map_geometry(GAME.view(state, None))
    a_color = pg.hex_rgb(pg.PLAYER_COLORS[state["seats"].index("a")])
    img, top = _map_part(pics, "Freiburg", g)
    (fx, fy), (sx, sy) = g.pos["Freiburg"], g.pos["Stuttgart"]
    mid = (round((fx + sx) / 2), round((fy + sy) / 2) - top)
    near = [img.getpixel((mid[0] + dx, mid[1] + dy)) for dx in range(-3, 4) for dy in range(-3, 4)]
    assert any(_near(px, a_color) for px in near)
    x, y = g.pos["Freiburg"]
    assert _near(img.getpixel((x - 30, y - top)), a_color)  # the plant fills the node
    assert GAME.render(state, None) == GAME.render(state, None)  # deterministic
    labels = {lab.text for p in pics for lab in p.labels}
    assert {"⚡13 A", "⚡18 B", "Freiburg", "Kiel"} <= labels


def test_a_built_plant_names_its_owner_by_his_initials_not_by_colour_alone() -> None:
    """Found reviewing pictures: under deuteranopia a green and a pink plant were two greys.
    A plant's box says its owner's tag, as his houses and the panel's row do ("Bot 2" wears
    "2": "B2" does not fit a 23 px house at 16 px)."""
    from engine.powergrid.render.board import badge_tags
    from engine.powergrid_alt.graph import alt_map
    from engine.powergrid_alt.render import plant_mark

    state = GAME.setup(["Bot", "Bot 2", "Bot 3"], {"regions": "random"}, 1)
    state["regions"] = sorted(set(alt_map(state["map"]).region.values()))
    give_plant(state, "Bot 2", 13, "Freiburg")
    labels = {lab.text for p in GAME.render_set(state, None) for lab in p.labels}
    tag = badge_tags(state["seats"])["Bot 2"]
    assert tag == "2" and f"⚡13 {tag}" in labels
    assert plant_mark(13, "B12") == ("⚡13", 18)  # no room: the plant alone, never cut


def test_new_lines_plants_and_tps_are_marked_and_told() -> None:
    state = new_game(3)
    give_plant(state, "a", 13, "Freiburg")
    before = copy.deepcopy(state)
    give_tp(state, "a", "Würzburg")
    give_line(state, "a", "Freiburg", "Stuttgart", "Würzburg")
    give_plant(state, "b", 18, "Kiel")
    plain = GAME.render_set(state, None)
    marked = GAME.render_set(state, None, None, before)
    count = sum(
        n for p in marked[:-1] for n, c in _rgb(p.png).getcolors(1 << 20) or [] if c == CHANGE
    )
    assert count > 500
    assert all(CHANGE not in {c for _n, c in _rgb(p.png).getcolors(1 << 20) or []} for p in plain)
    cap = marked[0].caption
    assert "a laid a line Freiburg – Stuttgart – Würzburg" in cap
    assert "b built plant 18 in Kiel" in cap and "a placed a TP in Würzburg" in cap
    assert "plant 13" not in cap


def test_pollution_of_each_region_is_in_the_panel() -> None:
    state = new_game(3)
    give_plant(state, "a", 13, "Freiburg")
    labels = GAME.render_set(state, "a")[-1].label_texts()
    assert any(x.startswith("Pollution") for x in labels)
    assert any(" of " in x and ":" in x for x in labels)


def test_alt43_final_round_is_told_while_it_is_played_not_under_game_over() -> None:
    """The panel said "Final round" under "Game over" (found reviewing Polish pictures,
    2026-12: "Ostatnia runda" under "Koniec gry"): the notice is for the round being played,
    in every language."""
    from engine.powergrid_alt import rules as r

    from .helpers import act, build_turn

    state = new_game(2)
    build_turn(state, "a", ["b"])
    nodes = list(r.play_nodes(state))
    give_plant(state, "a", 13, nodes[0])
    give_plant(state, "b", 18, nodes[1])
    for n in nodes[2:]:
        give_tp(state, "b", n)
    for name in list(reversed(state["order"])):
        act(state, name, {"type": "done"})
    assert state["final"] and state["phase"] == "bureaucracy"
    assert "Final round" in GAME.render_set(state, None)[-1].label_texts()
    for name in list(state["order"]):
        act(state, name, {"type": "power", "plants": [13] if name == "a" else [18]})
    assert state["phase"] == "over"
    for lang in LANGUAGES:
        w = Words(None if lang == "en" else translator(lang))
        labels = GAME.render_set(state, None, t=w.t)[-1].label_texts()
        assert w(FINAL_ROUND) not in labels and W.phase_name(w, "over") in " ".join(labels)


def test_alt8_the_panel_names_hand_plants_as_plants_not_a_count() -> None:
    """ "Hand: 6" beside "Cities: 1" read as a count (found playing, 2026-12-04): the panel
    says which plants, "Hand: plants 13, 18" (ALT-8)."""
    state = new_game(3)
    give_hand(state, "a", 13, 18)
    give_hand(state, "b", 10)
    labels = " ".join(GAME.render_set(state, None)[-1].label_texts())
    assert "Hand: plants 13, 18" in labels and "Hand: plant 10" in labels


def test_a_tp_names_its_owner_by_his_tag_not_by_colour_alone() -> None:
    """Found reviewing pictures: a TP was a box of its owner's colour saying "TP", and the
    green and pink players' TPs were one grey under deuteranopia. A TP is the variant's house
    (ALT-5a), drawn as the base game's: its owner's tag on his colour, as his plants and his
    row in the panel wear it ("Bot 2" wears "2": "B2" does not fit a 23 px house at 16 px)."""
    from engine.core.picture import text_on
    from engine.powergrid.render.board import badge_tags, slot_boxes
    from engine.powergrid_alt.graph import alt_map

    state = GAME.setup(["Ann", "Bot 2", "Bo"], {"regions": "random"}, 1)
    state["regions"] = sorted(set(alt_map(state["map"]).region.values()))
    names = state["seats"]
    bare = [lab.text for lab in GAME.render_set(state, None)[0].labels]
    for p in names:
        give_tp(state, p, "Würzburg")  # three TPs in one city: ALT-24
    tags = badge_tags(names)
    assert tags == {"Ann": "A", "Bot 2": "2", "Bo": "3"}
    pics = GAME.render_set(state, None)
    g = pg.map_geometry(GAME.view(state, None))
    img, top = _map_part(pics, "Würzburg", g)
    drawn = [lab.text for lab in pics[0].labels]  # each map part records all the map's
    marks = []
    for box, p in zip(slot_boxes(*g.pos["Würzburg"]), names, strict=True):
        assert drawn.count(tags[p]) == bare.count(tags[p]) + 1, (p, tags[p])  # costs "2"...
        colour = pg.hex_rgb(pg.PLAYER_COLORS[names.index(p)])
        ink = text_on(colour)
        x0, y0, x1, y1 = box
        inside = [(x, y - top) for x in range(x0 + 3, x1 - 2) for y in range(y0 + 3, y1 - 2)]
        assert sum(_near(img.getpixel(xy), colour) for xy in inside) > 100, p  # his colour
        marks.append(
            {(x - x0, y - y0 + top) for x, y in inside if _near(img.getpixel((x, y)), ink)}
        )
    for a, b in ((0, 1), (0, 2), (1, 2)):  # the tags' strokes, whatever their colour
        assert len(marks[a] ^ marks[b]) >= 10, (names[a], names[b])


def test_a_cost_under_a_laid_line_stays_readable() -> None:
    """The laid line is drawn over the map; the cost it runs over is drawn again on top: its
    box reads exactly as on a map without the line."""
    state = new_game(3)
    give_plant(state, "a", 13, "Freiburg")
    bare = GAME.render_set(state, None)
    give_line(state, "a", "Freiburg", "Stuttgart")
    laid = GAME.render_set(state, None)
    g = pg.map_geometry(GAME.view(state, None))
    pair = ("Freiburg", "Stuttgart")
    x0, y0, x1, y1 = g.edge_label[pair if pair in g.edge_label else (pair[1], pair[0])]
    assert segment_hits(g.pos["Freiburg"], g.pos["Stuttgart"], (x0 + 4, y0 + 4, x1 - 4, y1 - 4))
    (before, top), (after, _top) = _map_part(bare, "Freiburg", g), _map_part(laid, "Freiburg", g)
    box = (x0 + 5, y0 - top + 2, x1 - 4, y1 - top - 1)  # inside the rounded corners
    assert before.crop(box).tobytes() == after.crop(box).tobytes()


# --- ALT-8: any number of plants in the players panel -------------------------------------

_CITIES = ["Kiel", "Hamburg", "Berlin", "Trier", "Köln", "Stuttgart", "Freiburg", "Würzburg"]
_NUMBERS = [4, 8, 10, 13, 15, 18, 20, 22, 25, 28, 30, 33, 36, 38]


def _many_plants(count: int) -> dict:
    """a owns `count` plants (the first 8 built), b one; money hidden (PG-9 option)."""
    state = new_game(3, hidden_money="yes")
    for i, number in enumerate(_NUMBERS[:count]):
        if i < len(_CITIES):
            give_plant(state, "a", number, _CITIES[i])
        else:
            give_hand(state, "a", number)
    give_plant(state, "b", 40, "Passau")
    state["players"]["a"]["money"] = 1234
    return state


@pytest.mark.parametrize("lang", ["en", "ru", "zh_Hant"])
@pytest.mark.parametrize("count", [3, 4, 6, 12])
def test_alt8_the_players_panel_keeps_names_money_and_cities_readable(
    count: int, lang: str
) -> None:
    """Found playing: at 6 plants a's money was cut ("? Elektro…"), by round 22 his cards ran
    off the left edge over his name. Every text of a row is drawn whole, and no card leaves
    the panel or covers the texts, at 720 px, in English, Russian and Chinese."""
    from bot.i18n import translator

    t = translator(lang)
    state = _many_plants(count)
    words = Words(t)
    for viewer in ("a", "b"):
        labels = GAME.render_set(state, viewer, t)[-1].label_texts()
        money_a = words(W.MONEY, money=1234) if viewer == "a" else words(W.MONEY_HIDDEN)
        assert money_a in labels
        assert labels.count(words(W.MONEY_HIDDEN)) == 2
        for name in ("a", "b", "c"):  # "1. c": the row's place, then the name, whole
            assert any(x.endswith(f". {name}") and x[0].isdigit() for x in labels), name
        assert not [x for x in labels if x.endswith("…")], labels
    panel = AltPanel(GAME.view(state, "a"), "a", words)
    width = WIDTH - 2 * pg.PAD
    x, y = pg.PAD, 0.0
    info = GAME.view(state, "a")["players"]["a"]
    text_w, spots = panel.card_spots(x, y, width, count)
    assert len(spots) == count
    assert text_w >= 250  # the name, money and cities get at least this much
    height = panel.row_height(width, info)
    for cx, cy in spots:
        assert x + TEXT_X <= cx and cx + CARD_W <= x + width  # inside the row
        assert cy + CARD_H <= y + height - 6  # inside the row's own height
        beside = cx >= x + TEXT_X + text_w  # right of the texts ...
        below = cy >= y + TEXT_H - 4  # ... or under them
        assert beside or below, (cx, cy)
    boxes = [(cx, cy) for cx, cy in spots]
    assert len(set(boxes)) == count  # no card on another


def test_alt8_up_to_four_plants_keep_the_base_games_row() -> None:
    state = _many_plants(4)
    words = Words(None)
    panel, plain = AltPanel(GAME.view(state, "a"), "a", words), Panel({}, None, words)
    width = WIDTH - 2 * pg.PAD
    assert panel.card_spots(24, 0, width, 4) == plain.card_spots(24, 0, width, 4)
    assert panel.row_height(width, {"plants": [{}] * 4}) == plain.row_height(width, {})


def _part_at(pics: list, y: float) -> tuple[Image.Image, int]:
    """The map part that shows the height `y` of the whole map whole, and its y offset."""
    top = 0
    for pic in pics[:-1]:
        if top <= y - 15 and y + 15 <= top + pic.height:
            return _rgb(pic.png), top
        top += pic.height - 80  # parts overlap by 80 px
    raise AssertionError(y)


def test_alt22_a_laid_segment_wears_its_owners_tag_not_his_colour_alone() -> None:
    """Found reviewing pictures: a line was its owner's colour only, and the green and pink
    players' lines (seats 3 and 4, the nearest two under deuteranopia) were one grey. Each
    segment a player lays is marked with his colour (ALT-22) and a round marker with his tag
    ("C", as his plants, TPs and panel row wear it), on the segment or as a tab of its cost,
    covering no other cost, city or name (tests/engine/powergrid_alt/test_render_markers.py
    holds every marker of many games to that)."""
    from engine.core.picture import text_on
    from engine.powergrid.render.board import badge_tags, name_boxes
    from engine.powergrid.render.layout import NODE_H, NODE_W, overlap
    from engine.powergrid_alt.render_markers import marker_spots
    from tests.engine.core.test_colours import distance, seen

    state = new_game(4)
    give_plant(state, "c", 13, "Freiburg")
    give_tp(state, "c", "Würzburg")
    give_line(state, "c", "Freiburg", "Stuttgart", "Würzburg")
    give_plant(state, "d", 18, "Kiel")
    give_line(state, "d", "Kiel", "Hamburg")  # hanging: no TP in Hamburg
    colour = {p: pg.hex_rgb(pg.PLAYER_COLORS[state["seats"].index(p)]) for p in "cd"}
    assert distance(seen(colour["c"], "deuteranopia"), seen(colour["d"], "deuteranopia")) < 20
    view = GAME.view(state, None)
    g = pg.map_geometry(view)
    spots = marker_spots(view, g)
    assert sorted(m.owner for m in spots) == ["c", "c", "d"]  # one a segment
    for m in spots:
        assert not any(overlap(m.shown, r) for e, r in g.edge_label.items() if e != m.cost)
        for city, (x, y) in g.pos.items():
            node = (x - NODE_W / 2, y - NODE_H / 2, x + NODE_W / 2, y + NODE_H / 2)
            assert not overlap(m.shown, node), (m, city)
            assert not any(overlap(m.shown, r) for r in name_boxes(city, x, y)), (m, city)
    tags = badge_tags(state["seats"])
    assert (tags["c"], tags["d"]) == ("C", "D")
    pics = GAME.render_set(state, None)
    drawn = [lab.text for lab in pics[0].labels]  # each map part records all the map's
    assert drawn.count("C") >= 2 and drawn.count("D") >= 1
    strokes = {}
    for m in spots:
        img, top = _part_at(pics, (m.shown[1] + m.shown[3]) / 2)
        x0, y0, x1, y1 = (round(v) for v in m.shown)
        inside = [(x, y - top) for x in range(x0 + 3, x1 - 2) for y in range(y0 + 3, y1 - 2)]
        assert sum(_near(img.getpixel(xy), colour[m.owner]) for xy in inside) > 60, m
        ink = text_on(colour[m.owner])
        strokes[m.owner] = {
            (x - x0, y - y0 + top) for x, y in inside if _near(img.getpixel((x, y)), ink)
        }
        assert len(strokes[m.owner]) > 15, m  # his tag
    assert len(strokes["c"] ^ strokes["d"]) >= 10  # "C" and "D", whatever their colour

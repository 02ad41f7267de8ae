"""The Power Grid turn in a short paragraph (for /status and prompts): round, step, phase,
who must act and what exactly is expected, the reader's own orders and holdings."""

from __future__ import annotations

from engine.core.protocol import EnglishTranslator, State, Translator
from engine.core.sentences import join_sentences, sentence_gap
from engine.powergrid import chat_view as cv
from engine.powergrid.chat_view import View, choosable_regions, region_label, regions_text
from engine.powergrid.choices import best_power
from engine.powergrid.event_text import order_lines, ranking_text
from engine.powergrid.wording import join, money_text, phase_text, plant_text

MAX_TURN_TEXT = 1500
_ENGLISH = EnglishTranslator()


def describe_turn(state: State, player: str | None, t: Translator = _ENGLISH) -> str:
    """A short paragraph: round, step, phase, who must act and what exactly is expected."""
    return turn_text(cv.view_of(state, player), player, t)


def _example_fuel(view: View) -> str:
    """The resource the buyer's first burning plant takes (plants are public), so that the
    prompt's example is a purchase he may make: "e.g. /buy coal 2" read as a refusal to a
    player with an oil plant (found playing, 2026-12-02). The readers' words for it are read
    back by /buy (tests/engine/powergrid/test_commands.py)."""
    current = view.get("current_players") or []
    buyer = view["players"].get(current[0], {}) if len(current) == 1 else {}
    for plant in buyer.get("plants", []):
        kind = plant.get("type", "")
        if kind in ("coal", "oil", "garbage", "uranium"):
            return kind
        if kind == "hybrid":
            return "coal"
    return "coal"


def turn_text(view: View, player: str | None, t: Translator) -> str:
    """`describe_turn` on a view (VIEW.md)."""
    phase = view.get("phase", "")
    if phase == "over":
        ranking = view.get("ranking") or []
        return t.gettext("Game over after round {round}. {ranking}").format(
            round=view.get("round", 0), ranking=ranking_text(view, ranking, t)
        )[:MAX_TURN_TEXT]
    head = t.gettext("Round {round}, step {step}: {phase}.").format(
        round=view.get("round", 0),
        step=view.get("step", 1),
        phase=phase_text(t, phase),
    )
    if view.get("step3_pending"):
        head += sentence_gap(head) + t.gettext("Step 3 begins with the next phase.")
    lines = [head]
    who = join(t, view.get("current_players") or [])
    expected = view.get("expected", "")
    if expected == "choose_region":
        regions = join(t, [region_label(r, t) for r in choosable_regions(view)])
        chosen = view.get("regions_chosen") or []
        if chosen:
            lines.append(t.gettext("Chosen: {regions}.").format(regions=regions_text(chosen, t)))
        # the list after a full stop, not in brackets: a label has its own ("NW (North-West)")
        lines.append(
            t.gettext(
                "{who}: choose a region — /region <region>. Regions to choose from: {regions}."
            ).format(who=who, regions=regions)
        )
    elif expected == "choose_plant":
        market = join(t, [plant_text(t, p) for p in view["plant_market"]["current"]])
        if view.get("round", 1) == 1:
            text = t.gettext(
                "{who}: choose a plant to auction — /bid <plant> [<amount>]. Market: {market}. "
                "In round 1 everyone must buy a plant."
            )
        else:
            text = t.gettext(
                "{who}: choose a plant to auction — /bid <plant> [<amount>] — or /pass for "
                "this round. Market: {market}."
            )
        lines.append(text.format(who=who, market=market))
    elif expected == "bid" and view.get("auction"):
        auction = view["auction"]
        lines.append(
            t.gettext(
                "{who}: your bid on plant {plant}, at {high} now ({leader}) — "
                "/raise <amount> or /pass."
            ).format(
                who=who,
                plant=plant_text(t, auction["plant"]),
                high=auction["high_bid"],
                leader=auction.get("leader", ""),
            )
        )
    elif expected == "discard":
        names_ = view.get("pending_discard") or who
        me = view["players"].get(names_, {})
        lines.append(
            t.gettext("{who}: one plant too many — /discard <plant> (you own {plants}).").format(
                who=names_,
                plants=join(t, [str(p["number"]) for p in me.get("plants", [])]),
            )
        )
    elif expected == "buy":
        lines.append(
            t.gettext(
                "{who}: buy resources — /buy <resource> <n>, e.g. /buy {resource} 2 (/price "
                "{resource} 2 for a quote), then /done."
            ).format(who=who, resource=t.gettext(_example_fuel(view)))
        )
    elif expected == "build":
        slots = int(view.get("slots_open", 1))
        lines.append(
            join_sentences(
                t.gettext(
                    "{who}: build — /build <city> [<city> ...] (/cost <city> for a quote), "
                    "then /done."
                ).format(who=who),
                t.ngettext(
                    "A city holds {n} house now.", "A city holds {n} houses now.", slots
                ).format(n=slots),
            )
        )
    elif expected == "power":
        text = t.gettext(
            "{who}: power your cities — /power runs the best plants, or /power <plant> ..."
        ).format(who=who)
        current = view.get("current_players") or []
        if len(current) == 1 and current[0] in view["players"]:
            _, _, _, powered = best_power(view, current[0])
            text += sentence_gap(text) + t.ngettext(
                "(/power alone powers {n} city)", "(/power alone powers {n} cities)", powered
            ).format(n=powered)
        lines.append(text)
    elif who:
        lines.append(t.gettext("Waiting for {who}.").format(who=who))
    if player is not None and view.get("orders"):
        # view["orders"] holds only the viewer's own orders (view.py), never anyone else's.
        lines.append(
            t.gettext("Your standing orders: {orders}.").format(
                orders="; ".join(order_lines(view["orders"], t))
            )
        )
    if player is not None and player in view["players"]:
        me = view["players"][player]
        if me.get("money") is not None:
            numbers = [str(p["number"]) for p in me["plants"]]
            mine = (
                t.ngettext(
                    "You have {money}, {cities} and plant {plants}.",
                    "You have {money}, {cities} and plants {plants}.",
                    len(numbers),
                )
                if numbers
                else t.gettext("You have {money}, {cities} and no plants yet.")
            )
            lines.append(
                mine.format(
                    money=money_text(t, me["money"]),
                    cities=t.ngettext("{n} city", "{n} cities", len(me["cities"])).format(
                        n=len(me["cities"])
                    ),
                    plants=join(t, numbers),
                )
            )
    return join_sentences(*lines)[:MAX_TURN_TEXT]

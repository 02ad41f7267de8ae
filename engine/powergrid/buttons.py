"""The Power Grid buttons: small choices for the player to act now, as (label, command)."""

from __future__ import annotations

from engine.core.errors import N_
from engine.core.protocol import EnglishTranslator, State, Translator
from engine.powergrid import chat_view as cv
from engine.powergrid.chat_view import View, choosable_regions
from engine.powergrid.choices import fuel_for_one_run, just_bought, keep_choices
from engine.powergrid.wording import (
    count_text,
    join,
    keep_command,
    keep_text,
    money_text,
    plant_text,
)

_ENGLISH = EnglishTranslator()


def buttons(state: State, player: str, t: Translator = _ENGLISH) -> list[tuple[str, str]]:
    """Small choices for `player` now, as (label, command text), from the public view:
    buttons are posted in the group, so nothing only he sees may shape them (under hidden
    money the affordable bids would tell his money, issue 20). What his own view adds (his
    money under hidden money, his standing orders, his private log entries) no button reads."""
    return buttons_for(cv.view_of(state, None), player, t)


def buttons_for(view: View, player: str, t: Translator) -> list[tuple[str, str]]:
    if player not in (view.get("current_players") or []):
        return []
    me = view["players"].get(player, {})
    money = me.get("money")
    expected = view.get("expected", "")
    out: list[tuple[str, str]] = []
    if expected == "bid" and view.get("auction") and view["auction"].get("turn") == player:
        high = view["auction"]["high_bid"]
        for step in (1, 5, 10):
            bid = high + step
            if money is None or bid <= money:
                out.append((f"+{step} → {bid}", f"/raise {bid}"))
        out.append((t.gettext("Pass"), "/pass"))
    elif expected == "choose_plant":
        for plant in view["plant_market"]["current"]:
            if money is None or plant["number"] <= money:
                out.append((plant_text(t, plant), f"/bid {plant['number']}"))
        if view.get("round", 1) > 1:
            out.append((t.gettext("Pass"), "/pass"))
    elif expected == "discard":
        newest = just_bought(view, player)
        for plant in me.get("plants", []):
            if plant["number"] == newest:
                continue
            options = keep_choices(view, player, plant["number"])
            if len(options) <= 1:
                out.append(
                    (
                        t.gettext("Discard {plant}").format(plant=plant["number"]),
                        f"/discard {plant['number']}",
                    )
                )
                continue
            # PG-27: one button per way to keep the most tokens; the first is the default
            for i, option in enumerate(options):
                label = (
                    N_("Discard {plant}, keep {tokens} (default)")
                    if i == 0
                    else N_("Discard {plant}, keep {tokens}")
                )
                out.append(
                    (
                        t.gettext(label).format(plant=plant["number"], tokens=keep_text(t, option)),
                        keep_command(plant["number"], option),
                    )
                )
    elif expected == "buy":
        refill = fuel_for_one_run(view, player)
        if refill:
            cost = sum(price for _, _, price in refill)
            if money is None or cost <= money:
                label = join(t, [count_text(t, r, n) for r, n, _ in refill])
                command = "/buy " + " ".join(f"{r[0]}{n}" for r, n, _ in refill)
                out.append(
                    (
                        t.gettext("Buy {what} ({cost})").format(
                            what=label, cost=money_text(t, cost)
                        ),
                        command,
                    )
                )
        out.append((t.gettext("Done"), "/done"))
    elif expected == "build":
        out.append((t.gettext("Done"), "/done"))
    elif expected == "power":
        out.append((t.gettext("Power max"), "/power"))
    elif expected == "choose_region":
        for region in choosable_regions(view):
            # the name in the reader's words (it was English in every chat), which /region reads
            name = t.gettext(region.get("name", region["id"]))
            out.append((name, f"/region {region['id']}"))
    return out

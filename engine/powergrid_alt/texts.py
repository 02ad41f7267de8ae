"""Texts of the variant's chat layer: the turn line, event lines (public and private),
quotes worded for /cost and /board. Pure: reads the state, never changes it.
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import N_, IllegalAction, worded
from engine.core.protocol import Action, EnglishTranslator, Event, State, Translator
from engine.core.sentences import join_list, sentence_gap
from engine.powergrid import commands as base
from engine.powergrid.chat_view import region_text
from engine.powergrid.data import PLANTS
from engine.powergrid.wording import count_text, join, plant_text
from engine.powergrid_alt import purchase
from engine.powergrid_alt import rules as r
from engine.powergrid_alt.graph import alt_map
from engine.powergrid_alt.view import view as _view

_ENGLISH = EnglishTranslator()


def _half(amount2: int) -> str:
    return f"{amount2 // 2}" if amount2 % 2 == 0 else f"{amount2 / 2:.1f}"


# The full stops a refusal's sentence may end with (English, Russian, Polish; Chinese).
_FULL_STOPS = ".。"


def _reason(quote: dict[str, Any], t: Translator) -> str:
    """A refused quote's reason in the reader's words (its English text without a key), as
    a clause: the quote's sentence sets it in brackets and ends itself, so the reason's own
    full stop goes ("(ALT-21: Plant 9 is not one of your built plants)." was "...plants.).")."""
    key = quote.get("reason_key")
    if not key:
        text = str(quote.get("reason") or "")
    else:
        text = worded(t, key, quote.get("reason_params") or {})
    return text.rstrip().rstrip(_FULL_STOPS)


def cost_text(state: State, quote: dict[str, Any], t: Translator) -> str:
    am = alt_map(state["map"])
    route = " – ".join(am.label(c) for c in quote["cities"])
    if not quote["ok"]:
        return t.gettext("{route}: not possible ({rule}: {reason}).").format(
            route=route, rule=quote["rule"], reason=_reason(quote, t)
        )
    parts = " + ".join(str(s["cost"]) for s in quote["segments"])
    if quote["tp"]:
        parts += " + " + t.gettext("TP 5")
    text = t.gettext("{route}: {parts} = {total} E.").format(
        route=route, parts=parts, total=quote["total"]
    )
    if quote["income2"]:
        text += sentence_gap(text) + t.gettext(
            "Powering {city} would then pay {income} E a round."
        ).format(city=am.label(quote["cities"][-1]), income=_half(quote["income2"]))
    else:
        text += sentence_gap(text) + t.gettext("No plant of yours feeds that city yet.")
    return text


def refusal_text(err: IllegalAction, t: Translator) -> str:
    """A quote's refusal in the reader's words: "Not possible (ALT-8: …)."."""
    return _refused(
        {"rule": err.rule_id, "reason_key": err.message_key, "reason_params": err.params}, t
    )


def _refused(quote: dict[str, Any], t: Translator) -> str:
    return t.gettext("Not possible ({rule}: {reason}).").format(
        rule=quote["rule"], reason=_reason(quote, t)
    )


def move_text(state: State, action: Action, quote: dict[str, Any], t: Translator) -> str:
    if not quote["ok"]:
        return _refused(quote, t)
    label = alt_map(state["map"]).label
    return t.gettext(
        "Moving {tokens} from plant {a} ({city_a}) to plant {b} ({city_b}): "
        "route cost {distance}, fee {fee} E."
    ).format(
        tokens=tokens_text(action["tokens"], t),
        a=action["from"],
        b=action["to"],
        city_a=label(quote["from_city"]),
        city_b=label(quote["to_city"]),
        distance=quote["distance"],
        fee=quote["fee"],
    )


def tokens_text(tokens: dict[str, int], t: Translator) -> str:
    """ "2 coal, 1 oil" with plural-aware counts."""
    return join(t, [count_text(t, res, n) for res, n in tokens.items()])


def money_shown(state: State, name: str, viewer: str | None) -> bool:
    """Whether `viewer` may see `name`'s money: always, unless the option hides it (PG-9
    option, `hidden_money`), then his own only until the game ends (as view.py)."""
    return not state["hidden_money"] or state["phase"] == "over" or viewer == name


def board_text(state: State, t: Translator, viewer: str | None = None) -> str:
    """/board. `viewer`: who reads it (None: the whole group); under hidden money only his
    own money is shown."""
    am = alt_map(state["map"])
    lines = []
    for name in state["seats"]:
        p = state["players"][name]
        built = [
            f"{n}@{am.label(state['built'][str(n)]['city'])}" for n in r.built_plants(state, name)
        ]
        tps = [am.label(c) for c in p["cities"] if name in state["tps"].get(c, [])]
        fields = {
            "player": name,
            "built": join_list(t, built) or "-",
            "hand": join_list(t, map(str, r.hand(state, name))) or "-",
            "tps": join_list(t, tps) or "-",
        }
        n = len(built)  # "plant 4@Berlin", "plants 4@Berlin, 7@Kiel" ("plants -": none)
        if money_shown(state, name, viewer):
            line = t.ngettext(
                "{player} ({money} E): plant {built}; hand {hand}; TPs {tps}.",
                "{player} ({money} E): plants {built}; hand {hand}; TPs {tps}.",
                n,
            )
            lines.append(line.format(money=p["money"], **fields))
        else:
            line = t.ngettext(
                "{player}: plant {built}; hand {hand}; TPs {tps}.",
                "{player}: plants {built}; hand {hand}; TPs {tps}.",
                n,
            )
            lines.append(line.format(**fields))
    pol = join_list(
        t, (f"{region_text(reg, t)} {r.pollution(state, reg)}/5" for reg in state["regions"])
    )
    lines.append(t.gettext("Pollution: {levels}.").format(levels=pol))
    return "\n".join(lines)


def plants_text(state: State, t: Translator, viewer: str | None = None) -> str:
    """/plants: per player (in player order) his built plants with their city and stored
    tokens, then his hand (public, ALT-D-4), his cities (plants and TPs, ALT-2) and his money
    unless hidden (under the PG-9 option only the `viewer`'s own; None: nobody's)."""
    am = alt_map(state["map"])
    lines = []
    for name in state["order"] or state["seats"]:
        p = state["players"][name]
        built = []
        for n in r.built_plants(state, name):
            site = state["built"][str(n)]
            item = f"{plant_text(t, PLANTS[n].as_dict())} @{am.label(site['city'])}"
            stored = {res: k for res, k in site["res"].items() if k}
            if stored:
                item += f" ({tokens_text(stored, t)})"
            built.append(item)
        hand = [plant_text(t, PLANTS[n].as_dict()) for n in r.hand(state, name)]
        cities = len(p["cities"])
        lines.append(
            t.gettext("{player} ({money}, {cities}): built {built}; hand {hand}").format(
                player=name,
                money=base.money_text(t, p["money"] if money_shown(state, name, viewer) else None),
                cities=t.ngettext("{n} city", "{n} cities", cities).format(n=cities),
                built=join_list(t, built) or "-",
                hand=join_list(t, hand) or "-",
            )
        )
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# Texts
# --------------------------------------------------------------------------------------------

_EXPECT = {
    "choose_region": N_("choose a region with /region"),
    "choose_plant": N_("open an auction with /bid <plant> or /pass"),
    # PG-25 (kept by ALT-9): in round 1 nobody may pass on opening an auction
    "choose_plant_round_1": N_(
        "open an auction with /bid <plant> (in round 1 everyone must buy a plant)"
    ),
    "bid": N_("/raise or /pass"),
    "buy": N_("/buy resources onto built plants, then /done"),
    "build": N_("/plant, /line, /tp, /upgrade, /move, then /done"),
    "power": N_("/power (choose plants and cities, or let the engine choose)"),
}


_EXPECT_TOGETHER = {
    "buy": N_(
        "/buy resources onto built plants, then /done; nobody sees your purchases until all "
        "are done, then they are made in reverse player order at the prices the earlier "
        "buyers leave"
    ),
    "power": N_(
        "/power (choose plants and cities, or let the engine choose); the choices are "
        "revealed and paid in player order once everybody has chosen"
    ),
}


def _declared_text(items: list[dict[str, Any]], t: Translator) -> str:
    return join_list(
        t,
        (
            t.gettext("{tokens} onto plant {plant}").format(
                tokens=tokens_text({item["resource"]: item["count"]}, t), plant=item["plant"]
            )
            for item in items
        ),
    )


def _short_text(event: Event, t: Translator) -> str:
    """The buyer's own line about a version 2 declaration the market or his money no longer
    covered when it was carried out (purchase.resolve, PG-32, ALT-12)."""
    tokens = tokens_text({event["resource"]: event["wanted"]}, t)
    if event.get("type") == "purchase_short":
        return t.gettext(
            "You wanted {tokens} onto plant {plant}, but the market or your money ran short: "
            "nothing bought."
        ).format(tokens=tokens, plant=event["plant"])
    return t.gettext(
        "You wanted {tokens} onto plant {plant}; the market or your money covered only {count}."
    ).format(tokens=tokens, plant=event["plant"], count=event["count"])


def describe_private_event(state: State, event: Event, t: Translator = _ENGLISH) -> str | None:
    """The owner's line of a private event: a purchase declared in version 2, and the
    shortfall of one carried out (`private_to` the buyer; the group line says only what was
    bought)."""
    if event.get("type") in ("resources_bought", "purchase_short") and "wanted" in event:
        return _short_text(event, t)
    if event.get("type") == "buy_declared":
        return t.gettext(
            "You plan to buy {tokens} onto plant {plant} (now {price}; the price is set when "
            "everybody is done)."
        ).format(
            tokens=tokens_text({event["resource"]: event["count"]}, t),
            plant=event["plant"],
            price=base.money_text(t, event["price"]),
        )
    if event.get("type") == "power_planned":
        # his declaration said back, as a purchase's is (found play-testing through
        # Telegram, 2026-12-05: "Done" alone, nothing of what he declared)
        plants = [str(n) for n in event["plants"]]
        if not plants:
            return t.gettext("You plan to run no plant (carried out when everybody is done).")
        return t.ngettext(
            "You plan to run plant {plants} (carried out when everybody is done).",
            "You plan to run plants {plants} (carried out when everybody is done).",
            len(plants),
        ).format(plants=", ".join(plants))
    return describe_event(state, event, t)


def _expected_words(state: State) -> str:
    """The `_EXPECT` key of what the rules expect now (round 1's opening has its own)."""
    want = r.expected(state)
    return f"{want}_round_1" if want == "choose_plant" and state["round"] == 1 else want


def describe_turn(state: State, player: str | None, t: Translator = _ENGLISH) -> str:
    if state["phase"] == "over":
        # The result with the figures that decide it (ALT-44, ALT-D-22: cities powered in the
        # last Phase 5, money, then plants and TPs), every money shown (PG-9: revealed at the
        # end); the base game's words, from the public view.
        return base.turn_text(_view(state, None), None, t)
    who = join_list(t, r.current_players(state))
    together = state["phase"] in ("resources", "bureaucracy") and purchase.simultaneous(state)
    if together:
        # Version 2: Phases 3 and 5 are declared by everybody at once (purchase.py, rules.py).
        text = t.gettext(
            "Round {round}, Step {step}, {phase}: everybody at once, still waiting for {who}: "
            "{what}."
        ).format(
            round=state["round"],
            step=state["step"],
            phase=base.phase_text(t, state["phase"]),
            who=who,
            what=t.gettext(_EXPECT_TOGETHER[r.expected(state)]),
        )
    else:
        text = t.gettext("Round {round}, Step {step}, {phase}: {who} to {what}.").format(
            round=state["round"],
            step=state["step"],
            phase=base.phase_text(t, state["phase"]),
            who=who,
            what=t.gettext(_EXPECT.get(_expected_words(state), "")),
        )
    if together and player is not None and player in state["players"]:
        mine = purchase.declared(state, player)
        if mine:
            text += sentence_gap(text) + t.gettext("Your purchases so far: {items}.").format(
                items=_declared_text(mine, t)
            )
        waited_for = player in r.current_players(state)
        if (
            waited_for
            and r.expected(state) == "buy"
            and not purchase.can_declare_more(state, player)
        ):
            # The table does not pass him on his secret declarations (forced.py): he hears it
            # here, where only he reads.
            text += sentence_gap(text) + t.gettext("Nothing more can be bought: send /done.")
    if state["auction"] is not None:
        a = state["auction"]
        text += sentence_gap(text) + t.gettext("Plant {plant}: high bid {bid} by {leader}.").format(
            plant=a["plant"], bid=a["bid"], leader=a["leader"]
        )
    if state["final"]:  # set when the end is decided, in any phase (ALT-44, ALT-45)
        last = (
            N_("This is the final Phase 5.")
            if state["phase"] == "bureaucracy"
            else N_("This round's Phase 5 is the last one.")
        )
        text += sentence_gap(text) + t.gettext(last)
    vote = state.get("end_vote")
    if vote is not None:
        waiting = [p for p in state["order"] if p not in vote["yes"]]
        text += sentence_gap(text) + t.gettext(
            "{player} proposes to end the game; waiting for {waiting} (/endgame yes or no)."
        ).format(player=vote["by"], waiting=join_list(t, waiting))
    if player in state["players"]:  # (his own money: `player` alone reads this line)
        text += sentence_gap(text) + t.gettext("You have {money} E.").format(
            money=state["players"][player]["money"]
        )
    return text


def describe_event(state: State, event: Event, t: Translator = _ENGLISH) -> str | None:
    kind = event.get("type", "")
    label = alt_map(state["map"]).label
    if kind == "plant_built":
        text = t.gettext("{player} builds plant {plant} in {city} (10 E).").format(
            player=event["player"], plant=event["plant"], city=label(event["city"])
        )
        if event.get("displaced"):
            text += sentence_gap(text) + t.ngettext(
                "The TP of {players} is displaced.",
                "The TPs of {players} are displaced.",
                len(event["displaced"]),
            ).format(players=join_list(t, event["displaced"]))
        return text
    if kind == "plant_upgraded":
        text = t.gettext("{player} replaces plant {old} by {new} in {city}.").format(
            player=event["player"], old=event["old"], new=event["new"], city=label(event["city"])
        )
        # ALT-20 (corrections 1.1): every token moved or returned is named.
        for plant, tokens in event.get("moved", {}).items():
            text += sentence_gap(text) + t.gettext("{tokens} onto plant {plant}.").format(
                tokens=tokens_text(tokens, t), plant=plant
            )
        if event.get("returned"):
            text += sentence_gap(text) + t.gettext("{tokens} back to the supply.").format(
                tokens=tokens_text(event["returned"], t)
            )
        return text
    if kind == "resources_moved":
        tokens = tokens_text(event["tokens"], t)
        return t.gettext("{player} moves {tokens} from plant {a} to plant {b} ({fee} E).").format(
            player=event["player"],
            tokens=tokens,
            a=event["source"],
            b=event["target"],
            fee=event["fee"],
        )
    if kind == "line_laid":
        route = " – ".join(label(c) for c in event["cities"])
        return t.gettext("{player} lays a line {route} ({cost} E).").format(
            player=event["player"], route=route, cost=event["cost"]
        )
    if kind == "tp_placed":
        return t.gettext("{player} places a TP in {city} (5 E).").format(
            player=event["player"], city=label(event["city"])
        )
    if kind == "powered":
        text = t.ngettext(
            "{player} powers {n} city and earns {income}.",
            "{player} powers {n} cities and earns {income}.",
            event["cities"],
        ).format(
            player=event["player"], n=event["cities"], income=base.money_text(t, event["income"])
        )
        fines = event.get("penalty_bank", 0) + sum(event.get("penalty_players", {}).values())
        if fines:
            text += sentence_gap(text) + t.gettext("Penalties: {amount}.").format(
                amount=base.money_text(t, fines)
            )
        return text
    if kind == "resources_bought":
        count = int(event["count"])
        text = t.ngettext(
            "{player} buys {count} {resource} for {price} onto plant {plant}.",
            "{player} buys {count} {resource} for {price} onto plant {plant}.",
            count,
        ).format(
            player=event["player"],
            count=count,
            resource=base.resource_text(t, event["resource"]),
            price=base.money_text(t, event["price"]),
            plant=event["plant"],
        )
        # Only what was bought: how many he wanted is his secret declaration and, under
        # hidden money, would bound his money (PG-9 option, PG-22); his own line says it
        # (`describe_private_event`).
        return text
    if kind == "purchase_short":
        return None  # a declaration nothing of which was carried out: its buyer's line only
    if kind == "purchase_declared":
        # "nothing" only when he had nothing to buy whatever his money (purchase.py
        # nothing_to_buy: ALT-10, EX-ALT-14), so neither line tells his money or declarations.
        nothing = event.get("nothing")
        if nothing == "no_plant":
            text = t.gettext("{player} has nothing to buy: no built plant to store resources on.")
        elif nothing == "no_room":
            text = t.gettext(
                "{player} has nothing to buy: no built plant with room for a resource the "
                "market holds."
            )
        else:
            text = t.gettext("{player} has chosen what to buy.")
        return text.format(player=event["player"])
    if kind == "buy_declared":
        return None  # private (describe_private_event); never a group line
    if kind == "step_started" and event.get("step") == 2:
        return t.gettext("Step 2 begins: a new plant may now displace the TPs in its city.")
    if kind == "step_started" and event.get("step") == 3:
        return t.gettext("Step 3 begins: all six market plants are for sale.")
    if kind == "final_round":
        reason = event.get("reason")
        if reason == "covered":
            return t.gettext("Every city is covered: this is the last Phase 5.")
        if reason == "unreachable":
            return t.gettext(
                "No remaining city can ever be covered (ALT-45): this is the last Phase 5."
            )
        if reason == "agreement":
            return t.gettext(
                "Everybody agreed to end the game: this round's Phase 5 is the last one."
            )
        # "idle": games from before the ALT-45 correction (rules v1.1) still replay.
        return t.gettext("Two rounds without building: this is the last Phase 5.")
    if kind == "end_proposed":
        return t.gettext(
            "{player} proposes to end the game after this round's Phase 5 (scored as ALT-44). "
            "Everybody must agree: /endgame yes or /endgame no. Waiting for {waiting}."
        ).format(player=event["player"], waiting=join_list(t, event["waiting"]))
    if kind == "end_accepted":
        if not event["waiting"]:
            return t.gettext("{player} agrees to end the game.").format(player=event["player"])
        return t.gettext("{player} agrees to end the game; waiting for {waiting}.").format(
            player=event["player"], waiting=join_list(t, event["waiting"])
        )
    if kind == "end_declined":
        return t.gettext("{player} wants to play on: the game continues.").format(
            player=event["player"]
        )
    if kind == "game_over":
        return None  # said once, by the over state's turn text (describe_turn)
    shared = base.EVENT_TEXTS.get(kind)
    return shared(event, t) if shared else None


def is_picture_event(event: Event) -> bool:
    return base.is_picture_event(event)


def undoable(events: list[Event]) -> bool:
    return base.undoable(events)

"""Chat lines for production, warnings, reveals and the technology list (issue 21).

Every line here is public unless its name says private; none reads an event's `secret`.
"""

from __future__ import annotations

from typing import Any

from engine.core import N_, NP_, Event, State, Translator, join_list, join_sentences
from engine.iec.order_words import SAVED, order_text
from engine.iec.rules import PHASE_NAMES, available_techs, scen, tech_cost, tech_mode
from engine.iec.techs import TECH_EFFECTS, TECHS

# Display names of the building kinds (the state keeps the English ids of KINDS).
KIND_NAMES: dict[str, str] = {
    "reactor": N_("reactor"),
    "mine": N_("mine"),
    "storage": N_("storage"),
    "mixer": N_("mixer"),
    "laboratory": N_("laboratory"),
    "transmitter": N_("transmitter"),
    "developer": N_("developer"),
    "launcher": N_("launcher"),
}
# Why a module was lost (`module_lost` event's `cause`).
CAUSE_NAMES: dict[str, str] = {
    "seismic": N_("seismic shock"),
    "missile": N_("missile"),
    "mine": N_("land mine"),  # the mine-war token, not the building (KIND_NAMES)
    "recycled": N_("recycled"),
}


def kind_name(t: Translator, kind: Any) -> str:
    """The translated display name of a building kind (unknown ids are shown as they are)."""
    name = KIND_NAMES.get(str(kind))
    return t.gettext(name) if name else str(kind)


def _kind(t: Translator, kind: Any) -> str:
    return kind_name(t, kind)


def deposit_contents(state: State, deposit: str, t: Translator) -> str:
    """ "A 3+, B 4+": each resource with the d6 threshold (IEC-S-5), listed in the words of
    `t` ("A 3+、B 4+" in Chinese)."""
    dep = scen(state).deposits.get(deposit, {})
    return join_list(t, (f"{g} {n}+" for g, n in sorted(dep.items())))


def _extracted(event: Event, t: Translator) -> str | None:
    p = event
    if event.get("bonus"):
        if not event.get("success"):
            return None
        if event.get("to") is None and event.get("no_storage"):
            msg = N_(
                "{player}'s mine {cell}: 1 more {resource} (Advanced Mining), lost: no storage "
                "of theirs is linked to it."
            )
        elif event.get("to") is None:
            msg = N_(
                "{player}'s mine {cell}: 1 more {resource} (Advanced Mining), lost: no "
                "linked storage has room."
            )
        else:
            msg = N_("{player}'s mine {cell}: 1 more {resource} into {to} (Advanced Mining).")
    elif not event.get("success"):
        msg = N_("{player}'s mine {cell} extracts no {resource} (rolled {roll}, needed {need}+).")
    elif event.get("to") is None and event.get("no_storage"):
        msg = N_(
            "{player}'s mine {cell} extracts 1 {resource}, lost: no storage of theirs is linked "
            "to it."
        )
    elif event.get("to") is None:
        msg = N_("{player}'s mine {cell} extracts 1 {resource}, lost: no linked storage has room.")
    else:
        msg = N_("{player}'s mine {cell} extracts 1 {resource} into {to} (rolled {roll}).")
    return t.gettext(msg).format(
        **{k: p.get(k) for k in ("player", "cell", "resource", "to", "roll", "need")}
    )


def describe(state: State, event: Event, t: Translator) -> str | bool | None:
    """The public line of the events this module words; False when it does not word `event`."""
    kind = event.get("type")
    if kind == "game_over":
        # Said once, by the over state's turn text (turn_text.over_text: the ranking with the
        # figures that decided it, IEC-S-9); the event itself stays as recorded.
        return None
    f = {k: v for k, v in event.items() if k != "secret"}
    if kind == "extracted":
        return _extracted(event, t)
    if kind == "mixed":
        return t.gettext(N_("{player}'s mixer {cell} makes 1 {product} into {to}.")).format(**f)
    if kind == "goods_discarded":
        goods = join_list(t, (f"{n} {g}" for g, n in sorted(event["goods"].items())))
        return t.gettext(
            N_("{player}'s storage {cell} discards {goods}: its capacity fell to {capacity}.")
        ).format(**{**f, "goods": goods})
    if kind == "moved":
        return t.ngettext(
            "{player} moves {n} {good} unit from {src} to {dst}.",
            "{player} moves {n} {good} units from {src} to {dst}.",
            int(event["n"]),
        ).format(**f)
    if kind == "deposit_revealed":
        return t.gettext(N_("Area {area} holds deposit {deposit}: {contents}.")).format(
            **f, contents=deposit_contents(state, str(event["deposit"]), t)
        )
    if kind == "unlinked":
        return t.gettext(
            N_(
                "Warning: {player}'s {kind_name} on {cell} has no storage of theirs within "
                "{r} cm, so it can neither deliver nor draw goods."
            )
        ).format(**f, kind_name=_kind(t, event["kind"]))
    if kind in ("order_roll", "flex_roll"):
        # The tie-break dice, shown as they are rolled (docs/secrets.md): IEC-S-10.2 (2d6 on a
        # VP tie, higher first), IEC-S-10.3 (d6 on Flexible Order collisions, lowest first).
        rolls = event.get("rolls") or {}
        rolls_text = join_list(t, (f"{p} ({r})" for p, r in rolls.items()))
        msg = (
            N_("Tie for the turn order, 2d6: {rolls}; the higher roll goes first.")
            if kind == "order_roll"
            else N_(
                "Flexible Order collision, d6: {rolls}; the lowest roller's declaration is "
                "applied first."
            )
        )
        return t.gettext(msg).format(rolls=rolls_text)
    if kind == "flex_declared":
        msg = (
            N_("{player} acts first in phase {phase} (Flexible Order).")
            if event.get("position") == "first"
            else N_("{player} acts last in phase {phase} (Flexible Order).")
        )
        return t.gettext(msg).format(**f)
    if kind == "recycled" and event.get("again"):
        outcome = t.gettext(N_("success") if event.get("success") else N_("failure"))
        return t.gettext(
            N_(
                "{player} tries the recovery again (Construction Recovery): rolled {roll} - "
                "{outcome}."
            )
        ).format(**f, outcome=outcome)
    return False


def power_list(state: State, player: str, t: Translator) -> str:
    """`/power` alone: the asker's standing power list (sent privately: it is his order)."""
    pl = state["players"].get(player)
    cells = list(pl["orders"]["power"]) if pl is not None else []
    # IEC-15.2: the list goes first, then every other building in the default order, as far
    # as the reactors' places reach (rules._compute_power)
    if not cells:
        return t.gettext(
            "Your power list is empty: your buildings get power in the default order, as far "
            "as your reactors reach. /power <cells> puts some first."
        )
    return t.gettext(
        "Your power list: {cells} first, then the rest in the default order. /power <cells> "
        "changes it; /power none goes back to the default order."
    ).format(cells=join_list(t, cells))


def tech_list(state: State, player: str, t: Translator) -> str:
    """`/tech`: every technology with its effect; for a player, his next cost and which he
    owns (sent privately: the cost would show a Super Computer)."""
    pl = state["players"].get(player)
    lines = []
    if pl is not None:
        lines.append(
            t.gettext(N_("Science {s}; your next technology costs {c}.")).format(
                s=pl["science"], c=tech_cost(state, player)
            )
        )
    can = set(available_techs(state, player)) if pl is not None else set(TECHS)
    for n, name in TECHS.items():
        if pl is not None and n not in can and n not in pl["techs"]:
            continue  # Mine War technologies in a game without Mine War
        mark = ""
        if pl is not None and n in pl["techs"]:
            if n in pl["revealed"]:
                mark = " " + t.gettext(N_("[yours, revealed]"))
            elif tech_mode(state, player, n) == "off":
                mark = " " + t.gettext(N_("[yours, off]"))
            else:
                mark = " " + t.gettext(N_("[yours, auto]"))
        lines.append(f"{n} {t.gettext(name)}{mark}: {t.gettext(TECH_EFFECTS[n])}")
    lines.append(
        t.gettext(
            N_(
                "/tech N chooses one when you must. A technology acts only once used: /use N "
                "reveals it now, /use N auto (default) when it first acts, /use N off never."
            )
        )
    )
    return "\n".join(lines)


_EVENT_TEXT = {
    "radiation": N_("Radiation this turn: {value}."),
    "turn_started": N_("Turn {turn} begins. Order: {order_text}."),
    "turn_ended": N_("Turn {turn} ends."),
    "module_lost": N_(
        "{player}'s {kind_name} on {cell} loses a module ({left} left, {cause_name})."
    ),
    "building_removed": N_("{player}'s {kind_name} on {cell} is destroyed."),
    "self_destroyed": N_("{player} blows up the {kind_name} on {cell}."),
    "tech_revealed": N_("{player} reveals {tech_name}."),
    "tech_chosen": N_("{player} discovers a secret technology (cost {cost})."),
    "site_prepared": N_("{player} prepares a site on {cell}."),
    "build_roll": N_(
        "{player} builds a {kind_name} module on {cell}: rolled {roll}, needed {need}+ - {outcome}."
    ),
    "recycled": N_("{player} recycles a module on {target}: rolled {roll} - {outcome}."),
    "token_moved": N_("{player} moves a token from {src} to {dst}."),
    "token_activated": N_("{player} activates the token on {cell}: {real_text}."),
    "mine_test": N_("Mine on {cell}: rolled {roll}, needed {need}+ - {outcome}."),
    "intercept": N_("{player} tries to intercept over {target}: rolled {roll} - {outcome}."),
    "transmitted": N_("{player} transmits from {cell}: rolled {roll}, needed {need}+ - {outcome}."),
    "research": N_("{player}'s laboratory: rolled {roll} - {outcome}."),
    "eliminated": N_("{player} is eliminated: {vp} VP become {final_vp}."),
    "subsidy": N_("{player} receives a subsidised {kind_name} on {cell}."),
    # Rules version 2, a phase declared by everybody at once (together.py).
    "declaration_done": N_("{player} has decided ({phase_name})."),
    "declaration_lapsed": N_(
        "{player}'s declared {action_name} no longer applies when its turn comes; it lapses."
    ),
}


# Events whose line depends on a count: (singular, plural, the event field holding the count,
# or the list whose length is the count). Marked with NP_, so that extraction finds them
# (unmarked, the catalogs lost them: found playing in Chinese, 2026-11-29, a missile line in
# English). A list of cells is told of one item in the singular ("bob lays a token on H7";
# found playing, 2026-12: "lays tokens on H7").
_PLURAL_EVENT_TEXT: dict[str, tuple[str, str, str]] = {
    "missiles": (
        *NP_(
            "{player}'s launcher {launcher} fires at {target}: {rolls_text} "
            "(needed {need}+), {hits} hit.",
            "{player}'s launcher {launcher} fires at {target}: {rolls_text} "
            "(needed {need}+), {hits} hits.",
        ),
        "hits",
    ),
    "power_given": (
        *NP_(
            "{player} gives power for {count} building to {to}.",
            "{player} gives power for {count} buildings to {to}.",
        ),
        "count",
    ),
    "tokens_laid": (
        *NP_("{player} lays a token on {cells_text}.", "{player} lays tokens on {cells_text}."),
        "cells",
    ),
    "swept": (
        *NP_("{player} sweeps the token from {cell}.", "{player} sweeps the tokens from {cell}."),
        "tokens",
    ),
}

# What the owner alone is told about a private event (see README.md, "Private events").
_PRIVATE_TEXT = {
    "tech_chosen": N_("Only you know: you discovered {tech_name} (cost {cost})."),
    "peeked": N_("Remote Drilling: area {area} holds one of {deposits_text}."),
    "order_set": N_("Standing order saved."),
    "declared": N_(
        "Only you know: {action_text} ({phase_name}). It is carried out when everybody has decided."
    ),
}
# The same for the owner's lines that depend on a count: (singular, plural, the secret field
# whose length is the count). Two real mines are laid at once with Total Mine War (IEC-TECH-18).
_PLURAL_PRIVATE_TEXT: dict[str, tuple[str, str, str]] = {
    "tokens_laid": (
        *NP_(
            "Only you know: your real mine is on {real_text}.",
            "Only you know: your real mines are on {real_text}.",
        ),
        "real",
    ),
}
# A declaration whose phase is over (the state read is past the event's turn and phase): the
# last one to decide read "it is carried out when everybody has decided" after the results,
# and /log said it of every past one (found playing, 2026-12-02).
_DECIDED_TEXT = N_("Your choice: {action_text} ({phase_name}). Everybody has decided.")

# What a declaration (rules version 2) asks for, in the owner's private line.
_DECLARED_TEXT = {
    "power": N_("power {cells}"),
    "relocate": N_("move your token from {src} to {dst}"),
    "transmit": N_("transmit from {cell}"),
    "research": N_("research in the laboratory on {cell}"),
    "tech": N_("discover {tech_name}"),
}
# A declared placement (rules version 2), by its number of real mines (2 with Total Mine War,
# IEC-TECH-18) and of fakes: each told in the singular or the plural as it counts (found
# playing, 2026-12: "fakes on C5" for one fake). No fakes: no "fakes on -" (found playing).
_DECLARED_LAY = NP_("real mine on {real}", "real mines on {real}")  # counted: real mines
_DECLARED_LAY_FAKES = {  # counted: fakes
    1: NP_("real mine on {real}, a fake on {fake}", "real mine on {real}, fakes on {fake}"),
    2: NP_("real mines on {real}, a fake on {fake}", "real mines on {real}, fakes on {fake}"),
}
# The moves a lapsed declaration names (public: the move type only).
_ACTION_NAMES = {
    "power": N_("power list"),
    "lay": N_("mine laying"),
    "relocate": N_("token move"),
    "transmit": N_("transmission"),
    "research": N_("research"),
    "tech": N_("technology"),
}


def _declared_text(action: dict[str, Any], t: Translator) -> str:
    kind = str(action.get("type"))
    template = _DECLARED_TEXT.get(kind)
    if kind == "lay":
        template = _lay_template(action, t)
    if template is None:
        return str(action.get("type", ""))
    params = {
        "cells": join_list(t, action.get("buildings") or []) or "-",
        "real": join_list(t, action.get("real") or []) or "-",
        "fake": join_list(t, action.get("fake") or []) or "-",
        "src": action.get("from", ""),
        "dst": action.get("to", ""),
        "cell": action.get("building") or "-",
        "tech_name": _tech_name(t, action.get("tech")),
    }
    return _fill(template if kind == "lay" else t.gettext(template), params)


def _lay_template(action: dict[str, Any], t: Translator) -> str:
    """The declared placement's words, before its cells are filled in (see _DECLARED_LAY)."""
    real, fake = _count(action.get("real")), _count(action.get("fake"))
    if not fake:
        return t.ngettext(*_DECLARED_LAY, real)
    return t.ngettext(*_DECLARED_LAY_FAKES[2 if real > 1 else 1], fake)


def _count(value: Any) -> int:
    """The count a plural line is told by: an int field, or a list field's length."""
    if isinstance(value, bool):
        return 0
    if isinstance(value, int):
        return value
    return len(value) if isinstance(value, list | tuple) else 0


def _tech_name(t: Translator, tech: Any) -> str:
    name = TECHS.get(tech) if isinstance(tech, int) else None
    return t.gettext(name) if name else ""


# TRANSLATORS: what an activated token turned out to be, after "{player} activates the token
# on {cell}:" ("... on F7: a fake."); the word agrees with "token" there (ru "ложный").
FAKE = N_("a fake")
# TRANSLATORS: what an activated token turned out to be, after "{player} activates the token
# on {cell}:" ("... on T8: a real mine.").
REAL_MINE = N_("a real mine")


def _map_order(cell: str) -> tuple[int, str]:
    """A cell's place on the map read row by row ("T8" before "Q9"), the scenario's own order
    of cells (rules.scen(state).index) without the state."""
    row = cell[1:]
    return (int(row) if row.isdigit() else 0, cell[:1])


def _event_params(event: Event, t: Translator) -> dict[str, Any]:
    """The event's public fields plus the derived texts the templates use (no secrets)."""
    params = {k: v for k, v in event.items() if k != "secret"}
    params["outcome"] = t.gettext(N_("success") if event.get("success") else N_("failure"))
    order = event.get("order")
    params["order_text"] = join_list(t, order) if isinstance(order, list) else ""
    params["tech_name"] = _tech_name(t, event.get("tech"))
    params["kind_name"] = kind_name(t, event.get("kind", ""))
    cause = CAUSE_NAMES.get(str(event.get("cause", "")))
    params["cause_name"] = t.gettext(cause) if cause else str(event.get("cause", ""))
    # in the map's cell order (row by row), as the Activate buttons list them (turn_text.py
    # `_by_cell`): the event keeps them sorted by name ("Q9, R9, T8" against "T8, Q9, R9")
    params["cells_text"] = join_list(t, sorted(event.get("cells", []), key=_map_order))
    params["rolls_text"] = " ".join(str(r) for r in event.get("rolls", []))
    params["real_text"] = t.gettext(REAL_MINE if event.get("real") else FAKE)
    phase = event.get("phase")
    params["phase_name"] = t.gettext(PHASE_NAMES[phase]) if phase in PHASE_NAMES else ""
    name = _ACTION_NAMES.get(str(event.get("action", "")))
    params["action_name"] = t.gettext(name) if name else ""
    return params


def _fill(template: str, params: dict[str, Any]) -> str:
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template


def describe_start(state: State, t: Translator) -> str:
    """The "begins" post's lines: turn 1's order roll and radiation, which setup played
    before any move (rules.setup keeps them as `opening`)."""
    found = (describe_event(state, e, t) for e in state.get("opening", ()))
    return join_sentences(*(line for line in found if line))


def describe_event(state: State, event: Event, t: Translator) -> str | None:
    """The public line for the group chat, or None. Never shows a `secret` field; events that
    would reveal a secret technology by their mere existence (`peeked`, `order_set`) are
    not announced. The owner's extra line comes from `describe_private_event`."""
    kind = str(event.get("type"))
    special = describe(state, event, t)
    if special is not False:
        return special if isinstance(special, str) else None
    params = _event_params(event, t)
    plural = _PLURAL_EVENT_TEXT.get(kind)
    if plural is not None:
        singular, many, key = plural
        return _fill(t.ngettext(singular, many, _count(event.get(key))), params)
    msg = _EVENT_TEXT.get(kind)
    if msg is None:
        return None
    return _fill(t.gettext(msg), params)


def describe_private_event(state: State, event: Event, t: Translator) -> str | None:
    """The line only `event["private_to"]` may read (the secret part), or None."""
    kind = str(event.get("type"))
    msg = _PRIVATE_TEXT.get(kind)
    plural = _PLURAL_PRIVATE_TEXT.get(kind)
    if (msg is None and plural is None) or not event.get("private_to"):
        return None
    secret = event.get("secret") or {}
    params = _event_params(event, t)
    params["real_text"] = join_list(t, secret.get("real", []))
    params["tech_name"] = _tech_name(t, secret.get("tech"))
    params["deposits_text"] = " / ".join(str(d) for d in secret.get("deposits", []))
    params["area"] = secret.get("area", params.get("area"))
    action = secret.get("action")
    params["action_text"] = _declared_text(action, t) if isinstance(action, dict) else ""
    if kind == "declared" and _phase_over(state, event):
        msg = _DECIDED_TEXT
    saved = order_text(action, t) if kind == "order_set" and isinstance(action, dict) else None
    if saved is not None:  # which order: the owner's /log listed a row of the same line
        return t.gettext(SAVED).format(order=saved)
    if plural is not None:
        singular, many, key = plural
        return _fill(t.ngettext(singular, many, _count(secret.get(key))), params)
    assert msg is not None
    return _fill(t.gettext(msg), params)


def _phase_over(state: State, event: Event) -> bool:
    """Whether the state is past the turn and phase the event happened in."""
    return (state.get("turn"), state.get("phase")) != (event.get("turn"), event.get("phase"))

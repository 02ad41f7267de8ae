"""Chat lines for production, warnings, reveals and the technology list (issue 21).

Every line here is public unless its name says private; none reads an event's `secret`.
"""

from __future__ import annotations

from typing import Any

from engine.core import N_, Event, State, Translator
from engine.iec.rules import available_techs, scen, tech_cost, tech_mode
from engine.iec.techs import TECH_EFFECTS, TECHS


def _kind(t: Translator, kind: Any) -> str:
    from engine.iec.commands import kind_name

    return kind_name(t, kind)


def deposit_contents(state: State, deposit: str) -> str:
    """ "A 3+, B 4+": each resource with the d6 threshold (IEC-S-5)."""
    dep = scen(state).deposits.get(deposit, {})
    return ", ".join(f"{g} {n}+" for g, n in sorted(dep.items()))


def _extracted(event: Event, t: Translator) -> str | None:
    p = event
    if event.get("bonus"):
        if not event.get("success"):
            return None
        if event.get("to") is None:
            msg = N_(
                "{player}'s mine {cell}: 1 more {resource} (Advanced Mining), lost: no "
                "linked storage has room."
            )
        else:
            msg = N_("{player}'s mine {cell}: 1 more {resource} into {to} (Advanced Mining).")
    elif not event.get("success"):
        msg = N_("{player}'s mine {cell} extracts no {resource} (rolled {roll}, needed {need}+).")
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
    f = {k: v for k, v in event.items() if k != "secret"}
    if kind == "extracted":
        return _extracted(event, t)
    if kind == "mixed":
        return t.gettext(N_("{player}'s mixer {cell} makes 1 {product} into {to}.")).format(**f)
    if kind == "goods_discarded":
        goods = ", ".join(f"{n} {g}" for g, n in sorted(event["goods"].items()))
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
            **f, contents=deposit_contents(state, str(event["deposit"]))
        )
    if kind == "unlinked":
        return t.gettext(
            N_(
                "Warning: {player}'s {kind_name} on {cell} has no storage of theirs within "
                "{r} cm, so it can neither deliver nor draw goods."
            )
        ).format(**f, kind_name=_kind(t, event["kind"]))
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

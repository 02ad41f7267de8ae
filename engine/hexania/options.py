"""Table options: the source's variants (а)–(е) of HEX-23 and the round limit HEX-OPT-LIMIT."""

from __future__ import annotations

from typing import Any

from engine.core import N_, IllegalAction, OptionSpec
from engine.hexania.board import DEFAULT_ROUNDS

YES_NO = ("no", "yes")

# key -> (rule id, variant letter) for the on/off variants.
VARIANTS: dict[str, str] = {
    "split": "HEX-OPT-A",
    "guard": "HEX-OPT-B",
    "bastions": "HEX-OPT-V",
    "birthattack": "HEX-OPT-G",
    "viscous": "HEX-OPT-D",
    "mergebirth": "HEX-OPT-E",
}

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "split", N_("a regroup may split the figure into smaller ones (HEX-OPT-A)"), "no", YES_NO
    ),
    OptionSpec(
        "guard",
        N_(
            "nobody may occupy a player's homeland until one of his pieces was destroyed "
            "(HEX-OPT-B)"
        ),
        "no",
        YES_NO,
    ),
    OptionSpec(
        "bastions", N_("no collapse: figures of mass 12 and more stay (HEX-OPT-V)"), "no", YES_NO
    ),
    OptionSpec(
        "birthattack",
        N_("attack by birth on an occupied homeland cell, cost = enemy mass + 1 (HEX-OPT-G)"),
        "no",
        YES_NO,
    ),
    OptionSpec(
        "viscous",
        N_("viscous movement: starting costs the lines the figure spans, not its mass (HEX-OPT-D)"),
        "no",
        YES_NO,
    ),
    OptionSpec(
        "mergebirth", N_("a birth may merge at once with your figure (HEX-OPT-E)"), "no", YES_NO
    ),
    OptionSpec(
        "rounds",
        N_(
            "round limit, an addition not in the source rules: then most pieces wins, "
            "then bonus points of the last round (off = play to the last player)"
        ),
        str(DEFAULT_ROUNDS),
        ("off", "5", "10", "15", "20", "30", "40", "50", "100"),
    ),
)


def normalize(options: dict[str, Any]) -> dict[str, Any]:
    """Table options (strings) -> the state's option dict (bools and the round limit, 0 = off)."""
    known = {o.key for o in OPTIONS}
    for key in options:
        if key not in known:
            raise IllegalAction("HEX-23", N_("Unknown option {key}."), key=key)
    out: dict[str, Any] = {}
    for key in VARIANTS:
        raw = str(options.get(key, "no")).strip().lower()
        if raw in ("yes", "on", "true", "1"):
            out[key] = True
        elif raw in ("no", "off", "false", "0"):
            out[key] = False
        else:
            raise IllegalAction("HEX-23", N_("Option {key} is yes or no."), key=key)
    raw = str(options.get("rounds", DEFAULT_ROUNDS)).strip().lower()
    if raw in ("off", "no", "none", "0"):
        out["rounds"] = 0
    elif raw.isdigit() and 1 <= int(raw) <= 1000:
        out["rounds"] = int(raw)
    else:
        raise IllegalAction("HEX-2.6", N_("Option rounds is off or a number 1..1000."))
    return out

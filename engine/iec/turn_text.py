"""IEC chat texts of a turn: the prompt (what the acting company can do now, with costs and
odds), a player's own technologies (/techs) and the prompt's buttons. The commands that
read chat words are in commands.py."""

from __future__ import annotations

from typing import Any

from engine.core import N_, Action, EnglishTranslator, State, Translator, join_list, worded
from engine.iec import choices as ch
from engine.iec.legal import legal_actions
from engine.iec.lines import _tech_name, kind_name
from engine.iec.model import acting as rules_acting
from engine.iec.model import placement_error
from engine.iec.rules import (
    PHASE_NAMES,
    alive,
    has_tech,
    intact_modules,
    own,
    param,
    power_candidates,
    power_slots,
    scen,
    score,
    stock,
    tech_cost,
    tech_mode,
)
from engine.iec.rules import result as _result
from engine.iec.rules import score as _score
from engine.iec.techs import TECHS
from engine.iec.together import planned


def _t_fmt(t: Translator, msg: str, **kw: Any) -> str:
    return t.gettext(msg).format(**kw)


def _example(t: Translator, command: str) -> str:
    """A command the prompt's choices make concrete: a newcomer learns its form from it."""
    return _t_fmt(t, N_("For example: {command}"), command=command)


def _kind_word(t: Translator, kind: str) -> str:
    """A building type as /build reads it: the reader's name, of one word or several
    (commands.py `_kind_arg` reads «пусковая установка» whole)."""
    return kind_name(t, kind)


def _more(items: list[Any], shown: int) -> str:
    """What follows a list the prompt cut to its first `shown` items: how many more, " (+12)",
    so that it never hides that there are more (they can still be typed). Not " ...": the
    sentence's own full stop follows ("F3 ....", found playing, 2026-12-04)."""
    return f" (+{len(items) - shown})" if len(items) > shown else ""


def _pct(need: int) -> str:
    return f"{round(100 * max(0, 7 - need) / 6)}%"


def techs_text(state: State, player: str, t: Translator) -> str:
    pl = state["players"].get(player)
    if pl is None:
        return t.gettext("You are not playing.")

    def mode(n: int) -> str:
        if n in pl["revealed"]:
            return t.gettext(N_("revealed"))
        return t.gettext(N_("off") if tech_mode(state, player, n) == "off" else N_("auto"))

    names = join_list(t, (f"{n} {t.gettext(TECHS[n])} ({mode(n)})" for n in pl["techs"])) or "-"
    text = _t_fmt(
        t,
        N_("Your technologies: {names}. Science {s}, next costs {c}."),
        names=names,
        s=pl["science"],
        c=tech_cost(state, player),
    )
    orders = pl["orders"]
    waiting = []
    if orders.get("sweep"):
        waiting.append(f"/sweep {orders['sweep']}")
    if orders.get("peek"):
        waiting.append(f"/peek {orders['peek']}")
    if orders.get("subsidy"):
        waiting.append(f"/subsidy {orders['subsidy']['kind']} {orders['subsidy']['cell']}")
    if waiting:
        text += "\n" + _t_fmt(
            t, N_("Private orders waiting: {orders}."), orders=join_list(t, waiting)
        )
    subsidy = orders.get("subsidy")
    blocked = placement_error(state, subsidy["cell"], subsidy["kind"]) if subsidy else None
    if blocked is not None:  # it waits: say why it cannot land now (found play-testing)
        text += "\n" + _t_fmt(
            t,
            N_("Government Subsidy cannot land on {cell} now: {reason}"),
            cell=subsidy["cell"] if subsidy else "",
            reason=worded(t, blocked.message_key, blocked.params),
        )
    return text


def _goods(st: dict[str, Any]) -> str:
    return " ".join(f"{n}{g}" for g, n in st["goods"].items() if n) or "-"


def _quote(state: State, player: str, t: Translator) -> list[str]:
    """What the actor can do in this phase, with costs and odds."""
    ph = state["phase"]
    lines: list[str] = []
    s = scen(state)
    if ph == 3:
        cands = join_list(t, (b["cell"] for b in power_candidates(state, player)))
        n = power_slots(state, player)
        lines.append(
            t.ngettext(
                "Power {n} building of: {cands} (/power cells, or /done to keep your standing "
                "choice).",
                "Power {n} buildings of: {cands} (/power cells, or /done to keep your standing "
                "choice).",
                n,
            ).format(n=n, cands=cands)
        )
    elif ph == 5:
        cells = ch.lay_cells(state, player)
        pl = state["players"][player]
        lines.append(
            _t_fmt(
                t,
                N_(
                    "Lay 1 real mine (1 AC) and up to 2 fakes on: {cells}. Real mines left: {m}. "
                    "Or /relocate one of your tokens."
                ),
                cells=join_list(t, cells[:20]) + _more(cells, 20),
                m=ch.mine_limit(state, player) - pl["mines_used"],
            )
        )
        if cells:
            lines.append(_example(t, f"/lay {cells[0]}"))
    elif ph == 6:
        sites: list[tuple[str, str]] = []  # (a cell it may prepare, the developer)
        for d in own(state, player, "developer"):
            if d["powered"] and "prepare" not in d["used"]:
                # Only the sites where some building fits now (the rest when none does): on a
                # site the intervals (IEC-S-3) keep every type from, nothing can be built until
                # a building nearby is gone. Preparing one stays legal (IEC-S-18.1).
                cells = ch.prep_cells(state, d)
                cells = [c for c in cells if ch.kinds_for(state, c)] or cells
                lines.append(
                    _t_fmt(
                        t,
                        N_("Developer {d} may prepare one of: {cells} (free)."),
                        d=d["cell"],
                        cells=join_list(t, cells[:24]) + _more(cells, 24),
                    )
                )
                sites += [(cells[0], d["cell"])] if cells else []
        if sites:  # the developer is named only when there are several to choose from
            cell, dev = sites[0]
            lines.append(
                _example(t, f"/prepare {cell} {dev}" if len(sites) > 1 else f"/prepare {cell}")
            )
    elif ph == 7:
        built = ""  # one example for all the developers
        for d in own(state, player, "developer"):
            if not d["powered"]:
                continue
            need = ch.build_threshold(state, d)
            if ch.can_build_attempt(d):
                tg = ch.build_targets(state, d)
                rebuild = t.gettext(N_("rebuild"))
                txt = "; ".join(
                    f"{c} ({'/'.join(kind_name(t, x) for x in k) if k else rebuild})"
                    for c, k in tg[:10]
                ) + _more(tg, 10)
                lines.append(
                    _t_fmt(
                        t,
                        N_(
                            "Developer {d}: {cost} AB per module ({ab} linked), success on {need}+ "
                            "({pct}). Targets: {txt}."
                        ),
                        d=d["cell"],
                        cost=ch.module_cost(state),
                        ab=stock(state, d, "AB"),
                        need=need,
                        pct=_pct(need),
                        txt=txt or "-",
                    )
                )
                if tg and not built:
                    cell, kinds = tg[0]
                    built = (
                        f"/build {cell} {_kind_word(t, kinds[0])}" if kinds else f"/build {cell}"
                    )
            if ch.can_recycle(state, d):
                need = ch.recycle_threshold(state, d)
                lines.append(
                    _t_fmt(
                        t,
                        N_("Or recycle near {d}: 1 AB back on {need}+ ({pct})."),
                        d=d["cell"],
                        need=need,
                        pct=_pct(need),
                    )
                )
        if built:
            lines.append(_example(t, built))
    elif ph == 8:
        index = scen(state).index  # in the map's order, as the buttons (IEC-S-26)
        cells = sorted(
            (tok["cell"] for tok in ch.activatable_tokens(state, player)),
            key=lambda c: index.get(c, -1),
        )
        lines.append(
            _t_fmt(
                t,
                N_("Activate a token: {cells}. A real mine destroys a module on {need}+ ({pct})."),
                cells=join_list(t, cells),
                need=5 - has_tech(state, player, 17),
                pct=_pct(5 - has_tech(state, player, 17)),
            )
        )
        if cells:
            lines.append(_example(t, f"/activate {cells[0]}"))
    elif ph == 9:
        fired = ""  # one example for all the launchers
        for la in own(state, player, "launcher"):
            if la["powered"] and ch.can_fire(state, la):
                fts = ch.fire_targets(state, la)
                txt = join_list(
                    t,
                    (
                        f"{c} {kind_name(t, state['buildings'][c]['kind'])} {thr}+ ({_pct(thr)})"
                        for c, thr in fts[:12]
                    ),
                ) + _more(fts, 12)
                shots = ch.launcher_shots(state, la)
                lines.append(
                    t.ngettext(
                        "Launcher {la}: {shots} shot, 1 AC each ({ac} linked); "
                        "targets: {txt}. At most one module per target.",
                        "Launcher {la}: {shots} shots, 1 AC each ({ac} linked); "
                        "targets: {txt}. At most one module per target.",
                        shots,
                    ).format(la=la["cell"], shots=shots, ac=stock(state, la, "AC"), txt=txt)
                )
                fired = fired or (f"/fire {fts[0][0]} 1" if fts else "")
        if fired:
            lines.append(_example(t, fired))
    elif ph == 10:
        need = ch.transmit_threshold(state)
        lines.append(
            _t_fmt(
                t,
                N_("Transmit 1 BC: success on {need}+ ({pct}) at radiation {r}, +1 VP."),
                need=need,
                pct=_pct(need),
                r=state["radiation"],
            )
        )
        lines.append(_example(t, "/transmit"))
    elif ph == 11:
        need = int(param(state, "lab_threshold"))
        lines.append(
            _t_fmt(
                t,
                N_("Research with 1 BC + 1 AC: +1 science on {need}+ ({pct})."),
                need=need,
                pct=_pct(need),
            )
        )
        lines.append(_example(t, "/research"))
    elif ph == 14 and ch.must_choose_tech(state, player):
        # Only what is accepted: a technology must be chosen (/done is refused, IEC-24).
        lines.append(
            _t_fmt(
                t,
                N_("You must choose a technology (cost {c}, you have {s}): /tech number."),
                c=tech_cost(state, player),
                s=state["players"][player]["science"],
            )
        )
    del s
    return lines


def describe_turn(state: State, player: str | None, t: Translator) -> str:
    if state["over"]:
        return over_text(state, t)
    acting = rules_acting(state)
    together = "actors" in state
    head = _t_fmt(
        t,
        N_(
            "Turn {turn}/{turns}, phase {ph} ({name}), radiation {r}. Everybody decides at "
            "once, in secret; waiting for {actors}."
        )
        if together
        else N_("Turn {turn}/{turns}, phase {ph} ({name}), radiation {r}. Waiting for {actor}."),
        turn=state["turn"],
        turns=param(state, "turns"),
        ph=state["phase"],
        name=t.gettext(PHASE_NAMES[state["phase"]]),
        r=state["radiation"],
        actor=state["actor"],
        actors=join_list(t, acting),
    )
    parts = [head]
    if player is not None and player in acting:
        mine = planned(state, player)  # after his own declarations (rules version 2)
        parts += _quote(mine, player, t)
        if _done_accepted(mine, player):
            parts.append(t.gettext("/done when finished."))
    if player is not None and player in state["players"]:
        stores = "; ".join(f"{st['cell']}: {_goods(st)}" for st in own(state, player, "storage"))
        pl = state["players"][player]
        parts.append(
            _t_fmt(
                t,
                N_("You: {vp} VP, {sci} science. Storages: {stores}."),
                # eliminated: the halved VP he keeps (IEC-S-25), not the VP he had (found
                # play-testing, 2026-12-04: "You: 9 VP" after "9 VP become 4")
                vp=_score(state, player),
                sci=pl["science"],
                stores=stores or "-",
            )
        )
    return "\n".join(parts)


def over_text(state: State, t: Translator) -> str:
    """The result, said once (the game_over event has no line of its own, lines.py): how the
    game ended and every company's place with the figures that decided it."""
    left = alive(state)
    ranking = ranking_text(state, t)
    if len(left) == 1:  # IEC-S-9 (corrections 1.1): the survivor wins
        return _t_fmt(
            t,
            N_("Game over in turn {turn}: only {player}'s company is left. Ranking: {ranking}."),
            turn=state["turn"],
            player=left[0],
            ranking=ranking,
        )
    if not left:  # none left: by halved VP
        return _t_fmt(
            t,
            N_("Game over in turn {turn}: no company is left. Ranking: {ranking}."),
            turn=state["turn"],
            ranking=ranking,
        )
    return _t_fmt(
        t,
        N_("Game over after turn {turn}. Ranking: {ranking}."),
        turn=state["turn"],
        ranking=ranking,
    )


# The figures rules.result compares, in order: survivor first, VP (halved for the eliminated),
# intact modules, science points (IEC-S-9; IEC-S-24 and corrections 1.1).
_SURVIVES, _VP, _MODULES, _SCIENCE = range(4)


def _rank_key(state: State, player: str) -> tuple[int, int, int, int]:
    pl = state["players"][player]
    alive_ = 0 if pl["eliminated"] else 1
    return (alive_, score(state, player), intact_modules(state, player), pl["science"])


def _deciding(keys: list[tuple[int, ...]], i: int, shared: bool) -> int:
    """The last figure compared to place group i against its neighbours: the first figure in
    which it differs from the group above or below (all of them when the place is shared)."""
    if shared:
        return _SCIENCE
    found = _VP
    for j in (i - 1, i + 1):
        if 0 <= j < len(keys):
            first = next((n for n, (a, b) in enumerate(zip(keys[i], keys[j])) if a != b), _SCIENCE)
            found = max(found, first)
    return found


def ranking_text(state: State, t: Translator) -> str:
    """Every company's place with its VP and, where it decided a place, the tie-break: "1. bo:
    12 VP (24 intact modules); 2. ann: 12 VP (22 intact modules); 3. cyd: 4 VP (eliminated,
    halved from 9 VP)". Shared places repeat the number."""
    groups = _result(state)
    keys: list[tuple[int, ...]] = [_rank_key(state, g[0]) for g in groups]
    parts: list[str] = []
    place = 1
    for i, group in enumerate(groups):
        deciding = _deciding(keys, i, len(group) > 1)
        for player in group:
            pl = state["players"][player]
            details: list[str] = []
            if pl["eliminated"]:
                # IEC-S-24: an eliminated company keeps half its VP and ranks below survivors;
                # its buildings are gone (0 modules), so only science can separate two of them.
                details.append(
                    _t_fmt(t, N_("eliminated, halved from {vp} VP"), vp=pl["vp"])
                    if pl["vp"]
                    else t.gettext(N_("company eliminated"))
                )
            elif deciding >= _MODULES:
                n = intact_modules(state, player)
                details.append(t.ngettext("{n} intact module", "{n} intact modules", n).format(n=n))
            if deciding >= _SCIENCE:
                n = pl["science"]
                details.append(t.ngettext("{n} science point", "{n} science points", n).format(n=n))
            vp = score(state, player)
            parts.append(
                _t_fmt(
                    t,
                    N_("{place}. {player}: {vp} VP ({details})"),
                    place=place,
                    player=player,
                    vp=vp,
                    details=", ".join(details),
                )
                if details
                else _t_fmt(t, N_("{place}. {player}: {vp} VP"), place=place, player=player, vp=vp)
            )
        place += len(group)
    return "; ".join(parts)


def _done_accepted(state: State, player: str) -> bool:
    return not (state["phase"] == 14 and ch.must_choose_tech(state, player))


_BUTTON_TEXT = {
    "transmit": N_("Transmit {cell}"),
    "research": N_("Research {cell}"),
    "activate": N_("Activate {cell}"),
    "sweep": N_("Sweep {cell}"),
    "peek": N_("Peek {area}"),
    "fire": N_("Fire {cell} x{n}"),
}
# A missile button where the buttons offer more than one launcher: which one fires.
_FIRE_FROM = N_("Fire {cell} x{n} from {launcher}")
# IEC-TECH-10 (two targets a turn): one missile at each of two cells, a button per pair.
_FIRE_TWO = N_("Fire {cell} + {other}")
_FIRE_TWO_FROM = N_("Fire {cell} + {other} from {launcher}")

# The most choices offered as buttons, Done aside: with it, 20 buttons, the table's limit
# (bot/context.py MAX_BUTTONS: 5 rows of 4, as many rows as Discord shows). Room for every
# token a company may hold (Chat Standard: M = 4 placements of 3 tokens, 6 with Total Mine War:
# 18) and every technology (19). It was 5, and a sixth token could only be typed (found
# playing, 2026-12: "[Activate F6] [F7] [F8] [D4] [C5] [Done]", no D6).
MAX_CHOICES = 19


# The buttons that name one of the presser's own buildings or tokens (the one to act with).
_OWN_THING = ("transmit", "research", "activate", "fire")
# TRANSLATORS: a button's label ("Transmit G3") and the player whose building it names.
_OWNER_LABEL = N_("{action} ({player})")


def buttons(state: State, player: str, t: Translator | None = None) -> list[tuple[str, str]]:
    """Small choices as (label, command); labels are translated when `t` is given. Where
    several companies are asked at once, the table posts all their buttons in one group
    message: a button naming a building of his then names him too ("Transmit G3 (alice)"),
    so nobody takes another's for his own."""
    if player not in rules_acting(state):
        return []
    shared = len(rules_acting(state)) > 1
    # Buttons are posted in the group (corrections 1.1, "No side channel through prompts"):
    # no unrevealed technology may shape them, nor, in a phase declared at once (rules
    # version 2), his secret declarations: they offer what was open when the phase began (a
    # move already declared is then refused to him alone).
    if "actors" in state:
        state = {**state, "pending": {}}
    moves = _with_target_pairs(_by_cell(state, legal_actions(state, player, public=True)))
    state = planned(state, player, public=True)
    translator: Translator = t if t is not None else EnglishTranslator()
    launchers = {a["launcher"] for a in moves if a["type"] == "fire" and len(a["targets"]) == 1}
    out: list[tuple[str, str]] = []
    for a in moves:
        label_cmd = _as_command(a, translator, len(launchers) > 1)
        if label_cmd and shared and a["type"] in _OWN_THING:
            label, command = label_cmd
            label_cmd = (_t_fmt(translator, _OWNER_LABEL, action=label, player=player), command)
        if label_cmd and label_cmd not in out and a["type"] != "done":
            out.append(label_cmd)
        if len(out) >= MAX_CHOICES:
            break
    if _done_accepted(state, player):
        out.append((translator.gettext(N_("Done")), "/done"))
    return out


def _by_cell(state: State, moves: list[Action]) -> list[Action]:
    """The moves with the token activations in the map's cell order: never in an order that
    could tell a real token from a fake (IEC-S-26), and where a player looks for them."""
    index = scen(state).index
    tokens = sorted(
        (a for a in moves if a["type"] == "activate"), key=lambda a: index.get(a["cell"], -1)
    )
    return [a for a in moves if a["type"] != "activate"] + tokens


def _with_target_pairs(moves: list[Action]) -> list[Action]:
    """The moves, and after them every pair of one launcher's targets where the moves offer
    that launcher a two-target shot (IEC-TECH-10): `legal_actions` lists one pair as a
    sample, so the buttons name the others, one missile at each."""
    pairs: list[Action] = []
    for a in moves:
        if a["type"] != "fire" or len(a["targets"]) != 2:
            continue
        la = a["launcher"]
        cells = list(
            dict.fromkeys(
                c
                for m in moves
                if m["type"] == "fire" and m["launcher"] == la and len(m["targets"]) == 1
                for c in m["targets"]
            )
        )
        pairs += [
            {"type": "fire", "launcher": la, "targets": {c: 1, d: 1}}
            for i, c in enumerate(cells)
            for d in cells[i + 1 :]
        ]
    if not pairs:
        return moves
    return [a for a in moves if not (a["type"] == "fire" and len(a["targets"]) == 2)] + pairs


def _as_command(a: Action, t: Translator, launcher: bool = False) -> tuple[str, str] | None:
    kind = a["type"]
    if kind in ("transmit", "research"):
        cell = a["building"]
        return (_t_fmt(t, _BUTTON_TEXT[kind], cell=cell), f"/{kind} {cell}")
    if kind == "tech":
        return (f"{a['tech']} {_tech_name(t, a['tech'])}", f"/tech {a['tech']}")
    if kind in ("activate", "sweep"):
        return (_t_fmt(t, _BUTTON_TEXT[kind], cell=a["cell"]), f"/{kind} {a['cell']}")
    if kind == "fire" and len(a["targets"]) == 1:
        ((c, n),) = a["targets"].items()
        la = a["launcher"]
        label = (
            _t_fmt(t, _FIRE_FROM, cell=c, n=n, launcher=la)
            if launcher
            else _t_fmt(t, _BUTTON_TEXT["fire"], cell=c, n=n)
        )
        return (label, f"/fire {la} {c} {n}")
    if kind == "fire" and len(a["targets"]) == 2:
        (c, _), (d, _) = a["targets"].items()
        la = a["launcher"]
        label = (
            _t_fmt(t, _FIRE_TWO_FROM, cell=c, other=d, launcher=la)
            if launcher
            else _t_fmt(t, _FIRE_TWO, cell=c, other=d)
        )
        return (label, f"/fire {la} {c} 1 {d} 1")
    if kind == "peek":
        return (_t_fmt(t, _BUTTON_TEXT["peek"], area=a["area"]), f"/peek {a['area']}")
    return None

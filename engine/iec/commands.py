"""IEC chat layer: commands -> actions, turn prompts with quotes (costs and odds), event lines."""

from __future__ import annotations

from typing import Any

from engine.core import (
    N_,
    Action,
    ArgSpec,
    CommandSpec,
    Event,
    ParseError,
    Reply,
    State,
    Translator,
)
from engine.iec import choices as ch
from engine.iec import lines as iec_lines
from engine.iec.lines import KIND_NAMES as KIND_NAMES  # re-exported: chat names
from engine.iec.lines import _tech_name, kind_name
from engine.iec.lines import describe_event as describe_event
from engine.iec.lines import describe_private_event as describe_private_event
from engine.iec.model import acting as rules_acting
from engine.iec.options import OPTIONS as OPTIONS  # re-exported: the game's options
from engine.iec.rules import (
    PHASE_NAMES,
    has_tech,
    own,
    param,
    power_candidates,
    power_slots,
    scen,
    stock,
    tech_cost,
    tech_mode,
)
from engine.iec.scenario import GOODS, KINDS, RECIPES, load
from engine.iec.techs import TECHS
from engine.iec.together import planned

_CELL = ArgSpec("cell", "cell", N_("a cell such as E5"))
COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "power",
        N_("Buildings to power (besides reactors); kept for later turns"),
        (ArgSpec("buildings", "cell", N_("cells"), required=False, repeated=True),),
        ("/power C1 E3 E5",),
    ),
    CommandSpec(
        "give",
        N_("Give Intergrid power to a player every turn (0 stops)"),
        (ArgSpec("player", "player"), ArgSpec("count", "int")),
        ("/give bob 2",),
    ),
    CommandSpec(
        "extract",
        N_("Standing choice of the resource a mine extracts"),
        (ArgSpec("mine", "cell"), ArgSpec("resource", "choice", choices=("A", "B", "C"))),
        ("/extract A1 B",),
    ),
    CommandSpec(
        "mix",
        N_("Standing recipe priority of your mixers"),
        (ArgSpec("recipes", "choice", choices=("AB", "BC", "AC", "none"), repeated=True),),
        ("/mix BC AB",),
    ),
    CommandSpec(
        "transfer",
        N_("Standing transfers between storages: from to good count ..."),
        (ArgSpec("moves", "rest", N_("groups of: from to good count, or none")),),
        ("/transfer C1 E3 A 1", "/transfer none"),
    ),
    CommandSpec(
        "deliver",
        N_("Standing choice of the storages a mine, mixer or developer delivers to, best first"),
        (
            ArgSpec("building", "cell"),
            ArgSpec("storages", "cell", N_("storage cells, or none"), repeated=True),
        ),
        ("/deliver C3 E3 C1", "/deliver C3 none"),
    ),
    CommandSpec(
        "destroy",
        N_("Blow up one of your buildings at the start of next turn"),
        (_CELL, ArgSpec("cancel", "choice", required=False, choices=("cancel",))),
        ("/destroy G3",),
    ),
    CommandSpec(
        "flex",
        N_("Flexible Order: your place in a phase (standing)"),
        (
            ArgSpec("phase", "int"),
            ArgSpec("position", "choice", choices=("first", "last", "unchanged")),
        ),
        ("/flex 9 last",),
    ),
    CommandSpec(
        "antimissile",
        N_("Anti-Missile System on or off (standing)"),
        (ArgSpec("on", "choice", choices=("on", "off")),),
        ("/antimissile on",),
    ),
    CommandSpec(
        "use",
        N_("Use a technology: now (reveals it), auto (when it first acts) or off"),
        (
            ArgSpec("tech", "tech"),
            ArgSpec("mode", "choice", required=False, choices=("now", "auto", "off")),
        ),
        ("/use 13", "/use 8 off"),
    ),
    CommandSpec(
        "sweep",
        N_("Minesweepers: clear all tokens from a cell in the next phase 4 (private order)"),
        (ArgSpec("cell", "cell", N_("a cell such as E5, or none")),),
        ("/sweep H7", "/sweep none"),
    ),
    CommandSpec(
        "lay",
        N_("Lay tokens: the real mine first (A+B for two), then fakes [from storage]"),
        (
            ArgSpec("real", "cell"),
            ArgSpec("fakes", "cell", required=False, repeated=True),
            ArgSpec(
                "from", "rest", N_("from <storage>: which storage pays the AC"), required=False
            ),
        ),
        ("/lay H7 H8 I8", "/lay H7 from E3"),
    ),
    CommandSpec(
        "relocate",
        N_("Move one of your tokens instead of laying"),
        (ArgSpec("from", "cell"), ArgSpec("to", "cell")),
        ("/relocate H7 H9",),
    ),
    CommandSpec(
        "prepare",
        N_("Prepare a building site near a developer"),
        (_CELL, ArgSpec("developer", "cell", required=False)),
        ("/prepare G6",),
    ),
    CommandSpec(
        "build",
        N_("Build a module (2 AB): new building on a site, or rebuild"),
        (
            _CELL,
            ArgSpec("kind", "kind", required=False),
            ArgSpec("developer", "cell", required=False),
            ArgSpec("from", "rest", N_("from <storage>: where the AB is taken"), required=False),
        ),
        ("/build G6 mine", "/build E3", "/build G6 storage from E3"),
    ),
    CommandSpec(
        "recycle",
        N_("Recycling: destroy a module and recover 1 AB"),
        (_CELL, ArgSpec("developer", "cell", required=False)),
        ("/recycle F7",),
    ),
    CommandSpec("activate", N_("Activate your token on a cell"), (_CELL,), ("/activate H7",)),
    CommandSpec(
        "fire",
        N_("Fire a launcher: target [missiles] [target missiles] [launcher] [from storage]"),
        (ArgSpec("targets", "rest"),),
        ("/fire R3 2", "/fire I5 R3 1 T12 1", "/fire R3 2 from I7"),
    ),
    CommandSpec(
        "transmit",
        N_("Launch 1 BC to Earth from a transmitter"),
        (
            ArgSpec("transmitter", "cell", required=False),
            ArgSpec("from", "rest", N_("from <storage>: where the BC is taken"), required=False),
        ),
        ("/transmit", "/transmit G3 from E3"),
    ),
    CommandSpec(
        "research",
        N_("Laboratory: 1 BC + 1 AC for a science point"),
        (
            ArgSpec("laboratory", "cell", required=False),
            ArgSpec(
                "from", "rest", N_("from <storage>: where the goods are taken"), required=False
            ),
        ),
        ("/research", "/research G1 from E3"),
    ),
    CommandSpec(
        "tech",
        N_("List the technologies, or choose one (secret)"),
        (ArgSpec("tech", "tech", required=False),),
        ("/tech", "/tech 8"),
    ),
    CommandSpec(
        "peek",
        N_("Remote Drilling: look at an area's two deposits in the next phase 14 (private order)"),
        (ArgSpec("area", "area", N_("an area, or none")),),
        ("/peek II-N", "/peek none"),
    ),
    CommandSpec(
        "subsidy",
        N_("Government Subsidy: 2 modules of a new building in phase 14 (private order)"),
        (
            ArgSpec("kind", "kind", N_("a building type, or none")),
            ArgSpec("cell", "cell", required=False),
        ),
        ("/subsidy transmitter J13", "/subsidy none"),
    ),
    CommandSpec("done", N_("Nothing more in this phase"), (), ("/done",)),
    CommandSpec("status", N_("What happens now and what you can do"), (), ("/status",), "info"),
    CommandSpec(
        "techs", N_("Your technologies and the next cost (private)"), (), ("/techs",), "info"
    ),
)


def _t_fmt(t: Translator, msg: str, **kw: Any) -> str:
    return t.gettext(msg).format(**kw)


def _pct(need: int) -> str:
    return f"{round(100 * max(0, 7 - need) / 6)}%"


def _up(x: str) -> str:
    return x.strip().upper()


def _cell_arg(state: State, x: str) -> str:
    c = _up(x)
    if not scen(state).is_cell(c):
        raise ParseError(N_("{value} is not a cell of the map."), value=x)
    return c


def _kind_arg(x: str) -> str:
    k = x.strip().lower()
    for kind in KINDS:
        if kind.startswith(k) and len(k) >= 2:
            return kind
    raise ParseError(N_("Unknown building type {value}."), value=x)


def _int_arg(x: str) -> int:
    try:
        return int(x)
    except ValueError:
        raise ParseError(N_("{value} is not a number."), value=x) from None


def _need(args: list[str], n: int) -> None:
    if len(args) < n:
        raise ParseError(N_("Missing argument."))


def _pick_dev(state: State, player: str, cell: str, explicit: str | None, tag: str) -> str:
    if explicit:
        return explicit
    s = scen(state)
    r = ch.dev_range(state)
    for d in own(state, player, "developer"):
        if d["powered"] and s.within(d["cell"], cell, r) and tag not in d["used"]:
            return str(d["cell"])
    for d in own(state, player, "developer"):
        if s.within(d["cell"], cell, r):
            return str(d["cell"])
    raise ParseError(N_("None of your developers reaches {cell}."), cell=cell)


def _split_from(state: State, args: list[str]) -> tuple[list[str], str | None]:
    """`... from E3`: the storage the goods are drawn from first (IEC-S-10.5)."""
    for i, a in enumerate(args):
        if a.lower() == "from":
            if i + 1 >= len(args):
                raise ParseError(N_("Name a storage after from."))
            return args[:i] + args[i + 2 :], _cell_arg(state, args[i + 1])
    return args, None


def parse(
    state: State, player: str, name: str, args: list[str], t: Translator | None = None
) -> Action | list[Action] | Reply:
    """Chat words -> action(s), or a Reply; the Reply's text is in `t`'s language."""
    name = name.lower().lstrip("/")
    args, source = _split_from(state, list(args))
    if source is not None and name not in ("build", "fire", "transmit", "research", "lay"):
        raise ParseError(N_("Only build, fire, transmit, research and lay take from."))
    act = _parse(state, player, name, args, t if t is not None else _English())
    if source is not None and isinstance(act, dict):
        act["from"] = source
    return act


def _parse(
    state: State, player: str, name: str, args: list[str], t: Translator
) -> Action | list[Action] | Reply:
    if name == "pass":
        name = "done"
    if name == "status":
        return Reply(describe_turn(state, player, t))
    if name == "techs":
        return Reply(_techs_text(state, player, t), private=True)
    if name == "done":
        return {"type": "done"}
    if name == "power":
        return {"type": "power", "buildings": [_cell_arg(state, a) for a in args]}
    if name == "give":
        _need(args, 2)
        who = next((p for p in state["players"] if p.lower() == args[0].lower()), args[0])
        return {"type": "give", "to": who, "count": _int_arg(args[1])}
    if name == "extract":
        _need(args, 2)
        return {"type": "extract", "mine": _cell_arg(state, args[0]), "resource": _up(args[1])}
    if name == "mix":
        recipes = [_up(a) for a in args if a.lower() != "none"]
        return {"type": "mix", "recipes": recipes}
    if name == "transfer":
        if not args or args[0].lower() == "none":
            return {"type": "transfers", "moves": []}
        if len(args) % 4:
            raise ParseError(N_("Transfers come in groups of four: from to good count."))
        moves = [
            {
                "from": _cell_arg(state, args[i]),
                "to": _cell_arg(state, args[i + 1]),
                "good": _up(args[i + 2]),
                "n": _int_arg(args[i + 3]),
            }
            for i in range(0, len(args), 4)
        ]
        return {"type": "transfers", "moves": moves}
    if name == "deliver":
        _need(args, 2)
        stores = [] if args[1].lower() == "none" else [_cell_arg(state, a) for a in args[1:]]
        return {"type": "deliver", "building": _cell_arg(state, args[0]), "storages": stores}
    if name == "destroy":
        _need(args, 1)
        act: Action = {"type": "destroy", "cell": _cell_arg(state, args[0])}
        if len(args) > 1 and args[1].lower() == "cancel":
            act["cancel"] = True
        return act
    if name == "flex":
        _need(args, 2)
        return {"type": "flex", "phase": _int_arg(args[0]), "position": args[1].lower()}
    if name == "antimissile":
        _need(args, 1)
        return {"type": "antimissile", "on": args[0].lower() in ("on", "yes", "1")}
    if name == "sweep" and args and args[0].lower() == "none":
        return {"type": "sweep", "cell": None}
    if name in ("sweep", "activate"):
        _need(args, 1)
        return {"type": name, "cell": _cell_arg(state, args[0])}
    if name == "lay":
        _need(args, 1)
        real = [_cell_arg(state, c) for c in args[0].split("+")]
        return {"type": "lay", "real": real, "fake": [_cell_arg(state, a) for a in args[1:]]}
    if name == "relocate":
        _need(args, 2)
        return {
            "type": "relocate",
            "from": _cell_arg(state, args[0]),
            "to": _cell_arg(state, args[1]),
        }
    if name == "prepare":
        _need(args, 1)
        cell = _cell_arg(state, args[0])
        dev = _cell_arg(state, args[1]) if len(args) > 1 else None
        return {
            "type": "prepare",
            "cell": cell,
            "developer": _pick_dev(state, player, cell, dev, "prepare"),
        }
    if name == "build":
        _need(args, 1)
        cell = _cell_arg(state, args[0])
        build: Action = {"type": "build", "cell": cell}
        dev = None
        for a in args[1:]:
            if a.isdigit():
                build["deposit"] = _int_arg(a) - 1
            elif scen(state).is_cell(_up(a)):
                dev = _up(a)
            else:
                build["kind"] = _kind_arg(a)
        build["developer"] = _pick_dev(state, player, cell, dev, "build")
        return build
    if name == "recycle":
        _need(args, 1)
        cell = _cell_arg(state, args[0])
        dev = _cell_arg(state, args[1]) if len(args) > 1 else None
        return {
            "type": "recycle",
            "target": cell,
            "developer": _pick_dev(state, player, cell, dev, "recycle"),
        }
    if name == "fire":
        return _parse_fire(state, player, args)
    if name in ("transmit", "research"):
        act = {"type": name}
        if args:
            act["building"] = _cell_arg(state, args[0])
        return act
    if name == "tech":
        if not args:
            return Reply(iec_lines.tech_list(state, player, t), private=True)
        return {"type": "tech", "tech": _tech_arg(" ".join(args))}
    if name == "use":
        _need(args, 1)
        modes = ("now", "auto", "off")
        has_mode = len(args) > 1 and args[-1].lower() in modes
        mode = args[-1].lower() if has_mode else "now"
        words = args[:-1] if has_mode else args
        return {"type": "use", "tech": _tech_arg(" ".join(words)), "mode": mode}
    if name == "peek":
        _need(args, 1)
        if args[0].lower() == "none":
            return {"type": "peek", "area": None}
        area = next((a for a in state["areas"] if a.lower() == args[0].lower()), args[0])
        return {"type": "peek", "area": area}
    if name == "subsidy":
        _need(args, 1)
        if args[0].lower() == "none":
            return {"type": "subsidy", "kind": None, "cell": None}
        _need(args, 2)
        return {"type": "subsidy", "kind": _kind_arg(args[0]), "cell": _cell_arg(state, args[1])}
    raise ParseError(N_("Unknown command {value}."), value=name)


def _tech_arg(words: str) -> int:
    key = words.strip().lower()
    if key.isdigit():
        return int(key)
    for n, tname in TECHS.items():
        if key and tname.lower().startswith(key):
            return n
    raise ParseError(N_("Unknown technology {value}."), value=key)


def _parse_fire(state: State, player: str, args: list[str]) -> Action:
    launcher: str | None = None
    targets: dict[str, int] = {}
    last: str | None = None
    for a in args:
        if a.isdigit():
            if last is None:
                raise ParseError(N_("Name a target before the number of missiles."))
            targets[last] = _int_arg(a)
            continue
        c = _cell_arg(state, a)
        b = state["buildings"].get(c)
        if b is not None and b["owner"] == player and b["kind"] == "launcher":
            launcher = c
        else:
            targets[c] = 1
            last = c
    if not targets:
        raise ParseError(N_("Name a target."))
    if launcher is None:
        for la in own(state, player, "launcher"):
            if (
                la["powered"]
                and "fire" not in la["used"]
                and all(ch.hit_threshold(state, la, c) for c in targets)
            ):
                launcher = str(la["cell"])
                break
    if launcher is None:
        raise ParseError(N_("None of your launchers can fire at that."))
    return {"type": "fire", "launcher": launcher, "targets": targets}


class _English:
    def gettext(self, message: str) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural


def _techs_text(state: State, player: str, t: Translator) -> str:
    pl = state["players"].get(player)
    if pl is None:
        return t.gettext("You are not playing.")

    def mode(n: int) -> str:
        if n in pl["revealed"]:
            return t.gettext(N_("revealed"))
        return t.gettext(N_("off") if tech_mode(state, player, n) == "off" else N_("auto"))

    names = ", ".join(f"{n} {t.gettext(TECHS[n])} ({mode(n)})" for n in pl["techs"]) or "-"
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
        text += "\n" + _t_fmt(t, N_("Private orders waiting: {orders}."), orders=", ".join(waiting))
    return text


def _goods(st: dict[str, Any]) -> str:
    return " ".join(f"{n}{g}" for g, n in st["goods"].items() if n) or "-"


def _quote(state: State, player: str, t: Translator) -> list[str]:
    """What the actor can do in this phase, with costs and odds."""
    ph = state["phase"]
    lines: list[str] = []
    s = scen(state)
    if ph == 3:
        cands = ", ".join(b["cell"] for b in power_candidates(state, player))
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
                cells=", ".join(cells[:20]) + (" ..." if len(cells) > 20 else ""),
                m=ch.mine_limit(state, player) - pl["mines_used"],
            )
        )
    elif ph == 6:
        for d in own(state, player, "developer"):
            if d["powered"] and "prepare" not in d["used"]:
                cells = ch.prep_cells(state, d)
                lines.append(
                    _t_fmt(
                        t,
                        N_("Developer {d} may prepare one of: {cells} (free)."),
                        d=d["cell"],
                        cells=", ".join(cells[:24]),
                    )
                )
    elif ph == 7:
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
                )
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
    elif ph == 8:
        cells = [tok["cell"] for tok in ch.own_tokens(state, player)]
        lines.append(
            _t_fmt(
                t,
                N_("Activate a token: {cells}. A real mine destroys a module on {need}+ ({pct})."),
                cells=", ".join(cells),
                need=5 - has_tech(state, player, 17),
                pct=_pct(5 - has_tech(state, player, 17)),
            )
        )
    elif ph == 9:
        for la in own(state, player, "launcher"):
            if la["powered"] and ch.can_fire(state, la):
                fts = ch.fire_targets(state, la)
                txt = ", ".join(
                    f"{c} {kind_name(t, state['buildings'][c]['kind'])} {thr}+ ({_pct(thr)})"
                    for c, thr in fts[:12]
                )
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
        ranking = " > ".join(", ".join(g) for g in _result(state))
        return _t_fmt(t, N_("Game over. Ranking: {ranking}."), ranking=ranking)
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
        actors=", ".join(acting),
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
                vp=pl["vp"],
                sci=pl["science"],
                stores=stores or "-",
            )
        )
    return "\n".join(parts)


def _done_accepted(state: State, player: str) -> bool:
    return not (state["phase"] == 14 and ch.must_choose_tech(state, player))


def _result(state: State) -> list[list[str]]:
    from engine.iec.rules import result

    return result(state)


_BUTTON_TEXT = {
    "transmit": N_("Transmit {cell}"),
    "research": N_("Research {cell}"),
    "activate": N_("Activate {cell}"),
    "sweep": N_("Sweep {cell}"),
    "peek": N_("Peek {area}"),
    "fire": N_("Fire {cell} x{n}"),
}


def buttons(state: State, player: str, t: Translator | None = None) -> list[tuple[str, str]]:
    """Small choices as (label, command); labels are translated when `t` is given."""
    if player not in rules_acting(state):
        return []
    from engine.iec.actions import legal_actions

    # Buttons are posted in the group (corrections 1.1, "No side channel through prompts"):
    # no unrevealed technology may shape them, nor, in a phase declared at once (rules
    # version 2), his secret declarations: they offer what was open when the phase began (a
    # move already declared is then refused to him alone).
    if "actors" in state:
        state = {**state, "pending": {}}
    moves = legal_actions(state, player, public=True)
    state = planned(state, player, public=True)
    translator: Translator = t if t is not None else _English()
    out: list[tuple[str, str]] = []
    for a in moves:
        label_cmd = _as_command(a, translator)
        if label_cmd and label_cmd not in out and a["type"] != "done":
            out.append(label_cmd)
        if len(out) >= 5:
            break
    if _done_accepted(state, player):
        out.append((translator.gettext(N_("Done")), "/done"))
    return out


def _as_command(a: Action, t: Translator) -> tuple[str, str] | None:
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
        return (_t_fmt(t, _BUTTON_TEXT["fire"], cell=c, n=n), f"/fire {a['launcher']} {c} {n}")
    if kind == "peek":
        return (_t_fmt(t, _BUTTON_TEXT["peek"], area=a["area"]), f"/peek {a['area']}")
    return None


def complete(state: State | None, player: str | None, kind: str, prefix: str) -> list[str]:
    p = prefix.strip().lower()
    if kind == "cell":
        s = scen(state) if state is not None else load("chat_standard")
        cands = s.cells
    elif kind == "kind":
        cands = list(KINDS)
    elif kind == "tech":
        cands = [f"{n} {name}" for n, name in TECHS.items()]
    elif kind == "area":
        cands = sorted(state["areas"]) if state is not None else []
    elif kind == "resource":
        cands = list(GOODS)
    elif kind == "recipe":
        cands = list(RECIPES)
    elif kind == "player":
        cands = list(state["seats"]) if state is not None else []
    else:
        return []
    return [c for c in cands if c.lower().startswith(p)][:25]


def is_picture_event(event: Event) -> bool:
    return event.get("type") in ("turn_ended", "game_over")


def undoable(events: list[Event]) -> bool:
    """False after any die roll or reveal."""
    return not any(e.get("rolled") or e.get("revealed") for e in events)

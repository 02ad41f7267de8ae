"""Benchmark the pictures of every game: render + PNG encode time per picture set, PNG sizes.

    .venv/bin/python bench/render.py [--rounds 2] [--save-docs]

Plays bot games with the real engines and renders what the bot sends: Power Grid and its
alternative rules at the start and after every phase (Germany with 4 players, USA with 6),
Hexania and IEC every few moves. Each call is `render_set(view, viewer, previous=...)`, the
whole set (map parts and panel), `--rounds` times (the first from cold caches). Times are the
process's CPU time (`time.process_time`), so other work on a shared machine does not count;
wall-clock figures are printed beside them. Goals: p99 at most 60 ms per set and every PNG at
most 200 KB. The last line reads
`render: powergrid p99 N ms max K KB; powergrid_alt …; hexania …; iec …`.
`--save-docs` writes the reference pictures in docs/ (README's pictures section shows them).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.i18n import translator  # noqa: E402
from engine.core.rng import Rng, new_rng_state  # noqa: E402

NAMES = ["alice", "Борис", "carol", "Dörte", "eve", "frank"]


def play(
    game: Any,
    players: list[str],
    options: dict[str, Any],
    seed: int,
    every: Callable[[list[dict[str, Any]], int], bool],
    viewer: Callable[[int], str | None],
) -> list[tuple[Any, str | None]]:
    """(state, viewer) snapshots of a bot game: at the start, whenever `every` says, at the end."""
    import copy

    state = game.setup(players, options, seed)
    rng = Rng(new_rng_state(seed))
    # the game's fast heuristic bot: the searching `strong` bot (2 s a decision) would make
    # the benchmark measure thinking, and `rush` (IEC) plays a single idea
    kind = next(k for k in game.bots if k not in ("random", "strong", "rush"))
    bot = game.bots[kind]
    out = [(copy.deepcopy(state), viewer(0))]
    moves = 0
    while not game.is_over(state) and moves < 5000:
        player = game.current_players(state)[0]
        _, events = game.apply(state, player, bot(state, player, rng))
        moves += 1
        if every(events, moves):
            out.append((copy.deepcopy(state), viewer(moves)))
    out.append((copy.deepcopy(state), None))
    return out


def phase_ended(events: list[dict[str, Any]], _moves: int) -> bool:
    return any(e["type"] == "phase_ended" for e in events)


def cases() -> dict[str, list[tuple[Any, list[tuple[Any, str | None]]]]]:
    from engine.hexania import GAME as HEX
    from engine.iec import GAME as IEC
    from engine.powergrid import GAME as PG
    from engine.powergrid_alt import GAME as ALT

    def public(_m: int) -> str | None:
        return None

    return {
        "powergrid": [
            (
                PG,
                play(
                    PG, NAMES[:4], {"map": "germany", "regions": "choose"}, 1, phase_ended, public
                ),
            ),
            (PG, play(PG, NAMES[:6], {"map": "usa", "regions": "choose"}, 2, phase_ended, public)),
        ],
        "powergrid_alt": [
            (ALT, play(ALT, NAMES[:4], {"map": "germany"}, 3, phase_ended, public)),
            (ALT, play(ALT, NAMES[:3], {"map": "usa"}, 4, phase_ended, public)),
        ],
        "hexania": [
            (HEX, play(HEX, NAMES[:6], {}, 5, lambda _e, m: m % 4 == 0, public)),
            (HEX, play(HEX, NAMES[:3], {}, 6, lambda _e, m: m % 4 == 0, public)),
        ],
        "iec": [
            (IEC, play(IEC, NAMES[:4], {}, 7, lambda _e, m: m % 12 == 0, lambda m: NAMES[m % 4])),
        ],
    }


def clear_caches() -> None:
    from engine.powergrid import render as pg

    pg.clear_caches()


def pct(values: list[float], p: int) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round((len(s) - 1) * p / 100))]


def save_docs(all_cases: dict[str, list[tuple[Any, list[tuple[Any, str | None]]]]]) -> None:
    """One set per game about 60 % through its first game (English), and the Power Grid panel
    in Russian, Traditional Chinese and Polish."""
    docs = ROOT / "docs"
    for old in docs.glob("*.png"):
        old.unlink()
    for name, games in all_cases.items():
        game, snaps = games[0]
        i = max(1, int(len(snaps) * 0.6))
        state, viewer = snaps[i]
        pics = game.render_set(state, viewer, previous=snaps[i - 1][0])
        for k, pic in enumerate(pics, 1):
            out = docs / f"{name}-{k}.png"
            out.write_bytes(pic.png)
            print(f"wrote {out.relative_to(ROOT)}: {pic.caption}")
        if name == "powergrid":
            for lang in ("ru", "zh_Hant", "pl"):
                pics = game.render_set(state, viewer, translator(lang), snaps[i - 1][0])
                out = docs / f"{name}-{lang}-{len(pics)}.png"
                out.write_bytes(pics[-1].png)
                print(f"wrote {out.relative_to(ROOT)}: {pics[0].caption}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--save-docs", action="store_true")
    args = ap.parse_args()
    all_cases = cases()
    if args.save_docs:
        save_docs(all_cases)
    summary = []
    for name, games in all_cases.items():
        times: list[float] = []
        walls: list[float] = []
        sizes: list[int] = []
        count = 0
        for game, snaps in games:
            clear_caches()  # each game starts from a cold process: its map is not cached yet
            views = [(game.view(s, v), v) for s, v in snaps]
            render_set = _render_set_of(name)
            for _ in range(args.rounds):
                previous = None
                for view, viewer in views:
                    t0, c0 = time.perf_counter(), time.process_time()
                    pics = render_set(view, viewer, previous=previous)
                    times.append((time.process_time() - c0) * 1000)
                    walls.append((time.perf_counter() - t0) * 1000)
                    sizes += [len(p.png) for p in pics]
                    count += len(pics)
                    previous = view
        print(
            f"{name}: {len(times)} sets, {count} pictures; p50 {pct(times, 50):.0f} ms, "
            f"p99 {pct(times, 99):.0f} ms, max {max(times):.0f} ms (the first, cold); "
            f"wall clock p50 {pct(walls, 50):.0f} ms, p99 {pct(walls, 99):.0f} ms; "
            f"largest PNG {max(sizes) // 1024} KB"
        )
        summary.append(f"{name} p99 {pct(times, 99):.0f} ms max {max(sizes) // 1024} KB")
    print("render: " + "; ".join(summary))


def _render_set_of(name: str) -> Callable[..., Any]:
    import importlib

    return importlib.import_module(f"engine.{name}.render").render_set  # type: ignore[no-any-return]


if __name__ == "__main__":
    main()

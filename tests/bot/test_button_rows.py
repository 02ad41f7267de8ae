"""The prompt's buttons in rows: every IEC token a player may activate reaches him as a button
(found play-testing, 2026-12: a sixth token had none), in rows the platforms show (Discord:
at most 5 rows of at most 5 buttons), and a prompt of at most 12 buttons, every other game's,
laid out as before (rows of 4)."""

from __future__ import annotations

from typing import Any, cast

from bot.context import BUTTONS_PER_ROW, MAX_BUTTONS
from bot.i18n import translator
from bot.moment import Moment
from bot.platforms.discord_commands import ROW_BUTTONS, VIEW_ROWS
from bot.reminder_text import reminder_buttons
from bot.store import Store
from bot.table import Table
from engine.iec import GAME as IEC
from engine.iec import rules
from engine.iec.turn_text import MAX_CHOICES
from tests.bot.helpers import FakeClock
from tests.engine.iec.helpers import at, two


def _holding(n: int) -> tuple[dict[str, Any], str]:
    """Phase 8, the actor holding `n` face-down tokens (18: the most a company may hold)."""
    st, p1, _ = two()
    free = [c for c in rules.scen(st).cells if c not in st["buildings"]][:n]
    st["tokens"] = [
        {"id": i, "owner": p1, "cell": c, "real": i % 3 == 0, "up": False}
        for i, c in enumerate(free, start=1)
    ]
    return at(st, 8, p1), p1


class _Prompt:
    """The moment of an IEC prompt: the game's own buttons for the player."""

    mark = 3

    def __init__(self, state: dict[str, Any]) -> None:
        self.state = state

    def buttons(self, player: str, lang: str) -> list[tuple[str, str]]:
        return list(IEC.buttons(self.state, player, translator(lang)))


def _table(store: Store, clock: FakeClock) -> Table:
    return Table(store, games={"iec": IEC}, clock=clock, seeder=lambda: 12345)


def test_the_button_limit_fits_the_platforms_and_every_iec_prompt() -> None:
    rows = -(-MAX_BUTTONS // BUTTONS_PER_ROW)
    assert BUTTONS_PER_ROW <= ROW_BUTTONS and rows <= VIEW_ROWS
    assert MAX_CHOICES + 1 <= MAX_BUTTONS  # IEC's choices and Done


def test_iec_s22_every_token_to_activate_is_a_button_in_the_chat(
    store: Store, clock: FakeClock
) -> None:
    for n in (6, 12, 18):
        st, p1 = _holding(n)
        rows = _table(store, clock)._buttons(7, cast(Moment, _Prompt(st)), [p1], "ru")
        flat = [b.payload.split(":", 2)[2] for row in rows for b in row]
        tokens = [f"/activate {t['cell']}" for t in st["tokens"]]
        assert sorted(flat) == sorted([*tokens, "/done"]) and flat[-1] == "/done", n
        assert len(rows) <= VIEW_ROWS and all(len(row) <= BUTTONS_PER_ROW for row in rows)
        assert rows[0][0].label.startswith("Активировать")


def test_iec_s22_every_token_to_activate_is_a_button_in_a_private_reminder() -> None:
    st, p1 = _holding(18)
    rows = reminder_buttons(7, "p000000", IEC, st, p1, "pl")
    flat = [b.payload.split(":", 2)[2] for row in rows for b in row]
    assert len(flat) == 19 and flat[-1] == "/done"
    assert len(rows) == 5 and [len(row) for row in rows] == [4, 4, 4, 4, 3]


def test_a_prompt_of_at_most_twelve_buttons_is_laid_out_as_before(
    store: Store, clock: FakeClock
) -> None:
    """Rows of 4: 6 buttons in rows of 4 and 2, 12 in three full rows."""
    for n, widths in ((5, [4, 2]), (11, [4, 4, 4])):
        st, p1 = _holding(n)
        rows = _table(store, clock)._buttons(7, cast(Moment, _Prompt(st)), [p1], "en")
        assert [len(row) for row in rows] == widths

"""`boardchat local`: hot-seat play in a terminal, through the same table service.

Each line is `name: /command args` (the name may be left out to act as the last one named);
`dm name: /command` says it in that person's private chat with the bot instead of the table's.
Replies are printed; pictures are written to the output folder and their paths printed;
buttons are listed with the command they send. EOF or `quit` ends the session.
"""

from __future__ import annotations

import asyncio
import itertools
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from bot.messages import Inbound, Outbound
from bot.scheduler import Scheduler
from bot.table import Table, open_table

CHAT_KEY = "local:terminal"
DM_PREFIX = "local:dm-"
_LINE = re.compile(r"^\s*([^\s:/][^:]{0,31}?)\s*:\s*(.*)$")
QUIT = {"quit", "exit", "/quit", "/exit"}


def split_line(line: str, last_name: str | None) -> tuple[str | None, str]:
    """ "alice: /bid 13" -> ("alice", "/bid 13"); "/pass" -> (last_name, "/pass")."""
    match = _LINE.match(line)
    if match:
        return match.group(1).strip(), match.group(2).strip()
    return last_name, line.strip()


def dm_key(name: str) -> str:
    """The chat key of `name`'s private chat with the bot."""
    return DM_PREFIX + name.casefold()


def _private_name(name: str) -> str | None:
    """ "dm alice" -> "alice" (a line said in her private chat); None for a table line."""
    head, _, rest = name.partition(" ")
    return rest.strip() or None if head.casefold() == "dm" else None


def _last_picture(out: Path) -> int:
    """The highest NNN of the NNN.png pictures and NNN-replay.mp4 files in `out` (0: none)."""
    stems = [p.name.split(".")[0].split("-")[0] for p in out.iterdir()] if out.is_dir() else []
    numbers = [int(stem) for stem in stems if stem.isdigit()]
    return max(numbers, default=0)


class Terminal:
    """Prints what the table answers; numbers the pictures it writes."""

    def __init__(self, table: Table, out: Path, write: Callable[[str], None]) -> None:
        self.table = table
        self.out = out
        self.write = write
        # numbered on from the folder's last picture: a second session on the same --out
        # overwrote the first one's 001.png, 002.png, ... (found playing, 2026-12-02)
        self.pictures = itertools.count(_last_picture(out) + 1)
        self.updates = itertools.count(1)

    async def send(self, name: str, text: str) -> list[Outbound]:
        private = _private_name(name)
        if private is not None:
            name = private
        inbound = Inbound(
            platform="local",
            chat_key=dm_key(name) if private else CHAT_KEY,
            user_key=f"local:{name.casefold()}",
            display_name=name,
            text=text,
            is_private=private is not None,
            seen_by_chat=private is None,  # a group line: everyone at the table reads it
            # everyone at the keyboard administers the terminal "chat"
            is_admin=private is None,
        )
        outs = await self.table.handle(inbound)
        for out in outs:
            self.show(out)
        return outs

    async def pushed(self, out: Outbound) -> None:
        """A message the table sends unasked (the group's part of a move sent privately)."""
        self.show(out)

    def show(self, out: Outbound) -> None:
        prefix = f"(to {out.private_to.split(':', 1)[-1]}) " if out.private_to else ""
        if out.chat_key.startswith(DM_PREFIX):  # his private chat: "(to him)" says no more
            prefix = f"(private, {out.chat_key.removeprefix(DM_PREFIX)}) "
        if out.png is not None:
            # a set (map, panel) is one message: every picture of it is saved
            self.out.mkdir(parents=True, exist_ok=True)
            paths = []
            for png in [out.png, *out.album]:
                path = self.out / f"{next(self.pictures):03d}.png"
                path.write_bytes(png)
                paths.append(str(path))
            self.write(f"{prefix}[picture] {out.text} -> {', '.join(paths)}")
        elif out.file is not None:  # the replay's animation: saved as a chat would attach it
            self.out.mkdir(parents=True, exist_ok=True)
            path = self.out / f"{next(self.pictures):03d}-{out.filename or 'file'}"
            path.write_bytes(out.file)
            self.write(f"{prefix}[file] {out.text} -> {path}")
        else:
            self.write(prefix + out.text)
        for row in out.buttons:
            labels = "  ".join(f"[{b.label} = {b.payload.split(':', 2)[-1]}]" for b in row)
            self.write("  " + labels)
        self.write("")


async def run_local(
    db: str,
    out: str,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    default_lang: str | None = None,
) -> int:
    """The REPL; returns 0 at EOF or `quit`. `default_lang`: BOARDCHAT_DEFAULT_LANG, the
    language of a chat nobody has chosen one for, as under `boardchat run`."""
    src = stdin or sys.stdin
    dst = stdout or sys.stdout

    def write(text: str) -> None:
        print(text, file=dst, flush=True)

    table = await open_table(db, default_lang=default_lang or "en")
    term = Terminal(table, Path(out), write)
    table.register_sender("local", term.pushed)
    # The table's timed work, as `boardchat run` has it (bot/scheduler.py): a seat a bot
    # plays for someone /away or voted out, expiry policies, reminders. Run after each line,
    # so a script reads the same every time (found playing, 2026-12-04: "a bot plays for
    # you here" and then nothing played, since no scheduler ran here).
    scheduler = Scheduler(table)
    write(
        "boardchat local — type `name: /command`, e.g. `alice: /new powergrid`; "
        "`dm alice: /status` in her private chat; `quit` ends."
    )
    write(f"Games: {', '.join(table.games) or '-'}. /help lists the commands.")
    name: str | None = None
    try:
        while True:
            line = await asyncio.to_thread(src.readline)
            if not line:
                break
            if line.strip().casefold() in QUIT:
                break
            if not line.strip():
                continue
            who, text = split_line(line, name)
            if who is None:
                write("Who is speaking? Start the line with a name: `alice: /new powergrid`.")
                continue
            name = who
            await term.send(name, text)
            await scheduler.run_due()
    finally:
        await table.close()
    return 0

"""Liveness: the platform adapters say "I just talked to my platform", `boardchat health` checks
that one of them did so recently (the Dockerfile's HEALTHCHECK runs it).

    from bot.health import beat
    beat("telegram")   # after each successful getUpdates poll or webhook update
    beat("discord")    # on each gateway heartbeat acknowledgement

A beat writes the time into a small file per kind (`BOARDCHAT_HEALTH_DIR`, default
<temp dir>/boardchat-health/<the database's tag>), atomically, at most once a second per kind
and process: cheap enough for every poll, shared by the worker processes of one bot.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
import time
from pathlib import Path

from bot.settings import SETTINGS

# Beats closer together than this (per kind, per process) are not written.
MIN_INTERVAL = 1.0
_last: dict[tuple[str, str], float] = {}
_KIND = re.compile(r"^[a-z0-9_-]{1,40}$")


def health_dir(directory: str | Path | None = None) -> Path:
    """`BOARDCHAT_HEALTH_DIR`, else a folder of the temp dir named after the database
    (`BOARDCHAT_DB` as written): two bots on one host with their own databases do not
    vouch for each other, and the workers of one bot share theirs."""
    if directory:
        return Path(directory)
    configured = os.environ.get("BOARDCHAT_HEALTH_DIR", "").strip()
    if configured:
        return Path(configured)
    db = os.environ.get("BOARDCHAT_DB", "").strip() or SETTINGS["BOARDCHAT_DB"][0]
    tag = hashlib.sha256(db.encode()).hexdigest()[:12]
    return Path(tempfile.gettempdir()) / "boardchat-health" / tag


def beat(kind: str, *, now: float | None = None, directory: str | Path | None = None) -> None:
    """Record that `kind` ("telegram", "discord", ...) reached its platform at `now`.
    Never raises: a full disk must not stop the bot, only make it look unhealthy."""
    if not _KIND.match(kind):
        raise ValueError(f"heartbeat kind must be a short lowercase word, not {kind!r}")
    now = time.time() if now is None else now
    folder = health_dir(directory)
    key = (str(folder), kind)
    if now - _last.get(key, float("-inf")) < MIN_INTERVAL:
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{kind}.")
        with os.fdopen(fd, "w") as out:
            out.write(repr(now))
        os.replace(tmp, folder / kind)
    except OSError:
        return
    _last[key] = now


def last_beats(directory: str | Path | None = None) -> dict[str, float]:
    """kind -> time of its last beat."""
    folder = health_dir(directory)
    beats: dict[str, float] = {}
    if not folder.is_dir():
        return beats
    for path in folder.iterdir():
        if not _KIND.match(path.name):
            continue
        try:
            beats[path.name] = float(path.read_text().strip())
        except (OSError, ValueError):
            continue
    return beats


def check(
    max_age: float, *, now: float | None = None, directory: str | Path | None = None
) -> tuple[bool, str]:
    """(healthy, one line saying why): healthy when some kind beat within `max_age` seconds."""
    now = time.time() if now is None else now
    beats = last_beats(directory)
    if not beats:
        return False, f"unhealthy: no heartbeat yet in {health_dir(directory)}"
    ages = {kind: now - at for kind, at in sorted(beats.items())}
    said = ", ".join(f"{kind} {age:.0f} s ago" for kind, age in ages.items())
    if min(ages.values()) <= max_age:
        return True, f"healthy: {said}"
    return False, f"unhealthy: nothing within {max_age:.0f} s ({said})"

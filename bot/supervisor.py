"""`boardchat run --workers N`: N worker processes of one bot, sharing one database
(PostgreSQL; bot/store_pg.py keeps them consistent) and the platforms' work.

- Telegram (webhook mode): this supervisor binds the listening socket once and every worker
  accepts on it (the adapter passes `webhook_listen(host, port)` to python-telegram-bot's
  `start_webhook`, whose `unix=` serves an already-bound socket). Long polling cannot be
  shared (Telegram answers one getUpdates consumer only): it needs webhook mode.
- Discord: each worker runs a slice of the shards (`DISCORD_SHARD_IDS` of
  `DISCORD_SHARD_COUNT`, default one shard per worker), see `discord_shard_options`.

The supervisor forwards SIGTERM/SIGINT to the workers (by pid), restarts a worker that dies
(after a pause, so a crash loop does not spin) and exits when asked to stop.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from bot.settings import Settings
from bot.storage import parse_db

log = logging.getLogger(__name__)

LISTEN_FD = "BOARDCHAT_LISTEN_FD"
WORKER_INDEX = "BOARDCHAT_WORKER_INDEX"
RESTART_PAUSE = 2.0
# A worker that keeps dying soon after its start (a database that is down, no network) is
# restarted less and less often: the pause doubles up to this, and is back to RESTART_PAUSE
# once a worker has run for HEALTHY_RUN seconds.
MAX_RESTART_PAUSE = 60.0
HEALTHY_RUN = 60.0


class WorkersError(Exception):
    """A configuration several workers cannot run; the message says what to change."""


def listen_socket() -> socket.socket | None:
    """The webhook socket inherited from the supervisor; None in a single process."""
    fd = os.environ.get(LISTEN_FD, "")
    if not fd.isdigit():
        return None
    sock = socket.socket(fileno=int(fd))
    sock.setblocking(False)  # tornado accepts until EAGAIN: the other workers take the rest
    return sock


def webhook_listen(host: str, port: int) -> dict[str, Any]:
    """Where python-telegram-bot's `start_webhook` serves: the inherited socket (`unix=`
    takes a bound socket too), else its own `listen`/`port`."""
    sock = listen_socket()
    return {"unix": sock} if sock is not None else {"listen": host, "port": port}


def discord_shard_options(settings: Settings) -> dict[str, Any]:
    """Keyword arguments for discord.AutoShardedClient: this process's slice of shards."""
    if not settings.discord_shard_count:
        return {}
    ids = list(settings.discord_shard_ids or range(settings.discord_shard_count))
    bad = [i for i in ids if not 0 <= i < settings.discord_shard_count]
    if bad:
        raise WorkersError(f"DISCORD_SHARD_IDS {bad} outside 0..{settings.discord_shard_count - 1}")
    return {"shard_ids": ids, "shard_count": settings.discord_shard_count}


def shard_slices(count: int, workers: int) -> list[list[int]]:
    """Shards 0..count-1 dealt round robin to the workers."""
    return [list(range(w, count, workers)) for w in range(workers)]


def parse_listen(listen: str) -> tuple[str, int]:
    host, sep, port = listen.rpartition(":")
    return (host.strip("[]") or "0.0.0.0", int(port)) if sep else ("0.0.0.0", int(listen))


def worker_envs(settings: Settings, workers: int, listen_fd: int | None) -> list[dict[str, str]]:
    """The environment of each worker: its index, the socket, its Discord shards."""
    if workers > 1 and parse_db(settings.db)[0] == "sqlite":
        log.warning(
            "%d workers on one SQLite file: fine on one host; use PostgreSQL beyond", workers
        )
    if workers > 1 and settings.telegram_token and not settings.telegram_webhook_url:
        raise WorkersError(
            "several workers need Telegram's webhook mode (TELEGRAM_WEBHOOK_URL): long polling "
            "serves one process only"
        )
    slices: list[list[int]] | None = None
    if settings.discord_token and workers > 1:
        if settings.discord_shard_ids:
            raise WorkersError("set DISCORD_SHARD_IDS per process, or --workers, not both")
        slices = shard_slices(settings.discord_shard_count or workers, workers)
        if any(not s for s in slices):
            raise WorkersError("DISCORD_SHARD_COUNT is smaller than the number of workers")
    envs = []
    for index in range(workers):
        env = {**os.environ, WORKER_INDEX: str(index), "BOARDCHAT_WORKERS": "1"}
        if listen_fd is not None:
            env[LISTEN_FD] = str(listen_fd)
        if slices is not None:
            env["DISCORD_SHARD_IDS"] = ",".join(map(str, slices[index]))
            env["DISCORD_SHARD_COUNT"] = str(settings.discord_shard_count or workers)
        envs.append(env)
    return envs


def bind_webhook(settings: Settings) -> socket.socket | None:
    if not (settings.telegram_token and settings.telegram_webhook_url):
        return None
    host, port = parse_listen(settings.telegram_webhook_listen)
    sock = socket.create_server((host, port), backlog=1024)
    sock.set_inheritable(True)
    return sock


def _sleep_unless(stopped: Callable[[], bool], seconds: float) -> None:
    """Sleep, waking early when asked to stop (a long back-off must not delay a SIGTERM)."""
    end = time.monotonic() + seconds
    while not stopped() and time.monotonic() < end:
        time.sleep(min(0.2, end - time.monotonic()))


def run_workers(settings: Settings, workers: int, command: list[str] | None = None) -> int:
    """Start `workers` processes of `boardchat run` and supervise them until SIGTERM/SIGINT."""
    sock = bind_webhook(settings)
    fd = sock.fileno() if sock is not None else None
    envs = worker_envs(settings, workers, fd)
    command = command or [sys.executable, "-m", "bot", "run"]
    procs: dict[int, subprocess.Popen[bytes]] = {}
    started: dict[int, float] = {}
    pauses = dict.fromkeys(range(workers), RESTART_PAUSE)
    stopping = False
    status = 0  # 2 once a worker's configuration error stopped them all

    def start(index: int) -> None:
        procs[index] = subprocess.Popen(command, env=envs[index], pass_fds=(fd,) if fd else ())
        started[index] = time.monotonic()
        log.info("worker %d started (pid %d)", index, procs[index].pid)

    def stop(signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True
        for proc in procs.values():
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGTERM)

    previous = {s: signal.signal(s, stop) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        for index in range(workers):
            start(index)
        while not stopping:
            time.sleep(0.2)
            for index, proc in list(procs.items()):
                code = proc.poll()
                if code is None or stopping:
                    continue
                if code == 2:  # a configuration error: restarting cannot help
                    log.error("worker %d exited with a configuration error; stopping", index)
                    stop(signal.SIGTERM, None)
                    status = 2
                    break
                if time.monotonic() - started[index] >= HEALTHY_RUN:
                    pauses[index] = RESTART_PAUSE
                pause = pauses[index]
                pauses[index] = min(MAX_RESTART_PAUSE, pause * 2)
                log.error(
                    "worker %d (pid %d) exited with %s; restarting in %.1f s",
                    index,
                    proc.pid,
                    code,
                    pause,
                )
                _sleep_unless(lambda: stopping, pause)
                if not stopping:
                    start(index)
        for proc in procs.values():
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.kill(proc.pid, signal.SIGKILL)
                proc.wait()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if sock is not None:
            sock.close()
    return status

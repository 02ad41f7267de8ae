"""`boardchat run --workers N` supervision (bot/supervisor.py) with real processes: the workers
accept on the one socket the supervisor bound, a worker killed with SIGKILL is replaced while
the others keep serving, and SIGTERM stops them all."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# A stand-in worker: answers each connection on the inherited socket with its pid.
WORKER = """
from bot.supervisor import listen_socket
sock = listen_socket()
sock.setblocking(True)
while True:
    conn, _ = sock.accept()
    conn.sendall(str(__import__("os").getpid()).encode())
    conn.close()
"""

SUPERVISOR = """
import sys
from bot.settings import Settings
from bot.supervisor import run_workers
s = Settings.from_env()
sys.exit(run_workers(s, 2, command=[sys.executable, "-c", sys.argv[1]]))
"""


def ask(port: int) -> int:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        return int(conn.recv(32).decode())


def pids_seen(port: int, want: int, timeout: float = 30.0) -> set[int]:
    seen: set[int] = set()
    deadline = time.monotonic() + timeout
    while len(seen) < want and time.monotonic() < deadline:
        try:
            seen.add(ask(port))
        except OSError:
            time.sleep(0.05)
    return seen


def test_workers_share_the_socket_are_replaced_when_killed_and_stop_on_sigterm() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "TELEGRAM_TOKEN": "1:x",
        "TELEGRAM_WEBHOOK_URL": "https://example.invalid/hook",
        "TELEGRAM_WEBHOOK_LISTEN": f"127.0.0.1:{port}",
        "DISCORD_TOKEN": "",
    }
    sup = subprocess.Popen(
        [sys.executable, "-c", SUPERVISOR, WORKER], env=env, cwd=ROOT, stderr=subprocess.PIPE
    )
    try:
        first = pids_seen(port, 2)
        assert len(first) == 2  # both workers accept on the one port
        victim = min(first)
        os.kill(victim, signal.SIGKILL)
        # SIGKILL lands asynchronously: until the victim is gone it may still accept (and drop)
        # a connection, so wait for its death before asking the survivor.
        deadline = time.monotonic() + 10
        while Path(f"/proc/{victim}").exists() and not _zombie(victim):
            assert time.monotonic() < deadline, "the killed worker did not die"
            time.sleep(0.01)
        survivors = first - {victim}
        assert ask(port) in survivors  # the other one carries on at once
        later = pids_seen(port, 2)  # the survivor and the replacement (after a pause)
        assert len(later) == 2 and survivors < later and victim not in later
        sup.send_signal(signal.SIGTERM)
        assert sup.wait(timeout=30) == 0
        for pid in later:
            assert not Path(f"/proc/{pid}").exists() or _zombie(pid)
    finally:
        if sup.poll() is None:
            sup.kill()
            sup.wait()


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z"
    except OSError:
        return True


BACKOFF = """
import logging, sys
from bot import supervisor
from bot.settings import Settings
logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(message)s")
supervisor.RESTART_PAUSE, supervisor.MAX_RESTART_PAUSE = 0.1, 0.4
worker = [sys.executable, "-c", sys.argv[1]]
sys.exit(supervisor.run_workers(Settings.from_env(), 2, command=worker))
"""


def supervise(tmp_path: Path, worker: str, seconds: float | None) -> tuple[int, str]:
    """Run the supervisor over two workers running `worker`; SIGTERM after `seconds` (None:
    wait for it to stop by itself). Its exit status and log."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "", "TELEGRAM_TOKEN": ""}
    env["BOARDCHAT_DB"] = str(tmp_path / "b.sqlite3")
    sup = subprocess.Popen(
        [sys.executable, "-c", BACKOFF, worker], env=env, cwd=ROOT, stderr=subprocess.PIPE
    )
    try:
        if seconds is not None:
            time.sleep(seconds)
            sup.send_signal(signal.SIGTERM)
        code = sup.wait(timeout=30)
        assert sup.stderr is not None
        return code, sup.stderr.read().decode()
    finally:
        if sup.poll() is None:
            sup.kill()
            sup.wait()


def test_a_worker_that_keeps_failing_is_restarted_less_and_less_often(tmp_path: Path) -> None:
    """A worker dying at once (its database down at start: status 1) is restarted after
    pauses that double up to a ceiling, so a long outage does not spin; SIGTERM ends a pause
    at once."""
    code, said = supervise(tmp_path, "import sys; sys.exit(1)", 3.0)
    assert code == 0  # stopped as asked
    pauses = [
        line.rsplit(" in ", 1)[1]
        for line in said.splitlines()
        if line.startswith("worker 0 ") and "restarting in" in line
    ]
    assert pauses[:4] == ["0.1 s", "0.2 s", "0.4 s", "0.4 s"], said


def test_a_workers_configuration_error_stops_all_with_status_2(tmp_path: Path) -> None:
    """A worker that finds a setting it cannot use (a rejected token: status 2) stops the
    supervisor, which says so with status 2, so systemd or Docker do not restart it in a loop
    (before, the supervisor then exited 0)."""
    code, said = supervise(tmp_path, "import sys; sys.exit(2)", None)
    assert code == 2 and "configuration error" in said

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

"""A throwaway PostgreSQL server for tests and benchmarks.

`start_server()` finds the server binaries (Debian's `postgresql` package puts them in
/usr/lib/postgresql/<version>/bin; `PG_BINDIR` overrides), runs `initdb` into a fresh temp
dir and starts `postgres` on a random port of 127.0.0.1; `server.stop()` stops it by pid and
removes the dir. PostgreSQL refuses to run as root, so as root (CI, this machine) the dir is
given to an unprivileged user ("nobody" unless `PG_TEST_USER` names another) and the server
runs as that user. Durability is off (fsync, synchronous_commit): the data is thrown away.

Pytest fixtures: `pg_server` (one server per test session, started on first use; the test
is skipped with the reason only when no server binary exists) and `pg_url` (a fresh, empty
database on it for each test). Import them into a test module:

    from tests.pg import pg_server, pg_url  # noqa: F401

The bench uses it as a library: `with start_server() as server: ... server.url(...)`.
"""

from __future__ import annotations

import itertools
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

SUPERUSER = "postgres"
NO_SERVER = (
    "no PostgreSQL server binary (initdb and postgres) found in PG_BINDIR, "
    "/usr/lib/postgresql/*/bin or PATH; install Debian's `postgresql` package "
    "(`apt-get install -y postgresql`, as .ci/run does) to run the PostgreSQL half"
)


def find_bindir() -> Path | None:
    """The directory holding `initdb` and `postgres`, newest version first; None if none."""
    candidates: list[Path] = []
    if os.environ.get("PG_BINDIR"):
        candidates.append(Path(os.environ["PG_BINDIR"]))

    def version(p: Path) -> tuple[int, ...]:
        return tuple(int(x) for x in re.findall(r"\d+", p.parent.name)) or (0,)

    candidates += sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=version, reverse=True)
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(Path(on_path).parent)
    for bindir in candidates:
        if (bindir / "initdb").is_file() and (bindir / "postgres").is_file():
            return bindir
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class PgServer:
    bindir: Path
    root: Path
    port: int
    process: subprocess.Popen[bytes]
    _dbs: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def unix_url(self, url: str) -> str:
        """`url` (one of this server's) through its Unix socket instead of loopback TCP: a
        round trip costs both sides less CPU (the server on the same host, issue 23)."""
        database = url.rsplit("/", 1)[1]
        return f"postgresql://{SUPERUSER}@/{database}?host={self.root}&port={self.port}"

    @property
    def pid(self) -> int:
        return self.process.pid

    def new_database(self) -> str:
        """Create an empty database and return its URL (psql, so it works without a loop)."""
        name = f"t{os.getpid()}_{next(self._dbs)}"
        subprocess.run(
            [str(self.bindir / "psql"), "-qX", "-d", self.url(), "-c", f"CREATE DATABASE {name}"],
            check=True,
            capture_output=True,
        )
        return self.url(name)

    def stop(self) -> None:
        """Fast shutdown by pid (SIGINT), then SIGKILL if it hangs; removes the data dir."""
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGINT)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait()
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> PgServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _run_as() -> tuple[int, int] | None:
    """(uid, gid) to run the server as when we are root; None when we are not root."""
    if os.geteuid() != 0:
        return None
    entry = pwd.getpwnam(os.environ.get("PG_TEST_USER", "nobody"))
    return entry.pw_uid, entry.pw_gid


def start_server(bindir: Path | None = None, timeout: float = 60.0) -> PgServer:
    """initdb into a temp dir and start a server on a free port of 127.0.0.1."""
    bindir = bindir or find_bindir()
    if bindir is None:
        raise FileNotFoundError(NO_SERVER)
    # Straight under the system temp dir (not pytest's tmp_path, which root keeps 0700).
    root = Path(tempfile.mkdtemp(prefix="boardchat-pg-"))
    ids = _run_as()
    uid = gid = None
    groups: list[int] | None = None
    if ids is not None:
        os.chown(root, *ids)
        uid, gid, groups = ids[0], ids[1], []
    data = root / "data"
    log = root / "initdb.log"
    with log.open("wb") as out:
        done = subprocess.run(
            [
                str(bindir / "initdb"),
                "-D",
                str(data),
                "-U",
                SUPERUSER,
                "--auth=trust",
                "-E",
                "UTF8",
                "--locale=C",
                "--no-sync",
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=root,
            user=uid,
            group=gid,
            extra_groups=groups,
        )
    if done.returncode != 0:
        text = log.read_text(errors="replace")
        shutil.rmtree(root, ignore_errors=True)
        raise RuntimeError(f"initdb failed:\n{text}")
    last_error = ""
    for _ in range(5):  # a free port may be taken between the probe and the bind: retry
        port = _free_port()
        server_log = (root / "server.log").open("ab")
        process = subprocess.Popen(
            [
                str(bindir / "postgres"),
                "-D",
                str(data),
                "-h",
                "127.0.0.1",
                "-p",
                str(port),
                "-k",
                str(root),
                "-c",
                "fsync=off",
                "-c",
                "synchronous_commit=off",
                "-c",
                "full_page_writes=off",
                "-c",
                "max_connections=200",
                "-c",
                "shared_buffers=64MB",
            ],
            stdout=server_log,
            stderr=subprocess.STDOUT,
            cwd=root,
            start_new_session=True,  # a Ctrl-C in the terminal does not reach it
            user=uid,
            group=gid,
            extra_groups=groups,
        )
        server_log.close()
        server = PgServer(bindir, root, port, process)
        if _wait_ready(server, timeout):
            return server
        last_error = (root / "server.log").read_text(errors="replace")[-2000:]
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
            process.wait()
    shutil.rmtree(root, ignore_errors=True)
    raise RuntimeError(f"PostgreSQL did not start:\n{last_error}")


def _wait_ready(server: PgServer, timeout: float) -> bool:
    isready = server.bindir / "pg_isready"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            return False
        probe = subprocess.run(
            [str(isready), "-q", "-h", "127.0.0.1", "-p", str(server.port), "-U", SUPERUSER],
            capture_output=True,
        )
        if probe.returncode == 0:
            return True
        time.sleep(0.1)
    return False


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    bindir = find_bindir()
    if bindir is None:
        pytest.skip(NO_SERVER)
    server = start_server(bindir)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_url(pg_server: PgServer) -> str:
    return pg_server.new_database()

"""The deployment files (issue 23): docker-compose.yml runs PostgreSQL, N workers and nginx in
front of them, consistently with the settings; the Dockerfile installs the pinned lock file
and checks health with `boardchat health`; .ci/run installs a PostgreSQL server."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml

from bot.storage import parse_db
from tests.bot.helpers import present

ROOT = Path(__file__).resolve().parents[1]


def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def defaults(text: str) -> str:
    """Compose's ${VAR:-default} with the defaults."""
    return re.sub(r"\$\{\w+:-([^}]*)\}", r"\1", text)


def test_compose_runs_postgresql_workers_and_a_proxy() -> None:
    services = compose()["services"]
    assert set(services) == {"db", "bot", "proxy"}
    db, bot, proxy = services["db"], services["bot"], services["proxy"]
    assert db["image"].startswith("postgres:") and "healthcheck" in db
    url = defaults(bot["environment"]["BOARDCHAT_DB"])
    assert parse_db(url)[0] == "postgresql" and "@db:5432/" in url
    assert db["environment"]["POSTGRES_DB"] == url.rsplit("/", 1)[1]
    assert bot["depends_on"]["db"]["condition"] == "service_healthy"
    command = [defaults(c) for c in bot["command"]]
    assert command[:2] == ["boardchat", "run"] and int(command[command.index("--workers") + 1]) > 1
    listen_port = bot["environment"]["TELEGRAM_WEBHOOK_LISTEN"].rsplit(":", 1)[1]
    assert listen_port in [str(p) for p in bot["expose"]]
    assert proxy["image"].startswith("nginx:")
    host_conf, container_conf = proxy["volumes"][0].split(":")[:2]
    conf = (ROOT / host_conf).read_text()
    assert container_conf.startswith("/etc/nginx/conf.d/")
    assert re.search(rf"server bot:{listen_port}\b", conf)  # the upstream is the workers
    assert "proxy_pass http://boardchat_workers;" in conf and "location /telegram" in conf


def test_dockerfile_installs_the_lock_and_checks_health() -> None:
    text = (ROOT / "Dockerfile").read_text()
    assert "pip install --no-compile -r requirements.lock" in text
    assert "--no-deps ." in text  # the project itself adds nothing unpinned
    assert re.search(r'HEALTHCHECK .*\n\s+CMD \["boardchat", "health"\]', text)
    assert "USER boardchat" in text


def test_lock_pins_every_runtime_dependency() -> None:
    pins = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version, f"not pinned: {line}"
            pins[re.sub(r"[-_.]+", "-", name).lower()] = version
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for requirement in project["dependencies"]:
        name = present(re.match(r"[A-Za-z0-9_.-]+", requirement)).group(0)
        assert re.sub(r"[-_.]+", "-", name).lower() in pins, requirement
    assert not {"pytest", "ruff", "mypy", "hypothesis"} & set(pins)  # no dev tools


def test_ci_installs_a_postgresql_server_before_the_tests() -> None:
    script = (ROOT / ".ci" / "run").read_text()
    install = script.index("apt-get install -y")
    assert "apt-get update" in script[:install] and "postgresql" in script[install:]
    assert "DEBIAN_FRONTEND=noninteractive" in script
    assert script.rstrip().endswith("make test")


def test_make_demo_installs_no_dev_tools() -> None:
    makefile = (ROOT / "Makefile").read_text()
    runtime = re.search(r"^\$\(RUNTIME\):.*?(?=^\S)", makefile, re.S | re.M)
    assert runtime and "install --quiet -e .\n" in runtime.group(0)
    assert "[dev]" not in runtime.group(0)
    assert re.search(r"^demo: \$\(RUNTIME\)$", makefile, re.M)
    assert re.search(r"^lint: \$\(STAMP\)$", makefile, re.M)

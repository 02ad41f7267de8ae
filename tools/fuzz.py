"""`make fuzz`: the property tests with fresh random seeds, again and again, for a set time.

Not part of `make test` (which is derandomised, see tests/conftest.py). Each round runs every
test module that uses hypothesis with a new `--hypothesis-seed`; a failing round prints that seed
and the command that reproduces it, and the loop goes on so one run can find several problems.
Exit status: 1 when anything failed.

    python tools/fuzz.py --seconds 600
"""

from __future__ import annotations

import argparse
import os
import secrets
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def property_modules() -> list[str]:
    found = []
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        text = path.read_text(encoding="utf-8")
        if "from hypothesis import" in text or "import hypothesis" in text:
            found.append(str(path.relative_to(ROOT)))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=600.0)
    args = parser.parse_args()
    modules = property_modules()
    env = dict(os.environ, BOARDCHAT_HYPOTHESIS_PROFILE="fuzz")
    # A monotonic deadline: this is a tool that runs for a set time, not a test.
    deadline = time.monotonic() + args.seconds
    rounds = 0
    failures: list[int] = []
    while time.monotonic() < deadline:
        seed = secrets.randbelow(2**32)
        rounds += 1
        cmd = [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-q",
            "-x",
            f"--hypothesis-seed={seed}",
            *modules,
        ]
        print(f"fuzz round {rounds}: --hypothesis-seed={seed}", flush=True)
        done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            failures.append(seed)
            print(done.stdout[-6000:], flush=True)
            print(
                f"FOUND with --hypothesis-seed={seed}; reproduce with:\n"
                f"  BOARDCHAT_HYPOTHESIS_PROFILE=fuzz {' '.join(cmd[2:])}",
                flush=True,
            )
        else:
            print("  " + (done.stdout.strip().splitlines() or ["?"])[-1], flush=True)
    print(
        f"fuzz: {rounds} rounds, {len(failures)} failing seeds"
        + (f": {', '.join(map(str, failures))}" if failures else "")
    )
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())

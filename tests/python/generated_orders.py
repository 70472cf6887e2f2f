"""Load orders made by ../shared/bench/make_big_plugin.py and make_load_order.py for the Python
tests, each with its own seeds. Without ../shared the test skips, or fails when CI=true."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
BENCH = SHARED / "bench"


def need_shared():
    if not (BENCH / "make_load_order.py").exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{BENCH} has no make_load_order.py and CI=true")
        pytest.skip(f"{BENCH} has no make_load_order.py (../shared is not there)")


def make_load_order(work, game, master_seed, order_seed, plugins, records=2000, master_name="master.esm",
                    folder="lo"):
    """A master of `records` records and a load order of `plugins` plugins over it in work/folder.
    make_load_order.py needs some thousands of records to plant its cases in."""
    need_shared()
    master = work / master_name
    subprocess.run([sys.executable, BENCH / "make_big_plugin.py", master, "--records", str(records), "--game", game,
                    "--seed", str(master_seed)], check=True, capture_output=True)
    out = work / folder
    subprocess.run([sys.executable, BENCH / "make_load_order.py", master, out, "--plugins", str(plugins), "--seed",
                    str(order_seed)], check=True, capture_output=True)
    return out


def expected(folder):
    return json.loads((folder / "expected.json").read_text())

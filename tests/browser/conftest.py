"""pytest set-up for the conflicts page's browser tests (run by ctest as conflicts_page_browser):
the CLI ($TESMOD_CLI), load orders made by ../shared/bench (tests/python/generated_orders.py), and a
headless Chromium. A missing Chromium or ../shared skips (exit 77, which ctest reports as
skipped), or fails when CI=true: the test command's setup installs Chromium."""
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "python"))
import devtools  # noqa: E402
from generated_orders import make_load_order  # noqa: E402

SKIP = 77
CI = os.environ.get("CI") == "true"


def need(what, ok):
    if not ok:
        if CI:
            pytest.fail(f"{what} (CI=true: nothing may skip)")
        pytest.skip(what)


@pytest.fixture(scope="session")
def tesmod():
    path = os.environ.get("TESMOD_CLI")
    if not path or not Path(path).is_file():
        pytest.fail("TESMOD_CLI must name the built tesmod")
    return path


@pytest.fixture(scope="session")
def chromium():
    path = devtools.find_chromium()
    need("chromium not installed (scripts/setup.sh installs it)", path)
    return path


@pytest.fixture(scope="session")
def work(tmp_path_factory):
    return tmp_path_factory.mktemp("pages")


@pytest.fixture(scope="session")
def browser(chromium):
    with devtools.Browser(chromium) as b:
        yield b


def run(tesmod, *args):
    p = subprocess.run([tesmod, *map(str, args)], capture_output=True, text=True)
    if p.returncode != 0:
        raise AssertionError(f"tesmod {' '.join(map(str, args))} exited {p.returncode}: {p.stderr[-2000:]}")
    return p.stdout


def make_order(work, name, game, master_seed, records, seed, plugins):
    """The load order make_load_order.py makes in work/name over a master of `records` records."""
    return make_load_order(work, game, master_seed, seed, plugins, records=records,
                           master_name=f"master_{game}_{master_seed}_{records}.esm", folder=name)


class Order:
    """A load order with its conflicts page and --json report."""

    def __init__(self, tesmod, data):
        self.data = data
        self.page = data.parent / (data.name + ".html")
        out = run(tesmod, "conflicts", "--data", data, "--html", self.page)
        assert str(self.page.resolve()) in out, out
        text = run(tesmod, "conflicts", "--data", data, "--json")
        self.json = json.loads(text)
        self.json_size = len(text.encode())

    def url(self, query=""):
        return self.page.resolve().as_uri() + query


@pytest.fixture(scope="session")
def order(tesmod, work):
    """A Skyrim SE order of 8 plugins over a 2,500-record master (this test's seeds)."""
    return Order(tesmod, make_order(work, "order8", "sse", 31, 2500, 17, 8))


PAYLOAD_EDID = "<script>document.body.dataset.pwned='edid'</script>"
PAYLOAD_FULL = "</script><img src=x onerror=\"document.body.dataset.pwned='full'\"> & <b>bold</b>"
# A file name the game cannot load (< and > are not allowed in Windows names: tesmod leaves it
# out of the order and says so), and one it can, whose & and ' must stay as they are.
PAYLOAD_PLUGIN = "Mod<img src=x onerror=document.body.dataset.pwned=3>.esp"
PAYLOAD_PLUGIN_LEGAL = "Tom's &amp; Jerry's.esp"


@pytest.fixture(scope="session")
def hostile(tesmod, work):
    """An order whose strings are markup: a master record's EditorID and name (edited through
    export and import), a plugin's file name and the data folder's name. Returns (Order, FormID)."""
    data = make_order(work, "order<b>hostile&amp;", "sse", 32, 400, 5, 4)
    master = next(data.glob("master_*.esm"))
    conflicts = json.loads(run(tesmod, "conflicts", "--data", data, "--json"))
    # A record the plugins override whose master version has an EditorID and a FULL name.
    text = work / "hostile_text"
    run(tesmod, "export", master, text)
    target = None
    for r in conflicts["records"]:
        if r["editor_id"] and r["type"] in ("WEAP", "ARMO", "MISC", "BOOK", "ALCH", "INGR", "KEYM", "AMMO"):
            files = list(text.glob(f"{r['type']}/*[[]{r['form_id']}[]].txt"))
            if files and re.search(r"^  FULL ", files[0].read_text(encoding="utf-8"), re.M):
                target = r
                break
    assert target, "no overridden record with an EditorID and a name"
    edid = target["editor_id"]
    for f in text.rglob("*.txt"):
        if f.name == "_group.txt":
            continue
        s = f.read_text(encoding="utf-8")
        if edid not in s:
            continue
        lines = []
        for line in s.split("\n"):
            if line.startswith("record "):
                pass
            elif line == f'  EDID "{edid}"':
                line = '  EDID "' + PAYLOAD_EDID + '"'
            elif line.startswith("  FULL ") and f"[{target['form_id']}]" in f.name:
                line = '  FULL "' + PAYLOAD_FULL.replace('"', '\\"') + '"'
            else:  # references by EditorID become references by FormID
                line = re.sub(rf"\b{re.escape(edid)}\b", "@" + target["form_id"], line)
            lines.append(line)
        f.write_text("\n".join(lines), encoding="utf-8")
    run(tesmod, "import", text, "-o", master)
    # Copies of Mod_01.esp under names that are markup, active after it.
    listing = (data / "plugins.txt").read_text(encoding="utf-8").split("\n")
    at = next(i for i, line in enumerate(listing) if line.lstrip("*") == "Mod_01.esp")
    for name in (PAYLOAD_PLUGIN_LEGAL, PAYLOAD_PLUGIN):
        shutil.copy(data / "Mod_01.esp", data / name)
        listing.insert(at + 1, "*" + name)
    (data / "plugins.txt").write_text("\n".join(listing), encoding="utf-8")
    return Order(tesmod, data), target["form_id"]


def pytest_sessionfinish(session, exitstatus):
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if exitstatus == 0 and reporter is not None and reporter.stats.get("skipped"):
        session.exitstatus = SKIP

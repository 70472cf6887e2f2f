"""LoadOrder.patch: the Bashed Patch from Python — the lists Wrye Bash writes for a stored oracle
order (made again by ../shared/bench's generators), the report dict, dry runs, tags given as a
dict, the merge mode, and bad arguments."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import tesmod

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
ORACLE = ROOT / "tests" / "patch" / "oracle" / "sse-m42r3000-o17p3l12.oracle.json"


@pytest.fixture(scope="session")
def order(tmp_path_factory):
    bench = SHARED / "bench"
    if not (bench / "make_patch_order.py").exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{bench} has no make_patch_order.py and CI=true")
        pytest.skip(f"{bench} has no make_patch_order.py (../shared is not there)")
    oracle = json.loads(ORACLE.read_text())
    made = oracle["made_with"]
    work = tmp_path_factory.mktemp("patch")
    for script in ("make_big_plugin.py", "make_patch_order.py"):
        subprocess.run([sys.executable, str(bench / script), *made[script]], cwd=work, check=True, capture_output=True)
    return work / made["make_patch_order.py"][1], oracle


def read_lists(path):
    sys.path.insert(0, str(SHARED / "tools"))
    try:
        from check_patch import read_lists as reader
    finally:
        sys.path.pop(0)
    return reader(str(path), os.path.basename(path))["lists"]


def test_the_lists_wrye_bash_writes(order, tmp_path):
    folder, oracle = order
    lo = tesmod.load_order(data=str(folder))
    out = tmp_path / "Bashed Patch, 0.esp"
    report = lo.patch(str(out))
    assert out.exists() and report["written"] == str(out)
    mine = read_lists(out)
    assert sorted(k.lower() for k in mine) == sorted(k.lower() for k in oracle["lists"])
    for key, want in oracle["lists"].items():
        got = next(v for k, v in mine.items() if k.lower() == key.lower())
        for field in ("type", "chance_none", "flags", "global", "entries"):
            assert json.dumps(got[field]).lower() == json.dumps(want[field]).lower(), (key, field)
    # The report: what was read and written, per record its sources.
    assert report["game"] == "skyrimse" and report["mode"] == "wryebash"
    assert report["counts"]["leveled_lists"] == len(oracle["lists"])
    assert [r["type"] for r in report["records"]] and all(r["part"] == "leveled list" for r in report["records"])
    assert all(r["sources"] for r in report["records"])
    tagged = {t["plugin"]: t for t in report["tags"]}
    for plugin, tags in oracle["tags"].items():
        if plugin in report["sources"]:
            assert set(tags) <= set(tagged[plugin]["tags"])


def test_dry_run_and_tags_and_merge(order, tmp_path):
    folder, _ = order
    lo = tesmod.load_order(data=str(folder))
    base = lo.patch(dry_run=True)
    assert base["written"] is None
    assert not list(tmp_path.iterdir())
    # Tags given as a dict change what the merge does, and the report says where they came from.
    plugin = base["sources"][-1]
    tagged = lo.patch(dry_run=True, tags={plugin: ["Relev", "Delev"]})
    entry = next(t for t in tagged["tags"] if t["plugin"] == plugin)
    assert {"Relev", "Delev"} <= set(entry["tags"])
    assert any(c["source"] == "command_line" for c in entry["changes"])
    merged = lo.patch(dry_run=True, mode="merge")
    assert merged["mode"] == "merge"
    assert [r["form"] for r in merged["records"]] != [r["form"] for r in base["records"]] or \
        [r["notes"] for r in merged["records"]] != [r["notes"] for r in base["records"]]


def test_bad_arguments(order):
    folder, _ = order
    lo = tesmod.load_order(data=str(folder))
    with pytest.raises(ValueError):
        lo.patch()  # neither a path nor dry_run
    with pytest.raises(ValueError):
        lo.patch(dry_run=True, mode="smart")
    with pytest.raises(ValueError):
        lo.patch(dry_run=True, remove_empty="maybe")

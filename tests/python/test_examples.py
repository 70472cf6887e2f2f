"""The patchers in examples/, run as a user runs them, on load orders made by
../shared/bench/make_load_order.py (this file's seeds; Skyrim SE and Oblivion). Each written plugin
is checked by `tesmod verify` (read, written back, the same bytes), by `tesmod conflicts` over the
load order with it loading last (it wins what it overrides), by the independent reader
../shared/tools/inspect_plugin.py, and for what it should have changed, read back through raw bytes
(struct) rather than the typed fields that wrote it."""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

import tesmod
from generated_orders import SHARED, make_load_order

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def tesmod_cli():
    cli = os.environ.get("TESMOD_CLI") or str(ROOT / "build" / "tools" / "tesmod" / "tesmod")
    if not Path(cli).exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"no tesmod CLI at {cli} and CI=true")
        pytest.skip(f"no tesmod CLI at {cli} (set TESMOD_CLI)")
    return cli


@pytest.fixture(scope="module")
def sse_data(tmp_path_factory):
    return make_load_order(tmp_path_factory.mktemp("examples_sse"), "sse", 501, 502, plugins=5, records=4000,
                           master_name="Master.esm", folder="Data")


@pytest.fixture(scope="module")
def oblivion_data(tmp_path_factory):
    return make_load_order(tmp_path_factory.mktemp("examples_oblivion"), "oblivion", 503, 504, plugins=5, records=4000,
                           master_name="Master.esm", folder="Data")


@pytest.fixture(params=["sse", "oblivion"], ids=["skyrimse", "oblivion"])
def order(request):
    return request.param, request.getfixturevalue(f"{request.param}_data")


def run_example(name, *args):
    r = subprocess.run([sys.executable, EXAMPLES / name, *map(str, args)], capture_output=True, text=True,
                       env={**os.environ})
    assert r.returncode == 0, r.stderr
    return r.stdout


def active_files(folder):
    return [str(folder / p["name"]) for p in tesmod.load_order(data=str(folder)).plugins if p["active"]]


def check_written(folder, out, expect_types):
    """verify, inspect_plugin.py, and conflicts with the patch loading last: it wins what it has."""
    cli = tesmod_cli()
    verify = subprocess.run([cli, "verify", str(out)], capture_output=True, text=True)
    assert verify.returncode == 0 and verify.stdout.startswith("OK"), verify.stdout + verify.stderr
    report = subprocess.run([sys.executable, SHARED / "tools" / "inspect_plugin.py", str(out)], check=True,
                            capture_output=True, text=True).stdout
    assert "parse: OK" in report, report
    written = tesmod.open(str(out))
    counts = {}
    for r in written.records():
        counts[r.type] = counts.get(r.type, 0) + 1
    for t, n in counts.items():
        assert f"{t}={n}" in report
    assert set(counts) <= set(expect_types)
    files = active_files(folder) + [str(out)]
    conflicts = json.loads(subprocess.run([cli, "conflicts", "--json", *files], check=True, capture_output=True,
                                          text=True).stdout)
    name = out.name
    mine = [c for c in conflicts["records"] if name in c["versions"]]
    overrides = sum(1 for r in written.records() if r.form_id >> 24 < len(written.header.masters))
    assert len(mine) == overrides
    assert all(c["winner"] == name for c in mine)
    # `tesmod check`: whatever the patch holds wrong, the version it copied held already (the
    # generated masters name forms that do not exist on purpose); nothing new, no bad file index.
    check = json.loads(subprocess.run([cli, "check", "--json", *files], capture_output=True, text=True).stdout)

    def key(p):
        named = re.search(r"\(([^()]+:[0-9A-F]{6})\)", p["message"])
        return p["check"], p["type"], p["editor_id"], named.group(1) if named else p["message"]
    elsewhere = {key(p) for p in check["problems"] if p["file"] != name}
    new = [p for p in check["problems"] if p["file"] == name and key(p) not in elsewhere]
    assert new == [], new
    return written


def test_halve_armor_weight(order, tmp_path):
    game, folder = order
    out = tmp_path / "HalvedArmor.esp"
    print(run_example("halve_armor_weight.py", folder, out))
    written = check_written(folder, out, {"ARMO"})
    lo = tesmod.load_order(data=str(folder))
    weight_at = 4 if game == "sse" else 10  # DATA: value i32, weight f32 | armor u16, value u32, health u32, weight f32
    halved = 0
    for armor in written.records("ARMO"):
        fk = tesmod.FormKey(written.header.masters[armor.form_id >> 24], armor.form_id & 0xFFFFFF)
        winner = lo[fk]
        before = struct.unpack_from("<f", winner.field("DATA").as_bytes(), weight_at)[0]
        after = struct.unpack_from("<f", armor.field("DATA").as_bytes(), weight_at)[0]
        assert after == pytest.approx(before / 2), fk
        # Nothing else of the record changed (FormIDs compared as the forms they name).
        assert [f.signature for f in armor.fields] == [f.signature for f in winner.fields]
        assert armor.field("DATA").as_bytes()[:weight_at] == winner.field("DATA").as_bytes()[:weight_at]
        assert armor.field("EDID").as_bytes() == winner.field("EDID").as_bytes()
        halved += 1
    assert halved == sum(1 for a in lo.winning("ARMO") if struct.unpack_from("<f", a.field("DATA").as_bytes(),
                                                                              weight_at)[0] != 0)
    assert halved > 0


def test_keyword_leveled_weapons(sse_data, tmp_path):
    """Skyrim only: Oblivion has no keywords (the example says so)."""
    folder = sse_data
    lo = tesmod.load_order(data=str(folder))
    # The list that reaches the most weapons, found with raw bytes (LVLO: level u16, 2 bytes, FormID, ...).
    def reach(record, seen, weapons):
        for f in record.fields:
            if f.signature != "LVLO":
                continue
            fk = lo.form_key(plugin_of[record.form_key], struct.unpack_from("<I", f.as_bytes(), 4)[0])
            if fk is None or fk in seen:
                continue
            seen.add(fk)
            target = lo.get(fk)
            if target is not None and target.type == "LVLI":
                reach(target, seen, weapons)
            elif target is not None and target.type == "WEAP":
                weapons.add(fk)
        return weapons
    plugin_of = {r.form_key: p for p, r in lo.winning("LVLI", with_plugin=True)}
    plugin_of.update({r.form_key: p for t in ("WEAP",) for p, r in lo.winning(t, with_plugin=True)})
    best = max(lo.winning("LVLI"), key=lambda r: len(reach(r, set(), set())))
    expected = reach(best, set(), set())
    assert expected, "no list of this order reaches a weapon (seed)"
    out = tmp_path / "LeveledWeaponKeyword.esp"
    run_example("keyword_leveled_weapons.py", folder, best.editor_id, out)
    written = check_written(folder, out, {"KYWD", "WEAP"})
    masters = written.header.masters
    keyword_id = len(masters) << 24 | 0x800
    assert written.get(keyword_id).editor_id == "tesmodFromLeveledList"
    got = set()
    for weapon in written.records("WEAP"):
        ids = struct.unpack(f"<{len(weapon.field('KWDA')) // 4}I", weapon.field("KWDA").as_bytes())
        assert keyword_id in ids
        assert struct.unpack("<I", weapon.field("KSIZ").as_bytes())[0] == len(ids)
        got.add(tesmod.FormKey(masters[weapon.form_id >> 24], weapon.form_id & 0xFFFFFF))
    assert got == expected


def add_plugin(folder, game, path):
    """Makes path the last active plugin of the folder's load order."""
    lines = (folder / "plugins.txt").read_text().splitlines()
    (folder / "plugins.txt").write_text("\n".join(lines + [("*" if game == "sse" else "") + path.name]) + "\n")
    latest = max(p.stat().st_mtime for p in folder.glob("*.es[mp]"))
    os.utime(path, (latest + 60, latest + 60))  # Oblivion loads by modification time


def plant_list_edits(game, folder):
    """Two plugins that edit the same leveled lists apart: ListsA adds an entry to the winner,
    ListsB (loading last) starts again from the master's version, drops its last entry and adds
    another. The winner then lacks A's addition: a merge is needed. Returns what each list must hold."""
    lo = tesmod.load_order(data=str(folder))
    chosen = [r for r in lo.winning("LVLI") if len(r.get_all("LVLO")) >= 2][:3]
    assert chosen, "no leveled list with two entries (seed)"
    a = lo.new_plugin("ListsA.esp")
    for r in chosen:
        c = a.add_override(r)
        entries = c.get_all("LVLO")
        c.set_all("LVLO", entries + [{**entries[0], "level": 77}])
        if game == "sse":
            c["LLCT"] = len(entries) + 1
    a.save(str(folder / "ListsA.esp"))
    add_plugin(folder, game, folder / "ListsA.esp")
    lo = tesmod.load_order(data=str(folder))
    b = lo.new_plugin("ListsB.esp")
    want = {}
    for r in chosen:
        c = b.add_override(lo.versions(r.form_key)[0]["record"])
        entries = c.get_all("LVLO")
        c.set_all("LVLO", entries[:-1] + [{**entries[0], "level": 88}])
        if game == "sse":
            c["LLCT"] = len(entries)
        want[r.form_key] = (entries[0]["item"], entries[-1]["level"], entries[-1]["item"])
    b.save(str(folder / "ListsB.esp"))
    add_plugin(folder, game, folder / "ListsB.esp")
    return want


def test_merge_leveled_lists(order, tmp_path):
    game, generated = order
    folder = tmp_path / "Data"
    shutil.copytree(generated, folder)
    want = plant_list_edits(game, folder)
    out = tmp_path / "MergedLists.esp"
    run_example("merge_leveled_lists.py", folder, out)
    types = {"LVLI", "LVLN", "LVSP", "LVLC"}
    written = check_written(folder, out, types)
    lo = tesmod.load_order(data=str(folder))
    masters = written.header.masters

    def raw_entries(record):
        """(level, FormID as stored, count) of each LVLO, from the raw bytes."""
        sign = "<H" if game == "sse" and record.type == "LVLI" else "<h"
        for f in record.fields:
            if f.signature == "LVLO":
                b = f.as_bytes()
                count = struct.unpack_from(sign, b, 8)[0] if len(b) >= 12 else 1
                yield struct.unpack_from(sign, b, 0)[0], struct.unpack_from("<I", b, 4)[0], count

    def entries(record, plugin):
        return {(level, lo.form_key(plugin, fid), count) for level, fid, count in raw_entries(record)}

    merged = 0
    for record in written.records():
        fk = tesmod.FormKey(masters[record.form_id >> 24], record.form_id & 0xFFFFFF)
        versions = lo.versions(fk)
        # The patch's entries, named through its own masters.
        mine = {(level, tesmod.FormKey(masters[fid >> 24], fid & 0xFFFFFF), count)
                for level, fid, count in raw_entries(record)}
        base = entries(versions[0]["record"], versions[0]["plugin"])
        for v in versions[1:]:
            have = entries(v["record"], v["plugin"])
            for added in have - base:
                assert added in mine, f"{fk}: {v['plugin']} adds {added}, the merge lost it"
            for removed in base - have:
                assert removed not in mine, f"{fk}: {v['plugin']} removes {removed}, the merge kept it"
        assert mine != entries(versions[-1]["record"], versions[-1]["plugin"]), f"{fk}: the winner had it already"
        if fk in want:  # the planted edits: A's addition and B's, without the entry B dropped
            first, dropped_level, dropped = want.pop(fk)
            levels = {(level, form) for level, form, _ in mine}
            assert (77, first) in levels and (88, first) in levels, mine
            assert (dropped_level, dropped) not in levels or (dropped_level, dropped) in {(77, first), (88, first)}
        if game == "sse":
            assert record.field("LLCT").as_uint() == sum(1 for _ in raw_entries(record))
        merged += 1
    assert want == {}, f"planted lists the merge left out: {want}"

"""tesmod.PatchPlugin (LoadOrder.new_plugin): overrides of a load order's winning records copied,
edited and saved with the masters they name; new records; ITPO reported; the same bytes for the
same edits; bad input refused with nothing written. Load orders made by
../shared/bench/make_load_order.py with this file's seeds; the written plugins read back by tesmod,
by the load order again, and by the independent reader ../shared/tools/inspect_plugin.py."""
import shutil
import struct
import subprocess
import sys

import pytest

import tesmod
from generated_orders import SHARED, make_load_order


@pytest.fixture(scope="module")
def sse_order(tmp_path_factory):
    return make_load_order(tmp_path_factory.mktemp("patch_plugin_sse"), "sse", 71, 72, plugins=4, records=3000)


def inspect(path):
    return subprocess.run([sys.executable, SHARED / "tools" / "inspect_plugin.py", str(path)], check=True,
                          capture_output=True, text=True).stdout


def with_patch(folder, patch):
    """The load order read again with the patch loading last."""
    names = [p["name"] for p in tesmod.load_order(data=str(folder)).plugins if p["active"]]
    return tesmod.load_order(files=[str(folder / n) for n in names] + [str(patch)])


def test_overrides_edited_and_saved(sse_order, tmp_path):
    lo = tesmod.load_order(data=str(sse_order))
    patch = lo.new_plugin("Halved.esp")
    winners = lo.winning("ARMO", with_plugin=True)
    assert winners and all(isinstance(p, str) for p, _ in winners)
    weights = {}
    for plugin, armor in winners:
        value, weight = struct.unpack("<if", armor.field("DATA").as_bytes()[:8])
        copy = patch.add_override(armor)
        assert copy.form_key == armor.form_key and copy.type == "ARMO"
        assert patch.add_override(armor).form_key == copy.form_key  # copied once
        copy.set_field("DATA", struct.pack("<if", value, weight / 2))
        weights[armor.form_key] = weight / 2
    assert len(patch) == len(winners)
    out = tmp_path / "Halved.esp"
    saved = patch.save(str(out))
    assert saved["overrides"] == len(winners) and saved["new_records"] == 0 and saved["itpo"] == []
    assert saved["light"] is True  # no new forms: Skyrim SE can load it light

    # The written plugin: verified, read by the independent reader, masters exactly those named.
    written = tesmod.open(str(out))
    assert written.verify()["identical"]
    assert written.header.masters == saved["masters"]
    report = inspect(out)
    assert "parse: OK" in report and f"ARMO={len(winners)}" in report
    # With the patch loading last it wins every armor, with the halved weight.
    lo2 = with_patch(sse_order, out)
    for fk, weight in weights.items():
        versions = lo2.versions(fk)
        assert versions[-1]["plugin"] == "Halved.esp"
        assert struct.unpack("<f", lo2[fk].field("DATA").as_bytes()[4:8])[0] == pytest.approx(weight)
    # tesmod's own conflict view agrees: every armor's winner is the patch.
    conflicts = [c for c in lo2.conflicts(types=["ARMO"]) if "Halved.esp" in c["versions"]]
    assert len(conflicts) == len(winners) and all(c["winner"] == "Halved.esp" for c in conflicts)


def test_new_records_and_form_keys_across_plugins(sse_order, tmp_path):
    lo = tesmod.load_order(data=str(sse_order))
    patch = lo.new_plugin("New.esp")
    # A record of a plugin that is not the first master: its plugin becomes a master.
    mod = next(p["name"] for p in lo.plugins if p["name"].startswith("Mod_") and p["active"])
    own = [r for r in lo.winning("KYWD") if r.form_key.plugin == mod] or \
          [r for t in ("ARMO", "WEAP", "MISC", "NPC_") for r in lo.winning(t) if r.form_key.plugin == mod]
    assert own, f"{mod} defines no record of the types looked at"
    copy = patch.add_override(own[0])
    kw = patch.add_record("KYWD", {"EDID": b"PatchKeyword\0"})
    assert kw.form_key == tesmod.FormKey("New.esp", 0x800)
    assert patch.add_record("KYWD").form_key == tesmod.FormKey("New.esp", 0x801)
    assert patch[kw.form_key].editor_id == "PatchKeyword"
    assert tesmod.FormKey("New.esp", 0x800) in patch and own[0].form_key in patch
    saved = patch.save(str(tmp_path / "New.esp"))
    assert mod in saved["masters"] and saved["new_records"] == 2 and saved["next_object_id"] == 0x802
    assert saved["masters"] == [p["name"] for p in lo.plugins if p["name"] in saved["masters"]]  # load order
    lo2 = with_patch(sse_order, tmp_path / "New.esp")
    assert lo2[tesmod.FormKey("New.esp", 0x800)].editor_id == "PatchKeyword"
    assert lo2[copy.form_key].form_key == copy.form_key
    # Taken out again: the master it needed goes too.
    assert patch.remove(copy) and not patch.remove(copy.form_key)
    assert mod not in patch.save(str(tmp_path / "New2.esp"))["masters"]


def test_same_edits_same_bytes(sse_order, tmp_path):
    def build(order_of_types, path):
        lo = tesmod.load_order(data=str(sse_order))
        patch = lo.new_plugin("Same.esp")
        for t in order_of_types:
            for r in lo.winning(t):
                patch.add_override(r).set_flags(r.flags | 0x20)  # something changed, so no ITPO
        patch.add_record("KYWD", {"EDID": b"Made\0"})
        patch.save(str(path))
        return path.read_bytes()
    a = build(["ARMO", "WEAP", "LVLI"], tmp_path / "a.esp")
    b = build(["LVLI", "WEAP", "ARMO"], tmp_path / "b.esp")
    assert a == b and a == build(["ARMO", "WEAP", "LVLI"], tmp_path / "c.esp")


def test_itpo_is_reported(sse_order, tmp_path):
    lo = tesmod.load_order(data=str(sse_order))
    patch = lo.new_plugin("Itpo.esp")
    armor = lo.winning("ARMO", with_plugin=True)[0]
    patch.add_override(armor[1])
    with pytest.warns(UserWarning, match="ITPO"):
        saved = patch.save(str(tmp_path / "Itpo.esp"))
    assert [(i["form_key"], i["same_as"]) for i in saved["itpo"]] == [(armor[1].form_key, armor[0])]


def test_bad_input(sse_order, tmp_path):
    lo = tesmod.load_order(data=str(sse_order))
    with pytest.raises(tesmod.Error, match="has a plugin of this name"):
        lo.new_plugin("mod_01.ESP")
    patch = lo.new_plugin("Bad.esp")
    with pytest.raises(KeyError, match="not in the load order"):
        patch.add_override(tesmod.FormKey("Missing.esp", 0x800))
    with pytest.raises(tesmod.Error, match="no active plugin has a record"):
        patch.add_override(tesmod.FormKey(lo.plugins[0]["name"], 0xFFFFF0))
    with pytest.raises(tesmod.Error, match="cells, worlds or topics"):
        patch.add_record("REFR")
    other = tesmod.open(str(sse_order / "Mod_01.esp"))
    with pytest.raises(ValueError, match="another plugin"):
        patch.add_override(next(iter(other.records("ARMO"))))
    # Saving over a plugin of the load order: refused, the plugin untouched.
    patch.add_override(lo.winning("ARMO")[0]).set_flags(0x20)
    target = sse_order / "Mod_01.esp"
    before = target.read_bytes()
    with pytest.raises(tesmod.Error, match="a plugin of the load order"):
        patch.save(str(target))
    assert target.read_bytes() == before
    # A field holding a FormID the patch cannot name: refused at save, nothing written.
    weap = patch.add_override(lo.winning("WEAP")[0])
    weap.set_field("KWDA", struct.pack("<I", 0x40000800))
    with pytest.raises(tesmod.Error, match="names none of"):
        patch.save(str(tmp_path / "Bad.esp"))
    assert not (tmp_path / "Bad.esp").exists()


def test_master_limit(sse_order, tmp_path):
    """A record naming forms of 256 plugins: the 256th master is refused, and nothing is saved."""
    base = sse_order
    work = tmp_path / "many"
    work.mkdir()
    files = [str(base / "master.esm")]
    for i in range(256):
        shutil.copy(base / "Mod_01.esp", work / f"Copy{i:03d}.esp")
        files.append(str(work / f"Copy{i:03d}.esp"))
    lo = tesmod.load_order(files=files)
    patch = lo.new_plugin("Many.esp")
    weapon = patch.add_record("WEAP", {"EDID": "ManyKeywords"})
    weapon["KWDA"] = [tesmod.FormKey(f"Copy{i:03d}.esp", 0x800) for i in range(255)]
    assert len(weapon["KWDA"]) == 255
    with pytest.raises(tesmod.Error, match="256th master"):
        weapon["KWDA"] = [tesmod.FormKey(f"Copy{i:03d}.esp", 0x800) for i in range(256)]
    assert len(weapon["KWDA"]) == 255  # the failed assignment changed nothing
    saved = patch.save(str(tmp_path / "Many.esp"))
    assert len(saved["masters"]) == 255

"""VMAD as dicts from Python: every corpus VMAD read as a dict and given back encodes to the same
bytes; edits through the dict are written and read back; bad dicts are refused."""
import copy

import pytest

import tesmod


def skyrim_plugins(corpus):
    return sorted(p for p in corpus.rglob("*.es[mp]") if "skyrim" in p.parts[len(corpus.parts)])


def test_every_vmad_round_trips_through_a_dict(corpus, tmp_path):
    total = 0
    kinds = set()
    for path in skyrim_plugins(corpus):
        plugin = tesmod.open(str(path))
        touched = 0
        for record in plugin:
            vmad = record.vmad()
            if vmad is None:
                continue
            stored = record.field("VMAD").as_bytes()
            record.set_vmad(copy.deepcopy(vmad))
            assert record.field("VMAD").as_bytes() == stored, record
            assert record.vmad() == vmad
            if vmad["fragments"]:
                kinds.add(vmad["fragments"]["record_type"])
            touched += 1
        total += touched
        # Written back, the plugin is the same file (edited compressed records are compressed
        # again by tesmod's deflate, so only the others are edited here).
        plugin = tesmod.open(str(path))
        for record in plugin:
            if not record.compressed and record.field("VMAD") is not None:
                record.set_vmad(record.vmad())
        out = tmp_path / path.name
        plugin.save(str(out))
        assert out.read_bytes() == path.read_bytes(), path.name
    assert total > 100
    assert {"QUST", "INFO"} <= kinds


def test_edit_a_property(corpus, tmp_path):
    for path in skyrim_plugins(corpus):
        plugin = tesmod.open(str(path))
        for record in plugin:
            vmad = record.vmad()
            if not vmad or not vmad["scripts"]:
                continue
            script = vmad["scripts"][0]
            script["properties"].append({"name": "TesmodAdded", "type": "float[]", "status": 1, "value": [1.5, -2.0]})
            if vmad["version"] < 5:
                continue  # arrays exist from version 5 on
            record.set_vmad(vmad)
            out = tmp_path / "edited.esp"
            plugin.save(str(out))
            again = tesmod.open(str(out))[record.form_id].vmad()
            assert again["scripts"][0]["properties"][-1] == {"name": "TesmodAdded", "type": "float[]", "status": 1,
                                                            "value": [1.5, -2.0]}
            return
    pytest.fail("no VMAD of version 5 with a script in the corpus")


def test_bad_dicts(corpus):
    for path in skyrim_plugins(corpus):
        plugin = tesmod.open(str(path))
        record = next((r for r in plugin if r.vmad() and r.vmad()["scripts"]), None)
        if record is None:
            continue
        good = record.vmad()
        broken = copy.deepcopy(good)
        del broken["scripts"][0]["name"]
        with pytest.raises(ValueError, match="missing key 'name'"):
            record.set_vmad(broken)
        wrong = copy.deepcopy(good)
        wrong["scripts"][0]["properties"] = [{"name": "X", "type": "int", "status": 1, "value": "seven"}]
        with pytest.raises(ValueError, match="not a int"):
            record.set_vmad(wrong)
        old = copy.deepcopy(good)
        old["version"] = 3
        old["scripts"][0]["properties"] = [{"name": "X", "type": "int[]", "status": 1, "value": [1]}]
        with pytest.raises(tesmod.Error):
            record.set_vmad(old)  # arrays need version 5
        return
    pytest.fail("no VMAD with a script in the corpus")

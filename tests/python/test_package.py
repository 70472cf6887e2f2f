"""AI packages as dicts from Python, both games: every corpus PACK read as a dict and given back
is the same record; edits through the dict are written and read back."""
import copy

import pytest

import tesmod


def plugins(corpus, game):
    return sorted(p for p in (corpus / game).rglob("*.es[mp]"))


@pytest.mark.parametrize("game", ["oblivion", "skyrim"])
def test_every_package_round_trips_through_a_dict(corpus, tmp_path, game):
    total = 0
    for path in plugins(corpus, game):
        plugin = tesmod.open(str(path))
        packs = list(plugin.records("PACK"))
        if not packs:
            continue
        for record in packs:
            before = [(f.signature, f.as_bytes()) for f in record.fields]
            package = record.package()
            record.set_package(copy.deepcopy(package))
            assert [(f.signature, f.as_bytes()) for f in record.fields] == before, record
            # Conditions given as text only are parsed back to the same fields.
            text_only = copy.deepcopy(package)
            for condition in text_only["conditions"]:
                del condition["fields"]
            record.set_package(text_only)
            assert [(f.signature, f.as_bytes()) for f in record.fields] == before, record
            total += 1
        if not any(r.compressed for r in packs):
            out = tmp_path / path.name
            plugin.save(str(out))
            assert out.read_bytes() == path.read_bytes(), path.name
    assert total >= 10


def test_edit_a_skyrim_package(corpus, tmp_path):
    for path in plugins(corpus, "skyrim"):
        plugin = tesmod.open(str(path))
        record = next((r for r in plugin.records("PACK") if not r.compressed), None)
        if record is None:
            continue
        package = record.package()
        package["schedule"]["hour"] = 7
        package["schedule"]["duration_minutes"] = 90
        package["conditions"].append({"text": "GetIsID(@00000007) == 1.0"})
        record.set_package(package)
        out = tmp_path / "edited.esp"
        plugin.save(str(out))
        again = tesmod.open(str(out))[record.form_id].package()
        assert again["schedule"]["hour"] == 7 and again["schedule"]["duration_minutes"] == 90
        assert again["conditions"][-1]["text"].startswith("GetIsID(")
        assert again["editor_id"] == package["editor_id"]
        return
    pytest.fail("no uncompressed Skyrim PACK in the corpus")


def test_bad_package_dicts(corpus):
    for path in plugins(corpus, "oblivion"):
        plugin = tesmod.open(str(path))
        record = next(iter(plugin.records("PACK")), None)
        if record is None:
            continue
        package = record.package()
        broken = copy.deepcopy(package)
        del broken["schedule"]
        with pytest.raises(ValueError, match="missing key 'schedule'"):
            record.set_package(broken)
        wrong = copy.deepcopy(package)
        wrong["data"]["unused"] = b"\x00"
        with pytest.raises(ValueError, match="expected 3 bytes"):
            record.set_package(wrong)
        with pytest.raises(ValueError):
            next(plugin.records("NPC_")).package()
        return
    pytest.fail("no Oblivion PACK in the corpus")

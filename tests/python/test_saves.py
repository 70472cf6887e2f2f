"""Oblivion saves from Python: summary, player and actor dicts, edits, atomic writes; damaged
saves raise tesmod.Error."""
import pytest

import tesmod


def oblivion_saves(corpus):
    found = sorted((corpus / "saves-oblivion").rglob("*.ess"))
    assert found, "no Oblivion saves in the corpus"
    return found


def test_info_and_player(corpus):
    for path in oblivion_saves(corpus):
        save = tesmod.open_save(str(path))
        info = save.info()
        assert info["file"] == str(path) and info["bytes"] == path.stat().st_size
        player = save.player
        assert player["form_id"] == "00000007" and player["type"] == "NPC_"
        assert save.actor(7) == player == save.actor("00000007")


def test_unedited_save_is_identical(corpus, tmp_path):
    for path in oblivion_saves(corpus)[:4]:
        out = tmp_path / path.name
        tesmod.open_save(str(path)).save(str(out))
        assert out.read_bytes() == path.read_bytes(), path.name


def test_edit_the_player(corpus, tmp_path):
    path = oblivion_saves(corpus)[0]
    original = path.read_bytes()
    save = tesmod.open_save(str(path))
    before = save.player
    if "attributes" not in before or "skills" not in before:
        pytest.fail(f"{path.name}: the player's change record holds no attributes or skills")
    attribute = next(iter(before["attributes"]))
    skill = next(iter(before["skills"]))
    save.edit_actor(7, attributes={attribute: 77}, skills={skill: 66}, name="Tesmod Tester")
    out = tmp_path / "edited.ess"
    save.save(str(out))
    after = tesmod.open_save(str(out)).player
    assert after["attributes"][attribute] == 77 and after["skills"][skill] == 66
    assert after["full_name"] == "Tesmod Tester"
    others = {k: v for k, v in before["attributes"].items() if k != attribute}
    assert {k: v for k, v in after["attributes"].items() if k != attribute} == others
    assert path.read_bytes() == original


def test_refused_edits_change_nothing(corpus, tmp_path):
    path = oblivion_saves(corpus)[0]
    save = tesmod.open_save(str(path))
    attribute = next(iter(save.player["attributes"]))
    with pytest.raises(tesmod.Error) as e:
        save.edit_actor(7, attributes={attribute: 300})
    assert e.value.file == str(path)
    with pytest.raises(tesmod.Error):
        save.edit_actor(7, skills={"NoSuchSkill": 5})
    with pytest.raises(ValueError):
        save.edit_actor(7, base_data={"charisma": 5})
    out = tmp_path / "unchanged.ess"
    save.save(str(out))
    assert out.read_bytes() == path.read_bytes()


def test_damaged_saves(corpus, tmp_path):
    path = oblivion_saves(corpus)[0]
    cut = tmp_path / "cut.ess"
    cut.write_bytes(path.read_bytes()[:200])
    with pytest.raises(tesmod.Error) as e:
        tesmod.open_save(str(cut))
    assert e.value.file == str(cut) and e.value.offset is not None
    save = tesmod.open_save(str(path))
    with pytest.raises(tesmod.Error):
        save.actor(0x00FFFFFE)

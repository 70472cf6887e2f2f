"""Conditions from Python: rendered as text, read back, edited, on corpus plugins of both games."""
import pytest

import tesmod


def plugins_with_conditions(corpus, game, count):
    found = []
    for path in sorted(p for p in (corpus / game).rglob("*.esp")):
        plugin = tesmod.open(str(path))
        if any(r.conditions() for r in plugin.records("INFO")):
            found.append(path)
        if len(found) == count:
            break
    assert found, f"no {game} plugin with INFO conditions"
    return found


@pytest.mark.parametrize("game", ["oblivion", "skyrim"])
def test_text_round_trip_rewrites_the_same_bytes(corpus, tmp_path, game):
    for path in plugins_with_conditions(corpus, game, 2):
        plugin = tesmod.open(str(path))
        total = 0
        for record in plugin:
            lines = record.conditions()
            for i, line in enumerate(lines):
                record.replace_condition(i, line)
            assert record.conditions() == lines
            total += len(lines)
        out = tmp_path / path.name
        plugin.save(str(out))
        assert total > 0
        assert out.read_bytes() == path.read_bytes(), path.name


def test_edit_a_condition(corpus, tmp_path):
    path = plugins_with_conditions(corpus, "skyrim", 1)[0]
    plugin = tesmod.open(str(path))
    record = next(r for r in plugin.records("INFO") if r.conditions())
    lines = record.conditions()
    first = record.condition_dicts()[0]
    assert isinstance(first, dict) and first
    record.insert_condition(0, "GetIsID(@00000007) == 1.0 OR")
    record.remove_condition(len(lines))  # the last of the original ones
    out = tmp_path / "edited.esp"
    plugin.save(str(out))
    again = tesmod.open(str(out))[record.form_id].conditions()
    assert again[0].startswith("GetIsID(") and again[0].endswith("OR")
    assert again[1:] == lines[:-1]


def test_bad_condition_text(corpus):
    path = plugins_with_conditions(corpus, "oblivion", 1)[0]
    plugin = tesmod.open(str(path))
    record = next(r for r in plugin.records("INFO") if r.conditions())
    with pytest.raises(tesmod.TextError) as e:
        record.replace_condition(0, "GetStage(NoSuchQuestAnywhere >= 10")
    assert isinstance(e.value, ValueError) and isinstance(e.value, tesmod.Error)
    assert e.value.column is not None and e.value.column > 0
    with pytest.raises(IndexError):
        record.replace_condition(99, "GetIsID(@00000007) == 1.0")

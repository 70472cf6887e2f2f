"""tesmod.open and the read side of plugins, on corpus plugins of both games, checked against
MANIFEST.tsv and the plain-Python walker (plain_walker.py)."""
import ast
import gc
import shutil
from collections import Counter
from pathlib import Path

import pytest

import plain_walker
import tesmod

STUBS = Path(tesmod.__file__).with_name("_tesmod.pyi")


def plugins(corpus, game, count=None):
    found = sorted(p for p in (corpus / game).rglob("*") if p.suffix.lower() in (".esp", ".esm", ".esl"))
    assert found, f"no {game} plugins in the corpus"
    return found[:count] if count else found


def test_counts_and_games_match_the_manifest(corpus, record_counts):
    checked = 0
    for rel, records in sorted(record_counts.items()):
        path = corpus / rel
        plugin = tesmod.open(str(path))
        assert len(plugin) == records, rel
        assert plugin.game == ("oblivion" if rel.startswith("oblivion/") else plugin.game)
        if rel.startswith("skyrim"):
            assert plugin.game in ("skyrim", "skyrimse"), rel
        assert sum(1 for _ in plugin) == records, rel
        checked += 1
    assert checked >= 20


@pytest.mark.parametrize("game", ["oblivion", "skyrim"])
def test_records_match_the_plain_walker(corpus, game):
    for path in plugins(corpus, game, 12):
        plugin = tesmod.open(str(path))
        ours = [(r.type, r.form_id, r.flags, r.editor_id) for r in plugin]
        assert ours == list(plain_walker.records(path)), path.name
        by_type = Counter(t for t, *_ in ours)
        for rtype, n in by_type.items():
            assert [r.form_id for r in plugin.records(rtype)] == [f for t, f, *_ in ours if t == rtype]
            assert sum(1 for _ in plugin.records(rtype)) == n


def test_header_and_masters(corpus):
    path = corpus / "oblivion/Laulajatar__my-oblivion-mods/CTAddPose_Custom.esp"
    plugin = tesmod.open(str(path))
    header = plugin.header
    assert plugin.path == str(path)
    assert plugin.masters == ["Oblivion.esm"] == header.masters
    assert header.author == "Laulajatar"
    assert header.version_text in ("0.80", "1.00")
    assert isinstance(header.record_count, int) and isinstance(header.next_object_id, int)
    assert not header.is_master
    assert repr(plugin).startswith("<tesmod.Plugin ")


def test_fields_tile_the_record_and_views_outlive_the_plugin(corpus):
    path = plugins(corpus, "skyrim", 1)[0]
    plugin = tesmod.open(str(path))
    views = []
    compressed = 0
    for record in plugin:
        fields = record.fields
        edid = record.field("EDID")
        assert (edid.as_string() if edid else None) == record.editor_id
        if record.compressed:
            compressed += 1
        else:
            assert record.offset is not None
            stored = sum(6 + len(f) + (10 if f.oversize else 0) for f in fields)
            assert stored == _data_size(path, record.offset), record
        for f in fields:
            assert len(f.signature) == 4
            assert bytes(f.data) == f.as_bytes() == bytes(f)
            assert f.data.readonly
        if fields:
            views.append((fields[0].data, fields[0].as_bytes()))
    del plugin, fields
    gc.collect()
    assert views and all(bytes(view) == copy for view, copy in views)


def _data_size(path, offset):
    with open(path, "rb") as f:
        f.seek(offset + 4)
        return int.from_bytes(f.read(4), "little")


def test_compressed_records_read_through(corpus):
    seen = 0
    for path in plugins(corpus, "skyrim"):
        plugin = tesmod.open(str(path))
        for record in plugin:
            if record.compressed:
                names = [f.signature for f in record.fields]
                assert names and all(len(n) == 4 for n in names)
                if record.editor_id is not None:
                    assert names[0] == "EDID"
                seen += 1
        if seen >= 50:
            break
    assert seen > 0, "no compressed records in the Skyrim corpus"


def test_typed_accessors(corpus):
    plugin = tesmod.open(str(plugins(corpus, "oblivion", 1)[0]))
    hedr_like = 0
    for record in plugin:
        for f in record.fields:
            raw = f.as_bytes()
            if len(raw) == 4:
                assert f.as_uint() == int.from_bytes(raw, "little")
                assert f.as_int() == int.from_bytes(raw, "little", signed=True)
                assert f.as_form_id() == f.as_uint()
                hedr_like += 1
            elif len(raw) == 3:
                with pytest.raises(tesmod.Error) as e:
                    f.as_float()
                assert e.value.record[1] == record.form_id
                assert "expected a float" in str(e.value)
    assert hedr_like > 0


def test_lookup_by_form_id(corpus):
    plugin = tesmod.open(str(plugins(corpus, "oblivion", 1)[0]))
    first = next(iter(plugin))
    assert plugin[first.form_id].offset == first.offset
    assert first.form_id in plugin
    assert plugin.get(0xFEDCBA98) is None
    with pytest.raises(KeyError):
        plugin[0xFEDCBA98]


def test_damaged_plugins_raise_tesmod_error(corpus, tmp_path):
    source = plugins(corpus, "oblivion", 1)[0]
    cut = tmp_path / "cut.esp"
    cut.write_bytes(source.read_bytes()[: source.stat().st_size // 2 + 3])
    with pytest.raises(tesmod.Error) as e:
        plugin = tesmod.open(str(cut))
        for record in plugin:
            record.fields
    assert e.value.file == str(cut)
    assert isinstance(e.value.offset, int)
    assert str(cut) in str(e.value)
    missing = tmp_path / "missing.esp"
    with pytest.raises(tesmod.Error) as e:
        tesmod.open(str(missing))
    assert e.value.file == str(missing)
    text = tmp_path / "text.esp"
    text.write_bytes(b"not a plugin at all, just text")
    with pytest.raises(tesmod.Error) as e:
        tesmod.open(str(text))
    assert e.value.offset is not None and e.value.detail


def test_bad_arguments(corpus):
    path = str(plugins(corpus, "oblivion", 1)[0])
    with pytest.raises(ValueError):
        tesmod.open(path, game="morrowind")
    with pytest.raises(ValueError):
        tesmod.open(path).records("NPC")


def test_stubs_describe_the_module():
    tree = ast.parse(STUBS.read_text())
    stubbed = {n.name: n for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    for name in tesmod.__all__:
        if name != "__version__":
            assert name in stubbed, f"{name} has no stub"
    for name, node in stubbed.items():
        runtime = getattr(tesmod, name)
        if isinstance(node, ast.ClassDef):
            for member in node.body:
                member_name = getattr(member, "name", None) or getattr(getattr(member, "target", None), "id", None)
                if member_name:
                    assert hasattr(runtime, member_name), f"{name}.{member_name} is stubbed but missing"
            stubbed_members = {getattr(m, "name", None) or getattr(getattr(m, "target", None), "id", None)
                               for m in node.body}
            for member_name in dir(runtime):
                if not member_name.startswith("_") and member_name not in stubbed_members:
                    if not issubclass(runtime, tesmod.Error) and not hasattr(Exception, member_name):
                        pytest.fail(f"{name}.{member_name} has no stub")

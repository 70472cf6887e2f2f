"""tesmod.open(path, lazy=True) and Plugin.editor_ids: the same records, fields, EditorIDs and
errors as a full open, on corpus plugins of both games."""
import struct
from collections import Counter

import pytest

import tesmod
from test_plugin import plugins


@pytest.mark.parametrize("game", ["oblivion", "skyrim"])
def test_lazy_reads_every_type_as_a_full_open(corpus, game):
    types_checked = 0
    for path in plugins(corpus, game, 15):
        full = tesmod.open(str(path))
        by_type = Counter(r.type for r in full)
        lazy = tesmod.open(str(path), lazy=True)
        assert lazy.header.masters == full.header.masters
        assert lazy.header.record_count == full.header.record_count
        for rtype in sorted(by_type):
            want = [(r.form_id, r.offset, r.flags, r.editor_id) for r in full.records(rtype)]
            got = [(r.form_id, r.offset, r.flags, r.editor_id) for r in lazy.records(rtype)]
            assert got == want, (path.name, rtype)
            assert lazy.editor_ids(rtype) == [(f, e) for f, _, _, e in want]
            first = next(lazy.records(rtype))
            assert [(f.signature, bytes(f.data)) for f in first.fields] == \
                [(f.signature, bytes(f.data)) for f in full.get(first.form_id).fields]
            types_checked += 1
        # Everything else works on a lazy open too (it indexes the whole file first).
        assert lazy.game == full.game
        assert len(lazy) == len(full)
        assert [r.form_id for r in lazy] == [r.form_id for r in full]
    assert types_checked >= 40


def test_editor_ids_match_the_records(corpus):
    for path in plugins(corpus, "skyrim", 10):
        plugin = tesmod.open(str(path))
        loop = [(r.form_id, r.editor_id) for r in plugin]
        assert plugin.editor_ids() == loop
        assert plugin.editor_ids(threads=1) == loop
        # After an edit they come from the editable model.
        if loop:
            form_id = loop[0][0]
            plugin[form_id].set_field("EDID", "RenamedByTest")
            assert plugin.editor_ids()[0] == (form_id, "RenamedByTest")


def test_lazy_damage_is_raised_when_its_group_is_read(corpus, tmp_path):
    # A Skyrim plugin with at least two top-level groups: the last record of the last group gets
    # a type no record has.
    for path in plugins(corpus, "skyrim"):
        full = tesmod.open(str(path))
        types = list(dict.fromkeys(r.type for r in full))
        if len(types) >= 2 and types[-1] not in ("CELL", "WRLD", "REFR", "ACHR", "NAVM", "LAND", "INFO", "DIAL"):
            break
    else:
        pytest.fail("no Skyrim plugin with two plain top-level groups")
    last = list(full.records(types[-1]))[-1]
    data = bytearray(path.read_bytes())
    data[last.offset:last.offset + 4] = b"a!b?"
    damaged = tmp_path / "damaged.esp"
    damaged.write_bytes(bytes(data))
    with pytest.raises(tesmod.Error) as full_error:
        tesmod.open(str(damaged))
    lazy = tesmod.open(str(damaged), lazy=True)  # the top level is sound
    assert len(list(lazy.records(types[0]))) == sum(1 for r in full.records(types[0]))
    with pytest.raises(tesmod.Error) as lazy_error:
        list(lazy.records(types[-1]))
    assert str(lazy_error.value) == str(full_error.value)
    assert lazy_error.value.offset == last.offset
    # A top-level group cut short fails the lazy open itself.
    cut = tmp_path / "cut.esp"
    cut.write_bytes(path.read_bytes()[:-3])
    with pytest.raises(tesmod.Error):
        tesmod.open(str(cut), lazy=True)


def test_lazy_game_is_the_full_opens(corpus):
    # HEDR 1.71 or the ESL flag say SE; otherwise the records' form versions decide (a full index).
    for path in plugins(corpus, "skyrim", 10):
        raw = path.read_bytes()
        version = struct.unpack_from("<f", raw, 30)[0]
        lazy = tesmod.open(str(path), lazy=True)
        assert lazy.game == tesmod.open(str(path)).game, (path.name, version)


def test_threads_share_a_lazy_plugin(corpus):
    import threading
    path = max(plugins(corpus, "skyrim"), key=lambda p: p.stat().st_size)
    want = tesmod.open(str(path)).editor_ids()
    by_type = {}
    full = tesmod.open(str(path))
    for r in full:
        by_type.setdefault(r.type, []).append((r.form_id, r.editor_id))
    shared = tesmod.open(str(path), lazy=True)
    failures = []

    def work(rtype):
        try:
            for _ in range(3):
                assert shared.editor_ids(rtype) == by_type[rtype]
                assert [(r.form_id, r.editor_id) for r in shared.records(rtype)] == by_type[rtype]
        except Exception as e:  # reported below, from the main thread
            failures.append((rtype, e))

    threads = [threading.Thread(target=work, args=(t,)) for t in sorted(by_type)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures
    assert shared.editor_ids() == want

"""Editing plugins from Python: fields and records changed, saved, reopened; what was not
edited stays byte-identical."""
import struct

import pytest

import plain_walker
import tesmod


def corpus_plugin(corpus, game):
    return sorted(p for p in (corpus / game).rglob("*.esp"))[0]


def test_unedited_save_is_identical(corpus, tmp_path):
    for game in ("oblivion", "skyrim"):
        source = corpus_plugin(corpus, game)
        out = tmp_path / f"same-{game}.esp"
        tesmod.open(str(source)).save(str(out))
        assert out.read_bytes() == source.read_bytes(), source.name


def test_edit_save_reopen(corpus, tmp_path):
    source = corpus_plugin(corpus, "skyrim")
    plugin = tesmod.open(str(source))
    before = list(plain_walker.records(source))
    first = next(iter(plugin))
    first.set_field("EDID", "TesmodEditedRecord")
    first.add_field("XTMD", b"\x01\x02\x03")
    added = plugin.add_record("MISC", [("EDID", "TesmodAddedCoin"), ("DATA", struct.pack("<If", 7, 0.5))])
    victim = [r for r in plugin if r.form_id not in (first.form_id, added.form_id)][-1]
    assert plugin.remove(victim.form_id)
    with pytest.raises(tesmod.Error) as e:
        victim.fields
    assert "removed" in str(e.value)
    assert plugin.modified and first.editor_id == "TesmodEditedRecord"
    out = tmp_path / "edited.esp"
    plugin.save(str(out))

    again = tesmod.open(str(out))
    assert len(again) == len(before)  # one added, one removed
    assert again[first.form_id].editor_id == "TesmodEditedRecord"
    assert bytes(again[first.form_id].field("XTMD").data) == b"\x01\x02\x03"
    coin = again[added.form_id]
    assert coin.type == "MISC" and coin.editor_id == "TesmodAddedCoin"
    assert struct.unpack("<If", coin.field("DATA").as_bytes()) == (7, 0.5)
    assert added.form_id >> 24 == len(again.masters)  # this plugin's own index
    assert victim.form_id not in again
    # Records not edited are as they were: same fields, same bytes.
    untouched = [r for r in before if r[1] not in (first.form_id, victim.form_id)]
    with open(source, "rb") as a:
        old = a.read()
    new = out.read_bytes()
    for rtype, form_id, flags, edid in untouched:
        r_old, r_new = tesmod.open(str(source))[form_id], again[form_id]
        size = struct.unpack_from("<I", old, r_old.offset + 4)[0]
        assert old[r_old.offset:r_old.offset + 24 + size] == new[r_new.offset:r_new.offset + 24 + size], hex(form_id)


def test_compress_and_header_edits(corpus, tmp_path):
    source = corpus_plugin(corpus, "skyrim")
    plugin = tesmod.open(str(source))
    record = next(r for r in plugin if not r.compressed and r.fields)
    fields = [(f.signature, f.as_bytes()) for f in record.fields]
    record.set_compressed(True)
    plugin.set_author("Tesmod Tester")
    out = tmp_path / "compressed.esp"
    plugin.save(str(out))
    again = tesmod.open(str(out))
    assert again.header.author == "Tesmod Tester"
    r = again[record.form_id]
    assert r.compressed
    assert [(f.signature, f.as_bytes()) for f in r.fields] == fields
    r.set_compressed(False)
    r.set_fields(fields[:1])
    out2 = tmp_path / "decompressed.esp"
    again.save(str(out2))
    r2 = tesmod.open(str(out2))[record.form_id]
    assert not r2.compressed and [(f.signature, f.as_bytes()) for f in r2.fields] == fields[:1]


def test_save_over_the_open_file(corpus, tmp_path):
    path = tmp_path / "inplace.esp"
    path.write_bytes(corpus_plugin(corpus, "oblivion").read_bytes())
    plugin = tesmod.open(str(path))
    record = next(iter(plugin))
    record.set_field("EDID", "TesmodInPlace")
    plugin.save(str(path))
    assert record.editor_id == "TesmodInPlace"  # the open plugin still reads (its old mapping)
    assert tesmod.open(str(path))[record.form_id].editor_id == "TesmodInPlace"


def test_failed_save_leaves_the_target(corpus, tmp_path):
    source = corpus_plugin(corpus, "oblivion")
    plugin = tesmod.open(str(source))
    next(iter(plugin)).set_field("EDID", "X")
    with pytest.raises(tesmod.Error):
        plugin.save(str(tmp_path / "no such folder" / "out.esp"))
    assert not (tmp_path / "no such folder").exists()


def test_bad_edits(corpus):
    plugin = tesmod.open(str(corpus_plugin(corpus, "oblivion")))
    record = next(iter(plugin))
    with pytest.raises(ValueError):
        record.set_field("EDIDX", b"")
    with pytest.raises(TypeError):
        record.set_field("EDID", 12)
    with pytest.raises(ValueError):
        plugin.add_record("MISC", form_id=record.form_id)
    with pytest.raises(ValueError):
        plugin.add_record("GRUP")


def test_verify_and_the_gil(corpus):
    import threading
    paths = sorted(p for p in corpus.rglob("*.es[mp]"))[:20]
    results = {}

    def work(path):
        results[path] = tesmod.open(str(path)).verify()

    threads = [threading.Thread(target=work, args=(p,)) for p in paths]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for path in paths:
        r = results[path]
        assert r["identical"] and r["first_difference"] is None, path.name
        assert r["written"] == path.stat().st_size

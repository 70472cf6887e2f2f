"""Typed fields from Python: record[sig] reads a field through its layout (a dict of its members,
FormKeys, enum labels, flag sets) and record[sig] = value writes it back, every byte the value does
not change kept; on corpus plugins of both games and on the localized sample."""
import re
import struct
from pathlib import Path

import pytest

import tesmod

SOURCE = Path(__file__).resolve().parents[2]
OBLIVION = "oblivion/Laulajatar__my-oblivion-mods/lNameless Overhaul.esp"
OBLIVION_2 = "oblivion/klusark__OblivionOnline/OOStartingMod.esp"
CAMPFIRE = "skyrim/chesko256__Campfire/Campfire.esp"
SILVER_HAND = "skyrim/AndersonPaschoalon__Skyrim-DSilHand/DawnOfTheSilverHand.esp"
FARM = "skyrimse/skyrim-multiplayer__skymp/FarmSystem.esp"


def plugin_path(corpus, name):
    path = corpus / name
    assert path.is_file(), f"{name} (in the corpus MANIFEST) is missing"
    return path


def raw_sig(sig):
    """Field.signature writes a signature that is not printable escaped ('\\x00IAD')."""
    return sig.encode().decode("unicode_escape") if len(sig) > 4 else sig


def stored(record):
    return [(f.signature, bytes(f)) for f in record.fields]


def raw(record, sig, index=0):
    return [data for s, data in stored(record) if s == sig][index]


def expected_key(plugin, form_id):
    """The form a FormID stored in plugin names: its top byte indexes the masters, then the plugin."""
    masters = plugin.masters
    index = form_id >> 24
    return tesmod.FormKey(masters[index] if index < len(masters) else Path(plugin.path).name, form_id & 0xFFFFFF)


def name_of(record):
    return f"{record.type} {record.form_id:08X} '{record.editor_id}'"


def owned_elsewhere(record_type, sig):
    """Fields other methods read (conditions(), vmad(), package()): bytes in record[sig]."""
    return sig in ("CTDA", "CTDT", "CIS1", "CIS2", "VMAD") or record_type == "PACK" and sig != "EDID"


@pytest.mark.parametrize("name", [OBLIVION, OBLIVION_2, CAMPFIRE, SILVER_HAND, FARM])
def test_every_field_read_typed_and_set_back_is_the_same_file(corpus, tmp_path, name):
    path = plugin_path(corpus, name)
    plugin = tesmod.open(str(path))
    fields = typed = 0
    for record in plugin:
        values = record.typed()
        sigs = [f.signature for f in record.fields]
        assert list(values) == list(dict.fromkeys(sigs))
        for sig in values:
            value = record[sig]
            count = sigs.count(sig)
            assert repr(value) == repr(values[sig])  # repr: a NaN differs from itself
            every = value if count > 1 else [value]
            assert len(every) == count and repr(record.get_all(sig)) == repr(every)
            if owned_elsewhere(record.type, sig):
                assert all(isinstance(v, bytes) for v in every)
            else:
                fields += count
                typed += sum(not isinstance(v, bytes) for v in every)
            record[sig] = value
    # Every value gave back the bytes it was read from: no record was even marked edited.
    assert not plugin.modified
    out = tmp_path / path.name
    plugin.save(str(out))
    assert out.read_bytes() == path.read_bytes()
    assert fields > 1000 and typed > 0.97 * fields, (fields, typed)


@pytest.mark.parametrize("name", [OBLIVION, CAMPFIRE])
def test_fields_written_anew_from_their_values_are_the_same_bytes(corpus, tmp_path, name):
    """Each record's fields removed, then written one by one from the values read (no stored field
    to keep bytes from): layouts chosen again, FormKeys turned into FormIDs, labels into numbers."""
    path = plugin_path(corpus, name)
    plugin = tesmod.open(str(path))
    rewritten = trailing_null = 0
    for record in plugin:
        if record.compressed:
            continue  # tesmod deflates edited compressed records its own way
        before = stored(record)
        values = {sig: record.get_all(sig) for sig, _ in before}
        record.set_fields([])
        written = {}
        for sig, _ in before:
            written.setdefault(sig, []).append(values[sig][len(written[sig])])
            record.add_field(raw_sig(sig), b"")  # at the end, where set_all writes the new last one
            record.set_all(sig, written[sig])
        after = stored(record)
        assert [s for s, _ in after] == [s for s, _ in before], record
        for (sig, old), (_, new) in zip(before, after):
            rewritten += 1
            if new != old:
                # Optional last FormIDs that are null read as None, which leaves them out of a new field.
                assert old == new + bytes(len(old) - len(new)) and len(old) % 4 == len(new) % 4, (record, sig)
                trailing_null += 1
        if after != before:
            record.set_fields([(raw_sig(s), d) for s, d in before])
    assert rewritten > 1000 and trailing_null < rewritten / 100
    out = tmp_path / path.name
    plugin.save(str(out))
    assert out.read_bytes() == path.read_bytes()


@pytest.mark.parametrize("name", [OBLIVION, CAMPFIRE, SILVER_HAND])
def test_form_keys_name_what_the_form_ids_top_byte_says(corpus, name):
    plugin = tesmod.open(str(plugin_path(corpus, name)))
    seen = set()
    for record in plugin:
        assert record.form_key == expected_key(plugin, record.form_id)
        fields = stored(record)
        values = {sig: record.get_all(sig) for sig, _ in fields}
        taken = {}
        for sig, data in fields:
            value = values[sig][taken.setdefault(sig, 0)]
            taken[sig] += 1
            if isinstance(value, tesmod.FormKey) and len(data) == 4:
                (form_id,) = struct.unpack("<I", data)
                assert value == expected_key(plugin, form_id), (record, sig)
                seen.add(value.plugin)
            elif sig == "KWDA":
                ids = struct.unpack(f"<{len(data) // 4}I", data)
                assert value == [expected_key(plugin, i) if i else None for i in ids]
    masters = set(plugin.masters)
    assert seen & masters and Path(plugin.path).name in seen, seen


def test_one_member_edited_changes_only_its_bytes(corpus, tmp_path):
    path = plugin_path(corpus, OBLIVION)
    plugin = tesmod.open(str(path))
    armor = next(plugin.records("ARMO"))
    before = stored(armor)
    assert list(armor["DATA"]) == ["armor-x100", "value", "health", "weight"]
    armor["DATA"] = {"weight": 2.5, "armor-x100": 1234}  # members left out keep their values
    old = struct.unpack("<HIIf", raw_of(before, "DATA"))
    assert struct.unpack("<HIIf", raw(armor, "DATA")) == (1234, old[1], old[2], 2.5)
    assert [f for f in stored(armor) if f[0] != "DATA"] == [f for f in before if f[0] != "DATA"]
    out = tmp_path / "edited.esp"
    plugin.save(str(out))
    again = tesmod.open(str(out))[armor.form_id]
    assert again["DATA"] == {"armor-x100": 1234, "value": old[1], "health": old[2], "weight": 2.5}

    skyrim = tesmod.open(str(plugin_path(corpus, CAMPFIRE)))
    armor = next(skyrim.records("ARMO"))
    value, weight = struct.unpack("<if", raw(armor, "DATA"))
    armor["DATA"] = {"value": value + 10, "weight": weight}
    assert struct.unpack("<if", raw(armor, "DATA")) == (value + 10, weight)


def raw_of(fields, sig):
    return next(data for s, data in fields if s == sig)


@pytest.mark.parametrize("name", [SILVER_HAND, OBLIVION])
def test_a_faction_rank_in_a_list_of_dicts(corpus, tmp_path, name):
    path = plugin_path(corpus, name)
    plugin = tesmod.open(str(path))
    npc = next(r for r in plugin.records("NPC_") if len(r.get_all("SNAM")) > 2)
    before = stored(npc)
    ranks = npc["SNAM"]
    assert isinstance(ranks, list) and list(ranks[0]) == ["faction", "rank", "unused"]
    lazy = next(r for r in tesmod.open(str(path), lazy=True).records("NPC_") if r.form_id == npc.form_id)
    assert repr(lazy.typed()) == repr(npc.typed())
    for entry, data in zip(ranks, [d for s, d in before if s == "SNAM"]):
        form_id, rank, _ = struct.unpack("<Ib3s", data)
        assert entry["faction"] == expected_key(plugin, form_id) and entry["rank"] == rank
    ranks[1]["rank"] = 7
    npc["SNAM"] = ranks
    after = stored(npc)
    changed = [i for i, (a, b) in enumerate(zip(before, after)) if a != b]
    assert len(after) == len(before) and len(changed) == 1
    old, new = before[changed[0]][1], after[changed[0]][1]
    assert struct.unpack("<Ib3s", new) == struct.unpack("<Ib3s", old)[:1] + (7,) + struct.unpack("<Ib3s", old)[2:]
    out = tmp_path / "ranks.esp"
    plugin.save(str(out))
    assert tesmod.open(str(out))[npc.form_id]["SNAM"][1]["rank"] == 7
    # Several fields take a list, one value each.
    with pytest.raises(TypeError, match=re.escape(f"{name_of(npc)} SNAM: the record holds {len(ranks)} of them")):
        npc["SNAM"] = ranks[0]


def test_keywords_appended_and_form_keys_of_other_plugins(corpus):
    plugin = tesmod.open(str(plugin_path(corpus, CAMPFIRE)))
    assert plugin.masters == ["Skyrim.esm", "Update.esm"]
    armor = next(r for r in plugin.records("ARMO") if "KWDA" in r)
    before = stored(armor)
    keywords = armor["KWDA"]
    assert all(isinstance(k, tesmod.FormKey) for k in keywords)
    keywords += [tesmod.FormKey("Skyrim.esm", 0x06BBE8), tesmod.FormKey("update.ESM", 0xAF0129),
                 tesmod.FormKey("Campfire.esp", 0x000D62)]
    armor["KWDA"] = keywords
    added = struct.pack("<3I", 0x0006BBE8, 0x01AF0129, 0x02000D62)
    assert raw(armor, "KWDA") == raw_of(before, "KWDA") + added
    # KSIZ, the count, is another field: the caller's to set.
    assert raw(armor, "KSIZ") == raw_of(before, "KSIZ")
    assert [s for s, _ in stored(armor)] == [s for s, _ in before]
    edited = raw(armor, "KWDA")
    with pytest.raises(ValueError, match=r"KWDA\.keywords\[\d+\]: FormKey Dawnguard\.esm:001234 names a plugin that is not "
                                         r"a master of Campfire\.esp"):
        armor["KWDA"] = keywords + [tesmod.FormKey("Dawnguard.esm", 0x1234)]
    assert raw(armor, "KWDA") == edited  # a failed write changes nothing


def test_wrong_values_name_the_record_field_and_member(corpus):
    plugin = tesmod.open(str(plugin_path(corpus, CAMPFIRE)))
    armor = next(r for r in plugin.records("ARMO") if "BOD2" in r and "VMAD" in r)
    who = re.escape(name_of(armor))
    cases = [
        ("DATA", {"value": 1, "weight": "heavy"}, TypeError, "DATA.weight: expected a number, got str"),
        ("DATA", {"value": 2**32, "weight": 1.0}, ValueError, "DATA.value: 4294967296 does not fit i32"),
        ("DATA", {"value": 1, "weight": 1e40}, ValueError, "DATA.weight: 1e+40 does not fit a 32-bit float"),
        ("ZZZZ", 5, TypeError, "ZZZZ: ARMO records have no layout for ZZZZ fields: expected bytes, got int"),
        ("DATA", {"value": 1, "wieght": 1.0}, ValueError, "DATA: has no member 'wieght' (its members: value weight)"),
        ("DATA", [1, 2.0], TypeError, "DATA: expected a dict of value weight, got list"),
        ("EDID", 5, TypeError, "EDID.name: expected text (str), got int"),
        ("BOD2", {"armor-type": "Mithril"}, ValueError, "BOD2.armor-type: 'Mithril' is not a value of ArmorType"),
        ("BOD2", {"armor-type": 1.5}, TypeError, "BOD2.armor-type: expected a label of ArmorType (str) or an int, got float"),
        ("BOD2", {"biped-slots": {"Body", "Wings"}}, ValueError, "BOD2.biped-slots: 'Wings' is not a flag of BipedSlots"),
        ("BOD2", {"biped-slots": "Body"}, TypeError, "BOD2.biped-slots: expected flags of BipedSlots"),
        ("RNAM", 0x19, TypeError, "RNAM.race: expected a tesmod.FormKey or None, got int"),
        ("KWDA", [None, "x"], TypeError, "KWDA.keywords[1]: expected a tesmod.FormKey or None, got str"),
        ("VMAD", {"scripts": []}, TypeError, "VMAD: expected bytes (conditions, VMAD and a package's fields"),
        ("FULL", "\u4e2d", ValueError, "FULL.name: cannot be written in cp1252"),
    ]
    before = stored(armor)
    for sig, value, error, message in cases:
        with pytest.raises(error, match=who + " " + re.escape(message)):
            armor[sig] = value
    assert stored(armor) == before and not plugin.modified
    with pytest.raises(KeyError, match=who + " has no NAM0 field"):
        armor["NAM0"]
    with pytest.raises(ValueError, match="4 characters"):
        armor["DATAX"]


def test_flags_are_sets_of_labels_and_unnamed_bits(corpus):
    plugin = tesmod.open(str(plugin_path(corpus, CAMPFIRE)))
    armor = next(r for r in plugin.records("ARMO") if "BOD2" in r)
    armor["BOD2"] = {"biped-slots": {"Body", "Hands"}, "armor-type": "HeavyArmor"}
    assert struct.unpack("<II", raw(armor, "BOD2")) == (0x4 | 0x8, 1)
    assert armor["BOD2"] == {"biped-slots": {"Body", "Hands"}, "armor-type": "HeavyArmor"}
    armor["BOD2"] = {"biped-slots": ["Feet"], "armor-type": 2}  # a list of labels, an enum by number
    assert struct.unpack("<II", raw(armor, "BOD2")) == (0x80, 2)
    armor["BOD2"] = {"biped-slots": 0x5, "armor-type": 7}  # an int of bits; a number no label names
    assert armor["BOD2"] == {"biped-slots": {"Head", "Body"}, "armor-type": 7}

    # Bits no label names are ints in the set, and stay when the labels change.
    npc = next(tesmod.open(str(plugin_path(corpus, SILVER_HAND))).records("NPC_"))
    acbs = bytearray(raw(npc, "ACBS"))
    acbs[18:20] = struct.pack("<H", 0x8005)  # template-flags: UseTraits, UseFactions, an unnamed bit
    npc.set_field("ACBS", bytes(acbs))
    value = npc["ACBS"]
    assert value["template-flags"] == {"UseTraits", "UseFactions", 0x8000}
    value["template-flags"] = (value["template-flags"] - {"UseFactions"}) | {"UseStats"}
    npc["ACBS"] = value
    after = raw(npc, "ACBS")
    assert struct.unpack("<H", after[18:20]) == (0x8003,) and after[:18] + after[20:] == bytes(acbs[:18] + acbs[20:])
    with pytest.raises(ValueError, match=r"ACBS\.template-flags: flag bits are not negative"):
        npc["ACBS"] = {"template-flags": {-1}}


def test_bytes_kept_where_the_value_is_unchanged(corpus):
    """What a value reads as and is given back as keeps its stored bytes: a NaN's bits, a FormID past
    the masters, a zstringN's bytes after its text."""
    plugin = tesmod.open(str(plugin_path(corpus, CAMPFIRE)))
    armor = next(r for r in plugin.records("ARMO") if "RNAM" in r)
    armor.set_field("DATA", struct.pack("<iI", 5, 0x7FC12345))  # a NaN with a payload
    armor.set_field("RNAM", struct.pack("<I", 0x05000019))  # top byte past the masters: the plugin itself
    armor["DATA"] = {"value": 6, "weight": armor["DATA"]["weight"]}
    assert struct.unpack("<iI", raw(armor, "DATA")) == (6, 0x7FC12345)
    assert armor["RNAM"] == tesmod.FormKey("Campfire.esp", 0x19)
    armor["RNAM"] = tesmod.FormKey("campfire.esp", 0x19)
    assert raw(armor, "RNAM") == struct.pack("<I", 0x05000019)
    armor["RNAM"] = tesmod.FormKey("Campfire.esp", 0x1A)  # a new value: the plugin's own index
    assert raw(armor, "RNAM") == struct.pack("<I", 0x0200001A)
    armor["RNAM"] = None
    assert raw(armor, "RNAM") == bytes(4) and armor["RNAM"] is None

    levels = [b"a.nif\0\x07\x08", b"b.nif\0", b"\0", b"\0\x01"]
    mnam = b"".join(level.ljust(260, b"\0") for level in levels)
    static = plugin.add_record("STAT", [("EDID", "TesmodLodStatic"), ("MNAM", mnam)])
    assert static["MNAM"] == {"level0": "a.nif", "level1": "b.nif", "level2": "", "level3": ""}
    static["MNAM"] = {"level1": "c.nif"}
    assert raw(static, "MNAM") == mnam[:260] + b"c.nif".ljust(260, b"\0") + mnam[520:]


def test_fields_added_removed_and_replaced(corpus, tmp_path):
    path = plugin_path(corpus, CAMPFIRE)
    plugin = tesmod.open(str(path))
    armor = next(r for r in plugin.records("ARMO") if "TNAM" not in r and "DATA" in r)
    before = stored(armor)
    assert "TNAM" not in armor and armor.get("TNAM") is None and armor.get("TNAM", 0) == 0
    assert armor.get_all("TNAM") == [] and armor.get_all("DATA") == [armor["DATA"]]
    armor["TNAM"] = tesmod.FormKey("Skyrim.esm", 0x012E49)  # absent: appended
    assert stored(armor) == before + [("TNAM", struct.pack("<I", 0x00012E49))]
    data = armor["DATA"]
    del armor["DATA"]
    assert "DATA" not in armor
    with pytest.raises(KeyError):
        del armor["DATA"]
    armor["DATA"] = data
    assert stored(armor)[-1] == ("DATA", raw_of(before, "DATA"))
    armor.set_all("SPLO", [tesmod.FormKey("Skyrim.esm", 1), tesmod.FormKey("Skyrim.esm", 2)])  # fields of any record
    armor.set_all("SPLO", [tesmod.FormKey("Skyrim.esm", 3)] * 3)
    assert [d for s, d in stored(armor) if s == "SPLO"] == [struct.pack("<I", 3)] * 3
    armor.set_all("SPLO", [])
    assert "SPLO" not in armor
    armor["XTST"] = b"\x01\x02"  # bytes go as they are, layout or not
    with pytest.raises(TypeError, match="ARMO records have no layout for XTST fields: expected bytes, got int"):
        armor["XTST"] = 5
    out = tmp_path / "added.esp"
    plugin.save(str(out))
    again = tesmod.open(str(out))[armor.form_id]
    assert again["TNAM"] == tesmod.FormKey("Skyrim.esm", 0x012E49) and again["XTST"] == b"\x01\x02"
    assert again.typed()["DATA"] == data


def test_localized_plugins_hold_string_ids():
    plugin = tesmod.open(str(SOURCE / "samples" / "TesmodLocalized.esm"))
    assert plugin.header.is_localized
    sword = next(plugin.records("WEAP"))
    assert sword["FULL"] == struct.unpack("<I", raw(sword, "FULL"))[0]
    sword["FULL"] = 0x1234
    assert raw(sword, "FULL") == struct.pack("<I", 0x1234)
    with pytest.raises(TypeError, match=r"FULL\.name: expected a string id \(int: this plugin is localized\), got str"):
        sword["FULL"] = "Sword"


def test_text_in_the_code_page(corpus):
    plugin = tesmod.open(str(plugin_path(corpus, OBLIVION)))
    armor = next(plugin.records("ARMO"))
    armor["FULL"] = "Épée d'argent"
    assert raw(armor, "FULL") == "Épée d'argent".encode("cp1252") + b"\0"
    assert armor["FULL"] == "Épée d'argent" and armor.get("FULL", encoding="cp1250") == "Épée d'argent".encode(
        "cp1252").decode("cp1250")
    armor.set_field("FULL", b"\x81 undefined in cp1252\0")  # read with a surrogate, written back the same
    armor["FULL"] = armor["FULL"]
    assert raw(armor, "FULL") == b"\x81 undefined in cp1252\0"


def test_conditions_vmad_and_packages_are_bytes(corpus):
    plugin = tesmod.open(str(plugin_path(corpus, SILVER_HAND)))
    seen = set()
    for record in plugin:
        for sig, data in stored(record):
            if owned_elsewhere(record.type, sig):
                assert data in [v if isinstance(v, bytes) else None for v in record.get_all(sig)], (record, sig)
                seen.add(sig if record.type != "PACK" else "PACK")
    assert {"CTDA", "VMAD", "PACK"} <= seen
    record = next(r for r in plugin if "VMAD" in r)
    record["VMAD"] = record["VMAD"]  # bytes as they are
    assert not plugin.modified

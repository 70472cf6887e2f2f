"""Oblivion scripts from Python: listed, decompiled, compiled back into the plugin."""
import pytest

import tesmod


def oblivion_plugins(corpus):
    return sorted((corpus / "oblivion").rglob("*.esp"))


def scpt_scripts(plugin):
    return [s for s in plugin.scripts() if s["record_type"] == "SCPT" and not s["error"]]


def test_listing_matches_the_records(corpus):
    checked = 0
    for path in oblivion_plugins(corpus)[:10]:
        plugin = tesmod.open(str(path))
        listed = plugin.scripts()
        scpt = [s["form_id"] for s in listed if s["record_type"] == "SCPT"]
        assert scpt == [r.form_id for r in plugin.records("SCPT")], path.name
        for s in listed:
            assert s["record_type"] in ("SCPT", "INFO", "QUST", "PACK")
            if not s["error"]:
                assert s["compiled_bytes"] == len(plugin[s["form_id"]].field("SCDA") or b"") or s["record_type"] != "SCPT"
        checked += len(listed)
    assert checked > 0


def test_decompile_compile_round_trip(corpus, tmp_path):
    # Scripts decompiled to text and compiled back through Plugin.compile_script give the stored
    # bytecode again. This is a recompile in place, as `tesmod script compile` does it: the stored
    # script is the previous one (its variable order, and master facts learned from its code),
    # so it is not a compile from source alone.
    done = 0
    for path in oblivion_plugins(corpus)[:3]:
        stored = tesmod.open(str(path))
        for s in scpt_scripts(stored):
            source = stored.decompile_script(s["editor_id"])
            assert source.lower().startswith("scn ") or source.lower().startswith("scriptname ")
            edited = tesmod.open(str(path))
            result = edited.compile_script(source)
            assert result == {"form_id": s["form_id"], "editor_id": s["editor_id"], "replaced": True}
            out = tmp_path / "recompiled.esp"
            edited.save(str(out))
            again = tesmod.open(str(out))[s["form_id"]]
            assert again.field("SCDA").as_bytes() == stored[s["form_id"]].field("SCDA").as_bytes(), s["editor_id"]
            done += 1
    assert done >= 5


def test_compile_a_new_script_and_errors(corpus, tmp_path):
    path = oblivion_plugins(corpus)[0]
    plugin = tesmod.open(str(path))
    before = len(plugin.scripts())
    result = plugin.compile_script("scn TesmodNewScript\r\nshort counter\r\nbegin GameMode\r\nset counter to counter + 1\r\nend\r\n",
                                   type="quest")
    assert not result["replaced"] and result["editor_id"] == "TesmodNewScript"
    out = tmp_path / "added.esp"
    plugin.save(str(out))
    again = tesmod.open(str(out))
    assert len(again.scripts()) == before + 1
    assert "set counter to counter + 1" in again.decompile_script("TesmodNewScript").lower()
    assert again[result["form_id"]].type == "SCPT"
    with pytest.raises(tesmod.ScriptError) as e:
        plugin.compile_script("scn Broken\r\nbegin GameMode\r\nset nothing to 1\r\nend\r\n")
    assert e.value.line == 3 and e.value.column >= 1
    assert isinstance(e.value, tesmod.TextError) and isinstance(e.value, tesmod.Error)
    with pytest.raises(ValueError):
        plugin.compile_script("scn X\r\n", obse="later")
    with pytest.raises(ValueError):
        plugin.compile_script("scn X\r\n", obse_plugins=["NoSuchObsePlugin"])
    with pytest.raises(KeyError):
        plugin.decompile_script("NoSuchScriptAnywhere")


def test_scripts_are_oblivion_only(corpus):
    skyrim = tesmod.open(str(sorted((corpus / "skyrim").rglob("*.esp"))[0]))
    with pytest.raises(tesmod.Error):
        skyrim.scripts()


def test_an_unknown_name_is_an_error_and_a_second_compile_replaces_the_first(corpus, tmp_path):
    # issue 20: a name no form has is an error at its line and column, whether the script is
    # recompiled in place or added; the previous compile is the script as the plugin holds it now.
    path = next(p for p in oblivion_plugins(corpus) if p.name == "lThis looks Familiar.esp")
    plugin = tesmod.open(str(path))
    source = plugin.decompile_script("lNFSpellBookScript")
    line = next(i for i, text in enumerate(source.split("\n"), 1) if "lNFSummonSpellConjuration" in text)
    edited = source.replace("lNFSummonSpellConjuration", "CompletelyMadeUpSpell")
    with pytest.raises(tesmod.ScriptError) as e:
        plugin.compile_script(edited)
    assert e.value.line == line and "CompletelyMadeUpSpell" in str(e.value)
    with pytest.raises(tesmod.ScriptError):
        plugin.compile_script(edited.replace("lNFSpellBookScript", "TesmodFreshScript", 1))
    # OBSE code: an unknown bare word is an error unless asked for the editor's leniency.
    obse = "scn TesmodBare\r\nstring_var s\r\nbegin GameMode\r\nlet s := NoSuchWord\r\nend\r\n"
    with pytest.raises(tesmod.ScriptError) as e:
        plugin.compile_script(obse)
    assert (e.value.line, e.value.column) == (4, 10)
    plugin.compile_script(obse, unquoted_strings=True)

    # Two compiles of one script in one session: the second replaces the first's fields.
    begin = source.lower().index("\nbegin")
    more = source[:begin + 1] + "short tesmodextra\n" + source[begin + 1:]
    first = plugin.compile_script(more)
    second = plugin.compile_script(source)
    assert first["form_id"] == second["form_id"] and second["replaced"]
    added = plugin.compile_script("scn TesmodTwice\r\nshort a\r\nbegin GameMode\r\nset a to 1\r\nend\r\n")
    again = plugin.compile_script("scn TesmodTwice\r\nshort a\r\nbegin GameMode\r\nset a to 2\r\nend\r\n")
    assert not added["replaced"] and again["replaced"] and again["form_id"] == added["form_id"]
    out = tmp_path / "twice.esp"
    plugin.save(str(out))
    reread = tesmod.open(str(out))
    assert [s["editor_id"] for s in reread.scripts()].count("TesmodTwice") == 1
    assert "set a to 2" in reread.decompile_script("TesmodTwice").lower()
    names = [s["editor_id"] for s in reread.scripts()]
    assert names.count("lNFSpellBookScript") == 1
    # The spell script as compiled last: its stored fields decode, no variable of the first compile left.
    assert "tesmodextra" not in reread.decompile_script("lNFSpellBookScript").lower()

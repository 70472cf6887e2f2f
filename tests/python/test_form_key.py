"""tesmod.FormKey: a form by its defining plugin and object id — made, parsed, compared and hashed
without regard to the plugin name's case — and a LoadOrder looked up by it (the winner, None or
KeyError, versions), on a load order made by ../shared/bench/make_load_order.py."""

import pytest

import tesmod
from generated_orders import expected, make_load_order


def test_made_parsed_compared_hashed():
    k = tesmod.FormKey("Skyrim.esm", 0x012EB7)
    assert (k.plugin, k.object_id) == ("Skyrim.esm", 0x012EB7)
    assert str(k) == "Skyrim.esm:012EB7" and repr(k) == "FormKey('Skyrim.esm', 0x012EB7)"
    assert tesmod.FormKey("skyrim.ESM:12eb7") == k and tesmod.FormKey.parse("Skyrim.esm:012EB7") == k
    assert hash(tesmod.FormKey("SKYRIM.esm", 0x12EB7)) == hash(k)
    assert len({k, tesmod.FormKey("skyrim.esm:012EB7"), tesmod.FormKey("Update.esm:012EB7")}) == 2
    assert sorted([tesmod.FormKey("b.esp:1"), tesmod.FormKey("A.esp:2"), tesmod.FormKey("a.esp:1")]) == \
        [tesmod.FormKey("a.esp:1"), tesmod.FormKey("A.esp:2"), tesmod.FormKey("b.esp:1")]
    assert k != "Skyrim.esm:012EB7"  # a string is not a FormKey
    for bad in ("Skyrim.esm", "Skyrim.esm:xyz", "Skyrim.txt:000001", "Skyrim.esm:01000000"):
        with pytest.raises(ValueError):
            tesmod.FormKey(bad)
    with pytest.raises(ValueError):
        tesmod.FormKey("Skyrim.esm", 0x1000000)


@pytest.fixture(scope="session")
def generated(tmp_path_factory):
    out = make_load_order(tmp_path_factory.mktemp("form_key"), "sse", 47, 48, plugins=4)
    return out, expected(out)


def test_load_order_by_form_key(generated):
    folder, expected = generated
    lo = tesmod.load_order(data=str(folder))
    master = expected["master"]
    checked = 0
    # Every record of the master that plugins override: its FormKey names it whatever plugin wins.
    for load_order_id, record in expected["conflicts"].items():
        if not load_order_id.startswith("00"):
            continue
        fk = tesmod.FormKey(master, int(load_order_id, 16))
        versions = lo.versions(fk)
        assert [v["plugin"] for v in versions] == record["versions"]
        assert versions[-1]["plugin"] == record["winner"]
        winner = lo[fk]
        assert winner.form_id == versions[-1]["record"].form_id == lo.get(fk).form_id
        # The FormID the winner stores names the same FormKey again.
        assert lo.form_key(record["winner"], winner.form_id) == fk
        checked += 1
    assert checked > 100
    assert lo.get(tesmod.FormKey(master, 0xFFFFFF)) is None
    with pytest.raises(KeyError):
        lo[tesmod.FormKey(master, 0xFFFFFF)]
    with pytest.raises(KeyError):
        lo.get(tesmod.FormKey("NotThere.esp", 0x800))
    with pytest.raises(TypeError):
        lo.get(1.5)

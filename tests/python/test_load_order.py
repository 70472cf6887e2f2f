"""tesmod.load_order: plugins in order, winning records, versions, FormIDs both ways, conflicts and
checks as dicts, against the corpus' Blank.esm family and a load order made by
../shared/bench/make_load_order.py (with the answers it writes)."""

import os
import subprocess

import pytest

import tesmod
from generated_orders import expected, make_load_order


@pytest.fixture(scope="session")
def blank(corpus):
    d = corpus / "oblivion" / "Ortham__testing-plugins"
    return [str(d / "Blank.esm"), str(d / "Blank - Master Dependent.esm")]


@pytest.fixture(scope="session")
def generated(tmp_path_factory):
    out = make_load_order(tmp_path_factory.mktemp("load_order"), "sse", 41, 43, plugins=5)
    return out, expected(out)


def test_plugins_and_indices(blank):
    lo = tesmod.load_order(files=blank)
    assert lo.game == "oblivion"
    assert len(lo) == 2
    assert [p["name"] for p in lo.plugins] == ["Blank.esm", "Blank - Master Dependent.esm"]
    second = lo.plugins[1]
    assert second["index"] == "01" and second["active"] and second["master"] and not second["light"]
    assert second["masters"] == ["Blank.esm"] and second["error"] is None
    assert lo.problems == []


def test_winning_versions_and_form_ids(blank):
    lo = tesmod.load_order(files=blank)
    plain = tesmod.open(blank[1])
    books = lo.winning("BOOK")
    # The dependent master overrides Blank.esm's books and adds its own: all of its books win.
    assert sorted(r.form_id for r in books if r.form_id >> 24) == sorted(
        r.form_id for r in plain.records("BOOK") if r.form_id >> 24)
    for record in plain.records("BOOK"):
        load_order_id = lo.load_order_form_id("Blank - Master Dependent.esm", record.form_id)
        assert lo.stored_form_id("Blank - Master Dependent.esm", load_order_id) == record.form_id
        versions = lo.versions(load_order_id)
        assert versions[-1]["plugin"] == "Blank - Master Dependent.esm"
        assert [bytes(f) for f in versions[-1]["record"].fields] == [bytes(f) for f in record.fields]
        if record.form_id >> 24 == 0:  # taken from Blank.esm: two versions
            assert [v["plugin"] for v in versions] == ["Blank.esm", "Blank - Master Dependent.esm"]
            by_name = lo.versions(f"Blank.esm:{record.form_id:06X}")
            assert [v["plugin"] for v in by_name] == [v["plugin"] for v in versions]
    assert lo.winning("NPC_") == []


def test_conflicts_and_check(blank):
    lo = tesmod.load_order(files=blank)
    records = lo.conflicts(fields=True)
    assert records and all(r["versions"] == ["Blank.esm", "Blank - Master Dependent.esm"] for r in records)
    for r in records:
        assert set(r) == {"form_id", "file", "type", "editor_id", "versions", "states", "winner", "category", "itpo",
                          "fields"}
        assert (r["category"] == "no_conflict") == (r["fields"] == [])
    assert lo.conflicts(only=["conflict"]) == [r for r in lo.conflicts() if r["category"] == "conflict"]
    assert all(r["type"] == "BOOK" for r in lo.conflicts(types=["BOOK"]))
    assert lo.check() == []
    with pytest.raises(ValueError):
        lo.conflicts(only=["nonsense"])
    with pytest.raises(KeyError):
        lo.check(plugins=["Missing.esp"])


def test_errors():
    with pytest.raises(tesmod.Error) as e:
        tesmod.load_order(data="/nonexistent/tesmod")
    assert "/nonexistent/tesmod" in str(e.value)
    with pytest.raises(ValueError):
        tesmod.load_order(game="morrowind")


def test_generated_load_order_matches_its_answers(generated):
    out, exp = generated
    lo = tesmod.load_order(data=str(out))
    assert lo.game == "skyrimse"
    assert [p["name"] for p in lo.plugins if p["active"]] == exp["active"]
    got = {f"{r['form_id']:08X}": r for r in lo.conflicts()}
    for fid, want in exp["conflicts"].items():
        assert got[fid]["versions"] == want["versions"], fid
        assert got[fid]["category"] == want["category"], fid
        assert got[fid]["itpo"] == want["itpo"], fid
        versions = lo.versions(int(fid, 16))
        assert [v["plugin"] for v in versions] == want["versions"], fid
    deleted = {(p["file"], f"{p['form_id']:08X}") for p in lo.check() if p["check"] == "deleted_with_fields"}
    for name, plugin in exp["plugins"].items():
        if name in exp["active"]:
            assert {(name, f) for f in plugin["deleted_other"]} <= deleted, name


def test_conflicts_page_is_the_cli_page(generated, tmp_path):
    """LoadOrder.conflicts_page writes the page tesmod conflicts --html writes, byte for byte, for
    the same filters; its counts are those of conflicts()."""
    out, _ = generated
    lo = tesmod.load_order(data=str(out))
    page = tmp_path / "py.html"
    got = lo.conflicts_page(str(page), only=["conflict", "override"], title=str(out.resolve()))
    records = lo.conflicts(only=["conflict", "override"])
    assert got["records"] == len(records) > 0
    assert got["conflict"] == sum(r["category"] == "conflict" for r in records)
    assert got["override"] == sum(r["category"] == "override" for r in records)
    assert got["no_conflict"] == 0
    cli = tmp_path / "cli.html"
    subprocess.run([os.environ["TESMOD_CLI"], "conflicts", "--data", str(out.resolve()), "--html", str(cli), "--only",
                    "conflict", "--only", "override"], check=True, capture_output=True)
    assert page.read_bytes() == cli.read_bytes()
    with pytest.raises(ValueError):
        lo.conflicts_page(str(tmp_path / "x.html"), only=["nonsense"])
    assert not (tmp_path / "x.html").exists()

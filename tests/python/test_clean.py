"""tesmod cleaning from Python: Plugin.clean() and LoadOrder.clean_report() on a load order made by
../shared/bench/make_load_order.py (with its answers), the cleaned plugin saved and compared with
what `tesmod clean` writes."""
import shutil
import subprocess
import zlib
from pathlib import Path

import pytest

import tesmod
from generated_orders import expected, make_load_order

KINDS = ("itm", "itm_kept", "itpo", "udr", "nav", "deleted_other")


@pytest.fixture(scope="session")
def generated(tmp_path_factory):
    out = make_load_order(tmp_path_factory.mktemp("clean"), "oblivion", 51, 53, plugins=4)
    return out, expected(out)


def test_dry_run_report(generated):
    d, exp = generated
    for name, want in exp["plugins"].items():
        p = tesmod.open(str(d / name))
        report = p.clean(dry_run=True)
        assert not p.modified
        for k in KINDS:
            assert sorted(report[k]) == want[k], (name, k)
        assert report["plugin"] == name and report["masters"] == want["masters"]
        assert report["crc_before"] == want["crc"]
        assert report["skipped"] == []
        assert len(report["decisions"]) == sum(len(report[k]) for k in (*KINDS, "skipped"))
        kept = [x for x in report["decisions"] if x["kind"] == "itm_kept"]
        assert all(x["reason"] == "ITM kept: conflict winner" and "first difference" in x["detail"] for x in kept)


def test_clean_and_save_is_what_the_cli_writes(generated, tmp_path):
    d, exp = generated
    p = tesmod.open(str(d / "Mod_01.esp"))
    report = p.clean()
    assert p.modified and report["itm"] and report["udr"]
    p.save(str(tmp_path / "py.esp"))
    written = (tmp_path / "py.esp").read_bytes()
    assert "%08X" % zlib.crc32(written) == report["crc_after"]
    cli = Path(tesmod.__file__).resolve().parents[2] / "tools" / "tesmod" / "tesmod"
    if cli.exists():
        subprocess.run([cli, "clean", d / "Mod_01.esp", "-o", tmp_path / "cli.esp"], check=True, capture_output=True)
        assert (tmp_path / "cli.esp").read_bytes() == written
    # The cleaned plugin has nothing left to clean (its masters are in d).
    shutil.copy(tmp_path / "py.esp", d / "Cleaned.esp")
    try:
        again = tesmod.open(str(d / "Cleaned.esp")).clean(dry_run=True)
        assert again["itm"] == [] and again["udr"] == [] and again["crc_after"] == again["crc_before"]
    finally:
        (d / "Cleaned.esp").unlink()


def test_options_and_errors(generated, tmp_path):
    d, exp = generated
    p = tesmod.open(str(d / "Mod_02.esp"))
    report = p.clean(itm=False, udr=False)
    assert report["itm"] and report["crc_after"] == report["crc_before"] and not p.modified
    edited = tesmod.open(str(d / "Mod_02.esp"))
    edited.set_author("someone")
    with pytest.raises(ValueError):
        edited.clean()
    shutil.copy(d / "Mod_02.esp", tmp_path / "Mod_02.esp")  # its master is not beside it
    with pytest.raises(Exception, match=exp["master"]):
        tesmod.open(str(tmp_path / "Mod_02.esp")).clean()


def test_load_order_clean_report(generated):
    d, exp = generated
    reports = tesmod.load_order(data=str(d)).clean_report()
    assert [r["plugin"] for r in reports] == exp["active"]
    for r in reports:
        want = exp["plugins"].get(r["plugin"])
        if want:
            for k in KINDS:
                assert sorted(r[k]) == want[k], (r["plugin"], k)

"""tesmod.compact(): the CLI's `esl compact` from Python, on a load order made by
../shared/bench/make_load_order.py over a master with records outside the light range."""
import json
import shutil
import subprocess
import os

import tesmod
from generated_orders import make_load_order


def test_compact_dry_run_then_output_then_nothing_left(tmp_path):
    order = make_load_order(tmp_path, "sse", 51, 17, 5, records=2000, master_name="Master.esm")
    before = {p.name: p.read_bytes() for p in order.iterdir() if p.is_file()}
    dry = tesmod.compact(str(order / "Master.esm"), dry_run=True)
    assert dry["plugin"] == "Master.esm" and dry["hedr"] is None
    assert len(dry["map"]) > 0 and dry["range"] == "800-FFF"
    assert all(0x800 <= int(v, 16) <= 0xFFF for v in dry["map"].values())
    assert {w["name"] for w in dry["would_write"]} >= {"Master.esm"}
    assert before == {p.name: p.read_bytes() for p in order.iterdir() if p.is_file()}

    out = tmp_path / "out"
    done = tesmod.compact("Master.esm", data=str(order), output=str(out), flag=True, map=str(tmp_path / "map.json"))
    assert done["map"] == dry["map"] and done["set_flag"]
    assert sorted(p.name for p in out.iterdir()) == sorted(w["name"] for w in done["written"])
    assert json.loads((tmp_path / "map.json").read_text()) == {"plugin": "Master.esm", "hedr": None, "map": done["map"]}
    # The CLI writes the same map, byte for byte.
    cli = os.environ.get("TESMOD_CLI")
    if cli:
        subprocess.run([cli, "esl", "compact", "Master.esm", "--data", str(order), "--dry-run", "--flag", "--map",
                        str(tmp_path / "cli_map.json")], capture_output=True)
        assert (tmp_path / "cli_map.json").read_bytes() == (tmp_path / "map.json").read_bytes()

    for p in out.iterdir():
        shutil.copy(p, order / p.name)
    again = tesmod.compact("Master.esm", data=str(order), dry_run=True)
    assert again["map"] == {} and again["would_write"] == []
    master = tesmod.open(str(order / "Master.esm"))
    assert master.header.is_light


def test_compact_arguments():
    import pytest
    with pytest.raises(ValueError, match="exactly one of"):
        tesmod.compact("X.esp")
    with pytest.raises(ValueError, match="hedr is '1.71' or None"):
        tesmod.compact("X.esp", dry_run=True, hedr="1.7")


def test_esl_check_matches_the_cli(tmp_path):
    order = make_load_order(tmp_path, "sse", 52, 17, 5, records=2000, master_name="Master.esm")
    reports = tesmod.load_order(data=str(order)).esl_check()
    by_name = {r["name"]: r for r in reports}
    assert by_name["Master.esm"]["verdict"] == "needs_compaction"
    assert by_name["Master.esm"]["out_of_range"] and all(len(x) == 8 for x in by_name["Master.esm"]["out_of_range"])
    assert by_name["Mod_01.esp"]["verdict"] == "light_ok"
    cli = os.environ.get("TESMOD_CLI")
    if cli:
        r = subprocess.run([cli, "esl", "check", "--data", str(order), "--json"], capture_output=True, text=True)
        assert json.loads(r.stdout)["plugins"] == reports
    only = tesmod.load_order(data=str(order)).esl_check(plugins=["Mod_02.esp"])
    assert [r["name"] for r in only] == ["Mod_02.esp"]

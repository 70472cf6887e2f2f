#!/usr/bin/env python3
"""scripts/demo.sh end to end with a CLI already built (TESMOD_DEMO_CLI: no setup, no build).

Each load-order section must print what the sample load order (samples/loadorder) was made to
show: the missing master, the lost change, the page's address, the check's finding, the ITM and
the deleted reference, the cleaned copy, the patch refused and then written with the leveled
lists merged. Section titles are bold only on a terminal.

    demo_test.py TESMOD_CLI WORK_DIR [SHARED_TOOLS_DIR]
"""
import hashlib
import os
import pty
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "scripts" / "demo.sh"
SAMPLE = ROOT / "samples" / "loadorder"

failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)


def contains(text, needle, where):
    expect(needle in text, f"{where}: expected {needle!r} in:\n{text}")


def digest(folder):
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def sections(text):
    """The demo's output split at its "== title" lines: {title: body}."""
    out, title = {}, None
    for line in text.splitlines():
        if line.startswith("== "):
            title = line[3:]
            out[title] = ""
        elif title is not None:
            out[title] += line + "\n"
    return out


def section(parts, prefix):
    found = [body for title, body in parts.items() if title.startswith(prefix)]
    expect(len(found) == 1, f"one section titled {prefix!r}, found {len(found)} in {list(parts)}")
    return found[0] if found else ""


def run_on_terminal(env):
    """The demo's stdout on a pseudo-terminal; returns what it printed."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(["bash", str(DEMO)], stdout=slave, stderr=subprocess.DEVNULL, env=env, cwd=ROOT)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the demo closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    proc.wait(timeout=300)
    return proc.returncode, b"".join(chunks).decode("utf-8", "replace")


def main():
    cli, work = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
    tools = Path(sys.argv[3]) if len(sys.argv) > 3 else ROOT.parent / "shared" / "tools"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    out = work / "out"
    env = dict(os.environ, TESMOD_DEMO_CLI=str(cli), TESMOD_DEMO_OUT=str(out))
    before = digest(SAMPLE)
    proc = subprocess.run(["bash", str(DEMO)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=work,
                          text=True, timeout=300)
    expect(proc.returncode == 0, f"demo exit status {proc.returncode}; stderr:\n{proc.stderr}")
    text = proc.stdout
    expect("\033" not in text, "no escape codes when stdout is not a terminal")
    expect("building tesmod" not in text, "nothing built with TESMOD_DEMO_CLI")
    parts = sections(text)

    s = section(parts, "A load order")
    contains(s, "Skyrim SE load order: 6 plugins, 6 active", "load-order")
    contains(s, "05      TesmodDemoAddon.esp", "load-order")
    # Problems go to stderr as well as stdout; the missing master is named on stdout.
    contains(s, "TesmodDemoAddon.esp: needs the master 'TesmodDemoDLC.esm', which is not in the data folder",
             "load-order")

    s = section(parts, "Conflicts")
    contains(s, "WEAP 00000800 TesmodDemoSword [TesmodDemo.esm]: conflict", "conflicts")
    contains(s, "TesmodDemoWeapons.esp (loses) TesmodDemoHardcore.esp (wins)", "conflicts")
    contains(s, "MISC 00000803 TesmodDemoGem [TesmodDemo.esm]: no_conflict", "conflicts")
    contains(s, "TesmodDemoDirty.esp (identical_to_master)", "conflicts")
    contains(s, "9 records: 3 conflict, 4 override, 2 no_conflict", "conflicts")

    s = section(parts, "The conflicts as a page")
    page = out / "conflicts.html"
    contains(s, f"open file://{page}\n", "conflicts --html")
    expect(page.is_file() and "TesmodDemoSword" in page.read_text(encoding="utf-8", errors="replace"),
           f"{page} written, naming the sword")

    s = section(parts, "Check")
    contains(s, "TesmodDemoAddon.esp: master 'TesmodDemoDLC.esm' is not in the data folder", "check")
    contains(s, "1 problem in 6 plugins", "check")
    contains(s, "(exit status 1)", "check")

    s = section(parts, "Clean, as a dry run")
    expect(re.search(r"ITM +MISC 00000803 TesmodDemoGem: identical to TesmodDemo.esm", s), f"clean: the ITM in:\n{s}")
    expect(re.search(r"UDR +REFR 00000809 -: undeleted and disabled", s), f"clean: the deleted reference in:\n{s}")
    contains(s, "1 ITM, 0 ITM kept, 0 ITPO, 1 UDR", "clean --dry-run")
    contains(s, "would be cleaned (dry run)", "clean --dry-run")
    contains(s, "(exit status 1)", "clean --dry-run")
    expect(digest(SAMPLE) == before, "the sample load order left as it was")

    s = section(parts, "Clean one plugin")
    cleaned = out / "cleaned" / "TesmodDemoDirty.esp"
    contains(s, f"cleaned, written to {cleaned}", "clean -o")
    contains(s, "0 ITM, 0 ITM kept, 0 ITPO, 0 UDR, 0 NAV, 0 deleted records, 0 skipped", "clean of the cleaned copy")
    expect(cleaned.is_file() and cleaned.stat().st_size < (SAMPLE / "TesmodDemoDirty.esp").stat().st_size,
           "the cleaned copy written, smaller (the ITM gone)")

    s = section(parts, "A Bashed Patch: refused")
    contains(s, "(exit status 1)", "patch with a missing master")

    s = section(parts, "With TesmodDemoAddon.esp deactivated")
    patch = out / "Bashed Patch, 0.esp"
    contains(s, "LVLI TesmodDemo.esm:000806 TesmodDemoLoot: leveled list", "patch")
    contains(s, "LVLN TesmodDemo.esm:000807 TesmodDemoGuards: leveled list", "patch")
    contains(s, f"written to {patch}", "patch")
    for entry in ("item=TesmodDemoAxe", "item=TesmodDemoShield", "npc=TesmodDemoQuartermaster", "npc=TesmodDemoVeteran"):
        contains(s, entry, "the patch's merged lists")
    expect(patch.is_file(), f"{patch} written")

    # The written plugins read with the shared reader too, when it is there.
    inspect = tools / "inspect_plugin.py"
    if inspect.is_file():
        for plugin in [*sorted(SAMPLE.glob("*.es?")), cleaned, patch]:
            r = subprocess.run([sys.executable, str(inspect), str(plugin)], capture_output=True, text=True)
            expect(r.returncode == 0 and "parse: OK" in r.stdout, f"inspect_plugin.py {plugin}:\n{r.stdout}{r.stderr}")

    # On a terminal the titles are bold.
    status, shown = run_on_terminal(dict(env, TESMOD_DEMO_OUT=str(work / "tty")))
    expect(status == 0, f"demo on a terminal: exit status {status}")
    expect("\033[1m== A load order" in shown, "bold section titles on a terminal")

    for f in failures:
        print("FAIL:", f, file=sys.stderr)
    print(f"demo: {len(parts)} sections, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

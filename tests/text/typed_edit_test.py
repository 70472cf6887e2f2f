#!/usr/bin/env python3
"""Edits through the typed text form of fields that were hex before the layout language could say
them: an alternate texture (Skyrim ARMO MO2S, a counted array of structs with a length-prefixed
string), a game setting float (Oblivion GMST DATA, chosen by the EditorID's first letter), a combat
style value (Oblivion CSTY CSTD) and a quest alias flag (Skyrim QUST FNAM, chosen by the section the
alias opens).

    typed_edit_test.py TESMOD SHARED_TOOLS WORKDIR

For each case: `tesmod export` the corpus plugin, change one line of the text as a modder would,
`tesmod import` it, then read the result with ../shared/tools/inspect_plugin.py (no errors, as many
records) and with this test's own reader (tests/scripts/plugin_bytes.py): the edited field holds
exactly the bytes the format says (built here from the format's facts, not from tesmod's tables),
and every other record and field is byte for byte what it was. Exits 77 (skip) without the corpus,
except with CI=true.
"""
import shutil
import struct
import subprocess
import sys
from pathlib import Path

TESMOD, TOOLS, WORK = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import corpus as corpus_rules  # noqa: E402
import plugin_bytes as pb  # noqa: E402
from checks import check, failures  # noqa: E402


def run(*args):
    r = subprocess.run([TESMOD, *args], capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(f"tesmod {' '.join(map(str, args))}: {r.stderr.strip()}")
    return r.stdout


def edit_line(folder, record_line, old, new):
    """Replaces the first line equal (stripped) to `old` after the line `record_line` in the file
    of the folder that holds it; returns whether it was found."""
    for path in sorted(folder.rglob("*.txt")):
        lines = path.read_text(encoding="utf-8").split("\n")
        inside = False
        for i, line in enumerate(lines):
            if line.strip().startswith("record "):
                inside = line.strip() == record_line
                continue
            if inside and line.strip() == old:
                lines[i] = line[: len(line) - len(line.lstrip())] + new
                path.write_text("\n".join(lines), encoding="utf-8")
                return True
    return False


def field_of(data, form_id, rtype, sig, occurrence=0):
    _, _, items = pb.read(data)
    for h, body in pb.records(items):
        if pb.fid(h) == form_id and pb.rtype(h) == rtype:
            found = [f for s, f in pb.fields(body, h) if s == sig]
            return found[occurrence] if occurrence < len(found) else None
    return None


def case(label, plugin, rtype, form_id, old, new, sig, expect, occurrence=0, record_line=None):
    """expect(old payload) -> the payload the edited field must hold."""
    src = CORPUS / plugin
    if not check(src.is_file(), f"{label}: {plugin} is in the corpus"):
        return
    work = WORK / label
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    folder = work / "text"
    run("export", str(src), str(folder), "--no-masters")
    line = record_line or f"record {rtype.decode()} {form_id:08X}"
    if not check(edit_line(folder, line, old, new), f"{label}: the export shows `{old}` under `{line}`"):
        return
    out = work / src.name
    run("import", str(folder), "-o", str(out))

    before, after = src.read_bytes(), out.read_bytes()
    sys.path.insert(0, str(TOOLS))
    import inspect_plugin  # the shared independent reader
    res_before = inspect_plugin.inspect_plugin(str(src), before)
    res = inspect_plugin.inspect_plugin(str(out), after)
    check(not res["errors"], f"{label}: inspect_plugin reads the edited plugin without errors: {res['errors'][:3]}")
    check(res["records"] == res_before["records"], f"{label}: inspect_plugin counts {res['records']} records, "
                                                   f"the original {res_before['records']}")

    old_payload = field_of(before, form_id, rtype, sig, occurrence)
    new_payload = field_of(after, form_id, rtype, sig, occurrence)
    want = expect(old_payload)
    check(new_payload == want, f"{label}: {sig.decode()} is {new_payload!r}, expected {want!r}")
    # Nothing else moved: every other record byte for byte, and the edited record's other fields.
    _, head_a, items_a = pb.read(before)
    _, head_b, items_b = pb.read(after)
    recs_a, recs_b = pb.records(items_a), pb.records(items_b)
    check(len(recs_a) == len(recs_b), f"{label}: as many records")
    for (ha, ba), (hb, bb) in zip(recs_a, recs_b):
        if pb.fid(ha) == form_id and pb.rtype(ha) == rtype:
            fa = [(s, f) for s, f in pb.fields(ba, ha)]
            fb = [(s, f) for s, f in pb.fields(bb, hb)]
            edited = [i for i, (s, _) in enumerate(fa) if s == sig][occurrence]
            check(len(fa) == len(fb) and all(fa[i] == fb[i] for i in range(len(fa)) if i != edited),
                  f"{label}: the record's other fields are unchanged")
        else:
            check((ha, ba) == (hb, bb), f"{label}: {pb.rtype(ha).decode()} {pb.fid(ha):08X} is unchanged")
    print(f"{label}: ok ({sig.decode()} {old_payload.hex()} -> {new_payload.hex() if new_payload else None})")


def alternate_texture(old):
    # MO2S: u32 count, then per texture: u32 length + name (no terminator), TXST FormID, i32 3D index.
    count, n = struct.unpack_from("<II", old, 0)
    name_end = 8 + n
    txst = old[name_end:name_end + 4]
    assert count == 1
    name = b"BackpackMeshEdited"
    return struct.pack("<II", 1, len(name)) + name + txst + struct.pack("<i", 2)


def main():
    global CORPUS
    try:
        CORPUS = corpus_rules.corpus_dir()
    except corpus_rules.CorpusMissing as e:
        print(f"FAIL: {e}")
        return 1
    if CORPUS is None:
        print("SKIP: no corpus (set TESMOD_CORPUS or place it at ../shared/corpus)")
        return corpus_rules.SKIP

    # Skyrim ARMO alternate textures: the first MO2S of the armor.
    campfire = (CORPUS / "skyrim/chesko256__Campfire/Campfire.esp").read_bytes()
    _, _, items = pb.read(campfire)
    armo = next((pb.fid(h) for h, b in pb.records(items)
                 if pb.rtype(h) == b"ARMO" and any(s == b"MO2S" for s, _ in pb.fields(b, h))), None)
    if check(armo is not None, "Campfire.esp has an ARMO with alternate textures"):
        case("alternate-texture", "skyrim/chesko256__Campfire/Campfire.esp", b"ARMO", armo,
             'MO2S [{name="BackpackMesh" new-texture=_Camp_BackpackTXWhite index=1}]',
             'MO2S [{name="BackpackMeshEdited" new-texture=_Camp_BackpackTXWhite index=2}]', b"MO2S", alternate_texture)

    # Oblivion GMST float: DATA of an `f` setting is an f32.
    case("gmst-float", "oblivion/Laulajatar__my-oblivion-mods/Morrowind-like Magicka.esp", b"GMST",
         find_form(CORPUS / "oblivion/Laulajatar__my-oblivion-mods/Morrowind-like Magicka.esp", b"GMST",
                   b"fMagickaReturnBase"),
         "DATA 0.0", "DATA 2.5", b"DATA", lambda old: struct.pack("<f", 2.5))

    # Oblivion combat style: CSTD's first byte is the dodge chance (percent).
    oo = next(iter(sorted(CORPUS.glob("oblivion/**/OOStartingMod.esp"))), None)
    if check(oo is not None, "OOStartingMod.esp is in the corpus"):
        rel = oo.relative_to(CORPUS).as_posix()
        csty = find_form(oo, b"CSTY", b"NoAttack")
        text = run("export", "--stdout", "--no-masters", str(oo))
        cstd = next((l.strip() for l in text.split("\n") if l.strip().startswith("CSTD dodge-chance=100 ")), None)
        if check(cstd is not None, "the CSTY's CSTD line shows dodge-chance=100"):
            case("combat-style", rel, b"CSTY", csty, cstd, cstd.replace("dodge-chance=100 ", "dodge-chance=35 ", 1),
                 b"CSTD", lambda old: bytes([35]) + old[1:])

    # Skyrim quest alias flags: the FNAM after ALST is the alias's flags (Essential is bit 6, 0x40).
    menu = CORPUS / "skyrim/schlangster__skyui/ExampleConfigMenu.esp"
    qust = None
    if menu.is_file():
        _, _, items = pb.read(menu.read_bytes())
        qust = next((pb.fid(h) for h, b in pb.records(items)
                     if pb.rtype(h) == b"QUST" and any(s == b"ALST" for s, _ in pb.fields(b, h))), None)
    if check(qust is not None, "ExampleConfigMenu.esp has a quest with a reference alias"):
        _, _, items = pb.read(menu.read_bytes())
        h, body = next((h, b) for h, b in pb.records(items) if pb.fid(h) == qust and pb.rtype(h) == b"QUST")
        sigs = [s for s, _ in pb.fields(body, h)]
        occurrence = sum(1 for s in sigs[: sigs.index(b"ALST")] if s == b"FNAM")  # the alias's FNAM
        case("quest-alias-flag", "skyrim/schlangster__skyui/ExampleConfigMenu.esp", b"QUST", qust,
             "FNAM flags=0 additional-flags=0", "FNAM flags=Essential additional-flags=0", b"FNAM",
             lambda old: struct.pack("<I", struct.unpack_from("<I", old)[0] | 0x40), occurrence)

    if failures:
        print(f"{len(failures)} failures")
        return 1
    print("all typed edits ok")
    return 0


def find_form(path, rtype, editor_id):
    _, _, items = pb.read(path.read_bytes())
    for h, body in pb.records(items):
        if pb.rtype(h) == rtype and any(s == b"EDID" and f.rstrip(b"\0") == editor_id for s, f in pb.fields(body, h)):
            return pb.fid(h)
    raise SystemExit(f"FAIL: no {rtype.decode()} {editor_id.decode()} in {path}")


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Seed corpora for the libFuzzer targets in fuzz/, made from the plugin and save corpus.

    scripts/make_fuzz_seeds.py CORPUS_DIR OUT_DIR [--tesmod PATH]

Writes OUT_DIR/<target>/<sha1 of the seed> for each target (the fuzzer binary's name):

  plugin_fuzzer          plugins of at most 256 KiB, whole
  save_fuzzer            Oblivion saves cut down (no screenshot, no created records, the actor
                         change records and a few others, 256 FormID array entries), the repo's
                         sample save, and each NPC_/CREA change record alone (u32 flags + data)
  vmad_fuzzer            VMAD data of Skyrim records, after a byte for the record type
  package_fuzzer         PACK record bodies, after a byte for the game
  condition_text_fuzzer  CTDA/CTDT data after a mode byte, and condition lines that
                         `tesmod conditions` prints, after a mode byte for the game
  strings_fuzzer         string tables (the corpus' and the repo's samples), after a kind byte
  text_import_fuzzer     `tesmod export --stdout` of small plugins, whole and cut into one text
                         per top-level group
  script_compile_fuzzer  Oblivion script sources: every SCTX, and the decompiled text of every
                         script (`tesmod script decompile`)
  script_decompile_fuzzer  compiled Oblivion scripts (SCPT, INFO, QUST, PACK) in the input layout
                         of script_decompile_fuzzer.cpp: SLSD indexes and types, SCRO/SCRV, SCDA
  plugin_list_fuzzer     plugins.txt / loadorder.txt made of the corpus' plugin names: LF and
                         CRLF, comments, asterisks, UTF-8 with and without BOM, Windows-1252

The mode bytes are the ones the fuzz/*.cpp files read. The seeds are generated data: keep them
outside the repository. The text seeds (conditions, plugin text, decompiled scripts) need the
tesmod CLI (--tesmod, or the one in build-fuzz); without it they are left out.
"""
import argparse
import hashlib
import os
import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MAX_PLUGIN = 256 * 1024
MAX_SEED = 64 * 1024     # one field or record body
MAX_TEXT = 32 * 1024     # one text seed
MAX_PER_KIND = 2000      # of each kind of seed per target

# Record types whose VMAD has a fragment section, in vmad_fuzzer.cpp's order (0: none).
VMAD_TYPES = [b"ACTI", b"INFO", b"PACK", b"PERK", b"QUST", b"SCEN"]
COMPRESSED = 0x00040000
SCRIPT_FIELDS = {b"SCHR", b"SCDA", b"SCTX", b"SLSD", b"SCVR", b"SCRO", b"SCRV"}
SCRIPT_RECORDS = {b"SCPT", b"INFO", b"QUST", b"PACK"}  # Oblivion records that hold scripts
ACTOR_CHANGE_TYPES = (35, 36)  # NPC_, CREA
SAVE_MAGIC = b"TES4SAVEGAME"


class Seeds:
    def __init__(self, out):
        self.out = Path(out)
        self.counts = {}

    def add(self, target, data, kind=""):
        key = (target, kind)
        if self.counts.get(key, 0) >= MAX_PER_KIND:
            return
        folder = self.out / target
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / hashlib.sha1(data).hexdigest()
        if path.exists():
            return
        path.write_bytes(data)
        self.counts[key] = self.counts.get(key, 0) + 1


def header_size(path, data):
    """20 for Oblivion plugins, 24 for Skyrim: the corpus folder says, else HEDR's version."""
    parts = [p.lower() for p in path.parts]
    if "oblivion" in parts:
        return 20
    if "skyrim" in parts or "skyrimse" in parts:
        return 24
    # TES4's HEDR starts right after the header: 1.0 or 0.8 for Oblivion.
    for size in (20, 24):
        if data[size:size + 4] == b"HEDR":
            version = struct.unpack_from("<f", data, size + 6)[0]
            return 20 if round(version, 2) in (1.0, 0.8) else 24
    return 24


def fields(body):
    """(type, data) of each field of a record body; XXXX gives the next field's size."""
    pos, big = 0, None
    while pos + 6 <= len(body):
        sig = body[pos:pos + 4]
        size = struct.unpack_from("<H", body, pos + 4)[0]
        pos += 6
        if big is not None:
            size, big = big, None
        if sig == b"XXXX" and size == 4:
            big = struct.unpack_from("<I", body, pos)[0]
            pos += 4
            continue
        yield sig, body[pos:pos + size]
        pos += size


def records(data, hsize):
    """(type, stored body, inflated body) of every record, groups walked."""
    pos = 0
    while pos + hsize <= len(data):
        sig = data[pos:pos + 4]
        size = struct.unpack_from("<I", data, pos + 4)[0]
        if sig == b"GRUP":
            if size < hsize:
                return
            yield from records(data[pos + hsize:pos + size], hsize)
            pos += size
            continue
        flags = struct.unpack_from("<I", data, pos + 8)[0]
        stored = data[pos + hsize:pos + hsize + size]
        body = stored
        if flags & COMPRESSED:
            try:
                body = zlib.decompress(stored[4:])
            except zlib.error:
                body = b""
        yield sig, stored, body
        pos += hsize + size


def plugin_seeds(seeds, path):
    data = path.read_bytes()
    hsize = header_size(path, data)
    oblivion = hsize == 20
    if len(data) <= MAX_PLUGIN:
        seeds.add("plugin_fuzzer", data)
    if oblivion:
        script_seeds(seeds, records(data, hsize))
    for sig, _, body in records(data, hsize):
        if sig == b"PACK" and len(body) <= MAX_SEED:
            seeds.add("package_fuzzer", bytes([1 if oblivion else 0]) + body, "pack")
        for ftype, fdata in fields(body):
            if ftype == b"VMAD" and not oblivion:
                index = VMAD_TYPES.index(sig) if sig in VMAD_TYPES else 0
                seeds.add("vmad_fuzzer", bytes([index]) + fdata, "vmad")
            elif ftype in (b"CTDA", b"CTDT"):
                # condition_text_fuzzer modes: 2 Skyrim CTDA, 3 Oblivion CTDA, 4 Oblivion CTDT.
                mode = 2 if not oblivion else (4 if ftype == b"CTDT" else 3)
                seeds.add("condition_text_fuzzer", bytes([mode]) + fdata, "ctda")


def script_runs(field_list):
    """Runs of script fields, each starting at a SCHR (as the library splits a record's scripts)."""
    run = []
    for ftype, data in field_list:
        if ftype not in SCRIPT_FIELDS:
            if run:
                yield run
            run = []
            continue
        if ftype == b"SCHR" and run:
            yield run
            run = []
        run.append((ftype, data))
    if run:
        yield run


def decompile_seed(run):
    """script_decompile_fuzzer's layout: flags, variable count, reference count,
    (u16 index, u8 type) per variable, (u8 kind, u32 value) per reference, then SCDA."""
    code, variables, refs = None, [], []
    for ftype, data in run:
        if ftype == b"SCDA":
            code = data
        elif ftype == b"SLSD" and len(data) == 24:
            index = struct.unpack_from("<I", data)[0] & 0xFFFF
            variables.append(struct.pack("<HB", index, data[16] & 1))
        elif ftype in (b"SCRO", b"SCRV") and len(data) == 4:
            refs.append(struct.pack("<BI", 1 if ftype == b"SCRV" else 0, struct.unpack("<I", data)[0]))
    if code is None or len(variables) > 255 or len(refs) > 255:
        return None
    return bytes([0, len(variables), len(refs)]) + b"".join(variables) + b"".join(refs) + code


def script_seeds(seeds, records_of_plugin):
    for sig, _, body in records_of_plugin:
        if sig not in SCRIPT_RECORDS:
            continue
        for run in script_runs(fields(body)):
            for ftype, fdata in run:
                if ftype == b"SCTX" and fdata:
                    seeds.add("script_compile_fuzzer", fdata, "source")
            seed = decompile_seed(run)
            if seed is not None:
                seeds.add("script_decompile_fuzzer", seed, "script")


def decompiled_source_seeds(seeds, tesmod, path):
    with tempfile.TemporaryDirectory() as tmp:
        # A plugin with a script the decompiler refuses still writes the others: exit code ignored.
        try:
            subprocess.run([tesmod, "script", "decompile", str(path), "-o", tmp], capture_output=True,
                           timeout=300, check=False)
        except (OSError, subprocess.TimeoutExpired):
            return
        for text in sorted(Path(tmp).glob("*.txt")):
            seeds.add("script_compile_fuzzer", text.read_bytes(), "decompiled")


def tesmod_lines(tesmod, args):
    try:
        out = subprocess.run([tesmod, *args], capture_output=True, timeout=300, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout if out.returncode == 0 else None


def condition_text_seeds(seeds, tesmod, path, oblivion):
    out = tesmod_lines(tesmod, ["conditions", str(path)])
    if not out:
        return
    mode = 1 if oblivion else 0
    for line in out.splitlines():
        # Record lines start in column 0; their conditions are indented.
        if line.startswith(b"  "):
            seeds.add("condition_text_fuzzer", bytes([mode]) + line.strip(), "text")


def text_seeds(seeds, tesmod, path):
    out = tesmod_lines(tesmod, ["export", "--stdout", "--no-masters", str(path)])
    if not out:
        return
    if len(out) <= MAX_TEXT:
        seeds.add("text_import_fuzzer", out, "plugin")
    # One text per top-level group: the settings and the header record, then the group.
    marker = b"\ncontents\n"
    at = out.find(marker)
    if at < 0:
        return
    prelude, entries = out[:at + len(marker)], out[at + len(marker):]
    groups, current = [], []
    for line in entries.splitlines(keepends=True):
        if line.startswith(b"group ") and current:
            groups.append(b"".join(current))
            current = []
        current.append(line)
    if current:
        groups.append(b"".join(current))
    for group in groups:
        if len(prelude) + len(group) <= MAX_TEXT:
            seeds.add("text_import_fuzzer", prelude + group, "group")


class SaveCutter:
    """Reads an Oblivion save up to its change records and writes a smaller save from it."""

    def __init__(self, data):
        self.d, self.p = data, 0

    def take(self, n):
        b = self.d[self.p:self.p + n]
        if len(b) != n:
            raise ValueError("short save")
        self.p += n
        return b

    def u8(self):
        return self.take(1)[0]

    def u16(self):
        return struct.unpack("<H", self.take(2))[0]

    def u32(self):
        return struct.unpack("<I", self.take(4))[0]

    def block(self):
        return self.take(self.u16())

    def cut(self):
        """(the cut-down save, [(flags, data) of each actor change record])."""
        file_header = self.take(len(SAVE_MAGIC) + 2 + 16 + 4)
        header_size = self.u32()
        header_start = self.p
        save_header = self.take(4)                     # saveNum
        save_header += self.take(1 + self.d[self.p])   # pcName
        save_header += self.take(2)                    # pcLevel
        save_header += self.take(1 + self.d[self.p])   # pcLocation
        save_header += self.take(4 + 4 + 16)           # gameDays, gameTicks, gameTime
        shot_size = self.u32()
        self.take(shot_size)
        if self.p != header_start + header_size:
            raise ValueError("unexpected save header size")
        save_header += struct.pack("<III", 8, 0, 0)    # an empty screenshot
        plugins = bytes([self.u8()])
        for _ in range(plugins[0]):
            plugins += self.take(1 + self.d[self.p])
        self.u32()                                     # formIdsOffset: recomputed
        count = self.u32()
        globals_fixed = self.take(4 * 8)
        n_globals = self.u16()
        global_data = globals_fixed + struct.pack("<H", n_globals) + self.take(8 * n_globals)
        for _ in range(4):                             # class, processes, spectator, weather
            b = self.block()
            global_data += struct.pack("<H", len(b)) + b
        global_data += self.take(4)                    # player combat count
        for _ in range(self.u32()):                    # created records: left out
            size = struct.unpack_from("<I", self.d, self.p + 4)[0]
            self.take(20 + size)
        global_data += struct.pack("<I", 0)
        for _ in range(4):                             # quick keys, reticule, interface, regions
            b = self.block()
            global_data += struct.pack("<H", len(b)) + b
        kept, actors, others = [], [], 0
        for _ in range(count):
            head = self.take(12)
            data = self.take(struct.unpack_from("<H", head, 10)[0])
            if head[4] in ACTOR_CHANGE_TYPES:
                actors.append((struct.unpack_from("<I", head, 5)[0], data))
                if len(actors) <= 50:
                    kept.append(head + data)
            elif others < 20:
                others += 1
                kept.append(head + data)
        effects = self.take(self.u32())
        if len(effects) > 4096:
            effects = b""
        form_ids = [self.u32() for _ in range(self.u32())][:256]
        worlds = [self.u32() for _ in range(self.u32())]

        front = (file_header + struct.pack("<I", len(save_header)) + save_header + plugins)
        changes = b"".join(kept)
        after_offset = struct.pack("<I", len(kept)) + global_data + changes + struct.pack("<I", len(effects)) + effects
        form_ids_offset = len(front) + 4 + len(after_offset)
        out = front + struct.pack("<I", form_ids_offset) + after_offset
        out += struct.pack("<I", len(form_ids)) + b"".join(struct.pack("<I", f) for f in form_ids)
        out += struct.pack("<I", len(worlds)) + b"".join(struct.pack("<I", w) for w in worlds)
        return out, actors


def save_seeds(seeds, path):
    data = path.read_bytes()
    if not data.startswith(SAVE_MAGIC):
        return  # Skyrim saves: no target reads them
    if len(data) <= MAX_PLUGIN:
        seeds.add("save_fuzzer", data, "save")
    try:
        cut, actors = SaveCutter(data).cut()
    except (ValueError, struct.error, IndexError) as e:
        print(f"{path}: not cut ({e})", file=sys.stderr)
        return
    seeds.add("save_fuzzer", cut, "save")
    for flags, actor in actors:
        seeds.add("save_fuzzer", struct.pack("<I", flags) + actor, "actor")


def strings_seeds(seeds, path):
    kinds = {".strings": 0, ".dlstrings": 1, ".ilstrings": 2}
    kind = kinds.get(path.suffix.lower())
    if kind is not None:
        seeds.add("strings_fuzzer", bytes([kind]) + path.read_bytes(), "strings")


def find_tesmod(given):
    if given:
        return given
    for candidate in (REPO / "build-fuzz/tools/tesmod/tesmod", REPO / "build/tools/tesmod/tesmod"):
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return None


def plugin_list_seeds(seeds, names):
    """Lists of the corpus' plugin names in the forms the games write them."""
    names = sorted(set(names))
    for start in range(0, len(names), 16):
        part = names[start:start + 16]
        plain = "".join(n + "\n" for n in part)
        starred = "# This file is used by the game to keep track of your downloaded content.\r\n" + "".join(
            ("*" if i % 3 else "") + n + "\r\n" for i, n in enumerate(part))
        seeds.add("plugin_list_fuzzer", plain.encode("utf-8"), "list")
        seeds.add("plugin_list_fuzzer", b"\xef\xbb\xbf" + starred.encode("utf-8"), "list")
        seeds.add("plugin_list_fuzzer", starred.encode("cp1252", "replace"), "list")
    seeds.add("plugin_list_fuzzer", "Bl\u00e0\u00f1k.esp\r\n*\u20ac.esm\n".encode("cp1252"), "list")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpus", type=Path, help="the plugin and save corpus (../shared/corpus)")
    parser.add_argument("out", type=Path, help="where to write OUT/<target>/ seed folders")
    parser.add_argument("--tesmod", help="the tesmod CLI, for condition and plugin text seeds")
    args = parser.parse_args()
    if not args.corpus.is_dir():
        sys.exit(f"{args.corpus}: not a folder")
    tesmod = find_tesmod(args.tesmod)
    if not tesmod:
        print("no tesmod CLI found: condition text and plugin text seeds left out", file=sys.stderr)
    seeds = Seeds(args.out)
    files = sorted(p for d in (args.corpus, REPO / "samples") for p in d.rglob("*") if p.is_file())
    for path in files:
        suffix = path.suffix.lower()
        if suffix in (".esp", ".esm", ".esl"):
            plugin_seeds(seeds, path)
            if tesmod:
                oblivion = header_size(path, path.read_bytes()[:64]) == 20
                condition_text_seeds(seeds, tesmod, path, oblivion)
                if oblivion:
                    decompiled_source_seeds(seeds, tesmod, path)
                if path.stat().st_size <= MAX_PLUGIN:
                    text_seeds(seeds, tesmod, path)
        elif suffix == ".ess":
            save_seeds(seeds, path)
        else:
            strings_seeds(seeds, path)
    plugin_list_seeds(seeds, [p.name for p in files if p.suffix.lower() in (".esp", ".esm", ".esl")])
    for target in sorted({t for t, _ in seeds.counts}):
        kinds = ", ".join(f"{n} {k or 'files'}" for (t, k), n in sorted(seeds.counts.items()) if t == target)
        print(f"{target}: {kinds}")


if __name__ == "__main__":
    main()

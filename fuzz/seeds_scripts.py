#!/usr/bin/env python3
"""Seed inputs for the script fuzzers, from the Oblivion plugins under a corpus directory.

    fuzz/seeds_scripts.py CORPUS_DIR OUT_DIR [--tesmod BUILD/tools/tesmod/tesmod]

Writes OUT_DIR/compile/ (script sources: each script's SCTX, and with --tesmod the decompiled
text of every script of each plugin) and OUT_DIR/decompile/ (compiled scripts in the input
layout of script_decompile_fuzzer.cpp). File names are content hashes, so duplicates collapse.
Seeds are throwaway: regenerate them, do not commit them.
"""
import argparse
import hashlib
import pathlib
import struct
import subprocess
import tempfile
import zlib

SCRIPT_FIELDS = {b"SCHR", b"SCDA", b"SCTX", b"SLSD", b"SCVR", b"SCRO", b"SCRV"}
SCRIPT_RECORDS = {b"SCPT", b"INFO", b"QUST", b"PACK"}
COMPRESSED = 0x00040000
HEADER = 20  # Oblivion record and group headers


def records(data):
    """(type, flags, payload) of every record, groups walked into."""
    pos = 0
    while pos + HEADER <= len(data):
        rtype = data[pos:pos + 4]
        size, flags = struct.unpack_from("<II", data, pos + 4)
        if rtype == b"GRUP":
            if size < HEADER:
                return
            yield from records(data[pos + HEADER:pos + size])
            pos += size
            continue
        yield rtype, flags, data[pos + HEADER:pos + HEADER + size]
        pos += HEADER + size


def fields(payload, flags):
    if flags & COMPRESSED:
        try:
            payload = zlib.decompress(payload[4:])
        except zlib.error:
            return []
    out, pos, big = [], 0, None
    while pos + 6 <= len(payload):
        ftype = payload[pos:pos + 4]
        (size,) = struct.unpack_from("<H", payload, pos + 4)
        pos += 6
        if big is not None:
            size, big = big, None
        if ftype == b"XXXX":
            (big,) = struct.unpack_from("<I", payload, pos)
            pos += size
            continue
        out.append((ftype, payload[pos:pos + size]))
        pos += size
    return out


def scripts(field_list):
    """Runs of script fields, each starting at a SCHR (as find_scripts() splits them)."""
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
    """flags, variable count, ref count, (u16 index, type)*, (kind, u32 value)*, SCDA."""
    code, variables, refs = None, [], []
    for ftype, data in run:
        if ftype == b"SCDA":
            code = data
        elif ftype == b"SLSD" and len(data) == 24:
            variables.append(struct.pack("<HB", struct.unpack_from("<I", data)[0] & 0xFFFF, data[16] & 1))
        elif ftype in (b"SCRO", b"SCRV") and len(data) == 4:
            refs.append(struct.pack("<BI", 1 if ftype == b"SCRV" else 0, struct.unpack("<I", data)[0]))
    if code is None or len(variables) > 255 or len(refs) > 255:
        return None
    return bytes([0, len(variables), len(refs)]) + b"".join(variables) + b"".join(refs) + code


def write(directory, data):
    directory.mkdir(parents=True, exist_ok=True)
    (directory / hashlib.sha1(data).hexdigest()).write_bytes(data)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", type=pathlib.Path)
    parser.add_argument("out", type=pathlib.Path)
    parser.add_argument("--tesmod", help="tesmod CLI, to add decompiled sources")
    args = parser.parse_args()
    plugins = sorted(p for p in args.corpus.rglob("*") if p.suffix.lower() in (".esp", ".esm"))
    for plugin in plugins:
        data = plugin.read_bytes()
        if data[:4] != b"TES4" or data[HEADER:HEADER + 4] != b"HEDR":  # not Oblivion's 20-byte headers
            continue
        for rtype, flags, payload in records(data):
            if rtype not in SCRIPT_RECORDS:
                continue
            for run in scripts(fields(payload, flags)):
                for ftype, fdata in run:
                    if ftype == b"SCTX" and fdata:
                        write(args.out / "compile", fdata)
                seed = decompile_seed(run)
                if seed is not None:
                    write(args.out / "decompile", seed)
        if args.tesmod:
            with tempfile.TemporaryDirectory() as tmp:
                # A plugin with a broken script still writes the others; the exit code is ignored.
                subprocess.run([args.tesmod, "script", "decompile", str(plugin), "-o", tmp],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
                for text in pathlib.Path(tmp).glob("*.txt"):
                    write(args.out / "compile", text.read_bytes())
    for kind in ("compile", "decompile"):
        d = args.out / kind
        print(f"{kind}: {len(list(d.iterdir())) if d.exists() else 0} seeds in {d}")


if __name__ == "__main__":
    main()

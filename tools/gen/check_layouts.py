#!/usr/bin/env python3
"""Check a field-layout table (src/fields/layouts/tes4.layouts or tes5.layouts) against real plugins.

Usage:
  check_layouts.py LAYOUTS [PLUGIN_OR_DIR ...] [--big] [--top N] [--all] [--show REC:SIG]...
                   [--game tes4|tes5] [--parse-only] [--no-sanity]

1. Parses LAYOUTS strictly (unknown types, bad or duplicate names, open members not last,
   lstring not alone, enum/flag sets referenced but not defined, ...). Errors are printed as
   FILE:LINE: message and the exit status is 1.
2. Walks every plugin of the layout's game: by default the game's folders of the shared corpus
   (tes4: corpus/oblivion; tes5: corpus/skyrim and corpus/skyrimse), or the files/folders given.
   --big adds the synthetic fixture bench/.cache/big.esm (Skyrim SE, ~250 MB; about a minute).
   A plugin whose header size does not match the game (20 bytes Oblivion, 24 Skyrim) is skipped.
3. Reports, per (record, field): how many instances there are and how many fit a layout (a
   layout "fits" when the field's size is exactly what the layout takes); the most frequent
   unfitted (record, field, size) keys; and the layout entries that never matched anything.
   Fields rendered by other code (VMAD, CTDA, CTDT, CIS1, CIS2, Oblivion SCTX, the Skyrim PACK
   fields after EDID/VMAD) are counted apart and left out of the coverage figure.
   Sanity checks on fitted fields (skip with --no-sanity): a formid whose load-order byte is past
   the plugin's masters + itself, an f32 that is NaN/infinite/huge/denormal, an enum value with
   no label, a flag bit with no label. They hint at a wrong layout, not prove one.
   --show REC:SIG prints up to 12 decoded instances of that field (REC may be '*').

Fit rules: fixed members add their size; an open array needs the rest to be a whole number of
elements; zstring needs at least one byte and a final NUL; chars and bytes take any rest; lstring
is a zstring in normal plugins and exactly 4 bytes (a string id) in localized ones (TES4 flag 0x80).

Python 3 standard library only.
"""
import argparse
import math
import os
import re
import struct
import sys
import zlib
from collections import Counter, defaultdict

# ------------------------------------------------------------------------------------------
# The layout table
# ------------------------------------------------------------------------------------------

INT_TYPES = {  # name: (size, struct code, signed, hex display)
    "u8": (1, "B", False, False), "u16": (2, "H", False, False),
    "u32": (4, "I", False, False), "u64": (8, "Q", False, False),
    "i8": (1, "b", True, False), "i16": (2, "h", True, False),
    "i32": (4, "i", True, False), "i64": (8, "q", True, False),
    "x8": (1, "B", False, True), "x16": (2, "H", False, True), "x32": (4, "I", False, True),
}
SCALAR_SIZES = {"f32": 4, "formid": 4, "sig": 4}
SCALAR_SIZES.update({k: v[0] for k, v in INT_TYPES.items()})
OPEN_TYPES = {"zstring", "chars", "bytes", "lstring"}

NAME_RE = re.compile(r"^[a-z][a-z0-9-]*$")
LABEL_RE = re.compile(r"^[A-Za-z0-9_]+$")
SETNAME_RE = re.compile(r"^[A-Z][A-Za-z0-9_]*$")
CODE_RE = re.compile(r"^[A-Z0-9_]{4}$")
TYPE_RE = re.compile(r"^([a-z0-9]+?)(?:/([A-Za-z0-9_|]+))?(?:\[(\d*)\])?$")


class LayoutError(Exception):
    pass


class Member:
    __slots__ = ("name", "base", "set_name", "count", "size", "open")

    def __init__(self, name, base, set_name, count):
        self.name = name
        self.base = base          # u8 ... sig, zstring, chars, bytes, lstring, bytesN -> "bytesN"
        self.set_name = set_name  # enum / flag set name or None
        self.count = count        # None: scalar; 0: open array; N: fixed array
        if base.startswith("bytes") and base != "bytes":
            self.size = int(base[5:])
            self.open = False
        elif base in OPEN_TYPES:
            self.size = 0
            self.open = True
        else:
            elem = SCALAR_SIZES[base]
            if count is None:
                self.size, self.open = elem, False
            elif count == 0:
                self.size, self.open = elem, True  # size = element size
            else:
                self.size, self.open = elem * count, False


class Layout:
    __slots__ = ("records", "sig", "members", "line", "fixed", "tail", "matched", "text", "opaque")

    def __init__(self, records, sig, members, line, text):
        self.records, self.sig, self.members, self.line, self.text = records, sig, members, line, text
        self.fixed = sum(m.size for m in members if not m.open)
        last = members[-1]
        self.tail = None  # None: fixed size; else the open member
        if last.open:
            self.tail = last
        self.matched = 0
        # Only raw bytes: the field gets a name but its values stay hex.
        self.opaque = all(m.base.startswith("bytes") for m in members)

    def fits(self, data, localized):
        n = len(data)
        t = self.tail
        if t is None:
            return n == self.fixed
        if n < self.fixed:
            return False
        rest = n - self.fixed
        b = t.base
        if t.count == 0:
            return rest % t.size == 0
        if b == "zstring":
            return rest >= 1 and data[-1] == 0
        if b == "lstring":
            return rest == 4 if localized else (rest >= 1 and data[-1] == 0)
        return True  # chars, bytes


class Table:
    def __init__(self):
        self.sets = {}       # name -> ("enum"|"flags", {value: label}, line)
        self.by_key = defaultdict(list)  # (rec or '*', sig) -> [Layout]
        self.layouts = []
        self.used_sets = set()

    def lookup(self, rec, sig):
        exact = self.by_key.get((rec, sig))
        star = self.by_key.get(("*", sig))
        if exact and star:
            return exact + star
        return exact or star or ()


def parse_layouts(path):
    """Parses a .layouts file; raises LayoutError with 'path:line: message' lines."""
    table = Table()
    errors = []
    refs = []  # (set name, line)
    current = None  # (kind, name, values dict, labels set)

    def err(line, msg):
        errors.append(f"{path}:{line}: {msg}")

    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for num, raw in enumerate(lines, 1):
        text = raw.split("#", 1)[0].rstrip()
        if not text.strip():
            continue
        if "\t" in text:
            err(num, "tab character (use spaces)")
        indented = text[0] == " "
        words = text.split()
        if indented:
            if current is None:
                err(num, "indented line outside an enum or flags block")
                continue
            kind, sname, values, labels = current
            if len(words) != 2:
                err(num, f"expected 'VALUE Label' in {kind} {sname}")
                continue
            vtext, label = words
            try:
                if kind == "flags":
                    if not re.fullmatch(r"0x[0-9A-Fa-f]+", vtext):
                        raise ValueError
                    value = int(vtext, 16)
                    if value == 0 or value & (value - 1):
                        err(num, f"flag value {vtext} is not a single bit")
                        continue
                else:
                    if not re.fullmatch(r"-?[0-9]+|0x[0-9A-Fa-f]+", vtext):
                        raise ValueError
                    value = int(vtext, 0)
            except ValueError:
                err(num, f"bad value '{vtext}' in {kind} {sname}")
                continue
            if not LABEL_RE.match(label) or label[0].isdigit():
                err(num, f"bad label '{label}' (CamelCase, [A-Za-z0-9_], not starting with a digit)")
            if label in labels:
                err(num, f"duplicate label '{label}' in {sname}")
            if value in values:
                err(num, f"duplicate value {vtext} in {sname}")
            labels.add(label)
            values[value] = label
            continue
        current = None
        head = words[0]
        if head in ("enum", "flags"):
            if len(words) != 2:
                err(num, f"expected '{head} Name'")
                continue
            sname = words[1]
            if not SETNAME_RE.match(sname):
                err(num, f"bad {head} name '{sname}'")
            if sname in table.sets:
                err(num, f"{sname} already defined at line {table.sets[sname][2]}")
                continue
            values = {}
            table.sets[sname] = (head, values, num)
            current = (head, sname, values, set())
            continue
        if head != "field":
            err(num, f"unknown directive '{head}' (enum, flags or field)")
            continue
        if len(words) < 4:
            err(num, "expected 'field RECORDS SIG name:type ...'")
            continue
        recs_text, sig = words[1], words[2]
        if recs_text == "*":
            recs = ["*"]
        else:
            recs = recs_text.split(",")
            bad = [r for r in recs if not CODE_RE.match(r)]
            if bad:
                err(num, f"bad record type(s) {', '.join(bad) or repr(recs_text)}")
                continue
            if len(set(recs)) != len(recs):
                err(num, "record type listed twice")
        if not CODE_RE.match(sig):
            err(num, f"bad field signature '{sig}'")
            continue
        members = []
        names = set()
        ok = True
        for i, word in enumerate(words[3:]):
            if ":" not in word:
                err(num, f"member '{word}' is not name:type")
                ok = False
                continue
            name, typ = word.split(":", 1)
            if not NAME_RE.match(name):
                err(num, f"bad member name '{name}' (lowercase, digits, '-')")
                ok = False
            if name in names:
                err(num, f"duplicate member name '{name}'")
                ok = False
            names.add(name)
            m = TYPE_RE.match(typ)
            if not m:
                err(num, f"bad type '{typ}'")
                ok = False
                continue
            base, sname, count = m.group(1), m.group(2), m.group(3)
            is_bytes_n = re.fullmatch(r"bytes([1-9][0-9]*)", base) is not None
            if base not in SCALAR_SIZES and base not in OPEN_TYPES and not is_bytes_n:
                err(num, f"unknown type '{base}'")
                ok = False
                continue
            if sname is not None and base == "formid":
                # formid/RACE or formid/NPC_|LVLN: the record types the FormID may name
                if not all(CODE_RE.match(t) for t in sname.split("|")):
                    err(num, f"expected record types after formid/ ('{typ}')")
                    ok = False
                    continue
                sname = None
            elif sname is not None:
                if base not in INT_TYPES:
                    err(num, f"only an integer type can name an enum or flag set ('{typ}')")
                    ok = False
                    continue
                refs.append((sname, num))
            if count is not None:
                if base not in SCALAR_SIZES:
                    err(num, f"arrays need a scalar type ('{typ}')")
                    ok = False
                    continue
                count = int(count) if count else 0
                if count == 0 and m.group(3) != "":
                    err(num, f"fixed array of 0 elements ('{typ}')")
                    ok = False
                    continue
            members.append(Member(name, base, sname, count))
        if not ok or not members:
            continue
        for i, mem in enumerate(members):
            if mem.open and i != len(members) - 1:
                err(num, f"open member '{mem.name}' must be the last one")
                ok = False
            if mem.base == "lstring" and len(members) != 1:
                err(num, "an lstring must be the only member of its layout")
                ok = False
        if not ok:
            continue
        lay = Layout(recs, sig, members, num, text.strip())
        table.layouts.append(lay)
        for r in recs:
            table.by_key[(r, sig)].append(lay)
    for sname, num in refs:
        if sname not in table.sets:
            err(num, f"enum/flags '{sname}' is not defined")
        else:
            table.used_sets.add(sname)
    # Variants that can never be chosen: a fixed size already taken by an earlier variant.
    for (rec, sig), lays in table.by_key.items():
        seen = {}
        for lay in lays:
            if lay.tail is None:
                if lay.fixed in seen:
                    err(lay.line, f"{rec} {sig}: variant of {lay.fixed} bytes is shadowed by line "
                                  f"{seen[lay.fixed]}")
                seen.setdefault(lay.fixed, lay.line)
    for sname, (kind, values, num) in table.sets.items():
        if not values:
            err(num, f"{kind} {sname} is empty")
    if errors:
        raise LayoutError("\n".join(errors))
    return table


# ------------------------------------------------------------------------------------------
# Plugins
# ------------------------------------------------------------------------------------------

class Plugin:
    def __init__(self, path):
        self.path = path
        with open(path, "rb") as f:
            self.data = f.read()
        d = self.data
        if len(d) < 24 or d[:4] != b"TES4":
            raise ValueError("not a plugin (no TES4 record)")
        self.header_size = 20 if d[20:24] == b"HEDR" else 24
        self.flags = struct.unpack_from("<I", d, 8)[0]
        self.localized = self.header_size == 24 and bool(self.flags & 0x80)
        self.masters = 0

    def records(self):
        """Yields (record type, formid, fields) where fields is a list of (sig, bytes)."""
        d = self.data
        hs = self.header_size
        n = len(d)
        p = 0
        unpack = struct.unpack_from
        while p + hs <= n:
            sig = d[p:p + 4]
            size, flags, formid = unpack("<III", d, p + 4)
            if sig == b"GRUP":
                p += hs
                continue
            body = d[p + hs:p + hs + size]
            p += hs + size
            if flags & 0x00040000:
                body = zlib.decompress(body[4:])
            rec = sig.decode("latin-1")
            fields = list(split_fields(body))
            if rec == "TES4":
                self.masters = sum(1 for s, _ in fields if s == "MAST")
            yield rec, formid, fields


def split_fields(body):
    q = 0
    n = len(body)
    big = None
    unpack = struct.unpack_from
    while q + 6 <= n:
        sig = body[q:q + 4].decode("latin-1")
        size = unpack("<H", body, q + 4)[0]
        q += 6
        if big is not None:
            size = big
            big = None
        if sig == "XXXX" and size == 4:
            big = unpack("<I", body, q)[0]
            q += 4
            continue
        yield sig, body[q:q + size]
        q += size


def game_dirs(corpus, game):
    return [os.path.join(corpus, d) for d in (("oblivion",) if game == "tes4" else ("skyrim", "skyrimse"))]


def plugin_files(paths):
    for p in paths:
        if os.path.isdir(p):
            for root, _, files in sorted(os.walk(p)):
                for name in sorted(files):
                    if name.lower().endswith((".esp", ".esm", ".esl")):
                        yield os.path.join(root, name)
        else:
            yield p


# Fields rendered by other code, not by layouts.
ELSEWHERE = {"VMAD", "CTDA", "CTDT", "CIS1", "CIS2"}


def handled_elsewhere(game, rec, sig):
    if sig in ELSEWHERE:
        return True
    if game == "tes4" and sig == "SCTX":
        return True
    if game == "tes5" and rec == "PACK" and sig not in ("EDID", "VMAD"):
        return True
    return False


# ------------------------------------------------------------------------------------------
# Decoding (for --show and the sanity checks)
# ------------------------------------------------------------------------------------------

def decode(lay, data, localized, table):
    """[(member name, python value or list)] for a fitted field."""
    out = []
    q = 0
    for m in lay.members:
        b = m.base
        if b == "lstring":
            out.append((m.name, ("id", struct.unpack_from("<I", data, q)[0]) if localized
                        else data[q:-1].decode("cp1252", "replace")))
            q = len(data)
        elif b == "zstring":
            out.append((m.name, data[q:-1].decode("cp1252", "replace")))
            q = len(data)
        elif b == "chars":
            out.append((m.name, data[q:].decode("cp1252", "replace")))
            q = len(data)
        elif b == "bytes" or b.startswith("bytes"):
            end = len(data) if b == "bytes" else q + m.size
            out.append((m.name, data[q:end].hex().upper()))
            q = end
        else:
            esize = SCALAR_SIZES[b]
            count = m.count if m.count else (None if m.count is None else (len(data) - q) // esize)
            vals = []
            for _ in range(1 if count is None else count):
                vals.append(scalar(b, data, q))
                q += esize
            out.append((m.name, vals[0] if count is None else vals))
    return out


def scalar(base, data, q):
    if base == "f32":
        return struct.unpack_from("<f", data, q)[0]
    if base == "formid":
        return ("formid", struct.unpack_from("<I", data, q)[0])
    if base == "sig":
        return data[q:q + 4].decode("latin-1")
    code = INT_TYPES[base][1]
    return struct.unpack_from("<" + code, data, q)[0]


def show_value(m, v, table):
    if isinstance(v, list):
        return "[" + ", ".join(show_value(m, x, table) for x in v) + "]"
    if isinstance(v, tuple):
        return f"{v[1]:08X}" if v[0] == "formid" else f"id:{v[1]}"
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, int):
        text = f"0x{v:X}" if INT_TYPES[m.base][3] else str(v)
        if m.set_name:
            kind, values, _ = table.sets[m.set_name]
            if kind == "enum":
                text = values.get(v, text)
            else:
                names = [lab for bit, lab in sorted(values.items()) if v & bit]
                rest = v & ~sum(values.keys())
                if rest:
                    names.append(f"0x{rest:X}")
                text = "|".join(names) if names else "0"
        return text
    return repr(v)


class Sanity:
    def __init__(self):
        self.bad = Counter()       # (rec, sig, member, kind) -> count
        self.example = {}

    def check(self, rec, sig, lay, values, masters, table, plugin):
        for m, (name, v) in zip(lay.members, values):
            vs = v if isinstance(v, list) else [v]
            for x in vs:
                why = None
                if isinstance(x, tuple) and x[0] == "formid":
                    if x[1] != 0 and (x[1] >> 24) > masters:
                        why = "formid past masters"
                elif isinstance(x, float):
                    if math.isnan(x) or math.isinf(x) or abs(x) > 1e10 or (x != 0 and abs(x) < 1e-30):
                        why = "odd float"
                elif isinstance(x, int) and m.set_name:
                    kind, labels, _ = table.sets[m.set_name]
                    if kind == "enum" and x not in labels:
                        why = "value not in enum"
                    elif kind == "flags" and x & ~sum(labels.keys()):
                        why = "unnamed flag bit"
                if why:
                    key = (rec, sig, name, why)
                    self.bad[key] += 1
                    self.example.setdefault(key, (os.path.basename(plugin), x))


# ------------------------------------------------------------------------------------------
# Main
# ------------------------------------------------------------------------------------------

def pct(a, b):
    return f"{100.0 * a / b:.2f}%" if b else "-"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("layouts")
    ap.add_argument("paths", nargs="*", help="plugins or folders (default: the game's corpus folders)")
    ap.add_argument("--game", choices=("tes4", "tes5"), help="default: from the layouts file name")
    ap.add_argument("--corpus", default=os.environ.get("TESMOD_CORPUS") or
                    next((c for c in ("/work/shared/corpus", os.path.join(repo, "..", "shared", "corpus"))
                          if os.path.isdir(c)), os.path.join(repo, "..", "shared", "corpus")))
    ap.add_argument("--big", action="store_true", help="add bench/.cache/big.esm (tes5)")
    ap.add_argument("--top", type=int, default=40, help="unfitted keys to list")
    ap.add_argument("--all", action="store_true", help="list every (record, field)")
    ap.add_argument("--show", action="append", default=[], metavar="REC:SIG")
    ap.add_argument("--parse-only", action="store_true")
    ap.add_argument("--no-sanity", action="store_true")
    args = ap.parse_args()

    try:
        table = parse_layouts(args.layouts)
    except LayoutError as e:
        print(e, file=sys.stderr)
        return 1
    unused = sorted(set(table.sets) - table.used_sets)
    nfields = len(table.by_key)
    print(f"{args.layouts}: {len(table.layouts)} layout lines, {nfields} (record, field) keys, "
          f"{len(table.sets)} enum/flag sets")
    for s in unused:
        print(f"  note: {table.sets[s][0]} {s} (line {table.sets[s][2]}) is never used")
    if args.parse_only:
        return 0

    game = args.game or ("tes4" if "tes4" in os.path.basename(args.layouts) else
                         "tes5" if "tes5" in os.path.basename(args.layouts) else None)
    if game is None:
        print("cannot tell the game from the file name: use --game", file=sys.stderr)
        return 2
    paths = list(args.paths) or game_dirs(args.corpus, game)
    if args.big:
        paths.append(os.path.join(repo, "bench", ".cache", "big.esm"))
    want_hs = 20 if game == "tes4" else 24

    shows = {}
    for s in args.show:
        rec, _, sig = s.partition(":")
        shows[(rec, sig)] = 0

    total = Counter()      # (rec, sig) -> instances
    fitted = Counter()
    opaque = Counter()
    unfit = Counter()      # (rec, sig, size) -> count
    unfit_where = {}
    elsewhere = Counter()
    sanity = Sanity()
    plugins = records = 0
    for path in plugin_files(paths):
        try:
            plugin = Plugin(path)
        except (OSError, ValueError) as e:
            print(f"skip {path}: {e}", file=sys.stderr)
            continue
        if plugin.header_size != want_hs:
            print(f"skip {path}: not a {game} plugin", file=sys.stderr)
            continue
        plugins += 1
        loc = plugin.localized
        cache = {}
        for rec, formid, fields in plugin.records():
            records += 1
            masters = plugin.masters
            for sig, data in fields:
                key = (rec, sig)
                if handled_elsewhere(game, rec, sig):
                    elsewhere[key] += 1
                    continue
                total[key] += 1
                lays = cache.get(key)
                if lays is None:
                    lays = cache[key] = table.lookup(rec, sig)
                for lay in lays:
                    if lay.fits(data, loc):
                        lay.matched += 1
                        fitted[key] += 1
                        if lay.opaque:
                            opaque[key] += 1
                        if not args.no_sanity or shows:
                            values = decode(lay, data, loc, table)
                            if not args.no_sanity:
                                sanity.check(rec, sig, lay, values, masters, table, path)
                            for sk in ((rec, sig), ("*", sig)):
                                if sk in shows and shows[sk] < 12:
                                    shows[sk] += 1
                                    print(f"[{rec} {formid:08X} {sig}] " + " ".join(
                                        f"{n}={show_value(m, v, table)}"
                                        for m, (n, v) in zip(lay.members, values)))
                        break
                else:
                    k = (rec, sig, len(data))
                    unfit[k] += 1
                    unfit_where.setdefault(k, (os.path.basename(path), formid, data[:24].hex().upper()))

    all_fields = sum(total.values())
    all_fit = sum(fitted.values())
    empty_unfit = sum(n for (rec, sig, size), n in unfit.items() if size == 0)
    print(f"\n{game}: {plugins} plugins, {records} records, "
          f"{all_fields + sum(elsewhere.values())} fields (not counting XXXX)")
    print(f"  rendered elsewhere (VMAD, CTDA, ...):   {sum(elsewhere.values())}")
    print(f"  for layouts:                            {all_fields}")
    all_opaque = sum(opaque.values())
    print(f"  fit a layout:                           {all_fit} ({pct(all_fit, all_fields)})")
    print(f"    of which typed values:                {all_fit - all_opaque} ({pct(all_fit - all_opaque, all_fields)})")
    print(f"    of which only named bytes (opaque):   {all_opaque} ({pct(all_opaque, all_fields)})")
    print(f"  not fitted, but empty (size 0, markers): {empty_unfit}")
    print(f"  fit, of the non-empty ones:             "
          f"{pct(all_fit, all_fields - empty_unfit)} (typed {pct(all_fit - all_opaque, all_fields - empty_unfit)})")
    keys_total = len(total)
    keys_full = sum(1 for k in total if fitted[k] == total[k])
    print(f"  (record, field) keys fully fitted:      {keys_full} of {keys_total}")

    if args.all:
        print("\nrecord field   count    fit")
        for (rec, sig), n in sorted(total.items(), key=lambda kv: (-kv[1], kv[0])):
            print(f"  {rec} {sig} {n:8d} {fitted[(rec, sig)]:8d}  {pct(fitted[(rec, sig)], n)}")

    if unfit and args.top:
        print(f"\ntop unfitted (record, field, size) keys:")
        for (rec, sig, size), n in unfit.most_common(args.top):
            where = unfit_where[(rec, sig, size)]
            has = "layout, wrong size" if table.lookup(rec, sig) else "no layout"
            print(f"  {rec} {sig} {size:6d} bytes x{n:<7d} {has:20s} e.g. {where[0]} {where[1]:08X} {where[2]}")

    never = [lay for lay in table.layouts if lay.matched == 0]
    if never:
        print(f"\nlayout lines that matched nothing here ({len(never)}):")
        for lay in never:
            print(f"  line {lay.line}: {lay.text}")

    if sanity.bad:
        print("\nsanity warnings (fitted fields whose values look odd):")
        for key, n in sorted(sanity.bad.items(), key=lambda kv: -kv[1]):
            rec, sig, name, why = key
            ex = sanity.example[key]
            print(f"  {rec} {sig} {name}: {why} x{n}  e.g. {ex[0]} {ex[1]!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Check a field-layout table (src/fields/layouts/tes4.layouts or tes5.layouts) against real plugins.

Usage:
  check_layouts.py LAYOUTS [PLUGIN_OR_DIR ...] [--big] [--top N] [--all] [--show REC:SIG]...
                   [--game tes4|tes5] [--parse-only] [--no-sanity]

1. Parses LAYOUTS strictly, the layout language of src/fields/layouts/README.md: enum/flags blocks,
   `struct Name member:type ...` (and `tuple`, a struct written by position: the same bytes),
   `field RECORDS SIG [if COND]... member:type ...`,
   `sections RECORDS SIG ...`, `header RECORDS [if COND]... FlagsName`, and
   `record RECORDS ordered|unordered ELEMENT...` (record structures, for `tesmod check`: read for
   their syntax here, checked against plugins by the C++ tests). Types: u8..u64 i8..i64
   x8 x16 x32 x64 f32 formid[/TYPE|TYPE] sig zstring zstringN lstring chars bytes bytesN
   str8/16/32 zstr8/16/32 and struct names; arrays [N], [] (to the end), counted [#u8|#u16|#u32] and
   counted by earlier members [@count] / [@rows*columns];
   fixed values name:type=VALUE; optional members name:type? (the field may end before them). Conditions: edid^=TEXT, prev=SIG|SIG, in=SIG|SIG (or in=-),
   FIELD.member=VALUE, FIELD.member&VALUE, version<N, version>=N, member->TYPE|TYPE (fields) and NAME->TYPE|TYPE
   (headers). A field type is four characters, or 0x and eight hex digits (the four bytes
   read little-endian) for one that is not printable. '#' starts a comment at the start of a
   line or after a blank. Errors (unknown types, bad or duplicate names, open members not last,
   an lstring not alone, names or labels not defined, in= without `sections`, a variant that
   can never be chosen, a header flag label that means different bits for one record type, ...)
   are printed as FILE:LINE: message and the exit status is 1.
2. Walks every plugin of the layout's game: by default the game's folders of the shared corpus
   (tes4: corpus/oblivion; tes5: corpus/skyrim and corpus/skyrimse), or the files/folders given.
   --big adds the synthetic fixture bench/.cache/big.esm (Skyrim SE, ~250 MB; a few minutes).
   A plugin whose header size does not match the game (20 bytes Oblivion, 24 Skyrim) is skipped.
3. Reports, per game: field instances total and typed, counted as `tesmod verify --deep` counts
   checks.typed_fields (the figures must be equal on the same plugins), the record headers whose
   flags hold a bit that the record type's header flag set does not name, and the list of
   (record, field) keys still not typed, with counts. --all lists every key; --top N the most
   frequent untyped (record, field, size) keys with an example. Unnamed header bits are listed.
   Typed means:
     - an empty field (no bytes): typed, with or without a layout (there is nothing to show);
     - a field a layout fits: typed, unless that layout is made only of raw `bytes`/`bytesN`
       members (hex by another name: counted as not typed, listed as "only named bytes");
     - fields rendered by other code, not by layouts, are in the total and counted typed:
       CTDA/CTDT conditions with the CIS1/CIS2 right after them (both games), Skyrim VMAD,
       Oblivion SCTX (script source), and in PACK records (both games) every field after the
       leading EDID/VMAD (the package block). The C++ counts these typed only when its decoder
       takes them (a condition that does not re-encode exactly, a package block that does not
       decode, stays hex there); this script does not decode them, so a broken one would make
       the two figures differ (none does on the corpus).
     - counted apart (in neither figure): Oblivion SCDA, compiled script bytecode shown as hex,
       whose meaning is the SCTX source beside it (the script compiler and decompiler, whose
       verify --deep checks compare the two);
     - not typed: a field no layout fits; the C++ also shows hex (and counts untyped) a field
       whose typed text would not read back exactly, which this script cannot see.
   Sanity checks on fitted fields (skip with --no-sanity): a formid whose load-order byte is past
   the plugin's masters + itself, an f32 that is NaN/infinite/huge/denormal, an enum value with
   no label, a flag bit with no label, a formid/TYPE naming a record of this plugin of another
   type. They hint at a wrong layout, not prove one.
   --show REC:SIG prints up to 12 decoded instances of that field (REC may be '*').

Choosing a layout (as the C++ table does): the lines for RECORD+SIG, then those for *+SIG, in
table order; the first whose conditions all hold and that fits the bytes is used. Conditions:
edid^= looks at the record's EDID (case-insensitive); prev= at the field right before (XXXX not
counted); in= at the last field before this one that is one of the record type's `sections`
(a section opener is itself in the section before it; `-` when there is none); FIELD.member at
the last FIELD before this one, read with the layout chosen for it (false when none fitted or
its member of that name is not a single integer); member->TYPE at the record that the FormID
names, known only when that record is in the same plugin (else the condition is false; a NULL
FormID is false too). Header lines take only NAME->TYPE conditions: the first NAME field of the
record.
Fit: members are read in order and must take the field exactly (a field that ends right before an
optional member, name:type?, leaves it and the members after it out). Scalars and bytesN their size;
a fixed value must match; [N] N elements; [#uN] a count then that many; [] elements until the
end; str8/16/32 a length then that many bytes; zstr8/16/32 the same with a final zero byte
counted in the length; a zstring ends at its first zero byte, or when it is the last member of
the field takes the rest, which must end with a zero byte; zstringN takes N bytes, a zero byte among
them (the bytes after it are kept, whatever they hold); chars and bytes take any rest; lstring
is a zstring in normal plugins and exactly 4 bytes (a string id) in localized ones (TES4 0x80).
Header flags: the record type's `header` lines in order, then the `header *` lines, the first whose
conditions hold names the bits; with none, the built-in sets (TES4: ESM, Localized, ESL; others:
Deleted, Persistent, InitiallyDisabled, Ignored, VisibleWhenDistant, Compressed).

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
    "x8": (1, "B", False, True), "x16": (2, "H", False, True), "x32": (4, "I", False, True), "x64": (8, "Q", False, True),
}
SCALAR_SIZES = {"f32": 4, "formid": 4, "sig": 4}
SCALAR_SIZES.update({k: v[0] for k, v in INT_TYPES.items()})
PREFIXED = {"str8": (1, "B", False), "str16": (2, "H", False), "str32": (4, "I", False),
            "zstr8": (1, "B", True), "zstr16": (2, "H", True), "zstr32": (4, "I", True)}
REST_TYPES = {"chars", "bytes", "lstring"}   # always take the rest of the field
COUNT_TYPES = {"#u8": (1, "B"), "#u16": (2, "H"), "#u32": (4, "I")}
ZBUF_RE = re.compile(r"zstring([1-9][0-9]*)")  # zstringN: N bytes, a zero-ended string then leftovers

# Built-in header flag names (the C++ defaults when a game has no `header` lines).
DEFAULT_RECORD_FLAGS = {0x20: "Deleted", 0x400: "Persistent", 0x800: "InitiallyDisabled",
                        0x1000: "Ignored", 0x8000: "VisibleWhenDistant", 0x40000: "Compressed"}
DEFAULT_TES4_FLAGS = {0x1: "ESM", 0x80: "Localized", 0x200: "ESL"}

NAME_RE = re.compile(r"^[a-z][a-z0-9-]*$")
LABEL_RE = re.compile(r"^[A-Za-z0-9_]+$")
SETNAME_RE = re.compile(r"^[A-Z][A-Za-z0-9_]*$")
CODE_RE = re.compile(r"^[A-Z0-9_]{4}$")
HEXSIG_RE = re.compile(r"^0x[0-9A-Fa-f]{8}$")
SEPARATORS = set("|,#")  # would be read as list separators or a comment


def field_sig(word):
    """A field type as the table writes it: four printable characters, or 0x and eight hex
    digits for one that is not printable (its value: the four bytes read little-endian).
    The signature as the plugin's four bytes (latin-1), or None."""
    if HEXSIG_RE.match(word):
        return struct.pack("<I", int(word, 16)).decode("latin-1")
    if len(word) == 4 and all(0x21 <= ord(ch) < 0x7F and ch not in SEPARATORS for ch in word):
        return word
    return None


def sig_text(sig):
    """The four characters, non-printable ones as \\xNN (as the C++ table writes them)."""
    return "".join(ch if 0x20 <= ord(ch) < 0x7F and ch != "\\" else f"\\x{ord(ch):02X}" for ch in sig)


TYPE_RE = re.compile(r"^([A-Za-z][A-Za-z0-9_]*)(?:/([A-Za-z0-9_|]+))?"
                     r"(?:\[(\d*|#u8|#u16|#u32|@[a-z][a-z0-9-]*(?:\*[a-z][a-z0-9-]*)?)\])?(?:=(-?[A-Za-z0-9_]+))?(\?)?$")
COMMENT_RE = re.compile(r"(^|(?<=[ \t]))#.*$")
NUMBER_RE = re.compile(r"^-?(?:0x[0-9A-Fa-f]+|[0-9]+)$")


class LayoutError(Exception):
    pass


class Struct:
    __slots__ = ("name", "members", "line", "static")

    def __init__(self, name, members, line):
        self.name, self.members, self.line = name, members, line
        sizes = [m.static for m in members]
        self.static = None if None in sizes else sum(sizes)


class Member:
    """One member. count: None scalar, 0 to the end, N fixed, '#u8'/'#u16'/'#u32' counted."""
    __slots__ = ("name", "base", "set_name", "types", "count", "struct", "fixed_text", "fixed",
                 "elem_static", "static", "line", "optional")

    def __init__(self, name, base, set_name, types, count, struct_def, fixed_text, line):
        self.name, self.base, self.set_name, self.types = name, base, set_name, types
        self.count, self.struct, self.fixed_text, self.line = count, struct_def, fixed_text, line
        self.fixed = None  # resolved fixed value (int) once the sets are known
        self.optional = False  # `name:type?`: the field may end before it
        if struct_def is not None:
            self.elem_static = struct_def.static
        elif base in SCALAR_SIZES:
            self.elem_static = SCALAR_SIZES[base]
        elif re.fullmatch(r"bytes[1-9][0-9]*", base):
            self.elem_static = int(base[5:])
        elif ZBUF_RE.fullmatch(base):
            self.elem_static = int(base[7:])
        else:
            self.elem_static = None  # strings, chars, bytes
        if self.elem_static is None or self.count == 0 or isinstance(self.count, (str, tuple)):
            self.static = None
        else:
            self.static = self.elem_static * (self.count or 1)

    def is_int(self):
        return self.base in INT_TYPES and self.struct is None


class Cond:
    """kind: edid (text), prev (sigs), in (sigs; '-' = before any section), field (sig, member,
    op, value text), ref (member, types), nameref (field sig, types), version (op '<' or '>=',
    value: the form version)."""
    __slots__ = ("kind", "a", "b", "op", "value", "line", "resolved")

    def __init__(self, kind, a, b=None, op=None, value=None, line=0):
        self.kind, self.a, self.b, self.op, self.value, self.line = kind, a, b, op, value, line
        self.resolved = None  # FIELD.member: the value as a number


class Layout:
    __slots__ = ("records", "sig", "members", "conds", "line", "text", "matched", "opaque",
                 "static", "simple", "fixed", "tail", "has_fixed")

    def __init__(self, records, sig, members, conds, line, text):
        self.records, self.sig, self.members, self.conds = records, sig, members, conds
        self.line, self.text = line, text
        self.matched = 0
        # Only raw bytes: the field gets a name but its values stay hex.
        self.opaque = all(m.base.startswith("bytes") and m.count is None and m.struct is None
                          for m in members)
        sizes = [m.static for m in members]
        self.static = None if None in sizes or any(m.optional for m in members) else sum(sizes)
        # Fixed values, and zstringN (fixed size, but its zero must be inside): read, not sized.
        self.has_fixed = any(_has_fixed(m) or m.optional for m in members)
        # Fast path (no decoding): fixed-size members, then at most one open tail as in v1.
        head, last = members[:-1], members[-1]
        self.simple = not self.has_fixed and all(m.static is not None for m in head) and (
            last.static is not None or
            (last.struct is None and last.count == 0 and last.base in SCALAR_SIZES) or
            (last.count is None and last.struct is None and
             last.base in ("zstring", "lstring", "chars", "bytes")))
        self.fixed = sum(m.static for m in head) + (last.static or 0) if self.simple else 0
        self.tail = None if (not self.simple or last.static is not None) else last

    def fits_fast(self, data, localized):
        n = len(data)
        t = self.tail
        if t is None:
            return n == self.fixed
        if n < self.fixed:
            return False
        rest = n - self.fixed
        b = t.base
        if t.count == 0:
            return rest % SCALAR_SIZES[b] == 0
        if b == "zstring":
            return rest >= 1 and data[-1] == 0
        if b == "lstring":
            return rest == 4 if localized else (rest >= 1 and data[-1] == 0)
        return True  # chars, bytes


def _has_fixed(m):
    if m.fixed_text is not None or ZBUF_RE.fullmatch(m.base):
        return True
    return m.struct is not None and any(_has_fixed(x) for x in m.struct.members)


class HeaderRule:
    __slots__ = ("records", "conds", "set_name", "line", "used")

    def __init__(self, records, conds, set_name, line):
        self.records, self.conds, self.set_name, self.line = records, conds, set_name, line
        self.used = 0


class Table:
    def __init__(self):
        self.sets = {}       # name -> ("enum"|"flags", {value: label}, line)
        self.structs = {}    # name -> Struct
        self.by_key = defaultdict(list)  # (rec or '*', sig) -> [Layout]
        self.layouts = []
        self.used_sets = set()
        self.sections = {}   # rec -> set of sigs
        self.headers = defaultdict(list)  # rec or '*' -> [HeaderRule]
        self.header_rules = []
        self.remembered = set()  # field sigs that FIELD.member conditions look at

    def lookup(self, rec, sig):
        exact = self.by_key.get((rec, sig))
        star = self.by_key.get(("*", sig))
        if exact and star:
            return exact + star
        return exact or star or ()


def parse_number(text):
    return int(text, 0) if not text.startswith("-") else -int(text[1:], 0)


def parse_layouts(path):
    """Parses a .layouts file; raises LayoutError with 'path:line: message' lines."""
    table = Table()
    errors = []
    refs = []  # (set name, line, member)
    current = None  # (kind, name, values dict, labels set)
    field_conds = []  # (layout or HeaderRule, Cond)
    record_lines = {}  # record type -> the line of its `record` structure

    def err(line, msg):
        errors.append(f"{path}:{line}: {msg}")

    def set_or_struct_defined(name):
        return name in table.sets or name in table.structs

    def parse_records(num, text):
        if text == "*":
            return ["*"]
        recs = text.split(",")
        bad = [r for r in recs if not CODE_RE.match(r)]
        if bad:
            err(num, f"bad record type(s) {', '.join(bad) or repr(text)}")
            return None
        if len(set(recs)) != len(recs):
            err(num, "record type listed twice")
        return recs

    def check_record_line(num, words):
        """`record RECORDS ordered|unordered ELEMENT...`: the syntax only (src/fields/record_structure.cpp
        reads it for tesmod). An element: '('* SIG('|'SIG)* [!*+] (')'[!*+])*."""
        if len(words) < 4 or words[2] not in ("ordered", "unordered"):
            err(num, "expected 'record RECORDS ordered|unordered FIELD...'")
            return
        recs = parse_records(num, words[1])
        if recs is None or "*" in recs:
            err(num, "record lines name each record type (no '*')")
            return
        for r in recs:
            if r in record_lines:
                err(num, f"{r} has a record structure already (line {record_lines[r]})")
            record_lines[r] = num
        depth = 0
        element_re = re.compile(r"(\(*)((?:0x[0-9A-Fa-f]{8}|[^|()!*+]{4})(?:\|(?:0x[0-9A-Fa-f]{8}|[^|()!*+]{4}))*)([!*+]?)((?:\)[!*+]?)*)$")
        for word in words[3:]:
            m = element_re.match(word)
            if not m or any(field_sig(sig) is None for sig in m.group(2).split("|")):
                err(num, f"'{word}': expected ( SIG|SIG mark )")
                return
            if m.group(1) and m.group(3):
                err(num, f"'{word}': the first field of a group opens it; mark the group after ')'")
            depth += len(m.group(1)) - m.group(4).count(")")
            if depth < 0:
                err(num, f"'{word}': ')' closes no group")
                return
        if depth:
            err(num, "a group is not closed: expected ')'")

    def parse_member(num, word, in_struct):
        if ":" not in word:
            err(num, f"member '{word}' is not name:type")
            return None
        name, typ = word.split(":", 1)
        if not NAME_RE.match(name):
            err(num, f"bad member name '{name}' (lowercase, digits, '-')")
            return None
        m = TYPE_RE.match(typ)
        if not m:
            err(num, f"bad type '{typ}'")
            return None
        base, sname, count_text, fixed_text, optional = m.groups()
        if optional and in_struct:
            err(num, f"'{word}': only a field's members can be optional")
            return None
        struct_def = None
        types = None
        if base[0].isupper():
            struct_def = table.structs.get(base)
            if struct_def is None:
                err(num, f"unknown struct '{base}'" + (" (an enum or flags set is not a type)"
                                                       if base in table.sets else
                                                       " (structs must be defined before use)"))
                return None
        elif not (base in SCALAR_SIZES or base in PREFIXED or base in REST_TYPES or base == "zstring"
                  or re.fullmatch(r"bytes[1-9][0-9]*", base)):
            if not ZBUF_RE.fullmatch(base):
                err(num, f"unknown type '{base}'")
                return None
            if not 2 <= int(base[7:]) <= 65535:
                err(num, f"'{base}': expected zstringN with N from 2 to 65535")
                return None
        if sname is not None:
            if base == "formid":
                types = sname.split("|")
                if not all(CODE_RE.match(t) for t in types):
                    err(num, f"expected record types after formid/ ('{typ}')")
                    return None
                sname = None
            elif base not in INT_TYPES or INT_TYPES[base][3]:
                err(num, f"only a decimal integer type can name an enum or flag set ('{typ}')")
                return None
        count = None
        if count_text is not None:
            if base in REST_TYPES or base == "zstring" or base.startswith("bytes"):
                err(num, f"no arrays of {base} (wrap a zstring in a struct) ('{typ}')")
                return None
            if count_text.startswith("#"):
                count = count_text
            elif count_text.startswith("@"):
                # Counted by earlier integer members of the same list: checked when the line is read.
                names = count_text[1:].split("*")
                count = ("@", names[0], names[1] if len(names) > 1 else None)
            elif count_text == "":
                count = 0
                if in_struct:
                    err(num, f"a to-the-end array cannot be inside a struct ('{word}')")
                    return None
            else:
                count = int(count_text)
                if count == 0:
                    err(num, f"fixed array of 0 elements ('{typ}')")
                    return None
        if fixed_text is not None:
            if (base not in INT_TYPES and base != "formid") or count is not None:
                err(num, f"a fixed value needs a single integer or formid member ('{word}')")
                return None
        if in_struct and base in REST_TYPES:
            err(num, f"{base} takes the rest of the field: not inside a struct ('{word}')")
            return None
        mem = Member(name, base, sname, types, count, struct_def, fixed_text, num)
        mem.optional = bool(optional)
        if sname is not None:
            refs.append((sname, num, mem))
        elif fixed_text is not None and not NUMBER_RE.match(fixed_text):
            err(num, f"fixed value '{fixed_text}' is a label but '{name}' names no enum")
            return None
        elif fixed_text is not None:
            mem.fixed = parse_number(fixed_text)
        return mem

    def counts_ok(num, members):
        """[@count] and [@rows*columns] name earlier single integer members of the same list."""
        for i, m in enumerate(members):
            if not isinstance(m.count, tuple):
                continue
            for name in filter(None, m.count[1:]):
                before = next((x for x in members[:i] if x.name == name), None)
                if before is None or before.count is not None or not before.is_int():
                    err(num, f"'{m.name}[@...]': {name} is not a single integer member before it")
                    return False
        return True

    def parse_cond(num, text, for_header):
        if for_header and "->" not in text:
            err(num, f"'if {text}': header lines take only FIELD->TYPE conditions")
            return None
        m = re.fullmatch(r"version(<|>=)(\d+)", text)
        if m:
            if int(m.group(2)) > 0xFFFF:
                err(num, f"'if {text}': a form version is at most 65535")
                return None
            return Cond("version", None, op=m.group(1), value=int(m.group(2)), line=num)
        m = re.fullmatch(r"edid\^=(\S+)", text)
        if m:
            return Cond("edid", m.group(1).lower(), line=num)
        m = re.fullmatch(r"(prev|in)=(\S+)", text)
        if m:
            sigs = [s if s == "-" and m.group(1) == "in" else field_sig(s) for s in m.group(2).split("|")]
            if None in sigs:
                err(num, f"bad signature list in 'if {text}'")
                return None
            return Cond(m.group(1), set(sigs), line=num)
        m = re.fullmatch(r"(\S{4})\.([a-z][a-z0-9-]*)([=&])(\S+)", text)
        if m:
            sig, member, op, value = m.groups()
            sig = field_sig(sig)
            if sig is None:
                err(num, f"bad field signature in 'if {text}'")
                return None
            parts = value.split("|")
            if op == "=" and len(parts) != 1:
                err(num, f"'=' takes one value ('if {text}')")
                return None
            for p in parts:
                if not (NUMBER_RE.match(p) or LABEL_RE.match(p)):
                    err(num, f"bad value '{p}' in 'if {text}'")
                    return None
            return Cond("field", sig, member, op, value, num)
        m = re.fullmatch(r"(\S+?)->(\S+)", text)
        if m:
            who, types = m.group(1), m.group(2).split("|")
            if not all(CODE_RE.match(t) for t in types):
                err(num, f"bad record types in 'if {text}'")
                return None
            if for_header:
                if field_sig(who) is None:
                    err(num, f"a header condition names a field: 'if NAME->TYPE' ('if {text}')")
                    return None
                return Cond("nameref", field_sig(who), set(types), line=num)
            if not NAME_RE.match(who):
                err(num, f"a field condition names a member of this layout: 'if member->TYPE' "
                         f"('if {text}')")
                return None
            return Cond("ref", who, set(types), line=num)
        err(num, f"unknown condition 'if {text}'")
        return None

    def parse_conds(num, words, for_header):
        """Leading `if COND` pairs; returns (conds, rest words) or None."""
        conds = []
        i = 0
        while i < len(words) and words[i] == "if":
            if i + 1 >= len(words):
                err(num, "'if' without a condition")
                return None
            c = parse_cond(num, words[i + 1], for_header)
            if c is None:
                return None
            conds.append(c)
            i += 2
        return conds, words[i:]

    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for num, raw in enumerate(lines, 1):
        text = COMMENT_RE.sub("", raw).rstrip()
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
            if len(words) == 3 and words[2] == "complete":  # every value is named (record_check.hpp)
                words = words[:2]
            if len(words) != 2:
                err(num, f"expected '{head} Name [complete]'")
                continue
            sname = words[1]
            if not SETNAME_RE.match(sname):
                err(num, f"bad {head} name '{sname}'")
            if set_or_struct_defined(sname):
                err(num, f"{sname} already defined")
                continue
            values = {}
            table.sets[sname] = (head, values, num)
            current = (head, sname, values, set())
            continue
        if head in ("struct", "tuple"):  # a tuple is a struct written positionally: the same bytes
            if len(words) < 3:
                err(num, f"expected '{head} Name member:type ...'")
                continue
            sname = words[1]
            if not SETNAME_RE.match(sname):
                err(num, f"bad struct name '{sname}' (starts with an upper-case letter)")
                continue
            if set_or_struct_defined(sname):
                err(num, f"{sname} already defined")
                continue
            members = [parse_member(num, w, True) for w in words[2:]]
            if None in members:
                continue
            if len({m.name for m in members}) != len(members):
                err(num, f"duplicate member name in struct {sname}")
                continue
            if not counts_ok(num, members):
                continue
            table.structs[sname] = Struct(sname, members, num)
            continue
        if head == "sections":
            if len(words) < 3:
                err(num, "expected 'sections RECORDS SIG ...'")
                continue
            recs = parse_records(num, words[1])
            if recs is None:
                continue
            if recs == ["*"]:
                err(num, "sections are per record type (no '*')")
                continue
            bad = [s for s in words[2:] if field_sig(s) is None]
            if bad:
                err(num, f"bad field signature(s) {', '.join(bad)}")
                continue
            sigs = [field_sig(s) for s in words[2:]]
            for r in recs:
                if r in table.sections:
                    err(num, f"sections of {r} already given")
                table.sections[r] = set(sigs)
            continue
        if head == "header":
            if len(words) < 3:
                err(num, "expected 'header RECORDS [if COND]... FlagsName'")
                continue
            recs = parse_records(num, words[1])
            got = parse_conds(num, words[2:], True)
            if recs is None or got is None:
                continue
            conds, rest = got
            if len(rest) != 1:
                err(num, "expected one flags set name after the conditions")
                continue
            rule = HeaderRule(recs, conds, rest[0], num)
            table.header_rules.append(rule)
            for r in recs:
                table.headers[r].append(rule)
            for c in conds:
                if c.kind == "field":
                    field_conds.append((rule, c))
            continue
        if head == "record":
            check_record_line(num, words)
            continue
        if head != "field":
            err(num, f"unknown directive '{head}' (enum, flags, struct, sections, header, field or record)")
            continue
        if len(words) < 4:
            err(num, "expected 'field RECORDS SIG [if COND]... name:type ...'")
            continue
        recs = parse_records(num, words[1])
        sig = field_sig(words[2])
        if recs is None:
            continue
        if sig is None:
            err(num, f"bad field signature '{words[2]}' (four characters, or 0x and eight hex digits)")
            continue
        got = parse_conds(num, words[3:], False)
        if got is None:
            continue
        conds, rest = got
        if not rest:
            err(num, "a field line needs at least one member")
            continue
        members = [parse_member(num, w, False) for w in rest]
        if None in members:
            continue
        names = [m.name for m in members]
        if len(set(names)) != len(names):
            err(num, "duplicate member name")
            continue
        ok = True
        if members[0].optional:
            err(num, "the first member cannot be optional")
            ok = False
        for before, mem in zip(members, members[1:]):
            if before.optional and not mem.optional:
                err(num, f"'{mem.name}' follows an optional member: mark it optional too")
                ok = False
        for i, mem in enumerate(members):
            last = i == len(members) - 1
            if not last and (mem.count == 0 or mem.base in REST_TYPES):
                err(num, f"'{mem.name}' takes the rest of the field: it must be the last member")
                ok = False
            if mem.base == "lstring" and len(members) != 1:
                err(num, "an lstring must be the only member of its layout")
                ok = False
        for c in conds:
            if c.kind == "ref":
                mem = next((m for m in members if m.name == c.a), None)
                if mem is None or mem.base != "formid" or mem.count is not None:
                    err(num, f"'if {c.a}->...': no formid member '{c.a}' in this layout")
                    ok = False
        if not ok or not counts_ok(num, members):
            continue
        lay = Layout(recs, sig, members, conds, num, text.strip())
        table.layouts.append(lay)
        for r in recs:
            table.by_key[(r, sig)].append(lay)
        for c in conds:
            if c.kind == "field":
                field_conds.append((lay, c))
    # Enum/flags names on members, and their fixed values.
    for sname, num, mem in refs:
        if sname not in table.sets:
            err(num, f"enum/flags '{sname}' is not defined")
            continue
        table.used_sets.add(sname)
        if mem.fixed_text is not None:
            kind, values, _ = table.sets[sname]
            if NUMBER_RE.match(mem.fixed_text):
                mem.fixed = parse_number(mem.fixed_text)
            else:
                hit = [v for v, lab in values.items() if lab == mem.fixed_text]
                if kind != "enum" or not hit:
                    err(num, f"fixed value '{mem.fixed_text}' is not a label of enum {sname}")
                else:
                    mem.fixed = hit[0]
    # in= needs `sections` for every record type of the line.
    for lay in table.layouts:
        for c in lay.conds:
            if c.kind == "in":
                missing = [r for r in lay.records if r not in table.sections]
                if missing:
                    err(lay.line, f"'if in=' for {', '.join(missing)}, which has no 'sections' line")
    # FIELD.member conditions: some layout of FIELD (for these records) has that integer member,
    # and a label value is a label of its set.
    for owner, c in field_conds:
        for r in owner.records:
            target = None
            for lay in table.lookup(r, c.a):
                target = next((m for m in lay.members if m.name == c.b), None)
                if target is not None:
                    break
            if target is None or not target.is_int() or target.count is not None:
                err(c.line, f"'if {c.a}.{c.b}...': no layout of {c.a} in {r} records has an integer "
                            f"member '{c.b}' (the first layout that has a '{c.b}' decides)")
                break
            total = 0
            for p in c.value.split("|"):
                if NUMBER_RE.match(p):
                    v = parse_number(p)
                else:
                    sets = table.sets.get(target.set_name)
                    hit = [v for v, lab in sets[1].items() if lab.lower() == p.lower()] if sets else []
                    if not hit:
                        err(c.line, f"'if {c.a}.{c.b}{c.op}{c.value}': '{p}' is not a number or a label "
                                    f"of {target.set_name or 'the member (it names no enum or flags)'}")
                        break
                    v = hit[0]
                total = total | v if c.op == "&" else v
            c.resolved = total
        table.remembered.add(c.a)
    # Variants that can never be chosen: an earlier one without conditions or fixed values
    # that takes the same fixed size, or that takes anything (a lone bytes/chars).
    for (rec, sig), lays in table.by_key.items():
        seen = {}
        anything = None
        for lay in lays:
            if anything is not None:
                err(lay.line, f"{rec} {sig_text(sig)}: variant is shadowed by line {anything} (takes any bytes)")
                continue
            if lay.static is not None and lay.static in seen:
                err(lay.line, f"{rec} {sig_text(sig)}: variant of {lay.static} bytes is shadowed by line "
                              f"{seen[lay.static]}")
            free = not lay.conds and not lay.has_fixed
            if free and lay.static is not None:
                seen.setdefault(lay.static, lay.line)
            if free and len(lay.members) == 1 and lay.members[0].base in ("bytes", "chars"):
                anything = lay.line
    for rule in table.header_rules:
        s = table.sets.get(rule.set_name)
        if s is None or s[0] != "flags":
            err(rule.line, f"no flags set named '{rule.set_name}'" + (" (it is an enum)" if s else ""))
            for r in rule.records:
                table.headers[r].remove(rule)
        else:
            table.used_sets.add(rule.set_name)
    # A header flag label means one bit in every set that may name a record type's flags
    # (readers of text meet the flags before the fields that choose the set).
    star_sets = [r.set_name for r in table.headers.get("*", ())]
    for rec, rules in table.headers.items():
        names = [r.set_name for r in rules] + (star_sets if rec != "*" else [])
        meaning = {}
        for sname in dict.fromkeys(names):
            for bit, label in table.sets[sname][1].items():
                key = label.lower()
                if key in meaning and meaning[key][0] != bit:
                    err(table.sets[sname][2], f"header flags of {rec}: '{label}' is 0x{bit:X} in {sname} "
                                              f"but 0x{meaning[key][0]:X} in {meaning[key][1]}")
                meaning.setdefault(key, (bit, sname))
    for sname, (kind, values, num) in table.sets.items():
        if not values:
            err(num, f"{kind} {sname} is empty")
    if errors:
        raise LayoutError("\n".join(errors))
    return table


# ------------------------------------------------------------------------------------------
# Reading a field with a layout
# ------------------------------------------------------------------------------------------

class Unfit(Exception):
    pass


def read_layout(lay, data, localized):
    """[(member, value)] when the layout takes the field exactly, else None."""
    try:
        pos, vals = read_seq(lay.members, data, 0, localized, True)
    except (Unfit, struct.error, IndexError):
        return None
    if pos != len(data):
        return None
    return vals


def read_seq(members, data, pos, localized, top):
    vals = []
    siblings = {}  # integer members read so far, for [@count] arrays
    last_index = len(members) - 1
    for i, m in enumerate(members):
        if m.optional and top and pos == len(data):
            break  # the field ends before its optional members
        pos, v = read_member(m, data, pos, localized, top and i == last_index, siblings)
        if m.count is None and m.is_int():
            siblings[m.name] = v
        vals.append((m, v))
    return pos, vals


def read_member(m, data, pos, localized, last, siblings=None):
    c = m.count
    if isinstance(c, tuple):
        _, a, b = c
        c = (siblings or {}).get(a, 0) * ((siblings or {}).get(b, 0) if b else 1)
        if c > len(data) - pos:  # every element takes a byte at least
            raise Unfit
    if c is None:
        return read_one(m, data, pos, localized, last)
    if c == 0:
        out = []
        end = len(data)
        while pos < end:
            npos, v = read_one(m, data, pos, localized, False)
            if npos == pos:
                raise Unfit
            pos = npos
            out.append(v)
        return pos, out
    if isinstance(c, str):
        size, code = COUNT_TYPES[c]
        if pos + size > len(data):
            raise Unfit
        c = struct.unpack_from("<" + code, data, pos)[0]
        pos += size
    out = []
    for _ in range(c):
        pos, v = read_one(m, data, pos, localized, False)
        out.append(v)
    return pos, out


def read_one(m, data, pos, localized, last):
    if m.struct is not None:
        return read_seq(m.struct.members, data, pos, localized, False)
    b = m.base
    n = len(data)
    if b in SCALAR_SIZES:
        size = SCALAR_SIZES[b]
        if pos + size > n:
            raise Unfit
        v = scalar(b, data, pos)
        if m.fixed is not None and v != m.fixed:
            raise Unfit
        return pos + size, v
    if b.startswith("bytes") and b != "bytes":
        size = int(b[5:])
        if pos + size > n:
            raise Unfit
        return pos + size, data[pos:pos + size].hex().upper()
    if ZBUF_RE.fullmatch(b):
        size = int(b[7:])
        end = data.find(b"\0", pos, pos + size)
        if pos + size > n or end < 0:
            raise Unfit
        return pos + size, data[pos:end].decode("cp1252", "replace")
    if b in PREFIXED:
        size, code, zero = PREFIXED[b]
        if pos + size > n:
            raise Unfit
        length = struct.unpack_from("<" + code, data, pos)[0]
        pos += size
        if pos + length > n or (zero and (length == 0 or data[pos + length - 1] != 0)):
            raise Unfit
        text = data[pos:pos + length - (1 if zero else 0)]
        return pos + length, text.decode("cp1252", "replace")
    if b == "zstring" or (b == "lstring" and not localized):
        if last:
            if pos >= n or data[-1] != 0:
                raise Unfit
            return n, data[pos:-1].decode("cp1252", "replace")
        end = data.find(b"\0", pos)
        if end < 0:
            raise Unfit
        return end + 1, data[pos:end].decode("cp1252", "replace")
    if b == "lstring":
        if n - pos != 4:
            raise Unfit
        return n, ("id", struct.unpack_from("<I", data, pos)[0])
    if b == "chars":
        return n, data[pos:].decode("cp1252", "replace")
    if b == "bytes":
        return n, data[pos:].hex().upper()
    raise Unfit


def scalar(base, data, q):
    if base == "f32":
        return struct.unpack_from("<f", data, q)[0]
    if base == "formid":
        return struct.unpack_from("<I", data, q)[0]
    if base == "sig":
        return data[q:q + 4].decode("latin-1")
    code = INT_TYPES[base][1]
    return struct.unpack_from("<" + code, data, q)[0]


def fits(lay, data, localized):
    if lay.simple:
        return lay.fits_fast(data, localized)
    return read_layout(lay, data, localized) is not None


# ------------------------------------------------------------------------------------------
# Conditions
# ------------------------------------------------------------------------------------------

class RecordState:
    """What the conditions of a record's fields can see."""
    __slots__ = ("rec", "edid", "prev", "section", "last", "first", "plugin", "sections", "version")

    def __init__(self, rec, fields, plugin, table, version=0):
        self.rec = rec
        self.version = version  # the record header's form version (0 in Oblivion)
        self.plugin = plugin
        self.edid = None
        for sig, data in fields:
            if sig == "EDID":
                self.edid = data.split(b"\0", 1)[0].decode("latin-1").lower()
                break
        self.prev = None
        self.section = "-"
        self.last = {}  # field sig -> (layout or None, data): the last one so far
        self.first = {}  # field sig -> data: the first one (header NAME->TYPE conditions)
        self.sections = table.sections.get(rec)


def member_value(lay, data, name, localized):
    if lay is None:
        return None
    vals = read_layout(lay, data, localized)
    if vals is None:
        return None
    for m, v in vals:
        if m.name == name:
            return m, v
    return None


def holds(c, state, table, values=None):
    k = c.kind
    if k == "version":
        return state.version < c.value if c.op == "<" else state.version >= c.value
    if k == "edid":
        return state.edid is not None and state.edid.startswith(c.a)
    if k == "prev":
        return state.prev in c.a
    if k == "in":
        return state.section in c.a
    if k == "field":
        got = state.last.get(c.a)
        if got is None:
            return False
        mv = member_value(got[0], got[1], c.b, state.plugin.localized)
        if mv is None or not mv[0].is_int() or mv[0].count is not None:
            return False
        v, want = mv[1], c.resolved
        return v == want if c.op == "=" else (v & want) == want
    if k == "ref":
        if values is None:
            return False
        v = next((v for m, v in values if m.name == c.a), None)
        return v is not None and state.plugin.formid_types.get(v) in c.b
    if k == "nameref":
        got = state.first.get(c.a)
        if got is None or len(got) < 4:
            return False
        return state.plugin.formid_types.get(struct.unpack_from("<I", got, 0)[0]) in c.b
    return False


def choose(lays, data, state, table):
    """(layout, values or None) of the first layout whose conditions hold and that fits."""
    loc = state.plugin.localized
    for lay in lays:
        if not lay.conds:
            if fits(lay, data, loc):
                return lay
            continue
        values = None
        ok = True
        for c in lay.conds:
            if c.kind == "ref":
                if values is None:
                    values = read_layout(lay, data, loc)
                    if values is None:
                        ok = False
                        break
                if not holds(c, state, table, values=values):
                    ok = False
                    break
            elif not holds(c, state, table):
                ok = False
                break
        if ok and (values is not None or fits(lay, data, loc)):
            return lay
    return None


def header_set(table, rec, state):
    """The flags {bit: label} naming this record's header flags."""
    for rules in (table.headers.get(rec, ()), table.headers.get("*", ())):
        for rule in rules:
            if all(holds(c, state, table) for c in rule.conds):
                rule.used += 1
                return table.sets[rule.set_name][1]
    return DEFAULT_TES4_FLAGS if rec == "TES4" else DEFAULT_RECORD_FLAGS


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
        self.formid_types = self._scan_types()

    def _headers(self):
        """Yields (offset, record type as bytes, data size, flags, formid) for every record,
        stepping into groups (whose records follow their 20/24-byte headers)."""
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
            yield p, sig, size, flags, formid
            p += hs + size

    def _scan_types(self):
        """FormID -> record type for every record of this plugin (headers only)."""
        # FormID 0 is NULL, not the file header.
        return {formid: sig.decode("latin-1") for _, sig, _, _, formid in self._headers() if sig != b"TES4"}

    def records(self):
        """Yields (record type, formid, flags, form version, fields) where fields is a list of
        (sig, bytes); the form version is 0 in 20-byte (Oblivion) headers."""
        d = self.data
        hs = self.header_size
        for p, sig, size, flags, formid in self._headers():
            version = struct.unpack_from("<H", d, p + 20)[0] if hs >= 24 else 0
            body = d[p + hs:p + hs + size]
            if flags & 0x00040000:
                body = zlib.decompress(body[4:])
            rec = sig.decode("latin-1")
            fields = list(split_fields(body))
            if rec == "TES4":
                self.masters = sum(1 for s, _ in fields if s == "MAST")
            yield rec, formid, flags, version, fields


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


# Fields rendered by other code, not by layouts (as the C++ text writer does; counted typed).
CONDITIONS = ("CTDA", "CTDT")


def handled_elsewhere(game, rec, sig, prev, in_package):
    """prev: the field right before (None at the start); in_package: a PACK field after the
    leading EDID/VMAD fields."""
    if in_package:
        return True
    if sig in CONDITIONS:
        return True
    if sig == "CIS1" and prev in CONDITIONS:
        return True
    if sig == "CIS2" and (prev in CONDITIONS or prev == "CIS1"):
        return True
    if game == "tes5" and sig == "VMAD":
        return True
    if game == "tes4" and sig == "SCTX":
        return True
    return False


# ------------------------------------------------------------------------------------------
# Showing values, sanity checks
# ------------------------------------------------------------------------------------------

def show_values(values, table):
    return " ".join(f"{m.name}={show_member(m, v, table)}" for m, v in values)


def show_member(m, v, table):
    if m.count is not None:
        return "[" + ", ".join(show_one(m, x, table) for x in v) + "]"
    return show_one(m, v, table)


def show_one(m, v, table):
    if m.struct is not None:
        return "{" + show_values(v, table) + "}"
    if isinstance(v, tuple):
        return f"id:{v[1]}"
    if m.base == "formid":
        return f"{v:08X}"
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

    def check(self, rec, sig, values, masters, table, plugin, types):
        for m, v in values:
            for x in (v if m.count is not None else [v]):
                if m.struct is not None:
                    self.check(rec, sig, x, masters, table, plugin, types)
                    continue
                why = None
                if m.base == "formid":
                    if x != 0 and (x >> 24) > masters:
                        why = "formid past masters"
                    elif m.types and x in types and types[x] not in m.types:
                        why = f"formid names a {types[x]} (same plugin)"
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
                    key = (rec, sig, m.name, why)
                    self.bad[key] += 1
                    self.example.setdefault(key, (os.path.basename(plugin), x))


# ------------------------------------------------------------------------------------------
# Main
# ------------------------------------------------------------------------------------------

def pct(a, b):
    """Rounded down to 0.001 %, so 100 % means all."""
    if not b:
        return "-"
    return f"{math.floor(100000.0 * a / b) / 1000:.3f}%"


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
    ap.add_argument("--top", type=int, default=40, help="untyped (record, field, size) keys to list")
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
          f"{len(table.sets)} enum/flag sets, {len(table.structs)} structs, "
          f"{len(table.header_rules)} header lines, {len(table.sections)} record types with sections")
    for s in unused:
        print(f"  note: {table.sets[s][0]} {s} (line {table.sets[s][2]}) is never used")
    for lay in table.layouts:
        if any(c.kind == "ref" for c in lay.conds):
            later = table.by_key[(lay.records[0], lay.sig)]
            rest = later[later.index(lay) + 1:]
            if not any(not any(c.kind == "ref" for c in x.conds) for x in rest):
                print(f"  note: line {lay.line}: no later alternative without '->' for readers "
                      f"that do not know the referenced record's type")
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
        shows[(rec, field_sig(sig) or sig)] = 0

    total = Counter()      # (rec, sig) -> instances
    fitted = Counter()
    opaque = Counter()
    typed = Counter()      # (rec, sig) -> instances counted typed (the C++ rule)
    untyped = Counter()    # (rec, sig, size) -> instances still hex (no fit, or raw bytes only)
    untyped_where = {}
    elsewhere = Counter()  # in total, typed: rendered by other code
    compiled_scripts = 0   # Oblivion SCDA: counted apart
    empty = Counter()      # in total, typed: no bytes
    flag_records = 0
    unnamed_flags = Counter()  # (rec, bit) -> records
    unnamed_records = 0
    unnamed_where = {}
    sanity = Sanity()
    plugins = records = 0
    remembered = table.remembered
    firsts = {c.a for r in table.header_rules for c in r.conds if c.kind == "nameref"}
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
        for rec, formid, rflags, version, fields in plugin.records():
            records += 1
            masters = plugin.masters
            state = RecordState(rec, fields, plugin, table, version)
            sections = state.sections
            in_package = False
            cond_prev = None  # the field before, for CIS1/CIS2 after a condition
            for sig, data in fields:
                key = (rec, sig)
                if sig in firsts and sig not in state.first:
                    state.first[sig] = data
                if rec == "PACK" and not in_package and sig not in ("EDID", "VMAD"):
                    in_package = True
                if game == "tes4" and sig == "SCDA" and not in_package:
                    compiled_scripts += 1
                    if sig in remembered:
                        state.last[sig] = (None, data)
                    state.prev = sig
                    cond_prev = None
                    continue
                elsewhere_here = handled_elsewhere(game, rec, sig, cond_prev, in_package)
                cond_prev = sig if (elsewhere_here and sig in CONDITIONS + ("CIS1",)) else None
                if elsewhere_here:
                    total[key] += 1
                    typed[key] += 1
                    elsewhere[key] += 1
                    if sig in remembered:
                        state.last[sig] = (None, data)
                    state.prev = sig
                    if sections is not None and sig in sections:
                        state.section = sig
                    continue
                total[key] += 1
                lays = cache.get(key)
                if lays is None:
                    lays = cache[key] = table.lookup(rec, sig)
                lay = choose(lays, data, state, table) if lays else None
                if not data:
                    empty[key] += 1
                if lay is not None:
                    lay.matched += 1
                    fitted[key] += 1
                    if lay.opaque and data:
                        opaque[key] += 1
                if not data or (lay is not None and not lay.opaque):
                    typed[key] += 1
                else:
                    k = (rec, sig, len(data))
                    untyped[k] += 1
                    untyped_where.setdefault(k, (os.path.basename(path), formid, data[:24].hex().upper()))
                if lay is not None:
                    want_show = [sk for sk in ((rec, sig), ("*", sig)) if sk in shows and shows[sk] < 12]
                    if not args.no_sanity or want_show:
                        values = read_layout(lay, data, loc)
                        if not args.no_sanity:
                            sanity.check(rec, sig, values, masters, table, path, plugin.formid_types)
                        for sk in want_show:
                            shows[sk] += 1
                            print(f"[{rec} {formid:08X} {sig_text(sig)}] line {lay.line}: {show_values(values, table)}")
                if sig in remembered:
                    state.last[sig] = (lay, data)
                state.prev = sig
                if sections is not None and sig in sections:
                    state.section = sig
            # The header flags, with the whole record's fields at hand.
            if rflags:
                flag_records += 1
            named = header_set(table, rec, state)
            rest = rflags & ~sum(named.keys())
            if rest:
                unnamed_records += 1
                bit = 1
                while bit <= rest:
                    if rest & bit:
                        unnamed_flags[(rec, bit)] += 1
                        unnamed_where.setdefault((rec, bit), (os.path.basename(path), formid))
                    bit <<= 1

    all_fields = sum(total.values())
    all_typed = sum(typed.values())
    all_fit = sum(fitted.values())
    all_opaque = sum(opaque.values())
    print(f"\n{game}: {plugins} plugins, {records} records, {all_fields} fields (not counting XXXX)")
    print(f"  typed_fields (as verify --deep counts):  {all_typed}/{all_fields} typed ({pct(all_typed, all_fields)})")
    print(f"    rendered by other code (CTDA, PACK, ...): {sum(elsewhere.values())}")
    if compiled_scripts:
        print(f"    counted apart: {compiled_scripts} compiled script fields (SCDA)")
    print(f"    empty (no bytes):                     {sum(empty.values())}")
    print(f"    a layout fits:                        {all_fit}, of which only raw bytes "
          f"(not typed): {all_opaque}")
    print(f"  not typed (no layout fits, or raw bytes only): {all_fields - all_typed}")
    keys_total = len(total)
    keys_full = sum(1 for k in total if typed[k] == total[k])
    print(f"  (record, field) keys fully typed:       {keys_full} of {keys_total}")
    print(f"  record headers with an unnamed flag bit: {unnamed_records} "
          f"(of {records} records, {flag_records} with flags; "
          f"{'header lines' if table.header_rules else 'built-in flag names, no header lines'})")

    if args.all:
        print("\nrecord field   count    typed")
        for (rec, sig), n in sorted(total.items(), key=lambda kv: (-kv[1], kv[0])):
            print(f"  {rec} {sig_text(sig)} {n:8d} {typed[(rec, sig)]:8d}  {pct(typed[(rec, sig)], n)}")

    if unnamed_flags:
        print("\nunnamed header flag bits (record, bit: records):")
        for (rec, bit), n in sorted(unnamed_flags.items()):
            where = unnamed_where[(rec, bit)]
            print(f"  {rec} 0x{bit:08X}: {n}  e.g. {where[0]} {where[1]:08X}")

    still = Counter()
    sizes = defaultdict(set)
    for (rec, sig, size), n in untyped.items():
        still[(rec, sig)] += n
        sizes[(rec, sig)].add(size)
    if still:
        print(f"\nstill not typed ({game}, record, field: instances of total; sizes):")
        for (rec, sig), n in sorted(still.items(), key=lambda kv: (-kv[1], kv[0])):
            lays = table.lookup(rec, sig)
            has = ("raw bytes only" if lays and all(x.opaque for x in lays) else
                   "layout, no fit" if lays else "no layout")
            sz = sorted(sizes[(rec, sig)])
            sz_text = ", ".join(map(str, sz[:6])) + (", ..." if len(sz) > 6 else "")
            print(f"  {game} {rec} {sig_text(sig)}: {n} of {total[(rec, sig)]}  {has}; sizes {sz_text}")

    if untyped and args.top:
        print(f"\ntop untyped (record, field, size) keys:")
        for (rec, sig, size), n in untyped.most_common(args.top):
            where = untyped_where[(rec, sig, size)]
            lays = table.lookup(rec, sig)
            has = ("raw bytes only" if lays and all(x.opaque for x in lays) else
                   "layout, wrong size" if lays else "no layout")
            print(f"  {rec} {sig_text(sig)} {size:6d} bytes x{n:<7d} {has:20s} e.g. {where[0]} {where[1]:08X} {where[2]}")

    never = [lay for lay in table.layouts if lay.matched == 0]
    if never:
        print(f"\nlayout lines that matched nothing here ({len(never)}):")
        for lay in never:
            print(f"  line {lay.line}: {lay.text}")
    never_h = [r for r in table.header_rules if r.used == 0]
    if never_h:
        print(f"\nheader lines that named no record here ({len(never_h)}):")
        for r in never_h:
            print(f"  line {r.line}")

    if sanity.bad:
        print("\nsanity warnings (fitted fields whose values look odd):")
        for key, n in sorted(sanity.bad.items(), key=lambda kv: -kv[1]):
            rec, sig, name, why = key
            ex = sanity.example[key]
            print(f"  {rec} {sig_text(sig)} {name}: {why} x{n}  e.g. {ex[0]} {ex[1]!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Edits made in the text of `tesmod export` do exactly what they say.

Each test exports a real corpus plugin with the CLI, edits the text files as a user would (a
string replaced in one line, lines added or removed, a record file written, deleted or moved),
imports the folder into a new plugin, and then walks the original and the output with a small
group/record walker around the independent reader ../shared/tools/inspect_plugin.py. It asserts
that exactly the intended records differ (header fields and the list of subrecords; every other
record byte-identical, in the same groups and order), that the edited field holds the intended
new bytes (decoded: the string, number, flag bit, FormID, condition parts, VMAD properties,
package schedule, script source and bytecode), that inspect_plugin() finds no error in the
output and that HEDR's count equals its records plus groups. A last test exports and imports
every corpus plugin unedited and compares the bytes.

Usage: edit_test.py --cli TESMOD [--corpus DIR] [--tools DIR] [unittest arguments, e.g. a test name]
$TESMOD_CORPUS overrides --corpus (the tools folder is then the one beside it). Without a
corpus the tests are skipped (exit code 77), unless CI=true, where that is a failure.
Standard library only.
"""
import argparse
import hashlib
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest
import zlib

SKIP_EXIT = 77  # ctest's SKIP_RETURN_CODE for this test

CLI = None
CORPUS = None
TOOLS = None
ip = None  # the inspect_plugin module

FLAG_COMPRESSED = 0x00040000


# --------------------------------------------------------------------------------------------
# Walking a plugin
# --------------------------------------------------------------------------------------------

class Record:
    """One record: its header fields (everything but the data size), stored bytes, subrecords
    (inflated when compressed), and the groups around it."""

    def __init__(self, rtype, header, raw, subs, parent, offset):
        self.type = rtype
        self.header = header        # bytes 8..header size: flags, FormID, version control, form version
        self.raw = raw              # the whole record as stored
        self.subs = subs            # [(type, payload)]
        self.parent = parent        # tuple of group keys, outermost first
        self.offset = offset

    @property
    def flags(self):
        return struct.unpack_from("<I", self.header, 0)[0]

    @property
    def form_id(self):
        return struct.unpack_from("<I", self.header, 4)[0]

    @property
    def key(self):
        return (self.type, self.form_id)

    def field(self, sig, n=0):
        """The payload of the n-th subrecord of this type."""
        found = [p for t, p in self.subs if t == sig]
        if len(found) <= n:
            raise AssertionError("%s %08X has no %s #%d" % (self.type, self.form_id, sig, n))
        return found[n]

    def editor_id(self):
        for t, p in self.subs:
            if t == "EDID":
                return p.rstrip(b"\0").decode("cp1252")
        return None


class Parsed:
    def __init__(self, data):
        self.data = data
        fmt = ip.detect_format(data)
        if fmt is None:
            raise AssertionError("not a plugin")
        self.hsz = 20 if fmt == "tes4" else 24
        self.records = []   # in file order, TES4 excluded
        self.groups = []    # group keys with their parent, in file order
        self.skeleton = []  # ('G', key, depth) / ('R', type, form id, depth) / ('E', depth)
        tes4_size = struct.unpack_from("<I", data, 4)[0]
        self.tes4 = self._record(0, ())
        self._walk(self.hsz + tes4_size, len(data), ())

    def _record(self, o, parent):
        d = self.data
        hsz = self.hsz
        rtype = d[o:o + 4].decode("ascii")
        size = struct.unpack_from("<I", d, o + 4)[0]
        if o + hsz + size > len(d):
            raise AssertionError("record %s at %d overruns the file" % (rtype, o))
        header = bytes(d[o + 8:o + hsz])
        body = d[o + hsz:o + hsz + size]
        flags = struct.unpack_from("<I", header, 0)[0]
        if flags & FLAG_COMPRESSED and rtype != "TES4":
            expected = struct.unpack_from("<I", body, 0)[0]
            body = zlib.decompress(body[4:])
            if len(body) != expected:
                raise AssertionError("%s at %d inflates to %d bytes, not %d" % (rtype, o, len(body), expected))
        subs = list(ip.iter_subrecords(body, rtype))
        return Record(rtype, header, bytes(d[o:o + hsz + size]), subs, parent, o)

    def _walk(self, o, end, parent):
        d = self.data
        hsz = self.hsz
        while o < end:
            if o + hsz > end:
                raise AssertionError("truncated header at %d" % o)
            if d[o:o + 4] == b"GRUP":
                size = struct.unpack_from("<I", d, o + 4)[0]
                if size < hsz or o + size > end:
                    raise AssertionError("group at %d: size %d does not fit its parent (ends at %d)" % (o, size, end))
                label = struct.unpack_from("<I", d, o + 8)[0]
                gtype = struct.unpack_from("<i", d, o + 12)[0]
                key = (gtype, label, bytes(d[o + 16:o + hsz]))  # type, label, stamp and the rest
                self.groups.append((key, parent))
                self.skeleton.append(("G", key, len(parent)))
                self._walk(o + hsz, o + size, parent + (key,))
                self.skeleton.append(("E", len(parent)))
                o += size
                continue
            r = self._record(o, parent)
            self.records.append(r)
            self.skeleton.append(("R", r.type, r.form_id, len(parent)))
            o += len(r.raw)
        if o != end:
            raise AssertionError("contents overrun their group by %d bytes" % (o - end))

    def by_key(self):
        out = {}
        for r in self.records:
            if r.key in out:
                raise AssertionError("%s %08X occurs twice" % r.key)
            out[r.key] = r
        return out

    def find(self, rtype, edid):
        found = [r for r in self.records if r.type == rtype and r.editor_id() == edid]
        if len(found) != 1:
            raise AssertionError("%d records %s %r" % (len(found), rtype, edid))
        return found[0]

    def form_id_of(self, edid):
        found = [r.form_id for r in self.records if r.editor_id() == edid]
        if len(found) != 1:
            raise AssertionError("%d records with EditorID %r" % (len(found), edid))
        return found[0]

    def hedr_count(self):
        return struct.unpack_from("<I", self.tes4.field("HEDR"), 4)[0]


def group_key(gtype, label, stamp_etc):
    return (gtype, label, stamp_etc)


# --------------------------------------------------------------------------------------------
# Decoders of the edited fields
# --------------------------------------------------------------------------------------------

def zstring(payload):
    assert payload.endswith(b"\0"), payload
    return payload[:-1].decode("cp1252")


def decode_ctda(b):
    """Skyrim's 32-byte condition."""
    assert len(b) == 32, len(b)
    value = struct.unpack_from("<f", b, 4)[0]
    return {
        "operator": b[0] >> 5,            # 0 ==, 1 !=, 2 >, 3 >=, 4 <, 5 <=
        "flags": b[0] & 0x1F,             # 1 OR, 2 use aliases, 4 use global, 8 use pack data, 16 swap
        "unused": bytes(b[1:4]),
        "value": value,
        "function": struct.unpack_from("<H", b, 8)[0],
        "pad": bytes(b[10:12]),
        "param1": struct.unpack_from("<I", b, 12)[0],
        "param2": struct.unpack_from("<I", b, 16)[0],
        "run_on": struct.unpack_from("<I", b, 20)[0],  # 0 subject, 1 target, 2 reference ...
        "reference": struct.unpack_from("<I", b, 24)[0],
        "param3": struct.unpack_from("<i", b, 28)[0],
    }


class VmadReader:
    def __init__(self, b):
        self.b = b
        self.o = 0

    def take(self, fmt):
        v = struct.unpack_from(fmt, self.b, self.o)
        self.o += struct.calcsize(fmt)
        return v[0] if len(v) == 1 else v

    def wstr(self):
        n = self.take("<H")
        s = self.b[self.o:self.o + n].decode("cp1252")
        self.o += n
        return s

    def raw(self, n):
        v = bytes(self.b[self.o:self.o + n])
        self.o += n
        return v


def vmad_object(r, objfmt):
    if objfmt == 1:
        form, alias, unused = r.take("<IhH")
    else:
        unused, alias, form = r.take("<HhI")
    return ("object", form, alias, unused)


def vmad_value(r, ptype, objfmt):
    if ptype == 1:
        return vmad_object(r, objfmt)
    if ptype == 2:
        return r.wstr()
    if ptype == 3:
        return r.take("<i")
    if ptype == 4:
        return r.take("<f")
    if ptype == 5:
        return r.take("<B")
    if 11 <= ptype <= 15:
        n = r.take("<I")
        return [vmad_value(r, ptype - 10, objfmt) for _ in range(n)]
    raise AssertionError("VMAD property type %d" % ptype)


def vmad_scripts(r, version, objfmt):
    scripts = []
    for _ in range(r.take("<H")):
        name = r.wstr()
        status = r.take("<B") if version >= 4 else 0
        props = []
        for _ in range(r.take("<H")):
            pname = r.wstr()
            ptype = r.take("<B")
            pstatus = r.take("<B") if version >= 4 else 1
            props.append({"name": pname, "type": ptype, "status": pstatus, "value": vmad_value(r, ptype, objfmt)})
        scripts.append({"name": name, "status": status, "properties": props})
    return scripts


def decode_vmad(b, rtype):
    """Scripts and properties; for QUST also the fragments (kept as read) and the alias scripts.
    Other record types' fragment sections are kept as raw bytes."""
    r = VmadReader(b)
    version, objfmt = r.take("<hh")
    out = {"version": version, "object_format": objfmt, "scripts": vmad_scripts(r, version, objfmt)}
    if rtype == "QUST" and r.o < len(b):
        unknown, count = r.take("<BH")
        out["fragment_file"] = r.wstr()
        frags = []
        for _ in range(count):
            stage, unknown2, log, unknown3 = r.take("<HHIB")
            frags.append((stage, unknown2, log, unknown3, r.wstr(), r.wstr()))
        out["fragments"] = (unknown, frags)
        aliases = []
        for _ in range(r.take("<H")):
            obj = vmad_object(r, objfmt)
            aver, afmt = r.take("<hh")
            aliases.append({"object": obj, "version": aver, "object_format": afmt,
                            "scripts": vmad_scripts(r, aver, afmt)})
        out["aliases"] = aliases
    out["rest"] = r.raw(len(b) - r.o)
    return out


def decode_psdt(b):
    assert len(b) == 12, len(b)
    month, dow, date, hour, minute = struct.unpack_from("<bbBbb", b, 0)
    return {"month": month, "day_of_week": dow, "date": date, "hour": hour, "minute": minute,
            "unused": bytes(b[5:8]), "duration": struct.unpack_from("<i", b, 8)[0]}


def f32(x):
    """x as the nearest 32-bit float."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


# --------------------------------------------------------------------------------------------
# The tests
# --------------------------------------------------------------------------------------------

SKYRIM_DSILHAND = "skyrim/AndersonPaschoalon__Skyrim-DSilHand/DawnOfTheSilverHand.esp"
SKYRIM_LANTERNS = "skyrim/chesko256__WearableLanterns/Chesko_WearableLantern.esp"
OBLIVION_GEMS = "oblivion/Laulajatar__my-oblivion-mods/lNewGems.esp"
OBLIVION_CLIMB = "oblivion/Laulajatar__my-oblivion-mods/MOOClimb.esp"


def run_cli(*args, ok=True):
    p = subprocess.run([CLI] + [str(a) for a in args], capture_output=True, text=True)
    if ok and p.returncode != 0:
        raise AssertionError("tesmod %s failed (%d):\n%s%s" % (" ".join(map(str, args)), p.returncode, p.stdout, p.stderr))
    return p


def folder_hashes(folder):
    out = {}
    for root, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                out[os.path.relpath(path, folder)] = hashlib.sha256(f.read()).hexdigest()
    return out


class EditTest(unittest.TestCase):
    maxDiff = 4000

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="tesmod-edit-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    # ---- export, edit, import

    def export(self, plugin):
        self.plugin = os.path.join(CORPUS, plugin)
        self.assertTrue(os.path.isfile(self.plugin), self.plugin)
        self.dir = os.path.join(self.tmp, "text")
        run_cli("export", self.plugin, self.dir)
        return self.dir

    def path(self, *parts):
        p = os.path.join(self.dir, *parts)
        self.assertTrue(os.path.exists(p), p)
        return p

    def replace_in_line(self, rel, line_text, old, new, occurrence=0):
        """In file rel, in the occurrence-th line whose stripped text is line_text, replaces old
        (found there exactly once) with new. Returns the 0-based line index."""
        path = self.path(rel)
        with open(path, "rb") as f:
            lines = f.read().split(b"\n")
        hits = [i for i, l in enumerate(lines) if l.strip().decode("utf-8") == line_text]
        self.assertGreater(len(hits), occurrence, "%s: no line %r" % (rel, line_text))
        i = hits[occurrence]
        line = lines[i].decode("utf-8")
        self.assertEqual(line.count(old), 1, "%r in %r" % (old, line))
        lines[i] = line.replace(old, new).encode("utf-8")
        with open(path, "wb") as f:
            f.write(b"\n".join(lines))
        return i

    def read_lines(self, rel):
        with open(self.path(rel), "rb") as f:
            return f.read().decode("utf-8").split("\n")

    def write_lines(self, rel, lines):
        with open(os.path.join(self.dir, rel), "wb") as f:
            f.write("\n".join(lines).encode("utf-8"))

    def import_(self, notes=False):
        """Imports the edited folder into a new plugin; returns (original, output) parsed."""
        before = folder_hashes(self.dir)
        self.out = os.path.join(self.tmp, "out", os.path.basename(self.plugin))
        os.makedirs(os.path.dirname(self.out))
        p = run_cli("import", self.dir, "-o", self.out)
        if not notes:
            self.assertEqual(p.stderr, "", "import printed notes or warnings")
        self.import_stderr = p.stderr
        self.assertEqual(folder_hashes(self.dir), before, "import changed its input folder")
        with open(self.plugin, "rb") as f:
            orig = f.read()
        with open(self.out, "rb") as f:
            new = f.read()
        self.assertNotEqual(orig, new, "the edit changed nothing")
        return Parsed(orig), Parsed(new)

    # ---- the checks every edit shares

    def check(self, orig, new, changed=(), added=(), removed=(), moved=None):
        """Exactly the records in changed differ (header fields or subrecords), added and removed
        are the only records added and removed, moved maps the records that changed groups to
        their new parent; everything else is byte-identical and in place. Then the output passes
        inspect_plugin and its HEDR count is its records plus groups."""
        moved = moved or {}
        o, n = orig.by_key(), new.by_key()
        self.assertEqual(sorted(n.keys() - o.keys()), sorted(added), "records added")
        self.assertEqual(sorted(o.keys() - n.keys()), sorted(removed), "records removed")
        common = o.keys() & n.keys()
        differ = sorted(k for k in common if o[k].header != n[k].header or o[k].subs != n[k].subs)
        self.assertEqual(differ, sorted(changed), "records whose header fields or subrecords differ")
        raw_differ = sorted(k for k in common if o[k].raw != n[k].raw)
        self.assertEqual(raw_differ, sorted(changed), "records whose bytes differ")
        now_moved = {k: n[k].parent for k in common if o[k].parent != n[k].parent}
        self.assertEqual(now_moved, moved, "records in other groups than before")
        # The same groups and records in the same order, once the intended ones are left out.
        leave_out = set(added) | set(removed) | set(moved)

        def skeleton(p):
            return [e for e in p.skeleton if not (e[0] == "R" and (e[1], e[2]) in leave_out)]
        self.assertEqual(skeleton(new), skeleton(orig), "groups and records around the edit")
        # The header record: only HEDR's count may change, and only when the number of items does.
        self.assertEqual(new.tes4.header, orig.tes4.header)
        strip = lambda subs: [(t, p[:4] + p[8:] if t == "HEDR" else p) for t, p in subs]
        self.assertEqual(strip(new.tes4.subs), strip(orig.tes4.subs))
        items = len(new.records) + len(new.groups)
        self.assertEqual(new.hedr_count(), items, "HEDR count")
        if items == len(orig.records) + len(orig.groups):
            self.assertEqual(new.hedr_count(), orig.hedr_count())
        report = ip.inspect_plugin(self.out, new.data)
        self.assertEqual(report["errors"], [], "inspect_plugin errors")
        self.assertNotIn("count_mismatch", report)
        self.assertEqual(report["total_records"], len(new.records))
        self.assertEqual(report["groups"], len(new.groups))

    def check_fields(self, old, new, expected):
        """new's subrecords are old's with those in expected ({(type, n): payload}) replaced, and
        its header fields are old's."""
        self.assertEqual(new.header, old.header, "%s %08X header fields" % old.key)
        want = []
        seen = {}
        for t, p in old.subs:
            k = (t, seen.get(t, 0))
            seen[t] = k[1] + 1
            want.append((t, expected.pop(k) if k in expected else p))
        self.assertEqual(expected, {}, "fields that are not there")
        self.assertEqual(new.subs, want)

    # ---- the tests

    def test_string(self):
        """A quoted string, with a character outside ASCII stored in the plugin's code page."""
        self.export(SKYRIM_DSILHAND)
        self.replace_in_line("WEAP/DSilHand_TemperedSilverSword [0203ECAB].txt", 'FULL "Tempered Silver Sword"',
                             '"Tempered Silver Sword"', '"Tempered Silver Sword of Ysgramör"')
        orig, new = self.import_()
        old_r = orig.find("WEAP", "DSilHand_TemperedSilverSword")
        new_r = new.find("WEAP", "DSilHand_TemperedSilverSword")
        self.check(orig, new, changed=[old_r.key])
        self.assertEqual(new_r.field("FULL"), b"Tempered Silver Sword of Ysgram\xf6r\0")
        self.assertEqual(zstring(new_r.field("FULL")), "Tempered Silver Sword of Ysgramör")
        self.check_fields(old_r, new_r, {("FULL", 0): b"Tempered Silver Sword of Ysgram\xf6r\0"})

    def test_number(self):
        """An integer and a float of one field (Oblivion: 20-byte headers)."""
        self.export(OBLIVION_GEMS)
        self.replace_in_line("MISC/Gem1PearlFlawed [00038B99].txt", "DATA value=2 weight=0.1",
                             "value=2 weight=0.1", "value=1250 weight=0.35")
        orig, new = self.import_()
        old_r = orig.find("MISC", "Gem1PearlFlawed")
        new_r = new.find("MISC", "Gem1PearlFlawed")
        self.check(orig, new, changed=[old_r.key])
        data = new_r.field("DATA")
        self.assertEqual(len(data), 8)
        value, weight = struct.unpack("<if", data)
        self.assertEqual(value, 1250)
        self.assertEqual(weight, f32(0.35))
        self.assertEqual(struct.unpack("<if", old_r.field("DATA")), (2, f32(0.1)))
        self.check_fields(old_r, new_r, {("DATA", 0): struct.pack("<if", 1250, 0.35)})

    def test_flag(self):
        """Flag names added to a field's flags, and a record header flag."""
        self.export(SKYRIM_DSILHAND)
        rel = "WEAP/DSilHand_LunarSilverSword [0205AD0C].txt"
        dnam = [l.strip() for l in self.read_lines(rel) if l.strip().startswith("DNAM ")]
        self.assertEqual(len(dnam), 1)
        self.replace_in_line(rel, dnam[0], " flags=0 ", " flags=CantDrop|NonPlayable ")
        self.replace_in_line(rel, "record WEAP 0205AD0C", "0205AD0C", "0205AD0C flags=Deleted")
        orig, new = self.import_()
        old_r = orig.find("WEAP", "DSilHand_LunarSilverSword")
        new_r = new.find("WEAP", "DSilHand_LunarSilverSword")
        self.check(orig, new, changed=[old_r.key])
        old_flags = struct.unpack_from("<H", old_r.field("DNAM"), 12)[0]
        new_flags = struct.unpack_from("<H", new_r.field("DNAM"), 12)[0]
        self.assertEqual(old_flags, 0)
        self.assertEqual(new_flags, 0x0008 | 0x0080)  # CantDrop, NonPlayable
        self.assertEqual(old_r.flags & 0x20, 0)
        self.assertEqual(new_r.flags, old_r.flags | 0x20)  # Deleted
        self.assertEqual(new_r.header[4:], old_r.header[4:])
        dnam_bytes = bytearray(old_r.field("DNAM"))
        struct.pack_into("<H", dnam_bytes, 12, 0x88)
        old_r.header = struct.pack("<I", old_r.flags | 0x20) + old_r.header[4:]
        self.check_fields(old_r, new_r, {("DNAM", 0): bytes(dnam_bytes)})

    def test_formid_reference(self):
        """References by EditorID: an ACHR's base (NAME) and its enable parent (XESP), in a cell
        whose record is compressed (kept as stored)."""
        self.export(SKYRIM_DSILHAND)
        rel = "CELL/block 4/sub-block 1/BronzeWaterCave [00054226].txt"
        self.replace_in_line(rel, "NAME DSilHand_LvlBeastBoss", "DSilHand_LvlBeastBoss", "DSilHand_LvlWerewolfBoss")
        self.replace_in_line(rel, "XESP parent=DSilHand_R02xMarker01 flags=0 unused=DA1900", "R02xMarker01", "R01xMarker01")
        orig, new = self.import_()
        old_r = orig.find("ACHR", "DSilHand_R02BeastBoss01Ref")
        new_r = new.find("ACHR", "DSilHand_R02BeastBoss01Ref")
        self.check(orig, new, changed=[old_r.key])
        boss = orig.form_id_of("DSilHand_LvlWerewolfBoss")
        marker = orig.form_id_of("DSilHand_R01xMarker01")
        self.assertEqual((boss, marker), (0x0206749C, 0x0207215A))
        self.assertEqual(struct.unpack("<I", new_r.field("NAME"))[0], boss)
        self.assertEqual(struct.unpack_from("<I", new_r.field("XESP"), 0)[0], marker)
        self.assertEqual(new_r.field("XESP")[4:], old_r.field("XESP")[4:])  # flags and unused bytes kept
        self.check_fields(old_r, new_r, {("NAME", 0): struct.pack("<I", boss),
                                         ("XESP", 0): struct.pack("<I", marker) + old_r.field("XESP")[4:]})
        cell = orig.find("CELL", "BronzeWaterCave")
        self.assertTrue(cell.flags & FLAG_COMPRESSED)

    def test_condition(self):
        """Condition lines: the function, the run-on (Target, and a reference), the operator, the
        value and OR, one per line; the annotations ([pad=...]) kept."""
        self.export(SKYRIM_DSILHAND)
        rel = "QUST/DSilHand_R00Controller [02062E49].txt"
        lines = self.read_lines(rel)
        ctda_lines = [i for i, l in enumerate(lines) if l.strip().startswith("CTDA ")]
        edits = [  # (line, old, new)
            ("CTDA GetIsID(DSilHand_KrevTheSkinnerSovngarde) != 1.0 [pad=337E]", "!=", ">="),  # operator
            ("CTDA GetIsID(DSilHand_Senaar) != 1.0 [pad=337E]", "1.0 [", "1.0 OR ["),  # OR
            ("CTDA GetIsID(DSilHand_Hillara) != 1.0 [pad=337E]", "GetIsID", "Target.GetIsID"),  # run on
            ("CTDA GetDead() != 1.0 [pad=337E]", "GetDead", "GetSleeping"),  # function
            ("CTDA GetDisabled() != 1.0 [pad=337E]", "GetDisabled", "DSilHand_R01xMarker01.GetDisabled"),  # run on a ref
            ("CTDA GetInFaction(SilverHandFaction) == 1.0 [pad=337E]", "== 1.0", "== -2.5"),  # value
        ]
        index = {}
        for text, old, new in edits:
            i = self.replace_in_line(rel, text, old, new)
            index[text] = ctda_lines.index(i)  # which CTDA of the record
        orig, new = self.import_()
        old_r = orig.find("QUST", "DSilHand_R00Controller")
        new_r = new.find("QUST", "DSilHand_R00Controller")
        self.check(orig, new, changed=[old_r.key])
        self.assertEqual(len(ctda_lines), sum(1 for t, _ in old_r.subs if t == "CTDA"))
        old_c = {text: decode_ctda(old_r.field("CTDA", index[text])) for text, _, _ in edits}
        new_c = {text: decode_ctda(new_r.field("CTDA", index[text])) for text, _, _ in edits}
        for text, _, _ in edits:  # what the original lines say
            c = old_c[text]
            self.assertEqual((c["run_on"], c["flags"], c["value"], c["pad"]), (0, 0, 1.0, b"\x7e\x33"), text)
        changes = {
            edits[0][0]: {"operator": 3},                                   # >=
            edits[1][0]: {"flags": 0x01},                                   # OR
            edits[2][0]: {"run_on": 1},                                     # Target
            edits[3][0]: {"function": 49},                                  # GetSleeping
            edits[4][0]: {"run_on": 2, "reference": orig.form_id_of("DSilHand_R01xMarker01")},
            edits[5][0]: {"value": -2.5},
        }
        self.assertEqual(old_c[edits[0][0]]["operator"], 1)
        self.assertEqual(old_c[edits[3][0]]["function"], 46)  # GetDead
        expected = {}
        for text, change in changes.items():
            want = dict(old_c[text], **change)
            self.assertEqual(new_c[text], want, text)
            b = bytearray(old_r.field("CTDA", index[text]))
            b[0] = (want["operator"] << 5) | want["flags"]
            struct.pack_into("<fH2sIIIIi", b, 4, want["value"], want["function"], want["pad"], want["param1"], want["param2"],
                             want["run_on"], want["reference"], want["param3"])
            expected[("CTDA", index[text])] = bytes(b)
        self.check_fields(old_r, new_r, expected)

    def test_vmad_property(self):
        """A VMAD int property of a quest alias's script, and an object property of a weapon's."""
        self.export(SKYRIM_DSILHAND)
        self.replace_in_line("QUST/DSilHand_R04WitchHunter [02062E4C].txt", "int ObjectiveToComplete = 10", "10", "-7")
        self.replace_in_line("WEAP/DSilHand_TemperedSilverSword [0203ECAB].txt",
                             "object SilverPerk = Skyrim.esm:0010D685", "Skyrim.esm:0010D685", "DSilHand_LunarSilverSword")
        orig, new = self.import_()
        old_q, new_q = orig.find("QUST", "DSilHand_R04WitchHunter"), new.find("QUST", "DSilHand_R04WitchHunter")
        old_w, new_w = orig.find("WEAP", "DSilHand_TemperedSilverSword"), new.find("WEAP", "DSilHand_TemperedSilverSword")
        self.check(orig, new, changed=[old_q.key, old_w.key])

        want = decode_vmad(old_q.field("VMAD"), "QUST")
        got = decode_vmad(new_q.field("VMAD"), "QUST")
        prop = [p for a in want["aliases"] for s in a["scripts"] for p in s["properties"]
                if p["name"] == "ObjectiveToComplete"]
        self.assertEqual(len(prop), 1)
        self.assertEqual((prop[0]["type"], prop[0]["value"]), (3, 10))
        prop[0]["value"] = -7
        self.assertEqual(got, want)
        self.assertEqual(len(new_q.field("VMAD")), len(old_q.field("VMAD")))
        self.check_fields(old_q, new_q, {("VMAD", 0): new_q.field("VMAD")})

        want = decode_vmad(old_w.field("VMAD"), "WEAP")
        got = decode_vmad(new_w.field("VMAD"), "WEAP")
        p = want["scripts"][0]["properties"][0]
        self.assertEqual((p["name"], p["value"]), ("SilverPerk", ("object", 0x0010D685, -1, 0)))
        p["value"] = ("object", orig.form_id_of("DSilHand_LunarSilverSword"), -1, 0)
        self.assertEqual(got, want)
        self.check_fields(old_w, new_w, {("VMAD", 0): new_w.field("VMAD")})

    def test_vmad_add_script(self):
        """A script with two properties added to a record's VMAD, and a VMAD with a script added
        to a record that had none."""
        self.export(SKYRIM_DSILHAND)
        rel = "WEAP/DSilHand_LunarSilverSword [0205AD0C].txt"
        lines = self.read_lines(rel)
        end = lines.index("  }")
        lines[end:end] = ["    script TesmodAddedScript",
                          "      int Charges = 42",
                          "      object Bonus = DSilHand_GlenmorilWitchStaff"]
        self.write_lines(rel, lines)
        rel2 = "MISC/DSilHand_Totem1 [02058C91].txt"
        lines = self.read_lines(rel2)
        self.assertEqual(lines[1], '  EDID "DSilHand_Totem1"')
        lines[2:2] = ["  VMAD {",
                      "    script TesmodTotemScript",
                      "      float Radius = 512.5",
                      "      object Owner = alias 2 of DSilHand_R00Controller",
                      "  }"]
        self.write_lines(rel2, lines)
        orig, new = self.import_()
        old_w, new_w = orig.find("WEAP", "DSilHand_LunarSilverSword"), new.find("WEAP", "DSilHand_LunarSilverSword")
        old_m, new_m = orig.find("MISC", "DSilHand_Totem1"), new.find("MISC", "DSilHand_Totem1")
        self.check(orig, new, changed=[old_w.key, old_m.key])

        want = decode_vmad(old_w.field("VMAD"), "WEAP")
        got = decode_vmad(new_w.field("VMAD"), "WEAP")
        want["scripts"].append({"name": "TesmodAddedScript", "status": 0, "properties": [
            {"name": "Charges", "type": 3, "status": 1, "value": 42},
            {"name": "Bonus", "type": 1, "status": 1,
             "value": ("object", orig.form_id_of("DSilHand_GlenmorilWitchStaff"), -1, 0)}]})
        self.assertEqual(got, want)
        self.check_fields(old_w, new_w, {("VMAD", 0): new_w.field("VMAD")})

        got = decode_vmad(new_m.field("VMAD"), "MISC")
        self.assertEqual(got, {"version": 5, "object_format": 2, "rest": b"", "scripts": [
            {"name": "TesmodTotemScript", "status": 0, "properties": [
                {"name": "Radius", "type": 4, "status": 1, "value": 512.5},
                {"name": "Owner", "type": 1, "status": 1,
                 "value": ("object", orig.form_id_of("DSilHand_R00Controller"), 2, 0)}]}]})
        self.assertEqual([t for t, _ in new_m.subs], ["EDID", "VMAD"] + [t for t, _ in old_m.subs][1:])
        self.assertEqual(new_m.subs[:1] + new_m.subs[2:], old_m.subs)
        self.assertEqual(new_m.header, old_m.header)

    def test_package_schedule(self):
        """A Skyrim package's schedule line: day, hour, minute and duration."""
        self.export(SKYRIM_DSILHAND)
        self.replace_in_line("PACK/DSilHand_KurdakSleep0x6 [0200E450].txt", "schedule hour=0 minute=0 duration=6h",
                             "hour=0 minute=0 duration=6h", "day=Tirdas hour=22 minute=30 duration=7h30min")
        orig, new = self.import_()
        old_r, new_r = orig.find("PACK", "DSilHand_KurdakSleep0x6"), new.find("PACK", "DSilHand_KurdakSleep0x6")
        self.check(orig, new, changed=[old_r.key])
        old_s = decode_psdt(old_r.field("PSDT"))
        self.assertEqual((old_s["month"], old_s["day_of_week"], old_s["date"], old_s["hour"], old_s["minute"],
                          old_s["duration"]), (-1, -1, 0, 0, 0, 360))
        new_s = decode_psdt(new_r.field("PSDT"))
        self.assertEqual(new_s, dict(old_s, day_of_week=2, hour=22, minute=30, duration=450))
        self.check_fields(old_r, new_r, {("PSDT", 0): struct.pack("<bbBbb3si", -1, 2, 0, 22, 30, old_s["unused"], 450)})

    def test_oblivion_script(self):
        """A line of an Oblivion script source (.obl): SCTX holds the new text, SCDA and SCHR's
        compiled size follow it, the decompiled script shows the line, the rest is kept."""
        self.export(OBLIVION_CLIMB)
        rel = "SCPT/MOOStolenTokenCombatPlayerScript [01000ED8].obl"
        self.replace_in_line(rel, "if stucktime > 0.5", "0.5", "0.75")
        orig, new = self.import_()
        old_r = orig.find("SCPT", "MOOStolenTokenCombatPlayerScript")
        new_r = new.find("SCPT", "MOOStolenTokenCombatPlayerScript")
        self.check(orig, new, changed=[old_r.key])
        old_src, new_src = old_r.field("SCTX"), new_r.field("SCTX")
        self.assertEqual(old_src.count(b"if stucktime > 0.5"), 1)
        self.assertEqual(new_src, old_src.replace(b"if stucktime > 0.5", b"if stucktime > 0.75"))
        old_scda, new_scda = old_r.field("SCDA"), new_r.field("SCDA")
        self.assertEqual(old_scda.count(b" 0.5"), 1)
        self.assertNotEqual(new_scda, old_scda)
        self.assertEqual(len(new_scda), len(old_scda) + 1)  # the number is stored as its text
        self.assertEqual(new_scda.count(b" 0.75"), 1)
        old_schr, new_schr = old_r.field("SCHR"), new_r.field("SCHR")
        self.assertEqual(struct.unpack_from("<I", new_schr, 8)[0], len(new_scda))
        self.assertEqual(new_schr[:8] + new_schr[12:], old_schr[:8] + old_schr[12:])
        self.assertEqual([(t, p) for t, p in new_r.subs if t not in ("SCHR", "SCDA", "SCTX")],
                         [(t, p) for t, p in old_r.subs if t not in ("SCHR", "SCDA", "SCTX")])
        self.assertEqual([t for t, _ in new_r.subs], [t for t, _ in old_r.subs])
        p = run_cli("script", "decompile", self.out, "MOOStolenTokenCombatPlayerScript")
        lines = [l.strip().lower() for l in p.stdout.splitlines()]
        self.assertIn("if stucktime > 0.75", lines)
        self.assertNotIn("if stucktime > 0.5", lines)
        p = run_cli("script", "decompile", self.plugin, "MOOStolenTokenCombatPlayerScript")
        self.assertIn("if stucktime > 0.5", [l.strip().lower() for l in p.stdout.splitlines()])

    def test_add_record(self):
        """A new record file, listed second in its group's _group.txt."""
        self.export(SKYRIM_DSILHAND)
        with open(self.plugin, "rb") as f:
            orig0 = Parsed(f.read())
        form_id = max(r.form_id for r in orig0.records if r.form_id >> 24 == 2) + 1
        name = "DSilHand_TesmodAdded [%08X].txt" % form_id
        with open(os.path.join(self.dir, "GLOB", name), "w", encoding="utf-8") as f:
            f.write("record GLOB %08X\n  EDID \"DSilHand_TesmodAdded\"\n  FNAM Long\n  FLTV 12.5\n" % form_id)
        lines = self.read_lines("GLOB/_group.txt")
        first = lines.index("DSilHand_accGold [020643DA].txt")
        lines.insert(first + 1, name)
        self.write_lines("GLOB/_group.txt", lines)
        orig, new = self.import_()
        self.check(orig, new, added=[("GLOB", form_id)])
        r = new.by_key()[("GLOB", form_id)]
        self.assertEqual(r.header, struct.pack("<IIIHH", 0, form_id, 0, 43, 0))
        self.assertEqual(r.subs, [("EDID", b"DSilHand_TesmodAdded\0"), ("FNAM", b"l"), ("FLTV", struct.pack("<f", 12.5))])
        glob_top = [k for k, parent in new.groups if parent == () and k[0] == 0 and k[1] == struct.unpack("<I", b"GLOB")[0]]
        self.assertEqual(len(glob_top), 1)
        self.assertEqual(r.parent, (glob_top[0],))
        in_group = [x.form_id for x in new.records if x.parent == r.parent]
        self.assertEqual(in_group, [0x020643DA, form_id, 0x020092FA, 0x0200A35D])
        self.assertEqual(new.hedr_count(), orig.hedr_count() + 1)

    def test_delete_record(self):
        """A record file deleted, and its line in _group.txt."""
        self.export(SKYRIM_DSILHAND)
        name = "DSilHand_SenaarToPlayer [0202A3C3].txt"
        os.remove(self.path("RELA", name))
        lines = self.read_lines("RELA/_group.txt")
        lines.remove(name)
        self.write_lines("RELA/_group.txt", lines)
        orig, new = self.import_()
        self.check(orig, new, removed=[("RELA", 0x0202A3C3)])
        self.assertEqual(new.hedr_count(), orig.hedr_count() - 1)
        self.assertEqual([r.form_id for r in new.records if r.type == "RELA"], [0x020298F9])

    def test_move_record(self):
        """A reference moved from one cell's temporary children to another cell's."""
        self.export(SKYRIM_DSILHAND)
        src = "CELL/block 0/sub-block 6/DSilHand_GallowsRock02 [02007698].txt"
        dst = "CELL/block 5/sub-block 1/DSilHand_SilverhandsMine [02006FC7].txt"
        lines = self.read_lines(src)
        start = lines.index("    record REFR 02007747")
        self.assertTrue(lines[start - 1].startswith("  group cell_temporary_children "))
        block = lines[start:start + 3]
        self.assertTrue(lines[start + 3].startswith("    record "))
        del lines[start:start + 3]
        self.write_lines(src, lines)
        lines = self.read_lines(dst)
        opening = [i for i, l in enumerate(lines) if l.startswith("  group cell_temporary_children ")]
        self.assertEqual(len(opening), 1)
        close = lines.index("  }", opening[0])
        lines[close:close] = block
        self.write_lines(dst, lines)
        orig, new = self.import_()
        key = ("REFR", 0x02007747)
        old_r, new_r = orig.by_key()[key], new.by_key()[key]
        temporary = 9  # group type: cell temporary children
        self.assertEqual([(k[0], k[1]) for k in old_r.parent[-2:]], [(6, 0x02007698), (temporary, 0x02007698)])
        self.check(orig, new, moved={key: new_r.parent})
        self.assertEqual([(k[0], k[1]) for k in new_r.parent[-2:]], [(6, 0x02006FC7), (temporary, 0x02006FC7)])
        self.assertEqual(new_r.raw, old_r.raw)
        siblings = [r.key for r in new.records if r.parent == new_r.parent]
        self.assertEqual(siblings[-1], key)  # last in its new group
        self.assertEqual(new.hedr_count(), orig.hedr_count())

    def test_roundtrip_every_corpus_plugin(self):
        """Every corpus plugin, exported and imported unedited, is byte-identical."""
        plugins = []
        for root, _, files in os.walk(CORPUS):
            plugins += [os.path.join(root, f) for f in files if f.lower().endswith((".esp", ".esm", ".esl"))]
        self.assertGreater(len(plugins), 0)
        failures = []
        for i, plugin in enumerate(sorted(plugins)):
            folder = os.path.join(self.tmp, "rt%d" % i)
            out = os.path.join(self.tmp, "rt%d.out" % i)
            e = run_cli("export", plugin, folder, ok=False)
            if e.returncode != 0:
                failures.append("%s: export failed: %s" % (plugin, e.stderr.strip()))
                continue
            m = run_cli("import", folder, "-o", out, ok=False)
            if m.returncode != 0:
                failures.append("%s: import failed: %s" % (plugin, m.stderr.strip()))
                continue
            with open(plugin, "rb") as a, open(out, "rb") as b:
                if a.read() != b.read():
                    failures.append("%s: not byte-identical" % plugin)
            shutil.rmtree(folder)
            os.remove(out)
        self.assertEqual(failures, [], "%d of %d plugins" % (len(failures), len(plugins)))


# --------------------------------------------------------------------------------------------

def main():
    global CLI, CORPUS, TOOLS, ip
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--cli", required=True)
    parser.add_argument("--corpus", default="")
    parser.add_argument("--tools", default="")
    args, rest = parser.parse_known_args()
    CLI = args.cli
    env = os.environ.get("TESMOD_CORPUS", "")
    if env and not os.path.isdir(env):
        # A corpus named but not there is a mistake to report, not a reason to skip.
        print("FAIL: TESMOD_CORPUS=%r is not a directory (relative paths resolve in %r)" % (env, os.getcwd()))
        return 1
    if env:
        CORPUS = env
        TOOLS = os.path.join(env, "..", "tools")
    else:
        CORPUS = args.corpus
        TOOLS = args.tools or os.path.join(CORPUS, "..", "tools")
    in_ci = os.environ.get("CI") == "true"
    script = os.path.join(TOOLS, "inspect_plugin.py")
    for what, ok in (("corpus", CORPUS and os.path.isdir(CORPUS)), ("inspect_plugin.py", os.path.isfile(script))):
        if not ok:
            where = CORPUS if what == "corpus" else script
            if in_ci:
                print("FAIL: %s not found at %r and CI=true" % (what, where))
                return 1
            print("SKIP: %s not found at %r: set TESMOD_CORPUS or place it at ../shared/corpus" % (what, where))
            return SKIP_EXIT
    sys.path.insert(0, os.path.abspath(TOOLS))
    import inspect_plugin
    ip = inspect_plugin
    prog = unittest.main(argv=[sys.argv[0]] + rest, exit=False, verbosity=2)
    return 0 if prog.result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())

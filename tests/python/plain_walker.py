"""A plugin walker in plain Python (struct, zlib, mmap): the independent reference the Python
tests compare tesmod with, and the peer bench/python_bench.py times it against.

Groups are walked into; each record yields (type, form_id, flags, EditorID or None), the
EditorID read from the first field when it is EDID (compressed records inflated first).
"""
import mmap
import struct
import zlib

COMPRESSED = 0x00040000
_HEADER = struct.Struct("<4sIII")


def header_size(data):
    """20 for Oblivion's headers, 24 for Skyrim's: where TES4's first field (HEDR) starts."""
    return 20 if data[20:24] == b"HEDR" else 24


def records(path, only=None):
    """(type, form_id, flags, editor_id) of every record after TES4, of type `only` if given."""
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
        hsize = header_size(data)
        size = len(data)
        pos = hsize + _HEADER.unpack_from(data, 0)[1]  # after the TES4 record
        while pos + hsize <= size:
            rtype, dsize, flags, form_id = _HEADER.unpack_from(data, pos)
            if rtype == b"GRUP":
                pos += hsize  # into the group
                continue
            body_at = pos + hsize
            pos = body_at + dsize
            name = rtype.decode("latin-1")
            if only is not None and name != only:
                continue
            yield name, form_id, flags, editor_id(data, body_at, dsize, flags)


def editor_id(data, at, size, flags):
    if flags & COMPRESSED:
        data, at, size = zlib.decompress(data[at + 4:at + size]), 0, None
    if data[at:at + 4] != b"EDID":
        return None
    (n,) = struct.unpack_from("<H", data, at + 4)
    return bytes(data[at + 6:at + 6 + n]).rstrip(b"\0").decode("cp1252", "surrogateescape")

"""A small independent reader of plugin bytes for the Python tests: records and groups in file order
with their raw bytes, and a record's fields. Standard library only; it shares nothing with tesmod.
"""
import struct
import zlib

COMPRESSED = 0x00040000


def read(data):
    """(header size, TES4 record bytes, items): items are ("grup", header, size), ("end",) and
    ("rec", header, stored body) in file order."""
    hs = 24 if data[24:28] == b"HEDR" else 20
    items = []

    def walk(p, end):
        while p < end:
            n = struct.unpack_from("<I", data, p + 4)[0]
            if data[p:p + 4] == b"GRUP":
                items.append(("grup", data[p:p + hs], n))
                walk(p + hs, p + n)
                items.append(("end",))
                p += n
            else:
                items.append(("rec", data[p:p + hs], data[p + hs:p + hs + n]))
                p += hs + n

    size = struct.unpack_from("<I", data, 4)[0]
    walk(hs + size, len(data))
    return hs, data[:hs + size], items


def rtype(h):
    return h[:4]


def fid(h):
    return struct.unpack_from("<I", h, 12)[0]


def flags(h):
    return struct.unpack_from("<I", h, 8)[0]


def fields(body, h):
    """[(signature, payload)] of a record (inflated when compressed; XXXX sizes applied)."""
    if flags(h) & COMPRESSED:
        body = zlib.decompress(body[4:])
    out, p, big = [], 0, None
    while p < len(body):
        sig, n = body[p:p + 4], struct.unpack_from("<H", body, p + 4)[0]
        p += 6
        if sig == b"XXXX":
            big = struct.unpack_from("<I", body, p)[0]
            p += n
            continue
        if big is not None:
            n, big = big, None
        out.append((sig, body[p:p + n]))
        p += n
    return out


def records(items):
    """[(header, stored body)] of every record but TES4, in file order."""
    return [(it[1], it[2]) for it in items if it[0] == "rec"]

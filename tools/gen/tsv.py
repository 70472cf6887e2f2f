"""Helpers shared by the table generators: reading the reference TSV files, C string literals."""


def rows(path):
    """Each data row of a TSV file as a dict by header name; '#' lines and blank lines skipped,
    short rows padded with empty strings."""
    with open(path, encoding="utf-8") as f:
        header = None
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            if header is None:
                header = cols
                continue
            yield dict(zip(header, cols + [""] * (len(header) - len(cols))))


def cstr(s):
    """s as a C string literal."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'

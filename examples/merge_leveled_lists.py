"""A leveled-list merge of one's own: every plugin's additions and removals kept, not just the winner's.

    python3 examples/merge_leveled_lists.py DATA_DIR [OUT.esp]

For each leveled list (LVLI, LVLN, LVSP; Oblivion's LVLC too) that more than one active plugin
has, the entries of the list's first version are the base; every later version's additions to the
base are added and its removals from it removed (an entry is its level, form and count). Where the
result differs from the winning version, the patch holds it. Lists whose entries carry extra data
(Skyrim's COED) are left alone. OUT defaults to MergedLists.esp in DATA_DIR.
"""
import sys
from pathlib import Path

import tesmod

TYPES = ("LVLI", "LVLN", "LVSP", "LVLC")


def key(entry):
    form = next(v for k, v in entry.items() if k in ("item", "npc", "spell"))
    return entry["level"], form, entry.get("count", 1)


def merged_entries(versions):
    base = [key(e) for e in versions[0].get_all("LVLO")]
    by_key = {key(e): e for v in versions for e in v.get_all("LVLO")}
    added, removed = [], set()
    for version in versions[1:]:
        keys = [key(e) for e in version.get_all("LVLO")]
        added += [k for k in keys if k not in base and k not in added]
        removed |= {k for k in base if k not in keys}
    result = [k for k in base if k not in removed] + added
    return [by_key[k] for k in sorted(result, key=lambda k: k[0])]


def merge_leveled_lists(data, out=None):
    lo = tesmod.load_order(data=data)
    patch = lo.new_plugin("MergedLists.esp" if out is None else Path(out).name)
    for type_ in TYPES:
        for winner in lo.winning(type_):
            versions = [v["record"] for v in lo.versions(winner.form_key)]
            if len(versions) < 2 or any("COED" in v for v in versions):
                continue
            entries = merged_entries(versions)
            if sorted(map(key, entries), key=repr) == sorted(map(key, winner.get_all("LVLO")), key=repr):
                continue  # the winner has these entries already (in whatever order)
            skyrim = lo.game != "oblivion"  # Skyrim counts the entries in LLCT, at most 255
            if skyrim and len(entries) > 255:
                print(f"{winner.form_key}: {len(entries)} entries do not fit one Skyrim list; left alone")
                continue
            copy = patch.add_override(winner)
            copy.set_all("LVLO", entries)
            if skyrim:
                copy["LLCT"] = len(entries)
    return patch.save(out)


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    saved = merge_leveled_lists(*sys.argv[1:])
    print(f"{saved['path']}: {saved['overrides']} lists merged")

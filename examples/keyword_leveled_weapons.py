"""A new keyword on every weapon a leveled list hands out (Skyrim), through nested lists too.

    python3 examples/keyword_leveled_weapons.py DATA_DIR LIST_EDITOR_ID [OUT.esp]

The patch defines the keyword (EditorID tesmodFromLeveledList) and overrides each weapon the list
reaches with the keyword added to KWDA and the count in KSIZ. OUT defaults to
LeveledWeaponKeyword.esp in DATA_DIR.
"""
import sys
from pathlib import Path

import tesmod


def reached_weapons(lo, leveled_list, seen):
    """The winning WEAP records the list's entries reach, following nested LVLI."""
    for entry in leveled_list.get_all("LVLO"):
        form = entry["item"]
        if form is None or form in seen:
            continue
        seen.add(form)
        record = lo.get(form)
        if record is None:
            continue  # an entry naming a form no active plugin has (tesmod check reports it)
        if record.type == "LVLI":
            yield from reached_weapons(lo, record, seen)
        elif record.type == "WEAP":
            yield record


def keyword_leveled_weapons(data, list_editor_id, out=None):
    lo = tesmod.load_order(data=data)
    lists = [r for r in lo.winning("LVLI") if r.editor_id == list_editor_id]
    if not lists:
        raise SystemExit(f"no winning LVLI has the EditorID {list_editor_id}")
    patch = lo.new_plugin("LeveledWeaponKeyword.esp" if out is None else Path(out).name)
    keyword = patch.add_record("KYWD", {"EDID": "tesmodFromLeveledList"})
    for weapon in reached_weapons(lo, lists[0], set()):
        copy = patch.add_override(weapon)
        keywords = copy.get("KWDA") or []
        if keyword.form_key not in keywords:
            keywords.append(keyword.form_key)
        copy["KWDA"] = keywords
        copy["KSIZ"] = len(keywords)
    return patch.save(out)


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    saved = keyword_leveled_weapons(*sys.argv[1:])
    print(f"{saved['path']}: {saved['overrides']} weapons, {saved['new_records']} keyword")

"""Every winning armor of a load order weighs half as much: a new plugin with an override of each.

    python3 examples/halve_armor_weight.py DATA_DIR [OUT.esp]

DATA_DIR is the game's Data folder (its plugins.txt gives the load order). OUT defaults to
HalvedArmor.esp in DATA_DIR. Oblivion and Skyrim alike: both games' armor DATA has a weight.
"""
import sys
from pathlib import Path

import tesmod


def halve_armor_weight(data, out=None):
    lo = tesmod.load_order(data=data)
    patch = lo.new_plugin("HalvedArmor.esp" if out is None else Path(out).name)
    for armor in lo.winning("ARMO"):
        stats = armor.get("DATA")
        if not isinstance(stats, dict) or not stats.get("weight"):
            continue  # weightless already, or a DATA no layout reads
        copy = patch.add_override(armor)  # FormIDs in it now name forms, whatever plugin stored them
        stats["weight"] /= 2
        copy["DATA"] = stats  # written through the layout: only the weight's four bytes change
    return patch.save(out)


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    saved = halve_armor_weight(*sys.argv[1:])
    print(f"{saved['path']}: {saved['overrides']} armors, masters {', '.join(saved['masters'])}")

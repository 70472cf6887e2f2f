"""The Python side of bench/run.sh's `patchers` section (bench/patcher.cpp is the C++ side).

    python_patcher.py patch DATA_DIR TYPE FIELD MEMBER COUNT OUT.esp
        override the first COUNT winning records of TYPE in a new plugin, decrease one integer
        member of one typed field of each by one, save (what bench/patcher.cpp does in C++);
    python_patcher.py read DATA_DIR TYPE
        read every typed field of every winning record of TYPE (record.typed()), printing counts;
    python_patcher.py read-plugin PLUGIN TYPE
        the same over one plugin's records of TYPE (no load order);
    python_patcher.py collect DATA_DIR TYPE OUT.esp
        a plugin holding the winning records of TYPE as they are (for `tesmod export` to time).
"""
import sys
import warnings
from pathlib import Path

import tesmod


def patch(data, type_, field, member, count, out):
    lo = tesmod.load_order(data=data)
    plugin = lo.new_plugin(Path(out).name)
    for record in lo.winning(type_)[:int(count)]:
        copy = plugin.add_override(record)
        value = copy[field]
        value[member] -= 1
        copy[field] = value
    saved = plugin.save(out)
    print(f"{saved['records']} records, {len(saved['masters'])} masters")


def count_values(value):
    if isinstance(value, dict):
        return sum(count_values(v) for v in value.values())
    if isinstance(value, list):
        return sum(count_values(v) for v in value)
    return 1


def read(records):
    n = values = 0
    for record in records:
        values += count_values(record.typed())
        n += 1
    print(f"{n} records, {values} values")


def main(argv):
    if argv[1] == "patch":
        patch(*argv[2:8])
    elif argv[1] == "read":
        read(tesmod.load_order(data=argv[2]).winning(argv[3]))
    elif argv[1] == "collect":
        lo = tesmod.load_order(data=argv[2])
        plugin = lo.new_plugin(Path(argv[4]).name)
        for record in lo.winning(argv[3]):
            plugin.add_override(record)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # every override is left as copied, on purpose
            print(plugin.save(argv[4])["records"], "records")
    elif argv[1] == "read-plugin":
        read(tesmod.open(argv[2]).records(argv[3]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)

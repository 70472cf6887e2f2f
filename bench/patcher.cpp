// The patcher of bench/python_patcher.py written against the C++ API, for bench/run.sh's
// `patchers` section: read a load order, override the first COUNT winning records of TYPE in a new
// plugin, edit one member of one typed field of each (FIELD.MEMBER, an integer decreased by one),
// save. Usage: patcher DATA_DIR TYPE FIELD MEMBER COUNT OUT.esp
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tesmod/error.hpp"
#include "tesmod/fields/field_layout.hpp"
#include "tesmod/fields/field_value.hpp"
#include "tesmod/loadorder/load_order.hpp"
#include "tesmod/patch/patch_plugin.hpp"

using namespace tesmod;

int main(int argc, char** argv) {
  if (argc != 7) {
    std::fprintf(stderr, "usage: patcher DATA_DIR TYPE FIELD MEMBER COUNT OUT.esp\n");
    return 2;
  }
  try {
    loadorder::LoadOrderSource source;
    source.data = argv[1];
    const loadorder::LoadOrder order = loadorder::LoadOrder::open(source);
    Signature type, field;
    if (!Signature::parse(argv[2], type) || !Signature::parse(argv[3], field)) {
      std::fprintf(stderr, "patcher: TYPE and FIELD are 4 characters\n");
      return 2;
    }
    const std::string member = argv[4];
    const std::size_t count = std::strtoul(argv[5], nullptr, 10);
    patch::PatchPlugin patch(order, std::filesystem::path(argv[6]).filename().string());
    const fields::LayoutTable& layouts = fields::layout_table(order.game());
    Inflater inflater;
    std::size_t edited = 0;
    for (const loadorder::RecordVersion& v : order.winning(type)) {
      if (edited == count) break;
      Record& r = patch.add_override(v, inflater);
      for (Field& f : r.edit_fields()) {
        if (f.type != field) continue;
        const fields::FieldLayout* layout = layouts.choose(type, field, f.data, false);
        if (!layout) break;
        fields::FieldValue value = fields::decode_field(*layout, f.data, false, field);
        fields::FieldValue& m = value[member];
        if (auto* i = m.get_if<std::int64_t>()) *i -= 1;
        else if (auto* u = m.get_if<std::uint64_t>()) *u -= 1;
        f.data = fields::encode_field(*layout, value, false, field);
        break;
      }
      ++edited;
    }
    const patch::PatchPluginSaved saved = patch.save(argv[6]);
    std::printf("%zu records, %zu masters\n", saved.records, saved.masters.size());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "patcher: %s\n", e.what());
    return 1;
  }
  return 0;
}

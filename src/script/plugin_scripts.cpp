#include "tesmod/script/plugin_scripts.hpp"

#include <fmt/format.h>

#include "tesmod/io/little_endian.hpp"
#include "tesmod/io/zlib_codec.hpp"
#include "tesmod/plugin/field.hpp"
#include "tesmod/plugin/subrecord.hpp"

namespace tesmod::script {
namespace {

constexpr Signature kSCPT("SCPT"), kINFO("INFO"), kQUST("QUST"), kPACK("PACK"), kSCRI("SCRI"), kQSTI("QSTI"),
    kSCDA("SCDA");

}  // namespace

bool holds_scripts(Signature t) { return t == kSCPT || t == kINFO || t == kQUST || t == kPACK; }

std::string PluginScript::file_stem() const {
  std::string stem = editor_id.empty() ? fmt::format("{:08X}", form_id) : editor_id;
  if (count_in_record > 1) stem += fmt::format("_{}", index + 1);
  return stem;
}

std::vector<PluginScript> plugin_scripts(const PluginFile& file) {
  std::vector<PluginScript> out;
  Inflater inflater;
  for (const IndexEntry& e : file.entries().subspan(1)) {
    if (e.is_group() || !holds_scripts(e.type)) continue;
    const ErrorContext where = file.context(e);
    const std::span<const std::uint8_t> body = file.body(e, inflater);
    // SCDA's file offset is only meaningful when the body is stored as is.
    const std::uint64_t body_offset = e.is_compressed() ? Error::kNoOffset : e.offset + file.header_size();
    const std::vector<SubrecordView> views = read_subrecords(body, where, body_offset);
    std::vector<Field> fields;
    fields.reserve(views.size());
    std::uint32_t quest_script = 0;
    std::vector<std::uint32_t> quests;
    for (const SubrecordView& v : views) {
      fields.push_back(Field::from_view(v));
      if (v.data.size() == 4 && v.type == kSCRI) quest_script = le::u32(v.data.data());
      if (v.data.size() == 4 && v.type == kQSTI) quests.push_back(le::u32(v.data.data()));
    }
    const std::vector<ScriptSpan> spans = find_scripts(fields);
    for (std::size_t i = 0; i < spans.size(); ++i) {
      PluginScript s;
      s.record_type = e.type;
      s.form_id = e.id;
      s.editor_id = where.record ? where.record->editor_id : std::string();
      s.index = i;
      s.count_in_record = spans.size();
      s.span = spans[i];
      s.where = where;
      if (e.type == kQUST) s.quest_script = quest_script;
      if (e.type == kINFO) s.quests = quests;
      for (std::size_t k = spans[i].first; k < spans[i].last; ++k) {
        const SubrecordView& v = views[k];
        if (v.type == kSCDA && body_offset != Error::kNoOffset && !v.oversize) s.bytecode_offset = body_offset + v.offset + 6;
      }
      try {
        s.data = decode_script(std::span(fields).subspan(spans[i].first, spans[i].last - spans[i].first), where);
      } catch (const Error& err) {
        s.error = err.what();
        s.data = ScriptData{};
      }
      out.push_back(std::move(s));
    }
  }
  return out;
}

const ScriptData* result_locals(const PluginScript& s, const NameSource& names) {
  if (s.quest_script) return names.script(s.quest_script);
  for (std::uint32_t quest : s.quests)
    if (auto info = names.form(quest); info && info->script)
      if (const ScriptData* d = names.script(info->script)) return d;
  return nullptr;
}

}  // namespace tesmod::script

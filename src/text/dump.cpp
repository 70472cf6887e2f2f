#include "tesmod/text/dump.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "tesmod/io/ascii.hpp"
#include "tesmod/io/counted.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/plugin/group_type.hpp"
#include "tesmod/plugin/record_flags.hpp"
#include "tesmod/plugin/subrecord.hpp"
#include "tesmod/text/hex.hpp"

namespace tesmod::text {
namespace {

// Which entries to show: matching records and their ancestor groups.
std::vector<bool> select(const PluginFile& file, const DumpOptions& o) {
  const auto entries = file.entries();
  const bool filtered = !o.types.empty() || !o.form_ids.empty() || !o.editor_ids.empty();
  std::vector<bool> shown(entries.size(), !filtered);
  if (!filtered) return shown;
  for (std::uint32_t i = 0; i < entries.size(); ++i) {
    const IndexEntry& e = entries[i];
    if (e.is_group()) continue;
    if (!o.types.empty() && std::find(o.types.begin(), o.types.end(), e.type) == o.types.end()) continue;
    if (!o.form_ids.empty() && std::find(o.form_ids.begin(), o.form_ids.end(), e.id) == o.form_ids.end()) continue;
    if (!o.editor_ids.empty()) {
      auto edid = file.editor_id(e);
      if (!edid || std::none_of(o.editor_ids.begin(), o.editor_ids.end(),
                                [&](const std::string& want) { return ascii::iequals(want, *edid); }))
        continue;
    }
    for (std::uint32_t k = i; k != kNoParent && !shown[k]; k = entries[k].parent) shown[k] = true;
  }
  return shown;
}

std::string group_label(const IndexEntry& e, const DumpOptions& o) {
  const std::int32_t t = e.group_type();
  std::string label = describe_group_label(t, e.id);
  if (group_label_is_form_id(t) && o.form_id_names) {
    if (auto id = o.form_id_names->editor_id(e.id)) label += " " + o.codec->to_utf8(*id);
  }
  return label;
}

// How a field's value is shown.
struct FieldValue {
  enum Kind { Text, LString, Hex } kind;
  std::string text;  // UTF-8, for Text and found LStrings
  std::uint32_t string_id = 0;
  bool found = false;
};

FieldValue field_value(const PluginFile& file, Signature record_type, const SubrecordView& f, const DumpOptions& o) {
  const bool localized = file.game() != Game::Oblivion && file.header().is_localized();
  if (localized && f.data.size() == 4) {
    if (auto kind = lstring_kind(record_type.str(), f.type.str())) {
      FieldValue v{FieldValue::LString, {}, le::u32(f.data.data()), false};
      if (o.strings) {
        if (auto s = o.strings->lookup(v.string_id, *kind)) {
          v.text = o.codec->to_utf8(*s);
          v.found = true;
        }
      }
      return v;
    }
  }
  if (looks_like_zstring(f.data)) {
    std::string_view raw(reinterpret_cast<const char*>(f.data.data()), f.data.size() - 1);
    return FieldValue{FieldValue::Text, o.codec->to_utf8(raw)};
  }
  return FieldValue{FieldValue::Hex, {}};
}

class Dumper {
 public:
  Dumper(const PluginFile& file, const DumpOptions& o) : file_(file), o_(o), shown_(select(file, o)) {}

  template <class OnGroupOpen, class OnGroupClose, class OnRecord>
  void walk(OnGroupOpen open, OnGroupClose close, OnRecord record) {
    const auto entries = file_.entries();
    std::vector<std::uint32_t> stack;
    for (std::uint32_t i = 0; i < entries.size(); ++i) {
      while (!stack.empty() && entries[stack.back()].end <= i) {
        close(stack.back(), stack.size() - 1);
        stack.pop_back();
      }
      const IndexEntry& e = entries[i];
      if (!shown_[i]) {
        if (e.is_group()) i = e.end - 1;  // skip its contents
        continue;
      }
      if (e.is_group()) {
        open(i, stack.size());
        stack.push_back(i);
      } else {
        record(i, stack.size());
        ++records_shown_;
      }
    }
    while (!stack.empty()) {
      close(stack.back(), stack.size() - 1);
      stack.pop_back();
    }
  }

  std::size_t records_shown() const { return records_shown_; }

  // The record's fields, read from the (inflated) body.
  std::vector<SubrecordView> fields(const IndexEntry& e) {
    const ErrorContext ctx = file_.context(e);
    std::span<const std::uint8_t> body = file_.body(e, inflater_);
    return read_subrecords(body, ctx, e.is_compressed() ? Error::kNoOffset : e.offset + file_.header_size());
  }

  const PluginFile& file_;
  const DumpOptions& o_;
  std::vector<bool> shown_;
  std::size_t records_shown_ = 0;  // by walk()
  Inflater inflater_;
};

std::string indent(std::size_t depth) { return std::string(depth * 2, ' '); }

}  // namespace

std::size_t dump_text(const PluginFile& file, const DumpOptions& o, std::ostream& out) {
  Dumper d(file, o);
  const auto entries = file.entries();
  d.walk(
      [&](std::uint32_t i, std::size_t depth) {
        const IndexEntry& e = entries[i];
        out << fmt::format("{}GRUP {} {} @0x{:X} size {}\n", indent(depth), group_type_name(e.group_type()),
                           group_label(e, o), e.offset, e.size);
      },
      [&](std::uint32_t, std::size_t) {},
      [&](std::uint32_t i, std::size_t depth) {
        const IndexEntry& e = entries[i];
        const RecordHeader h = file.record_header(e);
        std::string line = fmt::format("{}{} [{:08X}] @0x{:X} size {}", indent(depth), e.type.str(), e.id, e.offset, e.size);
        if (h.flags) {
          line += fmt::format(" flags 0x{:08X} ({})", h.flags,
                              fmt::join(record_flags::names(e.type, h.flags, file.game()), ", "));
        }
        line += fmt::format(" vc 0x{:08X}", h.version_control);
        if (file.game() != Game::Oblivion) line += fmt::format(" form-version {} vc2 0x{:04X}", h.form_version, h.version_control_2);
        out << line << '\n';
        const auto fields = d.fields(e);
        const std::string pad = indent(depth + 1);
        for (const SubrecordView& f : fields) {
          const FieldValue v = field_value(file, e.type, f, o);
          std::string head = fmt::format("{}{}{}", pad, f.type.str(), f.oversize ? " (XXXX)" : "");
          switch (v.kind) {
            case FieldValue::Text: out << head << ' ' << quote(v.text) << '\n'; break;
            case FieldValue::LString:
              out << head << fmt::format(" lstring 0x{:08X}", v.string_id)
                  << (v.found ? " " + quote(v.text) : std::string(" (not in the string tables)")) << '\n';
              break;
            case FieldValue::Hex: {
              out << head << " (" << counted(f.data.size(), "byte") << ")";
              constexpr std::size_t kPerLine = 32;
              if (f.data.size() <= kPerLine) {
                if (!f.data.empty()) out << ' ' << hex_bytes(f.data);
                out << '\n';
              } else {
                out << '\n';
                for (std::size_t k = 0; k < f.data.size(); k += kPerLine)
                  out << pad << "  " << hex_bytes(f.data.subspan(k, std::min(kPerLine, f.data.size() - k))) << '\n';
              }
              break;
            }
          }
        }
      });
  return d.records_shown();
}

std::size_t dump_json(const PluginFile& file, const DumpOptions& o, std::ostream& out) {
  // Streamed: one JSON object per record, groups as objects with an "items" array, so that
  // memory stays flat however large the plugin.
  Dumper d(file, o);
  const auto entries = file.entries();
  std::vector<bool> first_in_level{true};
  auto separator = [&] {
    if (!first_in_level.back()) out << ',';
    first_in_level.back() = false;
  };
  out << "{\"file\":" << nlohmann::json(file.name()).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << ",\"game\":\"" << game_id(file.game()) << "\",\"items\":[";
  d.walk(
      [&](std::uint32_t i, std::size_t) {
        const IndexEntry& e = entries[i];
        separator();
        nlohmann::ordered_json g;
        g["kind"] = "group";
        g["group_type"] = group_type_name(e.group_type());
        g["group_type_value"] = e.group_type();
        g["label"] = group_label(e, o);
        g["label_value"] = e.id;
        g["offset"] = e.offset;
        g["size"] = e.size;
        std::string s = g.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        s.pop_back();  // keep the object open for its items
        out << s << ",\"items\":[";
        first_in_level.push_back(true);
      },
      [&](std::uint32_t, std::size_t) {
        out << "]}";
        first_in_level.pop_back();
      },
      [&](std::uint32_t i, std::size_t) {
        const IndexEntry& e = entries[i];
        const RecordHeader h = file.record_header(e);
        separator();
        nlohmann::ordered_json r;
        r["kind"] = "record";
        r["type"] = e.type.str();
        r["form_id"] = fmt::format("{:08X}", e.id);
        r["offset"] = e.offset;
        r["size"] = e.size;
        r["flags"] = h.flags;
        r["flag_names"] = record_flags::names(e.type, h.flags, file.game());
        r["version_control"] = h.version_control;
        if (file.game() != Game::Oblivion) {
          r["form_version"] = h.form_version;
          r["version_control_2"] = h.version_control_2;
        }
        auto fields = nlohmann::ordered_json::array();
        for (const SubrecordView& f : d.fields(e)) {
          nlohmann::ordered_json j;
          j["type"] = f.type.str();
          j["size"] = f.data.size();
          if (f.oversize) j["oversize"] = true;
          const FieldValue v = field_value(file, e.type, f, o);
          switch (v.kind) {
            case FieldValue::Text: j["text"] = v.text; break;
            case FieldValue::LString:
              j["string_id"] = v.string_id;
              j["text"] = v.found ? nlohmann::ordered_json(v.text) : nlohmann::ordered_json(nullptr);
              break;
            case FieldValue::Hex: j["hex"] = hex_bytes(f.data, ""); break;
          }
          fields.push_back(std::move(j));
        }
        r["fields"] = std::move(fields);
        out << r.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      });
  out << "]}\n";
  return d.records_shown();
}

}  // namespace tesmod::text

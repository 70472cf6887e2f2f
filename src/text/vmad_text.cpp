#include "tesmod/text/vmad_text.hpp"

#include <fmt/format.h>

#include <cmath>

#include "tesmod/text/hex.hpp"

namespace tesmod::text {
namespace {

using namespace tesmod::fields;

// Shortest text that reads back as the same float.
std::string float_text(float f) {
  if (std::isnan(f)) return "nan";
  if (std::isinf(f)) return f > 0 ? "inf" : "-inf";
  return fmt::format("{}", f);
}

nlohmann::ordered_json float_json(float f) {
  if (!std::isfinite(f)) return float_text(f);
  // Through the float's shortest text, so that 0.1f is written 0.1 and not as the double it widens to.
  return std::stod(float_text(f));
}

std::string_view flag_name(Signature record_type, std::uint8_t flag) {
  if (flag == kBeginFragment) return "begin";
  if (flag == kEndFragment) return "end";
  if (flag == kChangeFragment && record_type == Signature("PACK")) return "change";
  return {};
}

std::string script_status_text(std::uint8_t status) {
  switch (status) {
    case Script::kLocal: return {};
    case Script::kInheritedAltered: return " (inherited, properties altered)";
    case Script::kInheritedRemoved: return " (inherited, removed)";
    default: return fmt::format(" (status {})", status);
  }
}

std::string property_status_text(std::uint8_t status) {
  switch (status) {
    case Property::kEdited: return {};
    case Property::kRemoved: return " (removed)";
    default: return fmt::format(" (status {})", status);
  }
}

class TextWriter {
 public:
  explicit TextWriter(const VmadTextOptions& o) : o_(o) {}

  std::string write(const Vmad& v) {
    line(0, fmt::format("version {}, object format {}", v.version, v.object_format));
    scripts(v.scripts, 0);
    if (v.fragments) std::visit([&](const auto& s) { section(s, v); }, *v.fragments);
    return std::move(out_);
  }

 private:
  void line(int depth, const std::string& text) {
    out_ += o_.indent;
    out_.append(static_cast<std::size_t>(depth) * 2, ' ');
    out_ += text;
    out_ += '\n';
  }

  std::string utf8(const std::string& s) const { return o_.codec->to_utf8(s); }
  // Names may be EditorIDs or file names, in the plugin's code page.
  std::string form(std::uint32_t form_id) const { return utf8(o_.namer->name(form_id)); }

  std::string object(const VmadObject& obj) const {
    std::string text = obj.form_id == 0 && obj.alias == -1 ? "None" : form(obj.form_id);
    if (obj.alias != -1) text = fmt::format("alias {} of {}", obj.alias, text);
    if (obj.unused != 0) text += fmt::format(" (unused 0x{:04X})", obj.unused);
    return text;
  }

  template <class T, class One>
  std::string list(const std::vector<T>& items, One one) const {
    std::string text = "[";
    for (std::size_t i = 0; i < items.size(); ++i) text += (i ? ", " : "") + one(items[i]);
    return text + "]";
  }

  std::string value(const PropertyValue& value) const {
    struct Render {
      const TextWriter& w;
      std::string operator()(const VmadObject& o) const { return w.object(o); }
      std::string operator()(const std::string& s) const { return quote(w.utf8(s)); }
      std::string operator()(std::int32_t i) const { return std::to_string(i); }
      std::string operator()(float f) const { return float_text(f); }
      std::string operator()(bool b) const { return b ? "true" : "false"; }
      std::string operator()(const std::vector<VmadObject>& a) const { return w.list(a, [&](const VmadObject& o) { return w.object(o); }); }
      std::string operator()(const std::vector<std::string>& a) const { return w.list(a, [&](const std::string& s) { return quote(w.utf8(s)); }); }
      std::string operator()(const std::vector<std::int32_t>& a) const { return w.list(a, [](std::int32_t i) { return std::to_string(i); }); }
      std::string operator()(const std::vector<float>& a) const { return w.list(a, [](float f) { return float_text(f); }); }
      std::string operator()(const std::vector<bool>& a) const { return w.list(a, [](bool b) { return std::string(b ? "true" : "false"); }); }
    };
    return std::visit(Render{*this}, value);
  }

  void scripts(const std::vector<Script>& scripts, int depth) {
    for (const Script& s : scripts) {
      line(depth, fmt::format("script {}{}", utf8(s.name), script_status_text(s.status)));
      for (const Property& p : s.properties) {
        line(depth + 1, fmt::format("{} {} = {}{}", to_string(p.type()), utf8(p.name), value(p.value),
                                    property_status_text(p.status)));
      }
    }
  }

  std::string fragment(const Fragment& f) const {
    std::string text = utf8(f.script_name) + "." + utf8(f.function_name);
    if (f.unknown != 1) text += fmt::format(" (unknown {})", f.unknown);
    return text;
  }

  void header(Signature type, std::uint8_t unknown, const std::string& file_name) {
    line(0, fmt::format("{} fragments in {}{}", type.str(), file_name.empty() ? "\"\"" : utf8(file_name),
                        unknown != 2 ? fmt::format(" (unknown {})", unknown) : std::string()));
  }

  void flagged(Signature type, const std::vector<FlaggedFragment>& fragments) {
    for (const FlaggedFragment& f : fragments) {
      const std::string_view name = flag_name(type, f.flag);
      line(1, fmt::format("{}: {}", name.empty() ? fmt::format("flag 0x{:02X}", f.flag) : std::string(name), fragment(f.fragment)));
    }
  }

  void section(const InfoFragments& s, const Vmad&) {
    header("INFO", s.unknown, s.file_name);
    flagged("INFO", s.fragments);
  }

  void section(const PackageFragments& s, const Vmad&) {
    header("PACK", s.unknown, s.file_name);
    flagged("PACK", s.fragments);
  }

  void section(const PerkFragments& s, const Vmad&) {
    header("PERK", s.unknown, s.file_name);
    for (const PerkFragment& f : s.fragments) {
      line(1, fmt::format("index {}{}: {}", f.index, f.unknown ? fmt::format(" (unknown {})", f.unknown) : std::string(),
                          fragment(f.fragment)));
    }
  }

  void section(const QuestFragments& s, const Vmad& v) {
    header("QUST", s.unknown, s.file_name);
    for (const QuestFragment& f : s.fragments) {
      line(1, fmt::format("stage {}, log entry {}{}: {}", f.stage, f.log_entry,
                          f.unknown ? fmt::format(" (unknown {})", f.unknown) : std::string(), fragment(f.fragment)));
    }
    for (const AliasScripts& a : s.aliases) {
      std::string text = fmt::format("alias {} of {}", a.object.alias, form(a.object.form_id));
      if (a.object.unused != 0) text += fmt::format(" (unused 0x{:04X})", a.object.unused);
      if (a.version != v.version || a.object_format != v.object_format)
        text += fmt::format(" (version {}, object format {})", a.version, a.object_format);
      line(0, text);
      scripts(a.scripts, 1);
    }
  }

  void section(const SceneFragments& s, const Vmad&) {
    header("SCEN", s.unknown, s.file_name);
    flagged("SCEN", s.fragments);
    for (const ScenePhaseFragment& p : s.phases)
      line(1, fmt::format("phase {} (unknown {}): {}", p.phase, p.unknown, fragment(p.fragment)));
  }

  const VmadTextOptions& o_;
  std::string out_;
};

class JsonWriter {
 public:
  explicit JsonWriter(const VmadTextOptions& o) : o_(o) {}

  nlohmann::ordered_json write(const Vmad& v) const {
    nlohmann::ordered_json j;
    j["version"] = v.version;
    j["object_format"] = v.object_format;
    j["scripts"] = scripts(v.scripts);
    if (v.fragments) j["fragments"] = std::visit([&](const auto& s) { return section(s); }, *v.fragments);
    return j;
  }

 private:
  using json = nlohmann::ordered_json;

  json utf8(const std::string& s) const { return o_.codec->to_utf8(s); }

  json object(const VmadObject& obj) const {
    json j;
    j["form"] = utf8(o_.namer->name(obj.form_id));
    j["alias"] = obj.alias;
    if (obj.unused != 0) j["unused"] = obj.unused;
    return j;
  }

  template <class T, class One>
  json list(const std::vector<T>& items, One one) const {
    json a = json::array();
    for (const auto& item : items) a.push_back(one(item));
    return a;
  }

  json value(const PropertyValue& value) const {
    struct Render {
      const JsonWriter& w;
      json operator()(const VmadObject& o) const { return w.object(o); }
      json operator()(const std::string& s) const { return w.utf8(s); }
      json operator()(std::int32_t i) const { return i; }
      json operator()(float f) const { return float_json(f); }
      json operator()(bool b) const { return b; }
      json operator()(const std::vector<VmadObject>& a) const { return w.list(a, [&](const VmadObject& o) { return w.object(o); }); }
      json operator()(const std::vector<std::string>& a) const { return w.list(a, [&](const std::string& s) { return w.utf8(s); }); }
      json operator()(const std::vector<std::int32_t>& a) const { return w.list(a, [](std::int32_t i) { return json(i); }); }
      json operator()(const std::vector<float>& a) const { return w.list(a, [](float f) { return float_json(f); }); }
      json operator()(const std::vector<bool>& a) const { return w.list(a, [](bool b) { return json(b); }); }
    };
    return std::visit(Render{*this}, value);
  }

  json scripts(const std::vector<Script>& scripts) const {
    json a = json::array();
    for (const Script& s : scripts) {
      json js;
      js["name"] = utf8(s.name);
      js["status"] = s.status;
      json props = json::array();
      for (const Property& p : s.properties) {
        json jp;
        jp["name"] = utf8(p.name);
        jp["type"] = to_string(p.type());
        jp["status"] = p.status;
        jp["value"] = value(p.value);
        props.push_back(std::move(jp));
      }
      js["properties"] = std::move(props);
      a.push_back(std::move(js));
    }
    return a;
  }

  json fragment(const Fragment& f) const {
    json j;
    j["unknown"] = f.unknown;
    j["script"] = utf8(f.script_name);
    j["function"] = utf8(f.function_name);
    return j;
  }

  json header(Signature type, std::uint8_t unknown, const std::string& file_name) const {
    json j;
    j["record_type"] = type.str();
    j["unknown"] = unknown;
    j["file_name"] = utf8(file_name);
    return j;
  }

  json flagged(Signature type, const std::vector<FlaggedFragment>& fragments) const {
    return list(fragments, [&](const FlaggedFragment& f) {
      json j;
      j["flag"] = f.flag;
      const std::string_view name = flag_name(type, f.flag);
      j["event"] = name.empty() ? json(nullptr) : json(std::string(name));
      j["fragment"] = fragment(f.fragment);
      return j;
    });
  }

  json section(const InfoFragments& s) const {
    json j = header("INFO", s.unknown, s.file_name);
    j["fragments"] = flagged("INFO", s.fragments);
    return j;
  }

  json section(const PackageFragments& s) const {
    json j = header("PACK", s.unknown, s.file_name);
    j["fragments"] = flagged("PACK", s.fragments);
    return j;
  }

  json section(const PerkFragments& s) const {
    json j = header("PERK", s.unknown, s.file_name);
    j["fragments"] = list(s.fragments, [&](const PerkFragment& f) {
      json jf;
      jf["index"] = f.index;
      jf["unknown"] = f.unknown;
      jf["fragment"] = fragment(f.fragment);
      return jf;
    });
    return j;
  }

  json section(const QuestFragments& s) const {
    json j = header("QUST", s.unknown, s.file_name);
    j["fragments"] = list(s.fragments, [&](const QuestFragment& f) {
      json jf;
      jf["stage"] = f.stage;
      jf["log_entry"] = f.log_entry;
      jf["unknown"] = f.unknown;
      jf["fragment"] = fragment(f.fragment);
      return jf;
    });
    j["aliases"] = list(s.aliases, [&](const AliasScripts& a) {
      json ja;
      ja["object"] = object(a.object);
      ja["version"] = a.version;
      ja["object_format"] = a.object_format;
      ja["scripts"] = scripts(a.scripts);
      return ja;
    });
    return j;
  }

  json section(const SceneFragments& s) const {
    json j = header("SCEN", s.unknown, s.file_name);
    j["fragments"] = flagged("SCEN", s.fragments);
    j["phases"] = list(s.phases, [&](const ScenePhaseFragment& p) {
      json jp;
      jp["phase"] = p.phase;
      jp["unknown"] = p.unknown;
      jp["fragment"] = fragment(p.fragment);
      return jp;
    });
    return j;
  }

  const VmadTextOptions& o_;
};

}  // namespace

std::string vmad_text(const Vmad& vmad, const VmadTextOptions& options) { return TextWriter(options).write(vmad); }

nlohmann::ordered_json vmad_json(const Vmad& vmad, const VmadTextOptions& options) { return JsonWriter(options).write(vmad); }

}  // namespace tesmod::text

#include "tesmod/text/package_text.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <type_traits>
#include <variant>

#include "tesmod/io/counted.hpp"
#include "tesmod/text/hex.hpp"

namespace tesmod::text {
namespace {

using namespace tesmod::fields;
using json = nlohmann::ordered_json;

// What both renderers need: FormIDs and strings the way the caller wants them.
class Context {
 public:
  explicit Context(const PackageTextOptions& o) : options(o), names_(o.names ? o.names : &hex_) {}

  std::string form(std::uint32_t id) const { return id == 0 ? "none" : names_->name(id); }
  json form_json(std::uint32_t id) const { return id == 0 ? json(nullptr) : json(names_->name(id)); }
  std::string str(const std::string& stored) const { return options.codec ? options.codec->to_utf8(stored) : stored; }

  const PackageTextOptions& options;

 private:
  HexFormNamer hex_;
  const FormNamer* names_;
};

// "name, name, 0x100 (0x00000123)": the named bits, then the rest.
std::string flags_text(std::uint32_t value, std::span<const FlagName> names, int digits) {
  std::string out;
  std::uint32_t rest = value;
  for (const FlagName& f : names) {
    if ((value & f.bit) == 0) continue;
    if (!out.empty()) out += ", ";
    out += f.name;
    rest &= ~f.bit;
  }
  if (rest != 0) out += fmt::format("{}0x{:X}", out.empty() ? "" : ", ", rest);
  if (out.empty()) out = "none";
  return fmt::format("{} (0x{:0{}X})", out, value, digits);
}

json flags_json(std::uint32_t value, std::span<const FlagName> names) {
  json j;
  j["value"] = value;
  json list = json::array();
  std::uint32_t rest = value;
  for (const FlagName& f : names) {
    if ((value & f.bit) == 0) continue;
    list.push_back(f.name);
    rest &= ~f.bit;
  }
  j["names"] = std::move(list);
  if (rest != 0) j["other"] = rest;
  return j;
}

template <class E>
std::string enum_text(E v) {
  if (auto n = name_of(v)) return std::string(*n);
  return fmt::format("unknown ({})", static_cast<std::underlying_type_t<E>>(v));
}

// Adds "key": number and, when the value has a name, "key_name": name.
template <class E>
void enum_json(json& j, const char* key, E v) {
  j[key] = static_cast<std::underlying_type_t<E>>(v);
  if (auto n = name_of(v)) j[std::string(key) + "_name"] = *n;
}

std::string subtype_text(std::uint32_t value) {
  std::string s;
  for (int i = 0; i < 4; ++i) {
    const char c = char(value >> (8 * i) & 0xFF);
    if (c < 0x20 || c > 0x7E) return fmt::format("0x{:08X}", value);
    s += c;
  }
  return s;
}

std::string topic_text(const Context& c, const Topic& t) {
  if (t.type == TopicType::Dialogue) return t.value == 0 ? "none" : "dialogue " + c.form(t.value);
  if (t.type == TopicType::Subtype) return "subtype " + subtype_text(t.value);
  return fmt::format("unknown type {} value 0x{:08X}", std::int32_t(t.type), t.value);
}

// Adds the topic's keys to j.
json topic_json(const Context& c, const Topic& t, json j = json::object()) {
  enum_json(j, "type", t.type);
  if (t.type == TopicType::Dialogue) j["value"] = c.form_json(t.value);
  else if (t.type == TopicType::Subtype) j["value"] = subtype_text(t.value);
  else j["value"] = t.value;
  return j;
}

std::string location_value(const Context& c, const Location& l) {
  if (holds_form_id(l.type)) return " " + c.form(l.value);
  if (value_unused(l.type) && l.value == 0) return "";
  return fmt::format(" {}", l.value);
}

std::string target_value(const Context& c, const Target& t) {
  if (holds_form_id(t.type)) return " " + c.form(t.value);
  if (value_unused(t.type) && t.value == 0) return "";
  return fmt::format(" {}", t.value);
}

std::string value_text(const Context& c, const DataValue& value) {
  return std::visit(
      [&c](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>) return "(no value)";
        else if constexpr (std::is_same_v<T, BoolValue>) {
          if (v.value <= 1) return v.value ? "true" : "false";
          return fmt::format("{} (not 0 or 1)", v.value);
        } else if constexpr (std::is_same_v<T, IntValue>) return fmt::format("{}", v.value);
        else if constexpr (std::is_same_v<T, FloatValue>) return fmt::format("{}", v.value);
        else if constexpr (std::is_same_v<T, RawValue>) return "CNAM " + hex_bytes(v.bytes);
        else if constexpr (std::is_same_v<T, Location>) {
          return fmt::format("{}{}, radius {}", enum_text(v.type), location_value(c, v), v.radius);
        } else if constexpr (std::is_same_v<T, Target>) {
          return fmt::format("{}{}, count {}", enum_text(v.type), target_value(c, v), v.count);
        } else if constexpr (std::is_same_v<T, Topic>) return topic_text(c, v);
        else return "topic " + c.form(v.dial);
      },
      value);
}

json value_json(const Context& c, const DataValue& value) {
  return std::visit(
      [&c](const auto& v) -> json {
        using T = std::decay_t<decltype(v)>;
        json j;
        if constexpr (std::is_same_v<T, std::monostate>) return json(nullptr);
        else if constexpr (std::is_same_v<T, BoolValue>) {
          j["kind"] = "bool";
          j["value"] = v.value;
        } else if constexpr (std::is_same_v<T, IntValue>) {
          j["kind"] = "int";
          j["value"] = v.value;
        } else if constexpr (std::is_same_v<T, FloatValue>) {
          j["kind"] = "float";
          j["value"] = v.value;
        } else if constexpr (std::is_same_v<T, RawValue>) {
          j["kind"] = "bytes";
          j["hex"] = hex_bytes(v.bytes);
        } else if constexpr (std::is_same_v<T, Location>) {
          j["kind"] = "location";
          enum_json(j, "type", v.type);
          if (holds_form_id(v.type)) j["value"] = c.form_json(v.value);
          else j["value"] = v.value;
          j["radius"] = v.radius;
        } else if constexpr (std::is_same_v<T, Target>) {
          j["kind"] = "target";
          enum_json(j, "type", v.type);
          if (holds_form_id(v.type)) j["value"] = c.form_json(v.value);
          else j["value"] = v.value;
          j["count"] = v.count;
        } else if constexpr (std::is_same_v<T, Topic>) {
          j["kind"] = "topic";
          j = topic_json(c, v, std::move(j));
        } else {
          j["kind"] = "topic_form";
          j["dial"] = c.form_json(v.dial);
        }
        return j;
      },
      value);
}

// A raw field as text: strings as text, anything else as hex.
std::string raw_field_text(const Context& c, const Field& f) {
  if (looks_like_zstring(f.data)) return fmt::format("{} {}", f.type.str(), quote(c.str(f.as_zstring())));
  return fmt::format("{} {}", f.type.str(), f.data.empty() ? "(empty)" : hex_bytes(f.data));
}

json raw_field_json(const Context& c, const Field& f) {
  json j;
  j["type"] = f.type.str();
  if (looks_like_zstring(f.data)) j["text"] = c.str(f.as_zstring());
  else j["hex"] = hex_bytes(f.data);
  return j;
}

// Fields the decoder does not know, with their index in the record.
json unknown_fields_json(const Context& c, const std::vector<UnknownField>& fields) {
  json list = json::array();
  for (const UnknownField& u : fields) {
    json uj = raw_field_json(c, u.field);
    uj["index"] = u.index;
    list.push_back(std::move(uj));
  }
  return list;
}

std::string condition_text(const Context& c, const PackageCondition& cond) {
  if (c.options.condition_text) return c.options.condition_text(cond.fields);
  std::string out = raw_field_text(c, cond.ctda());
  for (std::size_t i = 1; i < cond.fields.size(); ++i) out += "; " + raw_field_text(c, cond.fields[i]);
  return out;
}

json condition_json(const Context& c, const PackageCondition& cond) {
  if (c.options.condition_json) return c.options.condition_json(cond.fields);
  json list = json::array();
  for (const Field& f : cond.fields) list.push_back(raw_field_json(c, f));
  return json{{"fields", std::move(list)}};
}

std::string input_id_text(std::uint8_t id) { return id == 0xFF ? "none" : fmt::format("{}", id); }

// The name of the data input id of a public input, from the package itself (a template) or from
// its template through the caller.
std::optional<std::string> input_name(const Context& c, const Package& p, std::uint8_t id) {
  if (p.header.data.is_template() || p.header.counter.template_package == 0) {
    for (const DataInputName& n : p.input_names)
      if (n.id == id) return c.str(n.name);
    return std::nullopt;
  }
  if (!c.options.input_name) return std::nullopt;
  return c.options.input_name(p.header.counter.template_package, id);
}

class Lines {
 public:
  explicit Lines(int base) : base_(base) {}
  void add(std::size_t level, const std::string& text) {
    out_.append(2 * (std::size_t(base_) + level), ' ');
    out_ += text;
    out_ += '\n';
  }
  std::string take() { return std::move(out_); }

 private:
  int base_;
  std::string out_;
};

std::string duration_text(std::int32_t minutes) {
  if (minutes % 60 == 0) return fmt::format("{} h", minutes / 60);
  return fmt::format("{} min", minutes);
}

}  // namespace

std::string schedule_text(const Schedule& s) {
  std::vector<std::string> parts;
  if (s.month != -1) parts.push_back(fmt::format("month {}", s.month));
  if (s.day_of_week != DayOfWeek::Any) parts.push_back(enum_text(s.day_of_week));
  if (s.date != 0) parts.push_back(fmt::format("date {}", s.date));
  if (s.hour != -1) parts.push_back(fmt::format("from {:02}:{:02}", s.hour, s.minute == -1 ? 0 : s.minute));
  else if (s.minute != -1) parts.push_back(fmt::format("at minute {}", s.minute));
  if (s.duration_minutes != 0) parts.push_back("for " + duration_text(s.duration_minutes));
  if (parts.empty()) return "any time";
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string package_text(const Package& p, const PackageTextOptions& options, int indent) {
  const Context c(options);
  Lines out(indent);
  const PackageHeader& h = p.header;
  const PackageData& d = h.data;

  if (p.editor_id) out.add(0, "EditorID: " + c.str(*p.editor_id));
  if (p.vmad) out.add(0, fmt::format("VMAD: {} (scripts)", counted(p.vmad->data.size(), "byte")));
  out.add(0, "header");
  out.add(1, fmt::format("type: {}", enum_text(d.type)));
  out.add(1, "flags: " + flags_text(d.flags, package_flag_names(), 8));
  out.add(1, "interrupt override: " + enum_text(d.interrupt_override));
  out.add(1, "preferred speed: " + enum_text(d.preferred_speed) +
                 (d.has(PackageFlag::PreferredSpeed) ? "" : " (not used: the preferred speed flag is clear)"));
  out.add(1, "interrupt flags: " + flags_text(d.interrupt_flags, interrupt_flag_names(), 4));
  out.add(1, fmt::format("PKDT byte 7: 0x{:02X}, bytes 10-11: 0x{:04X}", d.unused, d.unknown));
  out.add(1, fmt::format("schedule: {} (PSDT unused bytes {})", schedule_text(h.schedule), hex_bytes(h.schedule.unused)));
  if (!h.conditions.empty()) {
    out.add(1, fmt::format("conditions ({})", h.conditions.size()));
    for (const PackageCondition& cond : h.conditions) out.add(2, condition_text(c, cond));
  }
  if (h.idles) {
    const IdleAnimations& a = *h.idles;
    std::string line = "idles: ";
    line += a.flags ? flags_text(*a.flags, idle_flag_names(), 2) : std::string("no IDLF");
    line += fmt::format(", timer {}", a.timer);
    if (!a.count_padding.empty()) line += ", IDLC padding " + hex_bytes(a.count_padding);
    out.add(1, line);
    for (std::uint32_t id : a.idles) out.add(2, c.form(id));
  }
  if (h.combat_style) out.add(1, "combat style: " + c.form(*h.combat_style));
  if (h.owner_quest) out.add(1, "owner quest: " + c.form(*h.owner_quest));
  out.add(1, fmt::format("PKCU: {}, template {}, version {}", counted(h.counter.data_input_count, "data input"),
                         c.form(h.counter.template_package), h.counter.version));

  const PublicData& pub = p.public_data;
  out.add(0, fmt::format("public data ({})", counted(pub.inputs.size(), "input")));
  for (std::size_t i = 0; i < pub.inputs.size(); ++i) {
    const DataInput& in = pub.inputs[i];
    std::string id = "?";
    if (i < pub.input_ids.size()) {
      id = input_id_text(pub.input_ids[i]);
      if (auto name = input_name(c, p, pub.input_ids[i])) id += " " + quote(*name);
    }
    out.add(1, fmt::format("[{}] {}: {}", id, c.str(in.type), value_text(c, in.value)));
  }
  for (std::size_t i = pub.inputs.size(); i < pub.input_ids.size(); ++i) {
    out.add(1, fmt::format("[{}] (UNAM without an ANAM input)", input_id_text(pub.input_ids[i])));
  }
  out.add(1, fmt::format("XNAM: {}", pub.xnam));

  if (!p.procedure_tree.empty()) {
    out.add(0, "procedure tree");
    const std::vector<std::size_t> depths = branch_depths(p.procedure_tree);
    for (std::size_t i = 0; i < p.procedure_tree.size(); ++i) {
      const Branch& b = p.procedure_tree[i];
      const std::size_t level = 1 + depths[i];
      std::string line = c.str(b.type);
      if (b.procedure) line += " " + c.str(*b.procedure);
      if (b.root) line += fmt::format(", {}, flags 0x{:X}", counted(b.root->child_count, "branch", "branches"), b.root->flags);
      if (b.flags) line += ", flags: " + flags_text(*b.flags, branch_flag_names(), 8);
      if (!b.input_ids.empty()) {
        std::vector<std::string> ids;
        for (std::uint8_t id : b.input_ids) ids.push_back(input_id_text(id));
        line += fmt::format(", inputs {}", fmt::join(ids, " "));
      }
      out.add(level, line);
      for (const PackageCondition& cond : b.conditions) out.add(level + 1, "if " + condition_text(c, cond));
      for (const auto& x : b.pfo2) out.add(level + 1, "PFO2 " + hex_bytes(x));
      for (const auto& x : b.pfor) out.add(level + 1, "PFOR " + hex_bytes(x));
    }
  }
  if (!p.input_names.empty()) {
    out.add(0, "data input names");
    for (const DataInputName& n : p.input_names) {
      out.add(1, fmt::format("[{}] {} (flags {})", input_id_text(n.id), quote(c.str(n.name)), n.flags));
    }
  }
  for (int k = 0; k < 3; ++k) {
    const auto kind = PackageEventKind(k);
    const auto& e = p.event(kind);
    if (!e) continue;
    std::string line = fmt::format("{}: idle {}", name_of(kind), e->idle ? c.form(*e->idle) : "(no INAM)");
    line += ", topic " + (e->topic ? topic_text(c, *e->topic) : std::string("(no PDTO)"));
    if (e->tnam) line += fmt::format(", TNAM {}", *e->tnam);
    out.add(0, line);
    for (const Field& f : e->old_script) out.add(1, raw_field_text(c, f));
  }
  if (!p.unknown_fields.empty()) {
    out.add(0, "unknown fields");
    for (const UnknownField& u : p.unknown_fields) out.add(1, fmt::format("field {}: {}", u.index, raw_field_text(c, u.field)));
  }
  return out.take();
}

json package_json(const Package& p, const PackageTextOptions& options) {
  const Context c(options);
  json j;
  const PackageHeader& h = p.header;
  const PackageData& d = h.data;

  j["editor_id"] = p.editor_id ? json(c.str(*p.editor_id)) : json(nullptr);
  if (p.vmad) j["vmad"] = {{"bytes", p.vmad->data.size()}, {"hex", hex_bytes(p.vmad->data)}};

  json hj;
  enum_json(hj, "type", d.type);
  hj["template"] = d.is_template();
  hj["flags"] = flags_json(d.flags, package_flag_names());
  enum_json(hj, "interrupt_override", d.interrupt_override);
  enum_json(hj, "preferred_speed", d.preferred_speed);
  hj["interrupt_flags"] = flags_json(d.interrupt_flags, interrupt_flag_names());
  hj["pkdt_byte_7"] = d.unused;
  hj["pkdt_bytes_10_11"] = d.unknown;
  const Schedule& s = h.schedule;
  json sj;
  sj["month"] = s.month;
  enum_json(sj, "day_of_week", s.day_of_week);
  sj["date"] = s.date;
  sj["hour"] = s.hour;
  sj["minute"] = s.minute;
  sj["duration_minutes"] = s.duration_minutes;
  sj["unused"] = hex_bytes(s.unused);
  sj["text"] = schedule_text(s);
  hj["schedule"] = std::move(sj);
  json conds = json::array();
  for (const PackageCondition& cond : h.conditions) conds.push_back(condition_json(c, cond));
  hj["conditions"] = std::move(conds);
  if (h.idles) {
    const IdleAnimations& a = *h.idles;
    json ij;
    ij["flags"] = a.flags ? flags_json(*a.flags, idle_flag_names()) : json(nullptr);
    ij["timer"] = a.timer;
    json ids = json::array();
    for (std::uint32_t id : a.idles) ids.push_back(c.form_json(id));
    ij["idles"] = std::move(ids);
    if (!a.count_padding.empty()) ij["count_padding"] = hex_bytes(a.count_padding);
    hj["idles"] = std::move(ij);
  }
  if (h.combat_style) hj["combat_style"] = c.form_json(*h.combat_style);
  if (h.owner_quest) hj["owner_quest"] = c.form_json(*h.owner_quest);
  hj["counter"] = {{"data_input_count", h.counter.data_input_count},
                   {"template_package", c.form_json(h.counter.template_package)},
                   {"version", h.counter.version}};
  j["header"] = std::move(hj);

  const PublicData& pub = p.public_data;
  json inputs = json::array();
  for (std::size_t i = 0; i < pub.inputs.size(); ++i) {
    json ij;
    ij["id"] = i < pub.input_ids.size() ? json(pub.input_ids[i]) : json(nullptr);
    std::optional<std::string> name;
    if (i < pub.input_ids.size()) name = input_name(c, p, pub.input_ids[i]);
    ij["name"] = name ? json(*name) : json(nullptr);
    ij["type"] = c.str(pub.inputs[i].type);
    ij["value"] = value_json(c, pub.inputs[i].value);
    inputs.push_back(std::move(ij));
  }
  json pj;
  pj["inputs"] = std::move(inputs);
  pj["input_ids"] = pub.input_ids;
  pj["xnam"] = pub.xnam;
  j["public_data"] = std::move(pj);

  json tree = json::array();
  const std::vector<std::size_t> depths = branch_depths(p.procedure_tree);
  for (std::size_t i = 0; i < p.procedure_tree.size(); ++i) {
    const Branch& b = p.procedure_tree[i];
    json bj;
    bj["depth"] = depths[i];
    bj["type"] = c.str(b.type);
    json bc = json::array();
    for (const PackageCondition& cond : b.conditions) bc.push_back(condition_json(c, cond));
    bj["conditions"] = std::move(bc);
    if (b.root) bj["root"] = {{"branch_count", b.root->child_count}, {"flags", b.root->flags}};
    if (b.procedure) bj["procedure"] = c.str(*b.procedure);
    if (b.flags) bj["flags"] = flags_json(*b.flags, branch_flag_names());
    bj["input_ids"] = b.input_ids;
    if (!b.pfo2.empty()) {
      json list = json::array();
      for (const auto& x : b.pfo2) list.push_back(hex_bytes(x));
      bj["pfo2"] = std::move(list);
    }
    if (!b.pfor.empty()) {
      json list = json::array();
      for (const auto& x : b.pfor) list.push_back(hex_bytes(x));
      bj["pfor"] = std::move(list);
    }
    tree.push_back(std::move(bj));
  }
  j["procedure_tree"] = std::move(tree);

  json names = json::array();
  for (const DataInputName& n : p.input_names) names.push_back({{"id", n.id}, {"name", c.str(n.name)}, {"flags", n.flags}});
  j["input_names"] = std::move(names);

  json events;
  for (int k = 0; k < 3; ++k) {
    const auto kind = PackageEventKind(k);
    const auto& e = p.event(kind);
    std::string key(name_of(kind));
    key[2] = '_';  // "on begin" -> "on_begin"
    if (!e) {
      events[key] = nullptr;
      continue;
    }
    json ej;
    ej["idle"] = e->idle ? c.form_json(*e->idle) : json(nullptr);
    ej["topic"] = e->topic ? topic_json(c, *e->topic) : json(nullptr);
    if (e->tnam) ej["tnam"] = *e->tnam;
    if (!e->old_script.empty()) {
      json list = json::array();
      for (const Field& f : e->old_script) list.push_back(raw_field_json(c, f));
      ej["old_script"] = std::move(list);
    }
    events[key] = std::move(ej);
  }
  j["events"] = std::move(events);

  if (!p.unknown_fields.empty()) j["unknown_fields"] = unknown_fields_json(c, p.unknown_fields);
  return j;
}

// ---- Oblivion

std::string schedule_text(const OblivionSchedule& s) {
  std::vector<std::string> parts;
  if (s.month != -1) parts.push_back(fmt::format("month {}", s.month));
  if (s.day_of_week != DayOfWeek::Any) parts.push_back(enum_text(s.day_of_week));
  if (s.date != 0) parts.push_back(fmt::format("date {}", s.date));
  if (s.hour != -1) parts.push_back(fmt::format("from {:02}:00", s.hour));
  if (s.duration != 0) parts.push_back(fmt::format("for {} h", s.duration));
  if (parts.empty()) return "any time";
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string oblivion_package_text(const OblivionPackage& p, const PackageTextOptions& options, int indent) {
  const Context c(options);
  Lines out(indent);
  const OblivionPackageData& d = p.data;
  if (p.editor_id) out.add(0, "EditorID: " + c.str(*p.editor_id));
  out.add(0, "type: " + enum_text(d.type));
  out.add(0, "flags: " + flags_text(d.flags, oblivion_package_flag_names(), d.short_form ? 4 : 8));
  if (d.short_form) out.add(0, fmt::format("PKDT (4-byte form) unused byte: {:02X}", d.unused[0]));
  else out.add(0, "PKDT unused bytes: " + hex_bytes(d.unused));
  if (p.location) {
    const OblivionLocation& l = *p.location;
    std::string value = holds_form_id(l.type) ? " " + c.form(l.value) : (l.value ? fmt::format(" {}", l.value) : "");
    out.add(0, fmt::format("location: {}{}, radius {}", enum_text(l.type), value, l.radius));
  }
  out.add(0, "schedule: " + schedule_text(p.schedule));
  if (p.target) {
    const OblivionTarget& t = *p.target;
    std::string value = holds_form_id(t.type) ? " " + c.form(t.value) : fmt::format(" {}", t.value);
    out.add(0, fmt::format("target: {}{}, count {}", enum_text(t.type), value, t.count));
  }
  if (!p.conditions.empty()) {
    out.add(0, fmt::format("conditions ({})", p.conditions.size()));
    for (const PackageCondition& cond : p.conditions) out.add(1, condition_text(c, cond));
  }
  if (!p.unknown_fields.empty()) {
    out.add(0, "unknown fields");
    for (const UnknownField& u : p.unknown_fields) out.add(1, fmt::format("field {}: {}", u.index, raw_field_text(c, u.field)));
  }
  return out.take();
}

json oblivion_package_json(const OblivionPackage& p, const PackageTextOptions& options) {
  const Context c(options);
  json j;
  const OblivionPackageData& d = p.data;
  j["editor_id"] = p.editor_id ? json(c.str(*p.editor_id)) : json(nullptr);
  enum_json(j, "type", d.type);
  j["flags"] = flags_json(d.flags, oblivion_package_flag_names());
  j["pkdt_short_form"] = d.short_form;
  j["pkdt_unused"] = d.short_form ? hex_bytes(std::span(d.unused).first(1)) : hex_bytes(d.unused);
  if (p.location) {
    json l;
    enum_json(l, "type", p.location->type);
    l["value"] = holds_form_id(p.location->type) ? c.form_json(p.location->value) : json(p.location->value);
    l["radius"] = p.location->radius;
    j["location"] = std::move(l);
  } else {
    j["location"] = nullptr;
  }
  json s;
  s["month"] = p.schedule.month;
  enum_json(s, "day_of_week", p.schedule.day_of_week);
  s["date"] = p.schedule.date;
  s["hour"] = p.schedule.hour;
  s["duration_hours"] = p.schedule.duration;
  s["text"] = schedule_text(p.schedule);
  j["schedule"] = std::move(s);
  if (p.target) {
    json t;
    enum_json(t, "type", p.target->type);
    t["value"] = holds_form_id(p.target->type) ? c.form_json(p.target->value) : json(p.target->value);
    t["count"] = p.target->count;
    j["target"] = std::move(t);
  } else {
    j["target"] = nullptr;
  }
  json conds = json::array();
  for (const PackageCondition& cond : p.conditions) conds.push_back(condition_json(c, cond));
  j["conditions"] = std::move(conds);
  if (!p.unknown_fields.empty()) j["unknown_fields"] = unknown_fields_json(c, p.unknown_fields);
  return j;
}

}  // namespace tesmod::text

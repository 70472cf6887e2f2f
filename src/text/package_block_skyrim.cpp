// The Skyrim package block (text/package_block.hpp): fields::Package to lines and back.
#include <fmt/format.h>

#include <bit>
#include <type_traits>
#include <variant>

#include "package_block_syntax.hpp"
#include "tesmod/text/package_block.hpp"

namespace tesmod::text {
namespace {

using namespace tesmod::fields;
using namespace package_block;

// CNAM values written as plain literals, by the ANAM type that makes the decoder read them so.
bool literal_fits(const std::string& type, const DataValue& value) {
  if (std::holds_alternative<BoolValue>(value)) return type == "Bool";
  if (std::holds_alternative<IntValue>(value)) return type == "Int";
  if (std::holds_alternative<FloatValue>(value)) return type == "Float" || type == "ObjectList";
  return false;
}

// The CNAM bytes of a literal value, for one whose ANAM type would not read it back as such.
std::vector<std::uint8_t> cnam_bytes(const DataValue& value) {
  if (const auto* b = std::get_if<BoolValue>(&value)) return {b->value};
  std::uint32_t bits = 0;
  if (const auto* i = std::get_if<IntValue>(&value)) bits = std::uint32_t(i->value);
  else bits = std::bit_cast<std::uint32_t>(std::get<FloatValue>(value).value);
  return {std::uint8_t(bits), std::uint8_t(bits >> 8), std::uint8_t(bits >> 16), std::uint8_t(bits >> 24)};
}

class Writer {
 public:
  explicit Writer(const BlockTextOptions& o) : namer_(*o.namer), codec_(*o.codec), game_(o.game) {}

  std::string run(const Package& p) {
    if (p.editor_id) add("editor-id " + quoted(*p.editor_id, codec_));
    if (p.vmad) add("vmad " + field_data_text(*p.vmad));
    header(p.header, p.public_data.inputs.size());
    const PublicData& d = p.public_data;
    for (std::size_t k = 0; k < d.inputs.size(); ++k) {
      const std::string id = k < d.input_ids.size() ? std::to_string(d.input_ids[k]) : "-";
      const std::string line = fmt::format("input {} {}", id, name_text(d.inputs[k].type, codec_));
      const std::string value = value_text(d.inputs[k]);
      add(value.empty() ? line : line + " " + value);
    }
    for (std::size_t k = d.inputs.size(); k < d.input_ids.size(); ++k) add(fmt::format("input-id {}", d.input_ids[k]));
    add(fmt::format("xnam {}", d.xnam));
    const std::vector<std::size_t> depths = branch_depths(p.procedure_tree);
    for (std::size_t k = 0; k < p.procedure_tree.size(); ++k) branch(p.procedure_tree[k], depths[k]);
    for (const DataInputName& n : p.input_names)
      add(fmt::format("input-name {} {} flags={}", n.id, quoted(n.name, codec_), n.flags));
    static constexpr const char* kEvents[] = {"on-begin", "on-end", "on-change"};
    for (int k = 0; k < 3; ++k)
      if (const auto& e = p.event(PackageEventKind(k))) add(kEvents[k] + event_text(*e));
    for (const UnknownField& u : p.unknown_fields) add(fmt::format("unknown {} {}", u.index, field_text(u.field)));
    return lines_.take();
  }

 private:
  void add(const std::string& line, std::size_t level = 0) { lines_.add(level, line); }
  std::string form(std::uint32_t id) const { return namer_.name(id); }

  void header(const PackageHeader& h, std::size_t input_count) {
    const PackageData& d = h.data;
    add("type " + enum_word(d.type));
    add("flags " + flags_text(d.flags, package_flag_names()));
    add("interrupt-override " + enum_word(d.interrupt_override));
    add("preferred-speed " + enum_word(d.preferred_speed));
    add("interrupt-flags " + flags_text(d.interrupt_flags, interrupt_flag_names()));
    if (d.unused != 0 || d.unknown != 0) {
      std::string line = "pkdt";
      if (d.unused != 0) line += fmt::format(" unused={:02X}", d.unused);
      if (d.unknown != 0) line += fmt::format(" unknown={}", d.unknown);
      add(line);
    }
    const Schedule& s = h.schedule;
    add("schedule " + schedule_text({s.month, s.day_of_week, s.date, s.hour, s.minute, s.duration_minutes, s.unused}, false));
    for (const PackageCondition& c : h.conditions) add(condition_line(c, game_, namer_));
    if (h.idles) {
      std::string line = "idles";
      if (h.idles->flags) line += " flags=" + flags_text(*h.idles->flags, idle_flag_names());
      line += " timer=" + format_float(h.idles->timer);
      if (!h.idles->count_padding.empty()) line += " padding=" + hex_text(h.idles->count_padding);
      for (std::uint32_t idle : h.idles->idles) line += " " + form(idle);
      add(line);
    }
    if (h.combat_style) add("combat-style " + form(*h.combat_style));
    if (h.owner_quest) add("owner-quest " + form(*h.owner_quest));
    std::string pkcu = "pkcu";
    if (h.counter.template_package != 0) pkcu += " template=" + form(h.counter.template_package);
    pkcu += fmt::format(" version={}", h.counter.version);
    // The input count is left out when it counts the inputs, as in every corpus record, so that
    // adding or removing an input line keeps it right.
    if (h.counter.data_input_count != input_count) pkcu += fmt::format(" inputs={}", h.counter.data_input_count);
    add(pkcu);
  }

  std::string topic_text(const Topic& t) const {
    std::string out = "topic " + enum_word(t.type);
    if (t.type == TopicType::Dialogue) return out + " " + form(t.value);
    if (t.type == TopicType::Subtype) {
      const char chars[4] = {char(t.value), char(t.value >> 8), char(t.value >> 16), char(t.value >> 24)};
      return out + " " + quoted(std::string_view(chars, 4), codec_);
    }
    return out + fmt::format(" {}", t.value);
  }

  std::string value_text(const DataInput& in) const {
    if (literal_fits(in.type, in.value)) {
      if (const auto* b = std::get_if<BoolValue>(&in.value)) return b->value > 1 ? std::to_string(b->value) : b->value ? "true" : "false";
      if (const auto* i = std::get_if<IntValue>(&in.value)) return std::to_string(i->value);
      return format_float(std::get<FloatValue>(in.value).value);
    }
    return std::visit(
        [&](const auto& v) -> std::string {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, std::monostate>) return "";
          else if constexpr (std::is_same_v<T, RawValue>) return "cnam " + hex_text(v.bytes);
          else if constexpr (std::is_same_v<T, Location>) return "location " + place_text(v.type, v.value, "radius", v.radius, namer_);
          else if constexpr (std::is_same_v<T, Target>) return "target " + place_text(v.type, v.value, "count", v.count, namer_);
          else if constexpr (std::is_same_v<T, Topic>) return topic_text(v);
          else if constexpr (std::is_same_v<T, TopicForm>) return "topic-form " + form(v.dial);
          else return "cnam " + hex_text(cnam_bytes(in.value));  // a literal its ANAM type would not read
        },
        in.value);
  }

  void branch(const Branch& b, std::size_t level) {
    std::string line = "branch " + name_text(b.type, codec_);
    if (b.procedure) line += " " + name_text(*b.procedure, codec_);
    if (b.root) {
      line += fmt::format(" children={}", b.root->child_count);
      if (b.root->flags != 0) line += fmt::format(" root-flags=0x{:X}", b.root->flags);
    }
    if (b.flags) line += " flags=" + flags_text(*b.flags, branch_flag_names());
    if (!b.input_ids.empty()) {
      line += " inputs=";
      for (std::size_t k = 0; k < b.input_ids.size(); ++k)
        line += (k ? "," : "") + (b.input_ids[k] == 0xFF ? std::string("none") : std::to_string(b.input_ids[k]));
    }
    add(line, level);
    for (const PackageCondition& c : b.conditions) add(condition_line(c, game_, namer_), level + 1);
    for (const auto& x : b.pfo2) add("pfo2 " + hex_text(x), level + 1);
    for (const auto& x : b.pfor) add("pfor " + hex_text(x), level + 1);
  }

  std::string event_text(const PackageEvent& e) const {
    std::string out;
    if (e.idle) out += " idle " + form(*e.idle);
    for (const Field& f : e.old_script) out += " script " + field_text(f);
    if (e.tnam) out += fmt::format(" tnam {}", *e.tnam);
    if (e.topic) out += " " + topic_text(*e.topic);
    return out;
  }

  const FormNamer& namer_;
  const TextCodec& codec_;
  Game game_;
  Lines lines_;
};

// The sections of the block in record order; a line may not go back to an earlier one.
enum class Section { Header, Tree, Names, Events };

constexpr std::string_view kKeywords =
    "type, flags, interrupt-override, preferred-speed, interrupt-flags, pkdt, schedule, condition, raw-condition, "
    "idles, combat-style, owner-quest, pkcu, input, input-id, xnam, branch, pfo2, pfor, input-name, on-begin, on-end, "
    "on-change, unknown, editor-id or vmad";

class Parser {
 public:
  explicit Parser(const BlockTextOptions& o) : namer_(*o.namer), codec_(*o.codec), game_(o.game) {}

  Package run(std::string_view text) {
    for_each_line(text, [this](LineScanner& s, std::string_view keyword, std::size_t at) {
      line(s, keyword, at);
      s.expect_end();
    });
    p_.header.counter.data_input_count = input_count_.value_or(std::uint32_t(p_.public_data.inputs.size()));
    return std::move(p_);
  }

 private:
  void line(LineScanner& s, std::string_view keyword, std::size_t at) {
    PackageHeader& h = p_.header;
    PackageData& d = h.data;
    const auto once = [&](Section section) {
      enter(s, at, keyword, section);
      once_.check(s, at, keyword);
    };
    if (keyword == "type") {
      once(Section::Header);
      d.type = read_enum<PackageType>(s, "a package type");
    } else if (keyword == "flags") {
      once(Section::Header);
      d.flags = read_flags(s, package_flag_names(), 0xFFFFFFFF, "package flags");
    } else if (keyword == "interrupt-override") {
      once(Section::Header);
      d.interrupt_override = read_enum<InterruptOverride>(s, "an interrupt override");
    } else if (keyword == "preferred-speed") {
      once(Section::Header);
      d.preferred_speed = read_enum<PreferredSpeed>(s, "a speed");
    } else if (keyword == "interrupt-flags") {
      once(Section::Header);
      d.interrupt_flags = std::uint16_t(read_flags(s, interrupt_flag_names(), 0xFFFF, "interrupt flags"));
    } else if (keyword == "pkdt") {
      once(Section::Header);
      pkdt(s, d);
    } else if (keyword == "schedule") {
      once(Section::Header);
      const ScheduleFields f = read_schedule(s, false);
      h.schedule = {f.month, f.day, f.date, f.hour, f.minute, f.unused, std::int32_t(f.duration_minutes)};
    } else if (keyword == "condition" || keyword == "raw-condition") {
      conditions(s, at, keyword).push_back(keyword == "condition" ? read_condition(s, game_, namer_)
                                                                  : read_raw_condition(s));
    } else if (keyword == "idles") {
      once(Section::Header);
      idles(s, h.idles.emplace());
    } else if (keyword == "combat-style") {
      once(Section::Header);
      h.combat_style = read_form(s, namer_);
    } else if (keyword == "owner-quest") {
      once(Section::Header);
      h.owner_quest = read_form(s, namer_);
    } else if (keyword == "pkcu") {
      once(Section::Header);
      pkcu(s, h.counter);
    } else if (keyword == "input") {
      enter(s, at, keyword, Section::Header);
      input(s, at);
    } else if (keyword == "input-id") {
      enter(s, at, keyword, Section::Header);
      if (unpaired_input_) s.fail_at(at, "an input-id line after an input without id: give the id on that input line");
      p_.public_data.input_ids.push_back(read_number<std::uint8_t>(s, "a data input id"));
      extra_ids_ = true;
    } else if (keyword == "xnam") {
      once(Section::Header);
      p_.public_data.xnam = read_number<std::int8_t>(s, "the XNAM value");
    } else if (keyword == "branch") {
      enter(s, at, keyword, Section::Tree);
      p_.procedure_tree.push_back(branch(s));
    } else if (keyword == "pfo2" || keyword == "pfor") {
      enter(s, at, keyword, Section::Tree);
      if (p_.procedure_tree.empty()) s.fail_at(at, fmt::format("a {} line belongs to a branch: expected a branch line before it", keyword));
      Branch& b = p_.procedure_tree.back();
      if (keyword == "pfo2") b.pfo2.push_back(read_hex_array<16>(s, "the PFO2 bytes"));
      else b.pfor.push_back(read_hex_array<12>(s, "the PFOR bytes"));
    } else if (keyword == "input-name") {
      enter(s, at, keyword, Section::Names);
      DataInputName& n = p_.input_names.emplace_back();
      n.id = read_number<std::uint8_t>(s, "a data input id");
      n.name = s.quoted_string(codec_);
      s.skip_blanks();
      const std::size_t key_at = s.position();
      if (read_key(s, "'flags='") != "flags") s.fail_at(key_at, "expected 'flags='");
      n.flags = read_number<std::uint32_t>(s, "the data input flags");
    } else if (keyword == "on-begin" || keyword == "on-end" || keyword == "on-change") {
      once(Section::Events);
      const auto kind = keyword == "on-begin" ? PackageEventKind::Begin
                        : keyword == "on-end" ? PackageEventKind::End
                                              : PackageEventKind::Change;
      event(s, p_.event(kind).emplace());
    } else if (keyword == "unknown") {
      UnknownField& u = p_.unknown_fields.emplace_back();
      u.index = read_number<std::uint32_t>(s, "the field's index in the record");
      u.field = read_field(s);
    } else if (keyword == "editor-id") {
      once_.check(s, at, keyword);
      p_.editor_id = s.quoted_string(codec_);
    } else if (keyword == "vmad") {
      once_.check(s, at, keyword);
      read_field_data(s, p_.vmad.emplace(Field{Signature("VMAD"), {}}));
    } else {
      s.fail_at(at, fmt::format("unknown keyword '{}': expected {}", keyword, kKeywords));
    }
  }

  // Moves on to the keyword's section, or fails when the text has already left it.
  void enter(const LineScanner& s, std::size_t at, std::string_view keyword, Section section) {
    static constexpr const char* kNames[] = {"the header and public data", "the procedure tree", "the data input names",
                                             "the events"};
    if (section < section_) {
      s.fail_at(at, fmt::format("'{}' belongs to {}: move it before {}", keyword, kNames[int(section)],
                                kNames[int(section) + 1]));
    }
    section_ = section;
  }

  // A condition goes to the header, or after a branch line to that branch.
  std::vector<PackageCondition>& conditions(const LineScanner& s, std::size_t at, std::string_view keyword) {
    if (section_ == Section::Header) return p_.header.conditions;
    if (section_ == Section::Tree) return p_.procedure_tree.back().conditions;
    s.fail_at(at, fmt::format("'{}' belongs to the header or to a branch: move it before the {}", keyword,
                              section_ == Section::Names ? "data input names" : "events"));
  }

  void pkdt(LineScanner& s, PackageData& d) {
    Once once;
    while (!s.at_end()) {
      const std::size_t at = s.position();
      const std::string_view key = read_key(s, "'unused=' or 'unknown='");
      once.check(s, at, key);
      if (key == "unused") d.unused = read_hex_array<1>(s, "PKDT byte 7")[0];
      else if (key == "unknown") d.unknown = read_number<std::uint16_t>(s, "PKDT bytes 10-11");
      else s.fail_at(at, fmt::format("unknown pkdt key '{}': expected 'unused=' or 'unknown='", key));
    }
  }

  void idles(LineScanner& s, IdleAnimations& a) {
    Once once;
    bool timer = false;
    while (!s.at_end()) {
      const std::size_t at = s.position();
      if (!at_key(s)) {
        if (a.idles.size() == 0xFF) s.fail_at(at, "a package holds at most 255 idles (IDLC is one byte)");
        a.idles.push_back(read_form(s, namer_));
        continue;
      }
      const std::string_view key = read_key(s, "'flags=', 'timer=', 'padding=' or an idle");
      once.check(s, at, key);
      if (key == "flags") {
        a.flags = std::uint8_t(read_flags(s, idle_flag_names(), 0xFF, "idle flags"));
      } else if (key == "timer") {
        a.timer = read_float(s, "the idle timer");
        timer = true;
      } else if (key == "padding") {
        a.count_padding = read_hex(s, "the IDLC bytes after the count");
      } else {
        s.fail_at(at, fmt::format("unknown idles key '{}': expected 'flags=', 'timer=' or 'padding='", key));
      }
    }
    if (!timer) s.fail("expected 'timer=' (the idle timer) on the idles line");
  }

  void pkcu(LineScanner& s, PackageCounter& c) {
    Once once;
    while (!s.at_end()) {
      const std::size_t at = s.position();
      const std::string_view key = read_key(s, "'template=', 'version=' or 'inputs='");
      once.check(s, at, key);
      if (key == "template") c.template_package = read_form(s, namer_);
      else if (key == "version") c.version = read_number<std::uint32_t>(s, "the PKCU version");
      else if (key == "inputs") input_count_ = read_number<std::uint32_t>(s, "the data input count");
      else s.fail_at(at, fmt::format("unknown pkcu key '{}': expected 'template=', 'version=' or 'inputs='", key));
    }
  }

  // `input ID TYPE [VALUE]`: the UNAM ids pair with the inputs in order, so an input without one
  // (`-`) must come after those with one, and ids without an input after all inputs.
  void input(LineScanner& s, std::size_t at) {
    PublicData& d = p_.public_data;
    if (extra_ids_) s.fail_at(at, "an input line after an input-id line: input-id lines come after all inputs");
    if (!s.accept_word("-")) {
      if (unpaired_input_) s.fail_at(at, "an input with an id after one without (-): ids pair with the inputs in order");
      d.input_ids.push_back(read_number<std::uint8_t>(s, "a data input id (or - for none)"));
    } else {
      unpaired_input_ = true;
    }
    DataInput& in = d.inputs.emplace_back();
    in.type = read_name(s, codec_, "the data input type (Bool, Float, Location, SingleRef ...)");
    if (!s.at_end()) in.value = value(s, in.type);
  }

  DataValue value(LineScanner& s, const std::string& type) {
    s.skip_blanks();
    const std::size_t at = s.position();
    if (s.accept_word("location")) {
      Location l;
      read_place(s, l.type, l.value, "radius", l.radius, namer_, "location");
      return l;
    }
    if (s.accept_word("target")) {
      Target t;
      read_place(s, t.type, t.value, "count", t.count, namer_, "target");
      return t;
    }
    if (s.accept_word("topic")) return topic(s);
    if (s.accept_word("topic-form")) return TopicForm{read_form(s, namer_)};
    if (s.accept_word("cnam")) return RawValue{read_hex(s, "the CNAM bytes")};
    if (type == "Bool") {
      if (s.accept_word("true")) return BoolValue{1};
      if (s.accept_word("false")) return BoolValue{0};
      return BoolValue{read_number<std::uint8_t>(s, "true, false or a number")};
    }
    if (type == "Int") return IntValue{read_number<std::int32_t>(s, "an integer")};
    if (type == "Float" || type == "ObjectList") return FloatValue{read_float(s, "a number")};
    s.fail_at(at, "expected a value: location, target, topic, topic-form or cnam HEX (plain values are for Bool, Int, "
                  "Float and ObjectList inputs)");
  }

  Topic topic(LineScanner& s) {
    Topic t;
    t.type = read_enum<TopicType>(s, "a topic type");
    if (t.type == TopicType::Dialogue) {
      t.value = read_form(s, namer_);
    } else if (t.type == TopicType::Subtype) {
      s.skip_blanks();
      const std::size_t at = s.position();
      const std::string chars = s.quoted_string(codec_);
      if (chars.size() != 4) s.fail_at(at, "expected a subtype of four characters, such as \"HELO\"");
      t.value = std::uint32_t(std::uint8_t(chars[0])) | std::uint32_t(std::uint8_t(chars[1])) << 8 |
                std::uint32_t(std::uint8_t(chars[2])) << 16 | std::uint32_t(std::uint8_t(chars[3])) << 24;
    } else {
      t.value = read_number<std::uint32_t>(s, "the topic value");
    }
    return t;
  }

  Branch branch(LineScanner& s) {
    Branch b;
    b.type = read_name(s, codec_, "the branch type (Procedure, Sequence, Simultaneous ...)");
    if (!s.at_end() && !at_key(s)) b.procedure = read_name(s, codec_, "the procedure");
    Once once;
    while (!s.at_end()) {
      const std::size_t at = s.position();
      const std::string_view key = read_key(s, "'children=', 'root-flags=', 'flags=' or 'inputs='");
      once.check(s, at, key);
      if (key == "children") {
        if (!b.root) b.root.emplace();
        b.root->child_count = read_number<std::uint32_t>(s, "the number of child branches");
      } else if (key == "root-flags") {
        if (!b.root) b.root.emplace();
        b.root->flags = read_number<std::uint32_t>(s, "the PRCB flags");
      } else if (key == "flags") {
        b.flags = read_flags(s, branch_flag_names(), 0xFFFFFFFF, "procedure flags");
      } else if (key == "inputs") {
        do b.input_ids.push_back(s.accept_word("none") ? 0xFF : read_number<std::uint8_t>(s, "a data input id or none"));
        while (s.accept(','));
      } else {
        s.fail_at(at, fmt::format("unknown branch key '{}': expected 'children=', 'root-flags=', 'flags=' or 'inputs='", key));
      }
    }
    return b;
  }

  void event(LineScanner& s, PackageEvent& e) {
    Once once;
    while (!s.at_end()) {
      const std::size_t at = s.position();
      const std::string_view word = s.word();
      if (word != "script") once.check(s, at, word);
      if (word == "idle") e.idle = read_form(s, namer_);
      else if (word == "script") e.old_script.push_back(read_field(s));
      else if (word == "tnam") e.tnam = read_number<std::int32_t>(s, "the TNAM value");
      else if (word == "topic") e.topic = topic(s);
      else s.fail_at(at, fmt::format("expected idle, script, tnam or topic{}", word.empty() ? "" : fmt::format(", found '{}'", word)));
    }
  }

  const FormNamer& namer_;
  const TextCodec& codec_;
  Game game_;
  Package p_;
  Section section_ = Section::Header;
  Once once_;
  std::optional<std::uint32_t> input_count_;  // pkcu inputs=
  bool unpaired_input_ = false;               // an `input -` line was read
  bool extra_ids_ = false;                    // an `input-id` line was read
};

}  // namespace

std::string package_block_text(const Package& package, const BlockTextOptions& options) {
  return Writer(options).run(package);
}

Package parse_package_block(std::string_view text, const BlockTextOptions& options) {
  return Parser(options).run(text);
}

}  // namespace tesmod::text

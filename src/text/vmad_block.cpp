#include "tesmod/text/vmad_block.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <bit>
#include <initializer_list>
#include <limits>
#include <map>

#include "tesmod/error.hpp"
#include "tesmod/text/hex.hpp"

namespace tesmod::text {
namespace {

using namespace tesmod::fields;

// Defaults, not written.
constexpr std::uint8_t kSectionUnknown = 2;
constexpr std::uint8_t kFragmentUnknown = 1;

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// A namer may write `My Mod.esp:00000801` unquoted (PluginFormNamer does), but form_reference()
// reads a file name with blanks only when quoted; such references are resolved without quotes.
std::optional<std::uint32_t> resolve(const FormNamer& namer, std::string_view ref) {
  if (auto id = namer.resolve(ref)) return id;
  if (!ref.starts_with('"')) return std::nullopt;
  const std::size_t close = ref.find('"', 1);
  return namer.resolve(std::string(ref.substr(1, close - 1)) + std::string(ref.substr(close + 1)));
}

std::string_view flag_word(Signature record_type, std::uint8_t flag) {
  if (flag == kBeginFragment) return "begin";
  if (flag == kEndFragment) return "end";
  if (flag == kChangeFragment && record_type == Signature("PACK")) return "change";
  return {};
}

// The words that start a fragment line in a VMAD of this record type.
std::vector<std::string_view> fragment_words(Signature record_type) {
  if (record_type == Signature("INFO")) return {"begin", "end", "flag"};
  if (record_type == Signature("PACK")) return {"begin", "end", "change", "flag"};
  if (record_type == Signature("PERK")) return {"index"};
  if (record_type == Signature("QUST")) return {"stage", "alias"};
  if (record_type == Signature("SCEN")) return {"begin", "end", "flag", "phase"};
  return {};
}

class BlockWriter {
 public:
  BlockWriter(Signature record_type, const BlockTextOptions& o) : type_(record_type), o_(o) {}

  std::string write(const Vmad& v) {
    line(0, fmt::format("version {} object-format {}", v.version, v.object_format));
    scripts(v.scripts, 0);
    if (v.fragments) std::visit([&](const auto& s) { section(s, v); }, *v.fragments);
    return std::move(out_);
  }

 private:
  void line(int depth, std::string_view text) {
    out_.append(std::size_t(depth) * 2, ' ');
    out_ += text;
    out_ += '\n';
  }

  // A bare word when that reads back as the same bytes, else quoted.
  std::string name(const std::string& stored) const {
    if (!stored.empty() && std::all_of(stored.begin(), stored.end(), is_name_char)) return stored;
    return quoted(stored, *o_.codec);
  }

  // The namer's name when it reads back to this FormID as one form reference, else the stored
  // FormID in hex (which FormNamers read back as is).
  std::string form(std::uint32_t form_id) const {
    std::string text = o_.namer->name(form_id);
    const std::size_t colon = text.rfind(':');
    if (colon != std::string::npos && !text.starts_with('"') &&
        std::any_of(text.begin(), text.begin() + std::ptrdiff_t(colon), is_word_break))
      text = '"' + text.substr(0, colon) + '"' + text.substr(colon);
    return reads_back(text, form_id) ? text : raw_form_id(form_id);
  }

  bool reads_back(const std::string& text, std::uint32_t form_id) const {
    // ASCII only: names are code-page bytes, the text is UTF-8. `alias` starts an alias object.
    const auto printable_ascii = [](char c) { return c >= 0x20 && c < 0x7F; };
    if (text == "alias" || !std::all_of(text.begin(), text.end(), printable_ascii)) return false;
    try {
      LineScanner s(text, 1);
      const std::string_view ref = s.form_reference();
      return s.at_end() && resolve(*o_.namer, ref) == form_id;
    } catch (const SyntaxError&) {
      return false;
    }
  }

  std::string object(const VmadObject& obj) const {
    std::string text = form(obj.form_id);
    if (obj.alias != -1) text = fmt::format("alias {} of {}", obj.alias, text);
    if (obj.unused != 0) text += fmt::format(" unused={}", obj.unused);
    return text;
  }

  // One value or array item of each type.
  std::string item(const VmadObject& o) const { return object(o); }
  std::string item(const std::string& s) const { return quoted(s, *o_.codec); }
  std::string item(std::int32_t i) const { return std::to_string(i); }
  std::string item(float f) const { return format_float(f); }
  std::string item(bool b) const { return b ? "true" : "false"; }
  template <class T>
  std::string item(const std::vector<T>& items) const {
    std::string text = "[";
    for (std::size_t i = 0; i < items.size(); ++i) text += (i ? ", " : "") + item(T(items[i]));
    return text + "]";
  }

  std::string value(const PropertyValue& value) const {
    return std::visit([&](const auto& v) { return item(v); }, value);
  }

  static std::string script_status(std::uint8_t status) {
    switch (status) {
      case Script::kLocal: return {};
      case Script::kInheritedAltered: return " status=inherited";
      case Script::kInheritedRemoved: return " status=removed";
      default: return fmt::format(" status={}", status);
    }
  }

  static std::string property_status(std::uint8_t status) {
    switch (status) {
      case Property::kEdited: return {};
      case Property::kRemoved: return " status=removed";
      default: return fmt::format(" status={}", status);
    }
  }

  void scripts(const std::vector<Script>& scripts, int depth) {
    for (const Script& s : scripts) {
      line(depth, "script " + name(s.name) + script_status(s.status));
      for (const Property& p : s.properties) {
        line(depth + 1, fmt::format("{} {} = {}{}", to_string(p.type()), name(p.name), value(p.value),
                                    property_status(p.status)));
      }
    }
  }

  void header(std::uint8_t unknown, const std::string& file_name) {
    line(0, "fragments " + name(file_name) +
                (unknown != kSectionUnknown ? fmt::format(" unknown={}", unknown) : std::string()));
  }

  // `key -> Function`, with the script only when it is not the section's file.
  void fragment(const std::string& key, const Fragment& f, const std::string& file_name) {
    std::string text = key + " -> " + name(f.function_name);
    if (f.script_name != file_name) text += " script=" + name(f.script_name);
    if (f.unknown != kFragmentUnknown) text += fmt::format(" unknown={}", f.unknown);
    line(1, text);
  }

  static std::string unknown(std::int64_t value) {
    return value ? fmt::format(" unknown={}", value) : std::string();
  }

  void flagged(const std::vector<FlaggedFragment>& fragments, const std::string& file_name) {
    for (const FlaggedFragment& f : fragments) {
      const std::string_view word = flag_word(type_, f.flag);
      fragment(word.empty() ? fmt::format("flag 0x{:02X}", f.flag) : std::string(word), f.fragment, file_name);
    }
  }

  void section(const InfoFragments& s, const Vmad&) {
    header(s.unknown, s.file_name);
    flagged(s.fragments, s.file_name);
  }

  void section(const PackageFragments& s, const Vmad&) {
    header(s.unknown, s.file_name);
    flagged(s.fragments, s.file_name);
  }

  void section(const PerkFragments& s, const Vmad&) {
    header(s.unknown, s.file_name);
    for (const PerkFragment& f : s.fragments)
      fragment(fmt::format("index {}{}", f.index, unknown(f.unknown)), f.fragment, s.file_name);
  }

  void section(const SceneFragments& s, const Vmad&) {
    header(s.unknown, s.file_name);
    flagged(s.fragments, s.file_name);
    for (const ScenePhaseFragment& p : s.phases)
      fragment(fmt::format("phase {}{}", p.phase, unknown(p.unknown)), p.fragment, s.file_name);
  }

  void section(const QuestFragments& s, const Vmad& v) {
    header(s.unknown, s.file_name);
    for (const QuestFragment& f : s.fragments)
      fragment(fmt::format("stage {} log {}{}", f.stage, f.log_entry, unknown(f.unknown)), f.fragment, s.file_name);
    for (const AliasScripts& a : s.aliases) {
      std::string text = fmt::format("alias {} of {}", a.object.alias, form(a.object.form_id));
      if (a.object.unused != 0) text += fmt::format(" unused={}", a.object.unused);
      if (a.version != v.version) text += fmt::format(" version={}", a.version);
      if (a.object_format != v.object_format) text += fmt::format(" object-format={}", a.object_format);
      line(0, text);
      scripts(a.scripts, 1);
    }
  }

  Signature type_;
  const BlockTextOptions& o_;
  std::string out_;
};

class BlockParser {
 public:
  BlockParser(Signature record_type, const BlockTextOptions& o) : type_(record_type), o_(o) {}

  Vmad parse(std::string_view text) {
    std::uint32_t number = 0;
    for (std::size_t start = 0; start < text.size();) {
      std::size_t end = text.find('\n', start);
      if (end == std::string_view::npos) end = text.size();
      LineScanner s(text.substr(start, end - start), ++number);
      start = end + 1;
      if (s.at_end() || s.peek() == '#') continue;
      statement(s);
      first_ = false;
    }
    return std::move(v_);
  }

 private:
  void statement(LineScanner& s) {
    const std::size_t at = s.position();
    const std::string_view word = s.word();
    if (word == "version") return version(s, at);
    if (word == "script") return script(s, at);
    if (word == "object" || word == "string" || word == "int" || word == "float" || word == "bool")
      return property(s, word, at);
    if (word == "fragments") return section(s, at);
    const auto kinds = fragment_words(type_);
    if (std::find(kinds.begin(), kinds.end(), word) != kinds.end()) {
      if (!v_.fragments) s.fail_at(at, fmt::format("expected a 'fragments' line before the first '{}'", word));
      return word == "alias" ? alias(s) : fragment(s, word, at);
    }
    for (std::string_view other : {"begin", "end", "change", "flag", "index", "stage", "phase", "alias"}) {
      if (word != other) continue;
      if (kinds.empty()) s.fail_at(at, fmt::format("{} VMADs have no fragments ('{}')", type_.str(), word));
      s.fail_at(at, fmt::format("{} VMADs have no '{}' fragments (expected {})", type_.str(), word, fmt::join(kinds, ", ")));
    }
    s.fail_at(at, fmt::format("unknown keyword '{}' (expected version, script, a property type (object, string, int, "
                              "float, bool), fragments{}{})",
                              word.empty() ? s.rest().substr(0, 1) : word, kinds.empty() ? "" : ", ",
                              fmt::join(kinds, ", ")));
  }

  // --- lexical pieces --------------------------------------------------------------------------

  // An integer of type T, decimal or 0x hex.
  template <class T>
  static T number(LineScanner& s, std::string_view what) {
    s.skip_blanks();
    const std::size_t at = s.position();
    const std::string_view w = s.word();
    if (w.empty()) s.fail(fmt::format("expected {}", what));
    std::optional<std::int64_t> n;
    if (w.starts_with("0x") || w.starts_with("0X")) {
      if (const auto u = parse_uint(w); u && *u <= std::uint64_t(std::numeric_limits<std::int64_t>::max()))
        n = std::int64_t(*u);
    } else {
      n = parse_int(w);
    }
    constexpr auto lo = std::int64_t(std::numeric_limits<T>::min()), hi = std::int64_t(std::numeric_limits<T>::max());
    if (!n || *n < lo || *n > hi) s.fail_at(at, fmt::format("expected {} ({} to {}), not '{}'", what, lo, hi, w));
    return T(*n);
  }

  // A bare word or a quoted string, as stored bytes.
  std::string name(LineScanner& s, std::string_view what) const {
    if (s.peek() == '"') return s.quoted_string(*o_.codec);
    const std::size_t at = s.position();
    const std::string_view w = s.expect_word(what);
    try {
      return o_.codec->from_utf8(w);
    } catch (const Error&) {
      s.fail_at(at, fmt::format("'{}' cannot be written in {}; quote it with \\xNN bytes", w, o_.codec->code_page()));
    }
  }

  // `key=value` options up to the end of the line, in any order, each at most once.
  template <class Read>
  static void options(LineScanner& s, std::initializer_list<std::string_view> keys, Read read) {
    std::vector<std::string_view> seen;
    while (!s.at_end()) {
      const std::size_t at = s.position();
      const std::string_view key = s.word();
      if (std::find(keys.begin(), keys.end(), key) == keys.end() || !s.rest().starts_with('=')) {
        std::string expected;
        for (std::string_view k : keys) expected += fmt::format("{}=, ", k);
        s.fail_at(at, fmt::format("unexpected '{}' (expected {}or the end of the line)",
                                  key.empty() ? s.line().substr(at, 1) : key, expected));
      }
      if (std::find(seen.begin(), seen.end(), key) != seen.end()) s.fail_at(at, fmt::format("'{}=' is given twice", key));
      seen.push_back(key);
      s.seek(s.position() + 1);
      read(key);
    }
  }

  // A status by name or number.
  static std::uint8_t status(LineScanner& s, std::initializer_list<std::pair<std::string_view, std::uint8_t>> names) {
    std::string expected;
    for (const auto& [word, value] : names) {
      if (s.accept_word(word)) return value;
      expected += fmt::format("{}, ", word);
    }
    s.skip_blanks();
    const std::size_t at = s.position();
    const std::string_view w = s.word();
    const auto n = parse_int(w);
    if (!n || *n < 0 || *n > 255) s.fail_at(at, fmt::format("expected a status ({}or a number to 255), not '{}'", expected, w));
    return std::uint8_t(*n);
  }

  std::uint32_t form(LineScanner& s) const {
    s.skip_blanks();
    const std::size_t at = s.position();
    const std::string_view ref = s.form_reference();
    if (const auto id = resolve(*o_.namer, ref)) return *id;
    s.fail_at(at, unknown_form_message(ref));
  }

  // `Form` or `alias N of Quest`, then `unused=N` when given.
  VmadObject object(LineScanner& s) const {
    VmadObject o;
    if (s.accept_word("alias")) {
      o.alias = number<std::int16_t>(s, "an alias id");
      if (!s.accept_word("of")) s.fail("expected 'of' and the quest");
    }
    o.form_id = form(s);
    if (s.accept_word("unused")) {
      s.expect('=');
      o.unused = number<std::uint16_t>(s, "the object's unused bytes");
    }
    return o;
  }

  float real(LineScanner& s) const {
    s.skip_blanks();
    const std::size_t at = s.position();
    const std::string_view w = s.word();
    if (const auto f = parse_float(w)) return *f;
    if (w.empty()) s.fail("expected a float value");
    s.fail_at(at, fmt::format("expected a float value, not '{}'", w));
  }

  static bool boolean(LineScanner& s) {
    if (s.accept_word("true")) return true;
    if (s.accept_word("false")) return false;
    s.fail("expected true or false");
  }

  template <class T, class ReadOne>
  static std::vector<T> array(LineScanner& s, ReadOne read_one) {
    s.expect('[', "'[' and the array items");
    std::vector<T> items;
    if (s.accept(']')) return items;
    do items.push_back(read_one());
    while (s.accept(','));
    s.expect(']', "',' or ']'");
    return items;
  }

  PropertyValue value(LineScanner& s, std::string_view type, bool is_array) const {
    const auto str = [&] { return s.quoted_string(*o_.codec); };
    const auto obj = [&] { return object(s); };
    const auto i32 = [&] { return number<std::int32_t>(s, "an int value"); };
    const auto f32 = [&] { return real(s); };
    const auto b = [&] { return boolean(s); };
    if (type == "object") return is_array ? PropertyValue(array<VmadObject>(s, obj)) : PropertyValue(obj());
    if (type == "string") return is_array ? PropertyValue(array<std::string>(s, str)) : PropertyValue(str());
    if (type == "int") return is_array ? PropertyValue(array<std::int32_t>(s, i32)) : PropertyValue(i32());
    if (type == "float") return is_array ? PropertyValue(array<float>(s, f32)) : PropertyValue(f32());
    return is_array ? PropertyValue(array<bool>(s, b)) : PropertyValue(b());
  }

  // --- statements ------------------------------------------------------------------------------

  void version(LineScanner& s, std::size_t at) {
    if (!first_) s.fail_at(at, "'version' must be the first line");
    v_.version = header_number(s, "a VMAD version", 2, 5);
    if (!s.accept_word("object-format")) s.fail("expected 'object-format'");
    v_.object_format = header_number(s, "an object format", 1, 2);
    s.expect_end();
  }

  static std::int16_t header_number(LineScanner& s, std::string_view what, int lo, int hi) {
    s.skip_blanks();
    const std::size_t at = s.position();
    const auto n = number<std::int16_t>(s, what);
    if (n < lo || n > hi) s.fail_at(at, fmt::format("expected {} ({} to {}), not {}", what, lo, hi, n));
    return n;
  }

  void script(LineScanner& s, std::size_t at) {
    if (!scripts_) {
      s.fail_at(at, "a script here needs an 'alias' line before it (the record's own scripts come before 'fragments')");
    }
    Script& script = scripts_->emplace_back();
    script.name = name(s, "the script name");
    options(s, {"status"}, [&](std::string_view) {
      script.status = status(
          s, {{"local", Script::kLocal}, {"inherited", Script::kInheritedAltered}, {"removed", Script::kInheritedRemoved}});
    });
    script_ = &script;
  }

  void property(LineScanner& s, std::string_view type, std::size_t at) {
    if (!script_) s.fail_at(at, "a property needs a 'script' line before it");
    const bool is_array = s.accept('[');
    if (is_array) s.expect(']');
    Property p;
    p.name = name(s, "the property name");
    s.expect('=', "'=' and the value");
    p.value = value(s, type, is_array);
    options(s, {"status"}, [&](std::string_view) {
      p.status = status(s, {{"edited", Property::kEdited}, {"removed", Property::kRemoved}});
    });
    script_->properties.push_back(std::move(p));
  }

  void section(LineScanner& s, std::size_t at) {
    if (!has_fragment_section(type_)) s.fail_at(at, fmt::format("{} VMADs have no fragment section", type_.str()));
    if (v_.fragments) s.fail_at(at, "a second 'fragments' line");
    std::string file_name = name(s, "the fragment file name");
    std::uint8_t unknown = kSectionUnknown;
    options(s, {"unknown"}, [&](std::string_view) { unknown = number<std::uint8_t>(s, "the section's unknown byte"); });
    const auto t = type_.value();
    if (t == Signature("INFO").value()) v_.fragments = InfoFragments{};
    else if (t == Signature("PACK").value()) v_.fragments = PackageFragments{};
    else if (t == Signature("PERK").value()) v_.fragments = PerkFragments{};
    else if (t == Signature("QUST").value()) v_.fragments = QuestFragments{};
    else v_.fragments = SceneFragments{};
    std::visit(
        [&](auto& section) {
          section.unknown = unknown;
          section.file_name = std::move(file_name);
        },
        *v_.fragments);
    scripts_ = nullptr;
    script_ = nullptr;
  }

  // `-> Function [script=Name] [unknown=N]`; the script defaults to the section's file.
  Fragment target(LineScanner& s, const std::string& file_name) const {
    s.skip_blanks();
    if (!s.rest().starts_with("->")) s.fail("expected '->' and the fragment's function");
    s.seek(s.position() + 2);
    Fragment f{kFragmentUnknown, file_name, name(s, "the fragment's function name")};
    options(s, {"script", "unknown"}, [&](std::string_view key) {
      if (key == "script") f.script_name = name(s, "the fragment's script name");
      else f.unknown = number<std::uint8_t>(s, "the fragment's unknown byte");
    });
    return f;
  }

  template <class T>
  static T unknown_before_target(LineScanner& s) {
    if (!s.accept_word("unknown")) return T{0};
    s.expect('=');
    return number<T>(s, "the fragment's unknown field");
  }

  void fragment(LineScanner& s, std::string_view word, std::size_t at) {
    scripts_ = nullptr;  // scripts after a fragment line would read as the fragment's
    script_ = nullptr;
    std::visit([&](auto& section) { add_fragment(s, section, word, at); }, *v_.fragments);
  }

  template <class Section>
  void add_fragment(LineScanner& s, Section& section, std::string_view word, std::size_t at) {
    if constexpr (std::is_same_v<Section, QuestFragments>) {
      QuestFragment f;
      f.stage = number<std::uint16_t>(s, "the stage");
      if (s.accept_word("log")) f.log_entry = number<std::int32_t>(s, "the log entry");
      f.unknown = unknown_before_target<std::int16_t>(s);
      f.fragment = target(s, section.file_name);
      section.fragments.push_back(std::move(f));
    } else if constexpr (std::is_same_v<Section, PerkFragments>) {
      PerkFragment f;
      f.index = number<std::uint16_t>(s, "the fragment index");
      f.unknown = unknown_before_target<std::int16_t>(s);
      f.fragment = target(s, section.file_name);
      section.fragments.push_back(std::move(f));
    } else {
      if constexpr (std::is_same_v<Section, SceneFragments>) {
        if (word == "phase") {
          ScenePhaseFragment p;
          p.phase = number<std::uint32_t>(s, "the phase");
          p.unknown = unknown_before_target<std::uint8_t>(s);
          p.fragment = target(s, section.file_name);
          section.phases.push_back(std::move(p));
          return;
        }
      }
      flagged(s, section.fragments, word, at, section.file_name);
    }
  }

  void flagged(LineScanner& s, std::vector<FlaggedFragment>& fragments, std::string_view word, std::size_t at,
               const std::string& file_name) {
    std::uint8_t flag = word == "begin" ? kBeginFragment : word == "end" ? kEndFragment : kChangeFragment;
    if (word == "flag") {
      s.skip_blanks();
      const std::size_t flag_at = s.position();
      flag = number<std::uint8_t>(s, "a flag bit");
      if (!std::has_single_bit(flag)) s.fail_at(flag_at, fmt::format("flag {} is not a single bit", flag));
    }
    if (const auto [it, fresh] = flag_lines_.try_emplace(flag, s.line_number()); !fresh)
      s.fail_at(at, fmt::format("a second fragment for flag 0x{:02X} (the first is on line {})", flag, it->second));
    fragments.push_back({flag, target(s, file_name)});
  }

  void alias(LineScanner& s) {
    auto& quest = std::get<QuestFragments>(*v_.fragments);
    AliasScripts a;
    a.version = v_.version;
    a.object_format = v_.object_format;
    a.object.alias = number<std::int16_t>(s, "an alias id");
    if (!s.accept_word("of")) s.fail("expected 'of' and the quest");
    a.object.form_id = form(s);
    options(s, {"unused", "version", "object-format"}, [&](std::string_view key) {
      if (key == "unused") a.object.unused = number<std::uint16_t>(s, "the object's unused bytes");
      else if (key == "version") a.version = header_number(s, "a VMAD version", 2, 5);
      else a.object_format = header_number(s, "an object format", 1, 2);
    });
    scripts_ = &quest.aliases.emplace_back(std::move(a)).scripts;
    script_ = nullptr;
  }

  Signature type_;
  const BlockTextOptions& o_;
  Vmad v_;
  bool first_ = true;
  std::vector<Script>* scripts_ = &v_.scripts;  // where `script` lines go
  Script* script_ = nullptr;                    // where property lines go
  std::map<std::uint8_t, std::uint32_t> flag_lines_;
};

}  // namespace

std::string vmad_block_text(const Vmad& vmad, const BlockTextOptions& options) {
  const Signature type = vmad.fragments ? record_type_of(*vmad.fragments) : Signature();
  return BlockWriter(type, options).write(vmad);
}

Vmad parse_vmad_block(std::string_view text, Signature record_type, const BlockTextOptions& options) {
  return BlockParser(record_type, options).parse(text);
}

}  // namespace tesmod::text

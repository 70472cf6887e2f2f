// VMAD bytes to the model. Counts are checked against the bytes left before anything is
// allocated, so a damaged count fails at once instead of reserving gigabytes.
#include <fmt/format.h>

#include <bit>

#include "tesmod/fields/vmad.hpp"
#include "tesmod/io/byte_reader.hpp"
#include "tesmod/io/counted.hpp"

namespace tesmod::fields {
namespace {

// Smallest encodings, for checking counts against the bytes left.
constexpr std::size_t kObjectBytes = 8;
constexpr std::size_t kFragmentMinBytes = 1 + 2 + 2;  // unknown, two empty names

std::size_t script_min_bytes(int version) { return 2 + (version >= 4 ? 1 : 0) + 2; }
std::size_t property_min_bytes(int version) { return 2 + 1 + (version >= 4 ? 1 : 0) + 1; }

class VmadDecoder {
 public:
  VmadDecoder(std::span<const std::uint8_t> bytes, const ErrorContext& where, std::uint64_t base)
      : r_(bytes, where, base) {}

  Vmad decode(Signature record_type) {
    Vmad v;
    v.version = version("the VMAD version");
    v.object_format = object_format("the VMAD object format");
    v.scripts = scripts(v.version, v.object_format);
    if (r_.at_end()) return v;
    if (!has_fragment_section(record_type)) {
      r_.fail(fmt::format("{} left after the scripts; a VMAD of a {} record has no fragment section",
                          counted(r_.remaining(), "byte"), record_type.str()));
    }
    const auto t = record_type.value();
    if (t == Signature("INFO").value()) v.fragments = info();
    else if (t == Signature("PACK").value()) v.fragments = package();
    else if (t == Signature("PERK").value()) v.fragments = perk();
    else if (t == Signature("QUST").value()) v.fragments = quest(v.object_format);
    else v.fragments = scene();
    if (!r_.at_end()) {
      r_.fail(fmt::format("{} left after the {} fragment section; expected the end of the VMAD",
                          counted(r_.remaining(), "byte"), record_type.str()));
    }
    return v;
  }

  // Where in the VMAD the decoder was when it failed, e.g. "script 'Foo', property 'Bar'".
  std::string path() const {
    std::string out;
    for (const std::string& p : path_) out += (out.empty() ? "" : ", ") + p;
    return out;
  }

 private:
  std::int16_t i16(std::string_view what) { return static_cast<std::int16_t>(r_.u16(what)); }

  [[noreturn]] void fail_back(std::size_t n, std::string detail) const {
    r_.context().fail_at(r_.file_offset() - n, std::move(detail));
  }

  std::int16_t version(std::string_view what) {
    const std::int16_t v = i16(what);
    if (v < 2 || v > 5) fail_back(2, fmt::format("{} is {}; expected 2 to 5", what, v));
    return v;
  }

  std::int16_t object_format(std::string_view what) {
    const std::int16_t f = i16(what);
    if (f != 1 && f != 2) fail_back(2, fmt::format("{} is {}; expected 1 or 2", what, f));
    return f;
  }

  std::string wstring(std::string_view what) {
    if (r_.remaining() < 2) {
      r_.fail(fmt::format("expected the 2-byte length of {} but only {} remain", what, counted(r_.remaining(), "byte")));
    }
    const std::uint16_t n = r_.u16(what);
    if (n > r_.remaining()) {
      fail_back(2, fmt::format("{} of {} runs past the end of the VMAD ({} left)", what, counted(n, "byte"),
                                 counted(r_.remaining(), "byte")));
    }
    const auto b = r_.bytes(n, what);
    return std::string(reinterpret_cast<const char*>(b.data()), b.size());
  }

  // Checks that count items of at least min_bytes each can fit in what is left.
  void check_count(std::uint64_t count, std::size_t min_bytes, std::size_t count_bytes, std::string_view what) const {
    if (count * min_bytes > r_.remaining()) {
      fail_back(count_bytes, fmt::format("{} {} need at least {} but only {} left", count, what,
                                         counted(count * min_bytes, "byte"), counted(r_.remaining(), "byte")));
    }
  }

  std::uint16_t count16(std::size_t min_bytes, std::string_view what) {
    const std::uint16_t n = r_.u16(what);
    check_count(n, min_bytes, 2, what);
    return n;
  }

  VmadObject object(int format) {
    VmadObject o;
    if (format == 1) {
      o.form_id = r_.u32("the object's FormID");
      o.alias = i16("the object's alias id");
      o.unused = r_.u16("the object's unused bytes");
    } else {
      o.unused = r_.u16("the object's unused bytes");
      o.alias = i16("the object's alias id");
      o.form_id = r_.u32("the object's FormID");
    }
    return o;
  }

  bool boolean() {
    const std::uint8_t b = r_.u8("a bool value");
    if (b > 1) fail_back(1, fmt::format("bool value {}; expected 0 or 1", b));
    return b != 0;
  }

  template <class T, class ReadOne>
  std::vector<T> array(std::size_t min_bytes, ReadOne read_one) {
    const std::uint32_t n = r_.u32("the array length");
    check_count(n, min_bytes, 4, "array items");
    std::vector<T> out;
    out.reserve(n);
    for (std::uint32_t i = 0; i < n; ++i) out.push_back(read_one());
    return out;
  }

  PropertyValue value(std::uint8_t type, int format) {
    switch (type) {
      case 1: return object(format);
      case 2: return wstring("a string value");
      case 3: return r_.i32("an int value");
      case 4: return r_.f32("a float value");
      case 5: return boolean();
      case 11: return array<VmadObject>(kObjectBytes, [&] { return object(format); });
      case 12: return array<std::string>(2, [&] { return wstring("a string item"); });
      case 13: return array<std::int32_t>(4, [&] { return r_.i32("an int item"); });
      case 14: return array<float>(4, [&] { return r_.f32("a float item"); });
      case 15: return array<bool>(1, [&] { return boolean(); });
      default: break;
    }
    // Unreachable: property() checked the type.
    r_.fail(fmt::format("property type {}", type));
  }

  Property property(int version, int format) {
    Property p;
    p.name = wstring("the property name");
    path_.push_back(fmt::format("property '{}'", p.name));
    const std::uint8_t type = r_.u8("the property type");
    const bool known = (type >= 1 && type <= 5) || (type >= 11 && type <= 15);
    if (!known) fail_back(1, fmt::format("property type {}; expected 1 to 5 or 11 to 15", type));
    if (type >= 11 && version < 5) {
      fail_back(1, fmt::format("array property type {} in a version {} VMAD; arrays need version 5", type, version));
    }
    p.status = version >= 4 ? r_.u8("the property status") : Property::kEdited;
    p.value = value(type, format);
    path_.pop_back();
    return p;
  }

  Script script(int version, int format) {
    Script s;
    s.name = wstring("the script name");
    path_.push_back(fmt::format("script '{}'", s.name));
    s.status = version >= 4 ? r_.u8("the script status") : Script::kLocal;
    const std::uint16_t n = count16(property_min_bytes(version), "properties");
    s.properties.reserve(n);
    for (std::uint16_t i = 0; i < n; ++i) s.properties.push_back(property(version, format));
    path_.pop_back();
    return s;
  }

  std::vector<Script> scripts(int version, int format) {
    const std::uint16_t n = count16(script_min_bytes(version), "scripts");
    std::vector<Script> out;
    out.reserve(n);
    for (std::uint16_t i = 0; i < n; ++i) out.push_back(script(version, format));
    return out;
  }

  Fragment fragment() {
    Fragment f;
    f.unknown = r_.u8("the fragment's unknown byte");
    f.script_name = wstring("the fragment's script name");
    f.function_name = wstring("the fragment's function name");
    return f;
  }

  // One fragment per set bit of flags, lowest bit first.
  std::vector<FlaggedFragment> flagged(std::uint8_t flags) {
    check_count(static_cast<unsigned>(std::popcount(flags)), kFragmentMinBytes, 0, "flagged fragments");
    std::vector<FlaggedFragment> out;
    for (unsigned bit = 0; bit < 8; ++bit) {
      const auto flag = static_cast<std::uint8_t>(1u << bit);
      if (!(flags & flag)) continue;
      path_.push_back(fmt::format("fragment of flag 0x{:02X}", flag));
      out.push_back({flag, fragment()});
      path_.pop_back();
    }
    return out;
  }

  template <class Section>
  Section begin_end(std::string_view kind) {
    path_.push_back(fmt::format("{} fragment section", kind));
    Section s;
    s.unknown = r_.u8("the fragment section's unknown byte");
    const std::uint8_t flags = r_.u8("the fragment flags");
    s.file_name = wstring("the fragment file name");
    s.fragments = flagged(flags);
    path_.pop_back();
    return s;
  }

  InfoFragments info() { return begin_end<InfoFragments>("INFO"); }
  PackageFragments package() { return begin_end<PackageFragments>("PACK"); }

  SceneFragments scene() {
    SceneFragments s = begin_end<SceneFragments>("SCEN");
    path_.push_back("SCEN phase fragments");
    const std::uint16_t n = count16(1 + 4 + kFragmentMinBytes, "phase fragments");
    s.phases.reserve(n);
    for (std::uint16_t i = 0; i < n; ++i) {
      ScenePhaseFragment p;
      p.unknown = r_.u8("the phase fragment's unknown byte");
      p.phase = r_.u32("the phase number");
      p.fragment = fragment();
      s.phases.push_back(std::move(p));
    }
    path_.pop_back();
    return s;
  }

  PerkFragments perk() {
    path_.push_back("PERK fragment section");
    PerkFragments s;
    s.unknown = r_.u8("the fragment section's unknown byte");
    s.file_name = wstring("the fragment file name");
    const std::uint16_t n = count16(2 + 2 + kFragmentMinBytes, "perk fragments");
    s.fragments.reserve(n);
    for (std::uint16_t i = 0; i < n; ++i) {
      PerkFragment f;
      f.index = r_.u16("the perk fragment index");
      f.unknown = i16("the perk fragment's unknown field");
      f.fragment = fragment();
      s.fragments.push_back(std::move(f));
    }
    path_.pop_back();
    return s;
  }

  QuestFragments quest(int format) {
    path_.push_back("QUST fragment section");
    QuestFragments s;
    s.unknown = r_.u8("the fragment section's unknown byte");
    const std::uint16_t n = r_.u16("the stage fragment count");
    s.file_name = wstring("the fragment file name");
    check_count(n, 2 + 2 + 4 + kFragmentMinBytes, 0, "stage fragments");
    s.fragments.reserve(n);
    for (std::uint16_t i = 0; i < n; ++i) {
      QuestFragment f;
      f.stage = r_.u16("the fragment's stage");
      f.unknown = i16("the stage fragment's unknown field");
      f.log_entry = r_.i32("the fragment's log entry");
      f.fragment = fragment();
      s.fragments.push_back(std::move(f));
    }
    const std::uint16_t aliases = count16(kObjectBytes + 2 + 2 + 2, "alias script blocks");
    s.aliases.reserve(aliases);
    for (std::uint16_t i = 0; i < aliases; ++i) {
      AliasScripts a;
      a.object = object(format);
      path_.push_back(fmt::format("alias {}", a.object.alias));
      a.version = version("the alias's VMAD version");
      a.object_format = object_format("the alias's object format");
      a.scripts = scripts(a.version, a.object_format);
      path_.pop_back();
      s.aliases.push_back(std::move(a));
    }
    path_.pop_back();
    return s;
  }

  ByteReader r_;
  std::vector<std::string> path_;
};

}  // namespace

Vmad decode_vmad(std::span<const std::uint8_t> bytes, Signature record_type, const ErrorContext& where,
                 std::uint64_t data_offset) {
  const bool located = data_offset != Error::kNoOffset;
  VmadDecoder decoder(bytes, where, located ? data_offset : 0);
  try {
    return decoder.decode(record_type);
  } catch (const Error& e) {
    std::string detail = "VMAD: " + e.detail();
    if (const std::string path = decoder.path(); !path.empty()) detail += " (in " + path + ")";
    if (located) throw Error(e.file(), e.offset(), e.record(), std::move(detail));
    // Without the field's file offset (inflated records), name the record's and the byte within the field.
    throw Error(where.file, where.offset, where.record, fmt::format("{} at byte {} of the VMAD field", detail, e.offset()));
  }
}

}  // namespace tesmod::fields

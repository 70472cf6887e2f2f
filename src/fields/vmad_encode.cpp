// The model back to VMAD bytes, in the layout decode_vmad reads. What the layout cannot hold is
// refused rather than silently dropped or truncated.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>

#include "tesmod/fields/vmad.hpp"

namespace tesmod::fields {
namespace {

class VmadEncoder {
 public:
  explicit VmadEncoder(const ErrorContext& where) : where_(where) {}

  std::vector<std::uint8_t> encode(const Vmad& v) {
    check_header(v.version, v.object_format, "VMAD");
    i16(v.version);
    i16(v.object_format);
    scripts(v.scripts, v.version, v.object_format);
    if (v.fragments) std::visit([&](const auto& s) { section(s, v.object_format); }, *v.fragments);
    return std::move(out_);
  }

 private:
  template <class T>
  void put(T value) {
    std::uint8_t b[sizeof value];
    std::memcpy(b, &value, sizeof value);
    out_.insert(out_.end(), b, b + sizeof value);
  }
  void u8(std::uint8_t v) { out_.push_back(v); }
  void u16(std::uint16_t v) { put(v); }
  void i16(std::int16_t v) { put(v); }
  void u32(std::uint32_t v) { put(v); }
  void i32(std::int32_t v) { put(v); }
  void f32(float v) { put(v); }  // bit pattern as is (NaN payloads included)

  void check_header(int version, int format, std::string_view what) const {
    if (version < 2 || version > 5) where_.fail(fmt::format("cannot encode {} version {}: expected 2 to 5", what, version));
    if (format != 1 && format != 2)
      where_.fail(fmt::format("cannot encode {} object format {}: expected 1 or 2", what, format));
  }

  void count16(std::size_t n, std::string_view what) {
    if (n > std::numeric_limits<std::uint16_t>::max())
      where_.fail(fmt::format("cannot encode {} {}: the VMAD stores at most 65535", n, what));
    u16(static_cast<std::uint16_t>(n));
  }

  void wstring(const std::string& s, std::string_view what) {
    if (s.size() > std::numeric_limits<std::uint16_t>::max())
      where_.fail(fmt::format("cannot encode {} of {} bytes: the VMAD stores at most 65535", what, s.size()));
    u16(static_cast<std::uint16_t>(s.size()));
    out_.insert(out_.end(), s.begin(), s.end());
  }

  void object(const VmadObject& o, int format) {
    if (format == 1) {
      u32(o.form_id);
      i16(o.alias);
      u16(o.unused);
    } else {
      u16(o.unused);
      i16(o.alias);
      u32(o.form_id);
    }
  }

  template <class T, class WriteOne>
  void array(const std::vector<T>& items, WriteOne write_one) {
    if (items.size() > std::numeric_limits<std::uint32_t>::max()) where_.fail("cannot encode an array of over 2^32 items");
    u32(static_cast<std::uint32_t>(items.size()));
    for (const auto& item : items) write_one(item);
  }

  void value(const PropertyValue& value, int format) {
    struct Writer {
      VmadEncoder& e;
      int format;
      void operator()(const VmadObject& o) { e.object(o, format); }
      void operator()(const std::string& s) { e.wstring(s, "a string value"); }
      void operator()(std::int32_t i) { e.i32(i); }
      void operator()(float f) { e.f32(f); }
      void operator()(bool b) { e.u8(b ? 1 : 0); }
      void operator()(const std::vector<VmadObject>& a) { e.array(a, [&](const VmadObject& o) { e.object(o, format); }); }
      void operator()(const std::vector<std::string>& a) { e.array(a, [&](const std::string& s) { e.wstring(s, "a string item"); }); }
      void operator()(const std::vector<std::int32_t>& a) { e.array(a, [&](std::int32_t i) { e.i32(i); }); }
      void operator()(const std::vector<float>& a) { e.array(a, [&](float f) { e.f32(f); }); }
      void operator()(const std::vector<bool>& a) { e.array(a, [&](bool b) { e.u8(b ? 1 : 0); }); }
    };
    std::visit(Writer{*this, format}, value);
  }

  void property(const Property& p, const Script& s, int version, int format) {
    const PropertyType type = p.type();
    if (is_array(type) && version < 5) {
      where_.fail(fmt::format("cannot encode array property '{}' of script '{}' in a version {} VMAD: arrays need version 5",
                              p.name, s.name, version));
    }
    if (version < 4 && p.status != Property::kEdited) {
      where_.fail(fmt::format("cannot encode status {} of property '{}' of script '{}': version {} stores no status",
                              p.status, p.name, s.name, version));
    }
    wstring(p.name, "a property name");
    u8(static_cast<std::uint8_t>(type));
    if (version >= 4) u8(p.status);
    value(p.value, format);
  }

  void scripts(const std::vector<Script>& scripts, int version, int format) {
    count16(scripts.size(), "scripts");
    for (const Script& s : scripts) {
      if (version < 4 && s.status != Script::kLocal) {
        where_.fail(fmt::format("cannot encode status {} of script '{}': version {} stores no status", s.status, s.name,
                                version));
      }
      wstring(s.name, "a script name");
      if (version >= 4) u8(s.status);
      count16(s.properties.size(), "properties");
      for (const Property& p : s.properties) property(p, s, version, format);
    }
  }

  void fragment(const Fragment& f) {
    u8(f.unknown);
    wstring(f.script_name, "a fragment script name");
    wstring(f.function_name, "a fragment function name");
  }

  // The flags byte, then the file name, then the fragments in flag bit order.
  void flagged(const std::uint8_t unknown, const std::string& file_name, const std::vector<FlaggedFragment>& fragments) {
    std::vector<const FlaggedFragment*> order;
    std::uint8_t flags = 0;
    for (const FlaggedFragment& f : fragments) {
      if (!std::has_single_bit(f.flag))
        where_.fail(fmt::format("cannot encode fragment flag 0x{:02X}: expected a single bit", f.flag));
      if (flags & f.flag) where_.fail(fmt::format("cannot encode two fragments for flag 0x{:02X}", f.flag));
      flags |= f.flag;
      order.push_back(&f);
    }
    std::sort(order.begin(), order.end(), [](const auto* a, const auto* b) { return a->flag < b->flag; });
    u8(unknown);
    u8(flags);
    wstring(file_name, "the fragment file name");
    for (const FlaggedFragment* f : order) fragment(f->fragment);
  }

  void section(const InfoFragments& s, int) { flagged(s.unknown, s.file_name, s.fragments); }
  void section(const PackageFragments& s, int) { flagged(s.unknown, s.file_name, s.fragments); }

  void section(const SceneFragments& s, int) {
    flagged(s.unknown, s.file_name, s.fragments);
    count16(s.phases.size(), "phase fragments");
    for (const ScenePhaseFragment& p : s.phases) {
      u8(p.unknown);
      u32(p.phase);
      fragment(p.fragment);
    }
  }

  void section(const PerkFragments& s, int) {
    u8(s.unknown);
    wstring(s.file_name, "the fragment file name");
    count16(s.fragments.size(), "perk fragments");
    for (const PerkFragment& f : s.fragments) {
      u16(f.index);
      i16(f.unknown);
      fragment(f.fragment);
    }
  }

  void section(const QuestFragments& s, int format) {
    u8(s.unknown);
    count16(s.fragments.size(), "stage fragments");
    wstring(s.file_name, "the fragment file name");
    for (const QuestFragment& f : s.fragments) {
      u16(f.stage);
      i16(f.unknown);
      i32(f.log_entry);
      fragment(f.fragment);
    }
    count16(s.aliases.size(), "alias script blocks");
    for (const AliasScripts& a : s.aliases) {
      check_header(a.version, a.object_format, fmt::format("the scripts of alias {}", a.object.alias));
      object(a.object, format);
      i16(a.version);
      i16(a.object_format);
      scripts(a.scripts, a.version, a.object_format);
    }
  }

  const ErrorContext& where_;
  std::vector<std::uint8_t> out_;
};

}  // namespace

std::vector<std::uint8_t> encode_vmad(const Vmad& vmad, const ErrorContext& where) {
  return VmadEncoder(where).encode(vmad);
}

}  // namespace tesmod::fields

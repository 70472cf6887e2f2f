#include "tesmod/fields/field_value.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <limits>

#include "tesmod/error.hpp"
#include "tesmod/io/counted.hpp"
#include "tesmod/io/little_endian.hpp"

namespace tesmod::fields {

namespace {

constexpr std::string_view kKindNames[] = {"nothing", "a signed integer", "an unsigned integer", "a float", "text",
                                           "an lstring id", "a FormID", "bytes", "an enum value", "flags",
                                           "a signature", "a list", "a struct"};
static_assert(std::size(kKindNames) == std::variant_size_v<FieldValue::Data>);

}  // namespace

std::string_view FieldValue::kind_name() const { return kKindNames[data.index()]; }

void FieldValue::wrong_kind(Kind wanted) const {
  throw Error("field value", Error::kNoOffset, std::nullopt,
              fmt::format("expected {}, not {}", kKindNames[std::size_t(wanted)], kind_name()));
}

const FieldValue* FieldValue::find(std::string_view name) const {
  if (const Struct* s = get_if<Struct>())
    for (const NamedFieldValue& m : *s)
      if (m.name == name) return &m.value;
  return nullptr;
}

FieldValue* FieldValue::find(std::string_view name) {
  return const_cast<FieldValue*>(std::as_const(*this).find(name));
}

const FieldValue& FieldValue::operator[](std::string_view name) const {
  if (const FieldValue* v = find(name)) return *v;
  if (!get_if<Struct>()) wrong_kind(Kind::Struct);
  throw Error("field value", Error::kNoOffset, std::nullopt, fmt::format("the struct has no member '{}'", name));
}

FieldValue& FieldValue::operator[](std::string_view name) {
  return const_cast<FieldValue&>(std::as_const(*this)[name]);
}

namespace {

// A member's type as the table writes it, for messages: "u16", "zstring8", "Texture".
std::string type_name(const LayoutMember& m) {
  static constexpr std::string_view kNames[] = {
      "u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "x8", "x16", "x32", "x64", "f32", "formid",
      "zstring", "lstring", "chars", "sig", "bytes", "str8", "str16", "str32", "zstr8", "zstr16", "zstr32",
      "zstring", "struct"};
  static_assert(std::size(kNames) == std::size_t(ValueType::Struct) + 1);
  if (m.type == ValueType::Struct) return m.structure->name;
  std::string name(kNames[std::size_t(m.type)]);
  if ((m.type == ValueType::Bytes || m.type == ValueType::ZBuffer) && m.byte_count) name += std::to_string(m.byte_count);
  return name;
}

// Where a value is in the tree, for messages: a chain on the stack, made into text only when an
// error is raised (the elements of a navmesh are many).
struct Path {
  const Path* parent = nullptr;
  std::string_view name;  // a member (the root: the field's type, or empty)
  std::size_t index = kNoIndex;  // or an element of the parent's list
  static constexpr std::size_t kNoIndex = ~std::size_t(0);

  Path member(std::string_view n) const { return Path{this, n, kNoIndex}; }
  Path element(std::size_t i) const { return Path{this, {}, i}; }

  void append_to(std::string& out) const {
    if (parent) parent->append_to(out);
    if (index != kNoIndex) {
      out += fmt::format("[{}]", index);
    } else if (!name.empty()) {
      if (!out.empty()) out += '.';
      out += name;
    }
  }
  std::string text() const {
    std::string out;
    append_to(out);
    return out.empty() ? std::string("the field") : out;
  }
};

[[noreturn]] void fail(const FieldLayout& layout, const Path& path, const std::string& what) {
  throw Error(fmt::format("field layout (table line {})", layout.table_line), Error::kNoOffset, std::nullopt,
              path.text() + ": " + what);
}

// ---- decoding -------------------------------------------------------------------------------

class Decoder {
 public:
  explicit Decoder(bool localized) : localized_(localized) {}

  // Reads a sequence of members over data into out, giving what walk_members gives: the bytes
  // taken, or nullopt where a member does not read (out then holds the members before it).
  // reached: set to where the members read end.
  std::optional<std::size_t> sequence(std::span<const LayoutMember> members, std::span<const std::uint8_t> data,
                                      bool field_end, FieldValue::Struct& out, std::size_t* reached = nullptr) const {
    out.reserve(members.size());
    MemberIntegers integers(members.size());  // for `[@count]` arrays
    const std::span<std::uint64_t> values = integers.values();
    return walk_members(members, data, field_end, localized_, [&](std::size_t i, std::span<const std::uint8_t> bytes) {
      const LayoutMember& m = members[i];
      out.push_back({m.name, member(m, bytes, field_end && i + 1 == members.size(), values.first(i))});
      if (is_integer_scalar(m) && m.element_size()) values[i] = load_member_integer(m, bytes.data());
      if (reached) *reached = std::size_t(bytes.data() - data.data()) + bytes.size();
    });
  }

 private:
  // A member whose bytes are exactly data (measured to fit).
  FieldValue member(const LayoutMember& m, std::span<const std::uint8_t> data, bool last,
                    std::span<const std::uint64_t> siblings) const {
    if (m.open && last) {
      switch (m.type) {
        case ValueType::ZString: return text(data.first(data.size() - 1));
        case ValueType::LString:
          if (localized_) return LStringId{le::u32(data.data())};
          return text(data.first(data.size() - 1));
        case ValueType::Chars: return text(data);
        case ValueType::Bytes: return FieldValue::Bytes(data.begin(), data.end());
        default: break;
      }
    }
    if (!m.array) return element(m, data);
    std::size_t at = m.count_prefix;
    // The element count as the walk read it (to the end for `[]`): elements of no bytes stay counted.
    std::uint64_t count = m.count;
    if (m.count_prefix) count = m.count_prefix == 1 ? data[0] : m.count_prefix == 2 ? le::u16(data.data()) : le::u32(data.data());
    else if (m.count_member >= 0) count = counted_by(m, siblings);
    FieldValue::List list;
    if (m.plain_elements()) {
      const std::uint32_t size = m.element_size();
      list.reserve((data.size() - at) / size);
      for (; at + size <= data.size(); at += size) list.push_back(element(m, data.subspan(at, size)));
      return list;
    }
    if (m.open) {
      while (at < data.size()) {
        const std::size_t size = *measure_element(m, data.subspan(at), localized_);
        list.push_back(element(m, data.subspan(at, size)));
        at += size;
      }
      return list;
    }
    list.reserve(std::size_t(count));
    for (std::uint64_t k = 0; k < count; ++k) {
      const std::size_t size = *measure_element(m, data.subspan(at), localized_);
      list.push_back(element(m, data.subspan(at, size)));
      at += size;
    }
    return list;
  }

  static FieldValue text(std::span<const std::uint8_t> bytes) {
    return TextValue{std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()), {}};
  }

  // One element whose bytes are exactly data.
  FieldValue element(const LayoutMember& m, std::span<const std::uint8_t> data) const {
    switch (m.type) {
      case ValueType::Str8: case ValueType::Str16: case ValueType::Str32:
      case ValueType::ZStr8: case ValueType::ZStr16: case ValueType::ZStr32: {
        const std::uint32_t prefix = string_prefix_size(m.type);
        return text(data.subspan(prefix, data.size() - prefix - (is_zero_ended_string(m.type) ? 1 : 0)));
      }
      case ValueType::ZString: return text(data.first(data.size() - 1));
      case ValueType::ZBuffer: {
        const auto zero = std::find(data.begin(), data.end(), std::uint8_t{0});
        auto end = data.end();
        while (end > zero + 1 && end[-1] == 0) --end;  // encoding puts the zeros back
        TextValue t{std::string(data.begin(), zero), {}};
        if (end > zero + 1) t.leftover.assign(zero + 1, end);
        return t;
      }
      case ValueType::Struct: {
        FieldValue::Struct members;
        if (m.structure->plain) {  // fixed offsets: no measuring
          members.reserve(m.structure->members.size());
          const std::uint8_t* p = data.data();
          for (const LayoutMember& n : m.structure->members) {
            const std::uint32_t size = n.element_size();
            if (n.array) {
              FieldValue::List list;
              list.reserve(n.count);
              for (std::uint32_t k = 0; k < n.count; ++k, p += size) list.push_back(element(n, {p, size}));
              members.push_back({n.name, std::move(list)});
            } else {
              members.push_back({n.name, element(n, {p, size})});
              p += size;
            }
          }
        } else {
          sequence(m.structure->members, data, false, members);
        }
        return members;
      }
      case ValueType::F32: return le::f32(data.data());
      case ValueType::FormId: return FormIdValue{le::u32(data.data())};
      case ValueType::Sig: return Signature::from_bytes(data.data());
      case ValueType::Bytes: return FieldValue::Bytes(data.begin(), data.end());
      default: return integer(m, data.data());
    }
  }

  static FieldValue integer(const LayoutMember& m, const std::uint8_t* p) {
    const std::uint64_t value = load_member_integer(m, p);
    if (m.names && m.names->is_flags) {
      // The bits of the member only (a signed member's sign extension is no flag).
      const std::uint32_t bits = m.element_size() * 8;
      std::uint64_t rest = bits == 64 ? value : value & ((std::uint64_t(1) << bits) - 1);
      FlagsValue flags;
      for (const auto& [bit, label] : m.names->entries)
        if (bit != 0 && (rest & bit) == bit) {
          flags.names.push_back(label);
          rest &= ~bit;
        }
      flags.unnamed = rest;
      return flags;
    }
    if (m.names) {
      const auto label = m.names->label(value);
      return EnumValue{label ? std::string(*label) : std::string(), value};
    }
    if (is_signed_integer(m.type)) return std::int64_t(value);
    return value;
  }

  bool localized_;
};

// ---- encoding -------------------------------------------------------------------------------

class Encoder {
 public:
  Encoder(const FieldLayout& layout, bool localized, std::vector<std::uint8_t>& out)
      : layout_(layout), localized_(localized), out_(out) {}

  // value: a struct of the members by name (a tuple's: also a list of its values in order).
  void sequence(std::span<const LayoutMember> members, const FieldValue& value, bool field_end, bool positional,
                const Path& path) {
    const FieldValue::Struct* named = value.get_if<FieldValue::Struct>();
    const FieldValue::List* ordered = positional ? value.get_if<FieldValue::List>() : nullptr;
    if (!named && !ordered)
      fail(path, fmt::format("expected a struct{} of {}, not {}", positional ? " (or a list of its values in order)" : "",
                             member_names(members), value.kind_name()));
    if (ordered && ordered->size() != members.size())
      fail(path, fmt::format("holds {} in order ({}), not {}", counted(members.size(), "value"), member_names(members),
                             ordered->size()));
    if (named)
      for (std::size_t k = 0; k < named->size(); ++k) {
        const std::string& name = (*named)[k].name;
        if (std::none_of(members.begin(), members.end(), [&](const LayoutMember& m) { return m.name == name; }))
          fail(path, fmt::format("has no member '{}' (its members: {})", name, member_names(members)));
        for (std::size_t j = 0; j < k; ++j)
          if ((*named)[j].name == name) fail(path.member(name), "is given twice");
      }
    MemberIntegers integers(members.size());  // for `[@count]` arrays
    const std::span<std::uint64_t> values = integers.values();
    const LayoutMember* left_out = nullptr;  // the first optional member left out: the field ends before it
    for (std::size_t i = 0; i < members.size(); ++i) {
      const LayoutMember& m = members[i];
      const Path at = path.member(m.name);
      const FieldValue* v = nullptr;
      if (ordered) {
        v = &(*ordered)[i];
      } else {
        for (const NamedFieldValue& n : *named)
          if (n.name == m.name) v = &n.value;
      }
      if (!v || v->is_none()) {
        if (!m.optional || !field_end)
          fail(at, v ? "is left out (nothing), but only optional members may be" : "is missing");
        if (!left_out) left_out = &m;
        continue;
      }
      if (left_out)
        fail(at, fmt::format("is given, but {} before it is left out (the field ends before its first optional member "
                             "left out)", left_out->name));
      const std::size_t start = out_.size();
      member(m, *v, field_end && i + 1 == members.size(), members, values.first(i), at);
      if (is_integer_scalar(m) && m.element_size()) values[i] = load_member_integer(m, out_.data() + start);
    }
  }

  [[noreturn]] void fail(const Path& path, const std::string& what) const { fields::fail(layout_, path, what); }

 private:
  static std::string member_names(std::span<const LayoutMember> members) {
    std::string out;
    for (const LayoutMember& m : members) {
      if (!out.empty()) out += ' ';
      out += m.name;
    }
    return out;
  }

  void member(const LayoutMember& m, const FieldValue& v, bool last, std::span<const LayoutMember> members,
              std::span<const std::uint64_t> siblings, const Path& path) {
    if (m.open && last) {
      switch (m.type) {
        case ValueType::ZString: {  // the rest of the field: zero bytes inside read back as they are
          const std::string& s = text(m, v, path).text;
          out_.insert(out_.end(), s.begin(), s.end());
          out_.push_back(0);
          return;
        }
        case ValueType::LString: {
          if (localized_) {
            const LStringId* id = v.get_if<LStringId>();
            if (!id)
              fail(path, fmt::format("this localized plugin stores a string id here: expected an lstring id, not {}",
                                     v.kind_name()));
            store(id->id, 4);
            return;
          }
          if (v.get_if<LStringId>()) fail(path, "this plugin is not localized: expected the text, not an lstring id");
          const std::string& s = text(m, v, path).text;
          out_.insert(out_.end(), s.begin(), s.end());
          out_.push_back(0);
          return;
        }
        case ValueType::Chars: {
          const std::string& s = text(m, v, path).text;
          out_.insert(out_.end(), s.begin(), s.end());
          return;
        }
        case ValueType::Bytes: {
          const FieldValue::Bytes* b = v.get_if<FieldValue::Bytes>();
          if (!b) fail(path, fmt::format("expected bytes, not {}", v.kind_name()));
          out_.insert(out_.end(), b->begin(), b->end());
          return;
        }
        default: break;
      }
    }
    if (!m.array) {
      element(m, v, path);
      return;
    }
    const FieldValue::List* list = v.get_if<FieldValue::List>();
    if (!list) fail(path, fmt::format("expected a list of {}, not {}", type_name(m), v.kind_name()));
    const std::size_t count = list->size();
    if (m.count_member >= 0) {
      const std::uint64_t want = counted_by(m, siblings);
      std::string by = members[std::size_t(m.count_member)].name;
      if (m.count_member2 >= 0) by += '*' + members[std::size_t(m.count_member2)].name;
      if (count != want)
        fail(path, fmt::format("holds {}, but {} says {} (change both)", counted(count, "element"), by, want));
    } else if (m.count_prefix) {
      const std::uint64_t most = m.count_prefix == 4 ? 0xFFFFFFFF : (std::uint64_t(1) << (8 * m.count_prefix)) - 1;
      if (count > most) fail(path, fmt::format("holds at most {} elements, not {}", most, count));
      store(count, m.count_prefix);
    } else if (!m.open && count != m.count) {
      fail(path, fmt::format("holds exactly {}, not {}", counted(m.count, "element"), count));
    }
    for (std::size_t k = 0; k < count; ++k) element(m, (*list)[k], path.element(k));
  }

  void element(const LayoutMember& m, const FieldValue& v, const Path& path) {
    switch (m.type) {
      case ValueType::Str8: case ValueType::Str16: case ValueType::Str32:
      case ValueType::ZStr8: case ValueType::ZStr16: case ValueType::ZStr32: {
        const std::string& s = text(m, v, path).text;
        const std::uint32_t prefix = string_prefix_size(m.type);
        const std::uint64_t length = std::uint64_t(s.size()) + (is_zero_ended_string(m.type) ? 1 : 0);
        const std::uint64_t most = prefix == 4 ? 0xFFFFFFFF : (std::uint64_t(1) << (8 * prefix)) - 1;
        if (length > most)
          fail(path, fmt::format("{} holds at most {}, not {}", type_name(m), counted(most, "byte"), length));
        store(length, prefix);
        out_.insert(out_.end(), s.begin(), s.end());
        if (is_zero_ended_string(m.type)) out_.push_back(0);
        return;
      }
      case ValueType::ZString: {  // inside: it ends at its zero
        const std::string& s = text(m, v, path).text;
        if (s.find('\0') != std::string::npos) fail(path, "the text ends at its first zero byte: it cannot hold one");
        out_.insert(out_.end(), s.begin(), s.end());
        out_.push_back(0);
        return;
      }
      case ValueType::ZBuffer: {
        const TextValue& t = text(m, v, path, true);
        if (t.text.find('\0') != std::string::npos) fail(path, "the text ends at its first zero byte: it cannot hold one");
        const std::size_t size = t.text.size() + 1 + t.leftover.size();
        if (size > m.byte_count)
          fail(path, fmt::format("{} holds {} (the text, its zero and the leftover bytes), not {}", type_name(m),
                                 counted(m.byte_count, "byte"), size));
        out_.insert(out_.end(), t.text.begin(), t.text.end());
        out_.push_back(0);
        out_.insert(out_.end(), t.leftover.begin(), t.leftover.end());
        out_.resize(out_.size() + (m.byte_count - size), 0);
        return;
      }
      case ValueType::Struct:
        sequence(m.structure->members, v, false, m.structure->positional, path);
        return;
      case ValueType::F32: {
        float f = 0;
        if (const float* p = v.get_if<float>()) f = *p;
        else if (const std::int64_t* i = v.get_if<std::int64_t>()) f = float(*i);
        else if (const std::uint64_t* u = v.get_if<std::uint64_t>()) f = float(*u);
        else fail(path, fmt::format("expected a float, not {}", v.kind_name()));
        store(std::bit_cast<std::uint32_t>(f), 4);
        return;
      }
      case ValueType::FormId: {
        const FormIdValue* id = v.get_if<FormIdValue>();
        if (!id) fail(path, fmt::format("expected a FormID, not {}", v.kind_name()));
        if (m.fixed_value && id->raw != *m.fixed_value)
          fail(path, fmt::format("is {:08X} in this layout, not {:08X}", *m.fixed_value, id->raw));
        store(id->raw, 4);
        return;
      }
      case ValueType::Sig: {
        if (const Signature* s = v.get_if<Signature>()) {
          store(s->value(), 4);
          return;
        }
        const TextValue* t = v.get_if<TextValue>();
        if (!t) fail(path, fmt::format("expected a signature, not {}", v.kind_name()));
        if (t->text.size() != 4 || !t->leftover.empty())
          fail(path, fmt::format("a signature is four characters, not {}", t->text.size()));
        out_.insert(out_.end(), t->text.begin(), t->text.end());
        return;
      }
      case ValueType::Bytes: {
        const FieldValue::Bytes* b = v.get_if<FieldValue::Bytes>();
        if (!b) fail(path, fmt::format("expected bytes, not {}", v.kind_name()));
        if (b->size() != m.byte_count)
          fail(path, fmt::format("{} holds {}, not {}", type_name(m), counted(m.byte_count, "byte"), b->size()));
        out_.insert(out_.end(), b->begin(), b->end());
        return;
      }
      case ValueType::LString: case ValueType::Chars:  // the rest of the field: handled by member()
        fail(path, fmt::format("a {} takes the rest of the field", type_name(m)));
      default:
        integer(m, v, path);
        return;
    }
  }

  // The integer member m's value from v: its bits, or an error saying why not.
  void integer(const LayoutMember& m, const FieldValue& v, const Path& path) {
    const std::uint32_t bits = m.element_size() * 8;
    const std::uint64_t mask = bits == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits) - 1;
    const bool sign = is_signed_integer(m.type);
    const std::int64_t lowest = !sign ? 0 : bits == 64 ? std::numeric_limits<std::int64_t>::min() : -(std::int64_t(1) << (bits - 1));
    const std::uint64_t highest = sign ? mask >> 1 : mask;
    const auto from_signed = [&](std::int64_t x) {
      if (x < lowest || (x >= 0 && std::uint64_t(x) > highest))
        fail(path, fmt::format("{} does not fit {}", x, type_name(m)));
      return std::uint64_t(x) & mask;
    };
    const auto from_unsigned = [&](std::uint64_t x) {
      if (x > highest) fail(path, fmt::format("{} does not fit {}", x, type_name(m)));
      return x;
    };
    // A label's value, as the text layer reads one: within the member's bits.
    const auto labelled = [&](std::string_view label, std::string_view what) {
      const auto value = m.names->value(label);
      if (!value) fail(path, fmt::format("'{}' is not {} of {}", label, what, m.names->name));
      return *value & mask;
    };
    std::uint64_t bits_value = 0;
    if (const std::int64_t* i = v.get_if<std::int64_t>()) {
      bits_value = from_signed(*i);
    } else if (const std::uint64_t* u = v.get_if<std::uint64_t>()) {
      bits_value = from_unsigned(*u);
    } else if (m.names && m.names->is_flags && v.get_if<FlagsValue>()) {
      const FlagsValue& f = *v.get_if<FlagsValue>();
      if (f.unnamed & ~mask) fail(path, fmt::format("0x{:X} does not fit {}", f.unnamed, type_name(m)));
      bits_value = f.unnamed;
      for (const std::string& name : f.names) bits_value |= labelled(name, "a flag");
    } else if (m.names && m.names->is_flags && v.get_if<FieldValue::List>()) {
      const FieldValue::List& names = *v.get_if<FieldValue::List>();
      for (std::size_t k = 0; k < names.size(); ++k) {
        const TextValue* t = names[k].get_if<TextValue>();
        if (!t) fail(path.element(k), fmt::format("expected a flag name of {}, not {}", m.names->name, names[k].kind_name()));
        bits_value |= labelled(t->text, "a flag");
      }
    } else if (m.names && !m.names->is_flags && v.get_if<EnumValue>()) {
      const EnumValue& e = *v.get_if<EnumValue>();
      if (!e.label.empty()) bits_value = labelled(e.label, "a value");
      else bits_value = sign ? from_signed(std::int64_t(e.number)) : from_unsigned(e.number);
    } else if (m.names && !m.names->is_flags && v.get_if<TextValue>()) {
      bits_value = labelled(v.get_if<TextValue>()->text, "a value");
    } else if (m.names) {
      fail(path, fmt::format("expected {} of {} (or a number), not {}", m.names->is_flags ? "flags" : "a value",
                             m.names->name, v.kind_name()));
    } else {
      fail(path, fmt::format("expected an integer ({}), not {}", type_name(m), v.kind_name()));
    }
    const std::size_t start = out_.size();
    store(bits_value, bits / 8);
    if (m.fixed_value) {
      const std::uint64_t stored = load_member_integer(m, out_.data() + start);
      if (stored != *m.fixed_value) {
        const auto shown = [&](std::uint64_t x) { return sign ? std::to_string(std::int64_t(x)) : std::to_string(x); };
        fail(path, fmt::format("is {} in this layout, not {}", shown(*m.fixed_value), shown(stored)));
      }
    }
  }

  const TextValue& text(const LayoutMember& m, const FieldValue& v, const Path& path, bool leftover = false) const {
    const TextValue* t = v.get_if<TextValue>();
    if (!t) fail(path, fmt::format("expected text ({}), not {}", type_name(m), v.kind_name()));
    if (!leftover && !t->leftover.empty()) fail(path, "only a zstringN keeps leftover bytes after its text");
    return *t;
  }

  void store(std::uint64_t value, std::uint32_t size) {
    for (std::uint32_t i = 0; i < size; ++i) out_.push_back(std::uint8_t(value >> (8 * i)));
  }

  const FieldLayout& layout_;
  bool localized_;
  std::vector<std::uint8_t>& out_;
};

}  // namespace

FieldValue decode_field(const FieldLayout& layout, std::span<const std::uint8_t> data, bool localized, Signature field) {
  const std::string field_name = field == Signature() ? std::string() : field.str();
  const Path root{nullptr, field_name};
  FieldValue::Struct members;
  std::size_t at = 0;  // where the members read end
  const auto taken = Decoder(localized).sequence(layout.members, data, true, members, &at);
  if (!taken) {
    const LayoutMember& m = layout.members[members.size()];
    fail(layout, root.member(m.name),
         at == data.size() ? fmt::format("the field ends before it ({} in all)", counted(data.size(), "byte"))
                           : fmt::format("the bytes from byte {} of {} do not read as {}{}", at, data.size(), type_name(m),
                                         m.array ? " elements" : ""));
  }
  if (*taken != data.size())
    fail(layout, root, fmt::format("{} left after the last member", counted(data.size() - *taken, "byte")));
  for (std::size_t i = members.size(); i < layout.members.size(); ++i) members.push_back({layout.members[i].name, {}});
  return members;
}

std::vector<std::uint8_t> encode_field(const FieldLayout& layout, const FieldValue& value, bool localized, Signature field) {
  const std::string field_name = field == Signature() ? std::string() : field.str();
  const Path root{nullptr, field_name};
  std::vector<std::uint8_t> out;
  out.reserve(layout.fixed_size + 16);
  Encoder encoder(layout, localized, out);
  encoder.sequence(layout.members, value, true, false, root);
  // What every check above means to give; a layout the bytes do not fit would not read them back.
  if (!layout.fits(out, localized)) encoder.fail(root, "the bytes written do not read back as the layout");
  return out;
}

}  // namespace tesmod::fields

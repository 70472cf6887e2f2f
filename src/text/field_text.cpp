#include "tesmod/text/field_text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>

#include "tesmod/io/counted.hpp"
#include "tesmod/io/little_endian.hpp"

namespace tesmod::text {
namespace {

constexpr char kHexDigits[] = "0123456789ABCDEF";

bool is_hex(ValueType t) { return t == ValueType::X8 || t == ValueType::X16 || t == ValueType::X32 || t == ValueType::X64; }

void append_flags(std::string& out, std::uint64_t value, const ValueNames& names) {
  if (value == 0) {
    out += '0';
    return;
  }
  bool first = true;
  for (const auto& [bit, label] : names.entries) {
    if (bit == 0 || (value & bit) != bit) continue;
    if (!first) out += '|';
    out += label;
    value &= ~bit;
    first = false;
  }
  if (value) {
    if (!first) out += '|';
    out += "0x";
    append_hex_digits(out, value, 1);
  }
}

void append_integer(std::string& out, const LayoutMember& m, std::uint64_t value) {
  if (m.names && m.names->is_flags) {
    append_flags(out, value, *m.names);
    return;
  }
  if (m.names)
    if (auto label = m.names->label(value)) {
      out += *label;
      return;
    }
  const std::uint32_t size = m.element_size();
  if (is_hex(m.type)) {
    out += "0x";
    append_hex_digits(out, value, int(size * 2));
  } else if (fields::is_signed_integer(m.type)) {
    append_decimal(out, std::int64_t(value));
  } else {
    append_decimal(out, value);
  }
}

bool is_plain_sig(const std::uint8_t* p) {
  for (int i = 0; i < 4; ++i) {
    const char c = char(p[i]);
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

// Appends one element of a fixed-size member at p.
void append_element(std::string& out, const LayoutMember& m, const std::uint8_t* p, const FieldTextContext& context) {
  switch (m.type) {
    case ValueType::F32: append_float(out, le::f32(p)); return;
    case ValueType::FormId: context.namer->append_name(out, le::u32(p)); return;
    case ValueType::Sig:
      if (is_plain_sig(p)) out.append(reinterpret_cast<const char*>(p), 4);
      else append_quoted(out, std::string_view(reinterpret_cast<const char*>(p), 4), *context.codec);
      return;
    case ValueType::Bytes: append_hex(out, {p, m.byte_count}); return;
    case ValueType::ZBuffer: {  // "text", then +HEX: the bytes after its zero up to the last that is not zero
      const std::uint8_t* zero = std::find(p, p + m.byte_count, std::uint8_t{0});
      append_quoted(out, std::string_view(reinterpret_cast<const char*>(p), std::size_t(zero - p)), *context.codec);
      const std::uint8_t* end = p + m.byte_count;
      while (end > zero + 1 && end[-1] == 0) --end;
      if (end > zero + 1) {
        out += '+';
        append_hex(out, {zero + 1, std::size_t(end - zero - 1)});
      }
      return;
    }
    default: append_integer(out, m, fields::load_member_integer(m, p)); return;
  }
}

// Integers without names or a fixed value, and floats: their text has a bound length
// (kMaxFloatText at most), so the array writer below writes them straight into place.
bool bare_number(const LayoutMember& m) {
  return !m.names && !m.fixed_value && (m.type == ValueType::F32 || m.type <= ValueType::X64);
}

// Whether every element of m (an array of fixed-size elements) is a bare number or a tuple of them.
bool bare_elements(const LayoutMember& m) {
  if (m.type != ValueType::Struct) return bare_number(m);
  return m.structure->positional && std::all_of(m.structure->members.begin(), m.structure->members.end(),
                                                [](const LayoutMember& n) { return !n.array && bare_number(n); });
}

char* write_bare_number(char* p, const LayoutMember& m, const std::uint8_t* b) {
  if (m.type == ValueType::F32) return write_float(p, le::f32(b));
  const std::uint64_t v = fields::load_member_integer(m, b);
  if (is_hex(m.type)) {
    *p++ = '0';
    *p++ = 'x';
    for (int shift = int(m.element_size()) * 8 - 4; shift >= 0; shift -= 4) *p++ = kHexDigits[(v >> shift) & 15];
    return p;
  }
  return fields::is_signed_integer(m.type) ? write_decimal(p, std::int64_t(v)) : write_decimal(p, v);
}

// The decimal text of every byte, unsigned and signed (what write_decimal writes), four
// characters apart: landscape colours and normals are a third of an exported world's text.
struct ByteTexts {
  char text[256][4];
  std::uint8_t size[256];
  constexpr explicit ByteTexts(bool is_signed) : text{}, size{} {
    for (int b = 0; b < 256; ++b) {
      int v = is_signed && b >= 128 ? b - 256 : b;
      char digits[4] = {};
      int n = 0;
      if (v < 0) digits[n++] = '-', v = -v;
      if (v >= 100) digits[n++] = char('0' + v / 100);
      if (v >= 10) digits[n++] = char('0' + v / 10 % 10);
      digits[n++] = char('0' + v % 10);
      for (int k = 0; k < 4; ++k) text[b][k] = digits[k];
      size[b] = std::uint8_t(n);
    }
  }
};
constexpr ByteTexts kUnsignedByteTexts(false), kSignedByteTexts(true);

// The values the array loops write and read without the general path's dispatch: bare numbers,
// and (read only: the writer takes bare_elements) a fixed number of bytes in hex.
enum class BareKind : std::uint8_t { Other, U8, I8, U16, I16, U32, I32, F32, X8, X16, X32, Bytes };

BareKind bare_kind(const LayoutMember& m) {
  if (m.type == ValueType::Bytes && !m.array && !m.fixed_value && m.byte_count > 0 && m.byte_count <= 64)
    return BareKind::Bytes;
  if (!bare_number(m)) return BareKind::Other;
  switch (m.type) {
    case ValueType::X8: return BareKind::X8;
    case ValueType::X16: return BareKind::X16;
    case ValueType::X32: return BareKind::X32;
    case ValueType::U8: return BareKind::U8;
    case ValueType::I8: return BareKind::I8;
    case ValueType::U16: return BareKind::U16;
    case ValueType::I16: return BareKind::I16;
    case ValueType::U32: return BareKind::U32;
    case ValueType::I32: return BareKind::I32;
    case ValueType::F32: return BareKind::F32;
    default: return BareKind::Other;
  }
}

// The most characters write_bare writes for a member of kind k.
std::size_t most_text(BareKind k) {
  switch (k) {
    case BareKind::U8: return 3;
    case BareKind::I8: return 4;
    case BareKind::U16: return 5;
    case BareKind::I16: return 6;
    case BareKind::U32: return 10;
    case BareKind::I32: return 11;
    default: return std::max(kMaxFloatText, kMaxDecimalText);  // floats, and hex up to 0x + 16 digits
  }
}

char* write_byte_text(char* p, const ByteTexts& texts, std::uint8_t b) {
  std::memcpy(p, texts.text[b], 4);
  return p + texts.size[b];
}

// write_bare_number for a member of kind k (m itself only for BareKind::Other).
char* write_bare(char* p, BareKind k, const LayoutMember& m, const std::uint8_t* b) {
  switch (k) {
    case BareKind::U8: return write_byte_text(p, kUnsignedByteTexts, b[0]);
    case BareKind::I8: return write_byte_text(p, kSignedByteTexts, b[0]);
    case BareKind::U16: return write_decimal(p, std::uint64_t(le::u16(b)));
    case BareKind::I16: return write_decimal(p, std::int64_t(std::int16_t(le::u16(b))));
    case BareKind::U32: return write_decimal(p, std::uint64_t(le::u32(b)));
    case BareKind::I32: return write_decimal(p, std::int64_t(std::int32_t(le::u32(b))));
    case BareKind::F32: return write_float(p, le::f32(b));
    default: break;
  }
  return write_bare_number(p, m, b);
}

// The tuple members' kinds and offsets, for the loops over arrays of tuples (at most kMostValues
// members: longer tuples take the general path).
constexpr std::size_t kMostValues = 16;
struct TupleShape {
  std::size_t values = 0;
  BareKind kind[kMostValues];
  std::uint32_t offset[kMostValues];
};

bool tuple_shape(const LayoutMember& m, TupleShape& shape) {
  const auto& members = m.structure->members;
  if (members.size() > kMostValues) return false;
  shape.values = members.size();
  std::uint32_t at = 0;
  for (std::size_t k = 0; k < members.size(); ++k) {
    shape.kind[k] = bare_kind(members[k]);
    shape.offset[k] = at;
    at += members[k].element_size();
  }
  return true;
}

// ", " or "," (array_separator's): written in place, as a call to memmove costs more than the copy.
char* write_separator(char* q, std::string_view separator) {
  if (separator.empty() || separator.size() > 2) return std::copy(separator.begin(), separator.end(), q);
  q[0] = separator[0];
  q[1] = separator.back();  // of a one-character separator: the next element's text writes over it
  return q + separator.size();
}

// count elements of a bare_elements() member at p, as append_element / append_plain_struct write
// them, written in place: the millions of values of navmeshes and landscapes.
void append_bare_elements(std::string& out, const LayoutMember& m, const std::uint8_t* p, std::size_t count,
                          std::string_view separator) {
  const bool tuple = m.type == ValueType::Struct;
  const std::size_t values = tuple ? m.structure->members.size() : 1;
  TupleShape shape;
  const bool shaped = tuple && tuple_shape(m, shape);
  // Room for the longest text the elements can have (written over, then cut back); the last
  // write_byte_text may copy up to 3 bytes past its text.
  std::size_t most = separator.size() + (tuple ? 2 : 0) + values;
  if (!tuple) most += most_text(bare_kind(m));
  else if (shaped) for (std::size_t k = 0; k < values; ++k) most += most_text(shape.kind[k]);
  else most += values * most_text(BareKind::Other);
  const std::size_t start = out.size();
  out.resize(start + count * most + 4);
  char* q = out.data() + start;
  const std::uint32_t size = m.element_size();
  if (!tuple) {
    const BareKind kind = bare_kind(m);
    for (std::size_t i = 0; i < count; ++i, p += size) {
      if (i) q = write_separator(q, separator);
      q = write_bare(q, kind, m, p);
    }
  } else if (shaped) {
    for (std::size_t i = 0; i < count; ++i, p += size) {
      if (i) q = write_separator(q, separator);
      *q++ = '(';
      for (std::size_t k = 0; k < shape.values; ++k) {
        if (k) *q++ = ' ';
        q = write_bare(q, shape.kind[k], m.structure->members[k], p + shape.offset[k]);
      }
      *q++ = ')';
    }
  } else {
    for (std::size_t i = 0; i < count; ++i, p += size) {
      if (i) q = write_separator(q, separator);
      *q++ = '(';
      const std::uint8_t* b = p;
      for (std::size_t k = 0; k < values; ++k) {
        const LayoutMember& n = m.structure->members[k];
        if (k) *q++ = ' ';
        q = write_bare_number(q, n, b);
        b += n.element_size();
      }
      *q++ = ')';
    }
  }
  out.resize(std::size_t(q - out.data()));
}

// ---- parsing --------------------------------------------------------------------------------

void store_integer(std::vector<std::uint8_t>& out, std::uint64_t value, std::uint32_t size) {
  for (std::uint32_t i = 0; i < size; ++i) out.push_back(std::uint8_t(value >> (8 * i)));
}

// A plain decimal (`-` and up to 18 digits) at the start of w that ends at a word break and fits m:
// the characters read, or 0 for anything else (names, hex, out of range: the general path reads
// those and says why). The common case: the thousands of values of a navmesh or a landscape.
std::size_t plain_decimal(const LayoutMember& m, std::string_view w, std::uint64_t& value) {
  const bool negative = !w.empty() && w[0] == '-';
  std::size_t i = negative ? 1 : 0;
  const std::size_t digits_at = i;
  std::uint64_t v = 0;
  for (; i < w.size() && i - digits_at < 18; ++i) {
    const unsigned d = unsigned(w[i]) - '0';
    if (d > 9) break;
    v = v * 10 + d;
  }
  if (i == digits_at || (i < w.size() && !is_word_break(w[i]))) return 0;
  const std::uint32_t bits = m.element_size() * 8;
  const std::uint64_t mask = bits == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits) - 1;
  if (fields::is_signed_integer(m.type)) {
    const std::uint64_t magnitude = std::uint64_t(1) << (bits - 1);  // of the most negative value
    if (negative ? v > magnitude : v >= magnitude) return 0;
    value = (negative ? 0 - v : v) & mask;
  } else {
    if (negative ? v != 0 : v > mask) return 0;
    value = v;
  }
  return i;
}

bool scan_plain_decimal(const LayoutMember& m, LineScanner& line, std::uint64_t& value) {
  const std::size_t n = plain_decimal(m, line.rest(), value);
  line.seek(line.position() + n);
  return n != 0;
}

// Whether parse_int may read w (names, the common words here, never do).
bool starts_like_decimal(std::string_view w) {
  return !w.empty() && (w[0] == '-' || w[0] == '+' || unsigned(w[0] - '0') <= 9);
}

std::uint64_t parse_integer_word(const LayoutMember& m, LineScanner& line) {
  line.skip_blanks();
  const std::size_t at = line.position();
  if (std::uint64_t v; scan_plain_decimal(m, line, v)) return v;
  const std::string_view w = line.expect_word("a number");
  const std::uint32_t bits = m.element_size() * 8;
  std::optional<std::uint64_t> value;
  if (w.starts_with("0x") || w.starts_with("0X")) {
    value = parse_uint(w);
    if (value && bits < 64 && *value >> bits) value.reset();
  } else if (auto v = starts_like_decimal(w) ? parse_int(w) : std::nullopt) {  // not for names
    const std::int64_t lo = fields::is_signed_integer(m.type) ? (bits == 64 ? std::numeric_limits<std::int64_t>::min() : -(std::int64_t(1) << (bits - 1))) : 0;
    const std::int64_t hi = bits == 64 ? std::numeric_limits<std::int64_t>::max()
                            : fields::is_signed_integer(m.type) ? (std::int64_t(1) << (bits - 1)) - 1
                                                : std::int64_t((std::uint64_t(1) << bits) - 1);
    if (*v >= lo && *v <= hi) value = bits == 64 ? std::uint64_t(*v) : std::uint64_t(*v) & ((std::uint64_t(1) << bits) - 1);
  } else if (!fields::is_signed_integer(m.type) && bits == 64) {
    value = parse_uint(w);
  } else if (m.names) {
    if (auto v = m.names->value(w)) value = bits == 64 ? *v : *v & ((std::uint64_t(1) << bits) - 1);
  }
  if (!value) {
    if (m.names)
      line.fail_at(at, fmt::format("expected a {} name of {} or a number that fits {} bits, not '{}'",
                                   m.names->is_flags ? "flag" : "value", m.names->name, bits, w));
    line.fail_at(at, fmt::format("expected a{} number that fits {} bits, not '{}'", fields::is_signed_integer(m.type) ? "" : "n unsigned",
                                 bits, w));
  }
  return *value;
}

// One word of a flags value: a flag's name as written (what export writes), looked up at once;
// anything else (numbers, names in another case, errors) as parse_integer_word reads it.
std::uint64_t parse_flag_word(const LayoutMember& m, LineScanner& line) {
  const std::size_t at = line.position();
  const std::string_view w = line.word();
  if (!w.empty() && !starts_like_decimal(w))
    if (const auto v = m.names->value(w)) {
      const std::uint32_t bits = m.element_size() * 8;
      return bits == 64 ? *v : *v & ((std::uint64_t(1) << bits) - 1);
    }
  line.seek(at);
  return parse_integer_word(m, line);
}

std::uint64_t parse_integer(const LayoutMember& m, LineScanner& line) {
  if (!(m.names && m.names->is_flags)) return parse_integer_word(m, line);
  std::uint64_t value = 0;
  do value |= parse_flag_word(m, line);
  while (line.accept('|'));
  return value;
}

void parse_element(std::vector<std::uint8_t>& out, const LayoutMember& m, LineScanner& line,
                   const FieldTextContext& context) {
  line.skip_blanks();
  switch (m.type) {
    case ValueType::F32: {
      const std::size_t at = line.position();
      const std::string_view w = line.expect_word("a float");
      const auto f = parse_float(w);
      if (!f) line.fail_at(at, fmt::format("expected a float, not '{}'", w));
      store_integer(out, std::bit_cast<std::uint32_t>(*f), 4);
      return;
    }
    case ValueType::FormId: {
      const std::size_t at = line.position();
      const std::string_view ref = line.form_reference();
      const auto id = context.namer->resolve(ref);
      if (!id) line.fail_at(at, unknown_form_message(ref));
      store_integer(out, *id, 4);
      return;
    }
    case ValueType::Sig: {
      const std::size_t at = line.position();
      std::string s = line.peek() == '"' ? line.quoted_string(*context.codec) : std::string(line.expect_word("four characters"));
      if (s.size() != 4) line.fail_at(at, fmt::format("expected four characters, not {}", s.size()));
      out.insert(out.end(), s.begin(), s.end());
      return;
    }
    case ValueType::Bytes: {
      const std::size_t at = line.position();
      const std::string_view w = line.word();
      const auto bytes = parse_hex(w);
      if (!bytes || bytes->size() != m.byte_count)
        line.fail_at(at, fmt::format("expected {} as {} hex digits", counted(m.byte_count, "byte"), m.byte_count * 2));
      out.insert(out.end(), bytes->begin(), bytes->end());
      return;
    }
    case ValueType::ZBuffer: {
      const std::size_t at = line.position();
      const std::string text = line.quoted_string(*context.codec);
      if (text.find('\0') != std::string::npos) line.fail_at(at, fmt::format("{} ends at its first zero byte: the text cannot hold one", m.name));
      const std::size_t start = out.size();
      out.insert(out.end(), text.begin(), text.end());
      out.push_back(0);
      if (line.peek() == '+') {  // the bytes kept after the zero
        line.accept('+');
        const std::size_t hex_at = line.position();
        if (!append_parsed_hex(line.word(), out)) line.fail_at(hex_at, "expected hex digits after '+', two per byte");
      }
      if (out.size() - start > m.byte_count)
        line.fail_at(at, fmt::format("{} holds {} (the text, its zero and the bytes after it)", m.name, counted(m.byte_count, "byte")));
      out.resize(start + m.byte_count, 0);
      return;
    }
    default: {
      const std::size_t at = line.position();
      const std::uint64_t value = parse_integer(m, line);
      if (m.fixed_value && value != *m.fixed_value) line.fail_at(at, fmt::format("{} is {} in this layout", m.name, *m.fixed_value));
      store_integer(out, value, m.element_size());
      return;
    }
  }
}

// ---- layouts that are not simple: structs, counted arrays, prefixed and inner strings -----

std::string_view chars_at(const std::uint8_t* p, std::size_t n) { return {reinterpret_cast<const char*>(p), n}; }

void append_member(std::string& out, const LayoutMember& m, std::span<const std::uint8_t> data, bool last,
                   const FieldTextContext& context);

// Between array elements: ", ", or a bare "," in arrays of more than 16 (landscape heights,
// normals, navmesh geometry), a third less text to write and read.
std::string_view array_separator(std::size_t count) { return count > 16 ? "," : ", "; }

// A struct whose members have fixed sizes and no fixed values, at p: written member by member
// at known offsets, without measuring (long arrays of them: navmesh vertices, landscape cells).
void append_plain_struct(std::string& out, const fields::StructLayout& s, const std::uint8_t* p,
                         const FieldTextContext& context) {
  if (s.positional) {  // a tuple: (1 2 3)
    out += '(';
    for (std::size_t i = 0; i < s.members.size(); ++i) {
      if (i) out += ' ';
      append_element(out, s.members[i], p, context);
      p += s.members[i].element_size();
    }
    out += ')';
    return;
  }
  out += '{';
  bool first = true;
  for (const LayoutMember& m : s.members) {
    if (!first) out += ' ';
    first = false;
    out += m.name;
    out += '=';
    const std::uint32_t size = m.element_size();
    if (m.array) out += '[';
    for (std::uint32_t i = 0; i < m.count; ++i) {
      if (i) out += array_separator(m.count);
      if (m.type == ValueType::Struct) append_plain_struct(out, *m.structure, p, context);
      else append_element(out, m, p, context);
      p += size;
    }
    if (m.array) out += ']';
  }
  out += '}';
}

// A tuple (a positional struct of single values) as append_plain_struct writes it, its bare
// numbers written in place and the rest (names, flags, FormIDs, bytes) by append_element: the
// elements of long arrays such as navmesh triangles, whose flags keep them from the bare loops.
void append_shaped_tuple(std::string& out, const fields::StructLayout& s, const TupleShape& shape, const std::uint8_t* p,
                         const FieldTextContext& context) {
  char buf[2 + kMostValues * (std::max(kMaxFloatText, kMaxDecimalText) + 1)];
  char* q = buf;
  *q++ = '(';
  for (std::size_t k = 0; k < shape.values; ++k) {
    if (k) *q++ = ' ';
    const LayoutMember& n = s.members[k];
    if (shape.kind[k] != BareKind::Other && shape.kind[k] != BareKind::Bytes) {
      q = write_bare(q, shape.kind[k], n, p + shape.offset[k]);
      continue;
    }
    out.append(buf, q);
    q = buf;
    append_element(out, n, p + shape.offset[k], context);
  }
  *q++ = ')';
  out.append(buf, q);
}

// One element of a member that does not take the rest of the field; data starts at it and was
// measured to fit.
std::size_t append_one(std::string& out, const LayoutMember& m, std::span<const std::uint8_t> data,
                       const FieldTextContext& context) {
  const std::size_t size = *fields::measure_element(m, data, context.localized);
  if (const std::uint32_t prefix = fields::string_prefix_size(m.type)) {
    append_quoted(out, chars_at(data.data() + prefix, size - prefix - (fields::is_zero_ended_string(m.type) ? 1 : 0)), *context.codec);
  } else if (m.type == ValueType::ZString) {
    append_quoted(out, chars_at(data.data(), size - 1), *context.codec);
  } else if (m.type == ValueType::Struct && m.structure->plain) {
    append_plain_struct(out, *m.structure, data.data(), context);
  } else if (m.type == ValueType::Struct) {
    out += '{';
    const auto& members = m.structure->members;
    fields::walk_members(members, data.first(size), false, context.localized,
                         [&](std::size_t i, std::span<const std::uint8_t> bytes) {
                           if (i) out += ' ';
                           out += members[i].name;
                           out += '=';
                           append_member(out, members[i], bytes, false, context);
                         });
    out += '}';
  } else {
    append_element(out, m, data.data(), context);
  }
  return size;
}

// A member whose bytes are exactly data (measured before).
void append_member(std::string& out, const LayoutMember& m, std::span<const std::uint8_t> data, bool last,
                   const FieldTextContext& context) {
  if (m.open && last) {
    switch (m.type) {
      case ValueType::ZString: append_quoted(out, chars_at(data.data(), data.size() - 1), *context.codec); return;
      case ValueType::Chars: append_quoted(out, chars_at(data.data(), data.size()), *context.codec); return;
      case ValueType::Bytes: append_hex(out, data); return;
      default: break;
    }
  }
  if (!m.array) {
    append_one(out, m, data, context);
    return;
  }
  std::size_t at = m.count_prefix;
  out += '[';
  if (m.plain_elements()) {  // fixed stride: no measuring per element
    const std::uint32_t size = m.element_size();
    const std::string_view separator = array_separator((data.size() - at) / size);
    if (bare_elements(m)) {
      append_bare_elements(out, m, data.data() + at, (data.size() - at) / size, separator);
      out += ']';
      return;
    }
    TupleShape shape;
    if (m.type == ValueType::Struct && m.structure->positional && tuple_shape(m, shape)) {
      for (; at + size <= data.size(); at += size) {
        if (at != m.count_prefix) out += separator;
        append_shaped_tuple(out, *m.structure, shape, data.data() + at, context);
      }
      out += ']';
      return;
    }
    for (; at + size <= data.size(); at += size) {
      if (at != m.count_prefix) out += separator;
      if (m.type == ValueType::Struct) append_plain_struct(out, *m.structure, data.data() + at, context);
      else append_element(out, m, data.data() + at, context);
    }
    out += ']';
    return;
  }
  bool first = true;
  while (at < data.size()) {
    if (!first) out += ", ";
    first = false;
    at += append_one(out, m, data.subspan(at), context);
  }
  out += ']';
}

void parse_member(std::vector<std::uint8_t>& out, const LayoutMember& m, LineScanner& line, const FieldTextContext& context,
                  bool last, std::span<const std::uint64_t> siblings);

std::string member_names(const fields::StructLayout& s) {
  std::string out;
  for (const LayoutMember& m : s.members) {
    if (!out.empty()) out += ' ';
    out += m.name;
  }
  return out;
}

// A sequence of members (a layout's, `name=value` each unless it is a layout's single member, or
// a struct's), keeping the values of integer members for the `[@count]` arrays after them.
void parse_sequence(std::vector<std::uint8_t>& out, std::span<const LayoutMember> members, LineScanner& line,
                    const FieldTextContext& context, bool field_end, bool named) {
  fields::MemberIntegers integers(members.size());  // for `[@count]` arrays
  const std::span<std::uint64_t> values = integers.values();
  for (std::size_t i = 0; i < members.size(); ++i) {
    const LayoutMember& m = members[i];
    if (m.optional && field_end && line.at_end()) break;  // the field ends before its optional members
    if (named) line.expect_key(m.name);
    const std::size_t start = out.size();
    parse_member(out, m, line, context, field_end && i + 1 == members.size(), values.first(i));
    if (fields::is_integer_scalar(m) && m.element_size() && out.size() >= start + m.element_size())
      values[i] = fields::load_member_integer(m, out.data() + start);
  }
}

void store_string(std::vector<std::uint8_t>& out, const LayoutMember& m, LineScanner& line, const FieldTextContext& context) {
  const std::size_t at = line.position();
  const std::string s = line.quoted_string(*context.codec);
  const std::uint32_t prefix = fields::string_prefix_size(m.type);
  if (prefix) {
    const std::uint64_t length = s.size() + (fields::is_zero_ended_string(m.type) ? 1 : 0);
    if (prefix < 4 && length >> (8 * prefix)) line.fail_at(at, fmt::format("{} holds at most {} bytes", m.name, (1u << (8 * prefix)) - 1));
    store_integer(out, length, prefix);
  } else if (s.find('\0') != std::string::npos) {
    line.fail_at(at, fmt::format("{} ends at its first zero byte: the text cannot hold one", m.name));
  }
  out.insert(out.end(), s.begin(), s.end());
  if (!prefix || fields::is_zero_ended_string(m.type)) out.push_back(0);
}

void parse_one(std::vector<std::uint8_t>& out, const LayoutMember& m, LineScanner& line, const FieldTextContext& context) {
  if (fields::string_prefix_size(m.type) || m.type == ValueType::ZString) {
    store_string(out, m, line, context);
  } else if (m.type == ValueType::Struct && m.structure->positional) {
    // The messages are made only on an error: this runs for every vertex of a navmesh.
    if (!line.accept('(')) line.fail(fmt::format("expected '(' to start {} (its values in order: {})", m.name, member_names(*m.structure)));
    for (const LayoutMember& inner : m.structure->members) parse_element(out, inner, line, context);
    if (!line.accept(')')) line.fail(fmt::format("expected ')' to end {} ({} values)", m.name, m.structure->members.size()));
  } else if (m.type == ValueType::Struct) {
    if (!line.accept('{')) line.fail(fmt::format("expected '{{' to start {}", m.name));
    parse_sequence(out, m.structure->members, line, context, false, true);
    if (!line.accept('}')) line.fail(fmt::format("expected '}}' to end {}", m.name));
  } else {
    parse_element(out, m, line, context);
  }
}

// Whether m is an array of plain values or of tuples of them (navmesh geometry, landscape
// normals and colours, heights): what parse_element_array reads.
bool element_array(const LayoutMember& m) {
  if (!m.plain_elements()) return false;
  if (m.type != ValueType::Struct) return true;
  return m.structure->positional && std::all_of(m.structure->members.begin(), m.structure->members.end(),
                                                [](const LayoutMember& n) { return !n.array && n.type != ValueType::Struct; });
}

// The range and size of each integer BareKind (indexed by it).
struct BareRange {
  std::uint64_t most;  // the largest magnitude (of a negative value: most + 1)
  std::uint8_t bytes;
  bool is_signed;
};
constexpr BareRange kBareRanges[] = {
    {0, 0, false},            // Other
    {0xFF, 1, false},         // U8
    {0x7F, 1, true},          // I8
    {0xFFFF, 2, false},       // U16
    {0x7FFF, 2, true},        // I16
    {0xFFFFFFFF, 4, false},   // U32
    {0x7FFFFFFF, 4, true},    // I32
    {0, 0, false},            // F32
    {0xFF, 1, false},         // X8
    {0xFFFF, 2, false},       // X16
    {0xFFFFFFFF, 4, false},   // X32
    {0, 0, false},            // Bytes
};
static_assert(std::size(kBareRanges) == std::size_t(BareKind::Bytes) + 1);

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// `0x` and 1 to 2*bytes hex digits of an X kind, or exactly 2*count hex digits of `count` bytes,
// at p (before end) ending at a word break, stored at q: the end of its text, or nullptr for
// anything else (the general path reads it and says why).
const char* read_bare_hex(BareKind k, std::uint32_t count, const char* p, const char* end, std::uint8_t* q) {
  if (k == BareKind::Bytes) {
    if (std::size_t(end - p) < 2 * std::size_t(count)) return nullptr;
    for (std::uint32_t b = 0; b < count; ++b, p += 2) {
      const int hi = hex_digit(p[0]), lo = hex_digit(p[1]);
      if (hi < 0 || lo < 0) return nullptr;
      q[b] = std::uint8_t(hi << 4 | lo);
    }
    return p < end && !is_word_break(*p) ? nullptr : p;
  }
  const BareRange& range = kBareRanges[std::size_t(k)];
  if (end - p < 3 || p[0] != '0' || (p[1] != 'x' && p[1] != 'X')) return nullptr;
  p += 2;
  const char* const digits = p;
  std::uint64_t v = 0;
  for (int d; p < end && p - digits < 2 * range.bytes && (d = hex_digit(*p)) >= 0; ++p) v = v << 4 | unsigned(d);
  if (p == digits || (p < end && !is_word_break(*p))) return nullptr;
  for (std::uint32_t b = 0; b < range.bytes; ++b) q[b] = std::uint8_t(v >> (8 * b));
  return p;
}

// A plain decimal of kind k (an integer kind) at p (before end) that ends at a word break and is
// in range, stored little-endian at q: the end of its text, or nullptr for anything else (the
// general path reads those and says why). plain_decimal without the look-ups, for the array loop.
const char* read_bare_integer(BareKind k, const char* p, const char* end, std::uint8_t* q) {
  const BareRange& range = kBareRanges[std::size_t(k)];
  const bool negative = p < end && *p == '-';
  const char* const digits = p + negative;
  const char* const most_end = end - digits > 11 ? digits + 11 : end;  // 11 digits pass any 32-bit range
  std::uint64_t v = 0;
  for (p = digits; p < most_end && unsigned(*p - '0') <= 9; ++p) v = v * 10 + unsigned(*p - '0');
  if (p == digits || (p < end && !is_word_break(*p))) return nullptr;
  if (negative) {
    if (!range.is_signed ? v != 0 : v > range.most + 1) return nullptr;
    v = 0 - v;
  } else if (v > range.most) {
    return nullptr;
  }
  q[0] = std::uint8_t(v);
  if (range.bytes > 1) q[1] = std::uint8_t(v >> 8);
  if (range.bytes > 2) q[2] = std::uint8_t(v >> 16), q[3] = std::uint8_t(v >> 24);
  return p;
}

// A decimal of at most three digits, optionally signed, of a byte kind (U8 or I8) at p (before
// end) that ends at a word break and is in range: the byte, and p moved past it; false for
// anything else (the general path reads it and says why). read_bare_integer for the millions of
// landscape colours, normals and heights, without its call and its range table.
inline bool read_bare_byte(bool is_signed, const char*& p, const char* end, std::uint8_t& b) {
  const char* q = p;
  const bool negative = q < end && *q == '-';
  if (negative && !is_signed) return false;
  q += negative;
  // One to three digits, unrolled.
  if (q == end || unsigned(*q - '0') > 9) return false;
  unsigned v = unsigned(*q++ - '0');
  if (q < end && unsigned(*q - '0') <= 9) {
    v = v * 10 + unsigned(*q++ - '0');
    if (q < end && unsigned(*q - '0') <= 9) v = v * 10 + unsigned(*q++ - '0');
  }
  if (q < end && !is_word_break(*q)) return false;
  if (v > (is_signed ? 127u + negative : 255u)) return false;
  b = std::uint8_t(negative ? 0u - v : v);
  p = q;
  return true;
}

// The elements of an element_array() member and its closing ']', the scanner just past '[': one
// tight loop over the characters, for the millions of values of navmeshes and landscapes. Bare
// numbers are read in place; other values (and numbers written otherwise) by parse_element, as
// the general path reads them, errors and all. False at a bracket or separator it does not
// expect: the caller then puts back the scanner and out and reads the array the general way,
// which says what is wrong.
bool parse_element_array(std::vector<std::uint8_t>& out, const LayoutMember& m, LineScanner& line,
                         const FieldTextContext& context, std::uint64_t& count) {
  const std::size_t base = line.position();
  const std::string_view text = line.rest();
  std::size_t i = 0;
  const auto skip_blanks = [&] {
    while (i < text.size() && is_blank(text[i])) ++i;
  };
  // Bytes are written at out[used], out grown ahead (by what the array has so far, up to 4 KB:
  // one size check per element, not per byte, and never more zeroing than twice the array)
  // and cut back to used at the end.
  std::size_t used = out.size();
  const std::size_t first = used;
  const std::uint32_t element = m.element_size();
  std::vector<std::uint8_t> scratch;
  const auto room = [&] {
    if (out.size() < used + element) out.resize(used + element + std::min<std::size_t>(used - first, 4096));
  };
  // The general path, into a buffer of its own: out keeps the room made ahead. Kept out of the
  // loop below, and given i and used by value, so that the loop is compiled as one piece with
  // them in registers.
  const auto general = [&line, &scratch, &out, &context, base](const LayoutMember& n, std::size_t at, std::size_t used_at)
      __attribute__((noinline)) -> std::pair<std::size_t, std::size_t> {  // where the text goes on, bytes added
    line.seek(base + at);
    scratch.clear();
    parse_element(scratch, n, line, context);
    if (out.size() < used_at + scratch.size()) out.resize(used_at + scratch.size());
    std::copy(scratch.begin(), scratch.end(), out.begin() + std::ptrdiff_t(used_at));
    return {line.position() - base, scratch.size()};
  };
  const auto value = [&](const LayoutMember& n, BareKind kind, std::uint32_t size) __attribute__((always_inline)) {
    skip_blanks();
    if (kind == BareKind::F32) {
      std::size_t end = i;
      while (end < text.size() && !is_word_break(text[end])) ++end;
      if (const auto f = parse_float(text.substr(i, end - i))) {
        const std::uint32_t bits = std::bit_cast<std::uint32_t>(*f);
        for (std::uint32_t b = 0; b < 4; ++b) out[used + b] = std::uint8_t(bits >> (8 * b));
        used += 4;
        i = end;
        return;
      }
    } else if (kind >= BareKind::X8) {
      if (const char* e = read_bare_hex(kind, size, text.data() + i, text.data() + text.size(), out.data() + used)) {
        used += size;
        i = std::size_t(e - text.data());
        return;
      }
    } else if (kind == BareKind::U8 || kind == BareKind::I8) {
      const char* e = text.data() + i;
      if (read_bare_byte(kind == BareKind::I8, e, text.data() + text.size(), out[used])) {
        used += 1;
        i = std::size_t(e - text.data());
        return;
      }
    } else if (kind != BareKind::Other) {
      if (const char* e = read_bare_integer(kind, text.data() + i, text.data() + text.size(), out.data() + used)) {
        used += size;
        i = std::size_t(e - text.data());
        return;
      }
    }
    const auto [next, added] = general(n, i, used);
    i = next;
    used += added;
  };
  const bool tuple = m.type == ValueType::Struct;
  TupleShape shape;
  if (tuple && !tuple_shape(m, shape)) return false;
  const BareKind kind = tuple ? BareKind::Other : bare_kind(m);
  bool ended = false;
  skip_blanks();
  if (i < text.size() && text[i] == ']') {
    ended = true;
  } else {
    for (;;) {
      room();
      if (tuple) {
        skip_blanks();
        if (i >= text.size() || text[i] != '(') break;
        ++i;
        for (std::size_t k = 0; k < shape.values; ++k) {
          const LayoutMember& n = m.structure->members[k];
          room();
          value(n, shape.kind[k], n.element_size());
        }
        skip_blanks();
        if (i >= text.size() || text[i] != ')') break;
        ++i;
      } else {
        value(m, kind, element);
      }
      ++count;
      skip_blanks();
      if (i >= text.size()) break;
      if (text[i] == ']') {
        ended = true;
        break;
      }
      if (text[i] != ',') break;
      ++i;
    }
  }
  out.resize(used);
  if (ended) line.seek(base + i + 1);
  return ended;
}

void parse_member(std::vector<std::uint8_t>& out, const LayoutMember& m, LineScanner& line, const FieldTextContext& context,
                  bool last, std::span<const std::uint64_t> siblings) {
  if (m.open && last) {
    switch (m.type) {
      case ValueType::ZString: case ValueType::Chars: {
        const std::string s = line.quoted_string(*context.codec);
        out.insert(out.end(), s.begin(), s.end());
        if (m.type == ValueType::ZString) out.push_back(0);
        return;
      }
      case ValueType::Bytes: {
        line.skip_blanks();
        const std::size_t at = line.position();
        if (!append_parsed_hex(line.word(), out)) line.fail_at(at, "expected hex digits, two per byte");
        return;
      }
      default: break;
    }
  }
  if (!m.array) {
    parse_one(out, m, line, context);
    return;
  }
  const std::size_t count_at = out.size();
  if (m.count_prefix) out.resize(out.size() + m.count_prefix);
  line.skip_blanks();
  const std::size_t array_at = line.position();
  if (!line.accept('[')) line.fail(fmt::format("expected '[' to start the array {}", m.name));
  std::uint64_t count = 0;
  const std::size_t elements_at = line.position(), bytes_at = out.size();
  if (!element_array(m) || !parse_element_array(out, m, line, context, count)) {
    line.seek(elements_at);
    out.resize(bytes_at);
    count = 0;
    if (!line.accept(']')) {
      do {
        parse_one(out, m, line, context);
        ++count;
      } while (line.accept(','));
      line.expect(']', "',' or ']'");
    }
  }
  if (m.count_member >= 0) {
    const std::uint64_t want = fields::counted_by(m, siblings);
    if (count != want)
      line.fail_at(array_at, fmt::format("{} holds {}, but the count before it says {} (change both)", m.name,
                                         counted(count, "element"), want));
  } else if (m.count_prefix) {
    if (m.count_prefix < 4 && count >> (8 * m.count_prefix))
      line.fail(fmt::format("{} holds at most {} elements", m.name, (1u << (8 * m.count_prefix)) - 1));
    for (std::uint32_t i = 0; i < m.count_prefix; ++i) out[count_at + i] = std::uint8_t(count >> (8 * i));
  } else if (!m.open && count != m.count) {
    line.fail(fmt::format("{} holds exactly {}, not {}", m.name, counted(m.count, "value"), count));
  }
}

}  // namespace

void append_hex(std::string& out, std::span<const std::uint8_t> data) {
  const std::size_t start = out.size();
  out.resize(start + data.size() * 2);
  char* p = out.data() + start;
  for (std::uint8_t b : data) {
    *p++ = kHexDigits[b >> 4];
    *p++ = kHexDigits[b & 15];
  }
}

bool append_parsed_hex(std::string_view digits, std::vector<std::uint8_t>& out) {
  static constexpr auto kValues = [] {
    std::array<std::int8_t, 256> v{};
    v.fill(-1);
    for (int c = 0; c < 10; ++c) v['0' + c] = std::int8_t(c);
    for (int c = 0; c < 6; ++c) v['A' + c] = v['a' + c] = std::int8_t(10 + c);
    return v;
  }();
  const auto* p = reinterpret_cast<const unsigned char*>(digits.data());
  const auto* end = p + digits.size();
  // Written in place: the size is known up to the blanks, which are few.
  const std::size_t start = out.size();
  out.resize(start + digits.size() / 2);
  std::uint8_t* q = out.data() + start;
  while (p < end) {
    if (*p == ' ' || *p == '\t') {
      ++p;
      continue;
    }
    if (end - p < 2) return false;
    const int hi = kValues[p[0]], lo = kValues[p[1]];
    if ((hi | lo) < 0) return false;
    *q++ = std::uint8_t(hi << 4 | lo);
    p += 2;
  }
  out.resize(std::size_t(q - out.data()));
  return true;
}

std::optional<std::vector<std::uint8_t>> parse_hex(std::string_view digits) {
  std::vector<std::uint8_t> out;
  if (!append_parsed_hex(digits, out)) return std::nullopt;
  return out;
}

bool append_layout_value(std::string& out, const FieldLayout& layout, std::span<const std::uint8_t> data,
                         const FieldTextContext& context) {
  if (!layout.simple) {
    if (!layout.fits(data, context.localized)) return false;
    const std::size_t start = out.size();
    fields::walk_members(layout.members, data, true, context.localized,
                         [&](std::size_t i, std::span<const std::uint8_t> bytes) {
                           const LayoutMember& m = layout.members[i];
                           if (!layout.single()) {
                             if (out.size() > start) out += ' ';
                             out += m.name;
                             out += '=';
                           }
                           append_member(out, m, bytes, i + 1 == layout.members.size(), context);
                         });
    return true;
  }
  if (!layout.fits_size(data.size())) return false;
  const LayoutMember* last = layout.members.empty() ? nullptr : &layout.members.back();
  const std::size_t rest = data.size() - layout.fixed_size;
  // Strings must be what their type says before anything is written.
  if (last && (last->type == ValueType::ZString || (last->type == ValueType::LString && !context.localized)))
    if (rest == 0 || data.back() != 0) return false;
  if (last && last->type == ValueType::LString && context.localized && rest != 4) return false;

  const std::size_t start = out.size();
  const std::uint8_t* p = data.data();
  for (const LayoutMember& m : layout.members) {
    if (!layout.single()) {
      if (out.size() > start) out += ' ';
      out += m.name;
      out += '=';
    }
    switch (m.type) {
      case ValueType::ZString:
        append_quoted(out, std::string_view(reinterpret_cast<const char*>(p), rest - 1), *context.codec);
        p += rest;
        continue;
      case ValueType::LString: {
        if (!context.localized) {
          append_quoted(out, std::string_view(reinterpret_cast<const char*>(p), rest - 1), *context.codec);
          p += rest;
          continue;
        }
        const std::uint32_t id = le::u32(p);
        fmt::format_to(std::back_inserter(out), "lstring 0x{:08X}", id);
        if (context.string_text)
          if (auto text = context.string_text(Signature(), id)) {
            out += ' ';
            append_quoted(out, *text, *context.codec);
          }
        p += 4;
        continue;
      }
      case ValueType::Chars:
        append_quoted(out, std::string_view(reinterpret_cast<const char*>(p), rest), *context.codec);
        p += rest;
        continue;
      case ValueType::Bytes:
        if (m.open) {
          append_hex(out, {p, rest});
          p += rest;
          continue;
        }
        break;
      default: break;
    }
    const std::uint32_t size = m.element_size();
    const std::size_t count = m.open ? rest / size : m.count;
    if (m.array) out += '[';
    const std::string_view separator = array_separator(count);
    if (m.array && bare_elements(m)) {
      append_bare_elements(out, m, p, count, separator);
      p += count * size;
      out += ']';
      continue;
    }
    for (std::size_t i = 0; i < count; ++i) {
      if (i) out += separator;
      append_element(out, m, p, context);
      p += size;
    }
    if (m.array) out += ']';
  }
  return true;
}

void rule_out_layouts_by_keys(std::span<const FieldLayout* const> layouts, std::string_view text, std::vector<char>& holds) {
  const auto keys_of = [](const FieldLayout& l) { return l.single() ? std::size_t(0) : l.members.size(); };
  // The keys to read: up to the first that tells two layouts of different names apart.
  std::size_t wanted = 0;
  for (std::size_t a = 0; a < layouts.size(); ++a)
    for (std::size_t b = a + 1; b < layouts.size(); ++b) {
      const std::size_t na = keys_of(*layouts[a]), nb = keys_of(*layouts[b]);
      std::size_t i = 0;
      while (i < na && i < nb && layouts[a]->members[i].name == layouts[b]->members[i].name) ++i;
      if (i < na || i < nb) wanted = std::max(wanted, i + 1);  // the keys differ at i (or one has none there)
    }
  if (wanted == 0) return;
  std::string_view keys[16];
  wanted = std::min(wanted, std::size(keys));
  std::size_t found = 0;
  int depth = 0;
  for (std::size_t i = 0; i < text.size() && found < wanted;) {
    const char c = text[i];
    if (c == '"') {  // a quoted string (or file name), escapes and all
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\') ++i;
      ++i;
    } else if (c == '[' || c == '{' || c == '(') {
      ++depth, ++i;
    } else if (c == ']' || c == '}' || c == ')') {
      --depth, ++i;
    } else if (is_word_break(c)) {
      ++i;
    } else {
      const std::size_t start = i;
      while (i < text.size() && !is_word_break(text[i])) ++i;
      if (depth == 0 && i < text.size() && text[i] == '=') keys[found++] = text.substr(start, i - start);
    }
  }
  // A layout reads the keys of its members in order, all of them or, when the field ends before
  // its optional members, the ones before: between `least` and n keys. found < wanted: the text
  // has exactly found keys; found == wanted: at least that many.
  for (std::size_t k = 0; k < layouts.size(); ++k) {
    if (!holds[k]) continue;
    const FieldLayout& l = *layouts[k];
    const std::size_t n = keys_of(l);
    std::size_t least = n;
    while (least > 0 && l.members[least - 1].optional) --least;
    bool fits = found < wanted ? found >= least && found <= n : n >= wanted;
    for (std::size_t i = 0; fits && i < std::min(found, n); ++i) fits = keys[i] == l.members[i].name;
    if (!fits) holds[k] = 0;
  }
}

std::vector<std::uint8_t> parse_layout_value(const FieldLayout& layout, LineScanner& line,
                                             const FieldTextContext& context) {
  std::vector<std::uint8_t> out;
  out.reserve(layout.fixed_size + 16);
  parse_layout_value(layout, line, context, out);
  return out;
}

void parse_layout_value(const FieldLayout& layout, LineScanner& line, const FieldTextContext& context,
                        std::vector<std::uint8_t>& out) {
  if (!layout.simple) {
    parse_sequence(out, layout.members, line, context, true, !layout.single());
    line.expect_end();
    return;
  }
  for (const LayoutMember& m : layout.members) {
    if (!layout.single()) line.expect_key(m.name);
    switch (m.type) {
      case ValueType::ZString: {
        const std::string s = line.quoted_string(*context.codec);
        out.insert(out.end(), s.begin(), s.end());
        out.push_back(0);
        continue;
      }
      case ValueType::LString: {
        if (line.accept_word("lstring")) {
          line.skip_blanks();
          const std::size_t at = line.position();
          const std::string_view w = line.expect_word("a string id");
          const auto id = parse_uint(w);
          if (!id || *id > 0xFFFFFFFF) line.fail_at(at, fmt::format("expected a string id such as 0x0000ABCD, not '{}'", w));
          if (!context.localized) line.fail_at(at, "this plugin is not localized: write the text in quotes");
          store_integer(out, *id, 4);
          if (line.peek() == '"') line.quoted_string(*context.codec);  // the table's text, shown for reading
          continue;
        }
        if (context.localized) line.fail("this localized plugin stores a string id here: expected 'lstring 0x0000ABCD'");
        const std::string s = line.quoted_string(*context.codec);
        out.insert(out.end(), s.begin(), s.end());
        out.push_back(0);
        continue;
      }
      case ValueType::Chars: {
        const std::string s = line.quoted_string(*context.codec);
        out.insert(out.end(), s.begin(), s.end());
        continue;
      }
      case ValueType::Bytes:
        if (m.open) {
          line.skip_blanks();
          const std::size_t at = line.position();
          if (!append_parsed_hex(line.word(), out)) line.fail_at(at, "expected hex digits, two per byte");
          continue;
        }
        break;
      default: break;
    }
    parse_member(out, m, line, context, &m == &layout.members.back(), {});
  }
  line.expect_end();
}

}  // namespace tesmod::text

#include "tesmod/script/script_data.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "tesmod/io/ascii.hpp"
#include "tesmod/io/little_endian.hpp"

namespace tesmod::script {
namespace {

constexpr Signature kSCHR("SCHR"), kSCDA("SCDA"), kSCTX("SCTX"), kSLSD("SLSD"), kSCVR("SCVR"), kSCRO("SCRO"),
    kSCRV("SCRV");

}  // namespace

std::array<std::uint8_t, 20> ScriptHeader::encode() const {
  std::array<std::uint8_t, 20> d{};
  le::store<std::uint32_t>(d.data(), unused);
  le::store<std::uint32_t>(d.data() + 4, ref_count);
  le::store<std::uint32_t>(d.data() + 8, compiled_size);
  le::store<std::uint32_t>(d.data() + 12, variable_count);
  le::store<std::uint32_t>(d.data() + 16, type);
  return d;
}

LocalVariable LocalVariable::make(std::uint32_t index, bool integer, std::string name) {
  LocalVariable v;
  v.index = index;
  // What the editor leaves in a fresh variable: zeros, then 0xCD fill (its debug heap pattern).
  v.slsd.fill(0);
  for (std::size_t i = 17; i < 24; ++i) v.slsd[i] = 0xCD;
  le::store<std::uint32_t>(v.slsd.data(), index);
  v.slsd[16] = integer ? 1 : 0;
  v.name = std::move(name);
  return v;
}

const LocalVariable* ScriptData::variable(std::uint32_t index) const {
  for (const LocalVariable& v : variables)
    if (v.index == index) return &v;
  return nullptr;
}

const LocalVariable* ScriptData::variable(std::string_view name) const {
  for (const LocalVariable& v : variables)
    if (ascii::iequals(v.name, name)) return &v;
  return nullptr;
}

bool is_script_field(Signature t) {
  return t == kSCHR || t == kSCDA || t == kSCTX || t == kSLSD || t == kSCVR || t == kSCRO || t == kSCRV;
}

std::vector<ScriptSpan> find_scripts(std::span<const Field> fields) {
  std::vector<ScriptSpan> out;
  std::size_t i = 0;
  while (i < fields.size()) {
    if (!is_script_field(fields[i].type)) {
      ++i;
      continue;
    }
    ScriptSpan span{i, i + 1};
    while (span.last < fields.size() && is_script_field(fields[span.last].type) && fields[span.last].type != kSCHR)
      ++span.last;
    out.push_back(span);
    i = span.last;
  }
  return out;
}

ScriptData decode_script(std::span<const Field> fields, const ErrorContext& where) {
  ScriptData s;
  s.has_header = s.has_bytecode = s.has_source = false;
  auto need_size = [&](const Field& f, std::size_t n) {
    if (f.data.size() != n)
      where.fail(fmt::format("{} field of {} bytes, expected {}", f.type.str(), f.data.size(), n));
  };
  for (const Field& f : fields) {
    if (f.type == kSCHR) {
      need_size(f, 20);
      const std::uint8_t* p = f.data.data();
      s.header = {le::u32(p), le::u32(p + 4), le::u32(p + 8), le::u32(p + 12), le::u32(p + 16)};
      s.has_header = true;
    } else if (f.type == kSCDA) {
      s.bytecode = f.data;
      s.has_bytecode = true;
    } else if (f.type == kSCTX) {
      s.source.assign(f.data.begin(), f.data.end());
      s.has_source = true;
    } else if (f.type == kSLSD) {
      need_size(f, 24);
      LocalVariable v;
      std::copy(f.data.begin(), f.data.end(), v.slsd.begin());
      v.index = le::u32(v.slsd.data());
      v.has_name = false;
      s.variables.push_back(std::move(v));
    } else if (f.type == kSCVR) {
      if (s.variables.empty() || s.variables.back().has_name)
        where.fail("SCVR field without the SLSD field it names");
      s.variables.back().name = f.as_zstring();
      s.variables.back().has_name = true;
    } else if (f.type == kSCRO || f.type == kSCRV) {
      need_size(f, 4);
      s.refs.push_back({f.type == kSCRO ? ScriptRef::Kind::Object : ScriptRef::Kind::Variable, le::u32(f.data.data())});
    } else {
      where.fail(fmt::format("{} field is not a script field", f.type.str()));
    }
  }
  return s;
}

std::vector<Field> encode_script(const ScriptData& s) {
  std::vector<Field> out;
  if (s.has_header) out.push_back(Field::bytes(kSCHR, s.header.encode()));
  if (s.has_bytecode) out.push_back(Field::bytes(kSCDA, s.bytecode));
  if (s.has_source)
    out.push_back(Field::bytes(kSCTX, std::span(reinterpret_cast<const std::uint8_t*>(s.source.data()), s.source.size())));
  for (const LocalVariable& v : s.variables) {
    out.push_back(Field::bytes(kSLSD, v.slsd));
    if (v.has_name) out.push_back(Field::zstring(kSCVR, v.name));
  }
  for (const ScriptRef& r : s.refs) out.push_back(Field::u32(r.kind == ScriptRef::Kind::Object ? kSCRO : kSCRV, r.value));
  return out;
}

}  // namespace tesmod::script

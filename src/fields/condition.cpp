#include "tesmod/fields/condition.hpp"

#include <fmt/format.h>

#include <bit>
#include <cstring>

#include "tesmod/io/byte_reader.hpp"
#include "tesmod/io/little_endian.hpp"

namespace tesmod::fields {
namespace {

void put_u16(std::vector<std::uint8_t>& out, std::uint16_t v) {
  out.push_back(std::uint8_t(v));
  out.push_back(std::uint8_t(v >> 8));
}

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(std::uint8_t(v >> (8 * i)));
}

std::string_view expected_layout(Game game, Signature type) {
  if (game != Game::Oblivion) return "a 32-byte Skyrim CTDA";
  return type == kCTDT ? "a 20-byte CTDT" : "a 24-byte Oblivion CTDA";
}

}  // namespace

std::size_t layout_size(ConditionLayout layout) {
  switch (layout) {
    case ConditionLayout::Skyrim: return 32;
    case ConditionLayout::Oblivion: return 24;
    case ConditionLayout::OblivionCtdt: return 20;
  }
  return 0;
}

Game condition_game(ConditionLayout layout) {
  return layout == ConditionLayout::Skyrim ? Game::SkyrimSE : Game::Oblivion;
}

std::string_view compare_op_symbol(CompareOp op) {
  switch (op) {
    case CompareOp::Equal: return "==";
    case CompareOp::NotEqual: return "!=";
    case CompareOp::Greater: return ">";
    case CompareOp::GreaterOrEqual: return ">=";
    case CompareOp::Less: return "<";
    case CompareOp::LessOrEqual: return "<=";
  }
  return {};
}

std::string_view run_on_name(RunOn run_on) {
  switch (run_on) {
    case RunOn::Subject: return "Subject";
    case RunOn::Target: return "Target";
    case RunOn::Reference: return "Reference";
    case RunOn::CombatTarget: return "CombatTarget";
    case RunOn::LinkedReference: return "LinkedReference";
    case RunOn::QuestAlias: return "QuestAlias";
    case RunOn::PackageData: return "PackageData";
    case RunOn::EventData: return "EventData";
  }
  return {};
}

float Condition::value_float() const { return std::bit_cast<float>(value); }
void Condition::set_value_float(float v) { value = std::bit_cast<std::uint32_t>(v); }

const ConditionFunction* Condition::function_info() const {
  return find_condition_function(condition_game(layout), function);
}

std::array<ParamSpec, 2> Condition::param_specs() const {
  if (const ConditionFunction* f = function_info()) return f->params;
  return {ParamSpec{ParamKind::Integer, "Unknown"}, ParamSpec{ParamKind::Integer, "Unknown"}};
}

Condition decode_condition(Game game, Signature type, std::span<const std::uint8_t> data, const ErrorContext& context,
                           std::uint64_t field_offset) {
  Condition c;
  if (game != Game::Oblivion)
    c.layout = ConditionLayout::Skyrim;
  else
    c.layout = type == kCTDT ? ConditionLayout::OblivionCtdt : ConditionLayout::Oblivion;
  const bool known_type = type == kCTDA || (type == kCTDT && game == Game::Oblivion);
  // Errors point at the data, six bytes past the field header.
  const std::uint64_t data_offset = field_offset == Error::kNoOffset ? Error::kNoOffset : field_offset + 6;
  if (!known_type || data.size() != layout_size(c.layout)) {
    // Without the field's own offset (inflated records), the record's.
    context.fail_at(field_offset != Error::kNoOffset ? field_offset : context.offset,
                    fmt::format("condition field {} of {} bytes: expected {}", type.str(), data.size(),
                                expected_layout(game, type)));
  }
  ByteReader r(data, context, data_offset == Error::kNoOffset ? 0 : data_offset);
  const std::uint8_t type_byte = r.u8("condition type");
  c.op = CompareOp(type_byte >> 5);
  c.flags = type_byte & condition_flag::kMask;
  for (auto& b : c.unused) b = r.u8("unused bytes");
  c.value = r.u32("comparison value");
  c.function = r.u16("function index");
  c.padding = r.u16("padding");
  c.param1 = r.u32("parameter 1");
  c.param2 = r.u32("parameter 2");
  if (c.layout == ConditionLayout::Skyrim) {
    c.run_on = RunOn(r.u32("run on"));
    c.reference = r.u32("reference");
    c.param3 = r.i32("parameter 3");
  } else if (c.layout == ConditionLayout::Oblivion) {
    for (auto& b : c.tail) b = r.u8("unused bytes");
  }
  return c;
}

std::vector<std::uint8_t> encode_condition_data(const Condition& c) {
  std::vector<std::uint8_t> out;
  out.reserve(layout_size(c.layout));
  out.push_back(std::uint8_t(std::uint8_t(c.op) << 5 | (c.flags & condition_flag::kMask)));
  out.insert(out.end(), c.unused.begin(), c.unused.end());
  put_u32(out, c.value);
  put_u16(out, c.function);
  put_u16(out, c.padding);
  put_u32(out, c.param1);
  put_u32(out, c.param2);
  if (c.layout == ConditionLayout::Skyrim) {
    put_u32(out, std::uint32_t(c.run_on));
    put_u32(out, c.reference);
    put_u32(out, std::uint32_t(c.param3));
  } else if (c.layout == ConditionLayout::Oblivion) {
    out.insert(out.end(), c.tail.begin(), c.tail.end());
  }
  return out;
}

std::vector<Field> encode_condition(const Condition& c) {
  std::vector<Field> out;
  out.push_back(Field::bytes(c.layout == ConditionLayout::OblivionCtdt ? kCTDT : kCTDA, encode_condition_data(c)));
  auto text_field = [&](Signature type, const std::string& s) {
    out.push_back(Field::bytes(type, std::span(reinterpret_cast<const std::uint8_t*>(s.data()), s.size())));
  };
  if (c.cis1) text_field(kCIS1, *c.cis1);
  if (c.cis2) text_field(kCIS2, *c.cis2);
  return out;
}

std::vector<LocatedCondition> read_conditions(Game game, std::span<const SubrecordView> fields,
                                              const ErrorContext& context, std::uint64_t body_offset) {
  std::vector<LocatedCondition> out;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const SubrecordView& f = fields[i];
    if (f.type != kCTDA && !(f.type == kCTDT && game == Game::Oblivion)) continue;
    const std::uint64_t at = body_offset == Error::kNoOffset ? Error::kNoOffset : body_offset + f.offset;
    LocatedCondition lc{decode_condition(game, f.type, f.data, context, at), i, i + 1};
    auto text = [](const SubrecordView& v) {
      return std::string(reinterpret_cast<const char*>(v.data.data()), v.data.size());
    };
    if (lc.last < fields.size() && fields[lc.last].type == kCIS1) lc.condition.cis1 = text(fields[lc.last++]);
    if (lc.last < fields.size() && fields[lc.last].type == kCIS2) lc.condition.cis2 = text(fields[lc.last++]);
    i = lc.last - 1;
    out.push_back(std::move(lc));
  }
  return out;
}

Condition decode_condition_fields(Game game, std::span<const Field> fields, const ErrorContext& context) {
  if (fields.empty()) context.fail("a condition without its CTDA field");
  Condition c = decode_condition(game, fields[0].type, fields[0].data, context);
  std::size_t i = 1;
  auto text = [](const Field& f) { return std::string(f.data.begin(), f.data.end()); };
  if (i < fields.size() && fields[i].type == kCIS1) c.cis1 = text(fields[i++]);
  if (i < fields.size() && fields[i].type == kCIS2) c.cis2 = text(fields[i++]);
  if (i < fields.size())
    context.fail(fmt::format("field {} after a condition: expected CIS1 and/or CIS2 only", fields[i].type.str()));
  return c;
}

}  // namespace tesmod::fields

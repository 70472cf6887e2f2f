// Writing a Package back as fields, in the order the decoder reads them (the CK's order).
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <type_traits>
#include <variant>

#include "package_signatures.hpp"
#include "tesmod/fields/package_codec.hpp"
#include "tesmod/io/little_endian.hpp"

namespace tesmod::fields {
namespace {

using namespace pack;

class FieldWriter {
 public:
  std::vector<Field> out;

  void raw(const Field& f) { out.push_back(f); }
  void bytes(Signature type, std::span<const std::uint8_t> data) { out.push_back(Field::bytes(type, data)); }
  // The string plus its terminator (any zero bytes inside it were read that way and stay).
  void zstring(Signature type, const std::string& text) { out.push_back(Field::zstring(type, text)); }
  void u8(Signature type, std::uint8_t v) { out.push_back(Field{type, {v}}); }
  void u32(Signature type, std::uint32_t v) { out.push_back(Field::u32(type, v)); }
  void i32(Signature type, std::int32_t v) { out.push_back(Field::u32(type, std::uint32_t(v))); }
  void f32(Signature type, float v) {
    Field f{type, std::vector<std::uint8_t>(4)};
    le::store(f.data.data(), v);
    out.push_back(std::move(f));
  }
  void triple(Signature type, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    Field f{type, std::vector<std::uint8_t>(12)};
    le::store(f.data.data(), a);
    le::store(f.data.data() + 4, b);
    le::store(f.data.data() + 8, c);
    out.push_back(std::move(f));
  }
  void topic(const Topic& t) {
    Field f{PDTO, std::vector<std::uint8_t>(8)};
    le::store(f.data.data(), std::int32_t(t.type));
    le::store(f.data.data() + 4, t.value);
    out.push_back(std::move(f));
  }
  void conditions(const std::vector<PackageCondition>& list) {
    for (const PackageCondition& c : list) out.insert(out.end(), c.fields.begin(), c.fields.end());
  }
};

void write_header(FieldWriter& w, const PackageHeader& h) {
  const PackageData& d = h.data;
  Field pkdt{PKDT, std::vector<std::uint8_t>(12)};
  le::store(pkdt.data.data(), d.flags);
  pkdt.data[4] = std::uint8_t(d.type);
  pkdt.data[5] = std::uint8_t(d.interrupt_override);
  pkdt.data[6] = std::uint8_t(d.preferred_speed);
  pkdt.data[7] = d.unused;
  le::store(pkdt.data.data() + 8, d.interrupt_flags);
  le::store(pkdt.data.data() + 10, d.unknown);
  w.raw(pkdt);

  const Schedule& s = h.schedule;
  Field psdt{PSDT, std::vector<std::uint8_t>(12)};
  psdt.data[0] = std::uint8_t(s.month);
  psdt.data[1] = std::uint8_t(s.day_of_week);
  psdt.data[2] = s.date;
  psdt.data[3] = std::uint8_t(s.hour);
  psdt.data[4] = std::uint8_t(s.minute);
  std::memcpy(psdt.data.data() + 5, s.unused.data(), 3);
  le::store(psdt.data.data() + 8, s.duration_minutes);
  w.raw(psdt);

  w.conditions(h.conditions);
  if (h.idles) {
    const IdleAnimations& a = *h.idles;
    if (a.idles.size() > 0xFF) throw std::length_error("a package holds at most 255 idles (IDLC is one byte)");
    if (a.flags) w.u8(IDLF, *a.flags);
    Field idlc{IDLC, {std::uint8_t(a.idles.size())}};
    idlc.data.insert(idlc.data.end(), a.count_padding.begin(), a.count_padding.end());
    w.raw(idlc);
    w.f32(IDLT, a.timer);
    Field idla{IDLA, std::vector<std::uint8_t>(4 * a.idles.size())};
    for (std::size_t k = 0; k < a.idles.size(); ++k) le::store(idla.data.data() + 4 * k, a.idles[k]);
    w.raw(idla);
  }
  if (h.combat_style) w.u32(CNAM, *h.combat_style);
  if (h.owner_quest) w.u32(QNAM, *h.owner_quest);
  w.triple(PKCU, h.counter.data_input_count, h.counter.template_package, h.counter.version);
}

void write_value(FieldWriter& w, const DataValue& value) {
  std::visit(
      [&w](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, BoolValue>) w.u8(CNAM, v.value);
        else if constexpr (std::is_same_v<T, IntValue>) w.i32(CNAM, v.value);
        else if constexpr (std::is_same_v<T, FloatValue>) w.f32(CNAM, v.value);
        else if constexpr (std::is_same_v<T, RawValue>) w.bytes(CNAM, v.bytes);
        else if constexpr (std::is_same_v<T, Location>) w.triple(PLDT, std::uint32_t(v.type), v.value, std::uint32_t(v.radius));
        else if constexpr (std::is_same_v<T, Target>) w.triple(PTDA, std::uint32_t(v.type), v.value, std::uint32_t(v.count));
        else if constexpr (std::is_same_v<T, Topic>) w.topic(v);
        else if constexpr (std::is_same_v<T, TopicForm>) w.u32(TPIC, v.dial);
      },
      value);
}

void write_branch(FieldWriter& w, const Branch& b) {
  w.zstring(ANAM, b.type);
  w.u32(CITC, std::uint32_t(b.conditions.size()));
  w.conditions(b.conditions);
  if (b.root) {
    Field prcb{PRCB, std::vector<std::uint8_t>(8)};
    le::store(prcb.data.data(), b.root->child_count);
    le::store(prcb.data.data() + 4, b.root->flags);
    w.raw(prcb);
  }
  if (b.procedure) w.zstring(PNAM, *b.procedure);
  if (b.flags) w.u32(FNAM, *b.flags);
  for (std::uint8_t id : b.input_ids) w.u8(PKC2, id);
  for (const auto& x : b.pfo2) w.bytes(PFO2, x);
  for (const auto& x : b.pfor) w.bytes(PFOR, x);
}

void write_event(FieldWriter& w, Signature marker, const PackageEvent& e) {
  w.out.push_back(Field{marker, {}});
  if (e.idle) w.u32(INAM, *e.idle);
  for (const Field& f : e.old_script) w.raw(f);
  if (e.tnam) w.i32(TNAM, *e.tnam);
  if (e.topic) w.topic(*e.topic);
}

}  // namespace

std::vector<Field> encode_package(const Package& p) {
  FieldWriter w;
  if (p.editor_id) w.zstring(EDID, *p.editor_id);
  if (p.vmad) w.raw(*p.vmad);
  write_header(w, p.header);

  for (const DataInput& in : p.public_data.inputs) {
    w.zstring(ANAM, in.type);
    write_value(w, in.value);
  }
  for (std::uint8_t id : p.public_data.input_ids) w.u8(UNAM, id);
  w.u8(XNAM, std::uint8_t(p.public_data.xnam));

  for (const Branch& b : p.procedure_tree) write_branch(w, b);
  for (const DataInputName& n : p.input_names) {
    w.u8(UNAM, n.id);
    w.zstring(BNAM, n.name);
    w.u32(PNAM, n.flags);
  }
  for (int k = 0; k < 3; ++k) {
    const auto kind = PackageEventKind(k);
    if (const auto& e = p.event(kind)) write_event(w, kEventMarkers[k], *e);
  }

  // Unknown fields go back to their indices; inserting in ascending order restores the layout.
  std::vector<const UnknownField*> unknown;
  for (const UnknownField& u : p.unknown_fields) unknown.push_back(&u);
  std::stable_sort(unknown.begin(), unknown.end(),
                   [](const UnknownField* a, const UnknownField* b) { return a->index < b->index; });
  for (const UnknownField* u : unknown) {
    const std::size_t at = std::min(u->index, w.out.size());
    w.out.insert(w.out.begin() + std::ptrdiff_t(at), u->field);
  }
  return std::move(w.out);
}

}  // namespace tesmod::fields

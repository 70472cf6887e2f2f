// Reading a PACK record section by section. Field types repeat across sections with other
// meanings (ANAM, UNAM, PNAM, CNAM, QNAM, PDTO, CTDA), so a field's section comes from where it
// stands: the header runs up to the first ANAM/UNAM/XNAM, the public data ends at XNAM, the
// procedure tree is the ANAMs after it, the procedure data the UNAMs after that, and the event
// markers close the record.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "package_field_errors.hpp"
#include "package_signatures.hpp"
#include "tesmod/fields/package_codec.hpp"
#include "tesmod/io/counted.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/plugin/subrecord.hpp"

namespace tesmod::fields {
namespace {

using namespace pack;

bool is_known(Signature s) {
  static constexpr Signature kKnown[] = {EDID, VMAD, PKDT, PSDT, CTDA, CIS1, CIS2, IDLF, IDLC, IDLT, IDLA,
                                         CNAM, QNAM, PKCU, ANAM, PLDT, PTDA, PDTO, TPIC, UNAM, XNAM, CITC,
                                         PRCB, PNAM, FNAM, PKC2, PFO2, PFOR, BNAM, POBA, POEA, POCA, INAM,
                                         TNAM, SCHR, SCDA, SCTX, SLSD, SCVR, SCRO, SCRV};
  return std::find(std::begin(kKnown), std::end(kKnown), s) != std::end(kKnown);
}

// Position of a header field in the order the CK writes the header; -1 when not a header field.
int header_rank(Signature s) {
  if (s == EDID) return 0;
  if (s == VMAD) return 1;
  if (s == PKDT) return 2;
  if (s == PSDT) return 3;
  if (s == CTDA || s == CIS1 || s == CIS2) return 4;
  if (s == IDLF) return 5;
  if (s == IDLC) return 6;
  if (s == IDLT) return 7;
  if (s == IDLA) return 8;
  if (s == CNAM) return 9;
  if (s == QNAM) return 10;
  if (s == PKCU) return 11;
  return -1;
}
constexpr const char* kHeaderOrder = "EDID VMAD PKDT PSDT CTDA IDLF IDLC IDLT IDLA CNAM QNAM PKCU";

// Position of a field within a procedure tree branch (after its ANAM and CITC); -1 otherwise.
int branch_rank(Signature s) {
  if (s == CTDA || s == CIS1 || s == CIS2) return 0;
  if (s == PRCB) return 1;
  if (s == PNAM) return 2;
  if (s == FNAM) return 3;
  if (s == PKC2) return 4;
  if (s == PFO2) return 5;
  if (s == PFOR) return 6;
  return -1;
}
constexpr const char* kBranchOrder = "ANAM CITC CTDA PRCB PNAM FNAM PKC2 PFO2 PFOR";

// Position of a field within an event (after its marker); -1 otherwise.
int event_rank(Signature s) {
  if (s == INAM) return 0;
  if (is_old_script_field(s)) return 1;
  if (s == TNAM) return 2;
  if (s == PDTO) return 3;
  return -1;
}
constexpr const char* kEventOrder = "INAM, old script fields (SCHR SCDA SCTX SLSD SCVR SCRO SCRV QNAM), TNAM, PDTO";

bool is_value_field(Signature s) { return s == CNAM || s == PLDT || s == PTDA || s == PDTO || s == TPIC; }

class Decoder {
 public:
  Decoder(std::span<const Field> fields, const ErrorContext& where, const FieldLocations& at)
      : fields_(fields), where_(where), at_(at) {}

  Package run() {
    Package p;
    for (std::size_t i = 0; i < fields_.size(); ++i) {
      if (is_known(fields_[i].type)) order_.push_back(i);
      else p.unknown_fields.push_back({i, fields_[i]});
    }
    read_header(p);
    read_public_data(p.public_data);
    while (at(ANAM)) p.procedure_tree.push_back(read_branch());
    while (at(UNAM)) p.input_names.push_back(read_input_name());
    read_events(p);
    if (const Field* f = peek()) {
      fail(index(), fmt::format("{} field out of place after the {}: a PACK record is the header, the public package "
                                "data (ANAM ... XNAM), the procedure tree (ANAM CITC ...), the procedure data (UNAM "
                                "BNAM PNAM) and the events (POBA POEA POCA), in that order",
                                f->type.str(), section_));
    }
    return p;
  }

 private:
  // ---- the cursor over known fields

  const Field* peek() const { return pos_ < order_.size() ? &fields_[order_[pos_]] : nullptr; }
  bool at(Signature s) const {
    const Field* f = peek();
    return f && f->type == s;
  }
  // Index in the record of the next field (the field count at the end).
  std::size_t index() const { return pos_ < order_.size() ? order_[pos_] : fields_.size(); }
  std::string next_name() const {
    const Field* f = peek();
    return f ? fmt::format("a {} field", f->type.str()) : std::string("the end of the record");
  }
  const Field& take() {
    last_ = order_[pos_];
    const Field& f = fields_[order_[pos_++]];
    if (f.oversize && !keeps_raw(f.type)) {
      fail(last_, fmt::format("{} field written with an XXXX size prefix; expected a plain {}-byte field",
                              f.type.str(), f.data.size()));
    }
    return f;
  }
  // Fields carried as they are (their XXXX prefix included).
  static bool keeps_raw(Signature s) {
    return s == VMAD || s == CTDA || s == CIS1 || s == CIS2 || is_old_script_field(s);
  }

  [[noreturn]] void fail(std::size_t field, std::string detail) const {
    fail_at_field(where_, at_, fields_.size(), field, std::move(detail));
  }

  // ---- typed reads of the field just taken

  void expect_size(const Field& f, std::size_t n, std::string_view what) const {
    if (f.data.size() != n) {
      fail(last_, fmt::format("{} field of {} bytes; expected {} bytes ({})", f.type.str(), f.data.size(), n, what));
    }
  }
  std::string zstring(const Field& f, std::string_view what) const {
    if (f.data.empty() || f.data.back() != 0) {
      fail(last_, fmt::format("{} field ({}) of {} bytes does not end with a zero byte; expected a zero-terminated string",
                              f.type.str(), what, f.data.size()));
    }
    return std::string(reinterpret_cast<const char*>(f.data.data()), f.data.size() - 1);
  }
  std::uint8_t u8(const Field& f, std::string_view what) const {
    expect_size(f, 1, what);
    return f.data[0];
  }
  std::uint32_t u32(const Field& f, std::string_view what) const {
    expect_size(f, 4, what);
    return le::u32(f.data.data());
  }
  std::int32_t i32(const Field& f, std::string_view what) const {
    expect_size(f, 4, what);
    return le::i32(f.data.data());
  }
  float f32(const Field& f, std::string_view what) const {
    expect_size(f, 4, what);
    return le::f32(f.data.data());
  }
  Topic topic(const Field& f) const {
    expect_size(f, 8, "topic: type, then a DIAL FormID or four characters");
    return Topic{TopicType(le::i32(f.data.data())), le::u32(f.data.data() + 4)};
  }

  // Orders the fields of a section by rank: a field may not come before one of a higher rank,
  // nor repeat unless it is a list.
  void check_order(int rank, int& last_rank, bool repeats, std::string_view section, std::string_view order) const {
    if (rank < last_rank || (rank == last_rank && !repeats)) {
      fail(index(), fmt::format("{} field out of order in the {} (after {}); expected the order {}, each field once "
                                "unless it is a list",
                                peek()->type.str(), section, fields_[last_].type.str(), order));
    }
    last_rank = rank;
  }

  // A CTDA, or a CIS1/CIS2 that belongs to the condition before it.
  void read_condition_field(std::vector<PackageCondition>& conditions, std::string_view section) {
    const Field& f = take();
    if (f.type == CTDA) {
      expect_size(f, 32, "condition");
      conditions.push_back(PackageCondition{{f}});
      return;
    }
    if (conditions.empty()) {
      fail(last_, fmt::format("{} field in the {} without a CTDA condition before it", f.type.str(), section));
    }
    conditions.back().fields.push_back(f);
  }

  // ---- sections

  void read_header(Package& p) {
    PackageHeader& h = p.header;
    bool has_pkdt = false, has_psdt = false, has_pkcu = false;
    bool has_idlc = false, has_idlt = false, has_idla = false, has_idles = false;
    std::size_t idlc_field = 0;
    std::uint8_t idle_count = 0;
    int last_rank = -1;
    while (const Field* next = peek()) {
      const int rank = header_rank(next->type);
      if (rank < 0) break;
      check_order(rank, last_rank, rank == 4, "header", kHeaderOrder);
      if (rank == 4) {
        read_condition_field(h.conditions, "header");
        continue;
      }
      const Field& f = take();
      if (f.type == EDID) {
        p.editor_id = zstring(f, "EditorID");
      } else if (f.type == VMAD) {
        p.vmad = f;
      } else if (f.type == PKDT) {
        expect_size(f, 12, "package data: flags, type, interrupt override, speed, interrupt flags");
        const std::uint8_t* d = f.data.data();
        h.data.flags = le::u32(d);
        h.data.type = PackageType(d[4]);
        h.data.interrupt_override = InterruptOverride(d[5]);
        h.data.preferred_speed = PreferredSpeed(d[6]);
        h.data.unused = d[7];
        h.data.interrupt_flags = le::u16(d + 8);
        h.data.unknown = le::u16(d + 10);
        has_pkdt = true;
      } else if (f.type == PSDT) {
        expect_size(f, 12, "schedule: month, day, date, hour, minute, 3 unused bytes, duration");
        const std::uint8_t* d = f.data.data();
        h.schedule.month = std::int8_t(d[0]);
        h.schedule.day_of_week = DayOfWeek(std::int8_t(d[1]));
        h.schedule.date = d[2];
        h.schedule.hour = std::int8_t(d[3]);
        h.schedule.minute = std::int8_t(d[4]);
        std::memcpy(h.schedule.unused.data(), d + 5, 3);
        h.schedule.duration_minutes = le::i32(d + 8);
        has_psdt = true;
      } else if (f.type == IDLF) {
        idles(h).flags = u8(f, "idle flags");
        has_idles = true;
      } else if (f.type == IDLC) {
        if (f.data.empty()) fail(last_, "IDLC field of 0 bytes; expected at least the 1-byte idle count");
        idle_count = f.data[0];
        idles(h).count_padding.assign(f.data.begin() + 1, f.data.end());
        has_idlc = has_idles = true;
        idlc_field = last_;
      } else if (f.type == IDLT) {
        idles(h).timer = f32(f, "idle timer");
        has_idlt = has_idles = true;
      } else if (f.type == IDLA) {
        if (f.data.size() % 4 != 0) {
          fail(last_, fmt::format("IDLA field of {} bytes; expected a list of 4-byte IDLE FormIDs", f.data.size()));
        }
        IdleAnimations& a = idles(h);
        for (std::size_t k = 0; k < f.data.size(); k += 4) a.idles.push_back(le::u32(f.data.data() + k));
        has_idla = has_idles = true;
        if (has_idlc && idle_count != a.idles.size()) {
          fail(idlc_field, fmt::format("IDLC says {} but the IDLA field after it holds {}", counted(idle_count, "idle"),
                                       a.idles.size()));
        }
      } else if (f.type == CNAM) {
        h.combat_style = u32(f, "combat style FormID");
      } else if (f.type == QNAM) {
        h.owner_quest = u32(f, "owner quest FormID");
      } else if (f.type == PKCU) {
        expect_size(f, 12, "data input count, template package FormID, version");
        h.counter = PackageCounter{le::u32(f.data.data()), le::u32(f.data.data() + 4), le::u32(f.data.data() + 8)};
        has_pkcu = true;
      }
    }
    if (has_idles && !(has_idlc && has_idlt && has_idla)) {
      fail(index(), fmt::format("incomplete idle animations: expected IDLC, IDLT and IDLA together (found{}{}{}) before {}",
                                has_idlc ? " IDLC" : "", has_idlt ? " IDLT" : "", has_idla ? " IDLA" : "", next_name()));
    }
    const auto require = [&](bool has, const char* type) {
      if (!has) fail(index(), fmt::format("expected a {} field in the header before {}", type, next_name()));
    };
    require(has_pkdt, "PKDT");
    require(has_psdt, "PSDT");
    require(has_pkcu, "PKCU");
  }

  static IdleAnimations& idles(PackageHeader& h) {
    if (!h.idles) h.idles.emplace();
    return *h.idles;
  }

  DataValue read_value(std::string_view type) {
    const Field& f = take();
    if (f.type == PLDT) {
      expect_size(f, 12, "location: type, value, radius");
      return Location{LocationType(le::i32(f.data.data())), le::u32(f.data.data() + 4), le::i32(f.data.data() + 8)};
    }
    if (f.type == PTDA) {
      expect_size(f, 12, "target: type, value, count");
      return Target{TargetType(le::i32(f.data.data())), le::u32(f.data.data() + 4), le::i32(f.data.data() + 8)};
    }
    if (f.type == PDTO) return topic(f);
    if (f.type == TPIC) return TopicForm{u32(f, "topic DIAL FormID")};
    // CNAM: its layout follows the ANAM type.
    if (type == "Bool") return BoolValue{u8(f, "Bool value")};
    if (type == "Int") return IntValue{i32(f, "Int value")};
    if (type == "Float" || type == "ObjectList") return FloatValue{f32(f, fmt::format("{} value", type))};
    return RawValue{f.data};
  }

  void read_public_data(PublicData& d) {
    section_ = "public package data";
    while (at(ANAM)) {
      DataInput in;
      in.type = zstring(take(), "data input type");
      const Field* next = peek();
      if (next && is_value_field(next->type)) in.value = read_value(in.type);
      d.inputs.push_back(std::move(in));
    }
    while (at(UNAM)) d.input_ids.push_back(u8(take(), "data input id"));
    if (!at(XNAM)) {
      fail(index(), fmt::format("expected the XNAM field that ends the public package data (after the ANAM inputs and "
                                "their UNAM ids), found {}",
                                next_name()));
    }
    d.xnam = std::int8_t(u8(take(), "XNAM"));
    section_ = "XNAM field";
  }

  Branch read_branch() {
    section_ = "procedure tree";
    Branch b;
    b.type = zstring(take(), "branch type");
    if (!at(CITC)) fail(index(), fmt::format("expected the CITC condition count after the branch ANAM, found {}", next_name()));
    const std::size_t citc_field = index();
    const std::uint32_t count = u32(take(), "condition count");
    int last_rank = -1;
    while (const Field* next = peek()) {
      const int rank = branch_rank(next->type);
      if (rank < 0) break;
      check_order(rank, last_rank, rank == 0 || rank >= 4, "procedure tree branch", kBranchOrder);
      if (rank == 0) {
        read_condition_field(b.conditions, "procedure tree");
        continue;
      }
      const Field& f = take();
      if (f.type == PRCB) {
        expect_size(f, 8, "branch count and flags");
        b.root = BranchRoot{le::u32(f.data.data()), le::u32(f.data.data() + 4)};
      } else if (f.type == PNAM) {
        b.procedure = zstring(f, "procedure type");
      } else if (f.type == FNAM) {
        b.flags = u32(f, "procedure flags");
      } else if (f.type == PKC2) {
        b.input_ids.push_back(u8(f, "data input id"));
      } else if (f.type == PFO2) {
        expect_size(f, 16, "PFO2");
        std::memcpy(b.pfo2.emplace_back().data(), f.data.data(), 16);
      } else if (f.type == PFOR) {
        expect_size(f, 12, "PFOR");
        std::memcpy(b.pfor.emplace_back().data(), f.data.data(), 12);
      }
    }
    if (b.conditions.size() != count) {
      fail(citc_field, fmt::format("CITC says {} but {} {} it", counted(count, "condition"),
                                     counted(b.conditions.size(), "CTDA field"), b.conditions.size() == 1 ? "follows" : "follow"));
    }
    return b;
  }

  DataInputName read_input_name() {
    section_ = "procedure data";
    DataInputName n;
    n.id = u8(take(), "data input id");
    if (!at(BNAM)) fail(index(), fmt::format("expected the BNAM name after the procedure data UNAM, found {}", next_name()));
    n.name = zstring(take(), "data input name");
    if (!at(PNAM)) fail(index(), fmt::format("expected the PNAM flags after the procedure data BNAM, found {}", next_name()));
    n.flags = u32(take(), "data input flags");
    return n;
  }

  void read_events(Package& p) {
    int last_kind = -1;
    while (const Field* next = peek()) {
      const auto* marker = std::find(std::begin(kEventMarkers), std::end(kEventMarkers), next->type);
      if (marker == std::end(kEventMarkers)) return;
      const int kind = int(marker - std::begin(kEventMarkers));
      if (kind <= last_kind) {
        fail(index(), fmt::format("{} field out of order: expected the events POBA, POEA, POCA in that order, each once",
                                  next->type.str()));
      }
      last_kind = kind;
      const auto event_kind = PackageEventKind(kind);
      section_ = std::string(name_of(event_kind)) + " event";
      expect_size(take(), 0, "an empty event marker");
      PackageEvent& e = p.event(event_kind).emplace();
      int last_rank = -1;
      while (const Field* f = peek()) {
        const int rank = event_rank(f->type);
        if (rank < 0) break;
        check_order(rank, last_rank, rank == 1, section_, kEventOrder);
        const Field& g = take();
        if (g.type == INAM) e.idle = u32(g, "IDLE FormID");
        else if (rank == 1) e.old_script.push_back(g);
        else if (g.type == TNAM) e.tnam = i32(g, "TNAM");
        else e.topic = topic(g);
      }
    }
  }

  std::span<const Field> fields_;
  const ErrorContext& where_;
  const FieldLocations& at_;
  std::vector<std::size_t> order_;  // indices of the known fields
  std::size_t pos_ = 0;             // into order_
  std::size_t last_ = 0;            // index of the field taken last
  std::string section_ = "header";  // for messages about what comes after
};

}  // namespace

void fail_at_field(const ErrorContext& where, const FieldLocations& at, std::size_t field_count, std::size_t field,
                   std::string detail) {
  if (at.offsets.size() == field_count + 1) {
    if (!at.inflated) where.fail_at(at.offsets[field], std::move(detail));
    where.fail(fmt::format("{} (at byte {} of the inflated data)", detail, at.offsets[field]));
  }
  where.fail(fmt::format("{} (field {} of the record)", detail, field));
}

Package decode_package(std::span<const Field> fields, const ErrorContext& where, const FieldLocations& locations) {
  return Decoder(fields, where, locations).run();
}

RecordFields read_record_fields(const PluginFile& file, const IndexEntry& entry, Inflater& inflater) {
  RecordFields r;
  r.where = file.context(entry);
  const bool compressed = entry.is_compressed();
  const std::span<const std::uint8_t> body = file.body(entry, inflater);
  const std::uint64_t body_offset = compressed ? Error::kNoOffset : entry.offset + file.header_size();
  const std::vector<SubrecordView> views = read_subrecords(body, r.where, body_offset);
  r.fields.reserve(views.size());
  r.locations.offsets.reserve(views.size() + 1);
  for (const SubrecordView& v : views) {
    r.fields.push_back(Field::from_view(v));
    r.locations.offsets.push_back(compressed ? v.offset : body_offset + v.offset);
  }
  r.locations.offsets.push_back(compressed ? body.size() : body_offset + body.size());
  r.locations.inflated = compressed;
  return r;
}

Package read_package(const PluginFile& file, const IndexEntry& entry, Inflater& inflater) {
  const RecordFields r = read_record_fields(file, entry, inflater);
  return decode_package(r.fields, r.where, r.locations);
}

}  // namespace tesmod::fields

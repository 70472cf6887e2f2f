#include "tesmod/fields/form_references.hpp"

#include <fmt/format.h>

#include "tesmod/fields/condition.hpp"
#include "tesmod/fields/field_layout.hpp"
#include "tesmod/fields/package.hpp"
#include "tesmod/fields/package_oblivion.hpp"
#include "tesmod/fields/vmad.hpp"
#include "tesmod/io/little_endian.hpp"

namespace tesmod::fields {
namespace {

constexpr Signature kPACK{"PACK"};
const Signature kPackTypes[] = {Signature("PACK")};
const Signature kIdleTypes[] = {Signature("IDLE")};
const Signature kCombatStyleTypes[] = {Signature("CSTY")};
const Signature kQuestTypes[] = {Signature("QUST")};
const Signature kTopicTypes[] = {Signature("DIAL")};
const Signature kGlobalTypes[] = {Signature("GLOB")};

// Where the walker sends what it finds: a FormID (which it may change), and the layout each
// field was read by (for callers that check values while the field is decoded).
class Sink {
 public:
  virtual void form_id(std::uint32_t& form_id, const FormReference& where) = 0;
  virtual void layout(std::size_t, const FieldLayout*, const FieldSite&) {}

 protected:
  ~Sink() = default;
};

// Walks a record's fields for FormIDs. Reads through views of the fields; when given the fields
// themselves (visit_form_references), writes changed FormIDs back into them.
class Walker {
 public:
  // Read only.
  Walker(Game game, Signature record_type, std::span<const FieldRef> view, Sink& sink, const FormReferenceOptions& options)
      : game_(game), record_type_(record_type), view_(view), sink_(sink), options_(options) {
    init();
  }
  // Writing changed FormIDs back into the fields.
  Walker(Game game, Signature record_type, std::vector<Field>& fields, Sink& sink, const FormReferenceOptions& options)
      : game_(game), record_type_(record_type), fields_(&fields), sink_(sink), options_(options) {
    owned_view_.reserve(fields.size());
    for (const Field& f : fields) owned_view_.push_back({f.type, f.data});
    view_ = owned_view_;
    init();
  }

  bool run() {
    const bool skyrim = game_ != Game::Oblivion;
    for (std::size_t i = 0; i < view_.size(); ++i) {
      const Signature t = view_[i].type;
      if (t == kCTDA || t == kCTDT) {
        condition(i);
      } else if (t == kCIS1 || t == kCIS2) {
        continue;
      } else if (skyrim && t == kVmadSignature) {
        vmad(i);
      } else if (record_type_ == kPACK && t != Signature("EDID") && (skyrim || package_field_oblivion(i))) {
        if (skyrim) package_field_skyrim(i);
      } else {
        by_layout(i);
      }
    }
    return changed_;
  }

 private:
  void init() {
    site_.record_type = record_type_;
    site_.localized = options_.localized;
    site_.form_version = options_.form_version;
  }

  void at(std::size_t i, std::size_t offset, std::string_view what, std::span<const Signature> types = {}) {
    const FieldRef& f = view_[i];
    if (offset + 4 > f.data.size()) return;
    std::uint32_t value = le::u32(f.data.data() + offset);
    if (value == 0) return;
    const std::uint32_t old = value;
    sink_.form_id(value, FormReference{f.type, i, what, types, offset});
    if (value != old && fields_) {
      // In place: the field's buffer does not move, so the view stays valid.
      le::store((*fields_)[i].data.data() + offset, value);
      changed_ = true;
    }
  }

  void by_layout(std::size_t i) {
    const FieldRef& f = view_[i];
    const LayoutTable& table = layout_table(game_);
    const FieldLayout* layout = nullptr;
    if (table.has_conditions(record_type_)) {
      site_.earlier = view_.first(i);
      layout = table.choose(f.type, f.data, site_);
    } else {
      layout = table.choose(record_type_, f.type, f.data, options_.localized);
    }
    sink_.layout(i, layout, site_);
    if (!layout) return;
    if (layout->simple) {
      const std::size_t rest = f.data.size() - layout->fixed_size;
      std::size_t offset = 0;
      for (const LayoutMember& m : layout->members) {
        const std::size_t element = m.element_size();
        const std::size_t count = m.open ? (element ? rest / element : 1) : m.count;
        const std::size_t bytes = element ? element * count : rest;
        if (m.type == ValueType::FormId)
          for (std::size_t k = 0; k < count; ++k) at(i, offset + 4 * k, m.name, m.form_types);
        offset += bytes;
      }
      return;
    }
    // Offsets first: visiting may rewrite the field.
    std::vector<std::pair<std::size_t, const LayoutMember*>> found;
    for_each_form_id(*layout, f.data, options_.localized,
                     [&](std::size_t offset, const LayoutMember& m) { found.push_back({offset, &m}); });
    for (const auto& [offset, m] : found) at(i, offset, m->name, m->form_types);
  }

  void condition(std::size_t i) {
    const FieldRef& f = view_[i];
    Condition c;
    try {
      c = decode_condition(game_, f.type, f.data, ErrorContext{});
    } catch (const std::exception&) {
      return;
    }
    const ConditionFunction* function = c.function_info();
    const std::string name = function ? std::string(function->name) : fmt::format("function {}", c.function);
    if (c.uses_global()) at(i, 4, fmt::format("condition {} global", name), kGlobalTypes);
    const bool ids_not_forms =
        c.is_skyrim() && (c.has(condition_flag::kUseAliases) || c.has(condition_flag::kUsePackData));
    const auto specs = c.param_specs();
    for (std::size_t p = 0; p < 2; ++p)
      if (specs[p].kind == ParamKind::FormId && !ids_not_forms)
        at(i, 12 + 4 * p, fmt::format("condition {} parameter {}", name, p + 1));
    if (c.is_skyrim() && c.run_on == RunOn::Reference) at(i, 24, fmt::format("condition {} reference", name));
  }

  void vmad(std::size_t i) {
    const FieldRef& f = view_[i];
    Vmad v;
    try {
      v = decode_vmad(f.data, record_type_, ErrorContext{});
    } catch (const std::exception&) {
      return;
    }
    bool modified = false;
    auto object = [&](VmadObject& o, const std::string& what) {
      if (o.form_id == 0) return;
      std::uint32_t value = o.form_id;
      sink_.form_id(value, FormReference{f.type, i, what, {}, FormReference::kUnknownOffset});
      if (value != o.form_id) {
        o.form_id = value;
        modified = true;
      }
    };
    auto scripts = [&](std::vector<Script>& list) {
      for (Script& s : list)
        for (Property& p : s.properties) {
          const std::string what = fmt::format("VMAD property '{}' of script '{}'", p.name, s.name);
          if (auto* o = std::get_if<VmadObject>(&p.value)) object(*o, what);
          if (auto* os = std::get_if<std::vector<VmadObject>>(&p.value))
            for (VmadObject& o : *os) object(o, what);
        }
    };
    scripts(v.scripts);
    if (v.fragments)
      if (auto* quest = std::get_if<QuestFragments>(&*v.fragments))
        for (AliasScripts& a : quest->aliases) {
          object(a.object, "VMAD alias owner");
          scripts(a.scripts);
        }
    if (!modified || !fields_) return;
    try {
      Field& field = (*fields_)[i];
      field.data = encode_vmad(v);
      owned_view_[i] = {field.type, field.data};  // its bytes moved
      changed_ = true;
    } catch (const std::exception&) {
    }
  }

  // Skyrim PACK fields after EDID: the package's own forms at their fixed places.
  void package_field_skyrim(std::size_t i) {
    const FieldRef& f = view_[i];
    const Signature t = f.type;
    if (t == Signature("PKCU")) {
      seen_counter_ = true;
      at(i, 4, "package template", kPackTypes);
    } else if (t == Signature("IDLA")) {
      for (std::size_t k = 0; k + 4 <= f.data.size(); k += 4) at(i, k, "package idle", kIdleTypes);
    } else if (t == Signature("CNAM") && !seen_counter_ && f.data.size() == 4) {
      at(i, 0, "package combat style", kCombatStyleTypes);
    } else if (t == Signature("QNAM") && !seen_counter_ && f.data.size() == 4) {
      at(i, 0, "package owner quest", kQuestTypes);
    } else if (t == Signature("PLDT") && f.data.size() >= 8) {
      if (holds_form_id(LocationType(le::i32(f.data.data())))) at(i, 4, "package location");
    } else if (t == Signature("PTDA") && f.data.size() >= 8) {
      if (holds_form_id(TargetType(le::i32(f.data.data())))) at(i, 4, "package target");
    } else if (t == Signature("PDTO") && f.data.size() == 8) {
      if (le::i32(f.data.data()) == std::int32_t(TopicType::Dialogue)) at(i, 4, "package topic", kTopicTypes);
    } else if (t == Signature("TPIC") && f.data.size() == 4) {
      at(i, 0, "package topic", kTopicTypes);
    } else if (t == Signature("INAM") && f.data.size() == 4) {
      at(i, 0, "package idle", kIdleTypes);
    } else if (t == Signature("SCRO") && f.data.size() == 4) {
      at(i, 0, "script reference");
    }
  }

  // Oblivion PACK: the location and target (the package block's fields); true when handled.
  bool package_field_oblivion(std::size_t i) {
    const FieldRef& f = view_[i];
    if (f.type == Signature("PLDT") && f.data.size() >= 8) {
      if (holds_form_id(OblivionLocationType(le::i32(f.data.data())))) at(i, 4, "package location");
      return true;
    }
    if (f.type == Signature("PTDT") && f.data.size() >= 8) {
      if (holds_form_id(OblivionTargetType(le::i32(f.data.data())))) at(i, 4, "package target");
      return true;
    }
    return false;
  }

  Game game_;
  Signature record_type_;
  std::span<const FieldRef> view_;
  std::vector<FieldRef> owned_view_;  // the view of fields_, when writing
  std::vector<Field>* fields_ = nullptr;  // null: read only
  Sink& sink_;
  const FormReferenceOptions& options_;
  FieldSite site_;  // for layout conditions: the record's fields before the one read (FormIDs never decide them)
  bool changed_ = false;
  bool seen_counter_ = false;  // Skyrim PACK: CNAM and QNAM before PKCU are forms, after it data
};

class FunctionSink final : public Sink {
 public:
  explicit FunctionSink(const std::function<void(std::uint32_t&, const FormReference&)>& visit) : visit_(visit) {}
  void form_id(std::uint32_t& form_id, const FormReference& where) override { visit_(form_id, where); }

 private:
  const std::function<void(std::uint32_t&, const FormReference&)>& visit_;
};

class ReaderSink final : public Sink {
 public:
  explicit ReaderSink(FormReferenceReader& reader) : reader_(reader) {}
  void form_id(std::uint32_t& form_id, const FormReference& where) override { reader_.form_id(form_id, where); }
  void layout(std::size_t index, const FieldLayout* layout, const FieldSite& site) override {
    reader_.layout(index, layout, site);
  }

 private:
  FormReferenceReader& reader_;
};

}  // namespace

bool visit_form_references(Game game, Signature record_type, std::vector<Field>& fields,
                           const std::function<void(std::uint32_t& form_id, const FormReference& where)>& visit,
                           const FormReferenceOptions& options) {
  FunctionSink sink(visit);
  return Walker(game, record_type, fields, sink, options).run();
}

void read_form_references(Game game, Signature record_type, std::span<const FieldRef> fields,
                          FormReferenceReader& reader, const FormReferenceOptions& options) {
  ReaderSink sink(reader);
  Walker(game, record_type, fields, sink, options).run();
}

}  // namespace tesmod::fields

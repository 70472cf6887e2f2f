// Typed fields: a field's value through its layout (fields/field_value.hpp) as Python objects.
//
// Reading: a field is a struct of its layout's members, given as a dict {member: value} in
// layout order, or as the bare value of its only member. Integers are int, floats float, text
// str (decoded), lstring ids int, FormIDs tesmod.FormKey (None for 0), bytes bytes, enums their
// label (int when none), flags a set of labels plus an int for each unnamed bit, signatures str,
// arrays list, structs dict. Fields no layout fits, and those other methods own (conditions,
// VMAD, a package's fields), are bytes.
//
// Writing: the Python value is walked against the field as decoded, and every part equal to
// what the stored part reads as keeps the stored part, so what is not changed keeps its bytes
// (float bits, leftovers after a zstringN's text, FormIDs past the masters, numbers of enums).
#include "field_value_binding.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "form_key_binding.hpp"
#include "tesmod/fields/condition.hpp"
#include "tesmod/fields/field_layout.hpp"
#include "tesmod/fields/field_value.hpp"
#include "tesmod/fields/vmad.hpp"

namespace tesmod::python {
namespace {

using namespace tesmod::fields;
using Kind = FieldValue::Kind;

constexpr Signature kEDID{"EDID"}, kPACK{"PACK"};

// Fields whose bytes other methods give meaning to (conditions(), vmad(), package()): bytes here.
bool owned_elsewhere(Signature record_type, Signature field) {
  return field == kCTDA || field == kCTDT || field == kCIS1 || field == kCIS2 || field == kVmadSignature ||
         (record_type == kPACK && field != kEDID);
}

// bytes, bytearray, memoryview, a tesmod.Field... (str has no buffer).
bool is_bytes_like(py::handle v) { return PyObject_CheckBuffer(v.ptr()) != 0; }
bool is_sequence(py::handle v) { return PyList_Check(v.ptr()) || PyTuple_Check(v.ptr()); }
// "str", "FormKey" (not "tesmod._tesmod.FormKey"), for messages.
std::string_view type_name(py::handle v) {
  const std::string_view name = Py_TYPE(v.ptr())->tp_name;
  const std::size_t dot = name.rfind('.');
  return dot == std::string_view::npos ? name : name.substr(dot + 1);
}

py::object steal(PyObject* o) {
  if (!o) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(o);
}

// A signature's four characters (Signature::str() escapes some, for messages).
py::str signature_text(Signature sig, const char* encoding = "cp1252") {
  const std::uint32_t s = sig.value();
  const char bytes[4] = {char(s), char(s >> 8), char(s >> 16), char(s >> 24)};
  return decode(std::string_view(bytes, 4), encoding);
}

// A field type from Python: four characters, or as Field.signature and Signature::str() write
// one that is not printable ("\\x00IAD").
Signature field_signature(const std::string& text) {
  if (text.size() == 4) return signature_arg(text);
  const auto hex = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
  std::string bytes;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 3 < text.size() && text[i + 1] == 'x' && hex(text[i + 2]) && hex(text[i + 3])) {
      bytes += char(std::stoi(text.substr(i + 2, 2), nullptr, 16));
      i += 3;
    } else {
      bytes += text[i];
    }
  }
  return signature_arg(bytes.size() == 4 ? bytes : text);  // the text itself raises the ValueError
}

// Member names as dict keys: made once (the tables live as long as the program), so that long
// arrays of structs do not make a string per key.
PyObject* member_key(const LayoutMember& m) {
  static std::unordered_map<const LayoutMember*, PyObject*> keys;
  auto [it, added] = keys.try_emplace(&m, nullptr);
  if (added) {
    it->second = PyUnicode_FromStringAndSize(m.name.data(), Py_ssize_t(m.name.size()));
    if (!it->second) {
      keys.erase(it);
      throw py::error_already_set();
    }
    PyUnicode_InternInPlace(&it->second);
  }
  return it->second;
}

// A wrong value given for a field: raised as TypeError or ValueError with the record named.
struct Problem {
  bool type_error = false;
  std::string message;  // "DATA.weight: expected a number, got str"
};

// An error of the plugin's own in naming a form (a patch out of master slots): raised as the
// tesmod.Error it is, with the member's path, past the layouts tried.
struct PluginError {
  Error error;
  std::string path;
};

[[noreturn]] void wrong_type(const std::string& path, const std::string& what) { throw Problem{true, path + ": " + what}; }
[[noreturn]] void wrong_value(const std::string& path, const std::string& what) { throw Problem{false, path + ": " + what}; }

// What one call works with: the record's plugin, its game's layout table and how a field's
// layout is chosen.
class Context {
 public:
  Context(const PyRecord& record, const char* encoding)
      : plugin_(record.plugin()), type_(record.signature()), form_id_(record.form_id()),
        table_(layout_table(plugin_.game())), encoding_(encoding) {
    const std::uint32_t flags =
        plugin_.model ? plugin_.model->header_record().flags() : plugin_.reader().header().flags;
    localized_ = plugin_.game() != Game::Oblivion && (flags & record_flags::kLocalized) != 0;
    conditional_ = table_.has_conditions(type_);
    site_.record_type = type_;
    site_.localized = localized_;
    // As `tesmod export` does: the type of a record a FormID names, when this plugin holds it.
    OpenPlugin* p = &plugin_;
    site_.record_type_of = [p](std::uint32_t id) -> std::optional<Signature> {
      if (p->model) {
        if (const Record* r = p->find(id)) return r->type();
        return std::nullopt;
      }
      const PluginFile& f = p->file();
      if (const auto i = f.find_form_id(id)) return f.entry(*i).type;
      return std::nullopt;
    };
  }

  OpenPlugin& plugin() const { return plugin_; }
  Signature type() const { return type_; }
  std::uint32_t form_id() const { return form_id_; }
  const LayoutTable& table() const { return table_; }
  bool localized() const { return localized_; }
  const char* encoding() const { return encoding_; }
  void set_form_version(std::uint16_t v) { site_.form_version = v; }

  // The site of a field with these fields before it (for layouts' conditions).
  const FieldSite& site(std::span<const FieldRef> earlier) {
    site_.earlier = earlier;
    return site_;
  }
  // The layout a stored field reads as, or nullptr (bytes).
  const FieldLayout* layout_of(Signature field, std::span<const std::uint8_t> data, std::span<const FieldRef> earlier) {
    if (owned_elsewhere(type_, field)) return nullptr;
    if (!conditional_) return table_.choose(type_, field, data, localized_);
    return table_.choose(field, data, site(earlier));
  }

  // The record for messages: "ARMO 00012E49 'ArmorIronCuirass'" (an EditorID's bytes that are not
  // printable ASCII escaped, as tesmod::describe does).
  std::string describe(std::span<const FieldRef> fields) const {
    std::string out = type_.str() + " " + hex_id(form_id_);
    const RecordRef r = record_ref(fields);
    if (r.editor_id.empty()) return out;
    out += " '";
    for (unsigned char c : r.editor_id) {
      if (c >= 0x20 && c < 0x7F) out += char(c);
      else out += fmt::format("\\x{:02X}", c);
    }
    return out + "'";
  }
  RecordRef record_ref(std::span<const FieldRef> fields) const {
    RecordRef r{type_, form_id_, {}};
    for (const FieldRef& f : fields)
      if (f.type == kEDID) {
        const auto zero = std::find(f.data.begin(), f.data.end(), std::uint8_t{0});
        r.editor_id.assign(f.data.begin(), zero);
        break;
      }
    return r;
  }

 private:
  OpenPlugin& plugin_;
  Signature type_;
  std::uint32_t form_id_;
  const LayoutTable& table_;
  const char* encoding_;
  bool localized_ = false;
  bool conditional_ = false;
  FieldSite site_;
};

// The fields of a record as they are now, without copies (views of the file, of an inflated
// body, or of the model's fields; valid until the next edit).
struct RecordFields {
  std::vector<FieldRef> fields;
  std::uint16_t form_version = 0;
  std::shared_ptr<std::vector<std::uint8_t>> inflated;
};

// The last record read from a file, kept: record[sig] for each field of a record then reads
// (and inflates) it once. A file's bytes never change; the weak pointer tells a file freed since
// from a new one at the same address. The GIL guards it.
struct LastRead {
  std::weak_ptr<const FileBytes> file;
  std::uint64_t offset = 0;
  std::shared_ptr<const RecordFields> fields;
};
LastRead last_read;

std::shared_ptr<const RecordFields> read_fields(const PyRecord& record, Signature type) {
  OpenPlugin& p = record.plugin();
  auto out = std::make_shared<RecordFields>();
  if (p.model) {
    const Record& r = p.record(type, record.form_id());
    out->form_version = r.header().form_version;
    const std::vector<Field>& fields = r.fields();
    out->fields.reserve(fields.size());
    for (const Field& f : fields) out->fields.push_back({f.type, f.data});
    return out;
  }
  const IndexEntry* e = record.index_entry();
  if (!e) throw py::value_error(record.repr() + " is not a record as read: nothing to read its fields from");
  const PluginBytes& file = p.reader();
  const std::shared_ptr<const FileBytes>& bytes = file.file_bytes();
  if (last_read.fields && last_read.offset == e->offset && !last_read.file.owner_before(bytes) &&
      !bytes.owner_before(last_read.file))
    return last_read.fields;
  out->form_version = file.record_header(*e).form_version;
  std::span<const std::uint8_t> body;
  std::uint64_t body_offset = Error::kNoOffset;
  if (e->is_compressed()) {
    const auto inflated = file.body(*e, p.inflater);
    out->inflated = std::make_shared<std::vector<std::uint8_t>>(inflated.begin(), inflated.end());
    body = *out->inflated;
  } else {
    body = file.stored_body(*e);
    body_offset = e->offset + file.header_size();
  }
  const ErrorContext context{file.name(), e->offset, RecordRef{e->type, e->id, {}}};
  SubrecordCursor cursor(body, context, body_offset);
  SubrecordView v;
  while (cursor.next(v)) out->fields.push_back({v.type, v.data});
  last_read = LastRead{bytes, e->offset, out};
  return out;
}

// The record header's form version (layouts of model information depend on it).
std::uint16_t form_version(const PyRecord& record) {
  OpenPlugin& p = record.plugin();
  if (p.model) return p.record(record.signature(), record.form_id()).header().form_version;
  const IndexEntry* e = record.index_entry();
  return e ? p.reader().record_header(*e).form_version : 0;
}

// ---- field values -> Python -----------------------------------------------------------------

class Converter {
 public:
  explicit Converter(Context& c) : c_(c) {}

  // The value of a field read with layout (as decode_field gives it).
  py::object field(const FieldLayout& layout, const FieldValue& value) {
    const FieldValue::Struct& members = value.get<FieldValue::Struct>();
    if (layout.single()) return member(members.front().value, layout.members.front());
    py::dict out;
    for (std::size_t i = 0; i < members.size() && i < layout.members.size(); ++i) {
      py::object v = member(members[i].value, layout.members[i]);
      if (PyDict_SetItem(out.ptr(), member_key(layout.members[i]), v.ptr()) != 0) throw py::error_already_set();
    }
    return out;
  }

  // A member's value, or an element of an array member (m says how its integers read).
  py::object member(const FieldValue& v, const LayoutMember& m) {
    switch (v.kind()) {
      case Kind::None: return py::none();
      case Kind::Int: return steal(PyLong_FromLongLong(*v.get_if<std::int64_t>()));
      case Kind::UInt: return steal(PyLong_FromUnsignedLongLong(*v.get_if<std::uint64_t>()));
      case Kind::Float: return steal(PyFloat_FromDouble(double(*v.get_if<float>())));
      case Kind::Text: return decode(v.get_if<TextValue>()->text, c_.encoding());
      case Kind::LStringId: return steal(PyLong_FromUnsignedLong(v.get_if<LStringId>()->id));
      case Kind::FormId: return form_key(v.get_if<FormIdValue>()->raw);
      case Kind::Bytes: {
        const auto& b = *v.get_if<FieldValue::Bytes>();
        return steal(PyBytes_FromStringAndSize(reinterpret_cast<const char*>(b.data()), Py_ssize_t(b.size())));
      }
      case Kind::Enum: {
        const EnumValue& e = *v.get_if<EnumValue>();
        if (!e.label.empty()) return steal(PyUnicode_FromStringAndSize(e.label.data(), Py_ssize_t(e.label.size())));
        if (is_signed_integer(m.type)) return steal(PyLong_FromLongLong(std::int64_t(e.number)));
        return steal(PyLong_FromUnsignedLongLong(e.number));
      }
      case Kind::Flags: {
        const FlagsValue& f = *v.get_if<FlagsValue>();
        py::object out = steal(PySet_New(nullptr));
        for (const std::string& name : f.names) {
          py::object s = steal(PyUnicode_FromStringAndSize(name.data(), Py_ssize_t(name.size())));
          if (PySet_Add(out.ptr(), s.ptr()) != 0) throw py::error_already_set();
        }
        for (std::uint64_t rest = f.unnamed; rest; rest &= rest - 1) {
          py::object bit = steal(PyLong_FromUnsignedLongLong(rest & (~rest + 1)));
          if (PySet_Add(out.ptr(), bit.ptr()) != 0) throw py::error_already_set();
        }
        return out;
      }
      case Kind::Sig: return signature_text(*v.get_if<Signature>(), c_.encoding());
      case Kind::List: {
        const FieldValue::List& list = *v.get_if<FieldValue::List>();
        py::object out = steal(PyList_New(Py_ssize_t(list.size())));
        for (std::size_t k = 0; k < list.size(); ++k)
          PyList_SET_ITEM(out.ptr(), Py_ssize_t(k), member(list[k], m).release().ptr());  // steals the reference
        return out;
      }
      case Kind::Struct: {
        const FieldValue::Struct& members = *v.get_if<FieldValue::Struct>();
        const std::vector<LayoutMember>* layout = m.structure ? &m.structure->members : nullptr;
        py::dict out;
        for (std::size_t i = 0; i < members.size(); ++i) {
          const LayoutMember* inner = layout && i < layout->size() && (*layout)[i].name == members[i].name ? &(*layout)[i] : nullptr;
          py::object value = inner ? member(members[i].value, *inner) : member(members[i].value, m);
          py::object key = inner ? py::reinterpret_borrow<py::object>(member_key(*inner)) : py::object(py::str(members[i].name));
          if (PyDict_SetItem(out.ptr(), key.ptr(), value.ptr()) != 0) throw py::error_already_set();
        }
        return out;
      }
    }
    return py::none();
  }

  // The form a stored FormID names (None for 0). The plugin names of the masters are looked up
  // once per call; a patch numbers its FormIDs its own way and is asked for each.
  py::object form_key(std::uint32_t raw) {
    if (raw == 0) return py::none();
    OpenPlugin& p = c_.plugin();
    if (p.patch_form_of) {
      auto [plugin, id] = p.form_of(raw);
      return py::cast(PyFormKey{std::move(plugin), id});
    }
    const std::uint32_t index = raw >> 24;
    auto it = std::find_if(plugins_.begin(), plugins_.end(), [&](const auto& k) { return k.first == index; });
    if (it == plugins_.end()) it = plugins_.insert(plugins_.end(), {index, p.form_of(index << 24).first});
    return py::cast(PyFormKey{it->second, raw & 0xFFFFFFu});
  }

 private:
  Context& c_;
  std::vector<std::pair<std::uint32_t, std::string>> plugins_;  // (top byte, plugin): a few masters
};

// ---- Python -> field values -----------------------------------------------------------------

class Builder {
 public:
  Builder(Context& c, Converter& convert) : c_(c), convert_(convert) {}

  // The tree of a field in layout from a Python value, keeping the parts of old (the field as
  // decoded with this layout, or nullptr) that the value leaves as they are.
  FieldValue field(const FieldLayout& layout, py::handle v, const FieldValue* old, std::string& path) {
    const FieldValue::Struct* old_members = old ? old->get_if<FieldValue::Struct>() : nullptr;
    if (layout.single()) {
      const LayoutMember& m = layout.members.front();
      const FieldValue* before = old_members && !old_members->empty() ? &old_members->front().value : nullptr;
      const std::size_t size = path.size();
      path += '.';
      path += m.name;
      FieldValue value = v.is_none() && m.optional ? FieldValue() : member(m, v, before, path);
      path.resize(size);
      return FieldValue::Struct{{m.name, std::move(value)}};
    }
    return sequence(layout.members, false, v, old_members, true, path);
  }

 private:
  // The members of a field or a struct from a dict (or, for a tuple, a list of its values).
  FieldValue sequence(const std::vector<LayoutMember>& members, bool positional, py::handle v,
                      const FieldValue::Struct* old, bool field_level, std::string& path) {
    const bool by_position = positional && is_sequence(v);
    if (!by_position && !PyDict_Check(v.ptr()))
      wrong_type(path, fmt::format("expected a dict of {}{}, got {}", names(members),
                                   positional ? " (or a list of those values in order)" : "", type_name(v)));
    if (by_position && std::size_t(PySequence_Size(v.ptr())) != members.size())
      wrong_value(path, fmt::format("holds {} values in order ({}), not {}", members.size(), names(members),
                                    PySequence_Size(v.ptr())));
    if (!by_position) {
      PyObject* key = nullptr;
      PyObject* value = nullptr;
      for (Py_ssize_t pos = 0; PyDict_Next(v.ptr(), &pos, &key, &value);) {
        if (!PyUnicode_Check(key)) wrong_type(path, fmt::format("member names are str, got {}", type_name(key)));
        Py_ssize_t size = 0;
        const char* name = PyUnicode_AsUTF8AndSize(key, &size);
        if (!name) throw py::error_already_set();
        const std::string_view n(name, std::size_t(size));
        if (std::none_of(members.begin(), members.end(), [&](const LayoutMember& m) { return m.name == n; }))
          wrong_value(path, fmt::format("has no member '{}' (its members: {})", n, names(members)));
      }
    }
    // What is given and what is stored for each member.
    std::vector<py::handle> given(members.size());
    std::vector<const FieldValue*> before(members.size(), nullptr);
    for (std::size_t i = 0; i < members.size(); ++i) {
      const LayoutMember& m = members[i];
      if (old) {
        if (i < old->size() && (*old)[i].name == m.name) before[i] = &(*old)[i].value;
        else
          for (const NamedFieldValue& n : *old)
            if (n.name == m.name) before[i] = &n.value;
      }
      if (by_position) {
        given[i] = PySequence_Fast_GET_ITEM(v.ptr(), Py_ssize_t(i));  // a list or a tuple
      } else {
        given[i] = PyDict_GetItemWithError(v.ptr(), member_key(m));
        if (!given[i] && PyErr_Occurred()) throw py::error_already_set();
      }
    }
    // None leaves an optional member out only when the members after it are out too (the field
    // ends before it); a FormID that is there reads as None too, and stays the null FormID.
    std::size_t present_end = 0;  // past the last member with a value
    for (std::size_t i = 0; i < members.size(); ++i)
      if (given[i] ? !given[i].is_none() : before[i] && !before[i]->is_none()) present_end = i + 1;
    FieldValue::Struct out;
    out.reserve(members.size());
    const std::size_t size = path.size();
    for (std::size_t i = 0; i < members.size(); ++i) {
      const LayoutMember& m = members[i];
      path += '.';
      path += m.name;
      const bool none = !given[i] || given[i].is_none();
      const bool was_there = before[i] && !before[i]->is_none();
      if (field_level && m.optional && none) {
        const bool null_form_id = m.type == ValueType::FormId && !m.array && (i < present_end || was_there);
        if (!null_form_id) out.push_back({m.name, FieldValue()});
        else if (given[i]) out.push_back({m.name, member(m, given[i], before[i], path)});
        else if (before[i]) out.push_back({m.name, *before[i]});
        else out.push_back({m.name, FieldValue::form_id(0)});
      } else if (!given[i]) {
        if (!before[i]) wrong_value(path, "is missing (and the field has no value to keep)");
        out.push_back({m.name, *before[i]});
      } else {
        out.push_back({m.name, member(m, given[i], before[i], path)});
      }
      path.resize(size);
    }
    return out;
  }

  // A member: a list of elements for an array, else one element.
  FieldValue member(const LayoutMember& m, py::handle v, const FieldValue* old, std::string& path) {
    if (!m.array) return element(m, v, old, path);
    if (!is_sequence(v)) wrong_type(path, fmt::format("expected a list, got {}", type_name(v)));
    const FieldValue::List* before = old ? old->get_if<FieldValue::List>() : nullptr;
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(v.ptr());
    FieldValue::List out;
    out.reserve(std::size_t(n));
    const std::size_t size = path.size();
    for (Py_ssize_t k = 0; k < n; ++k) {
      path += fmt::format("[{}]", k);
      out.push_back(element(m, PySequence_Fast_GET_ITEM(v.ptr(), k),
                            before && std::size_t(k) < before->size() ? &(*before)[std::size_t(k)] : nullptr, path));
      path.resize(size);
    }
    return out;
  }

  // Whether v is what old reads as (then old is kept, bytes and all).
  bool same(py::handle v, const FieldValue& old, const LayoutMember& m) {
    // Numbers compared as numbers (most members; no Python object made for the old value).
    if (PyLong_CheckExact(v.ptr())) {
      int overflow = 0;
      const long long n = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
      if (!overflow && !(n == -1 && PyErr_Occurred())) {
        if (const auto* i = old.get_if<std::int64_t>()) return *i == n;
        if (const auto* u = old.get_if<std::uint64_t>()) return n >= 0 && *u == std::uint64_t(n);
      }
      PyErr_Clear();
    } else if (PyFloat_CheckExact(v.ptr())) {
      if (const float* f = old.get_if<float>()) {
        const double d = PyFloat_AS_DOUBLE(v.ptr());
        return double(*f) == d || (std::isnan(*f) && std::isnan(d));  // a NaN given back keeps its bits
      }
    }
    const py::object was = convert_.member(old, m);
    const int equal = PyObject_RichCompareBool(v.ptr(), was.ptr(), Py_EQ);
    if (equal < 0) {
      PyErr_Clear();  // a value that cannot be compared is not the same
      return false;
    }
    if (equal) return true;
    // A NaN given back keeps its bits (NaN equals nothing).
    const float* f = old.get_if<float>();
    return f && std::isnan(*f) && PyFloat_Check(v.ptr()) && std::isnan(PyFloat_AS_DOUBLE(v.ptr()));
  }

  FieldValue element(const LayoutMember& m, py::handle v, const FieldValue* old, std::string& path) {
    if (m.type == ValueType::Struct) {
      const FieldValue::Struct* before = old ? old->get_if<FieldValue::Struct>() : nullptr;
      return sequence(m.structure->members, m.structure->positional, v, before, false, path);
    }
    if (old && same(v, *old, m)) return *old;
    switch (m.type) {
      case ValueType::F32: {
        if (!PyFloat_Check(v.ptr()) && !PyIndex_Check(v.ptr()))
          wrong_type(path, fmt::format("expected a number, got {}", type_name(v)));
        const double d = PyFloat_AsDouble(v.ptr());
        if (d == -1.0 && PyErr_Occurred()) {
          PyErr_Clear();
          wrong_value(path, "the number does not fit a float");
        }
        // A finite number past f32's range would become infinity: refuse it (inf and nan given as such stay).
        if (std::isfinite(d) && std::fabs(d) > double(std::numeric_limits<float>::max()))
          wrong_value(path, fmt::format("{} does not fit a 32-bit float", d));
        return FieldValue(d);
      }
      case ValueType::FormId: {
        if (v.is_none()) return FieldValue::form_id(0);
        if (!py::isinstance<PyFormKey>(v))
          wrong_type(path, fmt::format("expected a tesmod.FormKey or None, got {}", type_name(v)));
        const PyFormKey& key = v.cast<const PyFormKey&>();
        try {
          return FieldValue::form_id(c_.plugin().form_id_of(key.plugin, key.object_id));
        } catch (const py::value_error& e) {
          wrong_value(path, e.what());
        } catch (const Error& e) {
          throw PluginError{e, path};
        }
      }
      case ValueType::Sig: {
        if (!PyUnicode_Check(v.ptr())) wrong_type(path, fmt::format("expected a signature (str), got {}", type_name(v)));
        return FieldValue(text(v, path));
      }
      case ValueType::Bytes: {
        if (!is_bytes_like(v)) wrong_type(path, fmt::format("expected bytes, got {}", type_name(v)));
        return FieldValue(field_bytes(py::reinterpret_borrow<py::object>(v), c_.encoding()));
      }
      case ValueType::LString:
        if (c_.localized()) {
          if (!PyIndex_Check(v.ptr()))
            wrong_type(path, fmt::format("expected a string id (int: this plugin is localized), got {}", type_name(v)));
          const FieldValue id = integer(v, path);
          const std::uint64_t* u = id.get_if<std::uint64_t>();
          const std::int64_t* i = id.get_if<std::int64_t>();
          const std::uint64_t n = u ? *u : std::uint64_t(*i);
          if ((i && *i < 0) || n > 0xFFFFFFFF) wrong_value(path, fmt::format("string id {} does not fit u32", py::str(v).cast<std::string>()));
          return FieldValue::lstring(std::uint32_t(n));
        }
        [[fallthrough]];
      case ValueType::ZString: case ValueType::Chars: case ValueType::ZBuffer:
      case ValueType::Str8: case ValueType::Str16: case ValueType::Str32:
      case ValueType::ZStr8: case ValueType::ZStr16: case ValueType::ZStr32:
        if (!PyUnicode_Check(v.ptr())) wrong_type(path, fmt::format("expected text (str), got {}", type_name(v)));
        return FieldValue(text(v, path));
      default: break;
    }
    // Integers.
    if (m.names && m.names->is_flags) {
      if (PyIndex_Check(v.ptr())) return integer(v, path);
      if (!PyAnySet_Check(v.ptr()) && !is_sequence(v))
        wrong_type(path, fmt::format("expected flags of {} (a set of labels and ints, or an int), got {}", m.names->name,
                                     type_name(v)));
      FlagsValue flags;
      for (py::handle item : py::reinterpret_borrow<py::iterable>(v)) {
        if (PyUnicode_Check(item.ptr())) {
          flags.names.push_back(item.cast<std::string>());
        } else if (PyIndex_Check(item.ptr())) {
          const FieldValue bits = integer(item, path);
          const std::int64_t* i = bits.get_if<std::int64_t>();
          if (i && *i < 0) wrong_value(path, fmt::format("flag bits are not negative: {}", *i));
          flags.unnamed |= i ? std::uint64_t(*i) : *bits.get_if<std::uint64_t>();
        } else {
          wrong_type(path, fmt::format("expected a flag label of {} (str) or bits (int), got {}", m.names->name, type_name(item)));
        }
      }
      return FieldValue(std::move(flags));
    }
    if (m.names) {
      if (PyUnicode_Check(v.ptr())) return FieldValue::enumeration(v.cast<std::string>());
      if (PyIndex_Check(v.ptr())) return integer(v, path);
      wrong_type(path, fmt::format("expected a label of {} (str) or an int, got {}", m.names->name, type_name(v)));
    }
    if (!PyIndex_Check(v.ptr())) wrong_type(path, fmt::format("expected an int, got {}", type_name(v)));
    return integer(v, path);
  }

  // An int as Int (when it fits int64) or UInt; the encoder checks the member's range.
  static FieldValue integer(py::handle v, const std::string& path) {
    const py::object n = steal(PyNumber_Index(v.ptr()));
    int overflow = 0;
    const long long i = PyLong_AsLongLongAndOverflow(n.ptr(), &overflow);
    if (i == -1 && PyErr_Occurred()) throw py::error_already_set();
    if (!overflow) return FieldValue(std::int64_t(i));
    if (overflow > 0) {
      const unsigned long long u = PyLong_AsUnsignedLongLong(n.ptr());
      if (!(u == static_cast<unsigned long long>(-1) && PyErr_Occurred())) return FieldValue(std::uint64_t(u));
      PyErr_Clear();
    }
    wrong_value(path, fmt::format("{} does not fit 64 bits", py::str(n).cast<std::string>()));
  }

  // A str in the plugin's code page (undecodable bytes read as surrogates go back as they were).
  TextValue text(py::handle v, const std::string& path) const {
    Py_ssize_t size = 0;
    if (PyUnicode_IS_ASCII(v.ptr())) {
      const char* s = PyUnicode_AsUTF8AndSize(v.ptr(), &size);
      if (!s) throw py::error_already_set();
      return TextValue{std::string(s, std::size_t(size)), {}};
    }
    PyObject* b = PyUnicode_AsEncodedString(v.ptr(), c_.encoding(), "surrogateescape");
    if (!b) {
      const py::error_already_set e;
      wrong_value(path, fmt::format("cannot be written in {}: {}", c_.encoding(), e.what()));
    }
    const py::bytes bytes = py::reinterpret_steal<py::bytes>(b);
    return TextValue{std::string(bytes), {}};
  }

  static std::string names(const std::vector<LayoutMember>& members) {
    std::string out;
    for (const LayoutMember& m : members) out += (out.empty() ? "" : " ") + m.name;
    return out;
  }

  Context& c_;
  Converter& convert_;
};

bool has_refers_to(const FieldLayout& layout) {
  return std::any_of(layout.conditions.begin(), layout.conditions.end(),
                     [](const LayoutCondition& c) { return c.kind == LayoutCondition::Kind::RefersTo; });
}

// An encoder's error as a Problem: its detail starts with the member's path from the field's
// type, which name replaces ("SNAM[2]" for the third of several). "expected ..." is a wrong type.
Problem from_encoder(const Error& e, Signature field, const std::string& name) {
  std::string detail = e.detail();
  const std::string sig = field.str();
  if (detail.compare(0, sig.size(), sig) == 0) detail = name + detail.substr(sig.size());
  const bool type_error = detail.find(": expected ") != std::string::npos;
  return Problem{type_error, std::move(detail)};
}

// ---- reading and writing a record's fields --------------------------------------------------

class TypedRecord {
 public:
  TypedRecord(const PyRecord& record, const char* encoding) : record_(record), c_(record, encoding), convert_(c_) {}

  Context& context() { return c_; }

  const RecordFields& stored() {
    if (!stored_) {
      stored_ = read_fields(record_, c_.type());
      c_.set_form_version(stored_->form_version);
    }
    return *stored_;
  }

  // The typed value of stored field i.
  py::object value(std::size_t i) {
    const std::vector<FieldRef>& fields = stored().fields;
    const FieldRef& f = fields[i];
    if (const FieldLayout* layout = c_.layout_of(f.type, f.data, std::span<const FieldRef>(fields).first(i))) {
      try {
        return convert_.field(*layout, decode_field(*layout, f.data, c_.localized()));
      } catch (const Error&) {  // chosen layouts fit their fields; bytes if one ever did not
      }
    }
    return steal(PyBytes_FromStringAndSize(reinterpret_cast<const char*>(f.data.data()), Py_ssize_t(f.data.size())));
  }

  std::vector<std::size_t> positions(Signature sig) {
    std::vector<std::size_t> out;
    const std::vector<FieldRef>& fields = stored().fields;
    for (std::size_t i = 0; i < fields.size(); ++i)
      if (fields[i].type == sig) out.push_back(i);
    return out;
  }

  [[noreturn]] void missing(Signature sig) {
    throw py::key_error(c_.describe(stored().fields) + " has no " + sig.str() + " field");
  }

  // Writes the fields of type sig: values[k] replaces the k-th (where it is), those past the
  // stored ones follow the last (or end the record), stored ones past the values go.
  // all: value is the list of every field's value; else the one field's value (a list of them
  // when the record holds several).
  void write(PyRecord& record, Signature sig, py::handle value, bool all) {
    // A record of an edited plugin (a patch's) is read in place: no copy of its fields.
    Record* model = record.plugin().model ? &record.edited() : nullptr;
    std::vector<Field> copied;
    if (!model) copied = record.owned_fields();
    const std::vector<Field>& old = model ? model->fields() : copied;
    c_.set_form_version(model ? model->header().form_version : form_version(record));
    std::vector<FieldRef> old_refs;
    old_refs.reserve(old.size());
    for (const Field& f : old) old_refs.push_back({f.type, f.data});
    std::size_t stored_count = 0;
    for (const Field& f : old) stored_count += f.type == sig;
    std::vector<py::handle> values;
    if (all || stored_count > 1) {
      if (!is_sequence(value))
        throw py::type_error(fmt::format("{} {}: {}expected a list of the fields' values, got {}", c_.describe(old_refs),
                                         sig.str(), all ? "" : fmt::format("the record holds {} of them: ", stored_count),
                                         type_name(value)));
      for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(value.ptr()); ++k)
        values.push_back(PySequence_Fast_GET_ITEM(value.ptr(), k));
    } else {
      values.push_back(value);
    }

    // One field replaced where it is (the common edit): only its bytes are made and compared.
    if (stored_count == 1 && values.size() == 1) {
      std::size_t i = 0;
      while (old[i].type != sig) ++i;
      std::vector<std::uint8_t> data = raising_field_data(sig, values[0], &old[i], std::span<const FieldRef>(old_refs).first(i),
                                                          std::span<const FieldRef>(old_refs).first(i), sig.str(), old_refs);
      if (data == old[i].data) return;  // nothing changed: the record is left as it is
      (model ? *model : record.edited()).edit_fields()[i].data = std::move(data);
      return;
    }

    std::vector<Field> out;
    out.reserve(old.size() + values.size());
    std::vector<std::pair<std::size_t, std::ptrdiff_t>> slots;  // (index in out, index in old or -1)
    std::size_t k = 0;
    for (std::size_t i = 0; i < old.size(); ++i) {
      if (old[i].type != sig) {
        out.push_back(old[i]);
        continue;
      }
      if (k < values.size()) {
        slots.push_back({out.size(), std::ptrdiff_t(i)});
        out.push_back(old[i]);
      }
      if (++k == stored_count)
        for (std::size_t extra = stored_count; extra < values.size(); ++extra) {
          slots.push_back({out.size(), -1});
          out.push_back(Field{sig, {}});
        }
    }
    if (stored_count == 0)
      for (std::size_t extra = 0; extra < values.size(); ++extra) {
        slots.push_back({out.size(), -1});
        out.push_back(Field{sig, {}});
      }

    std::vector<FieldRef> new_refs;
    for (std::size_t s = 0; s < slots.size(); ++s) {
      const auto [at, from] = slots[s];
      new_refs.clear();
      for (std::size_t j = 0; j < at; ++j) new_refs.push_back({out[j].type, out[j].data});
      const std::string name = values.size() > 1 || stored_count > 1 ? fmt::format("{}[{}]", sig.str(), s) : sig.str();
      out[at].data = raising_field_data(sig, values[s], from >= 0 ? &old[std::size_t(from)] : nullptr,
                                        std::span<const FieldRef>(old_refs).first(from >= 0 ? std::size_t(from) : 0), new_refs,
                                        name, old_refs);
    }
    if (out == old) return;  // nothing changed: the record is left as it is (not even marked edited)
    (model ? *model : record.edited()).edit_fields() = std::move(out);
  }

 private:
  // field_data, its problems raised as Python errors naming the record (old_refs: its fields).
  std::vector<std::uint8_t> raising_field_data(Signature sig, py::handle v, const Field* old,
                                               std::span<const FieldRef> old_earlier, std::span<const FieldRef> new_earlier,
                                               const std::string& name, std::span<const FieldRef> old_refs) {
    try {
      return field_data(sig, v, old, old_earlier, new_earlier, name);
    } catch (const Problem& p) {
      const std::string message = c_.describe(old_refs) + " " + p.message;
      PyErr_SetObject(p.type_error ? PyExc_TypeError : PyExc_ValueError, decode(message, c_.encoding()).ptr());
      throw py::error_already_set();
    } catch (const PluginError& p) {
      throw Error(p.error.file(), p.error.offset(), c_.record_ref(old_refs), p.path + ": " + p.error.detail());
    }
  }

  // The bytes of one field from a Python value: bytes as they are, else through a layout (the
  // stored field's first, keeping what the value does not change).
  std::vector<std::uint8_t> field_data(Signature sig, py::handle v, const Field* old, std::span<const FieldRef> old_earlier,
                                       std::span<const FieldRef> new_earlier, const std::string& name) {
    if (is_bytes_like(v)) return field_bytes(py::reinterpret_borrow<py::object>(v), c_.encoding());
    if (owned_elsewhere(c_.type(), sig))
      wrong_type(name, fmt::format("expected bytes (conditions, VMAD and a package's fields are read and written as bytes "
                                   "here: see conditions(), vmad(), package()), got {}",
                                   type_name(v)));
    const FieldLayout* chosen = nullptr;
    FieldValue old_tree;
    if (old) {
      chosen = c_.layout_of(sig, old->data, old_earlier);
      if (chosen) {
        try {
          old_tree = decode_field(*chosen, old->data, c_.localized(), sig);
        } catch (const Error&) {
          chosen = nullptr;
        }
      }
    }
    const std::span<const FieldLayout* const> layouts = c_.table().find(c_.type(), sig);
    if (!chosen && layouts.empty())
      wrong_type(name, fmt::format("{} records have no layout for {} fields: expected bytes, got {}", c_.type().str(),
                                   sig.str(), type_name(v)));
    Builder build(c_, convert_);
    std::optional<Problem> first;
    const auto attempt = [&](const FieldLayout& layout, bool check) -> std::optional<std::vector<std::uint8_t>> {
      const bool late = has_refers_to(layout);  // its conditions look at the bytes
      if (check && !late && !c_.table().applies(layout, {}, c_.site(new_earlier))) return std::nullopt;
      try {
        std::string path = name;
        const FieldValue tree = build.field(layout, v, old ? &old_tree : nullptr, path);
        std::vector<std::uint8_t> bytes = encode_field(layout, tree, c_.localized(), sig);
        if (check && late && !c_.table().applies(layout, bytes, c_.site(new_earlier))) return std::nullopt;
        return bytes;
      } catch (const Problem& p) {
        if (!first) first = p;
      } catch (const Error& e) {
        if (!first) first = from_encoder(e, sig, name);
      }
      return std::nullopt;
    };
    if (chosen)
      if (auto bytes = attempt(*chosen, false)) return std::move(*bytes);
    for (const FieldLayout* layout : layouts)
      if (layout != chosen)
        if (auto bytes = attempt(*layout, true)) return std::move(*bytes);
    if (first) throw *first;
    wrong_type(name, fmt::format("no layout of {} fields holds here (its conditions): expected bytes, got {}", sig.str(),
                                 type_name(v)));
  }

  const PyRecord& record_;
  Context c_;
  Converter convert_;
  std::shared_ptr<const RecordFields> stored_;
};

}  // namespace

py::list typed_values(const PyRecord& record, const std::string& sig, const std::string& encoding) {
  const Signature field = field_signature(sig);
  TypedRecord typed(record, encoding.c_str());
  py::list out;
  for (std::size_t i : typed.positions(field)) out.append(typed.value(i));
  return out;
}

py::object typed_value(const PyRecord& record, const std::string& sig, const std::string& encoding) {
  const Signature field = field_signature(sig);
  TypedRecord typed(record, encoding.c_str());
  const std::vector<std::size_t> at = typed.positions(field);
  if (at.empty()) typed.missing(field);
  if (at.size() == 1) return typed.value(at.front());
  py::list out;
  for (std::size_t i : at) out.append(typed.value(i));
  return out;
}

py::object typed_value_or(const PyRecord& record, const std::string& sig, const py::object& fallback,
                          const std::string& encoding) {
  const Signature field = field_signature(sig);
  TypedRecord typed(record, encoding.c_str());
  const std::vector<std::size_t> at = typed.positions(field);
  if (at.empty()) return fallback;
  if (at.size() == 1) return typed.value(at.front());
  py::list out;
  for (std::size_t i : at) out.append(typed.value(i));
  return out;
}

bool has_field(const PyRecord& record, const std::string& sig) {
  const Signature field = field_signature(sig);
  const std::shared_ptr<const RecordFields> fields = read_fields(record, record.signature());
  return std::any_of(fields->fields.begin(), fields->fields.end(), [&](const FieldRef& f) { return f.type == field; });
}

py::dict typed_fields(const PyRecord& record, const std::string& encoding) {
  TypedRecord typed(record, encoding.c_str());
  const std::vector<FieldRef>& fields = typed.stored().fields;
  // Repeated fields give lists: count first.
  std::vector<std::pair<Signature, std::size_t>> counts;
  for (const FieldRef& f : fields) {
    auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == f.type; });
    if (it == counts.end()) counts.push_back({f.type, 1});
    else ++it->second;
  }
  py::dict out;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const Signature sig = fields[i].type;
    py::str key(sig.str());  // as Field.signature gives it
    const bool repeated = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == sig; })->second > 1;
    if (!repeated) {
      out[key] = typed.value(i);
      continue;
    }
    PyObject* list = PyDict_GetItemWithError(out.ptr(), key.ptr());
    if (!list) {
      if (PyErr_Occurred()) throw py::error_already_set();
      out[key] = py::list();
      list = PyDict_GetItemWithError(out.ptr(), key.ptr());
    }
    py::object value = typed.value(i);
    if (PyList_Append(list, value.ptr()) != 0) throw py::error_already_set();
  }
  return out;
}

void set_typed_value(PyRecord& record, const std::string& sig, const py::object& value, const std::string& encoding) {
  const Signature field = field_signature(sig);
  TypedRecord(record, encoding.c_str()).write(record, field, value, false);
}

void set_typed_values(PyRecord& record, const std::string& sig, const py::object& values, const std::string& encoding) {
  const Signature field = field_signature(sig);
  TypedRecord(record, encoding.c_str()).write(record, field, values, true);
}

void delete_fields(PyRecord& record, const std::string& sig) {
  const Signature field = field_signature(sig);
  TypedRecord typed(record, "cp1252");
  if (typed.positions(field).empty()) typed.missing(field);
  record.edited().remove(field);
}

py::object record_form_key(const PyRecord& record) {
  auto [plugin, id] = record.plugin().form_of(record.form_id());
  return py::cast(PyFormKey{std::move(plugin), id});
}

}  // namespace tesmod::python

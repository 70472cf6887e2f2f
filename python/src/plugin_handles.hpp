// The objects behind tesmod.Plugin, Record and Field (bound in plugin_binding.cpp, extended by
// the field bindings). See plugin_binding.cpp for how records are addressed before and after
// the first edit.
#pragma once


#include <fmt/format.h>
#include <fmt/ranges.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "tesmod/error.hpp"
#include "tesmod/io/ascii.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/io/zlib_codec.hpp"
#include "tesmod/plugin/game.hpp"
#include "tesmod/plugin/editor_ids.hpp"
#include "tesmod/plugin/plugin.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/plugin/plugin_outline.hpp"
#include "tesmod/plugin/record_flags.hpp"
#include "tesmod/plugin/round_trip.hpp"
#include "tesmod/plugin/subrecord.hpp"


#include "tesmod/plugin/form_names.hpp"
#include "tesmod/script/plugin_names.hpp"
#include "tesmod/script/plugin_scripts.hpp"

namespace tesmod::python {
namespace py = pybind11;


// Strings in plugins are code-page bytes; Python gets them decoded (cp1252 unless told
// otherwise, undecodable bytes kept as surrogates so that they can be encoded back).
inline py::str decode(std::string_view bytes, const char* encoding = "cp1252") {
  // Most names are ASCII, which every code page shares: skip the codec lookup by name.
  if (std::all_of(bytes.begin(), bytes.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; })) {
    PyObject* s = PyUnicode_DecodeASCII(bytes.data(), Py_ssize_t(bytes.size()), nullptr);
    if (!s) throw py::error_already_set();
    return py::reinterpret_steal<py::str>(s);
  }
  PyObject* s = PyUnicode_Decode(bytes.data(), Py_ssize_t(bytes.size()), encoding, "surrogateescape");
  if (!s) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(s);
}

inline py::object decode_optional(const std::optional<std::string>& bytes) {
  return bytes ? py::object(decode(*bytes)) : py::object(py::none());
}

inline Signature signature_arg(const std::string& text) {
  Signature sig;
  if (text.size() != 4 || !Signature::parse(text, sig))
    throw py::value_error("a record or field type is 4 characters, got '" + text + "'");
  return sig;
}

inline std::string hex_id(std::uint32_t form_id) { return fmt::format("{:08X}", form_id); }

// Walks the records of a model tree in order.
template <typename F>
void for_each_record(std::vector<Node>& nodes, F&& f) {
  for (Node& n : nodes) {
    if (n.is_group()) for_each_record(n.group().children, f);
    else f(n.record());
  }
}

struct OpenPlugin {
  OpenPlugin() = default;  // a plugin made in memory: set model, self_name and game_set
  explicit OpenPlugin(PluginFile f) : full(std::move(f)) {}
  explicit OpenPlugin(PluginOutline o) : outline(std::move(o)) {}
  std::optional<PluginOutline> outline;  // a lazy open: top-level groups, their contents on first use
  std::optional<PluginFile> full;        // every group and record: at open, or when first needed
  Inflater inflater;
  // The editable model: built by the first edit (owned_model), or a patch plugin's (owned by it).
  Plugin* model = nullptr;
  std::optional<Plugin> owned_model;
  // A patch plugin (patch_plugin_binding.cpp) numbers the FormIDs of its records its own way:
  // these name the form of such a FormID and back (set for patches only).
  std::function<std::pair<std::string, std::uint32_t>(std::uint32_t)> patch_form_of;
  std::function<std::uint32_t(const std::string&, std::uint32_t)> patch_form_id_of;
  std::optional<PluginFormNamer> namer;  // EditorIDs of the plugin and its masters, on first use
  std::optional<std::vector<script::PluginScript>> scripts_read;  // Oblivion scripts as opened, on first use
  std::unique_ptr<script::PluginNames> script_names_read;          // what scripts name, on first use
  std::unordered_map<std::uint32_t, std::vector<Record*>> by_id;  // model records by FormID
  bool by_id_stale = true;  // after a change that may have moved records

  // A plugin made in memory (a patch) has no file to read as opened.
  [[noreturn]] void no_file() const {
    throw py::value_error(self_name + " is a new plugin, not read from a file: this needs a plugin as read (save it and open it)");
  }
  // The full index (built now for a lazy open: everything but reading records by type needs it).
  const PluginFile& file() {
    if (!full && !outline) no_file();
    if (!full) full.emplace(outline->index_all());
    return *full;
  }
  // Reads records given their index entries, whichever index they come from.
  const PluginBytes& reader() const {
    if (!full && !outline) no_file();
    if (full) return *full;
    return *outline;
  }
  std::optional<Game> game_set;  // a new plugin's
  Game game() {
    if (game_set) return *game_set;
    return outline && outline->game_is_known() ? outline->game() : file().game();
  }

  // The plugin's own file name (how FormKeys name it).
  std::string own_name() const {
    if (!self_name.empty()) return self_name;
    return std::filesystem::path(reader().name()).filename().string();
  }
  std::string self_name;  // set for plugins with no file (patches)
  // The masters as the plugin holds them now (edited or as read), as stored (code-page bytes).
  // A file's are read once (typed fields name every FormID through them); a model's each time.
  const std::vector<std::string>& master_names() {
    if (!model && read_masters) return *read_masters;
    std::vector<std::string> out;
    const FileHeader h = model ? model->header() : reader().header();
    for (const MasterFile& m : h.masters) out.push_back(m.name);
    auto& slot = model ? model_masters : read_masters;
    slot = std::move(out);
    return *slot;
  }
  std::optional<std::vector<std::string>> read_masters, model_masters;
  // The form a FormID of this plugin's fields names: (defining plugin's file name, object id). The
  // top byte indexes the masters; past them it is the plugin itself.
  std::pair<std::string, std::uint32_t> form_of(std::uint32_t form_id) {
    if (patch_form_of) return patch_form_of(form_id);
    const std::vector<std::string>& masters = master_names();
    const std::uint32_t index = form_id >> 24;
    return {index < masters.size() ? masters[index] : own_name(), form_id & 0xFFFFFFu};
  }
  // The FormID this plugin stores for a form: ValueError when its plugin is not a master (nor the
  // plugin itself).
  std::uint32_t form_id_of(const std::string& plugin, std::uint32_t object_id) {
    if (patch_form_id_of) return patch_form_id_of(plugin, object_id);
    const std::vector<std::string>& masters = master_names();
    for (std::size_t i = 0; i < masters.size(); ++i)
      if (ascii::iequals(masters[i], plugin)) return std::uint32_t(i) << 24 | (object_id & 0xFFFFFFu);
    if (ascii::iequals(own_name(), plugin)) return std::uint32_t(masters.size()) << 24 | (object_id & 0xFFFFFFu);
    throw py::value_error("FormKey " + plugin + ":" + fmt::format("{:06X}", object_id) + " names a plugin that is not a master of " +
                          own_name() + " (its masters: " + fmt::format("{}", fmt::join(masters, ", ")) + ")");
  }

  // Names forms in text (conditions ...) as the file was opened: records added since are not known.
  const PluginFormNamer& names() {
    if (!namer) namer.emplace(PluginFormNamer::build(file()));
    return *namer;
  }
  // The scripts and the names they use, as the file was opened (read once, then kept).
  const std::vector<script::PluginScript>& scripts() {
    if (!scripts_read) scripts_read = script::plugin_scripts(file());
    return *scripts_read;
  }
  const script::PluginNames& script_names() {
    if (!script_names_read) script_names_read = script::PluginNames::build(file());
    return *script_names_read;
  }
  Plugin& edit() {
    if (!model) set_model(Plugin::from_file(file()));
    return *model;
  }
  void set_model(Plugin p) {
    owned_model.emplace(std::move(p));
    model = &*owned_model;
    by_id_stale = true;
  }
  void index_records() {
    if (!by_id_stale) return;
    by_id.clear();
    for_each_record(model->top(), [&](Record& r) { by_id[r.form_id()].push_back(&r); });
    by_id_stale = false;
  }
  Record* find(std::uint32_t form_id) {
    index_records();
    auto it = by_id.find(form_id);
    return it == by_id.end() || it->second.empty() ? nullptr : it->second.front();
  }
  // The model record a handle names: exactly one record with this FormID.
  Record& record(Signature type, std::uint32_t form_id) {
    index_records();
    auto it = by_id.find(form_id);
    const std::size_t n = it == by_id.end() ? 0 : it->second.size();
    if (n == 1) return *it->second.front();
    throw Error(reader().name(), Error::kNoOffset, RecordRef{type, form_id, {}},
                n == 0 ? "the record is no longer in the plugin (removed)"
                       : "FormID " + hex_id(form_id) + " is used by " + std::to_string(n) +
                             " records; an edit by FormID would be ambiguous");
  }
  Record& add(Record r) {
    const Signature type = r.type();
    return track_add(type, [&]() -> Record& { return edit().add(std::move(r)); });
  }
  // Runs add, which may append a record of this type to the model's top-level group (a patch
  // returns one it has instead), keeping by_id current without rebuilding it: appending moves the
  // group's records only when its storage grows (or the group is new), which marks it stale.
  template <class Add>
  Record& track_add(Signature type, Add&& add) {
    const auto storage = [&]() -> std::pair<const Node*, std::size_t> {
      for (const Node& n : model->top())
        if (n.is_group() && n.group().type() == 0 && n.group().label() == type.value())
          return {n.group().children.data(), n.group().children.size()};
      return {nullptr, 0};
    };
    edit();
    const auto before = storage();
    Record& added = add();
    const auto after = storage();
    if (before.first == nullptr || after.first != before.first) by_id_stale = true;
    else if (after.second != before.second && !by_id_stale) by_id[added.form_id()].push_back(&added);
    return added;
  }
  bool remove(std::uint32_t form_id) {
    const bool removed = edit().remove(form_id);
    by_id_stale = true;
    return removed;
  }
};
using PluginRef = std::shared_ptr<OpenPlugin>;

// Field values from Python: bytes-like objects as they are, str as a zero-terminated string in
// the given encoding.
inline std::vector<std::uint8_t> field_bytes(const py::object& value, const char* encoding) {
  if (py::isinstance<py::str>(value)) {
    PyObject* b = PyUnicode_AsEncodedString(value.ptr(), encoding, "surrogateescape");
    if (!b) throw py::error_already_set();
    const auto bytes = py::reinterpret_steal<py::bytes>(b);
    const std::string_view text = bytes;
    std::vector<std::uint8_t> out(text.begin(), text.end());
    out.push_back(0);
    return out;
  }
  py::buffer buffer = py::reinterpret_borrow<py::buffer>(value);
  py::buffer_info info = buffer.request();
  if (info.ndim != 1 || info.itemsize != 1)
    throw py::type_error("a field value is bytes (or another bytes-like object) or str");
  const auto* data = static_cast<const std::uint8_t*>(info.ptr);
  return std::vector<std::uint8_t>(data, data + info.size);
}

inline Field make_field(const std::string& type, const py::object& value, const std::string& encoding);

inline std::string encoded(const py::str& text, const std::string& encoding) {
  std::vector<std::uint8_t> bytes = field_bytes(text, encoding.c_str());
  bytes.pop_back();  // the terminator field_bytes adds
  return std::string(bytes.begin(), bytes.end());
}

class PyField {
 public:
  PyField(std::shared_ptr<const void> owner, const SubrecordView& view, ErrorContext context)
      : owner_(std::move(owner)), type_(view.type), data_(view.data), oversize_(view.oversize),
        context_(std::move(context)) {}

  std::string signature() const { return type_.str(); }
  std::span<const std::uint8_t> data() const { return data_; }
  bool oversize() const { return oversize_; }
  py::bytes as_bytes() const { return py::bytes(reinterpret_cast<const char*>(data_.data()), data_.size()); }
  py::str as_string(const std::string& encoding) const {
    std::size_t n = data_.size();
    while (n > 0 && data_[n - 1] == 0) --n;
    return decode(std::string_view(reinterpret_cast<const char*>(data_.data()), n), encoding.c_str());
  }
  std::int64_t as_int() const {
    switch (data_.size()) {
      case 1: return std::int8_t(data_[0]);
      case 2: return le::load<std::int16_t>(data_.data());
      case 4: return le::i32(data_.data());
      case 8: return le::load<std::int64_t>(data_.data());
    }
    fail("an integer of 1, 2, 4 or 8 bytes");
  }
  std::uint64_t as_uint() const {
    switch (data_.size()) {
      case 1: return data_[0];
      case 2: return le::load<std::uint16_t>(data_.data());
      case 4: return le::u32(data_.data());
      case 8: return le::load<std::uint64_t>(data_.data());
    }
    fail("an unsigned integer of 1, 2, 4 or 8 bytes");
  }
  double as_float() const {
    if (data_.size() == 4) return le::f32(data_.data());
    if (data_.size() == 8) return le::load<double>(data_.data());
    fail("a float of 4 or 8 bytes");
  }
  std::uint32_t as_form_id() const {
    if (data_.size() != 4) fail("a FormID of 4 bytes");
    return le::u32(data_.data());
  }

 private:
  [[noreturn]] void fail(const std::string& expected) const {
    context_.fail(type_.str() + " field of " + std::to_string(data_.size()) + " bytes; expected " + expected);
  }
  std::shared_ptr<const void> owner_;  // the mapped file or the inflated body
  Signature type_;
  std::span<const std::uint8_t> data_;
  bool oversize_;
  ErrorContext context_;  // the field's offset in the file (none inside an inflated body)
};

class PyRecord {
 public:
  // A record of the model (after the first edit), found by FormID.
  PyRecord(PluginRef plugin, Signature type, std::uint32_t form_id)
      : plugin_(std::move(plugin)), type_(type), form_id_(form_id) {}
  // A record as opened: its index entry (from the full index or an outline's group).
  PyRecord(PluginRef plugin, const IndexEntry& e) : plugin_(std::move(plugin)), entry_(e), type_(e.type), form_id_(e.id) {}

  std::string type() const { return type_.str(); }
  Signature signature() const { return type_; }
  std::uint32_t form_id() const { return form_id_; }
  std::uint32_t flags() const { return model() ? model()->flags() : entry().flags; }
  bool compressed() const { return model() ? model()->is_compressed() : entry().is_compressed(); }
  py::object offset() const {
    if (Record* r = model()) {
      auto at = r->source_offset();
      return at ? py::object(py::int_(*at)) : py::object(py::none());
    }
    return py::int_(entry().offset);
  }
  py::object editor_id() const {
    if (Record* r = model()) return decode_optional(r->editor_id());
    return decode_optional(plugin_->reader().editor_id(entry()));
  }

  std::vector<PyField> fields() const {
    if (Record* r = model()) return model_fields(*r);
    std::shared_ptr<const void> owner;
    std::uint64_t body_offset = Error::kNoOffset;
    const ErrorContext context = plugin_->reader().context(entry());
    std::vector<PyField> out;
    for (const SubrecordView& v : entry_views(owner, body_offset)) {
      ErrorContext at = context;
      at.offset = body_offset == Error::kNoOffset ? Error::kNoOffset : body_offset + v.offset;
      out.emplace_back(owner, v, std::move(at));
    }
    return out;
  }

  py::object field(const std::string& type) const {
    const std::string sig = signature_arg(type).str();
    for (PyField& f : fields())
      if (f.signature() == sig) return py::cast(std::move(f));
    return py::none();
  }

  // Edits (the first one builds the plugin's editable model).
  void set_field(const std::string& type, const py::object& value, const std::string& encoding) {
    edited().set(make_field(type, value, encoding));
  }
  void add_field(const std::string& type, const py::object& value, const std::string& encoding) {
    edited().edit_fields().push_back(make_field(type, value, encoding));
  }
  std::size_t remove_field(const std::string& type) { return edited().remove(signature_arg(type)); }
  void set_fields(const std::vector<std::pair<std::string, py::object>>& fields, const std::string& encoding) {
    std::vector<Field> out;
    for (const auto& [type, value] : fields) out.push_back(make_field(type, value, encoding));
    edited().edit_fields() = std::move(out);
  }
  void set_flags(std::uint32_t flags) { edited().set_flags(flags); }
  void set_compressed(bool on) {
    Record& r = edited();
    r.set_flags(on ? r.flags() | record_flags::kCompressed : r.flags() & ~record_flags::kCompressed);
  }

  // The fields as they are now, owned (for decoders that need whole fields).
  std::vector<Field> owned_fields() const {
    if (Record* r = model()) return r->fields();
    std::shared_ptr<const void> owner;
    std::uint64_t body_offset = Error::kNoOffset;
    std::vector<Field> out;
    for (const SubrecordView& v : entry_views(owner, body_offset)) out.push_back(Field::from_view(v));
    return out;
  }
  ErrorContext context() const {
    if (Record* r = model()) return r->context();
    return plugin_->reader().context(entry());
  }
  OpenPlugin& plugin() const { return *plugin_; }
  const PluginRef& plugin_ref() const { return plugin_; }
  // The index entry the handle was made from (a record as read), or nullptr (one of the model).
  const IndexEntry* index_entry() const { return entry_.type == Signature() ? nullptr : &entry_; }
  // The model record, for edits.
  Record& edited() const {
    plugin_->edit();
    return plugin_->record(type_, form_id_);
  }

  std::string repr() const {
    std::string text = "<tesmod.Record " + type() + " " + hex_id(form_id_);
    py::object edid = editor_id();
    if (!edid.is_none()) text += " '" + edid.cast<std::string>() + "'";
    return text + ">";
  }

 private:
  const IndexEntry& entry() const { return entry_; }
  Record* model() const { return plugin_->model ? &plugin_->record(type_, form_id_) : nullptr; }
  // The fields of the entry as stored: views of the mapped file, or of an inflated copy of a
  // compressed body (owner keeps either alive; body_offset is the body's file offset, if any).
  std::vector<SubrecordView> entry_views(std::shared_ptr<const void>& owner, std::uint64_t& body_offset) const {
    const PluginBytes& file = plugin_->reader();
    const IndexEntry& e = entry();
    std::span<const std::uint8_t> body;
    body_offset = Error::kNoOffset;
    if (e.is_compressed()) {
      auto inflated = file.body(e, plugin_->inflater);
      auto copy = std::make_shared<std::vector<std::uint8_t>>(inflated.begin(), inflated.end());
      body = *copy;
      owner = std::move(copy);
    } else {
      body = file.stored_body(e);
      body_offset = e.offset + file.header_size();
      owner = file.file_bytes();
    }
    return read_subrecords(body, file.context(e), body_offset);
  }
  // The model's fields are owned by the record and change with edits: Python gets copies.
  static std::vector<PyField> model_fields(const Record& r) {
    const auto& fields = r.fields();
    auto copy = std::make_shared<std::vector<std::uint8_t>>();
    for (const Field& f : fields) copy->insert(copy->end(), f.data.begin(), f.data.end());
    std::vector<PyField> out;
    std::size_t at = 0;
    ErrorContext context = r.context();
    context.offset = Error::kNoOffset;
    for (const Field& f : fields) {
      SubrecordView v;
      v.type = f.type;
      v.data = std::span<const std::uint8_t>(copy->data() + at, f.data.size());
      v.oversize = f.oversize;
      at += f.data.size();
      out.emplace_back(copy, v, context);
    }
    return out;
  }

  PluginRef plugin_;
  IndexEntry entry_{};  // for reading before the model exists
  Signature type_;
  std::uint32_t form_id_;
};

inline Field make_field(const std::string& type, const py::object& value, const std::string& encoding) {
  Field f;
  f.type = signature_arg(type);
  f.data = field_bytes(value, encoding.c_str());
  return f;
}

// Records in file order (the TES4 header record not included), of one type when asked.
// Records of an edited plugin are listed when the iteration starts (so edits made while
// iterating do not disturb it). A lazy open asked for one type walks only the top-level groups
// that hold it, indexing each when the iteration reaches it.
class PyRecords {
 public:
  PyRecords(PluginRef plugin, std::optional<Signature> type) : plugin_(std::move(plugin)), type_(type) {
    if (plugin_->model) {
      from_model_ = true;
      for_each_record(plugin_->model->top(), [&](Record& r) {
        if (!type_ || r.type() == *type_) listed_.emplace_back(r.type(), r.form_id());
      });
    } else if (type_ && !plugin_->full) {
      groups_ = plugin_->outline->groups_holding(*type_);
    } else {
      entries_ = plugin_->file().entries().subspan(1);  // entry 0 is the TES4 record
    }
  }
  PyRecord next() {
    if (from_model_) {
      if (next_ >= listed_.size()) throw py::stop_iteration();
      const auto& [type, id] = listed_[next_++];
      return PyRecord(plugin_, type, id);
    }
    if (const IndexEntry* e = next_entry()) return PyRecord(plugin_, *e);
    throw py::stop_iteration();
  }
  // Before the first edit: the next record's index entry, or none at the end.
  const IndexEntry* next_entry() {
    for (;;) {
      while (next_ < entries_.size()) {
        const IndexEntry& e = entries_[next_++];
        if (e.is_group()) continue;
        if (type_ && e.type != *type_) continue;
        return &e;
      }
      if (next_group_ >= groups_.size()) return nullptr;
      entries_ = plugin_->outline->group(groups_[next_group_++]);
      next_ = 0;
    }
  }

 private:
  PluginRef plugin_;
  std::optional<Signature> type_;
  std::span<const IndexEntry> entries_;  // being walked
  std::size_t next_ = 0;                 // in entries_, or in listed_
  std::vector<std::size_t> groups_;      // a lazy open's top-level groups still to walk
  std::size_t next_group_ = 0;
  bool from_model_ = false;
  std::vector<std::pair<Signature, std::uint32_t>> listed_;
};

struct PyHeader {
  double version;
  std::string version_text;
  std::int32_t record_count;
  std::uint32_t next_object_id;
  std::uint32_t flags;
  py::object author, description;
  std::vector<py::str> masters;
  bool is_master, is_localized, is_light;
};

class PyPlugin {
 public:
  explicit PyPlugin(PluginRef p) : p_(std::move(p)) {}
  OpenPlugin& state() { return *p_; }
  static PyPlugin open(const std::string& path, const std::optional<std::string>& game, unsigned threads, bool lazy) {
    OpenOptions options;
    options.threads = threads;
    if (game) {
      options.game = parse_game(*game);
      if (!options.game) throw py::value_error("game is one of oblivion, skyrim, skyrimse; got '" + *game + "'");
    }
    if (lazy) return PyPlugin(std::make_shared<OpenPlugin>(PluginOutline::open(path, options)));
    return PyPlugin(std::make_shared<OpenPlugin>(PluginFile::open(path, options)));
  }
  const PluginFile& file() const { return p_->file(); }
  std::string path() const { return p_->self_name.empty() ? p_->reader().name() : p_->self_name; }
  std::string game() const { return std::string(game_id(p_->game())); }
  PyHeader header() const {
    const FileHeader h = p_->model ? p_->model->header() : p_->reader().header();
    PyHeader out{h.version, h.version_text(), h.record_count, h.next_object_id, h.flags,
                 decode_optional(h.author), decode_optional(h.description), {},
                 h.is_master(), h.is_localized(), h.is_light()};
    for (const MasterFile& m : h.masters) out.masters.push_back(decode(m.name));
    return out;
  }
  std::vector<py::str> masters() const { return header().masters; }
  std::uint64_t size() const {
    if (!p_->model) return file().stats().records;
    std::uint64_t n = 0;
    for_each_record(p_->model->top(), [&](Record&) { ++n; });
    return n;
  }
  PyRecords records(const std::optional<std::string>& type) const {
    return PyRecords(p_, type ? std::optional<Signature>(signature_arg(*type)) : std::nullopt);
  }
  std::optional<PyRecord> get(std::uint32_t form_id) const {
    if (p_->model) {
      if (Record* r = p_->find(form_id)) return PyRecord(p_, r->type(), form_id);
      return std::nullopt;
    }
    if (auto i = file().find_form_id(form_id)) return PyRecord(p_, file().entry(*i));
    return std::nullopt;
  }
  PyRecord at(std::uint32_t form_id) const {
    if (auto r = get(form_id)) return *r;
    throw py::key_error("no record with FormID " + hex_id(form_id));
  }

  PyRecord add_record(const std::string& type, const std::vector<std::pair<std::string, py::object>>& fields,
                      std::optional<std::uint32_t> form_id, std::uint32_t flags, const std::string& encoding) {
    const Signature sig = signature_arg(type);
    if (sig == Signature("GRUP") || sig == Signature("TES4"))
      throw py::value_error("add_record adds records, not " + type);
    std::vector<Field> out;
    for (const auto& [ftype, value] : fields) out.push_back(make_field(ftype, value, encoding));
    Plugin& p = p_->edit();
    const std::uint32_t id = form_id ? *form_id : p.allocate_form_id();
    if (p_->find(id)) throw py::value_error("FormID " + hex_id(id) + " is already used in this plugin");
    Record& added = p_->add(Record(sig, id, std::move(out), flags));
    return PyRecord(p_, added.type(), added.form_id());
  }
  // (FormID, EditorID) of every record, or of one type, in file order: the reading (and
  // inflating) done in C++ on several threads with the GIL released.
  py::list editor_ids(const std::optional<std::string>& type, unsigned threads) const {
    const std::optional<Signature> sig = type ? std::optional<Signature>(signature_arg(*type)) : std::nullopt;
    py::list out;
    if (p_->model) {
      for_each_record(p_->model->top(), [&](Record& r) {
        if (!sig || r.type() == *sig) out.append(py::make_tuple(r.form_id(), decode_optional(r.editor_id())));
      });
      return out;
    }
    // The records records(type) walks, the same way.
    std::vector<IndexEntry> chosen;
    PyRecords walk(p_, sig);
    while (const IndexEntry* e = walk.next_entry()) chosen.push_back(*e);
    std::vector<std::optional<std::string>> ids;
    const PluginBytes& reader = p_->reader();  // chosen with the GIL held: another thread may build the full index
    {
      py::gil_scoped_release unlocked;
      ids = editor_ids_of(reader, chosen, threads);
    }
    for (std::size_t i = 0; i < chosen.size(); ++i) out.append(py::make_tuple(chosen[i].id, decode_optional(ids[i])));
    return out;
  }
  bool remove(std::uint32_t form_id) { return p_->remove(form_id); }
  void set_author(const py::str& text, const std::string& encoding) { p_->edit().set_author(encoded(text, encoding)); }
  void set_description(const py::str& text, const std::string& encoding) {
    p_->edit().set_description(encoded(text, encoding));
  }
  bool modified() const { return p_->model != nullptr; }

  // `tesmod verify`: the plugin as opened, written back through the writer and compared.
  py::dict verify() const {
    RoundTrip r;
    const PluginFile& f = file();
    {
      py::gil_scoped_release unlocked;
      r = write_back_and_compare(f);
    }
    py::dict d;
    d["identical"] = r.identical;
    d["written"] = r.written;
    d["first_difference"] = r.identical ? py::object(py::none()) : py::object(py::int_(r.first_difference));
    return d;
  }

  // Writes the plugin (the model when edited, else the file's bytes through the same writer).
  void save(const std::string& path) {
    Plugin& p = p_->edit();
    py::gil_scoped_release unlocked;
    p.save(path);
  }
  std::string repr() const {
    return "<tesmod.Plugin '" + path() + "' " + game() + ", " + std::to_string(size()) + " records>";
  }

 private:
  PluginRef p_;
};

}  // namespace tesmod::python

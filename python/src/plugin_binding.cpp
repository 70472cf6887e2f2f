// Plugins in Python, read side. A Plugin is the mapped file and its index (PluginFile); Records
// are (plugin, index entry) pairs, so iterating creates no copies and filtering by type happens
// in C++. A Field's bytes are a view of the mapped file (or of the record's inflated body), kept
// alive by the Field, so memoryviews of them stay valid as long as they are referenced.
#include "plugin_binding.hpp"

#include <pybind11/stl.h>

#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tesmod/error.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/io/zlib_codec.hpp"
#include "tesmod/plugin/game.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/plugin/subrecord.hpp"

namespace py = pybind11;

namespace tesmod::python {
namespace {

// Strings in plugins are code-page bytes; Python gets them decoded (cp1252 unless told
// otherwise, undecodable bytes kept as surrogates so that they can be encoded back).
py::str decode(std::string_view bytes, const char* encoding = "cp1252") {
  PyObject* s = PyUnicode_Decode(bytes.data(), Py_ssize_t(bytes.size()), encoding, "surrogateescape");
  if (!s) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(s);
}

py::object decode_optional(const std::optional<std::string>& bytes) {
  return bytes ? py::object(decode(*bytes)) : py::object(py::none());
}

Signature signature_arg(const std::string& text) {
  Signature sig;
  if (text.size() != 4 || !Signature::parse(text, sig))
    throw py::value_error("a record or field type is 4 characters, got '" + text + "'");
  return sig;
}

struct OpenPlugin {
  explicit OpenPlugin(PluginFile f) : file(std::move(f)) {}
  PluginFile file;
  Inflater inflater;
};
using PluginRef = std::shared_ptr<OpenPlugin>;

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
  PyRecord(PluginRef plugin, std::uint32_t index) : plugin_(std::move(plugin)), index_(index) {}
  const IndexEntry& entry() const { return plugin_->file.entry(index_); }
  std::string type() const { return entry().type.str(); }
  std::uint32_t form_id() const { return entry().id; }
  std::uint32_t flags() const { return entry().flags; }
  bool compressed() const { return entry().is_compressed(); }
  std::uint64_t offset() const { return entry().offset; }
  py::object editor_id() const { return decode_optional(plugin_->file.editor_id(entry())); }

  std::vector<PyField> fields() const {
    const PluginFile& file = plugin_->file;
    const IndexEntry& e = entry();
    ErrorContext context = file.context(e);
    std::shared_ptr<const void> owner;
    std::span<const std::uint8_t> body;
    std::uint64_t body_offset = Error::kNoOffset;
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
    std::vector<PyField> out;
    for (const SubrecordView& v : read_subrecords(body, context, body_offset)) {
      ErrorContext at = context;
      at.offset = body_offset == Error::kNoOffset ? Error::kNoOffset : body_offset + v.offset;
      out.emplace_back(owner, v, std::move(at));
    }
    return out;
  }

  py::object field(const std::string& type) const {
    const Signature sig = signature_arg(type);
    for (PyField& f : fields())
      if (f.signature() == sig.str()) return py::cast(std::move(f));
    return py::none();
  }

  std::string repr() const {
    char id[9];
    std::snprintf(id, sizeof id, "%08X", form_id());
    std::string text = "<tesmod.Record " + type() + " " + id;
    if (auto edid = plugin_->file.editor_id(entry())) text += " '" + *edid + "'";
    return text + ">";
  }

 private:
  PluginRef plugin_;
  std::uint32_t index_;
};

// Records in file order (the TES4 header record not included), of one type when asked.
class PyRecords {
 public:
  PyRecords(PluginRef plugin, std::optional<Signature> type) : plugin_(std::move(plugin)), type_(type) {}
  PyRecord next() {
    const auto entries = plugin_->file.entries();
    while (next_ < entries.size()) {
      const IndexEntry& e = entries[next_++];
      if (e.is_group()) continue;
      if (type_ && e.type != *type_) continue;
      return PyRecord(plugin_, std::uint32_t(next_ - 1));
    }
    throw py::stop_iteration();
  }

 private:
  PluginRef plugin_;
  std::optional<Signature> type_;
  std::size_t next_ = 1;  // entry 0 is the TES4 record
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
  static PyPlugin open(const std::string& path, const std::optional<std::string>& game, unsigned threads) {
    OpenOptions options;
    options.threads = threads;
    if (game) {
      options.game = parse_game(*game);
      if (!options.game) throw py::value_error("game is one of oblivion, skyrim, skyrimse; got '" + *game + "'");
    }
    return PyPlugin(std::make_shared<OpenPlugin>(PluginFile::open(path, options)));
  }
  const PluginFile& file() const { return p_->file; }
  std::string path() const { return file().name(); }
  std::string game() const { return std::string(game_id(file().game())); }
  PyHeader header() const {
    const FileHeader& h = file().header();
    PyHeader out{h.version, h.version_text(), h.record_count, h.next_object_id, h.flags,
                 decode_optional(h.author), decode_optional(h.description), {},
                 h.is_master(), h.is_localized(), h.is_light()};
    for (const MasterFile& m : h.masters) out.masters.push_back(decode(m.name));
    return out;
  }
  std::vector<py::str> masters() const { return header().masters; }
  std::uint64_t size() const { return file().stats().records; }
  PyRecords records(const std::optional<std::string>& type) const {
    return PyRecords(p_, type ? std::optional<Signature>(signature_arg(*type)) : std::nullopt);
  }
  std::optional<PyRecord> get(std::uint32_t form_id) const {
    if (auto i = file().find_form_id(form_id)) return PyRecord(p_, *i);
    return std::nullopt;
  }
  PyRecord at(std::uint32_t form_id) const {
    if (auto r = get(form_id)) return *r;
    char id[9];
    std::snprintf(id, sizeof id, "%08X", form_id);
    throw py::key_error(std::string("no record with FormID ") + id);
  }
  std::string repr() const {
    return "<tesmod.Plugin '" + path() + "' " + game() + ", " + std::to_string(size()) + " records>";
  }

 private:
  PluginRef p_;
};

}  // namespace

void bind_plugin(py::module_& m) {
  py::class_<PyField>(m, "Field", py::buffer_protocol(),
                      "One field (subrecord) of a record: its signature and bytes. The bytes are a "
                      "read-only view of the file (or of the record's inflated body).")
      .def_buffer([](PyField& f) {
        return py::buffer_info(const_cast<std::uint8_t*>(f.data().data()), 1, py::format_descriptor<std::uint8_t>::format(),
                               1, {py::ssize_t(f.data().size())}, {py::ssize_t(1)}, /*readonly=*/true);
      })
      .def_property_readonly("signature", &PyField::signature, "The field type, e.g. 'EDID'.")
      .def_property_readonly("data", [](py::object self) { return py::memoryview(self); },
                             "The bytes as a read-only memoryview (no copy).")
      .def_property_readonly("oversize", &PyField::oversize, "Stored with an XXXX size prefix.")
      .def("__len__", [](const PyField& f) { return f.data().size(); })
      .def("__bytes__", &PyField::as_bytes)
      .def("as_bytes", &PyField::as_bytes, "A copy of the bytes.")
      .def("as_string", &PyField::as_string, py::arg("encoding") = "cp1252",
           "The bytes up to the trailing zeros, decoded (the plugin's code page, cp1252 unless given).")
      .def("as_int", &PyField::as_int, "A little-endian signed integer of 1, 2, 4 or 8 bytes.")
      .def("as_uint", &PyField::as_uint, "A little-endian unsigned integer of 1, 2, 4 or 8 bytes.")
      .def("as_float", &PyField::as_float, "A float of 4 or 8 bytes.")
      .def("as_form_id", &PyField::as_form_id, "A FormID (4 bytes).")
      .def("__repr__", [](const PyField& f) {
        return "<tesmod.Field " + f.signature() + ", " + std::to_string(f.data().size()) + " bytes>";
      });

  py::class_<PyRecord>(m, "Record", "A record of an open plugin.")
      .def_property_readonly("type", &PyRecord::type, "The record type, e.g. 'NPC_'.")
      .def_property_readonly("form_id", &PyRecord::form_id)
      .def_property_readonly("flags", &PyRecord::flags, "The header flags.")
      .def_property_readonly("compressed", &PyRecord::compressed)
      .def_property_readonly("offset", &PyRecord::offset, "Byte offset of the record header in the file.")
      .def_property_readonly("editor_id", &PyRecord::editor_id,
                             "The EDID as a string, or None (compressed records are inflated only as far as it).")
      .def_property_readonly("fields", &PyRecord::fields, "The fields in stored order (read on each access).")
      .def("field", &PyRecord::field, py::arg("signature"), "The first field of this type, or None.")
      .def("__repr__", &PyRecord::repr);

  py::class_<PyRecords>(m, "RecordIterator")
      .def("__iter__", [](py::object self) { return self; })
      .def("__next__", &PyRecords::next);

  py::class_<PyHeader>(m, "Header", "The plugin's TES4 record, decoded.")
      .def_readonly("version", &PyHeader::version, "HEDR version (0.8/1.0 Oblivion, 0.94/1.7 Skyrim, 1.71 Skyrim SE).")
      .def_readonly("version_text", &PyHeader::version_text, "The version as the tools print it, e.g. '1.70'.")
      .def_readonly("record_count", &PyHeader::record_count, "HEDR's count of records and groups.")
      .def_readonly("next_object_id", &PyHeader::next_object_id)
      .def_readonly("flags", &PyHeader::flags)
      .def_readonly("author", &PyHeader::author)
      .def_readonly("description", &PyHeader::description)
      .def_readonly("masters", &PyHeader::masters)
      .def_readonly("is_master", &PyHeader::is_master)
      .def_readonly("is_localized", &PyHeader::is_localized)
      .def_readonly("is_light", &PyHeader::is_light);

  py::class_<PyPlugin>(m, "Plugin", "An open plugin: its header and its records, read lazily from the mapped file.")
      .def_property_readonly("path", &PyPlugin::path)
      .def_property_readonly("game", &PyPlugin::game, "'oblivion', 'skyrim' or 'skyrimse'.")
      .def_property_readonly("header", &PyPlugin::header)
      .def_property_readonly("masters", &PyPlugin::masters, "Master file names, in order.")
      .def("__len__", &PyPlugin::size, "The number of records (the TES4 header record not counted).")
      .def("records", &PyPlugin::records, py::arg("type") = py::none(),
           "Records in file order, of one type when given (the filter runs in C++).")
      .def("__iter__", [](const PyPlugin& p) { return p.records(std::nullopt); })
      .def("get", &PyPlugin::get, py::arg("form_id"), "The first record with this FormID, or None.")
      .def("__getitem__", &PyPlugin::at, py::arg("form_id"))
      .def("__contains__", [](const PyPlugin& p, std::uint32_t id) { return p.get(id).has_value(); })
      .def("__repr__", &PyPlugin::repr);

  m.def("open", &PyPlugin::open, py::arg("path"), py::kw_only(), py::arg("game") = py::none(), py::arg("threads") = 0,
        py::call_guard<py::gil_scoped_release>(),
        "Opens a plugin (.esp/.esm/.esl): maps it and indexes its groups and records. game: 'oblivion', "
        "'skyrim' or 'skyrimse' to skip detection. threads: for indexing, 0 for all cores. Raises "
        "tesmod.Error for a file that is not a readable plugin.");
}

}  // namespace tesmod::python

// AI packages as plain Python data: the models of fields/package.hpp (Skyrim) and
// fields/package_oblivion.hpp (Oblivion) one to one, so that a dict read from a record and given
// back encodes to the same fields. Enumerations and flags are their stored numbers; strings are
// decoded from cp1252; bytes stay bytes. A condition is {"text": its line (condition_text.hpp),
// "fields": [[signature, bytes], ...]}: set_package uses "fields" when given, else parses "text".
// Fields kept raw (unknown fields, the old script fields of events) are {"index" (unknown only),
// "signature", "data", "oversize", "stored_size"}.
#include "package_binding.hpp"

#include <pybind11/stl.h>

#include "dict_access.hpp"
#include "plugin_handles.hpp"
#include "tesmod/fields/condition.hpp"
#include "tesmod/fields/package.hpp"
#include "tesmod/fields/package_codec.hpp"
#include "tesmod/fields/package_oblivion.hpp"
#include "tesmod/text/condition_text.hpp"

namespace py = pybind11;

namespace tesmod::python {
namespace {

using namespace tesmod::fields;

// ---- shared pieces

py::bytes as_bytes(std::span<const std::uint8_t> b) { return py::bytes(reinterpret_cast<const char*>(b.data()), b.size()); }

std::vector<std::uint8_t> bytes_of(const py::handle& v, const std::string& where) {
  if (!py::isinstance<py::bytes>(v) && !py::isinstance<py::bytearray>(v) && !py::isinstance<py::memoryview>(v))
    bad(where, "expected bytes");
  return field_bytes(py::reinterpret_borrow<py::object>(v), "cp1252");
}

py::object opt(const auto& o) { return o ? py::cast(*o) : py::object(py::none()); }
template <typename T>
std::optional<T> opt_of(const py::handle& d, const char* key, const std::string& where) {
  py::object v = need(d, key, where);
  if (v.is_none()) return std::nullopt;
  return num<T>(d, key, where);
}
py::object opt_text(const std::optional<std::string>& s) { return s ? py::object(decode(*s)) : py::object(py::none()); }
std::optional<std::string> opt_text_of(const py::handle& d, const char* key, const std::string& where) {
  py::object v = need(d, key, where);
  if (v.is_none()) return std::nullopt;
  return stored(v, where + "." + key);
}

py::dict raw_field(const Field& f) {
  py::dict d;
  d["signature"] = f.type.str();
  d["data"] = as_bytes(f.data);
  d["oversize"] = f.oversize;
  d["stored_size"] = f.stored_size;
  return d;
}
Field raw_field_of(const py::handle& d, const std::string& where) {
  Field f;
  f.type = signature_arg(need(d, "signature", where).cast<std::string>());
  f.data = bytes_of(need(d, "data", where), where + ".data");
  f.oversize = num<bool>(d, "oversize", where);
  f.stored_size = num<std::uint16_t>(d, "stored_size", where);
  return f;
}

struct Context {
  Game game;
  OpenPlugin& plugin;
  ErrorContext where;
};

py::list conditions_list(const std::vector<PackageCondition>& conditions, Context& c) {
  py::list out;
  for (const PackageCondition& pc : conditions) {
    py::dict d;
    const Condition cond = decode_condition_fields(c.game, pc.fields, c.where);
    d["text"] = text::render_condition(cond, c.plugin.names());
    py::list fields;
    for (const Field& f : pc.fields) fields.append(py::make_tuple(f.type.str(), as_bytes(f.data)));
    d["fields"] = fields;
    out.append(d);
  }
  return out;
}
std::vector<PackageCondition> conditions_of(const py::list& list, Context& c, const std::string& where) {
  std::vector<PackageCondition> out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string at = where + "[" + std::to_string(i) + "]";
    PackageCondition pc;
    if (!py::isinstance<py::dict>(list[i])) bad(at, "expected a dict with text or fields");
    const py::dict d = py::reinterpret_borrow<py::dict>(list[i]);
    if (d.contains("fields") && !d["fields"].is_none()) {
      for (const py::handle& f : py::list(d["fields"])) {
        py::tuple t(py::reinterpret_borrow<py::object>(f));
        if (t.size() != 2) bad(at + ".fields", "each field is [signature, bytes]");
        pc.fields.push_back(Field::bytes(signature_arg(t[0].cast<std::string>()), bytes_of(t[1], at + ".fields")));
      }
    } else {
      pc.fields = encode_condition(text::parse_condition(need(list[i], "text", at).cast<std::string>(), c.game, c.plugin.names()));
    }
    out.push_back(std::move(pc));
  }
  return out;
}

std::vector<std::uint8_t> u8_list(const py::handle& d, const char* key, const std::string& where) {
  std::vector<std::uint8_t> out;
  for (const py::handle& x : list_key(d, key, where)) out.push_back(x.cast<std::uint8_t>());
  return out;
}

// ---- Skyrim

py::dict location_dict(const Location& l) {
  py::dict d;
  d["kind"] = "location";
  d["type"] = std::int32_t(l.type);
  d["value"] = l.value;
  d["radius"] = l.radius;
  return d;
}
py::dict target_dict(const Target& t) {
  py::dict d;
  d["kind"] = "target";
  d["type"] = std::int32_t(t.type);
  d["value"] = t.value;
  d["count"] = t.count;
  return d;
}
py::dict topic_dict(const Topic& t) {
  py::dict d;
  d["kind"] = "topic";
  d["type"] = std::int32_t(t.type);
  d["value"] = t.value;
  return d;
}
Topic topic_of(const py::handle& d, const std::string& w) {
  return Topic{TopicType(num<std::int32_t>(d, "type", w)), num<std::uint32_t>(d, "value", w)};
}

py::object value_dict(const DataValue& v) {
  return std::visit(
      [](const auto& x) -> py::object {
        using T = std::decay_t<decltype(x)>;
        py::dict d;
        if constexpr (std::is_same_v<T, std::monostate>) return py::none();
        else if constexpr (std::is_same_v<T, BoolValue>) { d["kind"] = "bool"; d["value"] = x.value; }
        else if constexpr (std::is_same_v<T, IntValue>) { d["kind"] = "int"; d["value"] = x.value; }
        else if constexpr (std::is_same_v<T, FloatValue>) { d["kind"] = "float"; d["value"] = x.value; }
        else if constexpr (std::is_same_v<T, RawValue>) { d["kind"] = "raw"; d["value"] = as_bytes(x.bytes); }
        else if constexpr (std::is_same_v<T, Location>) return location_dict(x);
        else if constexpr (std::is_same_v<T, Target>) return target_dict(x);
        else if constexpr (std::is_same_v<T, Topic>) return topic_dict(x);
        else { d["kind"] = "topic_form"; d["value"] = x.dial; }
        return d;
      },
      v);
}
DataValue value_of(const py::handle& d, const std::string& w) {
  if (d.is_none()) return std::monostate{};
  const std::string kind = need(d, "kind", w).cast<std::string>();
  if (kind == "bool") return BoolValue{num<std::uint8_t>(d, "value", w)};
  if (kind == "int") return IntValue{num<std::int32_t>(d, "value", w)};
  if (kind == "float") return FloatValue{num<float>(d, "value", w)};
  if (kind == "raw") return RawValue{bytes_of(need(d, "value", w), w + ".value")};
  if (kind == "location")
    return Location{LocationType(num<std::int32_t>(d, "type", w)), num<std::uint32_t>(d, "value", w), num<std::int32_t>(d, "radius", w)};
  if (kind == "target")
    return Target{TargetType(num<std::int32_t>(d, "type", w)), num<std::uint32_t>(d, "value", w), num<std::int32_t>(d, "count", w)};
  if (kind == "topic") return topic_of(d, w);
  if (kind == "topic_form") return TopicForm{num<std::uint32_t>(d, "value", w)};
  bad(w, "kind '" + kind + "': expected bool, int, float, raw, location, target, topic or topic_form");
}

py::object event_dict(const std::optional<PackageEvent>& e) {
  if (!e) return py::none();
  py::dict d;
  d["idle"] = opt(e->idle);
  py::list old;
  for (const Field& f : e->old_script) old.append(raw_field(f));
  d["old_script"] = old;
  d["tnam"] = opt(e->tnam);
  d["topic"] = e->topic ? py::object(topic_dict(*e->topic)) : py::object(py::none());
  return d;
}
std::optional<PackageEvent> event_of(const py::handle& d, const std::string& w) {
  if (d.is_none()) return std::nullopt;
  PackageEvent e;
  e.idle = opt_of<std::uint32_t>(d, "idle", w);
  for (const py::handle& f : list_key(d, "old_script", w)) e.old_script.push_back(raw_field_of(f, w + ".old_script"));
  e.tnam = opt_of<std::int32_t>(d, "tnam", w);
  py::object t = need(d, "topic", w);
  if (!t.is_none()) e.topic = topic_of(t, w + ".topic");
  return e;
}

py::list unknown_list(const std::vector<UnknownField>& fields) {
  py::list out;
  for (const UnknownField& u : fields) {
    py::dict d = raw_field(u.field);
    d["index"] = u.index;
    out.append(d);
  }
  return out;
}
std::vector<UnknownField> unknown_of(const py::list& list, const std::string& w) {
  std::vector<UnknownField> out;
  for (const py::handle& u : list) out.push_back({num<std::size_t>(u, "index", w), raw_field_of(u, w)});
  return out;
}

py::dict skyrim_dict(const Package& p, Context& c) {
  py::dict d;
  d["editor_id"] = opt_text(p.editor_id);
  d["vmad"] = p.vmad ? py::object(as_bytes(p.vmad->data)) : py::object(py::none());
  const PackageData& pd = p.header.data;
  d["data"] = py::dict(py::arg("flags") = pd.flags, py::arg("type") = std::uint8_t(pd.type),
                       py::arg("interrupt_override") = std::uint8_t(pd.interrupt_override),
                       py::arg("preferred_speed") = std::uint8_t(pd.preferred_speed), py::arg("unused") = pd.unused,
                       py::arg("interrupt_flags") = pd.interrupt_flags, py::arg("unknown") = pd.unknown);
  const Schedule& s = p.header.schedule;
  d["schedule"] = py::dict(py::arg("month") = s.month, py::arg("day_of_week") = std::int8_t(s.day_of_week),
                           py::arg("date") = s.date, py::arg("hour") = s.hour, py::arg("minute") = s.minute,
                           py::arg("unused") = as_bytes(s.unused), py::arg("duration_minutes") = s.duration_minutes);
  d["conditions"] = conditions_list(p.header.conditions, c);
  if (p.header.idles) {
    const IdleAnimations& i = *p.header.idles;
    d["idles"] = py::dict(py::arg("flags") = opt(i.flags), py::arg("count_padding") = as_bytes(i.count_padding),
                          py::arg("timer") = i.timer, py::arg("idles") = i.idles);
  } else {
    d["idles"] = py::none();
  }
  d["combat_style"] = opt(p.header.combat_style);
  d["owner_quest"] = opt(p.header.owner_quest);
  const PackageCounter& k = p.header.counter;
  d["counter"] = py::dict(py::arg("data_input_count") = k.data_input_count, py::arg("template_package") = k.template_package,
                          py::arg("version") = k.version);
  py::list inputs;
  for (const DataInput& in : p.public_data.inputs)
    inputs.append(py::dict(py::arg("type") = decode(in.type), py::arg("value") = value_dict(in.value)));
  d["inputs"] = inputs;
  d["input_ids"] = p.public_data.input_ids;
  d["xnam"] = p.public_data.xnam;
  py::list tree;
  for (const Branch& b : p.procedure_tree) {
    py::dict e;
    e["type"] = decode(b.type);
    e["conditions"] = conditions_list(b.conditions, c);
    e["root"] = b.root ? py::object(py::dict(py::arg("child_count") = b.root->child_count, py::arg("flags") = b.root->flags))
                       : py::object(py::none());
    e["procedure"] = opt_text(b.procedure);
    e["flags"] = opt(b.flags);
    e["input_ids"] = b.input_ids;
    py::list pfo2, pfor;
    for (const auto& x : b.pfo2) pfo2.append(as_bytes(x));
    for (const auto& x : b.pfor) pfor.append(as_bytes(x));
    e["pfo2"] = pfo2;
    e["pfor"] = pfor;
    tree.append(e);
  }
  d["procedure_tree"] = tree;
  py::list names;
  for (const DataInputName& n : p.input_names)
    names.append(py::dict(py::arg("id") = n.id, py::arg("name") = decode(n.name), py::arg("flags") = n.flags));
  d["input_names"] = names;
  d["on_begin"] = event_dict(p.on_begin);
  d["on_end"] = event_dict(p.on_end);
  d["on_change"] = event_dict(p.on_change);
  d["unknown_fields"] = unknown_list(p.unknown_fields);
  return d;
}

template <std::size_t N>
std::array<std::uint8_t, N> fixed(const py::handle& v, const std::string& w) {
  const auto b = bytes_of(v, w);
  if (b.size() != N) bad(w, "expected " + std::to_string(N) + " bytes");
  std::array<std::uint8_t, N> out{};
  std::copy(b.begin(), b.end(), out.begin());
  return out;
}

Package skyrim_of(const py::handle& d, Context& c) {
  const std::string w = "package";
  Package p;
  p.editor_id = opt_text_of(d, "editor_id", w);
  py::object vmad = need(d, "vmad", w);
  if (!vmad.is_none()) p.vmad = Field::bytes(Signature("VMAD"), bytes_of(vmad, w + ".vmad"));
  const py::object data = need(d, "data", w);
  const std::string dw = w + ".data";
  PackageData& pd = p.header.data;
  pd.flags = num<std::uint32_t>(data, "flags", dw);
  pd.type = PackageType(num<std::uint8_t>(data, "type", dw));
  pd.interrupt_override = InterruptOverride(num<std::uint8_t>(data, "interrupt_override", dw));
  pd.preferred_speed = PreferredSpeed(num<std::uint8_t>(data, "preferred_speed", dw));
  pd.unused = num<std::uint8_t>(data, "unused", dw);
  pd.interrupt_flags = num<std::uint16_t>(data, "interrupt_flags", dw);
  pd.unknown = num<std::uint16_t>(data, "unknown", dw);
  const py::object s = need(d, "schedule", w);
  const std::string sw = w + ".schedule";
  Schedule& sc = p.header.schedule;
  sc.month = num<std::int8_t>(s, "month", sw);
  sc.day_of_week = DayOfWeek(num<std::int8_t>(s, "day_of_week", sw));
  sc.date = num<std::uint8_t>(s, "date", sw);
  sc.hour = num<std::int8_t>(s, "hour", sw);
  sc.minute = num<std::int8_t>(s, "minute", sw);
  sc.unused = fixed<3>(need(s, "unused", sw), sw + ".unused");
  sc.duration_minutes = num<std::int32_t>(s, "duration_minutes", sw);
  p.header.conditions = conditions_of(list_key(d, "conditions", w), c, w + ".conditions");
  const py::object idles = need(d, "idles", w);
  if (!idles.is_none()) {
    const std::string iw = w + ".idles";
    IdleAnimations i;
    i.flags = opt_of<std::uint8_t>(idles, "flags", iw);
    i.count_padding = bytes_of(need(idles, "count_padding", iw), iw + ".count_padding");
    i.timer = num<float>(idles, "timer", iw);
    for (const py::handle& x : list_key(idles, "idles", iw)) i.idles.push_back(x.cast<std::uint32_t>());
    p.header.idles = std::move(i);
  }
  p.header.combat_style = opt_of<std::uint32_t>(d, "combat_style", w);
  p.header.owner_quest = opt_of<std::uint32_t>(d, "owner_quest", w);
  const py::object k = need(d, "counter", w);
  p.header.counter = {num<std::uint32_t>(k, "data_input_count", w + ".counter"),
                      num<std::uint32_t>(k, "template_package", w + ".counter"), num<std::uint32_t>(k, "version", w + ".counter")};
  const py::list inputs = list_key(d, "inputs", w);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::string at = w + ".inputs[" + std::to_string(i) + "]";
    p.public_data.inputs.push_back({str_key(inputs[i], "type", at), value_of(need(inputs[i], "value", at), at + ".value")});
  }
  p.public_data.input_ids = u8_list(d, "input_ids", w);
  p.public_data.xnam = num<std::int8_t>(d, "xnam", w);
  const py::list tree = list_key(d, "procedure_tree", w);
  for (std::size_t i = 0; i < tree.size(); ++i) {
    const std::string at = w + ".procedure_tree[" + std::to_string(i) + "]";
    Branch b;
    b.type = str_key(tree[i], "type", at);
    b.conditions = conditions_of(list_key(tree[i], "conditions", at), c, at + ".conditions");
    const py::object root = need(tree[i], "root", at);
    if (!root.is_none()) b.root = BranchRoot{num<std::uint32_t>(root, "child_count", at), num<std::uint32_t>(root, "flags", at)};
    b.procedure = opt_text_of(tree[i], "procedure", at);
    b.flags = opt_of<std::uint32_t>(tree[i], "flags", at);
    b.input_ids = u8_list(tree[i], "input_ids", at);
    for (const py::handle& x : list_key(tree[i], "pfo2", at)) b.pfo2.push_back(fixed<16>(x, at + ".pfo2"));
    for (const py::handle& x : list_key(tree[i], "pfor", at)) b.pfor.push_back(fixed<12>(x, at + ".pfor"));
    p.procedure_tree.push_back(std::move(b));
  }
  for (const py::handle& n : list_key(d, "input_names", w))
    p.input_names.push_back({num<std::uint8_t>(n, "id", w + ".input_names"), str_key(n, "name", w + ".input_names"),
                             num<std::uint32_t>(n, "flags", w + ".input_names")});
  p.on_begin = event_of(need(d, "on_begin", w), w + ".on_begin");
  p.on_end = event_of(need(d, "on_end", w), w + ".on_end");
  p.on_change = event_of(need(d, "on_change", w), w + ".on_change");
  p.unknown_fields = unknown_of(list_key(d, "unknown_fields", w), w + ".unknown_fields");
  return p;
}

// ---- Oblivion

py::dict oblivion_dict(const OblivionPackage& p, Context& c) {
  py::dict d;
  d["editor_id"] = opt_text(p.editor_id);
  d["data"] = py::dict(py::arg("flags") = p.data.flags, py::arg("type") = std::uint8_t(p.data.type),
                       py::arg("unused") = as_bytes(p.data.unused), py::arg("short_form") = p.data.short_form);
  d["location"] = p.location ? py::object(py::dict(py::arg("type") = std::int32_t(p.location->type),
                                                   py::arg("value") = p.location->value, py::arg("radius") = p.location->radius))
                             : py::object(py::none());
  d["schedule"] = py::dict(py::arg("month") = p.schedule.month, py::arg("day_of_week") = std::int8_t(p.schedule.day_of_week),
                           py::arg("date") = p.schedule.date, py::arg("hour") = p.schedule.hour,
                           py::arg("duration") = p.schedule.duration);
  d["target"] = p.target ? py::object(py::dict(py::arg("type") = std::int32_t(p.target->type), py::arg("value") = p.target->value,
                                               py::arg("count") = p.target->count))
                         : py::object(py::none());
  d["conditions"] = conditions_list(p.conditions, c);
  d["unknown_fields"] = unknown_list(p.unknown_fields);
  return d;
}

OblivionPackage oblivion_of(const py::handle& d, Context& c) {
  const std::string w = "package";
  OblivionPackage p;
  p.editor_id = opt_text_of(d, "editor_id", w);
  const py::object data = need(d, "data", w);
  p.data.flags = num<std::uint32_t>(data, "flags", w + ".data");
  p.data.type = OblivionPackageType(num<std::uint8_t>(data, "type", w + ".data"));
  p.data.unused = fixed<3>(need(data, "unused", w + ".data"), w + ".data.unused");
  p.data.short_form = num<bool>(data, "short_form", w + ".data");
  const py::object loc = need(d, "location", w);
  if (!loc.is_none())
    p.location = OblivionLocation{OblivionLocationType(num<std::int32_t>(loc, "type", w + ".location")),
                                  num<std::uint32_t>(loc, "value", w + ".location"), num<std::int32_t>(loc, "radius", w + ".location")};
  const py::object s = need(d, "schedule", w);
  p.schedule = {num<std::int8_t>(s, "month", w + ".schedule"), DayOfWeek(num<std::int8_t>(s, "day_of_week", w + ".schedule")),
                num<std::uint8_t>(s, "date", w + ".schedule"), num<std::int8_t>(s, "hour", w + ".schedule"),
                num<std::int32_t>(s, "duration", w + ".schedule")};
  const py::object t = need(d, "target", w);
  if (!t.is_none())
    p.target = OblivionTarget{OblivionTargetType(num<std::int32_t>(t, "type", w + ".target")), num<std::uint32_t>(t, "value", w + ".target"),
                              num<std::int32_t>(t, "count", w + ".target")};
  p.conditions = conditions_of(list_key(d, "conditions", w), c, w + ".conditions");
  p.unknown_fields = unknown_of(list_key(d, "unknown_fields", w), w + ".unknown_fields");
  return p;
}

}  // namespace

void bind_package(py::module_& m) {
  auto record = py::reinterpret_borrow<py::class_<PyRecord>>(m.attr("Record"));
  record
      .def("package", [](const PyRecord& r) -> py::object {
        if (r.type() != "PACK") throw py::value_error("package() is for PACK records, not " + r.type());
        Context c{r.plugin().game(), r.plugin(), r.context()};
        const std::vector<Field> fields = r.owned_fields();
        if (c.game == Game::Oblivion) return oblivion_dict(decode_oblivion_package(fields, c.where), c);
        return skyrim_dict(decode_package(fields, c.where), c);
      }, "The AI package as a dict (the package model one to one; see set_package).")
      .def("set_package", [](PyRecord& r, const py::object& d) {
        if (r.type() != "PACK") throw py::value_error("set_package() is for PACK records, not " + r.type());
        Context c{r.plugin().game(), r.plugin(), r.context()};
        std::vector<Field> fields =
            c.game == Game::Oblivion ? encode_oblivion_package(oblivion_of(d, c)) : encode_package(skyrim_of(d, c));
        r.edited().edit_fields() = std::move(fields);
      }, py::arg("package"),
      "Replaces the record's fields with the package a dict describes, in the layout package() gives. Numbers "
      "are the stored values (enumerations and flags too); a condition is {text, fields}: fields (signature, "
      "bytes pairs) when given, else the text is parsed. Raises ValueError for a dict that does not fit.");
}

}  // namespace tesmod::python

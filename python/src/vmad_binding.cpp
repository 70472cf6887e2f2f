// VMAD as plain Python data, the model of fields/vmad.hpp one to one, so that a dict read from a
// record and given back encodes to the same bytes:
//
//   {"version": 5, "object_format": 2,
//    "scripts": [{"name", "status", "properties": [{"name", "type", "status", "value"}]}],
//    "fragments": None or {"record_type", "unknown", "file_name", "fragments": [...],
//                          "aliases": [...] (QUST), "phases": [...] (SCEN)}}
//
// type is "object", "string", "int", "float", "bool" or one of them with "[]"; an object value is
// {"form_id", "alias", "unused"} (alias -1: the form itself). Fragment entries: {"flag",
// "fragment"} (INFO, PACK, SCEN), {"index", "unknown", "fragment"} (PERK), {"stage", "unknown",
// "log_entry", "fragment"} (QUST), phases {"unknown", "phase", "fragment"}; a fragment is
// {"unknown", "script", "function"}; an alias {"object", "version", "object_format", "scripts"}.
// Names and strings are decoded from cp1252 (undecodable bytes as surrogates, encoded back).
#include "vmad_binding.hpp"

#include <string>

#include "dict_access.hpp"
#include "plugin_handles.hpp"
#include "tesmod/fields/vmad.hpp"

namespace py = pybind11;

namespace tesmod::python {
namespace {

using namespace tesmod::fields;

// ---- model -> Python

py::object text(const std::string& stored) { return decode(stored); }

py::dict object_dict(const VmadObject& o) {
  py::dict d;
  d["form_id"] = o.form_id;
  d["alias"] = o.alias;
  d["unused"] = o.unused;
  return d;
}

py::object value_object(const PropertyValue& v) {
  return std::visit(
      [](const auto& x) -> py::object {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, VmadObject>) return object_dict(x);
        else if constexpr (std::is_same_v<T, std::string>) return text(x);
        else if constexpr (std::is_same_v<T, std::int32_t>) return py::int_(x);
        else if constexpr (std::is_same_v<T, float>) return py::float_(x);
        else if constexpr (std::is_same_v<T, bool>) return py::bool_(x);
        else {
          py::list out;
          for (const auto& item : x) {
            using I = std::decay_t<decltype(item)>;
            if constexpr (std::is_same_v<I, VmadObject>) out.append(object_dict(item));
            else if constexpr (std::is_same_v<I, std::string>) out.append(text(item));
            else if constexpr (std::is_same_v<I, bool>) out.append(py::bool_(bool(item)));
            else out.append(item);
          }
          return out;
        }
      },
      v);
}

py::list scripts_list(const std::vector<Script>& scripts) {
  py::list out;
  for (const Script& s : scripts) {
    py::dict d;
    d["name"] = text(s.name);
    d["status"] = s.status;
    py::list props;
    for (const Property& p : s.properties) {
      py::dict pd;
      pd["name"] = text(p.name);
      pd["type"] = std::string(to_string(p.type()));
      pd["status"] = p.status;
      pd["value"] = value_object(p.value);
      props.append(pd);
    }
    d["properties"] = props;
    out.append(d);
  }
  return out;
}

py::dict fragment_dict(const Fragment& f) {
  py::dict d;
  d["unknown"] = f.unknown;
  d["script"] = text(f.script_name);
  d["function"] = text(f.function_name);
  return d;
}

py::list flagged_list(const std::vector<FlaggedFragment>& fragments) {
  py::list out;
  for (const FlaggedFragment& f : fragments) {
    py::dict d;
    d["flag"] = f.flag;
    d["fragment"] = fragment_dict(f.fragment);
    out.append(d);
  }
  return out;
}

py::object fragments_object(const std::optional<FragmentSection>& section) {
  if (!section) return py::none();
  py::dict d;
  d["record_type"] = record_type_of(*section).str();
  std::visit(
      [&](const auto& s) {
        using T = std::decay_t<decltype(s)>;
        d["unknown"] = s.unknown;
        d["file_name"] = text(s.file_name);
        py::list list;
        if constexpr (std::is_same_v<T, InfoFragments> || std::is_same_v<T, PackageFragments>) {
          list = flagged_list(s.fragments);
        } else if constexpr (std::is_same_v<T, PerkFragments>) {
          for (const PerkFragment& f : s.fragments) {
            py::dict e;
            e["index"] = f.index;
            e["unknown"] = f.unknown;
            e["fragment"] = fragment_dict(f.fragment);
            list.append(e);
          }
        } else if constexpr (std::is_same_v<T, QuestFragments>) {
          for (const QuestFragment& f : s.fragments) {
            py::dict e;
            e["stage"] = f.stage;
            e["unknown"] = f.unknown;
            e["log_entry"] = f.log_entry;
            e["fragment"] = fragment_dict(f.fragment);
            list.append(e);
          }
          py::list aliases;
          for (const AliasScripts& a : s.aliases) {
            py::dict e;
            e["object"] = object_dict(a.object);
            e["version"] = a.version;
            e["object_format"] = a.object_format;
            e["scripts"] = scripts_list(a.scripts);
            aliases.append(e);
          }
          d["aliases"] = aliases;
        } else {  // SceneFragments
          list = flagged_list(s.fragments);
          py::list phases;
          for (const ScenePhaseFragment& f : s.phases) {
            py::dict e;
            e["unknown"] = f.unknown;
            e["phase"] = f.phase;
            e["fragment"] = fragment_dict(f.fragment);
            phases.append(e);
          }
          d["phases"] = phases;
        }
        d["fragments"] = list;
      },
      *section);
  return d;
}

py::dict vmad_dict(const Vmad& v) {
  py::dict d;
  d["version"] = v.version;
  d["object_format"] = v.object_format;
  d["scripts"] = scripts_list(v.scripts);
  d["fragments"] = fragments_object(v.fragments);
  return d;
}

// ---- Python -> model (every key required; a wrong key or type says where)

VmadObject object_of(const py::handle& d, const std::string& where) {
  return VmadObject{num<std::uint32_t>(d, "form_id", where), num<std::int16_t>(d, "alias", where),
                    num<std::uint16_t>(d, "unused", where)};
}

PropertyValue value_of(const std::string& type, const py::handle& v, const std::string& where) {
  auto scalar = [&](const std::string& t, const py::handle& x, const std::string& at) -> PropertyValue {
    try {
      if (t == "object") return object_of(x, at);
      if (t == "string") return stored(x, at);
      if (t == "int") return x.cast<std::int32_t>();
      if (t == "float") return x.cast<float>();
      if (t == "bool") {
        if (!py::isinstance<py::bool_>(x)) bad(at, "expected True or False");
        return x.cast<bool>();
      }
    } catch (const py::cast_error&) {
      bad(at, "a value that is not a " + t);
    }
    bad(at, "unknown type '" + t + "': expected object, string, int, float or bool, or one of them with []");
  };
  if (!type.ends_with("[]")) return scalar(type, v, where);
  const std::string item = type.substr(0, type.size() - 2);
  if (!py::isinstance<py::list>(v) && !py::isinstance<py::tuple>(v)) bad(where, "an array value is a list");
  const py::list items(py::reinterpret_borrow<py::object>(v));
  std::vector<PropertyValue> values;
  for (std::size_t i = 0; i < items.size(); ++i) values.push_back(scalar(item, items[i], where + "[" + std::to_string(i) + "]"));
  auto collect = [&](auto tag) {
    using T = decltype(tag);
    std::vector<T> out;
    for (auto& x : values) out.push_back(std::get<T>(x));
    return PropertyValue(std::move(out));
  };
  if (item == "object") return collect(VmadObject{});
  if (item == "string") return collect(std::string{});
  if (item == "int") return collect(std::int32_t{});
  if (item == "float") return collect(float{});
  if (item == "bool") return collect(bool{});
  bad(where, "unknown type '" + type + "'");
}

std::vector<Script> scripts_of(const py::list& list, const std::string& where) {
  std::vector<Script> out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string at = where + ".scripts[" + std::to_string(i) + "]";
    Script s;
    s.name = str_key(list[i], "name", at);
    s.status = num<std::uint8_t>(list[i], "status", at);
    const py::list props = list_key(list[i], "properties", at);
    for (std::size_t j = 0; j < props.size(); ++j) {
      const std::string pat = at + ".properties[" + std::to_string(j) + "]";
      Property p;
      p.name = str_key(props[j], "name", pat);
      p.status = num<std::uint8_t>(props[j], "status", pat);
      p.value = value_of(need(props[j], "type", pat).cast<std::string>(), need(props[j], "value", pat), pat + ".value");
      s.properties.push_back(std::move(p));
    }
    out.push_back(std::move(s));
  }
  return out;
}

Fragment fragment_of(const py::handle& d, const std::string& where) {
  const py::object f = need(d, "fragment", where);
  const std::string at = where + ".fragment";
  return Fragment{num<std::uint8_t>(f, "unknown", at), str_key(f, "script", at), str_key(f, "function", at)};
}

std::vector<FlaggedFragment> flagged_of(const py::list& list, const std::string& where) {
  std::vector<FlaggedFragment> out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string at = where + "[" + std::to_string(i) + "]";
    out.push_back({num<std::uint8_t>(list[i], "flag", at), fragment_of(list[i], at)});
  }
  return out;
}

std::optional<FragmentSection> section_of(const py::handle& d, const std::string& where) {
  if (d.is_none()) return std::nullopt;
  const std::string type = need(d, "record_type", where).cast<std::string>();
  const auto unknown = num<std::uint8_t>(d, "unknown", where);
  const std::string file = str_key(d, "file_name", where);
  const py::list list = list_key(d, "fragments", where);
  const std::string at = where + ".fragments";
  if (type == "INFO") return InfoFragments{unknown, file, flagged_of(list, at)};
  if (type == "PACK") return PackageFragments{unknown, file, flagged_of(list, at)};
  if (type == "PERK") {
    PerkFragments s{unknown, file, {}};
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string e = at + "[" + std::to_string(i) + "]";
      s.fragments.push_back({num<std::uint16_t>(list[i], "index", e), num<std::int16_t>(list[i], "unknown", e), fragment_of(list[i], e)});
    }
    return s;
  }
  if (type == "QUST") {
    QuestFragments s{unknown, file, {}, {}};
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string e = at + "[" + std::to_string(i) + "]";
      s.fragments.push_back({num<std::uint16_t>(list[i], "stage", e), num<std::int16_t>(list[i], "unknown", e),
                             num<std::int32_t>(list[i], "log_entry", e), fragment_of(list[i], e)});
    }
    const py::list aliases = list_key(d, "aliases", where);
    for (std::size_t i = 0; i < aliases.size(); ++i) {
      const std::string e = where + ".aliases[" + std::to_string(i) + "]";
      s.aliases.push_back({object_of(need(aliases[i], "object", e), e + ".object"), num<std::int16_t>(aliases[i], "version", e),
                           num<std::int16_t>(aliases[i], "object_format", e), scripts_of(list_key(aliases[i], "scripts", e), e)});
    }
    return s;
  }
  if (type == "SCEN") {
    SceneFragments s{unknown, file, flagged_of(list, at), {}};
    const py::list phases = list_key(d, "phases", where);
    for (std::size_t i = 0; i < phases.size(); ++i) {
      const std::string e = where + ".phases[" + std::to_string(i) + "]";
      s.phases.push_back({num<std::uint8_t>(phases[i], "unknown", e), num<std::uint32_t>(phases[i], "phase", e), fragment_of(phases[i], e)});
    }
    return s;
  }
  bad(where, "record_type '" + type + "': expected INFO, PACK, PERK, QUST or SCEN");
}

Vmad vmad_of(const py::handle& d) {
  Vmad v;
  v.version = num<std::int16_t>(d, "version", "vmad");
  v.object_format = num<std::int16_t>(d, "object_format", "vmad");
  v.scripts = scripts_of(list_key(d, "scripts", "vmad"), "vmad");
  v.fragments = section_of(need(d, "fragments", "vmad"), "vmad.fragments");
  return v;
}

}  // namespace

void bind_vmad(py::module_& m) {
  auto record = py::reinterpret_borrow<py::class_<PyRecord>>(m.attr("Record"));
  record
      .def("vmad", [](const PyRecord& r) -> py::object {
        if (r.plugin().game() == Game::Oblivion) return py::none();
        const Signature type = signature_arg(r.type());
        for (const Field& f : r.owned_fields())
          if (f.type == kVmadSignature) return vmad_dict(decode_vmad(f.data, type, r.context()));
        return py::none();
      }, "The VMAD (Papyrus scripts, properties, fragments) as a dict, or None; see set_vmad for the layout.")
      .def("set_vmad", [](PyRecord& r, const py::object& d) {
        if (r.plugin().game() == Game::Oblivion) throw py::value_error("VMAD is a Skyrim field");
        const Vmad v = vmad_of(d);
        if (v.fragments && record_type_of(*v.fragments) != signature_arg(r.type()))
          throw py::value_error("vmad.fragments: a " + record_type_of(*v.fragments).str() + " section on a " + r.type() +
                                " record");
        Field field;
        field.type = kVmadSignature;
        field.data = encode_vmad(v, r.context());
        r.edited().set(std::move(field));
      }, py::arg("vmad"),
      "Replaces (or adds) the VMAD from a dict in the layout vmad() gives: {version, object_format, scripts: "
      "[{name, status, properties: [{name, type, status, value}]}], fragments: None or {record_type, unknown, "
      "file_name, fragments, aliases (QUST), phases (SCEN)}}. Raises ValueError for a dict that does not fit.");
}

}  // namespace tesmod::python

// AI packages as readable text and as JSON: the sections in record order, enumerations and flags
// by name, the schedule as days and hours, the procedure tree indented by its branch counts, and
// FormIDs through a FormNamer. Conditions are left to a renderer the caller may pass in.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>

#include "tesmod/fields/package.hpp"
#include "tesmod/fields/package_oblivion.hpp"
#include "tesmod/io/text_encoding.hpp"
#include "tesmod/plugin/field.hpp"
#include "tesmod/text/form_namer.hpp"

namespace tesmod::text {

struct PackageTextOptions {
  const FormNamer* names = nullptr;  // HexFormNamer when null
  const TextCodec* codec = nullptr;  // strings to UTF-8; when null they are shown as stored
  // One condition (its CTDA field, then its CIS1/CIS2 fields) as a line of text / as JSON.
  // When empty, the CTDA is shown as hex and the CIS strings as text.
  std::function<std::string(std::span<const Field>)> condition_text;
  std::function<nlohmann::ordered_json(std::span<const Field>)> condition_json;
  // The name (BNAM) a template package gives one of its data input ids, when the caller can look
  // the template up; public inputs of packages are then shown with it. A template's own inputs
  // are named from its own data input names without this.
  std::function<std::optional<std::string>(std::uint32_t template_package, std::uint8_t input_id)> input_name;
};

// Lines indented by two spaces per level, starting at indent levels; ends with a newline.
std::string package_text(const fields::Package& package, const PackageTextOptions& options = {}, int indent = 0);
nlohmann::ordered_json package_json(const fields::Package& package, const PackageTextOptions& options = {});

// "Morndas, from 08:00, for 7 h" style summary of a schedule ("any time" when nothing is set).
std::string schedule_text(const fields::Schedule& schedule);

// The same for Oblivion packages.
std::string oblivion_package_text(const fields::OblivionPackage& package, const PackageTextOptions& options = {},
                                  int indent = 0);
nlohmann::ordered_json oblivion_package_json(const fields::OblivionPackage& package, const PackageTextOptions& options = {});
std::string schedule_text(const fields::OblivionSchedule& schedule);

}  // namespace tesmod::text

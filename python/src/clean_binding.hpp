// Cleaning in Python: Plugin.clean() and LoadOrder.clean_report(), reports as dicts shaped as
// `tesmod clean --json` (plus the decisions with their reasons).
#pragma once

#include <pybind11/pybind11.h>

#include <optional>
#include <string>

#include "plugin_handles.hpp"
#include "tesmod/clean/clean.hpp"

namespace tesmod::python {

// {plugin, masters, crc_before, crc_after, itm, itm_kept, itpo, udr, nav, deleted_other, skipped}
// (FormIDs as the plugin stores them, 8 hex digits) and decisions: [{kind, reason, type, form_id,
// editor_id, detail}].
pybind11::dict clean_report_dict(const clean::CleanReport& report);

// Plans the cleaning of an open plugin against its masters (found in data, default: its folder)
// and, unless dry_run, applies it to the plugin's model (save() writes it).
pybind11::dict clean_open_plugin(OpenPlugin& plugin, const std::optional<std::string>& data, bool dry_run, bool itm,
                                 bool udr);

}  // namespace tesmod::python

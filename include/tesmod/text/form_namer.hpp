// How FormIDs appear in text and are read back from it. Renderers of fields (conditions, VMAD,
// packages) take a FormNamer so that they show EditorIDs when the plugin or its masters define
// them, and `Plugin.esm:00ABCDEF` otherwise, without knowing where the names come from.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tesmod::text {

class FormNamer {
 public:
  virtual ~FormNamer() = default;
  // The text for a FormID as stored in the plugin (its top byte indexes the master list).
  virtual std::string name(std::uint32_t form_id) const = 0;
  // Appends name(form_id) to out: the writers' path, which makes no string of its own.
  virtual void append_name(std::string& out, std::uint32_t form_id) const { out += name(form_id); }
  // The stored FormID for a text that name() produced (or any EditorID / hex form the namer
  // accepts: every namer reads `@00ABCDEF` and `0x00ABCDEF`); nullopt when the text names
  // nothing known.
  virtual std::optional<std::uint32_t> resolve(std::string_view text) const = 0;
};

// The error for a reference that resolve() did not know, saying what the text may hold.
std::string unknown_form_message(std::string_view text);

// Names every FormID as 8 hex digits (`0001ABCD`) and reads back 1-8 hex digits, bare or after
// `@` or `0x`. For output where no plugin is at hand.

class HexFormNamer final : public FormNamer {
 public:
  std::string name(std::uint32_t form_id) const override;
  std::optional<std::uint32_t> resolve(std::string_view text) const override;
};

}  // namespace tesmod::text

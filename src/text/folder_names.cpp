#include "folder_names.hpp"

#include <fmt/format.h>

#include "tesmod/io/ascii.hpp"

namespace tesmod::text::detail {
namespace {

// Windows refuses these as names (with any extension).
bool reserved_device(std::string_view stem) {
  static constexpr std::string_view kDevices[] = {"con", "prn", "aux", "nul", "com1", "com2", "com3", "com4", "com5",
                                                  "com6", "com7", "com8", "com9", "lpt1", "lpt2", "lpt3", "lpt4",
                                                  "lpt5", "lpt6", "lpt7", "lpt8", "lpt9"};
  for (std::string_view d : kDevices)
    if (ascii::iequals(stem, d)) return true;
  return false;
}

}  // namespace

std::string safe_name_part(std::string_view editor_id) {
  std::string out;
  for (char ch : editor_id) {
    if (out.size() >= 64) break;
    const auto c = static_cast<unsigned char>(ch);
    const bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
                      c == '-' || c == '.' || c == ' ' || c == '\'' || c == '(' || c == ')' || c == '+' || c == ',';
    out += keep ? char(c) : '_';
  }
  while (!out.empty() && (out.back() == '.' || out.back() == ' ')) out.pop_back();
  while (!out.empty() && (out.front() == '.' || out.front() == ' ')) out.erase(out.begin());
  return out;
}

std::string record_stem(std::string_view editor_id, std::uint32_t form_id) {
  const std::string part = safe_name_part(editor_id);
  if (part.empty()) return fmt::format("[{:08X}]", form_id);
  return fmt::format("{} [{:08X}]", part, form_id);
}

std::string FolderNames::claim(std::string_view stem, std::string_view extension) {
  std::string base(stem);
  if (base.empty() || reserved_device(base)) base += '_';
  std::string name = base + std::string(extension);
  for (int n = 2; !taken_.insert(ascii::to_lower(name)).second; ++n) name = fmt::format("{} ({}){}", base, n, extension);
  return name;
}

}  // namespace tesmod::text::detail

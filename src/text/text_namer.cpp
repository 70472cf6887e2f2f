#include "tesmod/text/text_namer.hpp"

#include <fmt/format.h>

#include "tesmod/io/ascii.hpp"
#include "tesmod/text/hex.hpp"
#include "tesmod/text/text_syntax.hpp"

namespace tesmod::text {
namespace {

// Words the text formats give a meaning where a form may stand.
constexpr std::string_view kKeywords[] = {"none", "null", "hex", "lstring", "alias", "of", "true", "false",
                                          "any", "global", "or", "and", "subject", "target", "self"};

bool plain_file_name(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name)
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
          c == '-' || c == '\'' || c == '+' || c == '&' || c == '!' || c == '~'))
      return false;
  return true;
}

}  // namespace

bool TextNamer::usable_name(std::string_view text) {
  if (text.empty() || text.size() > 512) return false;
  for (char c : text)
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  for (std::string_view k : kKeywords)
    if (ascii::iequals(text, k)) return false;
  if (parse_int(text) || parse_float(text) || parse_uint(text)) return false;
  if (text.size() > 1 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) return false;
  return true;
}

TextNamer::TextNamer(std::vector<std::string> files) : files_(std::move(files)) {
  for (const std::string& f : files_) plain_file_.push_back(plain_file_name(f));
}

void TextNamer::add(std::uint32_t form_id, std::string_view editor_id, Source source) {
  if (!usable_name(editor_id)) return;
  auto [it, fresh] = names_.try_emplace(form_id, Named{std::string(editor_id), source, false});
  // A form keeps the name of its most trusted source (the plugin's own record first).
  if (!fresh && source < it->second.source) it->second = Named{std::string(editor_id), source, false};
}

void TextNamer::finish() {
  by_name_.clear();
  by_name_.reserve(names_.size());
  // A source claims a name for its form; the same name in one source for another form makes it
  // ambiguous there; a less trusted source cannot take a name a more trusted one has.
  for (const auto& [id, named] : names_) {
    auto [it, fresh] = by_name_.try_emplace(ascii::to_lower(named.editor_id), Entry{id, named.source, false});
    if (fresh) continue;
    Entry& e = it->second;
    if (named.source < e.source) e = Entry{id, named.source, false};
    else if (named.source == e.source && e.form_id != id) e.ambiguous = true;
  }
  for (auto& [id, named] : names_) {
    auto owner = by_name_.find(ascii::to_lower(named.editor_id));
    named.usable = owner != by_name_.end() && !owner->second.ambiguous && owner->second.form_id == id;
  }
}

std::string TextNamer::file_form(std::uint32_t form_id) const {
  const std::uint32_t top = form_id >> 24;
  if (top >= files_.size()) return fmt::format("0x{:08X}", form_id);
  if (plain_file_[top]) return fmt::format("{}:{:08X}", files_[top], form_id & 0xFFFFFF);
  return fmt::format("\"{}\":{:08X}", files_[top], form_id & 0xFFFFFF);
}

std::string TextNamer::name(std::uint32_t form_id) const {
  if (form_id == 0) return "NONE";
  auto it = names_.find(form_id);
  if (it == names_.end() || !it->second.usable) return file_form(form_id);
  if (it->second.source != Source::Plugin) {
    std::lock_guard guard(used_->lock);
    used_->names.emplace(it->second.editor_id, form_id);
  }
  return it->second.editor_id;
}

std::optional<std::uint32_t> TextNamer::resolve(std::string_view text) const {
  if (text.empty()) return std::nullopt;
  if (ascii::iequals(text, "NONE")) return 0;
  if (const auto colon = text.rfind(':'); colon != std::string_view::npos) {
    std::string_view file = text.substr(0, colon);
    if (file.size() >= 2 && file.front() == '"' && file.back() == '"') file = file.substr(1, file.size() - 2);
    const std::string_view digits = text.substr(colon + 1);
    const auto object = parse_hex_u32(digits);
    if (!object || *object > 0xFFFFFF) return std::nullopt;
    // The plugin itself is the last entry; a master of the same name comes first, as in the game.
    for (std::size_t k = 0; k < files_.size(); ++k)
      if (ascii::iequals(files_[k], file)) return std::uint32_t(k) << 24 | *object;
    return std::nullopt;
  }
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) return parse_hex_u32(text.substr(2));
  auto it = by_name_.find(ascii::to_lower(text));
  if (it == by_name_.end() || it->second.ambiguous) return std::nullopt;
  return it->second.form_id;
}

std::map<std::string, std::uint32_t> TextNamer::used_master_names() const {
  std::lock_guard guard(used_->lock);
  return used_->names;
}

}  // namespace tesmod::text

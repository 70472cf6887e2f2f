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

std::uint64_t TextNamer::hash_name(std::string_view name) {
  std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a over the lower-case bytes
  for (char c : name) h = (h ^ std::uint8_t(ascii::lower(c))) * 0x100000001b3ull;
  return h | 1;  // never 0, which marks an empty slot
}

const TextNamer::NameSlot* TextNamer::find_name(std::string_view name, std::uint64_t hash) const {
  if (name_slots_.empty()) return nullptr;
  const std::size_t mask = name_slots_.size() - 1;
  for (std::size_t at = std::size_t(hash >> 20) & mask;; at = (at + 1) & mask) {
    const NameSlot& slot = name_slots_[at];
    if (slot.entry == ~0u) return nullptr;
    if (slot.hash == hash && ascii::iequals(std::string_view(slot.name, slot.size), name)) return &slot;
  }
}

bool TextNamer::usable_name(std::string_view text) {
  if (text.empty() || text.size() > 512) return false;
  for (char c : text)
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  for (std::string_view k : kKeywords)
    if (ascii::iequals(text, k)) return false;
  // Names that read as numbers ("1e5", "inf", "0x10") are numbers to every reader.
  const char first = ascii::lower(text[0]);
  if ((first >= '0' && first <= '9') || first == 'i' || first == 'n')
    if (parse_int(text) || parse_float(text) || parse_uint(text)) return false;
  return true;
}

TextNamer::TextNamer(std::vector<std::string> files) : files_(std::move(files)) {
  for (std::size_t k = 0; k < files_.size(); ++k) {
    plain_file_.push_back(plain_file_name(files_[k]));
    // `File:ID` reads back to the first file of that name: a later one of the same name is not
    // nameable that way.
    bool first = true;
    for (std::size_t j = 0; j < k; ++j) first = first && !ascii::iequals(files_[j], files_[k]);
    first_of_name_.push_back(first);
  }
}

void TextNamer::add(std::uint32_t form_id, std::string_view editor_id, Source source) {
  if (!usable_name(editor_id)) return;
  auto [it, fresh] = names_.try_emplace(form_id, Named{std::string(editor_id), source});
  // A form keeps the name of its most trusted source (the plugin's own record first).
  if (!fresh && source < it->second.source) it->second = Named{std::string(editor_id), source};
}

void TextNamer::finish() {
  entries_.clear();
  entries_.reserve(names_.size());
  std::size_t capacity = 16;
  while (capacity < names_.size() * 2) capacity *= 2;
  name_slots_.assign(capacity, NameSlot{});
  // A source claims a name for its form; the same name in one source for another form makes it
  // ambiguous there; a less trusted source cannot take a name a more trusted one has.
  for (const auto& [id, named] : names_) {
    const std::uint64_t hash = hash_name(named.editor_id);
    const std::size_t mask = capacity - 1;
    std::size_t at = std::size_t(hash >> 20) & mask;
    while (name_slots_[at].entry != ~0u &&
           !(name_slots_[at].hash == hash && ascii::iequals(entries_[name_slots_[at].entry].name, named.editor_id)))
      at = (at + 1) & mask;
    if (name_slots_[at].entry == ~0u) {
      name_slots_[at].hash = hash;
      name_slots_[at].entry = std::uint32_t(entries_.size());
      entries_.push_back(NameEntry{named.editor_id, id, named.source, false});
      continue;
    }
    NameEntry& e = entries_[name_slots_[at].entry];
    if (named.source < e.source) e = NameEntry{named.editor_id, id, named.source, false};
    else if (named.source == e.source && e.form_id != id) e.ambiguous = true;
  }
  for (NameSlot& slot : name_slots_) {
    if (slot.entry == ~0u) continue;
    const NameEntry& e = entries_[slot.entry];
    slot.name = e.name.data();
    slot.size = std::uint32_t(e.name.size());
    slot.form_id = e.form_id;
    slot.ambiguous = e.ambiguous;
  }
  // name() gives a form the name that resolve() reads back to it, or none.
  form_slots_.assign(capacity, FormSlot{});
  for (const NameEntry& e : entries_) {
    if (e.ambiguous) continue;
    std::size_t at = std::size_t(e.form_id * 0x9E3779B1u) & (capacity - 1);
    while (form_slots_[at].name) at = (at + 1) & (capacity - 1);
    form_slots_[at] = FormSlot{e.form_id, std::uint32_t(e.name.size()), e.name.data(), e.source};
  }
}

std::string TextNamer::file_form(std::uint32_t form_id) const {
  std::string out;
  append_file_form(out, form_id);
  return out;
}

void TextNamer::append_file_form(std::string& out, std::uint32_t form_id) const {
  const std::uint32_t top = form_id >> 24;
  if (top >= files_.size() || !first_of_name_[top]) {
    out += '@';
    append_hex_digits(out, form_id, 8);
    return;
  }
  if (!plain_file_[top]) out += '"';
  out += files_[top];
  if (!plain_file_[top]) out += '"';
  out += ':';
  append_hex_digits(out, form_id & 0xFFFFFF, 8);
}

std::string TextNamer::name(std::uint32_t form_id) const {
  std::string out;
  append_name(out, form_id);
  return out;
}

void TextNamer::append_name(std::string& out, std::uint32_t form_id) const {
  if (form_id == 0) {
    out += "NONE";
    return;
  }
  if (form_slots_.empty()) return append_file_form(out, form_id);
  const std::size_t mask = form_slots_.size() - 1;
  for (std::size_t at = std::size_t(form_id * 0x9E3779B1u) & mask;; at = (at + 1) & mask) {
    const FormSlot& slot = form_slots_[at];
    if (!slot.name) return append_file_form(out, form_id);
    if (slot.form_id != form_id) continue;
    const std::string_view name(slot.name, slot.size);
    if (slot.source != Source::Plugin) {
      std::lock_guard guard(used_->lock);
      used_->names.emplace(name, form_id);
    }
    out += name;
    return;
  }
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
  if (const auto raw = parse_raw_form_id(text)) return raw;
  if (text.starts_with('@') || text.starts_with("0x") || text.starts_with("0X")) return std::nullopt;
  const NameSlot* e = find_name(text, hash_name(text));
  if (!e || e->ambiguous) return std::nullopt;
  return e->form_id;
}

std::map<std::string, std::uint32_t> TextNamer::used_master_names() const {
  std::lock_guard guard(used_->lock);
  return used_->names;
}

}  // namespace tesmod::text

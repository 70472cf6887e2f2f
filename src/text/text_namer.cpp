#include "tesmod/text/text_namer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

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

namespace {
// Whether stored (size characters, the first `head` of them also in head) is name, ignoring case.
bool same_name(std::string_view name, const char* head, std::size_t head_size, const char* stored, std::size_t size) {
  if (name.size() != size) return false;
  return size <= head_size ? ascii::iequals(std::string_view(head, size), name)
                           : ascii::iequals(std::string_view(stored, size), name);
}

std::uint64_t form_key(std::uint32_t form_id) { return form_id * 0x9E3779B97F4A7C15ull; }

// Room for n in an open-addressing table at most 2/3 full.
std::size_t table_capacity(std::size_t n) { return n + n / 2 + 16; }
}  // namespace

const TextNamer::NameSlot* TextNamer::find_name(std::string_view name, std::uint64_t hash) const {
  const std::size_t capacity = name_slots_.size();
  if (capacity == 0) return nullptr;
  for (std::size_t at = slot_of(hash, capacity);; at = at + 1 == capacity ? 0 : at + 1) {
    const NameSlot& slot = name_slots_[at];
    if (slot.hash == 0) return nullptr;
    if (slot.hash == hash && same_name(name, slot.head, kHead, slot.name, slot.size)) return &slot;
  }
}

const TextNamer::FormSlot* TextNamer::find_form(std::uint32_t form_id) const {
  const std::size_t capacity = form_slots_.size();
  if (capacity == 0) return nullptr;
  for (std::size_t at = slot_of(form_key(form_id), capacity);; at = at + 1 == capacity ? 0 : at + 1) {
    const FormSlot& slot = form_slots_[at];
    if (!slot.used) return nullptr;
    if (slot.form_id == form_id) return &slot;
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
  added_.push_back(Added{arena_.size(), hash_name(editor_id), std::uint32_t(editor_id.size()), form_id, source});
  arena_.insert(arena_.end(), editor_id.begin(), editor_id.end());
}

namespace {
// 0..n-1 in the order of their home slots in a table of `capacity` (stable, and exact to a few
// slots): filling a table in this order walks it from start to end, where the order names come
// in would miss the cache once a name (a second or so for a plugin and its masters).
template <class Home>
std::vector<std::uint32_t> by_home_slot(std::size_t n, std::size_t capacity, Home home) {
  constexpr std::size_t kBuckets = std::size_t{1} << 16;
  const auto bucket = [&](std::size_t i) { return std::size_t(std::uint64_t(home(i)) * kBuckets / capacity); };
  std::vector<std::uint32_t> start(kBuckets + 1, 0);
  for (std::size_t i = 0; i < n; ++i) ++start[bucket(i) + 1];
  for (std::size_t b = 0; b < kBuckets; ++b) start[b + 1] += start[b];
  std::vector<std::uint32_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[start[bucket(i)]++] = std::uint32_t(i);
  return order;
}
}  // namespace

void TextNamer::finish() {
  if (added_.size() >= 0xFFFFFFFFu) throw std::length_error("too many names");
  // Each form keeps the name of its most trusted source (the plugin's own record first; the
  // first name given among equals, which the stable order keeps first).
  const std::size_t capacity = table_capacity(added_.size());
  form_slots_.assign(capacity, FormSlot{});
  std::vector<std::uint32_t> winners;  // in added_, a name for each form
  for (const std::uint32_t i :
       by_home_slot(added_.size(), capacity, [&](std::size_t k) { return slot_of(form_key(added_[k].form_id), capacity); })) {
    const Added& a = added_[i];
    std::size_t at = slot_of(form_key(a.form_id), capacity);
    while (form_slots_[at].used && form_slots_[at].form_id != a.form_id) at = at + 1 == capacity ? 0 : at + 1;
    FormSlot& slot = form_slots_[at];
    if (slot.used && a.source >= slot.source) continue;
    slot.used = true;
    slot.form_id = a.form_id;
    slot.source = a.source;
    slot.added = i;
  }
  for (const FormSlot& f : form_slots_)
    if (f.used) winners.push_back(f.added);
  // A source claims a name for its form; the same name in one source for another form makes it
  // ambiguous there; a less trusted source cannot take a name a more trusted one has. (The
  // outcome does not depend on the order the forms come in.)
  const std::size_t name_capacity = table_capacity(winners.size());
  name_slots_.assign(name_capacity, NameSlot{});
  for (const std::uint32_t w : by_home_slot(winners.size(), name_capacity,
                                            [&](std::size_t k) { return slot_of(added_[winners[k]].hash, name_capacity); })) {
    const Added& a = added_[winners[w]];
    const char* const text = arena_.data() + a.offset;
    std::size_t at = slot_of(a.hash, name_capacity);
    while (name_slots_[at].hash != 0 &&
           !(name_slots_[at].hash == a.hash && ascii::iequals(std::string_view(name_slots_[at].name, name_slots_[at].size),
                                                              std::string_view(text, a.size))))
      at = at + 1 == name_capacity ? 0 : at + 1;
    NameSlot& slot = name_slots_[at];
    if (slot.hash == 0) {
      slot.hash = a.hash;
      slot.name = text;
      slot.size = a.size;
      std::memcpy(slot.head, text, std::min<std::size_t>(a.size, kHead));
    } else if (a.source > slot.source) {
      continue;  // a more trusted source has the name
    } else if (a.source == slot.source) {
      slot.ambiguous = true;  // another form of the same source (forms are unique here)
      continue;
    }
    // First of its name, or from a more trusted source than the name had.
    slot.form_id = a.form_id;
    slot.source = a.source;
    slot.ambiguous = false;
    slot.added = winners[w];
  }
  // name() gives a form the name that resolve() reads back to it, or none.
  std::vector<bool> named(added_.size(), false);
  for (const NameSlot& n : name_slots_)
    if (n.hash != 0 && !n.ambiguous) named[n.added] = true;
  for (FormSlot& f : form_slots_) {
    if (!f.used || !named[f.added]) continue;
    const Added& a = added_[f.added];
    f.name = arena_.data() + a.offset;
    f.size = a.size;
    std::memcpy(f.head, f.name, std::min<std::size_t>(f.size, kFormHead));
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
  const FormSlot* slot = find_form(form_id);
  if (!slot || !slot->name) return append_file_form(out, form_id);
  const std::string_view name = slot->size <= kFormHead ? std::string_view(slot->head, slot->size)
                                                        : std::string_view(slot->name, slot->size);
  if (slot->source != Source::Plugin) {
    std::lock_guard guard(used_->lock);
    used_->names.emplace(name, form_id);
  }
  out += name;
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

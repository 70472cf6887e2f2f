// A FormNamer for fuzzing text readers: the real TextNamer for what it knows, and any other
// plain word it is asked to resolve taken as the EditorID of a form of its own. Texts from real
// plugins name forms by EditorIDs no fixed table holds; without this they would all stop at
// their first reference. One namer per input, so that every run of an input sees the same names.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "tesmod/io/ascii.hpp"
#include "tesmod/text/text_namer.hpp"

namespace tesmod::fuzz {

class LearningNamer final : public text::FormNamer {
 public:
  explicit LearningNamer(const text::TextNamer& known) : known_(known) {}

  std::string name(std::uint32_t form_id) const override {
    if (auto it = names_.find(form_id); it != names_.end()) return it->second;
    return known_.name(form_id);
  }

  std::optional<std::uint32_t> resolve(std::string_view text) const override {
    if (auto id = known_.resolve(text)) return id;
    if (!text::TextNamer::usable_name(text)) return std::nullopt;
    const std::string key = ascii::to_lower(text);
    if (auto it = ids_.find(key); it != ids_.end()) return it->second;
    // Learned forms live under a top byte no file list here reaches, so they never stand for a
    // form the known namer names otherwise.
    const std::uint32_t id = kLearnedTop | std::uint32_t(ids_.size());
    ids_.emplace(key, id);
    names_.emplace(id, std::string(text));
    return id;
  }

 private:
  static constexpr std::uint32_t kLearnedTop = 0x7E000000;
  const text::TextNamer& known_;
  mutable std::map<std::string, std::uint32_t> ids_;     // lower-case name -> form
  mutable std::map<std::uint32_t, std::string> names_;  // form -> name as first written
};

}  // namespace tesmod::fuzz

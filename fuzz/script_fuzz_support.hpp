// Shared by the script fuzzers: a small NameSource, how a finding is reported, and the
// compile -> decompile -> compile check both run on compiled scripts the compiler made.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <string_view>

#include "tesmod/io/ascii.hpp"
#include "tesmod/script/compiler.hpp"
#include "tesmod/script/decompiler.hpp"
#include "tesmod/script/script_check.hpp"

namespace tesmod::fuzz {

// Forms by EditorID, and FormIDs that name globals: without a GLOB record at hand `set x to 1`
// on a form, global arguments and global message variables could not compile at all.
// With any_name_is_a_form, find() makes every name it is asked for a form (a reference, or a
// global for the vanilla globals' names), numbered as first asked: sources written for real
// plugins then compile in full, not only up to their first EditorID.
class FuzzNames : public script::NameSource {
 public:
  explicit FuzzNames(bool any_name_is_a_form = false) : any_name_is_a_form_(any_name_is_a_form) {}

  void add(std::uint32_t form_id, std::string editor_id, Signature type) { forms_[form_id] = {std::move(editor_id), type}; }
  void add_global(std::uint32_t form_id) { globals_.insert(form_id); }

  std::optional<script::FormInfo> find(std::string_view editor_id) const override {
    for (const auto& [id, f] : forms_)
      if (ascii::iequals(f.first, editor_id)) return form(id);
    if (!any_name_is_a_form_ || editor_id.empty()) return std::nullopt;
    static constexpr std::string_view kGlobals[] = {"GameHour", "GameDaysPassed", "GameDay", "GameMonth", "GameYear", "TimeScale"};
    Signature type("REFR");
    for (std::string_view g : kGlobals)
      if (ascii::iequals(g, editor_id)) type = Signature("GLOB");
    const std::uint32_t id = kFirstMadeForm + static_cast<std::uint32_t>(forms_.size());
    forms_[id] = {std::string(editor_id), type};
    return form(id);
  }
  std::optional<script::FormInfo> form(std::uint32_t id) const override {
    if (globals_.count(id)) return script::FormInfo{id, Signature("GLOB"), Signature(), 0};
    auto it = forms_.find(id);
    if (it == forms_.end()) return std::nullopt;
    return script::FormInfo{id, it->second.second, Signature(), 0};
  }
  std::optional<std::string> editor_id(std::uint32_t id) const override {
    auto it = forms_.find(id);
    if (it == forms_.end()) return std::nullopt;
    return it->second.first;
  }
  const script::ScriptData* script(std::uint32_t) const override { return nullptr; }

 private:
  static constexpr std::uint32_t kFirstMadeForm = 0x01000800;
  bool any_name_is_a_form_;
  mutable std::map<std::uint32_t, std::pair<std::string, Signature>> forms_;
  std::set<std::uint32_t> globals_;
};

// A finding: what went wrong and the texts involved, then abort so libFuzzer keeps the input.
[[noreturn]] inline void finding(std::string_view what, std::string_view detail, std::string_view text = {},
                                 std::string_view other_text = {}) {
  std::fprintf(stderr, "\n=== script fuzz finding: %.*s\n%.*s\n", int(what.size()), what.data(), int(detail.size()),
               detail.data());
  if (!text.empty()) std::fprintf(stderr, "--- text:\n%.*s\n", int(text.size()), text.data());
  if (!other_text.empty()) std::fprintf(stderr, "--- other text:\n%.*s\n", int(other_text.size()), other_text.data());
  std::abort();
}

// y was made by the compiler: its decompiled text must compile back to y byte for byte
// (SCDA, SLSD/SCVR, SCRO/SCRV, SCHR). Returns that text.
inline std::string decompiles_and_compiles_back(const script::ScriptData& y, const script::CompileOptions& co,
                                                const script::DecompileOptions& dopt, std::string_view source) {
  std::string text;
  try {
    text = script::decompile(y, dopt);
  } catch (const std::exception& e) {
    finding("the compiler's output does not decompile", e.what(), source);
  }
  script::ScriptData again;
  try {
    again = script::compile(text, co).script;
  } catch (const std::exception& e) {
    finding("the decompiled text of the compiler's output does not compile", e.what(), source, text);
  }
  if (auto d = script::compare_scripts(y, again))
    finding("decompiled text compiles to other bytes", d->field + " byte " + std::to_string(d->byte) + ": " + d->message,
            source, text);
  return text;
}

}  // namespace tesmod::fuzz

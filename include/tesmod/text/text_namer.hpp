// How the editable text (tesmod export/import) names FormIDs, so that what export writes, import
// reads back to the same FormID from the folder alone:
//
//   IronSword                     an EditorID that names exactly one form
//   Skyrim.esm:00012EB7           the defining file and the object id
//   "Dawn of Time.esp":00000801   the same, quoted when the file name is not a plain word
//   NONE                          FormID 0
//   @05001234                     a FormID whose top byte is past the plugin's own index (or
//                                 names a file listed twice); 0x05001234 is read too
//
// Names come from three sources, in this order of precedence: the plugin's own records, the
// folder's names file (the master EditorIDs export used, so import needs no masters), and the
// master files at hand. An EditorID two forms of one source share is not used (nor read); one
// that is not a plain word (letters, digits, _), that reads as a number, or that is a keyword
// of the text formats is never used as a name either.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tesmod/io/big_buffer.hpp"
#include "tesmod/text/form_namer.hpp"

namespace tesmod::text {

class TextNamer final : public FormNamer {
 public:
  enum class Source : std::uint8_t { Plugin = 0, NamesFile = 1, Master = 2 };

  // files: the plugin's masters in order, then the plugin itself, as FormID top bytes index them.
  explicit TextNamer(std::vector<std::string> files);

  // An EditorID (ASCII; others are never names) of a form as the plugin stores its FormID.
  void add(std::uint32_t form_id, std::string_view editor_id, Source source);
  // Call once every name is added, before name() and resolve().
  void finish();

  std::string name(std::uint32_t form_id) const override;
  void append_name(std::string& out, std::uint32_t form_id) const override;
  std::optional<std::uint32_t> resolve(std::string_view text) const override;

  const std::vector<std::string>& files() const { return files_; }
  // `File:ObjectID` text for a FormID, without looking at names.
  std::string file_form(std::uint32_t form_id) const;
  void append_file_form(std::string& out, std::uint32_t form_id) const;
  // The names of master forms that name() has returned so far (for the names file), sorted.
  std::map<std::string, std::uint32_t> used_master_names() const;

  // Whether text can serve as a name at all (see above).
  static bool usable_name(std::string_view text);

 private:
  // A name as add() was given it: the name's text is in arena_.
  struct Added {
    std::size_t offset = 0;
    std::uint64_t hash = 0;  // hash_name of it
    std::uint32_t size = 0;
    std::uint32_t form_id = 0;
    Source source = Source::Master;
  };
  // Open-addressing tables, one cache line a slot with the name's head in it: a plugin and its
  // masters have hundreds of thousands of names, so a look-up is a cache miss; a node per name,
  // or a name kept apart, would be two or three. Linear probing; the tables are 2/3 full at most
  // and live in huge pages (a look-up would miss the TLB too). finish() fills them in the order
  // of their slots, not at random.
  static constexpr std::size_t kHead = 32;
  struct alignas(64) NameSlot {  // resolve(): a name, the form it stands for
    std::uint64_t hash = 0;      // 0: empty slot
    const char* name = nullptr;  // into arena_
    std::uint32_t size = 0;
    std::uint32_t form_id = 0;
    Source source = Source::Master;
    bool ambiguous = false;  // one source gives it to several forms
    std::uint32_t added = 0;  // the form's name in added_
    char head[kHead];        // the name's first kHead characters
  };
  static constexpr std::size_t kFormHead = 40;
  struct alignas(64) FormSlot {  // name(): a form, its name
    std::uint32_t form_id = 0;
    std::uint32_t size = 0;
    const char* name = nullptr;  // into arena_; null: the form has no name
    bool used = false;
    Source source = Source::Master;
    std::uint32_t added = 0;  // its name in added_
    char head[kFormHead];
  };
  static_assert(sizeof(NameSlot) == 64 && sizeof(FormSlot) == 64);
  static std::uint64_t hash_name(std::string_view name);
  static std::size_t slot_of(std::uint64_t key, std::size_t capacity) { return std::size_t((key >> 32) * capacity >> 32); }
  const NameSlot* find_name(std::string_view name, std::uint64_t hash) const;
  const FormSlot* find_form(std::uint32_t form_id) const;
  std::vector<std::string> files_;
  std::vector<bool> plain_file_;                    // file name needs no quotes
  std::vector<bool> first_of_name_;                 // no earlier file has the same name
  std::vector<char> arena_;                         // every name add() kept, one after another
  std::vector<Added> added_;
  std::vector<NameSlot, BigAllocator<NameSlot>> name_slots_;
  std::vector<FormSlot, BigAllocator<FormSlot>> form_slots_;
  struct Used {  // name() is called from several threads at once
    std::mutex lock;
    std::map<std::string, std::uint32_t> names;
  };
  std::unique_ptr<Used> used_ = std::make_unique<Used>();
};

}  // namespace tesmod::text

// What differs between the versions of a record in a load order (tesmod conflicts), in the text
// form of tesmod export: each version's record written as export writes it, its field lines
// matched by signature and occurrence (the second CNTO with the second CNTO), and the rows whose
// text is not the same in every version kept. The record flags are a row of their own (Compressed
// aside: storage, not content). FormIDs are named `File.esm:00ABCDEF` by the defining plugin's
// name in the load order, so that one form reads the same in every version.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tesmod/io/text_encoding.hpp"
#include "tesmod/io/zlib_codec.hpp"
#include "tesmod/loadorder/conflicts.hpp"
#include "tesmod/loadorder/load_order.hpp"

namespace tesmod::text {

struct FieldDifference {
  std::string field;  // the signature ("FULL"), or "flags" for the record flags
  std::vector<std::optional<std::string>> values;  // per version; nullopt: the version has no such field
};

// Makes, once per plugin, the namers conflict_fields uses; safe to share between threads.
class LoadOrderNamers {
 public:
  explicit LoadOrderNamers(const loadorder::LoadOrder& order);
  ~LoadOrderNamers();
  LoadOrderNamers(const LoadOrderNamers&) = delete;
  LoadOrderNamers& operator=(const LoadOrderNamers&) = delete;
  // The names of the FormIDs plugin `position` stores: `File.esm:00ABCDEF`.
  const class FormNamer& for_plugin(std::uint32_t position) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The rows that differ between the record's versions (empty when they are all equal), in the
// order the fields first appear. Throws tesmod::Error when a version's body does not read.
std::vector<FieldDifference> conflict_fields(const loadorder::LoadOrder& order, const loadorder::ConflictRecord& record,
                                             const LoadOrderNamers& namers, const TextCodec& codec, Inflater& inflater);

}  // namespace tesmod::text

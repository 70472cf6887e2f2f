// A record's text is only as good as what it reads back to: the checked writer tries the typed
// text, then every field as hex, then the stored bytes, and keeps the first that comes back exact.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <unordered_map>
#include <vector>

#include "tesmod/io/counted.hpp"
#include "tesmod/text/record_text.hpp"

namespace tesmod::text {
namespace {

// Passes script sources on to the real store and remembers them, so that the check can read
// them back without touching the disk.
class RememberingScripts final : public ScriptFiles {
 public:
  RememberingScripts(ScriptFiles* real, const TextCodec& codec) : real_(real), codec_(codec) {}
  std::string store(const RecordHeader& record, std::string_view editor_id, std::size_t index,
                    std::string_view source) override {
    std::string name = real_ ? real_->store(record, editor_id, index, source) : fmt::format("script {}", index);
    stored_[name] = codec_.to_utf8(source);
    return name;
  }
  std::optional<std::string> load(std::string_view file) override {
    auto it = stored_.find(std::string(file));
    if (it == stored_.end()) return std::nullopt;
    return it->second;
  }

 private:
  ScriptFiles* real_;
  const TextCodec& codec_;
  std::map<std::string, std::string> stored_;
};

// Remembers the names it gave while a record was written, so that reading them back finds them
// without a look-up in a master-sized table. Names it did not give go to the real namer. Most
// records are never read back (a master's plain fields): it keeps only the ids until asked.
class RememberingNamer final : public FormNamer {
 public:
  explicit RememberingNamer(const FormNamer& real) : real_(real) {}
  std::string name(std::uint32_t form_id) const override {
    std::string n;
    append_name(n, form_id);
    return n;
  }
  void append_name(std::string& out, std::uint32_t form_id) const override {
    real_.append_name(out, form_id);
    given_ids_.push_back(form_id);
  }
  std::optional<std::uint32_t> resolve(std::string_view text) const override {
    // Hashed: one record (Skyrim's NAVI) names tens of thousands of forms.
    for (; named_ < given_ids_.size(); ++named_) {
      // The first id a name was given for, as a reader meets them (the real namer names an
      // id the same each time).
      const std::uint32_t id = given_ids_[named_];
      given_.emplace(real_.name(id), id);
    }
    if (const auto it = given_.find(text); it != given_.end()) return it->second;
    return real_.resolve(text);
  }

 private:
  struct Hash {  // looks up string_views without making strings
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  const FormNamer& real_;
  mutable std::vector<std::uint32_t> given_ids_;
  mutable std::size_t named_ = 0;  // given_ids_ before this are in given_
  mutable std::unordered_map<std::string, std::uint32_t, Hash, std::equal_to<>> given_;
};

}  // namespace

bool record_text_reads_back(std::string_view text, const RecordHeader& header, std::span<const std::uint8_t> stored_body,
                            const RecordTextOptions& options, std::string* why) {
  std::vector<std::uint8_t> got;
  try {
    const EntriesRead read = read_entries_text(text, options, got);
    if (!read.changed_scripts.empty()) {
      if (why) *why = "a script source does not read back unchanged";
      return false;
    }
  } catch (const std::exception& e) {
    if (why) *why = e.what();
    return false;
  }
  // Compared in place: the header, then the body.
  std::vector<std::uint8_t> want_header(header_size(options.game));
  RecordHeader h = header;
  h.data_size = std::uint32_t(stored_body.size());
  h.write(want_header.data(), options.game);
  const std::size_t n = want_header.size();
  if (got.size() == n + stored_body.size() && std::equal(want_header.begin(), want_header.end(), got.begin()) &&
      std::equal(stored_body.begin(), stored_body.end(), got.begin() + std::ptrdiff_t(n)))
    return true;
  if (why) {
    std::vector<std::uint8_t> want = want_header;
    want.insert(want.end(), stored_body.begin(), stored_body.end());
    const auto diff = std::ranges::mismatch(got, want);
    *why = fmt::format("the text reads back to {}, not {}; first difference at byte {}", counted(got.size(), "byte"), want.size(),
                       diff.in1 - got.begin());
  }
  return false;
}

RecordTextForm append_record_text_checked(std::string& out, const RecordHeader& header,
                                          std::span<const std::uint8_t> stored_body, const RecordTextOptions& options,
                                          Inflater& inflater, int indent, bool check_plain) {
  RememberingScripts scripts(options.scripts, *options.codec);
  RememberingNamer namer(*options.namer);
  RecordTextOptions o = options;
  o.scripts = options.scripts ? &scripts : nullptr;
  o.namer = &namer;
  // Where plain records are trusted (check_plain false), so are the plain fields of the others:
  // their lines are read back as the fields they were written from. Elsewhere every line is
  // parsed. The data points into the body inflater holds. Kept from record to record: most
  // records are plain and never read back, and a vector each cost an allocation.
  thread_local std::vector<LayoutLine> layout_lines;
  o.layout_lines = check_plain ? nullptr : &layout_lines;
  const std::size_t mark = out.size();
  for (const RecordTextForm form : {RecordTextForm::Typed, RecordTextForm::Hex}) {
    o.typed = form == RecordTextForm::Typed;
    out.resize(mark);
    layout_lines.clear();
    const bool structured = append_record_text(out, header, stored_body, o, inflater, indent);
    if (!structured && !check_plain) return form;
    for (LayoutLine& line : layout_lines) line.offset -= mark;
    if (record_text_reads_back(std::string_view(out).substr(mark), header, stored_body, o)) return form;
  }
  // The stored bytes as they are always read back.
  out.resize(mark);
  append_record_header_line(out, header, o, indent);
  out.append(std::size_t(indent + 2), ' ');
  out += "stored-body ";
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (std::uint8_t b : stored_body) {
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  out += '\n';
  return RecordTextForm::Stored;
}

}  // namespace tesmod::text

// Text back to records and groups: the reader of what record_text_writer.cpp writes (and of
// what users write by hand in the same syntax).
#include <fmt/format.h>

#include <libdeflate.h>

#include <algorithm>
#include <optional>

#include "record_text_common.hpp"
#include "tesmod/fields/condition.hpp"
#include "tesmod/fields/package_codec.hpp"
#include "tesmod/fields/package_oblivion.hpp"
#include "tesmod/fields/vmad.hpp"
#include "tesmod/io/base64.hpp"
#include "tesmod/io/little_endian.hpp"
#include "tesmod/plugin/compressed_body.hpp"
#include "tesmod/plugin/field.hpp"
#include "tesmod/plugin/group_type.hpp"
#include "tesmod/plugin/subrecord.hpp"
#include "tesmod/text/condition_text.hpp"
#include "tesmod/text/field_text.hpp"
#include "tesmod/text/package_block.hpp"
#include "tesmod/text/record_text.hpp"
#include "tesmod/text/vmad_block.hpp"

namespace tesmod::text {
namespace {

bool starts_with_word(std::string_view line, std::string_view word) {
  return line.starts_with(word) && (line.size() == word.size() || line[word.size()] == ' ' || line[word.size()] == '\t');
}

// The lines of a text with their numbers; a cursor that can look at the next line first.
class Lines {
 public:
  explicit Lines(std::string_view text) : text_(text) {}
  bool done() const { return pos_ >= text_.size(); }
  std::uint32_t number() const { return number_; }  // of the line last taken
  std::size_t offset() const { return pos_; }       // of the next line
  std::string_view peek() const {
    if (peeked_at_ != pos_) {  // a line is looked at two or three times: its end is found once
      const std::size_t end = text_.find('\n', pos_);
      peeked_end_ = end == std::string_view::npos ? text_.size() : end;
      peeked_at_ = pos_;
    }
    return text_.substr(pos_, peeked_end_ - pos_);
  }
  std::string_view take() {
    const std::string_view line = peek();
    pos_ += line.size() + 1;
    ++number_;
    return line;
  }
  // Takes blank and comment lines; the next line's text (trimmed), or nullopt at the end.
  std::optional<std::string_view> next_content() {
    while (!done()) {
      const std::string_view line = trim_line(peek());
      if (!line.empty() && line.front() != '#') return line;
      take();
    }
    return std::nullopt;
  }
  std::string_view between(std::size_t from, std::size_t to) const { return text_.substr(from, to - from); }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  std::uint32_t number_ = 0;
  mutable std::size_t peeked_at_ = std::size_t(-1), peeked_end_ = 0;  // the line peek() found last
};

bool all_crlf_free_of_lone_cr(std::string_view s) {
  for (std::size_t i = 0; i < s.size(); ++i)
    if (s[i] == '\r' && (i + 1 >= s.size() || s[i + 1] != '\n')) return false;
  return true;
}

// Lone LFs as CR LF, as the Construction Set stores line breaks.
std::string to_crlf(std::string_view s) {
  std::string out;
  out.reserve(s.size() + s.size() / 16);
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\n' && (i == 0 || s[i - 1] != '\r')) out += '\r';
    out += s[i];
  }
  return out;
}

class EntriesReader {
 public:
  EntriesReader(std::string_view text, const RecordTextOptions& options, std::vector<std::uint8_t>& out)
      : lines_(text), options_(options), out_(out), header_size_(header_size(options.game)) {
    context_.namer = options.namer;
    context_.codec = options.codec;
    context_.localized = options.localized;
  }

  EntriesRead read() {
    while (const auto next = lines_.next_content()) {
      const std::string_view raw = lines_.peek();
      const std::string_view line = *next;
      if (starts_with_word(line, "record")) {
        record();
      } else if (starts_with_word(line, "group")) {
        lines_.take();
        group_open(raw);
      } else if (line == "}") {
        lines_.take();
        group_close(raw);
      } else {
        lines_.take();
        LineScanner s(raw, lines_.number());
        s.skip_blanks();
        const std::size_t at = s.position();
        const std::string_view word = s.word();
        s.fail_at(at, fmt::format("expected 'record', 'group' or '}}', not '{}'", word.empty() ? line : word));
      }
    }
    if (!open_groups_.empty())
      throw SyntaxError(open_groups_.back().line, 1, "this group is not closed: expected '}' before the end of the file");
    return std::move(result_);
  }

 private:
  struct OpenGroup {
    std::size_t offset;  // of its header in out_
    std::uint32_t line;
  };

  void group_open(std::string_view raw) {
    LineScanner s(raw, lines_.number());
    const GroupHeader h = detail::parse_group_header(s, options_.game, *options_.namer);
    s.expect('{', "'{' at the end of the group line");
    s.expect_end();
    open_groups_.push_back({out_.size(), lines_.number()});
    const std::size_t at = out_.size();
    out_.resize(at + header_size_);
    h.write(out_.data() + at, options_.game);
    ++result_.groups;
  }

  void group_close(std::string_view raw) {
    if (open_groups_.empty()) {
      LineScanner s(raw, lines_.number());
      s.skip_blanks();
      s.fail("'}' closes no group");
    }
    const OpenGroup g = open_groups_.back();
    open_groups_.pop_back();
    const std::uint64_t size = out_.size() - g.offset;
    if (size > 0xFFFFFFFF) throw SyntaxError(g.line, 1, "the group holds more than 4 GB");
    le::store(out_.data() + g.offset + 4, std::uint32_t(size));
  }

  void record() {
    const std::string_view raw = lines_.take();
    LineScanner s(raw, lines_.number());
    s.accept_word("record");
    RecordHeader h;
    s.skip_blanks();
    const std::size_t type_at = s.position();
    const auto type = detail::parse_signature(s.word());
    if (!type) s.fail_at(type_at, "expected the record type (four characters)");
    h.type = *type;
    s.skip_blanks();
    const std::size_t id_at = s.position();
    const std::string_view id_text = s.word();
    const auto id = id_text.size() <= 8 ? parse_uint("0x" + std::string(id_text)) : std::nullopt;
    if (!id) s.fail_at(id_at, "expected the record's FormID as hex digits, e.g. 01000ABC");
    h.form_id = std::uint32_t(*id);
    h.form_version = options_.default_form_version;
    while (!s.at_end()) {
      const std::size_t at = s.position();
      const std::string_view key = s.word();
      if (!s.accept('=')) s.fail_at(at, "expected flags=, vc=, form-version= or vc2=");
      s.skip_blanks();
      const std::size_t value_at = s.position();
      const std::string_view value = s.word();
      if (key == "flags") {
        std::string_view v = value;
        // Flag names are joined by '|', a word break: take the whole run.
        std::size_t end = s.position();
        while (end < raw.size() && (raw[end] == '|' || !is_word_break(raw[end]))) ++end;
        v = raw.substr(value_at, end - value_at);
        s.seek(end);
        const auto flags = detail::parse_record_flags(options_.game, h.type, v);
        if (!flags) s.fail_at(value_at, fmt::format("'{}': expected flag names or numbers joined by '|'", v));
        h.flags = *flags;
        continue;
      }
      const auto n = parse_uint(value);
      if (key == "vc" && n && *n <= 0xFFFFFFFF) h.version_control = std::uint32_t(*n);
      else if (key == "form-version" && n && *n <= 0xFFFF && options_.game != Game::Oblivion) h.form_version = std::uint16_t(*n);
      else if (key == "vc2" && n && *n <= 0xFFFF && options_.game != Game::Oblivion) h.version_control_2 = std::uint16_t(*n);
      else s.fail_at(at, fmt::format("'{}={}': expected flags=, vc=, form-version= or vc2= with a number that fits", key, value));
    }
    if (options_.game == Game::Oblivion) h.form_version = 0;
    try {
      record_body(h);
    } catch (const SyntaxError& e) {
      throw SyntaxError(e.line(), e.column(), fmt::format("{} (in record {} {:08X})", e.message(), h.type.str(), h.form_id));
    }
  }

  // The fields are encoded as they are read, into raw_ (reused from record to record).
  void begin_field(Signature type) {
    field_start_ = raw_.size();
    if (prefix_) {
      // An XXXX field carrying the size, then this field with the stored u16 size.
      raw_.resize(field_start_ + 16);
      le::store(raw_.data() + field_start_, kOversizeSignature.value());
      le::store(raw_.data() + field_start_ + 4, std::uint16_t{4});
      le::store(raw_.data() + field_start_ + 10, type.value());
      le::store(raw_.data() + field_start_ + 14, prefix_size_);
    } else {
      raw_.resize(field_start_ + 6);
      le::store(raw_.data() + field_start_, type.value());
    }
  }

  void end_field() {
    if (prefix_) {
      const std::size_t size = raw_.size() - field_start_ - 16;
      if (size > 0xFFFFFFFF) throw SyntaxError(lines_.number(), 1, "the field holds more than 4 GB");
      le::store(raw_.data() + field_start_ + 6, std::uint32_t(size));
      prefix_ = false;
      read_fields_.push_back({Signature::from_bytes(raw_.data() + field_start_ + 10), field_start_ + 16, size});
      return;
    }
    const std::size_t size = raw_.size() - field_start_ - 6;
    if (size <= 0xFFFF) {
      le::store(raw_.data() + field_start_ + 4, std::uint16_t(size));
      read_fields_.push_back({Signature::from_bytes(raw_.data() + field_start_), field_start_ + 6, size});
      return;
    }
    // Too big for the u16 size: the writer's XXXX prefix goes in front of it.
    if (size > 0xFFFFFFFF) throw SyntaxError(lines_.number(), 1, "the field holds more than 4 GB");
    const Signature type = Signature::from_bytes(raw_.data() + field_start_);
    raw_.insert(raw_.begin() + std::ptrdiff_t(field_start_), 10, 0);
    le::store(raw_.data() + field_start_, kOversizeSignature.value());
    le::store(raw_.data() + field_start_ + 4, std::uint16_t{4});
    le::store(raw_.data() + field_start_ + 6, std::uint32_t(size));
    le::store(raw_.data() + field_start_ + 10, type.value());
    le::store(raw_.data() + field_start_ + 14, std::uint16_t{0});
    read_fields_.push_back({type, field_start_ + 16, size});
  }

  void add_field(Signature type, std::span<const std::uint8_t> data) {
    begin_field(type);
    raw_.insert(raw_.end(), data.begin(), data.end());
    end_field();
  }

  void add_fields(const std::vector<Field>& fields) {
    for (const Field& f : fields) {
      if (f.oversize && !prefix_) {
        prefix_ = true;
        prefix_size_ = f.stored_size;
      }
      add_field(f.type, f.data);
    }
  }

  void record_body(RecordHeader& h) {
    raw_.clear();
    read_fields_.clear();
    prefix_ = false;
    std::optional<std::vector<std::uint8_t>> zlib_stored, stored_body;
    std::size_t scripts = 0;
    bool any_field = false;
    const bool oblivion = options_.game == Game::Oblivion;
    while (const auto next = lines_.next_content()) {
      const std::string_view raw = lines_.peek();
      const std::string_view line = *next;
      if (starts_with_word(line, "record") || starts_with_word(line, "group") || line == "}") break;
      const std::size_t line_at = lines_.offset();
      lines_.take();
      LineScanner s(raw, lines_.number());
      s.skip_blanks();
      const std::size_t word_at = s.position();
      const std::string_view word = s.word();
      if (word == "zlib-stored" || word == "stored-body") {
        s.skip_blanks();
        const std::size_t at = s.position();
        const std::string_view data = trim_line(s.rest());
        auto bytes = word == "zlib-stored" ? decode_base64(data) : parse_hex(data);
        if (!bytes) s.fail_at(at, word == "zlib-stored" ? "expected base64" : "expected hex digits");
        (word == "zlib-stored" ? zlib_stored : stored_body) = std::move(*bytes);
        continue;
      }
      any_field = true;
      if (word == "package") {
        if (!s.accept('{')) s.fail("expected 'package {'");
        s.expect_end();
        if (h.type != Signature("PACK")) s.fail_at(word_at, "only PACK records have a package block");
        const auto [text, first_line] = block(s);
        const BlockTextOptions options{options_.namer, options_.codec, options_.game};
        try {
          add_fields(oblivion ? fields::encode_oblivion_package(parse_oblivion_package_block(text, options))
                              : fields::encode_package(parse_package_block(text, options)));
        } catch (const SyntaxError& e) {
          throw e.shifted(first_line - 1);
        } catch (const Error& e) {
          throw SyntaxError(first_line - 1, 1, fmt::format("the package cannot be stored: {}", e.detail()));
        }
        continue;
      }
      const auto sig = detail::parse_signature(word);
      if (!sig) s.fail_at(word_at, fmt::format("expected a field (four characters), zlib-stored or package, not '{}'", word));
      if (*sig == kOversizeSignature) {
        std::uint16_t stored_size = 0;
        if (!s.at_end()) {
          s.expect_key("stored-size");
          const auto n = parse_uint(s.word());
          if (!n || *n > 0xFFFF) s.fail("expected stored-size=N (0 to 65535)");
          stored_size = std::uint16_t(*n);
        }
        s.expect_end();
        if (prefix_) s.fail_at(word_at, "two XXXX lines in a row: one gives the next field its size prefix");
        prefix_ = true;
        prefix_size_ = stored_size;
        continue;
      }
      if (s.at_end()) {
        add_field(*sig, {});
        continue;
      }
      s.skip_blanks();
      const std::size_t value_at = s.position();
      if (s.accept_word("hex")) {
        s.skip_blanks();
        const std::size_t at = s.position();
        begin_field(*sig);
        if (!append_parsed_hex(trim_line(s.rest()), raw_)) s.fail_at(at, "expected hex digits, two per byte");
        end_field();
        continue;
      }
      if (*sig == fields::kCTDA || *sig == fields::kCTDT) {
        add_fields(condition(s, *sig));
        continue;
      }
      if (*sig == Signature("VMAD") && s.peek() == '{') {
        s.accept('{');
        s.expect_end();
        const auto [text, first_line] = block(s);
        try {
          const fields::Vmad vmad = parse_vmad_block(text, h.type, {options_.namer, options_.codec, options_.game});
          add_field(*sig, fields::encode_vmad(vmad));
        } catch (const SyntaxError& e) {
          throw e.shifted(first_line - 1);
        } catch (const Error& e) {
          throw SyntaxError(first_line - 1, 1, fmt::format("the VMAD cannot be stored: {}", e.detail()));
        }
        continue;
      }
      if (*sig == Signature("SCTX")) {
        const std::size_t index = scripts++;
        const bool crlf = s.accept_word("crlf");
        if (!crlf && s.accept_word("file")) {
          add_field(*sig, script_file(s, h, index));
        } else if (crlf || s.peek() == '{') {
          s.expect('{', "'{' to open the script's lines");
          s.expect_end();
          const std::string source = source_lines(s, crlf);
          add_field(*sig, {reinterpret_cast<const std::uint8_t*>(source.data()), source.size()});
        } else {
          const std::string source = s.quoted_string(*options_.codec);
          s.expect_end();
          add_field(*sig, {reinterpret_cast<const std::uint8_t*>(source.data()), source.size()});
        }
        continue;
      }
      if (const LayoutLine* known = layout_line(line_at, *sig)) {
        add_field(*sig, known->data);
        continue;
      }
      s.seek(value_at);
      begin_field(*sig);
      layout_value(s, h, *sig);
      end_field();
    }
    if (prefix_) throw SyntaxError(lines_.number(), 1, "an XXXX line has no field after it");

    // The header, then the body.
    const std::size_t at = out_.size();
    out_.resize(at + header_size_);
    if (stored_body) {
      if (any_field || zlib_stored)
        throw SyntaxError(lines_.number(), 1, "a record with stored-body has no fields and no zlib-stored");
      out_.insert(out_.end(), stored_body->begin(), stored_body->end());
    } else if (h.flags & detail::kCompressedFlag) {
      const std::vector<std::uint8_t> body = compress(raw_, zlib_stored);
      out_.insert(out_.end(), body.begin(), body.end());
    } else {
      out_.insert(out_.end(), raw_.begin(), raw_.end());
    }
    const std::size_t body_size = out_.size() - at - header_size_;
    if (body_size > 0xFFFFFFFF) throw SyntaxError(lines_.number(), 1, "the record holds more than 4 GB");
    h.data_size = std::uint32_t(body_size);
    h.write(out_.data() + at, options_.game);
    ++result_.records;
  }

  // The field a layout wrote as the line at offset (options_.layout_lines), if it did.
  const LayoutLine* layout_line(std::size_t offset, Signature type) {
    const std::vector<LayoutLine>* lines = options_.layout_lines;
    if (!lines) return nullptr;
    while (next_layout_line_ < lines->size() && (*lines)[next_layout_line_].offset < offset) ++next_layout_line_;
    if (next_layout_line_ == lines->size()) return nullptr;
    const LayoutLine& l = (*lines)[next_layout_line_];
    return l.offset == offset && l.type == type ? &l : nullptr;
  }

  // The stored stream when the fields still inflate from it, else the fields compressed anew.
  std::vector<std::uint8_t> compress(const std::vector<std::uint8_t>& raw,
                                     const std::optional<std::vector<std::uint8_t>>& stored) {
    if (stored && stored->size() >= 4 && le::u32(stored->data()) == raw.size()) {
      try {
        if (!inflater_) inflater_.emplace();
        const auto inflated = inflate_record_body(*stored, *inflater_, ErrorContext{});
        if (std::ranges::equal(inflated, raw)) return *stored;
      } catch (const Error&) {
        // A damaged stream is simply not reused.
      }
    }
    return compress_record_body(raw);
  }

  // The lines of a `{ ... }` block after its opening line, up to its closing '}' line; and the
  // number of the block's first line.
  std::pair<std::string_view, std::uint32_t> block(const LineScanner& opening) {
    const std::size_t start = lines_.offset();
    const std::uint32_t first_line = lines_.number() + 1;
    int depth = 1;
    while (!lines_.done()) {
      const std::size_t line_start = lines_.offset();
      const std::string_view line = trim_line(lines_.take());
      if (line == "}") {
        if (--depth == 0) return {lines_.between(start, line_start), first_line};
      } else if (line.ends_with('{') && line.front() != '#') {
        ++depth;
      }
    }
    throw SyntaxError(opening.line_number(), 1, "the block is not closed: expected a line with '}'");
  }

  std::vector<Field> condition(LineScanner& s, Signature sig) {
    s.skip_blanks();
    const std::size_t at = s.position();
    const std::string_view text = trim_line(s.rest());
    try {
      fields::Condition c = parse_condition(text, options_.game, *options_.namer);
      std::vector<Field> parts = fields::encode_condition(c);
      if (parts.front().type != sig)
        s.fail_at(at, fmt::format("this condition is a {} (write {} [CTDT] for the other layout)", parts.front().type.str(),
                                  sig.str()));
      return parts;
    } catch (const ConditionSyntaxError& e) {
      s.fail_at(at + (e.column() ? e.column() - 1 : 0), e.message());
    }
  }

  // Appends the value of a typed field to raw_, read with the first layout whose conditions hold
  // (on the fields read before it) and that reads it.
  void layout_value(LineScanner& s, const RecordHeader& header, Signature field) {
    const Signature record_type = header.type;
    const LayoutTable& table = layout_table(options_.game);
    const auto layouts = table.find(record_type, field);
    if (layouts.empty())
      s.fail(fmt::format("no layout is known for {} in {} records: write '{} hex' and the bytes", field.str(),
                         record_type.str(), field.str()));
    // Which layouts hold here, decided before any is tried: trying one grows raw_, which the
    // fields before this one (the conditions' view) point into.
    std::vector<char> holds;  // empty: every layout holds
    if (std::any_of(layouts.begin(), layouts.end(), [](const FieldLayout* l) { return !l->conditions.empty(); })) {
      std::vector<fields::FieldRef> earlier;
      earlier.reserve(read_fields_.size());
      for (const ReadField& f : read_fields_) earlier.push_back({f.type, std::span<const std::uint8_t>(raw_).subspan(f.offset, f.size)});
      fields::FieldSite site;
      site.record_type = record_type;
      site.form_version = header.form_version;
      site.earlier = earlier;
      site.localized = options_.localized;
      site.reading_text = true;
      holds.assign(layouts.size(), 1);
      for (std::size_t k = 0; k < layouts.size(); ++k)
        if (!layouts[k]->conditions.empty() && !table.applies(*layouts[k], {}, site)) holds[k] = 0;
    }
    const std::size_t start = s.position();
    const std::size_t mark = raw_.size();
    if (layouts.size() > 1) {  // first without the layouts whose keys are not the text's
      std::vector<char> keyed = holds.empty() ? std::vector<char>(layouts.size(), 1) : holds;
      rule_out_layouts_by_keys(layouts, s.rest(), keyed);
      for (std::size_t k = 0; k < layouts.size(); ++k) {
        if (!keyed[k]) continue;
        s.seek(start);
        raw_.resize(mark);
        try {
          parse_layout_value(*layouts[k], s, context_, raw_);
          return;
        } catch (const SyntaxError&) {
          // Said below, where every layout is tried for the error that reads furthest.
        }
      }
    }
    std::optional<SyntaxError> best;
    for (std::size_t k = 0; k < layouts.size(); ++k) {
      const FieldLayout* layout = layouts[k];
      if (!holds.empty() && !holds[k]) continue;
      s.seek(start);
      raw_.resize(mark);
      try {
        parse_layout_value(*layout, s, context_, raw_);
        return;
      } catch (const SyntaxError& e) {
        if (!best || e.column() > best->column()) best = e;
      }
    }
    if (!best) s.fail(fmt::format("no layout of {} holds here (its conditions: see the layout table)", field.str()));
    throw *best;
  }

  // The lines of an inline script source up to its closing '}' (record_text_writer.cpp): each
  // after '|' (ending with the block's line break, CR LF with `crlf`, else LF) or ':' (ending with
  // the other one), as written (blanks and all; only a CR that a CR LF text file adds is dropped);
  // the last line ends the source. Blank and '#' lines between them are ignored.
  std::string source_lines(const LineScanner& opening, bool crlf) {
    std::string source;
    std::string_view pending_break;  // after the line before
    while (!lines_.done()) {
      const std::string_view raw = lines_.take();
      std::string_view line = raw;
      while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
      if (trim_line(line) == "}") return source;
      if (trim_line(line).empty() || line.front() == '#') continue;
      if (line.front() != '|' && line.front() != ':') {
        LineScanner s(raw, lines_.number());
        s.skip_blanks();
        s.fail("expected a line of the script after '|' (or ':'), or '}' to close the script");
      }
      const bool other_break = line.front() == ':';
      line.remove_prefix(1);
      if (line.ends_with('\r')) line.remove_suffix(1);
      source += pending_break;
      pending_break = crlf != other_break ? "\r\n" : "\n";
      try {
        source += options_.codec->from_utf8(line);
      } catch (const Error&) {
        throw SyntaxError(lines_.number(), std::uint32_t(line.data() - raw.data()) + 1,
                          fmt::format("a character that {} cannot store, or not UTF-8", options_.codec->code_page()));
      }
    }
    throw SyntaxError(opening.line_number(), 1, "the script's lines are not closed: expected a line with '}'");
  }

  std::vector<std::uint8_t> script_file(LineScanner& s, const RecordHeader& h, std::size_t index) {
    const std::size_t file_at = s.position();
    const std::string file = s.quoted_string(*options_.codec);
    s.expect_key("crc32");
    const auto crc = parse_uint("0x" + std::string(s.word()));
    if (!crc || *crc > 0xFFFFFFFF) s.fail("expected crc32= and 8 hex digits");
    const bool crlf = s.accept_word("crlf");
    s.expect_end();
    if (!options_.scripts) s.fail_at(file_at, "script files can only be read from an exported folder");
    const auto text = options_.scripts->load(file);
    if (!text) s.fail_at(file_at, fmt::format("the script source '{}' is missing", file));
    std::string stored;
    try {
      stored = options_.codec->from_utf8(*text);
    } catch (const Error&) {
      s.fail_at(file_at, fmt::format("'{}' has a character that {} cannot store, or is not UTF-8", file,
                                     options_.codec->code_page()));
    }
    auto crc_of = [](std::string_view b) { return libdeflate_crc32(0, b.data(), b.size()); };
    if (crc_of(stored) == *crc) return {stored.begin(), stored.end()};
    // Line breaks turned into LF (by git or an editor) are not an edit.
    if (crlf && all_crlf_free_of_lone_cr(stored)) stored = to_crlf(stored);
    if (crc_of(stored) == *crc) return {stored.begin(), stored.end()};
    result_.changed_scripts.push_back({h.type, h.form_id, index, stored, file});
    return {stored.begin(), stored.end()};
  }

  Lines lines_;
  const RecordTextOptions& options_;
  std::vector<std::uint8_t>& out_;
  std::size_t header_size_;
  FieldTextContext context_;
  std::vector<OpenGroup> open_groups_;
  EntriesRead result_;
  std::optional<Inflater> inflater_;  // made for a compressed record only: making one costs a table
  std::vector<std::uint8_t> raw_;  // the record's fields, encoded
  struct ReadField {
    Signature type;
    std::size_t offset, size;  // of its data in raw_
  };
  std::vector<ReadField> read_fields_;  // the record's fields read so far, for layout conditions
  std::size_t field_start_ = 0;
  std::size_t next_layout_line_ = 0;  // in options_.layout_lines: those before it are behind
  bool prefix_ = false;  // the next field has an XXXX prefix (from an XXXX line or an oversize Field)
  std::uint16_t prefix_size_ = 0;
};

}  // namespace

EntriesRead read_entries_text(std::string_view text, const RecordTextOptions& options, std::vector<std::uint8_t>& out) {
  return EntriesReader(text, options, out).read();
}

}  // namespace tesmod::text

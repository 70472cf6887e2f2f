// Records as text: the header line, then each field by what it is (condition, VMAD, package,
// script source, a layout from the tables, or hex).
#include <fmt/format.h>

#include <libdeflate.h>

#include <optional>

#include "record_text_common.hpp"
#include "tesmod/fields/condition.hpp"
#include "tesmod/fields/package_codec.hpp"
#include "tesmod/fields/package_oblivion.hpp"
#include "tesmod/fields/vmad.hpp"
#include "tesmod/io/base64.hpp"
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

using detail::append_signature;

void indent_to(std::string& out, int indent) { out.append(std::size_t(indent), ' '); }

// Appends each line of block indented.
void append_block_lines(std::string& out, std::string_view block, int indent) {
  std::size_t pos = 0;
  while (pos < block.size()) {
    std::size_t end = block.find('\n', pos);
    if (end == std::string_view::npos) end = block.size();
    const std::string_view line = block.substr(pos, end - pos);
    if (!line.empty()) indent_to(out, indent);
    out += line;
    out += '\n';
    pos = end + 1;
  }
}

std::string_view as_chars(std::span<const std::uint8_t> data) {
  return {reinterpret_cast<const char*>(data.data()), data.size()};
}

Field to_field(const SubrecordView& v) { return Field::from_view(v); }

// Whether the writer gives this field the same size prefix by itself.
bool natural_prefix(const SubrecordView& v) {
  const bool needs = v.data.size() > 0xFFFF;
  return v.oversize == needs && (!v.oversize || v.stored_size == 0);
}

// Drops the notes (RecordTextOptions::layout_lines) of lines at or after `at`: text written over.
void forget_layout_lines_from(std::vector<LayoutLine>* lines, std::size_t at) {
  if (lines)
    while (!lines->empty() && lines->back().offset >= at) lines->pop_back();
}

class RecordWriter {
 public:
  RecordWriter(std::string& out, const RecordHeader& header, const RecordTextOptions& options, int indent)
      : out_(out), header_(header), options_(options), field_indent_(indent + 2) {
    context_.namer = options.namer;
    context_.codec = options.codec;
    context_.localized = options.localized;
    if (options.string_text) {
      context_.string_text = [this](Signature field, std::uint32_t id) {
        return options_.string_text(header_.type, field, id);
      };
    }
  }

  void fields(std::span<const SubrecordView> fields) {
    fields_ = fields;
    const bool skyrim = options_.game != Game::Oblivion;
    std::size_t package_start = fields.size();
    if (options_.typed && header_.type == Signature("PACK")) {
      std::vector<Field> owned;
      owned.reserve(fields.size());
      for (const SubrecordView& v : fields) owned.push_back(to_field(v));
      package_start = package_block_start(owned);
      if (package_start < fields.size() && !package_block(std::span<const Field>(owned).subspan(package_start)))
        package_start = fields.size();
    }
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (i == package_start) {
        out_ += package_text_;
        counts_.fields += fields.size() - i;
        counts_.typed_fields += fields.size() - i;
        return;
      }
      const SubrecordView& v = fields[i];
      if (!natural_prefix(v)) prefix_line(v);
      if (options_.typed) {
        if (v.type == fields::kCTDA || v.type == fields::kCTDT) {
          if (const std::size_t used = condition(i)) {
            i += used - 1;
            counts_.fields += used;
            counts_.typed_fields += used;
            continue;
          }
        } else if (skyrim && v.type == Signature("VMAD")) {
          if (vmad(v)) {
            ++counts_.fields;
            ++counts_.typed_fields;
            continue;
          }
        }
      }
      if (!skyrim && v.type == Signature("SCDA")) {
        plain_field(v, i, nullptr);
        ++counts_.compiled_scripts;
        continue;
      }
      ++counts_.fields;
      if (!skyrim && v.type == Signature("SCTX") && script_source(v)) {
        ++counts_.typed_fields;
        continue;
      }
      // A field shown by a layout of raw bytes alone is hex by another name: not typed.
      const FieldLayout* used = nullptr;
      if (plain_field(v, i, &used) && !(used && used->raw)) ++counts_.typed_fields;
      else counts_.add_hex(header_.type, v.type);
    }
  }

  const TextCoverage& counts() const { return counts_; }

  bool structured() const { return structured_; }

 private:
  void line_start() { indent_to(out_, field_indent_); }

  void prefix_line(const SubrecordView& v) {
    line_start();
    out_ += "XXXX";
    if (v.stored_size) fmt::format_to(std::back_inserter(out_), " stored-size={}", v.stored_size);
    out_ += '\n';
  }

  // One field by the first of its layouts that holds there and whose text reads back; hex
  // otherwise. Returns whether a layout was used, and which in `used` (an empty field has
  // nothing to type: true, with no layout).
  bool plain_field(const SubrecordView& v, std::size_t index, const FieldLayout** used) {
    const std::size_t line_at = out_.size();
    line_start();
    append_signature(out_, v.type);
    if (v.data.empty()) {
      out_ += '\n';
      return true;
    }
    if (options_.typed) {
      const LayoutTable& table = layout_table(options_.game);
      const auto layouts = table.find(header_.type, v.type);
      const bool conditional = !layouts.empty() && table.has_conditions(header_.type);
      for (const FieldLayout* layout : layouts) {
        if (!layout->conditions.empty() && !table.applies(*layout, v.data, site(index, false))) continue;
        const std::size_t mark = out_.size();
        out_ += ' ';
        if (append_layout_value(out_, *layout, v.data, context_)) {
          // A layout reads its own text back (render and parse are each other's inverse); with
          // several, no earlier one the reader would try may read it otherwise.
          if (layout == layouts.front() ||
              reads_back(layouts, layout, std::string_view(out_).substr(mark + 1), v.data, conditional ? index : kNoSite)) {
            out_ += '\n';
            if (used) *used = layout;
            note_layout_line(line_at, v);
            return true;
          }
        }
        out_.resize(mark);
      }
    }
    out_ += " hex ";
    append_hex(out_, v.data);
    out_ += '\n';
    return false;
  }

  static constexpr std::size_t kNoSite = std::size_t(-1);

  void note_layout_line(std::size_t at, const SubrecordView& v) {
    if (!options_.layout_lines) return;
    forget_layout_lines_from(options_.layout_lines, at);
    options_.layout_lines->push_back({at, v.type, v.data});
  }

  // The record around field `index` for the layouts' conditions (as the reader of the text sees
  // it with reading_text).
  fields::FieldSite site(std::size_t index, bool reading_text) {
    if (refs_.size() != fields_.size()) {
      refs_.clear();
      for (const SubrecordView& f : fields_) refs_.push_back({f.type, f.data});
    }
    fields::FieldSite s;
    s.record_type = header_.type;
    s.form_version = header_.form_version;
    s.earlier = std::span<const fields::FieldRef>(refs_).first(index);
    s.localized = options_.localized;
    s.record_type_of = options_.record_type_of;
    s.reading_text = reading_text;
    return s;
  }

  // Whether the reader, trying the layouts before `chosen` (those it finds holding), reads value
  // as data: none of them parses it, or one that does gives the same bytes.
  bool reads_back(std::span<const FieldLayout* const> layouts, const FieldLayout* chosen, std::string_view value,
                  std::span<const std::uint8_t> data, std::size_t index) {
    const LayoutTable& table = layout_table(options_.game);
    // A layout the text's keys rule out cannot read it (and trying costs an exception).
    std::vector<char> keyed(layouts.size(), 1);
    rule_out_layouts_by_keys(layouts, value, keyed);
    for (std::size_t k = 0; k < layouts.size(); ++k) {
      const FieldLayout* layout = layouts[k];
      if (layout == chosen) return true;
      if (!keyed[k]) continue;
      if (index != kNoSite && !layout->conditions.empty() && !table.applies(*layout, data, site(index, true))) continue;
      try {
        LineScanner line(value, 1);
        return std::ranges::equal(parse_layout_value(*layout, line, context_), data);
      } catch (const SyntaxError&) {
      }
    }
    return true;
  }

  // A condition and the CIS1/CIS2 after it as one line; the number of fields used (0: none).
  std::size_t condition(std::size_t i) {
    std::vector<Field> parts{to_field(fields_[i])};
    if (i + 1 < fields_.size() && fields_[i + 1].type == fields::kCIS1) parts.push_back(to_field(fields_[i + 1]));
    if (i + parts.size() < fields_.size() && fields_[i + parts.size()].type == fields::kCIS2)
      parts.push_back(to_field(fields_[i + parts.size()]));
    try {
      const fields::Condition c = fields::decode_condition_fields(options_.game, parts, ErrorContext{});
      if (fields::encode_condition(c) != parts) return 0;
      const std::string text = render_condition(c, *options_.namer);
      line_start();
      append_signature(out_, parts[0].type);
      out_ += ' ';
      out_ += text;
      out_ += '\n';
      structured_ = true;
      return parts.size();
    } catch (const std::exception&) {
      return 0;
    }
  }

  bool vmad(const SubrecordView& v) {
    try {
      const fields::Vmad model = fields::decode_vmad(v.data, header_.type, ErrorContext{});
      if (!std::ranges::equal(fields::encode_vmad(model), v.data)) return false;
      const BlockTextOptions block{options_.namer, options_.codec, options_.game};
      const std::string text = vmad_block_text(model, block);
      line_start();
      out_ += "VMAD {\n";
      append_block_lines(out_, text, field_indent_ + 2);
      line_start();
      out_ += "}\n";
      structured_ = true;
      return true;
    } catch (const std::exception&) {
      return false;
    }
  }

  // Renders the package block into package_text_ when the fields decode and encode exactly.
  bool package_block(std::span<const Field> rest) {
    try {
      const BlockTextOptions block{options_.namer, options_.codec, options_.game};
      std::string text;
      if (options_.game == Game::Oblivion) {
        const auto model = fields::decode_oblivion_package(rest, ErrorContext{});
        if (fields::encode_oblivion_package(model) != std::vector<Field>(rest.begin(), rest.end())) return false;
        text = oblivion_package_block_text(model, block);
      } else {
        const auto model = fields::decode_package(rest, ErrorContext{});
        if (fields::encode_package(model) != std::vector<Field>(rest.begin(), rest.end())) return false;
        text = package_block_text(model, block);
      }
      std::string& out = package_text_;
      indent_to(out, field_indent_);
      out += "package {\n";
      append_block_lines(out, text, field_indent_ + 2);
      indent_to(out, field_indent_);
      out += "}\n";
      structured_ = true;
      return true;
    } catch (const std::exception&) {
      return false;
    }
  }

  // The source as UTF-8 when the code page carries it there and back exactly, else nullopt.
  std::optional<std::string> exact_utf8(std::string_view source) const {
    try {
      std::string utf8 = options_.codec->to_utf8(source);
      if (options_.codec->from_utf8(utf8) == source) return utf8;
    } catch (const std::exception&) {
    }
    return std::nullopt;
  }

  // An Oblivion script's source, to its own file when the caller keeps them.
  bool script_source(const SubrecordView& v) {
    const std::size_t index = script_index_++;
    const std::string_view source = as_chars(v.data);
    if (!options_.scripts) {
      if (source_lines(source)) return true;
      line_start();
      out_ += "SCTX ";
      append_quoted(out_, source, *options_.codec);
      out_ += '\n';
      return true;
    }
    // Only sources a text file can carry exactly go to a file.
    if (!exact_utf8(source)) return false;
    for (unsigned char c : source)
      if (c == 0) return false;
    std::string editor_id;
    for (const SubrecordView& f : fields_)
      if (f.type == Signature("EDID") && !f.data.empty() && f.data.back() == 0) editor_id.assign(as_chars(f.data.first(f.data.size() - 1)));
    structured_ = true;
    const std::string file = options_.scripts->store(header_, editor_id, index, source);
    const std::uint32_t crc = libdeflate_crc32(0, source.data(), source.size());
    line_start();
    out_ += "SCTX file ";
    append_quoted(out_, file, *options_.codec);
    fmt::format_to(std::back_inserter(out_), " crc32={:08X}", crc);
    if (all_crlf(source)) out_ += " crlf";
    out_ += '\n';
    return true;
  }

  // A source inline as a block of lines, each after '|', so that a changed line of the script is
  // a changed line of the text (git diff through tesmod export --stdout):
  //   SCTX crlf {
  //     |scn MyScript
  //     |
  //   }
  // `crlf`: lines end with CR LF, else with LF; a line that ends with the other break (sources the
  // Construction Set Extender added to keep LF in a CR LF script) is written after ':' instead of
  // '|'. A source that ends with a line break ends with an empty line. Sources a block cannot
  // carry exactly (lone CRs, control characters, bytes the code page cannot show) stay one
  // quoted line.
  bool source_lines(std::string_view source) {
    if (source.empty()) return false;
    const std::optional<std::string> utf8 = exact_utf8(source);
    if (!utf8) return false;
    std::size_t crlf_breaks = 0, lf_breaks = 0;
    for (std::size_t i = 0; i < source.size(); ++i) {
      const unsigned char c = static_cast<unsigned char>(source[i]);
      if (c == '\n') ++(i > 0 && source[i - 1] == '\r' ? crlf_breaks : lf_breaks);
      else if (c == '\r' && (i + 1 >= source.size() || source[i + 1] != '\n')) return false;
      else if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7F) return false;
    }
    const bool crlf = crlf_breaks > 0 && crlf_breaks >= lf_breaks;
    line_start();
    out_ += crlf ? "SCTX crlf {\n" : "SCTX {\n";
    std::size_t pos = 0;
    while (true) {
      std::size_t end = utf8->find('\n', pos);
      const bool last = end == std::string::npos;
      if (last) end = utf8->size();
      std::string_view line = std::string_view(*utf8).substr(pos, end - pos);
      const bool ends_crlf = !last && line.ends_with('\r');
      if (ends_crlf) line.remove_suffix(1);
      indent_to(out_, field_indent_ + 2);
      out_ += last || ends_crlf == crlf ? '|' : ':';
      out_ += line;
      out_ += '\n';
      if (last) break;
      pos = end + 1;
    }
    line_start();
    out_ += "}\n";
    structured_ = true;
    return true;
  }

  // Every line break is CR LF (so an editor or git that turns them into LF changes nothing).
  static bool all_crlf(std::string_view s) {
    bool any = false;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '\n' && (i == 0 || s[i - 1] != '\r')) return false;
      if (s[i] == '\r' && (i + 1 >= s.size() || s[i + 1] != '\n')) return false;
      if (s[i] == '\n') any = true;
    }
    return any;
  }

  std::string& out_;
  const RecordHeader& header_;
  const RecordTextOptions& options_;
  FieldTextContext context_;
  int field_indent_;
  std::span<const SubrecordView> fields_;
  std::vector<fields::FieldRef> refs_;  // fields_ for conditions, made when first needed
  TextCoverage counts_;
  std::size_t script_index_ = 0;
  std::string package_text_;
  bool structured_ = false;
};

}  // namespace

namespace {

// The header line; fields (when they read) choose among the record type's flag names.
void append_header_line(std::string& out, const RecordHeader& h, const RecordTextOptions& options, int indent,
                        std::span<const SubrecordView> fields) {
  indent_to(out, indent);
  out += "record ";
  append_signature(out, h.type);
  out += ' ';
  append_hex_digits(out, h.form_id, 8);
  bool named = true;
  if (h.flags) {
    out += " flags=";
    if (fields::layout_table(options.game).header_flags_depend_on_fields(h.type)) {
      std::vector<fields::FieldRef> refs;
      refs.reserve(fields.size());
      for (const SubrecordView& f : fields) refs.push_back({f.type, f.data});
      fields::FieldSite site;
      site.record_type = h.type;
      site.form_version = h.form_version;
      site.earlier = refs;
      site.localized = options.localized;
      site.record_type_of = options.record_type_of;
      named = detail::append_record_flags(out, options.game, h.type, h.flags, &site);
    } else {
      named = detail::append_record_flags(out, options.game, h.type, h.flags);
    }
  }
  if (options.coverage) {
    ++options.coverage->records;
    if (!named) ++options.coverage->unnamed_flags;
  }
  if (h.version_control) {
    out += " vc=0x";
    append_hex_digits(out, h.version_control, 8);
  }
  if (options.game != Game::Oblivion) {
    if (h.form_version != options.default_form_version) fmt::format_to(std::back_inserter(out), " form-version={}", h.form_version);
    if (h.version_control_2) fmt::format_to(std::back_inserter(out), " vc2={}", h.version_control_2);
  }
  out += '\n';
}

}  // namespace

void append_record_header_line(std::string& out, const RecordHeader& h, const RecordTextOptions& options, int indent) {
  append_header_line(out, h, options, indent, {});
}

namespace {

// The fields as text; a renderer that fails on odd bytes leaves the record to the plainest text.
// Returns whether any field was written as a structure.
bool append_fields_or_plain(std::string& out, const RecordHeader& header, const std::vector<SubrecordView>& views,
                            const RecordTextOptions& options, int indent) {
  const std::size_t mark = out.size();
  const auto done = [&](const RecordWriter& writer) {
    if (options.coverage) options.coverage->add(writer.counts());
    return writer.structured();
  };
  try {
    RecordWriter writer(out, header, options, indent);
    writer.fields(views);
    return done(writer);
  } catch (const std::exception&) {
    out.resize(mark);
    forget_layout_lines_from(options.layout_lines, mark);
    RecordTextOptions plain = options;
    plain.typed = false;
    RecordWriter writer(out, header, plain, indent);
    writer.fields(views);
    return done(writer);
  }
}

}  // namespace

void append_fields_text(std::string& out, const RecordHeader& header, std::span<const SubrecordView> fields,
                        const RecordTextOptions& options, int indent) {
  append_fields_or_plain(out, header, std::vector<SubrecordView>(fields.begin(), fields.end()), options, indent);
}

bool append_record_text(std::string& out, const RecordHeader& header, std::span<const std::uint8_t> stored_body,
                        const RecordTextOptions& options, Inflater& inflater, int indent) {
  const bool compressed = (header.flags & detail::kCompressedFlag) != 0;
  const ErrorContext where{"(record text)", Error::kNoOffset, std::nullopt};
  // Kept from record to record (a vector each was one of the most frequent allocations of an
  // export); nothing this calls writes another record's text.
  thread_local std::vector<SubrecordView> views;
  views.clear();
  bool read = false;
  try {
    const std::span<const std::uint8_t> body = compressed ? inflate_record_body(stored_body, inflater, where) : stored_body;
    SubrecordCursor cursor(body, where);
    for (SubrecordView v; cursor.next(v);) views.push_back(v);
    read = true;
  } catch (const Error&) {
    views.clear();  // the header line then names no base record
  }
  append_header_line(out, header, options, indent, views);
  if (!read) {
    // Fields that do not read (or a stream that does not inflate): the stored bytes as they are.
    indent_to(out, indent + 2);
    out += "stored-body ";
    append_hex(out, stored_body);
    out += '\n';
    if (options.coverage) ++options.coverage->fields;  // the body counts as one field, untyped
    return false;
  }
  const bool structured = append_fields_or_plain(out, header, views, options, indent);
  if (compressed) {
    indent_to(out, indent + 2);
    out += "zlib-stored ";
    append_base64(out, stored_body);
    out += '\n';
  }
  return structured;
}

void append_group_open(std::string& out, const GroupHeader& header, Game game, const FormNamer& namer, int indent) {
  indent_to(out, indent);
  detail::append_group_header(out, header, game, namer);
  out += " {\n";
}

void append_group_close(std::string& out, int indent) {
  indent_to(out, indent);
  out += "}\n";
}

}  // namespace tesmod::text

namespace tesmod::text {

void TextCoverage::add_hex(Signature record, Signature field) {
  for (auto& [key, count] : hex_fields)
    if (key.first == record && key.second == field) {
      ++count;
      return;
    }
  hex_fields.push_back({{record, field}, 1});
}

void TextCoverage::add(const TextCoverage& other) {
  fields += other.fields;
  typed_fields += other.typed_fields;
  records += other.records;
  unnamed_flags += other.unnamed_flags;
  compiled_scripts += other.compiled_scripts;
  for (const auto& [key, count] : other.hex_fields) {
    bool found = false;
    for (auto& [k, c] : hex_fields)
      if (k == key) {
        c += count;
        found = true;
      }
    if (!found) hex_fields.push_back({key, count});
  }
}

}  // namespace tesmod::text

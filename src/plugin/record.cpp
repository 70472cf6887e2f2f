#include <fmt/format.h>

#include "tesmod/plugin/compressed_body.hpp"
#include "tesmod/plugin/plugin.hpp"
#include "tesmod/plugin/record_flags.hpp"

namespace tesmod {

// The decoded side of a record: its fields once read, and the bytes they encode to.
struct Record::Edit {
  std::vector<Field> fields;
  bool modified = false;
  bool encoded_valid = false;
  std::vector<std::uint8_t> encoded;
};

Record::Record(Signature type, std::uint32_t form_id, std::vector<Field> fields, std::uint32_t flags) {
  header_.type = type;
  header_.form_id = form_id;
  header_.flags = flags;
  edit_ = std::make_unique<Edit>();
  edit_->fields = std::move(fields);
  edit_->modified = true;
}

Record::Record(const RecordHeader& header, std::span<const std::uint8_t> stored, const FileBytes* source,
               std::uint8_t header_size)
    : header_(header), stored_(stored), source_(source), header_size_(header_size) {}

Record::Record(Record&&) noexcept = default;
Record& Record::operator=(Record&&) noexcept = default;
Record::~Record() = default;

Record Record::clone() const {
  Record copy(header_.type, header_.form_id, fields(), header_.flags);
  copy.header_ = header_;
  return copy;
}

bool Record::is_compressed() const { return (header_.flags & record_flags::kCompressed) && header_.type != kHeaderRecord; }

std::optional<std::uint64_t> Record::source_offset() const {
  if (!source_) return std::nullopt;
  // The header sits right before the stored body.
  return std::uint64_t(stored_.data() - source_->data()) - header_size_;
}

ErrorContext Record::context() const {
  ErrorContext ctx;
  ctx.file = source_ ? source_->name() : std::string("(new record)");
  if (auto off = source_offset()) ctx.offset = *off;
  ctx.record = RecordRef{header_.type, header_.form_id, {}};
  if (edit_) {
    for (const Field& f : edit_->fields)
      if (f.type == Signature("EDID")) ctx.record->editor_id = f.as_zstring();
  } else if (!is_compressed()) {
    ctx.record->editor_id = find_editor_id(stored_).value_or(std::string());
  }
  return ctx;
}

Record::Edit& Record::edit() const {
  if (edit_) return *edit_;
  auto e = std::make_unique<Edit>();
  // A plain context while decoding; the full one (with the EditorID) only if decoding fails.
  ErrorContext ctx{source_ ? source_->name() : std::string(), source_offset().value_or(Error::kNoOffset),
                   RecordRef{header_.type, header_.form_id, {}}};
  try {
    std::span<const std::uint8_t> body = stored_;
    std::optional<Inflater> inflater;
    // Errors in stored fields point into the file; in inflated ones, into the inflated data.
    std::uint64_t body_offset = ctx.offset == Error::kNoOffset ? ctx.offset : ctx.offset + header_size_;
    if (is_compressed()) {
      body = inflate_record_body(body, inflater.emplace(), ctx);
      body_offset = Error::kNoOffset;
    }
    SubrecordCursor cursor(body, ctx, body_offset);
    SubrecordView v;
    while (cursor.next(v)) e->fields.push_back(Field::from_view(v));
  } catch (const Error& error) {
    throw Error(error.file(), error.offset(), context().record, error.detail());
  }
  edit_ = std::move(e);
  return *edit_;
}

const std::vector<Field>& Record::fields() const { return edit().fields; }

std::vector<Field>& Record::edit_fields() {
  Edit& e = edit();
  e.modified = true;
  e.encoded_valid = false;
  return e.fields;
}

bool Record::body_modified() const { return edit_ && edit_->modified; }

void Record::set_flags(std::uint32_t flags) {
  if ((flags ^ header_.flags) & record_flags::kCompressed) edit_fields();  // decode with the old flag first
  header_.flags = flags;
  if (edit_) edit_->encoded_valid = false;
}

const Field* Record::find(Signature type) const {
  for (const Field& f : fields())
    if (f.type == type) return &f;
  return nullptr;
}

void Record::set(Field field) {
  auto& fs = edit_fields();
  for (Field& f : fs) {
    if (f.type == field.type) {
      f = std::move(field);
      return;
    }
  }
  fs.push_back(std::move(field));
}

std::size_t Record::remove(Signature type) {
  auto& fs = edit_fields();
  const std::size_t before = fs.size();
  std::erase_if(fs, [&](const Field& f) { return f.type == type; });
  return before - fs.size();
}

std::optional<std::string> Record::editor_id() const {
  if (const Field* f = find(Signature("EDID"))) return f->as_zstring();
  return std::nullopt;
}

std::span<const std::uint8_t> Record::encoded_body() const {
  if (!body_modified()) return stored_;
  Edit& e = *edit_;
  if (!e.encoded_valid) {
    std::vector<std::uint8_t> raw;
    encode_fields(e.fields, raw);
    e.encoded = is_compressed() ? compress_record_body(raw) : std::move(raw);
    e.encoded_valid = true;
  }
  return e.encoded;
}

}  // namespace tesmod

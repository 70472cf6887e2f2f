// A plugin as an editable document: a tree of groups and records. Records read from a file stay
// views of its bytes until they are edited; the writer copies unedited records verbatim, so an
// unchanged plugin is written back byte for byte, and re-encodes (and re-compresses) only what
// changed.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "tesmod/io/byte_sink.hpp"
#include "tesmod/io/file_bytes.hpp"
#include "tesmod/plugin/field.hpp"
#include "tesmod/plugin/file_header.hpp"
#include "tesmod/plugin/plugin_file.hpp"
#include "tesmod/plugin/record_header.hpp"

namespace tesmod {

class Record {
 public:
  // A new record. Its header's data_size is computed when written.
  Record(Signature type, std::uint32_t form_id, std::vector<Field> fields = {}, std::uint32_t flags = 0);
  // A record that is a view of stored bytes in source (kept alive by the owning Plugin); the
  // stored header of header_size bytes precedes them.
  Record(const RecordHeader& header, std::span<const std::uint8_t> stored, const FileBytes* source,
         std::uint8_t header_size);

  Record(Record&&) noexcept;
  Record& operator=(Record&&) noexcept;
  ~Record();

  // A copy that owns its fields, independent of the source file.
  Record clone() const;

  const RecordHeader& header() const { return header_; }
  Signature type() const { return header_.type; }
  std::uint32_t form_id() const { return header_.form_id; }
  std::uint32_t flags() const { return header_.flags; }
  bool is_compressed() const;

  void set_form_id(std::uint32_t form_id) { header_.form_id = form_id; }
  // Setting or clearing the compressed flag re-encodes the body accordingly.
  void set_flags(std::uint32_t flags);
  void set_version_control(std::uint32_t vc, std::uint16_t vc2 = 0) {
    header_.version_control = vc;
    header_.version_control_2 = vc2;
  }
  void set_form_version(std::uint16_t v) { header_.form_version = v; }

  // The fields, decoded on first use (compressed records are inflated). Raises tesmod::Error
  // when the stored bytes are malformed.
  const std::vector<Field>& fields() const;
  // The fields for editing: the record will be re-encoded when written.
  std::vector<Field>& edit_fields();
  // True once the body has been handed out for editing (or was never stored).
  bool body_modified() const;

  const Field* find(Signature type) const;
  // Replaces the first field of this type, or appends one.
  void set(Field field);
  // Removes every field of this type; returns how many.
  std::size_t remove(Signature type);
  std::optional<std::string> editor_id() const;

  // The body as it will be written: the stored bytes when unmodified, else the fields encoded
  // (and compressed when flagged). Valid until the next edit.
  std::span<const std::uint8_t> encoded_body() const;
  // File offset of the stored record header, when the record came from a file.
  std::optional<std::uint64_t> source_offset() const;
  ErrorContext context() const;

 private:
  struct Edit;
  Edit& edit() const;
  RecordHeader header_;
  std::span<const std::uint8_t> stored_;
  const FileBytes* source_ = nullptr;
  std::uint8_t header_size_ = 0;
  mutable std::unique_ptr<Edit> edit_;
};

class Node;

class Group {
 public:
  // Defined where Node is complete: a vector of an incomplete type cannot be destroyed inline.
  Group();
  explicit Group(const GroupHeader& header);
  Group(Group&&) noexcept;
  Group& operator=(Group&&) noexcept;
  ~Group();
  static Group top(Signature record_type);

  GroupHeader header;  // size is computed when written
  std::vector<Node> children;

  std::int32_t type() const { return header.type; }
  std::uint32_t label() const { return header.label; }
};

class Node {
 public:
  Node(Record r) : v_(std::move(r)) {}  // NOLINT(google-explicit-constructor)
  Node(Group g) : v_(std::move(g)) {}   // NOLINT(google-explicit-constructor)
  bool is_group() const { return std::holds_alternative<Group>(v_); }
  bool is_record() const { return std::holds_alternative<Record>(v_); }
  Group& group() { return std::get<Group>(v_); }
  const Group& group() const { return std::get<Group>(v_); }
  Record& record() { return std::get<Record>(v_); }
  const Record& record() const { return std::get<Record>(v_); }

 private:
  std::variant<Record, Group> v_;
};

class Plugin {
 public:
  // A new, empty plugin.
  static Plugin create(Game game, std::string name = "new plugin");
  static Plugin open(const std::filesystem::path& path, const OpenOptions& options = {});
  static Plugin from_file(const PluginFile& file);

  Plugin(Plugin&&) noexcept = default;
  Plugin& operator=(Plugin&&) noexcept = default;

  Game game() const { return game_; }
  const std::string& name() const { return name_; }

  // The TES4 record and its decoded form.
  Record& header_record() { return header_; }
  const Record& header_record() const { return header_; }
  FileHeader header() const;

  void set_author(std::string_view text);
  void set_description(std::string_view text);
  void set_header_flags(std::uint32_t flags) { header_.set_flags(flags); }
  void rename_master(std::size_t index, std::string_view name);
  // Replaces the master list. old_to_new maps each old master index (and, last, the plugin's
  // own index) to its new index; it is applied to record FormIDs and FormID group labels.
  // FormIDs inside fields are not remapped here: that needs the typed field layer.
  void set_masters(const std::vector<MasterFile>& masters, std::span<const std::uint32_t> old_to_new);

  std::vector<Node>& top() { return top_; }
  const std::vector<Node>& top() const { return top_; }

  // The first record with this FormID, anywhere in the tree.
  Record* find(std::uint32_t form_id);
  const Record* find(std::uint32_t form_id) const;
  // The top-level group for a record type, created at the end if missing.
  Group& top_group(Signature record_type);
  // Appends a record to the top-level group of its type (for records that live there, not
  // cell, world or topic children).
  Record& add(Record record);
  // Removes the first record with this FormID; returns false when there is none.
  bool remove(std::uint32_t form_id);
  // A FormID for a new record: this plugin's index and the header's next object id, which is
  // advanced.
  std::uint32_t allocate_form_id();

  // Groups plus records, the TES4 record excluded: what HEDR counts.
  std::uint64_t count_items() const;

  // Serializes the plugin. The HEDR record count is set to count_items() unless the file was
  // loaded with a wrong count and its number of items has not changed (so that an unchanged
  // file stays byte-identical).
  void write(ByteSink& sink);
  std::vector<std::uint8_t> serialize();
  // Writes atomically to path.
  void save(const std::filesystem::path& path);

 private:
  Plugin() = default;
  void update_record_count();
  Game game_ = Game::Oblivion;
  std::string name_;
  std::shared_ptr<const FileBytes> source_;
  Record header_{Signature("TES4"), 0};
  std::vector<Node> top_;
  std::uint64_t loaded_items_ = 0;
  bool loaded_count_was_right_ = true;
};

}  // namespace tesmod

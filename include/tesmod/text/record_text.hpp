// Records and groups as editable text, and back to their bytes: the unit `tesmod export` writes
// into files and `tesmod import` reads. A record is a header line, then one line per field in
// stored order (blocks for VMAD and packages):
//
//   record WEAP 00012EB7 flags=Persistent|0x200 vc=0x0012AB34
//     EDID "IronSword"
//     DATA value=25 weight=9.0 damage=7
//     CTDA GetIsID(IronSword) == 1.0 OR
//     VMAD {
//       script MyScript
//         int Count = 3
//     }
//     zlib-stored eJzT0yMAAGTvBe8=
//
// A group is `group TYPE LABEL [stamp=..] [unknown=..] {`, its records and groups, and `}`.
// Fields follow their layout (text/field_text.hpp) or are hex (`DNAM hex 0A1B`); an `XXXX` line
// gives the next field a size prefix the writer would not add itself; `zlib-stored` carries a
// compressed record's stored bytes, written back while the fields still inflate from them;
// `stored-body` holds a record whose fields do not read, as stored. Oblivion script sources
// (SCTX) live in their own files (`SCTX file "MyScript.obl" crc32=...`) or inline, as a block
// of lines each after '|' (`SCTX crlf {` ... `}`; a quoted string when lines cannot carry it).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tesmod/io/text_encoding.hpp"
#include "tesmod/io/zlib_codec.hpp"
#include "tesmod/plugin/game.hpp"
#include "tesmod/plugin/record_header.hpp"
#include "tesmod/plugin/subrecord.hpp"
#include "tesmod/text/form_namer.hpp"
#include "tesmod/text/text_syntax.hpp"

namespace tesmod::text {

// Where Oblivion script sources go when records are written, and come from when read.
class ScriptFiles {
 public:
  virtual ~ScriptFiles() = default;
  // Export: keeps the source (stored code-page bytes) of the index-th script of a record and
  // returns the file name the record text refers to.
  virtual std::string store(const RecordHeader& record, std::string_view editor_id, std::size_t index,
                            std::string_view source) = 0;
  // Import: the contents of a referenced file (UTF-8 text), or nullopt when there is none.
  virtual std::optional<std::string> load(std::string_view file) = 0;
};

// What a text shows by meaning (verify --deep reports it): fields written by a layout or a
// structured block rather than as hex, and record headers whose flags hold a bit with no name.
struct TextCoverage {
  std::uint64_t fields = 0;
  std::uint64_t typed_fields = 0;
  std::uint64_t records = 0;
  std::uint64_t unnamed_flags = 0;  // records whose header flags hold a bit with no name
  // Oblivion SCDA: compiled bytecode, written as hex; its meaning is the SCTX source beside it (the
  // script compiler and decompiler, whose verify --deep checks compare the two). Counted apart, as
  // fields rendered by other code are, and not in `fields`.
  std::uint64_t compiled_scripts = 0;
  // The fields written as hex: (record type, field type) and how many.
  std::vector<std::pair<std::pair<Signature, Signature>, std::uint64_t>> hex_fields;

  void add_hex(Signature record, Signature field);
  void add(const TextCoverage& other);
};

// A field line a layout wrote, for the checked writer's read-back: where the line starts (in the
// string written to; in the text read back once append_record_text_checked moves it) and the
// field it came from.
struct LayoutLine {
  std::size_t offset = 0;
  Signature type;
  std::span<const std::uint8_t> data;
};

struct RecordTextOptions {
  Game game = Game::SkyrimSE;
  const FormNamer* namer = nullptr;  // required
  const TextCodec* codec = nullptr;  // required
  bool localized = false;            // the plugin's lstrings are string ids
  // The text of a localized string id, shown beside it (for reading only).
  std::function<std::optional<std::string>(Signature record, Signature field, std::uint32_t id)> string_text;
  ScriptFiles* scripts = nullptr;  // null: script sources are written inline
  std::uint16_t default_form_version = 0;  // Skyrim: records of this form version do not repeat it
  bool typed = true;  // false: every field as hex (the fallback when a typed text does not read back)
  // The record type of a FormID as stored in the plugin, when it is known (the layouts and header
  // flags that depend on what a FormID names). May be empty: those then take their generic form.
  std::function<std::optional<Signature>(std::uint32_t form_id)> record_type_of;
  // What record_type_of looks in, kept alive with the options: the function itself holds only
  // pointers, so that copying it (once a field, for the layouts' conditions) neither allocates
  // nor touches a reference count two threads share.
  std::shared_ptr<const void> record_types;
  TextCoverage* coverage = nullptr;  // counts what is written, when set (one per thread)
  // Set by append_record_text_checked alone, when check_plain is false. The writer notes each
  // field line a layout wrote; the reader takes that field's bytes for the line without parsing
  // it again. A layout's reading is its exact inverse (the writer checks which layout the
  // reader picks; the tests and `verify --deep` check the inverse), as for the plain records
  // that are then not read back at all; what the read-back checks is the structured forms and
  // how the lines group.
  std::vector<LayoutLine>* layout_lines = nullptr;
};

// Appends the text of one record (header line, fields; indent spaces before the header line and
// two more before each field). inflater is used for compressed records. Returns whether the
// text holds a structured form (a condition, VMAD or package block, a script source file):
// plain fields are written by layouts whose reading is their exact inverse, these are not.
bool append_record_text(std::string& out, const RecordHeader& header, std::span<const std::uint8_t> stored_body,
                        const RecordTextOptions& options, Inflater& inflater, int indent = 0);
// The field lines alone (no header line, no zlib-stored line) of fields already read, as
// append_record_text writes them (typed where it can, plain hex where a renderer fails).
void append_fields_text(std::string& out, const RecordHeader& header, std::span<const SubrecordView> fields,
                        const RecordTextOptions& options, int indent = 0);
// The record's first line alone (`record TYPE FORMID flags=...`), with its newline.
void append_record_header_line(std::string& out, const RecordHeader& header, const RecordTextOptions& options,
                               int indent = 0);
// The opening line of a group (`group TYPE LABEL ... {`), with its newline.
void append_group_open(std::string& out, const GroupHeader& header, Game game, const FormNamer& namer, int indent = 0);
void append_group_close(std::string& out, int indent = 0);

// How much of a record's meaning its text shows: typed fields and blocks; every field as hex;
// or the stored body as hex (fields that do not read).
enum class RecordTextForm : std::uint8_t { Typed, Hex, Stored };

// append_record_text in the most readable form whose text reads back (with these options) to
// exactly the record's bytes; the form used is returned. Scripts stored through options.scripts
// are read back from what was stored. With check_plain false, a text of plain fields only is
// trusted without reading it back (for masters, where reading every record back would double
// the time); structured forms are always read back, then with the lines of the plain fields
// beside them taken as the fields they were written from (RecordTextOptions::layout_lines).
RecordTextForm append_record_text_checked(std::string& out, const RecordHeader& header,
                                          std::span<const std::uint8_t> stored_body, const RecordTextOptions& options,
                                          Inflater& inflater, int indent = 0, bool check_plain = true);

// Whether text holds exactly this record (header and stored body); why it does not, otherwise.
bool record_text_reads_back(std::string_view text, const RecordHeader& header, std::span<const std::uint8_t> stored_body,
                            const RecordTextOptions& options, std::string* why = nullptr);

// A script whose source file changed since export: import compiles it once the plugin is built.
struct ChangedScript {
  Signature record_type;
  std::uint32_t form_id = 0;
  std::size_t index = 0;  // among the record's scripts
  std::string source;     // stored code-page bytes
  std::string file;       // the source file, for errors
};

struct EntriesRead {
  std::uint64_t records = 0;
  std::uint64_t groups = 0;
  std::vector<ChangedScript> changed_scripts;
};

// Reads the records and groups of a text (a file's contents) and appends their bytes, as a
// plugin stores them, to out. Raises SyntaxError with the line and column.
EntriesRead read_entries_text(std::string_view text, const RecordTextOptions& options, std::vector<std::uint8_t>& out);

}  // namespace tesmod::text

#include "tesmod/io/bsa_names.hpp"

#include <fmt/format.h>

#include <cstring>

#include "tesmod/error.hpp"
#include "tesmod/io/byte_reader.hpp"
#include "tesmod/io/counted.hpp"
#include "tesmod/io/file_bytes.hpp"

namespace tesmod {
namespace {

constexpr std::uint32_t kVersionSkyrim = 104;    // also Fallout 3 / New Vegas: the same layout
constexpr std::uint32_t kVersionSkyrimSE = 105;  // folder records of 24 bytes
constexpr std::uint32_t kHeaderSize = 36;
constexpr std::uint32_t kFolderNames = 0x1;
constexpr std::uint32_t kFileNames = 0x2;
constexpr std::size_t kFileRecordSize = 16;

}  // namespace

BsaNames read_bsa_names(std::span<const std::uint8_t> bytes, const std::string& file_name) {
  ByteReader r(bytes, ErrorContext{file_name, Error::kNoOffset, std::nullopt});
  const auto magic = r.bytes(4, "the archive magic");
  if (std::memcmp(magic.data(), "BSA\0", 4) != 0) r.context().fail_at(0, "not a BSA archive (no 'BSA' magic)");
  BsaNames out;
  out.version = r.u32("the archive version");
  if (out.version != kVersionSkyrim && out.version != kVersionSkyrimSE)
    r.context().fail_at(4, fmt::format("archive version {} is not read (104: Skyrim, 105: Skyrim SE)", out.version));
  const std::uint32_t folders_offset = r.u32("the offset of the folder records");
  out.flags = r.u32("the archive flags");
  const std::uint32_t folder_count = r.u32("the folder count");
  const std::uint32_t file_count = r.u32("the file count");
  r.u32("the total length of the folder names");
  const std::uint32_t file_names_length = r.u32("the total length of the file names");
  r.u32("the file flags");
  if ((out.flags & kFolderNames) == 0 || (out.flags & kFileNames) == 0)
    r.context().fail_at(12, fmt::format("archive flags 0x{:X}: the archive does not store its {} names", out.flags,
                                        (out.flags & kFolderNames) == 0 ? "folder" : "file"));
  if (folders_offset < kHeaderSize || folders_offset > bytes.size())
    r.context().fail_at(8, fmt::format("the folder records would start at offset {}, outside the header's end ({}) "
                                       "and the file's ({})",
                                       folders_offset, kHeaderSize, bytes.size()));
  r.skip(folders_offset - kHeaderSize, "the bytes before the folder records");

  // Counts checked against the bytes there are before anything is sized by them.
  const std::size_t folder_record_size = out.version == kVersionSkyrimSE ? 24 : 16;
  if (std::uint64_t(folder_count) * folder_record_size > r.remaining())
    r.context().fail_at(16, fmt::format("{} need {} of folder records but only {} remain", counted(folder_count, "folder"),
                                        counted(std::uint64_t(folder_count) * folder_record_size, "byte"),
                                        counted(r.remaining(), "byte")));
  if (std::uint64_t(file_count) * kFileRecordSize > r.remaining())
    r.context().fail_at(20, fmt::format("{} need {} of file records but only {} remain", counted(file_count, "file"),
                                        counted(std::uint64_t(file_count) * kFileRecordSize, "byte"),
                                        counted(r.remaining(), "byte")));

  std::vector<std::uint32_t> files_in_folder;
  files_in_folder.reserve(folder_count);
  std::uint64_t total = 0;
  for (std::uint32_t i = 0; i < folder_count; ++i) {
    r.u64("a folder hash");
    const std::uint64_t count_at = r.file_offset();
    const std::uint32_t count = r.u32("a folder's file count");
    if (out.version == kVersionSkyrimSE) {
      r.u32("a folder record's padding");
      r.u64("a folder's offset");
    } else {
      r.u32("a folder's offset");
    }
    total += count;
    if (total > file_count)
      r.context().fail_at(count_at, fmt::format("folder record {} brings the files to {}, more than the header's {}", i,
                                                total, file_count));
    files_in_folder.push_back(count);
  }
  if (total != file_count)
    r.context().fail_at(20, fmt::format("the header counts {} but the folder records {}", counted(file_count, "file"),
                                        total));

  std::vector<std::string> folders;
  folders.reserve(folder_count);
  for (std::uint32_t i = 0; i < folder_count; ++i) {
    const std::uint64_t name_at = r.file_offset();
    const std::uint8_t length = r.u8("a folder name's length");
    const auto name = r.bytes(length, "a folder name");
    if (length == 0 || name[length - 1] != 0)
      r.context().fail_at(name_at, fmt::format("folder name {} does not end with a zero byte", i));
    const auto* chars = reinterpret_cast<const char*>(name.data());
    folders.emplace_back(chars, std::strlen(chars));  // up to the first zero
    r.skip(std::size_t(files_in_folder[i]) * kFileRecordSize, "a folder's file records");
  }

  const std::uint64_t block_at = r.file_offset();
  const auto block = r.bytes(file_names_length, "the file-name block (its length from the header)");
  out.paths.reserve(file_count);
  std::size_t pos = 0;
  for (std::uint32_t i = 0; i < folder_count; ++i) {
    for (std::uint32_t j = 0; j < files_in_folder[i]; ++j) {
      const void* zero = pos < block.size() ? std::memchr(block.data() + pos, 0, block.size() - pos) : nullptr;
      if (zero == nullptr)
        r.context().fail_at(block_at + pos, fmt::format("file name {} of {} does not end inside the file-name block "
                                                        "({})",
                                                        out.paths.size() + 1, file_count, counted(block.size(), "byte")));
      const std::size_t length = std::size_t(static_cast<const std::uint8_t*>(zero) - (block.data() + pos));
      const std::string file(reinterpret_cast<const char*>(block.data() + pos), length);
      pos += length + 1;
      out.paths.push_back(folders[i].empty() ? file : folders[i] + '\\' + file);
    }
  }
  return out;
}

BsaNames read_bsa_names(const std::filesystem::path& path) {
  const auto bytes = FileBytes::map(path, PageIn::OnUse);
  return read_bsa_names(bytes->span(), bytes->name());
}

}  // namespace tesmod

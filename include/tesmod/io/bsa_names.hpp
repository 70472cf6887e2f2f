// The names of the files a Skyrim BSA archive holds (Skyrim LE: version 104, Skyrim SE: 105),
// read without touching any file data: the header, the folder records, each folder's name and
// file records, then the file-name block. Nothing is decompressed; file sizes and offsets are
// stepped over. Every read is bounds-checked: a damaged archive raises tesmod::Error naming the
// file and the offset, never reads outside the bytes.
//
// Layout (all little-endian):
//   header (36 bytes)  "BSA\0", version, offset of the folder records (36), archive flags
//                      (0x1 folder names stored, 0x2 file names stored, ...), folder count,
//                      file count, total folder-name length, total file-name length, file flags
//   folder records     hash u64, file count u32, then offset u32 (104) or u32 padding + offset
//                      u64 (105): 16 or 24 bytes each
//   per folder         its name (u8 length counting the terminating zero, then the characters
//                      and the zero), then its file records (hash u64, size u32, offset u32)
//   file-name block    one zero-terminated name per file record, in the same order
// The folder records' offsets are not needed: the blocks follow one another (as xEdit's BSArch
// reads them).
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

namespace tesmod {

struct BsaNames {
  std::uint32_t version = 0;  // 104 or 105
  std::uint32_t flags = 0;    // the archive flags
  // Every file as `folder\file`, as stored (archive tools write lower case and backslashes), in
  // archive order. A file of an unnamed folder is its file name alone.
  std::vector<std::string> paths;
};

// file_name names the archive in errors.
BsaNames read_bsa_names(std::span<const std::uint8_t> bytes, const std::string& file_name);
// Maps the file (pages read on first touch: only the name blocks are read).
BsaNames read_bsa_names(const std::filesystem::path& path);

}  // namespace tesmod

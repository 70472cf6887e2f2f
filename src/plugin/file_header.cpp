#include "tesmod/plugin/file_header.hpp"

#include <fmt/format.h>

#include <cmath>

#include "tesmod/io/little_endian.hpp"
#include "tesmod/plugin/record_flags.hpp"

namespace tesmod {
namespace {

std::string zstring(std::span<const std::uint8_t> data) {
  std::size_t len = data.size();
  while (len > 0 && data[len - 1] == 0) --len;
  return std::string(reinterpret_cast<const char*>(data.data()), len);
}

}  // namespace

bool FileHeader::is_master() const { return flags & record_flags::kMaster; }
bool FileHeader::is_localized() const { return flags & record_flags::kLocalized; }
bool FileHeader::is_light() const { return flags & record_flags::kLight; }

std::string FileHeader::version_text() const { return fmt::format("{:.2f}", version); }

FileHeader FileHeader::decode(std::uint32_t flags, std::span<const SubrecordView> fields, const ErrorContext& context) {
  FileHeader h;
  h.flags = flags;
  bool have_hedr = false;
  auto need_size = [&](const SubrecordView& f, std::size_t size) {
    if (f.data.size() != size) {
      context.fail(fmt::format("{} field of {} bytes in the file header; expected {} bytes", f.type.str(), f.data.size(),
                               size));
    }
  };
  for (const SubrecordView& f : fields) {
    const Signature t = f.type;
    if (t == Signature("HEDR") && !have_hedr) {
      // The first HEDR is the header (the one the reader checks and the writer updates); a
      // repeated one is kept as another field.
      need_size(f, 12);
      h.version = le::f32(f.data.data());
      h.record_count = le::i32(f.data.data() + 4);
      h.next_object_id = le::u32(f.data.data() + 8);
      have_hedr = true;
    } else if (t == Signature("CNAM")) {
      h.author = zstring(f.data);
    } else if (t == Signature("SNAM")) {
      h.description = zstring(f.data);
    } else if (t == Signature("MAST")) {
      h.masters.push_back({zstring(f.data), std::nullopt});
    } else if (t == Signature("DATA") && !h.masters.empty() && !h.masters.back().data) {
      need_size(f, 8);
      h.masters.back().data = le::load<std::uint64_t>(f.data.data());
    } else if (t == Signature("ONAM") && f.data.size() % 4 == 0) {
      for (std::size_t i = 0; i < f.data.size(); i += 4) h.overridden_forms.push_back(le::u32(f.data.data() + i));
    } else if (t == Signature("INTV") && f.data.size() == 4) {
      h.intv = le::u32(f.data.data());
    } else if (t == Signature("INCC") && f.data.size() == 4) {
      h.incc = le::u32(f.data.data());
    } else {
      h.other_fields.push_back(t);
    }
  }
  if (!have_hedr) context.fail("file header record has no HEDR field; expected HEDR (version, record count, next object id)");
  return h;
}

}  // namespace tesmod

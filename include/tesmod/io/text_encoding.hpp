// Conversion between the 8-bit code page strings are stored in (Windows-1252 by default) and
// UTF-8, through iconv. Bytes a code page leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D in
// Windows-1252) map to the C1 control characters of the same value, as Windows does, so that
// decoding never fails and encoding the result gives the original bytes back.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace tesmod {

class TextCodec {
 public:
  // code_page: an iconv name such as "WINDOWS-1252", "CP1251", "CP1250". Throws tesmod::Error
  // when iconv does not know it.
  explicit TextCodec(std::string code_page = "WINDOWS-1252");
  ~TextCodec();
  TextCodec(TextCodec&&) noexcept;
  TextCodec& operator=(TextCodec&&) noexcept;

  const std::string& code_page() const;
  // Stored bytes to UTF-8.
  std::string to_utf8(std::string_view bytes) const;
  // UTF-8 to stored bytes. Throws tesmod::Error when a character has no encoding in the code page.
  std::string from_utf8(std::string_view utf8) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tesmod

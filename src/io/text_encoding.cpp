#include "tesmod/io/text_encoding.hpp"

#include <iconv.h>

#include <cerrno>
#include <mutex>

#include "tesmod/error.hpp"

namespace tesmod {

struct TextCodec::Impl {
  std::string code_page;
  iconv_t to_utf8 = iconv_t(-1);
  iconv_t from_utf8 = iconv_t(-1);
  std::mutex lock;  // an iconv handle keeps state; one conversion at a time per codec
  bool undefined[256] = {};  // bytes the code page does not define
  ~Impl() {
    if (to_utf8 != iconv_t(-1)) iconv_close(to_utf8);
    if (from_utf8 != iconv_t(-1)) iconv_close(from_utf8);
  }
};

namespace {

bool is_ascii(std::string_view s) {
  for (unsigned char c : s)
    if (c >= 0x80) return false;
  return true;
}

void append_utf8(std::string& out, unsigned code) {
  if (code < 0x80) {
    out += char(code);
  } else if (code < 0x800) {
    out += char(0xC0 | (code >> 6));
    out += char(0x80 | (code & 0x3F));
  } else {
    out += char(0xE0 | (code >> 12));
    out += char(0x80 | ((code >> 6) & 0x3F));
    out += char(0x80 | (code & 0x3F));
  }
}

// Runs iconv over in; on a byte/character it cannot convert calls on_bad(out, in_pos) which
// returns how many input bytes it consumed (0 = give up).
template <class OnBad>
bool convert(iconv_t cd, std::string_view in, std::string& out, OnBad on_bad) {
  iconv(cd, nullptr, nullptr, nullptr, nullptr);
  std::size_t pos = 0;
  char buf[1024];
  while (pos < in.size()) {
    char* src = const_cast<char*>(in.data() + pos);
    std::size_t src_left = in.size() - pos;
    char* dst = buf;
    std::size_t dst_left = sizeof buf;
    std::size_t r = iconv(cd, &src, &src_left, &dst, &dst_left);
    int err = errno;
    out.append(buf, std::size_t(dst - buf));
    pos = in.size() - src_left;
    if (r == std::size_t(-1)) {
      if (err == E2BIG) continue;
      std::size_t used = on_bad(out, pos);
      if (used == 0) return false;
      pos += used;
      iconv(cd, nullptr, nullptr, nullptr, nullptr);
    }
  }
  char* dst = buf;
  std::size_t dst_left = sizeof buf;
  iconv(cd, nullptr, nullptr, &dst, &dst_left);
  out.append(buf, std::size_t(dst - buf));
  return true;
}

}  // namespace

TextCodec::TextCodec(std::string code_page) : impl_(std::make_unique<Impl>()) {
  impl_->code_page = std::move(code_page);
  impl_->to_utf8 = iconv_open("UTF-8", impl_->code_page.c_str());
  impl_->from_utf8 = iconv_open(impl_->code_page.c_str(), "UTF-8");
  if (impl_->to_utf8 == iconv_t(-1) || impl_->from_utf8 == iconv_t(-1)) {
    throw Error("(encoding)", Error::kNoOffset, std::nullopt,
                "unknown code page '" + impl_->code_page + "' (expected an iconv name such as WINDOWS-1252 or CP1251)");
  }
  for (int b = 0x80; b < 0x100; ++b) {
    char in = char(b);
    std::string out;
    impl_->undefined[b] = !convert(impl_->to_utf8, std::string_view(&in, 1), out, [](std::string&, std::size_t) {
      return std::size_t{0};
    });
  }
}

TextCodec::~TextCodec() = default;
TextCodec::TextCodec(TextCodec&&) noexcept = default;
TextCodec& TextCodec::operator=(TextCodec&&) noexcept = default;

const std::string& TextCodec::code_page() const { return impl_->code_page; }

std::string TextCodec::to_utf8(std::string_view bytes) const {
  if (is_ascii(bytes)) return std::string(bytes);
  std::string out;
  out.reserve(bytes.size() + bytes.size() / 2);
  std::lock_guard guard(impl_->lock);
  // A byte the code page leaves undefined becomes the code point of the same value.
  convert(impl_->to_utf8, bytes, out, [&](std::string& o, std::size_t at) -> std::size_t {
    append_utf8(o, static_cast<unsigned char>(bytes[at]));
    return 1;
  });
  return out;
}

std::string TextCodec::from_utf8(std::string_view utf8) const {
  if (is_ascii(utf8)) return std::string(utf8);
  std::string out;
  out.reserve(utf8.size());
  std::lock_guard guard(impl_->lock);
  bool ok = convert(impl_->from_utf8, utf8, out, [&](std::string& o, std::size_t at) -> std::size_t {
    // U+0080..U+00FF that the code page cannot encode: the undefined bytes written back as is.
    auto b0 = static_cast<unsigned char>(utf8[at]);
    if ((b0 == 0xC2) && at + 1 < utf8.size()) {
      auto b1 = static_cast<unsigned char>(utf8[at + 1]);
      if (b1 >= 0x80 && b1 <= 0x9F && impl_->undefined[b1]) {
        o += char(b1);
        return 2;
      }
    }
    return 0;
  });
  if (!ok) {
    throw Error("(encoding)", Error::kNoOffset, std::nullopt,
                "text has a character that " + impl_->code_page + " cannot encode, or is not valid UTF-8");
  }
  return out;
}

}  // namespace tesmod

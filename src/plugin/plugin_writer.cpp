#include "plugin_writer.hpp"

#include <fmt/format.h>

#include <cstring>

namespace tesmod {
namespace {
constexpr std::size_t kBuffer = 1 << 20;
}

void PluginWriter::write(const Record& header, const std::vector<Node>& top, ByteSink& sink) {
  sink_ = &sink;
  used_ = 0;
  group_sizes_.clear();
  const std::uint64_t total = hs_ + header.encoded_body().size() + measure(top);
  // No bigger than the output: a small plugin written often (a load order's worth) does not
  // clear a megabyte each time.
  buffer_.resize(std::size_t(std::min<std::uint64_t>(kBuffer, total)));
  next_group_ = 0;
  emit_record(header);
  emit(top);
  flush();
}

std::uint64_t PluginWriter::measure(const std::vector<Node>& nodes) {
  std::uint64_t total = 0;
  for (const Node& n : nodes) {
    if (n.is_group()) {
      const std::size_t slot = group_sizes_.size();
      group_sizes_.push_back(0);
      const std::uint64_t size = hs_ + measure(n.group().children);
      if (size > 0xFFFFFFFFu) {
        throw Error(name_, Error::kNoOffset, std::nullopt,
                    fmt::format("a group would be {} bytes; a group cannot exceed 4 GiB", size));
      }
      group_sizes_[slot] = std::uint32_t(size);
      total += size;
    } else {
      const std::uint64_t body = n.record().encoded_body().size();
      if (body > 0xFFFFFFFFu) n.record().context().fail("record body exceeds 4 GiB");
      total += hs_ + body;
    }
  }
  return total;
}

void PluginWriter::emit(const std::vector<Node>& nodes) {
  std::uint8_t h[24];
  for (const Node& n : nodes) {
    if (n.is_group()) {
      GroupHeader gh = n.group().header;
      gh.size = group_sizes_[next_group_++];
      gh.write(h, game_);
      put({h, hs_});
      emit(n.group().children);
    } else {
      emit_record(n.record());
    }
  }
}

void PluginWriter::emit_record(const Record& r) {
  std::uint8_t h[24];
  std::span<const std::uint8_t> body = r.encoded_body();
  RecordHeader rh = r.header();
  rh.data_size = std::uint32_t(body.size());
  rh.write(h, game_);
  put({h, hs_});
  put(body);
}

void PluginWriter::put(std::span<const std::uint8_t> bytes) {
  if (bytes.empty()) return;
  if (bytes.size() > buffer_.size() - used_) {
    flush();
    if (bytes.size() >= buffer_.size() / 4) {
      sink_->write(bytes);
      return;
    }
  }
  std::memcpy(buffer_.data() + used_, bytes.data(), bytes.size());
  used_ += bytes.size();
}

void PluginWriter::flush() {
  if (used_) sink_->write({buffer_.data(), used_});
  used_ = 0;
}

}  // namespace tesmod

// Serializes a plugin tree: group sizes are computed first, then everything is streamed to the
// sink in order, through a buffer so that small headers do not each cost a sink call.
#pragma once

#include <vector>

#include "tesmod/io/byte_sink.hpp"
#include "tesmod/plugin/plugin.hpp"

namespace tesmod {

class PluginWriter {
 public:
  PluginWriter(Game game, const std::string& name) : game_(game), name_(name), hs_(header_size(game)) {}
  void write(const Record& header, const std::vector<Node>& top, ByteSink& sink);

 private:
  std::uint64_t measure(const std::vector<Node>& nodes);
  void emit(const std::vector<Node>& nodes);
  void emit_record(const Record& r);
  void put(std::span<const std::uint8_t> bytes);
  void flush();

  Game game_;
  const std::string& name_;
  std::size_t hs_;
  ByteSink* sink_ = nullptr;
  std::vector<std::uint32_t> group_sizes_;  // in pre-order
  std::size_t next_group_ = 0;
  std::vector<std::uint8_t> buffer_;
  std::size_t used_ = 0;
};

}  // namespace tesmod

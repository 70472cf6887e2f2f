// libFuzzer entry: conditions as text (text/condition_text.hpp) and as CTDA/CTDT bytes.
//
// The first byte picks the mode: 0 Skyrim text, 1 Oblivion text, 2 Skyrim CTDA bytes (32),
// 3 Oblivion CTDA bytes (24), 4 Oblivion CTDT bytes (20); the rest is the line or the bytes.
//
// Oracle. Text: a line either raises ConditionSyntaxError with a column inside the line (or just
// past it), or parses to a condition whose rendering parses to the same condition and renders the
// same again, and whose CTDA bytes decode to it. Bytes: the field decodes and encodes to the same
// bytes, and its rendering (with CIS1/CIS2 strings taken from any bytes past the field) parses to
// the same fields. Names are resolved by a namer that learns any plain word (learning_namer.hpp).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "learning_namer.hpp"
#include "oracle.hpp"
#include "tesmod/error.hpp"
#include "tesmod/fields/condition.hpp"
#include "tesmod/text/condition_text.hpp"
#include "tesmod/text/text_namer.hpp"

using namespace tesmod;
using namespace tesmod::fields;

namespace {

const ErrorContext kWhere{"fuzz.esp", 0x100, RecordRef{Signature("INFO"), 0x01000800, {}}};

const text::TextNamer& known_names() {
  static const text::TextNamer namer = [] {
    // The masters the corpus' conditions name forms in, one with a name that needs quotes.
    text::TextNamer n({"Oblivion.esm", "Skyrim.esm", "Dawn of Time.esp", "Fuzz.esp"});
    n.add(0x00000014, "PlayerRef", text::TextNamer::Source::Master);
    n.add(0x01012EB7, "IronSword", text::TextNamer::Source::Master);
    n.add(0x03000800, "MyGlobal", text::TextNamer::Source::Plugin);
    n.finish();
    return n;
  }();
  return namer;
}

Signature field_type(ConditionLayout layout) { return layout == ConditionLayout::OblivionCtdt ? kCTDT : kCTDA; }

// The condition's CTDA/CTDT bytes must decode to it (CIS strings are fields of their own).
void check_bytes_decode_back(const Condition& c) {
  const std::vector<std::uint8_t> data = encode_condition_data(c);
  TESMOD_FUZZ_CHECK(data.size() == layout_size(c.layout));
  Condition plain = c;
  plain.cis1.reset();
  plain.cis2.reset();
  TESMOD_FUZZ_CHECK(decode_condition(condition_game(c.layout), field_type(c.layout), data, kWhere) == plain);
}

void fuzz_text(std::string_view line, Game game) {
  fuzz::LearningNamer namer(known_names());
  Condition parsed;
  try {
    parsed = text::parse_condition(line, game, namer);
  } catch (const text::ConditionSyntaxError& e) {
    TESMOD_FUZZ_CHECK(e.column() >= 1 && e.column() <= line.size() + 1);  // the column must be in the line
    return;
  }
  const std::string rendered = text::render_condition(parsed, namer);
  const Condition again = text::parse_condition(rendered, game, namer);  // must parse: throws out otherwise
  TESMOD_FUZZ_CHECK(again == parsed);
  TESMOD_FUZZ_CHECK(text::render_condition(again, namer) == rendered);
  check_bytes_decode_back(parsed);
}

void fuzz_bytes(std::span<const std::uint8_t> bytes, Game game, Signature type, std::size_t size) {
  if (bytes.size() < size) return;
  Condition c = decode_condition(game, type, bytes.first(size), kWhere);
  TESMOD_FUZZ_CHECK(encode_condition_data(c) == std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + std::ptrdiff_t(size)));
  // Past the field: which CIS strings there are (bits 0 and 1), then their bytes, halved.
  const std::span<const std::uint8_t> rest = bytes.subspan(size);
  if (!rest.empty()) {
    const std::span<const std::uint8_t> strings = rest.subspan(1);
    const std::size_t half = strings.size() / 2;
    auto text_of = [](std::span<const std::uint8_t> s) { return std::string(s.begin(), s.end()); };
    if (rest[0] & 1) c.cis1 = text_of(strings.first(half));
    if (rest[0] & 2) c.cis2 = text_of(strings.subspan(half));
  }
  fuzz::LearningNamer namer(known_names());
  const std::string rendered = text::render_condition(c, namer);
  const Condition back = text::parse_condition(rendered, game, namer);  // must parse: throws out otherwise
  TESMOD_FUZZ_CHECK(encode_condition(back) == encode_condition(c));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::span<const std::uint8_t> rest(data + 1, size - 1);
  const std::string_view line(reinterpret_cast<const char*>(rest.data()), rest.size());
  switch (data[0] % 5) {
    case 0: fuzz_text(line, Game::SkyrimSE); break;
    case 1: fuzz_text(line, Game::Oblivion); break;
    case 2: fuzz_bytes(rest, Game::SkyrimSE, kCTDA, 32); break;
    case 3: fuzz_bytes(rest, Game::Oblivion, kCTDA, 24); break;
    default: fuzz_bytes(rest, Game::Oblivion, kCTDT, 20); break;
  }
  return 0;
}

// A plugin as a text folder and back, on plugins built for the case: what export names, import
// reads back to the same forms.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "tesmod/plugin/plugin.hpp"
#include "tesmod/plugin/record_flags.hpp"
#include "tesmod/text/plugin_text.hpp"
#include "test_support.hpp"

using namespace tesmod;

namespace {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

// A compressed record names its form only by an EDID that is its first field, on both sides: a
// later EDID that another form also has leaves that form's name unambiguous, and the reference
// by name reads back to it.
TEST(PluginText, ACompressedRecordsLaterEditorIdNamesNothingEitherWay) {
  Plugin p = Plugin::create(Game::SkyrimLE, "t.esp");
  Record late(Signature("NPC_"), 0x800, {Field::zstring("FULL", "x"), Field::zstring("EDID", "Shared")});
  late.set_flags(record_flags::kCompressed);
  p.add(std::move(late));
  p.add(Record(Signature("NPC_"), 0x801, {Field::zstring("EDID", "Shared")}));
  p.add(Record(Signature("FLST"), 0x802, {Field::zstring("EDID", "List"), Field::u32("LNAM", 0x801), Field::u32("LNAM", 0x800)}));
  test::TempDir dir;
  const std::vector<std::uint8_t> bytes = p.serialize();
  test::write_file(dir / "t.esp", bytes);
  text::ExportOptions o;
  o.load_masters = false;
  text::export_plugin(dir / "t.esp", dir / "text", o);
  const std::string flst = read_text(dir / "text" / "FLST" / "List [00000802].txt");
  EXPECT_NE(flst.find("LNAM Shared\n"), std::string::npos) << flst;
  EXPECT_NE(flst.find("LNAM t.esp:00000800\n"), std::string::npos) << flst;
  EXPECT_TRUE(std::filesystem::exists(dir / "text" / "NPC_" / "[00000800].txt"));  // unnamed there too
  text::import_plugin(dir / "text", dir / "out.esp");
  EXPECT_EQ(test::read_file(dir / "out.esp"), bytes);
}

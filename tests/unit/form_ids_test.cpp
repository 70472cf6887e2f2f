#include <gtest/gtest.h>

#include "test_support.hpp"
#include "tesmod/plugin/form_ids.hpp"
#include "tesmod/plugin/plugin.hpp"

using namespace tesmod;

namespace {

// Master.esm defines 0x000800 "MasterSword"; Child.esp overrides it (00000800) and adds its own
// 01000800 "ChildShield"; Missing.esm is listed but absent.
void write_pair(const std::filesystem::path& dir) {
  Plugin m = Plugin::create(Game::SkyrimLE, "Master.esm");
  m.add(Record("WEAP", m.allocate_form_id(), {Field::zstring("EDID", "MasterSword")}));
  m.save(dir / "master.ESM");  // found regardless of case
  Plugin c = Plugin::create(Game::SkyrimLE, "Child.esp");
  c.set_masters({{"Master.esm", 0}, {"Missing.esm", 0}}, std::vector<std::uint32_t>{2});
  c.add(Record("WEAP", 0x00000800, {Field::zstring("EDID", "MasterSword")}));
  c.add(Record("ARMO", c.allocate_form_id(), {Field::zstring("EDID", "ChildShield")}));
  c.save(dir / "Child.esp");
}

}  // namespace

TEST(FormIds, ResolvesThroughMastersBesideThePlugin) {
  test::TempDir dir;
  write_pair(dir.path());
  PluginFile child = PluginFile::open(dir / "Child.esp");
  FormIds ids = FormIds::build(child);
  EXPECT_EQ(ids.files(), (std::vector<std::string>{"Master.esm", "Missing.esm", "Child.esp"}));
  EXPECT_EQ(ids.masters_loaded(), (std::vector<std::string>{"Master.esm"}));
  ASSERT_EQ(ids.masters_missing().size(), 1u);
  EXPECT_NE(ids.masters_missing()[0].find("Missing.esm"), std::string::npos);

  EXPECT_EQ(ids.editor_id(0x00000800), "MasterSword");
  EXPECT_EQ(ids.editor_id(0x02000800), "ChildShield");
  EXPECT_EQ(ids.key(0x02000800).file, "Child.esp");
  EXPECT_EQ(ids.key(0x01000ABC).file, "Missing.esm");
  EXPECT_EQ(ids.display(0x01000ABC), "Missing.esm:00000ABC");
  EXPECT_EQ(ids.display(0x00000800), "MasterSword");
  EXPECT_EQ(ids.find("childshield"), 0x02000800u);
  EXPECT_EQ(ids.find("MASTERSWORD"), 0x00000800u);
  EXPECT_FALSE(ids.find("Nothing"));
}

TEST(FormIds, WithoutMastersOnlyThePluginIsIndexed) {
  test::TempDir dir;
  write_pair(dir.path());
  PluginFile child = PluginFile::open(dir / "Child.esp");
  FormIds::Options o;
  o.load_masters = false;
  FormIds ids = FormIds::build(child, o);
  EXPECT_TRUE(ids.masters_loaded().empty());
  EXPECT_EQ(ids.editor_id(0x02000800), "ChildShield");
  // The override in the plugin names the master's form too.
  EXPECT_EQ(ids.editor_id(0x00000800), "MasterSword");
  EXPECT_EQ(ids.display(0x00000801), "Master.esm:00000801");
}

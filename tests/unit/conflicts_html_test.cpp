// The conflicts page as the library writes it (from conflict_report, as the CLI does) (the browser tests in tests/browser check what a
// browser makes of it): the data in the script element is the report, compact, and no string
// from a plugin can end that element or be read as markup.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "plugin_maker.hpp"
#include "tesmod/loadorder/conflicts.hpp"
#include "tesmod/plugin/record_flags.hpp"
#include "tesmod/text/conflict_report.hpp"
#include "tesmod/text/conflicts_html.hpp"
#include "tesmod/text/json_string.hpp"
#include "test_support.hpp"

namespace tesmod::text {
namespace {

test::TestRecord misc(std::uint32_t id, std::string_view edid, std::uint32_t value) {
  return {Signature("MISC"), id, {Field::zstring("EDID", edid), Field::u32("DATA", value)}, 0};
}

test::TestPlugin plugin(std::vector<std::string> masters, std::vector<test::TestRecord> records, std::uint32_t flags = 0) {
  test::TestPlugin p;
  p.masters = std::move(masters);
  p.records = std::move(records);
  p.header_flags = flags;
  return p;
}

constexpr std::string_view kHostile = "</script><img src=x onerror=alert(1)> & <!--";

struct Page {
  std::string html;
  nlohmann::json data;
};

Page write_page(const test::TempDir& dir) {
  test::write_plugin(dir / "M.esm", plugin({}, {misc(0x800, kHostile, 1), misc(0x801, "B", 1), misc(0x802, "C", 1)},
                                           record_flags::kMaster), 1000);
  test::write_plugin(dir / "P1.esp", plugin({"M.esm"}, {misc(0x800, kHostile, 2), misc(0x801, "B", 2), misc(0x802, "C", 2)}), 1001);
  test::write_plugin(dir / "P2.esp", plugin({"M.esm"}, {misc(0x801, "B", 2), misc(0x802, "C", 3)}), 1002);
  test::write_plugin(dir / "P3.esp", plugin({"M.esm", "Gone.esm"}, {}), 1003);
  test::write_text(dir / "plugins.txt", "*M.esm\n*P1.esp\n*P2.esp\n*P3.esp\n");
  loadorder::LoadOrderSource source;
  source.data = dir.path();
  const loadorder::LoadOrder order = loadorder::LoadOrder::open(source);
  const TextCodec codec("WINDOWS-1252");
  text::ConflictReport report = conflict_report(order, {}, codec);
  report.problems.push_back({"<b>x.esp</b>", "a problem & more"});
  Page page;
  append_conflicts_html(page.html, order, "Data <i>folder</i>", report.records, report.fields, report.problems, codec);
  const std::string open = "<script type=\"application/json\" id=\"tesmod-data\">";
  const std::size_t from = page.html.find(open);
  EXPECT_NE(from, std::string::npos);
  const std::size_t to = page.html.find("</script>", from);
  const std::string json = page.html.substr(from + open.size(), to - from - open.size());
  EXPECT_EQ(json.find('<'), std::string::npos) << "a string could end the script element";
  page.data = nlohmann::json::parse(json);
  return page;
}

TEST(ConflictsHtml, DataIsTheReport) {
  test::TempDir dir;
  const Page page = write_page(dir);
  const nlohmann::json& d = page.data;
  ASSERT_EQ(d["plugins"].size(), 4u);
  EXPECT_EQ(d["plugins"][0]["name"], "M.esm");
  EXPECT_EQ(d["plugins"][0]["index"], "00");
  EXPECT_EQ(d["plugins"][0]["flags"], "ESM");
  EXPECT_EQ(d["plugins"][2]["masters"], nlohmann::json::array({"M.esm"}));
  EXPECT_EQ(d["plugins"][2]["missing"], nlohmann::json::array());
  EXPECT_EQ(d["plugins"][3]["missing"], nlohmann::json::array({"Gone.esm"}));
  ASSERT_EQ(d["records"].size(), 3u);
  // [type, form_id, plugin, object_id, editor_id, category, versions, states, fields]
  const nlohmann::json& a = d["records"][0];
  EXPECT_EQ(a[0], "MISC");
  EXPECT_EQ(a[1], "00000800");
  EXPECT_EQ(a[2], 0);
  EXPECT_EQ(a[3], "000800");
  EXPECT_EQ(a[4], std::string(kHostile));  // the bytes come back exactly
  EXPECT_EQ(a[5], 1);                      // override
  EXPECT_EQ(a[6], nlohmann::json::array({0, 1}));
  EXPECT_EQ(a[7], "MW");
  ASSERT_EQ(a[8].size(), 1u);
  EXPECT_EQ(a[8][0][0], "DATA");
  const nlohmann::json& b = d["records"][1];  // both change it the same way: the second is itpo
  EXPECT_EQ(b[7], "MWw");
  const nlohmann::json& c = d["records"][2];  // P1's change is lost
  EXPECT_EQ(c[5], 2);
  EXPECT_EQ(c[7], "MLW");
  ASSERT_EQ(d["problems"].size(), 2u) << d["problems"].dump();  // the missing master, then the one added
  EXPECT_EQ(d["problems"][0][0], "P3.esp");
  EXPECT_EQ(d["problems"][1], nlohmann::json::array({"<b>x.esp</b>", "a problem & more"}));
  EXPECT_EQ(d["title"], "Data <i>folder</i>");
}

TEST(ConflictsHtml, TitleIsEscapedAndThePageIsWhole) {
  test::TempDir dir;
  const Page page = write_page(dir);
  EXPECT_NE(page.html.find("<title>Conflicts: Data &lt;i&gt;folder&lt;/i&gt;</title>"), std::string::npos);
  EXPECT_EQ(page.html.find("@DATA@"), std::string::npos);
  EXPECT_EQ(page.html.find("@TITLE@"), std::string::npos);
  EXPECT_TRUE(page.html.starts_with("<!DOCTYPE html>"));
  EXPECT_NE(page.html.rfind("</html>"), std::string::npos);
}

TEST(ConflictsHtml, Escaping) {
  std::string s;
  append_html_escaped(s, "a<b>&\"c'");
  EXPECT_EQ(s, "a&lt;b&gt;&amp;&quot;c&#39;");
  s.clear();
  append_json_string_for_html(s, "</script><!-- & \"x\"");
  EXPECT_EQ(s, "\"\\u003c/script\\u003e\\u003c!-- \\u0026 \\\"x\\\"\"");
  s.clear();
  append_json_string(s, "<&>");
  EXPECT_EQ(s, "\"<&>\"");
}

}  // namespace
}  // namespace tesmod::text

#include "tesmod/text/text_namer.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <random>

namespace tesmod::text {
namespace {

using Source = TextNamer::Source;

TEST(TextNamer, NamesReadBackToTheirForms) {
  TextNamer n({"Skyrim.esm", "Dawn of Time.esp"});
  n.add(0x00012EB7, "IronSword", Source::Master);
  n.add(0x01000800, "MyCoin", Source::Plugin);
  n.add(0x01000801, "Bad Name", Source::Plugin);  // not a plain word: never a name
  n.add(0x01000802, "1e5", Source::Plugin);       // reads as a number
  n.add(0x01000803, "none", Source::Plugin);      // a keyword
  n.finish();
  EXPECT_EQ(n.name(0), "NONE");
  EXPECT_EQ(n.name(0x00012EB7), "IronSword");
  EXPECT_EQ(n.name(0x01000800), "MyCoin");
  EXPECT_EQ(n.name(0x01000801), "\"Dawn of Time.esp\":00000801");
  EXPECT_EQ(n.name(0x01000802), "\"Dawn of Time.esp\":00000802");
  EXPECT_EQ(n.name(0x00000014), "Skyrim.esm:00000014");
  EXPECT_EQ(n.name(0x05000001), "@05000001");  // as conditions and scripts write a raw FormID
  for (std::uint32_t id : {0u, 0x00012EB7u, 0x01000800u, 0x01000801u, 0x01000802u, 0x00000014u, 0x05000001u})
    EXPECT_EQ(n.resolve(n.name(id)), id) << n.name(id);
  EXPECT_EQ(n.resolve("ironsword"), 0x00012EB7u);  // without regard to case
  EXPECT_EQ(n.resolve("dawn of time.esp:801"), 0x01000801u);  // the quotes only keep the text one word
  EXPECT_EQ(n.resolve("\"dawn of time.esp\":801"), 0x01000801u);
  // A raw FormID reads the same after '@' (what every text writes) or '0x'.
  EXPECT_EQ(n.resolve("@05000001"), 0x05000001u);
  EXPECT_EQ(n.resolve("0x05000001"), 0x05000001u);
  EXPECT_EQ(n.resolve("@00012eb7"), 0x00012EB7u);
  EXPECT_EQ(n.resolve("@"), std::nullopt);
  EXPECT_EQ(n.resolve("@123456789"), std::nullopt);  // more than 8 digits
  EXPECT_EQ(n.resolve("@12G4"), std::nullopt);
  EXPECT_EQ(HexFormNamer().resolve("@0001ABCD"), 0x0001ABCDu);
  EXPECT_EQ(HexFormNamer().resolve("0x0001ABCD"), 0x0001ABCDu);
  EXPECT_EQ(HexFormNamer().resolve("0001ABCD"), 0x0001ABCDu);
  EXPECT_EQ(n.resolve("SteelSword"), std::nullopt);
  EXPECT_EQ(n.resolve("Other.esm:000001"), std::nullopt);
  EXPECT_EQ(n.resolve("Skyrim.esm:1000000"), std::nullopt);  // more than 24 bits
  // Master names that were used are remembered for the names file; the plugin's own are not.
  EXPECT_EQ(n.used_master_names(), (std::map<std::string, std::uint32_t>{{"IronSword", 0x00012EB7}}));
}

TEST(TextNamer, ThePluginsOwnNamesComeFirstAndSharedNamesAreNotUsed) {
  TextNamer n({"Skyrim.esm", "Mod.esp"});
  n.add(0x00000100, "Shared", Source::Master);
  n.add(0x00000200, "Shared", Source::Master);     // two master forms: ambiguous among masters
  n.add(0x01000800, "Taken", Source::Plugin);
  n.add(0x00000300, "Taken", Source::Master);      // the plugin's record wins the name
  n.add(0x00000400, "Listed", Source::NamesFile);
  n.add(0x00000500, "Listed", Source::Master);     // the names file comes before the masters
  n.add(0x00000600, "Twice", Source::Plugin);
  n.add(0x01000801, "Twice", Source::Plugin);      // two of the plugin's records: ambiguous
  n.add(0x00000700, "Old", Source::Master);
  n.add(0x00000700, "New", Source::Plugin);        // an override renames the form
  n.finish();
  EXPECT_EQ(n.resolve("Shared"), std::nullopt);
  EXPECT_EQ(n.name(0x00000100), "Skyrim.esm:00000100");
  EXPECT_EQ(n.resolve("Taken"), 0x01000800u);
  EXPECT_EQ(n.name(0x00000300), "Skyrim.esm:00000300");
  EXPECT_EQ(n.resolve("Listed"), 0x00000400u);
  EXPECT_EQ(n.name(0x00000500), "Skyrim.esm:00000500");
  EXPECT_EQ(n.resolve("Twice"), std::nullopt);
  EXPECT_EQ(n.name(0x00000700), "New");
  EXPECT_EQ(n.resolve("Old"), std::nullopt);
}

TEST(TextNamer, AFileListedTwiceIsNotNamedByName) {
  TextNamer n({"Skyrim.esm", "skyrim.esm", "Mod.esp"});
  n.finish();
  EXPECT_EQ(n.name(0x00000014), "Skyrim.esm:00000014");
  EXPECT_EQ(n.name(0x01000014), "@01000014");
  EXPECT_EQ(n.resolve(n.name(0x01000014)), 0x01000014u);
}

}  // namespace
}  // namespace tesmod::text

namespace tesmod::text {
namespace {

// The namer's tables against the rules said plainly, on many names added in a random order:
// forms given several names and sources, names shared by forms and sources, in any letter case.
TEST(TextNamer, ManyNamesFollowTheRulesInAnyOrder) {
  using Source = TextNamer::Source;
  std::mt19937 random(20261126);
  const auto pick = [&](std::uint32_t n) { return std::uniform_int_distribution<std::uint32_t>(0, n - 1)(random); };
  struct Add {
    std::uint32_t form;
    std::string name;
    Source source;
  };
  std::vector<Add> adds;
  for (int i = 0; i < 30000; ++i) {
    std::string name = "Name" + std::to_string(pick(6000)) + (pick(3) == 0 ? std::string(40, 'x') : "");
    for (char& c : name)
      if (pick(4) == 0) c = char(std::toupper(static_cast<unsigned char>(c)));
    adds.push_back({pick(2) << 24 | (0x800 + pick(9000)), name, Source(pick(3))});
  }
  TextNamer n({"Skyrim.esm", "Mod.esp"});
  for (const Add& a : adds) n.add(a.form, a.name, a.source);
  n.finish();

  // Each form keeps the name of its most trusted source, the first given among equals.
  std::map<std::uint32_t, const Add*> chosen;
  for (const Add& a : adds)
    if (auto [it, fresh] = chosen.try_emplace(a.form, &a); !fresh && a.source < it->second->source) it->second = &a;
  // A name stands for the one form its most trusted source gives it to, or for none.
  const auto lower = [](std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  std::map<std::string, std::vector<const Add*>> by_name;
  for (const auto& [form, a] : chosen) by_name[lower(a->name)].push_back(a);
  std::size_t named = 0, ambiguous = 0;
  std::map<std::uint32_t, std::string> expected_name;
  for (const auto& [name, forms] : by_name) {
    Source best = Source::Master;
    for (const Add* a : forms) best = std::min(best, a->source);
    std::vector<const Add*> top;
    for (const Add* a : forms)
      if (a->source == best) top.push_back(a);
    if (top.size() == 1) {
      ASSERT_EQ(n.resolve(name), top[0]->form) << name;
      expected_name[top[0]->form] = top[0]->name;
      ++named;
    } else {
      ASSERT_EQ(n.resolve(name), std::nullopt) << name;
      ++ambiguous;
    }
  }
  for (const auto& [form, a] : chosen) {
    const auto it = expected_name.find(form);
    ASSERT_EQ(n.name(form), it != expected_name.end() ? it->second : n.file_form(form)) << form;
  }
  EXPECT_GT(named, 1000u);
  EXPECT_GT(ambiguous, 1000u);
  EXPECT_EQ(n.resolve("Name999999"), std::nullopt);
}

}  // namespace
}  // namespace tesmod::text

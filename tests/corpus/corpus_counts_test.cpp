// Counts of groups, records and records by type agree with an independent reader
// (../shared/tools/inspect_plugin.py) for every corpus plugin.
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "test_support.hpp"
#include "tesmod/plugin/plugin_file.hpp"

using namespace tesmod;

namespace {

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

TEST(Corpus, CountsMatchTheIndependentReader) {
  TESMOD_REQUIRE_CORPUS();
  const auto script = test::corpus_dir() / ".." / "tools" / "inspect_plugin.py";
  if (!std::filesystem::exists(script)) {
    if (test::in_ci()) FAIL() << "inspect_plugin.py not found at " << script;
    GTEST_SKIP() << "inspect_plugin.py not found at " << script;
  }
  std::map<std::string, nlohmann::json> reference;
  const auto plugins = test::corpus_plugins();
  std::string cmd = "python3 " + shell_quote(script.string()) + " --json";
  for (const auto& p : plugins) cmd += " " + shell_quote(p.string());
  FILE* pipe = ::popen(cmd.c_str(), "r");
  ASSERT_TRUE(pipe);
  std::string out;
  char buf[65536];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
  ASSERT_EQ(::pclose(pipe), 0) << "python3 inspect_plugin.py failed";
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    auto j = nlohmann::json::parse(line);
    reference[j["file"].get<std::string>()] = j;
  }
  ASSERT_EQ(reference.size(), plugins.size());

  for (const auto& path : plugins) {
    SCOPED_TRACE(path.string());
    const nlohmann::json& ref = reference.at(path.string());
    ASSERT_TRUE(ref["errors"].empty()) << ref["errors"];
    PluginFile f = PluginFile::open(path);
    const PluginStats& st = f.stats();
    EXPECT_EQ(st.groups, ref["groups"].get<std::uint64_t>());
    EXPECT_EQ(st.records, ref["total_records"].get<std::uint64_t>());
    std::map<std::string, std::uint64_t> ours, theirs;
    for (const auto& [t, n] : st.records_by_type) ours[t.str()] = n;
    for (const auto& [t, n] : ref["records"].items()) theirs[t] = n.get<std::uint64_t>();
    EXPECT_EQ(ours, theirs);
    std::uint64_t compressed = 0;
    for (const auto& [t, n] : ref["compressed"].items()) compressed += n.get<std::uint64_t>();
    EXPECT_EQ(st.compressed, compressed);
    EXPECT_EQ(game_id(f.game()), ref["game"].get<std::string>());
    std::vector<std::string> masters;
    for (const auto& m : f.header().masters) masters.push_back(m.name);
    EXPECT_EQ(masters, ref["masters"].get<std::vector<std::string>>());
  }
}

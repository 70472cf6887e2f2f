// A property test of the editable model: random sequences of edits (add, remove and replace
// records; replace, add and remove fields; compress and decompress; rename masters) applied to
// corpus plugins and, beside them, to a plain model of what the file should then hold. The
// plugin is written, read back, and compared record by record with the model: edited records
// have the model's type, flags and fields; untouched ones keep their stored bytes exactly.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "test_support.hpp"
#include "tesmod/plugin/plugin.hpp"
#include "tesmod/plugin/record_flags.hpp"

using namespace tesmod;

namespace {

struct Expected {
  Signature type;
  std::uint32_t flags = 0;
  bool edited = false;
  std::vector<Field> fields;               // edited records: what they must hold
  std::vector<std::uint8_t> stored_body;  // untouched ones: their stored bytes
};

void collect(std::vector<Node>& nodes, std::vector<Record*>& out) {
  for (Node& n : nodes) {
    if (n.is_group()) collect(n.group().children, out);
    else out.push_back(&n.record());
  }
}

std::vector<Record*> records_of(Plugin& p) {
  std::vector<Record*> out;
  collect(p.top(), out);
  return out;
}

std::vector<std::uint8_t> random_bytes(std::mt19937_64& rng, std::size_t max) {
  std::vector<std::uint8_t> b(rng() % (max + 1));
  for (auto& x : b) x = std::uint8_t(rng());
  return b;
}

// Signatures of fields the edits add: printable, and never one the writer treats specially.
Signature random_field_type(std::mt19937_64& rng) {
  static const Signature kTypes[] = {Signature("ZZA1"), Signature("ZZB2"), Signature("ZZC3"),
                                     Signature("DATA"), Signature("FULL"), Signature("DESC")};
  return kTypes[rng() % std::size(kTypes)];
}

}  // namespace

TEST(PluginEditProperty, RandomEditsMatchTheModel) {
  TESMOD_REQUIRE_CORPUS();
  std::size_t plugins = 0, edits = 0, untouched_checked = 0;
  for (const auto& path : test::corpus_plugins()) {
    if (std::filesystem::file_size(path) > 4'000'000) continue;  // keeps the run short
    SCOPED_TRACE(path.string());
    PluginFile file = PluginFile::open(path);
    Plugin plugin = Plugin::from_file(file);
    // The model: every record by FormID (plugins where one FormID appears twice are skipped:
    // a FormID must name one record for the comparison to mean anything).
    std::map<std::uint32_t, Expected> model;
    bool unique = true;
    for (Record* r : records_of(plugin)) {
      Expected e{r->type(), r->flags(), false, {}, {}};
      const auto body = r->encoded_body();
      e.stored_body.assign(body.begin(), body.end());
      unique = unique && model.emplace(r->form_id(), std::move(e)).second;
    }
    if (!unique || model.empty()) continue;
    ++plugins;
    std::vector<std::string> masters;
    for (const MasterFile& m : plugin.header().masters) masters.push_back(m.name);

    std::mt19937_64 rng(std::hash<std::string>{}(path.filename().string()));
    const auto pick = [&]() -> Record* {
      std::vector<Record*> all = records_of(plugin);
      return all.empty() ? nullptr : all[rng() % all.size()];
    };
    for (int step = 0; step < 30; ++step) {
      ++edits;
      switch (rng() % 7) {
        case 0: {  // add a record to the top group of an existing record type
          Record* like = pick();
          if (!like || like->type() == Signature("CELL") || like->type() == Signature("WRLD") ||
              like->type() == Signature("DIAL") || like->type() == Signature("REFR") ||
              like->type() == Signature("ACHR") || like->type() == Signature("ACRE") ||
              like->type() == Signature("INFO") || like->type() == Signature("LAND") ||
              like->type() == Signature("PGRD") || like->type() == Signature("NAVM"))
            break;  // those live in nested groups
          std::uint32_t id = 0;
          try {
            id = plugin.allocate_form_id();
          } catch (const Error&) {
            break;  // a header whose next object id is used up (one corpus plugin's is)
          }
          if (model.count(id)) break;
          std::vector<Field> fields{Field::zstring("EDID", fmt::format("tesmodProperty{}", step)),
                                    Field::bytes(random_field_type(rng), random_bytes(rng, 40))};
          const std::uint32_t flags = rng() % 2 ? record_flags::kCompressed : 0;
          const Signature type = like->type();  // `like` may move when the group grows
          plugin.add(Record(type, id, fields, flags));
          model[id] = Expected{type, flags, true, std::move(fields), {}};
          break;
        }
        case 1: {  // remove a record
          Record* r = pick();
          if (!r) break;
          const std::uint32_t id = r->form_id();
          ASSERT_TRUE(plugin.remove(id));
          model.erase(id);
          break;
        }
        case 2: {  // replace a field's bytes
          Record* r = pick();
          if (!r) break;
          std::vector<Field>& f = r->edit_fields();
          if (!f.empty()) f[rng() % f.size()].data = random_bytes(rng, 64);
          Expected& e = model.at(r->form_id());
          e.edited = true;
          e.fields = f;
          break;
        }
        case 3: {  // add a field
          Record* r = pick();
          if (!r) break;
          r->edit_fields().push_back(Field::bytes(random_field_type(rng), random_bytes(rng, 32)));
          Expected& e = model.at(r->form_id());
          e.edited = true;
          e.fields = r->fields();
          break;
        }
        case 4: {  // remove every field of one type
          Record* r = pick();
          if (!r || r->fields().empty()) break;
          const Signature t = r->fields()[rng() % r->fields().size()].type;
          r->remove(t);
          Expected& e = model.at(r->form_id());
          e.edited = true;
          e.fields = r->fields();
          break;
        }
        case 5: {  // compress or decompress
          Record* r = pick();
          if (!r) break;
          Expected& e = model.at(r->form_id());
          if (!e.edited) e.fields = r->fields();
          e.edited = true;
          r->set_flags(r->flags() ^ record_flags::kCompressed);
          e.flags = r->flags();
          break;
        }
        case 6: {  // rename a master
          if (masters.empty()) break;
          const std::size_t i = rng() % masters.size();
          masters[i] = fmt::format("Renamed{}.esm", step);
          plugin.rename_master(i, masters[i]);
          break;
        }
      }
    }

    // Written, read back, compared with the model.
    const std::vector<std::uint8_t> bytes = plugin.serialize();
    PluginFile again_file = PluginFile::parse(FileBytes::hold(bytes, path.filename().string()));
    Plugin again = Plugin::from_file(again_file);
    std::vector<std::string> masters_read;
    for (const MasterFile& m : again.header().masters) masters_read.push_back(m.name);
    EXPECT_EQ(masters_read, masters);
    std::size_t seen = 0;
    for (Record* r : records_of(again)) {
      ++seen;
      const auto it = model.find(r->form_id());
      ASSERT_NE(it, model.end()) << fmt::format("{:08X} is in the file but was removed", r->form_id());
      const Expected& e = it->second;
      EXPECT_EQ(r->type(), e.type) << fmt::format("{:08X}", r->form_id());
      EXPECT_EQ(r->flags(), e.flags) << fmt::format("{:08X}", r->form_id());
      if (e.edited) {
        EXPECT_EQ(r->fields(), e.fields) << fmt::format("{:08X}", r->form_id());
      } else {
        const auto body = r->encoded_body();
        EXPECT_TRUE(std::equal(body.begin(), body.end(), e.stored_body.begin(), e.stored_body.end()))
            << fmt::format("{:08X}: an untouched record's bytes changed", r->form_id());
        ++untouched_checked;
      }
      if (HasFailure()) return;
    }
    EXPECT_EQ(seen, model.size());
    // Writing what was read back changes nothing.
    EXPECT_EQ(again.serialize(), bytes);
  }
  std::cout << "[ edit property ] " << plugins << " plugins, " << edits << " edits, " << untouched_checked
            << " untouched records compared byte for byte\n";
  EXPECT_GT(plugins, 50u);
}

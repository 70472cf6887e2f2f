// `tesmod save`: read, show, edit Oblivion save games and extract their screenshot.
#include <fmt/format.h>

#include <charconv>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "tesmod/io/ascii.hpp"
#include "tesmod/io/counted.hpp"
#include "tesmod/io/text_encoding.hpp"
#include "tesmod/save/actor_change.hpp"
#include "tesmod/save/actor_editor.hpp"
#include "tesmod/save/change_type.hpp"
#include "tesmod/save/save_file.hpp"
#include "tesmod/save/save_names.hpp"
#include "tesmod/save/screenshot.hpp"
#include "tesmod/text/save_text.hpp"

namespace tesmod::cli {
namespace {

constexpr std::uint32_t kPlayerFormId = 0x00000007;

struct Which {
  bool player = false;
  std::string form;  // --formid
};

struct EditArgs {
  std::vector<std::string> sets;  // KEY=VALUE
  std::string name;
  std::vector<std::string> add_spells, remove_spells, join_factions, leave_factions, faction_ranks;
  std::string output;
  bool in_place = false;
};

struct Args {
  std::string file;
  bool json = false;
  std::string encoding = "WINDOWS-1252";
  std::string data_dir;
  Which which;
  EditArgs edit;
  std::string png;
};

void print_json(const nlohmann::ordered_json& j) {
  std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

std::uint32_t resolve_form(const save::SaveFormNamer& names, const std::string& text, std::string_view option) {
  if (auto id = names.resolve(text)) return *id;
  throw UsageError(fmt::format("save: {} '{}' names no form: expected 8 hex digits (the FormID as the save numbers it), "
                               "Plugin.esp:ABCDEF{}",
                               option, text, names.has_data_dir() ? ", or an EditorID" : " (or an EditorID with --data)"));
}

std::uint32_t target_form(const Which& w, const save::SaveFormNamer& names) {
  if (w.player == !w.form.empty()) throw UsageError("save: give either --player or --formid ID");
  return w.player ? kPlayerFormId : resolve_form(names, w.form, "--formid");
}

std::int64_t parse_integer(std::string_view text, std::string_view option) {
  std::int64_t v = 0;
  const char* end = text.data() + text.size();
  const auto [p, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || p != end || text.empty())
    throw UsageError(fmt::format("save edit: {}: '{}' is not a whole number", option, text));
  return v;
}

// "KEY=VALUE" split at the last '=' (Plugin.esp:ABCDEF=3 has none in the key's own text).
std::pair<std::string, std::string> split_assignment(const std::string& text, std::string_view option, bool value_optional) {
  const auto eq = text.rfind('=');
  if (eq == std::string::npos) {
    if (value_optional) return {text, ""};
    throw UsageError(fmt::format("save edit: {} '{}': expected KEY=VALUE", option, text));
  }
  return {text.substr(0, eq), text.substr(eq + 1)};
}

void apply_set(save::ActorEditor& editor, const std::string& assignment) {
  const auto [key, value_text] = split_assignment(assignment, "--set", false);
  const std::int64_t value = parse_integer(value_text, "--set " + key);
  const std::string k = ascii::to_lower(key);
  if (k.starts_with("attribute.")) return editor.set_attribute(key.substr(10), value);
  if (k.starts_with("skill.")) return editor.set_skill(key.substr(6), value);
  if (k == "health") return editor.set_base_health(value);
  using F = save::BaseDataField;
  const std::pair<const char*, F> fields[] = {{"magicka", F::Magicka}, {"fatigue", F::Fatigue}, {"barter-gold", F::BarterGold},
                                              {"level", F::Level},     {"calc-min", F::CalcMin}, {"calc-max", F::CalcMax}};
  for (const auto& [name, field] : fields)
    if (k == name) return editor.set_base_data(field, value);
  throw UsageError(fmt::format("save edit: --set '{}': unknown key; expected attribute.NAME, skill.NAME, health, magicka, "
                               "fatigue, barter-gold, level, calc-min or calc-max",
                               key));
}

int run_info(const Args& a) {
  const TextCodec codec(a.encoding);
  const save::SaveFile s = open_save(a.file);
  if (a.json) print_json(text::save_info_json(s, codec));
  else std::cout << text::save_info_text(s, codec);
  return kExitOk;
}

int run_npc(const Args& a) {
  const TextCodec codec(a.encoding);
  const save::SaveFile s = open_save(a.file);
  const save::SaveFormNamer names(s, a.data_dir);
  const std::uint32_t form_id = target_form(a.which, names);
  const save::ChangeRecord* record = s.find_actor(form_id);
  if (!record)
    throw Error(a.file, Error::kNoOffset, std::nullopt,
                fmt::format("the save holds no NPC_ or CREA change record for FormID {:08X}", form_id));
  const save::ActorChange change = save::decode_actor_change(*record, s.name());
  if (a.json) {
    nlohmann::ordered_json j = text::actor_change_json(s, *record, change, names, codec);
    if (names.has_data_dir()) {
      auto not_found = nlohmann::ordered_json::array();
      for (const std::string& plugin : names.plugins_not_found()) not_found.push_back(codec.to_utf8(plugin));
      j["plugins_not_found"] = not_found;
      nlohmann::ordered_json unreadable = nlohmann::ordered_json::object();
      for (const auto& [plugin, why] : names.plugins_unreadable()) unreadable[codec.to_utf8(plugin)] = why;
      j["plugins_unreadable"] = unreadable;
    }
    print_json(j);
  } else {
    std::cout << text::actor_change_text(s, *record, change, names, codec);
    if (names.has_data_dir()) {
      for (const std::string& plugin : names.plugins_not_found())
        std::cerr << "tesmod: note: " << codec.to_utf8(plugin) << " is not in " << a.data_dir << '\n';
      for (const auto& [plugin, why] : names.plugins_unreadable())
        std::cerr << "tesmod: note: " << codec.to_utf8(plugin) << " cannot be read: " << why << '\n';
    }
  }
  return kExitOk;
}

int run_edit(const Args& a) {
  const EditArgs& e = a.edit;
  if (!e.in_place) {
    if (e.output.empty()) throw UsageError("save edit: give -o OUT, or --in-place to replace the input");
    std::error_code ec;
    if (std::filesystem::equivalent(a.file, e.output, ec))
      throw UsageError("save edit: the output is the input file; pass --in-place to replace it");
  }
  const std::size_t edits = e.sets.size() + (e.name.empty() ? 0 : 1) + e.add_spells.size() + e.remove_spells.size() +
                            e.join_factions.size() + e.leave_factions.size() + e.faction_ranks.size();
  if (edits == 0) throw UsageError("save edit: nothing to change: give --set, --name, --add-spell, --remove-spell, "
                                   "--join-faction, --leave-faction or --faction-rank");
  const TextCodec codec(a.encoding);
  save::SaveFile s = open_save(a.file);
  const save::SaveFormNamer names(s, a.data_dir);
  const std::uint32_t form_id = target_form(a.which, names);
  save::ActorEditor editor(s, form_id, &names);
  const std::size_t bytes_before = editor.record().data().size();
  const std::size_t form_ids_before = s.form_ids.size();
  for (const std::string& x : e.sets) apply_set(editor, x);
  if (!e.name.empty()) editor.set_full_name(codec.from_utf8(e.name));
  for (const std::string& x : e.remove_spells) editor.remove_spell(resolve_form(names, x, "--remove-spell"));
  for (const std::string& x : e.add_spells) editor.add_spell(resolve_form(names, x, "--add-spell"));
  for (const std::string& x : e.leave_factions) editor.leave_faction(resolve_form(names, x, "--leave-faction"));
  for (const std::string& x : e.join_factions) {
    const auto [form, rank] = split_assignment(x, "--join-faction", true);
    editor.join_faction(resolve_form(names, form, "--join-faction"), rank.empty() ? 0 : parse_integer(rank, "--join-faction"));
  }
  for (const std::string& x : e.faction_ranks) {
    const auto [form, rank] = split_assignment(x, "--faction-rank", false);
    editor.set_faction_rank(resolve_form(names, form, "--faction-rank"), parse_integer(rank, "--faction-rank"));
  }
  editor.commit();
  const std::filesystem::path target = e.in_place ? std::filesystem::path(a.file) : std::filesystem::path(e.output);
  s.save(target);
  const save::ChangeRecord& r = editor.record();
  std::cout << fmt::format("{} {:08X}: {}, flags 0x{:08X}, data {} -> {} bytes, FormID array {} -> {} entries; wrote {}\n",
                           r.type_signature().str(), r.form_id, counted(edits, "edit"), r.flags, bytes_before, r.data().size(),
                           form_ids_before, s.form_ids.size(), target.string());
  return kExitOk;
}

int run_screenshot(const Args& a) {
  const save::SaveFile s = open_save(a.file);
  save::write_screenshot_png(s, a.png);
  std::cout << fmt::format("{}x{} screenshot written to {}\n", s.header.screenshot.width, s.header.screenshot.height, a.png);
  return kExitOk;
}

void add_target_options(CLI::App& sub, Args& a) {
  auto* player = sub.add_flag("--player", a.which.player, "The player's NPC_ record (FormID 00000007)");
  auto* form = sub.add_option("--formid", a.which.form,
                              "FormID as the save numbers it (8 hex digits), Plugin.esp:ABCDEF, or an EditorID (with --data)");
  player->excludes(form);
  sub.add_option("--data", a.data_dir, "Folder of the save's plugins (Oblivion's Data): names forms, checks spells and factions");
}

}  // namespace

Command add_save(CLI::App& app, Common&) {
  auto args = std::make_shared<Args>();
  CLI::App* sub = app.add_subcommand("save", "Read, show and edit Oblivion save games (.ess)");
  sub->require_subcommand(1);

  CLI::App* info = sub->add_subcommand("info", "Player, location, times, plugins, counts of change and created records");
  info->add_option("FILE", args->file, "Save game")->required();
  info->add_flag("--json", args->json, "Print JSON");
  info->add_option("--encoding", args->encoding, "Code page of the save's strings")->capture_default_str();

  CLI::App* npc = sub->add_subcommand("npc", "An NPC_ or CREA change record, decoded, with its forms named");
  npc->add_option("FILE", args->file, "Save game")->required();
  add_target_options(*npc, *args);
  npc->add_flag("--json", args->json, "Print JSON");
  npc->add_option("--encoding", args->encoding, "Code page of the save's strings")->capture_default_str();

  CLI::App* edit = sub->add_subcommand("edit", "Change an NPC_ or CREA change record and write the save");
  edit->add_option("FILE", args->file, "Save game")->required();
  add_target_options(*edit, *args);
  EditArgs& e = args->edit;
  edit->add_option("--set", e.sets,
                   "KEY=VALUE: attribute.NAME (Strength ...), skill.NAME (Blade, HandToHand ...), health, magicka, "
                   "fatigue, barter-gold, level, calc-min, calc-max");
  edit->add_option("--name", e.name, "New full name");
  edit->add_option("--add-spell", e.add_spells, "Spell to add (FormID, Plugin.esp:ABCDEF or EditorID)");
  edit->add_option("--remove-spell", e.remove_spells, "Spell to remove");
  edit->add_option("--join-faction", e.join_factions, "FACTION[=RANK]: join a faction (rank 0 unless given)");
  edit->add_option("--leave-faction", e.leave_factions, "Faction to leave");
  edit->add_option("--faction-rank", e.faction_ranks, "FACTION=RANK: change the rank in a faction (-1: expelled)");
  edit->add_option("--encoding", args->encoding, "Code page of the save's strings")->capture_default_str();
  auto* out = edit->add_option("-o,--output", e.output, "Where to write the edited save");
  auto* in_place = edit->add_flag("--in-place", e.in_place, "Replace FILE itself (atomically)");
  out->excludes(in_place);

  CLI::App* shot = sub->add_subcommand("screenshot", "Write the save's screenshot as a PNG image");
  shot->add_option("FILE", args->file, "Save game")->required();
  shot->add_option("-o,--output", args->png, "PNG file to write")->required();

  return {sub, [args, info, npc, edit, shot] {
            if (info->parsed()) return run_info(*args);
            if (npc->parsed()) return run_npc(*args);
            if (edit->parsed()) return run_edit(*args);
            if (shot->parsed()) return run_screenshot(*args);
            return kExitUsage;
          }};
}

}  // namespace tesmod::cli

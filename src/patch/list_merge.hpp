// The two ways the patch merges a leveled list's versions (private to src/patch):
//
//   wryebash  Wrye Bash's Leveled Lists patcher: every active plugin's version merged in load
//             order, Relev and Delev tags deciding what a later plugin may change or remove.
//   threeway  no tags: each plugin's own changes (against the version its masters give it)
//             replayed on the defining plugin's list.
//
// Both then take empty sublists out of the lists that hold them when asked to.
#pragma once

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "tesmod/loadorder/load_order.hpp"
#include "tesmod/patch/leveled_list.hpp"

namespace tesmod::patch {

// The versions of one list the patch reads: the active plugins' versions that are not deleted,
// in load order (the patch's own earlier output left out).
struct ListHistory {
  FormKey form;
  Signature type;
  std::vector<LeveledList> versions;
};

struct ListMerge {
  const ListHistory* history = nullptr;
  LeveledList merged;  // entries in the order the patch writes them once `write` is decided
  std::set<FormKey> items;  // Wrye Bash's "items": the forms listed, and those a Delev plugin removed
  bool write = false;  // wryebash: the merge differs from the last version merged into it
  std::vector<std::uint32_t> sources;  // the plugins merged since the list last equalled one of them
  std::vector<std::string> notes;      // what was taken from where, and why
};

struct ListMergeContext {
  const loadorder::LoadOrder* order = nullptr;
  Game game = Game::Oblivion;
  std::function<bool(std::uint32_t plugin, std::string_view tag)> has_tag;
  std::vector<std::string> warnings;  // lists cut to 255 entries, ...
};

// Both merge lists of one type, given in order of their first appearance in the load order.
std::vector<ListMerge> merge_lists_wryebash(const std::vector<ListHistory>& lists, ListMergeContext& context);
std::vector<ListMerge> merge_lists_threeway(const std::vector<ListHistory>& lists, ListMergeContext& context);

// Takes lists with no items out of the lists of the same type that hold them (repeatedly, as a
// list emptied so is empty in turn); a list that loses an entry so is written.
void remove_empty_sublists(std::vector<ListMerge>& merges, ListMergeContext& context);

// The most entries a Skyrim list holds (its count is a byte); 0: no limit (Oblivion).
std::size_t max_list_entries(Game game);

std::string plugin_name(const ListMergeContext& context, std::uint32_t plugin);
std::string list_label(const ListMergeContext& context, const LeveledList& list);

}  // namespace tesmod::patch

// Builds the small sample plugins the repository carries, with the library's own writer, so
// that a new user has something to run tesmod on and the tests can check the writer.
#pragma once

#include <filesystem>

#include "tesmod/plugin/plugin.hpp"
#include "tesmod/plugin/strings_file.hpp"
#include "tesmod/save/save_file.hpp"

namespace tesmod::samples {

// A Skyrim SE plugin: a few item records, a compressed record, an interior cell with a
// reference, a dialogue topic with a response, and an oversize (XXXX) field.
Plugin skyrim_sample();
// An Oblivion plugin with the same shape (20-byte headers).
Plugin oblivion_sample();
// A localized Skyrim master whose names live in string tables.
Plugin localized_sample();
LocalizedStrings localized_sample_strings();

// A small Oblivion save (TesmodSample.ess) built from fixed values: the player "Tesmod Sample",
// level 5, in the Oblivion sample's room; a 32x24 screenshot; Oblivion.esm and
// TesmodSampleOblivion.esp as its plugins; the game-time globals; the player's NPC_ change record
// (attributes, base data, factions, spells, base health, modifiers, skills), a creature's, and
// the sample coin's MISC change record. Parsed back from its bytes, so it owns them.
save::SaveFile oblivion_save_sample();

// Writes all samples (and the string tables) into dir, and the sample load order
// (load_order_sample.hpp) into dir/loadorder.
void write_all(const std::filesystem::path& dir);

}  // namespace tesmod::samples

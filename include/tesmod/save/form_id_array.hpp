// The FormID array at the end of a save. Change-record data and globals refer to forms by
// iref: an index into this array, or, from 0xFF000000 up, the FormID itself of a form created
// in the save. The top byte of a FormID indexes the save's plugin list (0xFF: created).
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace tesmod::save {

inline constexpr std::uint32_t kCreatedFormIds = 0xFF000000;

constexpr bool is_created_form_id(std::uint32_t id) { return id >= kCreatedFormIds; }

class FormIdArray {
 public:
  FormIdArray() = default;
  explicit FormIdArray(std::vector<std::uint32_t> ids) : ids_(std::move(ids)) {}

  const std::vector<std::uint32_t>& ids() const { return ids_; }
  std::size_t size() const { return ids_.size(); }

  // The FormID an iref stands for; nullopt when the iref is past the end of the array.
  std::optional<std::uint32_t> form_id(std::uint32_t iref) const;
  // The iref that names form_id: the FormID itself for created forms, else the index of its
  // first entry in the array; nullopt when the array does not hold it.
  std::optional<std::uint32_t> find_iref(std::uint32_t form_id) const;
  // As find_iref, appending form_id to the array when it is not there yet.
  std::uint32_t iref_for(std::uint32_t form_id);

 private:
  void index() const;
  std::vector<std::uint32_t> ids_;
  mutable std::unordered_map<std::uint32_t, std::uint32_t> first_;  // FormID -> first index, built on demand
  mutable std::size_t indexed_ = 0;                                 // entries of ids_ in first_
};

}  // namespace tesmod::save

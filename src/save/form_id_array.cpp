#include "tesmod/save/form_id_array.hpp"

namespace tesmod::save {

std::optional<std::uint32_t> FormIdArray::form_id(std::uint32_t iref) const {
  if (is_created_form_id(iref)) return iref;
  if (iref >= ids_.size()) return std::nullopt;
  return ids_[iref];
}

void FormIdArray::index() const {
  for (; indexed_ < ids_.size(); ++indexed_) first_.try_emplace(ids_[indexed_], static_cast<std::uint32_t>(indexed_));
}

std::optional<std::uint32_t> FormIdArray::find_iref(std::uint32_t form_id) const {
  if (is_created_form_id(form_id)) return form_id;
  index();
  if (auto it = first_.find(form_id); it != first_.end()) return it->second;
  return std::nullopt;
}

std::uint32_t FormIdArray::iref_for(std::uint32_t form_id) {
  if (auto iref = find_iref(form_id)) return *iref;
  ids_.push_back(form_id);
  return static_cast<std::uint32_t>(ids_.size() - 1);
}

}  // namespace tesmod::save

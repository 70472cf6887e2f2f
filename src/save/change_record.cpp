#include "tesmod/save/change_record.hpp"

#include <fmt/format.h>

#include "tesmod/save/change_type.hpp"

namespace tesmod::save {

void ChangeRecord::set_data(std::vector<std::uint8_t> data, const std::string& file) {
  if (data.size() > kMaxChangeRecordData)
    throw Error(file, offset, ref(),
                fmt::format("the change record would hold {} bytes of data; its u16 size allows at most {}", data.size(),
                            kMaxChangeRecordData));
  owned_ = std::move(data);
  edited_ = true;
}

Signature ChangeRecord::type_signature() const { return change_type_signature(type); }

RecordRef ChangeRecord::ref() const { return RecordRef{type_signature(), form_id, {}}; }

}  // namespace tesmod::save

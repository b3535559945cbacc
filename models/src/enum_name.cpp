#include "enum_name.h"

#include <string>

#include "ascii_case.h"
#include "hopsim/signals/error.h"

namespace hopsim::models::detail {

int parseEnumName(const Model& model, std::string_view param, std::string_view value,
                  std::span<const std::string_view> names) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (equalsIgnoringCase(value, names[i])) return static_cast<int>(i);
  }
  std::string accepted;
  for (std::size_t i = 0; i < names.size(); ++i) {
    accepted += (i == 0 ? "" : ", ") + std::string(names[i]);
  }
  throw InputError("models." + model.name() + ".params." + std::string(param) +
                   ": unknown value '" + std::string(value) + "' (expected " + accepted +
                   ", in any case)");
}

}  // namespace hopsim::models::detail

#pragma once
// Enum-valued string params of the node actuators (activeDof, frame): the index of a name,
// in any case, or an error naming the param and the accepted names.

#include <span>
#include <string_view>

#include "hopsim/core/model.h"

namespace hopsim::models::detail {

/// The index of `value` in `names`, ignoring ASCII case.
/// @throws InputError "models.<m>.params.<param>: unknown value 'v' (expected A, B, in any
/// case)".
int parseEnumName(const Model& model, std::string_view param, std::string_view value,
                  std::span<const std::string_view> names);

}  // namespace hopsim::models::detail

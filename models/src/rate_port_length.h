#pragma once
// The check that a motor's vector flowIn has one entry per attached rate, shared by
// GeneralizedForceMotor and GeneralizedAccelMotor.

#include <string>

#include "hopsim/core/model.h"
#include "hopsim/signals/error.h"

namespace hopsim::models::detail {

/// @throws ModelError naming the model, the port, the signal and both lengths when flowIn
/// `index` (called `port`) of `model` is not tied to `nu` entries, the rates of the hinge of
/// `body` (subhinge -1) or of one of its subhinges.
inline void checkOneEntryPerRate(const Model& model, std::size_t index, const char* port, int nu,
                                 int subhinge, const std::string& body) {
  const SignalSlice& slice = model.binding(FieldRole::FlowIn, index);
  const std::string hinge =
      (subhinge < 0 ? "hinge" : "subhinge " + std::to_string(subhinge)) + " of body '" + body + "'";
  if (slice.length() != static_cast<std::size_t>(nu)) {
    throw ModelError(model.describe() + ": flowIn '" + port + "' is tied to '" + slice.describe() +
                     "' of length " + std::to_string(slice.length()) + " but the attached " +
                     hinge + " has nu = " + std::to_string(nu));
  }
}

}  // namespace hopsim::models::detail

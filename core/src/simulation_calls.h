#pragma once
// Private to core/src: how the executive calls one model method, with the model-method events
// registered around it, and a scoped flag. Shared by the hop sequence, the state propagator and
// the samplers.

#include "hopsim/core/simulation.h"

namespace hopsim {

/// Sets a flag for a scope and clears it on exit, exceptions included.
class FlagScope {
 public:
  explicit FlagScope(bool& flag) : flag_(&flag) { *flag_ = true; }
  ~FlagScope() { *flag_ = false; }
  FlagScope(const FlagScope&) = delete;
  FlagScope& operator=(const FlagScope&) = delete;

 private:
  bool* flag_;
};

template <class Call>
void Simulation::callModel(Model& model, ModelMethod method, double t, Call&& call) {
  if (ModelBinding::hasEventHook(model, method, false)) [[unlikely]] {
    events_.fireModelEvents(*this, model, method, EventTiming::Before, t);
  }
  call();
  if (ModelBinding::hasEventHook(model, method, true)) [[unlikely]] {
    events_.fireModelEvents(*this, model, method, EventTiming::After, t);
  }
}

}  // namespace hopsim

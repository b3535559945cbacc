#pragma once
// Private to core/src: how the executive calls one model method, with the model-method events
// registered around it, and a scoped value. Shared by the hop sequence, the state propagator and
// the samplers.

#include <utility>

#include "hopsim/core/simulation.h"

namespace hopsim {

/// Gives a variable a value for a scope and puts the previous value back on exit, exceptions
/// included: the executive's phase around a hop, a flag around callbacks.
template <class T>
class ScopedValue {
 public:
  ScopedValue(T& variable, T value)
      : variable_(&variable), previous_(std::exchange(variable, value)) {}
  ~ScopedValue() { *variable_ = previous_; }
  ScopedValue(const ScopedValue&) = delete;
  ScopedValue& operator=(const ScopedValue&) = delete;

 private:
  T* variable_;
  T previous_;
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

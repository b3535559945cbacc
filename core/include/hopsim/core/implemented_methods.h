#pragma once
/// @file
/// implementedMethods<M>(): which executive methods a model class overrides, found at compile
/// time, so the executive calls only those (the defaults are empty).

#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>

#include "hopsim/core/continuous_model.h"
#include "hopsim/core/model.h"

namespace hopsim {
namespace detail {

/// True unless name lookup of the method in M finds the declaration in Base, i.e. unless M
/// inherits Base's empty default. `lookup` names the member in its return type:
/// `[]<class T>() -> decltype(&T::startHop) { return nullptr; }`. A lookup that fails (an
/// overload set, a private override) counts as an override: calling an empty method is only
/// slower, skipping a real one would be wrong.
template <class M, class Base, class Lookup>
consteval bool overrides(Lookup lookup) {
  if constexpr (requires { lookup.template operator()<M>(); }) {
    return !std::is_same_v<decltype(lookup.template operator()<M>()),
                           decltype(lookup.template operator()<Base>())>;
  } else {
    return true;
  }
}

}  // namespace detail

/// The ModelMethods class M overrides. M must be the dynamic type of the model it describes,
/// which only the code that constructs an M knows: see makeModel.
template <class M>
consteval ModelMethodSet implementedMethods() {
  static_assert(std::is_base_of_v<Model, M>, "implementedMethods<M>: M must derive from Model");
  using detail::overrides;
  ModelMethodSet methods = 0;
  const auto add = [&](ModelMethod method, bool implemented) {
    if (implemented) methods |= methodBit(method);
  };
  add(ModelMethod::ProcessParams,
      overrides<M, Model>([]<class T>() -> decltype(&T::processParams) { return nullptr; }));
  add(ModelMethod::StartIoStep,
      overrides<M, Model>([]<class T>() -> decltype(&T::startIoStep) { return nullptr; }));
  add(ModelMethod::StartHop,
      overrides<M, Model>([]<class T>() -> decltype(&T::startHop) { return nullptr; }));
  add(ModelMethod::UpdateFlowOuts,
      overrides<M, Model>([]<class T>() -> decltype(&T::updateFlowOuts) { return nullptr; }));
  add(ModelMethod::EndHop,
      overrides<M, Model>([]<class T>() -> decltype(&T::endHop) { return nullptr; }));
  add(ModelMethod::EndIoStep,
      overrides<M, Model>([]<class T>() -> decltype(&T::endIoStep) { return nullptr; }));
  if constexpr (std::is_base_of_v<ContinuousModel, M>) {
    using C = ContinuousModel;
    add(ModelMethod::StartIntegrationStep,
        overrides<M, C>([]<class T>() -> decltype(&T::startIntegrationStep) { return nullptr; }));
    add(ModelMethod::PreDeriv,
        overrides<M, C>([]<class T>() -> decltype(&T::preDeriv) { return nullptr; }));
    add(ModelMethod::PostDeriv,
        overrides<M, C>([]<class T>() -> decltype(&T::postDeriv) { return nullptr; }));
    add(ModelMethod::EndIntegrationStep,
        overrides<M, C>([]<class T>() -> decltype(&T::endIntegrationStep) { return nullptr; }));
    add(ModelMethod::MaskedCoordinates,
        overrides<M, C>([]<class T>() -> decltype(&T::maskedCoordinates) { return nullptr; }));
  }
  return methods;
}

namespace detail {

// A run of models whose dynamic type is M: the qualified calls (M::startHop) are direct calls
// to the overrider M has, which the compiler can inline into the loop.

template <class M>
void startHopOf(Model* const* models, std::size_t count, double t0, double t1) {
  for (std::size_t i = 0; i < count; ++i) static_cast<M*>(models[i])->M::startHop(t0, t1);
}
template <class M>
void updateFlowOutsOf(Model* const* models, std::size_t count, double t) {
  for (std::size_t i = 0; i < count; ++i) {
    const ModelBinding::OutputWrites writes(*models[i]);
    static_cast<M*>(models[i])->M::updateFlowOuts(t);
  }
}
template <class M>
void endHopOf(Model* const* models, std::size_t count, double t0, double t1) {
  for (std::size_t i = 0; i < count; ++i) static_cast<M*>(models[i])->M::endHop(t0, t1);
}
template <class M>
void preDerivOf(Model* const* models, std::size_t count, double t) {
  for (std::size_t i = 0; i < count; ++i) static_cast<M*>(models[i])->M::preDeriv(t);
}
template <class M>
void postDerivOf(Model* const* models, std::size_t count, double t) {
  for (std::size_t i = 0; i < count; ++i) static_cast<M*>(models[i])->M::postDeriv(t);
}

}  // namespace detail

/// The ModelClassCalls of class M: a function for each method the executive may call on runs of
/// models, where M's overrider can be named from here (a private or protected override cannot:
/// its models are then called through the virtual method).
template <class M>
consteval ModelClassCalls classCallsOf() {
  ModelClassCalls calls;
  if constexpr (requires(M & m) { m.M::startHop(0.0, 0.0); }) {
    calls.startHop = &detail::startHopOf<M>;
  }
  if constexpr (requires(M & m) { m.M::updateFlowOuts(0.0); }) {
    calls.updateFlowOuts = &detail::updateFlowOutsOf<M>;
  }
  if constexpr (requires(M & m) { m.M::endHop(0.0, 0.0); }) calls.endHop = &detail::endHopOf<M>;
  if constexpr (std::is_base_of_v<ContinuousModel, M>) {
    if constexpr (requires(M & m) { m.M::preDeriv(0.0); }) calls.preDeriv = &detail::preDerivOf<M>;
    if constexpr (requires(M & m) { m.M::postDeriv(0.0); }) {
      calls.postDeriv = &detail::postDerivOf<M>;
    }
  }
  return calls;
}

namespace detail {
template <class M>
inline constexpr ModelClassCalls kClassCalls = classCallsOf<M>();
}  // namespace detail

/// Constructs a model of class M that tells the executive which methods M overrides, so the
/// others (empty defaults) are never called, and how to call M's methods on a run of models of
/// class M without a virtual call each: `sim.addModel(makeModel<Tank>("tank", "rocket"))`.
/// Simulation::addModel<M>, Assembly::addModel<M> and ModelRegistry::add<M> construct models
/// this way; a model made with std::make_unique has every method called, one virtual call each.
template <class M, class... Args>
std::unique_ptr<M> makeModel(Args&&... args) {
  auto model = std::make_unique<M>(std::forward<Args>(args)...);
  ModelBinding::setImplementedMethods(*model, implementedMethods<M>());
  ModelBinding::setClassCalls(*model, &detail::kClassCalls<M>);
  return model;
}

}  // namespace hopsim

#pragma once
/// @file
/// implementedMethods<M>(): which executive methods a model class overrides, found at compile
/// time, so the executive calls only those (the defaults are empty).

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

/// Constructs a model of class M that tells the executive which methods M overrides, so the
/// others (empty defaults) are never called: `sim.addModel(makeModel<Tank>("tank", "rocket"))`.
/// Simulation::addModel<M>, Assembly::addModel<M> and ModelRegistry::add<M> construct models
/// this way; a model made with std::make_unique has every method called.
template <class M, class... Args>
std::unique_ptr<M> makeModel(Args&&... args) {
  auto model = std::make_unique<M>(std::forward<Args>(args)...);
  ModelBinding::setImplementedMethods(*model, implementedMethods<M>());
  return model;
}

}  // namespace hopsim

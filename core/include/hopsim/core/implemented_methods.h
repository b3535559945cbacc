#pragma once
/// @file
/// implementedMethods<M>(): which executive methods a model class overrides, found at compile
/// time, so the executive calls only those (the defaults are empty).

#include <cstddef>
#include <memory>
#include <type_traits>
#include <typeinfo>
#include <utility>

#include "hopsim/core/continuous_model.h"
#include "hopsim/core/model.h"
#include "hopsim/core/model_run.h"

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

// Run methods (model_run.h): static functions of M that take a ModelRun<M>.
template <class M>
concept HasStartHopRun = requires(const ModelRun<M>& run) {
  M::startHopRun(run, 0.0, 0.0);
};
template <class M>
concept HasUpdateFlowOutsRun = requires(const ModelRun<M>& run) {
  M::updateFlowOutsRun(run, 0.0);
};
template <class M>
concept HasEndHopRun = requires(const ModelRun<M>& run) {
  M::endHopRun(run, 0.0, 0.0);
};
template <class M>
concept HasPreDerivRun = requires(const ModelRun<M>& run) {
  M::preDerivRun(run, 0.0);
};
template <class M>
concept HasPostDerivRun = requires(const ModelRun<M>& run) {
  M::postDerivRun(run, 0.0);
};
template <class M>
concept HasRunMethods = HasStartHopRun<M> || HasUpdateFlowOutsRun<M> || HasEndHopRun<M> ||
    HasPreDerivRun<M> || HasPostDerivRun<M>;

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
  // A method written as a run method counts as implemented; a class writes it one way only.
  constexpr bool overridesStartHop =
      overrides<M, Model>([]<class T>() -> decltype(&T::startHop) { return nullptr; });
  constexpr bool overridesUpdate =
      overrides<M, Model>([]<class T>() -> decltype(&T::updateFlowOuts) { return nullptr; });
  constexpr bool overridesEndHop =
      overrides<M, Model>([]<class T>() -> decltype(&T::endHop) { return nullptr; });
  static_assert(!(overridesStartHop && detail::HasStartHopRun<M>),
                "a model class writes startHop or startHopRun, not both");
  static_assert(!(overridesUpdate && detail::HasUpdateFlowOutsRun<M>),
                "a model class writes updateFlowOuts or updateFlowOutsRun, not both");
  static_assert(!(overridesEndHop && detail::HasEndHopRun<M>),
                "a model class writes endHop or endHopRun, not both");
  add(ModelMethod::StartHop, overridesStartHop || detail::HasStartHopRun<M>);
  add(ModelMethod::UpdateFlowOuts, overridesUpdate || detail::HasUpdateFlowOutsRun<M>);
  add(ModelMethod::EndHop, overridesEndHop || detail::HasEndHopRun<M>);
  add(ModelMethod::EndIoStep,
      overrides<M, Model>([]<class T>() -> decltype(&T::endIoStep) { return nullptr; }));
  if constexpr (std::is_base_of_v<ContinuousModel, M>) {
    using C = ContinuousModel;
    add(ModelMethod::StartIntegrationStep,
        overrides<M, C>([]<class T>() -> decltype(&T::startIntegrationStep) { return nullptr; }));
    constexpr bool overridesPreDeriv =
        overrides<M, C>([]<class T>() -> decltype(&T::preDeriv) { return nullptr; });
    constexpr bool overridesPostDeriv =
        overrides<M, C>([]<class T>() -> decltype(&T::postDeriv) { return nullptr; });
    static_assert(!(overridesPreDeriv && detail::HasPreDerivRun<M>),
                  "a model class writes preDeriv or preDerivRun, not both");
    static_assert(!(overridesPostDeriv && detail::HasPostDerivRun<M>),
                  "a model class writes postDeriv or postDerivRun, not both");
    add(ModelMethod::PreDeriv, overridesPreDeriv || detail::HasPreDerivRun<M>);
    add(ModelMethod::PostDeriv, overridesPostDeriv || detail::HasPostDerivRun<M>);
    add(ModelMethod::EndIntegrationStep,
        overrides<M, C>([]<class T>() -> decltype(&T::endIntegrationStep) { return nullptr; }));
    add(ModelMethod::MaskedCoordinates,
        overrides<M, C>([]<class T>() -> decltype(&T::maskedCoordinates) { return nullptr; }));
  }
  return methods;
}

namespace detail {

// A run of models whose dynamic type is M: the qualified calls (M::startHop) are direct calls
// to the overrider M has, which the compiler can inline into the loop. The run's fields are
// for run methods only.

template <class M>
void startHopOf(Model* const* models, std::size_t count, const RunFields*, double t0, double t1) {
  for (std::size_t i = 0; i < count; ++i) static_cast<M*>(models[i])->M::startHop(t0, t1);
}
template <class M>
void updateFlowOutsOf(Model* const* models, std::size_t count, const RunFields*, double t) {
  for (std::size_t i = 0; i < count; ++i) {
    const ModelBinding::OutputWrites writes(*models[i]);
    static_cast<M*>(models[i])->M::updateFlowOuts(t);
  }
}
template <class M>
void endHopOf(Model* const* models, std::size_t count, const RunFields*, double t0, double t1) {
  for (std::size_t i = 0; i < count; ++i) static_cast<M*>(models[i])->M::endHop(t0, t1);
}
template <class M>
void preDerivOf(Model* const* models, std::size_t count, const RunFields*, double t) {
  for (std::size_t i = 0; i < count; ++i) static_cast<M*>(models[i])->M::preDeriv(t);
}
template <class M>
void postDerivOf(Model* const* models, std::size_t count, const RunFields*, double t) {
  for (std::size_t i = 0; i < count; ++i) static_cast<M*>(models[i])->M::postDeriv(t);
}

// A run of models of class M that has run methods (model_run.h): one call for the whole run.

template <class M>
void startHopRunOf(Model* const* models, std::size_t count, const RunFields* fields, double t0,
                   double t1) {
  M::startHopRun(ModelRun<M>(models, count, *fields, false), t0, t1);
}
template <class M>
void updateFlowOutsRunOf(Model* const* models, std::size_t count, const RunFields* fields,
                         double t) {
  M::updateFlowOutsRun(ModelRun<M>(models, count, *fields, true), t);
}
template <class M>
void endHopRunOf(Model* const* models, std::size_t count, const RunFields* fields, double t0,
                 double t1) {
  M::endHopRun(ModelRun<M>(models, count, *fields, false), t0, t1);
}
template <class M>
void preDerivRunOf(Model* const* models, std::size_t count, const RunFields* fields, double t) {
  M::preDerivRun(ModelRun<M>(models, count, *fields, false), t);
}
template <class M>
void postDerivRunOf(Model* const* models, std::size_t count, const RunFields* fields, double t) {
  M::postDerivRun(ModelRun<M>(models, count, *fields, false), t);
}

// Models whose class is unknown: one virtual call each.

inline void startHopVirtual(Model* const* models, std::size_t count, const RunFields*, double t0,
                            double t1) {
  for (std::size_t i = 0; i < count; ++i) models[i]->startHop(t0, t1);
}
inline void updateFlowOutsVirtual(Model* const* models, std::size_t count, const RunFields*,
                                  double t) {
  for (std::size_t i = 0; i < count; ++i) {
    const ModelBinding::OutputWrites writes(*models[i]);
    models[i]->updateFlowOuts(t);
  }
}
inline void endHopVirtual(Model* const* models, std::size_t count, const RunFields*, double t0,
                          double t1) {
  for (std::size_t i = 0; i < count; ++i) models[i]->endHop(t0, t1);
}
inline void preDerivVirtual(Model* const* models, std::size_t count, const RunFields*, double t) {
  for (std::size_t i = 0; i < count; ++i) static_cast<ContinuousModel*>(models[i])->preDeriv(t);
}
inline void postDerivVirtual(Model* const* models, std::size_t count, const RunFields*, double t) {
  for (std::size_t i = 0; i < count; ++i) static_cast<ContinuousModel*>(models[i])->postDeriv(t);
}

}  // namespace detail

/// The calls the executive makes on models whose class it does not know (made with
/// std::make_unique, Python classes), or whose overrider it cannot name: one virtual call each.
inline constexpr ModelClassCalls kVirtualClassCalls{
    .startHop = &detail::startHopVirtual,
    .updateFlowOuts = &detail::updateFlowOutsVirtual,
    .endHop = &detail::endHopVirtual,
    .preDeriv = &detail::preDerivVirtual,
    .postDeriv = &detail::postDerivVirtual,
};

/// The ModelClassCalls of class M: for each method the executive may call on runs of models, a
/// function that calls M's run method once for the whole run, or else M's overrider on each
/// model, where it can be named from here (a private or protected override cannot: its models
/// are then called through the virtual method).
template <class M>
consteval ModelClassCalls classCallsOf() {
  ModelClassCalls calls;
  if constexpr (detail::HasStartHopRun<M>) {
    calls.startHop = &detail::startHopRunOf<M>;
  } else if constexpr (requires(M & m) { m.M::startHop(0.0, 0.0); }) {
    calls.startHop = &detail::startHopOf<M>;
  }
  if constexpr (detail::HasUpdateFlowOutsRun<M>) {
    calls.updateFlowOuts = &detail::updateFlowOutsRunOf<M>;
  } else if constexpr (requires(M & m) { m.M::updateFlowOuts(0.0); }) {
    calls.updateFlowOuts = &detail::updateFlowOutsOf<M>;
  }
  if constexpr (detail::HasEndHopRun<M>) {
    calls.endHop = &detail::endHopRunOf<M>;
  } else if constexpr (requires(M & m) { m.M::endHop(0.0, 0.0); }) {
    calls.endHop = &detail::endHopOf<M>;
  }
  if constexpr (std::is_base_of_v<ContinuousModel, M>) {
    if constexpr (detail::HasPreDerivRun<M>) {
      calls.preDeriv = &detail::preDerivRunOf<M>;
    } else if constexpr (requires(M & m) { m.M::preDeriv(0.0); }) {
      calls.preDeriv = &detail::preDerivOf<M>;
    }
    if constexpr (detail::HasPostDerivRun<M>) {
      calls.postDeriv = &detail::postDerivRunOf<M>;
    } else if constexpr (requires(M & m) { m.M::postDeriv(0.0); }) {
      calls.postDeriv = &detail::postDerivOf<M>;
    }
  }
  calls.usesRunFields = detail::HasRunMethods<M>;
  return calls;
}

namespace detail {
template <class M>
inline constexpr ModelClassCalls kClassCalls = classCallsOf<M>();
}  // namespace detail

/// Tells the executive that `model`'s class is M, when it is (its dynamic type, not a class
/// derived from M): which methods M overrides, so the others (empty defaults) are never called,
/// and how to call M's methods, or its run methods, on a run of models of class M without a
/// virtual call each. A model whose class the executive does not know has every method called,
/// one virtual call each, and its class's run methods never.
template <class M>
void recognizeClass(M& model) {
  if (typeid(model) != typeid(M)) return;
  ModelBinding::setImplementedMethods(model, implementedMethods<M>());
  ModelBinding::setClassCalls(model, &detail::kClassCalls<M>);
}

/// Constructs a model of class M that the executive knows the class of (recognizeClass):
/// `sim.addModel(makeModel<Tank>("tank", "rocket"))`. Simulation::addModel<M>,
/// Assembly::addModel<M> and ModelRegistry::add<M> construct models this way, and
/// Simulation::addModel recognizes a model passed as a std::unique_ptr of its own class.
template <class M, class... Args>
std::unique_ptr<M> makeModel(Args&&... args) {
  auto model = std::make_unique<M>(std::forward<Args>(args)...);
  recognizeClass(*model);
  return model;
}

}  // namespace hopsim

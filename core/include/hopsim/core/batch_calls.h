#pragma once
/// @file
/// What the executive knows of a model class, found at compile time: which executive methods it
/// overrides (implementedMethods<M>(), so the executive calls only those; the defaults are
/// empty), and how to call a batch of its models through one call (batchCallsOf<M>()).

#include <cstddef>
#include <memory>
#include <type_traits>
#include <typeinfo>
#include <utility>

#include "hopsim/core/continuous_model.h"
#include "hopsim/core/model.h"
#include "hopsim/core/model_batch.h"

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

// Batch methods (model_batch.h): static functions of M that take a ModelBatch<M>.
template <class M>
concept HasStartHopBatch = requires(const ModelBatch<M>& batch) {
  M::startHopBatch(batch, 0.0, 0.0);
};
template <class M>
concept HasUpdateFlowOutsBatch = requires(const ModelBatch<M>& batch) {
  M::updateFlowOutsBatch(batch, 0.0);
};
template <class M>
concept HasEndHopBatch = requires(const ModelBatch<M>& batch) {
  M::endHopBatch(batch, 0.0, 0.0);
};
template <class M>
concept HasPreDerivBatch = requires(const ModelBatch<M>& batch) {
  M::preDerivBatch(batch, 0.0);
};
template <class M>
concept HasPostDerivBatch = requires(const ModelBatch<M>& batch) {
  M::postDerivBatch(batch, 0.0);
};
template <class M>
concept HasBatchMethods = HasStartHopBatch<M> || HasUpdateFlowOutsBatch<M> || HasEndHopBatch<M> ||
    HasPreDerivBatch<M> || HasPostDerivBatch<M>;

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
  // A method written as a batch method counts as implemented; a class writes it one way only.
  constexpr bool overridesStartHop =
      overrides<M, Model>([]<class T>() -> decltype(&T::startHop) { return nullptr; });
  constexpr bool overridesUpdate =
      overrides<M, Model>([]<class T>() -> decltype(&T::updateFlowOuts) { return nullptr; });
  constexpr bool overridesEndHop =
      overrides<M, Model>([]<class T>() -> decltype(&T::endHop) { return nullptr; });
  static_assert(!(overridesStartHop && detail::HasStartHopBatch<M>),
                "a model class writes startHop or startHopBatch, not both");
  static_assert(!(overridesUpdate && detail::HasUpdateFlowOutsBatch<M>),
                "a model class writes updateFlowOuts or updateFlowOutsBatch, not both");
  static_assert(!(overridesEndHop && detail::HasEndHopBatch<M>),
                "a model class writes endHop or endHopBatch, not both");
  add(ModelMethod::StartHop, overridesStartHop || detail::HasStartHopBatch<M>);
  add(ModelMethod::UpdateFlowOuts, overridesUpdate || detail::HasUpdateFlowOutsBatch<M>);
  add(ModelMethod::EndHop, overridesEndHop || detail::HasEndHopBatch<M>);
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
    static_assert(!(overridesPreDeriv && detail::HasPreDerivBatch<M>),
                  "a model class writes preDeriv or preDerivBatch, not both");
    static_assert(!(overridesPostDeriv && detail::HasPostDerivBatch<M>),
                  "a model class writes postDeriv or postDerivBatch, not both");
    add(ModelMethod::PreDeriv, overridesPreDeriv || detail::HasPreDerivBatch<M>);
    add(ModelMethod::PostDeriv, overridesPostDeriv || detail::HasPostDerivBatch<M>);
    add(ModelMethod::EndIntegrationStep,
        overrides<M, C>([]<class T>() -> decltype(&T::endIntegrationStep) { return nullptr; }));
    add(ModelMethod::MaskedCoordinates,
        overrides<M, C>([]<class T>() -> decltype(&T::maskedCoordinates) { return nullptr; }));
  }
  return methods;
}

namespace detail {

// The batch functions of a class written per instance: a loop over the batch's models, whose
// dynamic type is M, so that the qualified calls (M::startHop) are direct calls to the overrider
// M has, which the compiler can inline into the loop. The batch's fields are for batch methods
// only.

/// Calls `call(model)` on each of the `count` models at `models`, of dynamic type M (Model: any),
/// in order.
template <class M, class Call>
void forEachInBatch(Model* const* models, std::size_t count, Call&& call) {
  for (std::size_t i = 0; i < count; ++i) call(static_cast<M*>(models[i]));
}

template <class M>
void startHopOf(Model* const* models, std::size_t count, const BatchFields*, double t0, double t1) {
  forEachInBatch<M>(models, count, [&](M* model) { model->M::startHop(t0, t1); });
}
template <class M>
void updateFlowOutsOf(Model* const* models, std::size_t count, const BatchFields*, double t) {
  forEachInBatch<M>(models, count, [&](M* model) {
    const ModelBinding::OutputWrites writes(*model);
    model->M::updateFlowOuts(t);
  });
}
template <class M>
void endHopOf(Model* const* models, std::size_t count, const BatchFields*, double t0, double t1) {
  forEachInBatch<M>(models, count, [&](M* model) { model->M::endHop(t0, t1); });
}
template <class M>
void preDerivOf(Model* const* models, std::size_t count, const BatchFields*, double t) {
  forEachInBatch<M>(models, count, [&](M* model) { model->M::preDeriv(t); });
}
template <class M>
void postDerivOf(Model* const* models, std::size_t count, const BatchFields*, double t) {
  forEachInBatch<M>(models, count, [&](M* model) { model->M::postDeriv(t); });
}

// A batch of models of class M that has batch methods (model_batch.h): one call for the whole
// batch.

template <class M>
void startHopBatchOf(Model* const* models, std::size_t count, const BatchFields* fields, double t0,
                     double t1) {
  M::startHopBatch(ModelBatch<M>(models, count, *fields, false), t0, t1);
}
template <class M>
void updateFlowOutsBatchOf(Model* const* models, std::size_t count, const BatchFields* fields,
                           double t) {
  M::updateFlowOutsBatch(ModelBatch<M>(models, count, *fields, true), t);
}
template <class M>
void endHopBatchOf(Model* const* models, std::size_t count, const BatchFields* fields, double t0,
                   double t1) {
  M::endHopBatch(ModelBatch<M>(models, count, *fields, false), t0, t1);
}
template <class M>
void preDerivBatchOf(Model* const* models, std::size_t count, const BatchFields* fields, double t) {
  M::preDerivBatch(ModelBatch<M>(models, count, *fields, false), t);
}
template <class M>
void postDerivBatchOf(Model* const* models, std::size_t count, const BatchFields* fields,
                      double t) {
  M::postDerivBatch(ModelBatch<M>(models, count, *fields, false), t);
}

// Models whose class is unknown: one virtual call each.

inline void startHopVirtual(Model* const* models, std::size_t count, const BatchFields*, double t0,
                            double t1) {
  forEachInBatch<Model>(models, count, [&](Model* model) { model->startHop(t0, t1); });
}
inline void updateFlowOutsVirtual(Model* const* models, std::size_t count, const BatchFields*,
                                  double t) {
  forEachInBatch<Model>(models, count, [&](Model* model) {
    const ModelBinding::OutputWrites writes(*model);
    model->updateFlowOuts(t);
  });
}
inline void endHopVirtual(Model* const* models, std::size_t count, const BatchFields*, double t0,
                          double t1) {
  forEachInBatch<Model>(models, count, [&](Model* model) { model->endHop(t0, t1); });
}
inline void preDerivVirtual(Model* const* models, std::size_t count, const BatchFields*, double t) {
  forEachInBatch<ContinuousModel>(models, count,
                                  [&](ContinuousModel* model) { model->preDeriv(t); });
}
inline void postDerivVirtual(Model* const* models, std::size_t count, const BatchFields*,
                             double t) {
  forEachInBatch<ContinuousModel>(models, count,
                                  [&](ContinuousModel* model) { model->postDeriv(t); });
}

}  // namespace detail

/// The batch functions for models whose class the executive does not know (Python classes, a
/// class the program never names to recognizeClass), or whose overrider it cannot name: one
/// virtual call each.
inline constexpr BatchCalls kVirtualBatchCalls{
    .startHop = &detail::startHopVirtual,
    .updateFlowOuts = &detail::updateFlowOutsVirtual,
    .endHop = &detail::endHopVirtual,
    .preDeriv = &detail::preDerivVirtual,
    .postDeriv = &detail::postDerivVirtual,
};

/// The BatchCalls of class M: for each method the executive calls on batches of models, a
/// function that calls M's batch method once for the whole batch, or else loops over the batch
/// calling M's overrider on each model, where it can be named from here (a private or protected
/// override cannot: its models are then called through the virtual method).
template <class M>
consteval BatchCalls batchCallsOf() {
  BatchCalls calls;
  if constexpr (detail::HasStartHopBatch<M>) {
    calls.startHop = &detail::startHopBatchOf<M>;
  } else if constexpr (requires(M & m) { m.M::startHop(0.0, 0.0); }) {
    calls.startHop = &detail::startHopOf<M>;
  }
  if constexpr (detail::HasUpdateFlowOutsBatch<M>) {
    calls.updateFlowOuts = &detail::updateFlowOutsBatchOf<M>;
  } else if constexpr (requires(M & m) { m.M::updateFlowOuts(0.0); }) {
    calls.updateFlowOuts = &detail::updateFlowOutsOf<M>;
  }
  if constexpr (detail::HasEndHopBatch<M>) {
    calls.endHop = &detail::endHopBatchOf<M>;
  } else if constexpr (requires(M & m) { m.M::endHop(0.0, 0.0); }) {
    calls.endHop = &detail::endHopOf<M>;
  }
  if constexpr (std::is_base_of_v<ContinuousModel, M>) {
    if constexpr (detail::HasPreDerivBatch<M>) {
      calls.preDeriv = &detail::preDerivBatchOf<M>;
    } else if constexpr (requires(M & m) { m.M::preDeriv(0.0); }) {
      calls.preDeriv = &detail::preDerivOf<M>;
    }
    if constexpr (detail::HasPostDerivBatch<M>) {
      calls.postDeriv = &detail::postDerivBatchOf<M>;
    } else if constexpr (requires(M & m) { m.M::postDeriv(0.0); }) {
      calls.postDeriv = &detail::postDerivOf<M>;
    }
  }
  calls.readsBatchFields = detail::HasBatchMethods<M>;
  return calls;
}

namespace detail {
template <class M>
inline constexpr BatchCalls kBatchCalls = batchCallsOf<M>();

/// Files what the executive knows of class `type` (the methods it overrides, its batch calls)
/// for recognizeClassOf. Returns true, for the static initializer below.
bool fileModelClass(const std::type_info& type, ModelMethodSet methods, const BatchCalls* calls);
/// Class M, filed when the program loads: every class that some code names to recognizeClass
/// (makeModel<M>, addModel<M>, ModelRegistry::add<M>, ...) is then known by its type_info too.
template <class M>
inline const bool kFiled = fileModelClass(typeid(M), implementedMethods<M>(), &kBatchCalls<M>);
}  // namespace detail

/// Tells the executive what it needs to know of `model`'s class, found from its dynamic type
/// among the classes the program names anywhere to recognizeClass (a library model made by its
/// registry, a class the program also adds with addModel<M>): which methods it overrides and how
/// to call a batch of its models. A model of a class the program never names keeps every method
/// called, one virtual call each (and a class's batch methods are then never called: name the
/// class once, see docs/model-authors.md, "Batches"). Simulation::addModel and
/// Assembly::adoptModel call it for a model passed as a std::unique_ptr<Model>.
void recognizeClassOf(Model& model);

/// Tells the executive that `model`'s class is M: which methods M overrides, so the others
/// (empty defaults) are never called, and how to call M's methods, or its batch methods, on a
/// batch of models of class M through one call (BatchCalls). When M is not the model's dynamic
/// type (a class derived from M), the dynamic type is looked up as recognizeClassOf does.
template <class M>
void recognizeClass(M& model) {
  static_cast<void>(detail::kFiled<M>);
  if (typeid(model) != typeid(M)) {
    recognizeClassOf(model);
    return;
  }
  ModelBinding::setImplementedMethods(model, implementedMethods<M>());
  ModelBinding::setBatchCalls(model, &detail::kBatchCalls<M>);
}

/// Constructs a model of class M that the executive knows the class of (recognizeClass):
/// `sim.addModel(makeModel<Tank>("tank", "rocket"))`. Simulation::addModel<M>,
/// Assembly::addModel<M> and ModelRegistry::add<M> construct models this way.
template <class M, class... Args>
std::unique_ptr<M> makeModel(Args&&... args) {
  auto model = std::make_unique<M>(std::forward<Args>(args)...);
  recognizeClass(*model);
  return model;
}

}  // namespace hopsim

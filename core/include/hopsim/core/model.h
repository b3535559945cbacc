#pragma once
/// @file
/// Model: the base of every component model (FlowModel, ContinuousModel, DartsModel, ...).

#include <Eigen/Core>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "hopsim/core/model_spec.h"
#include "hopsim/signals/buffer.h"
#include "hopsim/signals/signal.h"

namespace hopsim {

class Simulation;

/// The model methods the executive calls, as named by model-method events.
enum class ModelMethod : std::uint8_t {
  ProcessParams,
  StartIoStep,
  StartHop,
  UpdateFlowOuts,
  EndHop,
  EndIoStep,
  StartIntegrationStep,
  PreDeriv,
  PostDeriv,
  EndIntegrationStep,
  MaskedCoordinates,
};
inline constexpr int kModelMethodCount = 11;
/// "startHop", "updateFlowOuts", ... as the seed spells them.
const char* toString(ModelMethod method);

/// A set of model methods: bit `m` for ModelMethod m.
using ModelMethodSet = std::uint16_t;
constexpr ModelMethodSet methodBit(ModelMethod method) {
  return static_cast<ModelMethodSet>(1u << static_cast<unsigned>(method));
}
inline constexpr ModelMethodSet kEveryModelMethod = (1u << kModelMethodCount) - 1;

class Model;
class BatchFields;

/// One model class's batch functions: each calls an executive method on a batch of consecutive
/// models of the class with one call, either looping over the batch with one direct
/// (non-virtual, inlinable) call per model, or calling the class's batch method once for the
/// whole batch (model_batch.h). The executive hands each function batches of its call lists
/// whose models' dynamic type is the class the functions were made for (batchCallsOf<M>() in
/// batch_calls.h, set by recognizeClass), and, for batch methods, where their fields live. A
/// null function: the models are called through the virtual method.
struct BatchCalls {
  using HopMethod = void (*)(Model* const* models, std::size_t count, const BatchFields* fields,
                             double t0, double t1);
  using TimeMethod = void (*)(Model* const* models, std::size_t count, const BatchFields* fields,
                              double t);
  HopMethod startHop = nullptr;
  TimeMethod updateFlowOuts = nullptr;  // with the output-write permission around each call
  HopMethod endHop = nullptr;
  TimeMethod preDeriv = nullptr;  // ContinuousModel classes only
  TimeMethod postDeriv = nullptr;
  /// The class has batch methods, which read the batch's BatchFields: the executive builds them.
  bool readsBatchFields = false;
};

/// A component model. A model class declares its fields once (a struct derived from ModelSpec)
/// and overrides only the methods it needs. Every method receives its times, in seconds, as
/// arguments: models never ask what time it is. Rules (seed 1.2.1.1.4): only updateFlowOuts
/// writes flow outputs, and calling it twice changes nothing; models never call each other nor
/// read another model's state; a model never deactivates itself.
class Model {
 public:
  virtual ~Model() = default;
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  const std::string& name() const { return name_; }
  const ModelSpec& spec() const { return *spec_; }
  ModelKind kind() const { return spec_->kind(); }
  /// "model 'engine' (Thruster)", for messages.
  std::string describe() const;

  // ---- methods the executive calls; times in seconds -------------------------------------

  /// After ports are tied and variable lengths resolved, at lock(). Allocate here.
  virtual void setup() {}
  /// Before the first hop after lock() and before any hop that follows a parameter change.
  virtual void processParams(double /*t*/) {}
  /// At the start of this model's own I/O step [tStart, tEnd] (its rate, not every hop).
  virtual void startIoStep(double /*tStart*/, double /*tEnd*/) {}
  /// At the start of every hop [t0, t1]: discrete-state updates across the hop.
  virtual void startHop(double /*t0*/, double /*t1*/) {}
  /// Computes the flow outputs at t from inputs, states and t. Side-effect free.
  virtual void updateFlowOuts(double /*t*/) {}
  /// At the end of every hop [t0, t1].
  virtual void endHop(double /*t0*/, double /*t1*/) {}
  /// At the end of this model's own I/O step [tStart, tEnd].
  virtual void endIoStep(double /*tStart*/, double /*tEnd*/) {}

  // ---- zero-crossing conditions the class declares (ModelSpec::zeroCrossing) --------------

  /// The residual g(t) of the declared condition `c`. The executive calls it with the
  /// continuous states and ContinuousModel outputs set for t (also at trial instants while it
  /// localizes a crossing); it must read them and change nothing. A class that declares
  /// conditions must override it. @throws ModelError from this default.
  virtual double crossingResidual(CrossingKey c, double t);
  /// Called at the located time of a crossing of `c`, after the hop was rolled back and re-run
  /// to end there. It may change discrete and continuous states (a reset).
  virtual void onCrossing(CrossingKey /*c*/, double /*t*/) {}

  // ---- fields by name: introspection and validated access --------------------------------

  /// The current value of a declared field; for ports, the value of the tied signal slice.
  /// @throws InputError for an unknown field or an untied port.
  Value get(FieldRole role, std::string_view field) const;
  /// Sets a param, discrete state, continuous state or scratch field after checking type,
  /// length and bounds; a rejected value leaves the field unchanged. Setting a param makes the
  /// executive call processParams before the next hop; setting any field makes it recompute
  /// every output at the start of the next hop (docs/executive.md, "Values set between hops").
  /// @throws InputError naming the model, field, value and the check that failed.
  void set(FieldRole role, std::string_view field, const Value& value);
  void setParam(std::string_view field, const Value& value) { set(FieldRole::Param, field, value); }

  /// The value storage of a param/state/scratch field (read-only view).
  const Buffer& fieldBuffer(FieldRole role, std::size_t index) const;
  /// What a port is tied to (invalid slice when untied). After lock(), an output left untied,
  /// or an input left untied that declares a default, is tied to a signal of its own (below).
  const SignalSlice& binding(FieldRole port, std::size_t index) const;
  /// True when the port was left untied and lock() gave it a signal of its own, which no other
  /// model reads or writes: an output nobody uses, or an input that reads its declared default.
  bool ownsSignal(FieldRole port, std::size_t index) const;

  /// Copies every declared discrete state into `into` (resized on first use only).
  void saveDiscreteStates(std::vector<Buffer>& into) const;
  /// Restores discrete states saved by saveDiscreteStates from the same model.
  void restoreDiscreteStates(const std::vector<Buffer>& from);
  /// Copies every declared continuous state into `into` (resized on first use only).
  void saveContinuousStates(std::vector<Buffer>& into) const;
  /// Restores continuous states saved by saveContinuousStates from the same model.
  void restoreContinuousStates(const std::vector<Buffer>& from);

  /// Everything a derivative evaluation or an output update may write in a model: continuous
  /// states (masked ones included), their derivatives, scratch, and the values and freshness
  /// counters of the signals its outputs are tied to.
  struct EvaluationState {
    std::vector<Buffer> continuousStates;
    std::vector<Buffer> derivatives;
    std::vector<Buffer> scratch;
    std::vector<Buffer> outputSignals;  // whole signals, one per output port
    std::vector<std::uint64_t> outputVersions;
  };
  /// Copies the evaluation state into `into` (allocating on first use only).
  void saveEvaluationState(EvaluationState& into) const;
  /// Puts back an evaluation state saved from the same model since its last lock(), in place
  /// (the state vector keeps pointing at the same storage).
  void restoreEvaluationState(const EvaluationState& from);

 protected:
  /// @param classKind the kind of the C++ class deriving from Model; must match spec.kind().
  /// @throws InputError for a malformed name, ModelError for a kind mismatch.
  Model(std::string name, const ModelSpec& spec, ModelKind classKind);

  /// set() for the model's own methods (a Python model writing its states and scratch): the
  /// same checks, but not a value given from outside, so it leaves the outputs to the
  /// granularity. @throws InputError as set() does.
  void setOwnField(FieldRole role, std::string_view field, const Value& value);

  // ---- typed access for model authors ----------------------------------------------------

  template <class T>
  decltype(auto) param(ParamKey<T> key) const {
    return constRef<T>(values(FieldRole::Param)[key.index]);
  }
  template <class T>
  decltype(auto) state(DiscreteStateKey<T> key) {
    return mutableRef<T>(values(FieldRole::DiscreteState)[key.index]);
  }
  template <class T>
  decltype(auto) state(DiscreteStateKey<T> key) const {
    return constRef<T>(values(FieldRole::DiscreteState)[key.index]);
  }
  /// The value of a continuous state: during a derivative evaluation, the integrator's trial
  /// value; between evaluations, the last accepted one.
  template <class T>
  decltype(auto) state(ContinuousStateKey<T> key) const {
    return constRef<T>(values(FieldRole::ContinuousState)[key.index]);
  }
  /// Writable continuous state, for maskedCoordinates (prescribed elements) and for
  /// discontinuous resets in startHop/startIntegrationStep. Integrated elements written inside a
  /// derivative evaluation are overwritten by the integrator.
  template <class T>
  decltype(auto) state(ContinuousStateKey<T> key) {
    return mutableRef<T>(values(FieldRole::ContinuousState)[key.index]);
  }
  /// Where postDeriv writes the time derivative of a continuous state (unit: the state's unit
  /// per second). Starts as NaN, so a derivative never written stops the integrator.
  template <class T>
  decltype(auto) derivative(ContinuousStateKey<T> key) {
    return mutableRef<T>(derivatives_[key.index]);
  }
  template <class T>
  decltype(auto) scratch(ScratchKey<T> key) {
    return mutableRef<T>(values(FieldRole::Scratch)[key.index]);
  }

  /// The value of an input. Marks it read for isFresh().
  /// @throws ModelError if nothing has written the tied signal yet.
  template <class T>
  decltype(auto) in(InKey<T> key) {
    Port& port = inputs_[key.index];
    if (!port.slice.signal().everWritten()) [[unlikely]] {
      throwUnsetInput(key.index);
    }
    *port.lastRead = port.slice.signal().version();
    return portRef<T, true>(port.slice);
  }
  /// True when the input's signal was written since this model last read it with in().
  template <class T>
  bool isFresh(InKey<T> key) const {
    const Port& port = inputs_[key.index];
    return port.slice.signal().version() != *port.lastRead;
  }
  /// Writable access to an output; counts as a write of its signal.
  /// @throws ModelError outside updateFlowOuts.
  template <class T>
  decltype(auto) out(OutKey<T> key) {
    if (!writingOutputs_) [[unlikely]] {
      throwWriteOutsideUpdate(key.index);
    }
    Port& port = outputs_[key.index];
    port.slice.signal().markWritten();
    return portRef<T, false>(port.slice);
  }

 private:
  friend class ModelBinding;
  friend class BatchFields;
  friend class BatchColumns;

  /// A tie, and for an input the version of its signal the model last read. The record is
  /// `ownRecord` unless BatchColumns has placed it in a column next to the records of the
  /// model's batch; `lastRead` says where it is. inputs_ is sized once, in the constructor, which
  /// points every `lastRead` at its port's `ownRecord`.
  struct Port {
    SignalSlice slice;
    std::uint64_t* lastRead = nullptr;
    std::uint64_t ownRecord = 0;
  };

  std::vector<Buffer>& values(FieldRole role) { return values_[static_cast<std::size_t>(role)]; }
  const std::vector<Buffer>& values(FieldRole role) const {
    return values_[static_cast<std::size_t>(role)];
  }

  template <class T>
  static decltype(auto) mutableRef(Buffer& b) {
    if constexpr (std::is_same_v<T, double>)
      return (b.doubles()[0]);
    else if constexpr (std::is_same_v<T, std::int64_t>)
      return (b.ints()[0]);
    else if constexpr (std::is_same_v<T, bool>)
      return (b.boolean());
    else if constexpr (std::is_same_v<T, std::string>)
      return (b.string());
    else if constexpr (std::is_same_v<T, Eigen::VectorXd>)
      return Eigen::Map<Eigen::VectorXd>(b.doubles(), static_cast<Eigen::Index>(b.length()));
    else
      return std::span<std::int64_t>(b.ints(), b.length());
  }
  template <class T>
  static decltype(auto) constRef(const Buffer& b) {
    if constexpr (std::is_same_v<T, double>)
      return b.doubles()[0];
    else if constexpr (std::is_same_v<T, std::int64_t>)
      return b.ints()[0];
    else if constexpr (std::is_same_v<T, bool>)
      return b.boolean();
    else if constexpr (std::is_same_v<T, std::string>)
      return (b.string());
    else if constexpr (std::is_same_v<T, Eigen::VectorXd>)
      return Eigen::Map<const Eigen::VectorXd>(b.doubles(), static_cast<Eigen::Index>(b.length()));
    else
      return std::span<const std::int64_t>(b.ints(), b.length());
  }
  template <class T, bool kConst>
  static decltype(auto) portRef(const SignalSlice& s) {
    Buffer& b = s.signal().buffer();
    const auto n = static_cast<Eigen::Index>(s.length());
    if constexpr (std::is_same_v<T, Eigen::VectorXd>) {
      if constexpr (kConst)
        return Eigen::Map<const Eigen::VectorXd>(b.doubles() + s.offset(), n);
      else
        return Eigen::Map<Eigen::VectorXd>(b.doubles() + s.offset(), n);
    } else if constexpr (std::is_same_v<T, IntVector>) {
      if constexpr (kConst)
        return std::span<const std::int64_t>(b.ints() + s.offset(), s.length());
      else
        return std::span<std::int64_t>(b.ints() + s.offset(), s.length());
    } else if constexpr (kConst) {
      if constexpr (std::is_same_v<T, double>)
        return b.doubles()[s.offset()];
      else if constexpr (std::is_same_v<T, std::int64_t>)
        return b.ints()[s.offset()];
      else if constexpr (std::is_same_v<T, bool>)
        return b.boolean();
      else
        return static_cast<const std::string&>(b.string());
    } else {
      if constexpr (std::is_same_v<T, double>)
        return (b.doubles()[s.offset()]);
      else if constexpr (std::is_same_v<T, std::int64_t>)
        return (b.ints()[s.offset()]);
      else if constexpr (std::is_same_v<T, bool>)
        return (b.boolean());
      else
        return (b.string());
    }
  }

  /// Raise paramsChanged_ (processParams is due) or valuesSet_ (every output is due) and count
  /// it in flagsRaised_.
  void raiseParamsChanged();
  void raiseValuesSet();
  [[noreturn]] void throwUnsetInput(std::size_t index) const;
  [[noreturn]] void throwWriteOutsideUpdate(std::size_t index) const;
  std::string fieldPath(FieldRole role, std::size_t index) const;
  std::size_t fieldIndex(FieldRole role, std::string_view name) const;
  const std::size_t* resolvedLength(const std::string& symbol) const;
  /// Checks `value` against the field's declaration into `into` (sized for it); throws on error.
  void checkValue(FieldRole role, std::size_t index, const Value& value, Buffer& into) const;

  // What every executive call and typed access reads comes first, so that a call touches the
  // object's first two cache lines (after the vtable pointer: ports and flags, then the param
  // and discrete-state tables) rather than lines spread over the whole object.
  std::vector<Port> inputs_;
  std::vector<Port> outputs_;
  bool writingOutputs_ = false;      // true only while the executive runs updateFlowOuts
  bool paramsChanged_ = true;        // processParams is due before the next hop
  bool valuesSet_ = false;           // set() since the executive last looked: outputs are due
  std::uint32_t eventHookMask_ = 0;  // bit 2*method+timing: a model-method event is registered
  std::vector<Buffer> values_[kFieldRoleCount];  // ports keep no values: their signals do
  // The methods its class overrides; the others are the empty defaults, which the executive
  // need not call. Unknown (every method) unless the code that constructed the model knew its
  // class (ModelBinding::setImplementedMethods).
  ModelMethodSet implementedMethods_ = kEveryModelMethod;
  const BatchCalls* batchCalls_ = nullptr;  // unknown class: called one by one
  std::vector<Buffer> derivatives_;         // one per continuous state, sized at lock()
  std::string name_;
  const ModelSpec* spec_;
  std::uint64_t* flagsRaised_ = nullptr;  // the simulation's count (countFlagsIn), if any
  std::vector<bool> paramAssigned_;       // true once a param has a value (default or set)
  std::vector<std::pair<std::string, std::size_t>> lengthSymbols_;  // resolved at lock()
  std::vector<std::unique_ptr<Signal>> ownSignals_;  // of the ports lock() found untied
};

/// Executive access to a model's ports and declarations that model authors do not need:
/// tying, length resolution at lock(), write permission around updateFlowOuts.
class ModelBinding {
 public:
  /// Ties a port (flowIn or flowOut, by name) to a slice after checking type and length.
  /// @throws InputError naming model, port, slice and the mismatch.
  static void tie(Model& model, std::string_view port, const SignalSlice& slice);
  /// Unties every port tied to `signal`; returns the "model.port" names untied.
  static std::vector<std::string> portsTiedTo(const Model& model, const Signal& signal);
  /// Resolves variable lengths from ports and params, sizes states and scratch, checks that
  /// every input is tied or declares a default and every required param has a value, gives each
  /// untied port a signal of its own (Model::ownsSignal), then calls setup().
  /// @throws ModelError naming the model and the field.
  static void prepare(Model& model);
  /// Grants or withdraws the right to write outputs (only during updateFlowOuts).
  static void allowOutputWrites(Model& model, bool allowed) { model.writingOutputs_ = allowed; }
  /// The right to write outputs for a scope (one updateFlowOuts call), withdrawn on exit,
  /// exceptions included.
  class OutputWrites {
   public:
    explicit OutputWrites(Model& model) : model_(model) { allowOutputWrites(model_, true); }
    ~OutputWrites() { allowOutputWrites(model_, false); }
    OutputWrites(const OutputWrites&) = delete;
    OutputWrites& operator=(const OutputWrites&) = delete;

   private:
    Model& model_;
  };
  /// Bit of a (method, before/after) pair in the event-hook mask.
  static constexpr std::uint32_t hookBit(ModelMethod method, bool after) {
    return 1u << (2u * static_cast<unsigned>(method) + (after ? 1u : 0u));
  }
  static bool hasEventHook(const Model& model, ModelMethod method, bool after) {
    return (model.eventHookMask_ & hookBit(method, after)) != 0;
  }
  /// True when a model-method event is registered before or after `method`.
  static bool hasEventHooks(const Model& model, ModelMethod method) {
    return (model.eventHookMask_ & (hookBit(method, false) | hookBit(method, true))) != 0;
  }
  static void setEventHookMask(Model& model, std::uint32_t mask) { model.eventHookMask_ = mask; }
  /// Declares the methods the model's class overrides (implementedMethods<M>() in
  /// batch_calls.h for C++ classes); the executive skips calls to the others.
  static void setImplementedMethods(Model& model, ModelMethodSet methods) {
    model.implementedMethods_ = methods;
  }
  /// Declares the model's class calls (batchCallsOf<M>() for a model made by makeModel<M>,
  /// whose dynamic type is then M).
  static void setBatchCalls(Model& model, const BatchCalls* calls) { model.batchCalls_ = calls; }
  static const BatchCalls* batchCalls(const Model& model) { return model.batchCalls_; }
  /// True when the executive must call `method` of `model`: its class overrides it, or a
  /// model-method event is registered before or after it (an event fires around an empty call).
  static bool needsCall(const Model& model, ModelMethod method) {
    return (model.implementedMethods_ & methodBit(method)) != 0 || hasEventHooks(model, method);
  }
  /// A continuous state's value and derivative storage (sized by prepare()).
  static Buffer& continuousState(Model& model, std::size_t index) {
    return model.values(FieldRole::ContinuousState)[index];
  }
  static const Buffer& derivative(const Model& model, std::size_t index) {
    return model.derivatives_[index];
  }
  /// Checkpoint access: a field's storage, the pending processParams and set() flags, and the
  /// version of each flowIn's signal its model last read.
  static Buffer& valueBuffer(Model& model, FieldRole role, std::size_t index) {
    return model.values(role)[index];
  }
  static void raiseParamsChanged(Model& model) { model.raiseParamsChanged(); }
  static bool valuesSet(const Model& model) { return model.valuesSet_; }
  static void restoreValuesSet(Model& model, bool set) {
    model.valuesSet_ = false;
    if (set) model.raiseValuesSet();
  }
  /// Where the model counts the raising of its processParams and set() flags, so that the
  /// executive looks at every model's flags only after something raised one.
  static void countFlagsIn(Model& model, std::uint64_t* counter) { model.flagsRaised_ = counter; }
  static std::uint64_t& lastReadVersion(Model& model, std::size_t flowIn) {
    return *model.inputs_[flowIn].lastRead;
  }
  static bool takeParamsChanged(Model& model) {
    const bool changed = model.paramsChanged_;
    model.paramsChanged_ = false;
    return changed;
  }
  /// Whether set() was called since the last take (or since prepare()); clears it.
  static bool takeValuesSet(Model& model) {
    const bool set = model.valuesSet_;
    model.valuesSet_ = false;
    return set;
  }

 private:
  /// Ties each untied port to a signal of its own, sized by its declared or resolved length
  /// (`symbols`); an input's holds its default. @throws ModelError for a variable length
  /// nothing resolved.
  static void tieOwnSignals(Model& model,
                            const std::vector<std::pair<std::string, std::size_t>>& symbols);
};

}  // namespace hopsim

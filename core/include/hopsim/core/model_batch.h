#pragma once
/// @file
/// Batches: the executive calls startHop, updateFlowOuts, endHop, preDeriv and postDeriv on a
/// batch of consecutive models of one class in its calling order, through one call per batch
/// (BatchCalls in model.h, batch_calls.h). A class written per instance gets a batch function
/// that loops over the batch's models; a class may instead write a method once for a whole
/// batch, as a static function that takes a ModelBatch, where each field is a column over the
/// batch: no call, no object and no field table per model (docs/model-authors.md, "Batches").
///
///   static void startHopBatch(const ModelBatch<LowPass>& batch, double t0, double t1);
///   static void updateFlowOutsBatch(const ModelBatch<LowPass>& batch, double t);
///   static void endHopBatch(const ModelBatch<LowPass>& batch, double t0, double t1);
///   static void preDerivBatch(const ModelBatch<Tank>& batch, double t);   // ContinuousModels
///   static void postDerivBatch(const ModelBatch<Tank>& batch, double t);  // ContinuousModels

#include <Eigen/Core>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "hopsim/core/model.h"

namespace hopsim {

/// Where every field of a batch of models of one class lives. A double field is one column: model
/// k's elements start k lengths after model 0's, as BatchColumns places them (the executive ends
/// a batch where that stops, see backToBack()), so that a batch method reaches them by arithmetic,
/// without a test per element. Other fields (ints, bools, strings) have one entry per model, in
/// the batch's order. The executive builds it with its call lists (lock(), an activation change,
/// a model-method event registered). It stays valid until then: after lock() every length is
/// fixed, and values set, restored or rolled back are copied into the same storage.
class BatchFields {
 public:
  /// A param's, discrete or continuous state's, derivative's or scratch field's elements in one
  /// model.
  struct FieldSlot {
    void* data;  // double*, std::int64_t*, bool* or std::string*, by the field's element type
    std::size_t length;
  };
  /// One field over the batch: for a double field its column (model k's elements at
  /// `elements + k * length`), for others its entries.
  struct Column {
    const FieldSlot* slots;  // the entries of a field of another element type
    double* elements;        // the column of a double field
    std::size_t length;      // every model's length, for a double field
  };
  /// A port's slice of its signal in one model.
  struct PortSlot {
    Signal* signal;
    void* data;  // the slice's first element
  };
  /// One port over the batch: each model's slice, every slice's length, and for an input the
  /// column of the models' records of their last read (isFresh()), model k's at `records + k`.
  struct Port {
    const PortSlot* slots;
    std::uint64_t* records;  // null for an output
    std::size_t length;
  };

  /// A field of the models of a class: value field `index` of `role`, or, with `derivative`,
  /// the derivative of continuous state `index` (`role` is then ContinuousState).
  struct FieldId {
    FieldRole role;
    std::size_t index;
    bool derivative;
  };
  /// Calls `visit(FieldId)` for every field of a model of `spec` in the one order that a batch
  /// numbers its fields and BatchColumns lays out their columns: each value role's fields in
  /// kValueRoles order, then the continuous states' derivatives.
  template <class Visit>
  static void forEachField(const ModelSpec& spec, Visit&& visit) {
    for (FieldRole role : kValueRoles) {
      for (std::size_t i = 0; i < spec.fields(role).size(); ++i) visit(FieldId{role, i, false});
    }
    for (std::size_t i = 0; i < spec.fields(FieldRole::ContinuousState).size(); ++i) {
      visit(FieldId{FieldRole::ContinuousState, i, true});
    }
  }
  /// Field `field`'s storage in `model`.
  static Buffer& buffer(Model& model, FieldId field) {
    return field.derivative ? model.derivatives_[field.index]
                            : model.values(field.role)[field.index];
  }

  /// The fields of the `count` models at `models`, which must share one spec and lie back to
  /// back (backToBack() == count).
  /// @throws ModelError when they do not.
  BatchFields(Model* const* models, std::size_t count);

  /// How many of the `count` models at `models` (of one spec), from the first, have every double
  /// field and every input's read record where a column would put them, right after the previous
  /// model's, with the same lengths, and every port a slice of the same length. Models of one
  /// class that follow each other in BatchColumns do, unless a length declared by a symbol
  /// differs between them.
  static std::size_t backToBack(Model* const* models, std::size_t count);

  std::size_t size() const { return count_; }
  /// Field `index` of a value role (Param, DiscreteState, ContinuousState, Scratch).
  Column values(FieldRole role, std::size_t index) const {
    return column(firstField_[static_cast<std::size_t>(role)] + index);
  }
  /// The derivative of continuous state `index`.
  Column derivatives(std::size_t index) const { return column(firstField_[kDerivatives] + index); }
  /// Port `index` of role FlowIn or FlowOut.
  Port port(FieldRole role, std::size_t index) const {
    return role == FieldRole::FlowIn ? inputs_[index] : outputs_[index];
  }

  /// The errors of Model's typed access, for the same mistakes made through a ModelBatch.
  [[noreturn]] static void throwUnsetInput(const Model& model, std::size_t index);
  [[noreturn]] static void throwWriteOutsideUpdate(const Model& model, std::size_t index);

 private:
  static constexpr std::size_t kDerivatives = 4;  // after the four value roles
  struct Break {
    std::size_t model;  // the first model whose fields do not continue the batch's columns
    std::string what;   // which field, and how
  };
  static Break firstBreak(Model* const* models, std::size_t count);
  /// Where field `field` of `model` is in the variable tree, for messages.
  static std::string fieldPath(const Model& model, FieldId field);
  /// Field `field` of the batch, numbering every role's fields one after the other.
  Column column(std::size_t field) const {
    const Field& f = fields_[field];
    return {entries_.data() + f.firstEntry, f.elements, f.length};
  }
  struct Field {
    double* elements;        // a double field's column; null for a field of another type
    std::size_t length;      // model 0's length (every model's, for a double field)
    std::size_t firstEntry;  // a field of another type: where its count_ entries start
  };
  std::size_t count_;
  std::array<std::size_t, 5> firstField_{};  // of each value role, then of the derivatives
  std::vector<Field> fields_;                // one per field
  std::vector<FieldSlot> entries_;           // the fields of types other than double, count_ each
  std::vector<PortSlot> slices_;             // port by port, inputs first, count_ entries each
  std::vector<Port> inputs_, outputs_;
};

namespace detail {

/// Model k's element of a field, typed as Model's typed access types it.
template <class T, bool kConst>
decltype(auto) batchElement(void* data, std::size_t length) {
  if constexpr (std::is_same_v<T, Eigen::VectorXd>) {
    using Vector = std::conditional_t<kConst, const Eigen::VectorXd, Eigen::VectorXd>;
    return Eigen::Map<Vector>(static_cast<double*>(data), static_cast<Eigen::Index>(length));
  } else if constexpr (std::is_same_v<T, IntVector>) {
    using Element = std::conditional_t<kConst, const std::int64_t, std::int64_t>;
    return std::span<Element>(static_cast<std::int64_t*>(data), length);
  } else {
    static_assert(std::is_same_v<T, double> || std::is_same_v<T, std::int64_t> ||
                      std::is_same_v<T, bool> || std::is_same_v<T, std::string>,
                  "a field is declared as double, std::int64_t, bool, std::string, "
                  "Eigen::VectorXd or IntVector");
    using Element = std::conditional_t<kConst, const T, T>;
    return (*static_cast<Element*>(data));
  }
}

}  // namespace detail

/// One field over a batch: `column[k]` is model k's value, typed as Model's typed access types it
/// (double&, Eigen::Map<Eigen::VectorXd>, std::span<std::int64_t>, ...; read-only for params).
template <class T, bool kConst>
class BatchColumn {
 public:
  explicit BatchColumn(const BatchFields::Column& column) : column_(column) {}
  decltype(auto) operator[](std::size_t k) const {
    if constexpr (std::is_same_v<T, double> || std::is_same_v<T, Eigen::VectorXd>) {
      return detail::batchElement<T, kConst>(column_.elements + k * column_.length, column_.length);
    } else {
      return detail::batchElement<T, kConst>(column_.slots[k].data, column_.slots[k].length);
    }
  }

 private:
  BatchFields::Column column_;
};

/// One input over a batch: `inputs[k]` is model k's input, marked read for isFresh(k), as
/// Model::in() does.
template <class T>
class BatchInputs {
 public:
  BatchInputs(const BatchFields::Port& port, Model* const* models, std::size_t index)
      : port_(port), models_(models), index_(index) {}
  /// @throws ModelError if nothing has written model k's signal yet.
  decltype(auto) operator[](std::size_t k) const {
    const BatchFields::PortSlot& slot = port_.slots[k];
    const std::uint64_t version = slot.signal->version();
    if (version == 0) [[unlikely]] {
      BatchFields::throwUnsetInput(*models_[k], index_);
    }
    port_.records[k] = version;
    return detail::batchElement<T, true>(slot.data, port_.length);
  }
  /// True when model k's signal was written since model k last read it.
  bool isFresh(std::size_t k) const { return port_.slots[k].signal->version() != port_.records[k]; }

 private:
  BatchFields::Port port_;
  Model* const* models_;
  std::size_t index_;
};

/// One output over a batch: `outputs[k]` is model k's output, writable, and counts as a write of
/// its signal, as Model::out() does.
template <class T>
class BatchOutputs {
 public:
  explicit BatchOutputs(const BatchFields::Port& port) : port_(port) {}
  decltype(auto) operator[](std::size_t k) const {
    const BatchFields::PortSlot& slot = port_.slots[k];
    slot.signal->markWritten();
    return detail::batchElement<T, false>(slot.data, port_.length);
  }

 private:
  BatchFields::Port port_;
};

/// Consecutive models of class M, as the executive hands them to M's batch methods: the same
/// fields Model's typed access reaches, each as a column over the batch, with the same keys and
/// the same checks (an input nothing has written, an output written outside updateFlowOuts).
/// Anything else of model k (its name, members of M) is `batch.model(k)`; its typed access is
/// not for batch methods, and its out() is refused.
template <class M>
class ModelBatch {
 public:
  ModelBatch(Model* const* models, std::size_t count, const BatchFields& fields, bool writesOutputs)
      : models_(models), count_(count), fields_(&fields), writesOutputs_(writesOutputs) {}

  std::size_t size() const { return count_; }
  M& model(std::size_t k) const { return static_cast<M&>(*models_[k]); }

  template <class T>
  BatchColumn<T, true> param(ParamKey<T> key) const {
    return BatchColumn<T, true>(fields_->values(FieldRole::Param, key.index));
  }
  template <class T>
  BatchColumn<T, false> state(DiscreteStateKey<T> key) const {
    return BatchColumn<T, false>(fields_->values(FieldRole::DiscreteState, key.index));
  }
  /// During a derivative evaluation, the integrator's trial values; writable, as Model's
  /// mutable continuous-state access is (for resets in startHop).
  template <class T>
  BatchColumn<T, false> state(ContinuousStateKey<T> key) const {
    return BatchColumn<T, false>(fields_->values(FieldRole::ContinuousState, key.index));
  }
  /// Where postDerivBatch writes the time derivatives of a continuous state.
  template <class T>
  BatchColumn<T, false> derivative(ContinuousStateKey<T> key) const {
    return BatchColumn<T, false>(fields_->derivatives(key.index));
  }
  template <class T>
  BatchColumn<T, false> scratch(ScratchKey<T> key) const {
    return BatchColumn<T, false>(fields_->values(FieldRole::Scratch, key.index));
  }
  template <class T>
  BatchInputs<T> in(InKey<T> key) const {
    return BatchInputs<T>(fields_->port(FieldRole::FlowIn, key.index), models_, key.index);
  }
  /// @throws ModelError outside updateFlowOutsBatch.
  template <class T>
  BatchOutputs<T> out(OutKey<T> key) const {
    if (!writesOutputs_) [[unlikely]] {
      BatchFields::throwWriteOutsideUpdate(*models_[0], key.index);
    }
    return BatchOutputs<T>(fields_->port(FieldRole::FlowOut, key.index));
  }

 private:
  Model* const* models_;
  std::size_t count_;
  const BatchFields* fields_;
  bool writesOutputs_;
};

/// Storage for the double params, states, derivatives and scratch of models whose class has batch
/// methods (model_batch.h): for each class, each field is one contiguous column over the class's
/// models in calling order, so that a batch method, which goes through the batch's models field by
/// field, streams each field through consecutive memory. The models' buffers are placed in the
/// columns (Buffer::placeIn) and read and write them there; values set, restored or rolled back are
/// copied in. Each input's record of the signal version its model last read (isFresh()) is placed
/// likewise, one column per input of a class: every read stores the record, and a batch of small
/// models storing into scattered ports pays for a line per model (docs/performance.md, "The
/// framework against a hand-written loop"). The executive places them when it builds its call lists
/// and gives the elements back (release) before the structure can change: at unlock(), at the next
/// build, on destruction.
class BatchColumns {
 public:
  BatchColumns() = default;
  BatchColumns(const BatchColumns&) = delete;
  BatchColumns& operator=(const BatchColumns&) = delete;
  ~BatchColumns() { release(); }

  /// Places the double fields and read records of `models` (in calling order), after release().
  void place(const std::vector<Model*>& models);
  /// Gives every placed field its elements and every input its record back, and frees the
  /// columns.
  void release();

 private:
  std::vector<Model*> placed_;
  std::vector<double> storage_;
  std::vector<std::uint64_t> readRecords_;
};

}  // namespace hopsim

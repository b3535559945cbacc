#pragma once
/// @file
/// ModelSpec: the one C++ declaration of a model class (what the seed's .mdl file held).
///
/// A model class declares its fields once, as members of a struct derived from ModelSpec; each
/// member is a typed key the model uses to reach its data:
/// @code
/// struct Declaration : ModelSpec {
///   Declaration() : ModelSpec("Gain", ModelKind::Flow, "y = k u") {}
///   ParamKey<double> k = param<double>("k").unit("1").defaultValue(1.0).describe("gain");
///   InKey<Eigen::VectorXd> u = flowIn<Eigen::VectorXd>("u").length("n").describe("input");
///   OutKey<Eigen::VectorXd> y =
///       flowOut<Eigen::VectorXd>("y").length("n").feedsFrom(u).describe("output");
/// };
/// @endcode
/// From it come typed access inside the model, introspection and validation by name, factory
/// registration, discrete-state snapshots and the generated reference documentation.

#include <Eigen/Core>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "hopsim/core/granularity.h"
#include "hopsim/core/zero_crossing.h"
#include "hopsim/signals/element_type.h"
#include "hopsim/signals/value.h"

namespace hopsim {

/// The model family a class belongs to (DESIGN.md section 5).
enum class ModelKind : std::uint8_t { Flow, Continuous, Darts, Actuator, Sensor, Motor, Encoder };
/// "FlowModel", "ContinuousModel", ...
const char* toString(ModelKind kind);

/// The groups of declared fields.
enum class FieldRole : std::uint8_t {
  Param,            ///< physical values set by users; validated on every set
  DiscreteState,    ///< state changed at hop boundaries; snapshotted for rollback/checkpoints
  ContinuousState,  ///< state integrated by the state propagator (continuous models only)
  Scratch,          ///< working memory; never snapshotted
  FlowIn,           ///< input port, tied to a signal or slice
  FlowOut,          ///< output port, tied to a signal or slice; written only in updateFlowOuts
};
inline constexpr int kFieldRoleCount = 6;
/// The roles whose fields hold values of their own (a port's value is its signal's).
inline constexpr FieldRole kValueRoles[] = {FieldRole::Param, FieldRole::DiscreteState,
                                            FieldRole::ContinuousState, FieldRole::Scratch};
/// The variable-tree branch of a role: "params", "discreteStates", ..., "flowIns", "flowOuts".
const char* branchName(FieldRole role);

/// Integer vectors are accessed as spans; double vectors as Eigen maps.
using IntVector = std::vector<std::int64_t>;

/// Maps the C++ type a field is declared with to its element type and shape.
template <class T>
struct FieldType;
template <>
struct FieldType<bool> {
  static constexpr ElementType kType = ElementType::Bool;
  static constexpr bool kVector = false;
};
template <>
struct FieldType<std::int64_t> {
  static constexpr ElementType kType = ElementType::Int;
  static constexpr bool kVector = false;
};
template <>
struct FieldType<double> {
  static constexpr ElementType kType = ElementType::Double;
  static constexpr bool kVector = false;
};
template <>
struct FieldType<std::string> {
  static constexpr ElementType kType = ElementType::String;
  static constexpr bool kVector = false;
};
template <>
struct FieldType<Eigen::VectorXd> {
  static constexpr ElementType kType = ElementType::Double;
  static constexpr bool kVector = true;
};
template <>
struct FieldType<IntVector> {
  static constexpr ElementType kType = ElementType::Int;
  static constexpr bool kVector = true;
};

/// Everything declared about one field.
struct FieldSpec {
  FieldRole role = FieldRole::Param;
  std::string name;
  ElementType type = ElementType::Double;
  bool vector = false;       ///< declared as a vector type (length may still be 1)
  std::size_t length = 1;    ///< the fixed length, when lengthSymbol is empty
  std::string lengthSymbol;  ///< a variable length's name ("n"), resolved at lock()
  std::string unit;          ///< SI unit ("N", "m/s^2"); "" for dimensionless or non-numeric
  std::optional<Value> defaultValue;  ///< a scalar default fills every element of a vector
  std::optional<double> lower;        ///< bound on every element
  std::optional<double> upper;        ///< bound on every element
  bool lowerExclusive = false;        ///< lower itself is out of bounds (declared with above())
  bool upperExclusive = false;        ///< upper itself is out of bounds (declared with below())
  std::string description;
  /// FlowOut only: indices of the flowIns this output depends on directly (feed-through).
  /// Unset means the conservative default: every flowIn feeds it.
  std::optional<std::vector<std::size_t>> feedsFrom;

  bool variableLength() const { return !lengthSymbol.empty(); }
  /// True when x lies within the bounds (NaN never does when there is a bound).
  bool withinBounds(double x) const;
  /// The bound x violates, for messages: "below the lower bound 0", "at or above the upper
  /// bound 1" (empty when it violates none).
  std::string violatedBound(double x) const;
  /// "[0, 1]", "(0, inf]", or "" when unbounded.
  std::string boundsText() const;
  /// "double", "double[3]", "double[n]".
  std::string typeName() const;
};

/// A typed handle on a declared field: the model's way to reach its data.
template <FieldRole R, class T>
struct FieldKey {
  std::size_t index;
};
template <class T>
using ParamKey = FieldKey<FieldRole::Param, T>;
template <class T>
using DiscreteStateKey = FieldKey<FieldRole::DiscreteState, T>;
template <class T>
using ContinuousStateKey = FieldKey<FieldRole::ContinuousState, T>;
template <class T>
using ScratchKey = FieldKey<FieldRole::Scratch, T>;
template <class T>
using InKey = FieldKey<FieldRole::FlowIn, T>;
template <class T>
using OutKey = FieldKey<FieldRole::FlowOut, T>;

class ModelSpec;

/// A zero-crossing condition declared by a model class (docs/zero-crossings.md, "Conditions
/// declared by models"): the Simulation registers it for every instance as the event
/// "<model>.<name>", with the model's crossingResidual() as g and onCrossing() as callback.
struct CrossingSpec {
  std::string name;
  CrossingDirection direction = CrossingDirection::Either;
  std::string description;
};

/// A typed handle on a declared zero-crossing condition.
struct CrossingKey {
  std::size_t index;
  friend bool operator==(CrossingKey, CrossingKey) = default;
};

/// Fluent declaration of one zero-crossing condition; converts to its key.
class CrossingDeclarator {
 public:
  CrossingDeclarator(ModelSpec& spec, std::size_t index) : spec_(&spec), index_(index) {}
  CrossingDeclarator& describe(std::string description);
  operator CrossingKey() const { return {index_}; }  // NOLINT: the point of the builder

 private:
  ModelSpec* spec_;
  std::size_t index_;
};

/// Fluent declaration of one field; converts to the field's key.
template <FieldRole R, class T>
class FieldDeclarator {
 public:
  FieldDeclarator(ModelSpec& spec, std::size_t index) : spec_(&spec), index_(index) {}

  FieldDeclarator& unit(std::string unit);
  FieldDeclarator& describe(std::string description);
  /// A default value; for vectors either one value for all elements or one per element.
  FieldDeclarator& defaultValue(Value value);
  /// Inclusive bounds on every element (numeric fields).
  FieldDeclarator& bounds(double lower, double upper);
  FieldDeclarator& min(double lower);
  FieldDeclarator& max(double upper);
  /// Exclusive lower bound: every element must be greater than `lower` (tau > 0).
  FieldDeclarator& above(double lower);
  /// Exclusive upper bound: every element must be less than `upper`.
  FieldDeclarator& below(double upper);
  /// A fixed vector length.
  FieldDeclarator& length(std::size_t count) requires FieldType<T>::kVector;
  /// A variable vector length named `symbol`; fields sharing a symbol share the length,
  /// which the tied signals or set values fix at lock(), or else a scalar integer param named
  /// `symbol` (a capacity: states sized by a param).
  FieldDeclarator& length(std::string symbol) requires FieldType<T>::kVector;
  /// This output depends directly on these inputs only (feed-through pairs).
  template <class... In>
  FieldDeclarator& feedsFrom(FieldKey<FieldRole::FlowIn, In>... inputs) requires(
      R == FieldRole::FlowOut);
  /// The same with the flowIns' indices, for declarations built at run time (Python models).
  FieldDeclarator& feedsFrom(std::vector<std::size_t> inputs) requires(R == FieldRole::FlowOut);
  /// This output depends on no input directly (it reads only states, params and time).
  FieldDeclarator& noFeedThrough() requires(R == FieldRole::FlowOut);

  operator FieldKey<R, T>() const { return {index_}; }  // NOLINT: the point of the builder

 private:
  FieldSpec& field();
  ModelSpec* spec_;
  std::size_t index_;
};

/// The declaration of a model class. Derive a struct from it whose members are the field keys.
class ModelSpec {
 public:
  /// @param className the name the factory and YAML know the class by ("Gain").
  /// @param doc one paragraph: what the model computes, with its equations.
  ModelSpec(std::string className, ModelKind kind, std::string doc);
  virtual ~ModelSpec() = default;
  ModelSpec(const ModelSpec&) = delete;
  ModelSpec& operator=(const ModelSpec&) = delete;

  const std::string& className() const { return className_; }
  ModelKind kind() const { return kind_; }
  const std::string& doc() const { return doc_; }

  const std::vector<FieldSpec>& fields(FieldRole role) const {
    return fields_[static_cast<std::size_t>(role)];
  }
  /// The index of a field by name, if declared.
  std::optional<std::size_t> find(FieldRole role, std::string_view name) const;
  /// The index of a field by name. @throws InputError naming the class, the role and the
  /// nearest declared names.
  std::size_t indexOf(FieldRole role, std::string_view name) const;

  /// The zero-crossing conditions every instance has, in declaration order.
  const std::vector<CrossingSpec>& crossings() const { return crossings_; }

  /// The minimum output granularity the model declares.
  Granularity outputGranularity() const;
  /// The sweeps before which the executive calls maskedCoordinates on a ContinuousModel that
  /// has masked (prescribed) continuous-state elements. Default: PREDERIV and ENDINTEGRATION,
  /// so prescribed values are current in every derivative evaluation and at each step end.
  Granularity maskingGranularity() const { return maskingGranularity_; }
  /// True when flowIn `in` feeds flowOut `out` directly.
  bool feedsThrough(std::size_t in, std::size_t out) const;
  /// True when flowIn `in` feeds any flowOut directly.
  bool feedsAnyOutput(std::size_t in) const;

 protected:
  template <class T>
  FieldDeclarator<FieldRole::Param, T> param(std::string name) {
    return declare<FieldRole::Param, T>(std::move(name));
  }
  template <class T>
  FieldDeclarator<FieldRole::DiscreteState, T> discreteState(std::string name) {
    return declare<FieldRole::DiscreteState, T>(std::move(name));
  }
  template <class T>
  FieldDeclarator<FieldRole::ContinuousState, T> continuousState(std::string name) {
    return declare<FieldRole::ContinuousState, T>(std::move(name));
  }
  template <class T>
  FieldDeclarator<FieldRole::Scratch, T> scratch(std::string name) {
    return declare<FieldRole::Scratch, T>(std::move(name));
  }
  template <class T>
  FieldDeclarator<FieldRole::FlowIn, T> flowIn(std::string name) {
    return declare<FieldRole::FlowIn, T>(std::move(name));
  }
  template <class T>
  FieldDeclarator<FieldRole::FlowOut, T> flowOut(std::string name) {
    return declare<FieldRole::FlowOut, T>(std::move(name));
  }
  /// A zero-crossing condition of every instance: the model's crossingResidual(key, t) is g,
  /// `direction` the sign changes that trigger, onCrossing(key, t) the callback.
  CrossingDeclarator zeroCrossing(std::string name, CrossingDirection direction);
  /// Overrides the default output granularity (ALL when the model has outputs, else NONE).
  void setOutputGranularity(Granularity granularity) { outputGranularity_ = granularity; }
  /// Overrides the default masking granularity.
  void setMaskingGranularity(Granularity granularity) { maskingGranularity_ = granularity; }

 private:
  template <FieldRole R, class T>
  friend class FieldDeclarator;
  friend class CrossingDeclarator;

  template <FieldRole R, class T>
  FieldDeclarator<R, T> declare(std::string name) {
    FieldSpec field;
    field.role = R;
    field.name = std::move(name);
    field.type = FieldType<T>::kType;
    field.vector = FieldType<T>::kVector;
    return {*this, addField(std::move(field))};
  }
  std::size_t addField(FieldSpec field);
  FieldSpec& mutableField(FieldRole role, std::size_t index) {
    return fields_[static_cast<std::size_t>(role)][index];
  }
  /// Checks a default or bound just declared; throws ModelError naming class and field.
  void checkField(const FieldSpec& field) const;

  std::string className_;
  ModelKind kind_;
  std::string doc_;
  std::vector<FieldSpec> fields_[kFieldRoleCount];
  std::vector<CrossingSpec> crossings_;
  std::optional<Granularity> outputGranularity_;
  Granularity maskingGranularity_ = Sweep::PreDeriv | Sweep::EndIntegration;
};

// ---- FieldDeclarator implementation -------------------------------------------------------

template <FieldRole R, class T>
FieldSpec& FieldDeclarator<R, T>::field() {
  return spec_->mutableField(R, index_);
}
template <FieldRole R, class T>
FieldDeclarator<R, T>& FieldDeclarator<R, T>::unit(std::string unit) {
  field().unit = std::move(unit);
  return *this;
}
template <FieldRole R, class T>
FieldDeclarator<R, T>& FieldDeclarator<R, T>::describe(std::string description) {
  field().description = std::move(description);
  return *this;
}
template <FieldRole R, class T>
FieldDeclarator<R, T>& FieldDeclarator<R, T>::defaultValue(Value value) {
  field().defaultValue = std::move(value);
  spec_->checkField(field());
  return *this;
}
template <FieldRole R, class T>
FieldDeclarator<R, T>& FieldDeclarator<R, T>::bounds(double lower, double upper) {
  field().lower = lower;
  field().upper = upper;
  spec_->checkField(field());
  return *this;
}
template <FieldRole R, class T>
FieldDeclarator<R, T>& FieldDeclarator<R, T>::min(double lower) {
  field().lower = lower;
  spec_->checkField(field());
  return *this;
}
template <FieldRole R, class T>
FieldDeclarator<R, T>& FieldDeclarator<R, T>::above(double lower) {
  min(lower);
  field().lowerExclusive = true;
  spec_->checkField(field());
  return *this;
}
template <FieldRole R, class T>
FieldDeclarator<R, T>& FieldDeclarator<R, T>::below(double upper) {
  max(upper);
  field().upperExclusive = true;
  spec_->checkField(field());
  return *this;
}
template <FieldRole R, class T>
FieldDeclarator<R, T>& FieldDeclarator<R, T>::max(double upper) {
  field().upper = upper;
  spec_->checkField(field());
  return *this;
}
template <FieldRole R, class T>
FieldDeclarator<R, T>& FieldDeclarator<R, T>::length(
    std::size_t count) requires FieldType<T>::kVector {
  field().length = count;
  field().lengthSymbol.clear();
  spec_->checkField(field());
  return *this;
}
template <FieldRole R, class T>
FieldDeclarator<R, T>& FieldDeclarator<R, T>::length(
    std::string symbol) requires FieldType<T>::kVector {
  field().lengthSymbol = std::move(symbol);
  spec_->checkField(field());
  return *this;
}
template <FieldRole R, class T>
template <class... In>
FieldDeclarator<R, T>& FieldDeclarator<R, T>::feedsFrom(
    FieldKey<FieldRole::FlowIn, In>... inputs) requires(R == FieldRole::FlowOut) {
  field().feedsFrom = std::vector<std::size_t>{inputs.index...};
  return *this;
}
template <FieldRole R, class T>
FieldDeclarator<R, T>& FieldDeclarator<R, T>::feedsFrom(std::vector<std::size_t> inputs) requires(
    R == FieldRole::FlowOut) {
  field().feedsFrom = std::move(inputs);
  return *this;
}
template <FieldRole R, class T>
FieldDeclarator<R, T>& FieldDeclarator<R, T>::noFeedThrough() requires(R == FieldRole::FlowOut) {
  field().feedsFrom = std::vector<std::size_t>{};
  return *this;
}

}  // namespace hopsim

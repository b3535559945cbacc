#pragma once
// LoweredElement: what one element of a mechanism (a body, a motor, a TSDA, ...) becomes: the
// signals it declares, the nodes its model needs and the model itself with its params and ties.
// LoweredModel<M> fills the model through M's declaration (member pointers into
// M::Declaration), so the names of params and ports come from the model class itself: renaming
// or removing a field of a declaration breaks the build of the lowering, not a user's run.

#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "hopsim/assemblies/assembly.h"
#include "hopsim/assemblies/input_node.h"
#include "hopsim/core/model_spec.h"
#include "hopsim/core/spatial/rigid_transform.h"

namespace hopsim::mechanism::detail {

/// A signal an element declares in the assembly's addSignals stage.
struct SignalDeclaration {
  std::string name;  ///< local to the assembly ("tsdas.spring.force")
  ElementType type{ElementType::Double};
  std::size_t length{1};
  std::string unit;
  /// 0 until something writes it (a controller's setpoint, as Chrono's ChFunctionSetpoint); a
  /// signal tied from above keeps the value it has.
  bool zeroUntilWritten{false};
};

/// A node an element's model is attached to or names: on `body` (the world when empty or a
/// fixed body) at the world pose X_WN at t = 0. `name` is local: the builder prefixes it.
struct NodeRequest {
  std::string name;
  std::string body;
  spatial::RigidTransform X_WN;
};

/// A hinge coordinate a model prescribes (a POSITION or SPEED motor), which the integrator must
/// not see: subhinge `subhinge` of the hinge of body `body` (its multibody name).
struct MaskedCoordinate {
  std::string body;
  int subhinge{0};
};

/// What one element lowers into. Signals are declared in the addSignals stage; nodes, masks and
/// the model are added in addModels, in that order, after every body; a warning (the element has
/// no effect) is issued in addModels too, where the element's model would have been added.
struct LoweredElement {
  std::vector<SignalDeclaration> signals;
  std::vector<NodeRequest> nodes;
  std::optional<MaskedCoordinate> masked;
  std::optional<ModelDefinition> model;
  std::optional<std::string> warning;
};

/// The value a param of type T takes in a model definition.
inline InputNode paramValue(double v) { return InputNode(v); }
inline InputNode paramValue(bool v) { return InputNode(v); }
inline InputNode paramValue(std::string v) { return InputNode(std::move(v)); }
inline InputNode paramValue(const std::vector<double>& values) {
  std::vector<InputNode> items(values.begin(), values.end());
  return InputNode::sequence(std::move(items));
}
inline InputNode paramValue(const spatial::Vector3& v) {
  return paramValue(std::vector<double>{v.x(), v.y(), v.z()});
}

/// The C++ type a param's value is given in: Eigen vectors as std::vector<double> or Vector3.
template <class T>
struct ParamArgument {
  using type = T;
};
template <>
struct ParamArgument<Eigen::VectorXd> {
  using type = std::vector<double>;
};

/// Whether fields of role R are ports, which signals are tied to.
template <FieldRole R>
inline constexpr bool kPort = R == FieldRole::FlowIn || R == FieldRole::FlowOut;

/// The model of class M an element lowers into, written into `element.model`: its params and
/// ports are M's declared fields, named by pointers to the members of M::Declaration (or of a
/// base of it, such as TimeFunctionSpec).
template <class M>
class LoweredModel {
 public:
  using Declaration = std::remove_cvref_t<decltype(M::declaration())>;

  /// The model `localName`, defined at `where` (its errors are located there).
  LoweredModel(LoweredElement& element, std::string localName, const SourceLocation& where)
      : element_(element) {
    ModelDefinition& d = element_.model.emplace();
    d.name = std::move(localName);
    d.className = M::declaration().className();
    d.params = InputNode::mapping({}, where);
    d.where = where;
  }

  /// Sets param `key` to `value`.
  template <class Base, class T>
  requires std::is_base_of_v<Base, Declaration> LoweredModel& set(
      FieldKey<FieldRole::Param, T> Base::*key, typename ParamArgument<T>::type value) {
    model().params.entries().emplace_back(field(key).name, paramValue(std::move(value)));
    return *this;
  }
  /// Sets a vector param from a 3-vector.
  template <class Base>
  requires std::is_base_of_v<Base, Declaration> LoweredModel& set(
      FieldKey<FieldRole::Param, Eigen::VectorXd> Base::*key, const spatial::Vector3& value) {
    model().params.entries().emplace_back(field(key).name, paramValue(value));
    return *this;
  }

  /// Ties port `key` (an input or an output) to the signal `signal` of the assembly.
  template <class Base, FieldRole R, class T>
  requires(std::is_base_of_v<Base, Declaration>&& kPort<R>)
      LoweredModel& tie(FieldKey<R, T> Base::*key, std::string signal) {
    SignalTie t;
    t.child = field(key).name;
    t.parent = std::move(signal);
    t.where = model().where;
    model().ties.push_back(std::move(t));
    return *this;
  }

  /// Declares the signal `<base>.<port>` with the port's type, length and unit, and ties the
  /// port to it; `length` and `unit` replace a variable length and a unit the declaration leaves
  /// to the instance.
  template <class Base, FieldRole R, class T>
  requires(std::is_base_of_v<Base, Declaration>&& kPort<R>)
      LoweredModel& signal(FieldKey<R, T> Base::*key, const std::string& base,
                           std::optional<std::size_t> length = std::nullopt,
                           std::optional<std::string> unit = std::nullopt) {
    const FieldSpec& f = field(key);
    return declare(key, base + "." + f.name, length, std::move(unit), false);
  }

  /// Declares the signal `name` (not named after the port) with the port's type and length and
  /// `unit`, zero until written when `zeroUntilWritten`, and ties the port to it.
  template <class Base, FieldRole R, class T>
  requires(std::is_base_of_v<Base, Declaration>&& kPort<R>) LoweredModel& namedSignal(
      FieldKey<R, T> Base::*key, std::string name, std::string unit, bool zeroUntilWritten) {
    return declare(key, std::move(name), std::nullopt, std::move(unit), zeroUntilWritten);
  }

  /// Attaches the model (to a node or a hinge).
  LoweredModel& attach(ModelAttachment at) {
    model().attachment = std::move(at);
    return *this;
  }

 private:
  template <class Base, FieldRole R, class T>
  static const FieldSpec& field(FieldKey<R, T> Base::*key) {
    const Base& declaration = M::declaration();
    return declaration.fields(R)[(declaration.*key).index];
  }

  template <class Base, FieldRole R, class T>
  LoweredModel& declare(FieldKey<R, T> Base::*key, std::string name,
                        std::optional<std::size_t> length, std::optional<std::string> unit,
                        bool zeroUntilWritten) {
    const FieldSpec& f = field(key);
    SignalDeclaration s;
    s.name = name;
    s.type = f.type;
    if (!length && f.variableLength()) {
      throw std::logic_error("the lowering declares the variable-length port " +
                             M::declaration().className() + "." + f.name + " without a length");
    }
    s.length = length.value_or(f.length);
    s.unit = unit.value_or(f.unit);
    s.zeroUntilWritten = zeroUntilWritten;
    element_.signals.push_back(std::move(s));
    return tie(key, std::move(name));
  }

  ModelDefinition& model() { return *element_.model; }

  LoweredElement& element_;
};

}  // namespace hopsim::mechanism::detail

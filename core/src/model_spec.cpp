#include "hopsim/core/model_spec.h"

#include <algorithm>
#include <cmath>

#include "hopsim/signals/buffer.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/name_suggestions.h"

namespace hopsim {
namespace {

bool identifier(std::string_view name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
}

const char* roleNoun(FieldRole role) {
  switch (role) {
    case FieldRole::Param:
      return "param";
    case FieldRole::DiscreteState:
      return "discrete state";
    case FieldRole::ContinuousState:
      return "continuous state";
    case FieldRole::Scratch:
      return "scratch field";
    case FieldRole::FlowIn:
      return "flowIn";
    case FieldRole::FlowOut:
      return "flowOut";
  }
  return "field";
}

}  // namespace

const char* toString(ModelKind kind) {
  switch (kind) {
    case ModelKind::Flow:
      return "FlowModel";
    case ModelKind::Continuous:
      return "ContinuousModel";
    case ModelKind::Darts:
      return "DartsModel";
    case ModelKind::Actuator:
      return "ActuatorModel";
    case ModelKind::Sensor:
      return "SensorModel";
    case ModelKind::Motor:
      return "MotorModel";
    case ModelKind::Encoder:
      return "EncoderModel";
  }
  return "Model";
}

const char* branchName(FieldRole role) {
  switch (role) {
    case FieldRole::Param:
      return "params";
    case FieldRole::DiscreteState:
      return "discreteStates";
    case FieldRole::ContinuousState:
      return "continuousStates";
    case FieldRole::Scratch:
      return "scratch";
    case FieldRole::FlowIn:
      return "flowIns";
    case FieldRole::FlowOut:
      return "flowOuts";
  }
  return "fields";
}

bool FieldSpec::withinBounds(double x) const {
  const bool aboveLower = !lower || (lowerExclusive ? x > *lower : x >= *lower);
  const bool belowUpper = !upper || (upperExclusive ? x < *upper : x <= *upper);
  return aboveLower && belowUpper;
}

std::string FieldSpec::violatedBound(double x) const {
  if (lower && !(lowerExclusive ? x > *lower : x >= *lower)) {
    return (lowerExclusive ? "at or below the lower bound " : "below the lower bound ") +
           describeValue(*lower);
  }
  if (upper && !(upperExclusive ? x < *upper : x <= *upper)) {
    return (upperExclusive ? "at or above the upper bound " : "above the upper bound ") +
           describeValue(*upper);
  }
  return {};
}

std::string FieldSpec::boundsText() const {
  if (!lower && !upper) return {};
  return (lowerExclusive ? "(" : "[") + (lower ? describeValue(*lower) : std::string("-inf")) +
         ", " + (upper ? describeValue(*upper) : std::string("inf")) + (upperExclusive ? ")" : "]");
}

std::string FieldSpec::typeName() const {
  std::string out(toString(type));
  if (variableLength()) return out + "[" + lengthSymbol + "]";
  if (vector) return out + "[" + std::to_string(length) + "]";
  return out;
}

ModelSpec::ModelSpec(std::string className, ModelKind kind, std::string doc)
    : className_(std::move(className)), kind_(kind), doc_(std::move(doc)) {
  if (!identifier(className_)) {
    throw ModelError("model class name '" + className_ +
                     "' is not an identifier (letters, digits, _; not starting with a digit)");
  }
}

std::size_t ModelSpec::addField(FieldSpec field) {
  const std::string where =
      "model class '" + className_ + "': " + roleNoun(field.role) + " '" + field.name + "'";
  if (!identifier(field.name)) {
    throw ModelError(where + ": name is not an identifier (letters, digits, _)");
  }
  const auto clash = [&](FieldRole role) { return find(role, field.name).has_value(); };
  const bool isPort = field.role == FieldRole::FlowIn || field.role == FieldRole::FlowOut;
  if (clash(field.role) || (isPort && (clash(FieldRole::FlowIn) || clash(FieldRole::FlowOut)))) {
    throw ModelError(where +
                     ": declared twice (port names are unique across flowIns and "
                     "flowOuts; other names within their group)");
  }
  if (field.role == FieldRole::ContinuousState && field.type != ElementType::Double) {
    throw ModelError(where + ": continuous states are doubles");
  }
  auto& group = fields_[static_cast<std::size_t>(field.role)];
  group.push_back(std::move(field));
  return group.size() - 1;
}

CrossingDeclarator ModelSpec::zeroCrossing(std::string name, CrossingDirection direction) {
  const std::string where = "model class '" + className_ + "': zero crossing '" + name + "'";
  if (!identifier(name))
    throw ModelError(where + ": name is not an identifier (letters, digits, _)");
  if (std::any_of(crossings_.begin(), crossings_.end(),
                  [&](const CrossingSpec& c) { return c.name == name; })) {
    throw ModelError(where + ": declared twice");
  }
  crossings_.push_back({std::move(name), direction, {}});
  return {*this, crossings_.size() - 1};
}

CrossingDeclarator& CrossingDeclarator::describe(std::string description) {
  spec_->crossings_[index_].description = std::move(description);
  return *this;
}

void ModelSpec::checkField(const FieldSpec& field) const {
  const std::string where =
      "model class '" + className_ + "': " + roleNoun(field.role) + " '" + field.name + "'";
  if (field.vector && !field.variableLength() && field.length == 0) {
    throw ModelError(where + ": a vector length must be at least 1");
  }
  if (field.variableLength() && !identifier(field.lengthSymbol)) {
    throw ModelError(where + ": length symbol '" + field.lengthSymbol + "' is not an identifier");
  }
  if ((field.lower || field.upper) && !isNumericVectorType(field.type)) {
    throw ModelError(where + ": bounds apply to int and double fields only");
  }
  const bool empty =
      field.lower && field.upper &&
      (*field.lower > *field.upper ||
       (*field.lower == *field.upper && (field.lowerExclusive || field.upperExclusive)));
  if (empty) {
    throw ModelError(where + ": bounds " + field.boundsText() + " admit no value");
  }
  if (!field.defaultValue) return;
  // A default must be storable as the field's type: one element, or one per element.
  const Value& value = *field.defaultValue;
  std::size_t count = 1;
  if (const auto* v = std::get_if<std::vector<double>>(&value)) count = v->size();
  if (const auto* v = std::get_if<std::vector<std::int64_t>>(&value)) count = v->size();
  if (count != 1 && !field.variableLength() && count != field.length) {
    throw ModelError(where + ": default " + describeValue(value) + " has " + std::to_string(count) +
                     " elements, expected 1 or " + std::to_string(field.length));
  }
  Buffer probe(field.type, count);
  try {
    probe.set(value, where + " default");
  } catch (const InputError& e) {
    throw ModelError(e.what());
  }
  for (std::size_t i = 0; isNumericVectorType(field.type) && i < count; ++i) {
    const double x = field.type == ElementType::Double ? probe.doubles()[i]
                                                       : static_cast<double>(probe.ints()[i]);
    if (!field.withinBounds(x)) {
      throw ModelError(where + ": default " + describeValue(value) + " is " +
                       field.violatedBound(x));
    }
  }
}

std::optional<std::size_t> ModelSpec::find(FieldRole role, std::string_view name) const {
  const auto& group = fields(role);
  for (std::size_t i = 0; i < group.size(); ++i) {
    if (group[i].name == name) return i;
  }
  return std::nullopt;
}

std::size_t ModelSpec::indexOf(FieldRole role, std::string_view name) const {
  if (auto index = find(role, name)) return *index;
  std::vector<std::string> names;
  for (const FieldSpec& f : fields(role)) names.push_back(f.name);
  std::string declared;
  for (const std::string& n : names) declared += (declared.empty() ? "" : ", ") + n;
  throw NotFoundError("model class '" + className_ + "' has no " + roleNoun(role) + " '" +
                      std::string(name) + "'" + didYouMean(name, names) +
                      "; declared: " + (declared.empty() ? "none" : declared));
}

Granularity ModelSpec::outputGranularity() const {
  if (outputGranularity_) return *outputGranularity_;
  return fields(FieldRole::FlowOut).empty() ? Granularity::none() : Granularity::all();
}

bool ModelSpec::feedsThrough(std::size_t in, std::size_t out) const {
  const auto& feeds = fields(FieldRole::FlowOut)[out].feedsFrom;
  return !feeds || std::find(feeds->begin(), feeds->end(), in) != feeds->end();
}

bool ModelSpec::feedsAnyOutput(std::size_t in) const {
  const std::size_t outputs = fields(FieldRole::FlowOut).size();
  for (std::size_t out = 0; out < outputs; ++out) {
    if (feedsThrough(in, out)) return true;
  }
  return false;
}

}  // namespace hopsim

#include "hopsim/assemblies/model_params.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>

#include "hopsim/signals/error.h"
#include "param_variable.h"

namespace hopsim {

namespace {

ParamType paramType(const FieldSpec& f) {
  switch (f.type) {
    case ElementType::Bool:
      return ParamType::Bool;
    case ElementType::Int:
      return f.vector ? ParamType::IntegerVector : ParamType::Int;
    case ElementType::Double:
      return f.vector ? ParamType::DoubleVector : ParamType::Double;
    case ElementType::String:
      return ParamType::String;
  }
  return ParamType::Double;
}

/// The declared default as input: a scalar default of a fixed-length vector fills it.
std::optional<InputNode> defaultInput(const FieldSpec& f) {
  if (!f.defaultValue) return std::nullopt;
  if (f.vector && !std::holds_alternative<std::vector<double>>(*f.defaultValue) &&
      !std::holds_alternative<std::vector<std::int64_t>>(*f.defaultValue)) {
    if (f.variableLength()) return std::nullopt;  // its length is known only at lock()
    return InputNode::sequence(std::vector<InputNode>(f.length, inputFromValue(*f.defaultValue)));
  }
  return inputFromValue(*f.defaultValue);
}

/// Whether the declared default holds an infinity or NaN: the model gives such values a meaning
/// ("no limit"), so its params accept them.
bool nonFiniteDefault(const FieldSpec& f) {
  if (!f.defaultValue) return false;
  if (const auto* v = std::get_if<double>(&*f.defaultValue)) return !std::isfinite(*v);
  if (const auto* v = std::get_if<std::vector<double>>(&*f.defaultValue)) {
    return std::any_of(v->begin(), v->end(), [](double x) { return !std::isfinite(x); });
  }
  return false;
}

std::shared_ptr<const ParamSchema> buildSchema(const ModelSpec& spec) {
  auto schema = std::make_shared<ParamSchema>();
  schema->setDoc(spec.doc());
  for (const FieldSpec& f : spec.fields(FieldRole::Param)) {
    ParamField field;
    field.name = f.name;
    field.type = paramType(f);
    field.unit = f.unit == "1" ? std::string() : f.unit;
    field.description = f.description;
    if (f.vector && !f.variableLength()) field.minLength = field.maxLength = f.length;
    field.lower = f.lower;
    field.upper = f.upper;
    field.lowerExclusive = f.lowerExclusive;
    field.upperExclusive = f.upperExclusive;
    // A param without a default is left to the model, whose lock() names it if still unset:
    // something other than these inputs (a parent's bindParams) may set it.
    field.required = false;
    field.defaultValue = defaultInput(f);
    field.allowNonFinite = nonFiniteDefault(f);
    schema->addField(std::move(field));
  }
  return schema;
}

}  // namespace

std::shared_ptr<const ParamSchema> modelParamsSchema(const ModelSpec& spec) {
  static std::mutex mutex;
  static std::map<const ModelSpec*, std::shared_ptr<const ParamSchema>> schemas;
  const std::lock_guard lock(mutex);
  auto& schema = schemas[&spec];
  if (!schema) schema = buildSchema(spec);
  return schema;
}

ParamValues modelParamValues(const ParamSet& params) {
  ParamValues values;
  const auto& fields = params.schema().fields();
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (!params.has(i)) continue;
    values.emplace_back(
        fields[i].name,
        std::visit(
            [](const auto& v) -> Value {
              using T = std::decay_t<decltype(v)>;
              if constexpr (std::is_constructible_v<Value, T>)
                return Value(v);
              else
                throw ModelError("modelParamValues: a field that is no model param type");
            },
            params.value(i)));
  }
  return values;
}

}  // namespace hopsim

#include "hopsim/assemblies/model_assembly.h"

#include <algorithm>
#include <charconv>

#include "hopsim/assemblies/model_params.h"
#include "hopsim/core/darts_model.h"
#include "hopsim/models/standard_models.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/name_suggestions.h"

namespace hopsim {

namespace {

constexpr FieldRole kPortRoles[] = {FieldRole::FlowIn, FieldRole::FlowOut};

/// The count written in `text`, if it is a positive integer.
std::optional<std::size_t> positiveCount(const std::string& text) {
  std::size_t count = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), count);
  if (error != std::errc() || end != text.data() + text.size() || count == 0) return std::nullopt;
  return count;
}

/// The length symbols the ports of `spec` use, in declaration order.
std::vector<std::string> lengthSymbols(const ModelSpec& spec) {
  std::vector<std::string> symbols;
  for (const FieldRole role : kPortRoles) {
    for (const FieldSpec& port : spec.fields(role)) {
      if (port.variableLength() &&
          std::find(symbols.begin(), symbols.end(), port.lengthSymbol) == symbols.end()) {
        symbols.push_back(port.lengthSymbol);
      }
    }
  }
  return symbols;
}

const std::string* findLength(const StringMap& lengths, std::string_view symbol) {
  for (const auto& [name, value] : lengths) {
    if (name == symbol) return &value;
  }
  return nullptr;
}

/// Whether a model of `kind` attaches to a node, to a hinge, or to nothing.
bool attachesToNode(ModelKind kind) {
  return kind == ModelKind::Actuator || kind == ModelKind::Sensor;
}
bool attachesToHinge(ModelKind kind) {
  return kind == ModelKind::Motor || kind == ModelKind::Encoder;
}

}  // namespace

ModelAssembly::Config::Config() {
  setDoc(
      "Which model a ModelAssembly wraps, where the model attaches, its rate and the lengths "
      "of its variable-length ports.");
}

void ModelAssembly::Config::validate(const ParamSet& set) const {
  const ModelSpec* spec = nullptr;
  try {
    spec = &models::modelRegistry().spec(set[model]);
  } catch (const InputError& e) {
    set.fail("model", e.what());
  }
  const std::string what = std::string("a ") + toString(spec->kind()) + " (" + set[model] + ")";
  if (set.has(node) && !attachesToNode(spec->kind())) {
    set.fail("node", what + " does not attach to a node");
  }
  if (!set.has(node) && attachesToNode(spec->kind())) {
    set.fail("node", "is missing: " + what + " attaches to a node");
  }
  if (set.has(body) && !attachesToHinge(spec->kind())) {
    set.fail("body", what + " does not attach to a hinge");
  }
  if (!set.has(body) && attachesToHinge(spec->kind())) {
    set.fail("body", "is missing: " + what + " attaches to the hinge of a body");
  }
  if (set[subhinge] != -1 && !attachesToHinge(spec->kind())) {
    set.fail("subhinge", what + " does not attach to a hinge");
  }
  const std::vector<std::string> symbols = lengthSymbols(*spec);
  for (const auto& [symbol, count] : set[lengths]) {
    if (std::find(symbols.begin(), symbols.end(), symbol) == symbols.end()) {
      set.fail("lengths", "'" + symbol + "' is not a length symbol of " + set[model] + "'s ports" +
                              didYouMean(symbol, symbols));
    }
    if (!positiveCount(count)) {
      set.fail("lengths",
               "the length of '" + symbol + "' is '" + count + "', expected a positive integer");
    }
  }
}

Model& ModelAssembly::model() const { return sim().model(models().front()); }

std::shared_ptr<const ParamSchema> ModelAssembly::makeParamsSchema() const {
  return modelParamsSchema(models::modelRegistry().spec(config()[schemaOf<Config>()->model]));
}

std::size_t ModelAssembly::portLength(const FieldSpec& port, const ModelSpec& spec) const {
  if (!port.variableLength()) return port.length;
  // Config::validate has checked that a given length is positive.
  const Config& keys = *schemaOf<Config>();
  if (const std::string* count = findLength(config()[keys.lengths], port.lengthSymbol)) {
    return *positiveCount(*count);
  }
  // Else a port of the same length symbol that the parent tied sizes it.
  for (const FieldRole role : kPortRoles) {
    for (const FieldSpec& other : spec.fields(role)) {
      if (other.lengthSymbol != port.lengthSymbol) continue;
      if (const auto tied = offeredTie(other.name)) return tied->length;
    }
  }
  config().fail("lengths", "is missing the length '" + port.lengthSymbol + "' of " +
                               config()[keys.model] +
                               "'s untied variable-length ports (give "
                               "lengths: {" +
                               port.lengthSymbol + ": N}, or tie one of them)");
}

void ModelAssembly::addSignals() {
  const ModelSpec& spec = models::modelRegistry().spec(config()[schemaOf<Config>()->model]);
  for (const FieldRole role : kPortRoles) {
    for (const FieldSpec& port : spec.fields(role)) {
      addSignal(port.name, port.type, portLength(port, spec), port.unit == "1" ? "" : port.unit,
                port.description);
    }
  }
}

void ModelAssembly::addModels() {
  const Config& keys = *schemaOf<Config>();
  const std::string& className = config()[keys.model];
  Model& m = adoptModel(models::modelRegistry().create(className, path()));
  // Config::validate has checked that node or body is given exactly when the kind needs it.
  if (config().has(keys.node) || config().has(keys.body)) {
    attachModel(m, {config().has(keys.node) ? config()[keys.node] : std::string(),
                    config().has(keys.body) ? config()[keys.body] : std::string(),
                    static_cast<int>(config()[keys.subhinge])});
  }
  for (const FieldRole role : kPortRoles) {
    for (const FieldSpec& port : m.spec().fields(role)) tie(m, port.name, port.name);
  }
  if (config().has(keys.rate)) sim().setModelRate(m.name(), config()[keys.rate]);
}

void ModelAssembly::bindParams() {
  Model& m = model();
  for (const auto& [name, value] : modelParamValues(params())) m.setParam(name, value);
}

}  // namespace hopsim

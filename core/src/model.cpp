#include "hopsim/core/model.h"

#include <algorithm>

#include "hopsim/signals/error.h"
#include "hopsim/signals/name_suggestions.h"
#include "hopsim/signals/variable_tree.h"

namespace hopsim {
namespace {

bool isPort(FieldRole role) { return role == FieldRole::FlowIn || role == FieldRole::FlowOut; }

std::size_t valueCount(const Value& value) {
  if (const auto* v = std::get_if<std::vector<double>>(&value)) return v->size();
  if (const auto* v = std::get_if<std::vector<std::int64_t>>(&value)) return v->size();
  return 1;
}

/// Fills `buffer` with the field's default: one value for every element, or one per element.
void assignDefault(const FieldSpec& field, Buffer& buffer, const std::string& path) {
  if (!field.defaultValue) return;
  if (valueCount(*field.defaultValue) == buffer.length()) {
    buffer.set(*field.defaultValue, path);
  } else if (valueCount(*field.defaultValue) == 1) {
    for (std::size_t k = 0; k < buffer.length(); ++k) buffer.set(k, 1, *field.defaultValue, path);
  }
}

}  // namespace

const char* toString(ModelMethod method) {
  switch (method) {
    case ModelMethod::ProcessParams:
      return "processParams";
    case ModelMethod::StartIoStep:
      return "startIoStep";
    case ModelMethod::StartHop:
      return "startHop";
    case ModelMethod::UpdateFlowOuts:
      return "updateFlowOuts";
    case ModelMethod::EndHop:
      return "endHop";
    case ModelMethod::EndIoStep:
      return "endIoStep";
    case ModelMethod::StartIntegrationStep:
      return "startIntegrationStep";
    case ModelMethod::PreDeriv:
      return "preDeriv";
    case ModelMethod::PostDeriv:
      return "postDeriv";
    case ModelMethod::EndIntegrationStep:
      return "endIntegrationStep";
    case ModelMethod::MaskedCoordinates:
      return "maskedCoordinates";
  }
  return "?";
}

Model::Model(std::string name, const ModelSpec& spec, ModelKind classKind)
    : name_(std::move(name)), spec_(&spec) {
  VariableTree::checkPath(name_, "model name");
  if (spec.kind() != classKind) {
    throw ModelError("model '" + name_ + "': class '" + spec.className() + "' is declared a " +
                     toString(spec.kind()) + " but derives from " + toString(classKind));
  }
  for (FieldRole role : kValueRoles) {
    for (std::size_t i = 0; i < spec.fields(role).size(); ++i) {
      const FieldSpec& field = spec.fields(role)[i];
      std::size_t length = field.variableLength() ? 0 : field.length;
      if (field.variableLength() && field.defaultValue && valueCount(*field.defaultValue) > 1) {
        length = valueCount(*field.defaultValue);  // a whole vector default fixes the length
      }
      Buffer buffer(field.type, length);
      assignDefault(field, buffer, fieldPath(role, i));
      values(role).push_back(std::move(buffer));
    }
  }
  for (const FieldSpec& field : spec.fields(FieldRole::Param)) {
    paramAssigned_.push_back(field.defaultValue.has_value());
  }
  inputs_.resize(spec.fields(FieldRole::FlowIn).size());
  for (Port& input : inputs_) input.lastRead = &input.ownRecord;
  outputs_.resize(spec.fields(FieldRole::FlowOut).size());
}

std::string Model::describe() const { return "model '" + name_ + "' (" + spec_->className() + ")"; }

double Model::crossingResidual(CrossingKey c, double /*t*/) {
  throw ModelError(describe() + " declares the zero crossing '" + spec_->crossings()[c.index].name +
                   "' but its class does not override crossingResidual");
}

std::string Model::fieldPath(FieldRole role, std::size_t index) const {
  return "models." + name_ + "." + branchName(role) + "." + spec_->fields(role)[index].name;
}

std::size_t Model::fieldIndex(FieldRole role, std::string_view name) const {
  try {
    return spec_->indexOf(role, name);
  } catch (const NotFoundError& e) {
    throw NotFoundError(describe() + ": " + e.what());
  }
}

const std::size_t* Model::resolvedLength(const std::string& symbol) const {
  for (const auto& [name, length] : lengthSymbols_) {
    if (name == symbol) return &length;
  }
  return nullptr;
}

const Buffer& Model::fieldBuffer(FieldRole role, std::size_t index) const {
  if (isPort(role)) throw InputError(describe() + ": ports hold no values; read their signals");
  return values(role).at(index);
}

const SignalSlice& Model::binding(FieldRole port, std::size_t index) const {
  if (!isPort(port)) throw InputError(describe() + ": only flowIns and flowOuts are tied");
  return (port == FieldRole::FlowIn ? inputs_ : outputs_).at(index).slice;
}

bool Model::ownsSignal(FieldRole port, std::size_t index) const {
  const SignalSlice& slice = binding(port, index);
  return slice.valid() && std::any_of(ownSignals_.begin(), ownSignals_.end(),
                                      [&](const auto& s) { return s.get() == &slice.signal(); });
}

Value Model::get(FieldRole role, std::string_view field) const {
  const std::size_t index = fieldIndex(role, field);
  if (!isPort(role)) return values(role)[index].get();
  const SignalSlice& slice = binding(role, index);
  if (!slice.valid()) throw InputError(fieldPath(role, index) + " is not tied to a signal");
  return slice.get();
}

void Model::checkValue(FieldRole role, std::size_t index, const Value& value, Buffer& into) const {
  const FieldSpec& field = spec_->fields(role)[index];
  const std::string path = fieldPath(role, index);
  std::size_t length = field.length;
  if (field.variableLength()) {
    const std::size_t* fixed = resolvedLength(field.lengthSymbol);
    length = fixed ? *fixed : valueCount(value);
    if (fixed && valueCount(value) != *fixed) {
      throw InputError(path + ": expected " + std::to_string(*fixed) + " elements (length '" +
                       field.lengthSymbol + "' is fixed by its ties) but got " +
                       describeValue(value));
    }
  }
  into = Buffer(field.type, length);
  into.set(value, path);
  for (std::size_t k = 0; isNumericVectorType(field.type) && k < length; ++k) {
    const double x =
        field.type == ElementType::Double ? into.doubles()[k] : static_cast<double>(into.ints()[k]);
    if (!field.withinBounds(x)) {
      const std::string unit = field.unit.empty() ? "" : " " + field.unit;
      throw InputError(path + ": value " + describeValue(value) + " is " + field.violatedBound(x) +
                       unit + (length > 1 ? " (element " + std::to_string(k) + ")" : ""));
    }
  }
}

void Model::set(FieldRole role, std::string_view field, const Value& value) {
  setOwnField(role, field, value);
  raiseValuesSet();
}

void Model::raiseParamsChanged() {
  paramsChanged_ = true;
  if (flagsRaised_ != nullptr) ++*flagsRaised_;
}

void Model::raiseValuesSet() {
  valuesSet_ = true;
  if (flagsRaised_ != nullptr) ++*flagsRaised_;
}

void Model::setOwnField(FieldRole role, std::string_view field, const Value& value) {
  if (isPort(role)) {
    throw InputError(describe() + ": port '" + std::string(field) +
                     "' has no value of its own; set the signal it is tied to");
  }
  const std::size_t index = fieldIndex(role, field);
  Buffer checked(ElementType::Double, 0);
  checkValue(role, index, value, checked);
  values(role)[index] = std::move(checked);
  if (role == FieldRole::Param) {
    paramAssigned_[index] = true;
    raiseParamsChanged();
  }
}

void Model::saveDiscreteStates(std::vector<Buffer>& into) const {
  into = values(FieldRole::DiscreteState);  // reuses the capacity of a previous snapshot
}

void Model::restoreDiscreteStates(const std::vector<Buffer>& from) {
  values(FieldRole::DiscreteState) = from;
}

void Model::saveContinuousStates(std::vector<Buffer>& into) const {
  into = values(FieldRole::ContinuousState);
}

void Model::restoreContinuousStates(const std::vector<Buffer>& from) {
  // Element-wise, so the storage the state vector points into stays where it is.
  auto& states = values(FieldRole::ContinuousState);
  for (std::size_t i = 0; i < states.size(); ++i) {
    std::copy_n(from[i].doubles(), states[i].length(), states[i].doubles());
  }
}

void Model::saveEvaluationState(EvaluationState& into) const {
  into.continuousStates = values(FieldRole::ContinuousState);
  into.derivatives = derivatives_;
  into.scratch = values(FieldRole::Scratch);
  into.outputSignals.resize(outputs_.size(), Buffer(ElementType::Double, 0));
  into.outputVersions.resize(outputs_.size());
  for (std::size_t i = 0; i < outputs_.size(); ++i) {
    const Signal& signal = outputs_[i].slice.signal();
    into.outputSignals[i] = signal.buffer();
    into.outputVersions[i] = signal.version();
  }
}

void Model::restoreEvaluationState(const EvaluationState& from) {
  // Buffer assignment between equal lengths copies in place: no storage moves.
  restoreContinuousStates(from.continuousStates);
  for (std::size_t i = 0; i < derivatives_.size(); ++i) derivatives_[i] = from.derivatives[i];
  auto& scratch = values(FieldRole::Scratch);
  for (std::size_t i = 0; i < scratch.size(); ++i) scratch[i] = from.scratch[i];
  for (std::size_t i = 0; i < outputs_.size(); ++i) {
    Signal& signal = outputs_[i].slice.signal();
    signal.buffer() = from.outputSignals[i];
    signal.restoreVersion(from.outputVersions[i]);
  }
}

void Model::throwUnsetInput(std::size_t index) const {
  throw ModelError(describe() + " read flowIn '" + spec_->fields(FieldRole::FlowIn)[index].name +
                   "' from signal '" + inputs_[index].slice.describe() +
                   "' before anything wrote it; set the signal's initial value (a loop closed "
                   "with a break reads its previous value, so it needs one)");
}

void Model::throwWriteOutsideUpdate(std::size_t index) const {
  throw ModelError(describe() + " wrote flowOut '" + spec_->fields(FieldRole::FlowOut)[index].name +
                   "' outside updateFlowOuts; only updateFlowOuts writes flow outputs");
}

// ---- ModelBinding ---------------------------------------------------------------------------

void ModelBinding::tie(Model& model, std::string_view port, const SignalSlice& slice) {
  const ModelSpec& spec = model.spec();
  std::optional<std::size_t> index = spec.find(FieldRole::FlowIn, port);
  FieldRole role = FieldRole::FlowIn;
  if (!index) {
    index = spec.find(FieldRole::FlowOut, port);
    role = FieldRole::FlowOut;
  }
  if (!index) {
    std::vector<std::string> ports;
    for (FieldRole r : {FieldRole::FlowIn, FieldRole::FlowOut}) {
      for (const FieldSpec& f : spec.fields(r)) ports.push_back(f.name);
    }
    throw NotFoundError(model.describe() + " has no port '" + std::string(port) + "'" +
                        didYouMean(port, ports));
  }
  const FieldSpec& field = spec.fields(role)[*index];
  const Signal& signal = slice.signal();
  const std::string what = "cannot tie " + model.fieldPath(role, *index) + " (" + field.typeName() +
                           ") to '" + slice.describe() + "' (" +
                           describeType(signal.type(), slice.length()) + ")";
  if (field.type != signal.type()) throw InputError(what + ": element types differ");
  if (!field.variableLength() && slice.length() != field.length) {
    throw InputError(what + ": lengths differ");
  }
  Model::Port& tied = (role == FieldRole::FlowIn ? model.inputs_ : model.outputs_)[*index];
  tied.slice = slice;
  if (role == FieldRole::FlowIn) *tied.lastRead = 0;  // a new tie: nothing read from it yet
}

std::vector<std::string> ModelBinding::portsTiedTo(const Model& model, const Signal& signal) {
  std::vector<std::string> out;
  for (FieldRole role : {FieldRole::FlowIn, FieldRole::FlowOut}) {
    const auto& ports = role == FieldRole::FlowIn ? model.inputs_ : model.outputs_;
    for (std::size_t i = 0; i < ports.size(); ++i) {
      if (ports[i].slice.valid() && &ports[i].slice.signal() == &signal) {
        out.push_back(model.fieldPath(role, i));
      }
    }
  }
  return out;
}

namespace {

/// True when some field of `spec` has the variable length `symbol`.
bool usesLengthSymbol(const ModelSpec& spec, const std::string& symbol) {
  for (FieldRole role : {FieldRole::Param, FieldRole::DiscreteState, FieldRole::ContinuousState,
                         FieldRole::Scratch, FieldRole::FlowIn, FieldRole::FlowOut}) {
    for (const FieldSpec& field : spec.fields(role)) {
      if (field.lengthSymbol == symbol) return true;
    }
  }
  return false;
}

}  // namespace

void ModelBinding::tieOwnSignals(Model& model,
                                 const std::vector<std::pair<std::string, std::size_t>>& symbols) {
  for (FieldRole role : {FieldRole::FlowIn, FieldRole::FlowOut}) {
    auto& ports = role == FieldRole::FlowIn ? model.inputs_ : model.outputs_;
    for (std::size_t i = 0; i < ports.size(); ++i) {
      if (ports[i].slice.valid()) continue;
      const FieldSpec& field = model.spec().fields(role)[i];
      std::size_t length = field.length;
      if (field.variableLength()) {
        const auto symbol = std::find_if(symbols.begin(), symbols.end(), [&](const auto& s) {
          return s.first == field.lengthSymbol;
        });
        if (symbol == symbols.end()) {
          throw ModelError(model.describe() + ": length '" + field.lengthSymbol + "' of untied " +
                           (role == FieldRole::FlowIn ? "flowIn '" : "flowOut '") + field.name +
                           "' is fixed by no tied port and no set param (tie it)");
        }
        length = symbol->second;
      }
      Signal& own = *model.ownSignals_.emplace_back(
          std::make_unique<Signal>(model.name() + "." + field.name + " (untied)", field.type,
                                   length, field.unit, field.description));
      if (role == FieldRole::FlowIn) {
        assignDefault(field, own.buffer(), model.fieldPath(role, i));
        own.markWritten();
      }
      ports[i].slice = own.whole();
    }
  }
}

void ModelBinding::prepare(Model& model) {
  const ModelSpec& spec = model.spec();
  // The signals the last lock() gave untied ports go: a port tied since then uses its tie.
  for (FieldRole role : {FieldRole::FlowIn, FieldRole::FlowOut}) {
    auto& ports = role == FieldRole::FlowIn ? model.inputs_ : model.outputs_;
    for (std::size_t i = 0; i < ports.size(); ++i) {
      if (model.ownsSignal(role, i)) ports[i].slice = {};
    }
  }
  model.ownSignals_.clear();
  // Every input tied, unless it declares a default: a value nobody gave is a mistake. An
  // output nobody reads may stay untied, as in dataflow tools.
  for (std::size_t i = 0; i < model.inputs_.size(); ++i) {
    if (!model.inputs_[i].slice.valid() && !spec.fields(FieldRole::FlowIn)[i].defaultValue) {
      throw ModelError(model.describe() + ": flowIn '" + spec.fields(FieldRole::FlowIn)[i].name +
                       "' is not tied to a signal");
    }
  }
  // Variable lengths: ports fix them, set params must agree.
  std::vector<std::pair<std::string, std::size_t>> symbols;
  std::vector<std::string> sources;
  const auto bind = [&](const std::string& symbol, std::size_t length, const std::string& source) {
    for (std::size_t s = 0; s < symbols.size(); ++s) {
      if (symbols[s].first != symbol) continue;
      if (symbols[s].second != length) {
        throw ModelError(model.describe() + ": length '" + symbol + "' is " +
                         std::to_string(symbols[s].second) + " from " + sources[s] + " but " +
                         std::to_string(length) + " from " + source);
      }
      return;
    }
    symbols.emplace_back(symbol, length);
    sources.push_back(source);
  };
  for (FieldRole role : {FieldRole::FlowIn, FieldRole::FlowOut}) {
    const auto& ports = role == FieldRole::FlowIn ? model.inputs_ : model.outputs_;
    for (std::size_t i = 0; i < ports.size(); ++i) {
      const FieldSpec& field = spec.fields(role)[i];
      if (field.variableLength() && ports[i].slice.valid()) {
        bind(field.lengthSymbol, ports[i].slice.length(),
             std::string(branchName(role)) + " '" + field.name + "' tied to '" +
                 ports[i].slice.describe() + "'");
      }
    }
  }
  const auto& params = spec.fields(FieldRole::Param);
  for (std::size_t i = 0; i < params.size(); ++i) {
    const Buffer& value = model.values(FieldRole::Param)[i];
    if (params[i].variableLength() && value.length() > 0) {
      bind(params[i].lengthSymbol, value.length(),
           "param '" + params[i].name + "' = " + describeValue(value.get()));
    }
  }
  // A scalar integer param named like a length symbol fixes that length (a capacity, such as
  // SmoothContact's max_contacts); the param's bounds keep it positive.
  for (std::size_t i = 0; i < params.size(); ++i) {
    const Buffer& value = model.values(FieldRole::Param)[i];
    if (params[i].vector || params[i].type != ElementType::Int || !model.paramAssigned_[i] ||
        !usesLengthSymbol(spec, params[i].name)) {
      continue;
    }
    const std::int64_t length = std::get<std::int64_t>(value.get());
    if (length < 1) {
      throw ModelError(model.describe() + ": param '" + params[i].name +
                       "' = " + std::to_string(length) + " must be at least 1 (it is a length)");
    }
    bind(params[i].name, static_cast<std::size_t>(length),
         "param '" + params[i].name + "' = " + std::to_string(length));
  }
  // Size every variable-length value field; refill defaults only where the length changed, so
  // relocking keeps states.
  for (FieldRole role : kValueRoles) {
    for (std::size_t i = 0; i < spec.fields(role).size(); ++i) {
      const FieldSpec& field = spec.fields(role)[i];
      if (!field.variableLength()) continue;
      const auto symbol = std::find_if(symbols.begin(), symbols.end(), [&](const auto& s) {
        return s.first == field.lengthSymbol;
      });
      if (symbol == symbols.end()) {
        throw ModelError(model.describe() + ": length '" + field.lengthSymbol + "' of " +
                         branchName(role) + " '" + field.name +
                         "' is fixed by no tied port and no set param");
      }
      Buffer& buffer = model.values(role)[i];
      if (buffer.length() != symbol->second) {
        buffer.resize(symbol->second);
        assignDefault(field, buffer, model.fieldPath(role, i));
      }
    }
  }
  tieOwnSignals(model, symbols);
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (!model.paramAssigned_[i]) {
      throw ModelError(model.describe() + ": param '" + params[i].name +
                       "' has no default and was never set (set " +
                       model.fieldPath(FieldRole::Param, i) + ")");
    }
  }
  model.derivatives_.clear();
  for (const Buffer& state : model.values(FieldRole::ContinuousState)) {
    model.derivatives_.emplace_back(ElementType::Double, state.length());  // NaN until written
  }
  model.lengthSymbols_ = std::move(symbols);
  model.raiseParamsChanged();
  model.valuesSet_ = false;  // the step zero after lock() computes every output anyway
  model.setup();
}

}  // namespace hopsim

#include "hopsim/core/model_run.h"

#include <string>

#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

/// The address of a buffer's element `offset`, typed by the buffer's element type.
void* elementAddress(Buffer& buffer, std::size_t offset) {
  switch (buffer.type()) {
    case ElementType::Double:
      return buffer.doubles() + offset;
    case ElementType::Int:
      return buffer.ints() + offset;
    case ElementType::Bool:
      return &buffer.boolean();
    case ElementType::String:
      return &buffer.string();
  }
  return nullptr;  // unreachable: every element type is handled above
}

}  // namespace

RunFields::RunFields(Model* const* models, std::size_t count) : count_(count) {
  const ModelSpec& spec = models[0]->spec();
  for (std::size_t k = 1; k < count; ++k) {
    if (&models[k]->spec() != &spec) {
      throw ModelError("a run of " + models[0]->describe() + " also holds " +
                       models[k]->describe() + ", whose declaration is another object; the " +
                       "models of one run share their class's one declaration");
    }
  }
  std::size_t slots = 0;
  for (FieldRole role : kValueRoles) {
    valueStart_[static_cast<std::size_t>(role)] = slots;
    slots += spec.fields(role).size() * count;
  }
  valueStart_[kDerivatives] = slots;
  slots += spec.fields(FieldRole::ContinuousState).size() * count;
  values_.reserve(slots);
  contiguous_.reserve(slots / count);
  // One field's entries, and whether its doubles lie back to back (a column of FieldColumns).
  const auto addField = [&](auto&& bufferOf) {
    const std::size_t first = values_.size();
    bool backToBack = true;
    for (std::size_t k = 0; k < count; ++k) {
      Buffer& buffer = bufferOf(*models[k]);
      values_.push_back({elementAddress(buffer, 0), buffer.length()});
      backToBack =
          backToBack && buffer.type() == ElementType::Double &&
          buffer.length() == values_[first].length &&
          buffer.doubles() == static_cast<double*>(values_[first].data) + k * buffer.length();
    }
    contiguous_.push_back(
        {backToBack ? static_cast<double*>(values_[first].data) : nullptr, values_[first].length});
  };
  for (FieldRole role : kValueRoles) {
    for (std::size_t i = 0; i < spec.fields(role).size(); ++i) {
      addField([&](Model& model) -> Buffer& { return model.values(role)[i]; });
    }
  }
  for (std::size_t i = 0; i < spec.fields(FieldRole::ContinuousState).size(); ++i) {
    addField([&](Model& model) -> Buffer& { return model.derivatives_[i]; });
  }
  const std::size_t inputs = spec.fields(FieldRole::FlowIn).size();
  const std::size_t outputs = spec.fields(FieldRole::FlowOut).size();
  outputStart_ = inputs * count;
  ports_.reserve((inputs + outputs) * count);
  for (FieldRole role : {FieldRole::FlowIn, FieldRole::FlowOut}) {
    for (std::size_t i = 0; i < spec.fields(role).size(); ++i) {
      for (std::size_t k = 0; k < count; ++k) {
        Model::Port& port =
            (role == FieldRole::FlowIn ? models[k]->inputs_ : models[k]->outputs_)[i];
        Signal& signal = port.slice.signal();
        ports_.push_back({&signal, elementAddress(signal.buffer(), port.slice.offset()),
                          port.slice.length(), &port.lastReadVersion});
      }
    }
  }
}

void RunFields::throwUnsetInput(const Model& model, std::size_t index) {
  model.throwUnsetInput(index);
}

void RunFields::throwWriteOutsideUpdate(const Model& model, std::size_t index) {
  model.throwWriteOutsideUpdate(index);
}

}  // namespace hopsim

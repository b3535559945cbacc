#include "hopsim/core/model_run.h"

#include <optional>
#include <string>
#include <utility>

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

RunFields::Break RunFields::firstBreak(Model* const* models, std::size_t count) {
  const ModelSpec& spec = models[0]->spec();
  for (std::size_t k = 1; k < count; ++k) {
    // Model k's buffer of a double field continues model k - 1's, with model 0's length; if
    // not, the break there.
    const auto breakAt = [&](auto&& bufferOf, std::string field) -> std::optional<Break> {
      const Buffer& buffer = bufferOf(*models[k]);
      const Buffer& previous = bufferOf(*models[k - 1]);
      const std::size_t length = bufferOf(*models[0]).length();
      if (buffer.length() == length && buffer.doubles() == previous.doubles() + previous.length()) {
        return std::nullopt;
      }
      return Break{k, std::move(field), buffer.length(), length};
    };
    for (FieldRole role : kValueRoles) {
      for (std::size_t i = 0; i < spec.fields(role).size(); ++i) {
        if (spec.fields(role)[i].type != ElementType::Double) continue;
        const auto gap = breakAt([&](Model& model) -> Buffer& { return model.values(role)[i]; },
                                 models[k]->fieldPath(role, i));
        if (gap) return *gap;
      }
    }
    for (std::size_t i = 0; i < spec.fields(FieldRole::ContinuousState).size(); ++i) {
      const auto gap =
          breakAt([&](Model& model) -> Buffer& { return model.derivatives_[i]; },
                  "the derivative of " + models[k]->fieldPath(FieldRole::ContinuousState, i));
      if (gap) return *gap;
    }
  }
  return {count, {}, 0, 0};
}

std::size_t RunFields::backToBack(Model* const* models, std::size_t count) {
  return firstBreak(models, count).model;
}

RunFields::RunFields(Model* const* models, std::size_t count) : count_(count) {
  const ModelSpec& spec = models[0]->spec();
  for (std::size_t k = 1; k < count; ++k) {
    if (&models[k]->spec() != &spec) {
      throw ModelError("a run of " + models[0]->describe() + " also holds " +
                       models[k]->describe() + ", whose declaration is another object; the " +
                       "models of one run share their class's one declaration");
    }
  }
  const Break gap = firstBreak(models, count);
  if (gap.model != count) {
    throw ModelError("a run of " + models[0]->describe() + " cannot go on to " +
                     models[gap.model]->describe() + ": " + gap.field + " (" +
                     std::to_string(gap.length) + " elements) does not follow " +
                     models[gap.model - 1]->describe() + "'s in a column of " +
                     std::to_string(gap.runLength) + "-element entries; the executive places " +
                     "the double fields of a run class's models so at lock() and ends its runs " +
                     "where they are not");
  }
  std::size_t fields = 0;
  for (FieldRole role : kValueRoles) {
    firstField_[static_cast<std::size_t>(role)] = fields;
    fields += spec.fields(role).size();
  }
  firstField_[kDerivatives] = fields;
  fields += spec.fields(FieldRole::ContinuousState).size();
  values_.reserve(fields * count);
  contiguous_.reserve(fields);
  // One field's entries, and for a double field its column, which starts at model 0's elements.
  const auto addField = [&](auto&& bufferOf) {
    for (std::size_t k = 0; k < count; ++k) {
      Buffer& buffer = bufferOf(*models[k]);
      values_.push_back({elementAddress(buffer, 0), buffer.length()});
    }
    Buffer& first = bufferOf(*models[0]);
    contiguous_.push_back(
        {first.type() == ElementType::Double ? first.doubles() : nullptr, first.length()});
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
                          port.slice.length(), port.lastRead});
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

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

std::string RunFields::fieldPath(const Model& model, FieldId field) {
  const std::string path = model.fieldPath(field.role, field.index);
  return field.derivative ? "the derivative of " + path : path;
}

RunFields::Break RunFields::firstBreak(Model* const* models, std::size_t count) {
  const ModelSpec& spec = models[0]->spec();
  for (std::size_t k = 1; k < count; ++k) {
    Model& model = *models[k];
    // Where model k's part of a field is, and how long, against model k - 1's and model 0's;
    // the break there when it does not continue the column.
    const auto breakAt = [&](auto&& partOf, std::string field) -> std::optional<Break> {
      const auto [at, length] = partOf(model);
      const auto [previousAt, previousLength] = partOf(*models[k - 1]);
      const std::size_t runLength = partOf(*models[0]).second;
      if (length != runLength) {
        return Break{k, field + " has " + std::to_string(length) + " elements where the run's " +
                            "first model has " + std::to_string(runLength)};
      }
      if (at != previousAt + previousLength) {
        return Break{k, field + " does not follow " + models[k - 1]->describe() + "'s in a column"};
      }
      return std::nullopt;
    };
    std::optional<Break> gap;
    forEachField(spec, [&](FieldId field) {
      if (gap || spec.fields(field.role)[field.index].type != ElementType::Double) return;
      gap = breakAt(
          [&](Model& m) {
            const Buffer& elements = buffer(m, field);
            return std::pair{elements.doubles(), elements.length()};
          },
          fieldPath(model, field));
    });
    if (gap) return *gap;
    // Every input's read record continues the column, and every port's slice has one length.
    for (std::size_t i = 0; i < spec.fields(FieldRole::FlowIn).size(); ++i) {
      const auto record = breakAt(
          [&](Model& m) {
            return std::pair{m.inputs_[i].lastRead, std::size_t{1}};
          },
          "the read record of " + model.fieldPath(FieldRole::FlowIn, i));
      if (record) return *record;
    }
    for (FieldRole role : {FieldRole::FlowIn, FieldRole::FlowOut}) {
      for (std::size_t i = 0; i < spec.fields(role).size(); ++i) {
        const auto sliceLength = [&](Model& m) {
          return (role == FieldRole::FlowIn ? m.inputs_ : m.outputs_)[i].slice.length();
        };
        if (sliceLength(model) != sliceLength(*models[0])) {
          return {k, model.fieldPath(role, i) + " is tied to " +
                         std::to_string(sliceLength(model)) + " elements where the run's first " +
                         "model's is tied to " + std::to_string(sliceLength(*models[0]))};
        }
      }
    }
  }
  return {count, {}};
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
                     models[gap.model]->describe() + ": " + gap.what + "; the executive " +
                     "places the double fields and read records of a run class's models in " +
                     "columns at lock() and ends its runs where they do not continue");
  }
  std::size_t fields = 0;
  for (FieldRole role : kValueRoles) {
    firstField_[static_cast<std::size_t>(role)] = fields;
    fields += spec.fields(role).size();
  }
  firstField_[kDerivatives] = fields;
  fields += spec.fields(FieldRole::ContinuousState).size();
  fields_.reserve(fields);
  // One field: a double field's column starts at model 0's elements; another type's entries.
  forEachField(spec, [&](FieldId field) {
    Buffer& first = buffer(*models[0], field);
    if (first.type() == ElementType::Double) {
      fields_.push_back({first.doubles(), first.length(), entries_.size()});
      return;
    }
    fields_.push_back({nullptr, first.length(), entries_.size()});
    for (std::size_t k = 0; k < count; ++k) {
      Buffer& elements = buffer(*models[k], field);
      entries_.push_back({elementAddress(elements, 0), elements.length()});
    }
  });
  for (FieldRole role : {FieldRole::FlowIn, FieldRole::FlowOut}) {
    for (std::size_t i = 0; i < spec.fields(role).size(); ++i) {
      for (std::size_t k = 0; k < count; ++k) {
        Model::Port& port =
            (role == FieldRole::FlowIn ? models[k]->inputs_ : models[k]->outputs_)[i];
        Signal& signal = port.slice.signal();
        slices_.push_back({&signal, elementAddress(signal.buffer(), port.slice.offset())});
      }
    }
  }
  // The ports' entries once every slice is in: the vector no longer moves.
  const PortSlot* next = slices_.data();
  for (FieldRole role : {FieldRole::FlowIn, FieldRole::FlowOut}) {
    std::vector<Port>& ports = role == FieldRole::FlowIn ? inputs_ : outputs_;
    for (std::size_t i = 0; i < spec.fields(role).size(); ++i) {
      const Model::Port& first =
          (role == FieldRole::FlowIn ? models[0]->inputs_ : models[0]->outputs_)[i];
      ports.push_back(
          {next, role == FieldRole::FlowIn ? first.lastRead : nullptr, first.slice.length()});
      next += count;
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

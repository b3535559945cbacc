#include "hopsim/core/model_batch.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
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

std::string BatchFields::fieldPath(const Model& model, FieldId field) {
  const std::string path = model.fieldPath(field.role, field.index);
  return field.derivative ? "the derivative of " + path : path;
}

BatchFields::Break BatchFields::firstBreak(Model* const* models, std::size_t count) {
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
        return Break{k, field + " has " + std::to_string(length) + " elements where the batch's " +
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
                         std::to_string(sliceLength(model)) + " elements where the batch's first " +
                         "model's is tied to " + std::to_string(sliceLength(*models[0]))};
        }
      }
    }
  }
  return {count, {}};
}

std::size_t BatchFields::backToBack(Model* const* models, std::size_t count) {
  return firstBreak(models, count).model;
}

BatchFields::BatchFields(Model* const* models, std::size_t count) : count_(count) {
  const ModelSpec& spec = models[0]->spec();
  for (std::size_t k = 1; k < count; ++k) {
    if (&models[k]->spec() != &spec) {
      throw ModelError("a batch of " + models[0]->describe() + " also holds " +
                       models[k]->describe() + ", whose declaration is another object; the " +
                       "models of one batch share their class's one declaration");
    }
  }
  const Break gap = firstBreak(models, count);
  if (gap.model != count) {
    throw ModelError("a batch of " + models[0]->describe() + " cannot go on to " +
                     models[gap.model]->describe() + ": " + gap.what + "; the executive " +
                     "places the double fields and read records of a batch class's models in " +
                     "columns at lock() and ends its batches where they do not continue");
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

void BatchFields::throwUnsetInput(const Model& model, std::size_t index) {
  model.throwUnsetInput(index);
}

void BatchFields::throwWriteOutsideUpdate(const Model& model, std::size_t index) {
  model.throwWriteOutsideUpdate(index);
}

void BatchColumns::place(const std::vector<Model*>& models) {
  release();
  // The classes in order of first appearance, each with its models in calling order.
  std::vector<std::vector<Model*>> classes;
  for (Model* model : models) {
    const auto same = std::find_if(classes.begin(), classes.end(), [&](const auto& group) {
      return &group.front()->spec() == &model->spec();
    });
    if (same == classes.end()) {
      classes.push_back({model});
    } else {
      same->push_back(model);
    }
  }
  // Every double buffer of a class's models, field by field in a batch's order of fields.
  const auto forEachColumn = [&](auto&& visit) {
    for (const std::vector<Model*>& group : classes) {
      const ModelSpec& spec = group.front()->spec();
      BatchFields::forEachField(spec, [&](BatchFields::FieldId field) {
        if (spec.fields(field.role)[field.index].type != ElementType::Double) return;
        for (Model* model : group) visit(BatchFields::buffer(*model, field));
      });
    }
  };
  std::size_t size = 0;
  forEachColumn([&](const Buffer& buffer) { size += buffer.length(); });
  storage_.resize(size);
  std::size_t next = 0;
  forEachColumn([&](Buffer& buffer) {
    buffer.placeIn(storage_.data() + next);
    next += buffer.length();
  });
  // The inputs' read records the same way, one column per input of each class: a batch that
  // reads an input for each of its models then records the reads in consecutive words.
  std::size_t inputs = 0;
  for (const std::vector<Model*>& group : classes) {
    inputs += group.size() * group.front()->inputs_.size();
  }
  readRecords_.resize(inputs);
  std::size_t nextRecord = 0;
  for (const std::vector<Model*>& group : classes) {
    for (std::size_t i = 0; i < group.front()->inputs_.size(); ++i) {
      for (Model* model : group) {
        Model::Port& input = model->inputs_[i];
        readRecords_[nextRecord] = *input.lastRead;
        input.lastRead = &readRecords_[nextRecord++];
      }
    }
  }
  placed_ = models;
}

void BatchColumns::release() {
  for (Model* model : placed_) {
    BatchFields::forEachField(model->spec(), [&](BatchFields::FieldId field) {
      BatchFields::buffer(*model, field).ownElements();
    });
    for (Model::Port& input : model->inputs_) {
      input.ownRecord = *input.lastRead;
      input.lastRead = &input.ownRecord;
    }
  }
  placed_.clear();
  std::vector<double>().swap(storage_);
  std::vector<std::uint64_t>().swap(readRecords_);
}

}  // namespace hopsim

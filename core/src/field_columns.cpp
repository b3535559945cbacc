#include "hopsim/core/field_columns.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "hopsim/core/model_run.h"

namespace hopsim {

void FieldColumns::place(const std::vector<Model*>& models) {
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
  // Every double buffer of a class's models, field by field in a run's order of fields.
  const auto forEachColumn = [&](auto&& visit) {
    for (const std::vector<Model*>& group : classes) {
      const ModelSpec& spec = group.front()->spec();
      RunFields::forEachField(spec, [&](RunFields::FieldId field) {
        if (spec.fields(field.role)[field.index].type != ElementType::Double) return;
        for (Model* model : group) visit(RunFields::buffer(*model, field));
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
  // The inputs' read records the same way, one column per input of each class: a run that
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

void FieldColumns::release() {
  for (Model* model : placed_) {
    RunFields::forEachField(model->spec(), [&](RunFields::FieldId field) {
      RunFields::buffer(*model, field).ownElements();
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

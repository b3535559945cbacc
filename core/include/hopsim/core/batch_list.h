#pragma once
/// @file
/// BatchList: the models the executive calls for one method, in calling order, cut into batches
/// that one call of their class's batch function serves (BatchCalls).

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "hopsim/core/model.h"
#include "hopsim/core/model_batch.h"

namespace hopsim {

/// The models called for one method, in order. Consecutive models added with the same function
/// and the same spec form one batch, called with one call of that function. A model with a
/// model-method event around the call is a batch of its own, which call() hands to its `fire`
/// argument to fire the events around it. `Function` is a BatchCalls member type (HopMethod or
/// TimeMethod).
template <class Function>
class BatchList {
 public:
  void clear() {
    models_.clear();
    batches_.clear();
    fields_.clear();
  }
  /// Appends `model`, called through `function` (not null). `hooked`: a model-method event is
  /// registered around this call. `readsFields`: `function` is a batch method the class wrote,
  /// which reads the batch's BatchFields (built by bindBatchFields()).
  void add(Model* model, Function function, bool hooked, bool readsFields) {
    const bool joins = !batches_.empty() && !hooked && !batches_.back().hooked &&
                       batches_.back().function == function &&
                       batches_.back().spec == &model->spec();
    if (!joins) {
      batches_.push_back(
          {function, &model->spec(), models_.size(), 0, hooked, readsFields, nullptr});
    }
    ++batches_.back().count;
    models_.push_back(model);
  }
  /// Builds the BatchFields of the batches that read them, after the last add() and after their
  /// fields were placed in columns (BatchColumns). A batch ends where a model's double fields do
  /// not continue the previous model's columns (BatchFields::backToBack): in a list that skips
  /// models of the class, or where a length declared by a symbol changes.
  void bindBatchFields() {
    std::vector<Batch> batches;
    for (const Batch& batch : batches_) {
      if (!batch.readsFields) {
        batches.push_back(batch);
        continue;
      }
      for (std::size_t done = 0; done < batch.count;) {
        Model* const* first = models_.data() + batch.first + done;
        Batch part = batch;
        part.first += done;
        part.count = BatchFields::backToBack(first, batch.count - done);
        fields_.push_back(std::make_unique<BatchFields>(first, part.count));
        part.fields = fields_.back().get();
        batches.push_back(part);
        done += part.count;
      }
    }
    batches_ = std::move(batches);
  }

  bool empty() const { return models_.empty(); }

  /// Calls the method on every model, in order, with `args`: a batch through its function, a
  /// hooked model through `fire(model, invoke)`, which must call `invoke()` between its events.
  template <class Fire, class... Args>
  void call(Fire&& fire, Args... args) const {
    for (const Batch& batch : batches_) {
      Model* const* first = models_.data() + batch.first;
      if (!batch.hooked) [[likely]] {
        batch.function(first, batch.count, batch.fields, args...);
      } else {
        fire(**first, [&] { batch.function(first, 1, batch.fields, args...); });
      }
    }
  }

 private:
  struct Batch {
    Function function;
    const ModelSpec* spec;
    std::size_t first;
    std::size_t count;
    bool hooked;
    bool readsFields;
    const BatchFields* fields;  // set by bindBatchFields() when readsFields
  };
  std::vector<Model*> models_;
  std::vector<Batch> batches_;
  std::vector<std::unique_ptr<BatchFields>> fields_;
};

}  // namespace hopsim

#pragma once
/// @file
/// ModelCallList: the models the executive calls for one method, in calling order, as runs that
/// one call of a class's batch function serves (ModelClassCalls).

#include <cstddef>
#include <vector>

#include "hopsim/core/model.h"

namespace hopsim {

/// The models called for one method, in order. Consecutive models added with the same batch
/// function form one run, called with one call of that function; models added without one
/// (unknown class, a model-method event around the call) are called one by one.
/// `Batch` is a ModelClassCalls member type (HopMethod or TimeMethod).
template <class Batch>
class ModelCallList {
 public:
  void clear() {
    models_.clear();
    runs_.clear();
  }
  /// Appends `model`, called through `batch`, or one by one when `batch` is null.
  void add(Model* model, Batch batch) {
    if (runs_.empty() || runs_.back().batch != batch) runs_.push_back({batch, models_.size(), 0});
    ++runs_.back().count;
    models_.push_back(model);
  }

  bool empty() const { return models_.empty(); }

  /// Calls the method on every model, in order: a run through its batch function with `args`,
  /// a model without one through `one(model)`.
  template <class One, class... Args>
  void call(One&& one, Args... args) const {
    for (const Run& run : runs_) {
      Model* const* first = models_.data() + run.first;
      if (run.batch != nullptr) {
        run.batch(first, run.count, args...);
      } else {
        for (std::size_t i = 0; i < run.count; ++i) one(*first[i]);
      }
    }
  }

 private:
  struct Run {
    Batch batch;
    std::size_t first;
    std::size_t count;
  };
  std::vector<Model*> models_;
  std::vector<Run> runs_;
};

}  // namespace hopsim

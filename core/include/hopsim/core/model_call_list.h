#pragma once
/// @file
/// ModelCallList: the models the executive calls for one method, in calling order, as runs that
/// one call of a class's function serves (ModelClassCalls).

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "hopsim/core/model.h"
#include "hopsim/core/model_run.h"

namespace hopsim {

/// The models called for one method, in order. Consecutive models added with the same function
/// and the same spec form one run, called with one call of that function. A model with a
/// model-method event around the call is a run of its own, which call() hands to its `fire`
/// argument to fire the events around it. `Batch` is a ModelClassCalls member type (HopMethod
/// or TimeMethod).
template <class Batch>
class ModelCallList {
 public:
  void clear() {
    models_.clear();
    runs_.clear();
    fields_.clear();
  }
  /// Appends `model`, called through `batch` (not null). `hooked`: a model-method event is
  /// registered around this call. `usesRunFields`: `batch` is a run method, which reads the
  /// run's RunFields (built by bindRunFields()).
  void add(Model* model, Batch batch, bool hooked, bool usesRunFields) {
    const bool joins = !runs_.empty() && !hooked && !runs_.back().hooked &&
                       runs_.back().batch == batch && runs_.back().spec == &model->spec();
    if (!joins) {
      runs_.push_back({batch, &model->spec(), models_.size(), 0, hooked, usesRunFields, nullptr});
    }
    ++runs_.back().count;
    models_.push_back(model);
  }
  /// Builds the RunFields of the runs that read them, after the last add() and after their
  /// fields were placed in columns (FieldColumns). A run ends where a model's double fields do
  /// not continue the previous model's columns (RunFields::backToBack): in a list that skips
  /// models of the class, or where a length declared by a symbol changes.
  void bindRunFields() {
    std::vector<Run> runs;
    for (const Run& run : runs_) {
      if (!run.usesRunFields) {
        runs.push_back(run);
        continue;
      }
      for (std::size_t done = 0; done < run.count;) {
        Model* const* first = models_.data() + run.first + done;
        Run part = run;
        part.first += done;
        part.count = RunFields::backToBack(first, run.count - done);
        fields_.push_back(std::make_unique<RunFields>(first, part.count));
        part.fields = fields_.back().get();
        runs.push_back(part);
        done += part.count;
      }
    }
    runs_ = std::move(runs);
  }

  bool empty() const { return models_.empty(); }

  /// Calls the method on every model, in order, with `args`: a run through its function, a
  /// hooked model through `fire(model, invoke)`, which must call `invoke()` between its events.
  template <class Fire, class... Args>
  void call(Fire&& fire, Args... args) const {
    for (const Run& run : runs_) {
      Model* const* first = models_.data() + run.first;
      if (!run.hooked) [[likely]] {
        run.batch(first, run.count, run.fields, args...);
      } else {
        fire(**first, [&] { run.batch(first, 1, run.fields, args...); });
      }
    }
  }

 private:
  struct Run {
    Batch batch;
    const ModelSpec* spec;
    std::size_t first;
    std::size_t count;
    bool hooked;
    bool usesRunFields;
    const RunFields* fields;  // set by bindRunFields() when usesRunFields
  };
  std::vector<Model*> models_;
  std::vector<Run> runs_;
  std::vector<std::unique_ptr<RunFields>> fields_;
};

}  // namespace hopsim

#pragma once
/// @file
/// FieldColumns: the double fields and the inputs' read records of the models whose class has
/// run methods, laid out as one column per field over the models of each class in calling order.

#include <cstdint>
#include <vector>

#include "hopsim/core/model.h"

namespace hopsim {

/// Storage for the double params, states, derivatives and scratch of models whose class has run
/// methods (model_run.h): for each class, each field is one contiguous column over the class's
/// models in calling order, so that a run method, which goes through the run's models field by
/// field, streams each field through consecutive memory. The models' buffers are placed in the
/// columns (Buffer::placeIn) and read and write them there; values set, restored or rolled back are
/// copied in. Each input's record of the signal version its model last read (isFresh()) is placed
/// likewise, one column per input of a class: every read stores the record, and a run of small
/// models storing into scattered ports pays for a line per model (docs/performance.md, "The
/// framework against a hand-written loop"). The executive places them when it builds its call lists
/// and gives the elements back (release) before the structure can change: at unlock(), at the next
/// build, on destruction.
class FieldColumns {
 public:
  FieldColumns() = default;
  FieldColumns(const FieldColumns&) = delete;
  FieldColumns& operator=(const FieldColumns&) = delete;
  ~FieldColumns() { release(); }

  /// Places the double fields and read records of `models` (in calling order), after release().
  void place(const std::vector<Model*>& models);
  /// Gives every placed field its elements and every input its record back, and frees the
  /// columns.
  void release();

 private:
  std::vector<Model*> placed_;
  std::vector<double> storage_;
  std::vector<std::uint64_t> readRecords_;
};

}  // namespace hopsim

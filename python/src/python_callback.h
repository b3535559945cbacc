#pragma once
/// @file
/// Python callables as the executive's C++ callbacks (events, conditions, stop callbacks,
/// multi-rate schedules, zero-crossing residuals).
///
/// The executive runs with the GIL released (simulation.cpp), so each adapter takes the GIL
/// around its call, and the callable is released with the GIL held whichever thread drops it
/// (an event expiring inside a run, say). An exception the callable raises travels through the
/// executive as pybind11::error_already_set and reaches the caller of advance_time_to() or
/// run() as the original Python exception.

#include <pybind11/pybind11.h>

#include <memory>
#include <string>

#include "hopsim/core/events.h"
#include "hopsim/core/simulation.h"
#include "hopsim/core/zero_crossing.h"

namespace hopsim::python {

namespace py = pybind11;

/// A Python callable shared by the copies of a std::function: copying needs no GIL, and the
/// last copy releases the callable with the GIL held.
class PythonCallable {
 public:
  explicit PythonCallable(py::object callable);
  /// Calls it. Precondition: the GIL is held.
  template <class... Args>
  py::object operator()(Args&&... args) const {
    return (*callable_)(std::forward<Args>(args)...);
  }

 private:
  std::shared_ptr<py::object> callable_;
};

/// callback(sim, t) -> None.
EventCallback toEventCallback(py::object callback);
/// observer(sim, event name, t) -> None.
EventObserver toEventObserver(py::object observer);
/// condition(sim, t) -> truthy; None gives no condition.
EventCondition toEventCondition(py::object condition);
/// callback(sim, t) -> next time in s, or None to fire no more. `event` names it in errors.
RescheduleCallback toRescheduleCallback(py::object callback, std::string event);
/// callback(sim, t) -> truthy to stop.
StopCallback toStopCallback(py::object callback);
/// residual(sim, t) -> a number (float, int or a numpy scalar). `crossing` names it in errors.
ZeroCrossingResidual toZeroCrossingResidual(py::object residual, std::string crossing);
/// next(now) -> the end of the model's next I/O step in s, or None for no future trigger.
/// `model` names it in errors.
NextIoTime toNextIoTime(py::object next, std::string model);

}  // namespace hopsim::python

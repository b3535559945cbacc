#include "python_callback.h"

#include <optional>
#include <utility>

#include "hopsim/signals/error.h"

namespace hopsim::python {
namespace {

/// The Python object of the simulation a callback runs for (the one that created it).
py::object simulationObject(Simulation& sim) {
  return py::cast(&sim, py::return_value_policy::reference);
}

bool truthy(const py::object& result) {
  const int value = PyObject_IsTrue(result.ptr());
  if (value < 0) throw py::error_already_set();
  return value != 0;
}

/// A callback's answer as "a time or none". @throws InputError naming `who` otherwise.
std::optional<double> optionalTime(const py::object& result, const std::string& who) {
  if (result.is_none()) return std::nullopt;
  if (!PyBool_Check(result.ptr())) {
    const double t = PyFloat_AsDouble(result.ptr());
    if (!(t == -1.0 && PyErr_Occurred())) return t;
    PyErr_Clear();
  }
  throw InputError(who + " returned " + py::repr(result).cast<std::string>() +
                   "; expected a time in seconds or None");
}

/// A residual's answer as a double. @throws InputError naming `who` for anything but a number.
double residualValue(const py::object& result, const std::string& who) {
  if (!PyBool_Check(result.ptr()) && !result.is_none()) {
    const double value = PyFloat_AsDouble(result.ptr());
    if (!(value == -1.0 && PyErr_Occurred())) return value;
    PyErr_Clear();
  }
  throw InputError(who + " returned " + py::repr(result).cast<std::string>() +
                   "; expected a number");
}

}  // namespace

PythonCallable::PythonCallable(py::object callable)
    : callable_(new py::object(std::move(callable)), [](py::object* object) {
        const py::gil_scoped_acquire gil;
        delete object;
      }) {}

EventCallback toEventCallback(py::object callback) {
  return [callable = PythonCallable(std::move(callback))](Simulation& sim, double t) {
    const py::gil_scoped_acquire gil;
    callable(simulationObject(sim), t);
  };
}

EventObserver toEventObserver(py::object observer) {
  return [callable = PythonCallable(std::move(observer))](Simulation& sim, std::string_view event,
                                                          double t) {
    const py::gil_scoped_acquire gil;
    callable(simulationObject(sim), std::string(event), t);
  };
}

EventCondition toEventCondition(py::object condition) {
  if (condition.is_none()) return {};
  return [callable = PythonCallable(std::move(condition))](Simulation& sim, double t) {
    const py::gil_scoped_acquire gil;
    return truthy(callable(simulationObject(sim), t));
  };
}

RescheduleCallback toRescheduleCallback(py::object callback, std::string event) {
  return [callable = PythonCallable(std::move(callback)),
          who = "the callback of event '" + event + "'"](Simulation& sim, double t) {
    const py::gil_scoped_acquire gil;
    return optionalTime(callable(simulationObject(sim), t), who);
  };
}

StopCallback toStopCallback(py::object callback) {
  // A stop callback is a predicate of (sim, t), exactly like an event condition.
  return toEventCondition(std::move(callback));
}

ZeroCrossingResidual toZeroCrossingResidual(py::object residual, std::string crossing) {
  return [callable = PythonCallable(std::move(residual)),
          who = "the residual of zero crossing '" + crossing + "'"](Simulation& sim, double t) {
    const py::gil_scoped_acquire gil;
    return residualValue(callable(simulationObject(sim), t), who);
  };
}

NextIoTime toNextIoTime(py::object next, std::string model) {
  return [callable = PythonCallable(std::move(next)),
          who = "the multi-rate callback of model '" + model + "'"](double now) {
    const py::gil_scoped_acquire gil;
    return optionalTime(callable(now), who);
  };
}

}  // namespace hopsim::python

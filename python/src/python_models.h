#pragma once
/// @file
/// The C++ side of Python model instances, for the other binding files (assemblies.cpp).

#include <pybind11/pybind11.h>

#include <memory>

#include "hopsim/core/model.h"

namespace hopsim::python {

namespace py = pybind11;

/// True when `object` is a subclass of hopsim.FlowModel or hopsim.ContinuousModel.
bool isPythonModelClass(py::handle object);

/// Hands over the C++ model of an instance of a Python model class, once: from then on the model
/// keeps the instance alive. @throws TypeError for any other object, ModelError for an instance
/// already handed over.
std::unique_ptr<Model> releasePythonModel(py::handle instance);

}  // namespace hopsim::python

// Python subclasses of FlowModel and ContinuousModel, called by the executive like C++ models.

#include "bindings.h"

namespace hopsim::python {

void bindPythonModels(py::module_& /*m*/) {}

}  // namespace hopsim::python

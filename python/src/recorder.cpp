// Recording from Python: the Recorder's samples as numpy arrays.

#include "bindings.h"

namespace hopsim::python {

void bindRecorder(py::module_& /*m*/) {}

}  // namespace hopsim::python

// Assemblies from Python: subclasses of hopsim.Assembly built by the C++ assembly machinery.

#include "bindings.h"

namespace hopsim::python {

void bindAssemblies(py::module_& /*m*/) {}

}  // namespace hopsim::python

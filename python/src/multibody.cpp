// The multibody system from Python: build trees procedurally (bodies, hinges, nodes), query
// frames, energies and momenta, the mass matrix and inverse dynamics.

#include "bindings.h"

namespace hopsim::python {

void bindMultibody(py::module_& /*m*/) {}

}  // namespace hopsim::python

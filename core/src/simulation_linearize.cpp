// Simulation::linearize: the facade over a LinearizationSession (docs/linearization.md).

#include "hopsim/core/simulation.h"
#include "linearization_session.h"

namespace hopsim {

LinearSystem Simulation::linearize(const LinearizationRequest& request) {
  LinearizationSession session(*this);
  const std::vector<Eigen::Index> states = session.selectStates(request.states, "state", true);
  session.setInputs(request.inputs);
  session.setOutputs(request.outputs);
  return session.linearizeAt(session.x0(), session.u0(), states, request.options);
}

}  // namespace hopsim

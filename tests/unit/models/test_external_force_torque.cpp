// ExternalForceTorque on a free body at rest: one Euler evaluation gives U' = [α; a] in body
// axes, which Newton-Euler predicts by hand from the force at the node origin and the couple
// once both are rotated into body axes (free_body.h): α = J⁻¹ (τ + p_BN × F), a = F / m. No
// velocity terms at rest, so the comparison is to rounding (1e-12 relative).

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "free_body.h"
#include "hopsim/models/external_force_torque.h"
#include "hopsim/signals/error.h"

namespace hopsim {
namespace {

using spatial::Matrix3;
using spatial::Vector3;

/// U' of the free body under force F and torque T given in `frame`.
Eigen::VectorXd accelerations(const test::FreeBody& body, const std::string& frame,
                              const Vector3& F, const Vector3& T) {
  Simulation sim({.ioStepSize = 1e-3, .integrator = "euler"});
  body.build(sim);
  sim.addModel<models::ExternalForceTorque>("push").attachToNode("n");
  sim.set("models.push.params.frame", frame);
  sim.addSignal("F", ElementType::Double, 3, "N");
  sim.addSignal("T", ElementType::Double, 3, "N*m");
  sim.tie("push", "force", "F");
  sim.tie("push", "torque", "T");
  sim.set("signals.F", std::vector<double>{F.x(), F.y(), F.z()});
  sim.set("signals.T", std::vector<double>{T.x(), T.y(), T.z()});
  sim.lock();
  sim.advanceOverHop();
  return sim.multibody().udot();
}

}  // namespace

TEST_CASE("ExternalForceTorque: F = m a and τ = J α in NODE, BODY and INERTIAL axes") {
  const test::FreeBody body;
  const Vector3 F(1.0, -2.0, 0.5), T(0.3, 0.1, -0.4);
  // The same vectors read in each frame, rotated into body axes by hand.
  const Matrix3 toBody[3] = {body.R_BN, Matrix3::Identity(), body.R_WB.transpose()};
  const char* frames[3] = {"node", "BODY", "Inertial"};
  for (int f = 0; f < 3; ++f) {
    CAPTURE(frames[f]);
    const Eigen::VectorXd udot = accelerations(body, frames[f], F, T);
    const auto expected = body.accelerations(toBody[f] * F, toBody[f] * T);
    for (int i = 0; i < 6; ++i) {
      CAPTURE(i);
      CHECK(udot[i] == doctest::Approx(expected[i]).epsilon(1e-12));
    }
  }
}

TEST_CASE("ExternalForceTorque: an unknown frame is refused") {
  const test::FreeBody body;
  CHECK_THROWS_WITH_AS(accelerations(body, "LOCAL", Vector3::Zero(), Vector3::Zero()),
                       doctest::Contains("models.push.params.frame: unknown value 'LOCAL' "
                                         "(expected NODE, BODY, INERTIAL, in any case)"),
                       InputError);
}

}  // namespace hopsim

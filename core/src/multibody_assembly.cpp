#include "hopsim/core/multibody_assembly.h"

#include "hopsim/core/multibody/constraints.h"
#include "hopsim/core/multibody/forward_kinematics.h"
#include "hopsim/core/multibody/qdot.h"

namespace hopsim {

AssemblyCorrection assembleOntoConstraints(MultibodySystem& system, double positionTolerance,
                                           double velocityTolerance, int maxIterations) {
  const multibody::MultibodyModel& model = system.model();
  const multibody::ConstraintSet& set = system.constraints();
  AssemblyCorrection c;
  if (!system.hasBodies() || set.rowCount() == 0) return c;
  system.constraintData();  // a ModelError unless locked since the constraints were added
  // Worked on copies and written back only when both projections succeed.
  Eigen::VectorXd q = system.q();
  Eigen::VectorXd u = system.u();
  multibody::MultibodyData data(model);
  multibody::ConstraintData cdata(model, set);
  multibody::normalizeQuaternions(model, q);
  multibody::forwardKinematics(model, data, q);
  multibody::evaluateConstraintPositions(model, set, data, cdata);
  c.position = cdata.phi.cwiseAbs().maxCoeff();
  multibody::projectPositions(model, set, data, cdata, q, positionTolerance, maxIterations);
  // projectPositions returns after evaluating φ and G at the Q it accepts.
  c.velocity = (cdata.G * u).cwiseAbs().maxCoeff();
  multibody::projectVelocities(model, set, data, cdata, q, u, velocityTolerance);
  system.q() = q;
  system.u() = u;
  c.aboveTolerance = c.position > positionTolerance || c.velocity > velocityTolerance;
  return c;
}

}  // namespace hopsim

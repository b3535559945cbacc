#include "peer_problem.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "hopsim/core/spatial/rotation.h"
#include "multibody_problem.h"

namespace hopsim::bench::peers {

using multibody::Hinge;
using multibody::HingeType;
using multibody::kWorldBody;
using spatial::SpatialInertia;

Problem makeProblem(int bodies, bool branched) {
  MultibodyProblem made = makeMultibodyProblem(bodies, branched);
  Problem p;
  p.name = (branched ? "tree" : "chain") + std::to_string(bodies);
  p.bodies = bodies;
  p.floatingBase = branched;
  p.model = std::move(made.model);
  p.q = std::move(made.q);
  p.u = std::move(made.u);
  p.udot = std::move(made.udot);
  p.tau = std::move(made.tau);
  return p;
}

std::vector<Problem> makeAllProblems() {
  std::vector<Problem> problems;
  problems.push_back(makeProblem(7, false));
  problems.push_back(makeProblem(30, false));
  problems.push_back(makeProblem(100, false));
  problems.push_back(makeProblem(30, true));
  return problems;
}

std::vector<BodyDescription> describeBodies(const MultibodyModel& model) {
  std::vector<BodyDescription> out;
  for (int b = 1; b < model.bodyCount(); ++b) {
    const std::string where = "body '" + model.bodyName(b) + "': ";
    const Hinge& hinge = model.hinge(b);
    BodyDescription d;
    d.parent = model.parent(b);
    d.free = hinge.type() == HingeType::Full6Dof;
    if (d.free) {
      // A free joint's coordinates are world coordinates in MuJoCo and Bullet: the inboard
      // frame must be the world's.
      if (b != 1 || d.parent != kWorldBody || !model.X_PF(b).isApprox(RigidTransform(), 0.0))
        throw std::invalid_argument(where + "FULL6DOF only as body 1 on the world, X_PF = 1");
    } else if (hinge.type() != HingeType::Pin) {
      throw std::invalid_argument(where + "only PIN and FULL6DOF hinges are mapped");
    } else {
      d.axis = hinge.subhinge(0).axis;
    }
    if (!model.outboardIsBodyFrame(b))
      throw std::invalid_argument(where + "X_BM must be the identity");
    d.X_PF = model.X_PF(b);
    const SpatialInertia& M = model.massProperties(b);
    const Matrix3& I = M.rotationalInertiaAboutCm();
    // Bullet takes principal moments along the link frame's axes; the others could take a
    // full tensor, but all four engines must get the same body.
    if ((I - Matrix3(I.diagonal().asDiagonal())).cwiseAbs().maxCoeff() != 0.0)
      throw std::invalid_argument(where + "the inertia about the CM must be diagonal in B");
    d.mass = M.mass();
    d.com = M.comPosition();
    d.inertiaDiagonal = I.diagonal();
    out.push_back(d);
  }
  return out;
}

double relativeDiscrepancy(const Eigen::MatrixXd& value, const Eigen::MatrixXd& reference,
                           Eigen::Index* worstRow, Eigen::Index* worstCol) {
  if (value.rows() != reference.rows() || value.cols() != reference.cols())
    throw std::invalid_argument("relativeDiscrepancy: sizes differ");
  Eigen::Index r = 0, c = 0;
  const double worst = (value - reference).cwiseAbs().maxCoeff(&r, &c);
  if (worstRow) *worstRow = r;
  if (worstCol) *worstCol = c;
  const double scale = std::max(reference.cwiseAbs().maxCoeff(), 1e-300);
  return worst / scale;
}

}  // namespace hopsim::bench::peers

#include "peer_problem.h"

#include <algorithm>
#include <random>
#include <stdexcept>

#include "hopsim/core/spatial/rotation.h"

namespace hopsim::bench::peers {

using multibody::Hinge;
using multibody::HingeType;
using multibody::kWorldBody;
using spatial::SpatialInertia;

Problem makeProblem(int bodies, bool branched) {
  // The draws below are those of bench/multibody_dynamics.cpp, in the same order: the models
  // timed here are the ones hopsim_bench_multibody times.
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  const auto vec = [&] { return Vector3(uni(rng), uni(rng), uni(rng)); };
  Problem p;
  p.name = (branched ? "tree" : "chain") + std::to_string(bodies);
  p.bodies = bodies;
  p.floatingBase = branched;
  p.model.setGravity(Vector3(0, 0, -9.81));
  const auto inertia = [&] {
    const Vector3 j(1.1 + uni(rng), 1.1 + uni(rng), 1.1 + uni(rng));
    const Matrix3 I = (0.05 * j).sum() * Matrix3::Identity() - Matrix3(0.05 * j.asDiagonal());
    return SpatialInertia::fromCmInertia(2.0 + uni(rng), 0.1 * vec(), I);
  };
  const auto frame = [&] {
    return RigidTransform(spatial::rotationFromAxisAngle(vec(), 0.3 * uni(rng)),
                          Vector3(0.05 * uni(rng), 0.05 * uni(rng), 0.3));
  };
  const int branchLength = branched ? (bodies - 1 + 4) / 5 : bodies;
  for (int b = 1; b <= bodies; ++b) {
    if (branched && b == 1) {
      p.model.addBody("base", kWorldBody, inertia(), Hinge::full6Dof());
      continue;
    }
    const int k = branched ? b - 2 : b - 1;  // position among the PIN bodies
    const int parent = !branched ? b - 1 : (k % branchLength == 0 ? 1 : b - 1);
    const Vector3 axis = (b % 2 == 0) ? Vector3::UnitZ() : Vector3::UnitY();
    p.model.addBody("b" + std::to_string(b), parent, inertia(), Hinge::pin(axis), frame());
  }
  p.q = p.model.neutralConfiguration();
  for (int i = 0; i < p.model.nq(); ++i) p.q[i] += 0.5 * uni(rng);
  if (branched) p.q.head<4>() = spatial::quaternionFromAxisAngle(vec(), 0.4);
  p.u = Eigen::VectorXd::NullaryExpr(p.model.nu(), [&] { return uni(rng); });
  p.udot = Eigen::VectorXd::NullaryExpr(p.model.nu(), [&] { return uni(rng); });
  p.tau = Eigen::VectorXd::NullaryExpr(p.model.nu(), [&] { return uni(rng); });
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

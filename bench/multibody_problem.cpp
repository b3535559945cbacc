#include "multibody_problem.h"

#include <random>
#include <string>

#include "hopsim/core/spatial/rotation.h"

namespace hopsim::bench {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Matrix3;
using spatial::RigidTransform;
using spatial::SpatialInertia;
using spatial::Vector3;

namespace {

// Seeded draws shared by the problems: vectors, mass properties, frames and the state.
class Draws {
 public:
  Vector3 vec() { return Vector3(uni(), uni(), uni()); }
  SpatialInertia inertia() {
    const Vector3 j(1.1 + uni(), 1.1 + uni(), 1.1 + uni());
    const Matrix3 I = (0.05 * j).sum() * Matrix3::Identity() - Matrix3(0.05 * j.asDiagonal());
    return SpatialInertia::fromCmInertia(2.0 + uni(), 0.1 * vec(), I);
  }
  RigidTransform frame() {
    return RigidTransform(spatial::rotationFromAxisAngle(vec(), 0.3 * uni()),
                          Vector3(0.05 * uni(), 0.05 * uni(), 0.3));
  }
  double uni() { return uniform_(rng_); }
  // U, U̇ and τ, uniform in [-1, 1].
  void randomRates(MultibodyProblem& p) {
    p.u = Eigen::VectorXd::NullaryExpr(p.model.nu(), [&] { return uni(); });
    p.udot = Eigen::VectorXd::NullaryExpr(p.model.nu(), [&] { return uni(); });
    p.tau = Eigen::VectorXd::NullaryExpr(p.model.nu(), [&] { return uni(); });
  }

 private:
  std::mt19937_64 rng_{42};
  std::uniform_real_distribution<double> uniform_{-1.0, 1.0};
};

}  // namespace

MultibodyProblem makeMultibodyProblem(int bodies, bool branched) {
  Draws draw;
  MultibodyProblem p;
  p.model.setGravity(Vector3(0, 0, -9.81));
  const int branchLength = branched ? (bodies - 1 + 4) / 5 : bodies;
  for (int b = 1; b <= bodies; ++b) {
    if (branched && b == 1) {
      p.model.addBody("base", kWorldBody, draw.inertia(), Hinge::full6Dof());
      continue;
    }
    const int k = branched ? b - 2 : b - 1;  // position among the PIN bodies
    const int parent = !branched ? b - 1 : (k % branchLength == 0 ? 1 : b - 1);
    const Vector3 axis = (b % 2 == 0) ? Vector3::UnitZ() : Vector3::UnitY();
    p.model.addBody("b" + std::to_string(b), parent, draw.inertia(), Hinge::pin(axis),
                    draw.frame());
  }
  p.q = p.model.neutralConfiguration();
  for (int i = 0; i < p.model.nq(); ++i) p.q[i] += 0.5 * draw.uni();
  if (branched) p.q.head<4>() = spatial::quaternionFromAxisAngle(draw.vec(), 0.4);
  draw.randomRates(p);
  return p;
}

MultibodyProblem makeBallChain(int bodies) {
  Draws draw;
  MultibodyProblem p;
  p.model.setGravity(Vector3(0, 0, -9.81));
  for (int b = 1; b <= bodies; ++b) {
    p.model.addBody("b" + std::to_string(b), b - 1, draw.inertia(), Hinge::ball(), draw.frame());
  }
  p.q = p.model.neutralConfiguration();
  for (int b = 1; b <= bodies; ++b) {
    p.q.segment<4>(p.model.qStart(b)) = spatial::quaternionFromAxisAngle(draw.vec(), draw.uni());
  }
  draw.randomRates(p);
  return p;
}

}  // namespace hopsim::bench

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

MultibodyProblem makeMultibodyProblem(int bodies, bool branched) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  const auto vec = [&] { return Vector3(uni(rng), uni(rng), uni(rng)); };
  MultibodyProblem p;
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

}  // namespace hopsim::bench

#include "inertia_shape.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>

namespace hopsim::viewer {

Shape inertiaBox(const spatial::SpatialInertia& inertia, double minimumEdge) {
  Shape box;
  box.type = Shape::Type::Box;
  const double m = inertia.mass();
  if (!(m > 0.0)) {
    box.size = Vector3::Constant(minimumEdge);
    box.X_BS = RigidTransform::fromTranslation(inertia.comPosition());
    return box;
  }
  // Eigen's self-adjoint solver sorts the principal moments ascending: deterministic axes.
  const Eigen::SelfAdjointEigenSolver<spatial::Matrix3> principal(
      inertia.rotationalInertiaAboutCm());
  spatial::Matrix3 axes = principal.eigenvectors();
  if (axes.determinant() < 0.0) axes.col(2) = -axes.col(2);  // a rotation, not a reflection
  const Vector3 I = principal.eigenvalues();
  for (int i = 0; i < 3; ++i) {
    const double squared = 6.0 * (I[(i + 1) % 3] + I[(i + 2) % 3] - I[i]) / m;
    box.size[i] = std::max(std::sqrt(std::max(squared, 0.0)), minimumEdge);
  }
  box.X_BS = RigidTransform(axes, inertia.comPosition());
  return box;
}

}  // namespace hopsim::viewer

#include "hopsim/core/spatial/rotational_inertia.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "hopsim/signals/error.h"

namespace hopsim::spatial {

void checkRotationalInertia(const Matrix3& I, std::string_view what,
                            bool requireTriangleInequality) {
  std::ostringstream os;
  os.precision(10);
  if (!I.allFinite()) {
    os << "rotational inertia [" << I.format(Eigen::IOFormat(10, Eigen::DontAlignCols, ", ", "; "))
       << "] kg·m² has non-finite entries";
    throw InputError(std::string(what) + ": " + os.str());
  }
  // Round-off scale: what a valid inertia computed in double from a few operations could miss.
  const double scale = std::max(I.cwiseAbs().maxCoeff(), 1e-300);
  const double tolerance = 1e-12 * scale;
  for (int r = 0; r < 3; ++r) {
    for (int c = r + 1; c < 3; ++c) {
      if (std::abs(I(r, c) - I(c, r)) > tolerance) {
        os << "rotational inertia is not symmetric: I(" << r << "," << c << ") = " << I(r, c)
           << " but I(" << c << "," << r << ") = " << I(c, r) << " kg·m²";
        throw InputError(std::string(what) + ": " + os.str());
      }
    }
  }
  const Matrix3 symmetric = 0.5 * (I + I.transpose());
  if (!symmetric.allFinite()) {  // entries near the largest double overflow in the sum
    os << "rotational inertia entries up to " << I.cwiseAbs().maxCoeff()
       << " kg·m² overflow; expected entries below 8e307";
    throw InputError(std::string(what) + ": " + os.str());
  }
  const Eigen::SelfAdjointEigenSolver<Matrix3> eigen(symmetric, Eigen::EigenvaluesOnly);
  const Vector3 l = eigen.eigenvalues();  // ascending
  if (l[0] < -tolerance) {
    os << "rotational inertia has a negative principal moment " << l[0]
       << " kg·m² (principal moments " << l[0] << ", " << l[1] << ", " << l[2]
       << "); expected a positive (semi-)definite tensor: check the sign convention of the "
          "products of inertia (InertiaMoments, ProductsOfInertiaSense)";
    throw InputError(std::string(what) + ": " + os.str());
  }
  if (requireTriangleInequality && l[0] + l[1] < l[2] - tolerance) {
    os << "principal moments " << l[0] << ", " << l[1] << ", " << l[2]
       << " kg·m² violate the triangle inequality " << l[0] << " + " << l[1] << " >= " << l[2]
       << " that every mass distribution satisfies";
    throw InputError(std::string(what) + ": " + os.str());
  }
}

}  // namespace hopsim::spatial

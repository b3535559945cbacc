#include "hopsim/core/spatial/rotation.h"

#include <Eigen/SVD>
#include <array>
#include <cctype>
#include <cmath>
#include <numbers>
#include <sstream>
#include <string>

#include "hopsim/signals/error.h"

namespace hopsim::spatial {

Matrix3 rotationX(double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  Matrix3 R;
  R << 1.0, 0.0, 0.0, 0.0, c, -s, 0.0, s, c;
  return R;
}

Matrix3 rotationY(double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  Matrix3 R;
  R << c, 0.0, s, 0.0, 1.0, 0.0, -s, 0.0, c;
  return R;
}

Matrix3 rotationZ(double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  Matrix3 R;
  R << c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0;
  return R;
}

Matrix3 rotationAboutAxis(int axis, double angle) {
  switch (axis) {
    case 0:
      return rotationX(angle);
    case 1:
      return rotationY(angle);
    case 2:
      return rotationZ(angle);
    default:
      throw InputError("rotationAboutAxis: axis " + std::to_string(axis) +
                       " must be 0 (x), 1 (y) or 2 (z)");
  }
}

bool isRotation(const Matrix3& R, double tolerance) {
  if (!R.allFinite()) return false;
  const double orthogonality = (R.transpose() * R - Matrix3::Identity()).cwiseAbs().maxCoeff();
  return orthogonality <= tolerance && std::abs(R.determinant() - 1.0) <= tolerance;
}

Matrix3 normalizeRotation(const Matrix3& M) {
  if (!M.allFinite()) throw InputError("normalizeRotation: the matrix has non-finite entries");
  const double scale = M.norm();
  if (!(std::abs(M.determinant()) > 1e-12 * scale * scale * scale)) {
    std::ostringstream os;
    os << "normalizeRotation: the matrix [" << M.format(Eigen::IOFormat(6, 0, ", ", "; "))
       << "] is singular, expected a near-rotation";
    throw InputError(os.str());
  }
  const Eigen::JacobiSVD<Matrix3> svd(M, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Matrix3 U = svd.matrixU();
  const Matrix3& V = svd.matrixV();
  // A reflection is turned into the nearest proper rotation by flipping the weakest direction.
  if ((U * V.transpose()).determinant() < 0.0) U.col(2) = -U.col(2);
  return U * V.transpose();
}

Quaternion normalizeQuaternion(const Quaternion& q, std::string_view what) {
  const double n = q.norm();
  // The norm of a finite q can still overflow (an element of 1e300) or underflow to 0.
  if (!q.allFinite() || !(n > 0.0) || !std::isfinite(n)) {
    std::ostringstream os;
    os << what << ": quaternion [" << q.transpose() << "] cannot be normalized, expected a "
       << "finite non-zero 4-vector [e0, e1, e2, e3]";
    throw InputError(os.str());
  }
  return q / n;
}

Quaternion canonicalQuaternion(const Quaternion& q) {
  for (int i = 0; i < 4; ++i) {
    if (q[i] > 0.0) return q;
    if (q[i] < 0.0) return -q;
  }
  return q;
}

Quaternion quaternionFromRotation(const Matrix3& R) {
  // Shepperd: pick the largest of 4 e0², 4 e1², 4 e2², 4 e3² to divide by.
  const double trace = R.trace();
  Quaternion q;
  if (trace >= R(0, 0) && trace >= R(1, 1) && trace >= R(2, 2)) {
    const double r = std::sqrt(1.0 + trace);  // 2 |e0|
    const double s = 0.5 / r;
    q << 0.5 * r, (R(2, 1) - R(1, 2)) * s, (R(0, 2) - R(2, 0)) * s, (R(1, 0) - R(0, 1)) * s;
  } else if (R(0, 0) >= R(1, 1) && R(0, 0) >= R(2, 2)) {
    const double r = std::sqrt(1.0 + R(0, 0) - R(1, 1) - R(2, 2));  // 2 |e1|
    const double s = 0.5 / r;
    q << (R(2, 1) - R(1, 2)) * s, 0.5 * r, (R(0, 1) + R(1, 0)) * s, (R(0, 2) + R(2, 0)) * s;
  } else if (R(1, 1) >= R(2, 2)) {
    const double r = std::sqrt(1.0 - R(0, 0) + R(1, 1) - R(2, 2));  // 2 |e2|
    const double s = 0.5 / r;
    q << (R(0, 2) - R(2, 0)) * s, (R(0, 1) + R(1, 0)) * s, 0.5 * r, (R(1, 2) + R(2, 1)) * s;
  } else {
    const double r = std::sqrt(1.0 - R(0, 0) - R(1, 1) + R(2, 2));  // 2 |e3|
    const double s = 0.5 / r;
    q << (R(1, 0) - R(0, 1)) * s, (R(0, 2) + R(2, 0)) * s, (R(1, 2) + R(2, 1)) * s, 0.5 * r;
  }
  return canonicalQuaternion(q.normalized());
}

namespace {

Vector3 unitAxis(const Vector3& axis, const char* who) {
  const double n = axis.norm();
  if (!axis.allFinite() || n == 0.0) {
    std::ostringstream os;
    os << who << ": rotation axis [" << axis.transpose() << "] must be finite and non-zero";
    throw InputError(os.str());
  }
  return axis / n;
}

}  // namespace

Matrix3 rotationFromAxisAngle(const Vector3& axis, double angle) {
  const Vector3 n = unitAxis(axis, "rotationFromAxisAngle");
  const double c = std::cos(angle), s = std::sin(angle);
  return c * Matrix3::Identity() + s * skew(n) + (1.0 - c) * n * n.transpose();
}

Quaternion quaternionFromAxisAngle(const Vector3& axis, double angle) {
  const Vector3 n = unitAxis(axis, "quaternionFromAxisAngle");
  Quaternion q;
  q << std::cos(0.5 * angle), std::sin(0.5 * angle) * n;
  return q;
}

AxisAngle axisAngleFromRotation(const Matrix3& R) {
  const Quaternion q = quaternionFromRotation(R);  // e0 >= 0, so the angle is in [0, π]
  const double s = q.tail<3>().norm();
  AxisAngle result;
  result.angle = 2.0 * std::atan2(s, q[0]);
  if (s > 0.0) result.axis = q.tail<3>() / s;
  return result;
}

Quaternion quaternionFromRotationVector(const Vector3& phi) {
  const double theta = phi.norm();
  // sin(θ/2)/θ, by its Taylor series where the quotient would lose digits.
  const double k = theta < 1e-4 ? 0.5 - theta * theta / 48.0 : std::sin(0.5 * theta) / theta;
  Quaternion q;
  q << std::cos(0.5 * theta), k * phi;
  return q;
}

Vector3 rotationVectorFromQuaternion(const Quaternion& q) {
  const Quaternion c = q[0] < 0.0 ? Quaternion(-q) : q;
  const double s = c.tail<3>().norm();  // sin(θ/2)
  // θ / sin(θ/2) = 2 atan2(s, e0) / s, by its series (2/e0)(1 - s²/(3 e0²)) near s = 0.
  const double k =
      s < 1e-8 ? 2.0 / c[0] * (1.0 - s * s / (3.0 * c[0] * c[0])) : 2.0 * std::atan2(s, c[0]) / s;
  return k * c.tail<3>();
}

namespace {

constexpr std::array<std::string_view, 12> kSequenceNames = {
    "XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX", "XYX", "XZX", "YXY", "YZY", "ZXZ", "ZYZ"};

// The axes (0 = x, 1 = y, 2 = z) of each sequence.
constexpr std::array<std::array<int, 3>, 12> kSequenceAxes = {{{0, 1, 2},
                                                               {0, 2, 1},
                                                               {1, 0, 2},
                                                               {1, 2, 0},
                                                               {2, 0, 1},
                                                               {2, 1, 0},
                                                               {0, 1, 0},
                                                               {0, 2, 0},
                                                               {1, 0, 1},
                                                               {1, 2, 1},
                                                               {2, 0, 2},
                                                               {2, 1, 2}}};

std::array<int, 3> axesOf(EulerSequence sequence) {
  return kSequenceAxes[static_cast<std::size_t>(sequence)];
}

EulerSequence sequenceOf(int i, int j, int k) {
  for (std::size_t s = 0; s < kSequenceAxes.size(); ++s) {
    if (kSequenceAxes[s] == std::array<int, 3>{i, j, k}) return static_cast<EulerSequence>(s);
  }
  throw InputError("no Euler sequence with axes " + std::to_string(i) + std::to_string(j) +
                   std::to_string(k));
}

// Angles (a, b, c) with R = R_i(a) R_j(b) R_k(c) (intrinsic sequence i, j, k or i, j, i).
// e = +1 when (i, j, third axis) is a cyclic permutation of (x, y, z), -1 otherwise.
Vector3 intrinsicAngles(EulerSequence sequence, const Matrix3& R) {
  const auto [i, j, k0] = axesOf(sequence);
  const bool proper = i == k0;
  const int k = proper ? 3 - i - j : k0;  // the axis that is neither i nor j
  const double e = ((j - i + 3) % 3 == 1) ? 1.0 : -1.0;
  // Below this, cos b (Tait-Bryan) or sin b (proper) is treated as zero: gimbal lock.
  constexpr double kLock = 1e-12;
  double a = 0.0, b = 0.0, c = 0.0;
  if (!proper) {
    const double cb = std::hypot(R(i, i), R(i, j));
    b = std::atan2(e * R(i, k), cb);
    if (cb > kLock) {
      a = std::atan2(-e * R(j, k), R(k, k));
      c = std::atan2(-e * R(i, j), R(i, i));
    } else {
      a = std::atan2(e * R(k, j), R(j, j));  // R = R_i(a) R_j(b): column j is R_i(a) e_j
    }
  } else {
    const double sb = std::hypot(R(i, j), R(i, k));
    b = std::atan2(sb, R(i, i));
    if (sb > kLock) {
      a = std::atan2(R(j, i), -e * R(k, i));
      c = std::atan2(R(i, j), e * R(i, k));
    } else {
      a = std::atan2(e * R(k, j), R(j, j));
    }
  }
  // atan2 returns [-π, π]; report -π as π so that the range is (-π, π].
  if (a == -std::numbers::pi) a = std::numbers::pi;
  if (c == -std::numbers::pi) c = std::numbers::pi;
  return Vector3(a, b, c);
}

}  // namespace

std::string_view toString(EulerSequence sequence) {
  return kSequenceNames[static_cast<std::size_t>(sequence)];
}

EulerSequence eulerSequenceFromString(std::string_view name) {
  std::string upper(name);
  for (char& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  for (std::size_t s = 0; s < kSequenceNames.size(); ++s) {
    if (kSequenceNames[s] == upper) return static_cast<EulerSequence>(s);
  }
  throw InputError("Euler sequence \"" + std::string(name) +
                   "\" is not one of XYZ, XZY, YXZ, YZX, ZXY, ZYX, XYX, XZX, YXY, YZY, ZXZ, ZYZ");
}

Eigen::Vector3i eulerAxesOf(EulerSequence sequence) {
  const auto axes = axesOf(sequence);
  return Eigen::Vector3i(axes[0], axes[1], axes[2]);
}

Matrix3 rotationFromEuler(EulerSequence sequence, const Vector3& angles, EulerAxes axes) {
  const auto [i, j, k] = axesOf(sequence);
  const Matrix3 Ri = rotationAboutAxis(i, angles[0]);
  const Matrix3 Rj = rotationAboutAxis(j, angles[1]);
  const Matrix3 Rk = rotationAboutAxis(k, angles[2]);
  return axes == EulerAxes::Intrinsic ? Matrix3(Ri * Rj * Rk) : Matrix3(Rk * Rj * Ri);
}

Vector3 eulerFromRotation(EulerSequence sequence, const Matrix3& R, EulerAxes axes) {
  if (axes == EulerAxes::Intrinsic) return intrinsicAngles(sequence, R);
  // Extrinsic (i, j, k) with (a, b, c) is intrinsic (k, j, i) with (c, b, a).
  const auto [i, j, k] = axesOf(sequence);
  const Vector3 reversed = intrinsicAngles(sequenceOf(k, j, i), R);
  return Vector3(reversed[2], reversed[1], reversed[0]);
}

Matrix3 eulerRateToBodyRate(EulerSequence sequence, const Vector3& angles, EulerAxes axes) {
  if (axes == EulerAxes::Extrinsic) {
    // Extrinsic (i, j, k) with (a, b, c) is intrinsic (k, j, i) with (c, b, a): same columns,
    // in reverse order.
    const auto [i, j, k] = axesOf(sequence);
    const Matrix3 reversed =
        eulerRateToBodyRate(sequenceOf(k, j, i), Vector3(angles[2], angles[1], angles[0]));
    Matrix3 N;
    N << reversed.col(2), reversed.col(1), reversed.col(0);
    return N;
  }
  // R = R_i(a) R_j(b) R_k(c) gives Rᵀ Ṙ = [(R_k(c)ᵀ R_j(b)ᵀ e_i ȧ + R_k(c)ᵀ e_j ḃ + e_k ċ)×].
  const auto [i, j, k] = axesOf(sequence);
  const Matrix3 Rj = rotationAboutAxis(j, angles[1]);
  const Matrix3 Rk = rotationAboutAxis(k, angles[2]);
  Matrix3 N;
  N.col(2) = Vector3::Unit(k);
  N.col(1) = Rk.transpose() * Vector3::Unit(j);
  N.col(0) = Rk.transpose() * (Rj.transpose() * Vector3::Unit(i));
  return N;
}

Matrix3 eulerRateToParentRate(EulerSequence sequence, const Vector3& angles, EulerAxes axes) {
  return rotationFromEuler(sequence, angles, axes) * eulerRateToBodyRate(sequence, angles, axes);
}

}  // namespace hopsim::spatial

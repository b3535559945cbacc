#include "hopsim/models/spherical_harmonic_gravity.h"

#include <cmath>
#include <string>
#include <utility>

#include "body_gravity.h"
#include "hopsim/core/spatial/rotation.h"
#include "hopsim/signals/error.h"

namespace hopsim::models {

using spatial::Matrix3;
using spatial::Vector3;

SphericalHarmonicGravity::Declaration::Declaration()
    : ModelSpec("SphericalHarmonicGravity", ModelKind::Actuator,
                "Spherical-harmonic gravity of degree N and order M on the node's body: with r "
                "the body's centre of mass from the planet centre in the planet-fixed frame "
                "(turned about world z by planetAngle + rotationRate t), U = mu/R sum_{n<=N, "
                "m<=min(n,M)} (R/r)^(n+1) P_nm(sin phi)(C_nm cos m lambda + S_nm sin m lambda) "
                "(unnormalized P_nm, no Condon-Shortley phase; C and S lower triangular, "
                "normalized C_nm = N_nm Cbar_nm when `normalized`), a = grad U in world axes, "
                "the force m a at the centre of mass when `apply`, and with useGravityGradient "
                "the torque 3 mu/|r|^5 (r x I r). Default: Earth point mass + J2. Outputs a, "
                "I^-1 torque (world axes) and the potential energy per unit mass -U.") {
  // The outputs follow the body's position and time; lock() adds the sweeps readers need.
  setOutputGranularity(Sweep::StartHop | Sweep::EndHop);
}

const SphericalHarmonicGravity::Declaration& SphericalHarmonicGravity::declaration() {
  static const Declaration declaration;
  return declaration;
}

void SphericalHarmonicGravity::configure() {
  const std::int64_t degree = param(d_.degree), order = param(d_.order);
  if (order > degree) {
    throw InputError("models." + name() + ".params.order: value " + std::to_string(order) +
                     " is above the degree " + std::to_string(degree) +
                     " (expected 0 <= order <= degree)");
  }
  const std::size_t expected = harmonicCount(static_cast<int>(degree));
  for (const auto& [key, field] :
       {std::pair{d_.c, "cCoefficients"}, std::pair{d_.s, "sCoefficients"}}) {
    if (static_cast<std::size_t>(param(key).size()) != expected) {
      throw InputError(
          "models." + name() + ".params." + field + ": " + std::to_string(param(key).size()) +
          " entries, but degree " + std::to_string(degree) +
          " needs (N+1)(N+2)/2 = " + std::to_string(expected) + " (lower triangular, C00 first)");
    }
  }
  field_.configure(param(d_.mu), param(d_.radius), static_cast<int>(degree),
                   static_cast<int>(order), param(d_.c), param(d_.s), param(d_.normalized));
}

void SphericalHarmonicGravity::attach(MultibodySystem& system) {
  ActuatorModel::attach(system);
  body_ = detail::gravityBody(system, node(), describe());
  configure();
}

void SphericalHarmonicGravity::processParams(double /*t*/) { configure(); }

SphericalHarmonicGravity::Gravity SphericalHarmonicGravity::evaluate(double t) const {
  const detail::BodyCm cm = detail::bodyCm(multibody(), body_);
  const Vector3 r_W = cm.p_WCm - Vector3(param(d_.center));
  if (!(r_W.squaredNorm() > 0.0)) {
    throw NumericalError(describe() + ": the centre of mass of body '" +
                         multibody().model().bodyName(body_) +
                         "' is at the planet centre, where the field is singular");
  }
  const Matrix3 R_WP = spatial::rotationZ(param(d_.planetAngle) + param(d_.rotationRate) * t);
  const SphericalHarmonicField::Value field = field_.evaluate(R_WP.transpose() * r_W);

  const Matrix3& R_WB = multibody().data().X_WB[static_cast<std::size_t>(body_)].rotation();
  const Matrix3 inertia_W = R_WB *
                            multibody().model().massProperties(body_).rotationalInertiaAboutCm() *
                            R_WB.transpose();
  Vector3 torque_W = Vector3::Zero();
  if (param(d_.useGravityGradient)) {
    const double r2 = r_W.squaredNorm();
    torque_W = 3.0 * param(d_.mu) / (r2 * r2 * std::sqrt(r2)) * r_W.cross(inertia_W * r_W);
  }
  return {R_WP * field.acceleration, -field.potential, torque_W, inertia_W};
}

void SphericalHarmonicGravity::preDeriv(double t) {
  if (!param(d_.apply)) return;
  const Gravity g = evaluate(t);
  const double m = multibody().model().massProperties(body_).mass();
  detail::applyAtCm(multibody(), body_, m * g.accel_W, g.torque_W);
}

void SphericalHarmonicGravity::updateFlowOuts(double t) {
  const Gravity g = evaluate(t);
  out(d_.linearAccel) = g.accel_W;
  out(d_.angularAccel) = g.inertia_W.ldlt().solve(g.torque_W);
  out(d_.potential) = g.potential;
}

}  // namespace hopsim::models

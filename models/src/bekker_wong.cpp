#include "hopsim/models/bekker_wong.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hopsim::models {

namespace {

/// The integrands of W, DP, Fy and T at one angle, for Simpson's rule to weigh.
struct Integrands {
  double w = 0.0, dp = 0.0, fy = 0.0, t = 0.0;
  Integrands& add(const Integrands& o, double weight) {
    w += weight * o.w;
    dp += weight * o.dp;
    fy += weight * o.fy;
    t += weight * o.t;
    return *this;
  }
};

class StressField {
 public:
  StressField(const BekkerSoil& soil, const BekkerWheelShape& wheel, double theta1, double thetaM,
              double theta2, const WheelMotion& motion, double shearWeight)
      : soil_(soil),
        r_(wheel.radius),
        theta1_(theta1),
        thetaM_(thetaM),
        theta2_(theta2),
        motion_(motion),
        shearWeight_(shearWeight),
        pressure_((soil.kc / wheel.width + soil.kphi) * std::pow(wheel.radius, soil.n)),
        // The time an element of the rim has been in contact is (θ1 - θ)/|ω|; a wheel that does
        // not turn has been in contact forever, and shears the soil fully wherever it slips.
        residence_(1.0 / std::max(std::abs(motion.spinRate), std::numeric_limits<double>::min())) {}

  Integrands at(double theta) const {
    // Normal stress: Bekker's pressure-sinkage at the depth r (cos θ - cos θ1) in front of the
    // maximum; behind it, at the angle mapped linearly from [θ2, θm] onto [θ1, θm] (Wong-Reece).
    const double mapped =
        theta >= thetaM_ ? theta
                         : theta1_ - (theta - theta2_) / (thetaM_ - theta2_) * (theta1_ - thetaM_);
    const double sigma =
        pressure_ * std::pow(std::max(std::cos(mapped) - std::cos(theta1_), 0.0), soil_.n);
    const double strength = shearWeight_ * (soil_.cohesion + sigma * std::tan(soil_.phi));
    // Janosi-Hanamoto: shear from the slip displacement j accumulated since the element entered.
    const double jx = (motion_.spinRate * r_ * (theta1_ - theta) -
                       motion_.vx * (std::sin(theta1_) - std::sin(theta))) *
                      residence_;
    const double jy = motion_.vy * (theta1_ - theta) * residence_;
    const double tau =
        std::copysign(strength * -std::expm1(-std::abs(jx) / soil_.shearModulus), jx);
    const double tauY =
        -std::copysign(strength * -std::expm1(-std::abs(jy) / soil_.shearModulus), jy);
    const double c = std::cos(theta), s = std::sin(theta);
    return {sigma * c + tau * s, tau * c - sigma * s, tauY, tau};
  }

 private:
  const BekkerSoil& soil_;
  double r_, theta1_, thetaM_, theta2_;
  WheelMotion motion_;
  double shearWeight_, pressure_, residence_;
};

/// Composite Simpson's rule over [a, b] with `n` (even) intervals.
Integrands simpson(const StressField& field, double a, double b, int n) {
  Integrands sum;
  if (!(b > a)) return sum;
  const double h = (b - a) / n;
  for (int k = 0; k <= n; ++k) {
    const double weight = (k == 0 || k == n) ? 1.0 : (k % 2 == 1 ? 4.0 : 2.0);
    sum.add(field.at(a + k * h), weight * h / 3.0);
  }
  return sum;
}

}  // namespace

double wheelSlip(double radius, const WheelMotion& motion) {
  const double rim = radius * motion.spinRate;
  const double scale = std::max(std::abs(rim), std::abs(motion.vx));
  return scale > 0.0 ? (rim - motion.vx) / scale : 0.0;
}

WheelSoilForces bekkerWongForces(const BekkerSoil& soil, const BekkerWheelShape& wheel,
                                 double sinkage, const WheelMotion& motion) {
  WheelSoilForces forces;
  forces.slip = wheelSlip(wheel.radius, motion);
  if (!(sinkage > 0.0)) return forces;
  // The contact is at the front of the direction of travel: a wheel going backward is the
  // mirror image of one going forward, with the longitudinal results negated.
  const double direction = motion.vx + wheel.radius * motion.spinRate < 0.0 ? -1.0 : 1.0;
  const WheelMotion ahead{direction * motion.vx, motion.vy, direction * motion.spinRate};
  const double theta1 = std::acos(1.0 - std::min(sinkage, wheel.radius) / wheel.radius);
  const double slip = wheelSlip(wheel.radius, ahead);
  // Rolling weight f: 1 for a travelling wheel (Wong's footprint), falling to 0 at rest, where
  // the footprint is the symmetric one of a pressed plate and the soil pushes neither way.
  const double travel = std::max(std::abs(ahead.vx), std::abs(wheel.radius * ahead.spinRate));
  const double f = travel < wheel.restSpeed ? travel / wheel.restSpeed : 1.0;
  // Shear weight g, likewise from the speed of the rim over the soil in any direction: the
  // steady-state displacement j grows without bound as ω -> 0, and would shear the soil fully
  // under a wheel that has barely moved; below rest_speed the shear fades to none at rest.
  const double slide = std::max(travel, std::abs(ahead.vy));
  const double g = slide < wheel.restSpeed ? slide / wheel.restSpeed : 1.0;
  const double thetaM = std::min(f * (wheel.c1 + wheel.c2 * std::max(slip, 0.0)) * theta1, theta1);
  const double theta2 = -(1.0 - f * (1.0 - wheel.exitRatio)) * theta1;
  const StressField field(soil, wheel, theta1, thetaM, theta2, ahead, g);
  Integrands total = simpson(field, theta2, thetaM, wheel.intervals);
  total.add(simpson(field, thetaM, theta1, wheel.intervals), 1.0);
  const double rb = wheel.radius * wheel.width;
  forces.normalForce = rb * total.w;
  forces.drawbarPull = direction * rb * total.dp;
  forces.lateralForce = rb * total.fy;
  forces.torque = direction * wheel.radius * rb * total.t;
  forces.entryAngle = theta1;
  return forces;
}

}  // namespace hopsim::models

#include "hopsim/models/soft_joint_stop.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "hinge_attachment.h"
#include "hopsim/signals/error.h"

namespace hopsim::models {

SoftJointStop::Declaration::Declaration()
    : ModelSpec("SoftJointStop", ModelKind::Motor,
                "Hunt-Crossley joint stops on a 1-DOF hinge: past upper_bound delta = theta - "
                "upper, past lower_bound delta = lower - theta, and the torque opposing the "
                "penetration is max(0, delta^n (k + alpha delta')); zero within the bounds. Zero "
                "crossings 'upper' (theta - upper) and 'lower' (lower - theta) end the hop at each "
                "contact onset and release; contacts counts the onsets.") {
  // The output changes only with the state.
  setOutputGranularity(Sweep::StartHop | Sweep::EndHop);
}

const SoftJointStop::Declaration& SoftJointStop::declaration() {
  static const Declaration declaration;
  return declaration;
}

void SoftJointStop::attach(MultibodySystem& system) {
  MotorModel::attach(system);
  if (coordinateCount() != 1 || rateCount() != 1) {
    detail::refuseHinge(*this, system.model(), body(), subhinge(),
                        "a 1-DOF hinge or subhinge (PIN, SLIDER)", coordinateCount(), rateCount());
  }
}

void SoftJointStop::processParams(double /*t*/) {
  if (!(param(d_.lower) < param(d_.upper))) {
    throw InputError(describe() + ": lower_bound " + std::to_string(param(d_.lower)) +
                     " must be below upper_bound " + std::to_string(param(d_.upper)));
  }
}

double SoftJointStop::torqueNow() const {
  const double theta = coordinates()[0], rate = rates()[0];
  // The penetration and its rate, positive into the stop, and the sign of the restoring torque.
  double delta = 0.0, deltaRate = 0.0, sign = 0.0;
  if (theta > param(d_.upper)) {
    delta = theta - param(d_.upper);
    deltaRate = rate;
    sign = -1.0;
  } else if (theta < param(d_.lower)) {
    delta = param(d_.lower) - theta;
    deltaRate = -rate;
    sign = 1.0;
  } else {
    return 0.0;
  }
  const double magnitude =
      std::pow(delta, param(d_.n)) * (param(d_.k) + param(d_.alpha) * deltaRate);
  return sign * std::max(0.0, magnitude);
}

void SoftJointStop::updateFlowOuts(double /*t*/) { out(d_.torque) = torqueNow(); }

void SoftJointStop::preDeriv(double /*t*/) {
  multibody().addGeneralizedForce(uStart(), torqueNow());
}

double SoftJointStop::crossingResidual(CrossingKey c, double /*t*/) {
  const double theta = coordinates()[0];
  return c == d_.upperContact ? theta - param(d_.upper) : param(d_.lower) - theta;
}

void SoftJointStop::onCrossing(CrossingKey c, double /*t*/) {
  // Either direction ends the hop; only a motion into the stop is an onset.
  const double rate = rates()[0];
  if (c == d_.upperContact ? rate > 0.0 : rate < 0.0) state(d_.contacts) += 1;
}

}  // namespace hopsim::models

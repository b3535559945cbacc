#include "hopsim/models/relative_angle.h"

#include <cmath>
#include <numbers>

namespace hopsim::models {

RelativeAngle::Declaration::Declaration()
    : ModelSpec("RelativeAngle", ModelKind::Flow,
                "The counter-clockwise angle from world +X of (to - from) in the XY plane, "
                "unwrapped against the angle accepted at the last hop end (initial before the "
                "first): MBSE's RelativeAngleAbsoluteDOF as an output.") {}

const RelativeAngle::Declaration& RelativeAngle::declaration() {
  static const Declaration declaration;
  return declaration;
}

double RelativeAngle::unwrapped() {
  const double last = state(d_.accepted);
  const double reference = std::isnan(last) ? param(d_.initial) : last;
  const Eigen::Vector3d d = in(d_.to) - in(d_.from);   // fixed size: no allocation
  if (d.x() == 0.0 && d.y() == 0.0) return reference;  // no direction: keep the last angle
  const double raw = std::atan2(d.y(), d.x());
  return reference + std::remainder(raw - reference, 2.0 * std::numbers::pi);
}

void RelativeAngle::updateFlowOuts(double /*t*/) { out(d_.angle) = unwrapped(); }

void RelativeAngle::endHop(double /*t0*/, double /*t1*/) { state(d_.accepted) = unwrapped(); }

}  // namespace hopsim::models

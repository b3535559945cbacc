#include "hopsim/models/arc_traj.h"

#include "rover_mode.h"

namespace hopsim::models {

ArcTraj::Declaration::Declaration()
    : ModelSpec("ArcTraj", ModelKind::Flow,
                "Chassis velocity from a rover motion command (mode 0 turn in place, 1 forward, "
                "-1 reverse; radius 0 straight, + left): mode 0 gives v = 0, w = "
                "nominal_angular_velocity; mode +-1 gives v = mode nominal_linear_velocity and "
                "w = v / radius (0 for radius 0).") {}

const ArcTraj::Declaration& ArcTraj::declaration() {
  static const Declaration declaration;
  return declaration;
}

void ArcTraj::updateFlowOuts(double /*t*/) {
  const RoverMode mode = roverMode(*this, "mode", in(d_.mode));
  if (mode == RoverMode::TurnInPlace) {
    out(d_.linearVelocity) = 0.0;
    out(d_.angularVelocity) = param(d_.nominalAngularVelocity);
    return;
  }
  const double v = static_cast<double>(mode) * param(d_.nominalLinearVelocity);
  const double radius = in(d_.radius);
  out(d_.linearVelocity) = v;
  out(d_.angularVelocity) = radius == 0.0 ? 0.0 : v / radius;
}

}  // namespace hopsim::models

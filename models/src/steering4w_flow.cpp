#include "hopsim/models/steering4w_flow.h"

#include <cmath>
#include <string>

#include "rover_mode.h"

namespace hopsim::models {

namespace {

/// The steering angle of the wheel at (x, y) for the turn center (xc, yc): the wheel rolls
/// along (cos a, sin a), perpendicular to the center-to-wheel vector (x - xc, y - yc).
double steerAngle(double x, double y, double xc, double yc) {
  const double along = x - xc, across = yc - y;
  // A wheel on the steering center line rolls straight (the wheel at the center itself turns
  // in place at any angle: 0 too).
  if (along == 0.0) return 0.0;
  return std::atan(along / across);  // across = 0: ±pi/2, the wheel rolls sideways
}

}  // namespace

Steering4WFlow::Declaration::Declaration()
    : ModelSpec("Steering4WFlow", ModelKind::Flow,
                "Steering angles of a 4-wheel-steer rover (chassis x forward, y left; wheels at "
                "x = +-L/2, y = +-W/2, the bogey side at x = bogey_front L/2) for a motion "
                "command: the turn center is on the line x_c = bogey_front wheel_center_bias at "
                "y = radius (mode +-1) or 0 (mode 0, turn in place), and each wheel is steered "
                "to roll perpendicular to the line from it: steer = atan((x_w - x_c) / (y_c - "
                "y_w)), + left. A straight move (radius 0) steers all wheels to 0.") {}

const Steering4WFlow::Declaration& Steering4WFlow::declaration() {
  static const Declaration declaration;
  return declaration;
}

void Steering4WFlow::processParams(double /*t*/) {
  if (param(d_.bogeyFront) == 0) {
    throw InputError("models." + name() +
                     ".params.bogey_front: value 0 is not +1 (bogey side front) or -1 (rocker "
                     "side front)");
  }
}

void Steering4WFlow::updateFlowOuts(double /*t*/) {
  const RoverMode mode = roverMode(*this, "mode", in(d_.mode));
  const double radius = in(d_.radius);
  if (mode != RoverMode::TurnInPlace && radius == 0.0) {
    out(d_.steerBogeyLeft) = out(d_.steerBogeyRight) = 0.0;
    out(d_.steerRockerLeft) = out(d_.steerRockerRight) = 0.0;
    return;
  }
  const double side = static_cast<double>(param(d_.bogeyFront));
  const double xBogey = side * 0.5 * param(d_.wheelFrontRearDist);
  const double yLeft = 0.5 * param(d_.wheelLeftRightDist);
  const double xc = side * param(d_.wheelCenterBias);
  const double yc = mode == RoverMode::TurnInPlace ? 0.0 : radius;
  out(d_.steerBogeyLeft) = steerAngle(xBogey, yLeft, xc, yc);
  out(d_.steerBogeyRight) = steerAngle(xBogey, -yLeft, xc, yc);
  out(d_.steerRockerLeft) = steerAngle(-xBogey, yLeft, xc, yc);
  out(d_.steerRockerRight) = steerAngle(-xBogey, -yLeft, xc, yc);
}

}  // namespace hopsim::models

#include "hopsim/models/locomotion.h"

#include <cmath>

#include "hopsim/signals/value.h"
#include "rover_mode.h"

namespace hopsim::models {

using Eigen::Vector2d;

namespace {

Vector2d leftOf(const Vector2d& f) { return {-f.y(), f.x()}; }

/// True when what remains fits in one step. A remainder within 1e-12 relative of a step
/// counts as fitting: 0.9 m in steps of 0.3 m leaves 0.30000000000000004 m after two steps,
/// which is the third step, not a third and a fourth of 4e-17 m.
bool isLastStep(double remaining, double step) { return remaining <= step * (1.0 + 1e-12); }

}  // namespace

Locomotion::Declaration::Declaration()
    : ModelSpec("Locomotion", ModelKind::Flow,
                "Splits a rover motion command (mode 0 turn in place, 1 forward, -1 reverse; "
                "radius 0 straight, + left; distance; angle, + left) into sub-moves of at most "
                "step_dist or step_angle, one per I/O step: from the current pose it commands "
                "the pose one sub-move along the straight line, the arc of the radius, or the "
                "turn about the pivot (pivot_offset_x ahead of the chassis origin); status 1 "
                "when the command is done.") {
  // The outputs are discrete states, changed in startIoStep.
  setOutputGranularity(Sweep::StartHop | Sweep::EndHop);
}

const Locomotion::Declaration& Locomotion::declaration() {
  static const Declaration declaration;
  return declaration;
}

void Locomotion::processParams(double /*t*/) {
  const Vector2d d = param(d_.lookMoveDirection);
  if (!(d.norm() > 0.0) || !d.allFinite()) {
    throw InputError("models." + name() + ".params.look_move_direction: value " +
                     describeValue(Value(std::vector<double>{d.x(), d.y()})) +
                     " must be a finite non-zero vector (it gives the forward direction)");
  }
  lookDirection_ = d.normalized();
}

Vector2d Locomotion::forward(double h) const { return Eigen::Rotation2Dd(h) * lookDirection_; }

void Locomotion::acceptCommand() {
  const std::int64_t mode = in(d_.mode);
  const double radius = in(d_.radius), distance = in(d_.distance), angle = in(d_.angle);
  roverMode(*this, "mode", mode);
  if (state(d_.hasCommand) && state(d_.commandMode) == mode && state(d_.commandRadius) == radius &&
      state(d_.commandDistance) == distance && state(d_.commandAngle) == angle) {
    return;
  }
  state(d_.hasCommand) = true;
  state(d_.commandMode) = mode;
  state(d_.commandRadius) = radius;
  state(d_.commandDistance) = distance;
  state(d_.commandAngle) = angle;
  state(d_.accumDist) = 0.0;
  state(d_.accumAngle) = 0.0;
  state(d_.statusState) = 0;
}

void Locomotion::startIoStep(double /*tStart*/, double /*tEnd*/) {
  acceptCommand();
  if (state(d_.statusState) == 1) return;  // done: hold the last commanded pose
  const double x = in(d_.xpos), y = in(d_.ypos), h = in(d_.headingIn);
  if (static_cast<RoverMode>(state(d_.commandMode)) == RoverMode::TurnInPlace) {
    stepTurn(x, y, h);
  } else {
    stepMove(x, y, h);
  }
}

void Locomotion::stepMove(double x, double y, double h) {
  const double total = std::fabs(state(d_.commandDistance));
  const double remaining = total - state(d_.accumDist);
  const bool last = isLastStep(remaining, param(d_.stepDist));
  const double step = last ? remaining : param(d_.stepDist);
  if (last) {
    state(d_.accumDist) = total;
    state(d_.statusState) = 1;
  } else {
    state(d_.accumDist) += step;
  }
  const double sigma = static_cast<double>(state(d_.commandMode)) * step;  // signed path length
  const double radius = state(d_.commandRadius);
  const double pivotOffset = param(d_.pivotOffsetX);
  const Vector2d f = forward(h);
  Vector2d pivot = Vector2d(x, y) + pivotOffset * f;
  double heading = h;
  if (radius == 0.0) {
    pivot += sigma * f;
  } else {
    const double turn = sigma / radius;
    pivot += radius * std::sin(turn) * f + radius * (1.0 - std::cos(turn)) * leftOf(f);
    heading += turn;
  }
  const Vector2d chassis = pivot - pivotOffset * forward(heading);
  state(d_.targetX) = chassis.x();
  state(d_.targetY) = chassis.y();
  state(d_.targetHeading) = heading;
  state(d_.directionState) = state(d_.commandMode);
}

void Locomotion::stepTurn(double x, double y, double h) {
  const double angle = state(d_.commandAngle);
  const double remaining = std::fabs(angle) - state(d_.accumAngle);
  const bool last = isLastStep(remaining, param(d_.stepAngle));
  const double step = last ? remaining : param(d_.stepAngle);
  if (last) {
    state(d_.accumAngle) = std::fabs(angle);
    state(d_.statusState) = 1;
  } else {
    state(d_.accumAngle) += step;
  }
  const double sign = angle > 0.0 ? 1.0 : (angle < 0.0 ? -1.0 : 0.0);
  const double pivotOffset = param(d_.pivotOffsetX);
  const Vector2d pivot = Vector2d(x, y) + pivotOffset * forward(h);
  const double heading = h + sign * step;
  const Vector2d chassis = pivot - pivotOffset * forward(heading);
  state(d_.targetX) = chassis.x();
  state(d_.targetY) = chassis.y();
  state(d_.targetHeading) = heading;
  state(d_.directionState) = static_cast<std::int64_t>(sign);
}

void Locomotion::updateFlowOuts(double /*t*/) {
  out(d_.x) = state(d_.targetX);
  out(d_.y) = state(d_.targetY);
  out(d_.heading) = state(d_.targetHeading);
  out(d_.direction) = state(d_.directionState);
  out(d_.status) = state(d_.statusState);
}

}  // namespace hopsim::models

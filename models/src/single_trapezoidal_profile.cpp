#include "hopsim/models/single_trapezoidal_profile.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "hopsim/signals/error.h"

namespace hopsim::models {
namespace {

/// The profile from (coord0, rate0) at τ = 0 to rest at `end`, |acceleration| a, speed bound
/// vmax, at time τ. Along the direction s of the move (the sign of the distance left once a
/// stop at full deceleration is accounted for), with u = s rate0 and L = s (end - coord0):
/// phase 1 accelerates (or decelerates) from u to the peak w = min(sqrt(a L + u²/2), vmax),
/// phase 2 coasts at w, phase 3 decelerates to 0 at L.
struct Phases {
  double s = 0.0, u = 0.0, w = 0.0, a1 = 0.0, t1 = 0.0, t2 = 0.0, t3 = 0.0, d1 = 0.0, d2 = 0.0;
};

Phases plan(double coord0, double rate0, double end, double a, double vmax) {
  Phases p;
  const double distance = end - coord0, stop = rate0 * std::fabs(rate0) / (2.0 * a);
  const double left = distance - stop;
  p.s = left > 0.0 ? 1.0 : left < 0.0 ? -1.0 : (rate0 > 0.0 ? 1.0 : rate0 < 0.0 ? -1.0 : 0.0);
  if (p.s == 0.0) return p;  // at rest on the target
  p.u = p.s * rate0;
  const double L = p.s * distance;
  p.w = std::min(std::sqrt(std::max(0.0, a * L + 0.5 * p.u * p.u)), vmax);
  p.a1 = p.w >= p.u ? a : -a;
  p.t1 = std::fabs(p.w - p.u) / a;
  p.d1 = (p.w * p.w - p.u * p.u) / (2.0 * p.a1);
  p.t3 = p.w / a;
  // The coast is what is left; rounding may make it slightly negative when there is none.
  p.d2 = std::max(0.0, L - p.d1 - p.w * p.w / (2.0 * a));
  p.t2 = p.w > 0.0 ? p.d2 / p.w : 0.0;
  return p;
}

}  // namespace

SingleTrapezoidalProfile::Declaration::Declaration()
    : ModelSpec("SingleTrapezoidalProfile", ModelKind::Flow,
                "Trapezoidal velocity profile for a commanded coordinate change: accelerate at "
                "+-a to the peak w <= maxVel, coast, decelerate to rest at end_coord = "
                "prev_profile_coord + coord. Rest to rest over D: T = D/v + v/a when D >= v^2/a, "
                "else 2 sqrt(D/a). Commands are sampled at the model's I/O steps; a changed coord "
                "is a new move, changed bounds alone re-plan the current one from the current "
                "coordinate and rate; maxVel = 0 brakes to rest. Outputs are the closed form of "
                "the plan at their time.") {
  // The outputs follow time and the plan, which changes only at I/O steps.
  setOutputGranularity(Sweep::StartHop | Sweep::EndHop);
}

const SingleTrapezoidalProfile::Declaration& SingleTrapezoidalProfile::declaration() {
  static const Declaration declaration;
  return declaration;
}

SingleTrapezoidalProfile::Sample SingleTrapezoidalProfile::sample(double t) const {
  const double coord0 = state(d_.planCoord), end = state(d_.endCoord);
  const double a = state(d_.planAccel);
  if (!(a > 0.0)) return {coord0, 0.0, 0.0, true};  // no plan yet
  const Phases p = plan(coord0, state(d_.planRate), end, a, state(d_.planMaxVel));
  const double tau = t - state(d_.planTime);
  if (p.s == 0.0 || tau >= p.t1 + p.t2 + p.t3) return {end, 0.0, 0.0, true};
  double x = 0.0, v = 0.0, acc = 0.0;  // along s
  if (tau < p.t1) {
    x = p.u * tau + 0.5 * p.a1 * tau * tau;
    v = p.u + p.a1 * tau;
    acc = p.a1;
  } else if (tau < p.t1 + p.t2) {
    x = p.d1 + p.w * (tau - p.t1);
    v = p.w;
  } else {
    const double t3 = tau - p.t1 - p.t2;
    x = p.d1 + p.d2 + p.w * t3 - 0.5 * a * t3 * t3;
    v = p.w - a * t3;
    acc = -a;
  }
  return {coord0 + p.s * x, p.s * v, p.s * acc, false};
}

void SingleTrapezoidalProfile::startIoStep(double tStart, double /*tEnd*/) {
  const double a = in(d_.accel), vmax = in(d_.maxVel), delta = in(d_.coord);
  const bool newMove = delta != state(d_.commandCoord);
  const bool newBounds = a != state(d_.planAccel) || vmax != state(d_.planMaxVel);
  if (!newMove && !newBounds) return;
  const Sample now = sample(tStart);
  if (!newMove && now.done) return;  // new bounds at rest: nothing to re-plan
  if (!(a > 0.0) || !(vmax >= 0.0)) {
    throw InputError(describe() + ": a command needs accel > 0 and maxVel >= 0, got accel = " +
                     std::to_string(a) + " and maxVel = " + std::to_string(vmax));
  }
  double end = state(d_.endCoord);
  if (newMove) {
    if (now.done) state(d_.prevProfileCoord) = end;
    end = state(d_.prevProfileCoord) + delta;
    if (param(d_.relativeMode)) {
      end = now.coord + std::remainder(end - now.coord, 2.0 * std::numbers::pi);
    }
    state(d_.commandCoord) = delta;
  }
  if (vmax == 0.0) end = now.coord + now.rate * std::fabs(now.rate) / (2.0 * a);  // brake
  state(d_.endCoord) = end;
  state(d_.planTime) = tStart;
  state(d_.planCoord) = now.coord;
  state(d_.planRate) = now.rate;
  state(d_.planAccel) = a;
  state(d_.planMaxVel) = vmax;
}

void SingleTrapezoidalProfile::updateFlowOuts(double t) {
  const Sample s = sample(t);
  out(d_.profileCoord) = s.coord;
  out(d_.profileRate) = s.rate;
  out(d_.profileAccel) = s.accel;
  out(d_.status) = s.done ? 1 : 0;
}

}  // namespace hopsim::models

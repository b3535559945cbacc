#include "hopsim/models/second_order_response.h"

#include <algorithm>
#include <numbers>

#include "hopsim/signals/error.h"

namespace hopsim::models {

SecondOrderResponse::Declaration::Declaration()
    : ModelSpec("SecondOrderResponse", ModelKind::Continuous,
                "Saturated second-order filter: w_n = 2 pi Fc, u_c = clamp(u, InputMin, "
                "InputMax), x1' = x2, x2' = clamp(w_n^2 (u_c - x1) - 2 damping w_n x2, "
                "State2ndDerivMin, State2ndDerivMax); x1 and x2 freeze at StateMin/Max and "
                "StateDerivMin/Max (outward rates zeroed). Outputs state = x1, stateDeriv = x2 "
                "(no feed-through) and state2ndDeriv = x2' (feed-through from u).") {}

const SecondOrderResponse::Declaration& SecondOrderResponse::declaration() {
  static const Declaration declaration;
  return declaration;
}

void SecondOrderResponse::processParams(double /*t*/) {
  const auto check = [&](ParamKey<double> lower, ParamKey<double> upper, const char* lowerName,
                         const char* upperName) {
    if (param(lower) > param(upper)) {
      throw InputError("models." + name() + ".params." + lowerName + " = " +
                       describeValue(Value(param(lower))) + " exceeds " + upperName + " = " +
                       describeValue(Value(param(upper))) + " (expected " + lowerName +
                       " <= " + upperName + ")");
    }
  };
  check(d_.inputMin, d_.inputMax, "InputMin", "InputMax");
  check(d_.stateMin, d_.stateMax, "StateMin", "StateMax");
  check(d_.stateDerivMin, d_.stateDerivMax, "StateDerivMin", "StateDerivMax");
  check(d_.state2ndDerivMin, d_.state2ndDerivMax, "State2ndDerivMin", "State2ndDerivMax");
}

void SecondOrderResponse::startIntegrationStep(double /*t0*/, double /*t1*/) {
  // The limits are exact at sub-step starts: remove the overshoot of a sub-step that crossed a
  // bound (the integrator restarts from these values).
  state(d_.x1) = std::clamp(state(d_.x1), param(d_.stateMin), param(d_.stateMax));
  state(d_.x2) = std::clamp(state(d_.x2), param(d_.stateDerivMin), param(d_.stateDerivMax));
}

SecondOrderResponse::Rates SecondOrderResponse::rates() {
  const double wn = 2.0 * std::numbers::pi * param(d_.Fc);
  const double x1 = state(d_.x1);
  const double x2 = state(d_.x2);
  const double uc = std::clamp(in(d_.u), param(d_.inputMin), param(d_.inputMax));
  double x2dot = std::clamp(wn * wn * (uc - x1) - 2.0 * param(d_.damping) * wn * x2,
                            param(d_.state2ndDerivMin), param(d_.state2ndDerivMax));
  double x1dot = x2;
  // A state at or past a bound is frozen there: its rate may only point back inside.
  if ((x1 >= param(d_.stateMax) && x1dot > 0.0) || (x1 <= param(d_.stateMin) && x1dot < 0.0)) {
    x1dot = 0.0;
  }
  if ((x2 >= param(d_.stateDerivMax) && x2dot > 0.0) ||
      (x2 <= param(d_.stateDerivMin) && x2dot < 0.0)) {
    x2dot = 0.0;
  }
  return {x1dot, x2dot};
}

void SecondOrderResponse::updateFlowOuts(double /*t*/) {
  out(d_.state) = std::clamp(state(d_.x1), param(d_.stateMin), param(d_.stateMax));
  out(d_.stateDeriv) = std::clamp(state(d_.x2), param(d_.stateDerivMin), param(d_.stateDerivMax));
  out(d_.state2ndDeriv) = rates().x2dot;
}

void SecondOrderResponse::postDeriv(double /*t*/) {
  const Rates r = rates();
  derivative(d_.x1) = r.x1dot;
  derivative(d_.x2) = r.x2dot;
}

}  // namespace hopsim::models

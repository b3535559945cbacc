#include "hopsim/models/chrono_motor.h"

#include "ascii_case.h"
#include "hopsim/signals/error.h"
#include "hopsim/signals/value.h"

namespace hopsim::models {

ChronoMotor::Declaration::Declaration()
    : TimeFunctionSpec(
          "ChronoMotor", ModelKind::Motor,
          "A Chrono ROTATION or LINEAR motor on a one-rate hinge or subhinge whose "
          "coordinate is Q = sign * phi (Chrono's driven angle or offset, 0 at t = 0). "
          "POSITION: Q = sign f(t), U = sign f'(t), U' = sign f''(t) on a masked subhinge; "
          "SPEED: Q = sign * integral of f, U = sign f(t), U' = sign f'(t) on a masked "
          "subhinge; FORCE: generalized force sign f(t) on a free one. f is a TimeFunction "
          "(CONSTANT, POLYNOMIAL, SINE, RAMP, DATA, CONTROLLER from the flowIn setpoint, "
          "with repeat). The flowOut force is the generalized force along phi.") {
  // Q and U of a masked subhinge are set before the hop-start sweeps too, so FlowModels
  // reading the hinge at the hop start see f(t0).
  setMaskingGranularity(Sweep::StartIo | Sweep::StartHop | Sweep::PreDeriv | Sweep::EndIntegration);
  setOutputGranularity(Sweep::StartHop | Sweep::EndHop);
}

const ChronoMotor::Declaration& ChronoMotor::declaration() {
  static const Declaration declaration;
  return declaration;
}

bool ChronoMotor::prescribedMotion() const {
  const std::string& a = param(d_.actuation);
  if (equalsIgnoringCase(a, "POSITION") || equalsIgnoringCase(a, "SPEED")) return true;
  if (equalsIgnoringCase(a, "FORCE")) return false;
  throw InputError(describe() + ": actuation '" + a +
                   "' is unknown (expected POSITION, SPEED or FORCE)");
}

void ChronoMotor::attach(MultibodySystem& system) {
  MotorModel::attach(system);
  if (rateCount() != 1) {
    throw ModelError(describe() + " is attached to the " +
                     (subhinge() < 0 ? "hinge" : "subhinge " + std::to_string(subhinge())) +
                     " of body '" + bodyName() +
                     "', which has nu = " + std::to_string(rateCount()) +
                     "; a Chrono motor drives exactly one coordinate (attach it to a PIN or "
                     "SLIDER hinge or to one subhinge)");
  }
  configure();
}

void ChronoMotor::processParams(double /*t*/) { configure(); }

void ChronoMotor::configure() {
  const bool prescribed = prescribedMotion();
  const std::string& a = param(d_.actuation);
  actuation_ = !prescribed                         ? Actuation::Force
               : equalsIgnoringCase(a, "POSITION") ? Actuation::Position
                                                   : Actuation::Speed;
  sign_ = param(d_.sign);
  if (sign_ != 1.0 && sign_ != -1.0) {
    throw InputError(describe() + ": sign = " + describeValue(sign_) + " (expected +1 or -1)");
  }
  function_ =
      functionFromParams(param(d_.function), param(d_.coefficients), param(d_.repeat), describe());
  const bool masked = multibody().model().isPrescribed(uStart());
  const std::string where =
      (subhinge() < 0 ? std::string("the hinge") : "subhinge " + std::to_string(subhinge())) +
      " of body '" + bodyName() + "'";
  if (prescribed && !masked) {
    throw ModelError(describe() + ": a " + a + " motor prescribes the motion of " + where +
                     ", which is free; mask it before lock() with "
                     "multibody().setMasked(body, subhinge, true)");
  }
  if (!prescribed && masked) {
    throw ModelError(describe() + ": a FORCE motor drives a free coordinate, but " + where +
                     " is masked or prescribed; unmask it");
  }
}

TimeFunction::Sample ChronoMotor::evaluate(double t) {
  if (!function_.isController()) return function_(t);
  TimeFunction::Setpoint setpoint;
  setpoint.rate = state(d_.setpointRate);
  if (binding(FieldRole::FlowIn, d_.setpoint.index).signal().everWritten()) {
    setpoint.value = in(d_.setpoint);  // current, for a setpoint written by a ContinuousModel
  }
  return function_(t, setpoint);
}

void ChronoMotor::startHop(double t0, double /*t1*/) {
  if (!function_.isController() ||
      !binding(FieldRole::FlowIn, d_.setpoint.index).signal().everWritten()) {
    return;
  }
  TimeFunction::Setpoint setpoint{state(d_.setpointValue), state(d_.setpointRate),
                                  state(d_.setpointTime),
                                  static_cast<int>(state(d_.setpointUpdates))};
  setpoint.update(t0, in(d_.setpoint));
  state(d_.setpointValue) = setpoint.value;
  state(d_.setpointRate) = setpoint.rate;
  state(d_.setpointTime) = setpoint.time;
  state(d_.setpointUpdates) = setpoint.updates;
}

void ChronoMotor::maskedCoordinates(double t) {
  if (actuation_ == Actuation::Force) return;
  const TimeFunction::Sample f = evaluate(t);
  const bool position = actuation_ == Actuation::Position;
  coordinates()[0] = sign_ * (position ? f.value : state(d_.integral));
  rates()[0] = sign_ * (position ? f.rate : f.value);
}

void ChronoMotor::preDeriv(double t) {
  const TimeFunction::Sample f = evaluate(t);
  switch (actuation_) {
    case Actuation::Position:
      multibody().setPrescribedAcceleration(uStart(), sign_ * f.acceleration);
      break;
    case Actuation::Speed:
      multibody().setPrescribedAcceleration(uStart(), sign_ * f.rate);
      break;
    case Actuation::Force:
      multibody().addGeneralizedForce(uStart(), sign_ * f.value);
      break;
  }
}

void ChronoMotor::postDeriv(double t) { derivative(d_.integral) = evaluate(t).value; }

void ChronoMotor::updateFlowOuts(double t) {
  out(d_.force) =
      actuation_ == Actuation::Force ? evaluate(t).value : sign_ * generalizedForces()[0];
}

}  // namespace hopsim::models

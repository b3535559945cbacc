#include "hopsim/models/reaction_wheel.h"

#include <cmath>
#include <numbers>
#include <string>
#include <string_view>

#include "hopsim/signals/error.h"
#include "two_node_force.h"

namespace hopsim::models {
namespace {

constexpr std::string_view kFrictionNames[] = {"NONE", "COULOMB_VISCOUS", "LUGRE", "DAHL"};

double sign(double x) { return static_cast<double>((x > 0.0) - (x < 0.0)); }

}  // namespace

ReactionWheel::Declaration::Declaration()
    : ModelSpec(
          "ReactionWheel", ModelKind::Motor,
          "Reaction wheel on a 1-DOF hinge (omega = U, theta = Q): the hinge gets tau_m - tau_f. "
          "tau_m = k_mtr_trq_constant i when power_state is ON and not overspeed, else 0. "
          "tau_f: NONE 0; COULOMB_VISCOUS k_coulomb sgn omega + k_viscous omega, and at omega = "
          "0 tau_m while |tau_m| <= k_static (stuck), else k_coulomb sgn tau_m; LUGRE sigma0 Z "
          "+ sigma1 Z' + k_viscous omega with Z' = omega - sigma0 |omega| Z/g, g = k_coulomb + "
          "(k_static - k_coulomb) exp(-|omega/k_stribeck_vel|^k_stribeck_exp); DAHL "
          "k_dahl_stiff Z with Z' = omega s|s|^(k_dahl_exp - 1), s = 1 - k_dahl_stiff Z sgn "
          "omega/k_coulomb. At each hop start power_state = power_cmd, and overspeed sets above "
          "k_disable_spd and clears below k_enable_spd. The tachometer reads every "
          "k_tach_read_period from the first I/O step (one of the model's I/O steps must start "
          "at each read: set its period to k_tach_read_period unless the I/O step divides it): P = "
          "floor(theta ppr/2 pi), wheel_tach = 2 pi (P - P_prev)/(ppr k_tach_read_period), 0 "
          "at the first read.") {
  // trq_output follows the state and the current; wheel_tach changes at the tach reads.
  setOutputGranularity(Sweep::StartHop | Sweep::EndHop);
}

const ReactionWheel::Declaration& ReactionWheel::declaration() {
  static const Declaration declaration;
  return declaration;
}

void ReactionWheel::configure() {
  friction_ = static_cast<Friction>(
      detail::parseLaw(*this, "k_friction_model", param(d_.frictionModel), kFrictionNames));
  if (!(param(d_.enableSpeed) < param(d_.disableSpeed))) {
    throw InputError("models." + name() + ".params.k_enable_spd: value " +
                     describeValue(param(d_.enableSpeed)) + " rad/s is not below k_disable_spd = " +
                     describeValue(param(d_.disableSpeed)) + " rad/s (the hysteresis needs it)");
  }
  if (friction_ == Friction::LuGre && param(d_.staticTorque) < param(d_.coulomb)) {
    throw InputError("models." + name() + ".params.k_static: value " +
                     describeValue(param(d_.staticTorque)) + " N*m is below k_coulomb = " +
                     describeValue(param(d_.coulomb)) + " N*m (LUGRE needs k_static >= k_coulomb)");
  }
}

void ReactionWheel::attach(MultibodySystem& system) {
  MotorModel::attach(system);
  if (rateCount() != 1 || coordinateCount() != 1) {
    throw ModelError(describe() + ": the " +
                     (subhinge() < 0 ? "hinge" : "subhinge " + std::to_string(subhinge())) +
                     " of body '" + bodyName() + "' has " + std::to_string(rateCount()) +
                     " DOFs; a reaction wheel needs a 1-DOF (PIN) wheel hinge");
  }
  configure();
}

void ReactionWheel::processParams(double /*t*/) { configure(); }

void ReactionWheel::readTachometer(double t) {
  const double period = param(d_.tachPeriod);
  const std::int64_t reads = state(d_.tachReads);
  if (reads > 0) {
    const double due = state(d_.tachStart) + static_cast<double>(reads) * period;
    // A read within a millionth of the period of its instant is on time (step boundaries are
    // whole ticks); an I/O step that starts after it means none started at the read instant.
    if (t < due - 1e-6 * period) return;
    if (t > due + 1e-6 * period) {
      throw ModelError(describe() + ": no I/O step started at the tachometer read at t = " +
                       describeValue(due) + " s (the next started at " + describeValue(t) +
                       " s); give the model its read period with Simulation::setModelPeriod(\"" +
                       name() + "\", k_tach_read_period)");
    }
  } else {
    state(d_.tachStart) = t;
  }
  const double ppr = static_cast<double>(param(d_.pulsesPerRev));
  const auto pulses =
      static_cast<std::int64_t>(std::floor(coordinates()[0] * ppr / (2.0 * std::numbers::pi)));
  state(d_.tachSpeed) = reads == 0 ? 0.0
                                   : 2.0 * std::numbers::pi *
                                         static_cast<double>(pulses - state(d_.tachPulses)) /
                                         (ppr * period);
  state(d_.tachPulses) = pulses;
  state(d_.tachReads) = reads + 1;
}

void ReactionWheel::startIoStep(double tStart, double /*tEnd*/) { readTachometer(tStart); }

void ReactionWheel::startHop(double /*t0*/, double /*t1*/) {
  state(d_.powerState) = in(d_.powerCmd);
  const double speed = std::abs(rates()[0]);
  if (!state(d_.overspeed) && speed > param(d_.disableSpeed)) state(d_.overspeed) = true;
  if (state(d_.overspeed) && speed < param(d_.enableSpeed)) state(d_.overspeed) = false;
}

double ReactionWheel::motorTorque() {
  if (!state(d_.powerState) || state(d_.overspeed)) return 0.0;
  return param(d_.torqueConstant) * in(d_.current);
}

ReactionWheel::FrictionState ReactionWheel::friction(double motorTorque) const {
  const double omega = rates()[0];
  const double z = state(d_.z);
  switch (friction_) {
    case Friction::None:
      return {0.0, 0.0};
    case Friction::CoulombViscous:
      if (omega == 0.0) {
        if (std::abs(motorTorque) <= param(d_.staticTorque)) return {motorTorque, 0.0};
        return {param(d_.coulomb) * sign(motorTorque), 0.0};
      }
      return {param(d_.coulomb) * sign(omega) + param(d_.viscous) * omega, 0.0};
    case Friction::LuGre: {
      const double fc = param(d_.coulomb), fs = param(d_.staticTorque);
      const double g =
          fc + (fs - fc) * std::exp(-std::pow(std::abs(omega / param(d_.stribeckVelocity)),
                                              param(d_.stribeckExponent)));
      const double sigma0 = param(d_.lugreStiffness);
      const double zRate = omega - sigma0 * std::abs(omega) * z / g;
      return {sigma0 * z + param(d_.lugreDamping) * zRate + param(d_.viscous) * omega, zRate};
    }
    case Friction::Dahl: {
      const double stiffness = param(d_.dahlStiffness);
      // s |s|^(n-1) is s^n for s >= 0 and stays real (and restoring) past the saturation
      // deflection, where s < 0.
      const double s = 1.0 - stiffness * z * sign(omega) / param(d_.coulomb);
      const double zRate =
          s == 0.0 ? 0.0 : omega * s * std::pow(std::abs(s), param(d_.dahlExponent) - 1.0);
      return {stiffness * z, zRate};
    }
  }
  return {0.0, 0.0};
}

void ReactionWheel::preDeriv(double /*t*/) {
  const double tauM = motorTorque();
  const Eigen::Matrix<double, 1, 1> torque(tauM - friction(tauM).torque);
  applyGeneralizedForce(torque);
}

void ReactionWheel::postDeriv(double /*t*/) { derivative(d_.z) = friction(motorTorque()).zRate; }

void ReactionWheel::updateFlowOuts(double /*t*/) {
  const double tauM = motorTorque();
  out(d_.torque) = tauM - friction(tauM).torque;
  out(d_.tach) = state(d_.tachSpeed);
}

}  // namespace hopsim::models

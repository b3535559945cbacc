#include "hopsim/models/pulsed_thruster.h"

namespace hopsim::models {

PulsedThruster::Declaration::Declaration()
    : Declaration(
          "PulsedThruster",
          "Pulsed thruster on a node: at each of its I/O step starts t_i, a command "
          "on_time_cmd >= min_commanded_time (and > 0) starts a pulse on [t_i, t_i + "
          "on_time_cmd), replacing one in progress; during a pulse F = level * axis (node "
          "axes) unless fuel_empty; mass flow F / (isp g0) into fuel_used when burns_fuel. "
          "The zero crossing pulse_end (g = off_time - t) ends the hop at the pulse end, so "
          "the impulse is level * on_time_cmd for any step size. The command is sampled, so "
          "only fuel_empty feeds through.") {}

PulsedThruster::Declaration::Declaration(std::string className, std::string doc)
    : Fields(std::move(className), std::move(doc)) {
  // The command is read in startIoStep only; the thrust follows the pulse state.
  FieldDeclarator<FieldRole::FlowOut, double>(*this, thrust.index).feedsFrom(fuelEmpty);
  FieldDeclarator<FieldRole::FlowOut, double>(*this, fuelFlow.index).feedsFrom(fuelEmpty);
}

const PulsedThruster::Declaration& PulsedThruster::declaration() {
  static const Declaration declaration;
  return declaration;
}

void PulsedThruster::startIoStep(double tStart, double /*tEnd*/) {
  const double command = in(d_.onTimeCmd);
  if (command > 0.0 && command >= param(d_.minCommandedTime)) {
    state(d_.thrusting) = true;
    state(d_.offTime) = tStart + command;
  }
}

void PulsedThruster::startHop(double t0, double /*t1*/) {
  // A pulse that ends exactly at a hop start has g = 0 there, which cannot trigger the
  // crossing in that hop: it ends here instead.
  if (state(d_.thrusting) && t0 >= state(d_.offTime)) state(d_.thrusting) = false;
}

double PulsedThruster::crossingResidual(CrossingKey /*c*/, double t) {
  // Between pulses a constant positive value: nothing to cross.
  return state(d_.thrusting) ? state(d_.offTime) - t : 1.0;
}

void PulsedThruster::onCrossing(CrossingKey /*c*/, double /*t*/) { state(d_.thrusting) = false; }

double PulsedThruster::commandedThrust(double /*t*/) {
  return state(d_.thrusting) ? pulseLevel() : 0.0;
}

}  // namespace hopsim::models

#include "hopsim/models/fuel_tank.h"

#include <algorithm>

#include "hopsim/signals/error.h"

namespace hopsim::models {
namespace {

using spatial::Matrix3;
using spatial::Vector3;

/// The symmetric tensor with diagonal d and off-diagonal entries p = [Ixy, Ixz, Iyz].
Matrix3 inertiaTensor(const Vector3& d, const Vector3& p) {
  Matrix3 I;
  I << d.x(), p.x(), p.y(), p.x(), d.y(), p.z(), p.y(), p.z(), d.z();
  return I;
}

}  // namespace

FuelTank::Declaration::Declaration()
    : ModelSpec("FuelTank", ModelKind::Actuator,
                "Fuel tank owning its body's mass properties: fuel = starting_fuel - "
                "fuel_consumed with d(fuel_consumed)/dt = sum(fuel_flow) (0 once empty); "
                "lambda = clamp(fuel / starting_fuel, 0, 1); m = empty_mass + fuel, CM = "
                "empty_cm + lambda (full_cm - empty_cm), I_cm = I_empty + lambda (I_full - "
                "I_empty), set on the body before each evaluation's kinematics. The zero "
                "crossing burnout (g = fuel, falling) sets empty (output 1) and stops the draw. "
                "Outputs are states: no feed-through.") {
  // The outputs change with the state only; lock() adds the sweeps readers need.
  setOutputGranularity(Sweep::StartHop | Sweep::EndHop);
  // The mass properties follow the state before every sweep that reads the multibody system,
  // also at hop boundaries (after a user set fuel_consumed, or the burnout snapped it).
  setMaskingGranularity(Sweep::StartIo | Sweep::StartHop | Sweep::PreDeriv | Sweep::EndIntegration |
                        Sweep::EndHop);
}

const FuelTank::Declaration& FuelTank::declaration() {
  static const Declaration declaration;
  return declaration;
}

void FuelTank::configure() {
  const double emptyMass = param(d_.emptyMass);
  const double fullMass = emptyMass + param(d_.startingFuel);
  emptyCm_ = Vector3(param(d_.emptyCm));
  fullCm_ = Vector3(param(d_.fullCm));
  emptyInertia_ = inertiaTensor(Vector3(param(d_.emptyInertia)), Vector3(param(d_.emptyProducts)));
  fullInertia_ = inertiaTensor(Vector3(param(d_.fullInertia)), Vector3(param(d_.fullProducts)));
  // Both ends checked; every interpolated value is a convex combination of the two, so valid.
  spatial::SpatialInertia::fromCmInertia(emptyMass, emptyCm_, emptyInertia_,
                                         describe() + ": empty_inertia/empty_products");
  spatial::SpatialInertia::fromCmInertia(fullMass, fullCm_, fullInertia_,
                                         describe() + ": full_inertia/full_products");
}

void FuelTank::attach(MultibodySystem& system) {
  ActuatorModel::attach(system);
  const multibody::Node& node = system.model().node(this->node());
  if (node.body == multibody::kWorldBody) {
    throw ModelError(describe() + ": node '" + node.name +
                     "' is fixed on the world body; a fuel tank needs a node on a body with mass");
  }
  body_ = node.body;
  configure();
}

void FuelTank::processParams(double /*t*/) { configure(); }

void FuelTank::startHop(double /*t0*/, double /*t1*/) {
  // Set by the user between hops: a tank at or past empty is empty (a crossing cannot see a
  // condition already met), one set back below it is refilled.
  const bool exhausted = state(d_.fuelConsumed) >= param(d_.startingFuel);
  if (exhausted) state(d_.fuelConsumed) = param(d_.startingFuel);
  state(d_.empty) = exhausted;
}

double FuelTank::fuel() const {
  // Past empty only at trial states beyond the burnout, which the rollback discards.
  return std::clamp(param(d_.startingFuel) - state(d_.fuelConsumed), 0.0, param(d_.startingFuel));
}

void FuelTank::maskedCoordinates(double /*t*/) {
  const double fuel = this->fuel();
  const double lambda = fuel / param(d_.startingFuel);
  multibody().setMassProperties(
      body_, spatial::SpatialInertia::fromCmInertiaUnchecked(
                 param(d_.emptyMass) + fuel, emptyCm_ + lambda * (fullCm_ - emptyCm_),
                 emptyInertia_ + lambda * (fullInertia_ - emptyInertia_)));
}

void FuelTank::updateFlowOuts(double /*t*/) {
  const double fuel = this->fuel();
  out(d_.fuelRemaining) = fuel;
  out(d_.emptyOut) = state(d_.empty) ? 1 : 0;
  out(d_.mass) = param(d_.emptyMass) + fuel;
}

void FuelTank::postDeriv(double /*t*/) {
  derivative(d_.fuelConsumed) = state(d_.empty) ? 0.0 : in(d_.fuelFlow).sum();
}

double FuelTank::crossingResidual(CrossingKey /*c*/, double /*t*/) {
  // Once empty the state is pinned at starting_fuel, so g stays exactly 0 and cannot trigger.
  return param(d_.startingFuel) - state(d_.fuelConsumed);
}

void FuelTank::onCrossing(CrossingKey /*c*/, double /*t*/) {
  state(d_.empty) = true;
  state(d_.fuelConsumed) = param(d_.startingFuel);
}

}  // namespace hopsim::models

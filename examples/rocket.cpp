// A rocket in free space: a FULL6DOF body pushed by a thruster (an ActuatorModel on its nozzle
// node) while a tank model (a DartsModel) burns its mass down in maskedCoordinates. The speed
// follows Tsiolkovsky's rocket equation v(t) = ve ln(m0 / m(t)), ve = F / ṁ, which the example
// checks (docs/multibody.md, "In a simulation"; docs/model-authors.md, "Writing a DartsModel").

#include <cmath>
#include <cstdio>
#include <memory>

#include "hopsim/core/darts_model.h"
#include "hopsim/core/simulation.h"

using namespace hopsim;
using spatial::Matrix3;
using spatial::RigidTransform;
using spatial::SpatialInertia;
using spatial::Vector3;

/// A constant thrust along the x axis of its node.
class Thruster final : public ActuatorModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("Thruster", ModelKind::Actuator, "constant thrust along node x") {
      setMaskingGranularity(Granularity());  // it has nothing to prescribe
    }
    ParamKey<double> thrust = param<double>("thrust").unit("N").min(0.0).describe("thrust");
  };
  static const Declaration& declaration() {
    static const Declaration d;
    return d;
  }
  explicit Thruster(std::string name) : ActuatorModel(std::move(name), declaration()) {}
  void preDeriv(double) override {
    applyForce({param(d_.thrust), 0.0, 0.0}, Vector3::Zero(), ForceFrame::Node);
  }

 private:
  const Declaration& d_ = declaration();
};

/// A body whose mass burns at a constant rate: a uniform sphere of shrinking mass, set in
/// maskedCoordinates before every derivative evaluation.
class Tank final : public DartsModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("Tank", ModelKind::Darts, "mass m0 - mdot t, uniform sphere") {}
    ParamKey<double> m0 = param<double>("m0").unit("kg").above(0.0).describe("initial mass");
    ParamKey<double> mdot = param<double>("mdot").unit("kg/s").min(0.0).describe("burn rate");
    ParamKey<double> radius = param<double>("radius").unit("m").above(0.0).defaultValue(1.0);
  };
  static const Declaration& declaration() {
    static const Declaration d;
    return d;
  }
  Tank(std::string name, std::string body)
      : DartsModel(std::move(name), declaration()), body_(std::move(body)) {}
  void maskedCoordinates(double t) override {
    const double m = param(d_.m0) - param(d_.mdot) * t;
    const double I = 0.4 * m * param(d_.radius) * param(d_.radius);
    multibody().setMassProperties(
        multibody().model().bodyIndex(body_),
        SpatialInertia::fromCmInertia(m, Vector3::Zero(), I * Matrix3::Identity()));
  }

 private:
  const Declaration& d_ = declaration();
  std::string body_;
};

int main() {
  const double m0 = 1000.0, mdot = 5.0, thrust = 15000.0, burn = 100.0;
  IntegratorOptions tight;
  tight.relativeTolerance = 1e-12;
  tight.absoluteTolerance = 1e-12;
  Simulation sim({.ioStepSize = 1.0, .integrator = "rkf45", .integratorOptions = tight});
  auto& tree = sim.multibody().editModel();
  const auto rocket =
      tree.addBody("rocket", multibody::kWorldBody,
                   SpatialInertia::fromCmInertia(m0, Vector3::Zero(), 400.0 * Matrix3::Identity()),
                   multibody::Hinge::full6DofInertial());
  tree.addNode("nozzle", rocket, RigidTransform::fromTranslation({-1.0, 0.0, 0.0}));
  sim.addModel<Thruster>("engine").attachToNode("nozzle");
  sim.set("models.engine.params.thrust", thrust);
  sim.addModel(makeModel<Tank>("tank", "rocket"));
  sim.set("models.tank.params.m0", m0);
  sim.set("models.tank.params.mdot", mdot);
  sim.lock();

  double worst = 0.0;
  for (int k = 1; k <= static_cast<int>(burn); ++k) {
    sim.advanceTimeTo(k);
    // FULL6DOF_INERTIAL rates are in the world frame: U = [ω; v].
    const double v = sim.multibody().u(rocket)[3];
    const double tsiolkovsky = thrust / mdot * std::log(m0 / (m0 - mdot * sim.time()));
    worst = std::max(worst, std::abs(v - tsiolkovsky));
  }
  const double v = sim.multibody().u(rocket)[3];
  std::printf("after a %.0f s burn: v = %.9f m/s (rocket equation %.9f m/s), worst error %.2e\n",
              burn, v, thrust / mdot * std::log(m0 / (m0 - mdot * burn)), worst);
  return worst < 1e-8 ? 0 : 1;
}

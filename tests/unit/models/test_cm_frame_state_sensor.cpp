// CmFrameStateSensor against an analytic motion. The rig is a torque-free body with spherical
// inertia about a CM offset c from its origin, no gravity: its angular velocity w is constant
// in W and its CM moves in a straight line, r(t) = r0 + v t, R_WB(t) = R(w, |w| t). rk4 follows
// the linear motion exactly and the quaternion's constant-rate rotation to O((|w| h)^5) per
// step, hence the 1e-10 tolerances. Each frame is checked by its defining properties (which
// axis r and v lie along), not by the formulas the model uses; the composite CM against the
// multibody system's own system CM and momentum (MultibodySystem::energyAndMomentum).

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "hopsim/core/simulation.h"
#include "hopsim/core/spatial/rotation.h"
#include "hopsim/models/cm_frame_state_sensor.h"
#include "hopsim/models/standard_models.h"
#include "hopsim/signals/error.h"
#include "sensor_samples.h"

namespace hopsim {
namespace {

using multibody::Hinge;
using multibody::kWorldBody;
using spatial::Matrix3;
using spatial::Quaternion;
using spatial::RigidTransform;
using spatial::SpatialInertia;
using spatial::Vector3;
using test::vectorOf;

const Vector3 kOmega(0.2, -0.3, 0.4);       // rad/s, world axes
const Vector3 kCm(0.1, -0.2, 0.05);         // CM in the body frame, m
const Vector3 kR0(7.0e6, 1.0e5, -2.0e5);    // CM at t = 0, m
const Vector3 kV(200.0, 7500.0, 300.0);     // CM velocity, m/s
const Vector3 kNodeOffset(0.5, 0.4, -0.3);  // node origin in the body frame, m
const Matrix3 kR_BN = spatial::rotationFromAxisAngle(Vector3(1, 1, 0).normalized(), 0.7);

/// The spinning body "craft" (free, rates in W) with node "probe" and the sensor "cm" on it;
/// the sensor's outputs tied to signals of the same names.
void buildRig(Simulation& sim) {
  auto& tree = sim.multibody().editModel();
  const auto b = tree.addBody("craft", kWorldBody,
                              SpatialInertia::fromCmInertia(2.0, kCm, 0.1 * Matrix3::Identity()),
                              Hinge::full6DofInertial());
  tree.addNode("probe", b, RigidTransform(kR_BN, kNodeOffset));
  sim.multibody().q(b) << 1, 0, 0, 0, kR0 - kCm;  // R_WB(0) = I: the origin at r0 - c
  sim.multibody().u(b) << kOmega, kV - kOmega.cross(kCm);
  sim.addModel<models::CmFrameStateSensor>("cm").attachToNode("probe");
  for (const char* name : {"angles", "framePosition", "frameVelocity"}) {
    sim.addSignal(name, ElementType::Double, 3);
    sim.tie("cm", name, name);
  }
  sim.addSignal("quat", ElementType::Double, 4);
  sim.tie("cm", "quat", "quat");
}

Matrix3 bodyRotation(double t) {
  return spatial::rotationFromAxisAngle(kOmega.normalized(), kOmega.norm() * t);
}

Quaternion quaternionOf(const Simulation& sim, const std::string& path) {
  const auto v = std::get<std::vector<double>>(sim.get(path));
  REQUIRE(v.size() == 4);
  return {v[0], v[1], v[2], v[3]};
}

/// R_WF recovered from the sensor's q_FN and the analytic R_WN.
Matrix3 frameOf(const Simulation& sim, double t) {
  const Matrix3 R_FN = spatial::rotationFromQuaternion(quaternionOf(sim, "signals.quat"));
  return bodyRotation(t) * kR_BN * R_FN.transpose();
}

}  // namespace

TEST_CASE("CmFrameStateSensor: each frame type has r and v along its defining axes") {
  for (const char* type : {"LVLH", "UVW", "CW", "VELOCITY_ALIGN"}) {
    CAPTURE(type);
    Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
    buildRig(sim);
    sim.set("models.cm.params.frameType", std::string(type));
    sim.set("models.cm.params.centerOfMassType", std::string("COMPONENT"));
    sim.lock();
    double worst = 0.0;
    for (int k = 0; k < 300; ++k) {
      sim.advanceOverHop();
      const double t = sim.time();
      const Vector3 r = kR0 + kV * t;
      worst = std::max(worst, (vectorOf(sim, "signals.framePosition") - r).norm() / r.norm());
      worst = std::max(worst, (vectorOf(sim, "signals.frameVelocity") - kV).norm() / kV.norm());
      const Matrix3 R_WF = frameOf(sim, t);
      REQUIRE(spatial::isRotation(R_WF, 1e-10));
      // r and v in frame axes, scaled to unit length.
      const Vector3 rF = R_WF.transpose() * r.normalized(), vF = R_WF.transpose() * kV.normalized();
      const std::string name = type;
      if (name == "LVLH") {
        // z to nadir, v in the x-z plane with a positive x (along-track).
        worst = std::max({worst, (rF - Vector3(0, 0, -1)).norm(), std::fabs(vF.y())});
        CHECK(vF.x() > 0.0);
      } else if (name == "VELOCITY_ALIGN") {
        // x along v, r in the x-z plane with z toward the centre.
        worst = std::max({worst, (vF - Vector3(1, 0, 0)).norm(), std::fabs(rF.y())});
        CHECK(rF.z() < 0.0);
      } else {
        // UVW and CW: x radial, v in the x-y plane with a positive y (along-track).
        worst = std::max({worst, (rF - Vector3(1, 0, 0)).norm(), std::fabs(vF.z())});
        CHECK(vF.y() > 0.0);
      }
    }
    CHECK(worst < 1e-10);
  }
}

TEST_CASE("CmFrameStateSensor: the origin is the node, its body's CM or its vehicle's CM") {
  SUBCASE("FIXED: the node origin and its velocity") {
    Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
    buildRig(sim);
    sim.set("models.cm.params.centerOfMassType", std::string("fixed"));
    sim.lock();
    for (int k = 0; k < 40; ++k) sim.advanceOverHop();
    const double t = sim.time();
    const Vector3 arm = bodyRotation(t) * (kNodeOffset - kCm);
    CHECK((vectorOf(sim, "signals.framePosition") - (kR0 + kV * t + arm)).norm() < 1e-8);
    CHECK((vectorOf(sim, "signals.frameVelocity") - (kV + kOmega.cross(arm))).norm() < 1e-10);
  }
  SUBCASE("COMPOSITE: the system CM and momentum over mass of a two-body vehicle") {
    Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
    buildRig(sim);
    auto& tree = sim.multibody().editModel();
    const auto panel = tree.addBody(
        "panel", tree.bodyIndex("craft"),
        SpatialInertia::fromCmInertia(1.5, Vector3(0.3, 0, 0), Vector3(0.1, 0.2, 0.3).asDiagonal()),
        Hinge::pin(Vector3::UnitY()), RigidTransform(Matrix3::Identity(), Vector3(0.4, 0, 0)));
    sim.multibody().u(panel)[0] = 0.8;
    sim.lock();
    double worst = 0.0;
    for (int k = 0; k < 40; ++k) {
      sim.advanceOverHop();
      const auto& system = sim.multibody().energyAndMomentum();
      worst = std::max(
          worst, (vectorOf(sim, "signals.framePosition") - system.p_WoScm_W).norm() / kR0.norm());
      worst = std::max(
          worst, (vectorOf(sim, "signals.frameVelocity") - system.L_W / system.totalMass).norm() /
                     kV.norm());
    }
    CHECK(worst < 1e-14);
  }
}

TEST_CASE("CmFrameStateSensor: RELATIVE velocity subtracts the planet's rotation") {
  const Vector3 planet(0, 0, 7.292115e-5);
  Simulation sim({.ioStepSize = 0.01, .integrator = "rk4"});
  buildRig(sim);
  sim.set("models.cm.params.centerOfMassType", std::string("COMPONENT"));
  sim.set("models.cm.params.velocityReference", std::string("RELATIVE"));
  sim.set("models.cm.params.planetRate", std::vector<double>{planet.x(), planet.y(), planet.z()});
  sim.set("models.cm.params.frameType", std::string("VELOCITY_ALIGN"));
  sim.lock();
  for (int k = 0; k < 20; ++k) sim.advanceOverHop();
  const Vector3 r = kR0 + kV * sim.time();
  const Vector3 relative = kV - planet.cross(r);
  CHECK((vectorOf(sim, "signals.frameVelocity") - relative).norm() < 1e-9);
  const Vector3 xF = frameOf(sim, sim.time()).col(0);
  CHECK((xF - relative.normalized()).norm() < 1e-10);
}

TEST_CASE("CmFrameStateSensor: angles are R_FN's Euler angles in the requested range") {
  for (const char* modulo : {"ZERO_TO_TWO_PI", "MINUS_PI_TO_PI"}) {
    for (const char* sequence : {"ZYX", "XYZ", "ZXZ"}) {
      CAPTURE(modulo);
      CAPTURE(sequence);
      Simulation sim({.ioStepSize = 0.1, .integrator = "rk4"});
      buildRig(sim);
      sim.set("models.cm.params.angleModulo", std::string(modulo));
      sim.set("models.cm.params.eulerSequence", std::string(sequence));
      sim.lock();
      const bool positive = std::string(modulo) == "ZERO_TO_TWO_PI";
      const double low = positive ? 0.0 : -std::numbers::pi;
      for (int k = 0; k < 100; ++k) {
        sim.advanceOverHop();
        const Vector3 angles = vectorOf(sim, "signals.angles");
        REQUIRE(angles.minCoeff() >= low);
        REQUIRE(angles.maxCoeff() < low + 2.0 * std::numbers::pi);
        const Matrix3 R_FN = spatial::rotationFromQuaternion(quaternionOf(sim, "signals.quat"));
        const Matrix3 fromAngles =
            spatial::rotationFromEuler(spatial::eulerSequenceFromString(sequence), angles);
        REQUIRE((fromAngles - R_FN).norm() < 1e-12);
      }
    }
  }
}

TEST_CASE("CmFrameStateSensor: bad names and a degenerate frame are refused clearly") {
  SUBCASE("unknown frame type") {
    Simulation sim({.ioStepSize = 0.05});
    buildRig(sim);
    sim.set("models.cm.params.frameType", std::string("ECEF"));
    sim.lock();
    CHECK_THROWS_WITH_AS(sim.advanceOverHop(),
                         doctest::Contains("models.cm.params.frameType: unknown value 'ECEF' "
                                           "(expected VELOCITY_ALIGN, LVLH, UVW, CW"),
                         InputError);
  }
  SUBCASE("unknown Euler sequence") {
    Simulation sim({.ioStepSize = 0.05});
    buildRig(sim);
    sim.set("models.cm.params.eulerSequence", std::string("XXY"));
    sim.lock();
    CHECK_THROWS_WITH_AS(sim.advanceOverHop(), doctest::Contains("models.cm.params.eulerSequence"),
                         InputError);
  }
  SUBCASE("velocity along the position") {
    Simulation sim({.ioStepSize = 0.05});
    buildRig(sim);
    sim.multibody().u(sim.multibody().model().bodyIndex("craft")) << 0, 0, 0, 1e-3 * kR0;
    sim.set("models.cm.params.centerOfMassType", std::string("COMPONENT"));
    const auto run = [&sim] {
      sim.lock();
      sim.advanceOverHop();
    };
    CHECK_THROWS_WITH_AS(
        run(),
        doctest::Contains(
            "model 'cm' (CmFrameStateSensor): the LVLH frame needs a position and a velocity that "
            "are nonzero and not parallel"),
        InputError);
  }
  SUBCASE("missing node") {
    Simulation sim({.ioStepSize = 0.05});
    buildRig(sim);
    dynamic_cast<models::CmFrameStateSensor&>(sim.model("cm")).attachToNode("nowhere");
    CHECK_THROWS_WITH_AS(sim.lock(), doctest::Contains("nowhere"), ModelError);
  }
}

TEST_CASE("CmFrameStateSensor: the registry creates it by class name") {
  const auto sensor = models::standardRegistry().create("CmFrameStateSensor", "s",
                                                        {{"frameType", std::string("UVW")}});
  CHECK(sensor->spec().className() == "CmFrameStateSensor");
}

}  // namespace hopsim

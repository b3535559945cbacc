#pragma once
// DartsModels for the tests of the multibody system in a simulation: each exercises one part
// of the family's interface (node forces, node sensing, hinge forces, hinge sensing, masked
// coordinates, run-time mass changes) with a result known in closed form.

#include <cmath>
#include <functional>
#include <string>

#include "continuous_test_models.h"
#include "hopsim/core/darts_model.h"

namespace hopsim::test {

/// Up to 6 values (a hinge's U) on the stack: passing one to the family's Ref arguments does
/// not allocate.
using HingeVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 6, 1>;

/// A constant force and couple at its node, expressed in the frame its param says.
class ConstantForce final : public ActuatorModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("ConstantForce", ModelKind::Actuator, "constant node force") {}
    ParamKey<Eigen::VectorXd> force =
        param<Eigen::VectorXd>("force").length(3).unit("N").defaultValue(0.0);
    ParamKey<Eigen::VectorXd> torque =
        param<Eigen::VectorXd>("torque").length(3).unit("N*m").defaultValue(0.0);
    ParamKey<std::int64_t> frame = param<std::int64_t>("frame").defaultValue(0).min(0).max(2);
  };
  HOPSIM_TEST_DECLARATION
  explicit ConstantForce(std::string name) : ActuatorModel(std::move(name), declaration()) {}
  void preDeriv(double) override {
    applyForce(param(d_.force), param(d_.torque), static_cast<ForceFrame>(param(d_.frame)));
  }

 private:
  const Declaration& d_ = declaration();
};

/// Records its node's pose, velocity and acceleration at every postDeriv.
class NodeProbe final : public SensorModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("NodeProbe", ModelKind::Sensor, "node kinematics") {}
  };
  HOPSIM_TEST_DECLARATION
  explicit NodeProbe(std::string name) : SensorModel(std::move(name), declaration()) {}
  void postDeriv(double t) override {
    time = t;
    pose = nodePose();
    velocity = nodeVelocity();
    acceleration = nodeAcceleration();
  }
  double time = 0.0;
  spatial::RigidTransform pose;
  spatial::SpatialMotion velocity;
  spatial::SpatialMotion acceleration;
};

/// A constant generalized force on its hinge's U entries; records what the hinge reports.
class HingeDrive final : public MotorModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("HingeDrive", ModelKind::Motor, "constant generalized force") {}
    ParamKey<double> f = param<double>("f").defaultValue(0.0);
  };
  HOPSIM_TEST_DECLARATION
  explicit HingeDrive(std::string name) : MotorModel(std::move(name), declaration()) {}
  void preDeriv(double) override {
    const HingeVector f = HingeVector::Constant(rateCount(), param(d_.f));
    applyGeneralizedForce(f);
  }
  void postDeriv(double) override {
    q = coordinates();
    u = rates();
    udot = accelerations();
    force = generalizedForces();
    hingeForce = multibody().hingeForces()[static_cast<std::size_t>(body())];
  }
  HingeVector q, u, udot, force;
  spatial::SpatialForce hingeForce;  ///< parent on child, about Mo in M

 private:
  const Declaration& d_ = declaration();
};

/// Prescribes a one-coordinate subhinge's motion θ(t) = a sin(ω t) + rate t: sets the masked Q
/// and U in maskedCoordinates and U̇ in preDeriv; records the generalized force the motion
/// needs.
class SinePin final : public MotorModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("SinePin", ModelKind::Motor, "theta = a sin(w t) + rate t") {}
    ParamKey<double> a = param<double>("a").unit("rad").defaultValue(0.5);
    ParamKey<double> w = param<double>("w").unit("rad/s").defaultValue(2.0);
    ParamKey<double> rate = param<double>("rate").unit("rad/s").defaultValue(0.0);
  };
  HOPSIM_TEST_DECLARATION
  explicit SinePin(std::string name) : MotorModel(std::move(name), declaration()) {}
  void maskedCoordinates(double t) override {
    const double a = param(d_.a), w = param(d_.w), rate = param(d_.rate);
    coordinates()[0] = a * std::sin(w * t) + rate * t;
    rates()[0] = a * w * std::cos(w * t) + rate;
  }
  void preDeriv(double t) override {
    const double w = param(d_.w);
    const HingeVector udot = HingeVector::Constant(1, -param(d_.a) * w * w * std::sin(w * t));
    prescribeAcceleration(udot);
  }
  void postDeriv(double t) override {
    time = t;
    force = generalizedForces()[0];
  }
  double time = 0.0;
  double force = 0.0;

 private:
  const Declaration& d_ = declaration();
};

/// Changes a body's mass properties from inside maskedCoordinates, from time `at` on.
class MassChanger final : public DartsModel {
 public:
  struct Declaration : ModelSpec {
    Declaration() : ModelSpec("MassChanger", ModelKind::Darts, "run-time mass change") {}
  };
  HOPSIM_TEST_DECLARATION
  MassChanger(std::string name, std::string body, double at, spatial::SpatialInertia after)
      : DartsModel(std::move(name), declaration()),
        body_(std::move(body)),
        at_(at),
        after_(after) {}
  void maskedCoordinates(double t) override {
    if (t >= at_) multibody().setMassProperties(multibody().model().bodyIndex(body_), after_);
  }

 private:
  std::string body_;
  double at_;
  spatial::SpatialInertia after_;
};

}  // namespace hopsim::test

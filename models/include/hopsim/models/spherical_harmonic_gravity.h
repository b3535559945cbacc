#pragma once
/// @file
/// SphericalHarmonicGravity: an N x M spherical-harmonic gravity field (point mass + J2 by
/// default) on one body, with an optional gravity-gradient torque.

#include <cstdint>
#include <vector>

#include "hopsim/core/darts_model.h"
#include "hopsim/models/spherical_harmonic_field.h"

namespace hopsim::models {

/// SphericalHarmonicGravity's equations, conventions and choices:
/// docs/models/SphericalHarmonicGravity.md.
class SphericalHarmonicGravity final : public ActuatorModel {
 public:
  struct Declaration : ModelSpec {
    Declaration();
    ParamKey<double> mu = param<double>("gravityParameter")
                              .unit("m^3/s^2")
                              .defaultValue(3.986004418e14)
                              .above(0.0)
                              .describe("mu = G M of the planet (default: Earth, EGM2008)");
    ParamKey<double> radius = param<double>("equatorialRadius")
                                  .unit("m")
                                  .defaultValue(6378136.3)
                                  .above(0.0)
                                  .describe("R, the reference radius of the coefficients");
    ParamKey<std::int64_t> degree =
        param<std::int64_t>("degree")
            .defaultValue(std::int64_t{2})
            .bounds(0.0, 80.0)
            .describe("N, the highest degree n used (the unnormalized recursion holds to 80)");
    ParamKey<std::int64_t> order = param<std::int64_t>("order")
                                       .defaultValue(std::int64_t{0})
                                       .min(0.0)
                                       .describe("M <= N, the highest order m used");
    ParamKey<Eigen::VectorXd> c =
        param<Eigen::VectorXd>("cCoefficients")
            .length("nc")
            .defaultValue(std::vector<double>{1.0, 0.0, 0.0, -1.08262668e-3, 0.0, 0.0})
            .describe(
                "C_nm, lower triangular [C00, C10, C11, C20, C21, C22, ...], (N+1)(N+2)/2 "
                "entries; default point mass + Earth J2 (C20 = -J2, unnormalized)");
    ParamKey<Eigen::VectorXd> s =
        param<Eigen::VectorXd>("sCoefficients")
            .length("nc")
            .defaultValue(std::vector<double>(6, 0.0))
            .describe("S_nm in the layout of cCoefficients (S_n0 is unused)");
    ParamKey<bool> normalized =
        param<bool>("normalized")
            .defaultValue(false)
            .describe(
                "the coefficients are fully normalized: C_nm = sqrt((2 - delta_m0)(2n+1)(n-m)!/"
                "(n+m)!) Cbar_nm");
    ParamKey<Eigen::VectorXd> center =
        param<Eigen::VectorXd>("center").length(3).unit("m").defaultValue(0.0).describe(
            "world position of the planet centre");
    ParamKey<double> rotationRate =
        param<double>("rotationRate")
            .unit("rad/s")
            .defaultValue(0.0)
            .describe("spin of the planet-fixed frame about the world z axis");
    ParamKey<double> planetAngle =
        param<double>("planetAngle")
            .unit("rad")
            .defaultValue(0.0)
            .describe("angle of the planet-fixed frame about the world z axis at t = 0");
    ParamKey<bool> apply = param<bool>("apply").defaultValue(true).describe(
        "apply the force (and torque) to the body; off, the model only computes its outputs");
    ParamKey<bool> useGravityGradient = param<bool>("useGravityGradient")
                                            .defaultValue(false)
                                            .describe("add the gravity-gradient torque");
    OutKey<Eigen::VectorXd> linearAccel =
        flowOut<Eigen::VectorXd>("linearAccel")
            .length(3)
            .unit("m/s^2")
            .noFeedThrough()
            .describe("gravitational acceleration at the body's centre of mass, world axes");
    OutKey<Eigen::VectorXd> angularAccel =
        flowOut<Eigen::VectorXd>("angularAccel")
            .length(3)
            .unit("rad/s^2")
            .noFeedThrough()
            .describe("I^-1 times the gravity-gradient torque, world axes (0 without it)");
    OutKey<double> potential =
        flowOut<double>("potential")
            .unit("J/kg")
            .noFeedThrough()
            .describe("potential energy per unit mass -U (negative, zero at infinity)");
  };
  static const Declaration& declaration();

  explicit SphericalHarmonicGravity(std::string name)
      : ActuatorModel(std::move(name), declaration()) {}

  void processParams(double t) override;
  void preDeriv(double t) override;
  void updateFlowOuts(double t) override;

 protected:
  /// @throws ModelError when the node is on the world body; InputError for an order above the
  /// degree or coefficient vectors of the wrong length.
  void attach(MultibodySystem& system) override;

 private:
  /// The field, the force and the gradient torque at time t for the current kinematics.
  struct Gravity {
    spatial::Vector3 accel_W;
    double potential;
    spatial::Vector3 torque_W;
    spatial::Matrix3 inertia_W;
  };
  Gravity evaluate(double t) const;
  /// Checks the params and configures the field.
  void configure();

  const Declaration& d_ = declaration();
  MultibodySystem::BodyIndex body_ = -1;
  SphericalHarmonicField field_;
};

}  // namespace hopsim::models
